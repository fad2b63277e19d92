"""Rules for routines and habits, their end, avoiding things and starting again, with the one
activity key they share: "I swim every Tuesday" and "I gave up swimming" compete for one slot."""

from __future__ import annotations

import re

from ..models import FactCandidate, RoleRef
from . import lexicon as L
from .text import Sentence, bounded, clean, fact, gerund, singular, skip_ws, slug, user_role, vague

AP = r"['’]"
_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
FREQUENCY = re.compile(
    r"\b(?:every|each)\s+(?:other\s+|single\s+)?(?:day|night|morning|afternoon|evening|week|"
    r"weekend|weekday|month|year|" + _DAYS + r")s?\b|\bon\s+(?:the\s+)?(?:weekends|weekdays|" + _DAYS +
    r"s)\b|"
    r"\b(?:daily|nightly|weekly|monthly|every\s+so\s+often|all\s+day(?:\s+long)?)\b|"
    r"\b(?:most|many)\s+(?:days|nights|mornings|afternoons|evenings|weeks|weekends|" + _DAYS +
    r"s)\b|"
    r"\b(?:once|twice|\w+\s+times)\s+(?:a|an|per)\s+(?:day|week|month|year)\b|"
    r"\b(?:a|per)\s+(?:day|week|night)\b", re.IGNORECASE)
_ADVERBS = (r"(?:\s+(?:usually|always|often|normally|typically|generally|still|now|also|"
            r"regularly|really|religiously|try\s+to))*")
_VERB_ALT = "|".join(sorted({*L.ACTIVITY_VERBS, *L.LIGHT_VERBS, *L.CONSUME_VERBS}, key=len,
                            reverse=True))
# "I swim every Tuesday", "I've been journaling every night", "I usually have a beer with dinner"
# (a habit adverb alone is its frequency: `adv`); "have" only with a food or a drink.
ROUTINE = re.compile(
    r"\b(?P<subj>I|we)(?P<prog>(?:" + AP + r"ve|\s+have)\s+been|" + AP + r"m|" + AP +
    r"re|\s+am|\s+are)?(?P<adv>" + _ADVERBS + r")\s+(?P<verb>" + _VERB_ALT +
    r"|have|[a-z]+ing)\b", re.IGNORECASE)
_GOING_TO_DO = re.compile(r"\s+to\s+(?!(?:the|a|an|my|our|his|her|their|this|that)\b)[a-z]")
HABIT_ADVERB = re.compile(r"\b(?:usually|always|normally|typically|regularly|religiously)\b",
                           re.IGNORECASE)
# "I used to do pottery (but I quit)": a habit that ended.
USED_TO = re.compile(r"\b(?P<subj>I|we)\s+used\s+to\s+(?P<verb>" + _VERB_ALT + r")\b",
                     re.IGNORECASE)
# "I'm on TikTok constantly": an app used all the time.
ON_APP = re.compile(
    r"\b(?:I|we)(?:" + AP + r"m|" + AP + r"re|\s+am|\s+are)\s+(?:always\s+|constantly\s+)?on\s+"
    r"(?P<app>[A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*)?)\s+(?:constantly|all\s+the\s+time|24/7|"
    r"nonstop|non-stop|way\s+too\s+much|too\s+much|every\s+(?:day|night)|daily|all\s+day)\b")
# "I use TikTok way too much": an app used all the time, said with "use"
USE_APP = re.compile(
    r"\b(?:I|[Ww]e)\s+(?:(?:still|honestly|probably|definitely|really)\s+)?use\s+"
    r"(?P<app>[A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*)?)\s+(?:way\s+too\s+much|too\s+much|constantly|"
    r"all\s+the\s+time|24/7|nonstop|non-stop|every\s+(?:day|night)|daily|all\s+day|a\s+lot)\b")
# "I deleted TikTok off my phone", "I've uninstalled Instagram": an app no longer used
APP_GONE = re.compile(
    r"\b(?:I|[Ww]e)(?:" + AP + r"ve|\s+have)?\s+(?:just\s+|finally\s+|actually\s+)?(?:deleted|"
    r"uninstalled|removed|got\s+rid\s+of)\s+(?P<app>[A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*)?)"
    r"(?!" + AP + r"s)(?=\s+(?:off|from)\s+(?:my|our)\s+(?:phone|laptop|ipad|tablet|computer)\b|"
    r"\s+(?:for\s+good|completely|entirely)\b|\s*(?:[,.;!]|$))")
NO_MORE = re.compile(
    r"\b(?P<subj>I|we)\s+(?:(?:don" + AP + r"t|do\s+not|no\s+longer|never)\s+)(?:really\s+|"
    r"even\s+)?(?P<verb>" + _VERB_ALT + r")\b|\b(?P<subj2>I|we)(?:" + AP + r"m|" + AP +
    r"re|\s+am|\s+are)\s+(?:not|no\s+longer)\s+(?P<gerund>[a-z]+ing)\b", re.IGNORECASE)
# "I haven't done parkrun in ages", "we haven't played tennis in months": a habit that lapsed.
LAPSED = re.compile(
    r"(?:\b(?P<subj>I|we)\s*|(?:^|(?<=[.!?]\s))(?=[Hh]aven))(?:haven" + AP + r"t|have\s+not|" + AP +
    r"ve\s+not)\s+(?:really\s+|"
    r"actually\s+)?(?P<verb>done|played|gone|had|eaten|drunk|drank|practi[cs]ed|touched|used)\s+"
    r"(?P<obj>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:(?:in|for)\s+(?:(?:\d+|a\s+few|"
    r"a\s+couple\s+of|several|many|" + "|".join(w for w in L.NUMBER_WORDS if " " not in w) +
    r")\s+)?(?:ages|forever|years|months|"
    r"weeks|a\s+(?:long\s+)?while|a\s+long\s+time)|since)\b", re.IGNORECASE)
_LAPSED_VERB = {"done": "do", "played": "play", "gone": "go", "had": "eat", "eaten": "eat",
                "drunk": "drink", "drank": "drink", "practiced": "practice",
                "practised": "practice", "touched": "do", "used": "use"}
CHANGE_CUE = re.compile(r"\b(?:anymore|any\s+more|no\s+longer|these\s+days|nowadays)\b", re.I)
AGAIN = re.compile(
    r"\b(?P<subj>I|we)(?:" + AP + r"m|" + AP + r"re|\s+am|\s+are)\s+(?:back\s+to\s+)?"
    r"(?P<gerund>[a-z]+ing)\b(?P<rest>[^,;.!?]*?)\s+again\b|"
    r"\b(?P<subj2>I|we)(?:" + AP + r"ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:picked|took|taken)"
    r"\s+(?P<obj>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+back\s+up\b|"
    r"\b(?P<subj3>I|we)(?:(?:" + AP + r"m|" + AP + r"re|\s+am|\s+are)|(?:" + AP + r"ve|\s+have)?\s+"
    r"(?:gone|went|got|gotten|come|came)(?:\s+right)?)\s+back\s+(?:to|at|on|into)\s+"
    r"(?P<obj2>(?:the\s+)?(?-i:[a-z])[\w-]*(?:\s+[a-z][\w-]*){0,2})", re.IGNORECASE)
_CUT = frozenset("using with for at in from on to into during every each since by as and or back "
                 "over when because after before once while this last these every so "
                 "again anymore now most many pretty really quite way all lot lots bit ton "
                 "tons little while around about through near minutes hours".split())
# "a 10-minute walk", "a glass of wine", "cold turkey": the measure or manner is not the object.
_MEASURE = re.compile(r"\b\d+[-\s]?(?:minutes?|mins?|hours?|hrs?|miles?|km|k)\b|"
                      r"\b\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)\b|"
                      r"\b(?:ages|years|months|weeks|days|a\s+while)\s+ago\b|"
                      r"\b(?:glass|cup|mug|can|pint|bottle|bowl|slice|piece|shot|pot|plate)e?s?"
                      r"\s+of\b|\bcold\s+turkey\b", re.IGNORECASE)

_NOT_AN_ACTIVITY = frozenset("bed sleep work home school office class shower toilet".split())


def base_verb(word: str) -> str | None:
    """The base verb of a gerund this module knows ("swimming" → "swim"), else None."""
    w = word.lower()
    for v in (*L.ACTIVITY_VERBS, *L.LIGHT_VERBS, *L.CONSUME_VERBS):
        if gerund(v) == w:
            return v
    return None


def object_words(phrase: str) -> list[str]:
    """The object's words, without articles, up to a preposition, number or adverb."""
    words: list[str] = []
    for w in re.findall(r"[A-Za-z][\w'’-]*", _MEASURE.sub(" ", phrase)):
        low = w.lower()
        if low.endswith("ly") and len(low) > 5 and not words and low not in L.CONSUMABLES:
            continue  # "playing regularly on Saturdays": an adverb, not the object
        if low in _CUT or low in L.NUMBER_WORDS or low in ("times", "once", "twice") or (
                low.endswith("ly") and len(low) > 5 and words):
            break
        if low == "of" and not words:
            continue  # "20 minutes of strength training": the measure went, so does its "of"
        if w.lower() not in ("my", "our", "the", "a", "an", "some", "his", "her", "their",
                             "another"):
            words.append(w)
    return words[:3]


def activity(phrase: str) -> tuple[str, str] | None:
    """(predicate, value) for an activity phrase: `does:<key>` for what one does ("swimming",
    "going to the gym" → gym, "playing the guitar" → guitar), `consumes` for what one eats or
    drinks ("drinking coffee" → coffee, "chocolate")."""
    words = re.findall(r"[A-Za-z][\w'’-]*", phrase)
    if not words:
        return None
    first = words[0].lower()
    verb = base_verb(first) or (first if first in (*L.ACTIVITY_VERBS, *L.LIGHT_VERBS,
                                                   *L.CONSUME_VERBS) else None)
    rest = phrase[phrase.lower().find(first) + len(first):]
    if verb in L.CONSUME_VERBS:
        obj = object_words(rest)
        return ("consumes", " ".join(obj)) if obj else None
    if verb in L.LIGHT_VERBS:
        obj = object_words(re.sub(r"^\s*(?:to|out|for)\b", "", rest, flags=re.I))
        if not obj or " ".join(obj).lower() in _NOT_AN_ACTIVITY:
            return None  # "I usually go to bed at 11"
        return f"does:{slug(' '.join(obj))}", " ".join(obj)
    if verb in L.ACTIVITY_VERBS:
        g = gerund(verb)
        return f"does:{g}", g
    obj = object_words(phrase)
    if not obj:
        return None
    value = " ".join(obj)
    if consumable(value):
        return "consumes", value
    return f"does:{slug(value)}", value


def consumable(value: str) -> bool:
    words = value.lower().split()
    return bool(words) and (value.lower() in L.CONSUMABLES or singular(words[-1]) in
                            L.CONSUMABLES or words[-1] in L.CONSUMABLES)


SENTENCES = {  # (how, eats or does) -> the fact's sentence
    ("routine", "consumes"): "User regularly has {}.", ("routine", "does"): "User regularly does {}.",
    ("stop", "consumes"): "User avoids {}.", ("stop", "does"): "User stopped {}.",
    ("again", "consumes"): "User has {} again.", ("again", "does"): "User took up {} again."}


def candidate(s: Sentence, found: tuple[str, str], start: int, end: int, *,
              how: str) -> FactCandidate | None:
    """A routine / stop / restart fact (`how`) on the slot `found` names."""
    predicate, value = found
    if vague(value):
        return None
    time = s.time_for(start, end, s.clause_end(end))
    stopped = how == "stop"
    if predicate == "consumes":
        return fact(s, "preference", "avoids" if stopped else "consumes",
                    SENTENCES[how, "consumes"].format(value), start, end, value=value,
                    roles=[user_role(), RoleRef("object", value, "food")], time=time)
    return fact(s, "routine" if how == "routine" else "event", predicate,
                SENTENCES[how, "does"].format(value), start, end, value=value,
                modality="negated" if stopped else "asserted",
                roles=[user_role(), RoleRef("object", value, "activity")], time=time)


def _clause(s: Sentence, start: int) -> tuple[int, int]:
    """The sentence span from a clause start to its end (for cues such as "anymore")."""
    end = s.clause_end(skip_ws(s.text, start))
    return start, max(end, start)


# What may stand between a leading frequency and "I": nothing, or a short time adjunct
# ("Every night before bed I journal", "Most Sundays after church we hike").
_LEAD_GAP = re.compile(r"[\s,]*(?:(?:before|after|at|around|in|on|first\s+thing)(?:\s+[\w'’]+){1,3}"
                       r"[\s,]*)?", re.IGNORECASE)


def routines(s: Sentence) -> list[FactCandidate]:
    """Habits stated with a frequency: "I swim every Tuesday", "Every Sunday I bake bread"."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in ROUTINE.finditer(text):
        if s.hedged(m.start()):
            continue
        verb = m.group("verb").lower()
        if verb.endswith("ing") and verb != "sing":
            if not m.group("prog") or not base_verb(verb):
                continue  # "I've been journaling": a progressive of a known habit verb only
        elif m.group("prog"):
            continue
        if verb == "going" and _GOING_TO_DO.match(text, m.end()):
            continue  # "I'm going to start making changes daily": a plan, no habit
        clause_end = s.clause_end(m.end())
        freq = FREQUENCY.search(text, m.end(), max(clause_end, m.end()) + 1)
        lead = FREQUENCY.search(text, 0, m.start())
        if not freq and not (lead and _LEAD_GAP.fullmatch(text[lead.end():m.start()])) and \
                not HABIT_ADVERB.search(m.group("adv")):
            continue
        oe = bounded(text, skip_ws(text, m.end()), 5)
        if verb == "have":
            obj = object_words(text[m.end():oe])
            found = ("consumes", " ".join(obj)) if obj and consumable(" ".join(obj)) else None
        else:
            found = activity(verb + " " + text[m.end():oe])
        if not found:
            continue
        end = freq.end() if freq else oe
        start = lead.start() if lead and not freq else m.start()
        out.append(candidate(s, found, start, max(end, m.end()), how="routine"))
    return [f for f in out if f]


def used_to(s: Sentence) -> list[FactCandidate]:
    """A habit that ended: "I used to do pottery but I quit", "we used to hike a lot"."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in USED_TO.finditer(text):
        if s.hedged(m.start()):
            continue
        oe = bounded(text, skip_ws(text, m.end()), 5)
        found = activity(m.group("verb") + " " + text[m.end():oe])
        if found:
            out.append(candidate(s, found, m.start(), oe, how="stop"))
    return [f for f in out if f]


# "the cardiologist wants me to cut out caffeine", "my GP told me to cut down on alcohol": a stop
# or a cut on advice (people say it once they are doing it).
ADVISED = re.compile(
    r"\b(?:wants|wanted|told|asked|advised|recommended|ordered)\s+(?:me|us)\s+to\s+(?P<verb>"
    r"cut\s+out|give\s+up|stop|quit|avoid|drop|lay\s+off|cut\s+down\s+on|cut\s+back\s+on|"
    r"go\s+easy\s+on)\s+", re.IGNORECASE)
# "I'm on like 5 coffees a day": how much of something the user has.
ON_AMOUNT = re.compile(
    r"\b(?:I|we)(?:" + AP + r"m|" + AP + r"re|\s+am|\s+are)\s+on\s+(?:like\s+|about\s+|around\s+|"
    r"maybe\s+)?(?:\d{1,2}|a\s+couple\s+of|" + "|".join(sorted(
        (w for w in L.NUMBER_WORDS if " " not in w), key=len, reverse=True)) +
    r")\s+(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:a|per)\s+(?:day|night|week)\b",
    re.IGNORECASE)
# "the early swims went out the window", "my Sunday runs have stopped": a habit that ended.
HABIT_ENDED = re.compile(
    r"\b(?:the|my|our)\s+(?:(?:early|morning|evening|nightly|daily|weekly|sunday|saturday|"
    r"weekend|lunchtime|[a-z]+day)\s+)?(?P<what>[a-z]+s)\s+(?:have\s+|has\s+)?(?:went|gone|"
    r"have\s+gone)\s+out\s+(?:of\s+)?the\s+window|\b(?:the|my|our)\s+(?:(?:early|morning|evening|"
    r"nightly|daily|weekly|weekend)\s+)?(?P<what2>[a-z]+s)\s+(?:have\s+|has\s+)?(?:stopped|fell\s+by"
    r"\s+the\s+wayside|are\s+(?:over|done|finished))\b", re.IGNORECASE)


def advised(s: Sentence) -> list[FactCandidate]:
    """A stop or a cut on someone's advice: "the vet wants us to cut out treats"."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in ADVISED.finditer(text):
        if s.hedged(m.start()):
            continue
        oe = bounded(text, m.end(), 5)
        verb = " ".join(m.group("verb").lower().split())
        if verb.startswith(("cut down", "cut back", "go easy")):
            value = " ".join(object_words(text[m.end():oe]))
            if value and not vague(value):
                out.append(fact(s, "preference", "reduces", f"User is cutting down on {value}.",
                                m.start(), oe, value=value,
                                roles=[user_role(), RoleRef("object", value, "food")]))
            continue
        found = activity(text[m.end():oe])
        if found:
            out.append(candidate(s, found, m.start(), oe, how="stop"))
    for m in ON_AMOUNT.finditer(text):
        value = " ".join(singular(w) if i == len(m.group("what").split()) - 1 else w
                         for i, w in enumerate(m.group("what").lower().split()))
        if consumable(value) and not s.hedged(m.start()):
            out.append(candidate(s, ("consumes", value), m.start(), m.end(), how="routine"))
    for m in HABIT_ENDED.finditer(text):
        noun = singular(m.group("what") or m.group("what2"))
        found = (f"does:{gerund(noun)}", gerund(noun)) if noun in L.ACTIVITY_VERBS else None
        if found and not s.hedged(m.start()):
            out.append(candidate(s, found, m.start(), m.end(), how="stop"))
    return [f for f in out if f]


def app_use(s: Sentence) -> list[FactCandidate]:
    """An app used all the time: "I'm on TikTok constantly"."""
    out: list[FactCandidate | None] = []
    for m in (*ON_APP.finditer(s.text), *USE_APP.finditer(s.text), *APP_GONE.finditer(s.text)):
        app = clean(m.group("app"))
        if s.hedged(m.start()) or vague(app) or app.lower() in L.GENERIC_ORGS:
            continue
        gone = m.re is APP_GONE
        out.append(fact(s, "routine", "uses", f"User no longer uses {app}." if gone else
                        f"User uses {app} all the time.", m.start(), m.end(), value=app,
                        modality="negated" if gone else "asserted",
                        time=s.time_for(m.start(), m.end(), s.clause_end(m.end())),
                        roles=[user_role(), RoleRef("object", app, "product")]))
    return [f for f in out if f]


def no_more(s: Sentence) -> list[FactCandidate]:
    """The end of a habit: "I don't bake anymore", "I no longer meditate", "I'm not eating candy
    anymore"."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in NO_MORE.finditer(text):
        if s.hedged(m.start()):
            continue
        start, end = _clause(s, m.start())
        cue = CHANGE_CUE.search(text, m.start(), end + 1)
        if not cue:
            continue
        word = m.group("verb") or m.group("gerund")
        if word.lower() == "going" and re.match(r"\s+to\b", text[m.end("gerund"):]):
            continue  # "we're not going to Rome anymore": a plan called off (shapes.plans)
        head = m.end("verb") if m.group("verb") else m.end("gerund")
        oe = bounded(text, skip_ws(text, head), 4)
        found = activity(word + " " + text[head:oe])
        if not found or (m.group("gerund") and not base_verb(word)):
            continue
        out.append(candidate(s, found, m.start(), max(cue.end(), head), how="stop"))
    return [f for f in out if f]


def lapsed(s: Sentence) -> list[FactCandidate]:
    """A habit not kept for a long while: "I haven't done parkrun in ages"."""
    out: list[FactCandidate | None] = []
    for m in LAPSED.finditer(s.text):
        if s.hedged(m.start()):
            continue
        verb = _LAPSED_VERB[m.group("verb").lower()]
        found = activity(f"{verb} {m.group('obj')}")
        if found:
            out.append(candidate(s, found, m.start(), m.end(), how="stop"))
    return [f for f in out if f]


_BACK_TO_A_STATE = re.compile(
    r"(?:(?:my|the|our)\s+)?(?:work|normal|school|home|bed|sleep|square\s+one|the\s+office|"
    r"office|job|it|basics|reality|life|town|health|myself|full\s+strength|the\s+drawing)\b",
    re.IGNORECASE)


def again(s: Sentence) -> list[FactCandidate]:
    """Starting again: "I'm running again", "I picked swimming back up", "I'm back to yoga"."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in AGAIN.finditer(text):
        if s.hedged(m.start()):
            continue
        if m.group("gerund"):
            if not base_verb(m.group("gerund")):
                continue
            found = activity(m.group("gerund") + m.group("rest"))
        else:
            phrase = m.group("obj") or m.group("obj2")
            if m.group("obj2") and _BACK_TO_A_STATE.match(phrase):
                continue  # "back at work", "back to normal": a state regained, not a hobby
            found = activity(clean(phrase))
        if not found:
            continue
        out.append(candidate(s, found, m.start(), m.end(), how="again"))
    return [f for f in out if f]


def stopping(s: Sentence, m: re.Match[str], value_raw: str, end: int) -> FactCandidate | None:
    """A stop verb's object as an activity or a food: "gave up swimming", "cut out chocolate"."""
    found = activity(value_raw)
    if not found:
        return None
    return candidate(s, found, m.start(), end, how="stop")
