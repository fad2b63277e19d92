"""The `graphmem` command line: a thin door over the Python API."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any

import click

from . import localneo4j
from .config import Settings
from .db import Graph
from .errors import GraphmemError
from .migrate import apply_schema, schema_status


def _fail_cleanly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn graphmem's own errors into one clear line on stderr and exit code 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphmemError as exc:
            click.echo(f"graphmem: error: {exc}", err=True)
            sys.exit(1)

    return wrapper


def _echo_err(msg: str) -> None:
    click.echo(msg, err=True)


def connect() -> Graph:
    return Graph.connect(echo=_echo_err)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="graphmem")
def main() -> None:
    """graphmem: evidence-grounded temporal graph memory for LLM agents, in Neo4j."""


# --- neo4j -----------------------------------------------------------------------------------


@main.group()
def neo4j() -> None:
    """Manage the local Neo4j (used when NEO4J_URI is not set)."""


@neo4j.command("start")
@_fail_cleanly
def neo4j_start() -> None:
    """Start the local Neo4j in the background and wait until Bolt answers."""
    settings = Settings.from_env()
    if settings.external:
        click.echo(f"NEO4J_URI is set ({settings.uri}); graphmem uses that Neo4j, not a local one.")
        return
    already = localneo4j.status(settings.local).running
    state = localneo4j.start(settings.local, echo=_echo_err)
    click.echo(("Neo4j already running" if already else "Neo4j started") + f" (pid {state.pid})")
    click.echo(f"  Bolt:    {state.bolt_uri}")
    click.echo(f"  Browser: {state.browser_url}")
    click.echo(f"  Data:    {state.home}/data")


@neo4j.command("stop")
@_fail_cleanly
def neo4j_stop() -> None:
    """Stop the local Neo4j cleanly (no data is lost)."""
    settings = Settings.from_env()
    if localneo4j.stop(settings.local):
        click.echo("Neo4j stopped")
    else:
        click.echo("Neo4j was not running")


@neo4j.command("status")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_fail_cleanly
def neo4j_status(as_json: bool) -> None:
    """Say whether the local Neo4j runs, with version, ports and data dir."""
    settings = Settings.from_env()
    st = localneo4j.status(settings.local)
    if as_json:
        state = st.state.__dict__ if st.state else None
        click.echo(json.dumps({"running": st.running, "home": str(st.home), "state": state,
                               "note": st.note, "external_uri": settings.uri}))
    else:
        if settings.external:
            click.echo(f"NEO4J_URI is set: graphmem uses {settings.uri} (local Neo4j not used)")
        if st.running and st.state:
            click.echo(f"running  Neo4j {st.state.version} (pid {st.state.pid})")
            click.echo(f"  Bolt:    {st.state.bolt_uri}")
            click.echo(f"  Browser: {st.state.browser_url}")
        else:
            click.echo(f"not running ({st.note})")
        click.echo(f"  Data:    {st.home}/data")
    if not st.running and not settings.external:
        sys.exit(3)


# --- schema ----------------------------------------------------------------------------------


@main.group()
def schema() -> None:
    """Apply or inspect the graph schema (constraints, full-text and vector indexes)."""


@schema.command("apply")
@_fail_cleanly
def schema_apply() -> None:
    """Apply pending migrations (idempotent) and wait for indexes to come online."""
    with Graph.connect(ensure_schema=False, echo=_echo_err) as g:
        report = apply_schema(g)
    if report.applied:
        click.echo("applied: " + ", ".join(report.applied))
    click.echo(f"schema at version {report.version}")


@schema.command("status")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_fail_cleanly
def schema_status_cmd(as_json: bool) -> None:
    """List the schema version, constraints and indexes."""
    with Graph.connect(ensure_schema=False, echo=_echo_err) as g:
        st = schema_status(g)
        server = g.server_version()
    if as_json:
        click.echo(json.dumps(st, default=str))
        return
    click.echo(f"server: {server}")
    versions = ", ".join(f"{v['version']:04d}_{v['name']}" for v in st["versions"]) or "none"
    click.echo(f"migrations applied: {versions}")
    click.echo("constraints:")
    for c in st["constraints"]:
        click.echo(f"  {c['name']:<28} {c['type']:<12} {':'.join(c['labelsOrTypes'])}"
                   f"({', '.join(c['properties'])})")
    click.echo("indexes:")
    for i in st["indexes"]:
        on = f"{':'.join(i['labelsOrTypes'] or [])}({', '.join(i['properties'] or [])})"
        click.echo(f"  {i['name']:<28} {i['type']:<9} {i['state']:<8} {on}")


if __name__ == "__main__":  # pragma: no cover
    main()
