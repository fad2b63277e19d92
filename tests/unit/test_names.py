"""What people are called: self-introductions and being addressed by name."""

import pytest

from graphmem.extract import OfflineExtractor
from graphmem.extract.names import addressed_name
from graphmem.retrieval.query import named_speaker, speakers_named


def _names(text):
    return [(f.value, f.support) for f in OfflineExtractor().extract(text, "user")
            if f.predicate == "name"]


@pytest.mark.parametrize("text,name", [
    ("Hi, I'm Kate, nice to meet you!", "Kate"),
    ("My name is Kate and I love hiking.", "Kate"),
    ("my name's Priya, what's yours", "Priya"),
    ("Please just call me Bo.", "Bo"),
    ("At work I go by Alex these days.", "Alex"),
    ("Hey there! I'm Kate here.", "Kate"),
])
def test_self_introductions(text, name):
    found = _names(text)
    assert [v for v, _s in found] == [name]
    assert all(s in text for _v, s in found)  # the support is the speaker's own words


@pytest.mark.parametrize("text", [
    "I'm happy today.", "Hi! I'm so excited.", "Hi, I'm Glad you asked.", "I'm Sorry about that.",
    "If my name is Kate, then what?", "They call me every Sunday.",
])
def test_not_introductions(text):
    assert _names(text) == []


def test_addressed_by_name():
    assert addressed_name("Hey Kate! How are you?", ("Emi", "Jonas"))[0] == "Kate"
    assert addressed_name("Thanks, Kate.", ("Emi", "Jonas"))[0] == "Kate"
    assert addressed_name("Good morning Mel!", ("Melanie", "Caroline"))[0] == "Mel"
    assert addressed_name("Hey Caroline! Great news", ("Melanie", "Caroline")) is None  # a label
    assert addressed_name("Hey, Thanks!", ("A", "B")) is None
    assert addressed_name("Kate said hi.", ("A", "B")) is None  # not an opening address


def test_named_speaker():
    people = {"Caroline": [], "Melanie": ["Mel"]}
    assert named_speaker("What did Caroline research?", people) == "Caroline"
    assert named_speaker("When did Mel go camping?", people) == "Melanie"
    assert named_speaker("What is Melanie's favourite book?", people) == "Melanie"
    assert named_speaker("Did Caroline and Mel meet?", people) is None
    assert named_speaker("What did Melanies research?", people) is None
    assert named_speaker("What did Caroline research?", {"Caroline": []}) is None  # one speaker


def test_the_names_a_question_calls_the_speaker_by():
    from graphmem.retrieval.query import speaker_names, without_names

    assert speaker_names("What did Mel say about Melanie's dog?", "Melanie", ["Mel"]) == [
        "Melanie", "Mel"]
    assert speaker_names("What did Caroline research?", "Caroline", ["Caro"]) == ["Caroline"]
    assert speaker_names("What did Melanies research?", "Melanie", []) == []
    assert without_names("What is Melanie's favourite book?", ["Melanie"]) == (
        "What is favourite book?")
    assert without_names("Did Mel tell Melanie’s sister?", ["Melanie", "Mel"]) == (
        "Did tell sister?")
    assert without_names("Why did Camelia go?", ["Mel"]) == "Why did Camelia go?"  # whole words


def test_speakers_named_gives_every_named_speaker_with_their_names():
    people = {"Caroline": [], "Melanie": ["Mel"]}
    assert speakers_named("Did Caroline and Mel meet?", people) == {"Caroline": ["Caroline"],
                                                                     "Melanie": ["Mel"]}
    assert speakers_named("What did Caroline research?", people) == {"Caroline": ["Caroline"]}
    assert speakers_named("What did they research?", people) == {}
