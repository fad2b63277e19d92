"""Rules for other sentence shapes: plans, favourites, relations, statuses, counts, advice."""

from __future__ import annotations

import re

from ..models import FactCandidate, RoleRef
from . import lexicon as L
from . import patterns as P
from .text import (
    Sentence,
    TimeHit,
    article,
    bounded,
    clean,
    display,
    fact,
    norm,
    number,
    organisation,
    singular,
    skip_ws,
    slug,
    type_of,
    user_role,
    vague,
    with_head_noun,
)


def plans(s: Sentence) -> list[FactCandidate]:
    text = s.text
    out: list[FactCandidate] = []
    for m in P.PLAN.finditer(text):
        if s.hedged(m.start()):
            continue
        att = norm(m.group("att") or "")
        marker = norm(m.group("planned") or m.group("hypo") or att)
        planned = bool(m.group("planned")) or att == "'ll"
        rs = m.start("rest")
        end = bounded(text, rs, 10)
        raw = text[rs:end]
        if P.PLAN_STOP.match(raw):
            continue
        time = s.time_for(m.start(), rs, s.clause_end(rs))
        se = end
        if time and time[0] >= rs:
            se = max(end, time[1])
            if rs < time[0] < end:
                end = time[0]
                raw = text[rs:end]
        body = clean(raw, drop_possessive=False) if not raw.lower().startswith(
            ("a ", "an ", "the ")) else raw.strip(L.PUNCT_STRIP)
        proper = P.PROPER.match(body) if marker == "going to" else None
        place = proper is not None and proper.end() == len(body)  # "we're going to Rome in May"
        if not body or vague(clean(body)) or P.PRONOUN_START.match(body) or (
                " " not in body and not place):
            continue
        shown = display(body)
        if marker == "going to" and (P.DETERMINER.match(raw) or place):
            shown = f"go to {shown}"
        if marker == "planning":
            sentence = f"User is planning {shown}."
        elif planned:
            sentence = f"User plans {'on' if shown.split()[0].endswith('ing') else 'to'} " \
                f"{shown}."
        elif marker in ("might", "may", "could"):
            sentence = f"User might {shown}."
        elif marker.startswith(("thinking", "considering", "dreaming")):
            sentence = f"User is considering {shown}."
        elif marker.startswith("wish"):
            sentence = f"User wishes they could {shown}."
        else:
            sentence = f"User would like to {shown}."
        pm = P.PROPER.search(text, rs + 1, end)
        name = clean(with_head_noun(text, rs, pm.start("p"), pm.end("p"), end)) if pm else ""
        roles = [user_role()] + ([RoleRef("object", name, "other")] if name else [])
        f = fact(s, "plan", "plans", sentence, m.start(), se, value=shown,
                 modality="planned" if planned else "hypothetical", roles=roles,
                 time=time)
        if f:
            out.append(f)
    for m in P.PLAN_OFF.finditer(text):
        if s.hedged(m.start()):
            continue
        pm = P.PROPER.match(text, m.start("rest"))
        if not pm:
            continue
        name = clean(pm.group("p"))
        time = s.time_for(m.start(), pm.end(), s.clause_end(pm.end()))
        f = fact(s, "event", "cancelled", f"User is no longer going to {name}.", m.start(),
                 pm.end(), value=f"go to {name}", roles=[
                     user_role(), RoleRef("object", name, "place")], time=time)
        if f:
            out.append(f)
    for m in EXAM_PLAN.finditer(text):
        if s.hedged(m.start()):
            continue
        what = clean(m.group("what"), drop_possessive=False)
        time = s.time_for(m.start(), m.end(), s.clause_end(m.end()))
        f = fact(s, "plan", "plans", f"User plans to take the {what}.", m.start(), m.end(),
                 value=f"take the {what}", modality="planned", time=time,
                 roles=[user_role(), RoleRef("object", what, "event")])
        if f:
            out.append(f)
    return out


# "I'm taking the bar exam in July", "I'm sitting my driving test on Friday": a test ahead.
EXAM_PLAN = re.compile(
    r"\b(?:I|we)(?:['’]m|\s+am|['’]re|\s+are)\s+(?:finally\s+|also\s+)?(?:taking|sitting|"
    r"doing|writing|retaking|resitting)\s+(?:the|my|our|a)\s+(?P<what>(?:[\w-]+\s+){0,2}?"
    r"(?:exams?|tests?|boards|finals|certification))(?=\s*(?:$|[,.;:!?)]|(?:in|on|at|next|this|"
    r"tomorrow|today|tonight|soon|later|again|for|and|but|so|after|before|then|until)\b))",
    re.IGNORECASE)


# "Marvel movies just don't do it for me anymore": a liking that ended.
NOT_FOR_ME = re.compile(
    r"(?:^|[,;.!?]\s*|\b(?:but|and|now|honestly|so)\s+)(?P<obj>[A-Za-z][\w'’-]*(?:\s+[A-Za-z]"
    r"[\w'’-]*){0,3}?)\s+(?:just\s+|really\s+|simply\s+)?(?:don['’]t|doesn['’]t|do\s+not|"
    r"does\s+not)\s+(?:really\s+)?do\s+(?:it|much|anything)\s+for\s+me\b", re.IGNORECASE)


def not_for_me(s: Sentence) -> list[FactCandidate]:
    text = s.text
    out: list[FactCandidate | None] = []
    for m in NOT_FOR_ME.finditer(text):
        lead = re.match(r"(?:(?:honestly|but|and|now|so|well|tbh|frankly|sadly)\s+)*",
                        m.group("obj"), re.IGNORECASE)
        skip = lead.end() if lead else 0
        value = clean(m.group("obj")[skip:])
        if s.hedged(m.start()) or vague(value) or P.PRONOUN_START.match(value):
            continue
        out.append(fact(s, "preference", "dislikes", f"User no longer enjoys {display(value)}.",
                        m.start("obj") + skip, m.end(), value=value,
                        roles=[user_role(), RoleRef("object", value, type_of(value))]))
    return [f for f in out if f]


def favorites(s: Sentence) -> list[FactCandidate]:
    text = s.text
    out: list[FactCandidate | None] = []
    for m in P.FAVORITE.finditer(text):
        if s.hedged(m.start()):
            continue
        cat = P.FAV_CAT_DROP.sub("", norm(P.FAV_CAT_WHERE.sub("", m.group("cat"))))
        vs = m.start("val")
        ve = bounded(text, vs, 8)
        value = clean(text[vs:ve], drop_possessive=False)
        if vague(value) or P.PRONOUN_START.match(value) or not cat:
            continue
        modality = "negated" if m.group("verb").lower().startswith("used") else "asserted"
        time = s.time_for(m.start(), vs, s.clause_end(vs))
        out.append(fact(
            s, "preference", f"favorite_{slug(cat)}",
            f"User's favorite {cat} {'used to be' if modality == 'negated' else 'is'} "
            f"{display(value)}.", m.start(), ve, value=value, modality=modality,
            roles=[user_role(), RoleRef("object", value, L.FAV_TYPES.get(cat, "other"))],
            time=time if time and time[0] >= vs else None))
    for m in P.FAVORITE_WAS.finditer(text):
        cat = norm(m.group("cat"))
        old = clean(re.sub(r"^(?:so|but|and|well|honestly|ok|okay)\s+", "", m.group("old"),
                           flags=re.I), drop_possessive=False)
        vs = m.start("val")
        ve = bounded(text, vs, 6)
        value = clean(text[vs:ve], drop_possessive=False)
        if s.hedged(m.start()) or vague(value) or vague(old) or P.PRONOUN_START.match(old):
            continue
        for v, modality, said in ((old, "negated", "used to be"), (value, "asserted", "is")):
            out.append(fact(
                s, "preference", f"favorite_{slug(cat)}", f"User's favorite {cat} {said} {v}.",
                m.start() if modality == "negated" else text.lower().rfind("now", 0, vs),
                m.end("cat") if modality == "negated" else ve, value=v, modality=modality,
                roles=[user_role(), RoleRef("object", v, L.FAV_TYPES.get(cat, "other"))]))
    for m in P.FAVORITE_NEW.finditer(text):
        cat = norm(m.group("cat"))
        vs = m.start("val")
        ve = bounded(text, vs, 8)
        value = clean(text[vs:ve], drop_possessive=False)
        before = text[max(0, m.start() - 12):m.start()].lower().split()
        if before and (before[-1] in ("his", "her", "their", "its", "your") or
                       before[-1].endswith(("'s", "’s"))):
            continue  # "her new favourite toy": someone else's
        if s.hedged(m.start()) or vague(value) or P.PRONOUN_START.match(value):
            continue
        out.append(fact(
            s, "preference", f"favorite_{slug(cat)}", f"User's favorite {cat} is {display(value)}.",
            m.start(), ve, value=value,
            roles=[user_role(), RoleRef("object", value, L.FAV_TYPES.get(cat, "other"))]))
    if not out:
        out.extend(_favorite_by_pronoun(s))
    if not out:
        for m in P.FAVORITE_REV.finditer(text):
            if s.hedged(m.start()):
                continue
            raw = re.sub(r"^(?:i|we)\s+(?:think|guess|feel|believe|would\s+say|'d\s+say|"
                         r"must\s+say)\s+(?:that\s+)?", "", m.group("val"), flags=re.I)
            value = clean(raw, drop_possessive=False)
            words = value.split()
            if not words or len(words) > 6 or vague(value) or P.PRONOUN_START.match(
                    value) or re.search(r"\b(?:I|we|my|our)\b", value, re.I):
                continue
            cat = P.FAV_CAT_DROP.sub("", norm(m.group("cat") or ""))
            if not cat and singular(words[-1]) in L.FAV_TYPES:
                cat = singular(words[-1])  # "Thai food is my favourite now": food
            pred = f"favorite_{slug(cat)}" if cat else "favorite"
            start = m.start("val") + m.group("val").find(raw)
            out.append(fact(
                s, "preference", pred, f"User's favorite {cat or 'thing'} is {value}.",
                start, m.end(), value=value,
                roles=[user_role(), RoleRef("object", value, L.FAV_TYPES.get(cat, "other"))]))
    return [f for f in out if f]


_NOT_A_FAVORITE = frozenset("""there here out home back in up together alone again lunch dinner
breakfast brunch something anything everything nothing""".split())


def _favorite_by_pronoun(s: Sentence) -> list[FactCandidate | None]:
    """"I could eat sushi every single day, it's my favourite food": the pronoun's thing, said in
    the clause just before it (what the user loves, eats, reads …, or the sentence's subject);
    "he"/"she" only for a name, and nothing when the clause before names none."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in P.FAVORITE_PRONOUN.finditer(text):
        if s.hedged(m.start("pro")):
            continue
        ante = None
        for a in P.FAVORITE_ANTECEDENT.finditer(text, 0, m.start()):
            ante = a
        if ante is None:
            continue
        if ante.group("np"):
            vs = ante.start("np")
            ve = min(bounded(text, vs, 5), m.start())
        else:
            vs, ve = ante.span("subj")
        cut = P.FAVORITE_NP_END.search(text, vs, ve)
        value = clean(text[vs:cut.start() if cut else ve], drop_possessive=False)
        if (not value or vague(value) or P.PRONOUN_START.match(value)
                or value.split()[0].lower() in _NOT_A_FAVORITE
                or re.search(r"\b(?:I|we|my|our|you|your)\b", value, re.I)):
            continue
        if m.group("pro").lower() in ("he", "she") and not value[0].isupper():
            continue  # "he" stands for a person, named
        cat = P.FAV_CAT_DROP.sub("", norm(m.group("cat")))
        out.append(fact(
            s, "preference", f"favorite_{slug(cat)}", f"User's favorite {cat} is {display(value)}.",
            vs, m.end(), value=value,
            roles=[user_role(), RoleRef("object", value, L.FAV_TYPES.get(cat, "other"))]))
    return out


def relations(s: Sentence) -> list[FactCandidate]:
    out: list[FactCandidate | None] = []
    for rx in (P.RELATION, P.RELATION_REV):
        for m in rx.finditer(s.text):
            if s.hedged(m.start()):
                continue
            noun = m.group("rel").lower()
            name = m.group("name")
            mods = norm(m.group("mods") or "")
            if noun in L.PETS and noun not in L.RELATIONS:
                pet = L.PETS[noun]
                gone = P.PASSED_AWAY.match(s.text, m.end())
                end = gone.end() if gone else m.end()
                when = s.time_for(m.start(), end, s.clause_end(end)) if gone else None
                out.append(fact(s, "possession", f"owns:{slug(pet)}",
                                f"User's {pet} {name} died." if gone else
                                f"User has a {pet} named {name}.", m.start(), end,
                                value=name, modality="negated" if gone else "asserted",
                                roles=[user_role(), RoleRef("pet", name, "pet")], time=when))
                continue
            rel = L.RELATIONS[noun]
            if re.search(r"\bex\b", mods):
                rel = f"ex_{rel}"
            said = P.WS.sub(" ", (m.group("mods") or "") + m.group("rel")).lower()
            out.append(fact(s, "relationship", rel, f"User's {said} is {name}.",
                            m.start(), m.end(), value=name,
                            roles=[user_role(), RoleRef("object", name, "person")]))
    return [f for f in out if f]


def occupation(s: Sentence) -> list[FactCandidate]:
    text = s.text
    out: list[FactCandidate | None] = []
    for m in P.OCCUPATION.finditer(text):
        if s.hedged(m.start()):
            continue
        np_raw = P.OCC_NP_STOP.sub("", m.group("np"))
        np = clean(np_raw)
        words = np.lower().split()
        if not words or words[-1] not in L.OCCUPATIONS:
            continue
        head = words[-1]
        np_end = m.start("np") + len(np_raw.rstrip(L.PUNCT_STRIP))
        at = re.compile(r"\s+(?:at|for)\s+").match(text, np_end)
        org, org_end, _ = organisation(text, at.end()) if at else ("", 0, 0.0)
        if head in L.STUDENT_HEADS and head != "student" and not org:
            continue
        modality = "negated" if m.group("neg") else "asserted"
        if modality == "negated" and re.match(r"\s*(?:just|only|merely|simply)\b",
                                              text[m.end("neg"):]):
            continue
        out.append(fact(s, "attribute", "occupation",
                        f"User is {article(np)} {np}.", m.start(), np_end, value=np,
                        modality=modality,
                        roles=[user_role(), RoleRef("object", np, "other")]))
        if org and modality == "asserted":
            student = head in L.STUDENT_HEADS
            pred = "studies_at" if student else "works_at"
            out.append(fact(
                s, "attribute", pred,
                f"User {'studies' if student else 'works'} at {org}.", m.start(), org_end,
                value=org, roles=[user_role(), RoleRef("school" if student else "employer",
                                                       org, "organization")]))
    return [f for f in out if f]


def status(s: Sentence) -> list[FactCandidate]:
    text = s.text
    out: list[FactCandidate | None] = []
    for m in P.STATUS.finditer(text):
        if s.hedged(m.start()):
            continue
        attr = norm(m.group("attr")).replace("lactose-", "lactose ")
        modality = "negated" if m.group("neg") else "asserted"
        if attr == "allergic to":
            oe = bounded(text, skip_ws(text, m.end()), 5)
            if tail := P.VALUE_TAIL.search(text, m.end(), oe):  # "shellfish after all"
                oe = tail.start()
            value = clean(text[m.end():oe])
            if vague(value):
                continue
            out.append(fact(s, "attribute", "allergic_to",
                            f"User is {'not ' if modality == 'negated' else ''}allergic to "
                            f"{value}.", m.start(), oe,
                            value=value, modality=modality, roles=[
                                      user_role(), RoleRef("object", value, "other")]))
            continue
        pred = L.STATUS_PRED.get(attr, "marital_status")
        kind = "relationship" if pred == "marital_status" else "attribute"
        time = s.time_for(m.start(), m.end(), s.clause_end(m.end()))
        out.append(fact(s, kind, pred, f"User is {'not ' if m.group('neg') else ''}"
                        f"{attr}.", m.start(), m.end(), value=attr,
                        modality=modality, time=time if time and time[0] >= m.end() else None))
        if attr == "retired" and modality == "asserted":
            # "I retired in June after 35 years with Royal Mail": that job is over
            after = _YEARS_WITH.search(text, m.end(), s.clause_end(m.end()) + 60)
            org = organisation(text, after.end()) if after else None
            if org and org[0]:
                out.append(fact(s, "event", "works_at", f"User left their job at {org[0]}.",
                                m.start(), org[1], value=org[0], modality="negated", roles=[
                                    user_role(), RoleRef("employer", org[0], "organization")]))
    return [f for f in out if f]


# "Oh wait, it's tree nuts I'm allergic to": the allergen said first
_ALLERGY_CLEFT = re.compile(
    r"\bit(?:['’]s|\s+is)\s+(?:actually\s+|really\s+)?(?P<val>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
    r"\s+(?:that\s+)?(?:I|we)(?:['’]m|\s+am|['’]re|\s+are)\s+(?:actually\s+)?allergic\s+to\b",
    re.IGNORECASE)
# "peanuts are fine", said of an allergy: no allergy to them
_ALLERGY_FINE = re.compile(
    r"(?:^|[,;.—–-]\s*|\b(?:but|and|so)\s+)(?P<val>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:are|is)\s+"
    r"(?:actually\s+|totally\s+|perfectly\s+)?(?:fine|ok|okay|safe)(?:\s+for\s+me)?\b",
    re.IGNORECASE)
_ALLERGY_WORD = re.compile(r"\ballerg(?:ic|y|ies|ist)\b", re.IGNORECASE)


def allergy_corrections(s: Sentence) -> list[FactCandidate]:
    """An allergy put right: "it's tree nuts I'm allergic to, peanuts are fine"."""
    text = s.text
    if not _ALLERGY_WORD.search(text):
        return []
    out: list[FactCandidate | None] = []
    for rx, modality in ((_ALLERGY_CLEFT, "asserted"), (_ALLERGY_FINE, "negated")):
        for m in rx.finditer(text):
            value = clean(m.group("val"))
            if (s.hedged(m.start("val")) or vague(value) or P.PRONOUN_START.match(value)
                    or _ALLERGY_WORD.search(value) or m.group("val").lower().startswith("my ")
                    or value.lower() in ("i", "we", "everything", "everyone", "all", "they")):
                continue
            out.append(fact(s, "attribute", "allergic_to",
                            f"User is {'not ' if modality == 'negated' else ''}allergic to "
                            f"{value}.", m.start("val"), m.end(), value=value, modality=modality,
                            roles=[user_role(), RoleRef("object", value, "other")]))
    return [f for f in out if f]


_YEARS_WITH = re.compile(r"\bafter\s+(?:\d{1,2}|[a-z]+(?:[\s-][a-z]+)?|so\s+many|many)\s+years?"
                         r"\s+(?:with|at|for|in)\s+", re.IGNORECASE)


def counts(s: Sentence) -> list[FactCandidate]:
    text = s.text
    out: list[FactCandidate | None] = []
    for m in P.COUNT_DONE.finditer(text):
        if s.hedged(m.start()):
            continue
        n = number(m.group("num"))
        words = []
        for w in m.group("noun").split():
            if w.lower() in L.COUNT_STOP:
                break
            words.append(w)
            if w.lower().endswith("s") and singular(w) != w.lower():
                break  # the plural head ends the noun phrase
        if not words:
            continue
        noun = " ".join(words[:-1] + [singular(words[-1])])
        if n is None or singular(words[-1]) in L.NOT_POSSESSED or noun in L.VAGUE_HEADS:
            continue
        end = m.start("noun") + m.group("noun").find(words[-1]) + len(words[-1])
        verb = norm(m.group("verb"))
        out.append(fact(s, "attribute", f"count:{slug(noun)}",
                        f"User has {verb} {n} {' '.join(words)}.", m.start(), end,
                        value=str(n), roles=[user_role(), RoleRef("object", noun,
                                                                  type_of(noun))]))
    return [f for f in out if f]


# A lone verb after "my first time" whose object the stop words cut ("doing this", "going there").
_CUT_VERBS = frozenset("doing going being having getting making trying".split())
_CUT_OBJECTS = frozenset("it this that them there here back out up over again".split())
# A clause after "my first time" that begins with its own subject ("… time it rained", "… we met").
_CUT_PRONOUNS = frozenset("i it we you they he she".split())


def ordinals(s: Sentence) -> list[FactCandidate]:
    text = s.text
    out: list[FactCandidate | None] = []
    for m in P.ORDINAL.finditer(text):
        o = m.group("ord").lower()
        n = L.ORDINAL_WORDS.get(o) or int(re.sub(r"\D", "", o))
        words = []
        for w in m.group("noun").split():
            if w.lower() in ("this", "that", "in", "at", "of", "since", "for", "and", "but",
                             "so", "with", "on", "ever", "already", "now", "after", "before",
                             "to", "here", "there"):
                break
            words.append(w)
        if not words:
            continue
        while len(words) > 1 and words[-1].lower() in ("a", "an", "the", "my", "our"):
            words.pop()
        if words[0].lower() == "time":
            rest = words[1:]
            if not rest or rest[0].lower() in _CUT_PRONOUNS or rest[0].lower() in _CUT_VERBS and all(
                    w.lower() in _CUT_OBJECTS for w in rest[1:]):
                continue  # "my second time (there)", "my first time doing", "… time it rained"
            noun = " ".join(rest)
        else:
            noun = " ".join(words)
        end = m.start("noun") + len(" ".join(words))
        out.append(fact(s, "attribute", f"count:{slug(noun)}",
                        f"This is User's {o} {' '.join(words)}.", m.start(), end,
                        value=str(n), roles=[user_role(), RoleRef("object", noun,
                                                                  type_of(noun))]))
    return [f for f in out if f]


def recommendations(text: str) -> list[FactCandidate]:
    out: list[FactCandidate] = []
    for m in P.RECOMMEND.finditer(text):
        if m.group("colon"):
            continue
        rs = m.start("rest")
        end = bounded(text, rs, 20, P.REC_BOUNDARY)
        if text[end:end + 2].lstrip().startswith(":"):
            continue  # "you might consider genres like:" introduces a list
        if end - rs > 120:
            cut = text.rfind(" ", rs, rs + 120)
            end = cut if cut > rs else rs + 120
        raw = text[rs:end]
        lead = P.REC_LEAD.match(raw)
        body = raw[lead.end():] if lead else raw
        if P.REC_VAGUE.match(body):
            continue
        value = clean(P.REC_TAIL.sub("", body), drop_possessive=False)
        if not value or value.lower() in L.VAGUE_HEADS:
            continue
        support = text[m.start():end].strip()
        out.append(FactCandidate(
            kind="recommendation", predicate="recommended",
            text=f"Assistant recommended {value}.", support=support, subject="assistant",
            value=value, roles=[RoleRef("subject", "assistant", "other"), *_recommended(value)]))
    return out


_AT_PLACE = re.compile(r"(?P<what>.+?)\s+(?:at|from)\s+(?P<where>(?-i:[A-Z])[\w'’&. -]*)", re.I)


def _recommended(value: str) -> list[RoleRef]:
    """"mapo tofu at Lao Sze Chuan" is two entities, a dish and where it is served."""
    if match := _AT_PLACE.fullmatch(value):
        what, where = match.group("what"), match.group("where").strip()
        return [RoleRef("object", what, type_of(what)), RoleRef("location", where, "place")]
    return [RoleRef("object", value, type_of(value))]


def age(s: Sentence) -> list[FactCandidate]:
    """The user's age and birthday: "I just turned 30", "my birthday is on March 5th"."""
    out: list[FactCandidate | None] = []
    for m in P.AGE.finditer(s.text):
        if s.hedged(m.start()):
            continue
        years = m.group("years")
        out.append(fact(s, "attribute", "age", f"User is {years} years old.", m.start(),
                        m.end(), value=years))
    for m in P.BIRTHDAY.finditer(s.text):
        day = m.group("day")
        out.append(fact(s, "attribute", "birthday", f"User's birthday is {day}.", m.start(),
                        m.end(), value=day))
    return [f for f in out if f]


# "I had my wisdom teeth out last Tuesday", "we're flying to Oslo on the 3rd": something the user
# did or will do on a day they name, when no other rule read the sentence's time.
_DATED_CLAUSE = re.compile(
    r"\b(?P<subj>I|we|(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+and\s+I)"
    r"(?P<aux>(?:" + P.AP + r"(?:m|re|ll|ve|d))?(?:\s+(?:just|finally|also|actually|"
    r"really|will|going\s+to|gonna|have|has))*)\s+(?P<verb>[a-z]+)\b", re.IGNORECASE)
_NOT_DONE = frozenset("""think thought guess suppose feel felt wonder wondered hope hoped wish
wished know knew believe believed mean meant want wanted need needed can could would should might
may must am was were is are be been do don't didn't won't can't couldn't wouldn't shouldn't
haven't hasn't wasn't weren't isn't aren't love loved like liked hate hated really just also
actually usually always never often sometimes still not don didn won can couldn wouldn shouldn
haven hasn wasn weren isn aren remember remembered noticed realised realized forgot skip""".split())
_TRAILING_DEGREE = re.compile(r"\s+(?:about|around|roughly|exactly|almost|nearly|over|just|only|"
                              r"like|since|from|until|till|by)$", re.IGNORECASE)
_WILL = re.compile(r"\b(?:will|going\s+to|gonna)\b|" + P.AP + r"ll\b", re.IGNORECASE)
_BE = re.compile(P.AP + r"(?:m|re)\b|\b(?:am|are)\b", re.IGNORECASE)
_MUST = re.compile(r"\b(?:have|has|need|needs|got)\s+to\b|\bmust\b", re.IGNORECASE)
_PERFECT = re.compile(P.AP + r"ve\b|\b(?:have|has)\b", re.IGNORECASE)
# "my laptop died a week ago", "our anniversary dinner was the night before last", "my first
# shift at the hospital is the day after tomorrow": a thing of the user's, on a day they name
_THING_CLAUSE = re.compile(
    r"\b(?P<subj>my|our|the)\s+(?P<noun>[a-z][\w-]*(?:\s+(?!(?:is|was|are|were|will)\b)[a-z][\w-]*){0,5}?)"
    r"\s+(?P<verb>is|was|are|were|will\s+be|got|gets|(?-i:[a-z]{2,}ed)|broke|died|went|came|fell|"
    r"took|began|arrived|ran|gave|left|lost|won|sold|blew|froze|crashed|burst|sank|shrank)\b",
    re.IGNORECASE)
_BE_WORD = re.compile(r"^(?:is|are|was|were|will\s+be)$", re.IGNORECASE)
# In the subject noun phrase no clause of its own ("my brother when I was …", "my experience
# at the festival I went to …"); an -ed word is a verb only before a particle, an object word,
# the time or the clause's end ("my car crashed yesterday", not "my usual toast with scrambled
# eggs"); a form of "be" only with the time right after it ("our dinner was the night before").
_CLAUSE_IN_NOUN = re.compile(r"\b(?:I|we|you|he|she|they|when|since|while|because|that|which|"
                             r"who|where|if|as|and|or|but)\b", re.IGNORECASE)
_AFTER_ED = re.compile(r"\s*(?:$|[,.;:!?]|(?:in|out|up|down|off|on|away|over|to|at|into|with|for|"
                       r"from|the|a|an|my|our|his|her|their|its|it|me|us|him|them|this|that|"
                       r"again|badly|completely)\b)", re.IGNORECASE)
_PAST_TIME = re.compile(r"\b(?:ago|back|last|yesterday|earlier|recently|lately|past|before|"
                        r"other\s+day|this\s+morning)\b|\b(?:19|20)\d\d\b", re.IGNORECASE)
_BE_GAP = ("", "on", "in", "at")  # "my birthday is on the 5th"
# "my driving test is booked for the 14th", "the MOT is scheduled for next Tuesday": as "is on"
_BOOKED_GAP = re.compile(r"(?:booked|scheduled|set|planned|arranged|fixed|confirmed|"
                         r"pencil+ed\s+in|lined\s+up|due)(?:\s+(?:for|on|in|at))?",
                         re.IGNORECASE)
_THING_FUTURE = re.compile(r"^(?:is|are|will\s+be|gets)$", re.IGNORECASE)
_HAVING_WHAT = re.compile(r"\s+(?:a|an|our|my|the|some|people|friends|guests|family)\s+"
                          r"(?!(?:hard|tough|rough|bad|difficult)\b|trouble|issues?\b|problems?\b)",
                          re.IGNORECASE)
_BE_ON_THE_MOVE = frozenset("off back away home out".split())  # "I'm off to Ireland next month"
_HAVE_WHAT = frozenset("got a an the my our his her their some two three".split())
_COPULA_END = re.compile(r"\s(?:is|was|are|were|will\s+be)$", re.IGNORECASE)


def _clause_subject(s: Sentence, pattern: re.Pattern[str], t: TimeHit
                    ) -> tuple[re.Match[str], bool] | None:
    """The subject clause that the time `t` belongs to: the last one before it in its clause,
    else one that the time opens ("A week ago I sold the van"); with whether it leads."""
    text, subj = s.text, None
    for m in pattern.finditer(text, 0, t[0] + 1):
        if m.end() <= t[0] and s.clause_end(m.end()) >= t[0] - 1:
            subj = m
    if subj is not None:
        return subj, False
    rest = text[t[1]:]
    subj = pattern.match(text, t[1] + len(rest) - len(rest.lstrip(" ,")))
    return (subj, True) if subj is not None else None


def dated_events(s: Sentence, found: list[FactCandidate]) -> list[FactCandidate]:
    """What the user did or will do on a day named in the same clause, or what happened to a
    thing of theirs ("my laptop died a week ago"), kept as a dated event when no other rule
    read a time in the sentence (so the timeline and date questions have it)."""
    if any(f.time_text for f in found):
        return []
    out: list[FactCandidate | None] = []
    for t in s.times():
        f = _user_did(s, t) or _thing_happened(s, t)
        if f:
            out.append(f)
    return [f for f in out if f]


# "Got my first tattoo on Saturday!", "Sorted out the garage yesterday": the "I" left out, as
# people write in chat. Only a past verb opening the sentence: an irregular one, or an -ed verb
# with its object or particle after it ("Excited for Friday!" is a feeling).
_DROPPED_I = re.compile(
    r"(?:(?:just|finally|also|so|and|oh|ugh|well|anyway|officially)[,!]?\s+)*"
    r"(?P<subj>)(?P<aux>)(?P<verb>[A-Za-z]+)\b", re.IGNORECASE)
_PAST_IRREGULAR = P.IRREGULAR_PAST | frozenset("broke lost saw did swam wrote caught built threw "
                                               "rode hit".split())
# (not "in" / "on" / "to": "Reviewed in the United States on …", "registered in Northern
# Ireland after …" are pasted passives)
_ED_OBJECT = re.compile(r"\s+(?:my|our|the|a|an|some|up|out|off|back|into|over|down|"
                        r"around|away|through|it|him|her|them|his|their|two|three)\b",
                        re.IGNORECASE)
_FEELINGS = frozenset("""excited stressed tired bored scared worried pleased thrilled stoked
gutted relieved annoyed obsessed exhausted shocked surprised amazed delighted chuffed done
interested involved married engaged""".split())


def opens_with_a_deed(text: str) -> re.Match[str] | None:
    """The past verb a sentence opens with when its "I" is left out, else None."""
    m = _DROPPED_I.match(text)
    if m is None:
        return None
    verb = m.group("verb").lower()
    if verb in _PAST_IRREGULAR or (verb.endswith("ed") and len(verb) > 4
                                   and verb not in _FEELINGS and verb not in L.NOT_A_DEED
                                   and _ED_OBJECT.match(text, m.end())):
        return m
    return None


def _dropped_i(s: Sentence, t: TimeHit) -> tuple[re.Match[str], bool] | None:
    """The sentence's opening deed when its "I" is left out and the time is in its clause."""
    m = opens_with_a_deed(s.text)
    if m is None or m.end() > t[0] or s.clause_end(m.end()) < t[0] - 1:
        return None
    return m, False


def _user_did(s: Sentence, t: TimeHit) -> FactCandidate | None:
    text, hit = s.text, _clause_subject(s, _DATED_CLAUSE, t) or _dropped_i(s, t)
    if hit is None:
        return None
    subj, leading = hit
    verb, aux = subj.group("verb").lower(), subj.group("aux") or ""
    having = verb == "having" and _BE.search(aux) and _HAVING_WHAT.match(text, subj.end())
    if verb in _NOT_DONE or (verb in L.MENTAL_VERBS and not having) or s.hedged(subj.start()) \
            or (verb.endswith("ing") and not _BE.search(aux)) \
            or (_BE.search(aux) and not verb.endswith("ing") and verb not in _BE_ON_THE_MOVE):
        return None  # "I'm sure …", "I'm determined to …": a state, not a deed
    stop = s.clause_end(subj.end()) if leading else t[0]
    value = clean(_TRAILING_DEGREE.sub("", P.WS.sub(" ", text[subj.start("verb"):stop])
                                       .strip(" ,")), drop_possessive=False)
    if len(value.split()) < 2 or vague(value) or _COPULA_END.search(value):
        return None  # "the conference I'm speaking at is in May": a clause inside a noun
    # "I've got an interview on Friday", "I have a dentist appointment on Monday": ahead
    booked = (verb in ("have", "has") or bool(_PERFECT.search(aux) and verb in _HAVE_WHAT)) \
        and not _PAST_TIME.search(t[2])
    # "we have to sell one of the cars next month": an obligation ahead is a plan
    must = bool(_MUST.search(f"{aux} {verb} ")) and not _PAST_TIME.search(t[2])
    planned = bool(_WILL.search(aux) or (_BE.search(aux) and verb.endswith("ing")) or booked
                   or must)
    lead = "will " if _WILL.search(aux) else "is " if _BE.search(aux) else \
        "has " if _PERFECT.search(aux) else ""
    end = s.clause_end(subj.end()) if leading else max(t[1], s.clause_end(subj.end()))
    return fact(s, "event", "did", f"User {lead}{display(text[subj.start('verb'):end])}.",
                subj.start(), end, value=value,
                modality="planned" if planned else "asserted", time=t)


def _be_gap(words: str) -> bool:
    """What may stand between "is" and the time of a thing's day: nothing, a preposition, or
    that it is booked ("is on", "is booked for", "is scheduled for")."""
    words = words.strip().lower()
    return words in _BE_GAP or bool(_BOOKED_GAP.fullmatch(words))


def _thing_happened(s: Sentence, t: TimeHit) -> FactCandidate | None:
    text, hit = s.text, _clause_subject(s, _THING_CLAUSE, t)
    if hit is None:
        return None
    subj, leading = hit
    noun, verb = subj.group("noun"), subj.group("verb").lower()
    be = bool(_BE_WORD.match(verb))
    if verb in L.NOT_A_DEED or s.hedged(subj.start()) or vague(noun) \
            or _CLAUSE_IN_NOUN.search(noun) \
            or (be and (leading or not _be_gap(text[subj.end():t[0]]))) \
            or (subj.group("subj").lower() == "the" and not be) \
            or (verb.endswith("ed") and not leading and subj.end() != t[0]
                and not _AFTER_ED.match(text, subj.end())):
        return None
    end = s.clause_end(subj.end()) if leading else max(t[1], s.clause_end(subj.end()))
    said = display(text[subj.start("noun"):end]).rstrip(".")
    deed = text[subj.start("noun"):end if leading else t[0]]
    return fact(s, "event", "did", f"User's {said}.", subj.start(), end,
                value=clean(noun if be else _TRAILING_DEGREE.sub("", P.WS.sub(" ", deed)
                                                                   .strip(" ,")),
                            drop_possessive=False),
                modality="planned" if _THING_FUTURE.match(verb) else "asserted", time=t)


# Meat eaten again ends a meat-free diet: "I'm eating meat again", "back on the bacon".
_MEAT = frozenset("meat beef pork chicken bacon steak steaks burger burgers lamb ham sausages "
                  "turkey".split())
_AGAIN = re.compile(r"\bagain\b|\bback\s+(?:on|to)\b|\b(?:started|start|starting|began)\s+"
                    r"(?:eating|having)\b", re.IGNORECASE)


def diet_from_meat(s: Sentence, found: list[FactCandidate]) -> list[FactCandidate]:
    """A diet that a return to meat states: the user eats meat again, so a vegan or vegetarian
    diet is over (an omnivore's diet, competing in the same slot); said with the meat eaten."""
    if any(f.predicate == "diet" for f in found) or not _AGAIN.search(s.text):
        return []
    out: list[FactCandidate | None] = []
    for f in found:
        if (f.predicate == "consumes" and f.modality == "asserted" and f.subject == "user"
                and f.value and f.value.lower().split()[-1] in _MEAT):
            start = s.text.find(f.support)
            if start < 0:
                continue
            out.append(fact(s, "attribute", "diet", "User eats meat (an omnivore's diet).",
                            start, start + len(f.support), value="omnivore",
                            roles=[user_role()]))
    return [f for f in out[:1] if f]
