"""Read paths over time and cards: facts valid at a moment, timelines, and memory-card parts."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from .nodes import FactEvent, MadeFact, Turn
from .time import native, utc

if TYPE_CHECKING:
    from ..db import Graph


def facts_as_of(graph: Graph, user_id: str, as_of: datetime | None, *, predicate: str | None,
                history: bool, limit: int, known_at: datetime | None = None,
                metadata: list[str] | None = None) -> list[FactEvent]:
    """`known_at`: only facts mentioned by then (a question date); `metadata`: only facts from
    turns holding every one of these pairs (graphmem.metadata.to_pairs)."""
    rows = graph.read("facts_as_of", user_id=user_id, as_of=utc(as_of), predicate=predicate,
                      history=history, limit=limit, known_at=utc(known_at), metadata=metadata)
    return [FactEvent.from_row(r) for r in rows]


def timeline(graph: Graph, user_id: str, *, entity_norm: str | None, predicate: str | None,
             since: datetime | None, until: datetime | None, limit: int,
             known_at: datetime | None = None,
             metadata: list[str] | None = None) -> list[FactEvent]:
    rows = graph.read("timeline", user_id=user_id, entity=entity_norm, predicate=predicate,
                      since=utc(since), until=utc(until), limit=limit, known_at=utc(known_at),
                      metadata=metadata)
    return [FactEvent.from_row(r) for r in rows]


def find_node(graph: Graph, user_id: str, node_id: str, norm_name: str) -> tuple[str, str] | None:
    """(label, stored id) of the user's node named by a graphmem id, source turn id or name."""
    found = graph.read("inspect_node", user_id=user_id, id=node_id, norm_name=norm_name)
    return (found[0]["label"], found[0]["id"]) if found else None


def _card(graph: Graph, query_name: str, user_id: str, node_id: str) -> dict[str, Any]:
    """The one row of a query that describes one node, its times made Python ones."""
    card: dict[str, Any] = native(graph.read(query_name, user_id=user_id, id=node_id)[0])
    return card


def fact_card(graph: Graph, user_id: str, fact_id: str) -> dict[str, Any]:
    return _card(graph, "inspect_fact", user_id, fact_id)


def entity_card(graph: Graph, user_id: str, entity_id: str) -> dict[str, Any]:
    return _card(graph, "inspect_entity", user_id, entity_id)


def turn_card(graph: Graph, user_id: str, turn_id: str) -> dict[str, Any]:
    return _card(graph, "inspect_turn", user_id, turn_id)


def piece(graph: Graph, user_id: str, piece_id: str) -> dict[str, Any]:
    return _card(graph, "piece_by_id", user_id, piece_id)


# --- one memory at a time: listings and single items -------------------------------------------


def sessions_page(graph: Graph, user_id: str, after: dict[str, Any] | None,
                  limit: int) -> list[dict[str, Any]]:
    """Up to `limit` sessions of the user after the key `after` ({at, id}), each with its key."""
    return graph.read("sessions_page", user_id=user_id, after=after, limit=limit)


def turns_page(graph: Graph, user_id: str, session_id: str | None, after: dict[str, Any] | None,
               limit: int) -> list[dict[str, Any]]:
    """Up to `limit` turns of the user (of one stored session) after the key `after`
    ({at, session, idx}), in conversation order, each with its key."""
    return graph.read("turns_page", user_id=user_id, session_id=session_id, after=after,
                      limit=limit)


def turns_named(graph: Graph, user_id: str, turn_id: str) -> list[Turn]:
    """The user's turns named by a stored id or a source turn id (none, one, or — a source id two
    sessions share — more), with the ids of the facts derived from each."""
    return [Turn.from_row(r) for r in graph.read("turn_by_id", user_id=user_id, id=turn_id)]


def turns_with_metadata(graph: Graph, user_id: str, turn_ids: list[str],
                        metadata: list[str]) -> set[str]:
    """Those of the user's stored turn ids whose metadata holds every pair in `metadata`."""
    rows = graph.read("turns_with_metadata", user_id=user_id, ids=turn_ids, metadata=metadata)
    return {r["id"] for r in rows}


def facts_made_by_turns(graph: Graph, user_id: str, turn_ids: list[str]) -> list[MadeFact]:
    """The facts derived from these stored turns of the user, with what each replaced."""
    rows = graph.read("facts_made_by_turns", user_id=user_id, turn_ids=turn_ids)
    return [MadeFact.from_row(r) for r in rows]


def fact(graph: Graph, user_id: str, fact_id: str) -> FactEvent | None:
    found = graph.read("fact_by_id", user_id=user_id, id=fact_id)
    return FactEvent.from_row(found[0]) if found else None
