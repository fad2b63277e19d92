"""The dense tunnel through the user-filtered vector index: only the user's own nodes, even when
decoy users said the very same words many times over, and the same heads as the exact scan."""

from __future__ import annotations

import importlib
import uuid
from datetime import timedelta

import pytest

from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.store.admin import forget_user
from graphmem.store.search import dense_heads, vector_index_filters
from tests.helpers import SCENARIO, FakeVectors, _transcript, dt

migration = importlib.import_module("graphmem.schema.0007_vector_user_filter")


COPIES = 4  # each decoy says every sentence this many times: 12 copies of the query's turn


def _decoy(user_id: str, copies: int) -> Transcript:
    """A big user who says every sentence of the scenario `copies` times over."""
    texts = [t for _, _, ts in SCENARIO for t in ts]
    sessions = [SessionRecord(f"d{k}", dt(2024, 1, 1) + timedelta(days=k),
                              [TurnRecord("user", t) for t in texts]) for k in range(copies)]
    return Transcript(user_id, sessions)


@pytest.fixture(scope="module")
def decoys(neo4j_graph):
    ids = [f"decoy-{uuid.uuid4().hex[:8]}" for _ in range(3)]
    Memory(neo4j_graph, embedder=FakeVectors()).ingest([_decoy(d, COPIES) for d in ids])
    yield ids
    for d in ids:
        forget_user(neo4j_graph, d)


def test_index_is_used_where_the_server_has_filters(graph):
    assert vector_index_filters(graph) == migration.supports_vector_filters(graph)


@pytest.mark.parametrize("heads", [3, 40])
def test_small_user_among_identical_decoys_gets_only_and_all_its_own(graph, user_id, decoys,
                                                                     heads):
    Memory(graph, embedder=FakeVectors()).ingest([_transcript(user_id)])
    own = {r["id"] for r in graph.read("user_turns", user_id=user_id)}
    query = FakeVectors().embed_query("I live in Denver.")  # the decoys said it 12 times
    got = dense_heads(graph, user_id, query, heads=heads, min_cosine=0.0)
    exact = dense_heads(graph, user_id, query, heads=heads, min_cosine=0.0, exact=True)
    turns = [r for r in got if r["type"] == "turn"]
    assert {r["id"] for r in turns} <= own  # none of the decoys' identical turns
    # not starved by the decoys' 12 exact copies: as many heads as the user has, up to `heads`
    assert len(turns) == min(heads, len(own)) == len([r for r in exact if r["type"] == "turn"])
    assert turns[0]["score"] == pytest.approx(1.0)
    assert {r["id"] for r in got} == {r["id"] for r in exact}
    by_id = {r["id"]: r["score"] for r in exact}
    assert all(r["score"] == pytest.approx(by_id[r["id"]], abs=1e-6) for r in got)  # same scale


@pytest.mark.parametrize("known_at", [dt(2024, 3, 31), dt(2024, 1, 10, 23)])
def test_question_date_is_filtered_inside_the_index_as_in_the_exact_scan(graph, user_id, decoys,
                                                                       known_at):
    """Decoys' sessions are all before the cutoff, so only the user filter keeps them out."""
    Memory(graph, embedder=FakeVectors()).ingest([_transcript(user_id)])
    query = FakeVectors().embed_query("I live in Denver.")
    got = dense_heads(graph, user_id, query, heads=40, min_cosine=0.0, known_at=known_at)
    exact = dense_heads(graph, user_id, query, heads=40, min_cosine=0.0, known_at=known_at,
                        exact=True)
    assert got and [(r["type"], r["id"]) for r in got] == [(r["type"], r["id"]) for r in exact]
    assert all(a["score"] == pytest.approx(b["score"], abs=1e-6) for a, b in zip(got, exact, strict=True))
    with graph.session(read_only=True) as s:
        rows = s.run("UNWIND $ids AS id CALL (id) { MATCH (n:Turn {id: id}) RETURN n "
                     "UNION MATCH (n:FactEvent {id: id}) RETURN n } "
                     "RETURN n.user_id AS u, n.mentioned_at AS at",
                     ids=[r["id"] for r in got]).data()
    assert len(rows) == len(got)
    assert {r["u"] for r in rows} == {user_id}
    assert all(r["at"].to_native() <= known_at for r in rows)
    later = dense_heads(graph, user_id, query, heads=40, min_cosine=0.0)
    assert len(later) > len(got)  # the cutoff did remove the later sessions
