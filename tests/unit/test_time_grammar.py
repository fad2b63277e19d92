"""The time grammar is declared once (graphmem.time_grammar) and both the finder and the resolver
are built from it: every declared phrase is found in running text and resolved, and every phrase
the finder finds is one the resolver reads."""

from datetime import UTC, datetime

import pytest

from graphmem.temporal import find_time_expressions, phrase_of, resolve_time_expression
from graphmem.time_grammar import AHEAD, PHRASES

SAT = datetime(2023, 5, 20, 14, 0, tzinfo=UTC)
DECLARED = [(p.name, example) for p in (*PHRASES, *AHEAD) for example in p.examples]


def test_every_declared_phrase_has_examples_and_a_name_of_its_own() -> None:
    names = [p.name for p in (*PHRASES, *AHEAD)]
    assert len(names) == len(set(names))
    assert all(p.examples for p in (*PHRASES, *AHEAD))


@pytest.mark.parametrize(("name", "example"), DECLARED)
def test_the_finder_finds_each_declared_phrase_and_the_resolver_reads_it(
        name: str, example: str) -> None:
    sentence = f"She told me {example} and then left."
    assert find_time_expressions(sentence) == [(12, 12 + len(example), example)]
    phrase = phrase_of(example)
    assert phrase is not None and phrase.name == name
    for prefer in ("past", "future"):
        assert resolve_time_expression(example, SAT, prefer=prefer).resolved


# Running text with time phrases of every kind, the ones the finder once found and the resolver
# could not read among them ("a fortnight ago today", "two hours from now").
SENTENCES = [
    "I went to the dentist yesterday afternoon and again the day after tomorrow evening.",
    "We moved to Denver two months ago and I started at Acme last Monday.",
    "On May 8, 2023 we flew to Rome; we married 8 May 2021 in Paris; the invoice says 5/8/2023.",
    "We went skiing last winter, and this past weekend we hiked, back in the spring too.",
    "Recently I've been baking; a while ago today I tried pottery, a fortnight ago today too.",
    "My sister visited the week before last and earlier this week my mom called.",
    "I was born in the summer of 1990 and moved in early 2020, in march, back in Jan 2021.",
    "Next week I'm going to Tokyo, next Friday to Osaka, and in a fortnight' time to Seoul.",
    "I've been running a lot over the past few weeks, for the last 3 months, this past week.",
    "She flew out the Friday before last and is back a week on Sunday, or Friday week.",
    "The results come in a fortnight; the party is tomorrow week, the talk a week today.",
    "Two weekends ago we camped; the weekend after next we hike; two Saturdays ago we swam.",
    "It's been three years since I quit; half a year ago I moved; 3 decades ago I was born.",
    "Dinner is two hours from now, the call in 20 minutes, the trip three days from today.",
    "Over Christmas we saw them; on New Year's Eve 2019 and last Thanksgiving too; Easter 2022.",
    "At the end of last year, the start of the month, and towards the end of May 2020.",
    "On the 25th I fly; on the 3rd floor I live; this time last year I was in Rome.",
    "Later in the year, Monday just gone, the winter before last, two summers ago, fall 2020.",
    "It was 2023-05-08 when I arrived, 14/5/23 by their calendar, in the year 2001 before.",
    "I'll see you later today, tonight, this evening, or Sunday morning; not too long ago.",
    "We met last tues and again 2 wks ago, then on sat, and tmrw we meet again.",
]


@pytest.mark.parametrize("sentence", SENTENCES)
def test_every_phrase_the_finder_finds_is_one_the_resolver_reads(sentence: str) -> None:
    found = find_time_expressions(sentence)
    assert found
    for _, _, text in found:
        assert phrase_of(text) is not None, text
        assert resolve_time_expression(text, SAT).resolved, text


@pytest.mark.parametrize(("text", "day"), [
    ("my bike got stolen a week ago Sunday outside the library", "2023-05-07"),
    ("we spent the whole weekend camping", "2023-05-20"),  # on a Saturday: this one
    ("got the booster on 10/23 and it still aches", "2022-10-23"),
    ("moved in on 23/10.", "2022-10-23"),
    ("flying out on 23/10 for a week", "2022-10-23"),
])
def test_new_day_phrases_resolve_said_of_the_past(text: str, day: str) -> None:
    """Said on Saturday 20 May 2023, of the past."""
    [(_s, _e, words)] = find_time_expressions(text)
    got = resolve_time_expression(words, SAT, prefer="past")
    assert got.start is not None and got.start.date().isoformat() == day


@pytest.mark.parametrize("text", ["let's meet on 5/6", "rated it 10/10", "on 3/4 of the days",
                                  "on 13/20 of the tries", "on 12/13 of the tries",
                                  "I was on 24/7 shifts", "cut on 1/16 inch bits",
                                  "I usually work all weekend"])
def test_figures_and_habits_that_are_no_date_are_not_found(text: str) -> None:
    """A day and month in figures only where one order is a date and it ends its phrase."""
    assert find_time_expressions(text) == []
