"""Neo4j dying in the middle of an ingest: one clear line and a non-zero exit, no traceback; once
it is back, the same command resumes and reports what it skipped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from graphmem import localneo4j
from graphmem.config import Settings
from graphmem.db import Graph
from graphmem.errors import Neo4jUnavailable
from graphmem.memory import Memory
from tests.helpers import FakeVectors

ROOT = Path(__file__).resolve().parents[2]
SESSIONS = 40


@pytest.fixture
def own_local(tmp_path):
    local = replace(Settings.from_env().local, home=tmp_path / "home", bolt_port=0, http_port=0)
    yield local
    localneo4j.stop(local)


def _transcript(path: Path) -> None:
    with path.open("w") as out:
        for s in range(SESSIONS):
            for k in range(4):
                out.write(json.dumps({
                    "user_id": "faulty", "session_id": f"s{s}", "role": "user",
                    "session_time": f"2024-{1 + s % 12:02d}-{1 + s % 27:02d}T09:00:00Z",
                    "content": f"In session {s} I said thing {k}: I live in City{s} now."}) + "\n")


def _sessions(uri: str) -> int:
    with Graph.open(uri, None, None) as g:
        return g.read("stats", user_id="faulty")[0]["sessions"]


def _ingest(uri: str, path: Path, **kw) -> subprocess.Popen:
    env = {**os.environ, "NEO4J_URI": uri}
    return subprocess.Popen([sys.executable, "-m", "graphmem", "ingest", str(path)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def test_neo4j_killed_mid_ingest_is_one_line_then_resumes(own_local, tmp_path):
    path = tmp_path / "chat.jsonl"
    _transcript(path)
    state = localneo4j.start(own_local)
    with Graph.open(state.bolt_uri, None, None) as g:
        from graphmem.migrate import apply_schema

        apply_schema(g)
    proc = _ingest(state.bolt_uri, path)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None and _sessions(state.bolt_uri) < 3:
        time.sleep(0.5)
    assert proc.poll() is None, "the ingest ended before Neo4j could be stopped"
    library = Memory(Graph.open(state.bolt_uri, None, None), embedder=FakeVectors())
    os.kill(state.pid, signal.SIGKILL)
    with pytest.raises(Neo4jUnavailable, match="lost the connection to Neo4j"):
        library.stats("faulty")  # the library's own exception type, not the driver's
    library.close()
    _out, err = proc.communicate(timeout=300)
    assert proc.returncode != 0
    assert "Traceback" not in err, err[-2000:]
    lines = [ln for ln in err.strip().splitlines() if ln.startswith("graphmem:")]
    assert len(lines) == 1 and "Neo4j" in lines[0], err[-2000:]

    localneo4j.stop(own_local)  # clears the state of the killed process
    state = localneo4j.start(own_local)
    stored = _sessions(state.bolt_uri)
    assert 3 <= stored < SESSIONS
    again = _ingest(state.bolt_uri, path)
    out, err = again.communicate(timeout=900)
    assert again.returncode == 0, err[-2000:]
    assert f"sessions_unchanged={stored}" in out and f"sessions={SESSIONS - stored}" in out, out
    assert _sessions(state.bolt_uri) == SESSIONS


def test_processes_applying_the_schema_at_once_to_a_fresh_database_all_succeed(own_local):
    """Two CLI processes (or a server and a CLI) starting on a new database each apply the
    schema: creating the same constraint at once deadlocks on the label's schema lock, and
    IF NOT EXISTS lets both creators pass the check. Each must still end with the schema applied."""
    state = localneo4j.start(own_local)
    env = {**os.environ, "NEO4J_URI": state.bolt_uri}
    procs = [subprocess.Popen([sys.executable, "-m", "graphmem", "schema", "apply"], cwd=ROOT,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]
        assert "Traceback" not in err
    from graphmem.migrate import schema_status
    from graphmem.schema import migrations

    with Graph.open(state.bolt_uri, None, None) as g:
        st = schema_status(g)
    assert [v["version"] for v in st["versions"]] == [m.version for m in migrations()]
    assert all(i["state"] == "ONLINE" for i in st["indexes"])
    assert len({c["name"] for c in st["constraints"]}) >= 7
