"""The second pass seeded by the first (retrieval/feedback.py) in a real Neo4j: each seed's
neighbours come from the other sessions of the same user only, as memory knew them on the
question date, and the pass runs for aggregating questions only, its hits derived."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.compose import embedder as configured_embedder
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.retrieval import Retriever, preset
from graphmem.store import search as store

SAID = [  # (session, day, the user's words): three sessions name a publication, one does not
    ("mags-1", 3, "I subscribed to The New Yorker magazine last month and I read it every week."),
    ("mags-2", 10, "I cancelled my Forbes magazine subscription, the articles bored me."),
    ("mags-3", 17, "I'm also getting Architectural Digest, which I love for home decor ideas."),
    ("garden", 24, "My tomato plants need more sun, so I moved them to the balcony."),
]


def _chat(user_id: str) -> Transcript:
    return Transcript(user_id, [
        SessionRecord(sid, datetime(2024, 3, day, 9, tzinfo=UTC),
                      [TurnRecord("user", text), TurnRecord("assistant", "Noted.")])
        for sid, day, text in SAID])


@pytest.fixture(scope="module")
def embedder():
    return configured_embedder()


def _turns(graph, user_id):
    with graph.session(read_only=True) as s:
        return {r["sid"]: r for r in s.run(
            "MATCH (t:Turn {user_id: $u, role: 'user'}) RETURN t.id AS id, "
            "t.session_source_id AS sid, t.session_id AS session", u=user_id).data()}


def _session_of(graph, user_id, ids):
    with graph.session(read_only=True) as s:
        return {r["id"]: (r["u"], r["session"]) for r in s.run(
            "UNWIND $ids AS id CALL (id) { MATCH (n:Turn {id: id}) RETURN n UNION "
            "MATCH (n:FactEvent {id: id}) RETURN n } "
            "RETURN n.id AS id, n.user_id AS u, n.session_id AS session", ids=ids).data()}


def test_a_seeds_neighbours_are_the_same_users_other_sessions(graph, user_id, new_user, embedder):
    other = new_user()
    Memory(graph, embedder=embedder).ingest([_chat(user_id), _chat(other)])
    turns = _turns(graph, user_id)
    seed = turns["mags-1"]
    rows = store.seed_neighbours(graph, user_id, [seed["id"], "turn:no-such-id"], per_seed=2,
                                 fetch=30, min_cosine=0.0)
    assert rows and {r["seed"] for r in rows} == {seed["id"]} and {r["rank"] for r in rows} == {0}
    owners = _session_of(graph, user_id, [r["id"] for r in rows])
    assert {u for u, _ in owners.values()} == {user_id}  # never the other user's same words
    assert seed["session"] not in {s for _, s in owners.values()}  # other sessions only
    for kind in ("turn", "fact"):
        assert sum(1 for r in rows if r["type"] == kind) <= 2
    scores = [r["score"] for r in rows if r["type"] == "turn"]
    assert scores == sorted(scores, reverse=True)
    # As memory knew it on the question date: nothing said after it.
    early = store.seed_neighbours(graph, user_id, [seed["id"]], per_seed=5, fetch=30,
                                  min_cosine=0.0, known_at=datetime(2024, 3, 12, tzinfo=UTC))
    found = {r["id"] for r in early if r["type"] == "turn"}
    assert found <= {turns["mags-2"]["id"]} and turns["mags-3"]["id"] not in found


def test_the_pass_adds_derived_hits_for_an_aggregating_question_only(graph, user_id, embedder):
    Memory(graph, embedder=embedder).ingest([_chat(user_id)])
    retriever = Retriever(graph, embedder)
    asked = datetime(2024, 4, 1, tzinfo=UTC)
    counting = "How many magazine subscriptions do I have?"
    on = retriever.search(user_id, counting, question_date=asked, config="fused-with-feedback")
    passed = [h for h in on.hits if h.tunnel == "feedback"]
    assert passed and not any(h.direct for h in passed)
    assert "feedback" in on.timings_ms
    off = retriever.search(user_id, counting, question_date=asked, config="fused")
    assert not any(h.tunnel == "feedback" for h in off.hits)
    # the second pass's hits join the first pass's, after them
    first = [h.tunnel != "feedback" for h in on.hits]
    assert first == sorted(first, reverse=True)
    single = retriever.search(user_id, "Which magazine did I cancel?", question_date=asked,
                              config=preset("fused-with-feedback"))
    assert not any(h.tunnel == "feedback" for h in single.hits)
