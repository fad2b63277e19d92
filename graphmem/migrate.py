"""Apply the ordered migrations of `schema/` once each, one statement at a time, then wait for indexes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from neo4j.exceptions import Neo4jError

from graphmem.schema import migrations

from .config import Settings
from .db import Graph
from .errors import SchemaError
from .store import admin as store


@dataclass
class SchemaReport:
    applied: list[str]
    version: int


def applied_versions(graph: Graph) -> set[int]:
    return store.applied_versions(graph)


def apply_schema(graph: Graph, *, only_if_needed: bool = False, await_s: int = 300) -> SchemaReport:
    """Run every migration not yet recorded. Statements are idempotent (IF NOT EXISTS), so a
    crash between a statement and the version record is repaired by running again."""
    all_migrations = migrations()
    done = applied_versions(graph)
    pending = [m for m in all_migrations if m.version not in done]
    latest = all_migrations[-1].version if all_migrations else 0
    if only_if_needed and not pending:
        return SchemaReport([], latest)
    applied = []
    for m in pending:
        if m.run is not None:
            try:
                m.run(graph)
            except Neo4jError as exc:
                raise SchemaError(f"schema migration {m.version:04d}_{m.name} failed: "
                                  f"{exc.code}: {exc.message}") from None
        for statement in m.statements:
            try:
                graph.run_statement(statement)
            except Neo4jError as exc:
                raise SchemaError(
                    f"schema migration {m.version:04d}_{m.name} failed on:\n{statement}\n"
                    f"{exc.code}: {exc.message}"
                ) from None
        store.record_version(graph, m.version, m.name)
        applied.append(f"{m.version:04d}_{m.name}")
    graph.run_statement(f"CALL db.awaitIndexes({int(await_s)})")
    return SchemaReport(applied, latest)


def connect(settings: Settings | None = None, *, start_local: bool = True,
            echo: Callable[[str], None] = lambda _m: None, retry_s: float = 15) -> Graph:
    """`Graph.connect`, then the migrations not yet applied: a database ready for memory."""
    graph = Graph.connect(settings, start_local=start_local, echo=echo, retry_s=retry_s)
    try:
        apply_schema(graph, only_if_needed=True)
    except BaseException:
        graph.close()
        raise
    return graph


def schema_status(graph: Graph) -> dict[str, Any]:
    return {
        **store.schema_listing(graph),
    }
