"""Which fact a correction corrects, and the facts it makes: the corrected value in the slot of the
fact it replaces, and a retraction of the replaced value (so the replaced fact never held: a
CONTRADICTS edge, status invalid). Pure: the caller reads the user's facts and writes the rows.

The fact corrected is, latest first:
1. one whose value the correction names as the old one ("it's not peanuts, it's tree nuts");
2. with words that take back, one whose value the message names anywhere ("scratch that, it's
   Collateral, Heat is a close second");
3. with words that take back, one told a few turns before in the same session whose value is of
   the new value's kind: a count for a number ("we have 4 dogs" … "wait, it's three"), a single
   named value for a name ("I'm in Hull" … "sorry, I meant Leeds").
Events are never corrected this way (they are not replaced but told again)."""

from __future__ import annotations

import re

from . import predicates as P
from .entities import normalise_name
from .extract.corrections import Correction
from .extract.text import number, singular
from .models import FactCandidate, RoleRef
from .store.currency import Anchor

_NAMED = frozenset({P.ValueType.PLACE, P.ValueType.ORGANISATION, P.ValueType.PERSON,
                    P.ValueType.PET, P.ValueType.THING})
RECENT_TURNS = 4  # how far back in its session a correction without the old value reaches


def _key(value: str) -> str:
    words = normalise_name(value).split()
    if not words:
        return ""
    n = number(words[0]) if len(words) == 1 else None
    return str(n) if n is not None else " ".join([*words[:-1], singular(words[-1])])


def correctable(predicate: str) -> bool:
    entry = P.lookup(predicate)
    return entry is not None and entry.cardinality is not P.Cardinality.EVENT


def _named_in(value: str, text: str) -> bool:
    return len(value) >= 3 and re.search(rf"(?<!\w){re.escape(value)}s?(?!\w)", text,
                                         re.IGNORECASE) is not None


def _is_count(predicate: str) -> bool:
    entry = P.lookup(predicate)
    return entry is not None and entry.cardinality is P.Cardinality.COUNT


def _same_kind(c: Correction, predicate: str) -> bool:
    """A number corrects a count; anything else corrects what is not a count."""
    return _is_count(predicate) == (c.count is not None)


def _fits(c: Correction, predicate: str) -> bool:
    """With nothing named: a count for a number, a single named value for a name."""
    entry = P.lookup(predicate)
    if entry is None or not _same_kind(c, predicate):
        return False
    return c.count is not None or (
        c.new[:1].isupper() and entry.value_type in _NAMED
        and entry.cardinality in (P.Cardinality.SINGLE, P.Cardinality.FIXED))


def corrected(c: Correction, text: str, session_id: str, turn_idx: int,
              anchors: list[Anchor]) -> tuple[Anchor, str] | None:
    """(the fact corrected, the new value), or None. `anchors`: the user's held facts said before
    the correction, latest first; `text` the words of the correction's piece."""
    usable = [a for a in anchors if a.value and correctable(a.predicate)
              and (a.session_id != session_id or a.turn_idx < turn_idx)]
    found: Anchor | None = None
    if c.old is not None:
        found = next((a for a in usable if _key(a.value or "") == _key(c.old)), None)
    if found is None and c.take_back:
        rest = text[:c.start] + " " + text[c.end:]
        found = next((a for a in usable if _named_in(a.value or "", rest)
                      and _same_kind(c, a.predicate)), None)
    if found is None and c.take_back:
        found = next((a for a in usable if a.session_id == session_id
                      and turn_idx - RECENT_TURNS <= a.turn_idx < turn_idx
                      and _fits(c, a.predicate)), None)
    if found is None:
        return None
    is_count = _is_count(found.predicate)
    if is_count and c.count is None:
        return None
    value = str(c.count) if is_count else c.new
    if _key(value) == _key(found.value or ""):
        return None
    return found, value


_ROLE_TYPE = {P.ValueType.PLACE: ("location", "place"),
              P.ValueType.ORGANISATION: ("object", "organization"),
              P.ValueType.PERSON: ("object", "person"), P.ValueType.PET: ("object", "pet")}
MADE_BY = "rule:correction"


def correction_facts(c: Correction, text: str, anchor: Anchor,
                     value: str) -> tuple[FactCandidate, FactCandidate]:
    """The corrected value in the anchor's slot, and the retraction of the anchor's value (cited
    by the old value's words when the piece `text` says them, else by the new value's)."""
    entry = P.lookup(anchor.predicate)
    assert entry is not None and anchor.value is not None  # corrected() chose a registry fact
    who = "User" if anchor.subject == "user" else anchor.subject
    role, kind = _ROLE_TYPE.get(entry.value_type, ("object", "other"))
    support = text[c.start:c.end]
    new = FactCandidate(kind=entry.kind, predicate=anchor.predicate,
                        text=P.statement(who, anchor.predicate, value), support=support,
                        subject=anchor.subject, value=value, roles=[RoleRef(role, c.new, kind)],
                        extracted_by=MADE_BY)
    old = re.search(rf"(?<!\w){re.escape(c.old)}(?!\w)", text) if c.old else None
    retraction = FactCandidate(
        kind=entry.kind, predicate=anchor.predicate,
        text=P.statement(who, anchor.predicate, anchor.value).removesuffix(".") + " (taken back).",
        support=old.group(0) if old else support, modality="negated", subject=anchor.subject,
        value=anchor.value, extracted_by=MADE_BY)
    return new, retraction
