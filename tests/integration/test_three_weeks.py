"""Issue 32, "Done when": a three-week conversation appended message by message over days (each
message with its own time, one call each) gives the same facts, dates and currency as ingesting
it as a file — through `Memory` and through a real server (the Python client's `remember` per
message against `upload`), against a real Neo4j."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.client import Client, Message
from graphmem.loaders import load
from graphmem.memory import MAX_PAGE, Memory
from graphmem.models import TurnRecord
from tests.helpers import FakeVectors
from tests.serving import fresh_user, served

# (session, turn id, when said, role, words): 2 to 23 February, several sessions and days, time
# phrases that count from each message's own day, a message after midnight at +02:00, moves, a
# job change, a count, a changed favourite and a retraction.
CHAT = [
    ("d01", "t01", "2026-02-02T08:10:00Z", "user", "I live in Denver."),
    ("d01", "t02", "2026-02-02T08:10:30Z", "assistant", "Noted, Denver."),
    ("d01", "t03", "2026-02-02T19:45:00Z", "user", "I work at Acme Robotics."),
    ("d01", "t04", "2026-02-02T19:46:00Z", "user", "My favorite restaurant is Sushi Den."),
    ("d02", "t05", "2026-02-04T12:00:00Z", "user", "I have two cats."),
    ("d02", "t06", "2026-02-05T09:00:00Z", "user", "I went hiking at Eldorado Canyon yesterday."),
    ("d03", "t07", "2026-02-09T18:30:00Z", "user", "I moved to Boulder last weekend."),
    ("d03", "t08", "2026-02-09T18:31:00Z", "assistant", "How is Boulder?"),
    ("d03", "t09", "2026-02-10T07:15:00Z", "user", "My favorite restaurant is now Frasca."),
    ("d04", "t10", "2026-02-13T01:30:00+02:00", "user", "We adopted another cat yesterday."),
    ("d04", "t11", "2026-02-13T10:00:00Z", "user",
     "I quit my job at Acme Robotics and I started working at Boeing."),
    ("d05", "t12", "2026-02-17T20:00:00Z", "user", "I moved to Seattle two days ago."),
    ("d05", "t13", "2026-02-18T08:00:00Z", "user", "I live in Portland."),
    ("d06", "t14", "2026-02-20T21:00:00Z", "user", "Actually, I don't live in Portland."),
    ("d06", "t15", "2026-02-23T09:00:00Z", "user", "I started taking Spanish lessons last week."),
    ("d06", "t16", "2026-02-23T09:01:00Z", "assistant", "¡Muy bien!"),
]


def _file(path: Path, user: str) -> Path:
    starts: dict[str, str] = {}
    for session, _tid, when, _role, _text in CHAT:
        starts.setdefault(session, when)
    path.write_text("".join(json.dumps({
        "user_id": user, "session_id": session, "session_time": starts[session], "role": role,
        "content": text, "turn_id": tid, "timestamp": when}) + "\n"
        for session, tid, when, role, text in CHAT))
    return path


def _facts(rows: list[Any]) -> set[tuple]:
    by_id = {f.id: f.value for f in rows}
    return {(f.predicate, f.value, f.status, f.mentioned_at, f.occurred_start, f.occurred_end,
             f.valid_from, f.valid_until, tuple(f.source_turn_ids),
             tuple(sorted((c.type, by_id.get(c.id)) for c in f.changes))) for f in rows}


def _turns(mem: Memory, user: str) -> list[tuple]:
    return [(t.session_source_id, t.source_id, t.idx, t.mentioned_at, t.text)
            for t in mem.list_turns(user, limit=MAX_PAGE).items]


def test_appending_over_three_weeks_is_ingesting_the_file(graph, new_user, tmp_path):
    by_file, by_append = new_user(), new_user()
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest(load(_file(tmp_path / "chat.jsonl", by_file)))
    for session, tid, when, role, text in CHAT:  # one call per message, in the order said
        r = mem.append(by_append, session, [TurnRecord(role, text, source_id=tid,
                                                       timestamp=when)])
        assert [t.source_id for t in r.added] == [tid]

    history = mem.facts(by_append, history=True)
    assert _facts(mem.facts(by_file, history=True)) == _facts(history)
    assert _facts(mem.facts(by_file)) == _facts(mem.facts(by_append))
    assert _turns(mem, by_file) == _turns(mem, by_append)
    assert [(f.predicate, f.value, f.status) for f in mem.timeline(by_file)] == [
        (f.predicate, f.value, f.status) for f in mem.timeline(by_append)]
    assert len(history) >= 10  # the conversation made facts worth comparing

    # And they are the right ones: each message dated by itself, its time phrases by its day.
    lives = {f.source_turn_ids[0]: f for f in history if f.predicate == "lives_in"}
    assert lives["t12"].value == "Seattle" and lives["t12"].status == "active"
    assert lives["t12"].occurred_start == datetime.fromisoformat("2026-02-15T00:00:00+00:00")
    assert {lives[t].status for t in ("t01", "t07")} == {"superseded"}
    # "I live in Portland", then "Actually, I don't": the retraction holds, Portland does not.
    assert lives["t13"].value == "Portland" and lives["t13"].status == "invalid"
    assert lives["t14"].status == "active"
    cats = [f for f in history if f.source_turn_ids == ["t10"]]
    assert cats and cats[0].mentioned_at == datetime.fromisoformat("2026-02-12T23:30:00+00:00")
    assert cats[0].occurred_start == datetime.fromisoformat("2026-02-12T00:00:00+02:00")
    hike = [f for f in history if f.source_turn_ids == ["t06"]]
    assert hike and hike[0].occurred_start == datetime.fromisoformat("2026-02-04T00:00:00+00:00")


def test_the_same_over_a_real_server(neo4j_graph, tmp_path):
    """The Python client: `remember` each message on its own against `upload` of the file."""
    with (fresh_user(neo4j_graph, "test-3w-file") as by_file,
          fresh_user(neo4j_graph, "test-3w-append") as by_append,
          served(neo4j_graph.uri, None, None) as http):
        with Client(str(http.base_url)) as c:
            c.upload(by_file, _file(tmp_path / "chat.jsonl", by_file), format="jsonl")
            for session, tid, when, role, text in CHAT:
                c.remember(by_append, session, [Message(role, text, turn_id=tid,
                                                        timestamp=when)])
            assert _facts(c.facts(by_file, history=True)) == _facts(
                c.facts(by_append, history=True))
            assert [(t.source_id, t.mentioned_at) for t in c.iter_turns(by_file)] == [
                (t.source_id, t.mentioned_at) for t in c.iter_turns(by_append)]
            current = {(f.predicate, f.value) for f in c.facts(by_append)}
            assert ("lives_in", "Seattle") in current and ("lives_in", "Denver") not in current
