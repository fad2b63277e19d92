"""Neo4j time conversion, in one place: every stored time is a fixed-offset UTC datetime."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any


def utc(value: datetime | None) -> datetime | None:
    """A Python datetime as fixed-offset UTC (naive means UTC): how every time is written."""
    if value is None:
        return None
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)


def utc_native(value: Any) -> Any:
    """A Neo4j or Python datetime as a Python datetime with a fixed UTC offset (None stays None).

    Always a fixed offset: Neo4j orders equal instants with a named zone ("[UTC]") after those
    with an offset, so mixing the two would break interval boundaries."""
    value = value.to_native() if hasattr(value, "to_native") else value
    return value.astimezone(UTC) if value is not None else None


def native(value: Any) -> Any:
    """A row (or any nesting of dicts and lists) with Neo4j temporal values made Python ones."""
    if hasattr(value, "to_native"):
        return value.to_native()
    if isinstance(value, dict):
        return {k: native(v) for k, v in value.items()}
    if isinstance(value, list):
        return [native(v) for v in value]
    return value


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def from_epoch_us(value: int | None) -> datetime | None:
    """A time a query returned as microseconds since the epoch (`t.epochSeconds * 1000000 +
    t.microsecond`, cheaper to unpack than the driver's DateTime) as a UTC datetime."""
    return None if value is None else _EPOCH + timedelta(microseconds=value)
