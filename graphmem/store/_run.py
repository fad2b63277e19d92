"""Running a named query inside a caller's transaction (the `Graph` runs the stand-alone ones)."""

from __future__ import annotations

from typing import Any

from graphmem.cypher import query


def run(tx: Any, name: str, /, **params: Any) -> None:
    """Run `cypher/<name>.cypher` in the transaction and discard its result."""
    tx.run(query(name), params).consume()


def rows(tx: Any, name: str, /, **params: Any) -> list[dict[str, Any]]:
    """Run `cypher/<name>.cypher` in the transaction and return its rows."""
    return [r.data() for r in tx.run(query(name), params)]
