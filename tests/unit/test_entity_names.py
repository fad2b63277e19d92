"""Entity names from the offline extractor are whole phrases: no modifier without its noun, no
dish glued to the restaurant it is served at."""

import pytest

from graphmem.extract import OfflineExtractor


def _objects(text: str, role: str = "user") -> list[tuple[str, str]]:
    return [(r.role, r.name) for c in OfflineExtractor().extract(text, role) for r in c.roles
            if r.role != "subject"]


@pytest.mark.parametrize(("text", "names"), [
    ("I'm planning to try the new Sichuan place next week.", [("object", "Sichuan place")]),
    ("I'm going to try the Thai restaurant on Main Street.", [("object", "Thai restaurant")]),
    ("I'm planning to visit Paris with my sister next month.", [("object", "Paris")]),
])
def test_a_proper_name_that_modifies_a_noun_keeps_the_noun(text, names) -> None:
    assert _objects(text) == names


def test_a_recommended_dish_and_its_restaurant_are_two_entities() -> None:
    assert _objects("I recommend the mapo tofu at Lao Sze Chuan if you go.", "assistant") == [
        ("object", "mapo tofu"), ("location", "Lao Sze Chuan")]
