"""What memory knew on a question date: nothing first mentioned later, and each slot re-decided
from the facts known then (a favourite replaced in July was still the favourite in May); and what
was true at a moment (`as_of`): each fact's status on that date, as known today."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime

from .currency import (
    TIED_TO,
    FactDecision,
    SlotFact,
    decide_slots,
    slots_with_companions,
    user_zone,
)
from .db import Graph
from .store import currency as store
from .store import sessions as store_sessions


def aware(value: datetime) -> datetime:
    """A fixed-offset UTC datetime (how every stored time is written)."""
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)


def cutoff(question_date: datetime) -> datetime:
    """The last moment known on a question date: the end of its day (UTC), so a session held
    later that same day counts as said ("2024-05-01" knows all of 1 May)."""
    d = aware(question_date)
    return d.replace(hour=23, minute=59, second=59, microsecond=999999)


def decisions_known_at(graph: Graph, user_id: str, slots: Iterable[str | None],
                       known_at: datetime, *, later: bool | None = None) -> dict[str, FactDecision]:
    """Fact id → status and interval as decided from the facts mentioned by `known_at`; facts
    mentioned later are absent. Empty when no fact of the user was mentioned later (`later`, or
    asked when None): every stored status was then decided from facts all known by `known_at`,
    so it is the status on that date."""
    wanted = sorted({s for s in slots if s})
    if not wanted:
        return {}
    if later is None:
        later = store.facts_mentioned_after(graph, user_id, known_at)
    if not later:
        return {}
    slots = slots_with_companions(
        wanted, lambda: store.favorite_slots_known_at(graph, user_id, known_at),
        lambda pairs: store.stance_family_known_at(graph, user_id, pairs, known_at),
        lambda plans: store.plan_family_known_at(graph, user_id, plans, known_at))
    by_slot = store.slot_facts_known_at(graph, user_id, slots, SlotFact,
                                        sorted(set(TIED_TO.values())), known_at)
    zone = user_zone(lambda: store_sessions.user_time_zone(graph, user_id), by_slot)
    decided = {d.id: d for d in decide_slots(by_slot, zone).facts}
    # An LLM-decided edge (a relation judge at ingest) closes its fact over what the rules
    # decide, as currency_overlay does at ingest: the edges from facts known by then.
    closed = store.judged_closings_known_at(graph, user_id, sorted(decided), known_at)
    for fid, at in closed.items():
        d = decided[fid]
        if d.status == "invalid":
            continue
        until = at if d.valid_until is None or d.valid_until > at else d.valid_until
        decided[fid] = replace(d, status="superseded", valid_until=until)
    return decided


def known(row_mentioned_at: datetime | None, known_at: datetime) -> bool:
    return row_mentioned_at is None or aware(row_mentioned_at) <= aware(known_at)


def status_at(status: str | None, valid_from: datetime | None, valid_until: datetime | None,
              at: datetime) -> str | None:
    """A fact's status on the date `at` (as_of), as known today: `active` when its validity
    holds `at` (whatever replaced it since), `superseded` when it had ended by then, `invalid`
    when it was marked wrong, None when it had not begun (it says nothing of `at`)."""
    if status == "invalid":
        return "invalid"
    if valid_from is not None and aware(valid_from) > aware(at):
        return None
    if valid_until is not None and aware(valid_until) <= aware(at):
        return "superseded"
    return "active"
