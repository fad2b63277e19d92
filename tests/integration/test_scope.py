"""An agent and a run within a user (`agent_id`, `run_id`: the reserved metadata keys of the
scope), through a real server: written over HTTP, MCP and the Python client, read back filtered
through each (and the CLI through the server), refused when a message's metadata says otherwise."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from graphmem.client import Client, GraphmemHTTPError, Message
from tests.serving import fresh_user, served

KEY = "scope-key-0123456789"


@pytest.fixture(scope="module")
def scoped(neo4j_graph) -> Iterator[tuple[str, Any]]:
    """A fresh user and a server whose key may touch it."""
    with (fresh_user(neo4j_graph, "test-scope") as user,
          served(neo4j_graph.uri, f"{KEY}={user}", KEY) as client):
        yield user, client


async def _mcp(base: str, tool: str, args: dict[str, Any]) -> Any:
    import httpx2
    from mcp import Client as McpClient
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {KEY}"}
    async with McpClient(streamable_http_client(f"{base}/mcp", http_client=httpx2.AsyncClient(
            headers=headers, timeout=120))) as c:
        return await c.call_tool(tool, args)


def test_an_agent_and_a_run_scope_memory_in_every_door(scoped):
    user, http = scoped
    base = str(http.base_url)
    u = f"/v1/users/{user}"
    r = http.post(f"{u}/sessions/s1/messages", json={
        "agent_id": "planner", "run_id": "r1", "session_time": "2026-03-01T10:00:00Z",
        "messages": [{"role": "user", "content": "I live in Leeds.", "turn_id": "a1",
                      "metadata": {"channel": "chat"}}]})
    assert r.status_code == 200, r.text
    made = anyio.run(_mcp, base, "remember", {
        "user_id": user, "session_id": "s2", "agent_id": "coach", "run_id": "r2",
        "session_time": "2026-03-02T10:00:00Z",
        "messages": [{"role": "user", "content": "I work at Acme Robotics.", "turn_id": "b1"}]})
    assert not made.is_error, made
    with Client(base, api_key=KEY) as c:
        c.remember(user, "s3", [Message("user", "I moved to York.", turn_id="c1")],
                   session_time="2026-03-03T10:00:00Z", agent_id="planner", run_id="r3")

        # The scope is kept on each turn, beside the message's own labels.
        assert c.get_turn(user, "a1").metadata == {"channel": "chat", "agent_id": "planner",
                                                   "run_id": "r1"}
        assert c.get_turn(user, "c1").metadata == {"agent_id": "planner", "run_id": "r3"}

        # Reading: facts, timeline, search, each kept to the scope asked.
        def values(facts: list[Any]) -> list[str | None]:
            return sorted(f.value for f in facts)

        assert values(c.facts(user, agent_id="coach")) == ["Acme Robotics"]
        assert values(c.facts(user, agent_id="planner", history=True)) == ["Leeds", "York"]
        assert values(c.facts(user, run_id="r1", history=True)) == ["Leeds"]
        assert values(c.facts(user, agent_id="planner", run_id="r2")) == []
        assert values(c.timeline(user, run_id="r3")) == ["York"]
        found = c.search(user, "where do I work?", agent_id="coach").results
        assert found and {e.source_id for e in found} == {"b1"}
    over_http = http.get(f"{u}/facts", params={"agent_id": "planner"}).json()["facts"]
    assert [f["value"] for f in over_http] == ["York"]  # Leeds: superseded, not current
    hits = http.post(f"{u}/search", json={"query": "where do I live?", "run_id": "r1"}).json()
    assert hits["results"] and {e["source_id"] for e in hits["results"]} == {"a1"}
    facts = anyio.run(_mcp, base, "current_facts", {"user_id": user, "agent_id": "coach"})
    assert [f["value"] for f in facts.structured_content["facts"]] == ["Acme Robotics"]
    searched = anyio.run(_mcp, base, "search_memory", {"user_id": user, "run_id": "r3",
                                                       "query": "where do I live?"})
    assert {tuple(e["source_turn_ids"]) for e in searched.structured_content["results"]} == {
        ("c1",)}
    # The CLI through the server (GRAPHMEM_URL): the same scope.
    from click.testing import CliRunner

    from graphmem.cli import main

    cli = CliRunner().invoke(main, ["search", "--user", user, "--run", "r1", "--json",
                                    "where do I live?"],
                             env={"GRAPHMEM_URL": base, "GRAPHMEM_API_KEY": KEY})
    assert cli.exit_code == 0, cli.output
    assert {tuple(e["source_turn_ids"]) for e in json.loads(cli.output)["results"]} == {("a1",)}
    said = CliRunner().invoke(main, ["remember", "--user", user, "--session", "s5", "--agent",
                                     "cli", "--turn-id", "e1", "--timestamp",
                                     "2026-03-05T10:00:00Z", "--json", "I have a dog."],
                              env={"GRAPHMEM_URL": base, "GRAPHMEM_API_KEY": KEY})
    assert said.exit_code == 0, said.output
    assert [t["source_turn_id"] for t in json.loads(said.output)["added"]] == ["e1"]
    with Client(base, api_key=KEY) as c:
        assert c.get_turn(user, "e1").metadata == {"agent_id": "cli"}

    # A message that names another agent than its call is refused, and nothing is written.
    bad = http.post(f"{u}/sessions/s4/messages", json={
        "agent_id": "planner", "messages": [{"role": "user", "content": "I live in Bath.",
                                             "turn_id": "d1", "metadata": {"agent_id": "coach"}}]})
    assert bad.status_code == 422 and "agent_id" in bad.json()["error"]["message"]
    assert http.get(f"{u}/turns/d1").status_code == 404
    blank = http.post(f"{u}/search", json={"query": "x", "agent_id": " "})
    assert blank.status_code == 422 and "agent_id" in blank.json()["error"]["message"]
    refused = anyio.run(_mcp, base, "current_facts", {"user_id": user, "run_id": 7})
    assert refused.is_error
    with Client(base, api_key=KEY) as c, pytest.raises(GraphmemHTTPError) as err:
        c.remember(user, "s4", [Message("user", "I live in Bath.", turn_id="d1",
                                        metadata={"run_id": "r9"})], run_id="r1")
    assert err.value.status == 422 and "run_id" in err.value.message
