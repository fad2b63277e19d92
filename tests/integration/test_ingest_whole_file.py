"""`graphmem ingest`, run as the real command against the real Neo4j, checks the whole file before
it writes anything: a LoCoMo file whose second sample has a session without a date, or a message
over the size limit, is one line naming the file and the record, exit 1, and nothing stored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from graphmem.loaders.loader import max_message_chars
from tests.unit.test_loaders import locomo_sample, write_json

GRAPHMEM = str(Path(sys.executable).with_name("graphmem"))


def _ingest(graph, path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NEO4J_URI": graph.uri}
    return subprocess.run([GRAPHMEM, "ingest", str(path), "--json"], capture_output=True,
                          text=True, env=env, timeout=300)


def _stored(graph, *user_ids: str) -> int:
    with graph.session(read_only=True) as s:
        return s.run("MATCH (n) WHERE n.user_id IN $u OR n.id IN $u RETURN count(n) AS n",
                     u=list(user_ids)).single()["n"]


def _one_line(done: subprocess.CompletedProcess[str], path: Path) -> str:
    assert done.returncode == 1, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"graphmem: error: {path}"), lines[0]
    assert lines[0].endswith("nothing from the file was loaded or written"), lines[0]
    return lines[0]


def test_a_later_sample_without_a_session_date_stores_nothing(graph, new_user, tmp_path) -> None:
    first, second = new_user(), new_user()
    bad = locomo_sample(second)
    del bad["conversation"]["session_2_date_time"]
    path = write_json(tmp_path / "locomo.json", [locomo_sample(first), bad])
    line = _one_line(_ingest(graph, path), path)
    assert f"sample {second} session_2: no session_2_date_time" in line, line
    assert _stored(graph, first, second) == 0


def test_a_message_over_the_limit_stores_nothing(graph, new_user, tmp_path) -> None:
    first, second = new_user(), new_user()
    limit = max_message_chars()
    big = locomo_sample(second)
    big["conversation"]["session_1"][1]["text"] = "I live in Oslo. " * (limit // 16 + 100)
    path = write_json(tmp_path / "locomo.json", [locomo_sample(first), big])
    line = _one_line(_ingest(graph, path), path)
    assert f"user {second!r} session 'D1' turn 2 (D1:2): the message is 101,600 characters; " \
           f"a message may hold at most {limit:,}" in line, line
    assert _stored(graph, first, second) == 0
    # the same file with the message at the limit is stored whole
    big["conversation"]["session_1"][1]["text"] = ("I live in Oslo. " * (limit // 16 + 1))[:limit]
    write_json(path, [locomo_sample(first), big])
    done = _ingest(graph, path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1])["users"] == 2
