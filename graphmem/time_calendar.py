"""The calendar arithmetic the time rules share: the mention time and its day, week, month and
year; months added on the calendar; number words; seasons; early/mid/late parts."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Literal

Prefer = Literal["past", "future"]
Range = tuple[datetime, datetime, str]

SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
NUMBERS = {w: i + 1 for i, w in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
     "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
     "twenty"))}
NUMBERS.update({"a": 1, "an": 1, "thirty": 30, "forty": 40, "fifty": 50})
# Vague counts become a window reaching this many units back from the mention.
VAGUE_COUNTS = {"few": 7, "several": 10}  # "a couple" is two, as people use it


class Ctx:
    """The mention time and what the rules keep asking about it."""

    def __init__(self, anchor: datetime, prefer: Prefer) -> None:
        self.anchor = anchor
        self.today = anchor.date()
        self.monday = self.today - timedelta(days=self.today.weekday())
        self.prefer = prefer

    def at(self, d: date) -> datetime:
        return datetime.combine(d, time(), tzinfo=self.anchor.tzinfo)

    def day(self, d: date) -> Range:
        return self.at(d), self.at(d + timedelta(days=1)), "day"

    def week(self, monday: date) -> Range:
        return self.at(monday), self.at(monday + timedelta(days=7)), "week"

    def weekend(self, monday: date) -> Range:
        """The Saturday 00:00 – Monday 00:00 closing the ISO week that starts on `monday`."""
        return self.at(monday + timedelta(days=5)), self.at(monday + timedelta(days=7)), "weekend"

    def month(self, y: int, m: int) -> Range:
        ny, nm = add_months(y, m, 1)
        return self.at(date(y, m, 1)), self.at(date(ny, nm, 1)), "month"

    def year(self, y: int) -> Range:
        return self.at(date(y, 1, 1)), self.at(date(y + 1, 1, 1)), "year"


def add_months(y: int, m: int, k: int) -> tuple[int, int]:
    q, r = divmod(m - 1 + k, 12)
    return y + q, r + 1


def shift(dt: datetime, n: int, unit: str) -> datetime:
    """`dt` moved by `n` units; months and years move on the calendar (day clamped)."""
    if unit in ("day", "week", "hour", "minute"):
        return dt + timedelta(**{unit + "s": n})
    y, m = add_months(dt.year, dt.month, n * (12 if unit == "year" else 1))
    last = (date(*add_months(y, m, 1), 1) - timedelta(days=1)).day
    return dt.replace(year=y, month=m, day=min(dt.day, last))


def count(word: str) -> int | str:
    """A number word or digits → int; couple/few/several → that vague word."""
    w = " ".join(word.split()).removeprefix("a ").removesuffix(" of")
    if w == "couple":
        return 2
    if w in VAGUE_COUNTS:
        return w
    return int(w) if w.isdigit() else NUMBERS[w]


def season_of(c: Ctx, name: str, y: int) -> Range:
    """Meteorological (northern) seasons; winter Y runs from 1 December Y to 1 March Y+1."""
    start = SEASON_START[name]
    ey, em = add_months(y, start, 3)
    return c.at(date(y, start, 1)), c.at(date(ey, em, 1)), "season"


def month_part(rng: Range, part: str | None) -> Range:
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
        lo, hi = shift(start, k, "month"), shift(start, k + 4, "month")
    return lo, hi, "range"


def dated(c: Ctx, m: int, d: int, y: int | None) -> Range | None:
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

