"""`graphmem serve` as a real process for a test: on a free port against the test Neo4j, with a
client that sends one API key, stopped afterwards."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import httpx

from graphmem.store.admin import forget_user
from tests.integration.test_server import free_port, start_server, stop, wait_ready


@contextlib.contextmanager
def served(bolt_uri: str, keys: str | None, key: str | None) -> Iterator[httpx.Client]:
    """A running server (`keys` as GRAPHMEM_API_KEYS) and a client sending `key`."""
    port = free_port()
    proc = start_server(bolt_uri, port, keys)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, base)
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        with httpx.Client(base_url=base, timeout=60, headers=headers) as client:
            yield client
    finally:
        stop(proc)


@contextlib.contextmanager
def fresh_user(graph: Any, prefix: str) -> Iterator[str]:
    """A user id no memory holds yet (the shared test database holds many), forgotten after."""
    uid = f"{prefix}-{uuid.uuid4().hex[:10]}"
    try:
        yield uid
    finally:
        forget_user(graph, uid)
