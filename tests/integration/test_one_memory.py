"""One memory at a time through `Memory`, against a real Neo4j: delete or redact one turn (its
pieces and facts go, its slots are decided again as if it had never been said), mark a fact wrong
(kept in history as invalid, with who said so), list sessions and turns by cursor, get one fact
or turn — and another user's ids refused exactly like unknown ones."""

from __future__ import annotations

import pytest

from graphmem.errors import OutOfBounds, UnknownId, UnknownUser
from graphmem.memory import MAX_PAGE, Memory
from graphmem.models import TurnRecord
from graphmem.store.admin import half_written_sessions
from tests.helpers import FakeVectors, dt

MOVES = [("s1", dt(2024, 1, 10), "m1", "I live in Denver."),
         ("s2", dt(2024, 3, 10), "m2", "I moved to Boulder."),
         ("s3", dt(2024, 6, 10), "m3", "I moved to Portland.")]


def _said(mem: Memory, user: str, moves=MOVES) -> None:
    for session, when, turn_id, text in moves:
        mem.append(user, session, [TurnRecord("user", text, source_id=turn_id),
                                   TurnRecord("assistant", "Noted.", source_id=turn_id + "-a")],
                   session_time=when)


def _lives(mem: Memory, user: str) -> list[tuple]:
    """The lives_in slot as a comparable history: value, status, interval, what it replaced."""
    facts = mem.timeline(user, predicate="lives_in")
    by_id = {f.id: f.value for f in facts}
    return [(f.value, f.status, f.valid_from, f.valid_until,
             sorted((c.type, by_id.get(c.id)) for c in f.changes)) for f in facts]


def _snapshot(mem: Memory, user: str) -> tuple:
    """Everything of a user an operation on someone else must leave as it was."""
    turns = [t.to_dict() for t in mem.list_turns(user, limit=MAX_PAGE).items]
    facts = [f.to_dict() for f in mem.facts(user, history=True)]
    return mem.stats(user), turns, facts


def test_deleting_a_turn_decides_its_slot_as_if_it_had_never_been_said(graph, new_user):
    mem = Memory(graph, embedder=FakeVectors())
    chain, never = new_user(), new_user()
    _said(mem, chain)
    _said(mem, never, [MOVES[0], MOVES[2]])  # the same, without the middle move
    assert [(v, s) for v, s, *_ in _lives(mem, chain)] == [
        ("Denver", "superseded"), ("Boulder", "superseded"), ("Portland", "active")]
    boulder = mem.get_turn(chain, "m2")
    done = mem.delete_turn(chain, "m2")
    assert done.turn_id == boulder.id and done.facts == boulder.fact_ids and not done.redacted
    assert done.slots == ["user|lives_in"] and done.pieces == 1
    assert _lives(mem, chain) == _lives(mem, never)  # Portland SUPERSEDES Denver, nothing else
    with pytest.raises(UnknownId):
        mem.get_turn(chain, "m2")
    with pytest.raises(UnknownId):
        mem.get_fact(chain, boulder.fact_ids[0])
    # The NEXT chain of the session is joined around a deleted turn; here it held two turns.
    mem.append(chain, "s2", [TurnRecord("user", "Nice weather.", source_id="m2-b")])
    with graph.session(read_only=True) as s:
        chain_rows = s.run("MATCH (a:Turn {user_id: $u})-[:NEXT]->(b:Turn) "
                           "RETURN a.source_id AS a, b.source_id AS b ORDER BY a", u=chain).data()
    assert {"a": "m2-a", "b": "m2-b"} in chain_rows and all("m2" not in r.values()
                                                            for r in chain_rows)
    # Deleting the current value makes the one before it current again, open-ended.
    mem.delete_turn(chain, "m3")
    assert [(v, s, until) for v, s, _f, until, _c in _lives(mem, chain)] == [
        ("Denver", "active", None)]
    assert [f.value for f in mem.facts(chain, predicate="lives_in")] == ["Denver"]
    assert half_written_sessions(graph, chain) == 0


def test_deleting_a_middle_turn_joins_the_chain_and_drops_orphan_entities(graph, user_id,
                                                                         tmp_path):
    mem = Memory(graph, embedder=FakeVectors())
    mem.append(user_id, "s1", [TurnRecord("user", "I live in Denver.", source_id="a"),
                               TurnRecord("user", "My dog is called Biscuit.", source_id="b"),
                               TurnRecord("user", "I work at Acme Robotics.", source_id="c")],
               session_time=dt(2024, 1, 10))
    entities_before = mem.stats(user_id)["entities"]
    done = mem.delete_turn(user_id, "b")
    assert done.entities >= 1 and mem.stats(user_id)["entities"] == entities_before - done.entities
    with graph.session(read_only=True) as s:
        rows = s.run("MATCH (a:Turn {user_id: $u})-[:NEXT]->(b:Turn) "
                     "RETURN a.source_id AS a, b.source_id AS b", u=user_id).data()
        names = s.run("MATCH (e:Entity {user_id: $u}) RETURN e.name AS n", u=user_id).value()
    assert rows == [{"a": "a", "b": "c"}] and "Biscuit" not in names
    # The last turn gone, an append chains after the one before it and takes a new position.
    mem.delete_turn(user_id, "c")
    r = mem.append(user_id, "s1", [TurnRecord("user", "I have two cats.", source_id="d")])
    assert r.added[0].idx == 4
    with graph.session(read_only=True) as s:
        rows = s.run("MATCH (a:Turn {user_id: $u})-[:NEXT]->(b:Turn) "
                     "RETURN a.source_id AS a, b.source_id AS b", u=user_id).data()
    assert rows == [{"a": "a", "b": "d"}]
    assert half_written_sessions(graph, user_id) == 0
    # An export of a session with deleted positions imports to the identical graph.
    path = tmp_path / "u.jsonl"
    with path.open("w") as out:
        exported = mem.export_user(user_id, out)
    mem.forget(user_id)
    assert mem.import_user(path)["checksum"] == exported["checksum"]


def test_deleting_a_retraction_brings_back_what_it_retracted(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    _said(mem, user_id, [MOVES[0], ("s2", dt(2024, 7, 1), "p", "I live in Portland."),
                         ("s3", dt(2024, 7, 20), "r", "Actually, I don't live in Portland.")])
    portland = next(f for f in mem.facts(user_id, history=True) if f.value == "Portland"
                    and f.modality == "asserted")
    assert portland.status == "invalid" and portland.invalidation is None  # retracted by words
    mem.delete_turn(user_id, "r")
    assert mem.get_fact(user_id, portland.id).status == "active"
    assert [f.value for f in mem.facts(user_id, predicate="lives_in")] == ["Portland"]


def test_redacting_a_turn_keeps_its_place_and_drops_its_words(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    _said(mem, user_id)
    turn = mem.get_turn(user_id, "m3")
    done = mem.redact_turn(user_id, "m3")
    assert done.redacted and done.facts == turn.fact_ids
    after = mem.get_turn(user_id, "m3")
    assert (after.id, after.idx, after.mentioned_at) == (turn.id, turn.idx, turn.mentioned_at)
    assert after.text == "[redacted]" and after.redacted_at is not None and after.fact_ids == []
    assert [f.value for f in mem.facts(user_id, predicate="lives_in")] == ["Boulder"]
    assert not any("Portland" in t.text for t in mem.list_turns(user_id, limit=MAX_PAGE).items)
    with graph.session(read_only=True) as s:
        left = s.run("MATCH (t:Turn {id: $id}) OPTIONAL MATCH (t)-[:HAS_PIECE]->(p) "
                     "RETURN t.embedding IS NULL AS no_vector, count(p) AS pieces",
                     id=turn.id).single()
    assert left["no_vector"] and left["pieces"] == 0
    assert half_written_sessions(graph, user_id) == 0


def test_a_fact_marked_wrong_stays_in_history_and_the_earlier_value_is_current(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    _said(mem, user_id)
    portland = mem.facts(user_id, predicate="lives_in")[0]
    assert portland.value == "Portland"
    marked = mem.invalidate_fact(user_id, portland.id, by="agent:test", reason="user: not true")
    assert marked.status == "invalid" and marked.valid_until == marked.valid_from
    assert (marked.invalidation.by, marked.invalidation.reason) == ("agent:test",
                                                                    "user: not true")
    assert marked.invalidation.at is not None and marked.changes == []
    assert [f.value for f in mem.facts(user_id, predicate="lives_in")] == ["Boulder"]
    history = {f.value: f for f in mem.facts(user_id, history=True, predicate="lives_in")}
    assert {v: f.status for v, f in history.items()} == {
        "Denver": "superseded", "Boulder": "active", "Portland": "invalid"}
    assert history["Portland"].invalidation.by == "agent:test"
    assert history["Boulder"].valid_until is None
    # Marking it again keeps the first mark; a later move is decided without the wrong fact.
    again = mem.invalidate_fact(user_id, portland.id, by="someone else")
    assert again.invalidation == marked.invalidation
    _said(mem, user_id, [("s4", dt(2024, 9, 1), "m4", "I moved to Seattle.")])
    history = {f.value: f.status for f in mem.facts(user_id, history=True, predicate="lives_in")}
    assert history == {"Denver": "superseded", "Boulder": "superseded", "Portland": "invalid",
                       "Seattle": "active"}
    seattle = next(f for f in mem.timeline(user_id, predicate="lives_in") if f.value == "Seattle")
    assert [c.id for c in seattle.changes] == [history_id(mem, user_id, "Boulder")]
    # As known on a day after the mark, the wrong fact is not current either.
    known = mem.facts(user_id, question_date=dt(2024, 8, 1), predicate="lives_in")
    assert [f.value for f in known] == ["Boulder"]


def history_id(mem: Memory, user: str, value: str) -> str:
    return next(f.id for f in mem.facts(user, history=True) if f.value == value)


def test_another_users_ids_are_refused_like_unknown_ones_and_nothing_of_theirs_changes(
        graph, new_user):
    mem = Memory(graph, embedder=FakeVectors())
    victim, attacker = new_user(), new_user()
    _said(mem, victim)
    _said(mem, attacker, [MOVES[0]])
    before = _snapshot(mem, victim)
    turn = mem.get_turn(victim, "m3")
    fact_id = turn.fact_ids[0]
    session = mem.list_sessions(victim).items[0].id

    def refusal(call, *args, **kwargs) -> str:
        with pytest.raises(UnknownId) as exc:
            call(attacker, *args, **kwargs)
        return str(exc.value)

    for theirs, unknown in ((turn.id, "turn:000000000000000000000000"), ("m3", "m9")):
        for call in (mem.get_turn, mem.delete_turn, mem.redact_turn):
            assert refusal(call, theirs) == refusal(call, unknown).replace(unknown, theirs)
    for call in (mem.get_fact, mem.invalidate_fact):
        assert refusal(call, fact_id) == refusal(call, "fact:0").replace("fact:0", fact_id)
    assert refusal(mem.list_turns, session_id="s3") == refusal(
        mem.list_turns, session_id="s9").replace("s9", "s3")
    assert all(t.session_id != session for t in mem.list_turns(attacker).items)
    assert _snapshot(mem, victim) == before
    with pytest.raises(UnknownUser):
        mem.delete_turn(victim + "-nobody", "m3")
    assert _snapshot(mem, victim) == before


def test_pages_cover_every_turn_and_session_exactly_once(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    sent = []
    for k in range(7):  # sessions sent out of date order, with 1 to 3 turns each
        turns = [TurnRecord("user", f"Note {k}-{i}.", source_id=f"t{k}-{i}")
                 for i in range(1 + k % 3)]
        mem.append(user_id, f"s{k}", turns, session_time=dt(2024, 1 + (k * 5) % 7, 1))
        sent += [t.source_id for t in turns]
    mem.append(user_id, "s0", [TurnRecord("user", "Later note.", source_id="t0-late")])
    sent.append("t0-late")

    def walk(limit, **kw):
        seen, cursor, pages = [], None, 0
        while True:
            page = mem.list_turns(user_id, cursor=cursor, limit=limit, **kw)
            seen += page.items
            pages += 1
            if page.next_cursor is None:
                return seen, pages
            cursor = page.next_cursor

    turns, pages = walk(3)
    ids = [t.source_id for t in turns]
    assert sorted(ids) == sorted(sent) and len(ids) == len(set(ids)) and pages == 5  # 14 turns
    order = [(t.session_source_id, t.idx) for t in turns]
    starts = {s.source_id: s.started_at for s in mem.list_sessions(user_id, limit=MAX_PAGE).items}
    assert order == sorted(order, key=lambda x: (starts[x[0]], x[0], x[1]))
    assert [t.source_id for t in walk(MAX_PAGE)[0]] == ids
    assert [t.source_id for t in walk(1, session_id="s0")[0]] == ["t0-0", "t0-late"]
    sessions, cursor = [], None
    while True:
        page = mem.list_sessions(user_id, cursor=cursor, limit=2)
        sessions += [s.source_id for s in page.items]
        if not (cursor := page.next_cursor):
            break
    assert sorted(sessions) == [f"s{k}" for k in range(7)]
    assert [s.started_at for s in page.items] == sorted(s.started_at for s in page.items)
    # A turn deleted between pages is simply not there; nothing repeats or is skipped.
    first = mem.list_turns(user_id, limit=4)
    mem.delete_turn(user_id, ids[5])
    rest, cursor = [], first.next_cursor
    while cursor:
        page = mem.list_turns(user_id, cursor=cursor, limit=4)
        rest += [t.source_id for t in page.items]
        cursor = page.next_cursor
    assert [t.source_id for t in first.items] + rest == ids[:5] + ids[6:]
    for bad in ({"limit": 0}, {"limit": MAX_PAGE + 1}, {"cursor": "not-a-cursor"},
                {"cursor": mem.list_sessions(user_id, limit=1).next_cursor}):
        with pytest.raises(OutOfBounds):
            mem.list_turns(user_id, **bad)
    with pytest.raises(UnknownUser):
        mem.list_sessions(user_id + "-nobody")


def test_the_cli_lists_gets_forgets_and_marks_wrong(graph, new_user, monkeypatch):
    import json

    from click.testing import CliRunner

    from graphmem.cli import main

    mem = Memory(graph, embedder=FakeVectors())
    user, other = new_user(), new_user()
    _said(mem, user)
    _said(mem, other, [MOVES[0]])
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    runner = CliRunner()

    def run(*args):
        out = runner.invoke(main, list(args))
        return out.exit_code, out.output

    code, out = run("turns", "--user", user, "--limit", "4")
    assert code == 0 and out.count("\n") == 5 and "more: --cursor " in out, out
    cursor = out.rsplit("more: --cursor ", 1)[1].strip()
    code, out = run("turns", "--user", user, "--cursor", cursor, "--json")
    assert [t["source_id"] for t in json.loads(out)["turns"]] == ["m3", "m3-a"]
    code, out = run("sessions", "--user", user, "--json")
    assert [s["source_id"] for s in json.loads(out)["sessions"]] == ["s1", "s2", "s3"]
    code, out = run("get", "--user", user, "turn", "m3")
    fact_id = json.loads(out)["fact_ids"][0]
    code, out = run("get", "--user", user, "fact", fact_id)
    assert code == 0 and json.loads(out)["value"] == "Portland"
    foreign = mem.get_turn(other, "m1").id
    code, out = run("forget-turn", "--user", user, "--yes", foreign)
    assert code == 1 and f"has no turn {foreign!r}" in out and "Traceback" not in out
    code, out = run("invalidate", "--user", user, "--by", "cli", "--reason", "not so", fact_id)
    assert code == 0 and out.startswith("invalid ") and "marked by cli — not so" in out, out
    code, out = run("forget-turn", "--user", user, "--yes", "m2")
    assert code == 0 and "deleted turn m2" in out and "1 slots" in out, out
    assert [f.value for f in mem.facts(user, predicate="lives_in")] == ["Denver"]
    code, out = run("forget-turn", "--user", user, "--yes", "--redact", "m1-a")
    assert code == 0 and "redacted turn m1-a" in out
    assert mem.get_turn(user, "m1-a").text == "[redacted]"
    assert mem.get_turn(other, "m1").text == "I live in Denver."
