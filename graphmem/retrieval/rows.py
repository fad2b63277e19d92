"""The typed rows of a search: what the store says about a candidate (Detail, with its slot
states as store.search.SlotState) and the row fusion ranks (Ranked: a detail with its density,
time bonus and confidence)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from ..store.search import SlotState

_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Detail:
    """What fusion needs about one candidate (a turn, piece or fact), as stored."""

    type: str  # turn | piece | fact
    id: str
    text: str
    role: str | None = None
    speaker: str | None = None
    turn_id: str | None = None
    session_source_id: str | None = None
    source_turn_ids: tuple[str, ...] = ()
    mentioned_at: datetime | None = None
    occurred_start: datetime | None = None
    occurred_end: datetime | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    status: str | None = None
    slot_facts: int = 0  # a turn's or piece's slot facts, and how many no longer hold
    stale_facts: int = 0
    slot_states: tuple[SlotState, ...] | None = None  # None: not asked for
    slot: str | None = None  # a fact's slot and predicate
    predicate: str | None = None

    @classmethod
    def from_store(cls, row: Mapping[str, Any]) -> Detail:
        states = row.get("slot_states")
        return cls(
            type=row["type"], id=row["id"], text=row["text"], role=row.get("role"),
            speaker=row.get("speaker"), turn_id=row.get("turn_id"),
            session_source_id=row.get("session_source_id"),
            source_turn_ids=tuple(row.get("source_turn_ids") or ()),
            mentioned_at=row.get("mentioned_at"), occurred_start=row.get("occurred_start"),
            occurred_end=row.get("occurred_end"), valid_from=row.get("valid_from"),
            valid_until=row.get("valid_until"), status=row.get("status"),
            slot_facts=row.get("slot_facts") or 0, stale_facts=row.get("stale_facts") or 0,
            slot_states=None if states is None else tuple(SlotState(*s) for s in states),
            slot=row.get("slot"), predicate=row.get("predicate"))

    def interval(self) -> tuple[datetime | None, datetime | None]:
        """When the item happened: a fact's occurrence, else the day it was mentioned."""
        if self.occurred_start is not None:
            return self.occurred_start, self.occurred_end or self.occurred_start + _DAY
        at = self.mentioned_at
        return (at, at + _DAY) if at is not None else (None, None)


def with_slot_states(d: Detail, states: Sequence[SlotState]) -> Detail:
    """`d` with these slot states (and its counts of slot facts and stale ones to match); `d`
    itself when that is what it already holds (most of a search's rows: a search with a
    question date passes every row here, and most turns have no slot fact)."""
    states = tuple(states)
    stale = sum(1 for s in states if s.status != "active")
    if states == d.slot_states and d.slot_facts == len(states) and d.stale_facts == stale:
        return d
    return replace(d, slot_states=states, slot_facts=len(states), stale_facts=stale)


@dataclass(slots=True)
class Ranked:
    """A candidate as fusion ranks it: its detail, the density its hits awarded (as the rerank
    steps adjust it), the time bonus, and the near-duplicates folded into it."""

    detail: Detail
    density: float
    tunnels: list[str]
    heads: list[str]
    best_rank: int
    direct_score: float  # the best tunnel score when hit directly (0: only derived hits)
    status: str | None  # the detail's, or "stale" (a turn that says only what no longer holds)
    time_bonus: float = 0.0
    conf: float = 0.0  # density + time bonus, set when the items are ranked
    merged: list[str] = field(default_factory=list)
    merged_turns: list[str] = field(default_factory=list)
    # Neighbour mass beyond each tunnel's largest share of it (fusion.Candidate.context_surplus),
    # which the step context_once takes off.
    context_surplus: float = 0.0

    @property
    def id(self) -> str:
        return self.detail.id

    @property
    def type(self) -> str:
        return self.detail.type
