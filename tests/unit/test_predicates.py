"""The predicate registry: one declaration that extraction, currency and the LLM prompt read."""

from __future__ import annotations

import re

import pytest

from graphmem import currency
from graphmem import predicates as P
from graphmem.extract import OfflineExtractor
from graphmem.extract import lexicon as L
from graphmem.prompts import extract_facts


def test_every_role_word_of_the_rules_is_a_registry_role():
    assert set(L.RELATIONS.values()) <= P.ROLES
    assert set(L.GROUP_RELATIONS.values()) <= P.GROUP_ROLES


@pytest.mark.parametrize("stored, name", [
    ("lives_in", "lives_in"), ("does:running", "does"), ("owns_count:cat", "owns_count"),
    ("count:child", "count"), ("favorite_restaurant", "favorite"), ("owns:cat", "owns"),
    ("friend", "friend"), ("cousin_event", "person_event"), ("parents_event", "person_event"),
    ("knows:sister", "knows"),
])
def test_lookup_resolves_names_families_roles_and_role_events(stored, name):
    found = P.lookup(stored)
    assert found is not None and found.name == name


@pytest.mark.parametrize("unknown", ["job_title", "plans_to_visit", "does:", "favorite_",
                                     "stranger_event", "", "lives_in:x"])
def test_lookup_refuses_what_the_registry_does_not_declare(unknown):
    assert P.lookup(unknown) is None


def test_currency_reads_its_slot_rules_from_the_registry():
    assert currency.SINGLE_VALUED == P.names(P.Cardinality.SINGLE)
    assert {"lives_in", "works_at", "occupation", "diet", "spouse", "boss"} <= currency.SINGLE_VALUED
    assert set(currency.QUANTITY_PREFIXES) == {"owns_count:", "count:"}
    assert currency.STANCE == {"likes": "+", "dislikes": "-", "reduces": "-", "avoids": "-",
                               "consumes": "+"}
    assert currency.TIED_TO == {"occupation": "works_at", "studies": "studies_at",
                                "major": "studies_at"}
    assert "traveled_to" in currency.PLAN_OUTCOMES and "did" not in currency.PLAN_OUTCOMES
    # fixed facts compete with nothing; several-valued ones only with their own value
    assert currency.slot_key("user", "born_in", "Leeds", "asserted") is None
    assert currency.slot_key("user", "has_pet", "Biscuit", "asserted") == "user|has_pet|biscuit"


def test_every_registry_entry_is_well_formed():
    for p in P.PREDICATES:
        assert re.fullmatch(r"[a-z_]+", p.name), p.name
        assert p.description and p.questions, p.name
        assert p.changes, p.name
        if p.cardinality is P.Cardinality.EVENT:
            assert p.changes <= P.EVENT_CHANGES, p.name
    assert len({p.name for p in P.PREDICATES}) == len(P.PREDICATES)


def test_an_event_brings_its_state_and_a_plan_to_start_one_plans_it():
    assert P.BY_NAME["bought"].brought(P.Change.DONE) == ("owns", P.Change.STARTS)
    assert P.BY_NAME["sold"].brought(P.Change.DONE) == ("owns", P.Change.STOPS)
    assert P.BY_NAME["adopted"].brought(P.Change.PLANNED) == ("has_pet", P.Change.PLANNED)
    assert P.BY_NAME["joined"].brought(P.Change.CANCELLED) == ("member_of", P.Change.CANCELLED)
    assert P.BY_NAME["sold"].brought(P.Change.PLANNED) is None  # a planned sale ends nothing yet
    assert P.BY_NAME["traveled_to"].brought(P.Change.DONE) is None
    for p in P.PREDICATES:
        if p.brings is not None:
            state = P.BY_NAME[p.brings[0]]
            assert p.cardinality is P.Cardinality.EVENT and p.brings[1] in state.changes, p.name


SENTENCES = [  # written here, one per rule family the offline extractor has
    "I live in Hove now.", "I work at Greggs as a baker.", "My sister Anna is a nurse.",
    "I have three cats.", "I quit running last year.", "My favourite band is Wet Leg.",
    "I'm allergic to peanuts.", "We went to Porto in May.", "I'm planning a trip to Oslo.",
    "My cousin's graduation is on 3 May.", "I turned 41 last week.", "I'm vegetarian.",
    "I used to live in Crewe.", "I left my job at Aldi.", "I'm reading Middlemarch.",
    "I go climbing every Tuesday.", "We adopted a rescue dog called Pip.", "I love olives.",
    "I'm cutting down on sugar.", "My name is Priya.", "I'm married.", "I sold my bike.",
]


def test_the_offline_rules_emit_only_registry_predicates_and_say_which_rule():
    extractor = OfflineExtractor()
    made = [c for s in SENTENCES for c in extractor.extract(s, "user")]
    assert len(made) >= len(SENTENCES)
    unknown = [c.predicate for c in made if P.lookup(c.predicate) is None]
    assert not unknown
    assert all(c.extracted_by.startswith("rule:") for c in made), \
        [c for c in made if not c.extracted_by]


def test_the_llm_prompt_lists_every_canonical_predicate():
    for p in P.CANONICAL:
        assert f"- {P.described(p.name)}" in extract_facts.SYSTEM_PROMPT


@pytest.mark.parametrize("stored, canonical", [
    ("lives_in", "lives_in"), ("lived_in", "lives_in"), ("does:running", "does"),
    ("favorite_band", "favorite"), ("spouse", "partner"), ("girlfriend", "partner"),
    ("daughter", "has_child"), ("friend", "knows"), ("owns:cat", "has_pet"),
    ("left", "works_at"), ("birthday", None), ("cousin_event", None), ("nonsense", None),
])
def test_a_stored_predicate_is_a_case_of_one_canonical_predicate(stored, canonical):
    assert P.canonical_of(stored) == canonical


def test_every_rule_word_names_a_canonical_predicate_or_none():
    names = {p.name for p in P.CANONICAL}
    for p in P.RULE_WORDS:
        assert p.canonical is None or p.canonical in names, p.name
    assert all(p.canonical is None for p in P.CANONICAL)


@pytest.mark.parametrize("predicate, value, said", [
    ("does:dancing", "Dancing", "User: does Dancing."),
    ("does:kids_run_around", "kids run around", "User: does kids run around."),
    ("owns_count:cat", "2", "User: owns count cat 2."),
    ("favorite_restaurant", "restaurant", "User: favorite restaurant restaurant."),  # no ':' key
    ("works_at", "Northwind", "User: works at Northwind."),
])
def test_a_statement_says_a_key_that_repeats_its_value_once(predicate, value, said):
    assert P.statement("User", predicate, value) == said
