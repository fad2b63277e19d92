"""A message's own time: an ISO 8601 timestamp read and checked, a user's time zone, and the local
moment a message's time phrases ("yesterday") are resolved against."""

from __future__ import annotations

from datetime import UTC, date, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import OutOfBounds

_EXAMPLE = "e.g. 2026-02-20, 2026-02-20T01:30:00 or 2026-02-20T01:30:00+02:00"
MAX_TIMESTAMP_CHARS = 64
MAX_ZONE_CHARS = 64


def read_timestamp(value: Any, name: str) -> datetime | None:
    """An ISO 8601 date or datetime (a string, a `date` or a `datetime`; with or without an
    offset) as a datetime: naive when it names no offset, so the user's time zone can still
    apply. None stays None; anything else raises OutOfBounds naming `name`."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        if not text or len(text) > MAX_TIMESTAMP_CHARS or not text.isprintable():
            raise OutOfBounds(f"{name} {value[:MAX_TIMESTAMP_CHARS]!r} is not an ISO 8601 date or "
                              f"datetime ({_EXAMPLE})")
        try:
            value = datetime.fromisoformat(text)
        except ValueError:
            raise OutOfBounds(f"{name} {value!r} is not an ISO 8601 date or datetime "
                              f"({_EXAMPLE})") from None
    elif isinstance(value, date) and not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    if not isinstance(value, datetime):
        raise OutOfBounds(f"{name} must be an ISO 8601 date or datetime string ({_EXAMPLE}), "
                          f"not {type(value).__name__}")
    try:  # the stored form is UTC: a time at the very edge of the calendar has none
        local(value, None).astimezone(UTC)
    except (OverflowError, ValueError):
        raise OutOfBounds(f"{name} {value.isoformat()!r} is outside the calendar that can be "
                          "stored; give a real date") from None
    return value


def read_time_zone(name: Any) -> ZoneInfo:
    """An IANA time zone name ("Europe/Berlin", "UTC") as a zone; OutOfBounds otherwise."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_ZONE_CHARS:
        raise OutOfBounds(f"time_zone {name!r} is not an IANA time zone name "
                          "(e.g. Europe/Berlin, America/New_York, UTC)")
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise OutOfBounds(f"time_zone {name!r} is not an IANA time zone name "
                          "(e.g. Europe/Berlin, America/New_York, UTC)") from None


def local(value: datetime, zone: tzinfo | None) -> datetime:
    """`value` as an aware datetime in its own local day: with the offset it was given, else in
    `zone` (the user's time zone), else UTC. Time phrases of a message resolve against this
    ("yesterday" sent at 01:30+02:00 is the day before in that zone); it is stored as UTC."""
    if value.tzinfo is not None and value.utcoffset() is not None:
        return value
    return value.replace(tzinfo=zone or UTC)
