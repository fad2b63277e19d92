"""Rules for counts that change: ordinals ("a fourth bike"), "up to / down to three", "one fewer",
"two more", "sold one of my guitars" — absolute values or +N / −N on the count slot."""

from __future__ import annotations

import re
from typing import NamedTuple

from ..models import FAMILY_COUNTS, FactCandidate, RoleRef
from . import habits
from . import lexicon as L
from . import patterns as P
from .text import Sentence, fact, number, plural, singular, slug, type_of, user_role

AP = r"['’]"
_ORD = "|".join(sorted(L.ORDINAL_WORDS, key=len, reverse=True)) + r"|\d{1,3}(?:st|nd|rd|th)"
_NUM = r"\d{1,4}|" + "|".join(sorted((w for w in L.NUMBER_WORDS if " " not in w), key=len,
                                      reverse=True))
_SUBJ = r"\b(?P<subj>I|we)(?:" + AP + r"(?:ve|d|m|re))?(?:\s+(?:just|finally|recently|now|" \
        r"officially|also|have|had|sadly|already))*"
# Things of two words counted whole (the rest by their head noun).
TWO_WORD = ("guinea pig", "half marathon")
_NOUN = r"(?P<noun>" + "|".join(w.replace(" ", r"\s+") + "s?" for w in TWO_WORD) + r"|[a-z][a-z-]*)"
ORDINAL_GOT = re.compile(
    r"(?:" + _SUBJ + r"\s+|" + P.SENTENCE_START + r")(?:went\s+and\s+)?"  # "Went and got a third"
    r"(?P<verb>got|bought|adopted|had|welcomed|added|picked\s+up|brought\s+home|"
    r"ended\s+up\s+(?:buying|getting|adopting)|went\s+ahead\s+and\s+(?:bought|got)|"
    r"rescued|took\s+in|finished|completed|ran|run|did|climbed)\s+(?:a|an|my|our|the)\s+"
    r"(?P<ord>" + _ORD + r")\s+" + _NOUN + r"\b", re.IGNORECASE)
UP_DOWN = re.compile(
    _SUBJ + r"(?:" + AP + r"(?:m|re)|\s+am|\s+are)?\s+(?:now\s+)?(?P<dir>up|down)\s+to\s+"
    r"(?:just\s+|only\s+)?(?P<num>" + _NUM + r")\s+" + _NOUN + r"\b", re.IGNORECASE)
FEWER = re.compile(
    _SUBJ + r"\s+(?:now\s+)?(?:have|own|got)\s+(?P<num>" + _NUM + r")\s+(?P<dir>fewer|less|"
    r"more)\s+" + _NOUN + r"\b", re.IGNORECASE)
GAINED = re.compile(
    r"(?:" + _SUBJ + r"\s+|" + P.SENTENCE_START + r")"  # "Picked up two more fish": no "I"
    r"(?:got|bought|adopted|added|picked\s+up|brought\s+home|rescued|took\s+in|"
    r"ended\s+up\s+(?:buying|getting|adopting))\s+"
    r"(?P<num>another|" + _NUM + r")(?P<more>\s+more)?\s+" + _NOUN + r"\b", re.IGNORECASE)
LOST = re.compile(
    _SUBJ + r"\s+(?P<verb>sold|gave\s+away|gave|lost|rehomed|donated|got\s+rid\s+of|traded\s+in|"
    r"(?<=\bhad\s)to\s+(?:rehome|sell|give\s+away|give\s+up))\s+"  # "had to rehome": done
    r"(?:another\s+)?(?P<num>" + _NUM + r"|a|an)\s+(?P<of>of\s+(?:my|our|the)\s+)?" + _NOUN +
    r"\b", re.IGNORECASE)
# "So one fewer hen now", "that's two more bikes now": a change said without a verb.
CHANGED_NOW = re.compile(
    r"\b(?P<num>" + _NUM + r")\s+(?P<dir>fewer|less|more)\s+" + _NOUN + r"\s+(?:now|as\s+of\s+"
    r"today)\b", re.IGNORECASE)
# "It's three cats now", "that makes four bikes now": the count as it stands.
NOW_COUNT = re.compile(
    r"\b(?:it|that|this)(?:" + AP + r"s|\s+is|\s+makes)\s+(?:(?:just|only)\s+)?(?P<num>" + _NUM +
    r")\s+" + _NOUN + r"\s+now\b", re.IGNORECASE)
# "Picked up another guitar, that's four now": the count as it stands, its noun said before.
NOW_BARE = re.compile(
    r"\b(?:that|it)(?:" + AP + r"s|\s+is|\s+makes)\s+(?:(?:just|only)\s+)?(?P<num>" + _NUM +
    r")\s+(?:now|in\s+total|altogether)\b", re.IGNORECASE)
# "Baby number four arrived", "kid number two is on the way … was born": the count of children.
BABY_NUMBER = re.compile(
    r"\b(?P<noun>[a-z]+)\s+(?:number\s+|no\.\s*|#)(?P<num>" + _NUM + r")\s+(?:has\s+|finally\s+|"
    r"just\s+|officially\s+)*(?:arrived|is\s+here|was\s+born|came(?:\s+home)?|joined\s+us|"
    r"moved\s+in)\b", re.IGNORECASE)
# "One of our hens died", "two of my fish passed away": that many fewer.
DIED = re.compile(
    r"\b(?P<num>" + _NUM + r")\s+of\s+(?:my|our|the)\s+" + _NOUN + r"\s+(?:has\s+|have\s+)?"
    r"(?:just\s+|sadly\s+)?(?:died|passed\s+away|passed|ran\s+away|went\s+missing|got\s+out)\b",
    re.IGNORECASE)
# "so we're down to two now": the count as it stands, its noun said in the sentence before
UP_DOWN_BARE = re.compile(
    _SUBJ + r"(?:" + AP + r"(?:m|re)|\s+am|\s+are)?\s+(?:now\s+)?(?:up|down)\s+to\s+"
    r"(?:just\s+|only\s+)?(?P<num>" + _NUM + r")(?=\s*(?:now\b|[.,;!]|$))", re.IGNORECASE)
# The number said right before a thing an event brings or takes away, as a step of its count:
# "another bike", "yet another", "another two", "one more", "six more tetras", "two of the
# guitars" (a step), "a second greyhound" (the total) — of the speaker's own things only (not
# "two of his bikes", "their second car"), never a part of a larger number ("1,500 more").
_WHOLE = r"(?<![\d.,])"
_STEP_BEFORE = re.compile(
    r"(?:\b(?P<another>(?:yet\s+)?another(?:\s+" + _WHOLE + r"(?P<another_n>" + _NUM + r"))?|"
    r"one\s+more)"
    r"|\b" + _WHOLE + r"(?P<more>" + _NUM + r")\s+(?:more|extra)"
    r"|\b" + _WHOLE + r"(?P<part>" + _NUM + r")\s+of\s+(?:my|our|the)"
    r"|\b(?:a|an|my|our)\s+(?P<ord>" + _ORD + r"))\s+$", re.IGNORECASE)
# Words of the clause before the step that say it did not happen, or not for certain ("could've",
# "would have"; "I'd have bought"; not "I've", "we've": done).
_NOT_DONE = re.compile(r"\b(?:nearly|almost|about\s+to|could|would|should|might|may|maybe|must|"
                       r"\w+" + AP + r"d\s+have)\b", re.IGNORECASE)
# Someone the thing is got for, between the verb and its number: "bought my son another bike".
_FOR_SOMEONE = re.compile(r"\b(?:him|her|them|us|my\s+\w+|our\s+\w+|the\s+\w+)\s+$",
                          re.IGNORECASE)


class Step(NamedTuple):
    """A number said of the things an event brings or takes away."""

    n: int
    total: bool  # said as the count that now holds ("a second greyhound"), not a step
    start: int  # where its words start


def step_before(text: str, start: int) -> Step | None:
    """The number said right before `start`, the start of the thing counted: "another " → 1,
    "another two " / "six more " → 2 / 6, "two of the " → 2 (steps), "a second " → 2 (the
    total); None when no number is said there, when the thing is got for someone else, when its
    clause says it was not done or not for certain ("didn't sell two of the guitars", "nearly
    bought another"), or asks ("bought another camera?")."""
    m = _STEP_BEFORE.search(text, max(0, start - 40), start)
    if m is None or re.match(r"hand\b", text[start:], re.IGNORECASE):  # "a second hand car"
        return None
    c0, c1 = P.clause(text, m.start())
    if (P.NEGATORS.search(text, c0, m.start()) or P.CONDITIONAL.search(text, c0, m.start())
            or _NOT_DONE.search(text, c0, m.start()) or _FOR_SOMEONE.search(text, c0, m.start())
            or text[c1:c1 + 1] == "?"):
        return None
    if m.group("another"):
        n = number(m.group("another_n")) if m.group("another_n") else 1
        return Step(n, False, m.start()) if n else None
    if m.group("ord"):
        o = m.group("ord").lower()
        nth = L.ORDINAL_WORDS.get(o) or int(re.sub(r"\D", "", o))
        return Step(nth, True, m.start()) if nth >= 2 else None
    n = number(m.group("more") or m.group("part"))
    return Step(n, False, m.start()) if n else None


# Words after a number or an ordinal that are no noun of a count: times, and function words
# (prepositions, articles, pronouns, conjunctions: "took in a third from the rescue").
_NOT_A_NOUN = frozenset("now today tonight yesterday tomorrow again anymore total left so i we you "
                        "he she it they them us me him her its their his and or but as into onto "
                        "off out up than then there here".split()) | L.PREPOSITIONS | L.COUNT_STOP
_ACHIEVE = frozenset("finished completed ran run did climbed".split())
_FAMILY = {"child": "child", "kid": "child", "baby": "child", "son": "son",
           "daughter": "daughter", "grandchild": "grandchild", "grandkid": "grandchild"}
assert {f"count:{v}" for v in _FAMILY.values()} == FAMILY_COUNTS


def count_slot(noun: str, verb: str = "") -> str | None:
    """The count predicate for a noun: owns_count:<pet or thing>, count:child, count:<deed>."""
    n = singular(P.WS.sub(" ", noun.lower()))
    if n in L.NOT_POSSESSED or n in L.VAGUE_HEADS or n in L.OCCUPATIONS or n in _NOT_A_NOUN or (
            n in L.CONSUMABLES and n not in L.PETS):  # "one coffee a day" is no possession
        return None  # "we're down to two now", "took in a third from …": no noun was said
    return count_of("count" if verb.lower() in _ACHIEVE else "owns_count", n)


def count_of(name: str, key: str) -> str | None:
    """The count `name` (owns_count or count) of the thing `key` is kept under, whoever read it
    (the rules' `count_slot`, the model's counts and steps), so that readings of one thing meet
    in one slot: a pet by its kind ("kittens" → owns_count:cat, "hens" → chicken), children
    ("kids" → count:child), a thing of two words counted whole ("guinea pigs"), else the head
    noun ("rescue dogs" → dog, "streaming subscriptions" → subscription)."""
    words = P.WS.sub(" ", key.lower()).strip().split()
    if not words:
        return None
    whole = singular(" ".join(words[-2:]))
    if whole in TWO_WORD:
        return f"{'owns_count' if whole in L.PETS else name}:{slug(L.PETS.get(whole, whole))}"
    head = singular(words[-1])
    if head in _FAMILY:
        return f"count:{_FAMILY[head]}"
    if head in L.PETS:
        return f"owns_count:{slug(L.PETS[head])}"
    word = slug(head) if head.isascii() else head  # "pokémon" as said, not "pok_mon"
    return f"{name}:{word}" if word else None


def _count_fact(s: Sentence, m: re.Match[str], predicate: str, value: str,
                sentence: str) -> FactCandidate | None:
    noun = singular(m.group("noun"))
    time = s.time_for(m.start(), m.end(), s.clause_end(m.end()))
    return fact(s, "possession" if predicate.startswith("owns") else "attribute", predicate,
                sentence, m.start(), m.end(), value=value, time=time,
                roles=[user_role(), RoleRef("object", noun, type_of(noun))])


def prefilter(text: str) -> bool:
    """Counts said without a first-person word: "Baby number four arrived", "Picked up two more
    fish today", "so that's three kids now"."""
    return bool(BABY_NUMBER.search(text) or GAINED.search(text) or NOW_COUNT.search(text)
                or CHANGED_NOW.search(text) or ORDINAL_GOT.search(text) or NOW_BARE.search(text))


def counts(s: Sentence, before: str = "") -> list[FactCandidate]:
    """Counts said in `s`; a bare count ("that's four now", "we're down to two now") takes its
    noun from the last count said before it, in this sentence or in `before` (the turn's words
    before the piece)."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in ORDINAL_GOT.finditer(text):
        o = m.group("ord").lower()
        nth = L.ORDINAL_WORDS.get(o) or int(re.sub(r"\D", "", o))
        # "took in a third from the rescue": the noun is left out (`count_slot` refuses a
        # function word), and what it stands for is not read here: an earlier number and plural
        # of the turn was as often another thing (two kids, two beers) as the one counted
        pred = count_slot(m.group("noun"), m.group("verb"))
        if pred and nth >= 2 and not s.hedged(m.start()):
            out.append(_count_fact(s, m, pred, str(nth), f"User now has {nth} "
                                   f"{m.group('noun').lower()}s (a {o} one)."
                                   if not pred.startswith("count:") or pred == "count:child"
                                   else f"User has done {nth} {m.group('noun').lower()}s."))
    for m in UP_DOWN.finditer(text):
        n = number(m.group("num"))
        noun = singular(m.group("noun"))
        if m.group("dir").lower() == "down" and n is not None and habits.consumable(noun) and \
                noun not in L.PETS and not s.hedged(m.start()):  # "one coffee a day": cutting down
            out.append(fact(s, "preference", "reduces", f"User is cutting down on {noun}.",
                            m.start(), m.end(), value=noun,
                            roles=[user_role(), RoleRef("object", noun, "food")]))
            continue
        pred = count_slot(m.group("noun"))
        if pred and n is not None and not s.hedged(m.start()):
            out.append(_count_fact(s, m, pred, str(n),
                                   f"User is {m.group('dir').lower()} to {n} {m.group('noun')}."))
    for m in FEWER.finditer(text):
        n = number(m.group("num"))  # a number said: "a few more" counts nothing exactly
        pred = count_slot(m.group("noun"))
        if pred and n is not None and not s.hedged(m.start()):
            sign = "+" if m.group("dir").lower() == "more" else "-"
            out.append(_count_fact(s, m, pred, f"{sign}{n}",
                                   f"User has {n} {m.group('dir').lower()} {m.group('noun')}."))
    for m in GAINED.finditer(text):
        num = m.group("num").lower()
        n = 1 if num == "another" else number(num)
        pred = count_slot(m.group("noun"))
        if pred and n is not None and (num == "another" or m.group("more")) and \
                not s.hedged(m.start()):
            out.append(_count_fact(s, m, pred, f"+{n}",
                                   f"User got {num}{m.group('more') or ''} {m.group('noun')}."))
    for m in LOST.finditer(text):
        num = m.group("num").lower()
        n = 1 if num in ("a", "an") else number(num)
        noun = singular(m.group("noun"))
        pred = count_slot(noun)
        if m.group("verb").lower() == "gave" and not m.group("of"):
            continue  # "gave two talks": only "gave two of the kittens (away)" counts
        if pred and n is not None and (m.group("of") and plural(m.group("noun"))
                                       or not m.group("of") and noun in L.PETS) and \
                not s.hedged(m.start()):
            out.append(_count_fact(s, m, pred, f"-{n}",
                                   f"User has {n} {m.group('noun')} fewer."))
    for m in NOW_COUNT.finditer(text):
        n = number(m.group("num"))
        pred = count_slot(m.group("noun"))
        if pred and n is not None and n >= 1 and not s.hedged(m.start()):
            out.append(_count_fact(s, m, pred, str(n), f"User has {n} {m.group('noun')} now."))
    for m in BABY_NUMBER.finditer(text):  # "baby number four arrived", "cat number three"
        n = number(m.group("num"))
        noun = singular(m.group("noun"))
        if not n or n < 1 or s.hedged(m.start()) or not (noun in _FAMILY or noun in L.PETS):
            continue
        if _FAMILY.get(noun) == "child":
            out.append(fact(s, "relationship", "count:child", f"User has {n} children.",
                            m.start(), m.end(), value=str(n),
                            time=s.time_for(m.start(), m.end(), s.clause_end(m.end()))))
        elif pred := count_slot(noun):
            out.append(_count_fact(s, m, pred, str(n), f"User now has {n} {noun}s."))
    for m in CHANGED_NOW.finditer(text):
        n = number(m.group("num"))
        pred = count_slot(m.group("noun"))
        if pred and n and not s.hedged(m.start()):
            sign = "+" if m.group("dir").lower() == "more" else "-"
            out.append(_count_fact(s, m, pred, f"{sign}{n}",
                                   f"User has {n} {m.group('dir').lower()} {m.group('noun')}."))
    for m in DIED.finditer(text):
        n = number(m.group("num"))
        noun = singular(m.group("noun"))
        pred = count_slot(noun)
        if pred and n and noun in L.PETS and plural(m.group("noun")) and not s.hedged(m.start()):
            out.append(_count_fact(s, m, pred, f"-{n}",
                                   f"User has {n} {m.group('noun')} fewer."))
    counted = [f for f in out if f and f.predicate.startswith(("owns_count:", "count:"))]
    earlier = None
    for m in (*NOW_BARE.finditer(text), *UP_DOWN_BARE.finditer(text)):
        n = number(m.group("num"))
        said = [f for f in counted if text.find(f.support) < m.start()]
        if not said and before.strip():  # the count said in the sentence before
            if earlier is None:
                earlier = [f for f in counts(Sentence(before)) if f.predicate.startswith(
                    ("owns_count:", "count:"))]
            said = earlier
        if said and n and not s.hedged(m.start()):  # the last count said before it
            last = said[-1]
            here = text.find(last.support)  # -1: said in the sentence before
            out.append(fact(s, "possession" if last.predicate.startswith("owns") else "attribute",
                            last.predicate, f"User now has {n} ({last.predicate.split(':')[1]}).",
                            here if here >= 0 else m.start(), m.end(), value=str(n), roles=list(last.roles)))
    return [f for f in out if f]


def prefer_stated(facts: list[FactCandidate]) -> list[FactCandidate]:
    """Where a sentence states a count outright ("a fourth bike": 4) drop its +1 / −1 readings."""
    absolute = {f.predicate for f in facts if f.predicate.startswith(("owns_count:", "count:"))
                and (f.value or "").isdigit()}
    return [f for f in facts if f.predicate not in absolute or (f.value or "").isdigit()]
