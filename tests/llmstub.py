"""A local OpenAI-compatible HTTP server with scripted replies, for tests that use a real client."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.httpstub import JSONHandler, LoopbackStub


@dataclass
class StubReply:
    """One scripted answer: chat content, tool calls, or an HTTP error."""

    content: str | None = None
    tool_calls: list[dict[str, Any]] | None = None  # [{"name": ..., "arguments": dict | str}]
    status: int = 200
    body: Any = None  # the error body (dict or str); a default OpenAI-style error when None
    headers: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int = 100
    cached_tokens: int = 0
    completion_tokens: int = 20
    delay_s: float = 0.0  # wait before answering (to exercise client timeouts)


class LLMStub(LoopbackStub):
    """POST /v1/chat/completions answers from a queue of scripted replies; GET /v1/models lists one
    model. Every request body is recorded in `requests` (headers in `request_headers`)."""

    def __init__(self, model: str = "stub-model"):
        super().__init__()
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.request_headers: list[dict[str, str]] = []
        self._replies: deque[StubReply | Callable[[dict[str, Any]], StubReply]] = deque()
        self._lock = threading.Lock()

    # --- scripting ------------------------------------------------------------------------------

    def reply(self, content: str, *, prompt_tokens: int = 100, completion_tokens: int = 20,
              cached_tokens: int = 0) -> LLMStub:
        """Queue a normal completion whose message content is `content`."""
        return self.push(StubReply(content=content, prompt_tokens=prompt_tokens,
                                   completion_tokens=completion_tokens,
                                   cached_tokens=cached_tokens))

    def reply_json(self, obj: Any, **usage: int) -> LLMStub:
        """Queue a completion whose content is `obj` serialised as JSON."""
        return self.reply(json.dumps(obj), **usage)

    def reply_tool_calls(self, calls: list[dict[str, Any]], *, content: str | None = None,
                         prompt_tokens: int = 100, completion_tokens: int = 20) -> LLMStub:
        """Queue a completion that calls tools: `calls` is [{"name": ..., "arguments": ...}]."""
        return self.push(StubReply(content=content, tool_calls=calls,
                                   prompt_tokens=prompt_tokens,
                                   completion_tokens=completion_tokens))

    def reply_error(self, status: int, *, retry_after: str | float | None = None,
                    body: Any = None, headers: dict[str, str] | None = None) -> LLMStub:
        """Queue an HTTP error, with a Retry-After header when given."""
        all_headers = dict(headers or {})
        if retry_after is not None:
            all_headers["Retry-After"] = str(retry_after)
        return self.push(StubReply(status=status, body=body, headers=all_headers))

    def push(self, reply: StubReply | Callable[[dict[str, Any]], StubReply]) -> LLMStub:
        """Queue a reply, or a function from the request body to a reply."""
        with self._lock:
            self._replies.append(reply)
        return self

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        with self._lock:
            return len(self._replies)

    def prompt_text(self, index: int = -1) -> str:
        """All message contents of one recorded request, joined (for asserting on prompts)."""
        return "\n".join(str(m.get("content") or "") for m in self.requests[index]["messages"])

    # --- configuration --------------------------------------------------------------------------

    def config(self, **overrides: Any) -> Any:
        """A graphmem LLMConfig pointing at this stub, with tiny backoff waits."""
        from graphmem.llm import LLMConfig

        values: dict[str, Any] = {"base_url": self.base_url, "model": self.model,
                                  "api_key": "stub-key", "timeout_s": 5.0,
                                  "backoff_base_s": 0.001, "backoff_max_s": 0.05}
        values.update(overrides)
        return LLMConfig(**values)

    # --- answering (called from the server threads) ---------------------------------------------

    def _next(self, body: dict[str, Any], headers: dict[str, str]) -> StubReply:
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
            scripted = self._replies.popleft() if self._replies else None
        if scripted is None:
            # 418, not 5xx: a client must not retry a script that has run out.
            return StubReply(status=418, body={"error": {
                "message": "llm stub: no scripted reply left", "type": "stub_exhausted"}})
        return scripted(body) if callable(scripted) else scripted

    def _completion(self, reply: StubReply, body: dict[str, Any], n: int) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        finish = "stop"
        if reply.tool_calls is not None:
            finish = "tool_calls"
            message["tool_calls"] = [
                {"id": f"call_{n}_{k}", "type": "function", "function": {
                    "name": call["name"],
                    "arguments": call["arguments"] if isinstance(call["arguments"], str)
                    else json.dumps(call["arguments"])}}
                for k, call in enumerate(reply.tool_calls)]
        return {
            "id": f"chatcmpl-stub-{n}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model") or self.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish,
                         "logprobs": None}],
            "usage": {"prompt_tokens": reply.prompt_tokens,
                      "completion_tokens": reply.completion_tokens,
                      "total_tokens": reply.prompt_tokens + reply.completion_tokens,
                      "prompt_tokens_details": {"cached_tokens": reply.cached_tokens}},
        }


class _Handler(JSONHandler):
    def do_GET(self) -> None:
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            self.send_json(200, {"object": "list", "data": [
                {"id": self.stub.model, "object": "model", "created": 0, "owned_by": "stub"}]})
        else:
            self.send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

    def do_POST(self) -> None:
        raw = self.read_body()
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self.send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self.send_json(400, {"error": {"message": "request body is not JSON",
                                       "type": "invalid_request_error"}})
            return
        reply = self.stub._next(body, {k.lower(): v for k, v in self.headers.items()})
        if reply.delay_s:
            time.sleep(reply.delay_s)
        if reply.status != 200:
            payload = reply.body if reply.body is not None else {"error": {
                "message": f"stub error {reply.status}", "type": "stub_error",
                "code": reply.status}}
            self.send_json(reply.status, payload, reply.headers)
            return
        self.send_json(200, self.stub._completion(reply, body, len(self.stub.requests)),
                   reply.headers)


LLMStub.handler = _Handler


@pytest.fixture
def llm_stub() -> Iterator[LLMStub]:
    """A running LLM stub; script it with `reply…` and point an LLMConfig at `llm_stub.config()`."""
    with LLMStub() as stub:
        yield stub
