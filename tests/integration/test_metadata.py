"""A message's metadata against a real Neo4j: kept on its turn and given back (Memory, a real HTTP
server process, the MCP SDK client over stdio, a JSONL file, export and import), search / facts /
timeline filtered on it within one user, and a bad map refused with one line and nothing written."""

from __future__ import annotations

import io
import json
import sys
import uuid

import anyio
import httpx
import pytest

from graphmem.errors import InputError, OutOfBounds
from graphmem.loaders import load
from graphmem.memory import Memory
from graphmem.models import TurnRecord
from graphmem.store.admin import forget_user
from tests.helpers import FakeVectors
from tests.integration.test_server import free_port, start_server, stop, wait_ready

PLANNER = {"agent": "planner", "run": 7, "urgent": True, "score": 0.5}
CODER = {"agent": "coder", "run": 8}


def _two_agents(mem: Memory, user_id: str, city: str = "Denver") -> None:
    mem.append(user_id, "s1", [TurnRecord("user", f"I live in {city}.", source_id="p1",
                                          metadata=PLANNER)],
               session_time="2024-01-10T09:00:00Z")
    mem.append(user_id, "s2", [TurnRecord("user", "I work at Acme Robotics.", source_id="c1",
                                          metadata=CODER),
                               TurnRecord("assistant", "Noted.", source_id="c2")],
               session_time="2024-02-10T09:00:00Z")


def _exists(mem: Memory, user_id: str) -> bool:
    return mem.graph.read("user_exists", user_id=user_id)[0]["exists"]


def test_metadata_is_kept_on_the_turn_and_given_back(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    r = mem.append(user_id, "s1", [TurnRecord("user", "I live in Denver.", source_id="p1",
                                              metadata=PLANNER)],
                   session_time="2024-01-10T09:00:00Z")
    assert r.added[0].metadata == PLANNER
    got = mem.get_turn(user_id, "p1").metadata
    assert got == PLANNER and type(got["run"]) is int and got["urgent"] is True
    mem.append(user_id, "s1", [TurnRecord("assistant", "Nice.", source_id="p2")])
    page = mem.list_turns(user_id)
    assert [(t.source_id, t.metadata) for t in page.items] == [("p1", PLANNER), ("p2", None)]


def test_search_facts_and_timeline_keep_only_matching_turns(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    _two_agents(mem, user_id)
    planner, coder = mem.get_turn(user_id, "p1").id, mem.get_turn(user_id, "c1").id
    found = mem.search(user_id, "where do I live and where do I work?", k=10)
    assert {e.turn_id for e in found} >= {planner, coder}
    only = mem.search(user_id, "where do I live and where do I work?", k=10,
                      metadata={"agent": "coder"})
    assert only and {e.turn_id for e in only} == {coder}
    both = mem.search(user_id, "where do I live?", k=10, metadata={"agent": "planner", "run": 7})
    assert both and {e.turn_id for e in both} == {planner}
    # Every pair must hold, with its type: 7 is not "7".
    assert mem.search(user_id, "where do I live?", metadata={"agent": "planner", "run": 8}) == []
    assert mem.search(user_id, "where do I live?", metadata={"run": "7"}) == []
    assert [f.value for f in mem.facts(user_id, metadata={"agent": "planner"})] == ["Denver"]
    assert [f.predicate for f in mem.facts(user_id, metadata={"agent": "coder"})] == ["works_at"]
    assert mem.facts(user_id, metadata={"agent": "nobody"}) == []
    assert [f.value for f in mem.timeline(user_id, metadata={"urgent": True})] == ["Denver"]
    assert len(mem.facts(user_id)) == 2 and mem.search(user_id, "x", metadata={}) is not None


def test_another_users_turns_never_appear(graph, new_user):
    mem = Memory(graph, embedder=FakeVectors())
    alice, bob = new_user(), new_user()
    _two_agents(mem, alice)
    _two_agents(mem, bob, city="Paris")
    theirs = {t.id for t in mem.list_turns(bob).items}
    for user, city in ((alice, "Denver"), (bob, "Paris")):
        mine = {t.id for t in mem.list_turns(user).items}
        hits = mem.search(user, "where do I live?", k=20, metadata={"agent": "planner"})
        assert hits and {e.turn_id for e in hits} <= mine
        assert [f.value for f in mem.facts(user, metadata={"agent": "planner"})] == [city]
        assert [f.value for f in mem.timeline(user, metadata={"agent": "planner"})] == [city]
    assert not {e.turn_id for e in mem.search(alice, "Paris", k=20,
                                              metadata={"agent": "planner"})} & theirs


@pytest.mark.parametrize("metadata, why", [
    ({"a": {"b": 1}}, "message 0: metadata: the value of 'a' is dict"),
    ({"a": [1, 2]}, "message 0: metadata: the value of 'a' is list"),
    ({f"k{i}": i for i in range(17)}, "message 0: metadata has 17 keys; at most 16"),
    ({"k" * 65: 1}, "is 65 characters long; at most 64"),
    ({"a": "x" * 257}, "the value of 'a' is 257 characters long; at most 256"),
    ({"": 1}, "a key is empty"),
    ({"a": None}, "the value of 'a' is NoneType"),
    ("agent=planner", "message 0: metadata must be an object"),
])
def test_bad_metadata_is_one_line_and_writes_nothing(graph, user_id, metadata, why):
    mem = Memory(graph, embedder=FakeVectors())
    with pytest.raises(OutOfBounds, match=why) as exc:
        mem.append(user_id, "s1", [TurnRecord("user", "I live in Denver.", metadata=metadata)],
                   session_time="2024-01-10T09:00:00Z")
    assert "\n" not in str(exc.value)
    assert not _exists(mem, user_id)
    with pytest.raises(OutOfBounds, match="metadata filter"):
        mem.search(user_id, "x", metadata=metadata if isinstance(metadata, dict) and metadata
                   and "" not in metadata else {"a": {"b": 1}})


def test_a_jsonl_file_carries_metadata_and_a_bad_line_is_named(graph, user_id, tmp_path):
    mem = Memory(graph, embedder=FakeVectors())
    line = {"user_id": user_id, "session_id": "s1", "session_time": "2024-01-10T09:00:00Z",
            "role": "user", "content": "I live in Denver.", "turn_id": "j1", "metadata": CODER}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(line) + "\n")
    mem.ingest(load(path))
    assert mem.get_turn(user_id, "j1").metadata == CODER
    assert [f.value for f in mem.facts(user_id, metadata={"agent": "coder"})] == ["Denver"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**line, "metadata": {"a": {"b": 1}}}) + "\n")
    with pytest.raises(InputError, match=r"bad.jsonl.*line 1.*\"metadata\": the value of 'a'"):
        list(load(bad))


def test_export_and_import_keep_metadata(graph, user_id, tmp_path):
    mem = Memory(graph, embedder=FakeVectors())
    _two_agents(mem, user_id)
    buf = io.StringIO()
    mem.export_user(user_id, buf)
    lines = buf.getvalue().splitlines()
    mem.forget(user_id)
    path = tmp_path / "backup.jsonl"
    path.write_text("\n".join(lines) + "\n")
    mem.import_user(path)
    assert mem.get_turn(user_id, "p1").metadata == PLANNER
    assert [f.value for f in mem.facts(user_id, metadata={"agent": "planner"})] == ["Denver"]
    mem.forget(user_id)
    turn = next(i for i, ln in enumerate(lines)
                if '"node": "Turn"' in ln and '"metadata"' in ln)
    wrong = json.loads(lines[turn])
    wrong["props"]["metadata"] = ['{"agent": "planner"}']
    path.write_text("\n".join(lines[:turn] + [json.dumps(wrong)] + lines[turn + 1:]) + "\n")
    with pytest.raises(InputError, match="metadata is not a valid map of pairs"):
        mem.import_user(path)
    assert not _exists(mem, user_id)


# --- the doors -----------------------------------------------------------------------------------


def test_over_http(neo4j_graph):
    alice, bob = (f"test-meta-{uuid.uuid4().hex[:10]}" for _ in range(2))
    port = free_port()
    proc = start_server(neo4j_graph.uri, port, f"alice-key-0123456789={alice};"
                                               f"bob-key-0123456789={bob}")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, base)
        for user, key, city in ((alice, "alice", "Denver"), (bob, "bob", "Paris")):
            with httpx.Client(base_url=base, timeout=60, headers={
                    "Authorization": f"Bearer {key}-key-0123456789"}) as c:
                r = c.post(f"/v1/users/{user}/sessions/s1/messages", json={
                    "session_time": "2024-01-10T09:00:00Z", "messages": [
                        {"role": "user", "content": f"I live in {city}.", "turn_id": "h1",
                         "metadata": PLANNER},
                        {"role": "user", "content": "I work at Acme Robotics.", "turn_id": "h2",
                         "metadata": CODER}]})
                assert r.status_code == 200, r.text
                assert c.get(f"/v1/users/{user}/turns/h1").json()["metadata"] == PLANNER
                turns = c.get(f"/v1/users/{user}/turns").json()["turns"]
                assert [t["metadata"] for t in turns] == [PLANNER, CODER]
                mine = {t["id"] for t in turns}
                found = c.post(f"/v1/users/{user}/search", json={
                    "query": "where do I live?", "metadata": {"agent": "planner"}}).json()
                assert found["results"] and {e["turn_id"] for e in found["results"]} == {
                    turns[0]["id"]} <= mine
                for path in ("facts", "timeline"):
                    facts = c.get(f"/v1/users/{user}/{path}",
                                  params={"metadata": json.dumps({"agent": "coder"})}).json()
                    assert [f["predicate"] for f in facts["facts"]] == ["works_at"], facts
                bad = c.get(f"/v1/users/{user}/facts", params={"metadata": "{oops"})
                assert bad.status_code == 422 and "metadata must be a JSON object" in bad.text
                nested = c.post(f"/v1/users/{user}/sessions/s1/messages", json={"messages": [
                    {"role": "user", "content": "I live in Oslo.", "turn_id": "h3",
                     "metadata": {"a": {"b": 1}}}]})
                assert nested.status_code == 422, nested.text
                assert nested.json()["error"]["message"] == (
                    "message 0: metadata: the value of 'a' is dict; only strings, numbers and "
                    "booleans are accepted (no nested objects or lists)")
                assert c.get(f"/v1/users/{user}/turns/h3").status_code == 404
                many = c.post(f"/v1/users/{user}/search", json={
                    "query": "x", "metadata": {f"k{i}": i for i in range(17)}})
                assert many.status_code == 422 and "17 keys" in many.json()["error"]["message"]
    finally:
        stop(proc)
        forget_user(neo4j_graph, alice)
        forget_user(neo4j_graph, bob)


def test_over_mcp_stdio(neo4j_graph, user_id):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "graphmem", "mcp"],
                                   env={"NEO4J_URI": neo4j_graph.uri})

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as c:
            r = await c.call_tool("remember", {
                "user_id": user_id, "session_id": "s1", "session_time": "2024-01-10T09:00:00Z",
                "messages": [{"role": "user", "content": "I live in Denver.", "turn_id": "d1",
                              "metadata": PLANNER},
                             {"role": "user", "content": "I work at Acme Robotics.",
                              "turn_id": "d2", "metadata": CODER}]})
            assert not r.is_error, r.content
            turn = await c.call_tool("get_turn", {"user_id": user_id, "turn_id": "d1"})
            assert turn.structured_content["metadata"] == PLANNER
            found = await c.call_tool("search_memory", {"user_id": user_id, "query": "where?",
                                                        "metadata": {"agent": "coder"}})
            assert {tuple(e["source_turn_ids"]) for e in found.structured_content["results"]
                    } == {("d2",)}
            for tool in ("current_facts", "timeline"):
                facts = await c.call_tool(tool, {"user_id": user_id,
                                                 "metadata": {"agent": "planner"}})
                assert [f["value"] for f in facts.structured_content["facts"]] == ["Denver"]
            bad = await c.call_tool("remember", {"user_id": user_id, "session_id": "s1",
                                                 "messages": [{"role": "user", "content": "x",
                                                               "turn_id": "d3",
                                                               "metadata": {"a": [1]}}]})
            assert bad.is_error and "message 0: metadata: the value of 'a'" in (
                bad.content[0].text)
            gone = await c.call_tool("get_turn", {"user_id": user_id, "turn_id": "d3"})
            assert gone.is_error

    anyio.run(main)
