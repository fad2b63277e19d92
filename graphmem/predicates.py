"""The predicate registry: every predicate a FactEvent may carry, declared once.

Extraction (rules, the learned model, the LLM prompt), currency and search read this table; an
extractor's candidate whose predicate is not here is refused at extraction. A predicate is a
`name`, or a family `name:<key>` / `favorite_<key>` whose key narrows the slot ("does:running",
"owns_count:cat", "favorite_restaurant").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum


class Cardinality(StrEnum):
    SINGLE = "single"  # one value at a time: a new value supersedes the old (lives_in)
    SEVERAL = "several"  # values held side by side, each ended by its own negation (owns)
    COUNT = "count"  # a number that a new number updates (owns_count:cat)
    STANCE = "stance"  # for or against a value; the value is the slot (likes, dislikes)
    EVENT = "event"  # something that happened or will: never superseded, a plan is closed by it
    FIXED = "fixed"  # said once and kept: where one was born, one's name; competes with nothing


class ValueType(StrEnum):
    PLACE = "place"
    ORGANISATION = "organisation"
    PERSON = "person"
    PET = "pet"
    THING = "thing"
    ACTIVITY = "activity"
    NUMBER = "number"
    DATE = "date"


class Change(StrEnum):
    """What a statement says happens to the fact (the corpus's `change` label)."""

    ONGOING = "ongoing"  # holds now, no change said ("I live in Leeds", "the commute from Oakland")
    STARTS = "starts"  # begins now or just did ("moved to Leeds", "first day at Monzo")
    STOPS = "stops"  # ends, or no longer holds ("left Northwind", "don't run anymore")
    PLANNED = "planned"  # intended or scheduled ahead ("I start at Monzo on Monday")
    CANCELLED = "cancelled"  # a plan called off ("we cancelled the Japan trip")
    DONE = "done"  # narrated past, over, with no claim about now ("I lived in Leeds for years")


ALL_CHANGES = frozenset(Change)
STATE_CHANGES = frozenset({Change.ONGOING, Change.STARTS, Change.STOPS, Change.PLANNED,
                           Change.CANCELLED, Change.DONE})
EVENT_CHANGES = frozenset({Change.DONE, Change.PLANNED, Change.CANCELLED})


@dataclass(frozen=True)
class Predicate:
    """One predicate: how its facts compete for a slot, what values it takes, what it answers."""

    name: str
    kind: str  # FactEvent kind: attribute, preference, event, plan, relationship, possession…
    cardinality: Cardinality
    value_type: ValueType
    description: str
    questions: tuple[str, ...]  # questions it answers, as a user would ask them
    changes: frozenset[Change] = STATE_CHANGES
    keyed: bool = False  # a family: the slot is name + key ("does:" + "running")
    key_type: ValueType | None = None  # what the key names, for a family
    tied_to: str | None = None  # a role stated with this fact ends when that fact does
    stance: str | None = None  # for a stance: "+" (for the value) or "-" (against it)
    closes_plan: bool = False  # an event that is the outcome of a plan about the same thing
    # An event that brings a state: (state predicate, the state's change when the event is done).
    # "bought a kayak" → owns kayak starts; a planned or cancelled event that would start a state
    # plans or cancels it ("picking the puppy up on Saturday"); a planned ending says nothing.
    brings: tuple[str, Change] | None = None
    # For a state of things held side by side: the count family they are counted in. An event
    # that brings the state to a number of them said outright ("another bike", "two of the
    # guitars", "a second greyhound") steps that count (extract.counting.step_before).
    counted_in: str | None = None
    # An event that ends what the subject held under its value ("left Northwind" ends works_at
    # Northwind): currency.ended_by_leaving.
    ends_held: bool = False
    # An event whose time phrase names when the thing it arranges happens, usually ahead of the
    # saying ("signed up for the marathon in October", "booked a table for Friday"): an
    # ambiguous phrase resolves ahead; "last week" still resolves to last week.
    time_ahead: bool = False
    # The predicate this one is stored as when told as planned: the catch-all `did`, planned
    # ("my driving test is on the 14th"), is a plan (`plans`); a typed event keeps its type.
    planned_as: str | None = None
    # A rule word's canonical predicate: the one the corpus labels the same statement with
    # ("lived_in" → lives_in, "spouse" → partner); None for a canonical predicate itself, or for
    # a rule word no canonical predicate covers. Scoring the rules on the corpus reads it
    # (graphmem.extract.compare).
    canonical: str | None = None

    def brought(self, change: Change) -> tuple[str, Change] | None:
        """The state fact this event's `change` implies on the same value, if any."""
        if self.brings is None:
            return None
        state, done = self.brings
        if change is Change.DONE:
            return state, done
        if change in (Change.PLANNED, Change.CANCELLED) and done is Change.STARTS:
            return state, change
        return None

    @property
    def prefix(self) -> str | None:
        """How family members are written: "does:" → "does:running"; favorite → favorite_x."""
        if not self.keyed:
            return None
        return "favorite_" if self.name == "favorite" else f"{self.name}:"


def _p(name: str, kind: str, card: Cardinality, vtype: ValueType, description: str,
       questions: tuple[str, ...], **kw: object) -> Predicate:
    return Predicate(name, kind, card, vtype, description, questions, **kw)  # type: ignore[arg-type]


C, V = Cardinality, ValueType
_EVENT = {"changes": EVENT_CHANGES}
_OUTCOME = {"changes": EVENT_CHANGES, "closes_plan": True}  # closes a plan about the same thing

CANONICAL: tuple[Predicate, ...] = (
    # Where and who: single-valued attributes.
    _p("lives_in", "attribute", C.SINGLE, V.PLACE, "the city, town or area the subject lives in",
       ("Where do I live?", "Where did I live in January?", "When did I move?")),
    _p("hometown", "attribute", C.FIXED, V.PLACE, "where the subject grew up or is from",
       ("Where am I from?", "Where did I grow up?")),
    _p("works_at", "attribute", C.SINGLE, V.ORGANISATION, "the employer the subject works for",
       ("Where do I work?", "Who did I work for before?", "When did I change jobs?")),
    _p("occupation", "attribute", C.SINGLE, V.THING, "the subject's job title or trade",
       ("What do I do for a living?", "What is my job?"), tied_to="works_at"),
    _p("studies_at", "attribute", C.SINGLE, V.ORGANISATION, "the school or university attended",
       ("Where do I study?", "Which university did I go to?")),
    _p("studies", "attribute", C.SINGLE, V.THING, "the subject's field, major or course",
       ("What am I studying?", "What is my major?"), tied_to="studies_at"),
    _p("partner", "relationship", C.SINGLE, V.PERSON,
       "the subject's partner, spouse, boyfriend, girlfriend or fiancé(e)",
       ("Who is my partner?", "What is my wife's name?")),
    _p("marital_status", "attribute", C.SINGLE, V.THING, "married, engaged, divorced, single…",
       ("Am I married?", "When did I get engaged?")),
    _p("diet", "attribute", C.SINGLE, V.THING, "a way of eating: vegetarian, vegan, keto…",
       ("Am I vegetarian?", "What diet am I on?")),
    _p("age", "attribute", C.SINGLE, V.NUMBER, "the subject's age in years",
       ("How old am I?",)),
    _p("name", "attribute", C.FIXED, V.PERSON, "the subject's own name or nickname",
       ("What is my name?",)),
    _p("drives", "possession", C.SINGLE, V.THING, "the car or vehicle the subject drives now",
       ("What car do I drive?",)),
    # Held side by side.
    _p("has_child", "relationship", C.SEVERAL, V.PERSON, "a child of the subject (name or who)",
       ("What are my kids' names?", "Do I have a daughter?")),
    _p("has_pet", "possession", C.SEVERAL, V.PET, "a pet of the subject (name or kind)",
       ("What is my dog's name?", "What pets do I have?"), counted_in="owns_count"),
    _p("knows", "relationship", C.SEVERAL, V.PERSON,
       "a person in the subject's life; the key is the relation (friend, sister, boss…)",
       ("Who is my boss?", "What is my sister's name?"), keyed=True, key_type=V.THING),
    _p("owns", "possession", C.SEVERAL, V.THING, "a thing the subject owns (bike, flat, guitar…)",
       ("What bike do I have?", "Do I still have the Kindle?"), counted_in="owns_count"),
    _p("uses", "attribute", C.SEVERAL, V.THING, "an app, tool or product the subject uses",
       ("Which app do I use for budgeting?",)),
    _p("reading", "attribute", C.SEVERAL, V.THING, "a book or series the subject is reading",
       ("What am I reading?",)),
    _p("learning", "attribute", C.SEVERAL, V.ACTIVITY,
       "a skill, language or instrument the subject is learning",
       ("Which language am I learning?",)),
    _p("speaks", "attribute", C.SEVERAL, V.THING, "a language the subject speaks",
       ("What languages do I speak?",)),
    _p("member_of", "attribute", C.SEVERAL, V.ORGANISATION,
       "a club, gym, team, choir or group the subject belongs to",
       ("Which gym am I a member of?", "Am I still in the book club?")),
    _p("allergic_to", "attribute", C.SEVERAL, V.THING, "what the subject is allergic to",
       ("What am I allergic to?",)),
    _p("health", "attribute", C.SEVERAL, V.THING,
       "an illness, injury or condition the subject has or had",
       ("How is my knee?", "When did I break my wrist?")),
    _p("does", "routine", C.SINGLE, V.ACTIVITY,
       "a habit or regular activity; the key is the activity (running, yoga, journaling)",
       ("Do I still run?", "How often do I go climbing?", "When did I stop journaling?"),
       keyed=True, key_type=V.ACTIVITY),
    # Numbers.
    _p("owns_count", "possession", C.COUNT, V.NUMBER,
       "how many of a thing the subject has; the key is the thing (cat, bike, plant)",
       ("How many cats do I have?",), keyed=True, key_type=V.THING),
    _p("count", "attribute", C.COUNT, V.NUMBER,
       "how many of something the subject has done or has (child, marathon, book read)",
       ("How many kids do I have?", "How many marathons have I run?"),
       keyed=True, key_type=V.THING),
    # Stances: the value is the slot.
    _p("likes", "preference", C.STANCE, V.THING, "something the subject likes or loves",
       ("What kind of food do I like?", "Do I still like spicy food?"), stance="+"),
    _p("dislikes", "preference", C.STANCE, V.THING, "something the subject dislikes",
       ("What do I hate?",), stance="-"),
    _p("reduces", "preference", C.STANCE, V.THING, "something the subject is cutting down on",
       ("What am I cutting down on?",), stance="-"),
    _p("avoids", "preference", C.STANCE, V.THING, "something the subject stays away from",
       ("What do I avoid?",), stance="-"),
    _p("consumes", "preference", C.STANCE, V.THING, "something the subject eats or drinks often",
       ("How much coffee do I drink?",), stance="+"),
    _p("favorite", "preference", C.SINGLE, V.THING,
       "the subject's favourite of a kind; the key is the kind (restaurant, band, film)",
       ("What is my favourite restaurant?",), keyed=True, key_type=V.THING),
    # Events and plans: never superseded; a plan is closed by its outcome.
    _p("plans", "plan", C.EVENT, V.THING,
       "something the subject intends or has scheduled (an exam, a race, a move, a party)",
       ("What am I planning for May?", "When is my exam?"), changes=EVENT_CHANGES),
    _p("traveled_to", "event", C.EVENT, V.PLACE, "a trip the subject took or will take",
       ("Where did I go on holiday?", "When was I in Lisbon?"), **_OUTCOME),
    _p("attended", "event", C.EVENT, V.THING, "an event attended: a concert, wedding, talk…",
       ("Which concerts did I go to?",), **_OUTCOME),
    _p("visited", "event", C.EVENT, V.PLACE, "a place or person visited",
       ("When did I visit my parents?",), **_OUTCOME),
    _p("went_to", "event", C.EVENT, V.PLACE, "a place the subject went to (gym, restaurant…)",
       ("Where did I go last weekend?",), **_OUTCOME),
    _p("bought", "event", C.EVENT, V.THING, "something bought or ordered",
       ("What did I buy for the kitchen?",), brings=("owns", Change.STARTS), **_OUTCOME),
    _p("acquired", "event", C.EVENT, V.THING, "something got, received or given to the subject",
       ("When did I get my laptop?",), brings=("owns", Change.STARTS), **_EVENT),
    _p("sold", "event", C.EVENT, V.THING, "something sold or given away",
       ("Did I sell my old car?",), brings=("owns", Change.STOPS), **_EVENT),
    _p("adopted", "event", C.EVENT, V.PET, "a pet adopted or brought home",
       ("When did we adopt the cat?",), brings=("has_pet", Change.STARTS), **_OUTCOME),
    _p("finished", "event", C.EVENT, V.THING, "something completed: a book, a course, a show",
       ("Which books did I finish?",), **_OUTCOME),
    _p("read", "event", C.EVENT, V.THING, "a book read", ("What books have I read?",), **_EVENT),
    _p("watched", "event", C.EVENT, V.THING, "a film, show or match watched",
       ("What did I watch?",), **_EVENT),
    _p("started", "event", C.EVENT, V.ACTIVITY, "something begun (a course, a project, a job)",
       ("When did I start the course?",), **_EVENT),
    _p("joined", "event", C.EVENT, V.ORGANISATION, "a club or group joined",
       ("When did I join the choir?",), brings=("member_of", Change.STARTS), **_OUTCOME),
    _p("signed_up_for", "event", C.EVENT, V.THING, "a race, class or programme signed up for",
       ("What did I sign up for?",), time_ahead=True, **_OUTCOME),
    _p("participated_in", "event", C.EVENT, V.THING, "an event taken part in",
       ("Which races did I run?",), **_OUTCOME),
    _p("ran", "event", C.EVENT, V.THING, "a race run", ("What was my 10k time?",), **_OUTCOME),
    _p("passed", "event", C.EVENT, V.THING, "an exam or test passed",
       ("Did I pass my driving test?",), **_OUTCOME),
    _p("graduated_from", "event", C.EVENT, V.ORGANISATION, "a school or course graduated from",
       ("When did I graduate?",), **_OUTCOME),
    _p("returned_from", "event", C.EVENT, V.PLACE, "a trip come back from",
       ("When did I get back from Japan?",), **_OUTCOME),
    _p("met", "event", C.EVENT, V.PERSON, "a person met", ("Who did I meet at the party?",),
       **_EVENT),
    _p("celebrated", "event", C.EVENT, V.THING, "an occasion celebrated",
       ("How did I celebrate my birthday?",), **_OUTCOME),
    _p("hosted", "event", C.EVENT, V.THING, "a gathering the subject hosted",
       ("When did I host the dinner party?",), **_OUTCOME),
    _p("cancelled", "event", C.EVENT, V.THING, "something called off or ended (a subscription)",
       ("Did I cancel Netflix?",), **_OUTCOME),
    _p("did", "event", C.EVENT, V.THING, "any other thing the subject did, said in their words",
       ("What did I do last weekend?",), planned_as="plans", **_EVENT),
    _p("recommended", "recommendation", C.EVENT, V.THING, "what the assistant recommended",
       ("What did you recommend?",), changes=frozenset({Change.DONE})),
)
# The rules' own words for some of the above, and events only the rules name, kept as stored so
# that history reads alike. The corpus labels CANONICAL predicates only.
RULE_WORDS: tuple[Predicate, ...] = (
    _p("major", "attribute", C.SINGLE, V.THING, "the subject's major (the rules' `studies`)",
       ("What is my major?",), tied_to="studies_at", canonical="studies"),
    _p("employment_status", "attribute", C.SINGLE, V.THING, "retired, unemployed, self-employed",
       ("Am I retired?",), canonical="occupation"),
    _p("spouse", "relationship", C.SINGLE, V.PERSON, "the subject's husband or wife",
       ("What is my husband's name?",), canonical="partner"),
    _p("fiance", "relationship", C.SINGLE, V.PERSON, "the subject's fiancé(e)",
       ("Who is my fiancé?",), canonical="partner"),
    _p("boss", "relationship", C.SINGLE, V.PERSON, "the subject's boss or manager",
       ("Who is my boss?",), canonical="knows"),
    _p("pregnancy", "attribute", C.SINGLE, V.THING, "whether the subject is pregnant",
       ("Am I pregnant?",), canonical="health"),
    _p("from", "attribute", C.FIXED, V.PLACE, "where the subject is from (the rules' hometown)",
       ("Where am I from?",), canonical="hometown"),
    _p("grew_up_in", "attribute", C.FIXED, V.PLACE, "where the subject grew up",
       ("Where did I grow up?",), canonical="hometown"),
    _p("born_in", "attribute", C.FIXED, V.PLACE, "where the subject was born",
       ("Where was I born?",), canonical="hometown"),
    _p("dietary_restriction", "attribute", C.SEVERAL, V.THING, "lactose intolerant, gluten free…",
       ("Am I gluten free?",), canonical="diet"),
    _p("birthday", "attribute", C.FIXED, V.DATE, "the subject's birthday",
       ("When is my birthday?",)),
    _p("lived_in", "event", C.EVENT, V.PLACE, "a place the subject lived in before",
       ("Where did I live before?",), **_EVENT, canonical="lives_in"),
    _p("worked_at", "event", C.EVENT, V.ORGANISATION, "an employer the subject worked for before",
       ("Where did I work before?",), **_EVENT, canonical="works_at"),
    _p("former_occupation", "event", C.EVENT, V.THING, "a job the subject had before",
       ("What did I do before?",), **_EVENT, canonical="occupation"),
    _p("left", "event", C.EVENT, V.ORGANISATION, "an employer, school or place the subject left",
       ("When did I leave my job?",), ends_held=True, **_EVENT, canonical="works_at"),
    _p("admitted_to", "event", C.EVENT, V.ORGANISATION, "a school or programme that took the subject",
       ("Which schools accepted me?",), **_EVENT, canonical="studies_at"),
    _p("studied_at", "event", C.EVENT, V.ORGANISATION, "a school the subject studied at before",
       ("Where did I go to school?",), **_EVENT, canonical="studies_at"),
    _p("been_to", "event", C.EVENT, V.PLACE, "a place the subject has been to",
       ("Have I been to Chicago?",), **_EVENT, canonical="visited"),
    _p("stayed_at", "event", C.EVENT, V.PLACE, "a hotel or place stayed at",
       ("Where did I stay?",), **_EVENT, canonical="went_to"),
    _p("ate_at", "event", C.EVENT, V.PLACE, "a restaurant eaten at", ("Where did I eat?",),
       **_EVENT, canonical="went_to"),
    _p("went_on", "event", C.EVENT, V.THING, "a trip or outing gone on", ("What trips did I go on?",),
       **_EVENT, canonical="did"),
    _p("tried", "event", C.EVENT, V.THING, "something tried", ("What did I try?",),
       **_EVENT, canonical="did"),
    _p("learned", "event", C.EVENT, V.THING, "something learned", ("What did I learn?",),
       **_EVENT, canonical="learning"),
    _p("took", "event", C.EVENT, V.THING, "a test, class or trip taken", ("What did I take?",),
       **_EVENT, canonical="did"),
    _p("ordered", "event", C.EVENT, V.THING, "something ordered", ("What did I order?",),
       **_EVENT, canonical="bought"),
    _p("received", "event", C.EVENT, V.THING, "something received", ("What did I receive?",),
       **_EVENT, canonical="acquired"),
    # Booking is a step of a plan, not its outcome: "booked the flight to Boston" leaves the
    # trip ahead (it closed the trip's plan in the edge audit of 2026-12-03).
    _p("booked", "event", C.EVENT, V.THING, "something booked", ("What did I book?",),
       time_ahead=True, **_EVENT, canonical="plans"),
    _p("volunteered_at", "event", C.EVENT, V.ORGANISATION, "where the subject volunteered",
       ("Where did I volunteer?",), **_EVENT, canonical="did"),
    _p("won", "event", C.EVENT, V.THING, "something won", ("What did I win?",), **_EVENT, canonical="did"),
    _p("built", "event", C.EVENT, V.THING, "something built", ("What did I build?",),
       **_EVENT, canonical="did"),
    _p("upgraded", "event", C.EVENT, V.THING, "something upgraded", ("What did I upgrade?",),
       **_EVENT, canonical="did"),
    _p("downloaded", "event", C.EVENT, V.THING, "an app or file downloaded",
       ("Which app did I download?",), **_EVENT, canonical="did"),
    _p("donated", "event", C.EVENT, V.THING, "something donated", ("What did I donate?",),
       **_EVENT, canonical="did"),
    _p("cooked", "event", C.EVENT, V.THING, "something cooked", ("What did I cook?",),
       **_EVENT, canonical="did"),
    _p("hiked", "event", C.EVENT, V.PLACE, "a trail hiked", ("Which trails did I hike?",),
       **_EVENT, canonical="went_to"),
    _p("renovated", "event", C.EVENT, V.THING, "something renovated", ("What did I renovate?",),
       **_OUTCOME, canonical="did"),
    _p("person_event", "event", C.EVENT, V.THING, "a dated event of someone the subject knows",
       ("When is my cousin's wedding?",), **_EVENT),
)
PREDICATES = CANONICAL + RULE_WORDS

# People in the subject's life, by role: each role is a relationship predicate of its own
# ("friend": Emily), and "<role>_event" an event of theirs ("cousin_event": graduation on 3 May).
SINGLE_ROLES = frozenset({"spouse", "partner", "fiance", "boss"})
ROLES = SINGLE_ROLES | frozenset("""
boyfriend girlfriend mother father landlord therapist stepmother stepfather
sister brother son daughter child friend colleague cousin aunt uncle niece nephew grandmother
grandfather grandchild roommate neighbor mentor coach teacher doctor trainer classmate teammate
stepson stepdaughter sister_in_law brother_in_law mother_in_law father_in_law twin
""".split())
GROUP_ROLES = frozenset("""parents grandparents in_laws children grandchildren siblings cousins
friends neighbors roommates colleagues""".split())

BY_NAME: dict[str, Predicate] = {p.name: p for p in PREDICATES}
# What made a state an event brings (`brings`: "bought a kayak" → owns kayak): the registry's
# rule, applied by the learned extractor alone to the events it reads (extract.base.with_brought),
# so such a state is the model's reading as much as its event is (currency reads it so).
BROUGHT_BY = "rule:registry.brings"
# What made the other facts (`extracted_by`): "rule:<rule id>", or the learned tagger and an LLM,
# which tell done from planned as the rules do not: "model:<version>", "llm:<model>".
MODEL_MADE = "model:"
LLM_MADE = "llm:"
_FAMILIES = {p.prefix: p for p in PREDICATES if p.prefix}
_FAMILIES["owns:"] = _p("owns", "possession", C.SEVERAL, V.PET,
                        "a pet or thing of a kind, named (\"owns:cat\": Lola)",
                        ("What is my cat's name?",), keyed=True, key_type=V.THING)


@functools.cache
def _role(name: str) -> Predicate:
    card = C.SINGLE if name in SINGLE_ROLES else C.SEVERAL
    return Predicate(name, "relationship", card, V.PERSON, f"the subject's {name}",
                     (f"Who is my {name}?",))


_ROLE_EVENT = BY_NAME["person_event"]


def lookup(predicate: str) -> Predicate | None:
    """The registry entry a stored predicate belongs to ("does:running" → does, "friend" → a
    role, "cousin_event" → person_event); None when the registry does not know it."""
    found = BY_NAME.get(predicate)
    if found is not None:
        return found
    if predicate in ROLES:
        return _role(predicate)
    if predicate.endswith("_event") and predicate[:-6] in ROLES | GROUP_ROLES:
        return _ROLE_EVENT
    for prefix, family in _FAMILIES.items():
        if predicate.startswith(prefix) and len(predicate) > len(prefix):
            return family
    return None


_PARTNER_ROLES = frozenset({"spouse", "partner", "fiance", "boyfriend", "girlfriend"})
_CHILD_ROLES = frozenset({"son", "daughter", "child", "stepson", "stepdaughter", "twin"})
_CANONICAL_NAMES = frozenset(p.name for p in CANONICAL)


def canonical_of(predicate: str) -> str | None:
    """The canonical predicate (the one the corpus labels) a stored predicate is a case of:
    "does:running" → does, "lived_in" → lives_in, "spouse" → partner, "son" → has_child,
    "friend" → knows, "owns:cat" → has_pet; None when none covers it ("birthday",
    "cousin_event")."""
    if predicate in _PARTNER_ROLES:
        return "partner"
    if predicate in _CHILD_ROLES:
        return "has_child"
    if predicate in ROLES:
        return "knows"
    if predicate.startswith("owns:"):
        return "has_pet"
    entry = lookup(predicate)
    if entry is None or entry is _ROLE_EVENT:
        return None
    return entry.name if entry.name in _CANONICAL_NAMES else entry.canonical


def names(cardinality: Cardinality, *, keyed: bool = False) -> frozenset[str]:
    """The plain names (or, with `keyed`, the family prefixes) of one cardinality."""
    if keyed:
        return frozenset(pre for pre, p in _FAMILIES.items() if p.cardinality is cardinality)
    return frozenset(p.name for p in PREDICATES if p.cardinality is cardinality and not p.keyed)


def described(predicate: str) -> str:
    """One line for the LLM prompt and the docs: name, cardinality, value type, description."""
    p = lookup(predicate)
    if p is None:
        raise KeyError(predicate)
    return f"{p.prefix + '<key>' if p.prefix else p.name}: {p.description} " \
           f"({p.cardinality.value}, {p.value_type.value})"


_CHANGE_QUALIFIER = {"stops": " (no longer)", "planned": " (planned)", "starts": " (new)",
                     "cancelled": " (called off)"}


def statement(who: str, predicate: str, value: str, change: str = "") -> str:
    """A fact's statement from its parts, "User: works at Northwind (no longer)." — what the
    learned extractor and the rules that derive facts write, so a fact that ends a value says so
    in its words, never reading as the value itself. The key of a `name:key` family that only
    repeats the value is said once ("does:dancing", "Dancing" → "User: does Dancing.")."""
    name, _, key = predicate.partition(":")
    if key and " ".join(key.replace("_", " ").split()).casefold() == " ".join(
            value.split()).casefold():
        predicate = name
    what = predicate.replace("_", " ").replace(":", " ")
    return f"{who}: {what} {value}{_CHANGE_QUALIFIER.get(change, '')}."


# What the LLM's structured output may name: a plain predicate, a role, or a family member.
PATTERN = ("^(?:" + "|".join(sorted(BY_NAME, key=len, reverse=True))
           + "|" + "|".join(sorted(ROLES, key=len, reverse=True))
           + "|(?:" + "|".join(sorted(p.removesuffix(":") for p in _FAMILIES if p.endswith(":")))
           + "):[a-z0-9_]+|favorite_[a-z0-9_]+)$")
