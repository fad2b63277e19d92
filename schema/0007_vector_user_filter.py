"""Vector indexes that carry `user_id`, so a dense search is filtered to one user inside the index.

On a server with Cypher 25's vector search with filters (Neo4j 2026.01 and newer) the four vector
indexes are dropped and created again `WITH [n.user_id]`; an older server keeps the plain indexes of
migration 4, and the dense tunnel detects that and scans the user's nodes exactly instead. Running
it again rebuilds the same indexes.
"""

from __future__ import annotations

import re
from typing import Any

from graphmem.cypher import query
from graphmem.store.search import forget_vector_index_probe

FIRST = (2026, 1)  # the first release line with SEARCH ... WHERE on index properties


def supports_vector_filters(graph: Any) -> bool:
    """True when the server's kernel version is a calendar version of FIRST or later."""
    rows = [r for r in graph.read("server_components") if r["name"] == "Neo4j Kernel"]
    m = re.match(r"(\d{4})\.(\d{2})", rows[0]["version"]) if rows else None
    return bool(m) and (int(m.group(1)), int(m.group(2))) >= FIRST


def run_statements(graph: Any, name: str) -> None:
    """Run the `;`-separated statements of cypher/`name`.cypher one by one, then make the dense
    tunnel look at the rebuilt indexes again."""
    lines = [ln for ln in query(name).splitlines() if not ln.strip().startswith("//")]
    for statement in "\n".join(lines).split(";"):
        if statement.strip():
            graph.run_statement(statement.strip())
    forget_vector_index_probe(graph)


def migrate(graph: Any) -> dict[str, Any]:
    if not supports_vector_filters(graph):
        return {"vector_user_filter": False}
    run_statements(graph, "schema_vector_user_filter")
    return {"vector_user_filter": True}
