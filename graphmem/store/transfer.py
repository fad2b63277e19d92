"""Queries that export one user's whole memory and restore it into a database without that user."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphmem.cypher import query

if TYPE_CHECKING:
    from ..db import Graph


def user_nodes(graph: Graph, user_id: str) -> list[dict[str, Any]]:
    """{label, props} of every node of the user, ordered by label and id."""
    return graph.read("export_nodes", user_id=user_id)


def user_edges(graph: Graph, user_id: str) -> list[dict[str, Any]]:
    """{from_label, from, type, props, to_label, to} of every edge of the user."""
    return graph.read("export_edges", user_id=user_id)


class IdsTaken(Exception):
    """Nodes of this database already hold these ids of the import (nothing was written)."""

    def __init__(self, ids: list[str]):
        super().__init__(", ".join(ids))
        self.ids = ids


def restore(graph: Graph, user_id: str, nodes: list[dict[str, Any]],
            edges: list[dict[str, Any]]) -> dict[str, int]:
    """Write the nodes and edges in one transaction (all of them or nothing); counts. IdsTaken,
    before anything is written, when a node of the database holds an id of the import."""

    def work(tx: Any) -> dict[str, int]:
        taken = [r["id"] for r in tx.run(query("import_taken_ids"),
                                         ids=[n["props"]["id"] for n in nodes])]
        if taken:
            raise IdsTaken(taken)
        counts: dict[str, int] = tx.run(query("import_nodes"), nodes=nodes).single().data()
        counts["edges"] = tx.run(query("import_edges"), user_id=user_id,
                                 edges=edges).single()["edges"]
        return counts

    with graph.session() as session:
        return session.execute_write(work)
