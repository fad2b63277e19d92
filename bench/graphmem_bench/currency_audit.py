"""Edge-precision audit of the currency rules: a reproducible sample of the SUPERSEDES / UPDATES
edges the rules drew for benchmark users already in the database, shown with both source turns
for a person to judge, and the precision of a judgement file.

    python -m graphmem_bench.currency_audit ingest                          # once
    python -m graphmem_bench.currency_audit sample --show  > /tmp/sample.txt   # read, judge
    python -m graphmem_bench.currency_audit summary docs/currency_audit.jsonl

The users are `--lme-limit` LongMemEval users from the `--lme-from`-th (0: the first, as every
round before the thirty-first session; a later start audits chats no round has read) and every
LoCoMo conversation (`--only` narrows to one dataset), stored
as `audit-lme:<id>` / `audit-locomo:<id>` by `ingest`: the offline extractor and the currency
rules as in any ingest, without vectors (the rules decide from the text alone, and embedding is
most of an ingest's time on a CPU); it prints turns, facts and facts per 1,000 turns. With
`--extractor model|hybrid` (on `ingest` and `sample`) the learned extractor's users are stored
apart (`audit-hybrid-lme:<id>` …) and audited the same way. The sample is split
between the two datasets in proportion to their edge counts (rounded), each part drawn with
`random.Random(seed)` from the edges sorted by user and fact ids. The judgement file keeps ids,
slot, values, verdict and reason, never the dataset's text; `--show` prints the turns from the
database at review time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from graphmem.compose import LOCAL_EXTRACTORS, ingest_parts
from graphmem.currency import DECIDED_BY_RULES
from graphmem.db import Graph
from graphmem.ingest import IngestOptions, Ingestor
from graphmem.loaders import load
from graphmem.memory import Memory
from graphmem.migrate import connect
from graphmem.models import Transcript
from graphmem.store.currency import rule_edges

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
PREFIX = {"longmemeval": "audit-lme:", "locomo": "audit-locomo:"}


def prefix(dataset: str, extractor: str = "offline") -> str:
    """The stored user id prefix: the offline extractor's users keep the first audit's ids."""
    return PREFIX[dataset] if extractor == "offline" else f"audit-{extractor}-{PREFIX[dataset][6:]}"
KEEP = ("type", "slot", "old_fact", "old_value", "old_quantity", "old_modality", "old_mention",
        "old_source_turn",
        "old_session", "new_fact", "new_value", "new_quantity", "new_modality",
        "new_source_turn", "new_session")


def audited(lme: str, lme_limit: int, locomo: str, lme_from: int = 0,
            only: str | None = None) -> Iterator[tuple[str, Iterator[Transcript]]]:
    """Each audited dataset (or `only` one) with its users: `lme_limit` LongMemEval users from
    the `lme_from`-th, every LoCoMo conversation."""
    def lme_users() -> Iterator[Transcript]:
        for i, t in enumerate(load(lme, limit=lme_from + lme_limit)):
            if i >= lme_from:
                yield t
    for dataset, users in (("longmemeval", lme_users), ("locomo", lambda: iter(load(locomo)))):
        if only in (None, dataset):
            yield dataset, users()


def dataset_users(lme: str, lme_limit: int, locomo: str, extractor: str = "offline",
                  lme_from: int = 0, only: str | None = None
                  ) -> Iterator[tuple[str, str, str]]:
    """(dataset, stored user id, dataset user id) of the audited users."""
    for dataset, users in audited(lme, lme_limit, locomo, lme_from, only):
        for t in users:
            yield dataset, prefix(dataset, extractor) + t.user_id, t.user_id


class NoVectors:
    """The embedder of an ingest that embeds nothing (every `embed_*` option off)."""

    name = "none"
    dimensions = 384

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if texts:
            raise RuntimeError("the audit ingest embeds nothing")
        return []

    def embed_query(self, text: str) -> list[float]:
        raise RuntimeError("the audit ingest embeds nothing")

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        return self.embed_documents(texts)


def audit_ingestor(graph: Graph, extractor: str = "offline") -> Ingestor:
    """The extractor and the currency rules as in any ingest, with nothing embedded."""
    options = IngestOptions(embed_turn_roles=(), embed_facts=False, embed_entities=False)
    return Ingestor(graph, ingest_parts(extractor).extractor, NoVectors(), options)


def ingest(lme: str, lme_limit: int, locomo: str, only: str | None = None,
           extractor: str = "offline", lme_from: int = 0) -> dict[str, Any]:
    """Store the audited users (sessions already stored are skipped)."""
    out: dict[str, Any] = {}
    with connect() as graph:
        ingestor = audit_ingestor(graph, extractor)
        for dataset, users in audited(lme, lme_limit, locomo, lme_from, only):
            started = time.perf_counter()
            report = ingestor.ingest(Transcript(prefix(dataset, extractor) + t.user_id,
                                                t.sessions)
                                     for t in users)
            turns, facts = report.turns, report.facts
            seconds = time.perf_counter() - started
            out[dataset] = {"turns": turns, "facts": facts, "seconds": round(seconds, 1),
                            "facts_per_1000_turns": round(1000 * facts / turns, 1) if turns else 0}
            print(json.dumps({dataset: out[dataset]}), file=sys.stderr)
    return out


def sample_edges(mem: Memory, users: list[tuple[str, str, str]], n: int,
                 seed: int) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The sampled edges and the number of rule edges per dataset."""
    by_dataset: dict[str, list[dict[str, Any]]] = {}
    for dataset, stored, source in users:
        for e in rule_edges(mem.graph, stored, DECIDED_BY_RULES):
            row = {"dataset": dataset, "user": source, **{k: e[k] for k in KEEP}}
            by_dataset.setdefault(dataset, []).append(row)
    counts = {d: len(rows) for d, rows in by_dataset.items()}
    total = sum(counts.values())
    out: list[dict[str, Any]] = []
    left = n
    for i, (_dataset, rows) in enumerate(sorted(by_dataset.items())):
        share = left if i == len(by_dataset) - 1 else round(n * len(rows) / total)
        share = min(share, len(rows))
        left -= share
        rows.sort(key=lambda r: (r["user"], r["new_fact"], r["old_fact"]))
        out += random.Random(seed).sample(rows, share)
    return out, counts


def _show(mem: Memory, stored_user: str, row: dict[str, Any]) -> str:
    lines = [f"== {row['dataset']} {row['user']} {row['type']} slot={row['slot']}"]
    for side in ("old", "new"):
        card = mem.inspect(stored_user, row[f"{side}_fact"])
        src = (card.get("sources") or [{}])[0]
        value = row[f"{side}_value"] if row[f"{side}_quantity"] is None else row[f"{side}_quantity"]
        lines.append(f"-- {side}: {value!r} ({row[f'{side}_modality']}) turn "
                     f"{row[f'{side}_source_turn']} session {row[f'{side}_session']}")
        text = (src.get("before", "")[-240:] + "[[" + src.get("span", "") + "]]"
                + src.get("after", "")[:160])
        lines.append("   " + " ".join(text.split()))
    return "\n".join(lines)


def summary(path: Path) -> dict[str, Any]:
    """Precision per audit round (a re-audit after a rule change is a new round)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rounds = sorted({r.get("round", 1) for r in rows})
    return {f"round {n}": _precision([r for r in rows if r.get("round", 1) == n])
            for n in rounds}


def _precision(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"judged": len(rows)}
    for key in ("dataset", "type"):
        for value in sorted({r[key] for r in rows}):
            part = [r for r in rows if r[key] == value]
            ok = sum(r["verdict"] == "correct" for r in part)
            out[f"{key}={value}"] = f"{ok}/{len(part)}"
    ok = sum(r["verdict"] == "correct" for r in rows)
    out["correct"], out["precision"] = ok, round(ok / len(rows), 3) if rows else 0
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m graphmem_bench.currency_audit")
    sub = parser.add_subparsers(dest="command", required=True)
    i = sub.add_parser("ingest", help="store the audited users (no vectors)")
    s = sub.add_parser("sample", help="the sampled edges as JSONL (with --show: the turns)")
    for p in (i, s):
        p.add_argument("--only", choices=sorted(PREFIX), help="one of the two datasets")
        p.add_argument("--lme", default=str(DATA / "longmemeval" / "longmemeval_s_dev.json.gz"))
        p.add_argument("--lme-limit", type=int, default=60)
        p.add_argument("--lme-from", type=int, default=0,
                       help="the first LongMemEval user audited (0-based, in file order)")
        p.add_argument("--locomo", default=str(DATA / "locomo" / "locomo10.json"))
        p.add_argument("--extractor", choices=LOCAL_EXTRACTORS,
                       default="offline", help="who extracted the audited users' facts")
    s.add_argument("-n", type=int, default=100)
    s.add_argument("--seed", type=int, default=13)
    s.add_argument("--show", action="store_true", help="print both source turns of each edge")
    m = sub.add_parser("summary", help="precision of a judgement file")
    m.add_argument("path", type=Path)
    args = parser.parse_args(argv)
    if args.command == "summary":
        print(json.dumps(summary(args.path)))
        return 0
    if args.command == "ingest":
        print(json.dumps(ingest(args.lme, args.lme_limit, args.locomo, args.only,
                                args.extractor, args.lme_from)))
        return 0
    users = list(dataset_users(args.lme, args.lme_limit, args.locomo, args.extractor,
                               args.lme_from, args.only))
    stored = {(d, src): u for d, u, src in users}
    with Memory.from_settings() as mem:
        rows, counts = sample_edges(mem, users, args.n, args.seed)
        print(f"rule edges: {counts}; sampled {len(rows)} (seed {args.seed})", file=sys.stderr)
        for row in rows:
            print(_show(mem, stored[(row["dataset"], row["user"])], row) if args.show
                  else json.dumps(row, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
