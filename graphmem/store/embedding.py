"""Queries about the vector space: the recorded model, the vector indexes' width, and the
batches of `graphmem reembed` (pending nodes, staged vectors, the swap)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from graphmem.cypher import query

if TYPE_CHECKING:
    from ..db import Graph

_STAGE_KEYS = {"Turn": "turns", "MessagePiece": "pieces", "FactEvent": "facts",
               "Entity": "entities"}


def recorded_space(graph: Graph) -> dict[str, Any] | None:
    rows = graph.read("vector_space")
    return rows[0] if rows else None


def record_space(graph: Graph, model: str, dimensions: int) -> None:
    graph.write("vector_space_record", model=model, dimensions=dimensions)


def mark_target(graph: Graph, model: str, dimensions: int, phase: str) -> None:
    graph.write("vector_space_target", model=model, dimensions=dimensions, phase=phase)


def any_embedded(graph: Graph) -> bool:
    return bool(graph.read("embedded_any")[0]["found"])


def vector_index_dimensions(graph: Graph) -> dict[str, int]:
    return {r["name"]: int(r["dimensions"]) for r in graph.read("vector_index_dimensions")}


FILTERS_FROM = (2026, 1)  # the first release line with SEARCH ... WHERE on index properties


def server_filters_vectors(graph: Graph) -> bool:
    """True when the server's kernel is a calendar version of FILTERS_FROM or later."""
    rows = [r for r in graph.read("server_components") if r["name"] == "Neo4j Kernel"]
    m = re.match(r"(\d{4})\.(\d{2})", rows[0]["version"]) if rows else None
    return m is not None and (int(m.group(1)), int(m.group(2))) >= FILTERS_FROM


def _run_statements(graph: Graph, name: str, **params: Any) -> None:
    lines = [ln for ln in query(name).splitlines() if not ln.strip().startswith("//")]
    for statement in "\n".join(lines).split(";"):
        if statement.strip():
            graph.run_statement(statement.strip(), params)


def create_vector_indexes(graph: Graph, dimensions: int, *, user_filter: bool) -> None:
    """Drop and create the four vector indexes `dimensions` wide: carrying user_id (Cypher 25)
    where the server filters inside the index, plain otherwise."""
    _run_statements(graph, "schema_vector_user_filter" if user_filter else "schema_vector_plain",
                    dimensions=int(dimensions))


def backfill_piece_times(graph: Graph) -> None:
    """Embedded pieces without mentioned_at get their turn's (for the index's time filter)."""
    graph.run_statement(query("schema_vector_time_filter"))


def drop_vector_indexes(graph: Graph) -> None:
    _run_statements(graph, "vector_indexes_drop")


def reembed_counts(graph: Graph, user_id: str) -> dict[str, int]:
    return dict(graph.read("reembed_counts", user_id=user_id)[0])


def reembed_pending(graph: Graph, user_id: str, batch: int) -> list[dict[str, Any]]:
    return graph.read("reembed_pending", user_id=user_id, batch=batch)


def reembed_stage(graph: Graph, user_id: str, rows: list[dict[str, Any]],
                  vectors: list[list[float]]) -> int:
    groups: dict[str, list[dict[str, Any]]] = {k: [] for k in _STAGE_KEYS.values()}
    for row, vec in zip(rows, vectors, strict=True):
        groups[_STAGE_KEYS[row["label"]]].append({"id": row["id"], "vector": vec})
    return int(graph.write("reembed_stage", user_id=user_id, **groups)[0]["staged"])


def reembed_swap(graph: Graph, user_id: str, batch: int, *, discard: bool = False) -> int:
    return int(graph.write("reembed_swap", user_id=user_id, batch=batch,
                           discard=discard)[0]["swapped"])


def reembed_unknown(graph: Graph) -> list[dict[str, Any]]:
    return graph.read("reembed_unknown")
