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


def extract_in_turn(extractor: Extractor, text: str, role: str,
                    before: str) -> list[FactCandidate]:
    """`extractor.extract` for one piece of a turn; an extractor with `reads_context` also gets
    the turn's words before the piece (supports still come from the piece alone)."""
    if getattr(extractor, "reads_context", False):
        return extractor.extract(text, role, before=before)  # type: ignore[call-arg]
    return extractor.extract(text, role)
