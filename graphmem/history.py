"""Read paths over time: facts valid at a moment (time travel), timelines, and memory cards."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .db import Graph
from .entities import normalise_name
from .errors import InputError
from .store import reads as store
from .store.nodes import FactEvent


def current_facts(graph: Graph, user_id: str, as_of: datetime | None = None, *,
                  predicate: str | None = None, history: bool = False,
                  limit: int = 1000) -> list[FactEvent]:
    """Facts valid at `as_of` (None: the current ones); with `history`, every version."""
    return store.facts_as_of(graph, user_id, as_of, predicate=predicate, history=history,
                             limit=limit)


def fact_timeline(graph: Graph, user_id: str, *, entity: str | None = None,
                  predicate: str | None = None, since: datetime | None = None,
                  until: datetime | None = None, limit: int = 1000) -> list[FactEvent]:
    """The ordered history of facts (about one entity / predicate / period), with their changes."""
    return store.timeline(graph, user_id, entity_norm=normalise_name(entity) if entity else None,
                          predicate=predicate, since=since, until=until, limit=limit)


def facts_as_of(graph: Graph, user_id: str, as_of: datetime | None = None, *,
                predicate: str | None = None, history: bool = False,
                limit: int = 1000) -> list[dict[str, Any]]:
    """`current_facts` as JSON-ready dicts."""
    return [f.to_dict() for f in current_facts(graph, user_id, as_of, predicate=predicate,
                                               history=history, limit=limit)]


def timeline(graph: Graph, user_id: str, *, entity: str | None = None,
             predicate: str | None = None, since: datetime | None = None,
             until: datetime | None = None, limit: int = 1000) -> list[dict[str, Any]]:
    """`fact_timeline` as JSON-ready dicts."""
    return [f.to_dict() for f in fact_timeline(graph, user_id, entity=entity, predicate=predicate,
                                               since=since, until=until, limit=limit)]


def inspect(graph: Graph, user_id: str, node_id: str) -> dict[str, Any]:
    """A memory card for a fact, piece, turn, session or entity of this user."""
    found = store.find_node(graph, user_id, node_id, normalise_name(node_id))
    if found is None:
        graph.require_user(user_id)
        raise InputError(f"user {user_id!r} has no fact, piece, turn, session or entity {node_id!r}")
    label, nid = found
    if label == "FactEvent":
        card = store.fact_card(graph, user_id, nid)
        for src in card["sources"]:
            text, s, e = src.pop("turn_text") or "", src["start"], src["end"]
            support = card["fact"].get("support") or ""
            at = text.find(support, s, e) if support else -1
            if at >= 0:
                s, e = at, at + len(support)
            src.update(span=text[s:e], before=text[max(0, s - 160):s], after=text[e:e + 160],
                       span_start=s, span_end=e)
        card["fact"].pop("embedding", None)
        return {"type": "fact", **card}
    if label == "Entity":
        card = store.entity_card(graph, user_id, nid)
        card["entity"].pop("embedding", None)
        return {"type": "entity", **card}
    if label == "MessagePiece":
        piece = store.piece(graph, user_id, nid)
        turn = store.turn_card(graph, user_id, piece["turn_id"])
        turn["turn"].pop("embedding", None)
        return {"type": "piece", "piece": piece, **turn}
    if label == "Turn":
        card = store.turn_card(graph, user_id, nid)
        card["turn"].pop("embedding", None)
        return {"type": "turn", **card}
    return {"type": label.lower(), "id": nid}
