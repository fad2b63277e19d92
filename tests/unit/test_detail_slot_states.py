"""A candidate's detail with the slot states a question date gives it (rows.with_slot_states)."""

from datetime import UTC, datetime

from graphmem.retrieval.rows import Detail, with_slot_states
from graphmem.store.search import SlotState

AT = datetime(2026, 3, 1, tzinfo=UTC)


def _state(fid: str, status: str | None) -> SlotState:
    return SlotState("works_at", status, fid, "user|works_at", AT, AT, None)


def _turn(*states: SlotState) -> Detail:
    return Detail(type="turn", id="t1", text="I work at Acme", slot_states=tuple(states),
                  slot_facts=len(states),
                  stale_facts=sum(1 for s in states if s.status != "active"))


def test_the_same_states_keep_the_row() -> None:
    d = _turn(_state("f1", "active"), _state("f2", "superseded"))
    assert with_slot_states(d, list(d.slot_states or ())) is d
    empty = _turn()
    assert with_slot_states(empty, []) is empty


def test_other_states_recount_the_row() -> None:
    d = _turn(_state("f1", "active"), _state("f2", "superseded"))
    now = with_slot_states(d, [_state("f1", "superseded")])
    assert now is not d
    assert (now.slot_facts, now.stale_facts) == (1, 1)
    assert now.slot_states == (_state("f1", "superseded"),)
    # not yet begun on the date asked (status None) counts as not holding
    later = with_slot_states(d, [_state("f1", None), _state("f2", "active")])
    assert (later.slot_facts, later.stale_facts) == (2, 1)


def test_counts_the_store_gave_otherwise_are_made_to_match() -> None:
    d = Detail(type="turn", id="t1", text="x", slot_states=(_state("f1", "active"),),
               slot_facts=3, stale_facts=2)
    now = with_slot_states(d, [_state("f1", "active")])
    assert (now.slot_facts, now.stale_facts) == (1, 0)
