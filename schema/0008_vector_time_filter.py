"""Vector indexes that carry `mentioned_at` as well as `user_id`, so a dense search with a question
date is filtered inside the index too (`SEARCH ... WHERE n.user_id = $u AND n.mentioned_at <= $t`)
instead of falling back to the exact scan.

Only on the servers migration 7 rebuilt (Neo4j 2026.01 and newer); the turn, piece and fact
indexes are dropped and created again `WITH [n.user_id, n.mentioned_at]` (the entity index keeps
migration 7's), after embedded pieces without `mentioned_at` get their turn's. Running it again
rebuilds the same indexes.
"""

from __future__ import annotations

import importlib
from typing import Any

_user_filter = importlib.import_module("graphmem.schema.0007_vector_user_filter")


def migrate(graph: Any) -> dict[str, Any]:
    if not _user_filter.supports_vector_filters(graph):
        return {"vector_time_filter": False}
    _user_filter.run_statements(graph, "schema_vector_time_filter")
    return {"vector_time_filter": True}
