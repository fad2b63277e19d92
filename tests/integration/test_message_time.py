"""A message's own time, through `Memory` against a real Neo4j: a turn appended later is dated by
its own timestamp (its facts' mentioned_at, the day its "yesterday" counts from), an offset or the
user's time zone decides that local day, the default is unchanged, and a bad time writes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from graphmem.errors import OutOfBounds
from graphmem.loaders import load
from graphmem.memory import Memory
from graphmem.models import TurnRecord
from graphmem.store.time import utc_native
from tests.helpers import FakeVectors

PLUS2 = timezone(timedelta(hours=2))


def _utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def _facts(mem: Memory, user_id: str, predicate: str) -> dict[str, SimpleNamespace]:
    """The user's facts of one predicate by value, as stored (every time, UTC as Python's)."""
    with mem.graph.session(read_only=True) as s:
        rows = s.run("MATCH (f:FactEvent {user_id: $u, predicate: $p}) RETURN f.value AS value, "
                     "f.status AS status, f.mentioned_at AS mentioned_at, "
                     "f.occurred_start AS occurred_start, f.occurred_end AS occurred_end, "
                     "f.valid_until AS valid_until", u=user_id, p=predicate).data()
    return {r["value"]: SimpleNamespace(**{k: v if isinstance(v, str) else utc_native(v)
                                           for k, v in r.items()}) for r in rows}


def _turn_time(graph, user_id: str, source_id: str) -> datetime:
    with graph.session(read_only=True) as s:
        row = s.run("MATCH (t:Turn {user_id: $u, source_id: $s}) "
                    "OPTIONAL MATCH (t)-[:HAS_PIECE]->(p:MessagePiece) "
                    "RETURN t.mentioned_at AS at, collect(DISTINCT p.mentioned_at) AS pieces",
                    u=user_id, s=source_id).single()
    assert row["pieces"] == [row["at"]]  # the pieces are mentioned when their turn was
    return row["at"].to_native()


def test_a_later_turn_is_dated_by_its_own_timestamp(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    mem.append(user_id, "s1", [TurnRecord("user", "I live in Denver.", source_id="a1")],
               session_time="2026-02-09T10:00:00Z")
    r = mem.append(user_id, "s1", [TurnRecord("user", "I moved to Seattle yesterday.",
                                              source_id="a2", timestamp="2026-02-20T09:00:00Z")])
    assert r.added[0].mentioned_at == _utc(2026, 2, 20, 9)
    assert _turn_time(graph, user_id, "a2") == _utc(2026, 2, 20, 9)
    lives = _facts(mem, user_id, "lives_in")
    seattle = lives["Seattle"]
    assert seattle.mentioned_at == _utc(2026, 2, 20, 9)
    assert (seattle.occurred_start, seattle.occurred_end) == (_utc(2026, 2, 19), _utc(2026, 2, 20))
    # Currency reads the new dates: Denver ended the day the move happened.
    assert lives["Denver"].status == "superseded"
    assert lives["Denver"].valid_until == _utc(2026, 2, 19)
    # A later append's session_time dates its messages that carry no timestamp of their own.
    mem.append(user_id, "s1", [TurnRecord("user", "I adopted a dog yesterday.", source_id="a3")],
               session_time="2026-02-25T18:00:00Z")
    dog = next(iter(_facts(mem, user_id, "owns_count:dog").values()))
    assert dog.mentioned_at == _utc(2026, 2, 25, 18)
    assert dog.occurred_start == _utc(2026, 2, 24)
    # The session keeps the start it was created with.
    assert utc_native(mem.inspect(user_id, "a1")["session_time"]) == _utc(2026, 2, 9, 10)


def test_an_offset_or_the_users_zone_decides_the_local_day(graph, new_user):
    mem = Memory(graph, embedder=FakeVectors())
    # 01:30 at +02:00 is 23:30 UTC the day before: "yesterday" is the 19th local, not the 18th.
    offset = new_user()
    mem.append(offset, "s", [TurnRecord("user", "I moved to Seattle yesterday.", source_id="o1",
                                        timestamp="2026-02-20T01:30:00+02:00")])
    fact = _facts(mem, offset, "lives_in")["Seattle"]
    assert fact.mentioned_at == _utc(2026, 2, 19, 23, 30)
    assert fact.occurred_start == datetime(2026, 2, 19, tzinfo=PLUS2)
    assert fact.occurred_end == datetime(2026, 2, 20, tzinfo=PLUS2)
    # Without an offset the user's time zone applies (Berlin is +01:00 in February) ...
    zoned = new_user()
    assert mem.set_time_zone(zoned, "Europe/Berlin") == "Europe/Berlin"
    mem.append(zoned, "s", [TurnRecord("user", "I moved to Seattle yesterday.", source_id="z1",
                                       timestamp="2026-02-20T00:30:00")])
    fact = _facts(mem, zoned, "lives_in")["Seattle"]
    assert fact.mentioned_at == _utc(2026, 2, 19, 23, 30)
    berlin = timezone(timedelta(hours=1))
    assert (fact.occurred_start, fact.occurred_end) == (datetime(2026, 2, 19, tzinfo=berlin),
                                                        datetime(2026, 2, 20, tzinfo=berlin))
    # ... and an explicit offset still wins over it; a date alone is that local day's start.
    mem.append(zoned, "s", [TurnRecord("user", "I adopted a dog yesterday.", source_id="z2",
                                       timestamp="2026-03-01")])
    dog = next(iter(_facts(mem, zoned, "owns_count:dog").values()))
    assert dog.mentioned_at == datetime(2026, 3, 1, tzinfo=berlin)
    assert dog.occurred_start == datetime(2026, 2, 28, tzinfo=berlin)
    assert mem.set_time_zone(zoned, None) is None  # cleared: UTC again
    mem.append(zoned, "s", [TurnRecord("user", "I bought a new bike yesterday.", source_id="z3",
                                       timestamp="2026-03-05T00:30:00")])
    bike = next(iter(_facts(mem, zoned, "bought").values()))
    assert bike.occurred_start == _utc(2026, 3, 4)


def test_without_timestamps_nothing_changes(graph, user_id):
    """No timestamp: a new session's turns are dated at session_time, a later append's at the
    session's start (as before), and "yesterday" counts from that date."""
    mem = Memory(graph, embedder=FakeVectors())
    mem.append(user_id, "s1", [TurnRecord("user", "I live in Denver.", source_id="d1")],
               session_time=datetime(2024, 1, 10, 9, tzinfo=UTC))
    r = mem.append(user_id, "s1", [TurnRecord("user", "I moved to Boulder yesterday.",
                                              source_id="d2")])
    assert r.added[0].mentioned_at == _utc(2024, 1, 10, 9)
    boulder = _facts(mem, user_id, "lives_in")["Boulder"]
    assert boulder.mentioned_at == _utc(2024, 1, 10, 9)
    assert boulder.occurred_start == _utc(2024, 1, 9)


def test_a_bad_time_is_refused_and_nothing_is_written(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    good = TurnRecord("user", "I live in Denver.", source_id="g1", timestamp="2026-02-20")
    for bad, says in (("20 Feb 2026", "message 1: timestamp '20 Feb 2026' is not an ISO 8601"),
                      ("2026-02-30T10:00:00", "is not an ISO 8601"),
                      ("", "is not an ISO 8601"),
                      (1771545600, "must be an ISO 8601 date or datetime string")):
        with pytest.raises(OutOfBounds, match=says):
            mem.append(user_id, "s", [good, TurnRecord("user", "I moved to Seattle.",
                                                       timestamp=bad)])
    with pytest.raises(OutOfBounds, match="session_time 'soon' is not an ISO 8601"):
        mem.append(user_id, "s", [good], session_time="soon")
    with pytest.raises(OutOfBounds, match="not an IANA time zone name"):
        mem.set_time_zone(user_id, "Mars/Olympus_Mons")
    assert not mem.graph.read("user_exists", user_id=user_id)[0]["exists"]


def test_a_jsonl_file_with_timestamps_ingests_like_the_appends(graph, new_user, tmp_path):
    """The generic JSONL format carries a message's `timestamp` too: the file and the same
    messages appended one by one, days apart, end in the same facts and dates."""
    lines = [("m1", "2026-02-09T10:00:00Z", "I live in Denver."),
             ("m2", "2026-02-20T01:30:00+02:00", "I moved to Seattle yesterday."),
             ("m3", "2026-02-25T18:00:00Z", "I adopted a dog yesterday.")]
    by_file, by_append = new_user(), new_user()
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(
        f'{{"user_id": "{by_file}", "session_id": "s1", "session_time": "2026-02-09T10:00:00Z", '
        f'"role": "user", "content": "{text}", "turn_id": "{tid}", "timestamp": "{when}"}}\n'
        for tid, when, text in lines))
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest(load(path))
    for tid, when, text in lines:
        mem.append(by_append, "s1", [TurnRecord("user", text, source_id=tid, timestamp=when)])

    def seen(user: str) -> set[tuple]:
        return {(f.predicate, f.value, f.status, f.mentioned_at, f.occurred_start, f.valid_until)
                for f in mem.facts(user, history=True)}

    assert seen(by_file) == seen(by_append)
    assert (("lives_in", "Seattle", "active", _utc(2026, 2, 19, 23, 30),
             datetime(2026, 2, 19, tzinfo=PLUS2), None) in seen(by_file))
