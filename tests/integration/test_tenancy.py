"""Tenant isolation under attack: ids that cannot collide across users, writes that refuse to take
over another user's node, the id migration, and `cypher_read` against an adversarial corpus run
on a database of decoy users who said the same words."""

from __future__ import annotations

import json
import uuid

import pytest
from click.testing import CliRunner
from neo4j.exceptions import ConstraintError

from graphmem.answer import CypherRefused, cypher_read
from graphmem.cli import main
from graphmem.history import inspect
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord, legacy_stable_id, stable_id
from graphmem.store.admin import cross_user_edges, forget_user
from tests.helpers import SCENARIO, FakeVectors, _transcript
from tests.integration import cypher_attacks as attacks


def _jsonl(path, user, session, text):
    path.write_text(json.dumps({"user_id": user, "session_id": session, "role": "user",
                                "session_time": "2024-01-10T09:00:00Z", "content": text}) + "\n")
    return str(path)


def test_ids_with_separator_characters_do_not_collide_across_users(graph, tmp_path, monkeypatch):
    victim = f"victim-{uuid.uuid4().hex[:8]}"
    attacker = victim + "\x1fs"
    assert stable_id("session", victim, "s\x1f1") != stable_id("session", attacker, "1")
    assert stable_id("turn", victim, "s\x1f1", 1) != stable_id("turn", attacker, "1", 1)
    assert legacy_stable_id("turn", victim, "s\x1f1", 1) == legacy_stable_id("turn", attacker, "1", 1)
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    runner = CliRunner()
    try:
        first = runner.invoke(main, ["ingest", _jsonl(tmp_path / "v.jsonl", victim, "s\x1f1",
                                                      "My bank PIN is 4821.")])
        assert first.exit_code == 0, first.output
        second = runner.invoke(main, ["ingest", _jsonl(tmp_path / "a.jsonl", attacker, "1",
                                                       "I live in Denver.")])
        assert second.exit_code == 0, second.output
        stats = runner.invoke(main, ["stats", "--user", victim])
        assert "sessions=1 turns=1" in stats.output, stats.output
        texts = {u: [t["text"] for t in graph.read("user_turns", user_id=u)]
                 for u in (victim, attacker)}
        assert texts[victim] == ["My bank PIN is 4821."]
        assert texts[attacker] == ["I live in Denver."]
        out = cypher_read(graph, attacker, "MATCH (u:User {user_id: $user_id})-[:HAS_SESSION]->()"
                          "-[:HAS_TURN]->(t) RETURN t.text AS text")
        assert [r["text"] for r in out["rows"]] == ["I live in Denver."]
        assert cross_user_edges(graph) == 0
    finally:
        forget_user(graph, victim)
        forget_user(graph, attacker)


def test_a_write_never_takes_over_another_users_node(graph, user_id):
    """Defence in depth: even a forced id collision fails (constraint) instead of overwriting."""
    Memory(graph, embedder=FakeVectors()).ingest([_transcript(user_id)])
    victim_turn = graph.read("user_turns", user_id=user_id)[0]
    other = user_id + "-other"
    try:
        graph.write("ingest_session", user_id=other, session={
            "id": stable_id("session", other, "x"), "source_id": "x", "started_at": None,
            "turn_count": 1, "content_hash": "h"}, rules=None)
        with pytest.raises(ConstraintError):
            graph.write("ingest_turns", user_id=other, session_id=stable_id("session", other, "x"),
                        turns=[{"id": victim_turn["id"], "source_id": "x_1", "idx": 1,
                                "role": "user", "speaker": None, "text": "owned",
                                "embedding": None}])
        again = {t["id"]: t["text"] for t in graph.read("user_turns", user_id=user_id)}
        assert again[victim_turn["id"]] == victim_turn["text"]
    finally:
        forget_user(graph, other)


def test_migration_rekeys_old_ids_in_place_and_keeps_them_resolvable(graph, user_id, monkeypatch):
    import importlib

    rekey = importlib.import_module("graphmem.schema.0005_rekey_ids")
    for module in ("graphmem.ingest", "graphmem.session_plan", "graphmem.segment",
                   "graphmem.entities", "graphmem.retrieval.tunnels"):
        monkeypatch.setattr(f"{module}.stable_id", legacy_stable_id)
    memory = Memory(graph, embedder=FakeVectors())
    memory.ingest([_transcript(user_id)])
    before = memory.stats(user_id)
    old_turns = {t["source_id"]: t["id"] for t in graph.read("user_turns", user_id=user_id)}
    monkeypatch.undo()

    done = rekey.migrate(graph)
    assert done["users"] >= 1 and done["turns"] >= len(old_turns)
    assert rekey.migrate(graph)["users"] == 0  # a second run changes nothing
    after = {t["source_id"]: t for t in graph.read("user_turns", user_id=user_id)}
    first_session = SCENARIO[0][0]
    assert after[f"{first_session}_1"]["id"] == stable_id("turn", user_id, first_session, 1)
    assert memory.stats(user_id) == before
    # re-ingesting with the new ids finds every session already stored, unchanged
    report = memory.ingest([_transcript(user_id)])
    assert report.sessions == 0 and report.sessions_unchanged == len(SCENARIO)
    assert memory.stats(user_id) == before
    # an id cited before the migration still opens the same turn
    card = inspect(graph, user_id, old_turns[f"{first_session}_1"])
    assert card["type"] == "turn" and card["turn"]["id"] == after[f"{first_session}_1"]["id"]
    assert cross_user_edges(graph) == 0


# --- cypher_read against decoys ------------------------------------------------------------------

DECOYS = ["decoy-0", "decoy-1", "decoy-2"]


def _decoy_transcript(uid: str, k: int) -> Transcript:
    t = _transcript(uid)
    t.sessions.append(SessionRecord("canary", SCENARIO[-1][1], [
        TurnRecord("user", f"My locker code is CANARY{k}Q."), TurnRecord("assistant", "Noted.")]))
    return t


def _key(rows):
    return sorted(json.dumps(r, sort_keys=True, default=str) for r in rows)


REFUSALS: dict[str, str] = {}


def _run(graph, uid, query, params):
    # The time budget is the machine's, not the oracle's: a loaded CI machine must not turn an
    # honest query into a refusal (the product keeps its 3 s budget).
    try:
        return cypher_read(graph, uid, query, params, max_rows=100_000, timeout_s=60.0)["rows"]
    except CypherRefused as refusal:
        REFUSALS[query] = str(refusal)
        return None


def _totals(graph):
    with graph.session(read_only=True) as s:
        return s.run("MATCH (n) WITH count(n) AS nodes MATCH ()-[r]->() "
                     "RETURN nodes, count(r) AS edges").single().data()


def test_adversarial_cypher_corpus_reads_nothing_of_other_users(graph):
    own = f"own-{uuid.uuid4().hex[:8]}"
    memory = Memory(graph, embedder=FakeVectors())
    for d in DECOYS:
        forget_user(graph, d)
    try:
        memory.ingest([_transcript(own)] + [_decoy_transcript(d, k) for k, d in enumerate(DECOYS)])
        decoy_ids = {t["id"] for d in DECOYS for t in graph.read("user_turns", user_id=d)}
        markers = [*DECOYS, "CANARY", *decoy_ids]
        params = {"names": ["Denver", "Seattle"], "key": "user_id", "victim": "decoy-0"}
        before = _totals(graph)

        for query in attacks.WRITES:
            assert _run(graph, own, query, {}) is None, f"write not refused: {query}"
        assert _totals(graph) == before, "the database changed"

        corpus = [(q, {**params, **p}) for q, p in attacks.READS]
        assert len(corpus) + len(attacks.WRITES) >= 150
        results = [(q, p, _run(graph, own, q, p)) for q, p in corpus]
        honest = [(q, params, _run(graph, own, q, params)) for q in attacks.HONEST]
        for q, _p, rows in honest:
            assert rows, f"an honest query was refused or empty: {q} ({REFUSALS.get(q)})"
        accepted = [r for r in results + honest if r[2] is not None]
        for q, _p, rows in accepted:
            text = json.dumps(rows, default=str)
            leaked = [m for m in markers if m in text]
            assert not leaked, f"{q} returned another user's data: {leaked[:3]}"
        refused = len(results) - sum(r[2] is not None for r in results)
        print(f"cypher corpus: {len(results)} reads, {refused} refused, "
              f"{len(results) - refused} accepted; {len(attacks.WRITES)} writes refused; "
              f"{len(honest)} honest accepted")

        # The oracle: with the decoys gone, every accepted query returns exactly the same rows.
        for d in DECOYS:
            forget_user(graph, d)
        for q, p, rows in results + honest:
            alone = _run(graph, own, q, p)
            # refused either way, or the same rows: nothing (not even an error) tells of decoys
            assert (alone is None) == (rows is None), f"decoys changed whether it runs: {q}"
            if rows is not None:
                assert _key(alone) == _key(rows), f"decoys changed the rows: {q}"
    finally:
        for d in (own, *DECOYS):
            forget_user(graph, d)


def test_a_user_id_equal_to_another_users_node_id_reaches_nothing_of_theirs(graph, user_id):
    """A relation's subject is the User node or an Entity, found by id: an attacker whose user id
    equals the victim's entity id must not draw an edge from the victim's entity."""
    memory = Memory(graph, embedder=FakeVectors())
    memory.ingest([_transcript(user_id)])
    victim_entity = graph.read("inspect_node", user_id=user_id, id="Denver",
                               norm_name="denver")[0]["id"]
    before = memory.stats(user_id)
    try:
        memory.ingest([Transcript(victim_entity, [SessionRecord("s1", SCENARIO[0][1], [
            TurnRecord("user", "I live in Denver."), TurnRecord("user", "I work at Acme.")])])])
        assert cross_user_edges(graph) == 0
        assert memory.stats(user_id) == before
    finally:
        forget_user(graph, victim_entity)


def test_doctor_counts_edges_that_join_two_users(graph, user_id, monkeypatch):
    Memory(graph, embedder=FakeVectors()).ingest([_transcript(user_id)])
    other = user_id + "-b"
    Memory(graph, embedder=FakeVectors()).ingest([_transcript(other)])
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    runner = CliRunner()
    try:
        ok = runner.invoke(main, ["doctor", "--json"])
        report = json.loads(ok.stdout)
        assert report["cross_user_edges"] == 0 and report["half_written_sessions"] == 0
        assert {c["name"] for c in report["checks"] if c["ok"]} >= {"neo4j", "schema", "tenancy",
                                                                     "embedder", "llm"}
        with graph.session() as s:  # what no graphmem query can do: join two users
            s.run("MATCH (a:Turn {user_id: $a}), (b:Turn {user_id: $b}) WITH a, b LIMIT 1 "
                  "CREATE (a)-[:NEXT]->(b)", a=user_id, b=other).consume()
        bad = runner.invoke(main, ["doctor", "--json"])
        report = json.loads(bad.stdout)
        assert bad.exit_code == 1 and report["cross_user_edges"] == 1
        failed = [c for c in report["checks"] if not c["ok"]]
        # (the currency check may fail too: a shared database may hold users decided by other
        # rules, or from before the rules were recorded)
        tenancy = [c for c in failed if c["name"] == "tenancy"]
        assert {c["name"] for c in failed} <= {"tenancy", "currency"} and tenancy[0]["fix"]
    finally:
        forget_user(graph, other)


# --- oracles: nothing of the answer, the error or the time tells of another user -----------------

def _outcome(graph, uid, query, params):
    """(rows or the refusal's first words, time class) of one run."""
    import time
    start = time.perf_counter()
    try:
        result = ("rows", _key(cypher_read(graph, uid, query, params, max_rows=100_000)["rows"]))
    except CypherRefused as err:
        result = ("refused", str(err).split("(")[0])
    elapsed = time.perf_counter() - start
    return result, ("fast" if elapsed < 1.0 else "slow")


def test_oracles_answer_alike_with_the_victim_present_or_forgotten(graph):
    """The second probe's oracle family: each query asks about a victim whose dense subgraph would
    make an expansion run into the time limit. Refused or answered, the outcome and its time class
    are the same with the victim present and forgotten."""
    own, victim = f"own-{uuid.uuid4().hex[:8]}", f"victim-{uuid.uuid4().hex[:8]}"
    memory = Memory(graph, embedder=FakeVectors())
    lo_hi = {"lo": "user|lives_in", "hi": "user|lives_io"}
    big = _transcript(victim)
    for k in range(12):  # a dense subgraph: every session names Denver again
        big.sessions.append(SessionRecord(f"x{k}", SCENARIO[-1][1], [
            TurnRecord("user", f"I live in Denver and I work at Acme Robotics, note {k}."),
            TurnRecord("assistant", "Noted."),
            TurnRecord("user", f"My favorite restaurant in Denver is Sushi Den {k}.")]))
    try:
        memory.ingest([_transcript(own), big])
        queries = [q.format(victim=victim) for q in attacks.ORACLES]
        present = [_outcome(graph, own, q, lo_hi) for q in queries]
        forget_user(graph, victim)
        gone = [_outcome(graph, own, q, lo_hi) for q in queries]
        for q, a, b in zip(queries, present, gone, strict=True):
            assert a == b, f"the victim changed the outcome of {q}: {a} vs {b}"
            assert a[1] == "fast", f"{q} took the slow class"
        refused = sum(a[0][0] == "refused" for a in present)
        print(f"oracles: {len(queries)}, {refused} refused, {len(queries) - refused} answered alike")
    finally:
        forget_user(graph, own)
        forget_user(graph, victim)
