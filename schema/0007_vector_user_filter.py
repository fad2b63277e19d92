"""Vector indexes that carry `user_id`, so a dense search is filtered to one user inside the index.

On a server with Cypher 25's vector search with filters (Neo4j 2026.01 and newer) the four vector
indexes are dropped and created again `WITH [n.user_id]`; an older server keeps the plain indexes of
migration 4, and the dense tunnel detects that and scans the user's nodes exactly instead. Running
it again rebuilds the same indexes.
"""

from __future__ import annotations

from typing import Any

from graphmem.store.embedding import create_vector_indexes, server_filters_vectors
from graphmem.store.search import forget_vector_index_probe

supports_vector_filters = server_filters_vectors  # Neo4j 2026.01 and newer


def migrate(graph: Any) -> dict[str, Any]:
    if not supports_vector_filters(graph):
        return {"vector_user_filter": False}
    # As wide as the indexes of migration 4; graphmem.vectorspace widens them for another model.
    create_vector_indexes(graph, 384, user_filter=True)
    forget_vector_index_probe(graph)
    return {"vector_user_filter": True}
