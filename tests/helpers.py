"""Shared test helpers."""

import hashlib
from datetime import UTC, datetime

import numpy as np

from graphmem.models import SessionRecord, Transcript, TurnRecord


class FakeVectors:
    """A deterministic embedder for write-path tests (vector search is tested with real models):
    a pseudo-random unit vector per text, so different texts are far apart. By default it stands
    in for the configured embedder's vector space (its name and width), which the test database
    records; queries and documents are embedded alike."""

    def __init__(self, name=None, dimensions=None):
        if name is None:
            from graphmem.compose import embedder as configured_embedder

            name, dimensions = configured_embedder().name, dimensions or 384
        self.name, self.dimensions = name, dimensions or 384
        self.calls = 0  # texts embedded

    def embed_documents(self, texts):
        self.calls += len(texts)
        out = []
        for t in texts:
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "big")
            v = np.random.default_rng(seed).normal(size=self.dimensions)
            out.append((v / np.linalg.norm(v)).tolist())
        return out

    def embed_query(self, text):
        return self.embed_documents([text])[0]


def dt(y, m, d, h=12):
    return datetime(y, m, d, h, tzinfo=UTC)


SCENARIO = [  # (session id, time, user turns)
    ("s1", dt(2024, 1, 10), ["I live in Denver.", "I work at Acme Robotics.",
                             "My favorite restaurant is Sushi Den.", "I have two cats.",
                             "I love spicy food."]),
    ("s2", dt(2024, 3, 5), ["My favorite restaurant is now Canlis."]),
    ("s3", dt(2024, 4, 2), ["I moved to Seattle last weekend.",
                            "I quit my job at Acme Robotics and I started working at Boeing.",
                            "We adopted another cat two days ago."]),
    ("s4", dt(2024, 6, 15), ["My favorite restaurant is Pike Place Chowder.",
                             "I'm cutting down on spicy food, my stomach can't take it."]),
    ("s5", dt(2024, 7, 1), ["I live in Portland."]),
    ("s6", dt(2024, 7, 20), ["Actually, I don't live in Portland."]),
]


def _transcript(user_id, order=None):
    sessions = []
    for sid, when, texts in SCENARIO:
        turns = []
        for text in texts:
            turns += [TurnRecord("user", text), TurnRecord("assistant", "Noted.")]
        sessions.append(SessionRecord(sid, when, turns))
    if order:
        sessions = [sessions[i] for i in order]
    return Transcript(user_id, sessions)


