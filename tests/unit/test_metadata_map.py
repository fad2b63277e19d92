"""A message's metadata as pure logic: the bounds every door shares, the stored pairs (their JSON
type kept) and the check an import file's pairs go through."""

from __future__ import annotations

import pytest

from graphmem.errors import OutOfBounds
from graphmem.metadata import from_pairs, pair_error, read_metadata, to_pairs


def test_a_flat_map_is_read_and_stored_as_sorted_typed_pairs():
    meta = {"run": 7, "agent": "planner", "ok": True, "score": 0.5}
    assert read_metadata(meta, "m") == meta
    pairs = to_pairs(meta)
    assert pairs == ['["agent","planner"]', '["ok",true]', '["run",7]', '["score",0.5]']
    assert from_pairs(pairs) == meta
    assert to_pairs({"run": "7"}) != to_pairs({"run": 7}) != to_pairs({"run": True})
    assert read_metadata(None, "m") is None and read_metadata({}, "m") is None
    assert to_pairs(None) is None and from_pairs(None) is None and from_pairs([]) is None


@pytest.mark.parametrize("value, why", [
    ({"a": {"b": 1}}, "is dict"), ({"a": [1]}, "is list"), ({"a": float("nan")}, "finite"),
    ({"k": 1} | {f"k{i}": i for i in range(16)}, "17 keys"), ({"k" * 65: 1}, "65 characters"),
    ({"a": "x" * 257}, "257 characters"), ({" ": 1}, "key is empty"), ({1: 1}, "not a string"),
    ({"a": "x\x00"}, "NUL"), ([("a", 1)], "must be an object"),
])
def test_bad_maps_are_one_line(value, why):
    with pytest.raises(OutOfBounds, match=why) as exc:
        read_metadata(value, "message 0: metadata")
    assert str(exc.value).startswith("message 0: metadata") and "\n" not in str(exc.value)


def test_stored_pairs_of_an_import_file_are_checked():
    assert pair_error(to_pairs({"agent": "planner"})) is None
    assert pair_error("agent=planner") and pair_error(['{"agent": "planner"}'])
    assert pair_error(["not json"]) and pair_error(['["a", {"b": 1}]'])
