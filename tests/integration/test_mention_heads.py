"""A fact kept as a mention (a state read in passing: FactEvent.mention) is no search head or hit
by default — its few words match a question's topic better than the turn that answers it — but
its turn still is found, and `mention_heads` brings it back."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from graphmem import predicates as registry
from graphmem.compose import embedder as configured_embedder
from graphmem.lucene import user_scoped_query
from graphmem.memory import Memory
from graphmem.models import FactCandidate, RoleRef, SessionRecord, Transcript, TurnRecord
from graphmem.retrieval import Retriever, preset
from graphmem.store.search import bm25_heads, dense_heads, vector_index_filters

IN_PASSING = "Long day. Anyway, the Yamaha acoustic guitar needs new strings before Friday."
TOLD = "I sold my old drum kit to a neighbour last month."
MENTION = FactCandidate(kind="possession", predicate="owns",
                        text=registry.statement("User", "owns", "Yamaha acoustic guitar"),
                        support="the Yamaha acoustic guitar", value="Yamaha acoustic guitar",
                        roles=[RoleRef("object", "Yamaha acoustic guitar", "thing")],
                        extracted_by="model:test", competes=False)
STATE = FactCandidate(kind="event", predicate="sold", text="User sold their old drum kit.",
                      support="sold my old drum kit", value="old drum kit",
                      roles=[RoleRef("object", "old drum kit", "thing")],
                      extracted_by="rule:test")


class Said:
    name = "scripted"

    def extract(self, text, role):
        if role != "user":
            return []
        return [c for c in (MENTION, STATE) if c.support in text]  # per piece (sentence)


@pytest.fixture(scope="module")
def user(neo4j_graph):
    user_id = f"mentions:{uuid.uuid4().hex[:8]}"
    mem = Memory(neo4j_graph, extractor=Said(), embedder=configured_embedder())
    mem.ingest([Transcript(user_id, [SessionRecord("s1", datetime(2024, 5, 2, tzinfo=UTC), [
        TurnRecord("user", IN_PASSING), TurnRecord("user", TOLD)])])])
    with neo4j_graph.session(read_only=True) as s:
        facts = {r["mention"]: r["id"] for r in s.run(
            "MATCH (f:FactEvent {user_id: $u}) RETURN f.id AS id, f.mention AS mention",
            u=user_id)}
    yield mem, user_id, facts
    mem.forget(user_id)


def _ids(rows):
    return {r["id"] for r in rows}


def test_a_mention_is_no_bm25_or_dense_head_unless_asked(neo4j_graph, user):
    mem, user_id, facts = user
    mention, told = facts[True], facts[False]
    lucene = user_scoped_query("yamaha acoustic guitar drum kit", user_id)
    vector = mem.embedder.embed_query("Which guitar do I own?")
    assert vector_index_filters(neo4j_graph)  # so exact=False runs the vector-index query
    for mentions in (False, True):
        got = _ids(bm25_heads(neo4j_graph, user_id, lucene, limit=50, heads=10,
                              mentions=mentions))
        assert told in got and (mention in got) == mentions
        for exact in (False, True):
            got = _ids(dense_heads(neo4j_graph, user_id, vector, heads=10, min_cosine=0.0,
                                   exact=exact, mentions=mentions))
            assert told in got and (mention in got) == mentions, (exact, mentions)


def test_the_turn_of_a_mention_is_still_found(neo4j_graph, user):
    mem, user_id, facts = user
    assert not preset("fused").mention_heads
    found = Retriever(neo4j_graph, mem.embedder).search(user_id, "Which guitar do I own?",
                                                       config=preset("fused"))
    assert found.evidence[0].type == "turn" and found.evidence[0].text == IN_PASSING
    assert facts[True] not in {h.id for h in found.hits}  # no tunnel's head or hit
    with_graph = Retriever(neo4j_graph, mem.embedder).search(
        user_id, "Which guitar do I own?", config=preset("fused-with-graph"))
    assert facts[True] not in {h.id for h in with_graph.hits}  # the graph tunnel's neither
    asked = Retriever(neo4j_graph, mem.embedder).search(
        user_id, "Which guitar do I own?", config=preset("fused-with-mention_heads"))
    assert facts[True] in {e.id for e in asked.evidence}


def test_an_answer_reads_a_mention_as_read_in_passing(neo4j_graph, user):
    """The answer's evidence pool shows a turn's mention among its facts, marked as such: the
    reader is told such a fact is often a misreading."""
    from graphmem.answer.pool import EvidencePool

    mem, user_id, facts = user
    with neo4j_graph.session(read_only=True) as s:
        turn_ids = [r["id"] for r in s.run("MATCH (t:Turn {user_id: $u}) RETURN t.id AS id "
                                           "ORDER BY t.idx", u=user_id)]
    pool = EvidencePool(mem, user_id)
    said, told = pool.add_turn_ids(turn_ids)
    assert [n for n in said.notes if "Yamaha" in n] == [
        "fact: User: owns Yamaha acoustic guitar. [active, read in passing]"]
    assert told.notes and not any("read in passing" in n for n in told.notes)
