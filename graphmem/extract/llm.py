"""An Extractor that asks an OpenAI-compatible LLM for the FactEvent candidates of a piece."""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence

from ..llm.client import LLMClient
from ..models import FactCandidate
from ..predicates import LLM_MADE
from ..prompts import extract_facts as prompt


class _Answers(threading.local):
    """A batch's answers kept for the `extract` calls that follow, per thread (a server plans
    several users' sessions at once with one extractor)."""

    def __init__(self) -> None:
        self.ready: dict[tuple[str, str], list[FactCandidate]] = {}


class LLMExtractor:
    """FactEvent candidates from an LLM, one request per piece, or per batch of pieces.

    With `batch=True`, `extract_many` sends up to `batch_size` pieces per request and keeps the
    answers, so the `extract` calls that follow for those pieces cost no further request. The
    candidates' supports are the model's (snapped to the piece's exact characters when they differ
    only in case, quotes or spacing); offsets and piece ids are left to ingest's provenance check.
    """

    def __init__(self, client: LLMClient, batch: bool = False, batch_size: int = 12):
        self.client = client
        self.batch = batch
        self.batch_size = max(1, batch_size)
        self.name = f"{LLM_MADE}{client.model}"
        self._answers = _Answers()

    def extract(self, text: str, role: str) -> list[FactCandidate]:
        ready = self._answers.ready.pop((text, role), None)
        if ready is not None:
            return ready
        if not text.strip():
            return []
        return self._stamped(self.client.complete_json(
            prompt.build_messages(text, role), prompt.SCHEMA_NAME, prompt.SCHEMA,
            lambda obj: prompt.parse_candidates(obj, text)))

    def _stamped(self, found: list[FactCandidate]) -> list[FactCandidate]:
        for cand in found:
            cand.extracted_by = self.name
        return found

    def extract_many(self, pieces: Sequence[tuple[str, str]]) -> list[list[FactCandidate]]:
        """Candidates for each (text, role) piece, in order; batched when `batch` is on."""
        if not self.batch:
            return [self.extract(text, role) for text, role in pieces]
        self._answers.ready.clear()
        out: list[list[FactCandidate]] = [[] for _ in pieces]
        todo = [i for i, (text, _role) in enumerate(pieces) if text.strip()]
        for start in range(0, len(todo), self.batch_size):
            chunk = todo[start:start + self.batch_size]
            items = [pieces[i] for i in chunk]
            texts = [text for text, _role in items]
            answers = self.client.complete_json(
                prompt.build_batch_messages(items), prompt.BATCH_SCHEMA_NAME,
                prompt.BATCH_SCHEMA, functools.partial(prompt.parse_batch, texts=texts))
            for i, found in zip(chunk, answers, strict=True):
                out[i] = self._stamped(found)
        for (text, role), found in zip(pieces, out, strict=True):
            self._answers.ready[(text, role)] = list(found)
        return out
