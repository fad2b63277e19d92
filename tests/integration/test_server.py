"""`graphmem serve` as a real process on a free port against the test Neo4j, over real HTTP."""

from __future__ import annotations

import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest

from graphmem.store.admin import forget_user

USER_KEY = "alice-key-0123456789"
OTHER_KEY = "bob-key-0123456789"
ADMIN_KEY = "admin-key-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def own_neo4j(tmp_path: Path) -> tuple[Any, Any]:
    """A small managed Neo4j of a test's own, for stopping and starting under a server (the
    shared one must stay up): (its settings, its state); skips where none can start."""
    from graphmem import localneo4j
    from graphmem.config import Settings
    from graphmem.errors import LocalNeo4jError

    local = replace(Settings.from_env().local, home=tmp_path / "neo4j", bolt_port=free_port(),
                    http_port=free_port(), heap="512m", page_cache_mb=64)
    try:
        return local, localneo4j.start(local)
    except LocalNeo4jError as exc:
        pytest.skip(f"no managed Neo4j here: {exc}")


def start_server(bolt_uri: str, port: int, keys: str | None, *extra: str
                 ) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_API_KEYS")}
    env["NEO4J_URI"] = bolt_uri
    if keys is not None:
        env["GRAPHMEM_API_KEYS"] = keys
    return subprocess.Popen([sys.executable, "-m", "graphmem", "serve", "--port", str(port),
                             "--workers", "2", "--max-body-mb", "0.25", *extra],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_ready(proc: subprocess.Popen[bytes], base: str, timeout: float = 240) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited: {proc.stderr.read().decode()}")
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return time.perf_counter() - started
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    raise AssertionError("serve did not become ready")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def users(neo4j_graph) -> Iterator[tuple[str, str]]:
    a, b = f"test-srv-{uuid.uuid4().hex[:10]}", f"test-srv-{uuid.uuid4().hex[:10]}"
    yield a, b
    forget_user(neo4j_graph, a)
    forget_user(neo4j_graph, b)


@pytest.fixture(scope="module")
def server(neo4j_graph, users) -> Iterator[httpx.Client]:
    a, b = users
    port = free_port()
    keys = f"{USER_KEY}={a};{OTHER_KEY}={b};{ADMIN_KEY}=*"
    proc = start_server(neo4j_graph.uri, port, keys)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, base)
        with httpx.Client(base_url=base, timeout=60,
                          headers={"Authorization": f"Bearer {USER_KEY}"}) as client:
            yield client
    finally:
        stop(proc)


def _append(client, user, session, messages, **extra):
    return client.post(f"/v1/users/{user}/sessions/{session}/messages",
                       json={"messages": messages, **extra})


def _error(resp, status, code):
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert body["error"]["code"] == code and body["error"]["message"], body
    assert "Traceback" not in resp.text
    return body["error"]["message"]


@pytest.fixture(scope="module")
def loaded(server, users):
    """User A's memory grown by appends: a move from Denver to Portland across two sessions."""
    a, _ = users
    r = _append(server, a, "s1", [
        {"role": "user", "content": "I live in Denver and I work at Acme Robotics.", "turn_id": "m1"},
        {"role": "assistant", "content": "Denver is lovely.", "turn_id": "m2"},
    ], session_time="2024-01-10T09:00:00Z")
    assert r.status_code == 200, r.text
    r = _append(server, a, "s2", [
        {"role": "user", "content": "I moved to Portland last week.", "turn_id": "m3"}],
        session_time="2024-06-01T09:00:00Z")
    assert r.status_code == 200, r.text
    return a


def test_health_ready_openapi_docs(server):
    assert server.get("/healthz").json() == {"status": "ok"}
    ready = server.get("/readyz")
    assert ready.status_code == 200 and ready.json() == {"ready": True, "neo4j": True,
                                                         "schema": True, "model": True}
    paths = server.get("/openapi.json").json()["paths"]
    for p in ("/v1/users/{user_id}/sessions/{session_id}/messages", "/v1/users/{user_id}/search",
              "/v1/users/{user_id}/facts", "/v1/users/{user_id}/timeline",
              "/v1/users/{user_id}/inspect/{node_id}", "/v1/users/{user_id}/answer",
              "/v1/users/{user_id}/stats", "/v1/users/{user_id}/transcripts", "/v1/stats"):
        assert p in paths, p
    assert server.get("/docs").status_code == 200


def test_append_is_idempotent_and_grows_the_session(server, users, neo4j_graph):
    a, _ = users
    msgs = [{"role": "user", "content": "My favorite restaurant is Sushi Den.", "turn_id": "x1"},
            {"role": "assistant", "content": "Good choice.", "turn_id": "x2"}]
    first = _append(server, a, "grow", msgs, session_time="2024-02-01T10:00:00Z").json()
    assert first["created"] is True and [t["idx"] for t in first["added"]] == [1, 2]
    assert first["facts"] >= 1
    before = server.get(f"/v1/users/{a}/stats").json()
    again = _append(server, a, "grow", msgs).json()
    assert again["added"] == [] and again["unchanged"] == ["x1", "x2"] and not again["created"]
    assert server.get(f"/v1/users/{a}/stats").json() == before
    # Two identical appends at once: one writes, the other finds the turn already there.
    third = [{"role": "user", "content": "My favorite restaurant is now Canlis.", "turn_id": "x3"}]
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        results = [f.result().json() for f in [ex.submit(_append, server, a, "grow", third)
                                               for _ in range(2)]]
    assert sorted(len(r["added"]) for r in results) == [0, 1]
    added = next(r for r in results if r["added"])["added"][0]
    assert added["idx"] == 3 and added["source_turn_id"] == "x3"
    with neo4j_graph.session(read_only=True) as s:
        chain = s.run("MATCH (s:Session {id: $sid})-[:HAS_TURN]->(t:Turn) "
                      "OPTIONAL MATCH (t)-[:NEXT]->(n:Turn) "
                      "RETURN t.source_id AS turn, n.source_id AS next ORDER BY t.idx",
                      sid=first["session_id"]).data()
    assert chain == [{"turn": "x1", "next": "x2"}, {"turn": "x2", "next": "x3"},
                     {"turn": "x3", "next": None}]
    # The new fact re-decided its slot: Canlis is current, Sushi Den superseded.
    facts = server.get(f"/v1/users/{a}/facts", params={"history": "true",
                                                       "predicate": "favorite_restaurant"}).json()
    status = {f["value"]: f["status"] for f in facts["facts"]}
    assert status == {"Sushi Den": "superseded", "Canlis": "active"}, status


def test_facts_as_of_history_and_timeline(server, loaded):
    now = server.get(f"/v1/users/{loaded}/facts", params={"predicate": "lives_in"}).json()["facts"]
    assert [f["value"] for f in now] == ["Portland"]
    assert now[0]["source_turn_ids"] == ["m3"] and now[0]["turn_id"].startswith("turn:")
    then = server.get(f"/v1/users/{loaded}/facts",
                      params={"predicate": "lives_in", "as_of": "2024-03-01T00:00:00Z"}).json()
    assert [f["value"] for f in then["facts"]] == ["Denver"]
    history = server.get(f"/v1/users/{loaded}/facts",
                         params={"predicate": "lives_in", "history": "true"}).json()["facts"]
    assert {f["value"]: f["status"] for f in history} == {"Denver": "superseded",
                                                          "Portland": "active"}
    tl = server.get(f"/v1/users/{loaded}/timeline", params={"predicate": "lives_in"}).json()
    portland = next(f for f in tl["facts"] if f["value"] == "Portland")
    assert portland["changes"] and portland["changes"][0]["type"] == "SUPERSEDES"
    assert portland["session_source_id"] == "s2"


def test_search_and_its_options(server, loaded):
    r = server.post(f"/v1/users/{loaded}/search",
                    json={"query": "where do I live now?", "k": 5, "explain": True,
                          "question_date": "2024-07-01T00:00:00Z"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["results"] and len(body["results"]) <= 5 and body["hits"]
    top = body["results"][0]
    assert "m3" in top["source_turn_ids"] and "Portland" in top["text"]
    past = server.post(f"/v1/users/{loaded}/search",
                       json={"query": "where do I live?", "as_of": "2024-03-01T00:00:00Z",
                             "preset": "bm25"}).json()
    assert all("m3" not in e["source_turn_ids"] for e in past["results"])
    bad = server.post(f"/v1/users/{loaded}/search", json={"query": "x", "preset": "nope"})
    assert "fused" in _error(bad, 400, "bad_input")


def test_question_date_is_a_cutoff_and_current_ranks_first_over_http(server, loaded):
    """Asked on 2024-03-01, the move to Portland (said 2024-06-01) is not known yet; asked today,
    the Portland turn ranks above the Denver turn, which also carries a current fact (work)."""
    before = "2024-03-01T00:00:00Z"
    r = server.post(f"/v1/users/{loaded}/search",
                    json={"query": "where do I live now?", "question_date": before})
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert "m1" in results[0]["source_turn_ids"] and "Denver" in results[0]["text"]
    assert all("m3" not in e["source_turn_ids"] and "Portland" not in e["text"] for e in results)
    facts = server.get(f"/v1/users/{loaded}/facts",
                       params={"predicate": "lives_in", "question_date": before}).json()["facts"]
    assert [(f["value"], f["status"]) for f in facts] == [("Denver", "active")]
    tl = server.get(f"/v1/users/{loaded}/timeline",
                    params={"predicate": "lives_in", "question_date": before}).json()["facts"]
    assert [f["value"] for f in tl] == ["Denver"] and tl[0]["valid_until"] is None
    answer = server.post(f"/v1/users/{loaded}/answer",
                         json={"question": "Where do I live now?", "question_date": before,
                               "offline": True}).json()
    assert "Denver" in answer["text"] and "Portland" not in answer["text"]
    now = server.post(f"/v1/users/{loaded}/search",
                      json={"query": "where do I live now?"}).json()["results"]
    turns = [t for e in now for t in e["source_turn_ids"]]
    assert "m3" in now[0]["source_turn_ids"] and "Portland" in now[0]["text"]
    assert turns.index("m3") < (turns.index("m1") if "m1" in turns else len(turns))


def test_inspect_answer_stats(server, loaded):
    card = server.get(f"/v1/users/{loaded}/inspect/m3").json()
    assert card["type"] == "turn" and "Portland" in card["turn"]["text"]
    fact_id = server.get(f"/v1/users/{loaded}/facts").json()["facts"][0]["id"]
    fact = server.get(f"/v1/users/{loaded}/inspect/{fact_id}").json()
    assert fact["type"] == "fact" and fact["sources"]
    _error(server.get(f"/v1/users/{loaded}/inspect/nothing-like-this"), 404, "not_found")
    ans = server.post(f"/v1/users/{loaded}/answer",
                      json={"question": "Where do I live now?", "offline": True}).json()
    assert ans["generated"] is False and ans["citations"]
    assert any(c["source_turn_id"] == "m3" and "Portland" in c["quote"] for c in ans["citations"])
    assert "usage" in ans and "cost_usd" in ans and "trace" not in ans
    stats = server.get(f"/v1/users/{loaded}/stats").json()
    assert stats["users"] == 1 and stats["turns"] >= 3 and stats["facts"] >= 2


def test_auth_matrix(server, users, loaded):
    a, b = users
    url = f"/v1/users/{a}/stats"
    with httpx.Client(base_url=str(server.base_url), timeout=30) as anon:
        _error(anon.get(url), 401, "missing_key")
        _error(anon.get(url, headers={"Authorization": "Bearer not-a-key-at-all"}), 401,
               "invalid_key")
        assert anon.get(url, headers={"X-API-Key": USER_KEY}).status_code == 200
        assert "bob" not in _error(anon.get(url, headers={"Authorization": f"Bearer {OTHER_KEY}"}),
                                   403, "forbidden")
        assert anon.get(url, headers={"Authorization": f"Bearer {ADMIN_KEY}"}).status_code == 200
        # A user key cannot touch another user, not even to create memory for them.
        r = anon.post(f"/v1/users/{b}/sessions/s/messages", headers={"X-API-Key": USER_KEY},
                      json={"messages": [{"role": "user", "content": "hi"}]})
        _error(r, 403, "forbidden")
        _error(anon.get("/v1/stats", headers={"X-API-Key": USER_KEY}), 403, "forbidden")
        totals = anon.get("/v1/stats", headers={"X-API-Key": ADMIN_KEY}).json()
        assert totals["users"] >= 1
        assert anon.get("/healthz").status_code == 200  # no key needed to ask if it is up


def test_bad_inputs(server, users, loaded, neo4j_graph):
    a, _ = users
    url = f"/v1/users/{a}/search"
    _error(server.post(url, content=b"{not json", headers={"Content-Type": "application/json"}),
           400, "malformed_json")
    assert "query" in _error(server.post(url, json={"query": ""}), 422, "invalid_request")
    assert "query" in _error(server.post(url, json={"query": "x" * 5000}), 422, "invalid_request")
    _error(server.post(url, json={"query": "x", "surprise": 1}), 422, "invalid_request")
    _error(server.post(url, json={"query": "x", "k": "many"}), 422, "invalid_request")
    _error(server.post(f"/v1/users/{a}-nobody/search", json={"query": "where?"}, headers={
        "X-API-Key": ADMIN_KEY, "Authorization": f"Bearer {ADMIN_KEY}"}), 404, "unknown_user")
    _error(server.get(f"/v1/users/{a}/facts", params={"as_of": "not a date"}), 422,
           "invalid_request")
    big = {"messages": [{"role": "user", "content": "y" * 90_000}] * 3}
    assert "larger than" in _error(server.post(f"/v1/users/{a}/sessions/big/messages", json=big),
                                   413, "too_large")
    _error(server.post(f"/v1/users/{a}/sessions/e/messages", json={"messages": []}), 422,
           "invalid_request")
    before = server.get(f"/v1/users/{a}/stats").json()
    for hostile in ('name:* OR user_id:* AND "', "MATCH (n) DETACH DELETE n //",
                    "') RETURN 1 UNION MATCH (x) RETURN x //", "\\ ~ ^ [ { ( /"):
        r = server.post(url, json={"query": hostile})
        assert r.status_code == 200, r.text
        assert all(e["id"] for e in r.json()["results"])
    assert server.get(f"/v1/users/{a}/stats").json() == before
    _error(server.get("/v1/nothing-here"), 404, "not_found")


def test_message_timestamps_and_the_users_time_zone(server, new_user):
    """A message's own time over HTTP: a later turn is dated by it and its "yesterday" counts
    from its local day; a bad timestamp or time zone is a 422 and writes nothing."""
    u = new_user()
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}

    def append(messages, **extra):
        return server.post(f"/v1/users/{u}/sessions/days/messages", headers=admin,
                           json={"messages": messages, **extra})

    def facts(predicate):
        return server.get(f"/v1/users/{u}/facts", headers=admin,
                          params={"history": "true", "predicate": predicate}).json()["facts"]

    r = append([{"role": "user", "content": "I live in Leeds.", "turn_id": "t1"}],
               session_time="2026-02-09T10:00:00Z")
    assert r.status_code == 200, r.text
    r = append([{"role": "user", "content": "I moved to York yesterday.", "turn_id": "t2",
                 "timestamp": "2026-02-20T01:30:00+02:00"}])
    assert r.status_code == 200 and not r.json()["created"], r.text
    york = next(f for f in facts("lives_in") if f["value"] == "York")
    assert datetime.fromisoformat(york["mentioned_at"]) == datetime(2026, 2, 19, 23, 30,
                                                                    tzinfo=UTC)
    local = timezone(timedelta(hours=2))  # 01:30+02:00: "yesterday" is the 19th there
    assert datetime.fromisoformat(york["occurred_start"]) == datetime(2026, 2, 19, tzinfo=local)
    # The user's time zone reads a time without an offset.
    r = server.put(f"/v1/users/{u}/time_zone", headers=admin, json={"time_zone": "Asia/Tokyo"})
    assert r.status_code == 200 and r.json() == {"time_zone": "Asia/Tokyo"}, r.text
    r = append([{"role": "user", "content": "I adopted a dog yesterday.", "turn_id": "t3",
                 "timestamp": "2026-03-01T08:00:00"}])
    assert r.status_code == 200, r.text
    dog = facts("owns_count:dog")[0]
    tokyo = timezone(timedelta(hours=9))
    assert datetime.fromisoformat(dog["mentioned_at"]) == datetime(2026, 3, 1, 8, tzinfo=tokyo)
    assert datetime.fromisoformat(dog["occurred_start"]) == datetime(2026, 2, 28, tzinfo=tokyo)
    # Refused, one line each, and nothing written (the good message beside a bad one neither).
    before = server.get(f"/v1/users/{u}/stats", headers=admin).json()
    good = {"role": "user", "content": "I moved to Hull.", "turn_id": "t4"}
    for bad, says in (("2026-02-20 at noon", "message 1: timestamp '2026-02-20 at noon' is not "
                                             "an ISO 8601 date or datetime"),
                      ("2026-13-01", "message 1: timestamp"), (1771545600, "timestamp")):
        msg = _error(append([good, {"role": "user", "content": "I moved to Hull.",
                                    "timestamp": bad}]), 422, "invalid_request")
        assert says in msg and "\n" not in msg, msg
    assert "session_time" in _error(append([good], session_time="whenever"), 422,
                                    "invalid_request")
    for zone in ("Mars/Base", "", 5):
        _error(server.put(f"/v1/users/{u}/time_zone", headers=admin, json={"time_zone": zone}),
               422, "invalid_request")
    assert server.get(f"/v1/users/{u}/stats", headers=admin).json() == before
    _error(server.get(f"/v1/users/{u}/inspect/t4", headers=admin), 404, "not_found")


def test_upload_transcript_and_forget(server, users, neo4j_graph):
    _, b = users
    other = f"{b}-else"
    lines = [{"user_id": b, "session_id": "u1", "session_time": "2024-01-10T09:00:00Z",
              "role": "user", "content": "I have two cats."},
             {"user_id": other, "session_id": "u1", "session_time": "2024-01-10T09:00:00Z",
              "role": "user", "content": "Not mine."}]
    body = "\n".join(json.dumps(x) for x in lines).encode()
    headers = {"X-API-Key": OTHER_KEY, "Authorization": f"Bearer {OTHER_KEY}",
               "Content-Type": "application/octet-stream"}
    r = server.post(f"/v1/users/{b}/transcripts", params={"format": "jsonl"}, content=body,
                    headers=headers)
    assert r.status_code == 200, r.text
    assert r.json()["sessions"] == 1 and r.json()["skipped_other_users"] == 1
    assert not neo4j_graph.read("user_exists", user_id=other)[0]["exists"]
    again = server.post(f"/v1/users/{b}/transcripts", params={"format": "jsonl"}, content=body,
                        headers=headers).json()
    assert again["sessions"] == 0 and again["sessions_unchanged"] == 1
    _error(server.post(f"/v1/users/{b}/transcripts", params={"format": "jsonl"},
                       content=b"{broken", headers=headers), 400, "bad_input")
    gone = server.delete(f"/v1/users/{b}", headers=headers)
    assert gone.status_code == 200 and gone.json()["deleted"] > 0
    _error(server.get(f"/v1/users/{b}/stats", headers=headers), 404, "unknown_user")


def test_refuses_a_public_bind_without_keys(neo4j_graph):
    proc = start_server(neo4j_graph.uri, free_port(), None, "--host", "0.0.0.0")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert "without API keys" in err.decode() and "Traceback" not in err.decode()


@pytest.mark.slow
def test_neo4j_down_gives_503_and_recovers_without_restart(tmp_path):
    """Its own Neo4j (the shared fixture must stay up), stopped and started under the server."""
    from graphmem import localneo4j

    local, state = own_neo4j(tmp_path)
    user = f"test-down-{uuid.uuid4().hex[:8]}"
    port = free_port()
    proc = start_server(state.bolt_uri, port, None)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_ready(proc, base)
        with httpx.Client(base_url=base, timeout=60) as client:
            assert _append(client, user, "s", [{"role": "user", "content": "I live in Oslo."}]
                           ).status_code == 200
            localneo4j.stop(local)
            for r in (client.post(f"/v1/users/{user}/search", json={"query": "where?"}),
                      _append(client, user, "s", [{"role": "user", "content": "Hello."}]),
                      client.get(f"/v1/users/{user}/facts")):
                _error(r, 503, "neo4j_unavailable")
                assert int(r.headers["Retry-After"]) > 0
            ready = client.get("/readyz")
            assert ready.status_code == 503 and ready.json()["neo4j"] is False
            assert client.get("/healthz").status_code == 200
            localneo4j.start(local)
            deadline = time.perf_counter() + 60
            while client.get("/readyz").status_code != 200:
                assert time.perf_counter() < deadline, "no recovery after Neo4j came back"
                time.sleep(0.5)
            r = client.post(f"/v1/users/{user}/search", json={"query": "where do I live?"})
            assert r.status_code == 200 and "Oslo" in r.json()["results"][0]["text"]
    finally:
        stop(proc)
        localneo4j.stop(local)


def _cli(base: str, key: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GRAPHMEM_URL": base, "GRAPHMEM_API_KEY": key,
           "NEO4J_URI": "bolt://127.0.0.1:1"}  # proves the CLI does not touch Neo4j itself
    return subprocess.run([sys.executable, "-m", "graphmem", *args], env=env, text=True,
                          capture_output=True, timeout=120)


def test_cli_uses_a_running_server(server, loaded, users, tmp_path):
    base = str(server.base_url)
    started = time.perf_counter()
    found = _cli(base, USER_KEY, "search", "--user", loaded, "--explain", "where do I live now?")
    seconds = time.perf_counter() - started
    assert found.returncode == 0, found.stderr
    assert "Portland" in found.stdout and "m3" in found.stdout and "tunnels:" in found.stdout
    started = time.perf_counter()
    as_json = json.loads(_cli(base, USER_KEY, "search", "--user", loaded, "--json", "Portland").stdout)
    print(f"CLI search through GRAPHMEM_URL: {seconds:.2f} s wall, then "
          f"{time.perf_counter() - started:.2f} s")
    assert as_json["results"] and "hits" not in as_json
    ans = _cli(base, USER_KEY, "ask", "--user", loaded, "--offline", "where do I live now?")
    assert ans.returncode == 0 and "Citations:" in ans.stdout and "Portland" in ans.stdout
    _, b = users
    path = tmp_path / "chat.jsonl"
    path.write_text(json.dumps({"user_id": b, "session_id": "c1", "role": "user",
                                "session_time": "2024-02-02T10:00:00Z",
                                "content": "I work at Boeing."}) + "\n")
    up = _cli(base, OTHER_KEY, "ingest", "--user", b, "--json", str(path))
    assert up.returncode == 0, up.stderr
    assert json.loads(up.stdout)["sessions"] == 1
    denied = _cli(base, USER_KEY, "search", "--user", b, "Boeing")
    assert denied.returncode == 1 and "may not touch" in denied.stderr
    assert "Traceback" not in denied.stderr
    down = _cli("http://127.0.0.1:1", USER_KEY, "search", "--user", loaded, "x")
    assert down.returncode == 1 and "cannot reach graphmem" in down.stderr


MOVES = [("s1", "2024-01-10T09:00:00Z", "h1", "I live in Denver."),
         ("s2", "2024-03-10T09:00:00Z", "h2", "I moved to Boulder."),
         ("s3", "2024-06-10T09:00:00Z", "h3", "I moved to Portland.")]


def _said_moves(server, user, headers):
    for session, when, turn_id, text in MOVES:
        r = server.post(f"/v1/users/{user}/sessions/{session}/messages", headers=headers,
                        json={"messages": [{"role": "user", "content": text, "turn_id": turn_id}],
                              "session_time": when})
        assert r.status_code == 200, r.text


def test_one_memory_at_a_time_over_http(server, new_user):
    """List turns by cursor, get one turn and one fact, delete and redact a turn, mark a fact
    wrong; another user's ids get the very 404 an unknown id gets, and nothing of theirs moves."""
    u, other = new_user(), new_user()
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    _said_moves(server, u, admin)
    _said_moves(server, other, admin)
    base = f"/v1/users/{u}"

    def get(path, **params):
        return server.get(base + path, headers=admin, params=params)

    def lives():
        facts = get("/facts", history="true", predicate="lives_in").json()["facts"]
        return {f["value"]: f["status"] for f in facts}

    theirs_before = server.get(f"/v1/users/{other}/facts", headers=admin,
                               params={"history": "true"}).json()
    seen, cursor = [], None
    while True:
        page = get("/turns", limit=2, **({"cursor": cursor} if cursor else {})).json()
        seen += [t["source_id"] for t in page["turns"]]
        if not (cursor := page["next_cursor"]):
            break
    assert seen == ["h1", "h2", "h3"]
    assert [t["source_id"] for t in get("/turns", session="s2").json()["turns"]] == ["h2"]
    sessions = get("/sessions", limit=5).json()
    assert [s["source_id"] for s in sessions["sessions"]] == ["s1", "s2", "s3"]
    assert sessions["next_cursor"] is None and sessions["sessions"][0]["turns"] == 1
    turn = get("/turns/h3").json()
    assert turn["text"] == "I moved to Portland." and len(turn["fact_ids"]) == 1
    assert get(f"/turns/{turn['id']}").json() == turn
    fact = get(f"/facts/{turn['fact_ids'][0]}").json()
    assert fact["value"] == "Portland" and fact["invalidation"] is None
    # Another user's ids: exactly the 404 of an unknown id, for every operation.
    mine = server.get(f"/v1/users/{other}/turns/h3", headers=admin).json()
    for path, method in ((f"/turns/{mine['id']}", "GET"), (f"/turns/{mine['id']}", "DELETE"),
                         (f"/turns/{mine['id']}?redact=true", "DELETE"),
                         (f"/facts/{mine['fact_ids'][0]}", "GET"),
                         (f"/facts/{mine['fact_ids'][0]}/invalidate", "POST")):
        unknown = path.replace(mine["id"], "turn:0").replace(mine["fact_ids"][0], "fact:0")
        body = {} if method == "POST" else None
        foreign = server.request(method, base + path, headers=admin, json=body)
        none = server.request(method, base + unknown, headers=admin, json=body)
        message = _error(foreign, 404, "not_found")
        assert message == _error(none, 404, "not_found").replace(
            "turn:0", mine["id"]).replace("fact:0", mine["fact_ids"][0])
    # Delete the current value: the one before is current again.
    done = server.delete(f"{base}/turns/h3", headers=admin).json()
    assert done["facts"] == turn["fact_ids"] and done["slots"] == ["user|lives_in"]
    _error(get("/turns/h3"), 404, "not_found")
    assert lives() == {"Denver": "superseded", "Boulder": "active"}
    # Mark Boulder wrong: Denver is current, Boulder stays in history with who said so.
    boulder = get("/turns/h2").json()["fact_ids"][0]
    r = server.post(f"{base}/facts/{boulder}/invalidate", headers=admin,
                    json={"by": "agent:test", "reason": "the user never lived there"})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "invalid" and r.json()["invalidation"]["by"] == "agent:test"
    assert lives() == {"Denver": "active", "Boulder": "invalid"}
    assert get(f"/facts/{boulder}").json()["invalidation"]["reason"] == "the user never lived there"
    red = server.delete(f"{base}/turns/h1", headers=admin, params={"redact": "true"}).json()
    assert red["redacted"] and get("/turns/h1").json()["text"] == "[redacted]"
    assert lives() == {"Boulder": "invalid"}
    assert server.get(f"/v1/users/{other}/facts", headers=admin,
                      params={"history": "true"}).json() == theirs_before
    # Bounds and bad input.
    _error(get("/turns", limit=0), 422, "invalid_request")
    _error(get("/turns", limit=100_000), 422, "invalid_request")
    assert "cursor" in _error(get("/turns", cursor="bogus"), 422, "invalid_request")
    _error(get("/turns", session="nope"), 404, "not_found")
    _error(server.post(f"{base}/facts/{boulder}/invalidate", headers=admin,
                       json={"by": "x", "surprise": 1}), 422, "invalid_request")
    _error(server.post(f"{base}/facts/{boulder}/invalidate", headers=admin,
                       json={"by": "x", "reason": "r" * 5000}), 422, "invalid_request")
    _error(server.get(f"/v1/users/{u}-nobody/turns", headers=admin), 404, "unknown_user")
    _error(server.delete(f"/v1/users/{u}-nobody/turns/h1", headers=admin), 404, "unknown_user")
    paths = server.get("/openapi.json").json()["paths"]
    for p in ("/v1/users/{user_id}/sessions", "/v1/users/{user_id}/turns",
              "/v1/users/{user_id}/turns/{turn_id}",
              "/v1/users/{user_id}/facts/{fact_id}",
              "/v1/users/{user_id}/facts/{fact_id}/invalidate"):
        assert p in paths, p


TOOLS = {"remember", "set_time_zone", "search_memory", "current_facts", "timeline", "inspect",
         "answer", "list_sessions", "list_turns", "get_turn", "get_fact", "forget_turn",
         "invalidate_fact"}
ONE_MEMORY_TOOLS = {"list_sessions", "list_turns", "get_turn", "get_fact", "forget_turn",
                    "invalidate_fact"}


def test_mcp_over_http(server, users, loaded):
    """The SDK's own client, over streamable HTTP at /mcp, with the same keys and scoping."""
    import anyio
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    a, b = users
    url = f"{server.base_url}/mcp"

    def client(key: str) -> Client:
        return Client(streamable_http_client(url, http_client=httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {key}"}, timeout=120)))

    async def main() -> None:
        async with client(USER_KEY) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            assert set(tools) == TOOLS and all(t.description for t in tools.values())
            r = await c.call_tool("remember", {"user_id": a, "session_id": "mcp", "messages": [
                {"role": "user", "content": "My favorite restaurant is Pike Place Chowder.",
                 "turn_id": "p1"}]})
            assert not r.is_error and r.structured_content["added"][0]["source_turn_id"] == "p1"
            found = (await c.call_tool("search_memory", {"user_id": a,
                                                         "query": "where do I live now?"}))
            top = found.structured_content["results"][0]
            assert "m3" in top["source_turn_ids"] and top["turn_id"].startswith("turn:")
            facts = (await c.call_tool("current_facts", {"user_id": a, "predicate": "lives_in"}))
            assert [f["value"] for f in facts.structured_content["facts"]] == ["Portland"]
            tl = await c.call_tool("timeline", {"user_id": a, "predicate": "lives_in"})
            assert len(tl.structured_content["facts"]) == 2
            card = await c.call_tool("inspect", {"user_id": a, "id": "m3"})
            assert "Portland" in card.structured_content["turn"]["text"]
            ans = await c.call_tool("answer", {"user_id": a, "question": "Where do I live now?"})
            cites = ans.structured_content["citations"]
            assert any(x["source_turn_id"] == "m3" and x["quote"] for x in cites)
            denied = await c.call_tool("search_memory", {"user_id": b, "query": "anything"})
            assert denied.is_error and "may not touch" in denied.content[0].text
        with pytest.raises(Exception):  # noqa: B017 - a wrong key never gets a session
            async with client("wrong-key-0123456789") as c:
                await c.list_tools()

    anyio.run(main)
    r = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    _error(r, 401, "missing_key")


def test_one_memory_tools_over_mcp(server, new_user):
    """The one-memory-at-a-time tools through the SDK's client: every parameter described, and
    another user's ids refused like unknown ones."""
    import anyio
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    u, other = new_user(), new_user()
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    _said_moves(server, u, admin)
    _said_moves(server, other, admin)
    foreign = server.get(f"/v1/users/{other}/turns/h3", headers=admin).json()

    async def main() -> None:
        async with Client(streamable_http_client(f"{server.base_url}/mcp", http_client=(
                httpx2.AsyncClient(headers=admin, timeout=120)))) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            for name in ONE_MEMORY_TOOLS:
                props = tools[name].input_schema["properties"]
                assert props and all(p.get("description") for p in props.values()), name
            page = await c.call_tool("list_turns", {"user_id": u, "limit": 2})
            assert [t["source_id"] for t in page.structured_content["turns"]] == ["h1", "h2"]
            rest = await c.call_tool("list_turns", {
                "user_id": u, "cursor": page.structured_content["next_cursor"]})
            assert [t["source_id"] for t in rest.structured_content["turns"]] == ["h3"]
            assert rest.structured_content["next_cursor"] is None
            sessions = await c.call_tool("list_sessions", {"user_id": u})
            assert len(sessions.structured_content["sessions"]) == 3
            turn = (await c.call_tool("get_turn", {"user_id": u, "turn_id": "h3"})
                    ).structured_content
            fact = await c.call_tool("get_fact", {"user_id": u, "fact_id": turn["fact_ids"][0]})
            assert fact.structured_content["value"] == "Portland"
            for tool, args in (("get_turn", {"turn_id": foreign["id"]}),
                               ("forget_turn", {"turn_id": foreign["id"]}),
                               ("invalidate_fact", {"fact_id": foreign["fact_ids"][0]})):
                r = await c.call_tool(tool, {"user_id": u, **args})
                assert r.is_error and f"has no {tool.split('_')[1]}" in r.content[0].text
            wrong = await c.call_tool("invalidate_fact", {
                "user_id": u, "fact_id": turn["fact_ids"][0], "by": "agent:mcp",
                "reason": "not true"})
            assert wrong.structured_content["status"] == "invalid"
            assert wrong.structured_content["invalidation"]["by"] == "agent:mcp"
            now = await c.call_tool("current_facts", {"user_id": u, "predicate": "lives_in"})
            assert [f["value"] for f in now.structured_content["facts"]] == ["Boulder"]
            gone = await c.call_tool("forget_turn", {"user_id": u, "turn_id": "h2"})
            assert gone.structured_content["slots"] == ["user|lives_in"]
            now = await c.call_tool("current_facts", {"user_id": u, "predicate": "lives_in"})
            assert [f["value"] for f in now.structured_content["facts"]] == ["Denver"]
            red = await c.call_tool("forget_turn", {"user_id": u, "turn_id": "h1",
                                                    "redact": True})
            assert red.structured_content["redacted"] is True
            bad = await c.call_tool("list_turns", {"user_id": u, "cursor": "bogus"})
            assert bad.is_error and "cursor" in bad.content[0].text

    anyio.run(main)
    theirs = server.get(f"/v1/users/{other}/turns", headers=admin).json()["turns"]
    assert [t["source_id"] for t in theirs] == ["h1", "h2", "h3"]
