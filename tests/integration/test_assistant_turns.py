"""A question about the user's life weighs the assistant's turns half (the user's own words carry
their life); a question about what the assistant said does not (real Neo4j, Memory.search)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.retrieval import preset
from tests.helpers import FakeVectors

USER = "We adopted a beagle puppy from the shelter and named him Pepper."
ASSISTANT = ("Congratulations on the beagle puppy! A beagle puppy needs patience: beagle "
             "owners say a beagle puppy follows its nose, so give your beagle puppy long walks.")


def _memory(graph, user_id) -> Memory:
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [SessionRecord("s1", datetime(2024, 5, 2, tzinfo=UTC), [
        TurnRecord("user", USER), TurnRecord("assistant", ASSISTANT),
        TurnRecord("user", "Thanks, I will try that.")])])])
    return mem


def _density(mem, user_id, question, config) -> dict[str, float]:
    return {e.text: e.density for e in mem.search(user_id, question, config=config)
            if e.type == "turn" and e.text in (USER, ASSISTANT)}


@pytest.mark.parametrize("name", ["bm25", "fused"])
def test_the_assistants_turns_count_half_for_a_question_about_the_user(graph, user_id, name):
    mem = _memory(graph, user_id)
    q = "What did we call our beagle puppy?"
    alike = _density(mem, user_id, q, preset(name).with_(assistant_penalty=1.0))
    weighed = _density(mem, user_id, q, name)
    assert set(alike) == set(weighed) == {USER, ASSISTANT}
    assert weighed[USER] == pytest.approx(alike[USER])
    assert weighed[ASSISTANT] == pytest.approx(alike[ASSISTANT] * 0.5)
    assert weighed[USER] > weighed[ASSISTANT]
    ranked = [e.text for e in mem.search(user_id, q, config=name) if e.type == "turn"]
    assert ranked.index(USER) < ranked.index(ASSISTANT)


def test_a_question_about_the_assistants_words_weighs_them_fully(graph, user_id):
    mem = _memory(graph, user_id)
    q = "What did you say beagle puppy owners should give a beagle puppy?"
    alike = _density(mem, user_id, q, preset("bm25").with_(assistant_penalty=1.0))
    assert _density(mem, user_id, q, "bm25") == pytest.approx(alike)
