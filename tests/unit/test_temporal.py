from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from graphmem.temporal import (
    find_time_expressions,
    resolve_all,
    resolve_time_expression,
    tense_prefers,
)

SAT = datetime(2023, 5, 20, 14, 0, tzinfo=UTC)  # a Saturday
WED = datetime(2024, 3, 13, 14, 0, tzinfo=UTC)  # a Wednesday


def d(y: int, m: int, day: int, h: int = 0) -> datetime:
    return datetime(y, m, day, h, tzinfo=UTC)


CASES = [
    # (anchor, phrase, start, end, granularity)
    (SAT, "yesterday", d(2023, 5, 19), d(2023, 5, 20), "day"),
    (WED, "yesterday", d(2024, 3, 12), d(2024, 3, 13), "day"),
    (SAT, "last night", d(2023, 5, 19), d(2023, 5, 20), "day"),
    (SAT, "this morning", d(2023, 5, 20), d(2023, 5, 21), "day"),
    (SAT, "the day before yesterday", d(2023, 5, 18), d(2023, 5, 19), "day"),
    (SAT, "tomorrow", d(2023, 5, 21), d(2023, 5, 22), "day"),
    (SAT, "last week", d(2023, 5, 8), d(2023, 5, 15), "week"),
    (WED, "last week", d(2024, 3, 4), d(2024, 3, 11), "week"),
    (SAT, "the week before last", d(2023, 5, 1), d(2023, 5, 8), "week"),
    (WED, "the week before last", d(2024, 2, 26), d(2024, 3, 4), "week"),
    (WED, "next week", d(2024, 3, 18), d(2024, 3, 25), "week"),
    # counts of months and years back name the day that far back, as weeks do
    (SAT, "two months ago", d(2023, 3, 20), d(2023, 3, 21), "day"),
    (WED, "two months ago", d(2024, 1, 13), d(2024, 1, 14), "day"),
    (WED, "last month", d(2024, 2, 1), d(2024, 3, 1), "month"),
    (WED, "a year ago", d(2023, 3, 13), d(2023, 3, 14), "day"),
    (d(2024, 3, 31, 9), "a month ago", d(2024, 2, 29), d(2024, 3, 1), "day"),  # clamped
    (WED, "the night before last", d(2024, 3, 11), d(2024, 3, 12), "day"),
    (WED, "two Saturdays ago", d(2024, 3, 2), d(2024, 3, 3), "day"),
    (WED, "a couple of Sundays back", d(2024, 3, 3), d(2024, 3, 4), "day"),
    (WED, "three weeks from today", d(2024, 4, 3), d(2024, 4, 4), "day"),
    (WED, "at the start of the month", d(2024, 3, 1), d(2024, 3, 11), "range"),
    (WED, "the end of last month", d(2024, 2, 21), d(2024, 3, 1), "range"),
    (WED, "towards the end of January", d(2024, 1, 21), d(2024, 2, 1), "range"),
    (WED, "the beginning of next week", d(2024, 3, 18), d(2024, 3, 20), "range"),
    (WED, "the end of the year", d(2024, 9, 1), d(2025, 1, 1), "range"),
    (SAT, "2 weeks ago", d(2023, 5, 6), d(2023, 5, 7), "day"),  # as "in two weeks" counts
    (WED, "a fortnight ago", d(2024, 2, 28), d(2024, 2, 29), "day"),
    # counted from a named day or a week on
    (WED, "the Friday before last", d(2024, 3, 1), d(2024, 3, 2), "day"),
    (WED, "Monday just gone", d(2024, 3, 11), d(2024, 3, 12), "day"),
    (WED, "a week on Friday", d(2024, 3, 22), d(2024, 3, 23), "day"),
    (WED, "Friday week", d(2024, 3, 22), d(2024, 3, 23), "day"),
    (WED, "tomorrow week", d(2024, 3, 21), d(2024, 3, 22), "day"),
    (WED, "a week today", d(2024, 3, 20), d(2024, 3, 21), "day"),
    (WED, "the weekend after next", d(2024, 3, 30), d(2024, 4, 1), "weekend"),
    (WED, "two weekends ago", d(2024, 3, 2), d(2024, 3, 4), "weekend"),
    (WED, "in a fortnight", d(2024, 3, 27), d(2024, 3, 28), "day"),
    (WED, "in two weeks' time", d(2024, 3, 27), d(2024, 3, 28), "day"),
    (SAT, "last Saturday", d(2023, 5, 13), d(2023, 5, 14), "day"),
    (WED, "last Saturday", d(2024, 3, 9), d(2024, 3, 10), "day"),
    (WED, "last Monday", d(2024, 3, 11), d(2024, 3, 12), "day"),
    (WED, "on Friday", d(2024, 3, 8), d(2024, 3, 9), "day"),
    (WED, "this Friday", d(2024, 3, 15), d(2024, 3, 16), "day"),
    (SAT, "next Friday", d(2023, 5, 26), d(2023, 5, 27), "day"),
    (WED, "next Friday", d(2024, 3, 15), d(2024, 3, 16), "day"),
    (SAT, "in March", d(2023, 3, 1), d(2023, 4, 1), "month"),
    (SAT, "in June", d(2022, 6, 1), d(2022, 7, 1), "month"),
    (WED, "in March", d(2024, 3, 1), d(2024, 4, 1), "month"),
    (WED, "last March", d(2023, 3, 1), d(2023, 4, 1), "month"),
    (SAT, "in May 2021", d(2021, 5, 1), d(2021, 6, 1), "month"),
    (SAT, "in early March", d(2023, 3, 1), d(2023, 3, 11), "range"),
    (SAT, "last weekend", d(2023, 5, 13), d(2023, 5, 15), "weekend"),
    (WED, "last weekend", d(2024, 3, 9), d(2024, 3, 11), "weekend"),
    (WED, "this past weekend", d(2024, 3, 9), d(2024, 3, 11), "weekend"),
    (WED, "over the weekend", d(2024, 3, 9), d(2024, 3, 11), "weekend"),
    (SAT, "over the weekend", d(2023, 5, 20), d(2023, 5, 22), "weekend"),
    (SAT, "this weekend", d(2023, 5, 20), d(2023, 5, 22), "weekend"),
    (WED, "this weekend", d(2024, 3, 16), d(2024, 3, 18), "weekend"),
    (WED, "next weekend", d(2024, 3, 23), d(2024, 3, 25), "weekend"),
    (SAT, "May 8, 2023", d(2023, 5, 8), d(2023, 5, 9), "day"),
    (WED, "May 8, 2023", d(2023, 5, 8), d(2023, 5, 9), "day"),
    (SAT, "8 May 2023", d(2023, 5, 8), d(2023, 5, 9), "day"),
    (SAT, "the 8th of May, 2023", d(2023, 5, 8), d(2023, 5, 9), "day"),
    (SAT, "2023-05-08", d(2023, 5, 8), d(2023, 5, 9), "day"),
    (SAT, "5/8/2023", d(2023, 5, 8), d(2023, 5, 9), "day"),
    (SAT, "31/12/22", d(2022, 12, 31), d(2023, 1, 1), "day"),
    (SAT, "June 3rd", d(2022, 6, 3), d(2022, 6, 4), "day"),
    (WED, "on Feb 29", d(2024, 2, 29), d(2024, 3, 1), "day"),
    (SAT, "3 days ago", d(2023, 5, 17), d(2023, 5, 18), "day"),
    (WED, "three days ago", d(2024, 3, 10), d(2024, 3, 11), "day"),
    (SAT, "a few days ago", d(2023, 5, 13, 14), d(2023, 5, 20, 14), "range"),
    (SAT, "a couple of weeks ago", d(2023, 5, 6), d(2023, 5, 7), "day"),  # a couple is two
    (WED, "a couple of days ago", d(2024, 3, 11), d(2024, 3, 12), "day"),
    (SAT, "recently", d(2023, 4, 20, 14), d(2023, 5, 20, 14), "range"),
    (SAT, "a while ago", d(2022, 5, 20, 14), d(2023, 5, 6, 14), "range"),
    (SAT, "over the past 3 days", d(2023, 5, 17, 14), d(2023, 5, 20, 14), "range"),
    (WED, "earlier this week", d(2024, 3, 11), WED, "range"),
    (SAT, "an hour ago", d(2023, 5, 20, 13), d(2023, 5, 20, 14), "instant"),
    (SAT, "in 2022", d(2022, 1, 1), d(2023, 1, 1), "year"),
    (WED, "last year", d(2023, 1, 1), d(2024, 1, 1), "year"),
    (SAT, "last summer", d(2022, 6, 1), d(2022, 9, 1), "season"),
    (WED, "last summer", d(2023, 6, 1), d(2023, 9, 1), "season"),
    (WED, "last winter", d(2023, 12, 1), d(2024, 3, 1), "season"),
    (SAT, "this summer", d(2023, 6, 1), d(2023, 9, 1), "season"),
    (SAT, "in the summer of 2021", d(2021, 6, 1), d(2021, 9, 1), "season"),
    # seasons counted back over those already over; New Year without its "'s"
    (WED, "two summers ago", d(2022, 6, 1), d(2022, 9, 1), "season"),
    (WED, "three winters back", d(2021, 12, 1), d(2022, 3, 1), "season"),
    (SAT, "the spring before last", d(2021, 3, 1), d(2021, 6, 1), "season"),
    (SAT, "back in the autumn", d(2022, 9, 1), d(2022, 12, 1), "season"),
    (WED, "over New Year", d(2024, 1, 1), d(2024, 1, 2), "day"),
    (WED, "at new year 2022", d(2022, 1, 1), d(2022, 1, 2), "day"),
    # a period's part without "the"; two periods apart; holidays counted back; two-digit years;
    # a week or weekend of a month by its place in it
    (WED, "end of the month", d(2024, 3, 21), d(2024, 4, 1), "range"),
    (WED, "beginning of May", d(2023, 5, 1), d(2023, 5, 11), "range"),
    (WED, "the year before last", d(2022, 1, 1), d(2023, 1, 1), "year"),
    (WED, "the month after next", d(2024, 5, 1), d(2024, 6, 1), "month"),
    (WED, "two Christmases ago", d(2022, 12, 25), d(2022, 12, 26), "day"),
    (d(2024, 12, 26, 9), "two Christmases ago", d(2023, 12, 25), d(2023, 12, 26), "day"),
    (WED, "back in '19", d(2019, 1, 1), d(2020, 1, 1), "year"),
    (WED, "in '98", d(1998, 1, 1), d(1999, 1, 1), "year"),
    (WED, "the first week of June", d(2023, 6, 1), d(2023, 6, 8), "range"),
    (WED, "the last week of February", d(2024, 2, 23), d(2024, 3, 1), "range"),
    (WED, "the last weekend of July 2024", d(2024, 7, 27), d(2024, 7, 29), "range"),
    (WED, "the second weekend of March", d(2024, 3, 9), d(2024, 3, 11), "range"),
    (WED, "in the new year", d(2025, 1, 1), d(2025, 5, 1), "range"),
]


@pytest.mark.parametrize("anchor,phrase,start,end,gran", CASES,
                         ids=[f"{a.date()}:{p}" for a, p, *_ in CASES])
def test_resolves_to_exact_range(anchor, phrase, start, end, gran):
    te = resolve_time_expression(phrase, anchor)
    assert te.resolved, phrase
    assert (te.start, te.end, te.granularity) == (start, end, gran)
    assert te.text == phrase


@pytest.mark.parametrize("phrase", ["someday", "back in the day", "once upon a time", "soon",
                                    "last decade", "after May 2023", "March or April",
                                    "February 30", "13/13/2022", "0 days ago", "5", ""])
@pytest.mark.parametrize("anchor", [SAT, WED])
def test_unresolvable_stays_unresolved(phrase, anchor):
    te = resolve_time_expression(phrase, anchor)
    assert (te.resolved, te.start, te.end, te.granularity) == (False, None, None, None)
    assert te.text == phrase


def test_a_day_of_the_month_alone_is_the_nearest_one_in_the_preferred_direction():
    assert resolve_time_expression("on the 25th", WED, prefer="future").start == d(2024, 3, 25)
    assert resolve_time_expression("on the 25th", WED).start == d(2024, 2, 25)
    assert resolve_time_expression("on the 3rd", WED, prefer="future").start == d(2024, 4, 3)
    assert resolve_time_expression("on the 3rd", WED).start == d(2024, 3, 3)
    assert [t for _s, _e, t in find_time_expressions("It's on the 12th of May.")] == [
        "the 12th of May"]


def test_plans_can_prefer_the_future():
    assert resolve_time_expression("in March", SAT, prefer="future").start == d(2024, 3, 1)
    assert resolve_time_expression("on Friday", WED, prefer="future").start == d(2024, 3, 15)
    assert resolve_time_expression("June 3rd", SAT, prefer="future").start == d(2023, 6, 3)
    weekend = resolve_time_expression("the weekend", WED, prefer="future")
    assert (weekend.start, weekend.end) == (d(2024, 3, 16), d(2024, 3, 18))


def test_results_keep_the_anchor_timezone():
    ny = ZoneInfo("America/New_York")
    anchor = datetime(2024, 3, 13, 9, 30, tzinfo=ny)  # DST began on Sunday 10 March
    te = resolve_time_expression("last week", anchor)
    assert te.start == datetime(2024, 3, 4, tzinfo=ny)
    assert te.end == datetime(2024, 3, 11, tzinfo=ny)
    assert te.start.tzinfo is ny and te.end.tzinfo is ny
    late = datetime(2024, 3, 13, 23, 30, tzinfo=ny)  # already the 14th in UTC
    assert resolve_time_expression("yesterday", late).start == datetime(2024, 3, 12, tzinfo=ny)


def texts(sentence: str) -> list[str]:
    return [t for _, _, t in find_time_expressions(sentence)]


@pytest.mark.parametrize("sentence,expected", [
    ("I went to the dentist yesterday.", ["yesterday"]),
    ("We moved to Denver two months ago and I started at Acme last Monday.",
     ["two months ago", "last Monday"]),
    ("My birthday is on June 3rd.", ["June 3rd"]),
    ("I love spicy food.", []),
    ("On May 8, 2023 we flew to Rome.", ["May 8, 2023"]),
    ("We married 8 May 2021 in Paris.", ["8 May 2021"]),
    ("It was 2023-05-08T10:00 when I arrived; the invoice says 5/8/2023.",
     ["2023-05-08", "5/8/2023"]),
    ("I saw her on Friday night and again last night.", ["on Friday night", "last night"]),
    ("We went skiing last winter, and this past weekend we hiked.",
     ["last winter", "this past weekend"]),
    ("Recently I've been baking; a while back I tried pottery.", ["Recently", "a while back"]),
    ("My sister visited the week before last and earlier this week my mom called.",
     ["the week before last", "earlier this week"]),
    ("About a couple of weeks ago I joined a gym; several years ago I quit.",
     ["a couple of weeks ago", "several years ago"]),
    ("I was born in the summer of 1990 and moved in early 2020.",
     ["in the summer of 1990", "in early 2020"]),
    ("in march we went to Spain, back in Jan 2021 to Peru", ["in march", "back in Jan 2021"]),
    ("Next week I'm going to Tokyo, and next Friday to Osaka.", ["Next week", "next Friday"]),
    ("I've been running a lot over the past few weeks.", ["over the past few weeks"]),
    ("She flew out the Friday before last and is back a week on Sunday.",
     ["the Friday before last", "a week on Sunday"]),
    ("The results come in a fortnight; the party is tomorrow week.",
     ["in a fortnight", "tomorrow week"]),
    ("Two weekends ago we camped; the weekend after next we hike.",
     ["Two weekends ago", "the weekend after next"]),
    # no time here: modal "may", verb "march", habits, fractions, names, "the last week of"
    ("You may 2 times try it, I march every day.", []),
    ("On Mondays I swim; I bought it on Black Friday.", []),
    ("I have 3 cats and 1/2 cup of sugar; Jan's sister is nice.", []),
    ("The last week of May was busy.", ["The last week of May"]),  # not "last week"
    ("Happy New Year! My new year resolution is to read more; a new year, a new me.", []),
    ("I love the summer, and two summers ago I learned to sail.", ["two summers ago"]),
])
def test_find_time_expressions(sentence, expected):
    found = find_time_expressions(sentence)
    assert [t for _, _, t in found] == expected
    for start, end, text in found:
        assert sentence[start:end] == text


def test_longest_match_wins_and_nothing_overlaps():
    assert texts("It happened in May 8, 2023.") == ["May 8, 2023"]
    assert texts("The day before yesterday was fun.") == ["The day before yesterday"]
    assert texts("It was the 8th of May 2023.") == ["the 8th of May 2023"]


def test_large_text_is_scanned_whole():
    sentence = "We moved to Denver two months ago and I love spicy food. "
    text = sentence * (100_000 // len(sentence) + 1)
    found = find_time_expressions(text)
    assert len(found) == text.count("two months ago")
    assert all(text[s:e] == t for s, e, t in found)


def test_resolve_all_reads_in_order():
    got = resolve_all("We moved to Denver two months ago and I started at Acme last Monday.", WED)
    assert [(t.text, t.start, t.granularity) for t in got] == [
        ("two months ago", d(2024, 1, 13), "day"),
        ("last Monday", d(2024, 3, 11), "day"),
    ]
    assert resolve_all("I love spicy food.", WED) == []


def test_dateparser_reads_what_the_rules_do_not():
    te = resolve_time_expression("March 5th 2021 at noon", SAT)
    assert (te.resolved, te.start, te.end, te.granularity) == (
        True, d(2021, 3, 5), d(2021, 3, 6), "day")


@pytest.mark.parametrize(("phrase", "start", "gran"), [
    ("in two weeks", datetime(2024, 4, 22, tzinfo=UTC), "day"),  # the day two weeks on
    ("in 3 days", datetime(2024, 4, 11, tzinfo=UTC), "day"),
    ("in a month", datetime(2024, 5, 8, tzinfo=UTC), "day"),
    ("a month from now", datetime(2024, 5, 8, tzinfo=UTC), "day"),
    ("three weeks from today", datetime(2024, 4, 29, tzinfo=UTC), "day"),
    ("two weeks from now", datetime(2024, 4, 22, tzinfo=UTC), "day"),
    ("in a year", datetime(2025, 4, 8, tzinfo=UTC), "day"),
])
def test_times_ahead_resolve_forward(phrase, start, gran):
    got = resolve_time_expression(phrase, datetime(2024, 4, 8, 12, tzinfo=UTC))  # a Monday
    assert got.resolved and got.start == start and got.granularity == gran


def test_a_duration_is_not_a_time_ahead():
    anchor = datetime(2024, 4, 8, 12, tzinfo=UTC)
    assert not resolve_time_expression("for two weeks", anchor).resolved
    assert [t for _s, _e, t in find_time_expressions("My cousin's wedding is in two weeks.")] == [
        "in two weeks"]


@pytest.mark.parametrize("clause, way", [
    ("I start at Brightwell on Monday", "future"),  # a timetable
    ("my exam is on the 14th", "future"),
    ("I'm training for the 10k in May", "future"),  # an arrangement
    ("We're flying to Rome on Friday", "future"),
    ("I'll see her on Sunday", "future"),
    ("I am going to visit mum in May", "future"),
    ("I started at Brightwell on Monday", "past"),
    ("I went to the gym on Friday", "past"),
    ("I quit vaping on January 1st.", "past"),  # a plain present/past form points back
    ("I love going to the market on Saturday", "past"),
    ("I'm so sore from the hike on Sunday", "past"),
])
def test_the_tense_of_a_clause_says_which_way_its_time_points(clause, way):
    assert tense_prefers(clause) == way


def test_a_timetable_said_on_a_saturday_lands_on_the_coming_monday():
    saturday = datetime(2026, 11, 28, 10, tzinfo=UTC)
    clause = "I start at Brightwell on Monday"
    got = resolve_time_expression("on Monday", saturday, prefer=tense_prefers(clause))
    assert got.start.date().isoformat() == "2026-11-30"
    february = datetime(2026, 2, 10, tzinfo=UTC)
    got = resolve_time_expression("in May", february,
                                  prefer=tense_prefers("training for the 10k in May"))
    assert got.start.date().isoformat() == "2026-05-01"


@pytest.mark.parametrize("text,phrase,start", [
    ("see you tmrw!", "tmrw", d(2024, 3, 14)),
    ("ok so yday i quit", "yday", d(2024, 3, 12)),
    ("we moved 2 wks ago", "2 wks ago", d(2024, 2, 28)),
    ("met her last Thurs at 5", "last Thurs", d(2024, 3, 7)),
    ("the sun was out on sat", "on sat", d(2024, 3, 9)),
    ("last wknd was fun", "last wknd", d(2024, 3, 9)),
])
def test_chat_spellings_are_read_as_the_calendar_word(text, phrase, start):
    """People type "tmrw", "last tues", "2 wks ago": found where they were written, resolved as
    the words they stand for."""
    (found,) = find_time_expressions(text)
    assert found[2] == phrase and text[found[0]:found[1]] == phrase
    (resolved,) = resolve_all(text, WED)
    assert resolved.resolved and resolved.start == start


@pytest.mark.parametrize("text", ["I sat on the sun lounger", "we wed in a barn", "the sun is out"])
def test_words_that_are_also_day_abbreviations_name_no_day_alone(text):
    assert not [f for f in find_time_expressions(text) if "sat" in f[2] or "sun" in f[2]
                or "wed" in f[2]]
