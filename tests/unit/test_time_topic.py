"""A question's time phrase is searched as its window W, not as words."""

from datetime import UTC, datetime

import pytest

from graphmem.retrieval.query import analyse, without_time

ASKED = datetime(2023, 3, 28, 20, 35, tzinfo=UTC)


@pytest.mark.parametrize("question,topic", [
    ("What was the business milestone I mentioned four weeks ago?",
     "What was the business milestone I mentioned ?"),
    ("How many hours of yoga did I do last week?", "How many hours of yoga did I do ?"),
    ("Which book did I finish a week ago?", "Which book did I finish ?"),
    ("What did I do with Rachel on the Wednesday two months ago?",
     "What did I do with Rachel on the Wednesday ?"),
])
def test_the_resolved_time_phrase_leaves_the_keys(question, topic):
    q = analyse(question, ASKED)
    assert q.intent.window is not None
    assert q.topic == topic
    assert not {"weeks", "week", "ago", "months"} & set(q.keys)
    assert q.text == question  # the question itself is kept


@pytest.mark.parametrize("question,topic", [
    ("How much cashback did I earn at SaveMart last Thursday?",
     "How much cashback did I earn at SaveMart Thursday ?"),
    ("How many bikes did I service in January?", "How many bikes did I service January ?"),
    ("What did I do on 4 February, 2023?", "What did I do on 4 February 2023 ?"),
])
def test_calendar_names_stay(question, topic):
    assert analyse(question, ASKED).topic == topic


@pytest.mark.parametrize("question", [
    "What should I cook this weekend?",  # ahead of the question date
    "How many weddings have I attended this year?",  # reaches it
])
def test_a_phrase_that_reaches_the_question_date_stays(question):
    q = analyse(question, ASKED)
    assert q.intent.window is not None and q.topic == question


def test_a_question_without_a_time_phrase_is_its_own_topic():
    q = analyse("Where did I buy my running shoes?", ASKED)
    assert q.topic == q.text and q.intent.window is None


def test_nothing_but_the_time_keeps_its_words():
    q = analyse("What did I do last week?", ASKED)
    assert q.intent.window is not None
    assert q.topic == q.text and "week" in q.keys


def test_without_time_cuts_every_span_once():
    text = "Did I run last week or two weeks ago?"
    spans = [(text.index("last week"), text.index("last week") + 9),
             (text.index("two weeks ago"), text.index("two weeks ago") + 13)]
    assert without_time(text, spans) == "Did I run or ?"
    assert without_time("Was it last Tuesday?", [(7, 19)]) == "Was it Tuesday ?"
    assert without_time(text, []) == text
