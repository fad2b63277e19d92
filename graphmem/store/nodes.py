"""Typed records of what is stored, in the vocabulary of the product: Session, Turn, FactEvent,
Entity. The records every door returns are declared in `graphmem.responses`; here they learn to
read a query's row. Id names mean one thing each: `id` / `turn_id` / `session_id` are stored
graphmem ids, `source_id` / `source_turn_ids` / `session_source_id` are the source's own ids."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from .. import responses
from ..metadata import from_pairs
from .time import utc_native


@dataclass
class Session:
    id: str
    source_id: str
    started_at: datetime | None
    turn_count: int = 0  # positions numbered so far: the next turn is turn_count + 1
    content_hash: str | None = None  # None once the session grew by appended messages
    deleted_idxs: list[int] = field(default_factory=list)  # positions of turns deleted one by one

    def last_idx(self) -> int | None:
        """The position of its last stored turn (deleted ones skipped), None if it holds none."""
        deleted = set(self.deleted_idxs)
        return next((i for i in range(self.turn_count, 0, -1) if i not in deleted), None)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class SessionSummary(responses.SessionSummary):
    @classmethod
    def from_row(cls, row: dict[str, Any]) -> SessionSummary:
        return cls(id=row["id"], source_id=row["source_id"],
                   started_at=utc_native(row["started_at"]), turns=row["turns"])


class Turn(responses.Turn):
    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Turn:
        return cls(id=row["id"], session_id=row["session_id"], source_id=row["source_id"],
                   idx=row["idx"], role=row["role"], text=row["text"], speaker=row.get("speaker"),
                   mentioned_at=utc_native(row.get("mentioned_at")),
                   session_source_id=row.get("session_source_id"),
                   redacted_at=utc_native(row.get("redacted_at")),
                   fact_ids=list(row.get("fact_ids") or []),
                   metadata=from_pairs(row.get("metadata")))


FactChange = responses.FactChange
Replaced = responses.Replaced
Invalidation = responses.Invalidation


class MadeFact(responses.MadeFact):
    @classmethod
    def from_row(cls, row: dict[str, Any]) -> MadeFact:
        return cls(id=row["id"], predicate=row["predicate"], value=row.get("value"),
                   text=row["text"], status=row["status"], turn_id=row.get("turn_id"),
                   replaced=[Replaced(**c) for c in row.get("replaced") or []])


class FactEvent(responses.Fact):
    @classmethod
    def from_row(cls, row: dict[str, Any]) -> FactEvent:
        times = {k: utc_native(row.get(k)) for k in ("mentioned_at", "occurred_start",
                                                      "occurred_end", "valid_from", "valid_until")}
        wrong = row.get("invalidation")
        invalidation = (Invalidation(by=wrong["by"], at=utc_native(wrong["at"]),
                                     reason=wrong.get("reason")) if wrong else None)
        return cls(id=row["id"], kind=row["kind"], predicate=row["predicate"], text=row["text"],
                   modality=row["modality"], status=row["status"], value=row.get("value"),
                   quantity=row.get("quantity"), turn_id=row.get("turn_id"),
                   source_turn_ids=list(row.get("source_turn_ids") or []),
                   session_source_id=row.get("session_source_id"),
                   changes=[FactChange(type=c["type"], id=c["id"])
                            for c in row.get("changes") or []],
                   slot=row.get("slot"), invalidation=invalidation,
                   extracted_by=row.get("extracted_by"), mention=bool(row.get("mention")),
                   **times)


@dataclass
class Entity:
    id: str
    name: str
    type: str
    norm_name: str | None = None
    aliases: list[str] = field(default_factory=list)

    @classmethod
    def from_properties(cls, props: dict[str, Any]) -> Entity:
        return cls(id=props["id"], name=props["name"], type=props.get("type") or "other",
                   norm_name=props.get("norm_name"), aliases=list(props.get("aliases") or []))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
