"""Rules for changes stated in passing: job changes ("left Initech and joined Hooli"), moves said
indirectly ("sold the house in X and are renting in Y"), plans called off, and other people's
dated events ("my cousin's graduation is on 3 May")."""

from __future__ import annotations

import re
from collections.abc import Sequence

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
    organisation,
    proper_name,
    user_role,
    vague,
)

AP = r"['’]"
_AUX = r"(?:" + AP + r"(?:ve|re|m))?(?:\s+(?:just|finally|recently|have|had|then|also|now|" \
       r"officially|eventually))*"
JOB_LEFT = re.compile(r"\b(?P<subj>I|we)" + _AUX + r"\s+(?:left|quit|resigned\s+from|departed)\s+",
                      re.IGNORECASE)
JOB_NEW = re.compile(
    r"\b(?:and|then|to|before|so)\s+(?:then\s+|now\s+)?(?:I\s+)?(?:" + AP + r"ve\s+|have\s+)?"
    r"(?:joined|started\s+at|started\s+with|started\s+working\s+(?:at|for)|moved\s+(?:over\s+)?"
    r"to|signed\s+(?:on\s+)?with|went\s+to\s+work\s+(?:at|for)|landed\s+at)\s+", re.IGNORECASE)
_HOME_NOUN = r"(?:place|house|flat|apartment|home|condo|townhouse)"
_PLACE_NOUN = (r"(?:place|flat|apartment|house|home|condo|room|studio|townhouse|loft|cottage|"
               r"terrace|bungalow|duplex|cabin|semi|villa|farmhouse|penthouse|basement)")
LIVES = re.compile(
    r"(?i:\b(?:renting|subletting|leasing|rented|leased|sublet)\s+(?:(?:a|an|the|our|my)\s+"
    r"(?:[\w-]+\s+){0,2}" + _PLACE_NOUN + r"\s+)?in|"
    r"\bsettl(?:ed|ing)\s+in(?:\s+(?:alright|all\s+right|ok|okay|well|nicely|fine|great|"
    r"slowly)\s+in)?|"
    r"\bgot\s+the\s+keys?\s+(?:to|for)\s+(?:a|an|the|our|my)\s+(?:[\w-]+\s+){0,2}" +
    _PLACE_NOUN + r"\s+in|"
    r"\b(?:living|staying)\s+with\s+(?:[\w'’]+\s+){1,3}?in|\bnow\s+call|"
    # "my flatmate in Glasgow keeps eating my food": who the user lives with, and where
    r"\b(?:my|our)\s+(?:new\s+)?(?:flat|house|room)[- ]?mates?\s+(?:here\s+)?in|"
    r"\b(?:my|our)\s+(?:new\s+)?(?:landlord|landlady|next[- ]door\s+neighbou?rs?)\s+(?:here\s+)?in|"
    # "our house in Bristol has a damp problem" (not "our cottage in Cornwall": a second home)
    r"\b(?:my|our)\s+(?:house|flat|apartment|condo|townhouse)\s+(?:here\s+)?in)"
    r"\s+(?=[A-Z])|"
    r"(?i:\b(?:my|our)\s+new\s+(?:" + _PLACE_NOUN + r"|address)\s+(?:is\s+)?(?:in\s+)?)(?=[A-Z])|"
    r"\b[Hh]ome\s+is\s+(?:now\s+)?(?=[A-Z])|"
    r"(?i:\b(?:bought|closed\s+on)\s+(?:a|an|our)\s+(?:new\s+)?" + _PLACE_NOUN +
    r"\s+in\s+)(?=[A-Z][^;!?\n]{0,60}?\bmoved\s+in\b)")
# "Living in Denver now, …", "Settling in alright in Edinburgh": a sentence about the user's home
# that opens without a subject.
SUBJECTLESS_HOME = re.compile(
    P.SENTENCE_START + r"(?:still\s+|now\s+)?(?:living|based|settl(?:ed|ing)\s+in)(?:\s+(?:alright|"
    r"all\s+right|ok|okay|well|nicely|fine|great|slowly))?\s+(?:out\s+|over\s+|up\s+|down\s+|"
    r"here\s+)?in\s+(?=(?-i:[A-Z]))", re.IGNORECASE)
# "We moved out of our place in Brooklyn and now we're in Jersey City": where the user is now,
# read as a home only in a sentence that speaks of moving.
NOW_IN = re.compile(r"\b(?:now\s+)?(?:I|we)(?:" + AP + r"re|" + AP + r"m|\s+are|\s+am)\s+(?:now\s+)?"
                    r"(?:living\s+|based\s+)?in\s+(?=(?-i:[A-Z]))", re.IGNORECASE)
_MOVING = re.compile(r"\b(?:moved|moving)\s+(?:out|to|house|away|back|in|over|across|up|down)\b|"
                     r"\b(?:relocated|relocating)\b|\bsold\s+(?:the|our|my)\b", re.I)
_PAST_AFTER = re.compile(r"\s*,?\s*(?:was|were|used\s+to|back\s+then|years\s+ago)\b", re.I)
_GERUND_SUBJECT = re.compile(r"\s+(?:is|was|has|had|can|could|would|must|will|gets|got|isn"
                             r"['’]t|wasn['’]t|sounds|seems|looks)\b", re.IGNORECASE)
_SUBJECTS = re.compile(r"\b(?:I|we|he|she|they|it|you)\b|\b(?:my|our|his|her|their)\s+\w+"
                       r"(?=\s+(?:is|are|was|were|has|have|'s)\b)", re.IGNORECASE)
LEFT_HOME = re.compile(
    r"(?:\b(?:I|we)" + _AUX + r"\s+|^(?:so\s+|well\s+|finally\s+)?)"  # or said without "I"
    r"(?:sold|gave\s+up|moved\s+out\s+of|left)\s+(?:the|our|my)\s+"
    r"(?:\w+\s+)?" + _PLACE_NOUN + r"\s+in\s+(?=[A-Z])|\b(?:my|our)\s+(?=[A-Z][\w'’.-]*(?:\s+"
    r"[A-Z][\w'’.-]*)?\s+" + _PLACE_NOUN + r"\s+(?:sold|is\s+sold|has\s+sold|got\s+sold))",
    re.IGNORECASE)
# "Finally sold the Bristol place!": the home named before its noun, given up.
LEFT_NAMED_HOME = re.compile(
    r"(?:\b(?:I|we)" + _AUX + r"\s+|^(?:so\s+|well\s+|finally\s+)?)(?:sold|moved\s+out\s+of|left)\s+"
    r"(?:the|our|my)\s+(?=(?-i:[A-Z])[\w'’.-]*(?:\s+(?-i:[A-Z])[\w'’.-]*)?\s+" + _HOME_NOUN + r"\b)",
    re.IGNORECASE)
_HOME_NOUN_AFTER = re.compile(r"\s+" + _HOME_NOUN + r"\b", re.IGNORECASE)
CANCEL = re.compile(
    r"(?:\b(?P<subj>I|we)" + _AUX + r"\s+|" + P.SENTENCE_START + r")"
    r"(?:had\s+to\s+(?:pull\s+out\s+of|back\s+out\s+of|withdraw\s+from|"
    r"cancel|call\s+off|scrap)|"  # "had to pull out of Chicago" (a bare "cancel …" is a request)
    r"(?:ended\s+up|decided\s+to)\s+(?:scrapping|scrap|"
    r"cancel(?:l)?ing|cancel|calling\s+off|call\s+off)|cancel(?:l)?ed|called\s+off|scrapped|scrubbed|"
    r"pulled\s+out\s+of|backed\s+out\s+of|bailed\s+on|withdr(?:ew|awn)\s+from|"
    # a trip that did not happen: "we ended up not going to Japan", "decided not to go to Rome"
    r"ended\s+up\s+not\s+going\s+to|decided\s+not\s+to\s+go\s+to|didn" + AP + r"t\s+end\s+up\s+"
    r"going\s+to|never\s+ended\s+up\s+going\s+to)\s+(?P<obj>\S)|"
    r"\b(?:my|our)\s+(?P<pobj>[\w'’ -]{2,40}?)\s+(?:got|was|has\s+been|had\s+to\s+be)\s+"
    r"(?:cancel(?:l)?ed|called\s+off|scrapped|scrubbed)\b|"
    # "Rome's off", "the Rome trip is off" (a name, then "off" as the whole predicate)
    r"(?:^|(?<=[.!?]\s)|\b(?i:the|our|my)\s+)(?P<nobj>(?-i:[A-Z][\w-]*)(?:\s+(?i:trip|holiday|"
    r"vacation|visit|wedding|party|plan|plans))?)(?:" + AP + r"s|\s+(?i:is|are))\s+(?i:off|"
    r"cancel(?:l)?ed|called\s+off)(?=\s*(?:$|[,.;!?]|\s+(?i:now|then|sadly|unfortunately|for)\b))",
    re.IGNORECASE)
_PEOPLE = {**L.RELATIONS, **L.GROUP_RELATIONS}  # one relative or several
_REL_ALT = "|".join(re.escape(r) for r in sorted(_PEOPLE, key=len, reverse=True))
THIRD_PARTY = re.compile(
    r"(?:^|[.!?]\s+|,\s+|\band\s+)(?:(?P<pos>[Mm]y|[Oo]ur)\s+(?:(?:" + L.REL_MODIFIERS +
    r")[\s-]+)*|(?P<bare>(?=(?-i:Mum|Mom|Dad|Mam|Nan|Nana|Grandma|Grandpa|Granny|Grandad)\b)))"
    # a parent named as people call them, without "my": "Dad's having his knee op on the 25th"
    r"(?P<rel>" + _REL_ALT + r")(?:\s+(?P<name>[A-Z][a-z]+))?"
    r"(?:(?:" + AP + r"s|(?<=s)" + AP + r")\s+(?P<what>[a-z0-9][\w-]*(?:\s+[a-z][\w-]*){0,2}?))?"
    r"(?:\s+|(?=" + AP + r"s\s+(?:[a-z]+ing|got)\b))"
    r"(?P<verb>is|was|will\s+be|has|had|got|gets|" + AP + r"s\s+got|starts|started|retired|"
    r"graduates|graduated|"
    r"turns|turned|moves|moved|arrives|arrived|passed\s+away|died|flies|flew|leaves|left|"
    r"comes|came|is\s+getting|was\s+born|is\s+visiting|visited|is\s+having|" + AP +
    r"s\s+[a-z]+ing|had\s+(?:his|her|their)|"
    # any other deed said in the past: "my son broke his arm", "my daughter lost her first tooth"
    r"(?-i:[a-z]{2,}ed)|broke|lost|won|fell|took|went|began|bought|sold|ran|made|found|wrote|"
    r"drove|gave|caught|hurt|met|became|bit|threw|sang|swam|spent|quit|split|rang|woke|hit|"
    r"cut|shot|sent|built|"
    # several people: "my parents are visiting next weekend", "our kids start school on Monday"
    r"are\s+(?:getting|visiting|having|coming|moving|flying|going|off)|were|have|"
    r"start|get|graduate|move|arrive|fly|leave|come)\b", re.IGNORECASE)
_PLURAL_VERB = re.compile(r"(?:are|were|have|start|get|graduate|move|arrive|fly|leave|come)\b",
                          re.IGNORECASE)
_FUTURE_VERB = re.compile(r"^(?:is|are|will|has|have|['’]s\s+(?:[a-z]+ing|got)|starts|gets|graduates|"
                          r"turns|moves|arrives|flies|leaves|comes|start|get|graduate|move|arrive|"
                          r"fly|leave|come)\b", re.IGNORECASE)


def _org_after(text: str, pos: int) -> tuple[str, int]:
    value, end, conf = organisation(text, pos)
    return (value, end) if value and conf >= 0.9 else ("", pos)


# "Friday was my last day at Figma", "today is my last day at Globex": that job ends.
LAST_DAY = re.compile(r"\b(?:was|is|will\s+be)\s+my\s+(?:very\s+)?last\s+day\s+(?:at|with)\s+",
                      re.IGNORECASE)
# "I started at Canva on Monday": a new employer (a proper name only).
STARTED_AT = re.compile(r"\b(?P<subj>I)" + _AUX + r"\s+(?:started|began)\s+(?:at|with)\s+(?=[A-Z])")

# "my first few weeks at Figma": a new employer; "since leaving Shopify" beside it, the old one.
FIRST_STRETCH = re.compile(
    r"\bmy\s+first\s+(?:few\s+|couple\s+(?:of\s+)?|two\s+|three\s+)?(?:days?|weeks?|months?)"
    r"\s+(?:at|with)\s+(?=(?-i:[A-Z]))", re.IGNORECASE)
SINCE_LEAVING = re.compile(r"\b(?:since|after)\s+(?:leaving|quitting)\s+(?=(?-i:[A-Z]))",
                           re.IGNORECASE)
_JOB_WORD = re.compile(r"\b(?:jobs?|work(?:s|ed|ing)?|role|position|company|employer|hired|"
                       r"joined|boss)\b", re.IGNORECASE)
# "I don't work at Boston Scientific, I'm still at Medtronic" (with a word of work).
STILL_AT = re.compile(r"\b(?:I" + AP + r"m|I\s+am)\s+still\s+(?:at|with)\s+(?=(?-i:[A-Z]))")
# A job left and the next one, said in passing: "handed my notice in at Deloitte … starting at
# Monzo in November", "Left Google last month — I'm at Stripe now".
NOTICE = re.compile(r"\b(?:handed|handing|gave|giving|put|putting)\s+(?:in\s+)?my\s+notice\s+"
                    r"(?:in\s+)?(?:at|to|with)\s+(?=(?-i:[A-Z]))", re.IGNORECASE)
LEFT_ORG = re.compile(r"(?:\b(?:I|we)" + _AUX + r"\s+|" + P.SENTENCE_START + r")(?:left|quit)\s+"
                      r"(?=(?-i:[A-Z]))", re.IGNORECASE)
NEXT_ORG = re.compile(r"\b(?:starting|started|beginning|began)\s+(?:at|with)\s+(?=(?-i:[A-Z]))|"
                      r"\bI\s+(?:will\s+|'ll\s+)?(?:start|begin)\s+(?:at|with)\s+(?=(?-i:[A-Z]))",
                      re.IGNORECASE)
# "Left Google last month — I'm at Stripe now": the next employer, after a job left ("now" said).
NOW_AT = re.compile(r"\b(?:now\s+)?I(?:" + AP + r"m|\s+am)\s+(?:now\s+)?at\s+(?=(?-i:[A-Z]))",
                    re.IGNORECASE)
# "I'm not at Amazon, I'm at Ocado": a correction of the employer.
NOT_AT_BUT = re.compile(r"\bI(?:" + AP + r"m|\s+am)\s+not\s+(?:at|with)\s+(?=(?-i:[A-Z]))", re.I)
_BUT_AT = re.compile(r"\s*(?:[,;:]|[—–-]+)\s*(?:but\s+)?I(?:" + AP + r"m|\s+am)\s+(?:actually\s+)?"
                     r"(?:at|with)\s+(?=(?-i:[A-Z]))", re.I)
# "I start as a junior data analyst at the council next month": a role and its employer.
START_AS = re.compile(r"\b(?:start|started|starting|begin|began|beginning)\s+(?:work\s+|my\s+new\s+"
                      r"job\s+)?as\s+an?\s+(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)\s+(?:at|for|with)\s+",
                      re.I)
# "six months into the data analyst job": the role held now.
INTO_JOB = re.compile(r"\b(?:\d{1,2}|" + P._NUMW + r"|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|"
                      r"months?|years?)\s+into\s+(?:the|my)\s+(?:new\s+)?(?P<np>[a-z][\w-]*"
                      r"(?:\s+[a-z][\w-]*){0,2}?)\s+(?:job|role|position)\b", re.I)
# Words of travel: "Left Paris this morning, I'm at Heathrow now" is a journey, not a job.
_TRAVEL = (r"flights?|flew|plane|airport|train|station|landed|layover|hotel|trip|drive|drove|"
           r"terminal|gate|boarding")
_TRAVEL_WORD = re.compile(r"\b(?:" + _TRAVEL + r")\b", re.I)
_ON_THE_MOVE = re.compile(r"\b(?:" + _TRAVEL + r"|this\s+morning|tonight|today|yesterday)\b", re.I)
_CORRECTION = re.compile(r"\b(?:misspoke|mis-spoke|sorry|correction|typo|i\s+meant|i\s+mean|actually|"
                         r"got\s+that\s+wrong)\b", re.I)
# "Six years as a nurse at Mercy General and I'm so burnt out": a role held for a while, still
# held ("after six years as", "I spent six years as": over).
YEARS_AS = re.compile(r"\b(?P<n>\d{1,2}|" + P._NUMW + r"|a\s+few|several|many|a\s+couple\s+of)\s+"
                      r"(?:years?|months?)\s+(?:now\s+)?as\s+an?\s+(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*)"
                      r"{0,2}?)\s+(?:at|for|with)\s+(?=(?-i:[A-Z]))", re.IGNORECASE)
_YEARS_AS_OVER = re.compile(r"\b(?:after|spent|following|those|my|of|past|previous)\s+$",
                            re.IGNORECASE)
# "another 70 hour week at Deloitte", "night shifts at St Mary's": where the user works.
HOURS_AT = re.compile(r"\b(?:\d{1,2}|" + P._NUMW + r")[- ]hour\s+(?:weeks?|days?|shifts?)\s+at\s+"
                      r"(?=(?-i:[A-Z]))|\b(?:night|day|early|late|double|weekend)\s+shifts?\s+at\s+"
                      r"(?=(?-i:[A-Z]))", re.IGNORECASE)
# "GOT THE PROMOTION!!! senior designer from Monday": the role now held.
PROMOTED_ROLE = re.compile(
    r"\b(?P<role>(?:senior|junior|lead|head|principal|chief|staff|associate|assistant)\s+[a-z]+"
    r"(?:\s+[a-z]+)?)\s+(?:from|starting|as\s+of)\s+", re.IGNORECASE)
# "I teach chemistry at Westfield High": the employer and the occupation.
# "first week teaching 9th grade biology at Lincoln High", "I'm teaching year 5 at St Mary's".
TEACHING = re.compile(r"\b(?:I(?:" + AP + r"m|\s+am)\s+(?:now\s+)?|(?:I(?:" + AP + r"ve|\s+have)\s+)?"
                      r"been\s+|(?:first|second|third|last)\s+(?:day|week|month|term|year|semester)"
                      r"\s+(?:of\s+)?)teaching\s+(?P<what>[\w-]+(?:\s+[\w-]+){0,3}?)\s+at\s+"
                      r"(?=(?-i:[A-Z]))", re.IGNORECASE)
TEACH = re.compile(r"\b(?P<subj>I)(?:\s+(?:still|currently|now|also))*\s+teach\s+"
                   r"(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+at\s+(?=(?-i:[A-Z]))")


def _employer(s: Sentence, m: re.Match[str], org: str, end: int, *,
              left: bool = False) -> FactCandidate | None:
    return fact(s, "event" if left else "attribute", "works_at",
                f"User left their job at {org}." if left else f"User works at {org}.",
                m.start(), end, value=org, modality="negated" if left else "asserted",
                time=s.time_for(m.start(), end, s.clause_end(end)),
                roles=[user_role(), RoleRef("employer", org, "organization")])


def _employers_after(s: Sentence, rx: re.Pattern[str], *,
                     left: bool = False) -> list[FactCandidate | None]:
    """The employer named after each unhedged match of `rx` (left, with `left`)."""
    out: list[FactCandidate | None] = []
    for m in rx.finditer(s.text):
        org, end = _org_after(s.text, m.end())
        if org and not s.hedged(m.start()) and not P.TIME_NAME.match(org):
            out.append(_employer(s, m, org, end, left=left))
    return out


def _role(s: Sentence, m: re.Match[str], *, with_time: bool) -> FactCandidate | None:
    """The occupation a match's `np` names ("six years as a nurse", "start as a junior data
    analyst"), if its head is an occupation and the clause is not hedged."""
    np = clean(m.group("np"))
    if s.hedged(m.start()) or not np or np.lower().split()[-1] not in L.OCCUPATIONS:
        return None
    time = s.time_for(m.start(), m.end(), s.clause_end(m.end())) if with_time else None
    return fact(s, "attribute", "occupation", f"User is {article(np)} {np}.", m.start(),
                m.end("np"), value=np, time=time,
                roles=[user_role(), RoleRef("object", np, "other")])


def _now_said(text: str, m: re.Match[str]) -> bool:
    """"now" with "I'm at X": before it ("now I'm at", "I'm now at") or right after the name."""
    if "now" in m.group(0).lower():
        return True
    org, end = _org_after(text, m.end())
    return bool(org) and re.match(r"\s+now\b", text[end:]) is not None


def job_mentions(s: Sentence, before: str = "") -> list[FactCandidate]:
    """Employers said in passing: "my first weeks at Figma since leaving Shopify", "I teach
    chemistry at Westfield High"."""
    text = s.text
    out: list[FactCandidate | None] = []
    leaving = SINCE_LEAVING.search(text)
    first = [m for m in FIRST_STRETCH.finditer(text) if not s.hedged(m.start())
             and (leaving or _JOB_WORD.search(text))]  # not "my first week at Camp Wonder"
    for m in first:
        new, end = _org_after(text, m.end())
        if new and not P.TIME_NAME.match(new):
            out.append(_employer(s, m, new, end))
    if first or _JOB_WORD.search(text):
        out += _employers_after(s, STILL_AT)
        out += _employers_after(s, SINCE_LEAVING, left=True)
    left = [m for m in (*NOTICE.finditer(text), *LEFT_ORG.finditer(text))
            if not s.hedged(m.start())]
    left_before = bool(NOTICE.search(before) or LEFT_ORG.search(before))  # the sentence before
    now_at = [m for m in NOW_AT.finditer(text) if _now_said(text, m)
              and not _ON_THE_MOVE.search(before[-200:] + " " + text)]
    for m in left:
        old, end = _org_after(text, m.end())
        nxt = NEXT_ORG.search(text, end) or next((n for n in now_at if n.start() >= end), None)
        if old and (nxt or NOTICE.match(text, m.start())) and not P.TIME_NAME.match(old):
            out.append(_employer(s, m, old, end, left=True))
    if left or left_before or _JOB_WORD.search(text):
        out += _employers_after(s, NEXT_ORG)
    if left or left_before and (_JOB_WORD.search(text) or _JOB_WORD.search(before)):
        for m in now_at:
            new, end = _org_after(text, m.end())
            if new and not s.hedged(m.start()) and not P.TIME_NAME.match(new):
                out.append(_employer(s, m, new, end))
    for m in YEARS_AS.finditer(text):
        org, end = _org_after(text, m.end())
        if org and not _YEARS_AS_OVER.search(text, 0, m.start()) and (
                role := _role(s, m, with_time=False)):
            out += [role, _employer(s, m, org, end)]
    out += _employers_after(s, HOURS_AT)
    for m in NOT_AT_BUT.finditer(text):
        old, end = _org_after(text, m.end())
        but = _BUT_AT.match(text, end) if old else None
        new, new_end = _org_after(text, but.end()) if but else ("", end)
        if (new and new.lower() != old.lower() and not _TRAVEL_WORD.search(text)
                and (_CORRECTION.search(before[-200:] + " " + text) or _JOB_WORD.search(text)
                     or _JOB_WORD.search(before))):
            out.append(_employer(s, m, old, end, left=True))
            out.append(_employer(s, m, new, new_end))
    for rx in (START_AS, INTO_JOB):
        for m in rx.finditer(text):
            if not (role := _role(s, m, with_time=True)):
                continue
            out.append(role)
            org, end = _org_after(text, m.end()) if rx is START_AS else ("", 0)
            if org:
                out.append(_employer(s, m, org, end))
    if "promot" in (before[-120:] + text).lower():  # "GOT THE PROMOTION!!! senior designer …"
        for m in PROMOTED_ROLE.finditer(text):
            title = clean(m.group("role")).lower()
            if not vague(title) and not s.hedged(m.start()):
                out.append(fact(s, "attribute", "occupation", f"User is now a {title}.",
                                m.start(), m.end("role"), value=title,
                                time=s.time_for(m.start(), m.end(), s.clause_end(m.end())),
                                roles=[user_role()]))
    for m in (*TEACH.finditer(text), *TEACHING.finditer(text)):
        org, end = _org_after(text, m.end())
        if not org or s.hedged(m.start()):
            continue
        out.append(_employer(s, m, org, end))
        what = clean(m.group("what"))
        if not vague(what):
            out.append(fact(s, "attribute", "occupation", f"User is a {what} teacher.",
                            m.start(), m.end("what"), value=f"{what} teacher",
                            roles=[user_role()]))
    return [f for f in out if f]


def job_changes(s: Sentence) -> list[FactCandidate]:
    """"I left Initech and joined Hooli", "quit my job at Globex and started at Umbrella": the
    old employer ends and the new one begins."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in JOB_LEFT.finditer(text):
        if s.hedged(m.start()):
            continue
        pos = m.end()
        job = re.compile(r"my\s+(?:job|position|role)\s+(?:at|with)\s+", re.I).match(text, pos)
        old, old_end = _org_after(text, job.end() if job else pos)
        if not old:
            continue
        new_m = JOB_NEW.search(text, old_end, s.clause_end(old_end) + 80)
        if not new_m or P.BOUNDARY.search(text, old_end, new_m.start()) and not re.match(
                r"\s*(?:,\s*)?(?:and|then|to|before|so)\b", text[old_end:new_m.start() + 4], re.I):
            continue
        new, new_end = _org_after(text, new_m.end())
        if not new or new.lower() == old.lower():
            continue
        time = s.time_for(m.start(), new_end, s.clause_end(new_end))
        if not job:
            out.append(fact(s, "event", "works_at", f"User left their job at {old}.", m.start(),
                            old_end, value=old, modality="negated", time=time,
                            roles=[user_role(), RoleRef("employer", old, "organization")]))
        out.append(fact(s, "attribute", "works_at", f"User works at {new}.", new_m.start() + 0,
                        new_end, value=new, time=time,
                        roles=[user_role(), RoleRef("employer", new, "organization")]))
    for m in LAST_DAY.finditer(text):
        old, old_end = _org_after(text, m.end())
        if old and not s.hedged(m.start()):
            out.append(fact(s, "event", "works_at", f"User left their job at {old}.", m.start(),
                            old_end, value=old, modality="negated",
                            time=s.time_for(m.start(), old_end, s.clause_end(old_end)),
                            roles=[user_role(), RoleRef("employer", old, "organization")]))
    for m in STARTED_AT.finditer(text):
        new, new_end = _org_after(text, m.end())
        if new and not s.hedged(m.start()) and not P.TIME_NAME.match(new):
            out.append(fact(s, "attribute", "works_at", f"User works at {new}.", m.start(),
                            new_end, value=new,
                            time=s.time_for(m.start(), new_end, s.clause_end(new_end)),
                            roles=[user_role(), RoleRef("employer", new, "organization")]))
    return [f for f in out if f]


def _said_of_user(text: str, m: re.Match[str]) -> bool:
    """The clause is about the user: "we … are renting in X", not "my sister is renting"."""
    if re.match(r"(?i:my|our|home|I|we)\b", m.group(0)):
        return True
    subjects = list(_SUBJECTS.finditer(text, 0, m.start()))
    return bool(subjects) and subjects[-1].group(0).lower() in ("i", "we")


def homes(s: Sentence, so_far: Sequence[FactCandidate] = ()) -> list[FactCandidate]:
    """Where the user lives, said indirectly: renting / settled / "our new place is in" / "home
    is"; and the home given up ("sold the house in Portland")."""
    text = s.text
    out: list[FactCandidate | None] = []
    rules = [(LIVES, "asserted"), (LEFT_HOME, "negated"), (LEFT_NAMED_HOME, "negated"),
             (SUBJECTLESS_HOME, "asserted")]
    if _MOVING.search(text):
        rules.append((NOW_IN, "asserted"))
    for rx, modality in rules:
        for m in rx.finditer(text):
            said_bare = rx is SUBJECTLESS_HOME or (  # "Finally sold the Bristol place!"
                rx in (LEFT_HOME, LEFT_NAMED_HOME) and not text[:m.start()].strip())
            if s.hedged(m.start()) or (not said_bare and not _said_of_user(text, m)):
                continue
            found = proper_name(text, m.end())
            if not found:
                continue
            value, end = clean(found[0]), found[1]
            if rx is SUBJECTLESS_HOME and _GERUND_SUBJECT.match(text, end):
                continue  # "Living in London is expensive": a remark, not the user's home
            if modality == "asserted" and _PAST_AFTER.match(text, end):
                continue  # "my roommate in Boston was a nightmare": a home of the past
            if not value or value.lower() in L.GENERIC_ORGS or P.PROPER_TIME.fullmatch(value) \
                    or P.DATE_WORD.fullmatch(value):
                continue  # "my new apartment in March": a date, not a place
            if rx is LEFT_NAMED_HOME:
                noun = _HOME_NOUN_AFTER.match(text, end)
                end = noun.end() if noun else end
            elif modality == "negated" and m.group(0).lower().startswith(("my", "our")):
                sold = re.compile(r"\s+\w+\s+(?:is\s+|has\s+|got\s+)?sold", re.I).match(
                    text, end)
                end = sold.end() if sold else end
            time = s.time_for(m.start(), end, s.clause_end(end))
            sentence = f"User lives in {value}." if modality == "asserted" else \
                f"User no longer lives in {value}."
            out.append(fact(s, "attribute", "lives_in", sentence, m.start(), end, value=value,
                            modality=modality, time=time,
                            roles=[user_role(), RoleRef("location", value, "place")]))
    # "we sold our house in Bath" names the home it gives up: no home asserted by it; and a
    # sentence that already says where the user lives ("living in Tokyo … my apartment in
    # Kichijoji") names a part of that place, not a second home
    given_up = {f.value for f in out if f and f.modality == "negated"}
    said = any(f.predicate == "lives_in" and f.modality == "asserted" for f in so_far)
    return [f for f in out if f and not (f.modality == "asserted" and (
        f.value in given_up or said))]


def cancellations(s: Sentence) -> list[FactCandidate]:
    """Plans called off: "we cancelled our Iceland trip", "our Ohio trip got cancelled"."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in CANCEL.finditer(text):
        if s.hedged(m.start()):
            continue
        if m.group("nobj"):
            raw, end = m.group("nobj"), m.end("nobj")
        elif m.group("pobj"):
            raw, end = m.group("pobj"), m.end()
        else:
            os = m.start("obj")
            end = bounded(text, os, 6)
            raw = text[os:end]
            cut = P.VALUE_TAIL.search(raw)
            raw = raw[:cut.start()] if cut else raw
            end = os + len(raw)
        value = clean(raw)
        if vague(value) or P.PRONOUN_START.match(value):
            continue
        time = s.time_for(m.start(), end, s.clause_end(end))
        out.append(fact(s, "event", "cancelled", f"User cancelled {display(value)}.", m.start(),
                        end, value=value, time=time,
                        roles=[user_role(), RoleRef("object", value, "other")]))
    return [f for f in out if f]


def _dated(s: Sentence, m: re.Match[str]) -> tuple[TimeHit, int] | None:
    """The time said with an event match (in its clause, or just after it) and where the
    event's words end, or None when no time is said."""
    end = s.clause_end(m.end())
    time = next((t for t in s.times() if m.end() <= t[1] and t[0] < end + 40), None)
    return (time, max(end, time[1])) if time else None


def third_party(s: Sentence) -> list[FactCandidate]:
    """Other people's dated events: "my cousin's graduation is on 3 May 2025 in Leeds"."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in THIRD_PARTY.finditer(text):
        start = m.start("pos") if m.group("pos") else m.start("rel")
        dated = _dated(s, m)
        if s.hedged(start) or dated is None:
            continue
        time, end = dated
        if m.group("verb").lower() in L.NOT_A_DEED:
            continue
        rel, name = m.group("rel").lower(), m.group("name")
        if _PLURAL_VERB.match(m.group("verb")) and (rel not in L.GROUP_RELATIONS
                                                    or m.group("what")):
            continue  # "my mom's friends were raving …": not the relative's own event
        who = f"{rel} {name}" if name else rel
        said = display(text[start:end]).rstrip(".")
        said = re.sub(r"^(?:their)\s+", "", said, flags=re.I)
        planned = bool(_FUTURE_VERB.match(m.group("verb")))
        f = fact(s, "event", f"{_PEOPLE[rel]}_event", f"User's {said}.", start, end,
                 value=re.sub(r"^(?:\s+[A-Z][a-z]+)?['’]s?\B|^(?:\s+[A-Z][a-z]+)?['’]s\b|^\s+", "",
                              text[m.end("rel"):end]).strip()
                 or None,
                 modality="planned" if planned else "asserted", subject=who,
                 roles=[RoleRef("subject", name or rel, "person")], time=time)
        if f:
            f.text = f"User's {said}."  # the date is already in the words
            out.append(f)
    return [f for f in out if f]


# "Jess had her baby yesterday", "Priya's wedding has been moved to the 10th of May": a named
# person's dated event (the name said as the sentence's subject, a time said with it).
NAMED_EVENT = re.compile(
    r"(?:^|(?<=[.!?]\s)|(?<=,\s)|(?<=\band\s)|(?<=\bomg\s)|(?<=\bso\s))(?P<name>(?-i:[A-Z][a-z]+))"
    r"(?:" + AP + r"s\s+(?P<what>wedding|birthday|graduation|funeral|surgery|operation|op|"
    r"baby\s+shower|due\s+date|hen\s+do|stag\s+do|party|retirement\s+party)\b|\s+(?P<verb>had\s+"
    r"(?:her|his|their)\s+baby|is\s+getting\s+married|got\s+married|got\s+engaged|is\s+due|"
    r"gave\s+birth|passed\s+away|graduates|graduated|is\s+having\s+(?:her|his|their)\s+[a-z]+)\b)",
    re.IGNORECASE)
# "has been moved to the 10th of May", "got pushed back to June": the new day is ahead
_RESCHEDULED = re.compile(
    r"\b(?:(?:has|have|had)\s+been|got|was|were|is\s+being|(?:has|have)\s+(?:now\s+)?)\s*"
    r"(?:moved|postponed|pushed(?:\s+back)?|put\s+back|rescheduled|changed|brought\s+forward|"
    r"shifted|delayed)\s+(?:again\s+)?(?:to|till|until|for)\b", re.IGNORECASE)
_NOT_A_NAME = frozenset("""the this that it we i my our so but and just today yesterday tomorrow
monday tuesday wednesday thursday friday saturday sunday january february march april may june
july august september october november december there here everyone someone nobody anyway
also then now well oh omg ok okay guess what""".split())


def named_events(s: Sentence) -> list[FactCandidate]:
    """A named person's dated event: "Jess had her baby yesterday", "Priya's wedding is on the 10th
    of May" (a time said with it, or nothing is kept)."""
    text = s.text
    out: list[FactCandidate | None] = []
    for m in NAMED_EVENT.finditer(text):
        name = m.group("name")
        dated = _dated(s, m)
        if name.lower() in _NOT_A_NAME or s.hedged(m.start()) or dated is None:
            continue
        time, end = dated
        said = display(text[m.start():end]).rstrip(".")
        verb = (m.group("verb") or "").lower()
        planned = verb.startswith(("is ", "graduates")) or bool(
            m.group("what") and (re.search(r"\b(?:is|will|'s\s+going)\b", text[m.end():end])
                                 or _RESCHEDULED.search(text, m.end(), end)))
        f = fact(s, "event", "person_event", f"{said}.", m.start(), end,
                 value=re.sub(r"^['’]s\s+", "", text[m.end("name"):end].strip()) or None,
                 modality="planned" if planned else "asserted", subject=name,
                 roles=[RoleRef("subject", name, "person")], time=time)
        if f:
            f.text = f"{said}."
            out.append(f)
    return [f for f in out if f]


def prefilter_job(text: str) -> bool:
    """"Six years as a nurse at Mercy General", "three weeks into the new paralegal job",
    "starting as a staff nurse at the Royal Free": a role said without a first-person word."""
    return bool(YEARS_AS.search(text) or INTO_JOB.search(text) or START_AS.search(text)
                or TEACHING.search(text))


def prefilter_home(text: str) -> bool:
    """"Home is Nashville now" says where the user lives without a first-person word."""
    return bool(re.search(r"\b[Hh]ome\s+is\s+(?:now\s+)?[A-Z]", text) or
                SUBJECTLESS_HOME.search(text))
