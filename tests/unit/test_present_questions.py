"""Which questions ask about now, and the change a search finds by itself (fusion)."""

from datetime import UTC, datetime

import pytest

from graphmem.retrieval.fusion import Candidate, chains_in_pool
from graphmem.retrieval.query import temporal_intent
from graphmem.retrieval.rows import Detail

ASKED = datetime(2024, 10, 2, 12, tzinfo=UTC)


@pytest.mark.parametrize("question", [
    "When is my cousin's graduation?",
    "When are the twins due?",
    "when's the dentist appointment?",
    "When do I usually go climbing?",
    "Has Marco sold his flat yet?",
    "Have I finished the sourdough course yet?",
    "How many marathons have I run so far?",
    "Am I still going to the Tuesday choir?",
    "Is the Lisbon trip happening this year?",
    "Where am I working this month?",
])
def test_questions_about_now(question):
    assert temporal_intent(question, ASKED).about_present


@pytest.mark.parametrize("question", [
    "When did I adopt the rabbit?",
    "When was the boiler fixed?",
    "Where did I live last year?",
    "What did I cook in March?",
    "What was my first car?",
    "Where am I going in December?",  # a window wholly ahead of the question date
])
def test_questions_about_another_time(question):
    assert not temporal_intent(question, ASKED).about_present


def test_a_window_holding_the_question_date_is_marked():
    assert temporal_intent("Am I racing this year?", ASKED).now_in_window
    assert not temporal_intent("Did I race last year?", ASKED).now_in_window
    assert not temporal_intent("Is my sister visiting?", ASKED).now_in_window  # no window


def test_yet_looks_for_the_latest():
    assert temporal_intent("Has the parcel arrived yet?", ASKED).direction == "near"


def _fact(id_, slot, status, turn, predicate=None):
    return Detail("fact", id_, id_, slot=slot, status=status, turn_id=turn,
                  predicate=predicate or slot)


def test_a_change_found_among_the_best_candidates_names_the_slot():
    details = [_fact("f-old", "does:climb", "superseded", "t1"),
               _fact("f-new", "does:climb", "active", "t2"),
               _fact("f-other", "likes:tea", "superseded", "t3"),
               _fact("f-tea", "likes:tea", "active", "t4"),
               Detail("turn", "t1", "t1", turn_id="t1")]
    cands = {"f-old": Candidate("f-old", "fact", density=1.0),
             "f-new": Candidate("f-new", "fact", density=0.3),
             "f-other": Candidate("f-other", "fact", density=0.1),
             "f-tea": Candidate("f-tea", "fact", density=0.05),
             "t1": Candidate("t1", "turn", density=0.9)}
    # the tea change is not among the 3 densest candidates: only the climbing slot is asked
    assert chains_in_pool(cands, details, 3) == (["does:climb"], {"t1"})
    # a turn that also states the current version is not stale
    details.append(_fact("f-again", "does:climb", "active", "t1"))
    cands["f-again"] = Candidate("f-again", "fact", density=0.2)
    assert chains_in_pool(cands, details, 3) == (["does:climb"], set())


def test_no_change_without_a_current_version_among_the_candidates():
    details = [_fact("f-old", "lives_in", "superseded", "t1")]
    cands = {"f-old": Candidate("f-old", "fact", density=1.0)}
    assert chains_in_pool(cands, details, 10) == ([], set())
    assert chains_in_pool({}, [], 10) == ([], set())
