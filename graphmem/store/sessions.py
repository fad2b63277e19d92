"""Writing one session (or new turns of one) inside its transaction, and what a write looks up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._run import run
from .nodes import Session
from .time import utc_native

if TYPE_CHECKING:
    from ..db import Graph


def session(graph: Graph, user_id: str, session_id: str) -> Session | None:
    """The stored session with this id, if it is this user's."""
    found = graph.read("session_exists", user_id=user_id, session_id=session_id)
    if not found:
        return None
    r = found[0]
    return Session(r["id"], r["source_id"], utc_native(r["started_at"]), r["turn_count"] or 0,
                   r["content_hash"], list(r["deleted_idxs"] or []))


def known_turn_sources(graph: Graph, user_id: str, session_id: str,
                       source_ids: list[str]) -> set[str]:
    """Which of these source turn ids the session already holds."""
    return {r["source_id"] for r in graph.read("session_known_turns", user_id=user_id,
                                               session_id=session_id, source_ids=source_ids)}


def user_time_zone(graph: Graph, user_id: str) -> str | None:
    """The IANA time zone the user's message times without an offset are read in, if set."""
    found = graph.read("user_time_zone", user_id=user_id)
    return found[0]["time_zone"] if found else None


def set_user_time_zone(graph: Graph, user_id: str, time_zone: str | None, rules: str) -> None:
    """Set (None: clear) the user's time zone; the user is created on first use, with no slot:
    every slot decided by `rules` (graphmem.currency_rules)."""
    graph.write("user_set_time_zone", user_id=user_id, time_zone=time_zone, rules=rules)


def write_session(tx: Any, user_id: str, session_row: dict[str, Any], rules: str | None) -> None:
    """The user and the whole session (a full ingest: its turn count and content hash); `rules`:
    the currency rules that decide the write's slots (None: currency off)."""
    run(tx, "ingest_session", user_id=user_id, session=session_row, rules=rules)


def grow_session(tx: Any, user_id: str, session_row: dict[str, Any], added: int,
                 rules: str | None) -> None:
    """The user and the session, created on first use; `added` turns join its count and the
    content hash is cleared (it no longer describes a transcript); `rules` as write_session's."""
    run(tx, "append_session", user_id=user_id, session=session_row, added=added, rules=rules)


def write_turns(tx: Any, user_id: str, session_id: str, turns: list[dict[str, Any]],
                links: list[dict[str, Any]]) -> None:
    run(tx, "ingest_turns", user_id=user_id, session_id=session_id, turns=turns)
    if links:
        run(tx, "ingest_turn_links", user_id=user_id, links=links)


def write_pieces(tx: Any, user_id: str, session_id: str, pieces: list[dict[str, Any]]) -> None:
    if pieces:
        run(tx, "ingest_pieces", user_id=user_id, session_id=session_id, pieces=pieces)


def write_facts(tx: Any, user_id: str, session_id: str, facts: list[dict[str, Any]],
                entities: list[dict[str, Any]], roles: list[dict[str, Any]],
                relations: list[dict[str, Any]]) -> None:
    """Entities, facts, their role edges and the entity–entity relation edges."""
    if entities:
        run(tx, "ingest_entities", user_id=user_id, entities=entities)
    if facts:
        run(tx, "ingest_facts", user_id=user_id, session_id=session_id, facts=facts)
    if roles:
        run(tx, "ingest_roles", user_id=user_id, roles=roles)
    if relations:
        run(tx, "ingest_relations", user_id=user_id, relations=relations)


def resolve_entities(graph: Graph, user_id: str, entities: list[dict[str, Any]],
                     min_cosine: float) -> dict[str, str]:
    """New entity id → the known entity it is an alias of, by name embedding."""
    found = graph.read("entity_resolve", user_id=user_id, entities=entities, min_cosine=min_cosine)
    return {r["id"]: r["existing_id"] for r in found if r["existing_id"]}
