"""Cursor pagination (graphmem.pages): opaque cursors that hold a listing's sort key, refused when
they are not one that listing gave."""

import pytest

from graphmem.errors import OutOfBounds
from graphmem.pages import MAX_CURSOR_CHARS, decode, encode, page

FIELDS = {"at": int, "session": str, "idx": int}


def test_a_cursor_holds_the_key_of_its_listing():
    key = {"at": 1_704_888_000_000_000, "session": "session:ab", "idx": 3}
    cursor = encode("turns", key)
    assert decode("turns", cursor, FIELDS) == key
    assert decode("turns", None, FIELDS) is None
    assert "=" not in cursor and "/" not in cursor and "+" not in cursor  # URL-safe as it is


@pytest.mark.parametrize("cursor", [
    "", "not-a-cursor", "%%%", "x" * (MAX_CURSOR_CHARS + 1),
    encode("sessions", {"at": 1, "session": "s", "idx": 1}),  # another listing's
    encode("turns", {"at": 1, "session": "s"}),  # a field missing
    encode("turns", {"at": "1", "session": "s", "idx": 1}),  # a field of the wrong type
    encode("turns", {"at": 1, "session": "s", "idx": True}),  # a bool is not a number
    encode("turns", {"at": 1, "session": "s", "idx": 1, "more": 0}),
])
def test_a_cursor_this_listing_did_not_give_is_refused(cursor):
    with pytest.raises(OutOfBounds, match="next_cursor"):
        decode("turns", cursor, FIELDS)


def test_a_page_has_a_cursor_only_when_more_rows_follow():
    rows = [{"at": i, "session": "s", "idx": i, "text": str(i)} for i in range(4)]
    key = {"at": "at", "session": "session", "idx": "idx"}
    full = page("turns", rows, 3, key, lambda r: r["text"])
    assert full.items == ["0", "1", "2"]
    assert decode("turns", full.next_cursor, FIELDS) == {"at": 2, "session": "s", "idx": 2}
    last = page("turns", rows[3:], 3, key, lambda r: r["text"])
    assert last.items == ["3"] and last.next_cursor is None
