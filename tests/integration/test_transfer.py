"""Export and import: export → forget → import gives the identical graph (same checksum of the
user's nodes and edges, same counts, ids, statuses and intervals); bad files write nothing."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.errors import InputError
from graphmem.memory import Memory
from graphmem.store.admin import cross_user_edges
from graphmem.transfer import checksum, export_lines
from tests.helpers import FakeVectors, _transcript


def test_export_forget_import_restores_the_identical_graph(graph, user_id, tmp_path, monkeypatch):
    memory = Memory(graph, embedder=FakeVectors())
    memory.ingest([_transcript(user_id)])
    before = list(export_lines(graph, user_id))
    stats = memory.stats(user_id)
    facts = sorted((f.id, f.status, f.valid_from, f.valid_until)
                   for f in memory.facts(user_id, history=True))
    assert any(json.loads(ln).get("edge") == "SUPERSEDES" for ln in before[1:])

    monkeypatch.setenv("NEO4J_URI", graph.uri)
    runner = CliRunner()
    path = tmp_path / "backup.jsonl"
    out = runner.invoke(main, ["export", "--user", user_id, "-o", str(path)])
    assert out.exit_code == 0, out.output
    assert checksum(path.read_text().splitlines()) == checksum(before)
    assert runner.invoke(main, ["import", str(path)]).exit_code != 0  # the user still exists
    memory.forget(user_id)
    done = runner.invoke(main, ["import", str(path)])
    assert done.exit_code == 0, done.output
    assert f"checksum={checksum(before)}" in done.output
    assert checksum(export_lines(graph, user_id)) == checksum(before)
    assert memory.stats(user_id) == stats
    assert sorted((f.id, f.status, f.valid_from, f.valid_until)
                  for f in memory.facts(user_id, history=True)) == facts
    assert memory.search(user_id, "where do I live now?", k=3)
    assert cross_user_edges(graph) == 0


def test_bad_export_files_write_nothing(graph, user_id, tmp_path):
    memory = Memory(graph, embedder=FakeVectors())
    memory.ingest([_transcript(user_id)])
    buf = io.StringIO()
    memory.export_user(user_id, buf)
    lines = buf.getvalue().splitlines()
    memory.forget(user_id)
    other = user_id + "-victim"
    node = next(i for i, ln in enumerate(lines) if '"node": "Turn"' in ln)
    foreign = json.loads(lines[node])
    foreign["props"]["user_id"] = other
    edge = next(i for i, ln in enumerate(lines) if '"edge"' in ln)
    dangling = json.loads(lines[edge])
    dangling["to"][1] = "turn:nowhere"
    bad_type = json.loads(lines[edge])
    bad_type["edge"] = "OWNS"
    cases = {
        "not JSON": lines[:-1] + ["{oops"],
        "not belong": lines[:node] + [json.dumps(foreign)] + lines[node + 1:],
        "not in the file": lines[:edge] + [json.dumps(dangling)] + lines[edge + 1:],
        "unknown edge type": lines[:edge] + [json.dumps(bad_type)] + lines[edge + 1:],
        "not a graphmem export": lines[1:],
    }
    for why, content in cases.items():
        path = tmp_path / "bad.jsonl"
        path.write_text("\n".join(content) + "\n")
        with pytest.raises(InputError, match=why):
            memory.import_user(path)
        assert not graph.read("user_exists", user_id=user_id)[0]["exists"]
        assert not graph.read("user_exists", user_id=other)[0]["exists"]
