"""A question that names when ("four weeks ago") searches what was said then, and its time phrase
is not searched as words."""

from __future__ import annotations

import pytest

from graphmem.compose import embedder as configured_embedder
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.retrieval import preset
from graphmem.store.search import dense_heads
from tests.helpers import dt

QUESTION = "What was the significant business milestone I mentioned four weeks ago?"
ASKED = dt(2024, 4, 29)  # four weeks before: 1 April
THEN = "I just signed a contract with my first client today, so I need a solid template."
# Other weeks, worded much nearer the question than what was said four weeks ago.
OTHER = ["Our bakery business hit a milestone: {n} wholesale orders this month.",
         "A big milestone for my business, we crossed {n} newsletter subscribers.",
         "My business had a significant week, {n} new reviews came in.",
         "Three weeks ago my business partner and I celebrated {n} sales."]


@pytest.fixture(scope="module")
def embedder():
    return configured_embedder()


def _memory(graph, user_id, embedder):
    sessions = [SessionRecord(f"other{k}", dt(2024, 1, 2 + k),
                              [TurnRecord("user", OTHER[k % len(OTHER)].format(n=10 * (k + 2))),
                               TurnRecord("assistant", "Congratulations, well done!")])
                for k in range(26)]
    sessions.append(SessionRecord("then", dt(2024, 4, 1),
                                  [TurnRecord("user", THEN, source_id="then_0"),
                                   TurnRecord("assistant", "Congratulations! Here is a template.")]))
    mem = Memory(graph, embedder=embedder)
    mem.ingest([Transcript(user_id, sessions)])
    return mem


def test_what_was_said_in_the_window_is_found(graph, user_id, embedder):
    mem = _memory(graph, user_id, embedder)
    fused = preset("fused")
    found = mem.retriever.search(user_id, QUESTION, question_date=ASKED, config=fused)
    assert found.analysis.intent.window is not None
    # the time phrase is searched as the window, not as words or in the embedding
    assert found.analysis.topic == "What was the significant business milestone I mentioned ?"
    assert found.embedding == pytest.approx(embedder.embed_query(found.analysis.topic))
    assert "then_0" in found.turn_ranking[:5]
    # Without the window's own heads the turn is not even a candidate: 26 other weeks are nearer.
    without = mem.retriever.search(user_id, QUESTION, question_date=ASKED,
                                   config=fused.with_(window_search=False))
    assert "then_0" not in without.turn_ranking
    # The window's heads are the user's own turns of that week only.
    window = [h.id for h in found.hits if h.head == f"dense:window:turn:{h.id}"]
    assert not any(h.direct for h in found.hits if ":window:" in h.head)  # derived, not claims
    assert window
    assert all(when.date() == dt(2024, 4, 1).date() for when in _mentioned(graph, user_id, window))


def test_the_window_filters_inside_the_index_as_in_the_exact_scan(graph, user_id, embedder):
    _memory(graph, user_id, embedder)
    vector = embedder.embed_query("a business milestone")
    since, until = dt(2024, 1, 10), dt(2024, 1, 20)
    got = dense_heads(graph, user_id, vector, heads=40, min_cosine=0.0, since=since,
                      known_at=until)
    exact = dense_heads(graph, user_id, vector, heads=40, min_cosine=0.0, since=since,
                        known_at=until, exact=True)
    assert got and [(r["type"], r["id"]) for r in got] == [(r["type"], r["id"]) for r in exact]
    turns = [r["id"] for r in got if r["type"] == "turn"]
    assert all(since <= when <= until for when in _mentioned(graph, user_id, turns))
    # the same turns as the whole user's exact ranking kept to those days
    every = [r["id"] for r in dense_heads(graph, user_id, vector, heads=500, min_cosine=0.0,
                                          exact=True) if r["type"] == "turn"]
    days = _mentioned(graph, user_id, every)
    assert turns == [t for t, when in zip(every, days, strict=True) if since <= when <= until]
    assert 10 <= len(turns) < len(every)  # a user turn from each of the ten days, at least


def _mentioned(graph, user_id, turn_ids):
    with graph.session(read_only=True) as s:
        rows = s.run("UNWIND $ids AS id MATCH (t:Turn {id: id}) "
                     "RETURN t.user_id AS u, t.mentioned_at AS at", ids=turn_ids).data()
    assert len(rows) == len(turn_ids) and {r["u"] for r in rows} == {user_id}
    return [r["at"].to_native() for r in rows]  # in the order of turn_ids
