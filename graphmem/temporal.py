"""Find temporal phrases in text and resolve them against the mention time into calendar ranges."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import Any, Literal

from dateutil.easter import easter

from . import calendar_words as CW
from .models import TimeExpression

Prefer = Literal["past", "future"]
_Range = tuple[datetime, datetime, str]

# --- vocabulary ---------------------------------------------------------------------------------

_WEEKDAYS = CW.WEEKDAY_NUMBER
_MONTH_NAMES = CW.MONTHS
_MONTHS = CW.MONTH_NUMBER
_SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
_NUMBERS = {w: i + 1 for i, w in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
     "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
     "twenty"))}
_NUMBERS.update({"a": 1, "an": 1, "thirty": 30, "forty": 40, "fifty": 50})
# Vague counts become a window reaching this many units back from the mention.
_VAGUE_COUNTS = {"few": 7, "several": 10}  # "a couple" is two, as people use it

# Chat spellings of calendar words (calendar_words.CHAT_SPELLINGS); the day abbreviations that are
# also words ("I sat", "the sun") count only after "last", "this", "next" or "on".
_CHAT_WORDS = CW.CHAT_SPELLINGS
_CHAT_DAYS = CW.CHAT_DAYS
_CHAT_DAY = CW.alternation(_CHAT_DAYS)
_CHAT = re.compile(rf"\b(?:{CW.alternation(_CHAT_WORDS)})\b"
                   rf"|(?<=\b(?:last|this|next)\s)(?:{_CHAT_DAY})\b"
                   rf"|(?<=\bon\s)(?:{_CHAT_DAY})\b", re.IGNORECASE)


def _spelled_out(text: str) -> tuple[str, list[int]]:
    """`text` with chat spellings of calendar words written out, and for each character of the
    result (and its end) the offset in `text` it comes from."""
    out: list[str] = []
    where: list[int] = []
    last = 0
    for m in _CHAT.finditer(text):
        out.append(text[last:m.start()])
        where.extend(range(last, m.start()))
        word = m.group(0).lower()
        full = _CHAT_WORDS.get(word) or _CHAT_DAYS[word]
        out.append(full)
        where.extend([m.start()] * len(full))
        last = m.end()
    out.append(text[last:])
    where.extend(range(last, len(text) + 1))
    return "".join(out), where


# --- patterns -----------------------------------------------------------------------------------

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
_PART = r"(?:early|mid|late)[\s-]+"
_NUM = (r"(?:\d{1,3}|a\s+couple(?:\s+of)?|couple(?:\s+of)?|a\s+few|few|several|an?|"
        + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + ")")
_UNIT = r"(?:day|week|month|year|hour|minute)s?"

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
_NEAR = r"(?:last|this\s+past|this\s+coming|this|next)"
_HOLIDAY_CUES = frozenset("christmas boxing new easter good halloween valentine valentines "
                          "thanksgiving bonfire independence patrick labor labour memorial".split())
_WEEKDAY_CUES = frozenset(_WEEKDAYS)
_MONTH_CUES = frozenset(_MONTHS)
_UNIT_CUES = frozenset(("week", "weekend", "month", "year"))
_DIGIT_CUES = frozenset("0123456789")
_CUE_TOKENS = re.compile(r"[a-z]+|\d")  # each digit is a token of its own
# Each pattern runs only when one of its cue words occurs in the text: most sentences mention no
# time at all, and tokenising once is far cheaper than a dozen regex scans.
_GATED: list[tuple[re.Pattern[str], frozenset[str]]] = [
    (re.compile(p, re.IGNORECASE), frozenset(cues)) for p, cues in (
        # days around the mention
        (rf"\b(?:the\s+(?:day|night)\s+before\s+(?:yesterday|last)|the\s+day\s+after\s+tomorrow"
         rf"|(?:yesterday|tomorrow)(?:\s+{_POD})?|(?:earlier|later)\s+today|today|tonight"
         rf"|this\s+(?:morning|afternoon|evening)|last\s+night)\b",
         ("yesterday", "tomorrow", "today", "tonight", "morning", "afternoon", "evening",
          "night", "before")),
        # weeks, weekends, months, years relative to the mention
        (r"\b(?:the\s+week\s+(?:before\s+last|after\s+next)"
         r"|(?:earlier|later)\s+(?:this|in\s+the)\s+(?:week|month|year)"
         r"|this\s+(?:past|coming)\s+week(?:end)?|(?:over|on|during|at)\s+the\s+weekend"
         r"|this\s+time\s+(?:last|next)\s+(?:week|month|year))\b",
         _UNIT_CUES),
        (r"(?<!\bthe\s)\b(?:last|this|next)\s+(?:week(?:end)?|month|year)\b(?!\s+of\b)",
         _UNIT_CUES),
        # "in the past three weeks", "over the last year"
        (rf"\b(?:in|over|during|for|within)\s+the\s+(?:past|last)\s+"
         rf"(?:{_NUM}\s+(?:day|week|month|year)s|(?:day|week|month|year)s?)\b(?!\s+of\b)",
         ("past", "last")),
        # weekdays
        (rf"(?<!\bthe\s)\b(?:(?:on\s+)?(?:last|this\s+past|this\s+coming|this|next)\s+{_WD}"
         rf"|on\s+{_WD}|{_WD}(?=\s+{_POD}\b))\b(?:\s+{_POD}\b)?"
         rf"(?!\s+{_POD}s\b)", _WEEKDAY_CUES),  # "on Saturday mornings" is a habit, no date
        # "three days ago", "a while back", "recently"
        (rf"\b(?:{_NUM}\s+(?:{_UNIT}|decades?|nights?)(?:\s+or\s+so)?|a\s+while|a\s+fortnight"
         rf"|half\s+(?:a|an)\s+(?:year|day|hour))\s+(?:ago|back)\b(?:\s+today\b)?",
         ("ago", "back")),
        # "it's been two weeks since (I quit coffee)": that long ago
        (rf"\bit(?:['’]s|\s+has|\s+had)\s+been\s+(?:(?:about|almost|nearly|over|just\s+over|"
         rf"around|roughly)\s+)?{_NUM}\s+(?:day|week|month|year)s?\s+since\b", ("since",)),
        # holidays: "over Christmas", "on New Year's Day", "at Easter", "last Thanksgiving"
        # (said with a preposition or last/this/next, or with its year: "I love Christmas" and
        # "Christmas presents" name no day)
        (rf"\b(?:(?:on|at|over|during|for|around)\s+(?:{_NEAR}\s+|the\s+)?|{_NEAR}\s+)(?:{_HOLIDAY})"
         rf"(?:,?\s+(?:of\s+)?{_YEAR})?(?!\s+{_HOLIDAY_NOUNS})"
         rf"|\b(?:{_HOLIDAY}),?\s+(?:of\s+)?{_YEAR}", _HOLIDAY_CUES),
        # counted from a named day: "the Friday before last", "Monday just gone", "a week on
        # Friday", "Friday week", "tomorrow week", "a week today", "the weekend after next",
        # "two weekends ago"
        (rf"\b(?:the\s+)?{_WD}\s+before\s+last\b|\b{_WD}\s+just\s+gone\b"
         rf"|\ba\s+week\s+(?:on|from|this|next)\s+{_WD}\b|\b{_WD}\s+week\b", _WEEKDAY_CUES),
        (r"\b(?:tomorrow|today)\s+week\b|\ba\s+week\s+(?:from\s+)?(?:today|tomorrow)\b",
         ("week",)),
        (rf"\bthe\s+weekend\s+(?:before\s+last|after\s+next)\b|\b{_NUM}\s+weekends\s+ago\b",
         ("weekend", "weekends")),
        # "two Saturdays ago", "a couple of Sundays back"
        (rf"\b{_NUM}\s+{_WD}s\s+(?:ago|back)\b", ("ago", "back")),
        # "at the start of the month", "the end of last year", "towards the end of May"
        (rf"\bthe\s+(?:very\s+)?(?:start|beginning|middle|end)\s+of\s+(?:(?:the|this|last|next)"
         rf"\s+(?:week|month|year)\b|(?:{_MON_S})(?:,?\s+{_YEAR})?)",
         ("start", "beginning", "middle", "end")),
        # "in a fortnight", "in two weeks' time", "a fortnight from now"
        (rf"\bin\s+(?:a\s+fortnight|{_NUM}\s+{_UNIT})(?:['’]s?\s+time)\b|\bin\s+a\s+fortnight\b"
         r"|\ba\s+fortnight\s+from\s+now\b", ("in", "fortnight")),
        # "in two weeks", "three days from now"
        # (not "squeeze in a day trip": the unit ends the phrase)
        (rf"\bin\s+{_NUM}\s+{_UNIT}\b(?:\s+from\s+now\b)?(?=\s*(?:$|[,.;:!?)\]]|(?:and|but|or|so|"
         rf"to|from|when|if|because|after|before|at|on|for|time|I|we|and)\b))"
         rf"|\b{_NUM}\s+{_UNIT}\s+from\s+(?:now|today)\b", ("in", "from")),
        (r"\b(?:the\s+other\s+day|recently|lately|not\s+(?:too\s+|so\s+)?long\s+ago)\b",
         ("day", "recently", "lately", "ago")),
        # calendar dates written out
        (rf"\b{_MON_S}\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+{_YEAR})?", _MONTH_CUES),
        (rf"\b(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON_S}(?:,?\s+{_YEAR})?",
         _MONTH_CUES),
        (rf"\b(?:(?:back\s+)?(?:in|during)\s+(?:{_PART})?{_MON_L}(?:,?\s+(?:of\s+)?{_YEAR})?"
         rf"|(?:{_PART})?{_MON_S},?\s+{_YEAR}|(?:last|this|next)\s+{_MON_S}|{_PART}{_MON_S})",
         _MONTH_CUES),
        # a day of the month alone: "on the 25th" (not "the 25th of May", found above)
        # (nor "on the 23rd floor", "on the 3rd try": an ordinal of a thing)
        (rf"\bon\s+the\s+\d{{1,2}}(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?{_MON_S})"
         r"(?!\s+(?:floor|storey|story|row|lap|try|attempt|round|hole|level|page|step|stop|"
         r"place|day|week|month|year|time|anniversary|birthday|draft|pick)\b)", ("on",)),
        # numeric dates
        (r"(?<![\d/.-])(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2}))(?![\d/])",
         _DIGIT_CUES),
        # years
        (rf"\b(?:back\s+)?(?:in|during)\s+(?:the\s+year\s+)?(?:{_PART})?{_YEAR}", _DIGIT_CUES),
        # seasons counted back: "two summers ago", "the winter before last", "back in the spring"
        (rf"\b{_NUM}\s+(?:springs|summers|falls|autumns|winters)\s+(?:ago|back)\b"
         rf"|\bthe\s+{_SEASON}\s+before\s+last\b|\bback\s+in\s+the\s+{_SEASON}\b",
         ("springs", "summers", "falls", "autumns", "winters", "before", "back")),
        # seasons
        (rf"\b(?:(?:last|this|next|this\s+past|this\s+coming)\s+{_SEASON}\b"
         rf"|(?:(?:in|during)\s+)?(?:the\s+)?{_SEASON}\s+(?:of\s+)?{_YEAR})",
         ("spring", "summer", "fall", "autumn", "winter")),
    )
]


def find_time_expressions(text: str) -> list[tuple[int, int, str]]:
    """Temporal phrases in `text` as (start, end, text[start:end]); longest wins, no overlaps.
    Chat spellings count as the word ("last tues", "2 wks ago"); offsets are in `text`."""
    original = text
    text, where = _spelled_out(text) if _CHAT.search(text) else (text, None)
    words = set(_CUE_TOKENS.findall(text.lower()))
    found = [(m.start(), m.end()) for p, cues in _GATED if not cues.isdisjoint(words)
             for m in p.finditer(text)]
    if where is not None:  # back to the offsets of what was written
        found = [(where[s], _end_in(where, e, len(original))) for s, e in found]
        text = original
    if not found:
        return []
    found.sort(key=lambda s: (s[0] - s[1], s[0]))  # longest first, then leftmost
    chosen: list[tuple[int, int]] = []
    for s, e in found:
        if all(e <= cs or s >= ce for cs, ce in chosen):
            chosen.append((s, e))
    return [(s, e, text[s:e]) for s, e in sorted(chosen)]


def _end_in(where: list[int], end: int, length: int) -> int:
    """The offset in the written text where a phrase ending at `end` (spelled out) ends."""
    if end >= len(where) - 1:
        return length
    # the phrase's last character comes from where[end - 1]; a written-out word maps every
    # character to its start, so the end is the next character's origin
    nxt = where[end]
    return nxt if nxt > where[end - 1] else where[end - 1] + 1


# --- calendar helpers ---------------------------------------------------------------------------


class _Ctx:
    """The mention time and what the rules keep asking about it."""

    def __init__(self, anchor: datetime, prefer: Prefer) -> None:
        self.anchor = anchor
        self.today = anchor.date()
        self.monday = self.today - timedelta(days=self.today.weekday())
        self.prefer = prefer

    def at(self, d: date) -> datetime:
        return datetime.combine(d, time(), tzinfo=self.anchor.tzinfo)

    def day(self, d: date) -> _Range:
        return self.at(d), self.at(d + timedelta(days=1)), "day"

    def week(self, monday: date) -> _Range:
        return self.at(monday), self.at(monday + timedelta(days=7)), "week"

    def weekend(self, monday: date) -> _Range:
        """The Saturday 00:00 – Monday 00:00 closing the ISO week that starts on `monday`."""
        return self.at(monday + timedelta(days=5)), self.at(monday + timedelta(days=7)), "weekend"

    def month(self, y: int, m: int) -> _Range:
        ny, nm = _add_months(y, m, 1)
        return self.at(date(y, m, 1)), self.at(date(ny, nm, 1)), "month"

    def year(self, y: int) -> _Range:
        return self.at(date(y, 1, 1)), self.at(date(y + 1, 1, 1)), "year"


def _add_months(y: int, m: int, k: int) -> tuple[int, int]:
    q, r = divmod(m - 1 + k, 12)
    return y + q, r + 1


def _shift(dt: datetime, n: int, unit: str) -> datetime:
    """`dt` moved by `n` units; months and years move on the calendar (day clamped)."""
    if unit in ("day", "week", "hour", "minute"):
        return dt + timedelta(**{unit + "s": n})
    y, m = _add_months(dt.year, dt.month, n * (12 if unit == "year" else 1))
    last = (date(*_add_months(y, m, 1), 1) - timedelta(days=1)).day
    return dt.replace(year=y, month=m, day=min(dt.day, last))


def _count(word: str) -> int | str:
    """A number word or digits → int; couple/few/several → that vague word."""
    w = " ".join(word.split()).removeprefix("a ").removesuffix(" of")
    if w == "couple":
        return 2
    if w in _VAGUE_COUNTS:
        return w
    return int(w) if w.isdigit() else _NUMBERS[w]


def _season(c: _Ctx, name: str, y: int) -> _Range:
    """Meteorological (northern) seasons; winter Y runs from 1 December Y to 1 March Y+1."""
    start = _SEASON_START[name]
    ey, em = _add_months(y, start, 3)
    return c.at(date(y, start, 1)), c.at(date(ey, em, 1)), "season"


def _month_part(rng: _Range, part: str | None) -> _Range:
    """Narrow a month (or year) to its early / mid / late third."""
    if not part:
        return rng
    start, end, gran = rng
    if gran == "month":
        bounds = {"early": (0, 10), "mid": (10, 20), "late": (20, None)}[part]
        lo = start + timedelta(days=bounds[0])
        hi = end if bounds[1] is None else start + timedelta(days=bounds[1])
    else:  # a year: Jan–Apr, May–Aug, Sep–Dec
        k = {"early": 0, "mid": 4, "late": 8}[part]
        lo, hi = _shift(start, k, "month"), _shift(start, k + 4, "month")
    return lo, hi, "range"


def _dated(c: _Ctx, m: int, d: int, y: int | None) -> _Range | None:
    """A day; with no year, the nearest such day in the preferred direction (today counts)."""
    if y is not None:
        return c.day(date(y, m, d))
    step = -1 if c.prefer == "past" else 1
    y = c.today.year
    for _ in range(9):  # 29 February needs a leap year
        try:
            cand = date(y, m, d)
        except ValueError:
            y += step
            continue
        if (cand <= c.today) if step < 0 else (cand >= c.today):
            return c.day(cand)
        y += step
    return None


# --- resolution rules (each sees the lower-cased phrase, prepositions stripped) ----------------


def _r_relday(c: _Ctx, g: dict[str, Any]) -> _Range:
    offsets = {"the day before yesterday": -2, "the night before yesterday": -2,
               "the night before last": -2, "the day before last": -2, "yesterday": -1, "last night": -1,
               "the day after tomorrow": 2, "tomorrow": 1}
    return c.day(c.today + timedelta(days=offsets.get(g["w"], 0)))


def _r_weekrel(c: _Ctx, g: dict[str, Any]) -> _Range:
    k = {"last week": -1, "this week": 0, "next week": 1, "this coming week": 1,
         "the week before last": -2, "the week after next": 2}[g["w"]]
    return c.week(c.monday + timedelta(weeks=k))


def _r_unitrel(c: _Ctx, g: dict[str, Any]) -> _Range:
    k = {"last": -1, "this": 0, "next": 1}[g["w"]]
    if g["u"] == "month":
        return c.month(*_add_months(c.today.year, c.today.month, k))
    return c.year(c.today.year + k)


def _r_within(c: _Ctx, g: dict[str, Any]) -> _Range:
    """earlier/later this week|month|year: the part of the period before/after the mention."""
    u = g["u"]
    start, end, _ = (c.week(c.monday) if u == "week" else
                     c.month(c.today.year, c.today.month) if u == "month" else
                     c.year(c.today.year))
    return (start, c.anchor, "range") if g["w"] == "earlier" else (c.anchor, end, "range")


def _r_weekend(c: _Ctx, g: dict[str, Any]) -> _Range:
    w, on_weekend = g["w"], c.today.weekday() >= 5
    if w in ("last", "this past"):
        k = -1
    elif w == "this":
        k = 0
    elif w == "next":
        k = 1
    elif w == "this coming":
        k = 1 if on_weekend else 0
    else:  # "(over) the weekend": the one under way or just passed; upcoming for plans
        k = 0 if on_weekend or c.prefer == "future" else -1
    return c.weekend(c.monday + timedelta(weeks=k))


def _r_weekday(c: _Ctx, g: dict[str, Any]) -> _Range:
    wd, w = _WEEKDAYS[g["d"]], g["w"] or ""
    if w == "this":
        return c.day(c.monday + timedelta(days=wd))
    if w in ("next", "this coming") or (not w and c.prefer == "future"):
        return c.day(c.today + timedelta(days=(wd - c.today.weekday()) % 7 or 7))
    return c.day(c.today - timedelta(days=(c.today.weekday() - wd) % 7 or 7))


def _r_ago(c: _Ctx, g: dict[str, Any]) -> _Range | None:
    n, unit = _count(g["n"]), g["u"]
    if unit in ("decade", "night"):  # "a decade ago", "three nights ago"
        unit = "year" if unit == "decade" else "day"
        n = n if isinstance(n, str) else n * (10 if g["u"] == "decade" else 1)
    if isinstance(n, str):
        return _shift(c.anchor, -_VAGUE_COUNTS[n], unit), c.anchor, "range"
    if n <= 0:
        return None
    if unit in ("day", "week", "month", "year"):
        # "two weeks ago", "four months ago", "a year ago": the day that far back, as people
        # count it (months and years on the calendar, the day clamped to the month's end)
        return c.day(_shift(c.at(c.today), -n, unit).date())
    start = _shift(c.anchor, -n, unit)
    return start, _shift(start, 1, unit), "instant"


def _r_before_last(c: _Ctx, g: dict[str, Any]) -> _Range:
    """"the Friday before last": the one before last Friday."""
    last = _r_weekday(c, {"d": g["d"], "w": "last"})
    return c.day(last[0].date() - timedelta(weeks=1))


def _r_week_on(c: _Ctx, g: dict[str, Any]) -> _Range:
    """"a week on Friday", "Friday week": a week after the coming Friday."""
    coming = _r_weekday(c, {"d": g["d"] or g["d2"], "w": "next"})
    return c.day(coming[0].date() + timedelta(weeks=1))


def _r_week_from(c: _Ctx, g: dict[str, Any]) -> _Range:
    """"tomorrow week", "a week today": a week after that day."""
    base = c.today + timedelta(days=1 if "tomorrow" in (g["a"] or g["b"]) else 0)
    return c.day(base + timedelta(weeks=1))


def _r_weekends_ago(c: _Ctx, g: dict[str, Any]) -> _Range | None:
    n = _count(g["n"])
    if isinstance(n, str) or n <= 0:
        return None
    return c.weekend(c.monday + timedelta(weeks=-n))


def _r_half_ago(c: _Ctx, g: dict[str, Any]) -> _Range:
    """"half a year ago": six months back; half a day or an hour: that long before the mention."""
    if g["u"] == "year":
        return c.day(_shift(c.at(c.today), -6, "month").date())
    start = c.anchor - (timedelta(hours=12) if g["u"] == "day" else timedelta(minutes=30))
    return start, start + timedelta(minutes=1), "instant"


def _holiday_on(name: str, y: int) -> tuple[date, date]:
    """The first day and the day after the last of holiday `name` in year `y`."""
    n = " ".join(name.replace("’", "'").replace("'", "").replace(".", "").split())
    if n.startswith("easter") or n == "good friday":
        e = easter(y)
        if n == "easter weekend":
            return e - timedelta(days=2), e + timedelta(days=2)
        d = e - timedelta(days=2) if n == "good friday" else \
            e + timedelta(days=1) if n == "easter monday" else e
        return d, d + timedelta(days=1)
    if n in ("thanksgiving", "memorial day", "labor day", "labour day"):
        if n == "thanksgiving":  # the fourth Thursday of November
            first = date(y, 11, 1)
            d = first + timedelta(days=(3 - first.weekday()) % 7 + 21)
        elif n == "memorial day":  # the last Monday of May
            last = date(y, 5, 31)
            d = last - timedelta(days=last.weekday())
        else:  # the first Monday of September
            first = date(y, 9, 1)
            d = first + timedelta(days=(-first.weekday()) % 7)
        return d, d + timedelta(days=1)
    fixed = {"christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25),
             "boxing day": (12, 26), "new years eve": (12, 31), "new years day": (1, 1),
             "new years": (1, 1), "new year": (1, 1), "halloween": (10, 31), "valentines": (2, 14),
             "valentines day": (2, 14), "bonfire night": (11, 5), "independence day": (7, 4),
             "st patricks day": (3, 17)}
    m, d0 = fixed[n]
    d = date(y, m, d0)
    return d, d + timedelta(days=1)


def _r_holiday(c: _Ctx, g: dict[str, Any]) -> _Range:
    """The holiday of the year said, else the last one (past) or the next (future; "this"
    is the current year's, "last"/"next" the one before/after the mention)."""
    name, w = g["h"], g["w"] or ""
    if g["y"]:
        lo, hi = _holiday_on(name, int(g["y"]))
    elif w == "this":
        lo, hi = _holiday_on(name, c.today.year)
    else:
        cands = [_holiday_on(name, y) for y in range(c.today.year - 2, c.today.year + 3)]
        if w in ("last", "this past") or (not w and c.prefer == "past"):
            lo, hi = [r for r in cands if r[0] < c.today or (not w and r[0] == c.today)][-1]
        else:
            lo, hi = [r for r in cands if r[0] > c.today or (not w and r[0] == c.today)][0]
    gran = "day" if hi - lo == timedelta(days=1) else "range"
    return c.at(lo), c.at(hi), gran


def _r_weekdays_ago(c: _Ctx, g: dict[str, Any]) -> _Range | None:
    """"two Saturdays ago": the Saturday a week before last Saturday."""
    n = _count(g["n"])
    if isinstance(n, str) or n <= 0:
        return None
    last = _r_weekday(c, {"d": g["d"], "w": "last"})
    return c.day(last[0].date() - timedelta(weeks=n - 1))


_PART_OF = {"start": "early", "beginning": "early", "middle": "mid", "end": "late"}


def _r_part_of(c: _Ctx, g: dict[str, Any]) -> _Range | None:
    """"the start of the month", "the end of last year", "the middle of May": the early, mid or
    late third of that month or year; of a week, its first two days, mid-week or its last three."""
    part = _PART_OF[g["p"]]
    if g["m"]:
        return _r_month(c, {"m": g["m"], "w": None, "y": g["y"], "p": part})
    k = {"last": -1, "next": 1}.get(g["w"], 0)
    if g["u"] == "week":
        lo, hi = {"early": (0, 2), "mid": (2, 4), "late": (4, 7)}[part]
        monday = c.monday + timedelta(weeks=k)
        return c.at(monday + timedelta(days=lo)), c.at(monday + timedelta(days=hi)), "range"
    rng = (c.month(*_add_months(c.today.year, c.today.month, k)) if g["u"] == "month"
           else c.year(c.today.year + k))
    return _month_part(rng, part)


def _r_ahead(c: _Ctx, g: dict[str, Any]) -> _Range | None:
    """in N days|weeks|months|years (from now): the day, week, month or year that far ahead."""
    if g.get("f"):  # "in a fortnight"
        return c.day(c.today + timedelta(weeks=2))
    n, unit = _count(g["n"] or g["n2"]), g["u"] or g["u2"]
    if isinstance(n, str):
        return c.anchor, _shift(c.anchor, _VAGUE_COUNTS[n], unit), "range"
    if n <= 0:
        return None
    if unit in ("day", "week", "month", "year"):  # "in two weeks": the day that far on
        return c.day(_shift(c.at(c.today), n, unit).date())
    start = _shift(c.anchor, n, unit)
    return start, _shift(start, 1, unit), "instant"


def _r_window(c: _Ctx, g: dict[str, Any]) -> _Range:
    """the past/last (N) days|weeks|…: [mention − N units, mention)."""
    n: int | str = _count(g["n"]) if g["n"] else ("few" if g["u"].endswith("s") else 1)
    k = _VAGUE_COUNTS[n] if isinstance(n, str) else n
    return _shift(c.anchor, -k, g["u"].rstrip("s")), c.anchor, "range"


def _r_vague(c: _Ctx, g: dict[str, Any]) -> _Range:
    w, a = g["w"], c.anchor
    if w.startswith("a while"):
        return a - timedelta(days=365), a - timedelta(days=14), "range"
    if w == "the other day":
        return a - timedelta(days=14), a, "range"
    return a - timedelta(days=30), a, "range"  # recently, lately, not long ago


def _r_month(c: _Ctx, g: dict[str, Any]) -> _Range:
    m, w = _MONTHS[g["m"]], g["w"]
    y, am = c.today.year, c.today.month
    if g["y"]:
        y = int(g["y"])
    elif w == "last":
        y = y if m < am else y - 1
    elif w == "next":
        y = y if m > am else y + 1
    elif w != "this":  # bare "(in) March": this year's unless it lies on the wrong side
        if c.prefer == "past" and m > am:
            y -= 1
        elif c.prefer == "future" and m < am:
            y += 1
    return _month_part(c.month(y, m), g["p"])


def _r_mday(c: _Ctx, g: dict[str, Any]) -> _Range | None:
    return _dated(c, _MONTHS[g["m"]], int(g["d"]), int(g["y"]) if g["y"] else None)


def _r_dom(c: _Ctx, g: dict[str, Any]) -> _Range | None:
    """"on the 25th": that day of this month, or of the nearest month in the preferred direction
    where it has not passed (future) or has come (past); today counts."""
    d, step = int(g["d"]), (-1 if c.prefer == "past" else 1)
    if not 1 <= d <= 31:
        return None
    y, m = c.today.year, c.today.month
    for _ in range(3):
        try:
            cand = date(y, m, d)
            if (cand <= c.today) if step < 0 else (cand >= c.today):
                return c.day(cand)
        except ValueError:  # the 31st of a 30-day month
            pass
        y, m = _add_months(y, m, step)
    return None


def _r_iso(c: _Ctx, g: dict[str, Any]) -> _Range:
    return c.day(date(int(g["y"]), int(g["m"]), int(g["d"])))


def _r_us(c: _Ctx, g: dict[str, Any]) -> _Range:
    """m/d/y (US order) unless only d/m/y makes sense; two-digit years → 1970–2069."""
    a, b, y = int(g["a"]), int(g["b"]), int(g["y"])
    if len(g["y"]) == 2:
        y += 2000 if y < 70 else 1900
    m, d = (b, a) if a > 12 >= b else (a, b)
    return c.day(date(y, m, d))


def _r_year(c: _Ctx, g: dict[str, Any]) -> _Range:
    return _month_part(c.year(int(g["y"])), g["p"])


def _r_season(c: _Ctx, g: dict[str, Any]) -> _Range:
    s, w = g["s"], g["w"]
    if g["y"]:
        return _season(c, s, int(g["y"]))
    cands = [_season(c, s, y) for y in range(c.today.year - 2, c.today.year + 2)]
    past = [r for r in cands if r[1] <= c.anchor]  # already over
    future = [r for r in cands if r[0] > c.anchor]  # not yet begun
    inside = [r for r in cands if r[0] <= c.anchor < r[1]]
    if w in ("last", "this past"):
        return past[-1]
    if w in ("next", "this coming"):
        return future[0]
    if w == "this":  # the current one, else the one of the anchor's year
        return inside[0] if inside else _season(c, s, c.today.year)
    return (inside or (past[-1:] if c.prefer == "past" else future[:1]))[0]


def _r_seasons_ago(c: _Ctx, g: dict[str, Any]) -> _Range | None:
    """"two summers ago": counting back over the seasons of that name already over (the last
    one is one summer ago); "the summer before last" is two."""
    n = _count(g["n"])
    if isinstance(n, str) or n <= 0:
        return None
    past = [r for r in (_season(c, g["s"], y) for y in range(c.today.year - n - 2, c.today.year + 1))
            if r[1] <= c.anchor]
    return past[-n]


_NUM_N = _NUM.replace(r"\s+", " ")
_MONTH_WORD = "|".join(sorted(_MONTHS, key=len, reverse=True))
_MON_N = rf"(?P<m>{_MONTH_WORD})\.?"
_PART_N = r"(?:(?P<p>early|mid|late)[ -])?"
_RULES: list[tuple[re.Pattern[str], Callable[[_Ctx, dict[str, Any]], _Range | None]]] = [
    (re.compile(p), f) for p, f in (
        (rf"(?P<w>the (?:day|night) before (?:yesterday|last)|the day after tomorrow"
         rf"|yesterday|tomorrow|today"
         rf"|tonight|last night|this (?:morning|afternoon|evening)|(?:earlier|later) today)"
         rf"(?: {_POD})?", _r_relday),
        (r"(?P<w>(?:last|this|next|this coming) week|the week (?:before last|after next))",
         _r_weekrel),
        (r"(?P<w>last|this|next) (?P<u>month|year)", _r_unitrel),
        (r"(?P<w>earlier|later) (?:this|in the) (?P<u>week|month|year)", _r_within),
        (r"(?P<w>last|this|next|this past|this coming|the) weekend", _r_weekend),
        (rf"(?:(?P<w>last|this past|this coming|this|next) )?(?P<d>{_WD})(?: {_POD})?",
         _r_weekday),
        (rf"(?P<n>{_NUM_N}) (?P<u>day|week|month|year|hour|minute|decade|night)s?(?: or so)?"
         rf" (?:ago|back)(?: today)?", _r_ago),
        (r"half an? (?P<u>year|day|hour) (?:ago|back)(?: today)?", _r_half_ago),
        (rf"it(?:'s| has| had) been (?:(?:about|almost|nearly|over|just over|around|roughly) )?"
         rf"(?P<n>{_NUM_N}) (?P<u>day|week|month|year)s? since", _r_ago),
        (r"this time (?P<w>last|next) (?P<u>week|month|year)",
         lambda c, g: c.day(_shift(c.at(c.today), -1 if g["w"] == "last" else 1, g["u"]).date())),
        (rf"(?:(?P<w>last|this|next|this past|this coming) |the )?(?P<h>{_HOLIDAY})"
         rf"(?:,? (?:of )?(?P<y>\d{{4}}))?", _r_holiday),
        (r"a fortnight (?:ago|back)", lambda c, g: c.day(c.today - timedelta(weeks=2))),
        (rf"(?:the )?(?P<d>{_WD}) before last", _r_before_last),
        (rf"(?P<d>{_WD}) just gone", lambda c, g: _r_weekday(c, {"d": g["d"], "w": "last"})),
        (rf"(?:a week (?:on|from|this|next) (?P<d>{_WD})|(?P<d2>{_WD}) week)", _r_week_on),
        (r"(?:(?P<a>tomorrow|today) week|a week (?:from )?(?P<b>today|tomorrow))", _r_week_from),
        (r"the weekend (?P<w>before last|after next)",
         lambda c, g: c.weekend(c.monday + timedelta(weeks=-2 if g["w"] == "before last" else 2))),
        (rf"(?P<n>{_NUM_N}) weekends ago", _r_weekends_ago),
        (rf"(?P<n>{_NUM_N}) (?P<d>{_WD})s (?:ago|back)", _r_weekdays_ago),
        (rf"the (?:very )?(?P<p>start|beginning|middle|end) of (?:(?P<w>the|this|last|next)"
         rf" (?P<u>week|month|year)|{_MON_N}(?:,? (?P<y>\d{{4}}))?)", _r_part_of),
        (rf"(?:the|this) (?:past|last) (?:(?P<n>{_NUM_N}) )?(?P<u>(?:day|week|month|year)s?)",
         _r_window),
        (r"(?P<w>a while (?:ago|back)|the other day|recently|lately"
         r"|not (?:too |so )?long ago)", _r_vague),
        (rf"(?:(?P<w>last|this|next) )?{_PART_N}{_MON_N},?(?: (?:of )?(?P<y>\d{{4}}))?",
         _r_month),
        (rf"{_MON_N} (?:the )?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:,? (?P<y>\d{{4}}))?", _r_mday),
        (rf"(?:the )?(?P<d>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_MON_N},?(?: (?P<y>\d{{4}}))?",
         _r_mday),
        (r"the (?P<d>\d{1,2})(?:st|nd|rd|th)", _r_dom),
        (r"(?P<y>\d{4})[-/](?P<m>\d{1,2})[-/](?P<d>\d{1,2})", _r_iso),
        (r"(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4}|\d{2})", _r_us),
        (rf"(?:the year )?{_PART_N}(?P<y>(?:19|20)\d\d)", _r_year),
        (r"(?:(?P<w>last|this|next|this past|this coming) )?(?:the )?"
         r"(?P<s>spring|summer|fall|autumn|winter)(?: (?:of )?(?P<y>\d{4}))?", _r_season),
        (rf"(?P<n>{_NUM_N}) (?P<s>spring|summer|fall|autumn|winter)s (?:ago|back)",
         _r_seasons_ago),
        (r"the (?P<s>spring|summer|fall|autumn|winter) before last",
         lambda c, g: _r_seasons_ago(c, {"n": "two", "s": g["s"]})),
    )
]
_AHEAD = re.compile(rf"(?:in (?P<n>{_NUM_N}) (?P<u>day|week|month|year|hour|minute)s?"
                    rf"(?: from now|'s? time)?|(?P<n2>{_NUM_N}) (?P<u2>day|week|month|year)s?"
                    rf" from (?:now|today)"
                    rf"|(?:in )?a (?P<f>fortnight)(?: from now|'s time)?)")
_LEAD = re.compile(r"^(?:(?:back|around|about|roughly|approximately|sometime|just) )?"
                   r"(?:(?:in|on|during|over|for|within|at|towards?) )?")
_CALENDARISH = re.compile(rf"\b(?:{_MONTH_WORD})\b|\b(?:19|20)\d\d\b|\d+[/.-]\d+")
# A bound or a choice is not a date: "after May", "by 2025", "March or April" stay unresolved.
_RELATIONAL = re.compile(r"\b(?:before|after|by|until|till|since|between|from|to|or|and|prior"
                         r"|end|beginning|middle|start)\b")
_PERIODS = ("day", "week", "month", "year")


def _dateparser_fallback(c: _Ctx, s: str) -> _Range | None:
    """Let dateparser read what the rules do not, but only text naming a calendar date."""
    if not _CALENDARISH.search(s) or _RELATIONAL.search(s):
        return None
    from dateparser.date import DateDataParser  # deferred: dateparser is slow to import, rarely needed

    settings = {"RELATIVE_BASE": c.anchor.replace(tzinfo=None), "RETURN_AS_TIMEZONE_AWARE": False,
                "PREFER_DATES_FROM": c.prefer}
    try:
        data = DateDataParser(languages=["en"], settings=settings).get_date_data(s)
    except Exception:  # dateparser raises assorted errors on odd input: treat as unreadable
        return None
    gran = data.period
    if data.date_obj is None or gran not in _PERIODS:
        return None
    d = data.date_obj.date()
    if gran == "week":
        return c.week(d - timedelta(days=d.weekday()))
    if gran == "month":
        return c.month(d.year, d.month)
    return c.year(d.year) if gran == "year" else c.day(d)


# The clause a time phrase sits in decides which way an ambiguous one points ("on Monday", "in
# May", "the 14th"). English dates ahead what it says with a future form ("I'll", "going to"),
# the present progressive of an arrangement ("I'm flying on Monday", "I'm training for the 10k in
# May"), the present of a timetable ("I start on Monday", "my exam is on the 14th"); a plain past
# or present ("I quit vaping on January 1st") points back, as it did before.
_FUTURE_FORMS = re.compile(r"\b(?:will|shall|gonna|about to|next|coming|upcoming|until|till)\b"
                           r"|['’]ll\b|\bgoing to (?!(?:the|a|an|my|our|his|her|their|this|that)\b)",
                           re.IGNORECASE)
_ARRANGED = re.compile(
    r"\b(?:am|is|are|i['’]m|['’]re|['’]s)\s+(?:\w+ly\s+|also\s+|still\s+|finally\s+)?"
    r"(?!going\b)[a-z]{2,}ing\b|^\W*(?!going\b)[a-z]{2,}ing\b"  # "flying out on Friday"
    r"|\b(?:start|starts|begin|begins|leave|leaves|fly|flies|arrive|arrives|move|moves|return|"
    r"returns|graduate|graduates|due|scheduled|booked)\b"
    r"|\b(?:is|are|['’]s|['’]re)\s+(?:on|in|at|this)\b", re.IGNORECASE)
_PAST_FORMS = re.compile(
    r"\b(?:was|were|did|didn['’]t|had|hadn['’]t|went|got|came|took|made|said|saw|met|left|ran|"
    r"began|started|moved|ago|yesterday|used to)\b", re.IGNORECASE)


def tense_prefers(clause: str) -> Prefer:
    """Which way an ambiguous time phrase in `clause` points: "future" when the clause says it
    ahead (a future form, an arrangement, a timetable) and not in the past, else "past"."""
    if _FUTURE_FORMS.search(clause):
        return "future"
    if _ARRANGED.search(clause) and not _PAST_FORMS.search(clause):
        return "future"
    return "past"


def resolve_time_expression(expr: str, anchor: datetime, *,
                            prefer: Prefer = "past") -> TimeExpression:
    """Resolve `expr` against the mention time `anchor` into a half-open range [start, end).

    Results keep the anchor's tzinfo. Ambiguous phrases that could point either way ("in March",
    "on Friday", "June 3rd", "over the weekend") go to the past unless `prefer="future"` (plans).
    Anything not understood comes back with resolved=False and no start/end: nothing is guessed.
    """
    s = " ".join(expr.lower().replace("’", "'").split()).strip(" .,;:!?")
    if _CHAT.search(s):
        s = _spelled_out(s)[0]
    ahead = _AHEAD.fullmatch(s)  # before _LEAD drops the "in" that makes it a time ahead
    s = _LEAD.sub("", s, count=1)
    c = _Ctx(anchor, prefer)
    rng: _Range | None = None
    try:
        for pattern, rule in ([(_AHEAD, _r_ahead)] if ahead else _RULES):
            if ahead:
                rng = rule(c, ahead.groupdict())
                break
            m = pattern.fullmatch(s)
            if m:
                rng = rule(c, m.groupdict())
                break
        else:
            rng = _dateparser_fallback(c, s) if s else None
    except (ValueError, OverflowError, IndexError):  # 31 February, year 0, no such season…
        rng = None
    if rng is None:
        return TimeExpression(text=expr)
    start, end, gran = rng
    return TimeExpression(text=expr, start=start, end=end, granularity=gran, resolved=True)


def resolve_all(text: str, anchor: datetime, *, prefer: Prefer = "past") -> list[TimeExpression]:
    """Every temporal phrase in `text`, resolved against `anchor`, in reading order."""
    return [resolve_time_expression(t, anchor, prefer=prefer)
            for _, _, t in find_time_expressions(text)]
