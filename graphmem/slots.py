"""Slots: how each predicate's facts compete (read from the predicate registry) and the slot a
fact competes in. Currency decides each slot's history; ingest keys every fact by its slot."""

from __future__ import annotations

from . import predicates as P
from .entities import normalise_name
from .plan_keys import plan_key

# How each predicate's facts compete, read from the predicate registry (graphmem.predicates).
# One value at a time: a different value replaces the old one (lives_in, favorite_x, does:x).
SINGLE_VALUED = P.names(P.Cardinality.SINGLE)
ACTIVITY_PREFIX = P.BY_NAME["does"].prefix or "does:"  # does:<activity key>: a habit, kept or stopped
SINGLE_VALUED_PREFIXES = tuple(sorted(P.names(P.Cardinality.SINGLE, keyed=True)))
# Quantities: a new number UPDATES the old one; "+1" adds to it.
QUANTITY_PREFIXES = tuple(sorted(P.names(P.Cardinality.COUNT, keyed=True)))
# Stances on a value: liking X, disliking X and cutting down on X compete for the slot "X".
STANCE = {p.name: p.stance for p in P.PREDICATES if p.stance}
# Things held side by side: each value is its own slot, ended only by its own negation. People
# read several books at once ("graphic novels" and a non-fiction book, in the edge audit).
VALUE_KEYED = P.names(P.Cardinality.SEVERAL)
VALUE_KEYED_PREFIXES = tuple(sorted(P.names(P.Cardinality.SEVERAL, keyed=True)))
COMPETING_MODALITIES = frozenset({"asserted", "negated"})
# A plan is closed by a later outcome about the same thing: done ("got back from Japan") or
# called off ("we cancelled the Japan trip"). Outcomes themselves are events: never closed.
PLAN_OUTCOMES = frozenset(p.name for p in P.PREDICATES if p.closes_plan)
PLAN_PREDICATES = frozenset({"plans"})
# Facts tied to another fact of the same sentence: a role stated with its employer ("a QA lead at
# Initech") ends when that employer does.
TIED_TO = {p.name: p.tied_to for p in P.PREDICATES if p.tied_to}


def is_plan(predicate: str, modality: str) -> bool:
    """A plan: a `plans` fact, or any event told as ahead ("my driving test is on the 14th",
    "flying to Oslo in May"): an outcome about the same thing, told later, closes it."""
    if predicate in PLAN_PREDICATES:
        return True
    entry = P.lookup(predicate)
    return (modality == "planned" and entry is not None
            and entry.cardinality is P.Cardinality.EVENT)


def slot_key(subject: str, predicate: str, value: str | None, modality: str) -> str | None:
    """The slot a fact competes in, or None when it competes with nothing (events…)."""
    if is_plan(predicate, modality) or (predicate in PLAN_OUTCOMES and modality == "asserted"):
        key = plan_key(value)
        return f"{subject}|plan|{key}" if key else None
    if modality not in COMPETING_MODALITIES:
        return None
    if predicate in STANCE:
        return f"{subject}|stance|{normalise_name(value or '')}" if value else None
    if predicate in VALUE_KEYED or predicate.startswith(VALUE_KEYED_PREFIXES):
        return f"{subject}|{predicate}|{normalise_name(value or '')}" if value else None
    if (predicate in SINGLE_VALUED or predicate.startswith(SINGLE_VALUED_PREFIXES)
            or predicate.startswith(QUANTITY_PREFIXES)):
        return f"{subject}|{predicate}"
    return None
