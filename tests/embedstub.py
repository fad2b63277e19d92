"""A local OpenAI-compatible `/v1/embeddings` server for tests that use the real client: a
deterministic pseudo-random vector per text (different texts far apart, the same text always the
same vector), `dimensions` wide (or as the request asks), scriptable failures and delays."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import numpy as np

from tests.httpstub import JSONHandler, LoopbackStub


def stub_vector(text: str, dimensions: int) -> list[float]:
    seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    v = np.random.default_rng(seed).normal(size=dimensions) * 3.0  # not normalised on purpose
    return v.tolist()


class _Handler(JSONHandler):
    def do_POST(self) -> None:
        stub: EmbeddingStub = self.stub
        body = json.loads(self.read_body())
        stub.requests.append(body)
        time.sleep(stub.delay_s)
        if self.path != "/v1/embeddings":
            return self.send_json(404, {"error": {"message": "not found"}})
        if stub.fail_next:
            stub.fail_next -= 1
            return self.send_json(500, {"error": {"message": "scripted failure"}})
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        dims = body.get("dimensions") or stub.dimensions
        data = [{"object": "embedding", "index": i, "embedding": stub_vector(t, dims)}
                for i, t in enumerate(texts)]
        data.reverse()  # the client must order by index
        self.send_json(200, {"object": "list", "model": body["model"], "data": data,
                             "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)}})


class EmbeddingStub(LoopbackStub):
    handler = _Handler

    def __init__(self, dimensions: int = 64, model: str = "stub-embed"):
        super().__init__()
        self.dimensions = dimensions
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.fail_next = 0  # answer this many requests with HTTP 500
        self.delay_s = 0.0  # wait before each answer

    def env(self, **extra: str) -> dict[str, str]:
        return {"GRAPHMEM_EMBEDDER": "openai", "GRAPHMEM_EMBED_BASE_URL": self.base_url,
                "GRAPHMEM_EMBED_MODEL": self.model, "GRAPHMEM_EMBED_API_KEY": "test-key", **extra}
