"""The policy the doors no longer hold, in `Memory` against a real Neo4j (issue 32, item 7): an
unknown user is one UnknownUser from every read and from forget, the bounds of k, query length
and facts are Memory's, and a transcript file is ingested by `Memory.ingest_file`."""

from __future__ import annotations

import json

import pytest

from graphmem.errors import InputError, OutOfBounds, UnknownId, UnknownUser
from graphmem.memory import MAX_FACTS, MAX_K, MAX_QUERY_CHARS, Memory
from graphmem.models import TurnRecord
from tests.helpers import FakeVectors


@pytest.fixture
def mem(graph) -> Memory:
    return Memory(graph, embedder=FakeVectors())


def _jsonl(*lines: dict) -> bytes:
    return "\n".join(json.dumps(x) for x in lines).encode()


def _line(user: str, content: str, session: str = "f1") -> dict:
    return {"user_id": user, "session_id": session, "session_time": "2024-01-10T09:00:00Z",
            "role": "user", "content": content}


def test_an_unknown_user_is_one_error_from_every_read(mem, new_user):
    nobody = new_user()
    for call in (lambda: mem.search(nobody, "where do I live?"),
                 lambda: mem.search_full(nobody, "where?", metadata={"agent": "x"}),
                 lambda: mem.facts(nobody), lambda: mem.facts(nobody, history=True),
                 lambda: mem.timeline(nobody), lambda: mem.inspect(nobody, "m1"),
                 lambda: mem.stats(nobody), lambda: mem.forget(nobody),
                 lambda: mem.answer(nobody, "where?", offline=True)):
        with pytest.raises(UnknownUser, match=f"no memory for user '{nobody}'"):
            call()
    assert mem.forget(nobody, missing_ok=True) == 0


def test_a_known_user_with_nothing_found_gets_an_empty_result(mem, user_id):
    mem.append(user_id, "s", [TurnRecord("user", "I like tea.", source_id="t1")],
               session_time="2024-01-10T09:00:00Z")
    assert mem.facts(user_id, predicate="lives_in") == []
    assert mem.timeline(user_id, entity="Atlantis") == []
    with pytest.raises(UnknownId, match="has no fact, piece, turn, session or entity"):
        mem.inspect(user_id, "nothing-like-this")


def test_the_bounds_are_memorys(mem, user_id):
    mem.append(user_id, "s", [TurnRecord("user", "I like tea.")],
               session_time="2024-01-10T09:00:00Z")
    with pytest.raises(OutOfBounds, match=f"k must be a whole number from 1 to {MAX_K}"):
        mem.search(user_id, "tea", k=MAX_K + 1)
    with pytest.raises(OutOfBounds, match=f"at most {MAX_QUERY_CHARS:,}"):
        mem.search(user_id, "t" * (MAX_QUERY_CHARS + 1))
    with pytest.raises(OutOfBounds, match=f"at most {MAX_QUERY_CHARS:,}"):
        mem.answer(user_id, "t" * (MAX_QUERY_CHARS + 1))
    for call in (mem.facts, mem.timeline):
        with pytest.raises(OutOfBounds, match=f"limit must be a whole number from 1 to "
                                              f"{MAX_FACTS}"):
            call(user_id, limit=MAX_FACTS + 1)
    assert len(mem.facts(user_id, limit=1)) <= 1


def test_ingest_file_keeps_to_the_named_user(mem, new_user, tmp_path):
    mine, other = new_user(), new_user()
    data = _jsonl(_line(mine, "I have two cats."), _line(other, "Not mine."))
    report = mem.ingest_file(data, "jsonl", user_id=mine)
    assert (report.ingest.sessions, report.skipped_other_users) == (1, 1)
    assert report.to_dict()["skipped_other_users"] == 1 and report.to_dict()["sessions"] == 1
    with pytest.raises(UnknownUser):
        mem.stats(other)
    path = tmp_path / "chat.jsonl"
    path.write_bytes(data)
    again = mem.ingest_file(path, user_id=mine)  # a path, the format detected
    assert again.ingest.sessions_unchanged == 1 and again.ingest.sessions == 0
    with pytest.raises(InputError, match=f"no user '{mine}-x'.*nothing was written"):
        mem.ingest_file(data, "jsonl", user_id=f"{mine}-x")
    with pytest.raises(InputError, match="empty"):
        mem.ingest_file(b"  \n", "jsonl", user_id=mine)
    with pytest.raises(InputError, match="unknown format"):
        mem.ingest_file(data, "yaml", user_id=mine)


def test_a_bad_file_writes_nothing(mem, new_user):
    mine = new_user()
    data = _jsonl(_line(mine, "I live in Leeds."), {"user_id": mine, "role": "user"})
    with pytest.raises(InputError, match="line 2"):
        mem.ingest_file(data, "jsonl", user_id=mine)
    with pytest.raises(UnknownUser):
        mem.stats(mine)
