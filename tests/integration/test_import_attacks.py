"""`graphmem import` of hostile files, run as the real command against the real Neo4j: ids that
squat another user's future ids, an id on two labels, counts that disagree with the turns, a
foreign user_id on an edge, values Neo4j refuses, an id already in the database. Each is one line
naming the record, exit 1, nothing written; the other user writes afterwards as before."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from graphmem.memory import Memory
from graphmem.models import TurnRecord, stable_id
from graphmem.store.admin import forget_user
from tests.helpers import FakeVectors, _transcript

GRAPHMEM = str(Path(sys.executable).with_name("graphmem"))


@pytest.fixture(scope="module")
def carol_lines(neo4j_graph) -> list[str]:
    """A genuine export of one user (written, exported, forgotten)."""
    carol = f"test-carol-{uuid.uuid4().hex[:8]}"
    memory = Memory(neo4j_graph, embedder=FakeVectors())
    memory.ingest([_transcript(carol)])
    buf = io.StringIO()
    memory.export_user(carol, buf)
    forget_user(neo4j_graph, carol)
    return buf.getvalue().splitlines()


@pytest.fixture
def people(neo4j_graph):
    made: list[str] = []

    def new(name: str) -> str:
        made.append(f"test-{name}-{uuid.uuid4().hex[:8]}")
        return made[-1]

    yield new
    for user_id in made:
        forget_user(neo4j_graph, user_id)


def _as(lines: list[str], user_id: str) -> list[str]:
    """The export as another user's, consistently: its ids rebuilt the way ingest builds them."""
    from graphmem.entities import entity_id

    old = json.loads(lines[0])["user_id"]
    nodes = [json.loads(ln)["props"] for ln in lines[1:] if "node" in json.loads(ln)]
    new_ids: dict[str, str] = {}
    for p in nodes:
        if p["id"].startswith("session:"):
            new_ids[p["id"]] = stable_id("session", user_id, p["source_id"])
        elif p["id"].startswith("turn:"):
            new_ids[p["id"]] = stable_id("turn", user_id, p["session_source_id"], p["idx"])
        elif p["id"].startswith("entity:"):
            new_ids[p["id"]] = entity_id(user_id, p["norm_name"])
    for p in nodes:
        if p["id"].startswith("piece:"):
            new_ids[p["id"]] = stable_id("piece", user_id, new_ids[p["turn_id"]], p["start"],
                                         p["end"])
        elif p["id"].startswith("fact:"):
            new_ids[p["id"]] = stable_id("fact", user_id, new_ids[p["turn_id"]], p["span_start"],
                                         p["predicate"], p.get("value"))
    text = "\n".join(lines).replace(json.dumps(old), json.dumps(user_id))
    for a, b in new_ids.items():
        text = text.replace(json.dumps(a), json.dumps(b))
    return text.splitlines()


def _import(graph, path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NEO4J_URI": graph.uri}
    return subprocess.run([GRAPHMEM, "import", str(path)], capture_output=True, text=True,
                          env=env, timeout=120)


def _nodes_of(graph, user_id: str, ids: list[str] = ()) -> int:
    with graph.session(read_only=True) as s:
        return s.run("MATCH (n) WHERE n.user_id = $u OR n.id IN $ids RETURN count(n) AS n",
                     u=user_id, ids=list(ids)).single()["n"]


def _refused(done: subprocess.CompletedProcess[str], path: Path, what: str) -> str:
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    line = lines[0]
    assert line.startswith(f"graphmem: error: {path}: line "), line
    assert line.endswith("nothing was imported"), line
    assert what in line, line
    return line


def _node_line(lines: list[str], label: str, pick: Callable[[dict[str, Any]], bool] = bool
               ) -> int:
    return next(i for i, ln in enumerate(lines)
                if json.loads(ln).get("node") == label and pick(json.loads(ln)["props"]))


def _edit(lines: list[str], i: int, change: Callable[[dict[str, Any]], None]) -> list[str]:
    rec = json.loads(lines[i])
    change(rec)
    return [*lines[:i], json.dumps(rec), *lines[i + 1:]]


def test_a_genuine_export_under_another_name_imports_and_both_users_write(
        graph, carol_lines, people, tmp_path) -> None:
    """The recomputing check accepts what ingest writes (here: a whole export re-keyed to a new
    user the way ingest keys it), and afterwards another user writes a session of the same
    source id as before."""
    carol, bob = people("carol"), people("bob")
    path = tmp_path / "carol.jsonl"
    path.write_text("\n".join(_as(carol_lines, carol)) + "\n")
    done = _import(graph, path)
    assert done.returncode == 0, done.stderr
    memory = Memory(graph, embedder=FakeVectors())
    assert memory.stats(carol)["sessions"] == sum('"node": "Session"' in ln for ln in carol_lines)
    out = memory.append(bob, "s1", [TurnRecord("user", "I live in Oslo.", source_id="b1")])
    assert out.created and len(out.added) == 1


def _squat_bob(lines: list[str], bob: str) -> tuple[list[str], list[str]]:
    """Carol's export with one session and its first turn moved onto bob's future ids (the file
    otherwise consistent: every reference follows)."""
    i = _node_line(lines, "Session")
    session = json.loads(lines[i])["props"]
    first = next(json.loads(ln)["props"] for ln in lines
                 if json.loads(ln).get("node") == "Turn"
                 and json.loads(ln)["props"]["session_id"] == session["id"]
                 and json.loads(ln)["props"]["idx"] == 1)
    squat = {session["id"]: stable_id("session", bob, "live-1"),
             first["id"]: stable_id("turn", bob, "live-1", 1)}
    text = "\n".join(lines)
    for a, b in squat.items():
        text = text.replace(json.dumps(a), json.dumps(b))
    return text.splitlines(), list(squat.values())


def test_import_cannot_squat_another_users_future_ids(graph, carol_lines, people,
                                                      tmp_path) -> None:
    carol, bob = people("carol"), people("bob")
    lines, squatted = _squat_bob(_as(carol_lines, carol), bob)
    path = tmp_path / "squat.jsonl"
    path.write_text("\n".join(lines) + "\n")
    line = _refused(_import(graph, path), path, "is not the id its user")
    assert squatted[0] in line or squatted[1] in line
    assert _nodes_of(graph, carol, squatted) == 0
    # bob writes the session the file aimed at, through Memory (HTTP and MCP go through it)
    memory = Memory(graph, embedder=FakeVectors())
    out = memory.append(bob, "live-1", [TurnRecord("user", "I live in Oslo.", source_id="m1")])
    assert out.created and out.session_id == squatted[0] and out.added[0].id == squatted[1]
    assert memory.inspect(bob, "m1") is not None


def _foreign_edge_user(lines: list[str], bob: str) -> list[str]:
    i = next(i for i, ln in enumerate(lines) if json.loads(ln).get("edge") == "HAS_TURN")
    return _edit(lines, i, lambda r: r["props"].update(user_id=bob))


def _turn_count(lines: list[str], _bob: str) -> list[str]:
    return _edit(lines, _node_line(lines, "Session"),
                 lambda r: r["props"].update(turn_count=r["props"]["turn_count"] + 1))


def _id_on_two_labels(lines: list[str], _bob: str) -> list[str]:
    """An Entity whose id is one of the file's fact ids (references follow)."""
    fact = json.loads(lines[_node_line(lines, "FactEvent")])["props"]["id"]
    entity = json.loads(lines[_node_line(lines, "Entity")])["props"]["id"]
    return "\n".join(lines).replace(json.dumps(entity), json.dumps(fact)).splitlines()


def _legacy_id_of_another_node(lines: list[str], _bob: str) -> list[str]:
    turn = json.loads(lines[_node_line(lines, "Turn")])["props"]["id"]
    return _edit(lines, _node_line(lines, "FactEvent"),
                 lambda r: r["props"].update(legacy_id=turn))


def _wrong_session_of_turn(lines: list[str], _bob: str) -> list[str]:
    sessions = [json.loads(ln)["props"]["id"] for ln in lines
                if json.loads(ln).get("node") == "Session"]
    i = _node_line(lines, "Turn")
    other = next(s for s in sessions if s != json.loads(lines[i])["props"]["session_id"])
    return _edit(lines, i, lambda r: r["props"].update(session_id=other))


@pytest.mark.parametrize(("make", "what"), [
    (_foreign_edge_user, "does not belong to user"),
    (_turn_count, "has turn_count"),
    (_id_on_two_labels, "appears twice"),
    (_legacy_id_of_another_node, "legacy_id"),
    (_wrong_session_of_turn, "session_id or idx disagree"),
], ids=["edge-user-id", "turn-count", "id-on-two-labels", "legacy-id", "turn-session"])
def test_an_inconsistent_export_is_one_line_and_writes_nothing(
        graph, carol_lines, people, tmp_path, make, what) -> None:
    carol, bob = people("carol"), people("bob")
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(make(_as(carol_lines, carol), bob)) + "\n")
    _refused(_import(graph, path), path, what)
    assert _nodes_of(graph, carol) == 0 and _nodes_of(graph, bob) == 0


def test_an_id_shared_with_another_users_node_is_refused(graph, carol_lines, people,
                                                         tmp_path) -> None:
    """Uniqueness is per label in Neo4j, so an Entity holding bob's fact id would have been
    stored; it is not the id carol's entity has, so it is refused."""
    carol, bob = people("carol"), people("bob")
    memory = Memory(graph, embedder=FakeVectors())
    memory.append(bob, "b", [TurnRecord("user", "I live in Oslo.", source_id="b1")])
    bob_fact = memory.facts(bob, history=True)[0].id
    lines = _as(carol_lines, carol)
    entity = json.loads(lines[_node_line(lines, "Entity")])["props"]["id"]
    lines = "\n".join(lines).replace(json.dumps(entity), json.dumps(bob_fact)).splitlines()
    path = tmp_path / "shared.jsonl"
    path.write_text("\n".join(lines) + "\n")
    _refused(_import(graph, path), path, "is not the id its user")
    assert _nodes_of(graph, carol) == 0
    assert memory.inspect(bob, bob_fact) is not None


# --- values and ids Neo4j itself refuses (tracebacks before) ----------------------------------


def _turn_prop(value: Any) -> Callable[[list[str]], list[str]]:
    def make(lines: list[str]) -> list[str]:
        return _edit(lines, _node_line(lines, "Turn"), lambda r: r["props"].update(extra=value))
    return make


def _edge_end_list(lines: list[str]) -> list[str]:
    i = next(i for i, ln in enumerate(lines) if json.loads(ln).get("edge") == "HAS_TURN")
    return _edit(lines, i, lambda r: r.update(to=["Turn", [r["to"][1]]]))


@pytest.mark.parametrize(("make", "what"), [
    (_turn_prop([["a"], ["b"]]), "a list inside a list"),
    (_turn_prop([1, "a"]), "a list mixes integer and string values"),
    (_turn_prop(2 ** 63), "does not fit in 64 bits"),
    (_turn_prop({"$datetime": 5}), "a map"),
    (_turn_prop({"$datetime": "yesterday"}), "cannot read 'yesterday' as a datetime"),
    (_edge_end_list, "[label, id], two strings"),
    (lambda lines: _edit(lines, _node_line(lines, "Turn"), lambda r: r["props"].update({"": 1})),
     "an empty property name"),
    (_turn_prop("\ud800"), "unpaired surrogate"),
], ids=["nested-list", "mixed-list", "int-2^63", "datetime-not-text", "bad-datetime",
        "edge-end-list", "empty-key", "lone-surrogate"])
def test_values_neo4j_refuses_are_one_line(graph, carol_lines, people, tmp_path, make,
                                           what) -> None:
    carol = people("carol")
    lines = make(_as(carol_lines, carol))
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    _refused(_import(graph, path), path, what)
    assert _nodes_of(graph, carol) == 0


def test_an_id_already_in_the_database_is_one_line_and_writes_nothing(
        graph, carol_lines, people, tmp_path) -> None:
    """Carol's nodes left in the database without her User node (so she does not "exist"): the
    file's ids are taken; the import says which and writes nothing (no ConstraintError)."""
    carol = people("carol")
    path = tmp_path / "carol.jsonl"
    path.write_text("\n".join(_as(carol_lines, carol)) + "\n")
    assert _import(graph, path).returncode == 0
    with graph.session() as s:
        s.run("MATCH (u:User {id: $u}) DETACH DELETE u", u=carol).consume()
    before = _nodes_of(graph, carol)
    line = _refused(_import(graph, path), path, "is already in this database")
    assert "node id 'session:" in line or "node id 'turn:" in line or "node id '" in line
    assert _nodes_of(graph, carol) == before
    with graph.session(read_only=True) as s:
        assert s.run("MATCH (u:User {id: $u}) RETURN count(u) AS n", u=carol).single()["n"] == 0
