"""Shared test helpers."""


class FakeVectors:
    """A deterministic embedder for write-path tests (vector search is tested with MiniLM)."""

    dimensions = 384

    def embed(self, texts):
        return [[1.0] + [((hash(t) >> i) & 1) * 0.01 for i in range(383)] for t in texts]
