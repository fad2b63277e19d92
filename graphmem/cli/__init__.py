"""The `graphmem` command line: a thin door over the Python API."""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from .. import localneo4j
from ..config import Settings
from ..db import Graph
from ..errors import ConfigError, GraphmemError, UnknownUser
from ..migrate import apply_schema, schema_status


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


@neo4j.command("browser")
@click.option("--style", "show", flag_value="style", help="Print the Browser style (GraSS).")
@click.option("--queries", "show", flag_value="queries", help="Print the ready queries.")
@_fail_cleanly
def neo4j_browser(show) -> None:
    """How to look at memory graphs in Neo4j Browser: URL, style, ready queries."""
    from importlib import resources

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
    click.echo(f"Style:   drag {files.joinpath('graphmem.grass')} onto the Browser window,")
    click.echo("         or run  :style  followed by the output of `graphmem neo4j browser --style`.")
    click.echo(f"Queries: {files.joinpath('queries.cypher')}")
    click.echo("         (`graphmem neo4j browser --queries`; set the user first: "
               ":param user => 'demo')")


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


def _llm_client(what: str):
    from ..llm import LLMClient, LLMConfig

    config = LLMConfig.from_env()
    if config is None:
        raise ConfigError(
            f"{what} needs an OpenAI-compatible endpoint: set GRAPHMEM_LLM_BASE_URL and "
            "GRAPHMEM_LLM_MODEL (and GRAPHMEM_LLM_API_KEY if it needs one)"
        )
    return LLMClient(config)


def _make_extractor(name: str, client=None):
    from ..extract import OfflineExtractor

    if name == "offline":
        return OfflineExtractor()
    from ..extract.llm import LLMExtractor

    return LLMExtractor(client or _llm_client("--extractor llm"))


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
@click.option("--relations", default="auto", show_default=True,
              type=click.Choice(["auto", "rules", "llm"]),
              help="Who decides SUPERSEDES/UPDATES/CONTRADICTS beyond the slot rules: the LLM "
                   "(auto: when --extractor llm) or nobody (rules only).")
@click.option("--verbose", "-v", is_flag=True, help="Show every rejected fact candidate.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@_fail_cleanly
def ingest(path, fmt, user, session, session_time, limit, extractor, relations, verbose,
           as_json) -> None:
    """Load a transcript file into memory (sessions, turns, pieces, facts, entities)."""
    from tqdm import tqdm

    from ..embed import default_embedder
    from ..ingest import IngestOptions, Ingestor
    from ..loaders import load

    transcripts = load(path, fmt, user=user, session=session, session_time=session_time,
                       limit=limit)
    # Configuration errors come before any connection.
    use_llm = relations == "llm" or (relations == "auto" and extractor == "llm")
    client = _llm_client("--extractor llm" if extractor == "llm" else "--relations llm") if (
        use_llm or extractor == "llm") else None
    chosen = _make_extractor(extractor, client)
    judge = None
    if use_llm:
        from ..relate import LLMRelationJudge

        judge = LLMRelationJudge(client)
    with connect() as g:
        ingestor = Ingestor(g, chosen, default_embedder(),
                            IngestOptions(verbose=verbose, relation_judge=judge))
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
                                               "entities", "judged_links")}
    summary["seconds"] = round(report.seconds, 2)
    summary["turns_per_s"] = round(report.turns / report.seconds, 1) if report.seconds else 0.0
    if client is not None:  # extraction and relation judging: tokens and dollars
        summary["llm_tokens"] = client.usage.total_tokens
        summary["llm_cost_usd"] = round(client.usage.cost_usd, 6)
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
@click.option("--question-date", default=None, help="'Now' for the question (default: now).")
@click.option("--as-of", "as_of", default=None, help="Search memory as it was valid then.")
@click.option("-k", "k", type=int, default=10, show_default=True, help="How many results.")
@click.option("--preset", default="fused", show_default=True,
              type=click.Choice(["fused", "paper", "graph", "bm25", "dense", "rank-bm25"]))
@click.option("--explain", is_flag=True, help="Show the per-tunnel hits.")
@click.option("--json", "as_json", is_flag=True)
@click.argument("query")
@_fail_cleanly
def search(user, question_date, as_of, k, preset, explain, as_json, query) -> None:
    """Search one user's memory and print ranked evidence with its source turn ids."""
    from ..memory import Memory

    with connect() as g:
        mem = Memory(g)
        g.require_user(user)
        res = mem.search_full(user, query, question_date=_parse_when(question_date, "--question-date"),
                              as_of=_parse_when(as_of, "--as-of"), k=k, config=preset)
    if as_json:
        out: dict[str, Any] = {"results": [dict(vars(e), source_id=e.source_id) for e in res.evidence],
                               "timings_ms": res.timings_ms}
        if explain:
            out["hits"] = [vars(h) for h in res.hits]
        click.echo(_dump(out))
        return
    w = res.analysis.intent
    if w.window or w.direction:
        window = f"{_day(w.window[0])} → {_day(w.window[1])}" if w.window else None
        click.echo(f"time intent: window={window} direction={w.direction} present={w.about_present}")
    if not res.evidence:
        click.echo("no evidence found")
    for i, e in enumerate(res.evidence, 1):
        text = " ".join(e.text.split())
        text = text if len(text) <= 160 else text[:157] + "..."
        status = f" [{e.status}]" if e.status and e.status != "active" else ""
        click.echo(f"{i:>2}. {e.score:.2f} {e.type:<5} {','.join(e.source_turn_ids[:3]):<14} "
                   f"{_day(e.mentioned_at)[:10]}{status} {text}")
        if explain:
            click.echo(f"      density={e.density:.2f} time_bonus={e.time_bonus:.2f} "
                       f"tunnels={','.join(e.tunnels)} heads={len(e.heads)} id={e.id}")
    if explain:
        click.echo("tunnels: " + ", ".join(f"{n} {v:.0f} ms" for n, v in res.timings_ms.items()))
        for tunnel in sorted({h.tunnel for h in res.hits}):
            heads = sorted({(h.rank, h.head) for h in res.hits if h.tunnel == tunnel})
            click.echo(f"  {tunnel}: {len(heads)} heads: " + "; ".join(x[1] for x in heads[:10]))


# --- time: facts, timeline, inspect --------------------------------------------------------------


def _parse_when(value: str | None, name: str) -> datetime | None:
    if value is None:
        return None
    parsed: datetime | None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        import dateparser

        parsed = dateparser.parse(value, settings={"RETURN_AS_TIMEZONE_AWARE": True,
                                                   "TIMEZONE": "UTC"})
    if parsed is None:
        raise click.BadParameter(f"cannot read {value!r} as a date or time", param_hint=name)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _day(value: Any) -> str:
    return value.isoformat()[:16].replace("T", " ") if isinstance(value, datetime) else "…"


def _dump(obj: Any) -> str:
    return json.dumps(obj, default=lambda v: v.isoformat() if hasattr(v, "isoformat") else str(v))


@main.command()
@click.option("--user", required=True)
@click.option("--as-of", "as_of", default=None, help="Facts valid at this time (default: now).")
@click.option("--history", is_flag=True, help="Every version, current or not.")
@click.option("--predicate", default=None)
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def facts(user, as_of, history, predicate, as_json) -> None:
    """The user's current facts, the facts valid at --as-of, or the whole --history."""
    from ..history import facts_as_of

    with connect() as g:
        g.require_user(user)
        rows = facts_as_of(g, user, _parse_when(as_of, "--as-of"), predicate=predicate,
                           history=history)
    if as_json:
        click.echo(_dump(rows))
        return
    for r in rows:
        until = _day(r["valid_until"]) if r["valid_until"] else "now"
        click.echo(f"{r['status']:<10} {_day(r['valid_from'])} → {until:<16} {r['text']}  "
                   f"[{', '.join(r['turn_ids'])}]")
    if not rows:
        click.echo("no facts")


@main.command()
@click.option("--user", required=True)
@click.option("--entity", default=None, help="Only facts about this entity (name or alias).")
@click.option("--predicate", default=None, help="Only this predicate (or predicate family).")
@click.option("--since", default=None)
@click.option("--until", default=None)
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def timeline(user, entity, predicate, since, until, as_json) -> None:
    """The ordered history of facts, with intervals, status and source turn."""
    from ..history import timeline as read_timeline

    with connect() as g:
        g.require_user(user)
        rows = read_timeline(g, user, entity=entity, predicate=predicate,
                             since=_parse_when(since, "--since"),
                             until=_parse_when(until, "--until"))
    if as_json:
        click.echo(_dump(rows))
        return
    for r in rows:
        when = _day(r["occurred_start"] or r["mentioned_at"])
        until_txt = _day(r["valid_until"]) if r["valid_until"] else "now"
        change = "".join(f" {c['type']} {c['id']}" for c in r["changes"])
        click.echo(f"{when}  {r['status']:<10} {r['text']}")
        click.echo(f"{'':18}valid {_day(r['valid_from'])} → {until_txt}; from "
                   f"{r['session_id']} turn {r['turn_id']}; {r['id']}{change}")
    if not rows:
        click.echo("no facts")


@main.command()
@click.option("--user", required=True)
@click.option("--json", "as_json", is_flag=True)
@click.argument("node_id")
@_fail_cleanly
def inspect(user, as_json, node_id) -> None:
    """A memory card for a fact, piece, turn or entity (graphmem id, source turn id or name)."""
    from ..history import inspect as read_card

    with connect() as g:
        card = read_card(g, user, node_id)
    if as_json:
        click.echo(_dump(card))
        return
    click.echo(_render_card(card))


def _render_card(card: dict[str, Any]) -> str:
    out: list[str] = []
    if card["type"] == "fact":
        f = card["fact"]
        out.append(f"FactEvent {f['id']}: {f['text']}")
        out.append(f"  kind={f.get('kind')} predicate={f.get('predicate')} value={f.get('value')!r}"
                   f" modality={f.get('modality')} status={f.get('status')}")
        out.append(f"  mentioned {_day(f.get('mentioned_at'))}; occurred "
                   f"{_day(f.get('occurred_start'))} → {_day(f.get('occurred_end'))}"
                   f"{' (' + f['time_text'] + ')' if f.get('time_text') else ''}; valid "
                   f"{_day(f.get('valid_from'))} → "
                   f"{_day(f['valid_until']) if f.get('valid_until') else 'now'}")
        for r in card["roles"]:
            out.append(f"  role {r['role']}: {r['entity']} ({r['type']})")
        for c in card["changes"]:
            arrow = "→" if c["direction"] == "out" else "←"
            out.append(f"  {arrow} {c['type']} {c['id']} [{c['status']}] {c['text']}"
                       f" (at {_day(c['at'])}, decided by {c['decided_by']})")
        for src in card["sources"]:
            out.append(f"  source: session {src['session_id']} ({_day(src['session_time'])}), "
                       f"turn {src['turn_id']} ({src['speaker'] or src['role']}):")
            out.append(f"    …{src['before']}>>>{src['span']}<<<{src['after']}…")
    elif card["type"] == "entity":
        e = card["entity"]
        out.append(f"Entity {e['id']}: {e['name']} ({e.get('type')}); aliases: "
                   f"{', '.join(e.get('aliases') or [])}")
        for f in card["facts"]:
            out.append(f"  {f['role']:<10} [{f['status']}] {f['text']}  {f['id']}")
    elif card["type"] in ("turn", "piece"):
        t = card["turn"]
        out.append(f"Turn {t['source_id']} ({t.get('speaker') or t['role']}) in session "
                   f"{card['session_id']} at {_day(card['session_time'])}; previous "
                   f"{card['prev_turn']}, next {card['next_turn']}")
        if card["type"] == "piece":
            p = card["piece"]
            text = t["text"]
            out.append(f"  piece {p['id']} [{p['start']}:{p['end']}]: "
                       f"…{text[max(0, p['start'] - 120):p['start']]}>>>{p['text']}<<<"
                       f"{text[p['end']:p['end'] + 120]}…")
        else:
            out.append("  " + t["text"])
        for f in card["facts"]:
            out.append(f"  fact [{f['status']}] {f['text']}  {f['id']}")
    else:
        out.append(f"{card['type']} {card['id']}")
    return "\n".join(out)


# --- bench -------------------------------------------------------------------------------------


@main.group()
def bench() -> None:
    """Benchmarks: commands that print numbers."""


@bench.command("ingest")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--limit", type=int, default=None, help="At most N users.")
@click.option("--keep", is_flag=True, help="Keep the ingested users (default: forget them after).")
@click.option("--prefix", default=None, help="User id prefix (default: bench-<unix time>-).")
@click.option("--no-currency", is_flag=True, help="Skip currency maintenance (for comparison).")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def bench_ingest(path, limit, keep, prefix, no_currency, as_json) -> None:
    """Ingest throughput with the offline extractor (turns/s, minutes, peak RSS)."""
    from tqdm import tqdm

    from ..bench.ingest import run_ingest_bench

    bar = tqdm(unit="session", desc="ingest", file=sys.stderr, disable=not sys.stderr.isatty())
    turns = 0
    started = time.perf_counter()

    def tick(r) -> None:
        nonlocal turns
        turns += r.turns
        bar.update(r.sessions + r.sessions_unchanged)
        bar.set_postfix(turns_s=f"{turns / (time.perf_counter() - started):.0f}")

    from ..ingest import IngestOptions

    res = run_ingest_bench(path, limit=limit, prefix=prefix, keep=keep, on_session=tick,
                           options=IngestOptions(currency=not no_currency))
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


@bench.command("retrieval")
@click.option("--dataset", required=True, type=click.Choice(["longmemeval", "locomo"]))
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--limit", type=int, default=None, help="At most N users (questions / samples).")
@click.option("--out", "out_dir", default="bench-out", show_default=True,
              help="Where results.json, results.md and recall_curves.png go.")
@click.option("--configs", default=",".join(("rank-bm25", "bm25", "dense", "graph", "paper", "fused")),
              show_default=True, help="Comma-separated retrieval presets to compare.")
@_fail_cleanly
def bench_retrieval(dataset, path, limit, out_dir, configs) -> None:
    """Retrieval quality (official metrics), latency and evidence size for every preset."""
    from ..bench.report import markdown_table
    from ..bench.retrieval import run_retrieval_bench

    out = Path(out_dir) / dataset
    results = run_retrieval_bench(dataset, path, limit=limit, configs=configs.split(","),
                                  out_dir=out, echo=_echo_err)
    click.echo(markdown_table(results))
    click.echo(f"written: {out}/results.json, results.md, recall_curves.png")


from . import answering  # noqa: E402,F401  (registers `ask` and `bench qa`)

if __name__ == "__main__":  # pragma: no cover
    main()
