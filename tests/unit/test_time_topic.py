"""A question's time phrase is searched as its window W, not as words."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from graphmem.retrieval.query import analyse, leave_out_names, without_time
from graphmem.retrieval.tunnels import _search_window

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


@pytest.mark.parametrize("question,topic", [
    ("What did I buy 3 weeks ago?", "What did I buy ?"),  # a count, not a date
    ("What did I buy in the past 3 weeks?", "What did I buy ?"),
    ("What did I do on June 26, 2022?", "What did I do on June 26 2022 ?"),
    ("What did I do on Boxing Day 2022?", "What did I do Boxing Day 2022 ?"),
])
def test_numbers_stay_only_as_dates(question, topic):
    assert analyse(question, ASKED).topic == topic


@pytest.mark.parametrize("question,searched,topic,left_out", [
    # the topic without the name still has words
    ("What did Caroline paint last week?", "What did paint ?",
     "What did Caroline paint ?", ("Caroline",)),
    # without name and time nothing is left: the time words come back
    ("What did Caroline do last week?", "What did do last week?",
     "What did Caroline do last week?", ("Caroline",)),
    # nothing but names: the question as asked
    ("What did Caroline say about Melanie?", "What did Caroline say about Melanie?",
     "What did Caroline say about Melanie?", ()),
])
def test_leaving_out_names_keeps_something_to_search(question, searched, topic, left_out):
    plain = analyse(question, ASKED)
    names = ["Caroline", "Melanie"] if "Melanie" in question else ["Caroline"]
    assert leave_out_names(plain.topic, question, names) == (topic, searched, left_out)
    # analysed with the user's speakers, the question comes out so in one analysis
    speakers = {"Caroline": [], "Melanie": [], "Jon": []}
    q = analyse(question, ASKED, speakers=speakers)
    assert (q.topic, q.search_text, q.speaker_names) == (topic, searched, left_out)
    assert q.speaker == ("Caroline" if "Melanie" not in question else None)
    assert q.keys


def test_the_search_window_ends_before_its_end_and_at_the_question_date():
    q = analyse("What did I buy yesterday?", datetime(2024, 4, 29, 10, tzinfo=UTC))
    since, until = _search_window(q)
    assert since == datetime(2024, 4, 28, tzinfo=UTC)
    assert until < datetime(2024, 4, 29, tzinfo=UTC) <= until + timedelta(microseconds=1)
    berlin = analyse("What did I buy last week?",
                     datetime(2024, 4, 29, 10, tzinfo=ZoneInfo("Europe/Berlin")))
    assert all(t.tzinfo == UTC for t in _search_window(berlin))  # fixed offset, as stored
    assert _search_window(analyse("What will I buy next week?", ASKED)) is None  # not said yet
    assert _search_window(analyse("What did I buy this year?", ASKED)) is None  # reaches now
