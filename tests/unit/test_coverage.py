"""Coverage questions: which wording asks across sessions, and the spread of a ranking."""

import pytest

from graphmem.retrieval.coverage import spread, wants_coverage


@pytest.mark.parametrize("question", [
    "How many items of clothing do I need to pick up or return in total?",
    "How much did I spend on coffee altogether?",
    "Which did I start first, the pottery class or the yoga class?",
    "Did I visit Paris before I moved to Berlin?",
    "How many days passed between the concert and my birthday dinner?",
    "How long was it between my dentist visit and the follow-up?",
    "What is the difference in price between the boots I bought and the pair at the outlet?",
    "What was the gap between my first marathon and my second one?",
    "What are all the books I have read this year?",
    "In what order did I adopt my pets?",
])
def test_questions_that_span_sessions(question):
    assert wants_coverage(question)


@pytest.mark.parametrize("question", [
    "Where do I live now?", "What is my favourite restaurant?", "What did I name my cat?",
    "Who is my manager at work?",
    # two people, not two occasions
    "What did Sam and I talk about in the chat between us on Friday?",
    "What was the argument between my sister and her husband about?",
])
def test_questions_about_one_thing(question):
    assert not wants_coverage(question)


def test_spread_keeps_each_sessions_best_and_lowers_the_rest():
    items = [("a1", "A", 1.0), ("a2", "A", 0.9), ("a3", "A", 0.8), ("b1", "B", 0.7),
             ("c1", "C", 0.3), ("x", None, 0.35)]
    out = spread(items, score=lambda i: i[2], session=lambda i: i[1], decay=0.5)
    assert [i[0] for i in out] == ["a1", "b1", "a2", "x", "c1", "a3"]
    # a session's first item keeps its score, so sessions keep their order of first appearance
    firsts = list(dict.fromkeys(i[1] for i in out if i[1]))
    assert firsts == ["A", "B", "C"]
