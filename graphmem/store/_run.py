"""Running a named query inside a caller's transaction (the `Graph` runs the stand-alone ones)."""

from __future__ import annotations

from typing import Any

from graphmem.cypher import query


def run(tx: Any, name: str, /, **params: Any) -> None:
    """Run `cypher/<name>.cypher` in the transaction and discard its result."""
    tx.run(query(name), params).consume()


def rows(tx: Any, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """Run `cypher/<name>.cypher` in the transaction and return its rows."""
    return records(tx.run(query(name), params))


def records(result: Any) -> list[dict[str, Any]]:
    """A result's records as dicts of their values. The named queries return plain values
    (never nodes or relationships), so no `Record.data()` walk over every value is needed: it
    had cost a search more than unpacking its rows."""
    keys = result.keys()
    return [dict(zip(keys, tuple.__iter__(r), strict=True)) for r in result]
