"""The reader's rules as the model receives them."""

from graphmem.answer.pool import fact_note
from graphmem.prompts.answer import reader_messages


def test_the_reader_is_told_a_superseded_ending_still_happened():
    """ "left Acme", superseded once a new employer is told, is no claim that the user is back at
    Acme: the rules must not call every superseded fact untrue."""
    note = fact_note("User left their job at Acme", "superseded", None, None)
    system = reader_messages("Where do I work?", "2024-05-01", note, [])[0]["content"]
    assert "2024-05-01" in system
    assert "no longer true" not in system
    assert "still happened" in system and "left their job at Acme" in system


def test_a_mention_is_shown_as_read_in_passing_and_the_reader_is_told_what_that_means():
    assert fact_note("User: name Kate.", "active", None, None, mention=True) == \
        "fact: User: name Kate. [active, read in passing]"
    assert fact_note("User: name Kate.", "active", None, None) == "fact: User: name Kate. [active]"
    system = reader_messages("Who is Kate?", "2024-05-01", "", [])[0]["content"]
    assert "read in passing" in system and "the words win" in system
