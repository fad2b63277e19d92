"""The time grammar, declared once: each time phrase as the resolver reads it (lower case, single
spaces, leading prepositions stripped), the rule that resolves it, and where in running text the
finder counts it. The finder's patterns and the resolver's are both generated from this table."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import calendar_words as CW
from . import time_rules as R
from .time_calendar import NUMBERS, Ctx, Range

Rule = Callable[[Ctx, dict[str, Any]], Range | None]

# --- vocabulary, as the finder reads running text (any case, any spacing) ----------------------

_WD = rf"(?:{CW.WEEKDAY_PATTERN})"
# "may" is left out of the full names: it is also the modal verb (see _MON_L and _MON_S)
_MON_FULL = CW.alternation(m for m in CW.MONTHS if m != "may")
_MON_ABBR = rf"(?:{CW.alternation(CW.MONTH_ABBREVIATIONS)})\b(?:\.(?=\s*\d))?"
# Lenient: "may" in any case (only used after "in"/"during"). Strict: the modal verb is excluded.
_MON_L = rf"(?:(?:{_MON_FULL}|may)\b|{_MON_ABBR})(?!['’])"
_MON_S = rf"(?:(?:{_MON_FULL}|(?-i:May))\b|{_MON_ABBR})(?!['’])"
_YEAR = r"(?:19|20)\d\d\b"
_SEASON = rf"(?:{CW.alternation(CW.SEASONS)})"
_POD = r"(?:morning|afternoon|evening|night)"
_NUM = (r"(?:\d{1,3}|a\s+couple(?:\s+of)?|couple(?:\s+of)?|a\s+few|few|several|an?|"
        + "|".join(sorted(NUMBERS, key=len, reverse=True)) + ")")
# holidays with a fixed or computed day (Easter from dateutil; US Thanksgiving, Memorial and
# Labor Day by their weekday rules)
_HOLIDAY = (r"christmas\s+(?:eve|day)|christmas|boxing\s+day|new\s+year['’]?s\s+(?:eve|day)"
            r"|new\s+year['’]?s|new\s+year(?!['’])|easter\s+(?:sunday|monday|weekend)|easter|good\s+friday"
            r"|halloween|valentine['’]?s(?:\s+day)?|thanksgiving|bonfire\s+night"
            r"|independence\s+day|st\.?\s+patrick['’]?s\s+day|labou?r\s+day|memorial\s+day")
_HOLIDAY_NOUNS = (r"(?:presents?|gifts?|trees?|markets?|shopping|cards?|part(?:y|ies)|dinner|lunch|"
                  r"eggs?|costumes?|decorations?|lights|songs?|music|movies?|films?|jumpers?|"
                  r"sweaters?|break|holidays?|vacation|season|spirit|cookies|candy|pudding|cake|"
                  r"bonus|list|menu|traditions?|recipes?|special|sales?|hunt|fair|show|"
                  r"celebrations?|festivities|weekend)\b")
# what ends "in two weeks" as a time ahead (not "squeeze in a day trip": the unit ends the phrase)
_AHEAD_ENDS = (r"(?=\s*(?:$|[,.;:!?)\]]|(?:and|but|or|so|to|from|when|if|because|after|before|at|"
               r"on|for|time|I|we|and)\b))")
_ORDINAL_THINGS = (r"(?:floor|storey|story|row|lap|try|attempt|round|hole|level|page|step|stop|"
                   r"place|day|week|month|year|time|anniversary|birthday|draft|pick)")

# --- tokens: one name in the grammar, written two ways ------------------------------------------
# (the resolver's way, with the named groups the rules read; the finder's way)

MONTH_WORD = "|".join(sorted(CW.MONTH_NUMBER, key=len, reverse=True))
_TOKENS = {
    "WD": (_WD, _WD),
    "POD": (_POD, _POD),
    "NUM": (_NUM.replace(r"\s+", " "), _NUM),
    "MON": (rf"(?P<m>{MONTH_WORD})\.?", _MON_S),
    "MONL": (rf"(?P<m>{MONTH_WORD})\.?", _MON_L),  # the month after "in" / "during"
    "Y": (r"(?P<y>\d{4})", _YEAR),
    "PART": (r"(?:(?P<p>early|mid|late)[ -])?", r"(?:(?:early|mid|late)[\s-]+)?"),
    "ORD": (CW.ORDINAL_SUFFIX, CW.ORDINAL_SUFFIX),
    "SEASON": (_SEASON, _SEASON),
    "HOLIDAY": (_HOLIDAY, _HOLIDAY),
    "NOUNS": (_HOLIDAY_NOUNS, _HOLIDAY_NOUNS),
    "AHEAD_ENDS": (_AHEAD_ENDS, _AHEAD_ENDS),
    "THINGS": (_ORDINAL_THINGS, _ORDINAL_THINGS),
}
_TOKEN = re.compile(r"<([A-Z_]+)>")


def _tokens(pattern: str, way: int) -> str:
    return _TOKEN.sub(lambda m: _TOKENS[m.group(1)][way], pattern)


def _running(grammar: str) -> str:
    """The grammar as it is written in running text: any spacing, either apostrophe, no groups."""
    return re.sub(r"\(\?P<\w+>", "(?:", grammar).replace("'", "['’]").replace(" ", r"\s+")


@dataclass(frozen=True)
class Where:
    """Where in running text the finder counts a phrase: what must come before it (lead words the
    resolver strips, or a look-around narrowing what it counts) and what must follow it."""

    before: str = r"\b"
    after: str = r"\b"
    may: bool = False  # "may" in any case is the month here (after "in" / "during")


@dataclass(frozen=True)
class Phrase:
    """One time phrase: its grammar, its rule, the cue words that let the finder try it (most
    sentences name no time; tokenising once is cheaper than a regex scan), where the finder counts
    it, and examples (as written in running text) that the finder finds and the rule resolves."""

    name: str
    grammar: str
    rule: Rule
    cues: frozenset[str]
    where: tuple[Where, ...]
    examples: tuple[str, ...]

    def resolver(self) -> re.Pattern[str]:
        return re.compile(_tokens(self.grammar, 0))

    def finder(self) -> re.Pattern[str]:
        body = _running(self.grammar)
        return re.compile("|".join(
            _tokens(w.before + (body.replace("<MON>", "<MONL>") if w.may else body) + w.after, 1)
            for w in self.where), re.IGNORECASE)


def _p(name: str, grammar: str, rule: Rule, cues: str | frozenset[str], *examples: str,
       where: tuple[Where, ...] = (Where(),)) -> Phrase:
    return Phrase(name, grammar, rule, frozenset(cues.split()) if isinstance(cues, str) else cues,
                  where, examples)


_UNIT_CUES = "week weekend month year"
_WEEKDAY_CUES = frozenset(CW.WEEKDAYS)
_MONTH_CUES = frozenset(CW.MONTH_NUMBER)
_DIGIT_CUES = frozenset("0123456789")
_HOLIDAY_CUES = ("christmas boxing new easter good halloween valentine valentines thanksgiving "
                 "bonfire independence patrick labor labour memorial")
_NOT_THE = r"(?<!\bthe\s)\b"  # "the last week of May" is not last week
_NOT_OF = r"\b(?!\s+of\b)"
_NEAR = "last|this past|this coming|this|next"

# In the resolver's order: the first phrase whose grammar covers the whole text resolves it.
# AHEAD is read before leading prepositions are stripped: its "in" makes a time ahead.
AHEAD: list[Phrase] = [
    _p("in_n_units", r"in (?P<n><NUM>) (?P<u>day|week|month|year|hour|minute)s?(?: from now|'s? time)?",
       R.ahead, "in", "in two weeks", "in 3 days' time", "in a month from now",
       where=(Where(after=r"\b(?:(?<=time)|<AHEAD_ENDS>)"),)),
    _p("n_units_from_now", r"(?P<n><NUM>) (?P<u>day|week|month|year|hour|minute)s? from (?:now|today)",
       R.ahead, "from", "three days from now", "two hours from now"),
    _p("in_a_fortnight", r"(?:in )?a (?P<f>fortnight)(?: from now|'s? time)?", R.ahead,
       "in fortnight", "in a fortnight", "in a fortnight's time", "a fortnight from now",
       where=(Where(r"\bin\s+", r"\b(?<!now)"), Where(r"\b(?=a\s)", r"\b(?<=now)"))),
    # "in the new year", said ahead: the early part of the coming year
    _p("new_year_ahead", r"in the new year", R.new_year_ahead, "new", "in the new year",
       where=(Where(after=r"\b(?!['’])"),)),
]
PHRASES: list[Phrase] = [
    # days around the mention
    _p("relative_day",
       r"(?P<w>the (?:day|night) before (?:yesterday|last)|the day after tomorrow|yesterday|tomorrow"
       r"|today|tonight|last night|this (?:morning|afternoon|evening)|(?:earlier|later) today)"
       r"(?: <POD>)?", R.relday,
       "yesterday tomorrow today tonight morning afternoon evening night before",
       "yesterday", "tomorrow evening", "the night before last", "earlier today", "this morning"),
    # weeks, weekends, months, years relative to the mention
    _p("relative_week", r"(?P<w>(?:last|this|next|this coming) week|the week (?:before last|after next))",
       R.weekrel, _UNIT_CUES, "last week", "this coming week", "the week after next",
       where=(Where(_NOT_THE, _NOT_OF),)),
    _p("relative_unit", r"(?P<w>last|this|next) (?P<u>month|year)", R.unitrel, _UNIT_CUES,
       "next month", "last year", where=(Where(_NOT_THE, _NOT_OF),)),
    _p("within", r"(?P<w>earlier|later) (?:this|in the) (?P<u>week|month|year)", R.within,
       _UNIT_CUES, "earlier this week", "later in the year"),
    # "the whole weekend": the weekend said of what filled it ("spent the whole weekend
    # camping"), with any word before it ("all weekend" is as often a habit: not read)
    _p("weekend", rf"(?P<w>{_NEAR}|the)(?: whole| entire)? weekend", R.weekend, _UNIT_CUES,
       "last weekend", "this past weekend", "over the weekend", "the whole weekend",
       where=(Where(_NOT_THE + r"(?!the\s)", _NOT_OF),
              Where(r"\b(?:over|on|during|at)\s+(?=the\s)"),
              Where(r"\b(?=the\s+(?:whole|entire)\s+weekend)",
                    _NOT_OF + r"(?!\s+(?:before\s+last|after\s+next))"))),
    _p("weekday", rf"(?:(?P<w>{_NEAR}) )?(?P<d><WD>)(?: <POD>)?", R.weekday, _WEEKDAY_CUES,
       "last Friday", "on Tuesday", "this coming Monday", "Sunday morning",
       where=tuple(Where(_NOT_THE + b, r"\b(?!\s+<POD>s\b)") for b in (  # "on Saturday mornings"
           r"(?:on\s+)?(?=last|this|next)", r"on\s+", r"(?=<WD>\s+<POD>\b)"))),  # is a habit
    # "three days ago", "a while back"
    _p("ago", r"(?P<n><NUM>) (?P<u>day|week|month|year|hour|minute|decade|night)s?(?: or so)?"
       r" (?:ago|back)(?: today)?", R.ago, "ago back",
       "three days ago", "a couple of weeks back", "2 years or so ago"),
    _p("half_ago", r"half an? (?P<u>year|day|hour) (?:ago|back)(?: today)?", R.half_ago,
       "ago back", "half a year ago"),
    # "it's been two weeks since (I quit coffee)": that long ago
    _p("been_since", r"it(?:'s| has| had) been (?:(?:about|almost|nearly|over|just over|around"
       r"|roughly) )?(?P<n><NUM>) (?P<u>day|week|month|year)s? since", R.ago, "since",
       "it's been two weeks since", "it has been about a year since"),
    _p("this_time", r"this time (?P<w>last|next) (?P<u>week|month|year)", R.this_time,
       _UNIT_CUES, "this time last year"),
    # holidays: "over Christmas", "on New Year's Day", "last Thanksgiving", "Easter 2022" (said
    # with a preposition, last/this/next or its year: "I love Christmas" and "Christmas
    # presents" name no day)
    _p("holiday", rf"(?:(?P<w>{_NEAR}) |the )?(?P<h><HOLIDAY>)(?:,? (?:of )?<Y>)?", R.holiday,
       _HOLIDAY_CUES, "over Christmas", "on New Year's Day", "last Thanksgiving", "Easter 2022",
       where=(Where(r"\b(?:on|at|over|during|for|around)\s+", r"(?!\s+<NOUNS>)"),
              Where(r"\b(?=last|this|next)", r"(?!\s+<NOUNS>)"),
              Where(r"\b(?!the\s)", r"(?<=\d)"))),
    # holidays counted back: "two Christmases ago" (the last one is one ago)
    _p("holidays_ago", r"(?P<n><NUM>) (?P<h>christmas|easter|thanksgiving|halloween|new year)(?:es|s)"
       r" (?:ago|back)", R.holidays_ago, "ago back", "two Christmases ago", "three Easters ago"),
    _p("fortnight_ago", r"a fortnight (?:ago|back)(?: today)?", R.fortnight_ago, "ago back",
       "a fortnight ago"),
    # counted from a named day
    _p("before_last", r"(?:the )?(?P<d><WD>) before last", R.before_last, _WEEKDAY_CUES,
       "the Friday before last"),
    _p("just_gone", r"(?P<d><WD>) just gone", R.just_gone, _WEEKDAY_CUES, "Monday just gone"),
    # "a week ago Sunday", "a week last Friday": the one before last
    _p("week_ago_weekday", r"a week (?:ago|last) (?:last )?(?P<d><WD>)", R.before_last,
       _WEEKDAY_CUES, "a week ago Sunday", "a week last Friday"),
    _p("week_on", r"(?:a week (?:on|from|this|next) (?P<d><WD>)|(?P<d2><WD>) week)", R.week_on,
       _WEEKDAY_CUES, "a week on Friday", "Friday week"),
    _p("week_from", r"(?:(?P<a>tomorrow|today) week|a week (?:from )?(?P<b>today|tomorrow))",
       R.week_from, "week", "tomorrow week", "a week today"),
    _p("weekend_apart", r"the (?:whole |entire )?weekend (?P<w>before last|after next)",
       R.weekend_apart, "weekend weekends", "the weekend after next",
       "the whole weekend before last"),
    _p("weekends_ago", r"(?P<n><NUM>) weekends ago", R.weekends_ago, "weekend weekends",
       "two weekends ago"),
    _p("weekdays_ago", r"(?P<n><NUM>) (?P<d><WD>)s (?:ago|back)", R.weekdays_ago, "ago back",
       "two Saturdays ago"),
    # "at the start of the month", "the end of last year", "towards the end of May"
    _p("part_of", r"(?:the )?(?:very )?(?P<p>start|beginning|middle|end) of (?:(?P<w>the|this|last|next)"
       r" (?P<u>week|month|year)\b|<MON>(?:,? <Y>)?)", R.part_of, "start beginning middle end",
       "the end of last year", "the start of the month", "the middle of May",
       "end of the month", "beginning of May",
       where=(Where(after=""),)),
    # "the year before last", "the month after next"
    _p("unit_apart", r"the (?P<u>month|year) (?P<w>before last|after next)", R.unit_apart,
       "before after", "the year before last", "the month after next"),
    # "the first week of June", "the last weekend of July"
    _p("week_of_month", r"(?:the )?(?P<o>first|second|third|fourth|last) (?P<u>week|weekend) of <MON>"
       r"(?:,? <Y>)?", R.week_of_month, _MONTH_CUES, "the first week of June",
       "the last weekend of July", "the second week of March 2024", where=(Where(after=""),)),
    # "in the past three weeks", "over the last year", "this past week"
    _p("window", r"(?:the|this) (?:past|last) (?:(?P<n><NUM>) )?(?P<u>(?:day|week|month|year)s?)",
       R.window, "past last", "in the past three weeks", "over the last year", "this past week",
       where=(Where(r"\b(?:in|over|during|for|within)\s+(?=the\s)", _NOT_OF),
              Where(r"\b(?=this\s+past\s+week\b)"))),
    _p("vague", r"(?P<w>a while (?:ago|back)(?: today)?|the other day|recently|lately"
       r"|not (?:too |so )?long ago)", R.vague, "ago back day recently lately",
       "a while back", "the other day", "recently", "not too long ago"),
    # calendar dates written out
    _p("month", r"(?:(?P<w>last|this|next) )?<PART><MON>(?:,? (?:of )?<Y>)?", R.month, _MONTH_CUES,
       "in May", "back in early March", "during may of 2021", "June 2019", "last October",
       "late August",
       where=(Where(r"\b(?:back\s+)?(?:in|during)\s+(?!last|this|next)", "", may=True),
              Where(r"\b(?!last|this|next)", r"(?<=\d)(?<!of\s\d{4})"),  # "June 2019"
              Where(r"\b(?=(?:last|this|next)\s)", r"(?<!\d)"),
              Where(r"\b(?=(?:early|mid|late)[\s-])", ""))),
    _p("month_day", r"<MON> (?:the )?(?P<d>\d{1,2})<ORD>?\b(?:,? <Y>)?", R.mday, _MONTH_CUES,
       "June 3rd", "March 14, 2023", where=(Where(after=""),)),
    _p("day_month", r"(?:the )?(?P<d>\d{1,2})<ORD>? (?:of )?<MON>(?:,? <Y>)?", R.mday,
       _MONTH_CUES, "the 3rd of June", "14 March 2023", where=(Where(after=""),)),
    # a day of the month alone: "on the 25th" (not "the 25th of May", found above; nor "on the
    # 23rd floor", "on the 3rd try": an ordinal of a thing)
    _p("day_of_month", r"the (?P<d>\d{1,2})<ORD>", R.dom, "on", "on the 25th",
       where=(Where(r"\bon\s+", r"\b(?!\s+(?:of\s+)?<MON>)(?!\s+<THINGS>\b)"),)),
    # numeric dates
    _p("iso_date", r"(?P<y>\d{4})[-/](?P<m>\d{1,2})[-/](?P<d>\d{1,2})", R.iso, _DIGIT_CUES,
       "2023-05-14", where=(Where(r"(?<![\d/.-])", r"(?![\d/])"),)),
    _p("us_date", r"(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4}|\d{2})", R.us, _DIGIT_CUES,
       "5/14/2023", "14/5/23", where=(Where(r"(?<![\d/.-])", r"(?![\d/])"),)),
    # a day and month in figures, said as a day ("on 10/23", "on 23/10"): read only where one
    # order is impossible (a part above 12), the year the nearest in the tense's direction
    _p("short_date", r"(?P<a>\d{1,2})/(?P<b>\d{1,2})", R.short_date, _DIGIT_CUES,
       "on 10/23", "on 23/10",
       where=(Where(r"(?<![\w/])on\s+(?!24/7\b)(?=(?:1[3-9]|2\d|3[01])/(?:0?[1-9]|1[0-2])\b"
                    r"|(?:0?[1-9]|1[0-2])/(?:1[3-9]|2\d|3[01])\b)",
                    r"(?![\d/])(?!\.\d)<AHEAD_ENDS>"),)),
    # years
    _p("year", r"(?:the year )?<PART>(?P<y>(?:19|20)\d\d)\b", R.year, _DIGIT_CUES,
       "in 2019", "back in the year 2001", "during late 2022",
       where=(Where(r"\b(?:back\s+)?(?:in|during)\s+", ""),)),
    # a year written with two digits: "back in '19", "in '08"
    _p("short_year", r"<PART>'(?P<yy>\d\d)", R.short_year, _DIGIT_CUES,
       "back in '19", "in ’08", where=(Where(r"\b(?:back\s+)?(?:in|during)\s+", r"\b"),)),
    # seasons: "last summer", "in the winter of 2019", "back in the spring"
    _p("season", rf"(?:(?P<w>{_NEAR}) )?(?:the )?(?P<s><SEASON>)(?: (?:of )?<Y>)?", R.season_named,
       " ".join(CW.SEASONS), "last summer", "in the winter of 2019", "back in the spring",
       "fall 2020",
       where=(Where(r"\b(?=last|this|next)", r"\b(?<=[a-z])"),
              Where(r"\b(?:(?:in|during)\s+)?(?!last|this|next)", r"(?<=\d)"),
              Where(r"\bback\s+in\s+(?=the\s)", r"\b(?<=[a-z])"))),
    # seasons counted back: "two summers ago", "the winter before last"
    _p("seasons_ago", r"(?P<n><NUM>) (?P<s><SEASON>)s (?:ago|back)", R.seasons_ago,
       "ago back springs summers falls autumns winters", "two summers ago"),
    _p("season_before_last", r"the (?P<s><SEASON>) before last", R.season_before_last,
       "before", "the winter before last"),
]
