"""The CLI offers what Memory, HTTP and MCP do (issue 32, items 1-3): `remember` appends messages
live (each with its own time, labels, agent and run), `time-zone` sets the user's zone, and
`search`, `facts` and `timeline` read one agent's, run's or label's memory — against a real Neo4j,
bad input one line with nothing written."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.memory import Memory
from tests.helpers import FakeVectors


@pytest.fixture
def run(graph, monkeypatch):
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    monkeypatch.delenv("GRAPHMEM_URL", raising=False)
    runner = CliRunner()

    def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
        out = runner.invoke(main, list(args), input=stdin)
        return out.exit_code, out.output

    return invoke


def test_remember_then_read_by_agent_run_and_label(graph, user_id, run):
    code, out = run("remember", "--user", user_id, "--session", "s1", "--agent", "planner",
                    "--run", "r1", "--metadata", '{"channel": "chat"}', "--turn-id", "a1",
                    "--timestamp", "2026-03-01T10:00:00Z", "--json", "I live in Leeds.")
    assert code == 0, out
    made = json.loads(out)
    assert made["created"] and [t["source_turn_id"] for t in made["added"]] == ["a1"]
    assert [(f["predicate"], f["value"]) for f in made["made"]] == [("lives_in", "Leeds")]
    code, out = run("time-zone", "--user", user_id, "Europe/Berlin")
    assert code == 0 and "Europe/Berlin" in out, out
    # A time without an offset is read in the user's zone: 01:30 in Berlin is 00:30 UTC.
    code, out = run("remember", "--user", user_id, "--session", "s2", "--agent", "coach",
                    "--run", "r2", "--turn-id", "b1", "--timestamp", "2026-03-08T01:30:00",
                    "I moved to York.")
    assert code == 0 and "1 turns added (b1)" in out, out
    assert "SUPERSEDES [superseded] User lives in Leeds." in out, out
    messages = [{"role": "user", "content": "I work at Acme Robotics.", "turn_id": "c1",
                 "timestamp": "2026-03-09T09:00:00Z", "metadata": {"channel": "voice"}}]
    code, out = run("remember", "--user", user_id, "--session", "s2", "--agent", "coach",
                    "--messages", "-", stdin=json.dumps(messages))
    assert code == 0 and "(c1)" in out, out

    mem = Memory(graph, embedder=FakeVectors())
    york = mem.get_turn(user_id, "b1")
    assert york.metadata == {"agent_id": "coach", "run_id": "r2"}
    assert york.mentioned_at.isoformat() == "2026-03-08T00:30:00+00:00"
    assert mem.get_turn(user_id, "a1").metadata == {"channel": "chat", "agent_id": "planner",
                                                    "run_id": "r1"}

    def values(*args: str) -> list[str]:
        code, out = run(*args, "--user", user_id, "--json")
        assert code == 0, out
        return sorted(f["value"] for f in json.loads(out))

    assert values("facts", "--agent", "planner", "--history") == ["Leeds"]
    assert values("facts", "--agent", "coach") == ["Acme Robotics", "York"]
    assert values("facts", "--run", "r2") == ["York"]
    assert values("facts", "--metadata", '{"channel": "voice"}') == ["Acme Robotics"]
    assert values("timeline", "--run", "r1") == ["Leeds"]
    assert len(values("facts", "--history", "--limit", "1")) == 1
    code, out = run("search", "--user", user_id, "--agent", "planner", "--json",
                    "where do I live?")
    assert code == 0, out
    found = json.loads(out)["results"]
    assert found and {tuple(e["source_turn_ids"]) for e in found} == {("a1",)}


@pytest.mark.parametrize("args, why", [
    (("--metadata", "{not json", "x"), "not JSON"),
    (("--metadata", '{"a": [1]}', "x"), "only strings, numbers and booleans"),
    (("--agent", "planner", "--metadata", '{"agent_id": "coach"}', "x"), "give it once"),
    (("--timestamp", "soon", "x"), "timestamp"),
    (("--turn-id", "t1", "one", "two"), "--turn-id names one message"),
    (("--messages", "-", "x"), "not both"),
])
def test_bad_input_is_one_line_and_writes_nothing(graph, user_id, run, args, why):
    code, out = run("remember", "--user", user_id, "--session", "s1", *args, stdin="[]")
    assert code != 0 and why in out and "Traceback" not in out, out
    assert not graph.read("user_exists", user_id=user_id)[0]["exists"]


def test_reading_with_a_bad_filter_is_one_line(user_id, run):
    for cmd in (("facts",), ("timeline",), ("search", "where?")):
        code, out = run(*cmd, "--user", user_id, "--agent", " ")
        assert code == 1 and out.startswith("graphmem: error: agent_id must be a non-empty"), out
