"""The BM25 indexes analysed as English (schema 0014): a word finds its other forms, a user id made
only of stop words is still searched alone and in full, and a tunnel branch with no words gets no
heads."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.lucene import scopes_user, user_scoped_query
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.retrieval import preset
from graphmem.retrieval.query import analyse
from graphmem.retrieval.tunnels import graph_tunnel
from graphmem.store import search as store
from graphmem.store.admin import forget_user
from tests.helpers import FakeVectors

TURNS = ["I finally fixed the leaking tap in the bathroom.",
         "We attended my cousin's wedding in Porto last weekend.",
         "My manager moved our weekly meeting to Thursdays."]


def _session(user_id: str, turns: list[str], sid: str = "s1") -> Transcript:
    return Transcript(user_id, [SessionRecord(sid, datetime(2024, 5, 2, tzinfo=UTC),
                                              [TurnRecord("user", t) for t in turns])])


def _turn_texts(evidence) -> list[str]:
    return [e.text for e in evidence if e.type == "turn"]


def test_the_text_indexes_are_english_and_the_entity_index_is_not(graph):
    with graph.session(read_only=True) as s:
        rows = s.run("SHOW FULLTEXT INDEXES YIELD name, options "
                     "RETURN name, options.indexConfig['fulltext.analyzer'] AS analyzer").data()
    analyzers = {r["name"]: r["analyzer"] for r in rows}
    assert analyzers["turn_text"] == analyzers["piece_text"] == analyzers["fact_text"] == "english"
    assert analyzers["entity_text"] == "standard-no-stop-words"  # names are not stemmed


def test_a_word_finds_its_other_forms(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([_session(user_id, TURNS)])
    found = _turn_texts(mem.search(user_id, "How many weddings have I attended?", config="bm25"))
    assert found[0] == TURNS[1]  # "weddings" / "attended" against "wedding" / "attended"
    assert _turn_texts(mem.search(user_id, "fixing taps", config="bm25"))[0] == TURNS[0]


@pytest.mark.parametrize("stop_only", ["will", "it-is-this"])
def test_a_user_id_of_stop_words_is_searched_alone_and_not_starved(graph, stop_only):
    """The analyser drops every word of such an id, so Lucene cannot scope the query to it: the
    tunnel fetches past the usual limit and keeps this user's rows only — even when other users
    hold more matching turns than that limit, each saying the word more often."""
    assert not scopes_user(stop_only) and scopes_user("will-smith")
    decoys = [f"{stop_only}-decoy-{i}" for i in range(2)]
    mem = Memory(graph, embedder=FakeVectors())
    for uid in [stop_only, *decoys]:
        forget_user(graph, uid)
    try:
        many = [f"Wedding {n}: the wedding cake, the wedding band and the wedding dress."
                for n in range(150)]
        mem.ingest([_session(d, many, sid=f"w{i}") for i, d in enumerate(decoys)])
        mem.ingest([_session(stop_only, TURNS)])
        assert preset("bm25").fulltext_limit < len(decoys) * len(many)
        res = mem.search_full(stop_only, "Which wedding did I go to?", config="bm25")
        assert res.evidence and _turn_texts(res.evidence)[0] == TURNS[1]
        # nothing of the decoys (their sessions are w0, w1; they speak of cakes and bands)
        for found in (res.evidence, mem.search(stop_only, "Which wedding did I go to?")):
            assert {e.session_source_id for e in found} == {"s1"}
            assert not [e for e in found if "cake" in e.text]
    finally:
        for uid in [stop_only, *decoys]:
            forget_user(graph, uid)


def test_a_graph_branch_with_no_words_gets_no_heads(graph, user_id):
    """A question whose only word is a name has no words for the fact index: its placeholder
    query must not bring the user's facts as heads (an empty phrase matches every fact)."""
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([_session(user_id, ["My sister Lucia lives in Boston.", "I work as a nurse.",
                                   "I moved to Denver in March."])])
    cfg = preset("fused")
    q = analyse("What about Lucia?", None)
    assert q.mentions == ("Lucia",) and q.keys == ("lucia",)
    hits = graph_tunnel(graph, user_id, q, cfg)
    assert not [h for h in hits if h.head.startswith("fact:")]
    q = analyse("Where does she work as a nurse?", None)
    assert [h for h in graph_tunnel(graph, user_id, q, cfg) if h.head.startswith("fact:")]


def test_no_bm25_head_was_said_after_the_question_date(graph, user_id):
    """Turns, pieces and facts alike: what was said after the question date takes no head."""
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [
        SessionRecord("early", datetime(2024, 1, 10, tzinfo=UTC),
                      [TurnRecord("user", "We booked the wedding venue in Porto. It has a garden.")]),
        SessionRecord("late", datetime(2024, 7, 1, tzinfo=UTC),
                      [TurnRecord("user", "The wedding venue cancelled on us. We need a new one.")])])])
    lucene = user_scoped_query("wedding venue", user_id)
    cutoff = datetime(2024, 3, 1, tzinfo=UTC)
    rows = store.bm25_heads(graph, user_id, lucene, limit=200, heads=20, known_at=cutoff)
    with graph.session(read_only=True) as s:
        late = {r["id"] for r in s.run(
            "MATCH (t:Turn {user_id: $u, session_source_id: 'late'}) RETURN t.id AS id",
            u=user_id)}
    assert {r["type"] for r in rows} >= {"turn", "piece"}
    assert late and not [r for r in rows if r["turn_id"] in late]
    everything = store.bm25_heads(graph, user_id, lucene, limit=200, heads=20)
    assert {r["type"] for r in everything if r["turn_id"] in late} >= {"turn", "piece"}


def test_the_user_clause_filters_and_does_not_score(graph, user_id):
    """Scored, `+user_id:"…"` added one constant to every hit of the user (squeezing the
    normalised scores the tunnel merges turns, pieces and facts by); with boost 0 a hit scores
    what the words alone give it."""
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [SessionRecord("s", datetime(2024, 1, 10, tzinfo=UTC), [
        TurnRecord("user", "We booked the wedding venue in Porto."),
        TurnRecord("user", "The florist for the wedding is my aunt.")])])])
    rows = store.bm25_heads(graph, user_id, user_scoped_query("wedding venue", user_id),
                            limit=200, heads=20)
    turns = {r["id"]: r["score"] for r in rows if r["type"] == "turn"}
    assert len(turns) == 2
    with graph.session(read_only=True) as s:
        words_only = {r["id"]: r["score"] for r in s.run(
            "CALL db.index.fulltext.queryNodes('turn_text', 'text:wedding text:venue', "
            "{limit: 100000}) YIELD node, score WHERE node.user_id = $u "
            "RETURN node.id AS id, score", u=user_id)}
    assert turns == pytest.approx({i: words_only[i] for i in turns})
