"""Fusion: which evidence counts as stale for a present-tense question."""

from graphmem.retrieval.fusion import stale_on_asked_slot


def test_stale_on_the_asked_slot():
    states = [["lives_in", "superseded"], ["occupation", "active"]]
    assert stale_on_asked_slot(states, ["lives_in", "from"])
    assert not stale_on_asked_slot(states, ["works_at", "occupation"])
    assert not stale_on_asked_slot(states + [["lives_in", "active"]], ["lives_in"])
    assert stale_on_asked_slot([["owns_count:cat", "superseded"]], ["owns_count:"])
    assert not stale_on_asked_slot(None, ["lives_in"]) and not stale_on_asked_slot(states, [])
