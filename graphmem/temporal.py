"""Find temporal phrases in text and resolve them against the mention time into calendar ranges.

The phrases are declared once, in time_grammar; the finder and the resolver are both built from
that table. time_rules resolves each phrase; time_calendar holds the calendar arithmetic."""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import datetime, timedelta

from . import calendar_words as CW
from .models import TimeExpression
from .time_calendar import Ctx, Prefer, Range
from .time_grammar import AHEAD, MONTH_WORD, PHRASES, Phrase

__all__ = ["Prefer", "find_time_expressions", "resolve_all", "resolve_time_expression",
           "tense_prefers"]

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



def _end_in(where: list[int], end: int, length: int) -> int:
    """The offset in the written text where a phrase ending at `end` (spelled out) ends."""
    if end >= len(where) - 1:
        return length
    # the phrase's last character comes from where[end - 1]; a written-out word maps every
    # character to its start, so the end is the next character's origin
    nxt = where[end]
    return nxt if nxt > where[end - 1] else where[end - 1] + 1


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


_CUE_TOKENS = re.compile(r"[a-z]+|\d")  # each digit is a token of its own
_FINDERS: list[tuple[re.Pattern[str], frozenset[str]]] = [
    (p.finder(), p.cues) for p in (*PHRASES, *AHEAD)]
_RESOLVERS: list[tuple[re.Pattern[str], Phrase]] = [(p.resolver(), p) for p in PHRASES]
_AHEAD: list[tuple[re.Pattern[str], Phrase]] = [(p.resolver(), p) for p in AHEAD]


def find_time_expressions(text: str) -> list[tuple[int, int, str]]:
    """Temporal phrases in `text` as (start, end, text[start:end]); longest wins, no overlaps.
    Chat spellings count as the word ("last tues", "2 wks ago"); offsets are in `text`."""
    original = text
    text, where = _spelled_out(text) if _CHAT.search(text) else (text, None)
    words = set(_CUE_TOKENS.findall(text.lower()))
    found = [(m.start(), m.end()) for p, cues in _FINDERS if not cues.isdisjoint(words)
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


_LEAD = re.compile(r"^(?:(?:back|around|about|roughly|approximately|sometime|just) )?"
                   r"(?:(?:in|on|during|over|for|within|at|towards?) )?")
_CALENDARISH = re.compile(rf"\b(?:{MONTH_WORD})\b|\b(?:19|20)\d\d\b|\d+[/.-]\d+")
# A bound or a choice is not a date: "after May", "by 2025", "March or April" stay unresolved.
_RELATIONAL = re.compile(r"\b(?:before|after|by|until|till|since|between|from|to|or|and|prior"
                         r"|end|beginning|middle|start)\b")
_PERIODS = ("day", "week", "month", "year")
def _dateparser_fallback(c: Ctx, s: str) -> Range | None:
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


def _match(s: str) -> tuple[Phrase, dict[str, str | None]] | None:
    """The first declared phrase whose grammar covers all of `s` (normalised), and its groups (a
    group the phrase does not have reads as None)."""
    for pattern, phrase in _AHEAD:  # before the lead goes: its "in" makes a time ahead
        if m := pattern.fullmatch(s):
            return phrase, defaultdict(lambda: None, m.groupdict())
    s = _LEAD.sub("", s, count=1)
    for pattern, phrase in _RESOLVERS:
        if m := pattern.fullmatch(s):
            return phrase, defaultdict(lambda: None, m.groupdict())
    return None


def _normalised(expr: str) -> str:
    s = " ".join(expr.lower().replace("’", "'").split()).strip(" .,;:!?")
    return _spelled_out(s)[0] if _CHAT.search(s) else s


def resolve_time_expression(expr: str, anchor: datetime, *,
                            prefer: Prefer = "past") -> TimeExpression:
    """Resolve `expr` against the mention time `anchor` into a half-open range [start, end).

    Results keep the anchor's tzinfo. Ambiguous phrases that could point either way ("in March",
    "on Friday", "June 3rd", "over the weekend") go to the past unless `prefer="future"` (plans).
    Anything not understood comes back with resolved=False and no start/end: nothing is guessed.
    """
    s = _normalised(expr)
    c = Ctx(anchor, prefer)
    rng: Range | None = None
    try:
        found = _match(s)
        if found is not None:
            rng = found[0].rule(c, found[1])
        else:
            s = _LEAD.sub("", s, count=1)
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


def phrase_of(expr: str) -> Phrase | None:
    """The declared phrase that reads `expr` (as the resolver does), if any."""
    found = _match(_normalised(expr))
    return found[0] if found else None
