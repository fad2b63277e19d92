"""Read paths over time: facts valid at a moment (time travel), timelines, and memory cards."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .db import Graph
from .entities import normalise_name
from .knowledge import cutoff, decisions_known_at, status_at
from .store import reads as store
from .store.nodes import FactEvent


def current_facts(graph: Graph, user_id: str, as_of: datetime | None = None, *,
                  predicate: str | None = None, history: bool = False,
                  question_date: datetime | None = None, limit: int = 1000,
                  metadata: list[str] | None = None) -> list[FactEvent]:
    """Facts valid at `as_of` (None: the current ones), each with its status on that date (a
    fact valid then is `active`, whatever replaced it since); with `history`, every version.
    With a `question_date` and no `as_of`: as memory knew them that day (nothing mentioned
    later)."""
    known_at = cutoff(question_date) if question_date is not None and as_of is None else None
    facts = store.facts_as_of(graph, user_id, as_of, predicate=predicate,
                              history=history or known_at is not None, limit=limit,
                              known_at=known_at, metadata=metadata)
    if as_of is not None and not history:
        for f in facts:
            f.status = status_at(f.status, f.valid_from, f.valid_until, as_of) or f.status
    if known_at is None:
        return facts
    facts = as_known_at(graph, user_id, facts, known_at)
    return facts if history else [f for f in facts if f.status == "active"]


def fact_timeline(graph: Graph, user_id: str, *, entity: str | None = None,
                  predicate: str | None = None, since: datetime | None = None,
                  until: datetime | None = None, question_date: datetime | None = None,
                  limit: int = 1000, metadata: list[str] | None = None) -> list[FactEvent]:
    """The ordered history of facts (about one entity / predicate / period), with their changes;
    with a `question_date`, as memory knew it that day."""
    known_at = cutoff(question_date) if question_date is not None else None
    facts = store.timeline(graph, user_id, entity_norm=normalise_name(entity) if entity else None,
                           predicate=predicate, since=since, until=until, limit=limit,
                           known_at=known_at, metadata=metadata)
    if known_at is None:
        return facts
    facts = as_known_at(graph, user_id, facts, known_at)
    seen = {f.id for f in facts}
    for f in facts:  # changes drawn by facts it did not know yet are not shown
        f.changes = [c for c in f.changes if c.id in seen]
    return facts


def as_known_at(graph: Graph, user_id: str, facts: list[FactEvent],
                known_at: datetime) -> list[FactEvent]:
    """The facts (mentioned by `known_at`) with the status, interval and quantity their slots had
    on that date."""
    decided = decisions_known_at(graph, user_id, (f.slot for f in facts), known_at)
    for f in facts:
        d = decided.get(f.id)
        if d is not None:
            f.status, f.valid_from, f.valid_until = d.status, d.valid_from, d.valid_until
            if d.quantity is not None:
                f.quantity = d.quantity
    return facts


def facts_as_of(graph: Graph, user_id: str, as_of: datetime | None = None, *,
                predicate: str | None = None, history: bool = False,
                question_date: datetime | None = None, limit: int = 1000) -> list[dict[str, Any]]:
    """`current_facts` as JSON-ready dicts."""
    return [f.to_dict() for f in current_facts(graph, user_id, as_of, predicate=predicate,
                                               history=history, question_date=question_date,
                                               limit=limit)]


def timeline(graph: Graph, user_id: str, *, entity: str | None = None,
             predicate: str | None = None, since: datetime | None = None,
             until: datetime | None = None, question_date: datetime | None = None,
             limit: int = 1000) -> list[dict[str, Any]]:
    """`fact_timeline` as JSON-ready dicts."""
    return [f.to_dict() for f in fact_timeline(graph, user_id, entity=entity, predicate=predicate,
                                               since=since, until=until,
                                               question_date=question_date, limit=limit)]


def inspect(graph: Graph, user_id: str, node_id: str) -> dict[str, Any] | None:
    """A memory card for a fact, piece, turn, session or entity of this user (None: the id
    names nothing of theirs)."""
    found = store.find_node(graph, user_id, node_id, normalise_name(node_id))
    if found is None:
        return None
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
