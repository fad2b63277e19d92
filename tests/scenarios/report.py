"""Per-category pass rates of the scenario suite on the configured Neo4j (NEO4J_URI or the managed
one): `python -m tests.scenarios.report [--failures]`. Every scenario user is forgotten after."""

from __future__ import annotations

import sys
import uuid
from collections import defaultdict

from graphmem.db import Graph
from graphmem.embed import default_embedder
from graphmem.memory import Memory

from .check import run
from .data import ALL


def main(argv: list[str]) -> int:
    show = "--failures" in argv
    by_cat: dict[str, list[bool]] = defaultdict(list)
    with Graph.connect() as graph:
        mem = Memory(graph, embedder=default_embedder())
        for s in ALL:
            uid = f"scenario-{uuid.uuid4().hex[:10]}"
            try:
                failures = run(mem, s, uid)
            finally:
                graph.forget_user(uid)
            by_cat[s.category].append(not failures)
            if failures and show:
                print(f"FAIL {s.id}: {'; '.join(failures)}")
    total = [ok for oks in by_cat.values() for ok in oks]
    for cat, oks in by_cat.items():
        print(f"{cat:<26} {sum(oks):>3}/{len(oks):<3} {sum(oks) / len(oks):6.1%}")
    print(f"{'all':<26} {sum(total):>3}/{len(total):<3} {sum(total) / len(total):6.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
