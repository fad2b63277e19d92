"""The two rules for evidence spread over several turns and sessions (issue 34), on in `fused`
(off in the other presets), both for questions that aggregate across occasions: the switch
deep_heads (each tunnel takes coverage_pool × H heads) and the step context_once (a turn's mass
from being next to matched turns counts once per tunnel)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.retrieval.config import FUSED, preset
from graphmem.retrieval.fusion import accumulate, fuse, mass
from graphmem.retrieval.query import analyse
from graphmem.retrieval.rows import Detail, Ranked
from graphmem.retrieval.steps import STEPS, StepContext
from graphmem.retrieval.tunnels import Hit, _expand

ASKED = datetime(2024, 6, 1, 12, tzinfo=UTC)
BEFORE = preset("fused-no-deep_heads-no-context_once")  # fused as it was until 2026-12-06
ONCE = BEFORE.with_steps("context_once")
DEEP = preset("fused-no-context_once")  # deep_heads alone


def _detail(id_: str, *, role: str = "user", session: str = "s1") -> Detail:
    return Detail("turn", id_, id_, role=role, turn_id=id_, session_source_id=session,
                  source_turn_ids=(id_,), mentioned_at=datetime(2024, 5, 2, 12, tzinfo=UTC))


def _row(id_: str, density: float, *, surplus: float = 0.0, role: str = "user") -> Ranked:
    return Ranked(_detail(id_, role=role), density, ["bm25"], [f"bm25:{id_}"], 0, 1.0, None,
                  conf=density, context_surplus=surplus)


def _ctx(question: str, cfg=FUSED) -> StepContext:
    return StepContext(analyse(question, ASKED), cfg)


def _neighbour(tunnel: str, head: str, id_: str, rank: int = 0) -> Hit:
    return Hit(tunnel, f"{tunnel}:turn:{head}", id_, "turn", False, rank, 1.0, neighbour=True)


# --- context_once -------------------------------------------------------------------------------


def test_neighbour_hits_are_marked_by_the_tunnels():
    rows = [{"type": "turn", "id": "t5", "score": 1.0, "turn_id": "t5", "session_source_id": "s",
             "idx": 5, "session_id": "S"},
            {"type": "fact", "id": "f1", "score": 1.0, "turn_id": "t9", "session_source_id": None,
             "idx": None, "session_id": "S"}]
    hits = _expand("bm25", rows, "u", FUSED)
    assert {h.id for h in hits if h.neighbour} == {h.id for h in hits if h.type == "turn"
                                                   and not h.direct and h.id not in ("t9",)}
    assert len([h for h in hits if h.neighbour]) == 2 * FUSED.turn_window
    assert not any(h.neighbour for h in hits if h.id == "t9")  # the fact's own turn is no neighbour


def test_the_surplus_is_the_neighbour_mass_beyond_each_tunnels_largest():
    cfg = FUSED.with_(rank_decay=0.0)  # every head's mass alike: strong derived 0.1
    hits = [_neighbour("bm25", "a", "t"), _neighbour("bm25", "b", "t"), _neighbour("bm25", "c", "t"),
            _neighbour("dense", "a", "t"), _neighbour("dense", "b", "t"),
            Hit("bm25", "bm25:fact:f", "t", "turn", False, 0, 1.0)]  # a fact bringing its turn
    c = accumulate(hits, cfg)["t"]
    assert c.density == pytest.approx(0.6)
    assert c.context_surplus == pytest.approx(0.3)  # bm25 0.3 − 0.1, dense 0.2 − 0.1
    assert accumulate(hits[:1], cfg)["t"].context_surplus == 0.0  # one neighbour: nothing more


def test_context_once_takes_the_surplus_off():
    rows = [_row("crowded", 0.9, surplus=0.4), _row("direct", 0.6)]
    out = STEPS["context_once"].run(rows, _ctx("How many hours of jogging did I do?"))
    assert out is not None and [r.density for r in out] == pytest.approx([0.5, 0.6])
    assert STEPS["context_once"].run([_row("direct", 0.6)], _ctx("How many hours?")) is None
    # one occasion asked about: its neighbours' context is what answers it, the mass stays
    assert STEPS["context_once"].run(rows, _ctx("What did I cook for the party?")) is None


def test_fusion_with_context_once_ranks_a_direct_hit_above_a_turn_lifted_by_its_neighbours():
    cfg = ONCE.with_(rank_decay=0.0)
    hits = [_neighbour("bm25", h, "between") for h in ("a", "b", "c", "d")]
    hits += [Hit("bm25", "bm25:turn:jog", "jog", "turn", True, 3, 1.0)]
    cands = accumulate(hits, cfg)
    details = [_detail("between", session="A"), _detail("jog", session="B")]
    q = analyse("How many hours of jogging did I do?", ASKED)
    assert q.coverage
    on, reports = fuse(cands, details, q, cfg)
    off, _ = fuse(accumulate(hits, cfg), details, q, BEFORE.with_(rank_decay=0.0))
    assert [e.id for e in off] == ["between", "jog"]  # four neighbours' 0.4 beat one head's 0.4
    assert [e.id for e in on] == ["jog", "between"]
    assert next(r for r in reports if r.name == "context_once").rescored == 1


# --- deep_heads ---------------------------------------------------------------------------------


def test_deep_heads_doubles_the_heads_of_a_question_over_several_occasions_only():
    many = analyse("How many concerts did I go to in total?", ASKED)
    one = analyse("What did I cook for the party?", ASKED)
    assert many.coverage and not one.coverage
    assert DEEP.for_question(many.coverage).heads == FUSED.heads * FUSED.coverage_pool
    assert DEEP.for_question(one.coverage) is DEEP
    assert BEFORE.for_question(many.coverage) is BEFORE  # the switch off: as before


def test_deep_heads_reach_the_tunnels_and_their_rank_decay():
    rows = [{"type": "turn", "id": f"t{i}", "score": 1.0 - i / 100, "turn_id": f"t{i}",
             "session_source_id": None, "idx": None, "session_id": "S"} for i in range(50)]
    deep = DEEP.for_question(True)
    assert len([h for h in _expand("bm25", rows, "u", deep) if h.direct]) == 2 * FUSED.heads
    assert len([h for h in _expand("bm25", rows, "u", BEFORE) if h.direct]) == FUSED.heads
    late = Hit("bm25", "h", "t19", "turn", True, 19, 1.0)
    assert mass(late, deep) > mass(late, BEFORE)  # the decay spread over the deeper list


# --- the declaration ----------------------------------------------------------------------------


def test_both_are_on_in_fused_only_and_turned_off_or_on_by_name_alone_or_together():
    assert FUSED.runs("context_once") and FUSED.deep_heads
    assert FUSED.steps[0] == "context_once"  # before any step that scales density
    assert FUSED.steps == ONCE.steps
    assert not BEFORE.runs("context_once") and not BEFORE.deep_heads
    for other in ("paper", "bm25", "dense", "graph", "fused-with-graph"):  # as they were
        assert not preset(other).runs("context_once") and not preset(other).deep_heads
    both = preset("paper-with-deep_heads-with-context_once")
    assert both.runs("context_once") and both.deep_heads and both.heads == preset("paper").heads
    assert preset("fused-no-merge").steps == ONCE.without("merge").steps
    assert not preset("fused-with-deep_heads-no-deep_heads").deep_heads
    with pytest.raises(KeyError):
        preset("fused-with-context_once-with-shuffle")
