"""`bench scale`: search latency as one user's memory grows and as the database fills with users.

One user holds 1x, 10x and 50x a LongMemEval haystack: the sessions of several instances put
together under one user (a session repeated across instances is kept once), in date order, until
the user holds the wanted multiple of the first instance's turns. The user grows in place (the 10x
user becomes the 50x user), so every size is measured on the same database. Then the database is
filled with other users (a few sessions each) and the smallest and largest sizes are measured
again. At each point the file's first questions (the same ones at every point) are asked with the
fused preset; the latency of the whole search and of parts inside it (the question's embedding, the
tunnels' one query, the details; as `search` times them) is summarised as p50 / p95.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from graphmem.loaders import load
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript

from .questions import longmemeval_questions
from .stats import summary

# The whole search, then parts inside it (the three tunnels run as one query: `tunnels`).
PARTS = ("fused", "embedding", "tunnels", "details")


@dataclass
class ScalePoint:
    size: int  # multiple of the first instance's turns asked for
    turns: int  # turns the measured user holds
    sessions: int
    db_users: int  # users in the database while measuring
    queries: int
    ms: dict[str, dict[str, float]] = field(default_factory=dict)  # part -> {p50, p95}


@dataclass
class ScaleResult:
    points: list[ScalePoint] = field(default_factory=list)
    ingest_seconds: float = 0.0
    ingested_turns: int = 0


def _turns(sessions: list[SessionRecord]) -> int:
    return sum(len(s.turns) for s in sessions)


def _grown(instances: Iterator[Transcript], target_turns: int, have: list[SessionRecord],
           seen: set[str]) -> list[SessionRecord]:
    """`have` plus whole instances' new sessions until `target_turns` is reached, in date order."""
    out = list(have)
    while _turns(out) < target_turns:
        t = next(instances, None)
        if t is None:
            break
        for s in t.sessions:
            if s.source_id not in seen:
                seen.add(s.source_id)
                out.append(s)
    out.sort(key=lambda s: (s.started_at is None, s.started_at, s.source_id))
    return out


def _measure(mem: Memory, user: str, questions: list[str], rounds: int) -> dict[str, dict]:
    mem.search(user, questions[0], k=10)  # warm this user's first query path
    per: dict[str, list[float]] = {p: [] for p in PARTS}
    for _ in range(rounds):
        for q in questions:
            t0 = time.perf_counter()
            res = mem.search_full(user, q, k=10)
            per["fused"].append((time.perf_counter() - t0) * 1000)
            for part in PARTS[1:]:
                if part in res.timings_ms:
                    per[part].append(res.timings_ms[part])
    out = {}
    for part, values in per.items():
        s = summary(values, 1)
        if s:
            out[part] = {"p50": s["median"], "p95": s["p95"]}
    return out


def run_scale(path: str, *, sizes: tuple[int, ...] = (1, 10, 50), users: int = 1000,
              sessions_per_user: int = 2, rounds: int = 2, max_questions: int = 50,
              memory: Memory | None = None, keep: bool = False, prefix: str | None = None,
              echo: Callable[[str], None] = lambda _m: None) -> ScaleResult:
    """Measure; the users it made are forgotten afterwards unless `keep`."""
    sizes = tuple(sorted(set(sizes)))
    if not sizes or sizes[0] < 1:
        raise ValueError("sizes must be positive multiples, such as 1,10,50")
    prefix = prefix if prefix is not None else f"scale-{int(time.time())}-"
    mem = memory or Memory.from_settings()
    run = _ScaleRun(mem, rounds, echo)
    try:
        # the same real questions at every point, so the sizes differ only in what is held
        run.questions = [q.question for q in longmemeval_questions(path, max_questions)]
        measured = run.grow(path, sizes, prefix)
        if users > 0:
            run.add_others(path, users, sessions_per_user, prefix)
            # the smallest size was its own user; the grown user now holds the largest size only
            for size, user, sessions in (measured[0], measured[-1]):
                point = run.measure(size, user, sessions)
                echo(f"{size}x with {point.db_users} users: fused p50/p95 "
                     f"{point.ms['fused']['p50']}/{point.ms['fused']['p95']} ms")
    finally:
        if not keep:
            for user in run.made:
                mem.forget(user, missing_ok=True)
        if memory is None:
            mem.close()
    return run.result


class _ScaleRun:
    """One measurement run: what it ingested (and how long that took), the users it made."""

    def __init__(self, mem: Memory, rounds: int, echo: Callable[[str], None]):
        self.mem, self.rounds, self.echo = mem, rounds, echo
        self.questions: list[str] = []
        self.result = ScaleResult()
        self.made: list[str] = []

    def ingest(self, t: Transcript) -> None:
        if t.user_id not in self.made:
            self.made.append(t.user_id)
        t0 = time.perf_counter()
        report = self.mem.ingest([t])
        self.result.ingest_seconds += time.perf_counter() - t0
        self.result.ingested_turns += report.turns

    def measure(self, size: int, user: str, sessions: list[SessionRecord]) -> ScalePoint:
        point = ScalePoint(size, _turns(sessions), len(sessions), self.mem.stats()["users"],
                           len(self.questions))
        point.ms = _measure(self.mem, user, self.questions, self.rounds)
        self.result.points.append(point)
        return point

    def grow(self, path: str, sizes: tuple[int, ...], prefix: str
             ) -> list[tuple[int, str, list[SessionRecord]]]:
        """One user per size, made of whole instances; past the smallest size the same user
        keeps growing. (size, user, sessions) of each point measured."""
        instances = iter(load(path))
        first = next(instances)
        base_turns = _turns(first.sessions)
        seen = {s.source_id for s in first.sessions}
        grown: list[SessionRecord] = sorted(first.sessions, key=lambda s: (
            s.started_at is None, s.started_at, s.source_id))
        measured = []
        for size in sizes:
            grown = _grown(instances, size * base_turns, grown, seen)
            user = f"{prefix}{size}x" if size == sizes[0] else f"{prefix}grown"
            self.echo(f"ingesting {user}: {len(grown)} sessions, {_turns(grown)} turns")
            self.ingest(Transcript(user, grown))
            measured.append((size, user, list(grown)))
            point = self.measure(size, user, grown)
            self.echo(f"{size}x: {point.turns} turns, fused p50/p95 "
                      f"{point.ms['fused']['p50']}/{point.ms['fused']['p95']} ms")
        return measured

    def add_others(self, path: str, users: int, sessions_per_user: int, prefix: str) -> None:
        """`users` other users of a few sessions each, cut from the file's next instances."""
        others = itertools.cycle(list(itertools.islice(load(path), 1, 1 + max(1, users // 10))))
        for i in range(users):
            t = next(others)
            start = (i * sessions_per_user) % max(1, len(t.sessions) - sessions_per_user)
            self.ingest(Transcript(f"{prefix}u{i:05d}", t.sessions[start:start + sessions_per_user]))
            if (i + 1) % 100 == 0:
                self.echo(f"other users: {i + 1}/{users}")


def chart(result: ScaleResult, out: str) -> None:
    """p95 per part (and fused p50) against the user's turns (log x): one line style for the
    searched user with next to no one else in the database, one with the other users added."""
    import matplotlib  # deferred: slow to load, and only a chart needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # deferred with matplotlib

    fig, ax = plt.subplots(figsize=(8, 4.6))
    groups: dict[bool, list[ScalePoint]] = {}
    for p in result.points:
        groups.setdefault(p.db_users > 10, []).append(p)
    for crowded, points in sorted(groups.items()):
        style = ":" if crowded else "-"
        where = f"{max(p.db_users for p in points):,} users in the database" if crowded \
            else "few users in the database"
        points.sort(key=lambda p: p.turns)
        for part, colour in zip(PARTS, ("black", "tab:blue", "tab:orange", "tab:green"),
                                strict=True):
            xs = [p.turns for p in points if part in p.ms]
            if not xs:
                continue
            ax.plot(xs, [p.ms[part]["p95"] for p in points if part in p.ms], style, marker="o",
                    color=colour, label=f"{part} p95, {where}")
            if part == "fused":
                ax.plot(xs, [p.ms[part]["p50"] for p in points if part in p.ms], style,
                        marker="x", color="grey", label=f"fused p50, {where}")
    ax.set_xscale("log")
    ax.set_xlabel("turns held by the searched user")
    ax.set_ylabel("search latency (ms)")
    ax.set_title("graphmem search latency as one user's memory grows")
    ax.axhline(150, color="grey", linewidth=0.8)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def as_dict(result: ScaleResult) -> dict[str, Any]:
    return {"ingest_seconds": round(result.ingest_seconds, 1),
            "ingested_turns": result.ingested_turns,
            "points": [vars(p) for p in result.points]}
