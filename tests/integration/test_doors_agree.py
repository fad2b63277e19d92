"""The doors give what `Memory` gives (issue 32, items 4 and 7), through `graphmem serve` as a
real process and the MCP SDK's own client: status as of the time asked, scores in rank order,
the offline answer starting from search's first turn."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.serving import served

KEY = "doors-key-0123456789"


@pytest.fixture(scope="module")
def user(neo4j_graph) -> Iterator[str]:
    from graphmem.memory import Memory

    uid = f"test-doors-{uuid.uuid4().hex[:10]}"
    yield uid
    Memory(neo4j_graph).forget(uid)


@pytest.fixture(scope="module")
def server(neo4j_graph, user) -> Iterator[httpx.Client]:
    with served(neo4j_graph.uri, f"{KEY}={user}", KEY) as client:
        yield client


@pytest.fixture(scope="module")
def moved(server, user) -> str:
    """Lived in Leeds in January, moved to Manchester in March."""
    for session, at, messages in (
            ("s1", "2026-01-05T10:00:00Z", [
                ("m1", "user", "I live in Leeds, in a flat near the university."),
                ("m2", "assistant", "Leeds is a lovely city.")]),
            ("s2", "2026-03-10T10:00:00Z", [
                ("m3", "user", "I moved to Manchester last week, the new flat is bigger."),
                ("m4", "assistant", "Congratulations on the move to Manchester!")])):
        r = server.post(f"/v1/users/{user}/sessions/{session}/messages", json={
            "session_time": at, "messages": [{"turn_id": t, "role": role, "content": text}
                                             for t, role, text in messages]})
        assert r.status_code == 200, r.text
    return user


def test_status_is_as_of_the_time_asked_over_http(server, moved):
    then = server.get(f"/v1/users/{moved}/facts",
                      params={"predicate": "lives_in", "as_of": "2026-01-15"}).json()["facts"]
    assert [(f["value"], f["status"]) for f in then] == [("Leeds", "active")]
    found = server.post(f"/v1/users/{moved}/search", json={
        "query": "Where do I live?", "as_of": "2026-01-15T00:00:00Z"}).json()["results"]
    assert "m1" in found[0]["source_turn_ids"]
    assert all(e["status"] in (None, "active") for e in found), found
    leeds = [e for e in found if e["type"] == "fact" and "Leeds" in e["text"]]
    assert leeds and leeds[0]["status"] == "active"
    scores = [e["score"] for e in found]
    assert scores == sorted(scores, reverse=True)


def test_the_offline_answer_starts_from_searchs_first_turn_over_http(server, moved):
    asked = {"question_date": "2026-04-01T00:00:00Z"}
    first = server.post(f"/v1/users/{moved}/search", json={
        "query": "Where did I live in January?", **asked}).json()["results"][0]
    ans = server.post(f"/v1/users/{moved}/answer", json={
        "question": "Where did I live in January?", "offline": True, **asked}).json()
    assert ans["citations"][0]["turn_id"] == first["turn_id"]
    assert ans["citations"][0]["source_turn_id"] == "m1"


def test_status_is_as_of_the_time_asked_over_mcp(server, moved):
    import anyio
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def main() -> None:
        async with Client(streamable_http_client(f"{server.base_url}/mcp", http_client=(
                httpx2.AsyncClient(headers={"Authorization": f"Bearer {KEY}"},
                                   timeout=120)))) as c:
            then = await c.call_tool("current_facts", {"user_id": moved, "predicate": "lives_in",
                                                       "as_of": "2026-01-15"})
            assert [(f["value"], f["status"]) for f in then.structured_content["facts"]] == [
                ("Leeds", "active")]
            found = await c.call_tool("search_memory", {"user_id": moved,
                                                        "query": "Where do I live?",
                                                        "as_of": "2026-01-15"})
            results = found.structured_content["results"]
            assert "m1" in results[0]["source_turn_ids"]
            assert all(e["status"] in (None, "active") for e in results), results

    anyio.run(main)
