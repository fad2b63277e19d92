"""`graphmem ingest`, `stats` and `forget`."""

from __future__ import annotations

import json

import click

from ..compose import EXTRACTORS, RELATIONS
from ..errors import ConfigError
from ..loaders import FORMATS
from .group import _fail_cleanly, _ingest_progress, main, open_memory

# --- ingest / stats / forget -------------------------------------------------------------------


@main.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--format", "fmt", default="auto", show_default=True,
              type=click.Choice(["auto", *FORMATS]))
@click.option("--user", default=None,
              help="Only this user; for openai, chatgpt and claude files the owner's id "
                   "(required); for realtalk and csv the owner's id (default: the file name).")
@click.option("--me", default=None, help="The speaker of a csv chat log who owns the memory.")
@click.option("--session", default=None, help="Session id (--format openai).")
@click.option("--session-time", default=None, help="Session start time (--format openai).")
@click.option("--limit", type=int, default=None, help="Ingest at most N users.")
@click.option("--extractor", default="offline", show_default=True, type=click.Choice(EXTRACTORS))
@click.option("--relations", default="auto", show_default=True, type=click.Choice(RELATIONS),
              help="Who decides SUPERSEDES/UPDATES/CONTRADICTS beyond the slot rules: the LLM "
                   "(auto: when --extractor llm) or nobody (rules only).")
@click.option("--verbose", "-v", is_flag=True, help="Show every rejected fact candidate.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@_fail_cleanly
def ingest(path, fmt, user, me, session, session_time, limit, extractor, relations, verbose,
           as_json) -> None:
    """Load a transcript file into memory (sessions, turns, pieces, facts, entities).

    With GRAPHMEM_URL set, the file is sent to a running `graphmem serve` (for one --user; the
    server's extractor settings apply)."""
    # Deferred: the server client loads httpx and pydantic; the file's ingest the whole pipeline.
    from ..client import RemoteMemory
    from ..files import TranscriptFile  # deferred: loads the ingest pipeline (seconds)

    remote = RemoteMemory.from_env()
    if remote is not None:
        if not user:
            raise ConfigError("with GRAPHMEM_URL set, give --user: a server ingests one user's "
                              "memory per upload")
        if limit is not None or me is not None or extractor != "offline" or relations != "auto":
            raise ConfigError("with GRAPHMEM_URL set, --limit, --me, --extractor and --relations "
                              "do not apply (the server's settings do); unset GRAPHMEM_URL to use "
                              "them")
        with remote:
            summary = remote.upload(user, path, fmt, session=session, session_time=session_time)
        click.echo(json.dumps(summary) if as_json else
                   " ".join(f"{k}={v}" for k, v in summary.items()))
        return

    # The whole file is read and checked before anything connects or is written: a bad record
    # anywhere is one line naming it, and nothing of the file is stored.
    with TranscriptFile(path, fmt, user_id=user, session=session, session_time=session_time,
                        limit=limit, me=me) as file:
        # Configuration errors come before any connection (Memory.from_settings sees to it).
        with open_memory(extractor=extractor, relations=relations, answer_llm=False) as mem:
            bar, tick = _ingest_progress(disable=as_json)
            result = mem.ingest_file(file, on_session=tick, verbose=verbose)
            bar.close()
            client = mem.ingest_llm
    report, summary = result.ingest, result.to_dict()
    if client is not None:  # extraction and relation judging: tokens and dollars
        summary["llm_tokens"] = client.usage.total_tokens
        summary["llm_cost_usd"] = round(client.usage.cost_usd, 6)
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(" ".join(f"{k}={v}" for k, v in summary.items() if k != "skipped"))
    if summary.get("skipped") and any(summary["skipped"].values()):
        click.echo("skipped: " + " ".join(f"{k}={v}" for k, v in summary["skipped"].items() if v))
    for f in report.made:
        click.echo(f"fact [{f.turn_source_id}] {f.predicate}={f.value!r} {f.modality} "
                   f"({f.extracted_by})")
    for r in report.rejections:
        click.echo(f"rejected [{r.turn_source_id}] {r.predicate}: {r.support!r} ({r.reason})")


@main.command()
@click.option("--user", default=None, help="Only this user's memory.")
@click.option("--json", "as_json", is_flag=True)
@_fail_cleanly
def stats(user, as_json) -> None:
    """Count users, sessions, turns, pieces, facts and entities in the database."""
    with open_memory(answer_llm=False) as mem:
        row = mem.stats(user)
        made = mem.facts_by_extractor(user)
    if as_json:
        click.echo(json.dumps({**row, "facts_by_extractor": made}))
        return
    click.echo(" ".join(f"{k}={v}" for k, v in row.items()))
    if made:
        click.echo("facts by extractor: " + " ".join(f"{k}={v}" for k, v in made.items()))


@main.command()
@click.option("--user", required=True, help="The user whose memory is deleted.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@_fail_cleanly
def forget(user, yes) -> None:
    """Delete everything of one user, and nothing else."""
    if not yes:
        click.confirm(f"Delete all memory of user {user!r}?", abort=True)
    with open_memory(answer_llm=False) as mem:
        deleted = mem.forget(user)
    click.echo(f"deleted {deleted} nodes of user {user!r}")
