"""The users the load benchmarks (soak, serve) put in memory: the first LongMemEval users, their
first sessions, under a prefix of the run's own; and the questions they search with."""

from __future__ import annotations

import itertools

from graphmem.loaders import load
from graphmem.models import Transcript

QUESTIONS = ("where do I live now?", "what did I say about my job?", "when did I travel last?",
             "what is my favourite food?", "how many pets do I have?")


def bench_users(path: str, count: int, sessions: int, prefix: str) -> list[Transcript]:
    """The first `count` users of the file with their first `sessions` sessions, ids prefixed."""
    return [Transcript(prefix + t.user_id, t.sessions[:sessions])
            for t in itertools.islice(load(path), count)]
