"""Changing the embedding model: the database records its vector space, refuses another model in
one line naming `graphmem reembed`, and `reembed` migrates every embedded node (resumably, the
vector indexes rebuilt when the width changes) — with real models, and with an
OpenAI-compatible endpoint over real HTTP. Each test puts the database back in the configured
space at the end, since the test database is shared."""

from __future__ import annotations

import os

import numpy as np
import pytest

from graphmem.compose import embedder as configured
from graphmem.config import Settings
from graphmem.embed import DEFAULT_EMBEDDER
from graphmem.errors import VectorSpaceMismatch
from graphmem.memory import Memory
from graphmem.reembed import reembed
from graphmem.store.admin import all_user_ids
from graphmem.store.embedding import reembed_counts, vector_index_dimensions
from graphmem.vectorspace import recorded
from tests.embedstub import EmbeddingStub
from tests.helpers import FakeVectors, _transcript


def _embedded(graph, user_id):
    """label, text and stored vector of every embedded node of the user; no staged ones left."""
    with graph.session(read_only=True) as s:
        rows = s.run(
            "MATCH (n {user_id: $u}) WHERE n.embedding IS NOT NULL OR n.embedding_next IS NOT NULL "
            "RETURN labels(n)[0] AS label, coalesce(n.text, n.name) AS text, n.embedding AS v, "
            "n.embedding_next IS NOT NULL AS staged", u=user_id).data()
    assert not any(r["staged"] for r in rows)
    return rows


def _put_back(graph, model, dimensions):
    """Move the shared test database to a vector space (fake vectors stand in for its model)."""
    reembed(graph, FakeVectors(model, dimensions), batch=500)
    assert recorded(graph).model == model


@pytest.fixture
def space(graph):
    # Re-embedding rewrites every user's vectors, and putting the space back writes stand-ins:
    # on a database that also holds real memories (a developer's NEO4J_URI) it would wreck them.
    # CI runs on a fresh database; elsewhere these tests need one that holds tests' users only.
    # CI=true says the database is the run's own, unless NEO4J_URI points at one (a developer's
    # CI run from a shell that had it set re-embedded a bench database's users this way).
    others = [u for u in all_user_ids(graph) if not u.startswith("test-")]
    if others and (os.environ.get("CI") != "true" or Settings.from_env().external):
        pytest.skip(f"re-embedding would rewrite the vectors of {len(others)} users that are not "
                    f"tests' (e.g. {others[0]!r}): run these tests against a database of tests only")
    Memory(graph, embedder=FakeVectors()).embedder  # noqa: B018  (records the space if new)
    before = recorded(graph)
    yield before
    if recorded(graph) != before:
        _put_back(graph, before.model, before.dimensions)


def test_another_model_is_refused_in_one_line(graph, user_id, space):
    mem = Memory(graph, embedder=FakeVectors("some-other-model", 384))
    with pytest.raises(VectorSpaceMismatch) as err:
        mem.search(user_id, "where do I live?")
    msg = str(err.value)
    assert "\n" not in msg and "`graphmem reembed`" in msg
    assert space.model in msg and "some-other-model" in msg


def test_reembed_to_an_endpoint_of_another_width_migrates_every_node(graph, user_id, space):
    Memory(graph, embedder=FakeVectors()).ingest([_transcript(user_id)])
    old = _embedded(graph, user_id)
    assert {r["label"] for r in old} >= {"Turn", "FactEvent", "Entity"}
    with EmbeddingStub(dimensions=96) as stub:
        target = configured("openai", stub.env())
        report = reembed(graph, target, batch=7)
        assert report.model_to == "openai:stub-embed" and report.indexes_rebuilt
        assert report.embedded >= len(old) and report.swapped == report.embedded
        new = _embedded(graph, user_id)
        assert len(new) == len(old)
        for r in new:  # every node holds the endpoint's vector of its own text
            assert len(r["v"]) == 96
            assert np.dot(r["v"], target.embed_documents([r["text"]])[0]) > 0.9999
        assert set(vector_index_dimensions(graph).values()) == {96}
        assert recorded(graph).model == "openai:stub-embed" and recorded(graph).target_model is None
        # the old model is refused now; the new one searches
        with pytest.raises(VectorSpaceMismatch):
            Memory(graph, embedder=FakeVectors()).search(user_id, "where do I live?")
        res = Memory(graph, embedder=target).search_full(user_id, "I live in Denver.", k=3,
                                                         config="dense")
        best = min((h for h in res.hits if h.type == "turn"), key=lambda h: h.rank)
        assert best.score == pytest.approx(1.0, abs=1e-4)  # its own turn, through the new index
        assert best.id in {r["id"] for r in graph.read("user_turns", user_id=user_id)
                           if r["text"] == "I live in Denver."}


def test_a_killed_reembed_resumes_where_it_stopped(graph, user_id, space):
    Memory(graph, embedder=FakeVectors()).ingest([_transcript(user_id)])
    total = sum(reembed_counts(graph, u)["pending"] for u in all_user_ids(graph))
    target = FakeVectors("fake-next", 384)

    def killed(phase, done, _total):
        if phase == "embedding" and done >= 10:
            raise KeyboardInterrupt  # as a kill between two batches (each is one transaction)

    with pytest.raises(KeyboardInterrupt):
        reembed(graph, target, batch=5, on_progress=killed)
    unfinished = recorded(graph)
    assert unfinished.model == space.model and unfinished.target_model == "fake-next"
    with pytest.raises(VectorSpaceMismatch, match="unfinished"):  # no door opens it meanwhile
        Memory(graph, embedder=FakeVectors()).search(user_id, "where do I live?")
    first = target.calls
    report = reembed(graph, target, batch=5)
    assert report.embedded == target.calls - first  # only what the killed run had not staged
    assert target.calls == total  # every embedded node of the database once, none twice
    assert not report.indexes_rebuilt  # same width: the indexes stay
    assert recorded(graph).model == "fake-next"
    for r in _embedded(graph, user_id):
        assert np.allclose(r["v"], target.embed_documents([r["text"]])[0])


def test_real_models_reembed_and_search(graph, user_id, space):
    """Ingest with one real model, re-embed to another, search with it."""
    other = "bge-small" if DEFAULT_EMBEDDER != "bge-small" else "minilm"
    first, second = configured(DEFAULT_EMBEDDER), configured(other)
    if space.model != first.name:
        _put_back(graph, first.name, first.dimensions)
    Memory(graph, embedder=first).ingest([_transcript(user_id)])
    report = Memory(graph, embedder=first).reembed(other, batch=64)
    assert report.model_from == first.name and report.model_to == second.name
    rows = _embedded(graph, user_id)
    texts = [r["text"] for r in rows]
    want = second.embed_documents(texts)
    assert all(np.dot(r["v"], w) > 0.98 for r, w in zip(rows, want, strict=True))
    found = Memory(graph, embedder=second).search(user_id, "which city did I move to?", k=5,
                                                  config="dense")
    assert any("Seattle" in e.text for e in found)
