"""Cursor pagination for listings: a page of items and an opaque cursor that resumes after the
last one. A cursor is the last item's sort key (base64url JSON, tagged with its listing), so a
page never repeats or skips an item that existed when the listing began, whatever is added or
deleted between pages."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .errors import OutOfBounds

T = TypeVar("T")
MAX_CURSOR_CHARS = 1024


@dataclass
class Page(Generic[T]):
    items: list[T] = field(default_factory=list)
    next_cursor: str | None = None  # None: this was the last page

    def to_dict(self, name: str) -> dict[str, Any]:
        return {name: [i.to_dict() for i in self.items],  # type: ignore[attr-defined]
                "next_cursor": self.next_cursor}


def encode(listing: str, key: dict[str, Any]) -> str:
    raw = json.dumps({"l": listing, "k": key}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode(listing: str, cursor: str | None, fields: dict[str, type]) -> dict[str, Any] | None:
    """The sort key a cursor of `listing` holds (None: no cursor, the first page). OutOfBounds
    when it is not a cursor this listing gave: its `fields`, each of its type."""
    if cursor is None:
        return None
    bad = OutOfBounds(f"cursor {cursor[:40]!r} is not a cursor of this {listing} listing; pass "
                      "the next_cursor a page returned, or none for the first page")
    if not isinstance(cursor, str) or not cursor or len(cursor) > MAX_CURSOR_CHARS:
        raise bad
    try:
        data = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise bad from None
    key = data.get("k") if isinstance(data, dict) and data.get("l") == listing else None
    if not isinstance(key, dict) or set(key) != set(fields) or not all(
            isinstance(key[k], t) and not isinstance(key[k], bool) for k, t in fields.items()):
        raise bad
    return key


def page(listing: str, rows: list[dict[str, Any]], limit: int, key: dict[str, str],
         item: Any) -> Page[Any]:
    """The page of `rows` (fetched with `limit + 1`, to know whether more follow), each made an
    item by `item`; its cursor holds the sort key of its last row (`key`: key field → column)."""
    shown = rows[:limit]
    cursor = None
    if len(rows) > limit and shown:
        cursor = encode(listing, {k: shown[-1][column] for k, column in key.items()})
    return Page([item(r) for r in shown], cursor)
