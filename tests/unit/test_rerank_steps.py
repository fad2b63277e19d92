"""The rerank steps of fusion (retrieval/steps.py), each on its own, and the configuration that
lists them (retrieval/config.py): which steps run, in which order, each with its off switch."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.retrieval.config import ALL_STEPS, FUSED, ORDER_STEPS, RetrievalConfig, preset
from graphmem.retrieval.fusion import (
    Candidate,
    evidence_of,
    fuse,
    fuse_rows,
    scores_in_rank_order,
    source_turns,
)
from graphmem.retrieval.query import analyse
from graphmem.retrieval.rows import Detail, Ranked
from graphmem.retrieval.steps import (
    STEPS,
    StepContext,
    current_first,
    latest_first,
    stale_on_asked_slot,
)
from graphmem.store.search import SlotState

ASKED = datetime(2024, 6, 1, 12, tzinfo=UTC)


def _day(day: int, month: int = 5) -> datetime:
    return datetime(2024, month, day, 12, tzinfo=UTC)


def _state(predicate: str, status: str) -> SlotState:
    return SlotState(predicate, status, f"f-{predicate}-{status}", f"me|{predicate}", _day(1),
                     None, None)


def _detail(id_: str, type_: str = "turn", *, day: int = 2, **kw: object) -> Detail:
    fields: dict[str, object] = {"turn_id": id_, "session_source_id": "s1",
                                 "source_turn_ids": (id_,), "mentioned_at": _day(day),
                                 "role": "user"}
    fields.update(kw)
    return Detail(type_, id_, id_, **fields)  # type: ignore[arg-type]


def _row(d: Detail, density: float = 1.0, *, direct: float = 1.0, rank: int = 0,
         conf: float | None = None) -> Ranked:
    return Ranked(d, density, ["bm25"], [f"bm25:{d.id}"], rank, direct, d.status,
                  conf=density if conf is None else conf)


def _ctx(question: str, *, cfg: RetrievalConfig = FUSED, speakers: dict[str, list[str]] | None = None,
         slots: tuple[str, ...] | None = None, chain_turns: frozenset[str] = frozenset(),
         pairs: set[frozenset[str]] | None = None) -> StepContext:
    q = analyse(question, ASKED, speakers=speakers)
    return StepContext(q, cfg, q.slots if slots is None else slots, chain_turns,
                       None if pairs is None else (lambda ids: pairs))


def _ids(rows: list[Ranked] | None) -> list[str]:
    assert rows is not None
    return [r.id for r in rows]


# --- the declaration ----------------------------------------------------------------------------


def test_every_declared_step_has_one_function_and_its_kind():
    assert list(STEPS) == list(ALL_STEPS)
    assert {n for n, s in STEPS.items() if s.kind == "order"} == set(ORDER_STEPS)
    assert all(s.what for s in STEPS.values())


def test_a_configuration_lists_known_steps_once_score_steps_first():
    with pytest.raises(ValueError, match="unknown rerank step 'shuffle'"):
        RetrievalConfig(steps=("merge", "shuffle"))
    with pytest.raises(ValueError, match="twice"):
        RetrievalConfig(steps=("merge", "merge"))
    with pytest.raises(ValueError, match="before order steps"):
        RetrievalConfig(steps=("latest_first", "merge"))
    assert "stale" not in FUSED.without("stale").steps
    assert FUSED.without("stale").with_steps("stale").steps == FUSED.steps  # back in its place
    assert FUSED.with_steps("coverage").steps == (*FUSED.steps, "coverage")


def test_preset_variants_turn_one_step_off_or_on():
    off = preset("fused-no-merge")
    assert off.name == "fused-no-merge" and off.steps == FUSED.without("merge").steps
    assert off.theta == FUSED.theta and off.heads == FUSED.heads  # nothing else changes
    assert preset("fused-with-coverage").runs("coverage")
    assert preset("rank-bm25").in_process_bm25  # a preset whose name has a dash
    with pytest.raises(KeyError, match="PRESET-no-STEP"):
        preset("fused-no-shuffle")


def test_preset_variants_turn_one_tunnel_off_or_on():
    assert FUSED.tunnels == ("bm25", "dense")  # the graph tunnel is not run by default
    graph = preset("fused-with-graph")
    assert graph.tunnels == ("graph", "bm25", "dense")  # named: the default until 2026-12-05,
    # as it was then (without the spread-evidence pair fused runs since 2026-12-06)
    assert graph.steps == FUSED.without("context_once").steps and not graph.deep_heads
    assert graph.heads == FUSED.heads and graph.per_head == FUSED.per_head
    assert preset("fused-no-dense").tunnels == ("bm25",)
    assert preset("paper-no-graph").tunnels == ("bm25", "dense")
    assert preset("dense-with-bm25").tunnels == ("dense", "bm25")
    with pytest.raises(KeyError, match="tunnels: graph, bm25, dense"):
        preset("fused-with-vectors")


# --- one test per step --------------------------------------------------------------------------


def test_validity_gate_drops_facts_that_cannot_answer():
    old = _detail("f-old", "fact", status="superseded", valid_from=_day(1, 1),
                  valid_until=_day(1, 3))
    now = _detail("f-now", "fact", status="active", valid_from=_day(1, 3))
    wrong = _detail("f-wrong", "fact", status="invalid")
    turn = _detail("t1")
    rows = [_row(d) for d in (old, now, wrong, turn)]
    gate = STEPS["validity_gate"].run
    assert _ids(gate(list(rows), _ctx("Where do I live now?"))) == ["f-now", "t1"]
    # a window in February: the fact that began in March cannot hold then
    assert _ids(gate(list(rows), _ctx("Where did I live in February?"))) == ["f-old", "t1"]


def test_stale_halves_turns_that_say_only_what_no_longer_holds():
    gone = _detail("gone", slot_facts=1, stale_facts=1, slot_states=(_state("lives_in",
                                                                             "superseded"),))
    mixed = _detail("mixed", slot_facts=2, stale_facts=1, slot_states=(
        _state("lives_in", "active"), _state("works_at", "superseded")))
    chained = _detail("chained")
    rows = [_row(gone), _row(mixed), _row(chained)]
    out = STEPS["stale"].run(rows, _ctx("Where do I work now?", chain_turns=frozenset({"chained"})))
    assert out is not None
    assert [(r.id, r.density, r.status) for r in out] == [
        ("gone", 0.5, "stale"), ("mixed", 0.5, "stale"), ("chained", 0.5, "stale")]
    # a question about the past is not about what holds now: not applied
    assert STEPS["stale"].run([_row(gone)], _ctx("Where did I work in 2019?")) is None


def test_stale_on_the_asked_slot():
    states = [_state("lives_in", "superseded"), _state("occupation", "active")]
    assert stale_on_asked_slot(states, ["lives_in", "from"])
    assert not stale_on_asked_slot(states, ["works_at", "occupation"])
    assert not stale_on_asked_slot([*states, _state("lives_in", "active")], ["lives_in"])
    assert stale_on_asked_slot([_state("owns_count:cat", "superseded")], ["owns_count:"])
    assert not stale_on_asked_slot(None, ["lives_in"]) and not stale_on_asked_slot(states, [])


def test_other_speaker_counts_the_other_ones_words_less():
    speakers = {"Caroline": [], "Melanie": ["Mel"]}
    rows = [_row(_detail("c", speaker="Caroline")), _row(_detail("m", speaker="Melanie")),
            _row(_detail("plain"))]
    out = STEPS["other_speaker"].run(rows, _ctx("What did Mel paint?", speakers=speakers))
    assert out is not None and [r.density for r in out] == [0.5, 1.0, 1.0]
    both = _ctx("Did Caroline and Melanie both paint?", speakers=speakers)
    assert STEPS["other_speaker"].run(rows, both) is None  # neither is the one asked about


def test_assistant_turns_count_less_unless_its_words_are_asked():
    rows = [_row(_detail("a", role="assistant")), _row(_detail("u"))]
    out = STEPS["assistant"].run(rows, _ctx("What did I cook for the party?"))
    assert out is not None and [r.density for r in out] == [0.5, 1.0]
    assert STEPS["assistant"].run(rows, _ctx("Which recipe did you recommend?")) is None


def test_merge_folds_near_duplicates_into_the_better_one():
    rows = [_row(_detail("low"), 0.2), _row(_detail("top"), 0.9), _row(_detail("twin"), 0.3)]
    out = STEPS["merge"].run(rows, _ctx("a", pairs={frozenset(("top", "twin"))}))
    assert out is not None and _ids(out) == ["top", "low"]
    assert out[0].density == pytest.approx(1.2) and out[0].merged == ["twin"]
    assert out[0].merged_turns == ["twin"]
    # θ = 1: nothing is a near-duplicate, no query is asked; the rows come in density order
    rows = [_row(_detail("low"), 0.2), _row(_detail("top"), 0.9)]
    assert STEPS["merge"].run(rows, _ctx("a", cfg=FUSED.with_(theta=1.0), pairs=set())) is None
    assert _ids(rows) == ["top", "low"]


def test_time_bonus_for_what_overlaps_the_window():
    rows = [_row(_detail("in", day=20)), _row(_detail("out", day=2))]
    out = STEPS["time_bonus"].run(rows, _ctx("What did I buy two weeks ago?"))
    assert out is not None and [r.time_bonus for r in out] == [FUSED.beta, 0.0]
    assert STEPS["time_bonus"].run(rows, _ctx("What did I buy?")) is None  # no window


def _said(id_: str, conf: float, day: int, direct: float = 1.0,
          states: tuple[SlotState, ...] | None = None) -> Ranked:
    return _row(_detail(id_, day=day, slot_states=states), conf, direct=direct, conf=conf)


def test_latest_first_within_the_band_of_direct_hits():
    rows = [_said("jan-old", 2.0, 3), _said("jan-new", 1.2, 20), _said("nb", 1.1, 25, 0.0),
            _said("far", 0.5, 28)]
    # the later of two direct hits within half the best comes first; a derived-only neighbour
    # and an item below the band keep their places after them
    assert _ids(latest_first(rows, 0.5, 10)) == ["jan-new", "jan-old", "nb", "far"]
    assert latest_first(rows, 1.0, 10) == rows  # a band of the best alone: the order is kept
    same = [_said("a", 2.0, 3), _said("b", 1.5, 3)]
    assert _ids(latest_first(same, 0.5, 10)) == ["a", "b"]  # same day: the order is kept
    # the step: for a question about now, not for one about the past
    assert _ids(STEPS["latest_first"].run(list(rows), _ctx("Do I still swim?")))[0] == "jan-new"
    assert STEPS["latest_first"].run(list(rows), _ctx("Where did I swim in 2019?")) is None


def test_latest_first_keeps_to_the_asked_slot_when_the_band_knows_it():
    home = _said("home", 2.0, 3, states=(_state("lives_in", "active"),))
    chat = _said("restaurant", 1.2, 20, states=(_state("favorite_restaurant", "active"),))
    moved = _said("moved", 1.1, 10, states=(_state("lives_in", "active"),))
    # "where do I live now?": the later turn about a restaurant stays behind; of the two about
    # the home, the later comes first
    assert _ids(latest_first([home, chat, moved], 0.5, 10, ["lives_in"])) == [
        "moved", "home", "restaurant"]
    quiet = _said("quiet", 1.0, 25)  # nothing extracted: it may come first
    assert _ids(latest_first([home, chat, quiet], 0.5, 10, ["lives_in"])) == [
        "quiet", "home", "restaurant"]
    assert _ids(latest_first([home, chat], 0.5, 10, [])) == ["restaurant", "home"]


def _cf(id_: str, type_: str, conf: float, status: str | None = None,
        predicate: str | None = None, turn_id: str | None = None,
        states: tuple[SlotState, ...] | None = None) -> Ranked:
    d = _detail(id_, type_, status=status, predicate=predicate, turn_id=turn_id or id_,
                slot_states=states)
    return _row(d, conf, conf=conf)


def test_current_first_moves_stale_turns_below_the_current_evidence():
    rows = [_cf("old", "turn", 2.0, "stale", states=(_state("works_at", "superseded"),)),
            _cf("chat", "turn", 1.5),
            _cf("f-new", "fact", 1.0, "active", "works_at", turn_id="new"),
            _cf("new", "turn", 0.8, states=(_state("works_at", "active"),)),
            _cf("tail", "turn", 0.1)]
    out = current_first(list(rows), ["works_at", "occupation"])
    assert _ids(out) == ["chat", "f-new", "new", "old", "tail"]
    assert out[3].conf == 0.8  # no longer scored above what ranks above it
    # nothing current among the candidates: the order is kept
    assert _ids(current_first(rows[:2], ["works_at"])) == ["old", "chat"]
    # the step: present tense about a slot only
    assert STEPS["current_first"].run(rows, _ctx("Where did I work in 2019?")) is None
    assert STEPS["current_first"].run(rows, _ctx("What is my favourite tea?", slots=())) is None


def test_coverage_spreads_the_top_over_sessions():
    rows = [_row(_detail("a1", session_source_id="A"), 1.0),
            _row(_detail("a2", session_source_id="A"), 0.9),
            _row(_detail("b1", session_source_id="B"), 0.6)]
    out = STEPS["coverage"].run(list(rows), _ctx("How many concerts did I go to in total?"))
    assert _ids(out) == ["a1", "b1", "a2"]  # 0.9 × 0.5 < 0.6
    assert STEPS["coverage"].run(list(rows), _ctx("Where is my passport?")) is None


# --- fusion runs them in the configured order ---------------------------------------------------


def _fused(cfg: RetrievalConfig, question: str = "What did I cook?") -> tuple[list[str], list[str]]:
    cands = {"asst": Candidate("asst", "turn", density=0.6, best_rank=0, direct_score=0.9),
             "user": Candidate("user", "turn", density=0.4, best_rank=1, direct_score=0.8)}
    details = [_detail("asst", role="assistant"), _detail("user")]
    evidence, reports = fuse(cands, details, analyse(question, ASKED), cfg)
    return [e.id for e in evidence], [r.name for r in reports]


def test_fusion_runs_the_configured_steps_in_order_and_only_those():
    ids, ran = _fused(FUSED)
    assert ids == ["user", "asst"] and ran == list(FUSED.steps)
    ids, ran = _fused(FUSED.without("assistant"))  # its off switch
    assert ids == ["asst", "user"] and "assistant" not in ran
    ids, ran = _fused(FUSED.with_(steps=("time_bonus", "assistant")))
    assert ids == ["user", "asst"] and ran == ["time_bonus", "assistant"]


def test_a_search_builds_evidence_for_its_first_k_rows_only_as_fuse_would():
    """fuse_rows + evidence_of on the first k give what fuse gives for them (scores capped by
    the items above only), and the rows' source turns are fuse's, merged turns included."""

    cands = {f"t{i}": Candidate(f"t{i}", "turn", density=1.0 - i / 10, best_rank=i,
                                direct_score=0.5) for i in range(5)}
    details = [_detail(f"t{i}", session_source_id=f"S{i % 2}") for i in range(5)]
    q = analyse("What did I cook last week?", ASKED)
    whole = scores_in_rank_order(fuse(cands, details, q, FUSED)[0])
    rows, _ = fuse_rows(cands, details, q, FUSED)
    for k in (0, 1, 3, 5, 9):
        assert [e.model_dump() for e in scores_in_rank_order(evidence_of(rows[:k]))] == \
            [e.model_dump() for e in whole[:k]]
    assert [source_turns(r) for r in rows] == [e.source_turn_ids for e in whole]
