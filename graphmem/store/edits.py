"""Edits of one memory at a time, each inside the caller's write transaction: forget a turn's facts,
delete or redact the turn, drop entities nothing names any more, mark a fact wrong."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ._run import rows


@dataclass(frozen=True)
class EditedFact:
    """A fact deleted or marked wrong, with what currency must decide again: its slot, the facts
    it had currency edges with (`neighbours`) and their slots; for a deleted fact, the entities
    it named (which may be orphaned now)."""

    id: str
    slot: str | None
    neighbours: tuple[str, ...]
    neighbour_slots: tuple[str | None, ...]
    entities: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> EditedFact:
        return cls(id=row["id"], slot=row["slot"], neighbours=tuple(row["neighbours"]),
                   neighbour_slots=tuple(row["neighbour_slots"]),
                   entities=tuple(row.get("entities") or ()))


@dataclass(frozen=True)
class EditedTurn:
    """A turn deleted or redacted, and how many pieces went with it."""

    id: str
    source_id: str | None
    session_source_id: str | None
    pieces: int

    @classmethod
    def first(cls, found: list[dict[str, Any]]) -> EditedTurn | None:
        if not found:
            return None
        r = found[0]
        return cls(id=r["id"], source_id=r["source_id"], session_source_id=r["session_source_id"],
                   pieces=int(r["pieces"]))


def facts_of_turn_alone(tx: Any, user_id: str, turn_id: str) -> list[str]:
    """Ids of the facts derived from this turn and no other."""
    return [r["id"] for r in rows(tx, "turn_facts_alone", user_id=user_id, turn_id=turn_id)]


def delete_facts(tx: Any, user_id: str, fact_ids: list[str]) -> list[EditedFact]:
    """Delete the facts with all their edges: what currency must decide again and which
    entities may be orphaned."""
    if not fact_ids:
        return []
    return [EditedFact.from_row(r)
            for r in rows(tx, "facts_delete", user_id=user_id, fact_ids=fact_ids)]


def delete_turn(tx: Any, user_id: str, turn_id: str) -> EditedTurn | None:
    """Delete the turn and its pieces, joining the NEXT chain around it; None if it is gone."""
    return EditedTurn.first(rows(tx, "turn_delete", user_id=user_id, turn_id=turn_id))


def redact_turn(tx: Any, user_id: str, turn_id: str, text: str,
                at: datetime) -> EditedTurn | None:
    """Replace the turn's words by `text` and drop its pieces and embedding; None if it is gone."""
    return EditedTurn.first(rows(tx, "turn_redact", user_id=user_id, turn_id=turn_id, text=text,
                                 at=at))


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
                    reason: str | None) -> EditedFact | None:
    """Mark the fact wrong; None when the user has no such fact or it is marked already."""
    found = rows(tx, "fact_invalidate", user_id=user_id, fact_id=fact_id, by=by, at=at,
                 reason=reason)
    return EditedFact.from_row(found[0]) if found else None
