"""The second pass seeded by the first (retrieval/feedback.py): its gate, its seeds, its hits and
their mass in fusion, and its off switch in the configuration."""

from __future__ import annotations

import pytest

from graphmem.models import Evidence
from graphmem.retrieval.config import FUSED, PASSES, RetrievalConfig, preset
from graphmem.retrieval.feedback import TUNNEL, feedback_hits, runs, seeds
from graphmem.retrieval.fusion import accumulate, mass
from graphmem.retrieval.query import analyse


def _ev(id_: str, role: str = "user", session: str = "s1") -> Evidence:
    return Evidence(id=id_, type="turn", text=id_, score=1.0, role=role,
                    session_source_id=session)


def test_the_pass_runs_only_when_configured_and_the_question_aggregates() -> None:
    on = preset("fused-with-feedback")
    assert "feedback" in PASSES and on.passes == ("feedback",)
    assert runs(analyse("How many magazine subscriptions do I have?"), on)
    assert runs(analyse("What is the total cost of the car cover and the spray?"), on)
    assert not runs(analyse("Where did I buy my car cover?"), on)
    off = preset("fused-no-feedback")
    assert off.passes == () and off.name == "fused-no-feedback"
    assert not runs(analyse("How many magazine subscriptions do I have?"), off)
    # everything else as the preset it varies
    assert off.with_(name="fused", passes=FUSED.passes) == FUSED


def test_an_unknown_pass_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="feedback"):
        RetrievalConfig(passes=("rocchio",))
    with pytest.raises(KeyError, match="second passes: feedback"):
        preset("fused-with-rocchio")


def test_seeds_are_the_best_items_the_user_said() -> None:
    first = [_ev("a"), _ev("b", role="assistant"), _ev("c", session="s2"), _ev("d"),
             _ev("e", session="s3")]
    assert [e.id for e in seeds(first, 3)] == ["a", "c", "d"]
    assert [e.id for e in seeds(first, 10)] == ["a", "c", "d", "e"]
    assert seeds([_ev("x", role="assistant")], 5) == []


def test_neighbours_are_derived_hits_of_their_seed_and_a_fact_brings_its_turn() -> None:
    rows = [{"seed": "t1", "rank": 0, "type": "turn", "id": "t9", "score": 0.8, "turn_id": "t9"},
            {"seed": "t1", "rank": 0, "type": "fact", "id": "f4", "score": 0.7, "turn_id": "t4"},
            {"seed": "f2", "rank": 3, "type": "turn", "id": "t9", "score": 0.6, "turn_id": "t9"}]
    hits = feedback_hits(rows)
    assert [(h.head, h.id, h.type, h.rank) for h in hits] == [
        ("feedback:t1", "t9", "turn", 0), ("feedback:t1", "f4", "fact", 0),
        ("feedback:t1", "t4", "turn", 0), ("feedback:f2", "t9", "turn", 3)]
    assert all(h.tunnel == TUNNEL and not h.direct for h in hits)
    # In fusion: a weak tunnel's derived mass per seed (decayed by the seed's rank), adding up
    # over the seeds an item lies near: t9, near two seeds, gathers more than t4, near one.
    cfg = FUSED
    assert TUNNEL not in cfg.strong_tunnels
    found = accumulate(hits, cfg)
    assert found["t9"].density == pytest.approx(mass(hits[0], cfg) + mass(hits[3], cfg))
    assert mass(hits[0], cfg) == pytest.approx(cfg.masses.weak_derived)
    assert found["t9"].density > found["t4"].density > 0
