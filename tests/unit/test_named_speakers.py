"""In a chat between named people, a fact said in the first person is the speaker's: its subject
and its words name them, whichever extractor wrote the words."""

from graphmem import predicates as registry
from graphmem.models import FactCandidate, RoleRef
from graphmem.session_plan import _as_speaker


def _said(text: str) -> FactCandidate:
    return FactCandidate(kind="event", predicate="traveled_to", text=text, support="the beach",
                         value="beach", roles=[RoleRef("object", "beach", "place")])


def test_a_rule_sentence_and_a_registry_statement_both_name_the_speaker():
    for text in ("User went to the beach.", registry.statement("User", "traveled_to", "beach")):
        fact = _as_speaker(_said(text), "Melanie")
        assert fact.subject == "Melanie"
        assert fact.text.startswith("Melanie") and "User" not in fact.text, fact.text
        assert RoleRef("subject", "Melanie", "person") in fact.roles


def test_a_word_that_only_starts_like_user_is_left_alone():
    assert _as_speaker(_said("Username changed."), "Melanie").text == "Username changed."
