"""Retrieval in a real Neo4j: isolation between users, exact dense neighbours, currency, as_of."""

from datetime import UTC, datetime

import numpy as np
import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.compose import embedder as configured_embedder
from graphmem.errors import OutOfBounds
from graphmem.memory import MAX_QUERY_CHARS, Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.retrieval import PRESETS, preset
from graphmem.retrieval.query import analyse
from graphmem.retrieval.tunnels import dense_tunnel
from graphmem.store.admin import forget_user
from tests.helpers import _transcript

PRESET_NAMES = sorted(PRESETS)


@pytest.fixture(scope="module")
def minilm():
    return configured_embedder()


def _owner_of(graph, ids):
    with graph.session(read_only=True) as s:
        rows = s.run("UNWIND $ids AS id "
                     "CALL (id) { MATCH (n:Turn {id: id}) RETURN n UNION MATCH (n:FactEvent {id: id}) "
                     "RETURN n UNION MATCH (n:MessagePiece {id: id}) RETURN n } "
                     "RETURN DISTINCT n.user_id AS u", ids=ids).data()
    return {r["u"] for r in rows}


def _diary(user_id, topic, n_sessions=3):
    sessions = []
    for i in range(n_sessions):
        turns = [TurnRecord("user", f"I went hiking at {topic} Ridge number {i} with my dog."),
                 TurnRecord("assistant", f"Sounds fun! {topic} Ridge is beautiful in spring."),
                 TurnRecord("user", f"My favorite trail snack at {topic} is trail mix {i}.")]
        sessions.append(SessionRecord(f"{topic}-s{i}", datetime(2024, 1 + i, 5, tzinfo=UTC), turns))
    return Transcript(user_id, sessions)


def test_no_search_returns_another_users_evidence(graph, user_id, minilm):
    other = user_id + "-x"
    mem = Memory(graph, embedder=minilm)
    try:
        mem.ingest([_diary(user_id, "Maple"), _diary(other, "Cedar")])
        with graph.session(read_only=True) as s:
            their_words = [r["t"] for r in s.run("MATCH (t:Turn {user_id: $u}) RETURN t.text AS t",
                                                  u=other).data()]
        assert their_words
        for name in PRESET_NAMES:
            for q in their_words + ["Cedar Ridge", "trail mix"]:
                found = mem.search(user_id, q, k=50, config=name)
                if found:
                    assert _owner_of(graph, [e.id for e in found]) == {user_id}, (name, q)
                    assert all("Cedar" not in e.text for e in found)
    finally:
        forget_user(graph, other)


def test_dense_tunnel_returns_the_users_true_nearest_neighbours(graph, user_id, minilm):
    """Decoy users say the very same words; a global top-k would be all decoys."""
    decoys = [f"{user_id}-decoy{i}" for i in range(6)]
    mem = Memory(graph, embedder=minilm)
    try:
        mem.ingest([_diary(u, "Maple", n_sessions=4) for u in [*decoys, user_id]])
        query = "hiking with my dog at the ridge"
        q = analyse(query)
        heads = dense_tunnel(graph, user_id, q, preset("dense").with_(turn_window=0, heads=8),
                             minilm.embed_query(query))
        got = [h.id for h in sorted(heads, key=lambda h: h.rank) if h.type == "turn" and h.direct]
        with graph.session(read_only=True) as s:
            rows = s.run("MATCH (t:Turn {user_id: $u}) WHERE t.embedding IS NOT NULL "
                         "RETURN t.id AS id, t.embedding AS v", u=user_id).data()
        qv = np.asarray(minilm.embed_query(query))
        exact = sorted(rows, key=lambda r: -float(np.dot(qv, r["v"]) / np.linalg.norm(r["v"])))
        assert got and got == [r["id"] for r in exact[: len(got)]]
        assert _owner_of(graph, got) == {user_id}
    finally:
        for u in decoys:
            forget_user(graph, u)


def test_present_question_ranks_current_fact_above_superseded(graph, user_id, minilm):
    mem = Memory(graph, embedder=minilm)
    mem.ingest([_transcript(user_id)])
    now = datetime(2024, 8, 1, tzinfo=UTC)
    res = mem.search(user_id, "Where do I live now?", question_date=now, k=20)
    seattle = next(i for i, e in enumerate(res) if e.type == "fact" and "Seattle" in e.text)
    denver = [i for i, e in enumerate(res) if "Denver" in e.text]
    assert res[seattle].status == "active"
    assert denver and all(seattle < i for i in denver)
    assert all(res[i].type != "fact" and res[i].status == "stale" for i in denver)
    assert not any(e.type == "fact" and e.status != "active" for e in res)
    history = mem.search(user_id, "Where did I live before I moved?", question_date=now, k=30)
    stale = [e for e in history if e.type == "fact" and e.status == "superseded"]
    assert any("Denver" in e.text for e in stale)


def test_as_of_and_temporal_window(graph, user_id, minilm):
    mem = Memory(graph, embedder=minilm)
    mem.ingest([_transcript(user_id)])
    then = mem.search(user_id, "Where do I live?", as_of=datetime(2024, 2, 15, tzinfo=UTC), k=20)
    lives = [e for e in then if e.type == "fact" and "lives in" in e.text]
    assert lives and "Denver" in lives[0].text
    assert all(e.mentioned_at <= datetime(2024, 2, 15, tzinfo=UTC) for e in then)
    res = mem.search_full(user_id, "What did I move last weekend?",
                          question_date=datetime(2024, 4, 2, 12, tzinfo=UTC), k=10)
    assert res.analysis.intent.window is not None
    assert any(e.time_bonus > 0 for e in res.evidence)


def test_lucene_and_cypher_looking_queries_are_safe(graph, user_id, minilm):
    mem = Memory(graph, embedder=minilm)
    mem.ingest([_diary(user_id, "Maple")])
    for q in ['title:(foo) AND "bar', "*?~^ \\ / [] {}", "MATCH (n) DETACH DELETE n",
              "' OR 1=1 //", "x" * MAX_QUERY_CHARS, "🙂 漢字"]:
        for name in PRESET_NAMES:
            mem.search(user_id, q, k=5, config=name)
    with pytest.raises(OutOfBounds):  # longer than every door accepts: refused, not searched
        mem.search(user_id, "x" * 20000, k=5)
    with graph.session(read_only=True) as s:
        assert s.run("MATCH (t:Turn {user_id: $u}) RETURN count(t) AS n", u=user_id).single()["n"] == 9


def test_search_cli_explain_and_unknown_user(graph, user_id, minilm, monkeypatch):
    Memory(graph, embedder=minilm).ingest([_diary(user_id, "Maple")])
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    out = CliRunner().invoke(main, ["search", "--user", user_id, "--explain", "hiking with dog"])
    assert out.exit_code == 0, out.output
    assert "Maple-s" in out.output and "tunnels:" in out.output and "density=" in out.output
    # the rerank steps as configured, in order, with what each did
    steps = out.output.split("rerank steps, in order:\n", 1)[1].splitlines()
    configured = list(preset("fused").steps)
    assert [line.split()[0] for line in steps[:len(configured)]] == configured
    assert "  off: coverage" in steps
    bad = CliRunner().invoke(main, ["search", "--user", user_id + "-none", "anything"])
    assert bad.exit_code == 1 and "no memory for user" in bad.stderr


def test_a_turn_stale_on_the_asked_slot_is_penalised_even_with_other_current_facts(
        graph, user_id, minilm):
    from importlib import resources

    from graphmem.loaders import load
    from graphmem.models import Transcript

    sample = resources.files("graphmem").joinpath("samples/sample.jsonl")
    mem = Memory(graph, embedder=minilm)
    mem.ingest([Transcript(user_id, t.sessions) for t in load(str(sample))])
    res = mem.search(user_id, "Where do I live now?", question_date=datetime(2024, 7, 1, tzinfo=UTC))
    # "I live in Denver and I work at Acme Robotics as a mechanical engineer": the occupation is
    # still current, but what the question asks about (where the user lives) is not.
    denver = next(e for e in res if e.type == "turn" and "live in Denver" in e.text)
    assert denver.status == "stale"
    assert "Seattle" in res[0].text


def test_near_duplicates_pair_the_same_words_within_one_user_only(graph, user_id):
    """The near-duplicate query pairs turns whose vectors are (nearly) the same, among the ids
    given, and never pairs with another user's node, even when its id is sent."""
    from datetime import UTC, datetime

    from graphmem.memory import Memory
    from graphmem.models import SessionRecord, Transcript, TurnRecord, stable_id
    from graphmem.store.search import near_duplicates
    from tests.helpers import FakeVectors

    other = user_id + "-other"
    said = ["I adore hiking in the Alps.", "My sister lives in Leeds.", "I adore hiking in the Alps."]
    mem = Memory(graph, embedder=FakeVectors())
    try:
        for uid in (user_id, other):
            mem.ingest([Transcript(uid, [SessionRecord(f"s{i}", datetime(2024, 1, i + 1, tzinfo=UTC),
                                                       [TurnRecord("user", text)])
                                         for i, text in enumerate(said)])])
        mine = [stable_id("turn", user_id, f"s{i}", 1) for i in range(3)]
        theirs = [stable_id("turn", other, f"s{i}", 1) for i in range(3)]
        assert near_duplicates(graph, user_id, mine + theirs, [], 0.95) == {frozenset((mine[0], mine[2]))}
        assert near_duplicates(graph, user_id, theirs, [], 0.95) == set()
    finally:
        forget_user(graph, other)


def test_a_search_merges_near_duplicates(graph, user_id):
    """A turn said twice in the same words is one item of a search, the other folded into it by
    the merge step (its pairs from the near-duplicate query); with the step off both stay."""
    from graphmem.models import stable_id
    from tests.helpers import FakeVectors

    said = ["I adore hiking in the Alps.", "My sister lives in Leeds.", "I adore hiking in the Alps."]
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [SessionRecord(f"s{i}", datetime(2024, 1, i + 1, tzinfo=UTC),
                                                   [TurnRecord("user", text)])
                                     for i, text in enumerate(said)])])
    twice = {stable_id("turn", user_id, f"s{i}", 1) for i in (0, 2)}
    res = mem.retriever.search(user_id, "hiking in the Alps", k=10)
    kept = [e for e in res.evidence if e.id in twice]
    assert len(kept) == 1 and set(kept[0].merged) == twice - {kept[0].id}
    apart = mem.retriever.search(user_id, "hiking in the Alps", k=10,
                                 config=preset("fused").without("merge"))
    assert twice <= {e.id for e in apart.evidence}
