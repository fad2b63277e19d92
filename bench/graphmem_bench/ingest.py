"""Ingest throughput: turns/s, minutes, and peak resident memory of Python and of Neo4j."""

from __future__ import annotations

import platform
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem import localneo4j
from graphmem.compose import embedder as configured_embedder
from graphmem.compose import ingest_parts
from graphmem.config import Settings
from graphmem.ingest import IngestOptions, Ingestor, IngestReport
from graphmem.loaders import load
from graphmem.migrate import connect
from graphmem.models import Transcript
from graphmem.store import admin
from graphmem.vectorspace import require


def _kib_field(pid: int, name: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


@dataclass
class IngestBench:
    path: str
    users: int = 0
    sessions: int = 0
    turns: int = 0
    pieces: int = 0
    facts: int = 0
    rejected: int = 0
    seconds: float = 0.0
    load_seconds: float = 0.0
    python_peak_rss_mib: float = 0.0
    neo4j_peak_rss_mib: float | None = None
    neo4j_rss_mib: float | None = None
    machine: dict[str, Any] = field(default_factory=dict)

    @property
    def turns_per_s(self) -> float:
        return self.turns / self.seconds if self.seconds else 0.0


def run_ingest_bench(path: str, *, limit: int | None = None, prefix: str | None = None,
                     keep: bool = False, options: IngestOptions | None = None,
                     on_session: Callable[[IngestReport], None] | None = None,
                     extractor: str = "offline") -> IngestBench:
    """Ingest `path` under fresh user ids (`<prefix><user>`) with `extractor` (offline, model,
    hybrid) and measure; forget them after unless `keep`."""
    settings = Settings.from_env()
    prefix = prefix if prefix is not None else f"bench-{int(time.time())}-"
    result = IngestBench(path=str(path))
    result.machine = {"cpus": __import__("os").cpu_count(), "python": platform.python_version(),
                      "platform": platform.platform()}
    embedder = configured_embedder()
    embedder.embed_documents(["warm up"])  # model load is not ingest time
    users: list[str] = []
    with connect(settings) as graph:
        require(graph, embedder)
        ingestor = Ingestor(graph, ingest_parts(extractor).extractor, embedder, options)
        started = time.perf_counter()
        load_time = 0.0

        def renamed():  # read lazily (the file is parsed while memory writes)
            nonlocal load_time
            transcripts = iter(load(path, limit=limit))
            while True:
                t0 = time.perf_counter()
                try:
                    t = next(transcripts)
                except StopIteration:
                    return
                load_time += time.perf_counter() - t0
                users.append(prefix + t.user_id)
                yield Transcript(users[-1], t.sessions)

        total = ingestor.ingest(renamed(), on_session)
        result.seconds = time.perf_counter() - started
        result.load_seconds = load_time
        if not keep:
            for uid in users:
                admin.forget_user(graph, uid)
    for name in ("users", "sessions", "turns", "pieces", "facts", "rejected"):
        setattr(result, name, getattr(total, name))
    result.python_peak_rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if not settings.external:
        st = localneo4j.status(settings.local)
        if st.state:
            hwm = _kib_field(st.state.pid, "VmHWM")
            rss = _kib_field(st.state.pid, "VmRSS")
            result.neo4j_peak_rss_mib = hwm / 1024 if hwm else None
            result.neo4j_rss_mib = rss / 1024 if rss else None
    return result
