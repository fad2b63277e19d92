"""Query embeddings batched across concurrent requests: one model call for every request that
arrived while the previous call ran (no waiting window, so one client alone is not slowed).
On this 2-core machine a batch of 8 short texts costs about 2 single ones (measured 54.6 ms
of CPU against 28.2 ms for one, one torch thread)."""

from __future__ import annotations

import threading
from typing import Any


class _Job:
    __slots__ = ("texts", "vectors", "error", "done")

    def __init__(self, texts: list[str]):
        self.texts = texts
        self.vectors: list[list[float]] | None = None
        self.error: BaseException | None = None
        self.done = False


class BatchingEmbedder:
    """Wraps an embedder; `embed_query` / `embed_queries` calls from many threads share one model
    call. Every other attribute (documents, name, width) is the wrapped embedder's."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.dimensions = inner.dimensions
        self._cond = threading.Condition()
        self._queue: list[_Job] = []
        self._busy = False
        self.calls = 0  # model calls made (a batch is one)
        self.jobs = 0  # embed requests served

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_query(self, text: str) -> list[float]:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        job = _Job(list(texts))
        with self._cond:
            self._queue.append(job)
            while not job.done and self._busy:
                self._cond.wait()
            if job.done:
                return self._result(job)
            self._busy = True  # this thread runs the next batch: everything queued so far
            batch, self._queue = self._queue, []
        try:
            vectors = self.inner.embed_queries([t for j in batch for t in j.texts])
            start = 0
            for j in batch:
                j.vectors = vectors[start:start + len(j.texts)]
                start += len(j.texts)
        except BaseException as exc:  # every waiter of the batch gets the error
            for j in batch:
                j.error = exc
        finally:
            with self._cond:
                for j in batch:
                    j.done = True
                self._busy = False
                self.calls += 1
                self.jobs += len(batch)
                self._cond.notify_all()
        return self._result(job)

    @staticmethod
    def _result(job: _Job) -> list[list[float]]:
        if job.error is not None:
            raise job.error
        assert job.vectors is not None
        return job.vectors
