"""Forgetting one memory at a time: delete or redact one turn (its pieces and the facts derived
only from it go, and the slots those facts were in are decided again as if they had never been
said), or mark one fact wrong (kept in history as `invalid`, with who said so, and its slot
decided again without it). Each is one write transaction; nothing of another turn or user is
touched beyond the currency of the slots named."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .currency import maintain_currency
from .responses import TurnRemoval
from .store import edits
from .store.currency import lock_user
from .store.edits import EditedFact

if TYPE_CHECKING:
    from .db import Graph

REDACTED_TEXT = "[redacted]"  # what a redacted turn says instead of its words


def _redecide(tx: Any, user_id: str, touched: list[EditedFact]) -> list[str]:
    """Decide again the slots of removed or invalidated facts and of the facts they had currency
    edges with; facts in no slot that nothing closes any more are current again."""
    slots = sorted({s for r in touched for s in (r.slot, *r.neighbour_slots) if s})
    if slots:
        maintain_currency(tx, user_id, slots)
    edits.reopen_unslotted(tx, user_id, sorted({n for r in touched for n in r.neighbours}))
    return slots


def remove_turn(graph: Graph, user_id: str, turn_id: str, *,
                redact: bool = False) -> TurnRemoval | None:
    """Delete (or redact) the user's turn with this stored id, its pieces and the facts derived
    only from it; entities no fact names any more go too. None when the user has no such turn."""

    def work(tx: Any) -> TurnRemoval | None:
        lock_user(tx, user_id)  # one slot-deciding write of the user at a time
        removed = edits.delete_facts(tx, user_id, edits.facts_of_turn_alone(tx, user_id, turn_id))
        done = (edits.redact_turn(tx, user_id, turn_id, REDACTED_TEXT, datetime.now(UTC))
                if redact else edits.delete_turn(tx, user_id, turn_id))
        if done is None:
            return None  # no such turn: nothing was matched, so nothing was written
        slots = _redecide(tx, user_id, removed)
        entities = edits.drop_orphan_entities(
            tx, user_id, sorted({e for r in removed for e in r.entities}))
        return TurnRemoval(turn_id=done.id, source_id=done.source_id,
                           session_source_id=done.session_source_id, redacted=redact,
                           pieces=done.pieces, facts=sorted(r.id for r in removed),
                           entities=entities, slots=slots)

    with graph.session() as s:
        return s.execute_write(work)


def invalidate_fact(graph: Graph, user_id: str, fact_id: str, *, by: str,
                    reason: str | None) -> bool:
    """Mark the user's fact wrong and decide its slot again without it; False when the user
    has no such fact or it was marked already (the first mark is kept)."""

    def work(tx: Any) -> bool:
        lock_user(tx, user_id)  # one slot-deciding write of the user at a time
        row = edits.invalidate_fact(tx, user_id, fact_id, by=by, at=datetime.now(UTC),
                                    reason=reason)
        if row is None:
            return False
        _redecide(tx, user_id, [row])
        return True

    with graph.session() as s:
        return s.execute_write(work)
