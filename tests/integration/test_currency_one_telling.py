"""A denial the learned model read at the moment an assertion of the same thing was said (one
session sharing its time) does not end it: the store tells currency which facts the model made."""

from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.predicates import BROUGHT_BY
from tests.helpers import FakeVectors, dt


def _told(graph, user_id, made_by: str):
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [SessionRecord("s1", dt(2024, 3, 1), [
        TurnRecord("user", "I live in Denver."),
        TurnRecord("user", "I don't live in Denver.")])])])
    with graph.session() as s:
        s.run("MATCH (f:FactEvent {user_id: $u, predicate: 'lives_in', modality: 'negated'}) "
              "SET f.extracted_by = $by", u=user_id, by=made_by).consume()
    mem.redecide(user_id)
    return {f.modality: f.status for f in mem.facts(user_id, history=True)
            if f.predicate == "lives_in"}


def test_a_model_denial_at_the_same_moment_leaves_the_assertion_current(graph, user_id):
    assert _told(graph, user_id, "model:test") == {"asserted": "active", "negated": "active"}


def test_a_state_a_model_event_brings_counts_as_the_models_reading(graph, user_id):
    # "gave the crate away" read by the model brings "owns crate" stopped (registry `brings`)
    assert _told(graph, user_id, BROUGHT_BY) == {"asserted": "active", "negated": "active"}


def test_a_rule_denial_at_the_same_moment_ends_it_as_before(graph, user_id):
    assert _told(graph, user_id, "rule:test") == {"asserted": "superseded", "negated": "active"}
