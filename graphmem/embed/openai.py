"""An OpenAI-compatible `/embeddings` endpoint as the embedder (OpenAI, a local server, a
gateway), configured by GRAPHMEM_EMBED_BASE_URL, _MODEL, _API_KEY and _DIMENSIONS."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ConfigError, GraphmemError

PREFIX = "GRAPHMEM_EMBED_"


class EmbeddingEndpointError(GraphmemError):
    """The embeddings endpoint failed or answered something that is not embeddings."""


class OpenAIEmbedder:
    """Documents and queries are embedded alike (the endpoint's model decides); vectors are
    L2-normalised. Without GRAPHMEM_EMBED_DIMENSIONS the dimension is asked of the endpoint
    with one probe text on first use; with it, it is also sent as `dimensions`."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None,
                 dimensions: int | None = None, batch_size: int = 64, timeout_s: float = 60):
        self.base_url = base_url
        self.model = model
        self.name = f"openai:{model}"
        self._dimensions = dimensions
        self._send_dimensions = dimensions is not None
        self.batch_size = batch_size
        self.timeout_s = timeout_s
        self.api_key = api_key
        self._client: Any = None  # an openai.OpenAI, made on first use
        self._lock = threading.Lock()

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> OpenAIEmbedder:
        base, model = env.get(PREFIX + "BASE_URL"), env.get(PREFIX + "MODEL")
        if not base or not model:
            raise ConfigError(f"GRAPHMEM_EMBEDDER=openai needs {PREFIX}BASE_URL and {PREFIX}MODEL "
                              f"(and {PREFIX}API_KEY if the endpoint needs one)")
        raw = env.get(PREFIX + "DIMENSIONS") or None
        dims = None
        if raw is not None:
            if not raw.isdigit() or int(raw) < 1:
                raise ConfigError(f"{PREFIX}DIMENSIONS={raw!r} is not a positive integer")
            dims = int(raw)
        return cls(base, model, env.get(PREFIX + "API_KEY") or None, dims)

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:
            self._dimensions = len(self._call(["dimensions probe"])[0])
        return self._dimensions

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        return self.embed_documents(texts)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            out += self._call(texts[start:start + self.batch_size])
        return out

    def _call(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:
            if self._client is None:
                from openai import OpenAI  # deferred: the openai SDK takes about a second to import

                self._client = OpenAI(base_url=self.base_url, api_key=self.api_key or "none",
                                      timeout=self.timeout_s, max_retries=2)
        extra = {"dimensions": self._dimensions} if self._send_dimensions else {}
        where = f"the embeddings endpoint {self.base_url} (model {self.model})"
        try:
            reply = self._client.embeddings.create(model=self.model, input=texts, **extra)
            rows = sorted(reply.data, key=lambda d: d.index)
            vectors = np.asarray([d.embedding for d in rows], dtype=np.float32)
        except GraphmemError:
            raise
        except Exception as exc:  # the client's errors: connection, status, malformed reply
            raise EmbeddingEndpointError(f"{where} failed: {type(exc).__name__}: {exc}; check "
                                         f"{PREFIX}BASE_URL, {PREFIX}MODEL and {PREFIX}API_KEY"
                                         ) from None
        if vectors.ndim != 2 or len(vectors) != len(texts):
            raise EmbeddingEndpointError(f"{where} returned {len(rows)} embeddings for "
                                         f"{len(texts)} texts")
        if self._dimensions is not None and vectors.shape[1] != self._dimensions:
            raise EmbeddingEndpointError(f"{where} returned {vectors.shape[1]}-d vectors, "
                                         f"expected {self._dimensions}")
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        return vectors.tolist()
