"""Retrieval metrics on hand-computed cases, question reading, the BM25 baseline, reports, real data."""

from __future__ import annotations

import gzip
import json
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem.loaders.longmemeval import session_of_turn
from graphmem_bench.baseline import BM25TurnBaseline, run_baseline, tokenize
from graphmem_bench.metrics import (
    locomo_fraction_recall,
    ndcg_any,
    recall_all,
    recall_any,
    score_locomo,
    score_longmemeval,
    turns_to_sessions,
)
from graphmem_bench.questions import (
    LMEQuestion,
    LoCoMoQuestion,
    clean_dia_ids,
    dev_half,
    locomo_questions,
    longmemeval_questions,
    session_of_dia,
)
from graphmem_bench.report import halves_table, write_report

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"
LOCOMO = DATA / "locomo" / "locomo10.json"
LONGMEMEVAL = DATA / "longmemeval" / "longmemeval_s_dev.json.gz"
WHEN = datetime(2023, 5, 20, tzinfo=UTC)


# --- the metric functions ---------------------------------------------------------------------------


def test_recall_any_and_all() -> None:
    ranked = ["x", "a", "y", "b", "z"]
    assert recall_any(ranked, ["a", "b"], 1) == 0.0
    assert recall_any(ranked, ["a", "b"], 2) == 1.0
    assert recall_all(ranked, ["a", "b"], 3) == 0.0
    assert recall_all(ranked, ["a", "b"], 4) == 1.0
    assert recall_all(ranked, ["a", "b"], 100) == 1.0
    assert recall_all(ranked, ["a", "q"], 100) == 0.0
    # duplicates are dropped before the cut: "x" twice still leaves room for "a" at k=2
    assert recall_any(["x", "x", "a"], ["a"], 2) == 1.0
    # nothing correct: any 0, all 1 (the official script's convention)
    assert recall_any(ranked, [], 5) == 0.0
    assert recall_all(ranked, [], 5) == 1.0


def test_ndcg_any_hand_computed() -> None:
    # one correct id at rank 1: perfect
    assert ndcg_any(["a", "x"], ["a"], 5) == 1.0
    # DCG = rel_1 + sum_{i>=2} rel_i / log2(i): rank 2 is not discounted (log2(2) = 1)
    assert ndcg_any(["x", "a"], ["a"], 5) == 1.0
    assert ndcg_any(["x", "y", "a"], ["a"], 5) == pytest.approx(1 / math.log2(3))
    assert ndcg_any(["x", "y", "a"], ["a"], 2) == 0.0
    # three correct ids, two retrieved at ranks 1 and 3, k = 3
    # DCG = 1 + 0 + 1/log2(3); ideal over all correct ids = 1 + 1 + 1/log2(3)
    dcg = 1 + 1 / math.log2(3)
    ideal = 2 + 1 / math.log2(3)
    assert ndcg_any(["a", "x", "b", "y"], ["a", "b", "c"], 3) == pytest.approx(dcg / ideal)
    # k = 4: the ideal DCG is capped by the number of correct ids (3), DCG unchanged
    assert ndcg_any(["a", "x", "b", "y"], ["a", "b", "c"], 4) == pytest.approx(dcg / ideal)
    # two correct at ranks 3 and 4, k = 5
    expected = (1 / math.log2(3) + 1 / math.log2(4)) / 2
    assert ndcg_any(["x", "y", "a", "b", "z"], ["a", "b"], 5) == pytest.approx(expected)
    assert ndcg_any(["a"], [], 5) == 0.0
    assert ndcg_any(["a", "a", "b"], ["a", "b"], 2) == 1.0  # duplicates dropped first


def test_turns_to_sessions() -> None:
    ranked = ["s1_1", "s2_3", "s1_2", "s3_1", "s2_1", "s4_9"]
    assert turns_to_sessions(ranked, session_of_turn, 2) == ["s1", "s2"]
    assert turns_to_sessions(ranked, session_of_turn, 3) == ["s1", "s2", "s3"]
    assert turns_to_sessions(ranked, session_of_turn, 10) == ["s1", "s2", "s3", "s4"]
    assert turns_to_sessions([], session_of_turn, 3) == []
    assert session_of_turn("answer_4be1b6b4_2_12") == "answer_4be1b6b4_2"
    assert turns_to_sessions(["D2:1", "D2:5", "D1:3"], session_of_dia, 2) == ["D2", "D1"]


def test_locomo_fraction_recall() -> None:
    evidence = ["D1:1", "D2:3", "D3:4"]
    ranked = ["D2:3", "D5:1", "D1:1", "D3:4"]
    assert locomo_fraction_recall(ranked, evidence, 1) == pytest.approx(1 / 3)
    assert locomo_fraction_recall(ranked, evidence, 2) == pytest.approx(1 / 3)
    assert locomo_fraction_recall(ranked, evidence, 3) == pytest.approx(2 / 3)
    assert locomo_fraction_recall(ranked, evidence, 4) == 1.0
    with pytest.raises(ValueError):
        locomo_fraction_recall(ranked, [], 4)


def test_clean_dia_ids_readme_quirks() -> None:
    assert clean_dia_ids(["D8:6; D9:17"]) == ["D8:6", "D9:17"]
    assert clean_dia_ids(["D:11:26"]) == ["D11:26"]
    assert clean_dia_ids(["D30:05"]) == ["D30:5"]
    assert clean_dia_ids(["D"]) == []
    assert clean_dia_ids(["D9:1 D4:4 D4:6"]) == ["D9:1", "D4:4", "D4:6"]  # space-separated, seen too
    assert clean_dia_ids(["D1:3", "D1:3", "D2:1:", None]) == ["D1:3", "D2:1"]


# --- the aggregators --------------------------------------------------------------------------------


def lme(qid: str, qtype: str, sessions: list[str], turns: list[str]) -> LMEQuestion:
    return LMEQuestion(question_id=qid, question_type=qtype, question="q", answer="a",
                       question_date=WHEN, is_abstention=qid.endswith("_abs"),
                       answer_session_ids=sessions, answer_turn_ids=turns)


def test_score_longmemeval_counts_and_averages() -> None:
    questions = [
        lme("q1", "multi-session", ["answer_a", "answer_b"], ["answer_a_1", "answer_b_3"]),
        lme("q2", "single-session-user", ["answer_c"], ["answer_c_5"]),
        lme("q3", "single-session-assistant", [], []),  # evidence only in assistant turns
        lme("q4_abs", "multi-session", [], []),
    ]
    rankings = {
        "q1": ["answer_a_1", "s9_1", "answer_a_1", "answer_b_3"],
        "q2": ["s1_1", "s1_3", "s2_1", "answer_c_5"],
        "q3": ["s1_1"],
        "q4_abs": ["s1_1"],
    }
    result = score_longmemeval(questions, rankings, ks=(1, 3))
    assert result["n"] == {"questions": 4, "abstention_excluded": 1, "session": 3,
                           "session_with_evidence": 2, "turn": 2, "no_user_evidence": 1,
                           "no_correct_session": 1, "missing_rankings": 0}
    s, t = result["session"], result["turn"]
    # sessions: q1 -> [answer_a, s9, answer_b]; q2 -> [s1, s2, answer_c]; q3 -> [s1]
    assert s["recall_any@1"] == pytest.approx((1 + 0 + 0) / 3)
    assert s["recall_all@1"] == pytest.approx((0 + 0 + 1) / 3)  # q3 vacuously complete
    assert s["recall_all@3"] == pytest.approx(3 / 3)
    assert result["session_with_evidence"]["recall_all@3"] == 1.0
    assert result["session_with_evidence"]["recall_any@1"] == 0.5
    q2_ndcg3 = (1 / math.log2(3)) / 1
    q1_ndcg3 = (1 + 1 / math.log2(3)) / 2
    assert s["ndcg_any@3"] == pytest.approx((q1_ndcg3 + q2_ndcg3 + 0) / 3)
    # turns (q1, q2 only): q1 ranked (deduped) [a_1, s9_1, b_3]; q2 has answer_c_5 at rank 4
    assert t["recall_any@3"] == 0.5
    assert t["recall_all@3"] == 0.5
    assert t["recall_any@1"] == 0.5
    per_type = result["per_type"]
    assert per_type["multi-session"]["n_session"] == 1
    assert per_type["single-session-assistant"]["n_turn"] == 0
    assert per_type["single-session-assistant"]["turn"] == {}
    assert "1 with no correct user turn" in result["scoring"]


def test_score_longmemeval_missing_ranking_scores_zero() -> None:
    result = score_longmemeval([lme("q1", "t", ["answer_a"], ["answer_a_1"])], {}, ks=(5,))
    assert result["n"]["missing_rankings"] == 1
    assert result["session"]["recall_any@5"] == 0.0


def loc(index: int, category: int, evidence: list[str]) -> LoCoMoQuestion:
    return LoCoMoQuestion(sample_id="s", index=index, question="q", answer="a", category=category,
                          evidence=evidence, question_date=WHEN)


def test_score_locomo_categories() -> None:
    questions = [loc(0, 1, ["D1:1", "D2:2"]), loc(1, 4, ["D3:1"]), loc(2, 5, ["D1:1"]), loc(3, 3, [])]
    rankings = {0: ["D1:1", "D1:2", "D2:2"], 1: ["D1:1", "D2:2", "D3:1"], 2: ["D1:1"], 3: ["D1:1"]}
    result = score_locomo(questions, rankings, ks=(1, 2))
    assert result["n"]["scored"] == 2
    assert result["n"]["no_evidence"] == 1
    assert result["n"]["adversarial"] == 1
    assert result["turn"]["fraction_recall@1"] == pytest.approx((0.5 + 0) / 2)
    assert result["turn"]["fraction_recall@2"] == pytest.approx((0.5 + 0) / 2)
    # sessions: q0 -> [D1, D2] (any hit at 1); q1 -> [D1, D2] (D3 only third)
    assert result["session"]["recall_any@1"] == 0.5
    assert result["session"]["recall_any@2"] == 0.5
    assert result["adversarial"]["turn"]["fraction_recall@1"] == 1.0
    assert result["all_with_evidence"]["n"] == 3
    assert result["per_type"]["1 multi-hop"]["n"] == 1
    assert result["per_type"]["2 temporal"]["n"] == 0


# --- reading questions, the baseline, the report ----------------------------------------------------


def lme_instance(qid: str) -> dict[str, Any]:
    return {
        "question_id": qid, "question_type": "multi-session", "question": "Where did I buy the red bike?",
        "answer": 42, "question_date": "2023/05/30 (Tue) 10:18",
        "answer_session_ids": ["answer_x", "answer_y"],
        "haystack_session_ids": ["s1", "answer_x", "s1", "answer_y", "answer_z"],
        "haystack_dates": ["2023/05/01 (Mon) 09:00"] * 5,
        "haystack_sessions": [
            [{"role": "user", "content": "hello there"}, {"role": "assistant", "content": "hi"}],
            [{"role": "user", "content": "I like tea", "has_answer": False},
             {"role": "assistant", "content": "ok", "has_answer": True},
             {"role": "user", "content": "I bought a red bike at Halfords", "has_answer": True}],
            [{"role": "user", "content": "hello there"}, {"role": "assistant", "content": "hi"}],
            [{"role": "user", "content": "  "},
             {"role": "assistant", "content": "the bike", "has_answer": True}],
            [{"role": "user", "content": "nothing here", "has_answer": False}],
        ],
    }


def test_longmemeval_questions_from_a_small_file(tmp_path: Path) -> None:
    path = tmp_path / "lme.json.gz"
    path.write_bytes(gzip.compress(json.dumps([lme_instance("q1"), lme_instance("q2_abs")]).encode()))
    questions = longmemeval_questions(path)
    assert [q.question_id for q in questions] == ["q1", "q2_abs"]
    q = questions[0]
    assert q.question_date == datetime(2023, 5, 30, 10, 18, tzinfo=UTC)
    assert q.answer == "42" and not q.is_abstention and questions[1].is_abstention
    assert q.session_ids == ["s1", "answer_x", "answer_y", "answer_z"]  # identical repeat dropped
    assert q.answer_session_ids == ["answer_x"]  # answer_y's evidence is an assistant turn
    assert q.answer_turn_ids == ["answer_x_3"]
    assert q.haystack_user_turns == [("s1_1", "hello there"), ("answer_x_1", "I like tea"),
                                     ("answer_x_3", "I bought a red bike at Halfords"),
                                     ("answer_z_1", "nothing here")]
    assert longmemeval_questions(path, limit=1)[0].question_id == "q1"
    ranked = BM25TurnBaseline(q.haystack_user_turns).rank(q.question)
    assert ranked[0] == "answer_x_3"
    results = run_baseline("longmemeval", str(path), None)
    config = next(iter(results["configs"].values()))
    assert config["n"]["session"] == 1 and config["turn"]["recall_any@1"] == 1.0


def test_bm25_baseline_tokens_ties_and_empty() -> None:
    assert tokenize("The  Red\tBIKE, ok") == ["the", "red", "bike,", "ok"]
    # (BM25Okapi's idf is log((N - df + 0.5) / (df + 0.5)): terms in half the corpus score 0)
    base = BM25TurnBaseline([("t1", "apples and pears"), ("t2", "Red bike"), ("t3", "a red bike shop"),
                             ("t4", "nothing"), ("t5", "green tea"), ("t6", "blue sky")])
    assert base.rank("red BIKE")[:2] == ["t2", "t3"]
    assert base.rank("zzz") == ["t1", "t2", "t3", "t4", "t5", "t6"]  # all tied: corpus order
    assert base.rank("red bike", k=1) == ["t2"]
    assert BM25TurnBaseline([]).rank("x") == []
    assert BM25TurnBaseline([("t1", "  ")]).rank("x") == ["t1"]


def test_write_report(tmp_path: Path) -> None:
    lme_results = {"dataset": "longmemeval", "n_questions": 3, "ks": [1, 5, 10], "configs": {
        "bm25": {"n": {"session": 3, "turn": 2},
                 "session": {"recall_any@5": 0.5, "recall_all@5": 0.25, "ndcg_any@5": 0.4,
                             "recall_any@10": 0.75, "recall_all@10": 0.5, "recall_any@1": 0.1},
                 "turn": {"recall_all@10": 0.3},
                 "per_type": {"multi-session": {"n_session": 3, "session": {"recall_all@5": 0.25}}},
                 "latency_ms": {"p50": 4.0, "p95": 9.5}, "evidence_tokens": None,
                 "scoring": "how"},
        "fused": {"session": {"recall_any@5": 1.0}, "latency_ms": None,
                  "evidence_tokens": {"median": 2000, "p95": 3100}}}}
    paths = write_report(lme_results, tmp_path / "out", "LongMemEval dev")
    md = paths["md"].read_text()
    assert "| bm25 | 3 / 2 | 0.500 | 0.250 | 0.400 | 0.750 | 0.500 | 0.300 | 4.0 / 9.5 | – |" in md
    assert "| fused | – / – | 1.000 | – |" in md and "2000 / 3100" in md
    assert "0.250 (n=3)" in md
    assert json.loads(paths["json"].read_text())["n_questions"] == 3
    assert paths["png"].read_bytes()[:4] == b"\x89PNG"
    locomo_results = {"dataset": "locomo", "n_questions": 2, "configs": {"bm25": {
        "n": {"scored": 2}, "turn": {"fraction_recall@5": 0.3, "fraction_recall@10": 0.4},
        "session": {"recall_any@5": 0.7, "recall_any@10": 0.8}}}}
    md = write_report(locomo_results, tmp_path / "lc", "LoCoMo")["md"].read_text()
    assert "| bm25 | 2 | 0.300 | 0.400 | 0.700 | 0.800 |" in md
    assert "latency" not in md


def test_halves_split_by_id_and_are_reported_side_by_side() -> None:
    ids = [f"q{i}" for i in range(200)]
    halves = [dev_half(i) for i in ids]
    assert set(halves) == {1, 2} and halves == [dev_half(i) for i in ids]  # the id decides
    assert 60 <= halves.count(1) <= 140  # a hash, not a fixed side
    questions = [lme("q1", "multi-session", ["answer_a", "answer_b"], ["answer_a_1", "answer_b_3"]),
                 lme("q2", "multi-session", ["answer_c"], ["answer_c_5"])]
    rankings = {"q1": ["answer_a_1", "answer_b_3"], "q2": ["s1_1"]}
    one, two = (score_longmemeval([q], rankings, ks=(5, 10)) for q in questions)
    table = halves_table({"dataset": "longmemeval", "configs": {
        "fused": {"halves": {"1": one, "2": two}}}})
    assert "| fused (half 1) | 1.000 / 1.000 (n=1) | 1.000 / 1.000 (n=1) |" in table
    assert "| fused (half 2) | 0.000 / 0.000 (n=1) | 0.000 / 0.000 (n=1) |" in table
    assert halves_table({"dataset": "locomo", "configs": {"fused": {}}}) == ""


def test_locomo_halves_are_reported_by_category() -> None:
    """LoCoMo's halves (by conversation) show turn fraction_recall@10 per category."""
    found = score_locomo([loc(0, 1, ["D1:1", "D2:2"])], {0: ["D1:1", "D2:2"]}, ks=(5, 10))
    missed = score_locomo([loc(1, 4, ["D3:1"])], {1: ["D1:1"]}, ks=(5, 10))
    table = halves_table({"dataset": "locomo", "configs": {
        "fused": {"halves": {"1": found, "2": missed}}}})
    assert "turn fraction_recall@10 by half of the conversations" in table
    assert "| fused (half 1) | 1.000 (n=1) | 1.000 (n=1) | – | – | – |" in table
    assert "| fused (half 2) | 0.000 (n=1) | – | – | – | 0.000 (n=1) |" in table


# --- the real benchmark files -----------------------------------------------------------------------

needs_locomo = pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not present")
needs_lme = pytest.mark.skipif(not LONGMEMEVAL.exists(), reason="LongMemEval data not present")


@needs_locomo
def test_locomo_questions_real_counts() -> None:
    questions = locomo_questions(LOCOMO)
    assert len(questions) == 1986
    assert sum(1 for q in questions if not q.evidence) == 4
    assert len({q.sample_id for q in questions}) == 10
    assert {q.category for q in questions} == {1, 2, 3, 4, 5}
    assert sum(1 for q in questions if q.category == 5) == 446
    cleaned = {e for q in questions for e in q.evidence}
    assert "D30:5" in cleaned and "D11:26" in cleaned and "D" not in cleaned
    conv26 = next(q for q in questions if q.sample_id == "conv-26")
    # conv-26 has dates for sessions 20-35 but no such sessions: the last real one is session 19
    assert conv26.question_date == datetime(2023, 10, 22, 9, 55, tzinfo=UTC)


@needs_locomo
def test_bm25_baseline_reproduces_locomo() -> None:
    results = run_baseline("locomo", str(LOCOMO), None)
    config = next(iter(results["configs"].values()))
    # The README's "1,982 QA" are every QA item with evidence, categories 1-5 together.
    assert config["n"]["all_with_evidence"] == 1982
    assert config["all_with_evidence"]["turn"]["fraction_recall@10"] == pytest.approx(0.404, abs=0.03)
    assert config["all_with_evidence"]["session"]["recall_any@5"] == pytest.approx(0.748, abs=0.03)
    assert config["n"]["scored"] == 1536  # categories 1-4 with evidence, the headline average
    assert 0.3 < config["turn"]["fraction_recall@10"] < 0.5
    # The README's exact numbers come from indexing "Speaker: text [shares <image caption>]".
    readme = next(iter(run_baseline("locomo", str(LOCOMO), None, locomo_text="speaker_caption")
                       ["configs"].values()))["all_with_evidence"]
    assert readme["turn"]["fraction_recall@5"] == pytest.approx(0.320, abs=0.005)
    assert readme["turn"]["fraction_recall@10"] == pytest.approx(0.404, abs=0.005)
    assert readme["session"]["recall_any@5"] == pytest.approx(0.748, abs=0.005)
    assert readme["session"]["recall_any@10"] == pytest.approx(0.871, abs=0.005)


@needs_lme
def test_longmemeval_questions_real_few() -> None:
    questions = longmemeval_questions(LONGMEMEVAL, limit=3)
    assert len(questions) == 3
    for q in questions:
        assert q.question_date.tzinfo is not None
        assert q.question and q.question_type
        user_ids = {turn_id for turn_id, _ in q.haystack_user_turns}
        assert set(q.answer_turn_ids) <= user_ids
        assert {session_of_turn(t) for t in q.answer_turn_ids} == set(q.answer_session_ids)
        assert all("answer" in s for s in q.answer_session_ids)
        assert len(q.session_ids) == len(set(q.session_ids))
