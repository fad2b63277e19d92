"""Read paths over time: facts valid at a moment (time travel), timelines, and memory cards."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from .db import Graph
from .entities import normalise_name
from .errors import InputError
from .knowledge import cutoff, decisions_known_at


def _native(value: Any) -> Any:
    if hasattr(value, "to_native"):
        return value.to_native()
    if isinstance(value, dict):
        return {k: _native(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_native(v) for v in value]
    return value


def _aware(value: datetime | None) -> datetime | None:
    """A fixed-offset UTC datetime (how every stored time is written)."""
    if value is None:
        return None
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)


def as_known_at(graph: Graph, user_id: str, rows: list[dict[str, Any]],
                known_at: datetime) -> list[dict[str, Any]]:
    """The rows (facts mentioned by `known_at`) with the status, interval and quantity their
    slots had on that date."""
    decided = decisions_known_at(graph, user_id, (r.get("slot") for r in rows), known_at)
    for r in rows:
        d = decided.get(r["id"])
        if d is not None:
            r.update(status=d.status, valid_from=d.valid_from, valid_until=d.valid_until)
            if d.quantity is not None:
                r["quantity"] = d.quantity
    return rows


def facts_as_of(graph: Graph, user_id: str, as_of: datetime | None = None, *,
                predicate: str | None = None, history: bool = False,
                question_date: datetime | None = None, limit: int = 1000) -> list[dict[str, Any]]:
    """Facts valid at `as_of` (None: the current ones); with `history`, every version. With a
    `question_date` and no `as_of`: as memory knew them that day (nothing mentioned later)."""
    known_at = cutoff(question_date) if question_date is not None and as_of is None else None
    rows = [_native(r) for r in graph.read(
        "facts_as_of", user_id=user_id, as_of=_aware(as_of), predicate=predicate,
        history=history or known_at is not None, known_at=known_at, limit=limit)]
    if known_at is None:
        return rows
    rows = as_known_at(graph, user_id, rows, known_at)
    return rows if history else [r for r in rows if r["status"] == "active"]


def timeline(graph: Graph, user_id: str, *, entity: str | None = None,
             predicate: str | None = None, since: datetime | None = None,
             until: datetime | None = None, question_date: datetime | None = None,
             limit: int = 1000) -> list[dict[str, Any]]:
    """The ordered history of facts; with a `question_date`, as memory knew it that day."""
    known_at = cutoff(question_date) if question_date is not None else None
    rows = [_native(r) for r in graph.read(
        "timeline", user_id=user_id, entity=normalise_name(entity) if entity else None,
        predicate=predicate, since=_aware(since), until=_aware(until), known_at=known_at,
        limit=limit)]
    if known_at is not None:
        rows = as_known_at(graph, user_id, rows, known_at)
        seen = {r["id"] for r in rows}
        for r in rows:  # changes drawn by facts it did not know yet are not shown
            r["changes"] = [c for c in r["changes"] if c["id"] in seen]
    return rows


def inspect(graph: Graph, user_id: str, node_id: str) -> dict[str, Any]:
    """A memory card for a fact, piece, turn, session or entity of this user."""
    found = graph.read("inspect_node", user_id=user_id, id=node_id,
                       norm_name=normalise_name(node_id))
    if not found:
        graph.require_user(user_id)
        raise InputError(f"user {user_id!r} has no fact, piece, turn, session or entity {node_id!r}")
    label, nid = found[0]["label"], found[0]["id"]
    if label == "FactEvent":
        card = _native(graph.read("inspect_fact", user_id=user_id, id=nid)[0])
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
        card = _native(graph.read("inspect_entity", user_id=user_id, id=nid)[0])
        card["entity"].pop("embedding", None)
        return {"type": "entity", **card}
    if label == "MessagePiece":
        piece = _native(graph.read("piece_by_id", user_id=user_id, id=nid)[0])
        turn = _native(graph.read("inspect_turn", user_id=user_id, id=piece["turn_id"])[0])
        turn["turn"].pop("embedding", None)
        return {"type": "piece", "piece": piece, **turn}
    if label == "Turn":
        card = _native(graph.read("inspect_turn", user_id=user_id, id=nid)[0])
        card["turn"].pop("embedding", None)
        return {"type": "turn", **card}
    return {"type": label.lower(), "id": nid}
