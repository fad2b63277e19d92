"""Answers that agree with search (issue 32, item 4), through `Memory` against a real Neo4j:
status is always as of the time asked (facts and search with `as_of` label what held then
`active`, and its turn is not stale), search's scores never rise down its list, and the offline
answer's evidence starts from search's first turn."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.memory import Memory
from graphmem.models import TurnRecord
from tests.helpers import FakeVectors

JAN_15 = datetime(2026, 1, 15, tzinfo=UTC)
APR_1 = datetime(2026, 4, 1, tzinfo=UTC)


@pytest.fixture
def moved(graph, user_id) -> Memory:
    """Lived in Leeds in January, moved to Manchester in March."""
    mem = Memory(graph, embedder=FakeVectors())
    mem.append(user_id, "s1", [
        TurnRecord("user", "I live in Leeds, in a flat near the university.", source_id="m1"),
        TurnRecord("assistant", "Leeds is a lovely city.", source_id="m2")],
        session_time="2026-01-05T10:00:00Z")
    mem.append(user_id, "s2", [
        TurnRecord("user", "I moved to Manchester last week, the new flat is bigger.",
                   source_id="m3"),
        TurnRecord("assistant", "Congratulations on the move to Manchester!", source_id="m4")],
        session_time="2026-03-10T10:00:00Z")
    return mem


def test_facts_as_of_label_what_held_then_active(moved, user_id):
    then = moved.facts(user_id, as_of=JAN_15, predicate="lives_in")
    assert [(f.value, f.status) for f in then] == [("Leeds", "active")]
    assert then[0].valid_until is not None  # its interval is as known today
    later = moved.facts(user_id, as_of=APR_1, predicate="lives_in")
    assert [(f.value, f.status) for f in later] == [("Manchester", "active")]
    history = moved.facts(user_id, history=True, predicate="lives_in")  # today's statuses
    assert {f.value: f.status for f in history} == {"Leeds": "superseded",
                                                    "Manchester": "active"}


@pytest.mark.parametrize("query", ["Where do I live?", "Where did I live?",
                                   "Which city am I living in?"])
def test_search_as_of_shows_what_held_then_and_its_turn_not_stale(moved, user_id, query):
    found = moved.search(user_id, query, as_of=JAN_15, k=6)
    assert found and all(e.status != "stale" for e in found), [(e.type, e.status) for e in found]
    leeds = [e for e in found if e.type == "fact" and "Leeds" in e.text]
    assert leeds and leeds[0].status == "active"
    assert "m1" in found[0].source_turn_ids
    assert all("m3" not in e.source_turn_ids for e in found)  # not said yet on 15 January


def test_search_today_still_marks_the_old_turn_stale(moved, user_id):
    found = moved.search(user_id, "Where do I live?", k=6)
    assert "m3" in found[0].source_turn_ids
    assert any(e.status == "stale" and "m1" in e.source_turn_ids for e in found)


def test_search_scores_never_rise_down_the_list(graph, user_id):
    """The rules that reorder after fusion (the latest of two turns on one topic first) leave
    the scores in rank order."""
    mem = Memory(graph, embedder=FakeVectors())
    for sid, at, text in (
            ("s1", "2026-01-05", "My sister Jess is due on the 25th, we are so excited about the "
                                 "baby and Jess."),
            ("s2", "2026-01-27", "Jess had her baby yesterday!"),
            ("s3", "2026-02-05", "I'm reading Dune at the moment and the Dune books are great, "
                                 "Dune is my thing."),
            ("s4", "2026-03-05", "I'm reading Emma at the moment.")):
        mem.append(user_id, sid, [TurnRecord("user", text, source_id=sid)],
                   session_time=f"{at}T10:00:00Z")
    for query, latest in (("any news about Jess?", "s2"),
                          ("What am I reading these days?", "s4")):
        found = mem.search(user_id, query, k=8)
        scores = [e.score for e in found]
        assert scores == sorted(scores, reverse=True), (query, scores)
        assert latest in found[0].source_turn_ids


@pytest.mark.parametrize("question, question_date", [
    ("Where did I live in January?", APR_1),
    ("Where do I live now?", APR_1),
    ("Where do I live?", datetime(2026, 2, 1, tzinfo=UTC)),
])
def test_the_offline_answer_starts_from_searchs_first_turn(moved, user_id, question,
                                                           question_date):
    first = moved.search(user_id, question, question_date=question_date, k=10)[0]
    ans = moved.answer(user_id, question, question_date=question_date, offline=True)
    assert ans.citations and ans.citations[0].turn_id == first.turn_id
    assert ans.text.splitlines()[1].endswith(f"[turn:{first.turn_id.removeprefix('turn:')}]")


def test_the_january_answer_cites_leeds_first(moved, user_id):
    ans = moved.answer(user_id, "Where did I live in January?", question_date=APR_1,
                       offline=True)
    assert ans.citations[0].source_turn_id == "m1" and "Leeds" in ans.citations[0].quote
