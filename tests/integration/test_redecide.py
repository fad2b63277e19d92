"""`graphmem redecide`: every slot of a user decided again with this version's rules, as after an
upgrade whose rules decided differently; only that user's facts change, in one transaction."""

import json
import threading

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.errors import UnknownUser
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from tests.helpers import FakeVectors, dt


def _memory(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [
        SessionRecord("s1", dt(2024, 1, 10), [TurnRecord("user", "I live in Denver.")]),
        SessionRecord("s2", dt(2024, 6, 1), [TurnRecord("user", "I moved to Seattle.")])])])
    return mem


def _lives_in(mem, user_id):
    return {f.value: (f.status, f.valid_until) for f in mem.facts(user_id, history=True)
            if f.predicate == "lives_in"}


def _as_an_older_version_left_it(graph, user_id):
    """Both values current, no end: what rules that missed the move would have stored."""
    with graph.session() as s:
        s.run("MATCH (f:FactEvent {user_id: $u, predicate: 'lives_in'}) "
              "SET f.status = 'active', f.valid_until = null", u=user_id).consume()


def test_redecide_brings_stored_decisions_up_to_date(graph, user_id, new_user):
    mem = _memory(graph, user_id)
    right = _lives_in(mem, user_id)
    assert right["Denver"] == ("superseded", dt(2024, 6, 1))
    other = new_user()
    _memory(graph, other)
    _as_an_older_version_left_it(graph, user_id)
    _as_an_older_version_left_it(graph, other)
    done = mem.redecide(user_id)
    assert _lives_in(mem, user_id) == right
    denver = [f.id for f in mem.facts(user_id, history=True) if f.value == "Denver"]
    assert done.changed == denver and done.slots >= 1
    assert mem.redecide(user_id).changed == []  # up to date: nothing more to change
    assert _lives_in(mem, other)["Denver"] == ("active", None)  # another user is untouched
    with pytest.raises(UnknownUser):
        mem.redecide(new_user())


def test_redecide_from_the_command_line(graph, user_id, monkeypatch):
    mem = _memory(graph, user_id)
    _as_an_older_version_left_it(graph, user_id)
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    runner = CliRunner()
    out = runner.invoke(main, ["redecide", "--user", user_id, "-v"])
    assert out.exit_code == 0, out.output
    assert f"{user_id}: " in out.output and "1 facts changed" in out.output
    assert "superseded" in out.output and "Denver" in out.output
    again = runner.invoke(main, ["redecide", "--user", user_id, "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["users"][0]["changed"] == []
    assert _lives_in(mem, user_id)["Denver"][0] == "superseded"
    unknown = runner.invoke(main, ["redecide", "--user", "nobody-" + user_id])
    assert unknown.exit_code != 0 and "Traceback" not in unknown.output
    assert len(unknown.output.strip().splitlines()) == 1
    # every user named is checked before any is changed
    _as_an_older_version_left_it(graph, user_id)
    both = runner.invoke(main, ["redecide", "--user", user_id, "--user", "nobody-" + user_id])
    assert both.exit_code != 0 and len(both.output.strip().splitlines()) == 1
    assert _lives_in(mem, user_id)["Denver"] == ("active", None)


def test_redecide_waits_for_a_write_of_the_user_in_progress(graph, user_id):
    """An append holds the user's write lock from its start (it sets the user's speakers):
    redecide waits for it to commit, and decides with what it wrote."""
    mem = _memory(graph, user_id)
    _as_an_older_version_left_it(graph, user_id)
    done = threading.Event()
    result = {}
    with graph.session() as s:
        tx = s.begin_transaction()
        tx.run("MATCH (u:User {id: $u}) SET u.speakers = coalesce(u.speakers, [])",
               u=user_id).consume()
        worker = threading.Thread(target=lambda: (result.update(r=mem.redecide(user_id)),
                                                  done.set()))
        worker.start()
        assert not done.wait(1.5)  # blocked behind the open write
        tx.commit()
    assert done.wait(30)
    worker.join()
    assert result["r"].changed and _lives_in(mem, user_id)["Denver"][0] == "superseded"


def _decided_by(graph, user_id, rules):
    with graph.session() as s:
        s.run("MATCH (u:User {id: $u}) SET u.currency_rules = $r", u=user_id, r=rules).consume()


def test_the_rules_that_decided_a_user_are_recorded_and_stale_users_found(graph, user_id,
                                                                         new_user, monkeypatch):
    """A user is created with this version's rules; one whose slots an older version decided
    (here: its record set back, its facts as that version left them) is counted by the doctor
    and decided again by `redecide --stale`, which records this version's rules; a user created
    only by an append or a time zone is not stale."""
    from graphmem.currency_rules import rules_version
    mem = _memory(graph, user_id)
    appended, zoned = new_user(), new_user()
    mem.append(appended, "chat", [TurnRecord("user", "I live in Oslo.")])
    mem.set_time_zone(zoned, "Europe/Oslo")
    stale = mem.users_with_stale_rules()
    assert not {user_id, appended, zoned} & set(stale)
    _as_an_older_version_left_it(graph, user_id)
    _decided_by(graph, user_id, "0ld0ld0ld0ld")
    assert user_id in mem.users_with_stale_rules()
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    # --stale decides only this test's users: the database may hold others' stale users
    everyone = Memory.users_with_stale_rules
    monkeypatch.setattr(Memory, "users_with_stale_rules",
                        lambda self: [u for u in everyone(self) if u == user_id])
    runner = CliRunner()
    doctor = runner.invoke(main, ["doctor", "--json"])
    report = json.loads(doctor.stdout)
    assert doctor.exit_code == 1 and report["users_decided_by_other_rules"] >= 1
    check = next(c for c in report["checks"] if c["name"] == "currency")
    assert not check["ok"] and check["fix"] == "graphmem redecide --stale"
    assert report["currency_rules"] == rules_version()
    out = runner.invoke(main, ["redecide", "--stale"])
    assert out.exit_code == 0, out.output
    assert out.output.strip().splitlines() == [f"{user_id}: 1 slots decided again, 1 facts changed"]
    assert _lives_in(mem, user_id)["Denver"][0] == "superseded"
    assert user_id not in mem.users_with_stale_rules()
    with graph.session() as s:
        rules = s.run("MATCH (u:User {id: $u}) RETURN u.currency_rules AS r", u=user_id).single()
    assert rules["r"] == rules_version()
    assert runner.invoke(main, ["redecide", "--stale"]).output.strip() == \
        "every user's slots are decided by this version's rules"
    neither = runner.invoke(main, ["redecide"])
    assert neither.exit_code != 0 and "--stale" in neither.output


def test_a_user_from_before_the_rules_were_recorded_is_stale(graph, user_id):
    mem = _memory(graph, user_id)
    with graph.session() as s:
        s.run("MATCH (u:User {id: $u}) REMOVE u.currency_rules", u=user_id).consume()
    assert user_id in mem.users_with_stale_rules()
    mem.redecide(user_id)
    assert user_id not in mem.users_with_stale_rules()


def _rules_of(graph, user_id):
    with graph.session() as s:
        return s.run("MATCH (u:User {id: $u}) RETURN u.currency_rules AS r", u=user_id).single()["r"]


def test_a_write_with_other_rules_or_none_leaves_the_users_rules_unknown(graph, user_id,
                                                                        new_user):
    """A write that decides some slots keeps the user's record only when it decides with the
    same rules: after one by other rules (here: the record set back) or with currency off, the
    user is stale until every slot is decided again."""
    from graphmem.currency_rules import rules_version
    from graphmem.ingest import IngestOptions
    mem = _memory(graph, user_id)
    mem.append(user_id, "chat", [TurnRecord("user", "I got a cat called Miso.")])
    assert _rules_of(graph, user_id) == rules_version()  # same rules: kept
    fact = next(f for f in mem.facts(user_id) if f.predicate == "lives_in")
    mem.invalidate_fact(user_id, fact.id, by="test")
    assert _rules_of(graph, user_id) == rules_version()
    _decided_by(graph, user_id, "0ld0ld0ld0ld")
    mem.append(user_id, "chat", [TurnRecord("user", "My sister lives in Leeds.")])
    assert _rules_of(graph, user_id) is None and user_id in mem.users_with_stale_rules()
    mem.redecide(user_id)
    assert _rules_of(graph, user_id) == rules_version()
    _decided_by(graph, user_id, "0ld0ld0ld0ld")
    turn = mem.list_turns(user_id, session_id="chat").items[0]
    mem.delete_turn(user_id, turn.id)
    assert _rules_of(graph, user_id) is None  # a removal decides slots too
    off = new_user()
    Memory(graph, embedder=FakeVectors(), options=IngestOptions(currency=False)).ingest(
        [Transcript(off, [SessionRecord("s1", dt(2024, 1, 10),
                                        [TurnRecord("user", "I live in Denver.")])])])
    assert _rules_of(graph, off) is None and off in mem.users_with_stale_rules()


def test_the_rules_version_covers_what_redecide_runs(graph, user_id, monkeypatch):
    """Every query a redecide runs is hashed into the rules version, or is one that decides
    nothing (the lock, the record, the report of what changed)."""
    from fnmatch import fnmatchcase

    from graphmem.currency_rules import QUERIES
    from graphmem.store import _run
    mem = _memory(graph, user_id)
    ran = []
    real = _run.query
    monkeypatch.setattr(_run, "query", lambda name: ran.append(name) or real(name))
    mem.redecide(user_id)
    deciding = {n for n in ran if n not in ("user_write_lock", "user_rules_decided",
                                            "slot_decisions")}
    assert "currency_slot_facts" in deciding and "user_slots" in deciding
    assert all(any(fnmatchcase(n + ".cypher", q) for q in QUERIES) for n in deciding), deciding
