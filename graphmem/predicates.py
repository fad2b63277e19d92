"""The predicate registry: every predicate a FactEvent may carry, declared once.

Extraction (rules, the learned model, the LLM prompt), currency and search read this table; an
extractor's candidate whose predicate is not here is refused at extraction. A predicate is a
`name`, or a family `name:<key>` / `favorite_<key>` whose key narrows the slot ("does:running",
"owns_count:cat", "favorite_restaurant").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Cardinality(StrEnum):
    SINGLE = "single"  # one value at a time: a new value supersedes the old (lives_in)
    SEVERAL = "several"  # values held side by side, each ended by its own negation (owns)
    COUNT = "count"  # a number that a new number updates (owns_count:cat)
    STANCE = "stance"  # for or against a value; the value is the slot (likes, dislikes)
    EVENT = "event"  # something that happened or will: never superseded, a plan is closed by it


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

PREDICATES: tuple[Predicate, ...] = (
    # Where and who: single-valued attributes.
    _p("lives_in", "attribute", C.SINGLE, V.PLACE, "the city, town or area the subject lives in",
       ("Where do I live?", "Where did I live in January?", "When did I move?")),
    _p("hometown", "attribute", C.SINGLE, V.PLACE, "where the subject grew up or is from",
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
    _p("name", "attribute", C.SINGLE, V.PERSON, "the subject's own name or nickname",
       ("What is my name?",)),
    _p("drives", "possession", C.SINGLE, V.THING, "the car or vehicle the subject drives now",
       ("What car do I drive?",)),
    # Held side by side.
    _p("has_child", "relationship", C.SEVERAL, V.PERSON, "a child of the subject (name or who)",
       ("What are my kids' names?", "Do I have a daughter?")),
    _p("has_pet", "possession", C.SEVERAL, V.PET, "a pet of the subject (name or kind)",
       ("What is my dog's name?", "What pets do I have?")),
    _p("knows", "relationship", C.SEVERAL, V.PERSON,
       "a person in the subject's life; the key is the relation (friend, sister, boss…)",
       ("Who is my boss?", "What is my sister's name?"), keyed=True, key_type=V.THING),
    _p("owns", "possession", C.SEVERAL, V.THING, "a thing the subject owns (bike, flat, guitar…)",
       ("What bike do I have?", "Do I still have the Kindle?")),
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
       ("What kind of food do I like?", "Do I still like spicy food?")),
    _p("dislikes", "preference", C.STANCE, V.THING, "something the subject dislikes",
       ("What do I hate?",)),
    _p("reduces", "preference", C.STANCE, V.THING, "something the subject is cutting down on",
       ("What am I cutting down on?",)),
    _p("avoids", "preference", C.STANCE, V.THING, "something the subject stays away from",
       ("What do I avoid?",)),
    _p("consumes", "preference", C.STANCE, V.THING, "something the subject eats or drinks often",
       ("How much coffee do I drink?",)),
    _p("favorite", "preference", C.SINGLE, V.THING,
       "the subject's favourite of a kind; the key is the kind (restaurant, band, film)",
       ("What is my favourite restaurant?",), keyed=True, key_type=V.THING),
    # Events and plans: never superseded; a plan is closed by its outcome.
    _p("plans", "plan", C.EVENT, V.THING,
       "something the subject intends or has scheduled (an exam, a race, a move, a party)",
       ("What am I planning for May?", "When is my exam?"), changes=EVENT_CHANGES),
    _p("traveled_to", "event", C.EVENT, V.PLACE, "a trip the subject took or will take",
       ("Where did I go on holiday?", "When was I in Lisbon?"), **_EVENT),
    _p("attended", "event", C.EVENT, V.THING, "an event attended: a concert, wedding, talk…",
       ("Which concerts did I go to?",), **_EVENT),
    _p("visited", "event", C.EVENT, V.PLACE, "a place or person visited",
       ("When did I visit my parents?",), **_EVENT),
    _p("went_to", "event", C.EVENT, V.PLACE, "a place the subject went to (gym, restaurant…)",
       ("Where did I go last weekend?",), **_EVENT),
    _p("bought", "event", C.EVENT, V.THING, "something bought or ordered",
       ("What did I buy for the kitchen?",), **_EVENT),
    _p("acquired", "event", C.EVENT, V.THING, "something got, received or given to the subject",
       ("When did I get my laptop?",), **_EVENT),
    _p("sold", "event", C.EVENT, V.THING, "something sold or given away",
       ("Did I sell my old car?",), **_EVENT),
    _p("adopted", "event", C.EVENT, V.PET, "a pet adopted or brought home",
       ("When did we adopt the cat?",), **_EVENT),
    _p("finished", "event", C.EVENT, V.THING, "something completed: a book, a course, a show",
       ("Which books did I finish?",), **_EVENT),
    _p("read", "event", C.EVENT, V.THING, "a book read", ("What books have I read?",), **_EVENT),
    _p("watched", "event", C.EVENT, V.THING, "a film, show or match watched",
       ("What did I watch?",), **_EVENT),
    _p("started", "event", C.EVENT, V.ACTIVITY, "something begun (a course, a project, a job)",
       ("When did I start the course?",), **_EVENT),
    _p("joined", "event", C.EVENT, V.ORGANISATION, "a club or group joined",
       ("When did I join the choir?",), **_EVENT),
    _p("signed_up_for", "event", C.EVENT, V.THING, "a race, class or programme signed up for",
       ("What did I sign up for?",), **_EVENT),
    _p("participated_in", "event", C.EVENT, V.THING, "an event taken part in",
       ("Which races did I run?",), **_EVENT),
    _p("ran", "event", C.EVENT, V.THING, "a race run", ("What was my 10k time?",), **_EVENT),
    _p("passed", "event", C.EVENT, V.THING, "an exam or test passed",
       ("Did I pass my driving test?",), **_EVENT),
    _p("graduated_from", "event", C.EVENT, V.ORGANISATION, "a school or course graduated from",
       ("When did I graduate?",), **_EVENT),
    _p("returned_from", "event", C.EVENT, V.PLACE, "a trip come back from",
       ("When did I get back from Japan?",), **_EVENT),
    _p("met", "event", C.EVENT, V.PERSON, "a person met", ("Who did I meet at the party?",),
       **_EVENT),
    _p("celebrated", "event", C.EVENT, V.THING, "an occasion celebrated",
       ("How did I celebrate my birthday?",), **_EVENT),
    _p("hosted", "event", C.EVENT, V.THING, "a gathering the subject hosted",
       ("When did I host the dinner party?",), **_EVENT),
    _p("cancelled", "event", C.EVENT, V.THING, "something called off or ended (a subscription)",
       ("Did I cancel Netflix?",), **_EVENT),
    _p("did", "event", C.EVENT, V.THING, "any other thing the subject did, said in their words",
       ("What did I do last weekend?",), **_EVENT),
    _p("recommended", "recommendation", C.EVENT, V.THING, "what the assistant recommended",
       ("What did you recommend?",), changes=frozenset({Change.DONE})),
)
