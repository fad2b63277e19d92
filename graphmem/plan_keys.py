"""What a plan or its outcome is about (`plan_key`): the key that lets "we cancelled the Japan
trip" close "visit Japan in October", read from the words of the fact's value."""

from __future__ import annotations

import re

from . import calendar_words as CW
from .entities import normalise_name

_PLAN_STOP = frozenset((*CW.MONTHS, *CW.WEEKDAYS, *CW.SEASONS, *CW.HOLIDAYS,
                       *"i the a an my our there here".split()))
PLAN_STOP_WORDS = _PLAN_STOP  # words that name no thing, capitalised or not
_NOT_MODIFIER = _PLAN_STOP | frozenset("""to of for in on at with from during some their his her
its your this that these those and or by up out off about into over""".split())
_PLAN_WORD = re.compile(r"[A-Za-z][\w'’&.-]*")
# Words after a name that say when, not what ("a trip to Lisbon next spring").
_NOT_HEAD = _NOT_MODIFIER | frozenset("""next last this soon tomorrow tonight today later week
weeks weekend month months year years day days time again too also""".split())
# What a plan is for, not what it is: "a water bottle for my trip".
_PURPOSE = re.compile(r"\s+for\s+(?:my|our|his|her|their)\b", re.IGNORECASE)
# Heads that add nothing to a place: "the Lisbon trip" is the trip to Lisbon.
_TRAVEL_HEADS = frozenset("trip trips vacation holiday holidays visit getaway tour journey".split())
# Heads that name doing something to the word before them: "the bathroom remodel" is about the
# bathroom, as "remodel the bathroom" is.
_ACTION_HEADS = frozenset("""remodel remodeling remodelling renovation renovations reno redo refit
makeover extension overhaul upgrade repaint rewire refurb refurbishment""".split())


def plan_key(value: str | None) -> str | None:
    """What a plan or its outcome is about: its last proper name ("visit Japan in October" →
    japan) with the noun it modifies ("the Berlin half marathon" → berlin marathon, but "the
    Lisbon trip" → lisbon), else its last plain word ("repaint the kitchen")."""
    # What a plan is for is not what it is: "a water bottle for my trip" is about the bottle.
    value = _PURPOSE.split(value or "", maxsplit=1)[0]
    words = [w.rstrip(".") for w in _PLAN_WORD.findall(value)]
    if not words:
        return None
    names = _name_runs(words)
    key = _named_key(words, names[-1]) if names else _plain_key(words)
    # a letter alone names nothing: a value cut inside a word ("s" of "Smokey's") would key
    # every other such cut ("Rachel and Mike's") to the same plan
    return key if key and any(len(w) > 1 for w in key.split()) else None


def _name_runs(words: list[str]) -> list[list[int]]:
    """The positions of each run of capitalised words (a proper name), in order."""
    names: list[list[int]] = []
    prev_cap = False
    for i, w in enumerate(words):
        cap = w[:1].isupper() and w.lower() not in _PLAN_STOP
        if cap:
            if prev_cap:
                names[-1].append(i)
            else:
                names.append([i])
        prev_cap = cap
    return names


def _named_key(words: list[str], name_at: list[int]) -> str:
    name = normalise_name(re.sub(r"['’]s$", "", " ".join(words[i] for i in name_at)))
    # A name that modifies a noun is not the thing itself: "an LGBTQ art show" and "an
    # LGBTQ activist group" are two things, "contact Netflix support" is not "on Netflix".
    head = None
    for w in words[name_at[-1] + 1:]:
        if not w.isalpha() or w.lower() in _NOT_HEAD:
            break
        head = w.lower()
    return name if head is None or head in _TRAVEL_HEADS else f"{name} {normalise_name(head)}"


def _plain_key(words: list[str]) -> str | None:
    plain = [i for i, w in enumerate(words) if w.lower() not in _PLAN_STOP]
    if not plain:
        return None
    # A common noun alone names a kind, not one thing: "a road trip" and "a camping trip" are two
    # plans, so the word before it stays part of the key unless it is a function word.
    head = plain[-1]
    before = words[head - 1].lower() if head > 0 else ""
    if (not before or before in _NOT_MODIFIER) and words[head].lower() in _TRAVEL_HEADS:
        return None  # "my trip", "a trip there": no place, no kind, so not one trip
    if before and before not in _NOT_MODIFIER and words[head].lower() in _ACTION_HEADS:
        return normalise_name(before)
    key = words[head] if not before or before in _NOT_MODIFIER else f"{before} {words[head]}"
    return normalise_name(key)
