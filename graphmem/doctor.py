"""`graphmem doctor`: one line per check of what graphmem needs — Java and Maven (for the managed
Neo4j), the Neo4j it would use (reachable, version, schema, index states), the invariants no
constraint can declare (no edge joining two users, no half-written session), whether every user's
slots were decided by this version's currency rules, the embedder
(loads; the database's vectors are its model's), and the LLM endpoint when one is configured — each
failure with the fix."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from graphmem.schema import migrations

from . import localneo4j
from .compose import embedder as configured_embedder
from .compose import llm_client
from .config import Settings
from .currency_rules import rules_version
from .db import Graph
from .errors import GraphmemError
from .store import admin
from .store.embedding import any_embedded
from .vectorspace import LEGACY_DIMENSIONS, LEGACY_MODEL, recorded


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def _try(name: str, probe: Callable[[], tuple[bool, str, str]]) -> Check:
    try:
        ok, detail, fix = probe()
    except GraphmemError as exc:
        return Check(name, False, "failed", str(exc))
    except Exception as exc:  # a check must report, never crash the doctor
        return Check(name, False, f"{type(exc).__name__}: {exc}"[:200], "see the message")
    return Check(name, ok, detail, fix)


def run_checks(settings: Settings | None = None) -> tuple[list[Check], dict[str, Any]]:
    """Every check, in order, and the figures behind them (for --json)."""
    settings = settings or Settings.from_env()
    checks: list[Check] = []
    figures: dict[str, Any] = {}
    if settings.external:
        checks.append(Check("java", True, "not needed: NEO4J_URI is set"))
        checks.append(Check("maven", True, "not needed: NEO4J_URI is set"))
    else:
        def java() -> tuple[bool, str, str]:
            exe = localneo4j.java_executable()
            return True, f"{exe} (Java {localneo4j.java_major(Path(exe))})", ""

        def maven() -> tuple[bool, str, str]:
            cached = (localneo4j.jar_dir(settings.local) / ".complete").exists()
            mvn = shutil.which("mvn")
            if mvn or cached:
                return True, "the Neo4j jars are cached" if cached else str(mvn), ""
            return False, "mvn not found and the Neo4j jars are not cached", \
                "apt-get install maven (needed once, to fetch the Neo4j jars)"

        checks += [_try("java", java), _try("maven", maven)]

    graph: Graph | None = None

    def neo4j() -> tuple[bool, str, str]:
        nonlocal graph
        graph = Graph.connect(settings)
        return True, f"{graph.uri}: {admin.server_version(graph)}", ""

    checks.append(_try("neo4j", neo4j))
    if graph is not None:
        checks += _database_checks(graph, figures)
    checks.append(_try("embedder", lambda: _embedder(graph)))
    if graph is not None:
        graph.close()
    checks.append(_try("llm", _llm))
    figures["ok"] = all(c.ok for c in checks)
    figures["checks"] = [asdict(c) for c in checks]
    return checks, figures


def _database_checks(graph: Any, figures: dict[str, Any]) -> list[Check]:
    def schema() -> tuple[bool, str, str]:
        done = admin.applied_versions(graph)
        pending = [f"{m.version:04d}_{m.name}" for m in migrations() if m.version not in done]
        if pending:
            return False, "pending: " + ", ".join(pending), "graphmem schema apply"
        return True, f"version {max(done)}", ""

    def indexes() -> tuple[bool, str, str]:
        listing = admin.schema_listing(graph)["indexes"]
        bad = [i["name"] for i in listing if i["state"] != "ONLINE"]
        if bad:
            return False, "not online: " + ", ".join(bad), \
                "wait for population (graphmem schema apply waits), or drop and re-apply"
        return True, f"{len(listing)} online", ""

    def tenancy() -> tuple[bool, str, str]:
        edges = figures["cross_user_edges"] = admin.cross_user_edges(graph)
        half = figures["half_written_sessions"] = admin.half_written_sessions_all(graph)
        ok = edges == 0 and half == 0
        return ok, f"cross-user edges {edges}, half-written sessions {half}", \
            "" if ok else "a bug: export, forget and re-import the affected users, and report it"

    def currency() -> tuple[bool, str, str]:
        version = rules_version()
        stale = admin.users_with_stale_rules(graph, version)
        figures["currency_rules"] = version
        figures["users_decided_by_other_rules"] = len(stale)
        if stale:
            who = "1 user's" if len(stale) == 1 else f"{len(stale)} users'"
            return False, f"{who} slots decided by other or unknown currency rules than this " \
                f"version's ({version}), e.g. {stale[0]!r}", "graphmem redecide --stale"
        return True, f"every user's slots decided by this version's rules ({version})", ""

    return [_try("schema", schema), _try("indexes", indexes), _try("tenancy", tenancy),
            _try("currency", currency)]


def _embedder(graph: Any) -> tuple[bool, str, str]:
    """The configured embedder loads and embeds; its model is the one the database recorded."""
    embedder = configured_embedder()
    vec = embedder.embed_query("doctor")
    if len(vec) != embedder.dimensions:
        return False, f"{embedder.name} gave {len(vec)} dimensions, not its {embedder.dimensions}", \
            "reinstall graphmem (pip install -e .) or fix GRAPHMEM_EMBED_DIMENSIONS"
    mine = f"{embedder.name} ({embedder.dimensions}-d)"
    if graph is None:
        return True, f"{mine} loads", ""
    space = recorded(graph)
    if space is None:
        if not any_embedded(graph):
            return True, f"{mine} loads; the database holds no vectors yet", ""
        space_model, space_dims = LEGACY_MODEL, LEGACY_DIMENSIONS
    elif space.target_model:
        return False, f"{mine} loads; a re-embedding to {space.target_model} is unfinished", \
            "graphmem reembed (with GRAPHMEM_EMBEDDER set to that model)"
    else:
        space_model, space_dims = space.model, space.dimensions
    if (space_model, space_dims) != (embedder.name, embedder.dimensions):
        return False, f"{mine} loads, but the database's vectors are {space_model} ({space_dims}-d)", \
            "graphmem reembed, or set GRAPHMEM_EMBEDDER to the model that wrote them"
    return True, f"{mine} loads, the model of the database's vectors", ""


def _llm() -> tuple[bool, str, str]:
    client = llm_client()
    if client is None:
        return True, "none configured (offline extraction and extractive answers)", ""
    try:
        client.chat([{"role": "user", "content": "Reply with OK."}], max_tokens=2)
    except Exception as exc:
        return False, f"{client.config.base_url}: {type(exc).__name__}", \
            "check GRAPHMEM_LLM_BASE_URL, GRAPHMEM_LLM_MODEL and GRAPHMEM_LLM_API_KEY"
    return True, f"{client.config.base_url} answers ({client.config.model})", ""
