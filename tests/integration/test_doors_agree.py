"""The doors give what `Memory` gives (issue 32, items 4 and 7), through `graphmem serve` as a
real process, the MCP SDK's own client and the CLI: status as of the time asked, scores in rank
order, the offline answer starting from search's first turn; an unknown user is one error (404,
a tool error, one CLI line), the bounds are the same over HTTP and MCP (one message), and a
transcript upload is `Memory.ingest_file`."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.serving import served

KEY = "doors-key-0123456789"
ADMIN = "doors-admin-0123456789"


@pytest.fixture(scope="module")
def user(neo4j_graph) -> Iterator[str]:
    from graphmem.memory import Memory

    uid = f"test-doors-{uuid.uuid4().hex[:10]}"
    yield uid
    Memory(neo4j_graph).forget(uid, missing_ok=True)


@pytest.fixture(scope="module")
def server(neo4j_graph, user) -> Iterator[httpx.Client]:
    with served(neo4j_graph.uri, f"{KEY}={user};{ADMIN}=*", KEY) as client:
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


def _mcp(server: httpx.Client, key: str) -> Any:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    return Client(streamable_http_client(f"{server.base_url}/mcp", http_client=(
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=120))))


def test_status_is_as_of_the_time_asked_over_mcp(server, moved):
    import anyio

    async def main() -> None:
        async with _mcp(server, KEY) as c:
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


def _error(resp: httpx.Response, status: int, code: str) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert body["error"]["code"] == code and "Traceback" not in resp.text, body
    return body["error"]["message"]


def test_an_unknown_user_is_404_over_http_and_a_tool_error_over_mcp(server, moved):
    import anyio

    nobody = f"{moved}-nobody"
    base, admin = f"/v1/users/{nobody}", {"Authorization": f"Bearer {ADMIN}"}
    for method, path, body in (("POST", "/search", {"query": "where?"}), ("GET", "/facts", None),
                               ("GET", "/timeline", None), ("GET", "/inspect/m1", None),
                               ("GET", "/stats", None), ("DELETE", "", None),
                               ("POST", "/answer", {"question": "where?", "offline": True})):
        r = server.request(method, base + path, json=body, headers=admin)
        assert f"no memory for user '{nobody}'" in _error(r, 404, "unknown_user"), path
    # A known user: an id of nothing is not_found, an empty answer is empty.
    _error(server.get(f"/v1/users/{moved}/inspect/nothing-like-this"), 404, "not_found")
    assert server.get(f"/v1/users/{moved}/timeline", params={"entity": "Atlantis"}
                      ).json() == {"facts": []}

    async def main() -> None:
        async with _mcp(server, ADMIN) as c:
            for tool, args in (("search_memory", {"query": "where?"}), ("current_facts", {}),
                               ("timeline", {}), ("inspect", {"id": "m1"}),
                               ("answer", {"question": "where?"})):
                r = await c.call_tool(tool, {"user_id": nobody, **args})
                assert r.is_error and f"no memory for user '{nobody}'" in r.content[0].text, tool

    anyio.run(main)


def test_the_bounds_are_the_same_over_http_and_mcp(server, moved):
    import anyio

    from graphmem.memory import MAX_FACTS, MAX_ID_CHARS, MAX_K, MAX_QUERY_CHARS

    over_http = {
        "k": _error(server.post(f"/v1/users/{moved}/search", json={"query": "x", "k": MAX_K + 1}),
                    422, "invalid_request"),
        "query": _error(server.post(f"/v1/users/{moved}/search",
                                    json={"query": "x" * (MAX_QUERY_CHARS + 1)}),
                        422, "invalid_request"),
        "facts": _error(server.get(f"/v1/users/{moved}/facts", params={"limit": MAX_FACTS + 1}),
                        422, "invalid_request"),
        "timeline": _error(server.get(f"/v1/users/{moved}/timeline",
                                      params={"limit": MAX_FACTS + 1}), 422, "invalid_request")}
    assert server.get(f"/v1/users/{moved}/facts", params={"limit": MAX_FACTS}).status_code == 200
    over_mcp: dict[str, str] = {}

    async def main() -> None:
        async with _mcp(server, KEY) as c:
            for name, tool, args in (
                    ("k", "search_memory", {"query": "x", "k": MAX_K + 1}),
                    ("query", "search_memory", {"query": "x" * (MAX_QUERY_CHARS + 1)}),
                    ("facts", "current_facts", {"limit": MAX_FACTS + 1}),
                    ("timeline", "timeline", {"limit": MAX_FACTS + 1})):
                r = await c.call_tool(tool, {"user_id": moved, **args})
                assert r.is_error, name
                over_mcp[name] = r.content[0].text.removeprefix(f"Error executing tool {tool}: ")
            ok = await c.call_tool("current_facts", {"user_id": moved, "limit": MAX_FACTS})
            assert not ok.is_error

    anyio.run(main)
    assert over_mcp == over_http
    # Ids: Memory's bound, whichever id and route (422, the message that names it).
    admin = {"Authorization": f"Bearer {ADMIN}"}
    long_id = "u" * (MAX_ID_CHARS + 1)
    said = f"is {MAX_ID_CHARS + 1:,} characters long; at most {MAX_ID_CHARS:,} are accepted"
    for method, path, name in (("GET", f"/v1/users/{long_id}/facts", "user_id"),
                               ("GET", f"/v1/users/{long_id}/stats", "user_id"),
                               ("DELETE", f"/v1/users/{long_id}", "user_id"),
                               ("GET", f"/v1/users/{moved}/turns/{long_id}", "turn_id"),
                               ("GET", f"/v1/users/{moved}/facts/{long_id}", "fact_id"),
                               ("GET", f"/v1/users/{moved}/inspect/{long_id}", "id")):
        message = _error(server.request(method, path, headers=admin), 422, "invalid_request")
        assert message == f"{name} {said}", (path, message)


def test_an_upload_is_memorys_ingest_file(server, moved):
    """What test_server checks of an upload holds (the user's records, others skipped and
    counted); beyond it: a file without the user's records, or an empty one, is refused."""
    other = json.dumps({"user_id": f"{moved}-else", "session_id": "up", "role": "user",
                        "session_time": "2026-02-01T09:00:00Z", "content": "Not mine."})
    octets = {"Content-Type": "application/octet-stream"}
    url = f"/v1/users/{moved}/transcripts"
    assert f"no user '{moved}'" in _error(server.post(url, params={"format": "jsonl"},
                                                      content=other.encode(), headers=octets),
                                          400, "bad_input")
    assert "empty" in _error(server.post(url, content=b" ", headers=octets), 400, "bad_input")


def test_the_cli_says_an_unknown_user_in_one_line(neo4j_graph, moved, monkeypatch, tmp_path):
    from click.testing import CliRunner

    from graphmem.cli import main

    monkeypatch.setenv("NEO4J_URI", neo4j_graph.uri)
    monkeypatch.delenv("GRAPHMEM_URL", raising=False)
    nobody = f"{moved}-nobody"
    for args in (["search", "--user", nobody, "where?"], ["facts", "--user", nobody],
                 ["timeline", "--user", nobody], ["inspect", "--user", nobody, "m1"],
                 ["stats", "--user", nobody], ["forget", "--user", nobody, "--yes"]):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 1, (args, out.output)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and f"no memory for user '{nobody}'" in lines[0], args
        assert "Traceback" not in out.output
    # ingest: the same Memory.ingest_file, with --user keeping to that user of a JSONL file
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join(json.dumps({
        "user_id": u, "session_id": "cli", "session_time": "2026-02-02T09:00:00Z",
        "role": "user", "content": "I play the violin."}) for u in (moved, nobody)))
    out = CliRunner().invoke(main, ["ingest", str(path), "--user", moved, "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert (summary["sessions"], summary["skipped_other_users"]) == (1, 1)


def test_what_an_agent_gets_back_over_http_and_mcp(server, moved):
    """Item 5: an append returns the facts made and what they replaced, alike over HTTP and MCP;
    search items carry their times in score order; inspect dates are ISO 8601."""
    import anyio

    url = f"/v1/users/{moved}/sessions/s3/messages"
    r = server.post(url, json={"session_time": "2026-04-02T10:00:00Z", "messages": [
        {"turn_id": "m5", "role": "user", "content": "I moved to York yesterday."}]})
    assert r.status_code == 200, r.text
    [york] = r.json()["made"]
    assert york["value"] == "York" and [x["text"] for x in york["replaced"]] == [
        "User moved to Manchester last week."]

    async def main() -> None:
        async with _mcp(server, KEY) as c:
            made = await c.call_tool("remember", {"user_id": moved, "session_id": "s4",
                                                  "session_time": "2026-05-02T10:00:00Z",
                                                  "messages": [{"turn_id": "m6", "role": "user",
                                                                "content": "I moved to Bath."}]})
            out = made.structured_content
            assert set(out) == set(r.json()), out  # the same result as over HTTP
            [bath] = out["made"]
            assert bath["replaced"][0]["id"] == york["id"]
            found = await c.call_tool("search_memory", {"user_id": moved,
                                                        "query": "Where did I live in March?"})
            items = found.structured_content["results"]
            scores = [e["score"] for e in items]
            assert scores == sorted(scores, reverse=True)
            manchester = next(e for e in items if e["type"] == "fact" and "Manchester" in e["text"])
            assert manchester["valid_until"].startswith("2026-04-01")
            assert manchester["occurred_start"].startswith("2026-03-0")
            assert "density" not in manchester and "tunnels" not in manchester
            card = (await c.call_tool("inspect", {"user_id": moved, "id": "m1"})
                    ).structured_content
            assert "T" in card["turn"]["mentioned_at"]  # ISO 8601, as over HTTP

    anyio.run(main)
    from graphmem.client import Client, Message

    with Client(str(server.base_url), api_key=KEY) as client:
        typed = client.remember(moved, "s5", [Message("user", "I moved to Leeds again.",
                                                      turn_id="m7")],
                                session_time="2026-06-02T10:00:00Z")
    [back] = typed.made
    assert back.value == "Leeds" and back.replaced[0].type == "SUPERSEDES"
    assert back.replaced[0].text == "User moved to Bath."
