"""`graphmem bench ingest`, `soak`, `serve` and `scale`: throughput and latency under load.

Each command imports its runner when it runs (deferred: the runners load the Neo4j driver,
the embedders and httpx, which `graphmem --help` and the other commands need not pay for)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import click

from graphmem.cli.group import _echo_err, _fail_cleanly, _ingest_progress
from graphmem.compose import EXTRACTORS


@click.command("ingest")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--limit", type=int, default=None, help="At most N users.")
@click.option("--keep", is_flag=True, help="Keep the ingested users (default: forget them after).")
@click.option("--prefix", default=None, help="User id prefix (default: bench-<unix time>-).")
@click.option("--no-currency", is_flag=True, help="Skip currency maintenance (for comparison).")
@click.option("--extractor", default="offline", show_default=True,
              type=click.Choice([e for e in EXTRACTORS if e != "llm"]))
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def bench_ingest(path, limit, keep, prefix, no_currency, extractor, as_json) -> None:
    """Ingest throughput with an offline extractor (turns/s, minutes, peak RSS)."""
    from graphmem.ingest import IngestOptions

    from .ingest import run_ingest_bench

    bar, tick = _ingest_progress(disable=False)
    res = run_ingest_bench(path, limit=limit, prefix=prefix, keep=keep, on_session=tick,
                           options=IngestOptions(currency=not no_currency), extractor=extractor)
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


@click.command("soak")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--ingests", "-n", type=click.IntRange(min=1), default=4, show_default=True,
              help="Parallel ingests of different users.")
@click.option("--searches", "-m", type=click.IntRange(min=0), default=4, show_default=True,
              help="Parallel search loops.")
@click.option("--seconds", type=click.FloatRange(min=1), default=120, show_default=True)
@click.option("--sessions", type=click.IntRange(min=1), default=20, show_default=True,
              help="Sessions per user.")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def bench_soak(path, ingests, searches, seconds, sessions, as_json) -> None:
    """Parallel ingests and searches for a bounded time, then a consistency check (no
    cross-user edge, counts equal to a serial ingestion, no half-written session)."""
    from .soak import run_soak

    res = run_soak(path, ingests=ingests, search_loops=searches, seconds=seconds,
                   sessions=sessions, echo=_echo_err)
    out = {**res.__dict__, "ok": res.ok}
    if as_json:
        click.echo(json.dumps(out))
    else:
        ms = res.search_ms or {}
        click.echo(f"ingests={ingests} search_loops={searches} seconds={res.seconds:.0f} "
                   f"users={res.users} sessions={res.sessions} turns={res.turns} "
                   f"turns/s={res.turns_per_s:.1f}")
        click.echo(f"searches={res.searches} p50={ms.get('median')} ms p95={ms.get('p95')} ms "
                   f"max={ms.get('max')} ms errors={len(res.errors)}")
        click.echo(f"consistency: cross_user_edges={res.cross_user_edges} "
                   f"mismatched_users={len(res.mismatched_users)} "
                   f"half_written_sessions={res.half_written_sessions} "
                   f"{'OK' if res.ok else 'FAILED'}")
        for e in res.errors[:5]:
            click.echo(f"  error: {e}")
    if not res.ok:
        raise SystemExit(1)


def _client_counts(_ctx: Any, _param: Any, value: str) -> list[int]:
    try:
        counts = [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise click.BadParameter(f"{value!r}: give client counts ≥ 1, comma-separated (1,8)")
    return counts


@click.command("serve")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--clients", default="8", show_default=True, callback=_client_counts,
              help="Concurrent clients; a comma-separated list (1,8) runs each in turn.")
@click.option("--seconds", type=click.FloatRange(min=1), default=60, show_default=True,
              help="Per number of clients.")
@click.option("--users", type=click.IntRange(min=1), default=4, show_default=True,
              help="LongMemEval users loaded first.")
@click.option("--sessions", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--append-share", type=click.FloatRange(min=0, max=1), default=0.25,
              show_default=True,
              help="Share of requests that append: one in round(1/share) (0: searches only).")
@click.option("--serve-option", "serve_options", multiple=True, metavar="OPTION",
              help="Passed to `graphmem serve` as is, e.g. --serve-option=--workers=2.")
@click.option("--dated", is_flag=True,
              help="Each search sends its question date (the moment it is sent), as an agent "
                   "relaying a chat does.")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def bench_serve(path, clients, seconds, users, sessions, append_share, serve_options, dated,
                as_json) -> None:
    """A real `graphmem serve` under N concurrent HTTP clients mixing appends and searches:
    requests/s, p50/p95/p99 per endpoint (and inside the server), errors, ready time, CLI
    search through GRAPHMEM_URL."""
    from .serve import run_serve_bench

    serve_args = list(serve_options)
    res = run_serve_bench(path, clients=clients, seconds=seconds, users=users,
                          sessions=sessions, append_share=append_share, serve_args=serve_args,
                          dated=dated, echo=_echo_err)
    if as_json:
        click.echo(json.dumps({**asdict(res), "errors": res.errors}))
        return
    click.echo(f"seconds={seconds:.0f} per level users={res.users} ready={res.ready_s} s "
               f"errors={res.errors}{' dated' if dated else ''} {' '.join(serve_args)}".rstrip())
    for level in res.levels:
        click.echo(f"clients={level.clients} requests={level.requests} "
                   f"req/s={level.requests_per_s} errors={level.errors}")
        for name, e in level.endpoints.items():
            i = level.inside_ms[name]
            click.echo(f"  {name:<7} n={e['n']} p50={e['p50']} ms p95={e['p95']} ms "
                       f"p99={e['p99']} ms (inside the server p50={i['p50']} ms "
                       f"p95={i['p95']} ms)")
        click.echo(level.cpu_line())
        for e in level.error_samples:
            click.echo(f"  error: {e}")
    click.echo(f"CLI search through GRAPHMEM_URL: {', '.join(f'{s} s' for s in res.cli_search_s)}")


@click.command("scale")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--sizes", default="1,10,50", show_default=True,
              help="Multiples of one LongMemEval haystack held by one user, comma-separated.")
@click.option("--users", type=click.IntRange(min=0), default=1000, show_default=True,
              help="Other users added to the database before measuring again (0: skip).")
@click.option("--sessions-per-user", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--rounds", type=click.IntRange(min=1), default=2, show_default=True,
              help="Times each question is asked at each point.")
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False), default=None,
              help="Write a PNG chart of p95 against the user's turns.")
@click.option("--keep", is_flag=True, help="Keep the users it made (default: forget them).")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def bench_scale(path, sizes, users, sessions_per_user, rounds, chart_path, keep, as_json) -> None:
    """Search latency (fused and per tunnel, p50/p95) as one user grows to 1x, 10x and 50x a
    LongMemEval haystack, and again with 1,000 other users in the database."""
    from .scale import PARTS, as_dict, chart, run_scale

    try:
        multiples = tuple(int(s) for s in sizes.split(",") if s.strip())
    except ValueError:
        raise click.UsageError(f"--sizes takes whole numbers separated by commas, not {sizes!r}") from None
    if not multiples or min(multiples) < 1:
        raise click.UsageError(f"--sizes takes positive whole numbers, not {sizes!r}")
    res = run_scale(path, sizes=multiples, users=users, sessions_per_user=sessions_per_user,
                    rounds=rounds, keep=keep, echo=_echo_err)
    if chart_path:
        chart(res, chart_path)
    if as_json:
        click.echo(json.dumps(as_dict(res)))
        return
    click.echo(f"ingested {res.ingested_turns} turns in {res.ingest_seconds:.0f} s")
    click.echo("size  turns  db_users  queries  " + "  ".join(f"{p} p50/p95 ms" for p in PARTS))
    for p in res.points:
        cells = "  ".join(f"{p.ms[k]['p50']}/{p.ms[k]['p95']}" if k in p.ms else "-" for k in PARTS)
        click.echo(f"{p.size}x  {p.turns}  {p.db_users}  {p.queries}  {cells}")
