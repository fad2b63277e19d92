"""The resolution rules: each turns the named groups of one time phrase (lower-cased, prepositions
stripped) into a calendar range against the mention time. The grammar (time_grammar) says which
phrase each rule reads."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from dateutil.easter import easter

from . import calendar_words as CW
from .time_calendar import (
    VAGUE_COUNTS,
    Ctx,
    Range,
    add_months,
    count,
    dated,
    month_part,
    season_of,
    shift,
)

_WEEKDAYS = CW.WEEKDAY_NUMBER
_MONTHS = CW.MONTH_NUMBER


def relday(c: Ctx, g: dict[str, Any]) -> Range:
    offsets = {"the day before yesterday": -2, "the night before yesterday": -2,
               "the night before last": -2, "the day before last": -2, "yesterday": -1, "last night": -1,
               "the day after tomorrow": 2, "tomorrow": 1}
    return c.day(c.today + timedelta(days=offsets.get(g["w"], 0)))


def weekrel(c: Ctx, g: dict[str, Any]) -> Range:
    k = {"last week": -1, "this week": 0, "next week": 1, "this coming week": 1,
         "the week before last": -2, "the week after next": 2}[g["w"]]
    return c.week(c.monday + timedelta(weeks=k))


def _unit_from_now(c: Ctx, unit: str, k: int) -> Range:
    """The month or year `k` of them from the mention's (0: its own)."""
    if unit == "month":
        return c.month(*add_months(c.today.year, c.today.month, k))
    return c.year(c.today.year + k)


def unitrel(c: Ctx, g: dict[str, Any]) -> Range:
    return _unit_from_now(c, g["u"], {"last": -1, "this": 0, "next": 1}[g["w"]])


def within(c: Ctx, g: dict[str, Any]) -> Range:
    """earlier/later this week|month|year: the part of the period before/after the mention."""
    u = g["u"]
    start, end, _ = (c.week(c.monday) if u == "week" else
                     c.month(c.today.year, c.today.month) if u == "month" else
                     c.year(c.today.year))
    return (start, c.anchor, "range") if g["w"] == "earlier" else (c.anchor, end, "range")


def weekend(c: Ctx, g: dict[str, Any]) -> Range:
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


def weekday(c: Ctx, g: dict[str, Any]) -> Range:
    wd, w = _WEEKDAYS[g["d"]], g["w"] or ""
    if w == "this":
        return c.day(c.monday + timedelta(days=wd))
    if w in ("next", "this coming") or (not w and c.prefer == "future"):
        return c.day(c.today + timedelta(days=(wd - c.today.weekday()) % 7 or 7))
    return c.day(c.today - timedelta(days=(c.today.weekday() - wd) % 7 or 7))


def ago(c: Ctx, g: dict[str, Any]) -> Range | None:
    n, unit = count(g["n"]), g["u"]
    if unit in ("decade", "night"):  # "a decade ago", "three nights ago"
        unit = "year" if unit == "decade" else "day"
        n = n if isinstance(n, str) else n * (10 if g["u"] == "decade" else 1)
    if isinstance(n, str):
        return shift(c.anchor, -VAGUE_COUNTS[n], unit), c.anchor, "range"
    if n <= 0:
        return None
    if unit in ("day", "week", "month", "year"):
        # "two weeks ago", "four months ago", "a year ago": the day that far back, as people
        # count it (months and years on the calendar, the day clamped to the month's end)
        return c.day(shift(c.at(c.today), -n, unit).date())
    start = shift(c.anchor, -n, unit)
    return start, shift(start, 1, unit), "instant"


def before_last(c: Ctx, g: dict[str, Any]) -> Range:
    """"the Friday before last": the one before last Friday."""
    last = weekday(c, {"d": g["d"], "w": "last"})
    return c.day(last[0].date() - timedelta(weeks=1))


def week_on(c: Ctx, g: dict[str, Any]) -> Range:
    """"a week on Friday", "Friday week": a week after the coming Friday."""
    coming = weekday(c, {"d": g["d"] or g["d2"], "w": "next"})
    return c.day(coming[0].date() + timedelta(weeks=1))


def week_from(c: Ctx, g: dict[str, Any]) -> Range:
    """"tomorrow week", "a week today": a week after that day."""
    base = c.today + timedelta(days=1 if "tomorrow" in (g["a"] or g["b"]) else 0)
    return c.day(base + timedelta(weeks=1))


def weekends_ago(c: Ctx, g: dict[str, Any]) -> Range | None:
    n = count(g["n"])
    if isinstance(n, str) or n <= 0:
        return None
    return c.weekend(c.monday + timedelta(weeks=-n))


def half_ago(c: Ctx, g: dict[str, Any]) -> Range:
    """"half a year ago": six months back; half a day or an hour: that long before the mention."""
    if g["u"] == "year":
        return c.day(shift(c.at(c.today), -6, "month").date())
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


def holiday(c: Ctx, g: dict[str, Any]) -> Range:
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
    return _holiday_range(c, lo, hi)


def _holiday_range(c: Ctx, lo: date, hi: date) -> Range:
    """A holiday's days as a range: a day, or a range when it spans more (Easter weekend)."""
    return c.at(lo), c.at(hi), "day" if hi - lo == timedelta(days=1) else "range"


def weekdays_ago(c: Ctx, g: dict[str, Any]) -> Range | None:
    """"two Saturdays ago": the Saturday a week before last Saturday."""
    n = count(g["n"])
    if isinstance(n, str) or n <= 0:
        return None
    last = weekday(c, {"d": g["d"], "w": "last"})
    return c.day(last[0].date() - timedelta(weeks=n - 1))


_PART_OF = {"start": "early", "beginning": "early", "middle": "mid", "end": "late"}


def part_of(c: Ctx, g: dict[str, Any]) -> Range | None:
    """"the start of the month", "the end of last year", "the middle of May": the early, mid or
    late third of that month or year; of a week, its first two days, mid-week or its last three."""
    part = _PART_OF[g["p"]]
    if g["m"]:
        return month(c, {"m": g["m"], "w": None, "y": g["y"], "p": part})
    k = {"last": -1, "next": 1}.get(g["w"], 0)
    if g["u"] == "week":
        lo, hi = {"early": (0, 2), "mid": (2, 4), "late": (4, 7)}[part]
        monday = c.monday + timedelta(weeks=k)
        return c.at(monday + timedelta(days=lo)), c.at(monday + timedelta(days=hi)), "range"
    rng = (c.month(*add_months(c.today.year, c.today.month, k)) if g["u"] == "month"
           else c.year(c.today.year + k))
    return month_part(rng, part)


def ahead(c: Ctx, g: dict[str, Any]) -> Range | None:
    """in N days|weeks|months|years (from now): the day, week, month or year that far ahead."""
    if g.get("f"):  # "in a fortnight"
        return c.day(c.today + timedelta(weeks=2))
    n, unit = count(g["n"]), g["u"]
    if isinstance(n, str):
        return c.anchor, shift(c.anchor, VAGUE_COUNTS[n], unit), "range"
    if n <= 0:
        return None
    if unit in ("day", "week", "month", "year"):  # "in two weeks": the day that far on
        return c.day(shift(c.at(c.today), n, unit).date())
    start = shift(c.anchor, n, unit)
    return start, shift(start, 1, unit), "instant"


def window(c: Ctx, g: dict[str, Any]) -> Range:
    """the past/last (N) days|weeks|…: [mention − N units, mention)."""
    n: int | str = count(g["n"]) if g["n"] else ("few" if g["u"].endswith("s") else 1)
    k = VAGUE_COUNTS[n] if isinstance(n, str) else n
    return shift(c.anchor, -k, g["u"].rstrip("s")), c.anchor, "range"


def vague(c: Ctx, g: dict[str, Any]) -> Range:
    w, a = g["w"], c.anchor
    if w.startswith("a while"):
        return a - timedelta(days=365), a - timedelta(days=14), "range"
    if w == "the other day":
        return a - timedelta(days=14), a, "range"
    return a - timedelta(days=30), a, "range"  # recently, lately, not long ago


def month(c: Ctx, g: dict[str, Any]) -> Range:
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
    return month_part(c.month(y, m), g["p"])


def mday(c: Ctx, g: dict[str, Any]) -> Range | None:
    return dated(c, _MONTHS[g["m"]], int(g["d"]), int(g["y"]) if g["y"] else None)


def dom(c: Ctx, g: dict[str, Any]) -> Range | None:
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
        y, m = add_months(y, m, step)
    return None


def iso(c: Ctx, g: dict[str, Any]) -> Range:
    return c.day(date(int(g["y"]), int(g["m"]), int(g["d"])))


def us(c: Ctx, g: dict[str, Any]) -> Range:
    """m/d/y (US order) unless only d/m/y makes sense; two-digit years → 1970–2069."""
    a, b, y = int(g["a"]), int(g["b"]), int(g["y"])
    if len(g["y"]) == 2:
        y += 2000 if y < 70 else 1900
    m, d = (b, a) if a > 12 >= b else (a, b)
    return c.day(date(y, m, d))


def short_date(c: Ctx, g: dict[str, Any]) -> Range | None:
    """d/m or m/d with no year: only where the other order is no date (one part above 12); an
    ambiguous "5/6" is not read."""
    a, b = int(g["a"]), int(g["b"])
    if a > 12 >= b >= 1:
        return dated(c, b, a, None)
    if b > 12 >= a >= 1:
        return dated(c, a, b, None)
    return None


def year(c: Ctx, g: dict[str, Any]) -> Range:
    return month_part(c.year(int(g["y"])), g["p"])


def season_named(c: Ctx, g: dict[str, Any]) -> Range:
    s, w = g["s"], g["w"]
    if g["y"]:
        return season_of(c, s, int(g["y"]))
    cands = [season_of(c, s, y) for y in range(c.today.year - 2, c.today.year + 2)]
    past = [r for r in cands if r[1] <= c.anchor]  # already over
    future = [r for r in cands if r[0] > c.anchor]  # not yet begun
    inside = [r for r in cands if r[0] <= c.anchor < r[1]]
    if w in ("last", "this past"):
        return past[-1]
    if w in ("next", "this coming"):
        return future[0]
    if w == "this":  # the current one, else the one of the anchor's year
        return inside[0] if inside else season_of(c, s, c.today.year)
    return (inside or (past[-1:] if c.prefer == "past" else future[:1]))[0]


def seasons_ago(c: Ctx, g: dict[str, Any]) -> Range | None:
    """"two summers ago": counting back over the seasons of that name already over (the last
    one is one summer ago); "the summer before last" is two."""
    n = count(g["n"])
    if isinstance(n, str) or n <= 0:
        return None
    past = [r for r in (season_of(c, g["s"], y) for y in range(c.today.year - n - 2, c.today.year + 1))
            if r[1] <= c.anchor]
    return past[-n]



def this_time(c: Ctx, g: dict[str, Any]) -> Range:
    """"this time last week": the same day a week (month, year) before or after."""
    return c.day(shift(c.at(c.today), -1 if g["w"] == "last" else 1, g["u"]).date())


def fortnight_ago(c: Ctx, g: dict[str, Any]) -> Range:
    return c.day(c.today - timedelta(weeks=2))


def just_gone(c: Ctx, g: dict[str, Any]) -> Range:
    """"Monday just gone": last Monday."""
    return weekday(c, {"d": g["d"], "w": "last"})


def weekend_apart(c: Ctx, g: dict[str, Any]) -> Range:
    """"the weekend before last" / "after next"."""
    return c.weekend(c.monday + timedelta(weeks=-2 if g["w"] == "before last" else 2))


def season_before_last(c: Ctx, g: dict[str, Any]) -> Range | None:
    return seasons_ago(c, {"n": "two", "s": g["s"]})


def unit_apart(c: Ctx, g: dict[str, Any]) -> Range:
    """"the year before last", "the month after next": two of them back or on."""
    return _unit_from_now(c, g["u"], -2 if g["w"] == "before last" else 2)


_NTH = {"first": 0, "second": 1, "third": 2, "fourth": 3}


def week_of_month(c: Ctx, g: dict[str, Any]) -> Range | None:
    """"the first week of June": days 1-7 (the second 8-14, …, the last the month's last seven);
    "the first weekend of June": its first Saturday and Sunday (the last: its last Saturday's)."""
    start, end, _ = month(c, {"m": g["m"], "w": None, "y": g["y"], "p": None})
    first, last = start.date(), (end - timedelta(days=1)).date()
    if g["u"] == "week":
        lo = last - timedelta(days=6) if g["o"] == "last" else first + timedelta(weeks=_NTH[g["o"]])
        return c.at(lo), c.at(lo + timedelta(days=7)), "range"
    if g["o"] == "last":
        sat = last - timedelta(days=(last.weekday() - 5) % 7)
    else:
        sat = first + timedelta(days=(5 - first.weekday()) % 7, weeks=_NTH[g["o"]])
    return c.at(sat), c.at(sat + timedelta(days=2)), "range"


def holidays_ago(c: Ctx, g: dict[str, Any]) -> Range | None:
    """"two Christmases ago": counting back over those already past (the last is one ago)."""
    n = count(g["n"])
    if isinstance(n, str) or n <= 0:
        return None
    past = [r for r in (_holiday_on(g["h"], y) for y in range(c.today.year - n - 1, c.today.year + 1))
            if r[0] < c.today]
    return _holiday_range(c, *past[-n])


def new_year_ahead(c: Ctx, g: dict[str, Any]) -> Range:
    """"in the new year": the first third of the coming year."""
    return month_part(c.year(c.today.year + 1), "early")


def short_year(c: Ctx, g: dict[str, Any]) -> Range:
    """"back in '19": the year of those two digits that is not ahead of the mention."""
    yy = int(g["yy"])
    y = 2000 + yy if 2000 + yy <= c.today.year else 1900 + yy
    return month_part(c.year(y), g["p"])
