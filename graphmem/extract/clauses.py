"""Rules for first-person clauses about tastes, homes, work, study and events."""

from __future__ import annotations

import re

from ..models import FactCandidate, RoleRef
from ..segment import sentence_spans
from . import habits
from . import lexicon as L
from . import patterns as P
from .text import (
    Sentence,
    TimeHit,
    activity_slot,
    article,
    bounded,
    clean,
    display,
    fact,
    object_span,
    organisation,
    singular,
    skip_ws,
    slug,
    type_of,
    user_role,
    vague,
)


def pref(s: Sentence, m: re.Match[str], verb: str, pred: str,
         modality: str) -> list[FactCandidate]:
    os, oe, se, time = object_span(s, m, tail=False)
    raw = s.text[os:oe]
    if verb.startswith("prefer"):
        cut = re.search(r"\s+(?:over|than|to|instead\s+of)\s", raw)
        raw = raw[:cut.start()] if cut else raw
    raw = re.sub(r"\s+(?:instead|these\s+days|nowadays|lately)$", "", raw, flags=re.I)  # "… instead"
    value = clean(raw)
    if vague(value) or P.PRONOUN_START.match(value) or re.match(r"(?:habit|routine)\b", value, re.I):
        return []  # "gotten into the habit of …" is a routine, not a liking
    lemma = verb.split()[0]
    past = lemma.endswith("ed")
    lemma = lemma[:-1] if lemma.endswith("s") and lemma[:-1] in L.PREF_VERB else lemma
    lemma = re.sub(r"(?:d|ed)$", "", lemma) if past else lemma
    shown = display(raw)
    if modality == "negated":
        sentence = f"User does not {'dislike' if pred == 'dislikes' else 'like'} {shown}."
    elif lemma in L.PREF_VERB or lemma + "e" in L.PREF_VERB:
        sentence = f"User {L.PREF_VERB.get(lemma) or L.PREF_VERB[lemma + 'e']} {shown}."
    elif pred == "dislikes":
        sentence = f"User can't stand {shown}."
    elif verb.startswith(("started", "starting", "grown", "grew", "came", "have come",
                          "getting", "gotten", "have gotten", "been getting", "got really")):
        sentence = f"User has come to like {shown}."  # a liking that began
    else:
        sentence = f"User is {verb} {shown}."
    roles = [user_role(), RoleRef("object", value, type_of(value))]
    f = fact(s, "opinion" if past else "preference", pred, sentence, m.start(), se,
             value=value, modality=modality, roles=roles, time=time)
    return [f] if f else []


def place(s: Sentence, m: re.Match[str], verb: str, pred: str,
          modality: str) -> list[FactCandidate]:
    text = s.text
    family = L.VERBS[verb][0]
    os = skip_ws(text, m.end())
    if verb.endswith(("into", "in to")):  # "moved into a new apartment in Brooklyn"
        inside = re.compile(r"\s+in\s+").search(text, os, bounded(text, os, 8))
        os = inside.end() if inside else len(text)
    pm = P.PROPER.match(text, os)
    if not pm:
        return []
    value = clean(pm.group("p"))
    end = pm.end()
    previous = None
    if verb.endswith("from") and family == "move":
        to = re.compile(r"\s+to\s+").match(text, end)
        nxt = P.PROPER.match(text, to.end()) if to else None
        if not nxt:  # "I moved here from Chicago": a former home, no current one
            pred, family = "lived_in", "live_past"
        else:
            previous, value, end = value, clean(nxt.group("p")), nxt.end()
    if not value:
        return []
    aux = m.group("aux") or ""
    perfect = bool(P.PERFECT_AUX.search(aux))
    kind = "attribute"
    if family == "live_past" and perfect and modality == "asserted":
        pred = "lives_in"
    elif family in ("live_past", "move"):
        kind = "event"
    if family == "move" and modality == "negated":
        return []
    time = s.time_for(m.start(), os, s.clause_end(os))
    if time and time[0] < m.start() and family == "live":
        time = None
    if pred == "lives_in" and P.CHILDHOOD.search(text, *_sentence_around(text, m.start(), end)):
        pred, kind = "lived_in", "event"  # a home of long ago, not the current one
    used_to = bool(P.USED_TO.search(aux))
    sentences = {
        "lives_in": f"User lives in {value}.", "lived_in": f"User lived in {value}.",
        "from": f"User is from {value}.", "grew_up_in": f"User grew up in {value}.",
        "born_in": f"User was born in {value}."}
    sentence = sentences.get(pred, f"User {pred.replace('_', ' ')} {value}.")
    if family == "move":
        sentence = f"User moved to {value}."
    if used_to:
        sentence = f"User used to live in {value}." if pred.startswith("live") else \
            f"User used to be {pred.replace('_', ' ')} {value}."
    elif modality == "negated":
        sentence = f"User does not live in {value}." if pred.startswith("live") else \
            f"Not true: {sentence}"
    roles = [user_role(), RoleRef("location", value, "place")]
    if previous:
        roles.append(RoleRef("previous_location", previous, "place"))
    f = fact(s, kind, pred, sentence, m.start(), end, value=value, modality=modality,
             roles=roles, time=time if time and (time[0] >= end or time[1] <= os) else None)
    return [f] if f else []


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the sentence holding text[start:end]."""
    spans = sentence_spans(text)
    first = next((a for a, b in spans if a <= start < max(b, a + 1)), 0)
    last = next((b for a, b in spans if a < end <= b), len(text))
    return first, last


def work(s: Sentence, m: re.Match[str], verb: str, pred: str,
         modality: str) -> list[FactCandidate]:
    text = s.text
    family = L.VERBS[verb][0]
    os = skip_ws(text, m.end())
    value, end, _ = organisation(text, os)
    aux = m.group("aux") or ""
    if family == "work_end":
        if modality == "negated":
            return []
        modality = "negated"
        if not value and verb.endswith(("at", "with", "from", "for")):
            return []
    elif not value:
        return []
    kind = "attribute" if family == "work" else "event"
    if family == "work_past":
        if P.PERFECT_AUX.search(aux) and modality == "asserted":
            pred, kind = "works_at", "attribute"
        else:
            pred = "worked_at"
    time = s.time_for(m.start(), os, s.clause_end(os))
    end = max(end or m.end(), m.end())
    if family == "work_end":
        sentence = f"User left their job at {value}." if value else "User left their job."
    elif family == "work_start":
        sentence = f"User started working at {value}."
    elif pred == "worked_at":
        sentence = f"User worked at {value}."
    elif modality == "negated":
        sentence = f"User no longer works at {value}." if P.USED_TO.search(aux) or \
            "longer" in aux.lower() else f"User does not work at {value}."
    else:
        sentence = f"User works at {value}."
    roles = [user_role()] + ([RoleRef("employer", value, "organization")] if value else [])
    out = []
    role_as = re.compile(r"\s+as\s+(?:an?\s+)(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})",
                         re.I).match(text, end)
    if role_as and family in ("work", "work_start") and modality == "asserted":
        np_raw = P.OCC_NP_STOP.sub("", role_as.group("np"))
        title = clean(np_raw)
        if title and title.split()[-1].lower() in L.OCCUPATIONS:
            out.append(fact(s, "attribute", "occupation", f"User is {article(title)} {title}.",
                            m.start(), role_as.start("np") + len(np_raw), value=title,
                            roles=[user_role(), RoleRef("object", title, "other")]))
    f = fact(s, kind, pred, sentence, m.start(), end, value=value or None,
             modality=modality, roles=roles, time=time)
    return [g for g in [f, *out] if g]


def work_as(s: Sentence, m: re.Match[str], verb: str, pred: str,
            modality: str) -> list[FactCandidate]:
    os, oe, se, time = object_span(s, m, max_words=5)
    value = clean(P.OCC_NP_STOP.sub("", s.text[os:oe]))
    if vague(value) or not re.match(r"(?:an?\s)", s.text[os:oe], re.I):
        return []
    aux = m.group("aux") or ""
    past = verb.startswith("worked") and not P.PERFECT_AUX.search(aux)
    if past:
        pred = "former_occupation"
    sentence = f"User {'worked' if past else 'works'} as {article(value)} {value}."
    roles = [user_role(), RoleRef("object", value, "other")]
    f = fact(s, "attribute", pred, sentence, m.start(), max(oe, se), value=value,
             modality=modality, roles=roles, time=time)
    out = [f]
    # "I work as a postman for Royal Mail": the employer, said after the role
    at = re.compile(r"\s+(?:at|for|with)\s+").match(s.text, os + s.text[os:].find(value)
                                                     + len(value)) if value in s.text[os:] else None
    if at and modality == "asserted" and value.split()[-1].lower() in L.OCCUPATIONS:
        org, oend, _ = organisation(s.text, at.end())
        if org:
            out.append(fact(s, "event" if past else "attribute", "worked_at" if past else
                            "works_at", f"User {'worked' if past else 'works'} at {org}.",
                            m.start(), oend, value=org, roles=[
                                user_role(), RoleRef("employer", org, "organization")]))
    return [g for g in out if g]


def study(s: Sentence, m: re.Match[str], verb: str, pred: str,
          modality: str) -> list[FactCandidate]:
    text = s.text
    family = L.VERBS[verb][0]
    os = skip_ws(text, m.end())
    if family in ("study", "study_past"):
        value, end, _ = organisation(text, os)
        if not value:
            return []
        sentence = f"User {'studied' if family == 'study_past' else 'studies'} at {value}."
        roles = [user_role(), RoleRef("school", value, "organization")]
        kind = "event" if family == "study_past" else "attribute"
    else:
        oe = bounded(text, os, 5)
        at = re.compile(r"\s+(?:at|in|from|with|for|because|so|to)\s").search(text, os, oe)
        school = organisation(text, at.end()) if at and at.group(0).strip() == "at" \
            else ("", 0, 0.0)
        oe = at.start() if at else oe
        value = clean(text[os:oe])
        first = value.split(" ", 1)[0].lower() if value else ""
        if vague(value) or first in L.NOT_OBJECT_START or first in (
                "hard", "abroad", "all", "every", "right", "late", "now", "today", "tonight"):
            return []
        end, kind = oe, "attribute"
        sentence = f"User {'majors in' if pred == 'major' else 'studies'} {value}."
        roles = [user_role(), RoleRef("object", value, "other")]
    time = s.time_for(m.start(), os, s.clause_end(os))
    f = fact(s, kind, pred, sentence, m.start(), end, value=value, modality=modality,
             roles=roles, time=time)
    out = [f] if f else []
    if family in ("study_field", "major") and school[0] and modality == "asserted":
        g = fact(s, "attribute", "studies_at", f"User studies at {school[0]}.",
                 m.start(), school[1], value=school[0],
                 roles=[user_role(), RoleRef("school", school[0], "organization")])
        out += [g] if g else []
    return out


def left(s: Sentence, m: re.Match[str], verb: str, pred: str,
         modality: str) -> list[FactCandidate]:
    os = skip_ws(s.text, m.end())
    pm = P.PROPER.match(s.text, os)
    if not pm or modality == "negated":
        return []
    value = clean(pm.group("p"))
    time = s.time_for(m.start(), os, s.clause_end(os))
    f = fact(s, "event", "left", f"User left {value}.", m.start(), pm.end(),
             value=value, roles=[user_role(), RoleRef("object", value, "other")],
             time=time)
    return [f] if f else []


def event(s: Sentence, m: re.Match[str], verb: str, pred: str,
          modality: str) -> list[FactCandidate]:
    os, oe, se, time = object_span(s, m)
    raw = s.text[os:oe]
    value = clean(raw)
    first = value.split(" ", 1)[0].lower() if value else ""
    if not value and pred == "graduated_from" and time:
        value = ""
    elif vague(value) or P.PRONOUN_START.match(value) or first in L.NOT_OBJECT_START \
            or first in ("bed", "sleep"):
        return []
    elif pred == "took" and not L.TOOK_OBJECTS.intersection(value.lower().split()):
        return []
    elif pred == "occupation" and P.NARRATED_PAST.search(s.text):
        return []  # "I spent 4 years there, where I was promoted to creative director": a past role
    elif verb == "saw" and not (value[:1].isupper() or L.SAW_OBJECTS.intersection(
            singular(w) for w in value.lower().split())):
        return []
    shown = display(raw)
    aux = m.group("aux") or ""
    perfect = bool(P.PERFECT_AUX.search(aux))
    if perfect and P.COUNT_START.match(value):
        return []  # "I've visited 12 countries": the count rule has it
    if (perfect or verb.endswith("been to")) and pred in L.EXPERIENCE_PREDICATES \
            and modality == "asserted" and P.EXPERIENCE.search(s.text, oe, s.clause_end(oe)):
        pred = "been_to"  # "I've been to Chicago before": an experience, no plan's outcome
    if modality == "negated":
        base = "been to" if verb.endswith("been to") else L.EVENT_BASE.get(pred, verb)
        lead = "has not" if perfect or base == "been to" else "did not"
        sentence = f"User {lead} {base} {shown}."
    else:
        shown_verb = verb[5:] if verb.startswith("have ") else (
            f"is {verb}" if verb in L.BE_REQUIRED else verb)  # "User is back from …"
        sentence = f"User {'has ' if perfect else ''}{shown_verb} {shown}."
    if not value:
        sentence = "User graduated."
    kind_type = "place" if pred in L.PLACE_PREDICATES and value[:1].isupper() else \
        "organization" if pred in L.ORG_PREDICATES and value[:1].isupper() else \
        type_of(value)
    roles = [user_role()] + ([RoleRef("location" if kind_type == "place" else "object",
                                      value, kind_type)] if value else [])
    f = fact(s, "event", pred, sentence, m.start(), max(oe, se), value=value or None,
             modality=modality, roles=roles, time=time)
    out = [f] if f else []
    if pred in ("joined", "signed_up_for") and modality == "asserted":
        out += joined_activity(s, m, value, oe, time)
    return out


_JOINED_HEADS = frozenset("club class classes lesson lessons group team league squad choir gym"
                          .split())


def joined_activity(s: Sentence, m: re.Match[str], value: str, end: int,
                    time: TimeHit | None) -> list[FactCandidate]:
    """Joining a club, class or team for an activity is taking the activity up: "joined a Sunday
    running club" → does:running, so quitting the run club later ends it."""
    words = habits.object_words(value)
    if not words or words[-1].lower() not in _JOINED_HEADS:
        return []
    name = " ".join(words)
    again = bool(re.search(r"\bagain\b", s.text[m.end():s.clause_end(end) + 1], re.I))
    f = fact(s, "routine", "does:" + slug(name),
             f"User took up {name} again." if again else f"User joined {name}.", m.start(), end,
             value=name, roles=[user_role(), RoleRef("object", name, "activity")], time=time)
    return [f] if f else []


def progressive(s: Sentence, m: re.Match[str], verb: str, pred: str,
                modality: str) -> list[FactCandidate]:
    aux = m.group("aux") or ""
    if modality == "negated" or not P.BE_AUX.search(aux) or P.PAST_AUX.search(aux):
        return []
    os, oe, se, time = object_span(s, m)
    future = time is not None and bool(P.FUTURE_TIME.search(time[2]))
    if not (future or verb.startswith(("moving", "relocating"))):
        return []
    raw = s.text[os:oe]
    value_obj = clean(raw, drop_possessive=False)
    if (vague(value_obj) or P.PRONOUN_START.match(value_obj)) and verb != "getting married":
        return []
    base = L.PROG_BASE.get(verb, verb)
    value = f"{base} {display(raw)}".strip()
    f = fact(s, "plan", "plans", f"User plans to {value}.", m.start(), max(oe, se),
             value=value, modality="planned", time=time,
             roles=[user_role(), RoleRef("object", value_obj or base, "other")])
    return [f] if f else []


def ongoing(s: Sentence, m: re.Match[str], verb: str, pred: str,
            modality: str) -> list[FactCandidate]:
    """What the user is doing these days: "I've been learning Spanish", "I'm using Notion"."""
    aux = m.group("aux") or ""
    if not re.search(r"(?:['’](?:m|re)|\b(?:am|are|been))\b", aux, re.I) or \
            P.PAST_AUX.search(aux):
        return []
    os, oe, se, time = object_span(s, m, max_words=6)
    raw = s.text[os:oe]
    value = clean(raw)
    first = value.split(" ", 1)[0].lower() if value else ""
    if vague(value) or P.PRONOUN_START.match(value) or first in L.NOT_OBJECT_START or \
            first in L.NOT_ACTIVITIES:
        return []
    shown = display(raw)
    gerund = verb.split()[0]
    if pred == "does":
        keep = gerund not in ("doing", "practicing", "practising")
        slot = activity_slot(value)
        pred = f"does:{gerund}_{slot}" if keep and not slot.startswith(gerund) else f"does:{slot}"
        to = "to " if raw.lower().startswith("to ") else ""
        value = f"{gerund} {to}{value}" if keep else value
        sentence = f"User is {gerund} {shown}."
        role = RoleRef("object", value, "activity")
    elif pred == "reading":
        sentence, role = f"User is reading {shown}.", RoleRef("object", value, "other")
    else:
        named = re.match(r"[A-Z][\w'’.&-]*(?:\s+[A-Z][\w'’.&-]*)*", value)
        value = named.group(0) if named else value  # "Instagram way too much" → Instagram
        sentence, role = f"User uses {display(value)}.", RoleRef("object", value, "product")
    if modality == "negated":
        sentence = f"Not true: {sentence}"
    f = fact(s, "attribute", pred, sentence, m.start(), max(oe, se), value=value,
             modality=modality, roles=[user_role(), role], time=time)
    return [f] if f else []


def drive(s: Sentence, m: re.Match[str], verb: str, pred: str,
          modality: str) -> list[FactCandidate]:
    """The car the user drives: "I drive a Honda Civic"."""
    os, oe, se, time = object_span(s, m, max_words=6)
    raw = s.text[os:oe]
    if not re.match(r"(?:an?|my|our|the)\s", raw, re.I) and not raw[:1].isupper():
        return []
    value = clean(raw)
    if vague(value) or value.split(" ", 1)[0].lower() in L.NOT_OBJECT_START or \
            singular(value.split()[-1]) in L.NOT_POSSESSED:
        return []
    f = fact(s, "possession", "drives", f"User drives {display(raw)}.", m.start(), max(oe, se),
             value=value, modality=modality, time=time,
             roles=[user_role(), RoleRef("object", value, "product")])
    return [f] if f else []
