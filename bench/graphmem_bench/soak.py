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
    transcripts = bench_users(path, ingests * 2, sessions, prefix)
    soak = _Soak(mem, transcripts, SoakResult(ingests, search_loops))
    res = soak.run(seconds)
    echo(f"soak done in {res.seconds:.0f} s; checking consistency against a serial ingestion…")
    _check(mem, res, transcripts, soak.done_ids)
    if memory is None:
        mem.close()
    return res


class _Soak:
    """The parallel part: ingest workers take users from a queue until it is empty, search loops
    ask the users written so far until the time is up."""

    def __init__(self, mem: Memory, transcripts: list[Transcript], res: SoakResult):
        self.mem, self.transcripts, self.res = mem, transcripts, res
        self.todo: queue.Queue[Transcript] = queue.Queue()
        for t in transcripts:
            self.todo.put(t)
        self.done_ids: list[str] = []
        self.latencies: list[float] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def run(self, seconds: float) -> SoakResult:
        res = self.res
        threads = [threading.Thread(target=self.ingest) for _ in range(res.ingests)]
        threads += [threading.Thread(target=self.search, args=(k,))
                    for k in range(res.search_loops)]
        started = time.perf_counter()
        for th in threads:
            th.start()
        time.sleep(seconds)  # the searches go on after the last ingest, until the time is up
        self.stop.set()
        for th in threads:
            th.join()
        res.seconds = time.perf_counter() - started
        res.users = len(self.done_ids)
        res.searches = len(self.latencies)
        res.search_ms = summary(self.latencies, 1)
        res.turns_per_s = res.turns / res.seconds if res.seconds else 0.0
        return res

    def ingest(self) -> None:
        while not self.stop.is_set():
            try:
                t = self.todo.get_nowait()
            except queue.Empty:
                return
            try:
                r = self.mem.ingest([t])
                with self.lock:
                    self.done_ids.append(t.user_id)
                    self.res.sessions += r.sessions
                    self.res.turns += r.turns
            except Exception as exc:  # counted and reported, the soak goes on
                with self.lock:
                    self.res.errors.append(f"ingest {t.user_id}: {type(exc).__name__}: {exc}")

    def search(self, k: int) -> None:
        for i in itertools.count(k):
            if self.stop.is_set():
                return
            with self.lock:
                users = list(self.done_ids) or [self.transcripts[0].user_id]
            user = users[i % len(users)]
            t0 = time.perf_counter()
            try:
                self.mem.search(user, QUESTIONS[i % len(QUESTIONS)], k=10)
            except Exception as exc:
                if "no memory for user" in str(exc):  # its first session is not written yet
                    time.sleep(0.05)
                    continue
                with self.lock:
                    self.res.errors.append(f"search {user}: {type(exc).__name__}: {exc}")
                continue
            with self.lock:
                self.latencies.append((time.perf_counter() - t0) * 1000)


def _check(mem: Memory, res: SoakResult, transcripts: list[Transcript], done_ids: list[str]) -> None:
    """No cross-user edge; each written user ingested again serially gives the same counts, with
    no half-written session; then every soak user and serial copy is forgotten."""
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
