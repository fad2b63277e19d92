"""What an append returns (issue 32, item 5), through `Memory` against a real Neo4j: the facts
the new turns made, each with the facts it replaced (how, id, statement, status now)."""

from __future__ import annotations

from graphmem.memory import Memory
from graphmem.models import TurnRecord
from tests.helpers import FakeVectors


def test_an_append_returns_the_facts_made_and_what_they_replaced(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    first = mem.append(user_id, "s1", [TurnRecord("user", "I live in Leeds.", source_id="m1")],
                       session_time="2026-01-05T10:00:00Z")
    [leeds] = first.made
    assert (leeds.predicate, leeds.value, leeds.status, leeds.replaced) == (
        "lives_in", "Leeds", "active", [])
    assert leeds.turn_id == first.added[0].id
    moved = mem.append(user_id, "s2", [
        TurnRecord("user", "I moved to Manchester last week.", source_id="m3")],
        session_time="2026-03-10T10:00:00Z")
    [manchester] = moved.made
    assert manchester.value == "Manchester" and manchester.status == "active"
    assert [(r.type, r.id, r.text, r.status) for r in manchester.replaced] == [
        ("SUPERSEDES", leeds.id, "User lives in Leeds.", "superseded")]
    out = moved.to_dict()
    assert out["facts"] == 1 and out["made"][0]["replaced"][0]["id"] == leeds.id
    assert out["added"] == [{"turn_id": moved.added[0].id, "source_turn_id": "m3", "idx": 1}]
    again = mem.append(user_id, "s2", [
        TurnRecord("user", "I moved to Manchester last week.", source_id="m3")])
    assert again.made == [] and again.unchanged == ["m3"]
