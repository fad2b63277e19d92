"""Build Lucene queries for Neo4j full-text indexes from untrusted text, scoped to one user."""

from __future__ import annotations

import re

_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_WORD = re.compile(r"\w+", re.UNICODE)
_OPERATORS = {"AND", "OR", "NOT", "TO"}
MAX_TERMS = 64  # Lucene's clause limit is 1024; a question never needs more than this
# Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET): the analyser of the turn,
# piece and fact indexes (schema 0014) drops them from the text and from the query alike.
ENGLISH_STOP_WORDS = frozenset("""a an and are as at be but by for if in into is it no not of on or
such that the their then there these they this to was will with""".split())


def escape(text: str) -> str:
    """Escape every Lucene special character and defuse boolean operator words."""
    escaped = _SPECIAL.sub(r"\\\1", text)
    return " ".join(w.lower() if w in _OPERATORS else w for w in escaped.split())


def terms(text: str) -> list[str]:
    """Word tokens of the text (deduplicated, in order, lower-cased, capped)."""
    seen: dict[str, None] = {}
    for w in _WORD.findall(text.lower()):
        if w not in seen:
            seen[w] = None
    return list(seen)[:MAX_TERMS]


def user_scoped_query(text: str, user_id: str, fields: tuple[str, ...] = ("text",)) -> str | None:
    """`+user_id:"…"^0 +(field:t1 field:t2 …)`, or None when the text has no searchable word.
    The user clause filters and does not score (boost 0): scored, it added one constant to every
    hit of the user, which squeezed the tunnels' normalised scores (best hit of a type = 1)
    towards 1 and mixed up the order across turns, pieces and facts."""
    words = terms(text)
    if not words:
        return None
    body = " ".join(f"{f}:{escape(w)}" for w in words for f in fields)
    return f'+user_id:"{escape(user_id)}"^0 +({body})'


def english_words(words: list[str]) -> list[str]:
    """The words an English-analysed index can search by (its stop words left out)."""
    return [w for w in words if w not in ENGLISH_STOP_WORDS]


def scopes_user(user_id: str) -> bool:
    """Can `+user_id:"…"` narrow a query of an English-analysed index to this user? Not when
    every word of the id is a stop word ("will", "this-is-it"): the analyser drops the clause
    and the query runs over every user (the caller then fetches more and checks exactly). A
    trailing "'s" is dropped by the analyser too, so "s" counts as a stop word here."""
    return any(w not in ENGLISH_STOP_WORDS and w != "s" for w in _WORD.findall(user_id.lower()))
