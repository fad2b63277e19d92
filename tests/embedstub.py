"""A local OpenAI-compatible `/v1/embeddings` server for tests that use the real client: a
deterministic pseudo-random vector per text (different texts far apart, the same text always the
same vector), `dimensions` wide (or as the request asks), scriptable failures and delays."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


def stub_vector(text: str, dimensions: int) -> list[float]:
    seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    v = np.random.default_rng(seed).normal(size=dimensions) * 3.0  # not normalised on purpose
    return v.tolist()


class EmbeddingStub:
    def __init__(self, dimensions: int = 64, model: str = "stub-embed"):
        self.dimensions = dimensions
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.fail_next = 0  # answer this many requests with HTTP 500
        self.delay_s = 0.0  # wait before each answer
        self._server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def env(self, **extra: str) -> dict[str, str]:
        return {"GRAPHMEM_EMBEDDER": "openai", "GRAPHMEM_EMBED_BASE_URL": self.base_url,
                "GRAPHMEM_EMBED_MODEL": self.model, "GRAPHMEM_EMBED_API_KEY": "test-key", **extra}

    def start(self) -> EmbeddingStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append(body)
                time.sleep(stub.delay_s)
                if self.path != "/v1/embeddings":
                    return self._send(404, {"error": {"message": "not found"}})
                if stub.fail_next:
                    stub.fail_next -= 1
                    return self._send(500, {"error": {"message": "scripted failure"}})
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                dims = body.get("dimensions") or stub.dimensions
                data = [{"object": "embedding", "index": i, "embedding": stub_vector(t, dims)}
                        for i, t in enumerate(texts)]
                data.reverse()  # the client must order by index
                self._send(200, {"object": "list", "model": body["model"], "data": data,
                                 "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)}})

            def _send(self, status: int, payload: Any) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> EmbeddingStub:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
