"""Questions about the user's life weigh the user's own words over the assistant's; questions
about what the assistant said do not."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.retrieval.config import FUSED
from graphmem.retrieval.fusion import Candidate, fuse
from graphmem.retrieval.query import analyse, asks_the_assistant
from graphmem.retrieval.rows import Detail


def test_questions_about_the_assistants_words():
    for q in ["Can you remind me of the name of the restaurant in Lisbon you recommended?",
              "Going back to our previous conversation about sourdough: how long did you say to proof it?",
              "What was the third book on the list you gave me?",
              "In our last chat, which stretch did you suggest for my back?",
              "What was your recommendation for a budget tent?",
              "You mentioned a podcast about Roman history, what was it called?",
              "What did you say beagle owners need most?"]:
        assert asks_the_assistant(q), q
    for q in ["Can you remind me where I parked at the airport?",  # a request, not their words
              "Any tips for keeping my basil alive?",
              "How many weddings did I attend this year?",
              "Can you suggest some activities I could do in the evening?",
              "What did my sister say about her new job?",
              "Where do you think I should go on holiday?",
              "What did I tell you about my sister's wedding?",
              "Can you tell me what I said about my commute?"]:
        assert not asks_the_assistant(q), q


def _ranked(question: str, cfg=FUSED) -> list[str]:
    cands = {"asst": Candidate("asst", "turn", density=0.6, best_rank=0, direct_score=0.9),
             "user": Candidate("user", "turn", density=0.4, best_rank=1, direct_score=0.8)}
    at = datetime(2024, 5, 2, tzinfo=UTC)
    details = [Detail("turn", "asst", "asst", role="assistant", turn_id="asst",
                      session_source_id="s1", source_turn_ids=("asst",), mentioned_at=at),
               Detail("turn", "user", "user", role="user", turn_id="user",
                      session_source_id="s2", source_turn_ids=("user",), mentioned_at=at)]
    evidence, _ = fuse(cands, details, analyse(question, at), cfg)
    return [e.id for e in evidence]


def test_the_assistants_turn_counts_half_unless_the_question_asks_for_it():
    assert _ranked("What did I plant in spring?") == ["user", "asst"]  # 0.6 × 0.5 < 0.4
    assert _ranked("What did you suggest I plant?") == ["asst", "user"]
    assert _ranked("What did I plant in spring?", FUSED.with_(assistant_penalty=1.0)) == [
        "asst", "user"]  # the knob at 1 counts them alike
    assert _ranked("What did I plant in spring?", FUSED.without("assistant")) == [
        "asst", "user"]  # the step off
