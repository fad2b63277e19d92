"""`graphmem serve`: the HTTP API over one warm Memory."""

from __future__ import annotations

import ipaddress
import threading
import time
from typing import Any

import click

from ..errors import ConfigError
from .group import EXTRACTOR_CHOICE, RELATIONS_CHOICE, _echo_err, _fail_cleanly, main, open_memory


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=8420, show_default=True)
@click.option("--workers", type=int, default=4, show_default=True,
              help="Memory calls running at once (embedding is CPU-bound).")
@click.option("--torch-threads", type=int, default=None,
              help="Threads of one embedding call (default: torch's own, the number of cores; "
                   "1 measured slower on a shared 2-core machine).")
@click.option("--embed-batching/--no-embed-batching", default=True, show_default=True,
              help="One embedding call for the queries of every request waiting at once.")
@click.option("--max-pending", type=int, default=64, show_default=True,
              help="Requests waiting for a worker before new ones get 503.")
@click.option("--max-body-mb", type=float, default=16, show_default=True,
              help="Largest request body (a transcript upload).")
@click.option("--extractor", default="offline", show_default=True, type=EXTRACTOR_CHOICE)
@click.option("--relations", default="auto", show_default=True, type=RELATIONS_CHOICE)
@_fail_cleanly
def serve(host, port, workers, torch_threads, embed_batching, max_pending, max_body_mb, extractor,
          relations) -> None:
    """Serve memory over HTTP (JSON under /v1, OpenAPI at /docs), with the model kept warm.

    API keys: GRAPHMEM_API_KEYS="KEY=alice,bob;ADMINKEY=*" and/or GRAPHMEM_API_KEYS_FILE (JSON
    {"KEY": ["alice"], "ADMINKEY": "*"}). Without keys the server listens on loopback only."""
    import uvicorn  # deferred: uvicorn and the server (FastAPI, mcp) load for `serve` only

    from ..server import KeyRing, create_app  # deferred: FastAPI, mcp and the whole of Memory

    if torch_threads is not None and torch_threads < 1:
        raise ConfigError("--torch-threads must be at least 1")
    started = time.perf_counter()
    keys = KeyRing.from_env()
    if not keys.enabled:
        if not _loopback(host):
            raise ConfigError(f"refusing to listen on {host} without API keys: set "
                              "GRAPHMEM_API_KEYS or GRAPHMEM_API_KEYS_FILE, or use --host 127.0.0.1")
        _echo_err("graphmem serve: no API keys configured, so loopback only and every user open")
    # Deferred with the server above: the embedders (numpy) and the batching queue.
    from ..compose import embedder as configured_embedder
    from ..server.batching import BatchingEmbedder  # deferred likewise

    if torch_threads is not None:  # torch is loaded only for an embedder that runs on it
        import torch  # deferred: torch (seconds), an optional dependency of one embedder

        torch.set_num_threads(torch_threads)
    embedder = BatchingEmbedder(configured_embedder()) if embed_batching else configured_embedder()
    mem = open_memory(extractor=extractor, relations=relations, retry_s=2, embedder=embedder)
    mem.warm()
    app = create_app(mem, keys, workers=workers, max_pending=max_pending,
                     max_body_bytes=int(max_body_mb * 2**20), host=host)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                           access_log=False))
    threading.Thread(target=_say_when_ready, args=(server, host, port, started),
                     daemon=True).start()
    try:
        server.run()
    finally:
        mem.close()


def _say_when_ready(server: Any, host: str, port: int, started: float) -> None:
    """Say "ready" once the server's own /readyz answers 200 (the socket listens, Neo4j answers,
    the schema is applied, the model is loaded), not before: a script waiting for the line may
    send its first request at once."""
    import httpx

    local = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    url = f"http://{'[' + local + ']' if ':' in local else local}:{port}/readyz"
    told = False
    while not server.should_exit:
        if server.started:
            try:
                r = httpx.get(url, timeout=5)
            except httpx.TransportError:
                r = None
            if r is not None and r.status_code == 200:
                _echo_err(f"graphmem serve: ready at http://{host}:{port} (docs /docs, MCP "
                          f"/mcp; /readyz answered 200 after "
                          f"{time.perf_counter() - started:.1f} s)")
                return
            if r is not None and not told and time.perf_counter() - started > 30:
                told = True  # once: what is missing (`graphmem doctor` says how to fix it)
                _echo_err(f"graphmem serve: listening, not ready yet: {r.text}")
        time.sleep(0.1)


@main.command("mcp")
@click.option("--extractor", default="offline", show_default=True, type=EXTRACTOR_CHOICE)
@click.option("--relations", default="auto", show_default=True, type=RELATIONS_CHOICE)
@_fail_cleanly
def mcp_stdio(extractor, relations) -> None:
    """Serve memory to an MCP client over stdio (tools: remember, search_memory, current_facts,
    timeline, inspect, answer). The client launches this command; logs go to stderr."""
    from ..server.mcp_tools import build_mcp  # deferred: the mcp SDK and FastAPI (seconds)

    mem = open_memory(extractor=extractor, relations=relations)
    mem.warm()
    try:
        build_mcp(mem).run("stdio")
    finally:
        mem.close()
