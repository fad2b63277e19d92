"""Rules for first-person clauses about changes: starting, stopping, switching, owning, marrying."""

from __future__ import annotations

import re

from ..models import FactCandidate, RoleRef
from . import habits
from . import lexicon as L
from . import patterns as P
from .text import (
    Sentence,
    activity_slot,
    article,
    bounded,
    clean,
    display,
    fact,
    norm,
    number,
    object_span,
    plural,
    singular,
    skip_ws,
    slug,
    type_of,
    user_role,
    vague,
)


def stop_start(s: Sentence, m: re.Match[str], verb: str, pred: str,
               modality: str) -> list[FactCandidate]:
    if modality == "negated":
        return []
    family = L.VERBS[verb][0]
    os, oe, se, time = object_span(s, m, max_words=8)
    raw = s.text[os:oe]
    value = clean(raw)
    if vague(value) or P.PRONOUN_START.match(value):
        return []
    first = value.split(" ", 1)[0].lower()
    if first in L.NOT_OBJECT_START or first in L.MENTAL_VERBS:
        return []
    if verb == "got into" and not (value[:1].isupper() or type_of(value) == "activity"):
        return []
    head = habits.object_words(value)
    if family == "stop" and head and singular(head[-1]) in L.HOMES:
        return []  # "gave up our apartment": a home or a thing given up, not a habit
    if first == "using" and len(value) > 6:
        used = clean(value[6:])
        if vague(used):
            return []
        stopped = family == "stop"
        f = fact(s, "event", "uses", f"User {'stopped' if stopped else 'started'} "
                 f"using {display(used)}.", m.start(), se, value=used,
                 modality="negated" if stopped else "asserted", time=time,
                 roles=[user_role(), RoleRef("object", used, "product")])
        return [f] if f else []
    activity = type_of(value) == "activity" or verb in (
        "took up", "taken up", "started doing", "gave up", "quit", "gave up on", "have given up",
        "packed in", "jacked in", "knocked off")
    shown = display(raw)
    out: list[FactCandidate | None] = []
    roles = [user_role(), RoleRef("object", value, "activity" if activity else "other")]
    if family == "stop":
        out.append(habits.stopping(s, m, s.text[os:bounded(s.text, os, 6)], se) or fact(
            s, "event", f"does:{activity_slot(value)}", f"User stopped {shown}.", m.start(), se,
            value=value, modality="negated", roles=roles, time=time))
    else:
        if verb == "got into" and value[:1].isupper():
            out.append(fact(s, "event", "admitted_to", f"User got into {shown}.",
                            m.start(), se, value=value, roles=[
                                      user_role(), RoleRef("school", value, "organization")],
                            time=time))
            return [f for f in out if f]
        out.append(fact(s, "event", "started", f"User started {shown}.", m.start(), se,
                        value=value, roles=roles, time=time))
        found = habits.activity(value) if activity or habits.consumable(value) else None
        if found:
            out.append(habits.candidate(s, found, m.start(), se, how="again" if re.search(
                r"\bagain\b", s.text[m.end():se + 7], re.I) else "routine"))
        elif activity:
            out.append(fact(s, "event", f"does:{activity_slot(value)}",
                            f"User started {shown}.", m.start(), se, value=value,
                            roles=list(roles), time=time))
    return [f for f in out if f]


def avoid(s: Sentence, m: re.Match[str], verb: str, pred: str,
          modality: str) -> list[FactCandidate]:
    """Keeping away from something: "I'm avoiding dairy", "I steer clear of fried food"."""
    if modality == "negated":
        return []
    os, oe, se, time = object_span(s, m, max_words=5)
    value = " ".join(habits.object_words(clean(s.text[os:oe])))
    if vague(value) or P.PRONOUN_START.match(value):
        return []
    if verb.split()[-1] == "off" and (not habits.consumable(value) or re.match(
            r"\s*to\b", s.text[m.end():])):
        return []  # "I'm off work", "been off sick": only a food or a drink is given up
    found = habits.activity(value) if habits.base_verb(value.split()[0]) else None
    f = habits.candidate(s, found or ("consumes", value), m.start(), se, how="stop")
    return [f] if f else []


def cut(s: Sentence, m: re.Match[str], verb: str, pred: str,
        modality: str) -> list[FactCandidate]:
    os, oe, se, time = object_span(s, m, max_words=5)
    value = clean(s.text[os:oe])
    if vague(value) or modality == "negated":
        return []
    f = fact(s, "preference", "reduces", f"User is cutting down on {value}.",
             m.start(), se, value=value, roles=[user_role(), RoleRef(
                       "object", value, type_of(value))], time=time)
    return [f] if f else []


def switch(s: Sentence, m: re.Match[str], verb: str, pred: str,
           modality: str) -> list[FactCandidate]:
    text = s.text
    os, oe, se, time = object_span(s, m, max_words=10, tail=False)
    raw = text[os:oe]
    old, new = None, raw
    if verb.endswith("from"):
        to = re.search(r"\s+to\s+", raw)
        old, new = (raw[:to.start()], raw[to.end():]) if to else (raw, "")
    new = P.VALUE_TAIL.sub("", new) if new else new
    value = clean(new)
    old_value = clean(old) if old else None
    if modality == "negated":
        return []
    roles = [user_role()]
    if value:
        roles.append(RoleRef("object", value, type_of(value)))
    if old_value:
        roles.append(RoleRef("previous", old_value, type_of(old_value)))
    if value and not vague(value):
        sentence = f"User switched from {old_value} to {value}." if old_value else \
            f"User switched to {value}."
        f = fact(s, "event", "uses", sentence, m.start(), se, value=value,
                 roles=roles, time=time)
    elif old_value and not vague(old_value):
        f = fact(s, "event", "uses", f"User switched away from {old_value}.",
                 m.start(), se, value=old_value, modality="negated", roles=roles,
                 time=time)
    else:
        return []
    return [f] if f else []


def have(s: Sentence, m: re.Match[str], verb: str, pred: str,
         modality: str) -> list[FactCandidate]:
    text = s.text
    acquire = L.VERBS[verb][0] == "acquire" or (
        verb == "got" and not P.PERFECT_AUX.search(m.group("aux") or ""))
    os = skip_ws(text, m.end())
    oe = bounded(text, os, 8)
    time = s.time_for(m.start(), os, s.clause_end(os))
    if time and os < time[0] < oe:
        oe = len(text[:time[0]].rstrip(L.PUNCT_STRIP))
    seg = text[os:oe]
    if verb in ("got a new", "picked up a new"):
        seg = "a " + seg  # parse as "a <noun>"; spans below stay on the real text
    out: list[FactCandidate | None] = []
    named = P.HAVE_NAMED.match(seg)
    if named:
        noun = named.group("noun").lower()
        name = named.group("name")
        end = min(os + named.end() - (len(seg) - (oe - os)), len(text))
        if noun in L.PETS:
            kind = L.PETS[noun]
            out.append(fact(
                s, "possession", f"owns:{slug(kind)}", f"User has a {kind} named {name}.",
                m.start(), end, value=name, modality=modality,
                roles=[user_role(), RoleRef("pet", name, "pet")], time=time))
            more = "+1" if acquire or named.group(0).lower().startswith("another") else "1"
            if modality == "asserted":
                out.append(fact(
                    s, "possession", f"owns_count:{slug(kind)}",
                    f"User got another {kind}." if more == "+1" else f"User has a {kind}.",
                    m.start(), end, value=more, time=time,
                    roles=[user_role(), RoleRef("object", kind, "pet")]))
        elif noun in L.RELATIONS and not acquire:
            rel = L.RELATIONS[noun]
            out.append(fact(
                s, "relationship", rel, f"User's {noun} is named {name}.", m.start(), end,
                value=name, modality=modality,
                roles=[user_role(), RoleRef("object", name, "person")]))
        return [f for f in out if f]
    hm = P.HAVE_OBJ.match(seg)
    support_end = max(oe, time[1]) if time and time[0] >= os else oe
    if hm:
        num = norm(hm.group("num"))
        noun = singular(P.WS.sub(" ", hm.group("noun")))
        pet = L.PETS.get(noun) or ("pet" if noun == "pet" else None)
        fam = L.FAMILY_COUNT.get(noun)
        count = 0 if num == "no" else number(num)
        if (fix := P.NUMBER_FIX.match(text, oe)) and count is not None:
            count, num = number(fix.group("num")), norm(fix.group("num"))  # "two, wait no, three"
            support_end = max(support_end, fix.end())
        if num in ("another", "a second", "second") or num.endswith("more") or (
                acquire and count is None):
            count_text = "+" + str(number(num.split()[0]) or 1) if num.endswith("more") \
                else "+1"
        elif acquire and count is not None:
            count_text = f"+{count}"
        else:
            count_text = str(count) if count is not None else ""
        noun_shown = hm.group("noun").lower()
        if any(singular(w) in L.NOT_POSSESSED for w in hm.group("adj").split()) or \
                noun in L.NOT_POSSESSED or noun in L.VAGUE_HEADS:
            return []
        if pet and count_text and modality == "asserted" or pet and count == 0:
            sentence = f"User got {'another' if count_text == '+1' else count_text[1:]} " \
                f"{noun_shown}." if count_text.startswith("+") else \
                f"User has {count_text} {noun_shown}."
            out.append(fact(s, "possession", f"owns_count:{slug(pet)}", sentence,
                            m.start(), support_end, value=count_text,
                            roles=[user_role(), RoleRef("object", pet, "pet")],
                            time=time))
        elif fam and count is not None and not acquire:
            out.append(fact(s, "relationship", f"count:{fam}",
                            f"User has {count} {noun_shown}.", m.start(), support_end,
                            value=str(count), modality=modality, time=time))
        elif count is not None and count >= 2 and not acquire and modality == "asserted" and \
                plural(hm.group("noun")):  # "two meetings scheduled for": not "for"
            # ("I've got two cars" is had; "I got two cars", an acquisition, is `acquire`)
            out.append(fact(s, "possession", f"owns_count:{slug(noun)}",
                            f"User has {count} {noun_shown}.", m.start(), support_end,
                            value=str(count), time=time))
        elif noun in L.POSSESSIONS and not acquire and verb not in ("got", "own", "owns"):
            value = clean(seg[hm.start("adj"):hm.end("noun")])
            out.append(fact(s, "possession", "owns",
                            f"User has {article(value)} {value}.", m.start(),
                            support_end, value=value, modality=modality,
                            roles=[user_role(), RoleRef("object", value, "product")],
                            time=time))
        if out and not acquire:
            return [f for f in out if f]
    if not acquire and not verb.startswith("own"):
        return [f for f in out if f]
    value = clean(seg)
    if vague(value) or P.PRONOUN_START.match(value) or \
            value.split(" ", 1)[0].lower() in L.PREPOSITIONS:
        return [f for f in out if f]
    shown = display(seg)
    if verb.startswith("own"):
        out.append(fact(s, "possession", "owns", f"User owns {shown}.", m.start(),
                        support_end, value=value, modality=modality,
                        roles=[user_role(), RoleRef("object", value, "product")],
                        time=time))
    elif verb in ("bought", "purchased"):
        out.append(fact(s, "event", "bought", f"User bought {shown}.", m.start(),
                        support_end, value=value, modality=modality,
                        roles=[user_role(), RoleRef("object", value, "product")],
                        time=time))
    elif verb in ("adopted", "rescued") and not out:
        out.append(fact(s, "event", "adopted", f"User {verb} {shown}.", m.start(),
                        support_end, value=value, modality=modality, time=time,
                        roles=[user_role(), RoleRef("object", value, "other")]))
    elif not out and hm and singular(hm.group("noun")) in L.POSSESSIONS:
        out.append(fact(s, "event", "acquired", f"User got {shown}.", m.start(),
                        support_end, value=value, modality=modality, time=time,
                        roles=[user_role(), RoleRef("object", value, "product")]))
    return [f for f in out if f]


def marry(s: Sentence, m: re.Match[str], verb: str, pred: str,
          modality: str) -> list[FactCandidate]:
    text = s.text
    aux = m.group("aux") or ""
    be = bool(P.BE_AUX.search(aux))
    if verb == "married" and be:
        return []  # "I'm married": the status rule has it
    os = skip_ws(text, m.end())
    if verb in ("married",) or verb.endswith(" to"):
        nm = P.NAME.match(text, os)
    else:
        to = re.compile(r"to\s+").match(text, os)
        nm = P.NAME.match(text, to.end()) if to else None
    if verb == "married" and not nm:
        return []
    status = "engaged" if "engaged" in verb else "divorced" if "divorced" in verb \
        else "married"
    time = s.time_for(m.start(), os, s.clause_end(os))
    end = nm.end() if nm else m.end()
    out: list[FactCandidate | None] = []
    if not be:
        out.append(fact(s, "relationship", "marital_status", f"User got {status}.",
                        m.start(), end, value=status, modality=modality, time=time))
    if nm and status != "divorced":
        name = nm.group("name")
        rel = "fiance" if status == "engaged" else "spouse"
        shown = f"User married {name}." if verb == "married" else \
            f"User's {rel} is {name}."
        out.append(fact(s, "relationship", rel, shown, m.start(),
                        end, value=name, modality=modality, time=time,
                        roles=[user_role(), RoleRef("object", name, "person")]))
    return [f for f in out if f]
