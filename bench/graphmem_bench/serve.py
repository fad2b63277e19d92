"""`bench serve`: a real `graphmem serve` process on a free loopback port, users loaded from a
LongMemEval file, then N concurrent HTTP clients mixing appends and searches for a bounded time;
requests/s, p50/p95/p99 per endpoint, errors, CPU ms per request of the server and of Neo4j, the
time to ready, and a CLI `search` through GRAPHMEM_URL (wall time)."""

from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from graphmem.memory import Memory

from .cpu import CpuWindow, managed_neo4j_pid
from .stats import percentile
from .users import QUESTIONS, bench_users


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _figures(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), **{f"p{round(q * 100)}": percentile(values, q, 1)
                                 for q in (.5, .95, .99)}}


@dataclass
class LoadLevel:
    """One closed-loop run: `clients` threads, each sending its next request when the last one
    is answered. `inside_ms`: the time the server itself reports spending in the memory call
    (search timings' total, append's ms), so wall − inside is HTTP, JSON and waiting for a
    worker."""

    clients: int
    seconds: float
    requests: int = 0
    errors: int = 0
    requests_per_s: float = 0.0
    endpoints: dict[str, dict[str, Any]] = field(default_factory=dict)
    inside_ms: dict[str, dict[str, Any]] = field(default_factory=dict)
    error_samples: list[str] = field(default_factory=list)
    cpu_s: dict[str, float | None] = field(default_factory=dict)
    cpu_ms_per_request: dict[str, float | None] = field(default_factory=dict)
    load_avg_1m: float = 0.0

    def cpu_line(self) -> str:
        per = self.cpu_ms_per_request
        both = (f" = {per['server'] + per['neo4j']:.1f} ms"
                if per.get("server") is not None and per.get("neo4j") is not None else "")
        shown = {name: "not measured" if v is None else f"{v} ms" for name, v in per.items()}
        return (f"  CPU per request: server {shown.get('server')} + Neo4j {shown.get('neo4j')}"
                f"{both} (load average {self.load_avg_1m})")


@dataclass
class ServeBench:
    clients: list[int]
    seconds: float
    users: int = 0
    dated: bool = False  # each search sent its question date
    ready_s: float = 0.0
    levels: list[LoadLevel] = field(default_factory=list)
    cli_search_s: list[float] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(level.errors for level in self.levels)


def _run_level(url: str, users: list[str], clients: int, seconds: float,
               append_share: float, tag: str, pids: dict[str, int | None],
               dated: bool = False) -> LoadLevel:
    res = LoadLevel(clients, seconds)
    lat: dict[str, list[float]] = {"search": [], "append": []}
    inside: dict[str, list[float]] = {"search": [], "append": []}
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def client(k: int) -> None:
        with httpx.Client(base_url=url, timeout=30) as http:
            for i in itertools.count():
                if time.perf_counter() >= stop:
                    return
                user = users[(k + i) % len(users)]
                appending = append_share > 0 and (i * clients + k) % round(1 / append_share) == 0
                t0 = time.perf_counter()
                try:
                    if appending:
                        r = http.post(f"/v1/users/{user}/sessions/live-{tag}{k}/messages", json={
                            "messages": [{"role": "user", "turn_id": f"c{tag}{k}-{i}",
                                          "content": f"Note {i}: I moved my desk to room "
                                                     f"{100 + i % 50} today."}]})
                    else:
                        body: dict[str, Any] = {"query": QUESTIONS[i % len(QUESTIONS)], "k": 10}
                        if dated:  # as an agent relaying a chat: "now" is the question date
                            body["question_date"] = datetime.now(UTC).isoformat()
                        r = http.post(f"/v1/users/{user}/search", json=body)
                    ok = r.status_code == 200
                    detail = f"{r.status_code} {r.text[:120]}"
                except httpx.HTTPError as exc:
                    ok, detail = False, f"{type(exc).__name__}: {exc}"
                ms = (time.perf_counter() - t0) * 1000
                name = "append" if appending else "search"
                with lock:
                    if ok:
                        lat[name].append(ms)
                        body = r.json()
                        inside[name].append(body["ms"] if appending
                                            else body["timings_ms"]["total"])
                    else:
                        res.errors += 1
                        if len(res.error_samples) < 5:
                            res.error_samples.append(detail)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    cpu = CpuWindow(pids).start()  # every request sent in the window is answered before join
    t_start = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t_start
    res.cpu_s = {name: None if s is None else round(s, 2) for name, s in cpu.stop().items()}
    res.cpu_ms_per_request = cpu.ms_per(sum(len(v) for v in lat.values()))
    res.load_avg_1m = round(os.getloadavg()[0], 2)
    res.requests = sum(len(v) for v in lat.values()) + res.errors
    res.requests_per_s = round(res.requests / wall, 1)
    res.endpoints = {name: _figures(v) for name, v in lat.items()}
    res.inside_ms = {name: _figures(v) for name, v in inside.items()}
    return res


def run_serve_bench(path: str, *, clients: list[int] | tuple[int, ...] = (8,),
                    seconds: float = 60.0, users: int = 4, sessions: int = 10,
                    append_share: float = 0.25, serve_args: list[str] | tuple[str, ...] = (),
                    dated: bool = False, echo: Any = lambda _m: None) -> ServeBench:
    """One `graphmem serve` (with `serve_args`), then one closed-loop run of `seconds` per
    number of clients, in order, against the same users."""
    res = ServeBench(list(clients), seconds, dated=dated)
    transcripts = bench_users(path, users, sessions, f"bserve-{int(time.time())}-")
    echo(f"loading {len(transcripts)} users ({sessions} sessions each)…")
    with Memory.from_settings(answer_llm=False) as mem:
        mem.ingest(transcripts)
    res.users = len(transcripts)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in ("GRAPHMEM_API_KEYS",
                                                            "GRAPHMEM_API_KEYS_FILE")}
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "graphmem", "serve", "--port", str(port),
                             *serve_args],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"graphmem serve exited: {proc.stderr.read()[-500:]}")
                try:
                    if http.get("/readyz").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.2)
        res.ready_s = round(time.perf_counter() - started, 1)
        echo(f"serve ready in {res.ready_s} s")
        user_ids = [t.user_id for t in transcripts]
        pids = {"server": proc.pid, "neo4j": managed_neo4j_pid()}
        for n, count in enumerate(clients):
            echo(f"{count} clients for {seconds:.0f} s…")
            res.levels.append(_run_level(url, user_ids, count, seconds, append_share, f"{n}-",
                                         pids, dated))
        cli_env = {**env, "GRAPHMEM_URL": url}
        for _ in range(3):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "graphmem", "search", "--user",
                            transcripts[0].user_id, "where do I live now?"], env=cli_env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            res.cli_search_s.append(round(time.perf_counter() - t0, 2))
        with httpx.Client(base_url=url, timeout=60) as http:
            for t in transcripts:
                http.delete(f"/v1/users/{t.user_id}")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    return res
