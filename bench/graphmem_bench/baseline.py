"""The official retrieval baseline: rank-bm25 BM25Okapi over turns, lowercase whitespace tokens.

LongMemEval: one index per question over its own haystack's user turns (the official corpus).
LoCoMo: one index per sample over all its turns (both speakers are people, so both are "user").
`run_baseline` scores it alone and returns a results dict in the shape `graphmem_bench.report` writes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from itertools import islice
from pathlib import Path
from statistics import quantiles
from typing import Any

from rank_bm25 import BM25Okapi

from graphmem.loaders import load
from graphmem.loaders.common import iter_json_array

from .metrics import KS, score_locomo, score_longmemeval
from .questions import locomo_questions, longmemeval_questions

CONFIG_NAME = "bm25-turns (official baseline)"
_SESSION = re.compile(r"session_(\d+)")


def tokenize(text: str) -> list[str]:
    """Lowercase whitespace tokens, exactly; no stemming, no punctuation stripping."""
    return text.lower().split()


class BM25TurnBaseline:
    """BM25Okapi over a fixed list of (turn id, text); `rank` returns every turn id, best first.

    Ties keep corpus order (a stable sort), so equal scores rank earlier turns first.
    """

    def __init__(self, turns: Sequence[tuple[str, str]]) -> None:
        self.ids = [turn_id for turn_id, _ in turns]
        tokenized = [tokenize(text) for _, text in turns]
        # BM25Okapi divides by the corpus size and the average length: guard the degenerate cases.
        self._bm25 = BM25Okapi(tokenized) if any(tokenized) else None

    def scores(self, query: str) -> list[float]:
        if self._bm25 is None:
            return [0.0] * len(self.ids)
        return [float(s) for s in self._bm25.get_scores(tokenize(query))]

    def rank(self, query: str, k: int | None = None) -> list[str]:
        scores = self.scores(query)
        order = sorted(range(len(self.ids)), key=lambda i: -scores[i])
        ranked = [self.ids[i] for i in order]
        return ranked if k is None else ranked[:k]


def _percentiles(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    if len(values) == 1:
        return {"p50": values[0], "p95": values[0]}
    cuts = quantiles(values, n=100, method="inclusive")
    return {"p50": cuts[49], "p95": cuts[94]}


def rank_longmemeval(path: str | Path, limit: int | None = None
                     ) -> tuple[list[Any], dict[str, list[str]], list[float]]:
    """Questions, the baseline's ranked user-turn ids per question id, and per-question ms."""
    questions = longmemeval_questions(path, limit)
    rankings: dict[str, list[str]] = {}
    latencies: list[float] = []
    for q in questions:
        start = time.perf_counter()
        rankings[q.question_id] = BM25TurnBaseline(q.haystack_user_turns).rank(q.question)
        latencies.append((time.perf_counter() - start) * 1000)
    return questions, rankings, latencies


def _locomo_corpora(path: str | Path, limit: int | None, text: str) -> dict[str, list[tuple[str, str]]]:
    """(dia id, text) of every turn per sample: the loader's text, or "Speaker: text [shares caption]"."""
    if text == "plain":
        transcripts = list(islice(load(path, format="locomo"), limit))
        return {t.user_id: [(turn.source_id or "", turn.text) for s in t.sessions for turn in s.turns]
                for t in transcripts}
    if text != "speaker_caption":
        raise ValueError(f"unknown LoCoMo text {text!r}: expected 'plain' or 'speaker_caption'")
    corpora: dict[str, list[tuple[str, str]]] = {}
    for sample in islice(iter_json_array(Path(path), "LoCoMo samples"), limit):
        conversation = sample["conversation"]
        numbers = sorted(int(m.group(1)) for key in conversation if (m := _SESSION.fullmatch(key)))
        corpus = []
        for n in numbers:
            for turn in conversation[f"session_{n}"]:
                caption = f" [shares {turn['blip_caption']}]" if turn.get("blip_caption") else ""
                corpus.append((turn["dia_id"], f"{turn['speaker']}: {turn['text']}{caption}"))
        corpora[str(sample["sample_id"])] = corpus
    return corpora


def rank_locomo(path: str | Path, limit: int | None = None, text: str = "plain"
                ) -> tuple[list[Any], dict[int, list[str]], list[float]]:
    """QA items (of the first `limit` samples), ranked dia ids per QA index, and per-query ms.

    `text="plain"` indexes the loader's turn text (what graphmem ingests); `"speaker_caption"`
    indexes "Speaker: text [shares <image caption>]", which reproduces the README's numbers.
    """
    indexes = {sample_id: BM25TurnBaseline(corpus)
               for sample_id, corpus in _locomo_corpora(path, limit, text).items()}
    questions = [q for q in locomo_questions(path) if q.sample_id in indexes]
    rankings: dict[int, list[str]] = {}
    latencies: list[float] = []
    for q in questions:
        start = time.perf_counter()
        rankings[q.index] = indexes[q.sample_id].rank(q.question)
        latencies.append((time.perf_counter() - start) * 1000)
    return questions, rankings, latencies


def run_baseline(dataset: str, path: str, limit: int | None = None, ks: Sequence[int] = KS,
                 *, locomo_text: str = "plain") -> dict[str, Any]:
    """Score the BM25 baseline alone on "longmemeval" (limit = questions) or "locomo" (limit = samples).

    `locomo_text`: see `rank_locomo`. Returns `{"dataset", "path", "n_questions", "ks",
    "configs": {CONFIG_NAME: scores}}`, ready for `graphmem_bench.report.write_report`; latency
    is the in-process ranking time per question (LongMemEval: index build included, as each
    question has its own haystack).
    """
    name = dataset.lower().replace("-", "").replace("_", "")
    if name == "longmemeval":
        questions, lme_rankings, latencies = rank_longmemeval(path, limit)
        scores = score_longmemeval(questions, lme_rankings, ks)
    elif name == "locomo":
        questions, lc_rankings, latencies = rank_locomo(path, limit, locomo_text)
        scores = score_locomo(questions, lc_rankings, ks)
    else:
        raise ValueError(f"unknown dataset {dataset!r}: expected 'longmemeval' or 'locomo'")
    scores["latency_ms"] = _percentiles(latencies)
    scores["evidence_tokens"] = None
    config = CONFIG_NAME
    if name == "locomo" and locomo_text != "plain":
        config = f"{CONFIG_NAME}, {locomo_text}"
    return {"dataset": "longmemeval" if name == "longmemeval" else "locomo", "path": str(path),
            "n_questions": len(questions), "ks": list(ks), "configs": {config: scores}}
