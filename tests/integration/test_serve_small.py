"""Issue 32, item 8, against a real `graphmem serve` process: it says "ready" only once /readyz
answers 200 and prints none of the MCP SDK's INFO lines; `graphmem ask` through GRAPHMEM_URL
loads neither the LLM client library nor the Neo4j driver nor a model runtime."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest

from tests.integration.test_server import free_port, start_server, stop
from tests.serving import fresh_user

# What a command that only talks to a server must not import: the slow part of `ask` was
# the LLM client library (4-5 s in all).
HEAVY = ("openai", "neo4j", "numpy", "torch", "onnxruntime", "sentence_transformers")


@pytest.fixture(scope="module")
def serve(neo4j_graph) -> Iterator[dict[str, Any]]:
    """A server started here, its stderr read line by line as it comes, and /readyz polled; for
    each line, whether /readyz answered 200 right after it was read."""
    port = free_port()
    proc = start_server(neo4j_graph.uri, port, None)
    base = f"http://127.0.0.1:{port}"
    seen: dict[str, Any] = {"base": base, "lines": [], "ready_line_then": None}

    def read() -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            line = raw.decode().rstrip()
            seen["lines"].append(line)
            if "ready" in line and seen["ready_line_then"] is None:
                seen["ready_line_then"] = httpx.get(f"{base}/readyz", timeout=10).status_code

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    started = time.perf_counter()
    try:
        while seen["ready_line_then"] is None and time.perf_counter() - started < 240:
            assert proc.poll() is None, "\n".join(seen["lines"])
            time.sleep(0.2)
        yield seen
    finally:
        stop(proc)
        reader.join(timeout=10)


def test_serve_says_ready_when_readyz_answers_and_prints_no_sdk_info(serve):
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    assert serve["ready_line_then"] == 200, serve["lines"]

    async def list_tools() -> int:  # an MCP session: the SDK logs its manager and requests
        async with Client(streamable_http_client(f"{serve['base']}/mcp",
                                                 http_client=httpx2.AsyncClient(timeout=60))) as c:
            return len((await c.list_tools()).tools)

    assert anyio.run(list_tools) > 0
    time.sleep(0.5)
    assert not [line for line in serve["lines"] if "INFO" in line], serve["lines"]
    said = [line for line in serve["lines"] if "ready" in line]
    assert len(said) == 1 and "/readyz answered 200" in said[0], serve["lines"]


def test_ask_through_graphmem_url_loads_no_llm_library(serve, neo4j_graph):
    with fresh_user(neo4j_graph, "test-ask") as user:
        httpx.post(f"{serve['base']}/v1/users/{user}/sessions/s1/messages", json={
            "session_time": "2026-03-01T10:00:00Z",
            "messages": [{"role": "user", "content": "I live in Leeds."}]}, timeout=60
        ).raise_for_status()
        env = {**os.environ, "GRAPHMEM_URL": serve["base"]}
        env.pop("GRAPHMEM_API_KEY", None)
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "graphmem", "ask",
                               "--user", user, "--offline", "Where do I live?"],
                              env=env, capture_output=True, text=True, timeout=120)
        seconds = time.perf_counter() - started
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Leeds" in done.stdout
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0]
                for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert imported and not imported & set(HEAVY), sorted(imported & set(HEAVY))
    assert seconds < 20  # the measure is the imports above; this only catches a hang
