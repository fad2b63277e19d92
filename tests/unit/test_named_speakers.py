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


def test_an_llm_statement_names_the_speaker_too():
    for text, want in (("The user went to the beach.", "Melanie went to the beach."),
                       ("The user's dog is called Rex.", "Melanie's dog is called Rex."),
                       ("the user: went to beach.", "Melanie: went to beach.")):
        assert _as_speaker(_said(text), "Melanie").text == want
    assert _as_speaker(_said("The username changed."), "Melanie").text == "The username changed."
    # only at the start: a user named later in the statement is someone else's word
    assert _as_speaker(_said("Met a user of the app."), "Melanie").text == "Met a user of the app."
