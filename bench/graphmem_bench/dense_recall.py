"""Recall@k of the user-filtered vector index against the exact scan, on LongMemEval users.

Ingests the first N users of a LongMemEval file under fresh ids, then asks every user every one of
the N questions (its own and the others', all real questions) through both paths of the dense
tunnel and counts how many of the exact scan's top-k heads the index search also returns.
Run: `python -m graphmem_bench.dense_recall FILE [--limit N] [--k K ...] [--keep]`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from graphmem.compose import embedder as configured_embedder
from graphmem.config import Settings
from graphmem.extract import OfflineExtractor
from graphmem.ingest import Ingestor
from graphmem.loaders import load
from graphmem.migrate import connect
from graphmem.models import Transcript
from graphmem.store.admin import forget_user, server_version
from graphmem.store.search import dense_heads, vector_index_filters

from .questions import longmemeval_questions


def _heads(rows: list[dict[str, Any]], kind: str) -> list[str]:
    return [r["id"] for r in rows if r["type"] == kind]


def run_dense_recall(path: str, *, limit: int = 10, ks: tuple[int, ...] = (10,),
                     keep: bool = False) -> dict[str, Any]:
    embedder = configured_embedder()
    questions = [q.question for q in longmemeval_questions(path, limit)]
    vectors = [embedder.embed_query(q) for q in questions]
    prefix = f"recall-{int(time.time())}-"
    users: list[str] = []
    with connect(Settings.from_env()) as graph:
        if not vector_index_filters(graph):
            raise SystemExit(f"{server_version(graph)} has no user-filtered vector index: "
                             "nothing to compare")
        ingestor = Ingestor(graph, OfflineExtractor(), embedder)
        started = time.perf_counter()
        turns = 0
        for t in load(path, limit=limit):
            users.append(prefix + t.user_id)
            turns += ingestor.ingest_transcript(Transcript(users[-1], t.sessions)).turns
        ingest_s = time.perf_counter() - started
        result: dict[str, Any] = {"server": server_version(graph), "users": len(users),
                                  "turns": turns, "queries": len(users) * len(vectors),
                                  "ingest_s": round(ingest_s, 1), "recall": {}}
        try:
            for k in ks:
                per_type: dict[str, list[float]] = {"turn": [], "fact": []}
                ms: dict[str, list[float]] = {"index": [], "exact": []}
                for uid in users:
                    for vec in vectors:
                        t0 = time.perf_counter()
                        index = dense_heads(graph, uid, vec, heads=k, min_cosine=0.0)
                        t1 = time.perf_counter()
                        exact = dense_heads(graph, uid, vec, heads=k, min_cosine=0.0, exact=True)
                        ms["index"].append((t1 - t0) * 1000)
                        ms["exact"].append((time.perf_counter() - t1) * 1000)
                        for kind, found in per_type.items():
                            want = set(_heads(exact, kind))
                            if want:
                                found.append(len(want & set(_heads(index, kind))) / len(want))
                result["recall"][f"@{k}"] = {
                    kind: round(statistics.fmean(v), 4) for kind, v in per_type.items() if v}
                result[f"p50_ms@{k}"] = {p: round(statistics.median(v), 1) for p, v in ms.items()}
        finally:
            if not keep:
                for uid in users:
                    forget_user(graph, uid)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m graphmem_bench.dense_recall",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--limit", type=int, default=10, help="users (and questions) to load")
    parser.add_argument("--k", type=int, action="append", help="top-k to compare (repeatable)")
    parser.add_argument("--keep", action="store_true", help="keep the ingested users")
    args = parser.parse_args(argv)
    result = run_dense_recall(args.path, limit=args.limit, ks=tuple(args.k or (10,)),
                              keep=args.keep)
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
