"""Build Lucene queries for Neo4j full-text indexes from untrusted text, scoped to one user."""

from __future__ import annotations

import re

_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_WORD = re.compile(r"\w+", re.UNICODE)
_OPERATORS = {"AND", "OR", "NOT", "TO"}
MAX_TERMS = 64  # Lucene's clause limit is 1024; a question never needs more than this


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
    """`+user_id:"…" +(field:t1 field:t2 …)`, or None when the text has no searchable word."""
    words = terms(text)
    if not words:
        return None
    body = " ".join(f"{f}:{escape(w)}" for w in words for f in fields)
    return f'+user_id:"{escape(user_id)}" +({body})'
