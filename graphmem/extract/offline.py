"""A deterministic, rule-based extractor of first-person facts and assistant recommendations."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..models import FactCandidate
from . import changes, clauses, counting, habits, life, names, shapes
from . import lexicon as L
from . import patterns as P
from .text import Sentence, activity_key, activity_verb, gerund, norm

Handler = Callable[[Sentence, "re.Match[str]", str, str, str], list[FactCandidate]]

# verb family (see lexicon.VERBS) -> the rule that reads the rest of the clause
HANDLERS: dict[str, Handler] = {
    "pref": clauses.pref, "live": clauses.place, "live_past": clauses.place,
    "move": clauses.place, "from": clauses.place, "grew": clauses.place,
    "work": clauses.work, "work_past": clauses.work, "work_start": clauses.work,
    "work_end": clauses.work, "work_as": clauses.work_as, "study": clauses.study,
    "study_past": clauses.study, "study_field": clauses.study, "major": clauses.study,
    "left": clauses.left, "event": clauses.event, "prog": clauses.progressive,
    "stop": changes.stop_start, "start": changes.stop_start, "cut": changes.cut,
    "switch": changes.switch, "have": changes.have, "acquire": changes.have,
    "marry": changes.marry, "ongoing": clauses.ongoing, "drive": clauses.drive,
    "avoid": changes.avoid,
}


Gate = Callable[[str, str, Sentence], object]  # (text, lowercased text, sentence) -> truthy
Rule = Callable[[Sentence, str, list[FactCandidate]], list[FactCandidate]]  # (s, before, so far)


def _words(*words: str) -> Gate:
    return lambda _text, low, _s: any(w in low for w in words)


def _always(_text: str, _low: str, _s: Sentence) -> bool:
    return True


def _named(rule_id: str, rule: Rule) -> Rule:
    """The rule, with every candidate it makes stamped `rule:<rule_id>` (FactCandidate.extracted_by)."""
    def stamped(s: Sentence, before: str, found: list[FactCandidate]) -> list[FactCandidate]:
        out = rule(s, before, found)
        for f in out:
            f.extracted_by = f.extracted_by or f"rule:{rule_id}"
        return out
    return stamped


# The sentence-level rules after the clause handlers, each with the cheap test that says it can
# apply, in this order (`dedupe` keeps the first reading of a fact).
RULES: list[tuple[Gate, Rule]] = [
    (_always, _named("shapes.plans", lambda s, _b, _o: shapes.plans(s))),
    (lambda t, low, _s: habits.FREQUENCY.search(t) or habits.HABIT_ADVERB.search(t)
     or " been " in low, _named("habits.routines", lambda s, _b, _o: habits.routines(s))),
    (_words("used to"), _named("habits.used_to", lambda s, _b, _o: habits.used_to(s))),
    (_words(" on ", " use ", "deleted", "uninstalled", "removed", "got rid of"),
     _named("habits.app_use", lambda s, _b, _o: habits.app_use(s))),
    (_words(" me to ", " us to ", " on ", "window", "stopped", "wayside", " over"),
     _named("habits.advised", lambda s, _b, _o: habits.advised(s))),
    (lambda t, _low, _s: habits.CHANGE_CUE.search(t),
     _named("habits.no_more", lambda s, _b, _o: habits.no_more(s))),
    (lambda _t, low, _s: "in ages" in low or (" in " in low or " since" in low) and (
        "haven" in low or "have not" in low), _named("habits.lapsed", lambda s, _b, _o: habits.lapsed(s))),
    (_words("again", "back "), _named("habits.again", lambda s, _b, _o: habits.again(s))),
    (_words("left ", "quit ", "resigned", "last day", "started at", "began at", "started with",
            "began with"), _named("life.job_changes", lambda s, _b, _o: life.job_changes(s))),
    (_words("first ", "leaving", "quitting", "teach ", "teaching", "still at", "still with", "notice",
            "left ", "quit ", "hour ", "shift", "promot", "start", "begin", " as a", "now", "not at",
            " into ", " from "),
     _named("life.job_mentions", lambda s, before, _o: life.job_mentions(s, before))),
    (_always, _named("life.homes", lambda s, _b, found: life.homes(s, found))),
    (_words("cancel", "call", "scrap", "off", " out of ", "withdr", "going to", "not to go"),
     _named("life.cancellations", lambda s, _b, _o: life.cancellations(s))),
    (lambda t, low, s: s.times() and ("my " in low or "our " in low
                                      or life.THIRD_PARTY.search(t)),
     _named("life.third_party", lambda s, _b, _o: life.third_party(s))),
    (lambda t, _low, s: s.times() and life.NAMED_EVENT.search(t),
     _named("life.named_events", lambda s, _b, _o: life.named_events(s))),
    (_words("more", "fewer", "less", " to ", "another", "sold", "lost", "gave away", "th ",
            "second", "third", " now", "died", "passed", "ran away", "missing", " got out",
            "ended up", "number"),
     _named("counting.counts", lambda s, before, _o: counting.counts(s, before))),
    (_words(" for me"), _named("shapes.not_for_me", lambda s, _b, _o: shapes.not_for_me(s))),
    (_words("favo"), _named("shapes.favorites", lambda s, _b, _o: shapes.favorites(s))),
    (_words("my ", "our "),
     _named("shapes.relations", lambda s, _b, _o: shapes.relations(s) + shapes.ordinals(s))),
    (_always, _named("shapes.occupation", lambda s, _b, _o: shapes.occupation(s))),
    (_words("turned", "old", "birthday"), _named("shapes.age", lambda s, _b, _o: shapes.age(s))),
    (_always, _named("shapes.status", lambda s, _b, _o: shapes.status(s))),
    (_words("allerg"), _named("shapes.allergy_corrections", lambda s, _b, _o: shapes.allergy_corrections(s))),
    (_words("again", "back ", "start", "began"),
     _named("shapes.diet_from_meat", lambda s, _b, found: shapes.diet_from_meat(s, found))),
    (lambda _t, low, _s: "name" in low or "call" in low or " go by" in low
     or low.startswith(("hi", "hello", "hey")),
     _named("names.self_introductions", lambda s, _b, _o: names.self_introductions(s))),
    (_words("have", "'ve", "’ve", "had"), _named("shapes.counts", lambda s, _b, _o: shapes.counts(s))),
    # last: a dated event only where no rule above read the sentence's time
    (lambda _t, _low, s: s.times(),
     _named("shapes.dated_events", lambda s, _b, found: shapes.dated_events(s, found))),
]


class OfflineExtractor:
    """Rule-based extraction of first-person facts; conservative: unsure means no fact.

    Users' sentences give preferences, homes, work, study, possessions, relationships, plans,
    events and counts; the assistant's give only recommendations. Questions give nothing;
    hedged or conditional clauses give nothing asserted.
    """

    name = "offline-rules-v1"
    reads_context = True  # ingest passes the turn's words before each piece as `before`

    def extract(self, text: str, role: str, before: str = "") -> list[FactCandidate]:
        """`before`: the same turn's words before this piece, read for what the piece leaves
        unsaid (who "starting at Monzo in November" is about); supports come from `text` only."""
        if text and text.rstrip().endswith("?"):
            tail = P.QUESTION_TAIL.search(text)
            text = text[:tail.start()] if tail else ""  # the statement before the question
        if not text or len(text) < 4:
            return []
        role = (role or "user").lower()
        if role == "assistant":
            if not P.ASSISTANT_CUE.search(text):
                return []
            recs = dedupe(shapes.recommendations(text))
            for f in recs:
                f.extracted_by = "rule:shapes.recommendations"
            return recs
        if role == "system" or P.QUESTION_START.match(text):
            return []
        implicit = implicit_subject(text, before)
        if implicit:
            return self._as_said_by_user(text, before)
        if not (P.FIRST_PERSON.search(text) or life.prefilter_home(text) or life.prefilter_job(text)
                or P.SUBJECTLESS.search(text) or counting.prefilter(text)
                or habits.HABIT_ENDED.search(text) or life.HOURS_AT.search(text)
                or P.FAVORITE_NEW.search(text) or habits.LAPSED.search(text)
                or life.THIRD_PARTY.search(text) or life.NAMED_EVENT.search(text)
                or life.CANCEL.match(text)  # "had to pull out of Chicago."
                or shapes.opens_with_a_deed(text)):  # "Sorted out the garage yesterday."
            return []
        return self._rules(text, before)

    def _as_said_by_user(self, text: str, before: str) -> list[FactCandidate]:
        """A piece that opens with a verb in -ing and no subject, after the user spoke of
        themself ("Handed my notice in at Deloitte! starting at Monzo in November"): read as
        "I'm starting at …"; the candidates' supports are cut back to the piece's words."""
        out = []
        for f in self._rules(IMPLICIT_I + text, before):
            if f.support.startswith(IMPLICIT_I):
                f.support = f.support[len(IMPLICIT_I):].lstrip()
            if f.support and f.support in text:
                out.append(f)
        return out

    def _rules(self, text: str, before: str) -> list[FactCandidate]:
        s = Sentence(text)
        out: list[FactCandidate] = []
        for m in (*P.CLAUSE.finditer(text), *P.SUBJECTLESS.finditer(text)):
            verb = norm(m.group("verb"))
            family, pred = L.VERBS[verb]
            aux = m.group("aux") or ""
            if verb in L.BE_REQUIRED and not (P.BE_AUX.search(aux) or _BEEN.search(aux)) \
                    and m.group("subj"):
                continue  # "I am off sugar", "I've been off sugar"; not "I put off …"
            if s.hedged(m.start()):
                continue
            negated = bool(P.NEGATORS.search(aux) or P.USED_TO.search(aux))
            made = HANDLERS[family](s, m, verb, pred, "negated" if negated else "asserted")
            for f in made:
                f.extracted_by = f.extracted_by or f"rule:clause.{family}"
            out.extend(made)
        low = text.lower()
        for applies, rule in RULES:
            if applies(text, low, s):
                out.extend(rule(s, before, out))
        return finish(s, counting.prefer_stated(out))


IMPLICIT_I = "I'm "
_BEEN = re.compile(r"\bbeen\b", re.IGNORECASE)
# A chat sentence that opens with an -ing verb of a life change and names no subject: "starting
# at Monzo in November", "moving to Leeds next month" (not "Using the API", in pasted text).
_GERUND_OPENING = re.compile(
    P.SENTENCE_START + r"(?P<verb>" + "|".join(sorted(L.LIFE_GERUNDS, key=len, reverse=True))
    + r")\b", re.IGNORECASE)


_GERUND_AS_SUBJECT = re.compile(r"[^,.;:!?]{0,50}?\s(?:is|was|has|can|could|would|will|must|"
                                r"isn['’]t|wasn['’]t|sounds|seems|gets|makes)\b", re.IGNORECASE)
_SOMEONE_ELSE = re.compile(r"\b(?:he|she|they|his|her|their)\b|\b(?:my|our)\s+[a-z]+(?:['’]s|\s+"
                           r"(?:is|was|has|had))\b", re.IGNORECASE)


def implicit_subject(text: str, before: str) -> bool:
    """Is `text` a subjectless -ing sentence of the user's ("Moving to Leeds next month!"): the
    turn's words before it are about the user or nobody in particular, not about someone else
    ("My sister's a nurse. Working nights at St Mary's")?"""
    opening = _GERUND_OPENING.match(text)
    if not opening or P.FIRST_PERSON.search(text[:40]) or _GERUND_AS_SUBJECT.match(
            text, opening.end()):
        return False  # "Living in London is expensive": the -ing phrase is the subject
    recent = before[-200:]
    last_other = max((m.end() for m in _SOMEONE_ELSE.finditer(recent)), default=-1)
    last_self = max((m.end() for m in P.FIRST_PERSON.finditer(recent)), default=-1)
    return last_other < 0 or last_self > last_other


def dedupe(facts: list[FactCandidate]) -> list[FactCandidate]:
    """The first candidate of each (predicate, value, modality)."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for f in facts:
        key = (f.predicate, (f.value or "").lower(), f.modality)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def finish(s: Sentence, facts: list[FactCandidate]) -> list[FactCandidate]:
    """Under a leading conditional keep only plans, as hypotheticals; one key per activity
    (every rule's `does:` slot through `activity_key`); then drop duplicates."""
    for f in facts:
        if f.predicate.startswith("does:"):
            f.predicate = "does:" + activity_key(f.predicate[5:])
            named = activity_verb(f.predicate[5:])
            said = (f.value or "").lower()
            if named and said and named not in said and gerund(named)[:-3] not in said:
                f.value = f"{f.predicate[5:]} ({f.value})"  # "7am lengths": swimming (lengths)
    if s.conditional:
        kept = []
        for f in facts:
            if f.modality in ("planned", "hypothetical"):
                f.modality = "hypothetical"
                f.text = f"Conditionally: {f.text}"
                kept.append(f)
        facts = kept
    return dedupe(facts)
