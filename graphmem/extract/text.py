"""Text helpers shared by the offline extractor's rules: spans, values, times, candidates."""

from __future__ import annotations

import re
from itertools import islice

from ..models import FactCandidate, RoleRef
from ..temporal import find_time_expressions as _find_times
from . import lexicon as L
from . import patterns as P

TimeHit = tuple[int, int, str]


def norm(s: str) -> str:
    return P.WS.sub(" ", s.lower().replace("’", "'")).strip()


def slug(s: str) -> str:
    return P.SLUG.sub("_", s.lower()).strip("_")


def skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i].isspace():
        i += 1
    return i


_NAME_RUN_MORE = 4  # words a name may run on past the word limit
_NOT_NAME = frozenset(("i", "i'm", "i've", "i'd", "i'll"))


def name_word(word: str) -> bool:
    """A word that can go on a name: capitalised, not "I", a day or a month."""
    return (word[:1].isupper() and word.lower() not in _NOT_NAME
            and not P.TIME_NAME.fullmatch(word))


def bounded(text: str, start: int, max_words: int = 8,
            boundary: re.Pattern[str] = P.BOUNDARY) -> int:
    """End of the object phrase at `start`: the next clause boundary, at most `max_words`."""
    m = boundary.search(text, max(start - 1, 0))  # a phrase may open on a boundary word
    end = max(m.start(), start) if m else len(text)
    words = list(islice(P.WORD.finditer(text, start, end), max_words + _NAME_RUN_MORE))
    if len(words) > max_words:
        end = words[max_words - 1].end()
        # a name is not cut in half ("a workshop at the Los Angeles | Public Library")
        for w in words[max_words:max_words + _NAME_RUN_MORE]:
            if not (name_word(words[max_words - 1].group()) and name_word(w.group())):
                break
            end = w.end()
    while end > start and text[end - 1] in L.PUNCT_STRIP:
        end -= 1
    return end


_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|the)\s+(?:[a-z][\w-]*\s+){0,2}$", re.I)
_HEAD_WORD = re.compile(r"\s+([a-z][a-z-]+)\b")
_NOT_A_HEAD = frozenset({"with", "at", "in", "on", "for", "to", "from", "by", "of", "and", "or",
                         "next", "this", "last", "soon", "tonight", "today", "tomorrow", "again",
                         "later", "sometime", "someday", "together", "there", "here", "too"})


def with_head_noun(text: str, start: int, name_start: int, name_end: int, end: int) -> str:
    """A proper name used as a modifier keeps the noun it modifies: "the new Sichuan place" is the
    entity "Sichuan place", not "Sichuan"; without an article before it the name stands alone."""
    head = _HEAD_WORD.match(text, name_end, end)
    if (head and head.group(1).lower() not in _NOT_A_HEAD
            and _ARTICLE_BEFORE.search(text, start, name_start)):
        return text[name_start:head.end()]
    return text[name_start:name_end]


def clean(value: str, drop_possessive: bool = True) -> str:
    """A slot value: no surrounding punctuation, leading articles or trailing filler words."""
    v = value.replace("**", "").replace("__", "").strip(L.PUNCT_STRIP)
    leads = L.LEADING_DROP + (("my ", "our ") if drop_possessive else ())
    changed = True
    while changed and v:
        changed = False
        low = v.lower()
        for lead in leads:
            if low.startswith(lead):
                v = v[len(lead):].lstrip()
                changed = True
                break
    v = P.TRAILING_DROP.sub("", v).strip(L.PUNCT_STRIP)
    if sum(v.count(q) for q in '"“”') % 2:
        v = v.replace('"', "").replace("“", "").replace("”", "")
    return P.WS.sub(" ", v)


def display(phrase: str) -> str:
    """The phrase rewritten for a third-person sentence about the user."""
    v = P.WS.sub(" ", phrase.strip(L.PUNCT_STRIP))
    v = P.TRAILING_DROP.sub("", v).strip(L.PUNCT_STRIP)
    for pattern, repl in P.FIRST_PERSON_WORDS:
        v = pattern.sub(repl, v)
    return v


def vague(value: str) -> bool:
    if not value:
        return True
    words = value.lower().split()
    return words[0] in L.VAGUE_HEADS or words[-1] in L.VAGUE_TAILS or (
        words[-1] in L.VAGUE_HEADS and len(words) <= 2)


def activity_slot(value: str) -> str:
    """A short slot key for an activity: the gerund and the last words of its object."""
    words = []
    for w in value.lower().split():
        if w in L.ACTIVITY_CUT:
            break
        if w not in L.ACTIVITY_DROP:
            words.append(w)
    if not words:
        return slug(value)
    head, rest = (words[0], words[1:]) if words[0].endswith("ing") else ("", words)
    rest = [w for w in rest if w not in ("of", "the", "a", "an", "and", "to")] or rest
    return slug(" ".join(([head] if head else []) + rest[-2:]))


def gerund(verb: str) -> str:
    v = verb.lower()
    if v.endswith("ing") and len(v) > 4:
        return v
    if v in L.DOUBLING_VERBS:
        return v + v[-1] + "ing"
    if v.endswith("e") and not v.endswith(("ee", "ye", "oe")):
        return v[:-1] + "ing"
    return v + "ing"


def activity_verb(word: str) -> str | None:
    """The activity verb a word names: itself ("swim"), its noun ("runs", "hikes"), its gerund
    ("journaling"), or what it is done as ("lengths", "laps" → swim)."""
    w = word.lower()
    if w in L.ACTIVITY_NOUNS:
        return L.ACTIVITY_NOUNS[w]
    for v in (w, singular(w)):
        if v in L.ACTIVITY_VERBS:
            return v
    return next((v for v in L.ACTIVITY_VERBS if gerund(v) == w), None)


_CLOCK = re.compile(r"\d{1,2}(?:[:.]?\d{2})?(?:am|pm)?|\d+(?:am|pm)")


def activity_key(key: str) -> str:
    """One slot key per activity however it is named (`key` is a slug): "nightly_journal_thing",
    "journal" and "journaling" → journaling; "sunday_run_club" → running; "7am_lengths" →
    swimming; "pottery_classes" → pottery. Time words and clock times go, then generic heads at
    the end (class, club, thing…); a single word naming an activity verb becomes its gerund."""
    words = [w for w in key.split("_") if w]
    kept = [w for w in words if w not in L.ACTIVITY_TIME_WORDS and not _CLOCK.fullmatch(w)]
    while len(kept) > 1 and kept[0] in ("of", "the", "a", "an", "some"):
        kept.pop(0)  # "20 minutes of strength training": the measure went, its "of" goes too
    while len(kept) > 1 and kept[-1] in L.ACTIVITY_GENERIC_HEADS:
        kept.pop()
    if all(w in L.ACTIVITY_GENERIC_HEADS for w in kept):
        return key  # nothing but time words and a head ("weekend stuff"): as it was said
    if len(kept) == 1 and (verb := activity_verb(kept[0])):
        return gerund(verb)
    return "_".join(kept)


def singular(word: str) -> str:
    w = word.lower()
    if w in L.IRREGULAR_PLURALS:
        return L.IRREGULAR_PLURALS[w]
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "sses", "xes", "zes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        return w[:-1]
    return w


def plural(word: str) -> bool:
    """Whether a word is a plural noun's form, as "one of my …" takes ("one of my guitars", "two
    of our fish"): "one of my gray slippers" names no plural at "gray", nor "one of my Pearl
    Izumi gloves" at "Pearl", so neither is the thing counted."""
    w = " ".join(word.lower().split())
    return (singular(w) != w or w.endswith(_IRREGULAR) and w not in L.SINGULAR_LOOKALIKES  # "goldfish"
            or len(word) >= 3 and word.endswith("s") and word[:-1].isupper())  # "PCs", "TVs"


_IRREGULAR = tuple(L.IRREGULAR_PLURALS)


def number(word: str) -> int | None:
    w = norm(word)
    if w.isdigit():
        return int(w)
    return L.NUMBER_WORDS.get(w)


def type_of(value: str) -> str:
    first = value.split(" ", 1)[0].lower()
    if first.endswith("ing") and len(first) > 4 and first not in ("thing", "morning", "evening"):
        return "activity"
    if first in L.FOOD or value.lower() in L.FOOD:
        return "food"
    return "other"


def with_time(sentence: str, time: TimeHit | None) -> str:
    body = sentence.rstrip(".")
    if time and time[2].lower() not in body.lower():
        phrase = time[2]
        if not P.PROPER_TIME.match(phrase):
            phrase = phrase[:1].lower() + phrase[1:]
        body = f"{body} {phrase}"
    return body + "."


def user_role() -> RoleRef:
    return RoleRef("subject", "user", "person")


# --- one sentence under analysis ----------------------------------------------------------------


class Sentence:
    """The text with lazily computed clause breaks and time expressions."""

    __slots__ = ("text", "conditional", "_times")

    def __init__(self, text: str) -> None:
        self.text = text
        self.conditional = bool(P.SENTENCE_CONDITIONAL.match(text))
        self._times: list[TimeHit] | None = None

    def times(self) -> list[TimeHit]:
        if self._times is None:
            self._times = _find_times(self.text)
        return self._times

    def hedged(self, pos: int) -> bool:
        """Whether the clause holding `pos` is conditional or hedged before `pos`."""
        start = P.clause(self.text, pos)[0]
        if P.CONDITIONAL.search(self.text, start, pos):
            return True
        before = self.text[:pos]  # inside a quotation: someone else's words
        return (before.count('"') + before.count("“") - before.count("”")) % 2 == 1

    def clause_end(self, pos: int) -> int:
        m = P.BOUNDARY.search(self.text, pos)
        end = m.start() if m else len(self.text)
        while end > pos and self.text[end - 1] in L.PUNCT_STRIP:
            end -= 1
        return end

    def time_for(self, s0: int, obj: int, end: int) -> TimeHit | None:
        """A time phrase inside the clause [s0, end], else one right before the subject."""
        before = lead = None
        for t in self.times():
            if s0 <= t[0] and t[1] <= end:
                return t
            if t[0] >= end and _APPOSITIVE.fullmatch(self.text[end:t[0]]):
                return t  # "we got our second cat, Mochi, a week ago"
            if t[1] <= s0 and not self.text[t[1]:s0].strip(" ,"):
                before = t
            elif t[1] <= s0 and _OPENS.fullmatch(self.text[:t[0]]) \
                    and self.text[t[1]:t[1] + 1] == ",":
                lead = t  # "Three months ago, after a lot of thought, I left ..."
        return before or lead


_APPOSITIVE = re.compile(r",\s*(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?,\s*")
_OPENS = re.compile(r"\s*(?:(?:so|and|but|well|anyway|actually|oh|ok|okay)[,\s]+)?", re.IGNORECASE)


def article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def proper_name(text: str, start: int) -> tuple[str, int] | None:
    """(name, end) of the proper name at `start`, without a date it runs into ("Canva on
    Monday" → "Canva"), or None."""
    pm = P.PROPER.match(text, start)
    if not pm:
        return None
    name, end = pm.group("p"), pm.end()
    if tail := P.NAME_TIME_TAIL.search(name):
        end -= len(name) - tail.start()
        name = name[:tail.start()]
    return name, end


def organisation(text: str, start: int) -> tuple[str, int, float]:
    """(name, end, confidence) of an employer or school at `start`, or ("", start, 0)."""
    found = proper_name(text, start)
    if found:
        name, end = found
        value = clean(name)
        if value and value.lower() not in L.GENERIC_ORGS:
            return value, end, 0.9
    lm = P.ORG_LOWER.match(text, start)
    if lm:
        end = bounded(text, lm.start("p"), 3)
        raw = text[lm.start("p"):end]
        cut = P.VALUE_TAIL.search(raw) or P.LOWER_ORG_TAIL.search(raw)
        raw = raw[:cut.start()] if cut else raw
        value = clean(raw)
        if value and not any(w in L.GENERIC_ORGS for w in value.lower().split()):
            return value, lm.start("p") + len(raw), 0.6
    return "", start, 0.0


def fact(s: Sentence, kind: str, predicate: str, sentence: str, start: int, end: int,
         *, value: str | None, modality: str = "asserted", roles: list[RoleRef] | None = None,
         time: TimeHit | None = None, subject: str = "user") -> FactCandidate | None:
    if time:
        start, end = min(start, time[0]), max(end, time[1])
    support = s.text[start:end].strip()
    if support.endswith((".", ",", ";", ":")) and "." not in support.rsplit(" ", 1)[-1][:-1]:
        support = support[:-1].rstrip()  # a sentence's full stop, not "D.C."
    if not support:
        return None
    return FactCandidate(kind=kind, predicate=predicate, text=with_time(sentence, time),
                         support=support, modality=modality, subject=subject, value=value,
                         roles=roles if roles is not None else [user_role()],
                         time_text=time[2] if time else None)


_CLOCK_MODIFIER = re.compile(
    r"\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)\s+(?!(?:on|at|in|every|each|and|or|to|till|until|before|"
    r"after|tomorrow|today|tonight)\b)(?=[a-z])", re.IGNORECASE)


def object_span(s: Sentence, m: re.Match[str], max_words: int = 8,
                tail: bool = True) -> tuple[int, int, int, TimeHit | None]:
    """(object start, value end, support end, time) for the phrase after a clause match."""
    text = s.text
    os = skip_ws(text, m.end())
    if lead := _CLOCK_MODIFIER.match(text, os):
        os = lead.end()  # "started doing 7am lengths": a clock time that modifies the object
    oe = bounded(text, os, max_words)
    time = s.time_for(m.start(), os, s.clause_end(os))
    support_end = oe
    if time and time[0] >= os:
        if time[0] < oe:
            oe = time[0]  # at os: the object is only a time phrase, hence empty
        support_end = max(support_end, time[1])
    if tail:
        pos = os
        while cut := P.VALUE_TAIL.search(text, pos, oe):
            before = text[os:cut.start()]
            if sum(before.count(q) for q in '"“”') % 2 == 0:
                oe = cut.start()
                break
            pos = cut.start() + 1  # inside a quoted title: look past it
    if P.CLOCK_TIME.match(text, os):
        oe = os
    return os, oe, support_end, time
