"""The retrieval benchmark: every configuration on the same questions, one database, one run."""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.db import Graph
from graphmem.embed import MiniLMEmbedder, default_embedder
from graphmem.extract import OfflineExtractor
from graphmem.ingest import IngestOptions, Ingestor, IngestReport
from graphmem.loaders import load
from graphmem.models import Transcript
from graphmem.retrieval import Retriever, preset

from .metrics import KS, score_locomo, score_longmemeval
from .questions import locomo_questions, longmemeval_questions
from .report import write_report
from .stats import latency

CONFIGS = ("rank-bm25", "bm25", "dense", "graph", "paper", "fused")
PREFIX = {"longmemeval": "lme:", "locomo": "locomo:"}
EVIDENCE_K = 10  # the evidence pack handed to a reader: the top items of a search



class TokenCounter:
    """Tokens of the evidence pack, counted with the embedder's own tokenizer (no network)."""

    def __init__(self, embedder: MiniLMEmbedder):
        self.tokenizer = embedder._load().tokenizer

    def count(self, texts: Sequence[str]) -> int:
        return sum(len(self.tokenizer(t, add_special_tokens=False)["input_ids"]) for t in texts)


def ensure_ingested(graph: Graph, dataset: str, path: str, limit: int | None,
                    echo: Callable[[str], None],
                    on_session: Callable[[IngestReport], None] | None = None) -> None:
    """Load the benchmark users (prefix `lme:` / `locomo:`); sessions already stored are skipped.
    `on_session` is called after every session (written or skipped), e.g. to advance a bar."""
    ingestor = Ingestor(graph, OfflineExtractor(), default_embedder(), IngestOptions())
    started = time.perf_counter()
    total = 0
    for t in load(path, limit=limit):
        report = ingestor.ingest_transcript(Transcript(PREFIX[dataset] + t.user_id, t.sessions),
                                            on_session)
        total += report.sessions
    echo(f"ingest: {total} new sessions in {time.perf_counter() - started:.0f}s")


def run_retrieval_bench(dataset: str, path: str, *, limit: int | None = None,
                        configs: Sequence[str] = CONFIGS, out_dir: str | Path | None = None,
                        echo: Callable[[str], None] = print,
                        on_session: Callable[[IngestReport], None] | None = None,
                        on_question: Callable[[str, int, int], None] | None = None
                        ) -> dict[str, Any]:
    """Ingest (if needed), then search every question with every config. `on_session` follows
    the ingest, `on_question(config, done, total)` the searches."""
    dataset = dataset.lower()
    if dataset not in PREFIX:
        raise ValueError(f"unknown dataset {dataset!r}: expected longmemeval or locomo")
    embedder = default_embedder()
    tokens = TokenCounter(embedder)
    with Graph.connect() as graph:
        ensure_ingested(graph, dataset, path, limit, echo, on_session)
        retriever = Retriever(graph, embedder)
        if dataset == "longmemeval":
            questions: list[Any] = longmemeval_questions(path, limit)
            asks = [(q.question_id, "lme:" + q.question_id, q.question, q.question_date)
                    for q in questions]
        else:
            samples = {t.user_id for t in load(path, limit=limit)}
            questions = [q for q in locomo_questions(path) if q.sample_id in samples]
            asks = [(q.index, "locomo:" + q.sample_id, q.question, q.question_date)
                    for q in questions]
        results: dict[str, Any] = {
            "dataset": dataset, "path": str(path), "n_questions": len(questions), "ks": list(KS),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": f"{platform.node()} ({__import__('os').cpu_count()} cpu, "
                       f"{platform.python_version()})",
            "configs": {},
        }
        for name in configs:
            cfg = preset(name)
            retriever.search(asks[0][1], asks[0][2], question_date=asks[0][3], config=cfg)  # warm
            rankings: dict[Any, list[str]] = {}
            latencies: list[float] = []
            pack: list[int] = []
            started = time.perf_counter()
            for done, (key, user, question, qdate) in enumerate(asks, 1):
                t0 = time.perf_counter()
                res = retriever.search(user, question, question_date=qdate, k=EVIDENCE_K,
                                       config=cfg)
                latencies.append((time.perf_counter() - t0) * 1000)
                rankings[key] = res.turn_ranking[:max(KS)]
                pack.append(tokens.count([e.text for e in res.evidence]))
                if on_question:
                    on_question(name, done, len(asks))
            scores = (score_longmemeval(questions, rankings) if dataset == "longmemeval"
                      else score_locomo(questions, rankings))
            scores["latency_ms"] = latency(latencies)
            scores["evidence_tokens"] = {"median": statistics.median(pack),
                                         "p95": sorted(pack)[int(0.95 * (len(pack) - 1))]}
            results["configs"][name] = scores
            echo(f"{name}: {len(asks)} questions in {time.perf_counter() - started:.0f}s")
    if out_dir is not None:
        write_report(results, Path(out_dir), f"graphmem retrieval — {dataset}")
    return results
