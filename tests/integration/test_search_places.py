"""A search's k places hold k different items, through `Memory` against a real Neo4j (issue 32,
item 5: "one turn, its piece and its fact can fill 3 of 5 places"): no turn's words take two
places (a piece that repeats its whole turn is folded into it, listed in `merged`), k places are
filled while the user has more to give, and a fact keeps its own place beside its turn (the
statement with its status and interval, by design)."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.memory import Memory
from tests.helpers import FakeVectors, _transcript

QUESTIONS = ["Where do I live?", "What is my favorite restaurant?", "Where do I work?",
             "How many cats do I have?", "Do I like spicy food?"]


@pytest.fixture
def mem(graph, user_id) -> Memory:
    m = Memory(graph, embedder=FakeVectors())
    m.ingest([_transcript(user_id)])
    return m


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("k", [3, 5])
def test_no_turns_words_take_two_places(mem, user_id, k):
    folded = 0
    for question in QUESTIONS:
        found = mem.search(user_id, question, k=k)
        assert len(found) == k, question  # this user has more than k items to give
        words = [(e.turn_id, _words(e.text)) for e in found if e.type != "fact"]
        assert len(words) == len(set(words)), (question, words)
        assert len({e.id for e in found}) == k
        scores = [e.score for e in found]
        assert scores == sorted(scores, reverse=True), question
        for e in found:
            if e.merged and e.type == "turn":
                pieces = [p for p in e.merged if p.startswith("piece:")]
                card = mem.inspect(user_id, pieces[0]) if pieces else None
                if card is not None:
                    folded += 1
                    assert card["turn"]["id"] == e.turn_id
                    assert _words(card["piece"]["text"]) == _words(e.text)
    assert folded  # the one-sentence turns of this user each repeat as a piece


def test_the_same_search_over_every_door_folds_alike(mem, user_id):
    """The doors call Memory.search / search_full: the brief (MCP) and full (HTTP) forms agree."""
    full = mem.search_full(user_id, "Where do I live?", k=5).evidence
    brief = mem.search(user_id, "Where do I live?", k=5)
    assert [e.id for e in full] == [e.id for e in brief]


def test_http_and_mcp_give_the_same_places(graph, user_id, mem):
    """Through a real server: HTTP search and the MCP search_memory tool list the same items,
    no turn's words in two places (the server embeds with the configured model, this test's
    Memory with stand-in vectors: their rankings are not compared)."""
    import anyio
    import httpx2
    from mcp import Client as McpClient
    from mcp.client.streamable_http import streamable_http_client

    from tests.serving import served

    question = "Where do I live?"
    with served(graph.uri, None, None) as http:
        r = http.post(f"/v1/users/{user_id}/search", json={"query": question, "k": 5})
        assert r.status_code == 200, r.text
        over_http = r.json()["results"]

        async def over_mcp() -> Any:
            url = f"{str(http.base_url).rstrip('/')}/mcp"
            async with McpClient(streamable_http_client(
                    url, http_client=httpx2.AsyncClient(timeout=120))) as c:
                return await c.call_tool("search_memory", {"user_id": user_id,
                                                           "query": question, "k": 5})

        tool = anyio.run(over_mcp)
    assert len(over_http) == 5
    assert [e["id"] for e in tool.structured_content["results"]] == [e["id"] for e in over_http]
    words = [(e["turn_id"], _words(e["text"])) for e in over_http if e["type"] != "fact"]
    assert len(words) == len(set(words)), words
    assert any(m.startswith("piece:") for e in over_http for m in e["merged"])
