"""The learned extractor with its shipped weights, beside the rules (`hybrid`), against a real
Neo4j: a job change, times said ahead, an ended employer, and look-alikes that state no fact.
The sentences were written here, not taken from the corpus or a scenario set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem import predicates as registry
from graphmem.extract import OfflineExtractor
from graphmem.extract.learned import HybridExtractor, ModelExtractor
from graphmem.history import facts_as_of
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from tests.helpers import FakeVectors

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def hybrid():
    return HybridExtractor(OfflineExtractor(), ModelExtractor())


def _ingest(graph, user_id, extractor, sessions):
    memory = Memory(graph, extractor=extractor, embedder=FakeVectors())
    memory.ingest([Transcript(user_id, [
        SessionRecord(sid, when, [TurnRecord("user", t) for t in texts])
        for sid, when, texts in sessions])])
    return facts_as_of(graph, user_id, history=True)


def _at(y, m, d, h=10):
    return datetime(y, m, d, h, tzinfo=UTC)


def test_a_job_change_said_ahead_is_dated_ahead_and_made_by_the_model(graph, user_id, hybrid):
    saturday = _at(2026, 2, 7)
    facts = _ingest(graph, user_id, hybrid, [
        ("s1", _at(2026, 1, 5), ["I work at Pellham Foods as a buyer."]),
        ("s2", _at(2026, 2, 2), ["handed in my notice at Pellham Foods"]),
        ("s3", saturday, ["I start at Brightwell on Monday 😬"]),
    ])
    new = [f for f in facts if f["predicate"] == "works_at" and f["value"] == "Brightwell"]
    assert new, facts
    assert new[0]["occurred_start"].date().isoformat() == "2026-02-09"  # the coming Monday
    with graph.session(read_only=True) as s:
        made = s.run("MATCH (f:FactEvent {user_id: $u}) RETURN f.value AS v, "
                     "f.extracted_by AS by", u=user_id).data()
    by = {r["v"]: r["by"] for r in made}
    assert by["Brightwell"].startswith("model:") and by["Pellham Foods"].startswith("rule:")
    # the old employer is not held any more: its current fact says it ended
    current = [f for f in facts_as_of(graph, user_id) if f["predicate"] == "works_at"
               and f["value"] == "Pellham Foods"]
    assert all(f["modality"] == "negated" for f in current), current


def test_the_new_employer_becomes_current_once_started(graph, user_id, hybrid):
    _ingest(graph, user_id, hybrid, [
        ("s1", _at(2026, 1, 5), ["I work at Pellham Foods as a buyer."]),
        ("s2", _at(2026, 2, 7), ["I start at Brightwell on Monday 😬"]),
        ("s3", _at(2026, 2, 9), ["First day at Brightwell today, nervous lol"]),
    ])
    current = {f["value"] for f in facts_as_of(graph, user_id)
               if f["predicate"] == "works_at" and f["modality"] == "asserted"}
    assert current == {"Brightwell"}


def test_a_plan_in_a_month_said_before_it_lands_in_that_month_ahead(graph, user_id, hybrid):
    facts = _ingest(graph, user_id, hybrid, [
        ("s1", _at(2026, 2, 12), ["training for the 10k in May"])])
    dated = [f for f in facts if f["occurred_start"] is not None]
    assert dated and all(f["occurred_start"].date().isoformat() == "2026-05-01" for f in dated)


LOOKALIKES = [
    "should I apply to Brightwell?",
    "if I moved to Porto I'd get a dog",
    "what's a good name for a cat?",
    "is it normal to hate your job in the first month",
    "how long does it take to train for a half marathon",
    "can you recommend a vegetarian lasagne recipe",
    "my cousin keeps saying we should all move to Lisbon lol",
    "what do people usually bring to a housewarming",
]


def test_look_alikes_yield_no_fact(graph, user_id, hybrid):
    facts = _ingest(graph, user_id, hybrid, [("s1", _at(2026, 3, 1), LOOKALIKES)])
    assert facts == []


def test_a_state_read_in_passing_says_so(graph, user_id, hybrid):
    """The model's reading of a state it did not see start or stop is a mention, and the fact
    says so, so an agent does not take "active" for "known to hold now"."""
    _ingest(graph, user_id, hybrid, [
        ("s1", _at(2026, 1, 5), ["I start at Brightwell on Monday 😬"]),
        ("s2", _at(2026, 1, 20), ["the commute from Hove is killing me tbh"]),
    ])
    facts = Memory(graph).facts(user_id, history=True)
    started = [f for f in facts if f.predicate == "works_at" and f.value == "Brightwell"]
    assert started and not any(f.mention for f in started)  # a start (said ahead: planned)
    (home,) = [f for f in facts if f.predicate == "lives_in"]  # the commute: read in passing
    assert home.value == "Hove" and home.mention and home.slot == "user|lives_in"
    assert home.extracted_by.startswith("model:") and home.status == "active"


def test_a_fact_told_later_ends_a_mention_and_a_mention_ends_nothing(graph, user_id, hybrid):
    """A mention leaves the current facts when a fact of its slot is told after it (with no
    edge: it claims no change), and a mention never ends what was told."""
    _ingest(graph, user_id, hybrid, [
        ("s1", _at(2026, 1, 5), ["ugh the buses in Leicester are useless again, stood in the "
                                 "rain for 40 mins this morning"]),
        ("s2", _at(2026, 3, 2), ["I live in Nottingham now."]),
        ("s3", _at(2026, 4, 9), ["the buses in Leicester were never this bad lol"]),
    ])
    memory = Memory(graph)
    homes = [(f.value, f.status, f.mention) for f in memory.facts(user_id, history=True)
             if f.predicate == "lives_in"]
    assert ("Leicester", "superseded", True) in homes, homes
    assert ("Nottingham", "active", False) in homes, homes
    assert [f.value for f in memory.facts(user_id) if f.predicate == "lives_in"
            and not f.mention] == ["Nottingham"]
    with graph.session(read_only=True) as s:
        edges = s.run("MATCH (:FactEvent {user_id: $u})-[r]->(:FactEvent) RETURN count(r) AS n",
                      u=user_id).single()["n"]
    assert edges == 0


# One session as a person might type it: short and long turns, facts and look-alikes, a pasted
# wall of text. Bulk ingest tags them together; append tags each alone.
SESSION = [
    "moving week!!! the flat in Walthamstow is finally ours, keys on friday",
    "ok random q, is it normal for a cat to sleep 18 hours a day",
    "my partner Tomasz just started at a vet clinic in Leyton so he'd probably know lol",
    "pasting the listing so u can see: " + "Spacious two-bed flat, recently refurbished, "
    "south-facing garden, close to the Victoria line, council tax band C, EPC rating B, "
    "available immediately, no pets, no smokers, references required. " * 3,
    "we adopted Mochi (the cat) back in march btw",
    "thinking of signing up for the hackney half in september, is 5 months enough to train?",
    "hmm",
    "I quit my job at the bakery last week, starting freelance design full time 🎨",
]


def _facts(graph, user_id):
    keep = ("predicate", "value", "quantity", "text", "modality", "slot", "mention", "status",
            "extracted_by", "mentioned_at", "occurred_start", "occurred_end", "valid_from",
            "valid_until")
    return sorted(tuple(str(f[k]) for k in keep)
                  for f in facts_as_of(graph, user_id, history=True))


def test_a_session_appended_turn_by_turn_makes_the_facts_of_one_ingest(
        graph, user_id, new_user, hybrid):
    """The tagger's int8 weights quantise each token from its own values, so a turn tagged
    alone (append) reads as it does among the other turns of its session (ingest); per-batch
    quantisation let a long turn change its neighbours' facts."""
    start = _at(2026, 5, 4)
    turns = [TurnRecord("user", text, source_id=f"t{k}",
                        timestamp=start.replace(minute=k))
             for k, text in enumerate(SESSION)]
    memory = Memory(graph, extractor=hybrid, embedder=FakeVectors())
    memory.ingest([Transcript(user_id, [SessionRecord("s1", start, turns)])])
    other = new_user()
    for turn in turns:
        memory.append(other, "s1", [turn], session_time=start)
    together, one_by_one = _facts(graph, user_id), _facts(graph, other)
    assert len(together) >= 5
    assert together == one_by_one


def test_sessions_read_together_make_the_facts_of_sessions_read_one_by_one(graph, new_user,
                                                                           hybrid):
    """Ingest hands the tagger a batch of a user's sessions in one call (read_sessions); the
    facts, their statuses and their edges are those of the sessions read one at a time (a batch
    of one session: `prepare`), one sentence said in two sessions included."""
    from graphmem.ingest import IngestOptions

    sessions = [
        SessionRecord("s1", _at(2026, 1, 5), [
            TurnRecord("user", "My sister Ines is a nurse. She moved to Hull."),
            TurnRecord("assistant", "That's a big move! How is she finding it?"),
            TurnRecord("user", "I work at Pellham Foods as a buyer.")]),
        SessionRecord("s2", _at(2026, 2, 2), [
            TurnRecord("user", "We love the coast. She moved to Hull."),
            TurnRecord("user", "handed in my notice at Pellham Foods")]),
        SessionRecord("s3", _at(2026, 2, 7), [
            TurnRecord("user", "I start at Brightwell on Monday, and we adopted a rescue cat "
                               "yesterday")]),
    ]
    found = []
    for batch in (256, 1):
        uid = new_user()
        Memory(graph, extractor=hybrid, embedder=FakeVectors(),
               options=IngestOptions(batch_sessions=batch)).ingest([Transcript(uid, sessions)])
        with graph.session(read_only=True) as s:
            facts = sorted(tuple(map(str, r.values())) for r in s.run(
                "MATCH (f:FactEvent {user_id: $u}) MATCH (t:Turn {id: f.turn_id}) RETURN "
                "t.idx AS idx, t.session_source_id AS sid, f.predicate AS p, f.value AS v, "
                "f.status AS st, f.subject AS subj, f.extracted_by AS by", u=uid))
            edges = sorted(tuple(r.values()) for r in s.run(
                "MATCH (a:FactEvent {user_id: $u})-[r:SUPERSEDES|UPDATES]->(b) "
                "RETURN type(r), a.value, b.value", u=uid))
        found.append((facts, edges))
    assert found[0][0] and any("model:" in f[-1] for f in found[0][0])
    assert found[0] == found[1]


def test_an_event_told_with_a_number_steps_the_count_the_user_stated(graph, user_id, hybrid):
    """The model reads the purchase and the giving away (no rule does: their verbs are not the
    rules'); the number said with them steps the count the rules read before ("three kayaks",
    then another, then two of them given away)."""
    facts = _ingest(graph, user_id, hybrid, [
        ("s1", _at(2026, 3, 1), ["We keep three kayaks in the garage, mostly for the lake."]),
        ("s2", _at(2026, 4, 12), ["Ordered another kayak in the spring sale, the lake is "
                                   "calling"]),
        ("s3", _at(2026, 6, 20), ["Gave away two of the kayaks to my neighbour, the garage is "
                                   "a room again"]),
    ])
    counts = {(f["value"], f["status"], f["extracted_by"]) for f in facts
              if f["predicate"] == "owns_count:kayak"}
    assert counts == {("3", "superseded", "rule:clause.have"),
                      ("+1", "superseded", registry.BROUGHT_BY),
                      ("-2", "active", registry.BROUGHT_BY)}, counts
    current = [f for f in facts_as_of(graph, user_id) if f["predicate"] == "owns_count:kayak"]
    assert [f["quantity"] for f in current] == [2.0], current


def test_a_number_said_for_a_time_ahead_is_a_target_and_updates_no_count(graph, user_id, hybrid):
    """A count dated after its saying is a goal (corpus rule 17): kept and found, but it
    updates no count the user has; a count said after it still does."""
    facts = _ingest(graph, user_id, hybrid, [
        ("s1", _at(2026, 5, 4), ["I've read 9 books so far."]),
        ("s2", _at(2026, 5, 11), ["I've set myself 40 books by the end of the year"]),
        ("s3", _at(2026, 6, 1), ["I've read 12 books so far."]),
    ])
    counts = {(f["value"], f["status"], f["mention"]) for f in facts
              if f["predicate"] == "count:book"}
    assert ("40", "active", True) in counts, counts
    current = [f["quantity"] for f in facts_as_of(graph, user_id)
               if f["predicate"] == "count:book" and not f["mention"]]
    assert current == [12.0], facts
    with graph.session(read_only=True) as s:
        edges = s.run("MATCH (a:FactEvent {user_id: $u})-[:UPDATES]->(b) "
                      "RETURN a.value AS new, b.value AS old", u=user_id).data()
    assert edges == [{"new": "12", "old": "9"}], edges


def test_a_trip_read_as_done_is_dated_back_and_fulfils_no_plan_made_after_it(graph, user_id,
                                                                            hybrid):
    """A trip the tagger reads as done happened before it was told, whatever the rest of the
    piece says ahead ("will be looking for …"): "in March", said in January, is last March, so
    it is not the outcome of a Lisbon trip planned four days before."""
    facts = _ingest(graph, user_id, hybrid, [
        ("s1", _at(2026, 1, 10), ["Planning a trip to Lisbon, where should we stay?"]),
        ("s2", _at(2026, 1, 14), ["will be looking for another city break soon, my trip to "
                                   "Lisbon in March was amazing"]),
    ])
    done = [f for f in facts if f["predicate"] == "traveled_to" and f["value"] == "Lisbon"
            and f["modality"] == "asserted"]
    assert done and done[0]["occurred_start"].date().isoformat() == "2025-03-01", facts
    with graph.session(read_only=True) as s:
        edges = s.run("MATCH (a:FactEvent {user_id: $u})-[:SUPERSEDES]->(b) "
                      "RETURN a.value AS new, b.value AS old", u=user_id).data()
    assert edges == [], edges
