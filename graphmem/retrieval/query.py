"""Query analysis: entity mentions, lexical keys, an embedding, and the temporal intent (W, δ)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from .. import calendar_words as CW
from ..lucene import terms
from ..temporal import find_time_expressions, resolve_time_expression
from .coverage import wants_coverage

_FAR = re.compile(r"\b(?:first|earliest|initially|originally|at first|began|start(?:ed)?|"
                  r"before|prior to|used to|oldest)\b", re.I)
# "yet", "so far", "by now": up to now, so about the present ("has Jess had her baby yet?").
_NEAR = re.compile(r"\b(?:latest|most recent(?:ly)?|recently|last|lately|now|currently|current|"
                   r"these days|nowadays|anymore|still|newest|at the moment|today|yet|so far|"
                   r"by now)\b", re.I)
_PRESENT = re.compile(r"\b(?:now|currently|current|these days|nowadays|at the moment|anymore|"
                      r"still|today|present|yet|so far)\b", re.I)
# "when" asks about the past only with a past verb ("when did I …", "when was …"); "when is
# Priya's wedding?" asks about now.
_PAST = re.compile(r"\b(?:did|was|were|had|used to|before|previously|originally|initially|"
                   r"first|ago|last (?:week|month|year|time)|"
                   r"when(?!(?:\s+(?:is|are|am|will|do|does)|['’]s)\b)|back then|formerly)\b", re.I)
_MENTION = re.compile(r"(?<![.?!]\s)(?<!^)\b([A-Z][\w'’-]+(?:\s+(?:of|de|the|&)?\s*[A-Z][\w'’-]+)*)")
STOPWORDS = frozenset("""a an the and or but if of at by for with about against between into through
during before after above below to from up down in out on off over under again further then once
here there when where why how all any both each few more most other some such no nor not only own
same so than too very s t can will just don should now i me my myself we our ours ourselves you
your yours yourself yourselves he him his himself she her hers herself it its itself they them
their theirs themselves what which who whom this that these those am is are was were be been being
have has had having do does did doing would could ought i'm you're he's she's it's we're they're
i've you've we've they've i'd you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll they'll
isn't aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't shan't
shouldn't can't cannot couldn't mustn't let's that's who's what's here's there's when's where's
why's how's tell remind remember mentioned mention said say know""".split())
QUESTION_WORDS = frozenset("what which who whom whose when where why how did do does is are was were "
                           "can could would should have has had tell remind".split())


# Question words that name a slot: a head on the facts of those predicates (prefixes allowed).
SLOT_WORDS: dict[str, tuple[str, ...]] = {
    r"\b(?:live|lives|living|reside|moved?|hometown|home|city|apartment|house)\b":
        ("lives_in", "from", "grew_up_in"),
    r"\b(?:work|works|working|job|employer|company|career|boss)\b":
        ("works_at", "occupation", "employment_status", "boss"),
    r"\b(?:study|studying|school|university|college|major|degree)\b":
        ("studies_at", "studies", "major", "graduated_from"),
    r"\bfavou?rite\b": ("favorite",),
    r"\b(?:how many|number of|count)\b": ("owns_count:", "count:"),
    r"\b(?:pets?|cats?|dogs?|kittens?|puppy|puppies)\b": ("owns_count:", "owns:"),
    r"\b(?:like|likes|love|enjoy|prefer|hate|dislike|into)\b": ("likes", "dislikes", "reduces"),
    r"\b(?:diet|vegetarian|vegan|eat|allergic|allergy)\b": ("diet", "dietary_restriction",
                                                              "allergic_to"),
    r"\b(?:married|wife|husband|partner|spouse|engaged)\b": ("spouse", "partner", "fiance",
                                                              "marital_status"),
    r"\b(?:drive|car)\b": ("drives",),
    r"\b(?:read|reading|book)\b": ("reading",),
}
_SLOT_RES = [(re.compile(k, re.I), v) for k, v in SLOT_WORDS.items()]


def slot_predicates(question: str) -> list[str]:
    found: dict[str, None] = {}
    for rx, preds in _SLOT_RES:
        if rx.search(question):
            found.update(dict.fromkeys(preds))
    return list(found)


@dataclass(frozen=True)
class TemporalIntent:
    """W (a soft window, None when no cue) and δ (near→far, far→near, or None)."""

    window: tuple[datetime, datetime] | None = None
    direction: str | None = None  # "near" (latest first) | "far" (earliest first)
    about_present: bool = False
    now_in_window: bool = False  # W holds the question date ("this year", "this month")
    cues: tuple[str, ...] = ()
    vague: bool = False
    # Where the resolved cues that lie wholly before the question date are (query.without_time).
    spans: tuple[tuple[int, int], ...] = ()

    @property
    def asks_about_now(self) -> bool:
        """Present tense with no window: what holds now ("where do I live?")."""
        return self.about_present and self.window is None


@dataclass(frozen=True)
class QueryAnalysis:
    """Everything a search needs from the question, worked out once (analyse) before any
    tunnel runs; nothing of the search goes back to the question's words after it."""

    text: str
    question_date: datetime
    # The question without the time phrases its window W stands for ("four weeks ago", "last
    # Tuesday"): what the keys are made of (query.without_time).
    topic: str
    mentions: tuple[str, ...]
    keys: tuple[str, ...]
    intent: TemporalIntent
    # What the question is embedded as: its topic without the names of the speakers it names
    # (query.leave_out_names).
    search_text: str = ""
    slots: tuple[str, ...] = ()  # predicates the question asks about
    known_at: datetime | None = None  # the question date as a cutoff: nothing mentioned later
    speaker: str | None = None  # the one speaker of the user's chats the question names
    # The names the question calls the speakers it names by ("Caroline", "Mel"): the lexical and
    # dense searches leave them out (query.leave_out_names, tunnels.bm25_tunnel).
    speaker_names: tuple[str, ...] = ()
    coverage: bool = False  # it aggregates or compares across sessions (retrieval/coverage.py)
    to_assistant: bool = False  # it asks what the assistant said (asks_the_assistant)


def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(r"\b" + re.escape(name) + r"(?:['’]s)?\b")


def speakers_named(question: str,
                   speakers: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """The speakers the question names, each with the names it calls them by (the label, or
    names the conversation gave them)."""
    return {who: found for who, aliases in speakers.items()
            if (found := speaker_names(question, who, aliases))}


def speaker_about(named: Mapping[str, Sequence[str]]) -> str | None:
    """Of the speakers a question names (speakers_named), the one it is about: the only one."""
    return next(iter(named)) if len(named) == 1 else None


def named_speaker(question: str, speakers: Mapping[str, Sequence[str]]) -> str | None:
    """The speaker a question is about, when it names exactly one of two or more speakers (by
    the label or by a name the conversation gave them): "What did Caroline research?"."""
    return speaker_about(speakers_named(question, speakers)) if len(speakers) >= 2 else None


def speaker_names(question: str, speaker: str, aliases: Sequence[str]) -> list[str]:
    """The names the question calls the speaker by (the label, or names the chat gave them)."""
    return [n for n in dict.fromkeys((speaker, *aliases)) if n and _name_pattern(n).search(question)]


def content_words(text: str) -> list[str]:
    """The words of a text that a search goes by: its terms that are not stop words."""
    return [t for t in terms(text) if t not in STOPWORDS]


def leave_out_names(topic: str, question: str,
                    names: Sequence[str]) -> tuple[str, str, tuple[str, ...]]:
    """What the question is searched by once the speakers' `names` leave it (query.without_names):
    (the topic its keys come from, the text it is embedded as, the names left out). The topic
    without the names; where that leaves no word to search by ("What did Caroline do last
    week?"), the whole question without the names ("What did do last week?"); where nothing is
    left at all, the question as asked, names and all."""
    if not names:
        return topic, topic, ()
    for text in (topic, question):
        unnamed = without_names(text, names)
        if content_words(unnamed):
            return text, unnamed, tuple(names)
    return question, question, ()


def without_names(question: str, names: Sequence[str]) -> str:
    """The question with the names (and their possessive "'s") left out. A speaker's own words
    rarely carry their name: where their name is said, it is mostly the other speaker talking
    to them ("Hey Caroline!"), so a search by the name finds the wrong speaker's turns."""
    for n in sorted(names, key=len, reverse=True):
        question = _name_pattern(n).sub(" ", question)
    return re.sub(r"\s+", " ", question).strip()


_COUNTED_WEEKS = re.compile(r"\bweeks?\b|\bfortnight\b", re.IGNORECASE)
_HALF_WEEK = timedelta(days=3)


def temporal_intent(question: str, question_date: datetime) -> TemporalIntent:
    cues: list[str] = []
    spans: list[tuple[int, int]] = []
    starts, ends = [], []
    vague = False
    for at, until, phrase in find_time_expressions(question):
        resolved = resolve_time_expression(phrase, question_date)
        cues.append(phrase)
        if resolved.resolved and resolved.start and resolved.end:
            if resolved.end <= question_date:  # wholly past: said then, it was worded otherwise
                spans.append((at, until))
            start, end = resolved.start, resolved.end
            if resolved.granularity == "day" and _COUNTED_WEEKS.search(phrase):
                # "two weeks ago" names a day as people count it; a question about it allows
                # the days around it (a week's span, as the calendar week had)
                start, end = start - _HALF_WEEK, end + _HALF_WEEK
            starts.append(start)
            ends.append(end)
            vague = vague or resolved.granularity == "range"
    window = (min(starts), max(ends)) if starts else None
    direction = None
    far, near = _FAR.search(question), _NEAR.search(question)
    if far and not near:
        direction = "far"
    elif near and not far:
        direction = "near"
    elif far and near:
        direction = "far" if far.start() < near.start() else "near"
    now_in_window = window is not None and window[0] <= question_date < window[1]
    # Present tense: a present cue, or no past cue and no window that lies wholly in the past or
    # the future ("am I running the marathon this year?" asks about now).
    about_present = bool(_PRESENT.search(question)) or (
        (window is None or now_in_window) and not _PAST.search(question))
    return TemporalIntent(window=window, direction=direction, about_present=about_present,
                          now_in_window=now_in_window, cues=tuple(cues), vague=vague,
                          spans=tuple(spans))


# Calendar names: they mean the same on any day, so what was said then may name them too. A
# number stays only as a year, an ordinal, or a day beside a month name ("4 February"): in "3
# weeks ago" it is a count.
_MONTH = CW.MONTH_PATTERN
_CALENDAR = re.compile(
    r"\b(?:\d{4}|\d+(?:st|nd|rd|th)|" + _MONTH + r"|" + CW.WEEKDAY_PATTERN + r"|"
    + CW.alternation(CW.SEASONS) + r"|christmas(?: eve| day)?|easter|thanksgiving|halloween|"
    r"hanukkah|diwali|(?:boxing|memorial|labou?r|independence) day|"
    r"(?:valentine|mother|father)['’]?s?(?: day)?|new year['’]?s?(?: eve| day)?)\b", re.IGNORECASE)
_HAS_MONTH = re.compile(r"\b(?:" + _MONTH + r")\b", re.IGNORECASE)


def _calendar_names(phrase: str) -> str:
    found = [(m.start(), m.group(0)) for m in _CALENDAR.finditer(phrase)]
    if _HAS_MONTH.search(phrase):  # "4 February, 2023", "June 26"
        taken = {at for at, _ in found}
        found += [(m.start(), m.group(0)) for m in re.finditer(r"\b\d{1,2}\b", phrase)
                  if m.start() not in taken]
    return " ".join(word for _, word in sorted(found))


def without_time(question: str, spans: Sequence[tuple[int, int]]) -> str:
    """The question with the time phrases at `spans` left out but for their calendar names
    ("four weeks ago" → "", "last Thursday" → "Thursday", "in March" → "March"). A phrase that
    points back from the question date is searched as the window W (the time bonus, the dense
    tunnel's window heads): what was said then called that time "today" or "this week", and as
    words "weeks ago" or "last week" would find turns about other weeks."""
    for at, until in sorted(spans, reverse=True):
        kept = _calendar_names(question[at:until])
        question = question[:at] + " " + kept + " " + question[until:]
    return re.sub(r"\s+", " ", question).strip()


def entity_mentions(question: str) -> list[str]:
    found = []
    for m in _MENTION.finditer(question):
        phrase = m.group(1)
        if phrase.lower() not in QUESTION_WORDS and phrase.lower() not in STOPWORDS:
            found.append(phrase)
    return found


# A question about the assistant's own words. The rule, in general terms: the assistant is the
# one who said, gave or made something ("you" as the subject of a past verb of saying or making,
# "did you …"), or its answer is the thing asked about ("your suggestion"), or the question
# points back to an earlier conversation ("our previous chat"). A request alone ("can you remind
# me …", "any tips?") is not one: "you" is then asked to act now. The verbs are those of saying,
# recommending and making, not the words of one benchmark's questions; the pattern stays a
# pattern because a question names the assistant only by "you" (docs/retrieval-steps.md).
_PAST_CONVERSATION = (r"\b(?:our|the) (?:previous|last|earlier|past|recent|other) "
                      r"(?:conversation|chat|discussion|session|exchange)s?\b")
_YOU_SAID = (r"\byou (?:had |have |previously |earlier |once |just )?(?:said|told|mentioned|"
             r"recommended|suggested|gave|provided|listed|explained|shared|wrote|described|advised|"
             r"proposed|made|created|came up with|generated|offered|named|picked|chose|played)\b")
_YOUR_ANSWER = (r"\byour (?:previous |last |earlier )?(?:answer|response|reply|suggestion|"
                r"recommendation|advice|list)s?\b")
_DID_YOU = (r"\bdid you (?:say|tell|recommend|suggest|mention|give|call|name|list|pick|choose|"
            r"write|make|play)\b")
_TO_ASSISTANT = re.compile("|".join((_PAST_CONVERSATION, _YOU_SAID, _YOUR_ANSWER, _DID_YOU)),
                           re.IGNORECASE)


def asks_the_assistant(question: str) -> bool:
    return bool(_TO_ASSISTANT.search(question))


def analyse(question: str, question_date: datetime | None = None, *,
            speakers: Mapping[str, Sequence[str]] | None = None,
            known_at: datetime | None = None) -> QueryAnalysis:
    """The question analysed once, for the whole search: its time intent, what it is searched by
    (without the time phrases W stands for, and without the names of the speakers it names),
    the slots it asks about, whom it is about. `speakers`: the speakers of the user's chats, each
    with the other names the chat gave them (only when there are two or more); `known_at`: the
    question date as a cutoff (knowledge.cutoff), when memory is searched as it was known then."""
    when = question_date or datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    intent = temporal_intent(question, when)
    topic = without_time(question, intent.spans)
    if not content_words(topic):  # nothing but the time ("what did I do last week?")
        topic = question
    # One speaker (or none) is never told apart.
    named = speakers_named(question, speakers) if speakers and len(speakers) >= 2 else {}
    names = [n for found in named.values() for n in found]
    topic, search_text, left_out = leave_out_names(topic, question, names)
    keys = content_words(topic) or terms(question)
    return QueryAnalysis(text=question, question_date=when, topic=topic,
                         mentions=tuple(entity_mentions(question)), keys=tuple(keys),
                         intent=intent, search_text=search_text,
                         slots=tuple(slot_predicates(question)), known_at=known_at,
                         speaker=speaker_about(named), speaker_names=left_out,
                         coverage=wants_coverage(question),
                         to_assistant=asks_the_assistant(question))
