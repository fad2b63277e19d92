"""Edits of one memory at a time, each inside the caller's write transaction: forget a turn's facts,
delete or redact the turn, drop entities nothing names any more, mark a fact wrong."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ._run import rows


def facts_of_turn_alone(tx: Any, user_id: str, turn_id: str) -> list[str]:
    """Ids of the facts derived from this turn and no other."""
    return [r["id"] for r in rows(tx, "turn_facts_alone", user_id=user_id, turn_id=turn_id)]


def delete_facts(tx: Any, user_id: str, fact_ids: list[str]) -> list[dict[str, Any]]:
    """Delete the facts with all their edges; per fact {id, slot, neighbours, neighbour_slots,
    entities}: what currency must decide again and which entities may be orphaned."""
    if not fact_ids:
        return []
    return rows(tx, "facts_delete", user_id=user_id, fact_ids=fact_ids)


def delete_turn(tx: Any, user_id: str, turn_id: str) -> dict[str, Any] | None:
    """Delete the turn and its pieces, joining the NEXT chain around it; None if it is gone."""
    found = rows(tx, "turn_delete", user_id=user_id, turn_id=turn_id)
    return found[0] if found else None


def redact_turn(tx: Any, user_id: str, turn_id: str, text: str,
                at: datetime) -> dict[str, Any] | None:
    """Replace the turn's words by `text` and drop its pieces and embedding; None if it is gone."""
    found = rows(tx, "turn_redact", user_id=user_id, turn_id=turn_id, text=text, at=at)
    return found[0] if found else None


def drop_orphan_entities(tx: Any, user_id: str, entity_ids: list[str]) -> int:
    """Delete those of these entities that no fact names any more; how many."""
    if not entity_ids:
        return 0
    return int(rows(tx, "entities_drop_orphans", user_id=user_id,
                    entity_ids=entity_ids)[0]["entities"])


def reopen_unslotted(tx: Any, user_id: str, fact_ids: list[str]) -> None:
    """Facts in no slot that no currency edge closes any more are current again."""
    if fact_ids:
        rows(tx, "currency_reopen", user_id=user_id, ids=fact_ids)


def invalidate_fact(tx: Any, user_id: str, fact_id: str, *, by: str, at: datetime,
                    reason: str | None) -> dict[str, Any] | None:
    """Mark the fact wrong; {id, slot, neighbours, neighbour_slots}, or None when the user has
    no such fact or it is marked already."""
    found = rows(tx, "fact_invalidate", user_id=user_id, fact_id=fact_id, by=by, at=at,
                 reason=reason)
    return found[0] if found else None
