"""The extractor interface: one sentence of a turn in, fact candidates out."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..models import FactCandidate


@runtime_checkable
class Extractor(Protocol):
    """Proposes FactCandidates for one MessagePiece; every `support` must occur in `text`."""

    name: str

    def extract(self, text: str, role: str) -> list[FactCandidate]:
        """Candidates stated in `text`, said by `role` ("user", "assistant" or a speaker role)."""
        ...
