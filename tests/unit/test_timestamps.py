"""A message's own time, without a database: reading timestamps and time zones, the local day a
message's phrases resolve in, and the JSONL format's `timestamp`."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from graphmem.errors import InputError, OutOfBounds
from graphmem.loaders import load
from graphmem.temporal import resolve_time_expression
from graphmem.timestamps import local, read_time_zone, read_timestamp

PLUS2 = timezone(timedelta(hours=2))


def test_read_timestamp_takes_iso_dates_and_datetimes():
    assert read_timestamp(None, "t") is None
    assert read_timestamp("2026-02-20", "t") == datetime(2026, 2, 20)
    assert read_timestamp(" 2026-02-20T01:30:00+02:00 ", "t") == datetime(2026, 2, 20, 1, 30,
                                                                           tzinfo=PLUS2)
    assert read_timestamp("2026-02-20T01:30Z", "t") == datetime(2026, 2, 20, 1, 30, tzinfo=UTC)
    assert read_timestamp(date(2026, 2, 20), "t") == datetime(2026, 2, 20)
    when = datetime(2026, 2, 20, 1, 30, tzinfo=PLUS2)
    assert read_timestamp(when, "t") is when


@pytest.mark.parametrize(("value", "says"), [
    ("20 Feb 2026", "is not an ISO 8601 date or datetime"),
    ("2026-02-30", "is not an ISO 8601"),
    ("", "is not an ISO 8601"),
    ("2026-02-20T01:30:00\x00", "is not an ISO 8601"),
    ("9" * 200, "is not an ISO 8601"),
    (1771545600, "must be an ISO 8601 date or datetime string"),
    (True, "must be an ISO 8601 date or datetime string"),
    ("0001-01-01T00:30:00+02:00", "outside the calendar"),
])
def test_read_timestamp_refuses_what_is_not_one_in_one_line(value, says):
    with pytest.raises(OutOfBounds, match=says) as caught:
        read_timestamp(value, "message 3: timestamp")
    assert str(caught.value).startswith("message 3: timestamp") and "\n" not in str(caught.value)


def test_read_time_zone_knows_iana_names_only():
    assert read_time_zone("Europe/Berlin") == ZoneInfo("Europe/Berlin")
    for bad in ("Mars/Base", "", "../../etc/passwd", None, 5, "x" * 100):
        with pytest.raises(OutOfBounds, match="not an IANA time zone name"):
            read_time_zone(bad)


def test_local_keeps_an_offset_else_applies_the_zone_else_utc():
    berlin = ZoneInfo("Europe/Berlin")
    given = datetime(2026, 2, 20, 1, 30, tzinfo=PLUS2)
    assert local(given, berlin) is given
    assert local(datetime(2026, 2, 20, 1, 30), berlin).utcoffset() == timedelta(hours=1)
    assert local(datetime(2026, 7, 20, 1, 30), berlin).utcoffset() == timedelta(hours=2)
    assert local(datetime(2026, 2, 20, 1, 30), None).tzinfo is UTC


def test_yesterday_is_the_day_before_in_the_messages_own_day():
    sent = datetime(2026, 2, 20, 1, 30, tzinfo=PLUS2)
    own = resolve_time_expression("yesterday", local(sent, None))
    assert (own.start, own.end) == (datetime(2026, 2, 19, tzinfo=PLUS2),
                                    datetime(2026, 2, 20, tzinfo=PLUS2))
    in_utc = resolve_time_expression("yesterday", sent.astimezone(UTC))  # what it was before
    assert in_utc.start.date() == date(2026, 2, 18)


def test_jsonl_lines_carry_their_timestamp(tmp_path):
    path = tmp_path / "chat.jsonl"
    path.write_text(
        '{"user_id": "u", "session_id": "s", "session_time": "2026-02-09T10:00:00Z", '
        '"role": "user", "content": "I live in Leeds."}\n'
        '{"user_id": "u", "session_id": "s", "role": "user", "content": "I moved yesterday.", '
        '"timestamp": "2026-02-20T01:30:00+02:00"}\n')
    (transcript,) = load(path)
    turns = transcript.sessions[0].turns
    assert [t.timestamp for t in turns] == [None, datetime(2026, 2, 20, 1, 30, tzinfo=PLUS2)]
    path.write_text('{"user_id": "u", "session_id": "s", "session_time": "2026-02-09T10:00:00Z", '
                    '"role": "user", "content": "hi", "timestamp": 5}\n')
    with pytest.raises(InputError, match='line 1: "timestamp" must be a string'):
        list(load(path))
    path.write_text('{"user_id": "u", "session_id": "s", "session_time": "2026-02-09T10:00:00Z", '
                    '"role": "user", "content": "hi", "timestamp": "whenever"}\n')
    with pytest.raises(InputError, match="line 1: cannot read the time 'whenever'"):
        list(load(path))
