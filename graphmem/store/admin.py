"""Queries about the database and whole users: schema records, server version, stats, forget."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphmem.cypher import query

from ..errors import UnknownUser

if TYPE_CHECKING:
    from ..db import Graph


def applied_versions(graph: Graph) -> set[int]:
    return {row["version"] for row in graph.read("schema_applied_versions")}


def record_version(graph: Graph, version: int, name: str) -> None:
    graph.write("schema_record_version", version=version, name=name)


def schema_listing(graph: Graph) -> dict[str, list[dict[str, Any]]]:
    """The applied migrations, the constraints and the indexes, as the server lists them."""
    return {"versions": graph.read("schema_applied_versions"),
            "constraints": graph.read("schema_list_constraints"),
            "indexes": graph.read("schema_list_indexes")}


def server_version(graph: Graph) -> str:
    rows = graph.read("server_components")
    return f"{rows[0]['name']} {rows[0]['version']} {rows[0]['edition']}" if rows else "?"


def user_exists(graph: Graph, user_id: str) -> bool:
    return bool(graph.read("user_exists", user_id=user_id)[0]["exists"])


def require_user(graph: Graph, user_id: str) -> None:
    """Raise UnknownUser when the user has no memory in this database."""
    if not user_exists(graph, user_id):
        raise UnknownUser(f"no memory for user {user_id!r}")


def stats(graph: Graph, user_id: str | None = None) -> dict[str, int]:
    """Counts of users, sessions, turns, pieces, facts and entities (of one user, or all)."""
    return dict(graph.read("stats", user_id=user_id)[0])


def facts_by_extractor(graph: Graph, user_id: str | None = None) -> dict[str, int]:
    """How many facts each rule, model version or LLM made (of one user, or all)."""
    return {r["extracted_by"]: r["facts"] for r in graph.read("stats_extracted_by", user_id=user_id)}


def forget_batch(graph: Graph, user_id: str, batch: int) -> int:
    """Delete up to `batch` nodes of each kind of one user; the number deleted."""
    return int(graph.write("forget_user_batch", user_id=user_id, batch=batch)[0]["deleted"])


def forget_user(graph: Graph, user_id: str, batch: int = 5000) -> int:
    """Delete every node of one user (and only that user), in bounded transactions; how many."""
    total = 0
    while True:
        deleted = forget_batch(graph, user_id, batch)
        total += deleted
        if deleted == 0:
            return total


def cross_user_edges(graph: Graph) -> int:
    """Edges whose two ends belong to different users (or to none): must always be 0."""
    return int(graph.read("cross_user_edges")[0]["edges"])


# --- migration 0011: speakers kept on the user -----------------------------------------------------


def keep_user_speakers(graph: Graph, user_id: str, *, only_missing: bool = False) -> None:
    """Set the user's `speakers` from the speakers of its turns (`only_missing`: if it has none)."""
    graph.write("migrate_user_speakers", user_id=user_id, only_missing=only_missing)


def plan_slot_facts(graph: Graph, user_id: str, predicates: list[str]) -> list[dict[str, Any]]:
    """One user's facts of these predicates with the slot each is stored under."""
    return graph.read("migrate_plan_slots", user_id=user_id, predicates=predicates)


def set_fact_slots(graph: Graph, user_id: str, rows: list[dict[str, Any]]) -> None:
    """Store new slot keys (`[{"id", "slot"}]`) for some of one user's facts, in one write."""
    if rows:
        graph.write("migrate_set_slots", user_id=user_id, rows=rows)


def activity_facts(graph: Graph, user_id: str) -> list[dict[str, Any]]:
    """One user's activity facts (`does:<key>`) with the slot each is stored under."""
    return graph.read("migrate_activity_facts", user_id=user_id)


def set_fact_predicates(graph: Graph, user_id: str, rows: list[dict[str, Any]]) -> None:
    """Store new predicates and slots (`[{"id", "predicate", "slot"}]`) for some of one user's
    facts and the relation edges they state, in one write."""
    if rows:
        graph.write("migrate_set_predicates", user_id=user_id, rows=rows)


# --- migration 0005: re-keying ids -----------------------------------------------------------------


def all_user_ids(graph: Graph) -> list[str]:
    return [row["user_id"] for row in graph.read("migrate_users")]


def id_parts(tx: Any, user_id: str) -> dict[str, list[dict[str, Any]]]:
    """The stored parts each of one user's ids is derived from, by label."""
    parts: dict[str, list[dict[str, Any]]] = tx.run(query("migrate_id_parts"),
                                                    user_id=user_id).single().data()
    return parts


def rekey(tx: Any, user_id: str, plan: dict[str, Any]) -> dict[str, int]:
    """Give one user's nodes their new ids (old ones kept as `legacy_id`); counts by label."""
    counts: dict[str, int] = tx.run(query("migrate_rekey"), user_id=user_id, **plan).single().data()
    return counts


def half_written_sessions(graph: Graph, user_id: str) -> int:
    """Sessions of the user whose stored turns differ from the count recorded with them."""
    return int(graph.read("half_written_sessions", user_id=user_id)[0]["sessions"])


def half_written_sessions_all(graph: Graph) -> int:
    return int(graph.read("half_written_sessions_all")[0]["sessions"])


def users_with_stale_rules(graph: Graph, rules: str) -> list[str]:
    """Users whose slots were not all decided by these currency rules (graphmem.currency_rules)."""
    return [row["user_id"] for row in graph.read("users_stale_rules", rules=rules)]
