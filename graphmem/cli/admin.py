"""`graphmem neo4j …`, `graphmem schema …`, `graphmem doctor` and `graphmem reembed`."""

from __future__ import annotations

import json
import os
import sys
from importlib import resources
from typing import Any

import click

from .. import localneo4j
from ..config import Settings
from .group import LazyChoice, _echo_err, _fail_cleanly, main, open_memory

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


@neo4j.command("browser")
@click.option("--style", "show", flag_value="style", help="Print the Browser style (GraSS).")
@click.option("--queries", "show", flag_value="queries", help="Print the ready queries.")
@_fail_cleanly
def neo4j_browser(show) -> None:
    """How to look at memory graphs in Neo4j Browser: URL, style, ready queries."""
    files = resources.files("graphmem").joinpath("browser")
    if show == "style":
        click.echo(files.joinpath("graphmem.grass").read_text())
        return
    if show == "queries":
        click.echo(files.joinpath("queries.cypher").read_text())
        return
    settings = Settings.from_env()
    st = localneo4j.status(settings.local)
    url = st.state.browser_url if st.running and st.state else "(start it: graphmem neo4j start)"
    click.echo(f"Neo4j Browser: {url}")
    click.echo(f"Style:   drag {files.joinpath('graphmem.grass')} onto the Browser window")
    click.echo("         (typing `:style <text>` into the editor breaks Browser's graph view).")
    click.echo(f"Queries: {files.joinpath('queries.cypher')}")
    click.echo("         (`graphmem neo4j browser --queries`; each names its user on its first "
               "line: WITH 'demo' AS user)")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_fail_cleanly
def doctor(as_json: bool) -> None:
    """Check Java, Maven, the Neo4j graphmem would use (version, schema, indexes, no edge joining
    two users, no half-written session), the embedder and the LLM endpoint; one line each, with
    the fix for each failure. Exit code 1 when a check fails."""
    # Deferred: the checks load the Neo4j driver, the embedders and the LLM client (seconds).
    from ..doctor import run_checks

    checks, figures = run_checks()
    if as_json:
        click.echo(json.dumps(figures))
    else:
        for c in checks:
            click.echo(f"{'ok  ' if c.ok else 'FAIL'} {c.name:<9} {c.detail}"
                       + (f"  → {c.fix}" if c.fix and not c.ok else ""))
    if not figures["ok"]:
        sys.exit(1)


# --- schema ----------------------------------------------------------------------------------


@main.group()
def schema() -> None:
    """Apply or inspect the graph schema (constraints, full-text and vector indexes)."""


@schema.command("apply")
@_fail_cleanly
def schema_apply() -> None:
    """Apply pending migrations (idempotent) and wait for indexes to come online."""
    # Deferred: the Neo4j driver (about half a second), for the schema commands only.
    from ..db import Graph
    from ..migrate import apply_schema  # deferred with the driver, as is the line above

    with Graph.connect(echo=_echo_err) as g:
        report = apply_schema(g)
    if report.applied:
        click.echo("applied: " + ", ".join(report.applied))
    click.echo(f"schema at version {report.version}")


@schema.command("status")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_fail_cleanly
def schema_status_cmd(as_json: bool) -> None:
    """List the schema version, constraints and indexes."""
    # Deferred: the Neo4j driver (about half a second), for the schema commands only.
    from ..db import Graph
    from ..migrate import schema_status  # deferred with the driver, as is the line above
    from ..store.admin import server_version  # deferred with the driver

    with Graph.connect(echo=_echo_err) as g:
        st = schema_status(g)
        server = server_version(g)
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


# --- the vector space --------------------------------------------------------------------------


def _embedder_keys() -> list[str]:
    from ..embed import EMBEDDERS  # deferred: the embedders' modules load numpy (LazyChoice)

    return list(EMBEDDERS)


@main.command()
@click.option("--to", "to", type=LazyChoice(_embedder_keys), default=None,
              help="The embedder to move to (default: GRAPHMEM_EMBEDDER's).")
@click.option("--batch", type=click.IntRange(1, 10_000), default=256, show_default=True,
              help="Nodes embedded and written per transaction.")
@_fail_cleanly
def reembed(to, batch) -> None:
    """Re-embed every stored embedding (turns, pieces, facts, entity names) with another model,
    user by user; resumable (run it again after an interruption). The database keeps its old
    vectors, whole, until every node has a new one."""
    from tqdm import tqdm  # deferred: tqdm (~30 ms), for this command's bars only

    from ..embed import ENV, configured_key  # deferred: the embedders' modules load numpy

    bars: dict[str, Any] = {}

    def progress(phase: str, done: int, total: int) -> None:
        bar = bars.get(phase)
        if bar is None:
            for old in bars.values():
                old.close()
            bar = bars[phase] = tqdm(total=total, unit="node", desc=phase, file=sys.stderr,
                                     dynamic_ncols=True, disable=not sys.stderr.isatty())
        bar.update(done - bar.n)

    mem = open_memory(answer_llm=False)
    try:
        report = mem.reembed(to, batch=batch, on_progress=progress)
    finally:
        for bar in bars.values():
            bar.close()
        mem.close()
    if report.nothing_to_do:
        click.echo(f"the stored vectors are {report.model_to}'s already: nothing to do")
        return
    click.echo(f"re-embedded {report.users} users: {report.embedded} nodes embedded, "
               f"{report.swapped} swapped in, {report.model_from} → {report.model_to}"
               + (" (vector indexes rebuilt)" if report.indexes_rebuilt else ""))
    if to and to != configured_key(os.environ):
        click.echo(f"set {ENV}={to} so that graphmem opens this database with it")
