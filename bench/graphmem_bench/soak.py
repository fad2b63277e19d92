"""`bench soak`: N parallel ingests of different users and M search loops for a bounded time on
one Memory (loopback Bolt, one shared embedder and driver pool), then a consistency check —
no cross-user edge, every user's counts equal to a serial ingestion of the same transcript, no
half-written session."""

from __future__ import annotations

import itertools
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from graphmem.memory import Memory
from graphmem.models import Transcript
from graphmem.store import admin

from .stats import summary
from .users import QUESTIONS, bench_users

COUNTED = ("sessions", "turns", "pieces", "facts", "entities")


@dataclass
class SoakResult:
    ingests: int
    search_loops: int
    seconds: float = 0.0
    users: int = 0
    sessions: int = 0
    turns: int = 0
    searches: int = 0
    errors: list[str] = field(default_factory=list)
    search_ms: dict[str, float] | None = None
    turns_per_s: float = 0.0
    cross_user_edges: int = -1
    mismatched_users: list[str] = field(default_factory=list)
    half_written_sessions: int = -1

    @property
    def ok(self) -> bool:
        return (not self.errors and self.cross_user_edges == 0 and not self.mismatched_users
                and self.half_written_sessions == 0)


def run_soak(path: str, *, ingests: int = 4, search_loops: int = 4, seconds: float = 120.0,
             sessions: int = 20, memory: Memory | None = None, prefix: str | None = None,
             echo: Any = lambda _m: None) -> SoakResult:
    """Run the soak and check consistency; the soak users (and the serial copies) are forgotten."""
    prefix = prefix if prefix is not None else f"soak-{int(time.time())}-"
    mem = memory or Memory.from_settings(answer_llm=False)
    mem.embedder.embed_query("warm up")
    res = SoakResult(ingests, search_loops)
    todo: queue.Queue[Transcript] = queue.Queue()
    transcripts = bench_users(path, ingests * 2, sessions, prefix)
    for t in transcripts:
        todo.put(t)
    done_ids: list[str] = []
    latencies: list[float] = []
    lock = threading.Lock()
    stop = threading.Event()

    def ingest_worker() -> None:
        while not stop.is_set():
            try:
                t = todo.get_nowait()
            except queue.Empty:
                return
            try:
                r = mem.ingest([t])
                with lock:
                    done_ids.append(t.user_id)
                    res.sessions += r.sessions
                    res.turns += r.turns
            except Exception as exc:  # counted and reported, the soak goes on
                with lock:
                    res.errors.append(f"ingest {t.user_id}: {type(exc).__name__}: {exc}")

    def search_worker(k: int) -> None:
        for i in itertools.count(k):
            if stop.is_set():
                return
            with lock:
                users = list(done_ids) or [transcripts[0].user_id]
            user = users[i % len(users)]
            t0 = time.perf_counter()
            try:
                mem.search(user, QUESTIONS[i % len(QUESTIONS)], k=10)
            except Exception as exc:
                if "no memory for user" in str(exc):  # its first session is not written yet
                    time.sleep(0.05)
                    continue
                with lock:
                    res.errors.append(f"search {user}: {type(exc).__name__}: {exc}")
                continue
            with lock:
                latencies.append((time.perf_counter() - t0) * 1000)

    threads = [threading.Thread(target=ingest_worker) for _ in range(ingests)]
    threads += [threading.Thread(target=search_worker, args=(k,)) for k in range(search_loops)]
    started = time.perf_counter()
    for th in threads:
        th.start()
    deadline = started + seconds
    while time.perf_counter() < deadline and any(th.is_alive() for th in threads[:ingests]):
        time.sleep(0.5)
    while time.perf_counter() < deadline:
        time.sleep(0.5)
    stop.set()
    for th in threads:
        th.join()
    res.seconds = time.perf_counter() - started
    res.users = len(done_ids)
    res.searches = len(latencies)
    res.search_ms = summary(latencies, 1)
    res.turns_per_s = res.turns / res.seconds if res.seconds else 0.0
    echo(f"soak done in {res.seconds:.0f} s; checking consistency against a serial ingestion…")

    res.cross_user_edges = admin.cross_user_edges(mem.graph)
    res.half_written_sessions = 0
    by_id = {t.user_id: t for t in transcripts}
    for uid in done_ids:
        serial = "serial-" + uid
        mem.ingest([Transcript(serial, by_id[uid].sessions)])
        a, b = admin.stats(mem.graph, uid), admin.stats(mem.graph, serial)
        if any(a[k] != b[k] for k in COUNTED):
            res.mismatched_users.append(uid)
        res.half_written_sessions += admin.half_written_sessions(mem.graph, uid)
        mem.forget(serial)
    for t in transcripts:
        mem.forget(t.user_id, missing_ok=True)  # one the deadline left unwritten
    if memory is None:
        mem.close()
    return res
