"""A plan and its outcome said with the words the other way round ("remodel the bathroom", then
"scrapping the bathroom remodel") are one plan: the outcome closes it; migration 0012 re-keys
plans stored under the older key so a later outcome still finds them."""

import importlib

from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from tests.helpers import dt


def _session(sid, when, text):
    return SessionRecord(sid, when, [TurnRecord("user", text, source_id=f"{sid}_u1"),
                                     TurnRecord("assistant", "Noted.", source_id=f"{sid}_a1")])


def _said(graph, user_id, *said):
    """A Memory holding one session per (date, user's words) of `said`."""
    mem = Memory(graph)
    mem.ingest([Transcript(user_id, [_session(f"s{k}", when, text)
                                     for k, (when, text) in enumerate(said, start=1)])])
    return mem


def _plans(mem, user_id):
    return [f for f in mem.facts(user_id, history=True) if f.predicate == "plans"]


def test_an_outcome_closes_the_plan_it_names_the_other_way_round(graph, user_id):
    mem = Memory(graph)
    mem.ingest([Transcript(user_id, [
        _session("s1", dt(2024, 2, 18), "We're going to remodel the bathroom this spring."),
        _session("s2", dt(2024, 4, 9), "We ended up scrapping the bathroom remodel, the quotes "
                                       "were insane.")])])
    (plan,) = _plans(mem, user_id)
    assert plan.status == "superseded"
    assert any(f.predicate == "cancelled" and f.status == "active"
               for f in mem.facts(user_id))


def test_migration_0012_rekeys_plans_stored_under_the_older_key(graph, user_id):
    mem = Memory(graph)
    mem.ingest([Transcript(user_id, [
        _session("s1", dt(2024, 2, 18), "We're going to remodel the bathroom this spring.")])])
    with graph.session() as s:  # as an older version stored it
        s.run("MATCH (f:FactEvent {user_id: $u, predicate: 'plans'}) "
              "SET f.slot = 'user|plan|the bathroom'", u=user_id).consume()
    report = importlib.import_module("graphmem.schema.0012_plan_slot_keys").migrate(graph)
    assert report["facts"] >= 1
    with graph.session() as s:
        slots = s.run("MATCH (f:FactEvent {user_id: $u, predicate: 'plans'}) "
                      "RETURN f.slot AS slot", u=user_id).value()
    assert slots == ["user|plan|bathroom"]
    again = importlib.import_module("graphmem.schema.0012_plan_slot_keys").migrate(graph)
    assert again["facts"] == 0  # running it again changes nothing
    mem.ingest([Transcript(user_id, [
        _session("s2", dt(2024, 4, 9), "We ended up scrapping the bathroom remodel.")])])
    (plan,) = _plans(mem, user_id)
    assert plan.status == "superseded"


def test_migration_0013_gives_activity_facts_one_key(graph, user_id):
    """A habit stored under an older key ("does:nightly_journal_thing") is re-keyed, so a later
    end of the same habit, said another way, closes it."""
    mem = Memory(graph)
    mem.ingest([Transcript(user_id, [
        _session("s1", dt(2024, 2, 18), "I journal every night before bed, it helps me sleep.")])])
    with graph.session() as s:  # as an older version stored it
        s.run("MATCH (f:FactEvent {user_id: $u}) WHERE f.predicate STARTS WITH 'does:' "
              "SET f.predicate = 'does:nightly_journal_thing', "
              "f.slot = 'user|does:nightly_journal_thing'", u=user_id).consume()
    migration = importlib.import_module("graphmem.schema.0013_activity_keys")
    assert migration.migrate(graph)["facts"] >= 1
    with graph.session() as s:
        stored = s.run("MATCH (f:FactEvent {user_id: $u}) WHERE f.predicate STARTS WITH 'does:' "
                       "RETURN f.predicate AS p, f.slot AS slot", u=user_id).data()
    assert stored == [{"p": "does:journaling", "slot": "user|does:journaling"}]
    assert migration.migrate(graph)["facts"] == 0  # running it again changes nothing
    mem.ingest([Transcript(user_id, [
        _session("s2", dt(2024, 6, 2), "Gave up on the nightly journal thing, no time.")])])
    habits = [f for f in mem.facts(user_id, history=True) if f.predicate == "does:journaling"]
    assert {f.status for f in habits} >= {"superseded", "active"}, habits


def _planned_test(mem, user_id):
    return [f for f in mem.facts(user_id, history=True)
            if f.modality == "planned" and "driving test" in (f.value or "")]


def test_migration_0016_stores_a_planned_did_as_plans(graph, user_id, new_user):
    other = new_user()
    for who in (user_id, other):
        Memory(graph).ingest([Transcript(who, [
            _session("s1", dt(2024, 10, 1), "My driving test is booked for the 14th of November."),
            _session("s2", dt(2024, 11, 15), "Passed the driving test yesterday, first time!")])])
    with graph.session() as s:  # as an older version stored it (one user only)
        s.run("MATCH (f:FactEvent {user_id: $u, predicate: 'plans'}) "
              "SET f.predicate = 'did', f.kind = 'event'", u=user_id).consume()
    before = {f.id: (f.slot, f.status) for f in _planned_test(Memory(graph), user_id)}
    migration = importlib.import_module("graphmem.schema.0016_planned_did_is_plans")
    assert migration.migrate(graph)["facts"] >= 1
    (plan,) = _planned_test(Memory(graph), user_id)
    assert plan.predicate == "plans" and before[plan.id] == (plan.slot, plan.status)
    assert migration.migrate(graph)["facts"] == 0  # running it again changes nothing
    (theirs,) = _planned_test(Memory(graph), other)
    assert theirs.predicate == "plans" and theirs.status == "superseded"


def test_an_event_told_as_ahead_is_a_plan_its_outcome_closes(graph, user_id):
    """"My driving test is on the 14th" is a plan whatever its predicate; "passed the driving
    test" told later closes it, and the outcome stays."""
    mem = _said(graph, user_id,
                (dt(2024, 10, 1), "My driving test is booked for the 14th of November."),
                (dt(2024, 11, 15), "Passed the driving test yesterday, first time!"))
    (plan,) = _planned_test(mem, user_id)
    assert plan.status == "superseded"
    assert plan.predicate == "plans"  # the catch-all `did`, planned, is stored as a plan
    assert any(f.predicate == "passed" and f.status == "active" for f in mem.facts(user_id))


def test_migration_0015_makes_stored_planned_events_plans(graph, user_id):
    mem = _said(graph, user_id,
                (dt(2024, 10, 1), "My driving test is booked for the 14th of November."),
                (dt(2024, 11, 15), "Passed the driving test yesterday, first time!"))
    with graph.session() as s:  # as an older version stored it: no slot, still active
        s.run("MATCH (f:FactEvent {user_id: $u, modality: 'planned'}) "
              "SET f.slot = null, f.status = 'active', f.valid_until = null", u=user_id).consume()
    migration = importlib.import_module("graphmem.schema.0015_planned_events_are_plans")
    assert migration.migrate(graph)["facts"] >= 1
    (plan,) = _planned_test(mem, user_id)
    assert plan.status == "superseded"  # decided again: the outcome was already told
    assert migration.migrate(graph)["facts"] == 0  # running it again changes nothing


def test_leaving_an_employer_ends_it_in_its_slot_and_says_so(graph, user_id, new_user):
    """"I left Northwind" (a `left` event) ends the works_at Northwind fact told before, in
    another session, from the leaving's date; the new negated fact draws the SUPERSEDES edge.
    Another user's Northwind is untouched."""
    other = new_user()
    for who in (user_id, other):
        Memory(graph).ingest([Transcript(who, [
            _session("s1", dt(2026, 1, 5), "I work at Northwind as an analyst.")])])
    mem = Memory(graph)
    mem.ingest([Transcript(user_id, [
        _session("s2", dt(2026, 2, 5), "I left Northwind last week, taking a break.")])])
    facts = mem.facts(user_id, history=True)
    (held,) = [f for f in facts if f.predicate == "works_at" and f.modality == "asserted"]
    assert held.status == "superseded" and held.valid_until.date().isoformat() == "2026-01-26"
    (ending,) = [f for f in facts if f.predicate == "works_at" and f.modality == "negated"]
    assert ending.extracted_by == "rule:currency.left_ends"
    assert ending.text == "User: works at Northwind (no longer)."
    assert mem.get_fact(user_id, ending.id).extracted_by == "rule:currency.left_ends"
    assert any(f.predicate == "left" and f.status == "active" for f in facts)
    assert not [f for f in mem.facts(user_id) if f.predicate == "works_at"
                and f.modality == "asserted"]
    theirs = [f for f in Memory(graph).facts(other) if f.predicate == "works_at"]
    assert [(f.value, f.status, f.modality) for f in theirs] == [("Northwind", "active", "asserted")]


def test_what_was_signed_up_for_is_dated_when_it_happens_ahead(graph, user_id):
    """"Signed up for the half marathon in October", said in May: October of this year (the
    race), not last October; a plain past phrase keeps its day."""
    mem = Memory(graph)
    mem.ingest([Transcript(user_id, [
        _session("s1", dt(2026, 5, 10), "I've signed up for the Leeds half marathon in October."),
        _session("s2", dt(2026, 5, 20), "I signed up for a pottery course last week.")])])
    signed = {f.value: f for f in mem.facts(user_id, history=True)
              if f.predicate == "signed_up_for"}
    race = next(f for v, f in signed.items() if "marathon" in v)
    assert race.occurred_start.date().isoformat() == "2026-10-01"
    course = next(f for v, f in signed.items() if "pottery" in v)
    assert course.occurred_start.date().isoformat() == "2026-05-11"


def test_an_outcome_naming_a_plan_by_its_name_alone_closes_it(graph, user_id):
    """"Going to the Glastonbury festival in June", then "cancelled Glastonbury": the plan is
    closed by the cancellation that names it by its name alone, in search's as-of view too."""
    mem = _said(graph, user_id,
                (dt(2024, 2, 18), "I am going to the Glastonbury festival in June!"),
                (dt(2024, 4, 9), "cancelled Glastonbury, could not get the time off"))
    (plan,) = _plans(mem, user_id)
    assert plan.status == "superseded"
    assert str(plan.valid_until)[:10] == "2024-04-09"
    (off,) = [f for f in mem.facts(user_id) if f.predicate == "cancelled"]
    assert off.value == "Glastonbury" and off.status == "active"
    as_of = {f.predicate: f.status for f in mem.facts(user_id, as_of=dt(2024, 3, 1))}
    assert as_of["plans"] == "active"  # valid before the cancellation was said
    # as memory knew it on a question date: the plan open before the cancellation, closed after
    def known(day):
        return {f.predicate: f.status
                for f in mem.facts(user_id, history=True, question_date=day)}
    assert known(dt(2024, 3, 1))["plans"] == "active"
    assert known(dt(2024, 5, 1))["plans"] == "superseded"
