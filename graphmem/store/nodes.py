"""Typed records of what is stored, in the vocabulary of the product: Session, Turn, FactEvent,
Entity. Id names mean one thing each: `id` / `turn_id` / `session_id` are stored graphmem ids,
`source_id` / `source_turn_ids` / `session_source_id` are the source's own ids."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

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


@dataclass
class SessionSummary:
    """A session as listed: its ids, start and how many turns it holds now."""

    id: str
    source_id: str
    started_at: datetime | None
    turns: int

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> SessionSummary:
        return cls(row["id"], row["source_id"], utc_native(row["started_at"]), row["turns"])

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Turn:
    id: str
    session_id: str
    source_id: str
    idx: int
    role: str
    text: str
    speaker: str | None = None
    mentioned_at: datetime | None = None
    session_source_id: str | None = None
    redacted_at: datetime | None = None  # its words were replaced (Memory.redact_turn)
    fact_ids: list[str] = field(default_factory=list)  # the facts derived from it (when asked)
    metadata: dict[str, Any] | None = None  # the caller's labels (stored as pairs: ..metadata)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Turn:
        return cls(id=row["id"], session_id=row["session_id"], source_id=row["source_id"],
                   idx=row["idx"], role=row["role"], text=row["text"], speaker=row.get("speaker"),
                   mentioned_at=utc_native(row.get("mentioned_at")),
                   session_source_id=row.get("session_source_id"),
                   redacted_at=utc_native(row.get("redacted_at")),
                   fact_ids=list(row.get("fact_ids") or []),
                   metadata=from_pairs(row.get("metadata")))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class FactChange:
    """An edge from a fact to an older one it SUPERSEDES / UPDATES / CONTRADICTS."""

    type: str
    id: str


@dataclass(frozen=True)
class Replaced:
    """An older fact a new one SUPERSEDES / UPDATES / CONTRADICTS (`type`), with its statement
    and its status now."""

    type: str
    id: str
    text: str
    status: str


@dataclass(frozen=True)
class MadeFact:
    """A fact an append made, with the facts it replaced (what changed because of it). The one
    declaration `Memory.append`, the HTTP and MCP results and `graphmem.client` share."""

    id: str
    predicate: str
    value: str | None
    text: str
    status: str
    turn_id: str | None  # the stored Turn it was derived from
    replaced: list[Replaced] = field(default_factory=list)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> MadeFact:
        return cls(row["id"], row["predicate"], row.get("value"), row["text"], row["status"],
                   row.get("turn_id"), [Replaced(**c) for c in row.get("replaced") or []])

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Invalidation:
    """Who marked a fact wrong ("forget that"), when, and why (Memory.invalidate_fact)."""

    by: str
    at: datetime | None
    reason: str | None = None


@dataclass
class FactEvent:
    id: str
    kind: str
    predicate: str
    text: str
    modality: str
    status: str  # active | superseded | invalid
    value: str | None = None
    quantity: float | None = None
    mentioned_at: datetime | None = None
    occurred_start: datetime | None = None
    occurred_end: datetime | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    turn_id: str | None = None  # the stored Turn it was derived from
    source_turn_ids: list[str] = field(default_factory=list)
    session_source_id: str | None = None
    changes: list[FactChange] = field(default_factory=list)
    slot: str | None = None  # what it competes for (currency), None for most events
    invalidation: Invalidation | None = None  # set when someone marked it wrong
    extracted_by: str | None = None  # what made it: "model:<version>", "rule:<id>", an extractor
    # Read in passing (the learned extractor's reading of a state it did not see start or stop):
    # it has no slot, so it replaces nothing and nothing replaces it; "active" says only that.
    mention: bool = False

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> FactEvent:
        times = {k: utc_native(row.get(k)) for k in ("mentioned_at", "occurred_start",
                                                      "occurred_end", "valid_from", "valid_until")}
        wrong = row.get("invalidation")
        invalidation = (Invalidation(wrong["by"], utc_native(wrong["at"]), wrong.get("reason"))
                        if wrong else None)
        return cls(id=row["id"], kind=row["kind"], predicate=row["predicate"], text=row["text"],
                   modality=row["modality"], status=row["status"], value=row.get("value"),
                   quantity=row.get("quantity"), turn_id=row.get("turn_id"),
                   source_turn_ids=list(row.get("source_turn_ids") or []),
                   session_source_id=row.get("session_source_id"),
                   changes=[FactChange(c["type"], c["id"]) for c in row.get("changes") or []],
                   slot=row.get("slot"), invalidation=invalidation,
                   extracted_by=row.get("extracted_by"), mention=bool(row.get("mention")),
                   **times)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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
