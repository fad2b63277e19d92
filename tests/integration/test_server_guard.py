"""Security issue 30, items 2, 5 and 7: a real `graphmem serve` without API keys (the loopback
server a developer runs) over real HTTP, real MCP clients (streamable HTTP and stdio) and
`Memory` itself, against the test Neo4j.

- cross-site requests, DNS rebinding and non-JSON bodies are refused before any route;
- the input bounds are `Memory`'s, so HTTP, MCP and a program refuse the same inputs with the
  same message, and nothing is written;
- strict types, NUL characters and a turn id reused in a second session are refused."""

from __future__ import annotations

import json
import sys
import time
import uuid
from collections.abc import Iterator

import anyio
import httpx
import pytest

from graphmem.errors import OutOfBounds
from graphmem.memory import MAX_K, MAX_MESSAGE_CHARS, MAX_QUERY_CHARS, Memory
from graphmem.models import TurnRecord
from graphmem.store.admin import forget_user
from tests.integration.test_server import (
    _error,
    free_port,
    own_neo4j,
    start_server,
    stop,
    wait_ready,
)

EVIL = "http://evil.example"


@pytest.fixture(scope="module")
def open_server(neo4j_graph) -> Iterator[httpx.Client]:
    """`graphmem serve` with no keys: loopback only, every user open."""
    port = free_port()
    proc = start_server(neo4j_graph.uri, port, None)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, base)
        with httpx.Client(base_url=base, timeout=60) as client:
            yield client
    finally:
        stop(proc)


@pytest.fixture
def uid(neo4j_graph) -> Iterator[str]:
    u = f"test-guard-{uuid.uuid4().hex[:10]}"
    yield u
    forget_user(neo4j_graph, u)


def _exists(graph, user: str) -> bool:
    return graph.read("user_exists", user_id=user)[0]["exists"]


def _jsonl(user: str, text: str) -> bytes:
    return (json.dumps({"user_id": user, "session_id": "x", "session_time": "2024-01-10T09:00:00Z",
                        "role": "user", "content": text}) + "\n").encode()


# --- item 2: cross-site requests, DNS rebinding, content types -----------------------------------

def test_a_cross_site_upload_is_refused_and_stores_nothing(open_server, uid, neo4j_graph):
    """The issue's attack: a page POSTs a transcript as text/plain (no preflight needed)."""
    url = f"/v1/users/{uid}/transcripts"
    params = {"format": "jsonl", "filename": "x.jsonl"}
    body = _jsonl(uid, "I moved to Atlantis.")
    r = open_server.post(url, params=params, content=body,
                         headers={"Content-Type": "text/plain", "Origin": EVIL})
    assert "evil.example" in _error(r, 403, "foreign_origin")
    # A foreign Origin is refused whatever the type; a simple type without any Origin too (a
    # page's `no-cors` post of a Blob sends no type, a form sends one of the simple ones).
    for headers in ({"Content-Type": "application/octet-stream", "Origin": EVIL},
                    {"Content-Type": "application/octet-stream", "Origin": "null"},
                    {"Content-Type": "application/octet-stream",
                     "Origin": f"http://127.0.0.1:{open_server.base_url.port + 1}"}):
        _error(open_server.post(url, params=params, content=body, headers=headers), 403,
               "foreign_origin")
    for ctype in ("text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
                  "multipart/form-data; boundary=x", None):
        headers = {"Content-Type": ctype} if ctype else {}
        r = open_server.post(url, params=params, content=body, headers=headers)
        assert "application/octet-stream" in _error(r, 415, "unsupported_media_type")
    assert not _exists(neo4j_graph, uid), "a refused upload wrote memory"
    # The server's own origin (its /docs page) and a program without Origin still upload.
    own = str(open_server.base_url).rstrip("/")
    r = open_server.post(url, params=params, content=body,
                         headers={"Content-Type": "application/octet-stream", "Origin": own})
    assert r.status_code == 200 and r.json()["sessions"] == 1, r.text


def test_a_foreign_host_is_refused_everywhere(open_server, uid):
    """DNS rebinding: the page's own name resolved to 127.0.0.1, so the browser sends it as Host."""
    a = open_server.post(f"/v1/users/{uid}/sessions/s/messages",
                         json={"messages": [{"role": "user", "content": "I live in Oslo."}]})
    assert a.status_code == 200, a.text
    for method, path, kw in (("GET", f"/v1/users/{uid}/stats", {}),
                             ("GET", f"/v1/users/{uid}/facts", {}),
                             ("POST", f"/v1/users/{uid}/search", {"json": {"query": "where?"}}),
                             ("DELETE", f"/v1/users/{uid}", {}),
                             ("GET", "/healthz", {}), ("GET", "/openapi.json", {}),
                             ("POST", "/mcp", {"json": {"jsonrpc": "2.0", "id": 1,
                                                        "method": "tools/list"}})):
        for host in ("evil.example", f"evil.example:{open_server.base_url.port}",
                     "127.0.0.1.evil.example", "localhost.evil.example"):
            r = open_server.request(method, path, headers={"Host": host}, **kw)
            assert "evil.example" in _error(r, 421, "foreign_host"), (method, path, host)
    assert open_server.get(f"/v1/users/{uid}/stats").json()["turns"] == 1  # DELETE did nothing
    for host in ("localhost", f"localhost:{open_server.base_url.port}", "127.0.0.1"):
        assert open_server.get("/healthz", headers={"Host": host}).status_code == 200


def test_bodies_read_as_json_must_say_json(open_server, uid):
    msg = b'{"messages": [{"role": "user", "content": "I live in Oslo."}]}'
    for path, body in ((f"/v1/users/{uid}/sessions/s/messages", msg),
                       (f"/v1/users/{uid}/search", b'{"query": "where?"}'),
                       (f"/v1/users/{uid}/answer", b'{"question": "where?"}'),
                       ("/mcp", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}')):
        for ctype in ("text/plain", "application/x-www-form-urlencoded", None):
            headers = {"Content-Type": ctype} if ctype else {}
            r = open_server.post(path, content=body, headers=headers)
            assert "application/json" in _error(r, 415, "unsupported_media_type"), (path, ctype)
    _error(open_server.get(f"/v1/users/{uid}/stats"), 404, "unknown_user")  # nothing stored


# --- items 5 and 7: one set of bounds, Memory's, at every door -----------------------------------

def _over_http(client: httpx.Client, uid: str) -> dict[str, str]:
    """The message of each refused input over HTTP (each a 422 with one line)."""
    append = f"/v1/users/{uid}/sessions/s/messages"
    search = f"/v1/users/{uid}/search"
    cases = {
        "long_message": (append, {"messages": [
            {"role": "user", "content": "y" * (MAX_MESSAGE_CHARS + 1)}]}),
        "nul_content": (append, {"messages": [{"role": "user", "content": "I live\x00 in Oslo."}]}),
        "nul_turn_id": (append, {"messages": [{"role": "user", "content": "Hi.",
                                               "turn_id": "t\x001"}]}),
        "long_query": (search, {"query": "q" * (MAX_QUERY_CHARS + 1)}),
        "k_zero": (search, {"query": "where?", "k": 0}),
        "k_large": (search, {"query": "where?", "k": MAX_K + 1}),
    }
    out = {}
    for name, (path, body) in cases.items():
        r = client.post(path, json=body)
        out[name] = _error(r, 422, "invalid_request")
        assert "\n" not in out[name]
    return out


def test_bounds_types_and_nul_over_http(open_server, uid, neo4j_graph):
    ok = open_server.post(f"/v1/users/{uid}/sessions/s/messages",
                          json={"messages": [{"role": "user", "content": "I live in Oslo."}]})
    assert ok.status_code == 200, ok.text
    before = open_server.get(f"/v1/users/{uid}/stats").json()
    msgs = _over_http(open_server, uid)
    assert f"at most {MAX_MESSAGE_CHARS:,}" in msgs["long_message"]
    assert "NUL" in msgs["nul_content"] and "content" in msgs["nul_content"]
    assert "NUL" in msgs["nul_turn_id"] and "turn_id" in msgs["nul_turn_id"]
    assert f"at most {MAX_QUERY_CHARS:,}" in msgs["long_query"]
    assert f"from 1 to {MAX_K}" in msgs["k_zero"] and f"from 1 to {MAX_K}" in msgs["k_large"]
    search = f"/v1/users/{uid}/search"
    for k in ("5", True, 5.0, [5]):  # strict: a number is a JSON number
        assert "k" in _error(open_server.post(search, json={"query": "where?", "k": k}), 422,
                             "invalid_request"), k
    for budget in ("4", True):
        _error(open_server.post(f"/v1/users/{uid}/answer",
                                json={"question": "where?", "budget": budget}),
               422, "invalid_request")
    _error(open_server.post(search, json={"query": "where?", "explain": "yes"}), 422,
           "invalid_request")
    assert open_server.post(search, json={"query": "where?", "k": 5}).status_code == 200
    assert open_server.get(f"/v1/users/{uid}/stats").json() == before  # nothing half-written
    with neo4j_graph.session(read_only=True) as s:
        nul = s.run("MATCH (t:Turn {user_id: $u}) WHERE t.text CONTAINS $z OR t.source_id "
                    "CONTAINS $z RETURN count(t) AS n", u=uid, z="\x00").single()["n"]
    assert nul == 0


def test_a_turn_id_names_one_turn_of_a_user(open_server, uid):
    """The same turn id in a second session is refused (it used to store both, and `inspect`
    returned the first silently); in its own session re-sending it changes nothing."""
    url = f"/v1/users/{uid}/sessions/{{}}/messages"
    m1 = {"role": "user", "content": "I live in Oslo.", "turn_id": "m1"}
    assert open_server.post(url.format("s1"), json={"messages": [m1]}).status_code == 200
    before = open_server.get(f"/v1/users/{uid}/stats").json()
    again = open_server.post(url.format("s1"), json={"messages": [m1]}).json()
    assert again["unchanged"] == ["m1"]
    clash = [{"role": "user", "content": "Fresh words.", "turn_id": "m9"},
             {"role": "user", "content": "I live in Rome.", "turn_id": "m1"}]
    msg = _error(open_server.post(url.format("s2"), json={"messages": clash}), 422,
                 "invalid_request")
    assert "'m1'" in msg and "'s1'" in msg
    assert open_server.get(f"/v1/users/{uid}/stats").json() == before  # not m9 either
    card = open_server.get(f"/v1/users/{uid}/inspect/m1").json()
    assert card["turn"]["text"] == "I live in Oslo."
    assert open_server.post(url.format("s2"), json={"messages": clash[:1]}).status_code == 200


def _mcp_refusals(c) -> dict[str, str]:
    """The same inputs as `_over_http`, through an MCP client session `c`."""

    async def go(uid: str) -> dict[str, str]:
        cases = {
            "long_message": ("remember", {"user_id": uid, "session_id": "s", "messages": [
                {"role": "user", "content": "y" * (MAX_MESSAGE_CHARS + 1)}]}),
            "nul_content": ("remember", {"user_id": uid, "session_id": "s", "messages": [
                {"role": "user", "content": "I live\x00 in Oslo."}]}),
            "nul_turn_id": ("remember", {"user_id": uid, "session_id": "s", "messages": [
                {"role": "user", "content": "Hi.", "turn_id": "t\x001"}]}),
            "long_query": ("search_memory", {"user_id": uid, "query": "q" * (MAX_QUERY_CHARS + 1)}),
            "k_zero": ("search_memory", {"user_id": uid, "query": "where?", "k": 0}),
            "k_large": ("search_memory", {"user_id": uid, "query": "where?", "k": MAX_K + 1}),
        }
        out = {}
        for name, (tool, args) in cases.items():
            r = await c.call_tool(tool, args)
            assert r.is_error, (name, r.structured_content)
            out[name] = r.content[0].text
        return out

    return go


def test_mcp_over_http_has_the_same_bounds(open_server, uid, neo4j_graph):
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    ok = open_server.post(f"/v1/users/{uid}/sessions/s/messages",
                          json={"messages": [{"role": "user", "content": "I live in Oslo."}]})
    assert ok.status_code == 200
    before = open_server.get(f"/v1/users/{uid}/stats").json()
    http_msgs = _over_http(open_server, uid)

    async def main() -> dict[str, str]:
        url = f"{open_server.base_url}/mcp"
        async with Client(streamable_http_client(
                url, http_client=httpx2.AsyncClient(timeout=120))) as c:
            return await _mcp_refusals(c)(uid)

    mcp_msgs = anyio.run(main)
    for name, text in http_msgs.items():
        assert text in mcp_msgs[name], (name, text, mcp_msgs[name])
    assert open_server.get(f"/v1/users/{uid}/stats").json() == before


def test_mcp_stdio_and_memory_have_the_same_bounds(neo4j_graph, graph, uid):
    from mcp.client.stdio import StdioServerParameters

    from tests.helpers import FakeVectors

    mem = Memory(graph, embedder=FakeVectors())
    mem.append(uid, "s", [TurnRecord("user", "I live in Oslo.", source_id="m1")])
    before = mem.stats(uid)
    direct: dict[str, str] = {}
    for name, call in {
        "long_message": lambda: mem.append(uid, "s", [TurnRecord("user", "y" * (MAX_MESSAGE_CHARS
                                                                                + 1))]),
        "nul_content": lambda: mem.append(uid, "s", [TurnRecord("user", "I live\x00 in Oslo.")]),
        "nul_turn_id": lambda: mem.append(uid, "s", [TurnRecord("user", "Hi.", source_id="t\x001")]),
        "long_query": lambda: mem.search(uid, "q" * (MAX_QUERY_CHARS + 1)),
        "k_zero": lambda: mem.search(uid, "where?", k=0),
        "k_large": lambda: mem.search(uid, "where?", k=MAX_K + 1),
    }.items():
        with pytest.raises(OutOfBounds) as caught:
            call()
        direct[name] = str(caught.value)
    for k in (True, "5", 5.0):
        with pytest.raises(OutOfBounds):
            mem.search(uid, "where?", k=k)
    with pytest.raises(OutOfBounds, match="'m1'.*'s'"):
        mem.append(uid, "other", [TurnRecord("user", "Rome.", source_id="m1")])
    assert mem.stats(uid) == before

    params = StdioServerParameters(command=sys.executable, args=["-m", "graphmem", "mcp"],
                                   env={"NEO4J_URI": neo4j_graph.uri})

    async def main() -> dict[str, str]:
        from mcp import Client

        async with Client(params, read_timeout_seconds=120) as c:
            return await _mcp_refusals(c)(uid)

    over_stdio = anyio.run(main)
    for name, text in direct.items():
        assert text in over_stdio[name], (name, text, over_stdio[name])
    assert mem.stats(uid) == before


@pytest.mark.slow
def test_requests_while_neo4j_restarts_get_a_quick_503(tmp_path):
    """Its own Neo4j (the shared one must stay up), stopped and started under a running server:
    every request answers 503 with Retry-After (never 500) and, once the server has seen Neo4j
    down, at once; after the restart it serves again by itself."""
    import threading

    from graphmem import localneo4j

    local, state = own_neo4j(tmp_path)
    user = f"test-restart-{uuid.uuid4().hex[:8]}"
    port = free_port()
    proc = start_server(state.bolt_uri, port, None)
    base = f"http://127.0.0.1:{port}"

    def requests(client: httpx.Client) -> list[httpx.Response]:
        return [client.post(f"/v1/users/{user}/search", json={"query": "where?"}),
                client.post(f"/v1/users/{user}/sessions/s/messages",
                            json={"messages": [{"role": "user", "content": "Hello."}]}),
                client.get(f"/v1/users/{user}/facts")]

    try:
        wait_ready(proc, base)
        with httpx.Client(base_url=base, timeout=120) as client:
            assert requests(client)[1].status_code == 200
            stopping = threading.Thread(target=localneo4j.stop, args=(local,))
            stopping.start()
            seen: list[tuple[float, int]] = []
            while stopping.is_alive() or len(seen) < 6:
                for r in requests(client):
                    seen.append((r.elapsed.total_seconds(), r.status_code))
                    assert r.status_code in (200, 503), r.text  # never 500
                    if r.status_code == 503:
                        _error(r, 503, "neo4j_unavailable")
                        assert int(r.headers["Retry-After"]) > 0
            stopping.join()
            down = [s for s, code in seen if code == 503]
            assert down, seen
            # The first request to find Neo4j gone waits out the driver's retries; the rest
            # answer at once (they used to wait ~3-11 s each, and some answered 500).
            assert sorted(down)[len(down) // 2] < 0.5, seen
            for r in requests(client):
                assert r.status_code == 503 and r.elapsed.total_seconds() < 0.5, r.elapsed
            localneo4j.start(local)
            deadline = time.perf_counter() + 60
            while (r := client.post(f"/v1/users/{user}/search",
                                    json={"query": "where?"})).status_code != 200:
                _error(r, 503, "neo4j_unavailable")
                assert time.perf_counter() < deadline, "no recovery after Neo4j came back"
                time.sleep(0.5)
            assert all(r.status_code == 200 for r in requests(client))
    finally:
        stop(proc)
        localneo4j.stop(local)
