"""Issue 32, "Done when": deleting one turn restores the slot's currency as if it had never been
said, on a chain of three (Denver -> Boulder -> Portland), for each turn of the chain — through
`Memory`, over HTTP (the Python client) and over MCP (a real MCP client), against a real Neo4j:
the slot's history after the deletion is the history of a user who never said it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from graphmem.client import Client, Message
from graphmem.memory import Memory
from graphmem.models import TurnRecord
from tests.helpers import FakeVectors
from tests.serving import fresh_user, served

CHAIN = [("s1", "2024-01-10T12:00:00Z", "m1", "I live in Denver."),
         ("s2", "2024-03-10T12:00:00Z", "m2", "I moved to Boulder."),
         ("s3", "2024-06-10T12:00:00Z", "m3", "I moved to Portland.")]


def _history(facts: list[Any]) -> list[tuple]:
    """The lives_in slot, comparable across users: value, status, interval, what it replaced."""
    values = {f.id: f.value for f in facts}
    return sorted((f.value, f.status, f.valid_from, f.valid_until,
                   tuple(sorted((c.type, values.get(c.id)) for c in f.changes)))
                  for f in facts if f.predicate == "lives_in")


@pytest.mark.parametrize("gone", ["m1", "m2", "m3"])
def test_memory_deleting_any_turn_of_a_chain_of_three(graph, new_user, gone):
    mem = Memory(graph, embedder=FakeVectors())
    chain, never = new_user(), new_user()
    for user, said in ((chain, CHAIN), (never, [c for c in CHAIN if c[2] != gone])):
        for session, when, tid, text in said:
            mem.append(user, session, [TurnRecord("user", text, source_id=tid)],
                       session_time=when)
    assert [s for _v, s, *_ in _history(mem.facts(chain, history=True))].count("active") == 1
    mem.delete_turn(chain, gone)
    assert _history(mem.facts(chain, history=True)) == _history(mem.facts(never, history=True))
    assert [f.value for f in mem.facts(chain, predicate="lives_in")] == [
        f.value for f in mem.facts(never, predicate="lives_in")]


@pytest.fixture(scope="module")
def server(neo4j_graph) -> Iterator[Any]:
    with served(neo4j_graph.uri, None, None) as http:
        yield str(http.base_url)


def _say(c: Client, user: str, said: list[tuple]) -> None:
    for session, when, tid, text in said:
        c.remember(user, session, [Message("user", text, turn_id=tid)], session_time=when)


async def _forget_over_mcp(base: str, user: str, turn_id: str) -> Any:
    import httpx2
    from mcp import Client as McpClient
    from mcp.client.streamable_http import streamable_http_client

    async with McpClient(streamable_http_client(
            f"{base}/mcp", http_client=httpx2.AsyncClient(timeout=120))) as m:
        return await m.call_tool("forget_turn", {"user_id": user, "turn_id": turn_id})


@pytest.mark.parametrize("door", ["http", "mcp"])
def test_over_http_and_mcp_deleting_the_middle_or_first_turn(neo4j_graph, server, door):
    for gone in ("m2", "m1"):
        with (fresh_user(neo4j_graph, "test-chain") as chain,
              fresh_user(neo4j_graph, "test-never") as never, Client(server) as c):
            _say(c, chain, CHAIN)
            _say(c, never, [x for x in CHAIN if x[2] != gone])
            if door == "http":
                done = c.delete_turn(chain, gone)
                assert done.slots == ["user|lives_in"]
            else:
                done = anyio.run(_forget_over_mcp, server, chain, gone)
                assert not done.is_error, done
                assert done.structured_content["slots"] == ["user|lives_in"]
            assert _history(c.facts(chain, history=True)) == _history(
                c.facts(never, history=True))
