"""The `graphmem` command line: a thin door over the Python API."""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import click

from . import localneo4j
from .config import Settings
from .db import Graph
from .errors import ConfigError, GraphmemError, UnknownUser
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


# --- ingest / stats / forget -------------------------------------------------------------------


def _make_extractor(name: str):
    from .extract import OfflineExtractor

    if name == "offline":
        return OfflineExtractor()
    from .extract.llm import LLMExtractor
    from .llm import LLMClient, LLMConfig

    config = LLMConfig.from_env()
    if config is None:
        raise ConfigError(
            "--extractor llm needs an OpenAI-compatible endpoint: set GRAPHMEM_LLM_BASE_URL and "
            "GRAPHMEM_LLM_MODEL (and GRAPHMEM_LLM_API_KEY if it needs one)"
        )
    return LLMExtractor(LLMClient(config))


@main.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--format", "fmt", default="auto", show_default=True,
              type=click.Choice(["auto", "longmemeval", "locomo", "jsonl", "openai"]))
@click.option("--user", default=None,
              help="Only this user (the owner's id, required, for --format openai).")
@click.option("--session", default=None, help="Session id (--format openai).")
@click.option("--session-time", default=None, help="Session start time (--format openai).")
@click.option("--limit", type=int, default=None, help="Ingest at most N users.")
@click.option("--extractor", default="offline", show_default=True,
              type=click.Choice(["offline", "llm"]))
@click.option("--verbose", "-v", is_flag=True, help="Show every rejected fact candidate.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@_fail_cleanly
def ingest(path, fmt, user, session, session_time, limit, extractor, verbose, as_json) -> None:
    """Load a transcript file into memory (sessions, turns, pieces, facts, entities)."""
    from tqdm import tqdm

    from .embed import default_embedder
    from .ingest import IngestOptions, Ingestor
    from .loaders import load

    transcripts = load(path, fmt, user=user, session=session, session_time=session_time,
                       limit=limit)
    with connect() as g:
        ingestor = Ingestor(g, _make_extractor(extractor), default_embedder(),
                            IngestOptions(verbose=verbose))
        bar = tqdm(unit="session", desc="ingest", file=sys.stderr, dynamic_ncols=True,
                   disable=as_json or not sys.stderr.isatty())
        turns = 0
        started = time.perf_counter()

        def tick(r) -> None:
            nonlocal turns
            turns += r.turns
            bar.update(r.sessions + r.sessions_unchanged)
            bar.set_postfix(turns=turns, turns_s=f"{turns / (time.perf_counter() - started):.0f}")

        report = ingestor.ingest(transcripts, on_session=tick)
        bar.close()
    load_report = getattr(transcripts, "report", None)
    summary = {k: getattr(report, k) for k in ("users", "sessions", "sessions_unchanged",
                                               "turns", "pieces", "facts", "rejected",
                                               "entities")}
    summary["seconds"] = round(report.seconds, 2)
    summary["turns_per_s"] = round(report.turns / report.seconds, 1) if report.seconds else 0.0
    if load_report is not None:
        summary["skipped"] = {k.removeprefix("skipped_"): v for k, v in vars(load_report).items()
                              if k.startswith("skipped_") and isinstance(v, int)}
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(" ".join(f"{k}={v}" for k, v in summary.items() if k != "skipped"))
    if summary.get("skipped") and any(summary["skipped"].values()):
        click.echo("skipped: " + " ".join(f"{k}={v}" for k, v in summary["skipped"].items() if v))
    for r in report.rejections:
        click.echo(f"rejected [{r.turn_source_id}] {r.predicate}: {r.support!r} ({r.reason})")


@main.command()
@click.option("--user", default=None, help="Only this user's memory.")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def stats(user, as_json) -> None:
    """Count users, sessions, turns, pieces, facts and entities in the database."""
    with connect() as g:
        row = g.read("stats", user_id=user)[0]
    if user and row["users"] == 0:
        raise UnknownUser(f"no memory for user {user!r}; `graphmem stats` lists totals")
    click.echo(json.dumps(row) if as_json else " ".join(f"{k}={v}" for k, v in row.items()))


@main.command()
@click.option("--user", required=True, help="The user whose memory is deleted.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@_fail_cleanly
def forget(user, yes) -> None:
    """Delete everything of one user, and nothing else."""
    if not yes:
        click.confirm(f"Delete all memory of user {user!r}?", abort=True)
    with connect() as g:
        deleted = g.forget_user(user)
    if deleted == 0:
        raise UnknownUser(f"no memory for user {user!r}; nothing deleted")
    click.echo(f"deleted {deleted} nodes of user {user!r}")


@main.command()
@click.option("--user", required=True, help="Whose memory to search.")
@click.option("-k", "k", type=int, default=10, show_default=True, help="How many results.")
@click.option("--json", "as_json", is_flag=True)
@click.argument("query")
@_fail_cleanly
def search(user, k, as_json, query) -> None:
    """Search one user's memory and print ranked evidence with its source turn ids."""
    from .memory import Memory

    with connect() as g:
        mem = Memory(g)
        mem.stats(user)  # unknown user -> clear error
        results = mem.search(user, query, k=k)
    if as_json:
        click.echo(json.dumps([r.__dict__ for r in results]))
        return
    if not results:
        click.echo("no evidence found")
    for i, r in enumerate(results, 1):
        text = r.text if len(r.text) <= 200 else r.text[:197] + "..."
        click.echo(f"{i:>2}. [{r.type}:{r.source_id}] {r.score:.2f} ({r.mentioned_at}) {text}")


# --- bench -------------------------------------------------------------------------------------


@main.group()
def bench() -> None:
    """Benchmarks: commands that print numbers."""


@bench.command("ingest")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--limit", type=int, default=None, help="At most N users.")
@click.option("--keep", is_flag=True, help="Keep the ingested users (default: forget them after).")
@click.option("--prefix", default=None, help="User id prefix (default: bench-<unix time>-).")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def bench_ingest(path, limit, keep, prefix, as_json) -> None:
    """Ingest throughput with the offline extractor (turns/s, minutes, peak RSS)."""
    from tqdm import tqdm

    from .bench.ingest import run_ingest_bench

    bar = tqdm(unit="session", desc="ingest", file=sys.stderr, disable=not sys.stderr.isatty())
    turns = 0
    started = time.perf_counter()

    def tick(r) -> None:
        nonlocal turns
        turns += r.turns
        bar.update(r.sessions + r.sessions_unchanged)
        bar.set_postfix(turns_s=f"{turns / (time.perf_counter() - started):.0f}")

    res = run_ingest_bench(path, limit=limit, prefix=prefix, keep=keep, on_session=tick)
    bar.close()
    out = {**res.__dict__, "turns_per_s": round(res.turns_per_s, 1),
           "minutes": round(res.seconds / 60, 2)}
    if as_json:
        click.echo(json.dumps(out))
        return
    click.echo(f"users={res.users} sessions={res.sessions} turns={res.turns} pieces={res.pieces} "
               f"facts={res.facts} rejected={res.rejected}")
    click.echo(f"seconds={res.seconds:.1f} (loading {res.load_seconds:.1f}) "
               f"turns/s={res.turns_per_s:.1f} minutes={res.seconds / 60:.2f}")
    neo = f"{res.neo4j_peak_rss_mib:.0f}" if res.neo4j_peak_rss_mib else "n/a"
    click.echo(f"peak RSS: python={res.python_peak_rss_mib:.0f} MiB neo4j={neo} MiB")


if __name__ == "__main__":  # pragma: no cover
    main()
