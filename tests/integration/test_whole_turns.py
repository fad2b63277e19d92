"""Whole turns: a user turn longer than the embedder's window is scored by its best part (its own
vector or one of its pieces'), so what it says at its end is found by dense search."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.compose import embedder as configured_embedder
from graphmem.ingest import IngestOptions
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.store.search import dense_heads

OPENING = ("We finally started renovating the kitchen this month and it has taken over my life. "
           "The contractor wants to move the sink under the window, which means new plumbing "
           "and a permit from the city, and the cabinets we ordered in oak are six weeks late. "
           "I spent the whole weekend comparing quartz and granite countertops at two showrooms. "
           "The quartz is easier to keep clean but the granite samples looked warmer in our "
           "light, and the price difference is smaller than I expected after the discount. "
           "We are also debating whether an induction range is worth the new wiring it needs. "
           "The electrician says the panel is old and may have to be replaced before winter, "
           "and the flooring people cannot come until the cabinets are in, so everything waits. "
           "Meanwhile we cook on a camping stove in the dining room and wash dishes in the tub. "
           "The tile for the backsplash is still undecided: my partner likes a green zellige and "
           "I keep coming back to plain white subway tile because it will not date as quickly. "
           "We also found water damage under the old dishwasher, so part of the subfloor has to "
           "be cut out and replaced, which adds another week and a bill nobody planned for. "
           "The neighbours have been patient about the noise, and we brought them cookies. ")
LAST = "Oh, and my sister Lucia finally adopted a golden retriever puppy and named him Biscuit."
LONG = OPENING + LAST
OTHERS = ["My sister Lucia lives in Boston and works as a nurse.",
          "I started taking Spanish lessons on Tuesday evenings.",
          "I bought a used road bike for my commute.",
          "We are planning a trip to Lisbon in the autumn."]
QUERY = "What did my sister name her new puppy?"


def _user(user_id: str) -> Transcript:
    turns = [TurnRecord("user", t) for t in OTHERS[:2]] + [TurnRecord("user", LONG)] + [
        TurnRecord("user", t) for t in OTHERS[2:]]
    return Transcript(user_id, [SessionRecord("s1", datetime(2024, 5, 2, tzinfo=UTC), turns)])


@pytest.fixture(scope="module")
def minilm():
    return configured_embedder()


def _fills_the_window(embedder, text: str) -> bool:
    """Whether `text` alone is at least as long as the embedder reads of one text."""
    if hasattr(embedder, "max_length"):  # ONNX models: their tokenizer truncates at the window
        return len(embedder.tokenizer.encode(text).ids) >= embedder.max_length
    return len(embedder._load().tokenizer(text)["input_ids"]) > embedder.max_seq_length


def _long_turn_rank(mem: Memory, user_id: str) -> int:
    """Where the dense tunnel ranks the long turn among the user's turns (its own ranking, before
    fusion spreads a head's mass over the turn's neighbours in these five-turn sessions)."""
    with mem.graph.session(read_only=True) as s:
        long_id = s.run("MATCH (t:Turn {user_id: $u}) WHERE t.text = $text RETURN t.id AS id",
                        u=user_id, text=LONG).single()["id"]
    rows = dense_heads(mem.graph, user_id, mem.embedder.embed_query(QUERY), heads=10,
                       min_cosine=0.0)
    return [r["id"] for r in rows if r["type"] == "turn"].index(long_id)


def test_the_turn_whose_answer_is_its_last_sentence_ranks_first(graph, user_id, minilm):
    assert _fills_the_window(minilm, OPENING)
    mem = Memory(graph, embedder=minilm)
    mem.ingest([_user(user_id)])
    assert _long_turn_rank(mem, user_id) == 0
    with graph.session(read_only=True) as s:
        pieces = s.run("MATCH (p:MessagePiece {user_id: $u}) WHERE p.embedding IS NOT NULL "
                       "RETURN p.text AS text, p.mentioned_at AS at", u=user_id).data()
    assert LAST in {p["text"] for p in pieces}  # only the long turn's pieces carry vectors,
    assert all(p["text"] in LONG and p["at"] is not None for p in pieces)
    read = minilm.window_ends([LONG])[0]  # and only those past what its own vector reads
    assert read < len(LONG) and all(LONG.index(p["text"]) + len(p["text"]) > read for p in pieces)


def test_without_piece_vectors_the_opening_alone_hides_it(graph, user_id, minilm):
    """The same memory written the old way (turn vectors only): the long turn is represented by
    its opening and loses to a short turn about the sister, so the piece vectors are what rank it."""
    mem = Memory(graph, embedder=minilm, options=IngestOptions(embed_long_turn_pieces=False))
    mem.ingest([_user(user_id)])
    assert _long_turn_rank(mem, user_id) > 0


def test_index_and_exact_scan_score_a_turn_by_its_best_part(graph, user_id, minilm):
    Memory(graph, embedder=minilm).ingest([_user(user_id)])
    vector = minilm.embed_query(QUERY)
    index = dense_heads(graph, user_id, vector, heads=10, min_cosine=0.0)
    exact = dense_heads(graph, user_id, vector, heads=10, min_cosine=0.0, exact=True)
    assert [r["id"] for r in index if r["type"] == "turn"] == [
        r["id"] for r in exact if r["type"] == "turn"]
    assert len({r["id"] for r in index if r["type"] == "turn"}) == len(OTHERS) + 1  # one row a turn
    piece = minilm.embed_documents([LAST])[0]
    best = dense_heads(graph, user_id, piece, heads=1, min_cosine=0.0)
    # the last sentence's own vector (an int8 model moves a vector slightly with its batch mates)
    assert best[0]["score"] == pytest.approx(1.0, abs=5e-3)
