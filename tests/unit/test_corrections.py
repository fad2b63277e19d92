"""A correction's words (extract.corrections.read) and the fact it corrects (correcting.corrected):
the new value takes the slot of the fact it replaces; words that only look like a correction,
and corrections of nothing held, change nothing."""

from datetime import UTC, datetime

import pytest

from graphmem.correcting import corrected, correction_facts
from graphmem.extract.corrections import read
from graphmem.store.currency import Anchor

AT = datetime(2024, 3, 1, tzinfo=UTC)


def _anchor(predicate, value, *, session="s1", turn=1, subject="user", n=0):
    return Anchor(f"f{n}-{predicate}-{value}", predicate, value, subject, session, turn, AT)


@pytest.mark.parametrize("text, new, old, take_back", [
    ("wait scratch that, it's three, one went to my mum's", "three", None, True),
    ("Correction from before: it's not walnuts actually, it's cashews.", "cashews", "walnuts",
     False),
    ("Scratch that, it's actually Ronin, Thief is a close second.", "Ronin", None, True),
    ("It's Salem, not Portland.", "Salem", "Portland", False),
    ("sorry I meant Leeds not Hull", "Leeds", "Hull", True),
    ("three cats, oops, make that 4 cats", "4 cats", None, True),
    ("wait no, it's the Brompton", "Brompton", None, True),
    # the chat shapes with no "it's": a starred word, a repair, words that take back then a value
    ("*Northampton. autocorrect keeps doing that to me", "Northampton", None, True),
    ("Biscuit* — typing one handed", "Biscuit", None, True),
    ("correction: 34, not 43 lol", "34", "43", True),
    ("I live in Swansea — sorry, Swindon, long day", "Swindon", "Swansea", True),
    ("typo - Leeds", "Leeds", None, True),
])
def test_a_correction_gives_its_new_value_and_the_old_one_when_said(text, new, old, take_back):
    c = read(text)
    assert c is not None and (c.new, c.old, c.take_back) == (new, old, take_back)
    assert text[c.start:c.end] == new


@pytest.mark.parametrize("text", [
    "I mean it's Netflix, what do you expect",
    "Actually, it's fine.",
    "Actually it's raining here",
    "It's not always easy, but it's definitely made a difference.",
    "How do you think we can make that happen?",
    "make that planter in the class",
    "no wait, make that Tuesday",
    "It's been ages since I went.",
    "I moved to Leeds in May.",
    "*really* loved it",
    "*sigh* long day",
    "*Tuesday",
    "Oops, Google Maps sent me the wrong way",
    "Thanks - sorry, I was busy",
    "Leeds - sorry, I'm.",
    "oops - I'm.",
    "Hi Sam, sorry, Dave here",
    "my bad, the meeting is tomorrow",
])
def test_words_that_only_look_like_a_correction_are_none(text):
    assert read(text) is None


def test_the_old_value_named_finds_its_fact_across_sessions():
    c = read("Correction: it's not walnuts, it's cashews.")
    found = corrected(c, "Correction: it's not walnuts, it's cashews.", "s9", 1,
                      [_anchor("lives_in", "Leeds"), _anchor("allergic_to", "walnut", n=1)])
    assert found is not None and found[0].predicate == "allergic_to" and found[1] == "cashews"


def test_a_held_value_named_anywhere_is_corrected_when_the_words_take_back():
    text = "Scratch that, it's actually Ronin, Thief is a close second."
    found = corrected(read(text), text, "s2", 1,
                      [_anchor("lives_in", "Leeds"), _anchor("favorite_film", "Thief", n=1)])
    assert found is not None and (found[0].value, found[1]) == ("Thief", "Ronin")


def test_a_number_corrects_the_latest_count_of_the_same_session_only():
    text = "wait scratch that, it's three"
    c = read(text)
    count = _anchor("owns_count:dog", "4", turn=1)
    assert corrected(c, text, "s1", 2, [_anchor("lives_in", "Leeds"), count]) == (count, "3")
    assert corrected(c, text, "s2", 2, [count]) is None  # another session: nothing named
    assert corrected(c, text, "s1", 9, [count]) is None  # too many turns back


def test_a_name_never_corrects_a_count_nor_a_number_a_name():
    text = "wait no, it's Rocky"
    assert corrected(read(text), text, "s1", 2, [_anchor("owns_count:dog", "4")]) is None
    text = "scratch that, it's three, Rocky went to my mum's"
    assert corrected(read(text), text, "s1", 2, [_anchor("has_pet", "Rocky")]) is None


def test_events_and_later_facts_are_never_corrected():
    text = "sorry I meant Leeds not Hull"
    assert corrected(read(text), text, "s1", 3, [_anchor("traveled_to", "Hull")]) is None
    assert corrected(read(text), text, "s1", 3, [_anchor("lives_in", "Hull", turn=3)]) is None
    assert corrected(read(text), text, "s1", 3, [_anchor("lives_in", "Leeds")]) is None  # same


def test_the_facts_made_cite_the_correction_and_take_back_the_old_value():
    text = "sorry I meant Leeds not Hull"
    c = read(text)
    anchor, value = corrected(c, text, "s1", 3, [_anchor("lives_in", "Hull")])
    new, old = correction_facts(c, text, anchor, value)
    assert (new.predicate, new.value, new.modality, new.support) == (
        "lives_in", "Leeds", "asserted", "Leeds")
    assert (old.predicate, old.value, old.modality, old.support) == (
        "lives_in", "Hull", "negated", "Hull")
    assert new.extracted_by == old.extracted_by == "rule:correction"
