"""Third hostile probe of issue 30's fixes, real parts only (the test Neo4j, `graphmem serve` over
raw HTTP, the `graphmem import` command). Shapes that held are regression tests; shapes that
broke are `xfail(strict=True)` until fixed.

1. `cypher_read`: new query shapes (composite seeks with IN / OR / ranges, UNION branches,
   OPTIONAL MATCH, shortestPath, pattern predicates, quantified paths, label expressions,
   dynamic labels, elementId seeks, rebinding `user_id`, caller-set parameters, unicode,
   comments, Cypher 25 `WHEN` / `NEXT`) answer alike with the victim present or forgotten.
   FOUND: the planner's statistics (every user's data) decide whether the plan starts at the
   user's seek or at an unanchored one, so *whether the query is refused* depends on another
   user's data.
2. `graphmem serve` without keys: Host / Origin / content-type variants.
   FOUND (not browser-reachable, parser differentials): a Host with userinfo passes as
   localhost while the Origin check reads it as the foreign host; an Origin with userinfo or
   another scheme passes as the server's own.
3. `graphmem import`: tampered exports (legacy ids squatting the victim's ids, a header user id
   equal to the victim's turn id)."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.answer import CypherRefused, cypher_read
from graphmem.history import inspect
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord, stable_id
from graphmem.store.admin import cross_user_edges, forget_user
from tests.helpers import SCENARIO, FakeVectors, _transcript
from tests.integration.test_server import free_port, start_server, stop, wait_ready

GRAPHMEM = str(Path(sys.executable).with_name("graphmem"))


# --- 1. cypher_read ------------------------------------------------------------------------------

def _outcome(graph, uid: str, query: str, params: dict | None = None):
    start = time.perf_counter()
    try:
        rows = cypher_read(graph, uid, query, params or {}, max_rows=100_000)["rows"]
        result = ("rows", sorted(json.dumps(r, sort_keys=True, default=str) for r in rows))
    except CypherRefused as err:
        result = ("refused", str(err).split("(")[0])
    return result, ("fast" if time.perf_counter() - start < 1.0 else "slow")


@pytest.fixture
def pair(neo4j_graph) -> Iterator[tuple[str, str]]:
    own, victim = f"own3-{uuid.uuid4().hex[:8]}", f"victim3-{uuid.uuid4().hex[:8]}"
    yield own, victim
    forget_user(neo4j_graph, own)
    forget_user(neo4j_graph, victim)


# Each `{victim}` is the victim's user id. All must be refused or answer only the caller's data,
# and answer alike (and fast) with the victim present or forgotten.
HELD_SHAPES: list[tuple[str, dict]] = [(q, {}) for q in (
    # composite seeks anchored on the user, with IN lists / OR / ranges on the second key
    "MATCH (e:Entity) WHERE e.user_id = $user_id AND e.norm_name IN ['denver', 'seattle'] "
    "RETURN e.name",
    "MATCH (e:Entity) WHERE e.user_id = $user_id AND (e.norm_name = 'denver' OR "
    "e.norm_name = 'seattle') RETURN e.name",
    "MATCH (e:Entity) WHERE e.user_id = $user_id AND e.norm_name >= 'd' AND e.norm_name < 'e' "
    "MATCH (e)-[*1..3]-(y) RETURN count(*) AS n",
    "MATCH (e:Entity) WHERE e.user_id IN [$user_id, '{victim}'] RETURN e.name",
    "MATCH (e:Entity) WHERE (e.user_id = $user_id AND e.norm_name = 'denver') OR "
    "(e.user_id = '{victim}' AND e.norm_name = 'denver') RETURN e.name",
    "MATCH (s:Session) WHERE s.user_id = $user_id AND s.started_at >= datetime('2024-01-01') "
    "RETURN count(s) AS n",
    "MATCH (t:Turn {{user_id: $user_id}}) WHERE t.source_id STARTS WITH 's1' RETURN count(t) AS n",
    # UNION branches, one of them on the victim
    "MATCH (e:Entity {{user_id: $user_id}}) RETURN e.name UNION "
    "MATCH (e:Entity {{user_id: '{victim}'}}) RETURN e.name",
    "MATCH (e:Entity {{user_id: $user_id}}) RETURN e.name UNION ALL MATCH (e:Entity) "
    "WHERE e.user_id = $user_id OR e.user_id = '{victim}' RETURN e.name",
    "MATCH (u:User {{user_id: $user_id}}) RETURN u.id AS x UNION MATCH (v:User) "
    "WHERE v.user_id = $user_id RETURN v.id AS x",
    # OPTIONAL MATCH / shortestPath onto the victim
    "MATCH (u:User {{user_id: $user_id}}) OPTIONAL MATCH (e:Entity {{user_id: '{victim}', "
    "norm_name: 'denver'}}) RETURN e IS NULL AS gone",
    "MATCH (a:User {{user_id: $user_id}}) MATCH (b:User {{user_id: '{victim}'}}) "
    "MATCH p = shortestPath((a)-[*]-(b)) RETURN length(p)",
    # pattern predicates and quantified path patterns from the user's own node
    "MATCH (a:Turn {{user_id: $user_id}}) WHERE (a)-[:NEXT]->(:Turn {{user_id: '{victim}'}}) "
    "RETURN count(a) AS n",
    "MATCH (a:User {{user_id: $user_id}})((x)-[]-(y) WHERE y.user_id <> $user_id){{1,3}}(b) "
    "RETURN count(b) AS n",
    "MATCH (a:User {{user_id: $user_id}})((x)-[]->(y)){{1,4}}(b) RETURN count(b) AS n",
    # label expressions and dynamic labels
    "MATCH (n:Entity|Turn {{user_id: $user_id}}) RETURN count(n) AS n",
    "MATCH (n:% {{user_id: $user_id}}) RETURN count(n) AS n",
    "MATCH (n:!Entity {{user_id: $user_id}}) RETURN count(n) AS n",
    "MATCH (n:$('Entity') {{user_id: $user_id}}) RETURN n.name",
    "MATCH (e:Entity WHERE e.user_id = $user_id) RETURN count(e) AS n",
    # elementId seeks
    "MATCH (x) WHERE elementId(x) = '4:00000000-0000-0000-0000-000000000000:1' "
    "AND x.user_id = $user_id RETURN x.id",
    "MATCH (x:Turn) WHERE elementId(x) IN ['a', 'b'] AND x.user_id = $user_id RETURN x.id",
    # rebinding the anchor's value to another user's
    "MATCH (x:Turn {{user_id: $user_id}}) WITH x MATCH (y:Turn {{user_id: x.user_id}}) "
    "RETURN count(y) AS n",
    "MATCH (x:Turn {{user_id: $user_id}}) WITH x.user_id + '' AS u "
    "MATCH (y:Turn {{user_id: u}}) RETURN count(y) AS n",
    "MATCH (u:User {{user_id: $user_id}}) WITH '{victim}' AS user_id "
    "MATCH (y:Turn {{user_id: user_id}}) RETURN count(y) AS n",
    "MATCH (u:User {{user_id: $user_id}}) MATCH (s:Session) WHERE s.user_id = u.user_id "
    "RETURN count(s) AS n",
    "MATCH (e:Entity) WHERE e.user_id = $`user_id AND x` RETURN e.name, $user_id",
    # backticked names that look like a seek predicate
    "MATCH (`x WHERE user_id = $user_id`:Entity) WHERE `x WHERE user_id = $user_id`.norm_name "
    "= 'denver' RETURN $user_id",
    # unicode and comments
    "MATCH (x:Turn {{user_id: $user_id}}) WHERE x.text = 'caf\u00e9 \u2014 \U0001f600' "
    "RETURN x.id",
    "MATCH (x:Turn {{user_id: $user_id}}) /* \u00e9 MATCH (y:Turn) */ RETURN count(x) AS n",
    "MATCH (x:Turn {{user_id: $user_id}}) // MATCH (y:Turn {{user_id: '{victim}'}})\n"
    "RETURN count(x) AS n",
    # Cypher 25 conditional and sequential queries
    "WHEN true THEN {{ MATCH (e:Entity {{user_id: $user_id}}) RETURN e.name AS n }} "
    "ELSE {{ MATCH (e:Entity {{user_id: '{victim}'}}) RETURN e.name AS n }}",
    "MATCH (e:Entity {{user_id: $user_id}}) RETURN e.name AS n NEXT "
    "MATCH (f:Entity {{user_id: '{victim}'}}) RETURN f.name AS m",
    # a very long query: many anchored OR-ed names
    "MATCH (e:Entity {{user_id: $user_id}}) WHERE " + " OR ".join(
        f"e.norm_name = 'n{i}'" for i in range(150)) + " RETURN count(e) AS n",
)] + [
    # parameters the caller sets: `user_id` overridden, look-alike names
    ("MATCH (e:Entity {{user_id: $user_id}}) RETURN e.name", {"user_id": "{victim}"}),
    ("MATCH (e:Entity {{user_id: $User_Id}}) RETURN e.name, $user_id", {"User_Id": "{victim}"}),
    ("MATCH (e:Entity) WHERE e.user_id = $`user_id AND x` RETURN e.name, $user_id",
     {"user_id AND x": "{victim}"}),
    ("MATCH (n:$($l) {{user_id: $user_id}}) RETURN n.name", {"l": "Entity"}),
]


def test_new_cypher_shapes_answer_alike_with_the_victim_present_or_forgotten(graph, pair):
    own, victim = pair
    memory = Memory(graph, embedder=FakeVectors())
    vt = _transcript(victim)
    vt.sessions.append(SessionRecord("canary", SCENARIO[-1][1], [
        TurnRecord("user", "My locker code is CANARY77Q."), TurnRecord("assistant", "Noted.")]))
    memory.ingest([_transcript(own), vt])
    shapes = [(q.format(victim=victim),
               {k: (v.format(victim=victim) if isinstance(v, str) else v) for k, v in p.items()})
              for q, p in HELD_SHAPES]
    present = [_outcome(graph, own, q, p) for q, p in shapes]
    for (q, _p), (result, _t) in zip(shapes, present, strict=True):
        text = json.dumps(result)
        assert victim not in text and "CANARY" not in text, f"{q} leaked: {text[:200]}"
    forget_user(graph, victim)
    gone = [_outcome(graph, own, q, p) for q, p in shapes]
    for (q, _p), a, b in zip(shapes, present, gone, strict=True):
        assert a == b, f"the victim changed the outcome of {q}: {a} vs {b}"
        assert a[1] == "fast", q


# Not strict: the planner's choice moves with the database's statistics, so it may hold by chance.
@pytest.mark.xfail(strict=False, reason=(
    "planner statistics oracle: the cost model counts every user's nodes and edges, so whether "
    "the plan starts at the caller's `user_id` seek (accepted) or at an unanchored unique-id seek "
    "(refused) depends on other users' data; an attacker learns their volume from refusals"))
def test_planner_statistics_do_not_decide_whether_a_query_is_refused(graph, pair):
    """`MATCH (t:Turn {user_id: $user_id})<-[:HAS_TURN]-(s:Session) WHERE s.id IN [k ids]`:
    the planner starts at `s.id` (NodeUniqueIndexSeek, refused) or at `t.user_id` (accepted)
    by comparing estimates made from every user's counts. A victim with one long session flips
    the choice for small k; forgetting them flips it back. Each phase plans afresh (its own
    alias), as an attacker's new query text would."""
    own, victim = pair
    memory = Memory(graph, embedder=FakeVectors())
    memory.ingest([_transcript(own), Transcript(victim, [SessionRecord(
        "long", SCENARIO[0][1], [TurnRecord("assistant", "ok") for _ in range(2000)])])])

    def ladder() -> list[str]:
        tag = uuid.uuid4().hex[:8]
        out = []
        for k in (1, 2, 4, 8, 16, 32, 64):
            ids = ", ".join(f"'session:{i:024x}'" for i in range(k))
            q = (f"MATCH (t:Turn {{user_id: $user_id}})<-[:HAS_TURN]-(s:Session) "
                 f"WHERE s.id IN [{ids}] RETURN count(t) AS n_{tag}")
            out.append(_outcome(graph, own, q)[0][0])
        return out

    present = ladder()
    forget_user(graph, victim)
    gone = ladder()
    assert present == gone, f"refusals with the victim {present}, without {gone}"


# --- 2. graphmem serve without keys --------------------------------------------------------------

@pytest.fixture(scope="module")
def open_port(neo4j_graph) -> Iterator[int]:
    port = free_port()
    proc = start_server(neo4j_graph.uri, port, None)
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}")
        yield port
    finally:
        stop(proc)


def _raw(port: int, method: str, target: str, headers: dict[str, str], body: bytes = b""
         ) -> int:
    """Status of one request sent byte for byte (headers exactly as given)."""
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    req = (f"{method} {target} HTTP/1.1\r\n{head}Content-Length: {len(body)}\r\n"
           "Connection: close\r\n\r\n").encode("latin-1") + body
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(req)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1])


@pytest.fixture
def web_user(neo4j_graph) -> Iterator[str]:
    u = f"test-probe3-{uuid.uuid4().hex[:10]}"
    yield u
    forget_user(neo4j_graph, u)


def _msg() -> bytes:
    return json.dumps({"messages": [{"role": "user", "content": "I moved to Atlantis."}]}).encode()


def _exists(graph, user: str) -> bool:
    return graph.read("user_exists", user_id=user)[0]["exists"]


def test_host_origin_and_type_variants_are_refused(open_port, web_user, neo4j_graph):
    port, own = open_port, f"127.0.0.1:{open_port}"
    path = f"/v1/users/{web_user}/sessions/s/messages"
    json_type = {"Content-Type": "application/json"}
    hosts = ["evil.example.", "EVIL.EXAMPLE", f"[::2]:{port}", f"[::ffff:127.0.0.1]:{port}",
             f"127.1:{port}", f"0.0.0.0:{port}", "localhost evil.example", "localhost,evil.example",
             f"localhost.evil.example.:{port}"]
    for host in hosts:
        assert _raw(port, "POST", path, {"Host": host, **json_type}, _msg()) == 421, host
    # absolute-form target naming the own host, with a foreign Host header
    assert _raw(port, "POST", f"http://{own}{path}", {"Host": "evil.example", **json_type},
                _msg()) == 421
    origins = ["null", "file://", "HTTP://EVIL.EXAMPLE", f"http://localhost:{port + 1}",
               "http://localhost", f"http://{own}@evil.example", f"http://{own} http://evil.example",
               "chrome-extension://abc", f"http://evil.example:{port}"]
    for origin in origins:
        assert _raw(port, "POST", path, {"Host": own, "Origin": origin, **json_type},
                    _msg()) == 403, origin
    for ctype in ("application/json-patch+json", "application/jsonx",
                  "multipart/form-data; boundary=x", "text/plain; application/json",
                  "application/json, text/plain", "text/plain, application/json", None):
        headers = {"Host": own, **({"Content-Type": ctype} if ctype else {})}
        assert _raw(port, "POST", path, headers, _msg()) == 415, ctype
    for method in ("HEAD", "OPTIONS", "TRACE", "PUT", "PATCH", "DELETE"):
        assert _raw(port, method, f"/v1/users/{web_user}",
                    {"Host": own, "Origin": "http://evil.example", **json_type}) == 403, method
    mcp = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    accept = {"Accept": "application/json, text/event-stream"}
    assert _raw(port, "POST", "/mcp", {"Host": own, "Origin": "http://evil.example",
                                       **json_type, **accept}, mcp) == 403
    assert _raw(port, "POST", "/mcp", {"Host": own, "Content-Type": "text/plain", **accept},
                mcp) == 415
    assert _raw(port, "GET", "/mcp", {"Host": own, "Origin": "http://evil.example",
                                      "Upgrade": "websocket", "Connection": "Upgrade",
                                      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                                      "Sec-WebSocket-Version": "13"}) == 403
    assert not _exists(neo4j_graph, web_user), "a refused request wrote memory"
    # what still passes: the own names, spelled in other cases, with a trailing dot, parameters
    for host, ctype in ((f"LOCALHOST:{port}", "application/json"),
                        (f"localhost.:{port}", "application/json; charset=utf-8; x=\"a;b\"")):
        assert _raw(port, "POST", path, {"Host": host, "Content-Type": ctype}, _msg()) == 200


def test_a_host_with_userinfo_is_a_foreign_host(open_port, web_user, neo4j_graph):
    port = open_port
    status = _raw(port, "POST", f"/v1/users/{web_user}/sessions/s/messages",
                  {"Host": f"localhost:{port}@evil.example", "Origin": "http://evil.example",
                   "Content-Type": "application/json"}, _msg())
    assert status == 421 and not _exists(neo4j_graph, web_user), status


def test_an_origin_with_userinfo_or_another_scheme_is_foreign(open_port, web_user, neo4j_graph):
    port, own = open_port, f"127.0.0.1:{open_port}"
    statuses = [_raw(port, "POST", f"/v1/users/{web_user}/sessions/s/messages",
                     {"Host": own, "Origin": origin, "Content-Type": "application/json"}, _msg())
                for origin in (f"http://evil.example@{own}", f"https://{own}")]
    assert statuses == [403, 403] and not _exists(neo4j_graph, web_user), statuses


# --- 3. graphmem import --------------------------------------------------------------------------

def _export(graph, user: str) -> list[str]:
    buf = io.StringIO()
    Memory(graph, embedder=FakeVectors()).export_user(user, buf)
    return buf.getvalue().splitlines()


def _import(graph, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([GRAPHMEM, "import", str(path)], capture_output=True, text=True,
                          env={**os.environ, "NEO4J_URI": graph.uri}, timeout=120)


def test_legacy_ids_squatting_the_victims_ids_change_nothing_of_theirs(graph, pair, tmp_path):
    """Carol's export with `legacy_id`s set to the victim's current turn id and future session
    id (legacy ids are not recomputed): whether it imports or not, the victim's `inspect` of
    their own ids, their next session and their counts are as before."""
    carol, victim = pair
    memory = Memory(graph, embedder=FakeVectors())
    memory.ingest([_transcript(carol), _transcript(victim)])
    lines = _export(graph, carol)
    forget_user(graph, carol)
    victim_turn = graph.read("user_turns", user_id=victim)[0]["id"]
    future = stable_id("session", victim, "live-9")
    out, squats = [], iter([victim_turn, future, victim])
    for ln in lines:
        rec = json.loads(ln)
        if rec.get("node") in ("Turn", "Session", "Entity") and "legacy_id" not in rec["props"]:
            nxt = next(squats, None)
            if nxt is not None:
                rec["props"]["legacy_id"] = nxt
        out.append(json.dumps(rec, sort_keys=True))
    path = tmp_path / "carol.jsonl"
    path.write_text("\n".join(out) + "\n")
    before = memory.stats(victim)
    done = _import(graph, path)
    assert "Traceback" not in done.stderr, done.stderr
    card = inspect(graph, victim, victim_turn)
    assert card["type"] == "turn" and card["turn"]["id"] == victim_turn
    assert memory.stats(victim) == before
    added = memory.append(victim, "live-9", [TurnRecord("user", "I live in Oslo.")])
    assert added.created and len(added.added) == 1
    assert cross_user_edges(graph) == 0


def test_a_header_user_equal_to_the_victims_turn_id_is_refused(graph, pair, tmp_path):
    """Cross-label squat: an export for a user whose id is the victim's turn id would put a User
    node on the id the victim's turn holds."""
    carol, victim = pair
    memory = Memory(graph, embedder=FakeVectors())
    memory.ingest([_transcript(victim), Transcript(carol, [SessionRecord(
        "c1", SCENARIO[0][1], [TurnRecord("user", "I have a dog.")])])])
    victim_turn = graph.read("user_turns", user_id=victim)[0]["id"]
    forget_user(graph, victim_turn)
    memory.ingest([Transcript(victim_turn, [SessionRecord(
        "c1", SCENARIO[0][1], [TurnRecord("user", "I have a dog.")])])])
    lines = _export(graph, victim_turn)
    forget_user(graph, victim_turn)
    path = tmp_path / "squat.jsonl"
    path.write_text("\n".join(lines) + "\n")
    before = memory.stats(victim)
    done = _import(graph, path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, (done.stdout, done.stderr)
    assert "nothing was imported" in done.stderr
    assert not graph.read("user_exists", user_id=victim_turn)[0]["exists"]
    assert inspect(graph, victim, victim_turn)["turn"]["id"] == victim_turn
    assert memory.stats(victim) == before
