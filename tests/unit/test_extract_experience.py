"""Visits said as experiences and homes of long ago are not the current state of things."""

import pytest

from graphmem.extract import OfflineExtractor


@pytest.fixture(scope="module")
def extract():
    ex = OfflineExtractor()
    return lambda text: [(f.predicate, f.value) for f in ex.extract(text, "user")]


def test_a_visit_said_as_an_experience_is_been_to(extract):
    assert extract("I've been to Denver before, but only for a conference.") == \
        [("been_to", "Denver")]
    assert extract("I've visited Rome twice and loved it.") == [("been_to", "Rome")]
    assert extract("I visited Denver last week with my sister.") == [("visited", "Denver")]


def test_a_home_of_long_ago_is_a_former_home(extract):
    assert extract("We moved to Lyon when I was 4 years old for my mother's job.") == \
        [("lived_in", "Lyon")]
    assert extract("I moved to Lyon last spring. When I was a kid I loved trains.")[0] == \
        ("lives_in", "Lyon")
    assert extract("I live in Oslo.") == [("lives_in", "Oslo")]
