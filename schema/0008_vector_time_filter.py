"""Vector indexes that carry `mentioned_at` as well as `user_id`, so a dense search with a question
date is filtered inside the index too (`SEARCH ... WHERE n.user_id = $u AND n.mentioned_at <= $t`)
instead of falling back to the exact scan.

Only on servers that filter inside vector indexes (Neo4j 2026.01 and newer): embedded pieces
without `mentioned_at` get their turn's, then the vector indexes are created again at their
current width in the shape `graphmem.store.embedding.create_vector_indexes` gives them (turns,
pieces and facts `WITH [n.user_id, n.mentioned_at]`). Running it again rebuilds the same indexes.
"""

from __future__ import annotations

from typing import Any

from graphmem.store.embedding import (
    backfill_piece_times,
    create_vector_indexes,
    recorded_space,
    server_filters_vectors,
    vector_index_dimensions,
)
from graphmem.store.search import forget_vector_index_probe


def _width(graph: Any) -> int:
    """The width the indexes have; if they disagree (or are missing), the recorded vector
    space's; else migration 4's (384)."""
    widths = set(vector_index_dimensions(graph).values())
    if len(widths) == 1:
        return widths.pop()
    space = recorded_space(graph)
    return int(space["dimensions"]) if space and space.get("dimensions") else 384


def migrate(graph: Any) -> dict[str, Any]:
    if not server_filters_vectors(graph):
        return {"vector_time_filter": False}
    backfill_piece_times(graph)
    create_vector_indexes(graph, _width(graph), user_filter=True)
    forget_vector_index_probe(graph)
    return {"vector_time_filter": True}
