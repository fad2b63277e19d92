"""What answering needs from memory: a narrow protocol that `Memory` implements."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from ..models import Evidence
from ..store.nodes import FactEvent


class MemoryAccess(Protocol):
    def require_user(self, user_id: str) -> None:
        """Raise UnknownUser when the user has no memory."""

    def search(self, user_id: str, query: str, *, question_date: datetime | None = None,
               as_of: datetime | None = None, k: int = 10) -> list[Evidence]:
        """Ranked evidence from one user's memory."""

    def inspect(self, user_id: str, node_id: str) -> dict[str, Any]:
        """A memory card."""

    def timeline(self, user_id: str, *, entity: str | None = None, predicate: str | None = None,
                 since: datetime | None = None, until: datetime | None = None,
                 limit: int = 1000) -> list[FactEvent]:
        """The ordered history of facts."""

    def turns(self, user_id: str, turn_ids: list[str]) -> list[dict[str, Any]]:
        """The stored turns with these ids (and their facts), for citing."""

    def session_window(self, user_id: str, turn_id: str, window: int) -> list[dict[str, Any]]:
        """The turns around one turn of its session, in order."""

    def cypher_read(self, user_id: str, statement: str,
                    params: dict[str, Any] | None = None) -> dict[str, Any]:
        """A read-only query checked to stay inside the user's subgraph."""
