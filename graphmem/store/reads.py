"""Read paths over time and cards: facts valid at a moment, timelines, and memory-card parts."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from .nodes import FactEvent
from .time import native, utc

if TYPE_CHECKING:
    from ..db import Graph


def facts_as_of(graph: Graph, user_id: str, as_of: datetime | None, *, predicate: str | None,
                history: bool, limit: int) -> list[FactEvent]:
    rows = graph.read("facts_as_of", user_id=user_id, as_of=utc(as_of), predicate=predicate,
                      history=history, limit=limit)
    return [FactEvent.from_row(r) for r in rows]


def timeline(graph: Graph, user_id: str, *, entity_norm: str | None, predicate: str | None,
             since: datetime | None, until: datetime | None, limit: int) -> list[FactEvent]:
    rows = graph.read("timeline", user_id=user_id, entity=entity_norm, predicate=predicate,
                      since=utc(since), until=utc(until), limit=limit)
    return [FactEvent.from_row(r) for r in rows]


def find_node(graph: Graph, user_id: str, node_id: str, norm_name: str) -> tuple[str, str] | None:
    """(label, stored id) of the user's node named by a graphmem id, source turn id or name."""
    found = graph.read("inspect_node", user_id=user_id, id=node_id, norm_name=norm_name)
    return (found[0]["label"], found[0]["id"]) if found else None


def fact_card(graph: Graph, user_id: str, fact_id: str) -> dict[str, Any]:
    return native(graph.read("inspect_fact", user_id=user_id, id=fact_id)[0])


def entity_card(graph: Graph, user_id: str, entity_id: str) -> dict[str, Any]:
    return native(graph.read("inspect_entity", user_id=user_id, id=entity_id)[0])


def turn_card(graph: Graph, user_id: str, turn_id: str) -> dict[str, Any]:
    return native(graph.read("inspect_turn", user_id=user_id, id=turn_id)[0])


def piece(graph: Graph, user_id: str, piece_id: str) -> dict[str, Any]:
    return native(graph.read("piece_by_id", user_id=user_id, id=piece_id)[0])
