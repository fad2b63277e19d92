"""A correction said after the fact: "wait scratch that, it's three", "correction: it's not
peanuts, it's tree nuts", "it's Salem, not Portland". Its words carry the new value and often the
old one, never the predicate: which fact it corrects is decided against what the user holds
(`graphmem.correcting`), so the corrected value takes the slot of the fact it replaces.

Exact shapes only: words that take back, then "it's / make that / I meant" and the value; or
the shapes "it's not A, it's B" and "it's B, not A"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .patterns import TIME_NAME
from .text import name_word, number

# Words that only take something back. "I mean" is not one ("I mean, it's Netflix").
_TAKE_BACK = re.compile(
    r"\b(?:scratch\s+that|correction|wait,?\s+no|no,?\s+wait|sorry,?\s+i\s+meant|i\s+meant|"
    r"i\s+misspoke|my\s+bad|oops|typo)\b|(?<=[,.;:!?—–-])\s*make\s+that\b", re.IGNORECASE)
# "it's", "it is", "make that", "I meant", then the value ("not" first: the old value).
_IS = re.compile(
    r"(?:\b(?:it['’]?s|it\s+is|it\s+was|i\s+meant|should\s+(?:be|have\s+said))"
    r"|(?<=[,.;:!?—–-])\s*make\s+that)"
    r"[\s,]+(?:(?:actually|really|just)[\s,]+)?(?P<neg>not\s+)?", re.IGNORECASE)
_WORDS = re.compile(r"(?:(?:a|an|the|my|our)\s+)?(?P<v>[\w'’&-]+(?:[ \t]+[\w'’&-]+){0,3})")
_THEN_NOT = re.compile(r"\s*,?\s*(?:and\s+)?not\s+", re.IGNORECASE)
# A value ends at the first word that is not part of a name or a thing.
_ENDS = frozenset("""and but so because not actually though anyway too instead either or lol haha
    tbh i we you he she they it is are was were has have had do does did who which that this
    from for with at in on to of by as if then now anymore either""".split())
# Words that are never a value by themselves.
_NOT_VALUES = frozenset("""a an the fine ok okay good great true right wrong that this it just so
    me my our fair weird funny different same there here""".split())
# Words a value never starts with: "it's not always easy", "it's been ages", "it's like …".
_NOT_FIRST = frozenset("""just always really very still definitely also like been being more less
    quite pretty too so enough about only even already probably maybe kind sort getting going
    gonna been hard easy nice""".split())
_NAME = r"(?:\d{1,4}|[A-Z][\w'’&-]*(?:[ \t]+[A-Z][\w'’&-]*){0,2})"
CUE_REACH = 40  # characters between the words that take back and the new value, at most


@dataclass(frozen=True)
class Correction:
    new: str  # the corrected value, as said
    start: int  # its span in the text read
    end: int
    old: str | None  # the value it replaces, when said ("it's not peanuts")
    take_back: bool  # said with words that only take back, close before the new value
    count: int | None  # the new value as a number, when it is one


def _value(text: str, at: int) -> tuple[str, int, int] | None:
    m = _WORDS.match(text, at)
    if not m:
        return None
    words = m.group("v").split()
    kept: list[str] = []
    for w in words:
        if w.lower() in _ENDS:
            break
        kept.append(w)
    if (not kept or (len(kept) == 1 and kept[0].lower() in _NOT_VALUES)
            or kept[0].lower() in _NOT_FIRST or TIME_NAME.fullmatch(kept[0])):
        return None  # not a value, or a day or a month: a time, not what was held
    value = " ".join(kept)
    start = m.start("v")
    return value, start, start + len(value)


# The chat convention for a word mistyped just before: "*Northampton", "Biscuit*" (a name or a
# number alone, at the start of the message; "*really* loved it" is emphasis).
_STAR = re.compile(r"\s*(?:\*(?P<a>" + _NAME + r")(?![\w*])|(?P<b>" + _NAME + r")\*(?![\w*]))")
# Self-repair inside one message: "I live in Swansea — sorry, Swindon".
_REPAIR = re.compile(r"(?P<old>" + _NAME + r")\s*(?:[,—–-]|\.\.\.)\s*(?i:sorry|oops|i\s+mean)"
                     r"[,!]?\s+(?P<new>" + _NAME + r")" + r"(?=\s*(?:[,.;:!?)—–-]|$))")
# Words that take back, then the value alone: "correction: 34, not 43", "typo - Leeds".
_CUE_VALUE = re.compile(r"[\s:,—–-]*")  # matches anywhere (it may match nothing)
_NAME_AT = re.compile(_NAME)
_ALONE = re.compile(r"\s*(?:[,.;:!?)—–-]|$)")  # the value is all the clause says


def _bare(text: str) -> Correction | None:
    """The shapes with no "it's": a starred word, a repair inside a sentence, or words that take
    back followed by the value alone — each only with a name or a number, never a day or a
    month (a time, not what was held)."""
    found = _bare_shape(text)
    if found is None:
        return None
    first = found.new.split()[0]
    return found if first.isdigit() or name_word(first) else None  # not "I", a day or a month


def _bare_shape(text: str) -> Correction | None:
    star = _STAR.match(text)
    if star and _ALONE.match(text, star.end()):
        value = star.group("a") or star.group("b")
        start = star.start("a") if star.group("a") else star.start("b")
        return Correction(value, start, start + len(value), None, True, number(value))
    repair = _REPAIR.search(text)
    if repair and repair.group("new")[:1].isupper() == repair.group("old")[:1].isupper():
        value = repair.group("new")
        return Correction(value, repair.start("new"), repair.end("new"), repair.group("old"),
                          True, number(value))
    cue = _TAKE_BACK.search(text)
    if cue is None:
        return None
    gap = _CUE_VALUE.match(text, cue.end())
    name = _NAME_AT.match(text, gap.end() if gap else cue.end())
    if name is None or not _ALONE.match(text, name.end()):
        return None
    value = name.group()
    after = _THEN_NOT.match(text, name.end())
    old = then[0] if after and (then := _value(text, after.end())) is not None else None
    return Correction(value, name.start(), name.end(), old, True, number(value.split()[0]))


def read(text: str) -> Correction | None:
    """The correction a message makes, or None."""
    found = _read_is(text)
    return found if found is not None else _bare(text)


def _read_is(text: str) -> Correction | None:
    old: str | None = None
    for m in _IS.finditer(text):
        found = _value(text, m.end())
        if found is None:
            continue
        value, start, end = found
        if m.group("neg"):
            old = old or value
            continue
        after = _THEN_NOT.match(text, end)
        if after and old is None and (then := _value(text, after.end())) is not None:
            old = then[0]
        cue = _TAKE_BACK.search(text[max(0, m.start() - CUE_REACH):m.end()])
        # "it's not A, it's B" and "it's B, not A" correct by their shape; else words that
        # take back must come just before
        if not (cue or old):
            return None
        return Correction(value, start, end, old, bool(cue), number(value.split()[0]))
    return None
