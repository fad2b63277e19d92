"""A JSON HTTP server on a free loopback port, run in a thread: the shared part of the local
OpenAI-compatible stand-ins (tests/llmstub.py, tests/embedstub.py)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class JSONHandler(BaseHTTPRequestHandler):
    """Answers with JSON; `self.stub` is the LoopbackStub that owns the server."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    @property
    def stub(self) -> Any:
        return self.server.stub  # type: ignore[attr-defined]

    def read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


class LoopbackStub:
    """Start / stop a ThreadingHTTPServer with `handler` on 127.0.0.1 and a free port; usable as a
    context manager. `base_url` ends with /v1, as OpenAI-compatible clients expect."""

    handler: type[JSONHandler] = JSONHandler

    def __init__(self) -> None:
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError(f"{type(self).__name__} is not running; use it as a context manager")
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> Self:
        server = ThreadingHTTPServer(("127.0.0.1", 0), self.handler)
        server.daemon_threads = True
        server.stub = self  # type: ignore[attr-defined]
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, args=(0.02,),
                                        name=type(self).__name__, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
