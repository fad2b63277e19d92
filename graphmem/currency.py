"""Currency: which facts of a slot are current, which were superseded, and their validity intervals.

A slot is what facts compete for: (subject, predicate) for single-valued predicates such as
`lives_in`, or (subject, preference, value) for stances such as liking spicy food. The whole
history of a slot is re-decided from its facts every time one arrives, sorted by effective time
(occurrence when known, else mention), so ingesting sessions in any order ends in the same state.
Nothing is deleted: losers are closed (`valid_until`) and linked by SUPERSEDES / UPDATES /
CONTRADICTS edges from the newer fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, tzinfo
from typing import Any

from . import predicates as P
from .entities import normalise_name
from .errors import OutOfBounds
from .models import FAMILY_COUNTS, STUDENT_HEADS
from .plan_keys import PLAN_STOP_WORDS
from .plan_keys import plan_key as plan_key  # re-exported: callers read a plan's key here
from .store import currency as store
from .store.currency import FavoriteValue, HeldFact, SlotFactRecord
from .store.time import utc_native  # noqa: F401 - re-exported for older callers
from .timestamps import read_time_zone

# How each predicate's facts compete and the slot a fact competes in live in graphmem.slots;
# re-exported here for the callers that import them from currency.
from .slots import (  # isort: skip
    ACTIVITY_PREFIX as ACTIVITY_PREFIX,
    COMPETING_MODALITIES as COMPETING_MODALITIES,
    PLAN_OUTCOMES as PLAN_OUTCOMES,
    PLAN_PREDICATES as PLAN_PREDICATES,
    QUANTITY_PREFIXES as QUANTITY_PREFIXES,
    SINGLE_VALUED as SINGLE_VALUED,
    SINGLE_VALUED_PREFIXES as SINGLE_VALUED_PREFIXES,
    STANCE as STANCE,
    TIED_TO as TIED_TO,
    VALUE_KEYED as VALUE_KEYED,
    VALUE_KEYED_PREFIXES as VALUE_KEYED_PREFIXES,
    is_plan as is_plan,
    slot_key as slot_key,
)

_TIE_SLOTS = {**TIED_TO, **{v: k for k, v in TIED_TO.items()}}
_RETRACTION = re.compile(
    r"\b(?:actually|in fact|correction|i misspoke|never said|that'?s (?:not right|wrong)|"
    r"was wrong|not true|scratch that)\b", re.IGNORECASE)
_NEVER = datetime.min.replace(tzinfo=UTC)  # a fact whose session's write time is unknown sorts first
_RELATIVE = re.compile(r"^([+-])(\d+)$")


@dataclass(frozen=True)
class SlotFact(SlotFactRecord):
    """A stored fact of a slot (its fields read by `store.currency`), with what the rules ask
    of it."""

    @property
    def effective(self) -> datetime:
        """When it took effect, as a state's history orders it: its occurrence, except that a
        time which only names a period holding the moment it was said is that moment: "as of
        today I work at Uber" is not that midnight, and "Idles have replaced AM as my favourite
        band this year", said in June, is no change on 1 January — the year holds what was said
        earlier in it ("AM is my favourite", in March), and the period does not tell whether the
        change came before or after that. Said in June, the change is known from June."""
        start, end = self.occurred_start, self.occurred_end
        # the end is the first moment after the period ("yesterday" ends at today's midnight); a
        # period that ends at the moment said ("recently", "for the past three years") tells
        # when it began, and keeps that start
        if start is not None and start <= self.mentioned_at and end is not None \
                and self.mentioned_at < end:
            return self.mentioned_at
        return self.earliest

    @property
    def earliest(self) -> datetime:
        """The earliest it may have happened, as a plan's outcome is judged by it: its
        occurrence's start ("recently": a month before it was said), or the moment it was said
        when its time names only that day. An outcome that may have come before the plan was
        made fulfils nothing, so a period reaching back before the plan closes none."""
        start = self.occurred_start
        if start is None or (start.date() == self.mentioned_at.date()
                             and start <= self.mentioned_at):
            return self.mentioned_at
        return start

    def said_order(self) -> tuple[datetime, int, int, int, str, str, str]:
        """Order among facts mentioned at the same time: the session heard first, then the
        turn, then the place in the turn: where the statement starts, then where it ends (two
        values read from one clause, "my new favourite is this tiny Thai spot … called Kru":
        the one said last comes last), then what it says. The fact id only last: it is made
        from the user's id, so an order it decided would differ from user to user."""
        return (self.heard_at or _NEVER, self.turn_idx, self.span_start, self.span_end,
                self.predicate, self.value or "", self.id)

    @property
    def is_commitment(self) -> bool:
        """An outcome said of something still ahead ("I've signed up for the Chicago marathon in
        October"): it fulfils the plans before it, and is itself a plan for what follows — a later
        outcome of the same thing ("had to pull out of Chicago", "ran it") closes it as it closes
        a plan."""
        entry = P.lookup(self.predicate)
        return (self.modality == "asserted" and not self.mention and entry is not None
                and entry.closes_plan and entry.time_ahead
                and self.earliest.date() > self.mentioned_at.date())

    def holds_ahead(self) -> bool:
        """A plan or a commitment: what a later outcome of the same thing closes. Not one whose
        own time lies wholly before it was said: "graduating from UCLA in 2020", "attending a
        music festival last month" read as planned is a reading its time contradicts, and a
        later mention of the same thing fulfils nothing (rounds 62 and 64 of
        docs/currency_audit.jsonl: 3 wrong edges gone on chats no round had read before 57, and
        1 right one on the chats read since round 1, where the time was the booking's — "booked
        a flight ticket last week … my upcoming trip to Boston"). It stays as it is, closing
        nothing and closed by nothing."""
        # (a period ending at the moment said — "lately", "for the past two years" — reaches it)
        if self.occurred_end is not None and self.occurred_end < self.mentioned_at:
            return False
        return is_plan(self.predicate, self.modality) or self.is_commitment

    @property
    def is_quantity(self) -> bool:
        return self.predicate.startswith(QUANTITY_PREFIXES)

    def thing(self) -> str:
        """What the fact is about within its slot: the value, or nothing for a stance or an
        activity (their slot names the thing; the value only says it in the user's words)."""
        if self.predicate in STANCE or self.predicate.startswith(ACTIVITY_PREFIX):
            return ""
        return normalise_name(self.value or "")

    def state(self) -> str:
        """What the fact says holds: comparable across the facts of one slot."""
        if self.predicate in STANCE:
            sign = STANCE[self.predicate]
            if self.modality == "negated":
                sign = "-" if sign == "+" else "+"
            return sign
        if self.predicate.startswith(ACTIVITY_PREFIX):
            # The slot names the activity; the value only says it in the user's words ("the
            # nightly journal thing"): doing it or not is the whole state.
            return "-" if self.modality == "negated" else "+"
        return f"not:{self.thing()}" if self.modality == "negated" else self.thing()


@dataclass
class FactDecision:
    id: str
    status: str  # active | superseded | invalid
    valid_from: datetime
    valid_until: datetime | None = None
    quantity: float | None = None


@dataclass
class Link:
    source: str  # the newer fact
    target: str  # the fact it supersedes / updates / contradicts
    type: str  # SUPERSEDES | UPDATES | CONTRADICTS
    at: datetime


@dataclass
class SlotDecision:
    facts: list[FactDecision] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)


def _asserted_state(fact: SlotFact) -> str:
    """The state a retraction takes back: "not Portland" retracts "Portland"."""
    return SlotFact(fact.id, fact.predicate, fact.value, "asserted", fact.mentioned_at).state()


def _denies_another_value(old: SlotFact, new: SlotFact) -> bool:
    """A denial of one value ended by another value asserted. Answered, not another value: a
    denial of no value ("quit my job" denies every employer), a stance or an activity (one
    thing in the slot), a count, and a value that names the denied one's words or the reverse
    ("not Portland", then "Portland, OR")."""
    if (old.modality != "negated" or new.modality != "asserted" or old.is_quantity
            or new.is_quantity or _asserted_state(old) == new.state()):
        return False
    denied, said = (set(normalise_name(f.value or "").split()) for f in (old, new))
    return bool(denied) and bool(said) and not (denied <= said or said <= denied)


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _retract(ordered: list[SlotFact], decisions: dict[str, FactDecision],
             out: SlotDecision) -> set[str]:
    """Each retraction makes invalid the latest asserted fact of its state before it (a
    CONTRADICTS edge); the ids of the facts retracted."""
    retracted: set[str] = set()
    for i, fact in enumerate(ordered):
        if not (fact.retraction and fact.modality == "negated"):
            continue
        target = next((f for f in reversed(ordered[:i]) if f.modality == "asserted"
                       and f.id not in retracted and f.state() == _asserted_state(fact)), None)
        if target is not None:
            retracted.add(target.id)
            t = decisions[target.id]
            t.status, t.valid_until = "invalid", t.valid_from
            out.links.append(Link(fact.id, target.id, "CONTRADICTS", fact.effective))
    return retracted


def _leaves_head_alone(fact: SlotFact, head: SlotFact, d: FactDecision,
                       head_d: FactDecision) -> bool:
    """A later fact that says nothing about the value the slot holds now."""
    if (fact.modality == "negated" and fact.value
            and not fact.is_quantity and fact.predicate not in STANCE
            and not fact.predicate.startswith(ACTIVITY_PREFIX)
            and normalise_name(fact.value) != normalise_name(head.value or "")):
        # "I left Acme" says nothing about the current value "Boeing", nor about an earlier
        # "I left Boeing": two values denied do not contradict each other
        return True
    # a tally of deeds only grows: "two courses on edX" after "three on Coursera"
    return (fact.is_quantity and fact.predicate.startswith("count:")
            and fact.predicate not in FAMILY_COUNTS and not _RELATIVE.match(fact.value or "")
            and d.quantity is not None and head_d.quantity is not None
            and d.quantity < head_d.quantity)


def decide_slot(facts: list[SlotFact]) -> SlotDecision:
    """Re-decide a whole slot. Deterministic in the set of facts, whatever their arrival order."""
    ordered = sorted(facts, key=lambda f: (f.effective, f.mentioned_at, *f.said_order()))
    walk = _SlotWalk(ordered)
    # Retractions first: the retracted fact never held, so it leaves the chain entirely.
    retracted = _retract(ordered, walk.decisions, walk.out)
    for fact in ordered:
        if fact.id not in retracted and not fact.retraction:
            walk.step(fact)
    walk.out.facts = [walk.decisions[f.id] for f in ordered]
    return walk.out


class _SlotWalk:
    """A slot's facts walked in time order: the facts whose (shared) state holds now, the
    mentions of another state still open, and what each fact's arrival ends."""

    def __init__(self, ordered: list[SlotFact]) -> None:
        self.out = SlotDecision()
        self.decisions = {f.id: FactDecision(f.id, "active", f.effective) for f in ordered}
        self.current: list[SlotFact] = []  # the facts whose (shared) state holds now
        self.waiting: list[SlotFact] = []  # mentions of another state, open until a fact ends them
        # denials of a value the slot did not hold ("left Acme" while at Boeing): they stand until
        # that value is asserted again
        self.denials: list[SlotFact] = []
        self.quantity: float | None = None

    def end(self, old_fact: SlotFact, fact: SlotFact, kind: str) -> None:
        old = self.decisions[old_fact.id]
        old.status, old.valid_until = "superseded", fact.effective
        # A mention leaves the current facts without an edge: on real chats it is too often a
        # misreading (a word of a pasted prompt) for its end to be a change the user made. So
        # does a denial ended by another value ("left Acme", then "I work at Boeing"): it leaves
        # the slot's state, but Boeing tells nothing of Acme (as "left Acme" tells nothing of a
        # Boeing held: `_leaves_head_alone`), and that Acme ended is the denial's own edge. On
        # real chats 11 of the 12 such edges judged were wrong (a value misread as denied: a
        # pasted article's city, a shop read as an employer).
        if not old_fact.mention and not _denies_another_value(old_fact, fact):
            self.out.links.append(Link(fact.id, old_fact.id, kind, fact.effective))

    def step(self, fact: SlotFact) -> None:
        d = self.decisions[fact.id]
        if fact.is_quantity:
            rel = _RELATIVE.match(fact.value or "")
            step = float(rel.group(2)) * (1 if rel.group(1) == "+" else -1) if rel else 0.0
            d.quantity = max(0.0, (self.quantity or 0) + step) if rel else _number(fact.value)
        if not self.current:
            self.current, self.quantity = [fact], d.quantity
            return
        if self._told_with_current(fact):
            self.current.append(fact)  # one telling with the current facts: none ends another
            return
        head = self.current[-1]
        if _leaves_head_alone(fact, head, d, self.decisions[head.id]):
            if fact.modality == "negated" and not fact.is_quantity:
                self.denials.append(fact)
                if not fact.mention:
                    # "I left Acme" ends a mention of Acme that is still open
                    for m in [m for m in self.waiting if m.state() == _asserted_state(fact)]:
                        self.end(m, fact, "SUPERSEDES")
                        self.waiting.remove(m)
            return
        # (a telling holds both states of its thing: a fact of either is of the current state)
        same_state = (d.quantity == self.decisions[head.id].quantity) if fact.is_quantity else (
            fact.state() in {c.state() for c in self.current})
        if same_state:
            self.current.append(fact)  # a reaffirmation: it holds together with the earlier ones
            if not fact.mention and not fact.is_quantity:
                # it settles a telling that said its thing both ways: the other state ends
                for other in [c for c in self.current if c.state() != fact.state()]:
                    self.end(other, fact, "SUPERSEDES")
                    self.current.remove(other)
        elif fact.mention:
            self.waiting.append(fact)  # read in passing: it replaces nothing
        else:
            self.replace(fact, head, d)

    def _told_with_current(self, fact: SlotFact) -> bool:
        """One thing asserted and denied at one moment (one turn, or one session whose turns
        share its time), none of it with a time of its own, the learned model reading one side,
        is one telling: no order in time says that one state followed the other, and on real
        chats such an "end" was nearly always a denial the model misread in a statement of the
        same state — "never lost my passion for music", "I used to listen to music passively"
        (docs/currency_audit.jsonl: 4 of 37 same-session edges right in rounds 1–56, 0–4 of 14
        in rounds 57–58; this rule removes the 3 of those 14 it covers, all wrong; the rest are
        states brought by events with times of their own, or rules' readings, which it leaves).
        Both hold; a later fact ends them. The thing is the value,
        or the slot itself for a stance or an activity. A rule's denial ("Oh wait, it's tree
        nuts, peanuts are fine"), two assertions ("I love olives. Hmm, to be honest I hate
        olives.") and another value said with a denial ("quit Acme and started at Boeing") are
        ordered as before, as is a fact of the side the model's reading agrees with. One
        moment is one `mentioned_at` of one session heard (`heard_at`); mentions and counts
        take no part (a mention among the current facts is left as it is)."""
        if fact.is_quantity or fact.mention or fact.occurred_start is not None \
                or fact.modality not in ("asserted", "negated"):
            return False
        # the model reads one side of an assertion and a denial (not a fact of the same side);
        # mentions read in passing among the current facts neither make nor bar a telling
        said = [c for c in self.current if not c.mention]
        opposed = any(c.modality != fact.modality and (c.by_model or fact.by_model)
                      for c in said)
        return opposed and all(
            c.mentioned_at == fact.mentioned_at and c.heard_at == fact.heard_at
            and c.occurred_start is None and not c.is_quantity
            and c.modality in ("asserted", "negated") and c.thing() == fact.thing()
            for c in said)

    def replace(self, fact: SlotFact, head: SlotFact, d: FactDecision) -> None:
        """`fact` says another state holds now: the current facts end, and the open mentions
        either said it (they hold with it) or end too."""
        # Two different values asserted for the same moment: no order settles it. (Against a
        # telling that holds both states of its thing, its assertion is the one to compare.)
        if len({c.state() for c in self.current}) > 1:
            head = next((c for c in reversed(self.current) if c.modality == "asserted"), head)
        simultaneous = (fact.effective == head.effective and fact.occurred_start is None
                        and head.occurred_start is None
                        and fact.modality == head.modality == "asserted")
        kind = "CONTRADICTS" if simultaneous else "UPDATES" if fact.is_quantity else "SUPERSEDES"
        for old_fact in self.current:
            self.end(old_fact, fact, kind)
        self.current, self.quantity = [fact], d.quantity
        for m in self.waiting:
            if (self.decisions[m.id].quantity == d.quantity if fact.is_quantity
                    else m.state() == fact.state()):
                self.current.append(m)  # the mention said what now holds
            else:
                self.end(m, fact, "UPDATES" if fact.is_quantity else "SUPERSEDES")
        self.waiting = []
        # the value asserted again ends its denials ("left Boeing", then "back at Boeing")
        for n in [n for n in self.denials if _asserted_state(n) == fact.state()]:
            self.end(n, fact, "SUPERSEDES")
            self.denials.remove(n)


def decide_plan_slot(facts: list[SlotFact], zone: tzinfo | None = None) -> SlotDecision:
    """Plans hold from when they are made until an outcome about the same thing is mentioned
    after them and happened no earlier than the plan was made ("I've been to Chicago before",
    said with the plan, or "I did one two weeks ago" fulfil nothing; `_may_fulfil` says which
    outcomes with no time of their own count); outcomes are events and stay as they are.
    `zone`: the user's time zone, whose days `_may_fulfil` counts (None: UTC)."""
    ordered = sorted(facts, key=lambda f: (f.mentioned_at, *f.said_order()))
    out = SlotDecision()
    retold = _told_ahead(ordered)
    outcomes = [f for f in ordered if not is_plan(f.predicate, f.modality) and not f.mention]
    fulfilments = [f for f in outcomes if not f.is_commitment]  # what closes a commitment
    for fact in ordered:
        if not fact.holds_ahead():
            out.facts.append(FactDecision(fact.id, "active", fact.earliest))
            continue
        if fact.is_commitment:
            d = FactDecision(fact.id, "active", fact.earliest)
            _close_plan(fact, d, fulfilments, out, retold, zone)
        else:
            d = FactDecision(fact.id, "active", fact.mentioned_at)
            _close_plan(fact, d, outcomes, out, retold, zone)
        out.facts.append(d)
    return out


Said = tuple[datetime, datetime, int, int, int, str, str, str]  # (mentioned_at, *said_order())


def _told_ahead(facts: Iterable[SlotFact]) -> dict[str, Said]:
    """Each session that tells a plan of these facts as one ("planning", not "thinking of":
    `planned`, still ahead), with where it first does."""
    out: dict[str, Said] = {}
    for f in facts:
        if f.session_id and not f.mention and f.modality == "planned" and f.holds_ahead():
            said = (f.mentioned_at, *f.said_order())
            if f.session_id not in out or said < out[f.session_id]:
                out[f.session_id] = said
    return out


def _close_plan(plan: SlotFact, d: FactDecision, outcomes: list[SlotFact], out: SlotDecision,
                retold: dict[str, Said], zone: tzinfo | None) -> None:
    """Close the plan at the first of `outcomes` (in said order) mentioned after it that
    happened no earlier than the plan was made and may fulfil it (`_may_fulfil`)."""
    outcome = next((f for f in outcomes if f.mentioned_at > plan.mentioned_at
                    and f.earliest >= plan.mentioned_at
                    and _may_fulfil(plan, f, retold, zone)), None)
    if outcome is not None:
        d.status = "superseded"
        d.valid_until = max(min(outcome.earliest, outcome.mentioned_at), d.valid_from)
        _superseded_by(out.links, outcome.id, plan, d.valid_until)


def _superseded_by(links: list[Link], source: str, ended: SlotFact, at: datetime) -> None:
    """The SUPERSEDES edge from `source` to the fact it ended, unless that fact was read in
    passing (a mention, e.g. a model fact below its sure score) or only supposed (a
    `hypothetical` plan: "thinking of doing Lisbon in April", a Europe trip weighed up): either
    is ended without an edge, too uncertain for its end to be a change the user made. (The
    supposition is still closed by its outcome: "… back from Lisbon!" fulfils it in the
    scenario sets written apart, which lose a scenario each when it is not; but over every round
    of docs/currency_audit.jsonl, rules and model alike, 15 of the 16 such edges judged were
    wrong — a trip still ahead read as done, a visit from before — and 1 right, unclear.)"""
    if not (ended.mention or ended.modality == "hypothetical"):
        links.append(Link(source, ended.id, "SUPERSEDES", at))


def _may_fulfil(plan: SlotFact, outcome: SlotFact, retold: dict[str, Said],
                zone: tzinfo | None) -> bool:
    """An outcome with a time of its own is judged by that time. One with none happened at some
    moment before it was told, so it fulfils the plan only
    - when told on a later day (the user's) than the plan was made, or once the plan's own time
      has come: told the day the plan was made ("planning to try on both boots this weekend",
      then "I just got a new winter coat and boots"), it more likely came before the plan than
      after ("buying boots today", then "got them!" that evening, does fulfil it); and
    - not after the plan is told again earlier in its session (a session other than the plan's
      own): "I'm planning a trip to Chicago soon … I've been to Chicago before, for a funeral"
      says the trip is still ahead, so the visit is another occasion ("just got back from
      Hawaii, already planning the next trip" tells the new plan after the outcome: no block).
    Rounds 66 and 69 of docs/currency_audit.jsonl (the rules were written from those edges): on
    the LongMemEval chats no round had read before 57, 7 wrong edges and 2 right ones (both
    judged unclear) gone with the shipped weights, 7 and 2 with the candidate's; none of the
    chats read since round 1 (round 68)."""
    if outcome.occurred_start is not None:
        return True
    at = retold.get(outcome.session_id or "")
    if (at is not None and outcome.session_id != plan.session_id
            and at < (outcome.mentioned_at, *outcome.said_order())):
        return False
    return (_day(outcome.mentioned_at, zone) > _day(plan.mentioned_at, zone)
            or (plan.occurred_start is not None and plan.occurred_start <= outcome.mentioned_at))


def _day(at: datetime, zone: tzinfo | None) -> date:
    """The calendar day of `at` in the user's zone (UTC when none is set)."""
    return (at.astimezone(zone) if zone is not None else at).date()


def companion_slots(slots: list[str]) -> list[str]:
    """The slots plus those tied to them ("user|works_at" brings "user|occupation")."""
    out = dict.fromkeys(slots)
    for slot in slots:
        subject, _, predicate = slot.rpartition("|")
        if predicate in _TIE_SLOTS:
            out[f"{subject}|{_TIE_SLOTS[predicate]}"] = None
    return list(out)


def slots_with_companions(slots: list[str], favorites: Callable[[], list[FavoriteValue]],
                          family: Callable[[list[dict[str, str]]], list[str]],
                          plans: Callable[[list[str]], list[str]] | None = None) -> list[str]:
    """The slots to decide together with `slots`: their tied slots; for a plan slot, the plan
    slots of its thing's leading words and those (`plans(slots)`) whose thing it leads ("chicago"
    and "chicago marathon"); and where a stance or a favourite is among them, every favourite
    slot with its value's stance slot (`favorites()`: slot and value rows) and the stance slots
    sharing a head word (`family(pairs)`), so a favourite and a later dislike of it, or "dark
    chocolate" and "chocolate", are decided together whichever arrives first."""
    out = dict.fromkeys(companion_slots(slots))
    plan_slots = [s for s in out if "|plan|" in s]
    for slot in plan_slots:
        prefix, sep, thing = slot.partition("|plan|")
        words = thing.split()
        out.update(dict.fromkeys(f"{prefix}{sep}{' '.join(words[:n])}"
                                 for n in range(1, len(words))))
    if plans is not None and plan_slots:
        out.update(dict.fromkeys(plans(plan_slots)))
    if not any("|stance|" in s or "|favorite_" in s for s in out):
        return list(out)
    for fav in favorites():
        out[fav.slot] = None
        if fav.value:
            subject = fav.slot.split("|", 1)[0]
            out[f"{subject}|stance|{normalise_name(fav.value)}"] = None
    if pairs := stance_heads(list(out)):
        out.update(dict.fromkeys(family(pairs)))
    return list(out)


def stance_heads(slots: list[str]) -> list[dict[str, str]]:
    """For each stance slot, its prefix and the last word of its value: the family of values
    sharing that head ("dark chocolate", "chocolate")."""
    out: dict[tuple[str, str], None] = {}
    for slot in slots:
        prefix, sep, value = slot.partition("|stance|")
        if sep and value.split():
            out[(prefix + sep, value.split()[-1])] = None
    return [{"prefix": p, "head": h} for p, h in out]


def _negative(facts: list[SlotFact], decided: dict[str, FactDecision]) -> list[SlotFact]:
    """The facts that take a stance against their value, and were not retracted."""
    return [f for f in facts if f.state() == "-" and not f.retraction and not f.mention
            and f.id in decided and decided[f.id].status != "invalid"]


def _end_at_first(fact: SlotFact, d: FactDecision, against: list[SlotFact],
                  total: SlotDecision) -> None:
    """Supersede a decided fact at the first of `against` that takes effect after it began,
    unless it had already ended by then; a mention is ended without an edge, as in its slot."""
    first = min((f for f in against if f.effective > d.valid_from), key=lambda f: f.effective,
                default=None)
    if first is None or (d.valid_until is not None and d.valid_until <= first.effective):
        return
    d.status, d.valid_until = "superseded", first.effective
    _superseded_by(total.links, first.id, fact, first.effective)


def _general_stance_ends_specific(by_slot: dict[str, list[SlotFact]],
                                  total: SlotDecision) -> None:
    """Giving up the general thing ends liking a kind of it: "I love dark chocolate" (January),
    then "I've cut out chocolate" (March) — the liking of dark chocolate is superseded in March.
    Only a later negative stance on the value that is the specific one's head ends it; liking
    chocolate says nothing of dark chocolate, nor avoiding dark chocolate of chocolate."""
    decided = {d.id: d for d in total.facts}
    for general, facts_of_general in by_slot.items():
        prefix, sep, head = general.partition("|stance|")
        against = _negative(facts_of_general, decided) if sep and " " not in head else []
        if not against:
            continue
        for specific, facts in by_slot.items():
            if not specific.startswith(prefix + sep) or not specific.endswith(" " + head):
                continue
            for fact in facts:
                d = decided.get(fact.id)
                if d is not None and d.status != "invalid" and fact.state() == "+":
                    _end_at_first(fact, d, against, total)


def _end_disliked_favorites(by_slot: dict[str, list[SlotFact]], total: SlotDecision) -> None:
    """A favourite ends when its value is disliked later: "sushi is my favourite food" (January),
    then "I can't stand sushi anymore" (June) — the favourite is superseded in June, the dislike
    being the newer fact. A favourite said again after the dislike holds from then on."""
    decided = {d.id: d for d in total.facts}
    for slot, facts in by_slot.items():
        subject, _, predicate = slot.partition("|")
        if not predicate.startswith("favorite_"):
            continue
        for fav in facts:
            d = decided.get(fav.id)
            if d is None or fav.modality != "asserted" or not fav.value or d.status == "invalid":
                continue
            stance = by_slot.get(f"{subject}|stance|{normalise_name(fav.value)}", [])
            _end_at_first(fav, d, _negative(stance, decided), total)


def _plans_named_by_name_alone(by_slot: dict[str, list[SlotFact]], total: SlotDecision,
                               zone: tzinfo | None = None) -> None:
    """Once made, a plan is often named by its name alone: "signed up for the Chicago marathon",
    then "had to pull out of Chicago". An outcome in the slot of a thing closes the plans whose
    thing is that thing with more words after it ("chicago" → "chicago marathon"), as an outcome
    in their own slot would: the first one mentioned after the plan was made, in a later
    session, that happened no earlier. A longer thing's outcome closes no shorter plan: running
    the Chicago marathon says nothing of a trip to Chicago. Only a name counts, as the user wrote
    it (capitalised): "thinking of getting a shoe organizer" names no shoe rack planned before
    (a wrong edge of the audit of 2026-12-04); and only the name alone: an outcome that names
    something else too is about that ("binge-watching The Crown on Netflix" is no outcome of
    "contact Netflix customer support", a wrong edge of the audit of 2026-12-04)."""
    decided = {d.id: d for d in total.facts}
    for short, facts in by_slot.items():
        if "|plan|" not in short:
            continue
        thing = short.partition("|plan|")[2]
        outcomes = sorted((f for f in facts if not is_plan(f.predicate, f.modality)
                           and not f.mention and _names(f.value, thing)),
                          key=lambda f: (f.mentioned_at, *f.said_order()))
        if not outcomes:
            continue
        for long, plans in by_slot.items():
            if not long.startswith(short + " "):
                continue
            retold = _told_ahead([*facts, *plans])
            for plan in plans:
                d = decided.get(plan.id)
                if not plan.holds_ahead() or d is None or d.status != "active":
                    continue
                _close_plan(plan, d, [f for f in outcomes if not f.is_commitment]
                            if plan.is_commitment else outcomes, total, retold, zone)


def _names(value: str | None, thing: str) -> bool:
    """Whether `value` names `thing` and nothing else: each of its words there, capitalised, and
    no other name ("the" or a month may start a phrase: they name nothing)."""
    words = (w.strip(".,!?;:'’\"“”()[]") for w in (value or "").split())
    said = {normalise_name(w) for w in words if w[:1].isupper()}
    said -= PLAN_STOP_WORDS
    named = set(thing.split())
    return bool(named) and named <= said and said <= named


def _is_student(fact: SlotFact) -> bool:
    words = normalise_name(fact.value or "").split()
    return bool(words) and words[-1] in STUDENT_HEADS


def _chains(slot: str, facts: list[SlotFact]) -> list[list[SlotFact]]:
    """The facts of a slot that compete with each other. In the occupation slot, being a
    student and holding a job are two chains: people study and work at once ("I'm a student",
    said to ask for a concession fare, did not end a job in the edge audit)."""
    if not slot.endswith("|occupation"):
        return [facts]
    student = [f for f in facts if _is_student(f)]
    other = [f for f in facts if not _is_student(f)]
    return [c for c in (student, other) if c]


def decide_slots(by_slot: dict[str, list[SlotFact]], zone: tzinfo | None = None) -> SlotDecision:
    """Every slot decided, then tied facts closed with the fact they were said with. `zone`:
    the user's time zone (its days tell a plan's outcomes apart: `_may_fulfil`)."""
    total = SlotDecision()
    for slot, facts in by_slot.items():
        for chain in _chains(slot, facts):
            d = decide_plan_slot(chain, zone) if "|plan|" in slot else decide_slot(chain)
            total.facts += d.facts
            total.links += d.links
    _end_disliked_favorites(by_slot, total)
    _general_stance_ends_specific(by_slot, total)
    _plans_named_by_name_alone(by_slot, total, zone)
    decided = {d.id: d for d in total.facts}
    closer = {x.target: x.source for x in total.links if x.type != "CONTRADICTS"}
    for facts in by_slot.values():
        for fact in facts:
            anchor = decided.get(fact.tied_to or "")
            mine = decided.get(fact.id)
            if (anchor is None or mine is None or mine.status != "active"
                    or anchor.status != "superseded" or anchor.valid_until is None
                    or anchor.valid_until <= mine.valid_from or fact.tied_to not in closer):
                continue
            mine.status, mine.valid_until = "superseded", anchor.valid_until
            _superseded_by(total.links, closer[fact.tied_to], fact, anchor.valid_until)
    return total


def user_zone(name: Callable[[], str | None], slots: Iterable[str]) -> tzinfo | None:
    """The user's time zone (`name()` reads it), for deciding `slots`: only plan slots count
    days (`_may_fulfil`), so it is read only when one is among them. None: UTC (also for a name
    this Python no longer knows)."""
    if not any("|plan|" in s for s in slots):
        return None
    found = name()
    try:
        return read_time_zone(found) if found else None
    except OutOfBounds:
        return None


def is_retraction(text: str) -> bool:
    """Does the sentence take something back ("actually", "correction", "I misspoke")?"""
    return bool(_RETRACTION.search(text))


DECIDED_BY_RULES = "rules"


# "I left Northwind" ends what the subject held there: an employer, a school, a club, a place.
ENDED_BY_LEAVING = frozenset(
    p.name for p in P.CANONICAL
    if p.cardinality in (P.Cardinality.SINGLE, P.Cardinality.SEVERAL)
    and p.value_type in (P.ValueType.ORGANISATION, P.ValueType.PLACE))


def ended_by_leaving(left: list[dict[str, Any]], held: list[HeldFact],
                     make_id: Callable[..., str]) -> list[dict[str, Any]]:
    """For each `left` fact row (asserted), a negated fact row of every held fact it ends: the
    same subject and value ("left Northwind" → works_at Northwind, negated), mentioned no later
    than the leaving. Each is said by the leaving's own words, so it closes the held value in
    its slot as any ending would, and says so (SUPERSEDES from it)."""
    out: dict[str, dict[str, Any]] = {}
    for f in left:
        value = normalise_name(f["value"] or "")
        if not value:
            continue
        for h in held:
            if (h.subject != f["subject"] or normalise_name(h.value or "") != value
                    or utc_native(h.mentioned_at) > utc_native(f["mentioned_at"])):
                continue
            fid = make_id("fact", f["turn_id"], f["span_start"], h.predicate, h.value)
            who = "User" if f["subject"] in (None, "user") else f["subject"]
            out[fid] = {**f, "id": fid, "kind": h.kind, "predicate": h.predicate,
                        "value": h.value, "modality": "negated", "retraction": False,
                        "text": P.statement(who, h.predicate, h.value or "", "stops"),
                        "slot": slot_key(f["subject"], h.predicate, h.value, "negated"),
                        "extracted_by": "rule:currency.left_ends", "embedding": None}
    return list(out.values())


def maintain_currency(tx: Any, user_id: str, slots: list[str],
                      decided_by: str = DECIDED_BY_RULES) -> SlotDecision:
    """Re-decide the given slots inside the caller's (session) transaction."""
    wanted = slots_with_companions(slots, lambda: store.favorite_slots(tx, user_id),
                                   lambda pairs: store.stance_family(tx, user_id, pairs),
                                   lambda plans: store.plan_family(tx, user_id, plans))
    zone = user_zone(lambda: store.user_time_zone(tx, user_id), wanted)
    total = decide_slots(store.slot_facts(tx, user_id, wanted, SlotFact,
                                          anchors=sorted(set(TIED_TO.values()))), zone)
    store.apply_decisions(tx, user_id, decided_by, [vars(f) for f in total.facts])
    store.link(tx, user_id, decided_by, [vars(x) for x in total.links])
    return total
