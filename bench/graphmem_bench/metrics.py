"""Retrieval metrics exactly as defined in ../shared/data/README.md, and their per-benchmark averages.

Conventions (those of the official LongMemEval code, which the README restates):
- rankings are deduplicated, order kept, before anything is scored;
- with no correct id at all, `recall_any` is 0, `recall_all` is 1 (vacuously) and `ndcg_any` is 0;
- session-level LongMemEval numbers are averaged over every non-abstention question, including those
  with no correct session (scored by the rule above, as the official script does), and also over
  only the questions that have evidence (`session_with_evidence`); turn-level numbers are averaged
  over non-abstention questions with at least one correct user turn, and the rest are counted.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from statistics import fmean
from typing import Any

from graphmem.loaders.longmemeval import session_of_turn

from .questions import LMEQuestion, LoCoMoQuestion, session_of_dia

KS: tuple[int, ...] = (1, 3, 5, 10, 30, 50)


def dedupe(ids: Iterable[str]) -> list[str]:
    """The ids in order, each kept at its first occurrence."""
    return list(dict.fromkeys(ids))


def recall_any(ranked_ids: Sequence[str], correct: Iterable[str], k: int) -> float:
    """1.0 when any correct id is among the top k, else 0.0 (0.0 when nothing is correct)."""
    top = set(dedupe(ranked_ids)[:k])
    return float(any(c in top for c in set(correct)))


def recall_all(ranked_ids: Sequence[str], correct: Iterable[str], k: int) -> float:
    """1.0 when every correct id is among the top k, else 0.0 (1.0 when nothing is correct)."""
    top = set(dedupe(ranked_ids)[:k])
    return float(all(c in top for c in set(correct)))


def _dcg(relevances: Sequence[float]) -> float:
    if not relevances:
        return 0.0
    return relevances[0] + sum(rel / math.log2(i) for i, rel in enumerate(relevances[1:], 2))


def ndcg_any(ranked_ids: Sequence[str], correct: Iterable[str], k: int) -> float:
    """Binary-relevance nDCG@k: DCG = rel_1 + sum_{i=2..k} rel_i / log2(i), over the ideal DCG."""
    wanted = set(correct)
    ideal = _dcg([1.0] * min(len(wanted), k))
    if ideal == 0:
        return 0.0
    actual = _dcg([1.0 if doc in wanted else 0.0 for doc in dedupe(ranked_ids)[:k]])
    return actual / ideal


def turns_to_sessions(ranked_turn_ids: Sequence[str], session_of: Callable[[str], str],
                      k: int) -> list[str]:
    """Sessions in the order their turns are ranked, each at its first occurrence, at most k."""
    sessions: list[str] = []
    seen: set[str] = set()
    for turn in ranked_turn_ids:
        session = session_of(turn)
        if session not in seen:
            seen.add(session)
            sessions.append(session)
            if len(sessions) == k:
                break
    return sessions


def locomo_fraction_recall(ranked_dia_ids: Sequence[str], evidence: Iterable[str], k: int) -> float:
    """The fraction of the evidence dia ids found among the top k turns (LoCoMo's official recall)."""
    wanted = set(evidence)
    if not wanted:
        raise ValueError("a LoCoMo QA item with no evidence has no recall; leave it out")
    top = set(dedupe(ranked_dia_ids)[:k])
    return len(wanted & top) / len(wanted)


# --- LongMemEval ------------------------------------------------------------------------------------


def _triple(ranked: Sequence[str], correct: Sequence[str], k: int) -> dict[str, float]:
    return {f"recall_any@{k}": recall_any(ranked, correct, k),
            f"recall_all@{k}": recall_all(ranked, correct, k),
            f"ndcg_any@{k}": ndcg_any(ranked, correct, k)}


def _mean_rows(rows: list[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {}
    return {key: fmean(row[key] for row in rows) for key in rows[0]}


def lme_question_scores(question: LMEQuestion, ranked_turn_ids: Sequence[str],
                        ks: Sequence[int] = KS) -> dict[str, dict[str, float]]:
    """Session- and turn-level scores of one question at every k (turn scores empty without evidence)."""
    ranked = dedupe(ranked_turn_ids)
    session: dict[str, float] = {}
    turn: dict[str, float] = {}
    for k in ks:
        session.update(_triple(turns_to_sessions(ranked, session_of_turn, k),
                               question.answer_session_ids, k))
        if question.answer_turn_ids:
            turn.update(_triple(ranked, question.answer_turn_ids, k))
    return {"session": session, "turn": turn}


def _lme_block(scored: list[tuple[LMEQuestion, dict[str, dict[str, float]]]]) -> dict[str, Any]:
    with_turns = [s for q, s in scored if q.answer_turn_ids]
    with_sessions = [s for q, s in scored if q.answer_session_ids]
    return {
        "n_session": len(scored),
        "n_turn": len(with_turns),
        "n_session_with_evidence": len(with_sessions),
        "session": _mean_rows([s["session"] for _, s in scored]),
        "session_with_evidence": _mean_rows([s["session"] for s in with_sessions]),
        "turn": _mean_rows([s["turn"] for s in with_turns]),
    }


def score_longmemeval(questions: Sequence[LMEQuestion], rankings: Mapping[str, Sequence[str]],
                      ks: Sequence[int] = KS) -> dict[str, Any]:
    """Averages over non-abstention questions, overall and per question type, with the counts used.

    A question missing from `rankings` is scored as an empty ranking and counted in `missing_rankings`.
    """
    counted = [q for q in questions if not q.is_abstention]
    missing = sum(1 for q in counted if q.question_id not in rankings)
    scored = [(q, lme_question_scores(q, rankings.get(q.question_id, []), ks)) for q in counted]
    overall = _lme_block(scored)
    per_type: dict[str, Any] = {}
    for qtype in sorted({q.question_type for q in counted}):
        per_type[qtype] = _lme_block([(q, s) for q, s in scored if q.question_type == qtype])
    no_turn = sum(1 for q in counted if not q.answer_turn_ids)
    no_session = sum(1 for q in counted if not q.answer_session_ids)
    return {
        "n": {
            "questions": len(questions),
            "abstention_excluded": len(questions) - len(counted),
            "session": overall["n_session"],
            "session_with_evidence": overall["n_session_with_evidence"],
            "turn": overall["n_turn"],
            "no_user_evidence": no_turn,
            "no_correct_session": no_session,
            "missing_rankings": missing,
        },
        "session": overall["session"],
        "session_with_evidence": overall["session_with_evidence"],
        "turn": overall["turn"],
        "per_type": per_type,
        "scoring": (f"non-abstention questions only; {no_correct_note(no_session, no_turn)}"),
    }


def no_correct_note(no_session: int, no_turn: int) -> str:
    """How questions without evidence were scored, in words, for reports."""
    return (f"{no_session} question(s) with no correct session are kept in the session averages "
            f"with recall_any=0, recall_all=1, ndcg_any=0 (the official script's convention; "
            f"`session_with_evidence` leaves them out); {no_turn} with no correct user turn are left "
            f"out of the turn averages")


# --- LoCoMo -----------------------------------------------------------------------------------------


def locomo_question_scores(question: LoCoMoQuestion, ranked_dia_ids: Sequence[str],
                           ks: Sequence[int] = KS) -> dict[str, dict[str, float]]:
    """Turn fraction recall and session recall_any of one QA item (which must have evidence)."""
    ranked = dedupe(ranked_dia_ids)
    wanted_sessions = dedupe(session_of_dia(e) for e in question.evidence)
    turn = {f"fraction_recall@{k}": locomo_fraction_recall(ranked, question.evidence, k) for k in ks}
    session = {f"recall_any@{k}": recall_any(turns_to_sessions(ranked, session_of_dia, k),
                                             wanted_sessions, k) for k in ks}
    return {"turn": turn, "session": session}


def _locomo_block(scores: list[dict[str, dict[str, float]]]) -> dict[str, Any]:
    return {"n": len(scores), "turn": _mean_rows([s["turn"] for s in scores]),
            "session": _mean_rows([s["session"] for s in scores])}


def score_locomo(questions: Sequence[LoCoMoQuestion], rankings: Mapping[int, Sequence[str]],
                 ks: Sequence[int] = KS) -> dict[str, Any]:
    """Official fraction recall and session recall_any@k over categories 1-4; category 5 apart.

    Rankings are keyed by `LoCoMoQuestion.index`. QA items with no evidence are counted and left
    out; a missing ranking is scored as empty and counted. `all_with_evidence` averages every
    category (1-5) together, for comparison with numbers published that way.
    """
    with_evidence = [q for q in questions if q.evidence]
    missing = sum(1 for q in with_evidence if q.index not in rankings)
    scored = [(q, locomo_question_scores(q, rankings.get(q.index, []), ks)) for q in with_evidence]
    main = [s for q, s in scored if q.category in (1, 2, 3, 4)]
    per_type = {f"{c} {name}": _locomo_block([s for q, s in scored if q.category == c])
                for c, name in ((1, "multi-hop"), (2, "temporal"), (3, "open-domain"), (4, "single-hop"))}
    overall = _locomo_block(main)
    return {
        "n": {
            "questions": len(questions),
            "no_evidence": len(questions) - len(with_evidence),
            "scored": len(main),
            "adversarial": sum(1 for q in with_evidence if q.category == 5),
            "other_categories": sum(1 for q in with_evidence if q.category not in (1, 2, 3, 4, 5)),
            "all_with_evidence": len(with_evidence),
            "missing_rankings": missing,
        },
        "turn": overall["turn"],
        "session": overall["session"],
        "per_type": per_type,
        "adversarial": _locomo_block([s for q, s in scored if q.category == 5]),
        "all_with_evidence": _locomo_block([s for _, s in scored]),
        "scoring": ("QA items of categories 1-4 with evidence; category 5 (adversarial) in "
                    "`adversarial`; every category in `all_with_evidence`; items with no evidence "
                    "left out and counted"),
    }
