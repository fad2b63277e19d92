"""Queries of the answer step: the turns an answer may cite and the turns around one turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..db import Graph


def turns_by_id(graph: Graph, user_id: str, turn_ids: list[str]) -> list[dict[str, Any]]:
    return graph.read("answer_turns", user_id=user_id, turn_ids=turn_ids)


def session_window(graph: Graph, user_id: str, turn_id: str, window: int) -> list[dict[str, Any]]:
    """The turns of one turn's session within `window` turns of it, in order."""
    return graph.read("session_turns", user_id=user_id, turn_id=turn_id, window=window)
