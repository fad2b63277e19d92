"""A message's metadata: a small flat map of string keys to strings, numbers or booleans, kept on
its turn and used to filter search, facts and timelines ("only evidence from turns whose
metadata has all these pairs").

Neo4j cannot store a map as a property, so a turn keeps its metadata as one list property of
pairs, each the canonical JSON of `[key, value]` (`'["agent", "planner"]'`). One property holds
the whole map (nothing to clean up, no property names made from user keys), the value's JSON type
is kept (`1`, `"1"` and `true` are three values), and a filter is plain list membership in Cypher
with the pairs passed as a parameter: `all(p IN $metadata WHERE p IN t.metadata)`.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import OutOfBounds

MAX_METADATA_KEYS = 16
MAX_METADATA_KEY_CHARS = 64
MAX_METADATA_VALUE_CHARS = 256

Metadata = dict[str, str | int | float | bool]


def read_metadata(value: Any, name: str) -> Metadata | None:
    """The map, checked: OutOfBounds (one line naming `name`) unless it is None or a flat object
    of at most MAX_METADATA_KEYS non-empty string keys (≤ MAX_METADATA_KEY_CHARS) to strings
    (≤ MAX_METADATA_VALUE_CHARS), finite numbers or booleans. An empty map is None."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise OutOfBounds(f"{name} must be an object of keys to strings, numbers or booleans "
                          f"(got {type(value).__name__})")
    if len(value) > MAX_METADATA_KEYS:
        raise OutOfBounds(f"{name} has {len(value)} keys; at most {MAX_METADATA_KEYS} are "
                          "accepted")
    for key, v in value.items():
        _check_key(key, name)
        _check_value(key, v, name)
    return dict(value) or None


# The scope of a memory within its user: which agent wrote it, in which run. Reserved metadata
# keys with a parameter of their own on append, search, facts and timeline (every door), so an
# agent framework's agent_id / run_id need no metadata map; a user stays the tenant.
SCOPE_DOC = {
    "agent_id": "The agent the messages come from (appending), or only memory from that "
                "agent's messages (reading): the reserved metadata key agent_id.",
    "run_id": "The run (one task, one episode) the messages belong to (appending), or only "
              "memory from that run (reading): the reserved metadata key run_id.",
}


def scoped(metadata: Any, name: str, **scope: str | None) -> Any:
    """`metadata` with the scope given (agent_id, run_id: the keys of SCOPE_DOC) added as
    pairs; OutOfBounds when a scope value is not a string or the map holds another value for
    its key. Then read_metadata checks the whole map as usual."""
    given = {k: v for k, v in scope.items() if v is not None}
    for key, value in given.items():
        if key not in SCOPE_DOC:
            raise TypeError(f"unknown scope {key!r}")
        if not isinstance(value, str) or not value.strip():
            raise OutOfBounds(f"{key} must be a non-empty string")
        held = metadata.get(key, value) if isinstance(metadata, dict) else value
        if held != value:
            raise OutOfBounds(f"{name} gives {key} {held!r} but the call's {key} is "
                              f"{value!r}; give it once")
    if not given or (metadata is not None and not isinstance(metadata, dict)):
        return metadata  # nothing to add, or a bad map read_metadata names
    return {**(metadata or {}), **given}


def _check_key(key: Any, name: str) -> None:
    if not isinstance(key, str) or not key.strip() or "\x00" in key:
        raise OutOfBounds(f"{name}: a key is empty, not a string or holds NUL ({key!r})")
    if len(key) > MAX_METADATA_KEY_CHARS:
        raise OutOfBounds(f"{name}: key {key[:20]!r}… is {len(key)} characters long; at most "
                          f"{MAX_METADATA_KEY_CHARS} are accepted")


def _check_value(key: str, v: Any, name: str) -> None:
    if isinstance(v, str):
        if len(v) > MAX_METADATA_VALUE_CHARS:
            raise OutOfBounds(f"{name}: the value of {key!r} is {len(v):,} characters long; "
                              f"at most {MAX_METADATA_VALUE_CHARS} are accepted")
        if "\x00" in v:
            raise OutOfBounds(f"{name}: the value of {key!r} contains a NUL character")
    elif isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise OutOfBounds(f"{name}: the value of {key!r} is not a finite number")
    elif not isinstance(v, int | bool):  # bool is an int; both are fine
        raise OutOfBounds(f"{name}: the value of {key!r} is {type(v).__name__}; only "
                          "strings, numbers and booleans are accepted (no nested objects "
                          "or lists)")


def to_pairs(metadata: Metadata | None) -> list[str] | None:
    """The stored (and filtering) form: canonical JSON `[key, value]` pairs, sorted by key."""
    if not metadata:
        return None
    return [json.dumps([k, metadata[k]], ensure_ascii=False, separators=(",", ":"))
            for k in sorted(metadata)]


def from_pairs(pairs: list[str] | None) -> Metadata | None:
    """The map a turn's stored pairs hold (None when it has none)."""
    if not pairs:
        return None
    return {k: v for k, v in (json.loads(p) for p in pairs)}


def pair_error(pairs: Any) -> str | None:
    """Why a stored `metadata` property (of an import file) is not pairs `to_pairs` would
    write, or None when it is."""
    if not isinstance(pairs, list) or not all(isinstance(p, str) for p in pairs):
        return "metadata must be a list of JSON [key, value] pairs"
    try:
        decoded = [json.loads(p) for p in pairs]
        if not all(isinstance(d, list) and len(d) == 2 for d in decoded):
            raise ValueError
        read_metadata(dict(decoded), "metadata")
    except (ValueError, TypeError, OutOfBounds) as exc:
        return f"metadata is not a valid map of pairs ({exc or 'not [key, value] pairs'})"
    return None
