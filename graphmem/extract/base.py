"""The extractor interface: one sentence of a turn in, fact candidates out."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol, runtime_checkable

from .. import predicates as registry
from ..entities import normalise_name
from ..models import FactCandidate

# A candidate's modality as the change its event states ("bought" asserted: done).
_EVENT_CHANGE = {"asserted": registry.Change.DONE, "planned": registry.Change.PLANNED}
_STATE_MODALITY = {registry.Change.STARTS: "asserted", registry.Change.STOPS: "negated",
                   registry.Change.PLANNED: "planned"}


@runtime_checkable
class Extractor(Protocol):
    """Proposes FactCandidates for one MessagePiece; every `support` must occur in `text`."""

    name: str

    def extract(self, text: str, role: str) -> list[FactCandidate]:
        """Candidates stated in `text`, said by `role` ("user", "assistant" or a speaker role)."""
        ...


def extract_in_turn(extractor: Extractor, text: str, role: str,
                    before: str) -> list[FactCandidate]:
    """`extractor.extract` for one piece of a turn; an extractor with `reads_context` also gets
    the turn's words before the piece (supports still come from the piece alone)."""
    if getattr(extractor, "reads_context", False):
        found = extractor.extract(text, role, before=before)  # type: ignore[call-arg]
    else:
        found = extractor.extract(text, role)
    return [as_registered(c) for c in found]


def as_registered(cand: FactCandidate) -> FactCandidate:
    """The candidate under the predicate the registry stores it as (`planned_as`: a planned
    `did` is a `plans` fact), whoever extracted it."""
    entry = registry.lookup(cand.predicate)
    if cand.modality == "planned" and entry is not None and entry.planned_as:
        return replace(cand, predicate=entry.planned_as,
                       kind=registry.BY_NAME[entry.planned_as].kind)
    return cand


def with_brought(cands: list[FactCandidate]) -> list[FactCandidate]:
    """The candidates, each event followed by the state it brings on the same value (the
    registry's `brings`: "bought a kayak" → owns kayak, starts; "sold the Golf" → owns Golf,
    stops; a planned purchase → a planned owns), unless the extractor stated that state of that
    value itself. The learned extractor applies it (its corpus labels the event only); the
    rules state the states they read themselves (applied to them too, it changed no scenario
    set and cost one check of the blind set, 2026-12-03)."""
    said = {(c.subject, c.predicate, normalise_name(c.value or "")) for c in cands}
    out: list[FactCandidate] = []
    for cand in cands:
        out.append(cand)
        entry = registry.lookup(cand.predicate)
        change = _EVENT_CHANGE.get(cand.modality)
        implied = entry.brought(change) if entry is not None and change is not None else None
        if implied is None or not cand.value:
            continue
        state, state_change = implied
        key = (cand.subject, state, normalise_name(cand.value))
        if key in said or state_change not in _STATE_MODALITY:
            continue
        said.add(key)
        who = "User" if cand.subject == "user" else cand.subject
        out.append(replace(cand, kind=registry.BY_NAME[state].kind, predicate=state,
                           modality=_STATE_MODALITY[state_change],
                           text=registry.statement(who, state, cand.value, state_change.value),
                           extracted_by=registry.BROUGHT_BY))
    return out
