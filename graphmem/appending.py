"""What appending messages returns to every door (`Memory.append`; HTTP, MCP, the client): the
turns added, and the facts they made with what each replaced, not only counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .db import Graph
from .errors import OutOfBounds
from .ingest import AppendReport
from .models import TurnRecord
from .store.nodes import MadeFact


@dataclass
class AppendResult(AppendReport):
    """The append's report (`added`, `unchanged`, counts) with `made`: each fact the new turns
    made, in the order said, and the older facts it SUPERSEDES / UPDATES / CONTRADICTS (id,
    statement, status now)."""

    made: list[MadeFact] = field(default_factory=list)

    @classmethod
    def of(cls, report: AppendReport, made: list[MadeFact]) -> AppendResult:
        return cls(**vars(report), made=made)

    def to_dict(self) -> dict[str, Any]:
        return {"session_id": self.session_id, "session": self.session_source_id,
                "created": self.created,
                "added": [{"turn_id": t.id, "source_turn_id": t.source_id, "idx": t.idx}
                          for t in self.added],
                "unchanged": self.unchanged, "pieces": self.pieces, "facts": self.facts,
                "made": [f.to_dict() for f in self.made], "rejected": self.rejected,
                "ms": round(self.seconds * 1000, 1)}


def refuse_turn_ids_of_other_sessions(graph: Graph, user_id: str, session_id: str,
                                      turns: list[TurnRecord]) -> None:
    """A turn id names one turn of a user: refuse (OutOfBounds) one another session holds."""
    ids = sorted({t.source_id for t in turns if t.source_id})
    if not ids:
        return
    clash = graph.read("turn_ids_in_other_sessions", user_id=user_id,
                       session_source_id=session_id, source_ids=ids)
    if clash:
        raise OutOfBounds(
            f"turn_id {clash[0]['source_id']!r} already names a turn of session "
            f"{clash[0]['session']!r} of user {user_id!r}; a turn id names one turn of a "
            "user: give this message another id (or none)")
