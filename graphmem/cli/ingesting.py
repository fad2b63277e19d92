"""`graphmem ingest`, `remember`, `time-zone`, `stats` and `forget`."""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import ConfigError
from ..loaders import FORMATS
from .group import (
    EXTRACTOR_CHOICE,
    RELATIONS_CHOICE,
    _fail_cleanly,
    _ingest_progress,
    _json_option,
    main,
    open_memory,
    scope_options,
)

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
@click.option("--extractor", default="offline", show_default=True, type=EXTRACTOR_CHOICE)
@click.option("--relations", default="auto", show_default=True, type=RELATIONS_CHOICE,
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
    from ..files import TranscriptFile  # deferred: loads the ingest pipeline (seconds)
    from ..remote import RemoteMemory

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


def _messages(texts: tuple[str, ...], source: Any, one: dict[str, Any]) -> list[Any]:
    """The messages to append: one per TEXT with the options' role, ids and time, or the JSON
    list --messages holds (each {"role", "content", "turn_id", "speaker", "timestamp",
    "metadata"}, as HTTP and MCP take them)."""
    from ..models import TurnRecord  # deferred: graphmem.models loads pydantic's response models

    if bool(texts) == (source is not None):
        raise click.UsageError("give the message text, or --messages FILE, not both")
    if source is None:
        if len(texts) > 1 and one["source_id"]:
            raise click.UsageError("--turn-id names one message; give one TEXT with it")
        return [TurnRecord(text=t, **one) for t in texts]
    if one["metadata"] is not None:
        raise click.UsageError("with --messages, give each message its own metadata (--agent "
                               "and --run apply to all)")
    listed = _json_option(source.read(), "--messages")
    if not isinstance(listed, list) or not all(isinstance(m, dict) for m in listed):
        raise click.BadParameter("give a JSON list of message objects", param_hint="--messages")
    fields = {"role", "content", "turn_id", "speaker", "timestamp", "metadata"}
    out = []
    for i, m in enumerate(listed):
        if set(m) - fields or "content" not in m:
            raise click.BadParameter(f"message {i}: takes {', '.join(sorted(fields))} "
                                     "(content required)", param_hint="--messages")
        out.append(TurnRecord(m.get("role", "user"), m["content"], m.get("speaker"),
                              m.get("turn_id"), m.get("timestamp"), m.get("metadata")))
    return out


def _sent(turn: Any) -> dict[str, Any]:
    """A message as the HTTP API takes it."""
    sent = {"role": turn.role, "content": turn.text, "turn_id": turn.source_id,
            "speaker": turn.speaker, "timestamp": turn.timestamp, "metadata": turn.metadata}
    return {k: v for k, v in sent.items() if v is not None}


@main.command()
@click.option("--user", required=True, help="Whose memory the messages go to.")
@click.option("--session", required=True,
              help="Your id for the conversation (a new one starts a session).")
@click.option("--role", default="user", show_default=True)
@click.option("--speaker", default=None, help="The speaker's name (a group chat).")
@click.option("--turn-id", "turn_id", default=None,
              help="Your id for the message: re-sending it changes nothing.")
@click.option("--timestamp", default=None,
              help="When the message was said (ISO 8601; default: --session-time, else the "
                   "session's start).")
@click.option("--session-time", default=None,
              help="The session's start if this creates it, and the time of messages without "
                   "one (ISO 8601).")
@click.option("--messages", "source", type=click.File("r"), default=None,
              help="A JSON list of messages (as HTTP takes them) instead of TEXT; - for stdin.")
@click.option("--json", "as_json", is_flag=True)
@click.argument("texts", nargs=-1)
@scope_options
@_fail_cleanly
def remember(user, session, role, speaker, turn_id, timestamp, session_time, source, as_json,
             texts, scope) -> None:
    """Append messages to a session of the user's memory, live (each TEXT one message): the
    turns added and the facts they made, each with what it replaced.

    With GRAPHMEM_URL set, a running `graphmem serve` appends them (no cold start)."""
    # deferred: the client loads httpx, the responses pydantic (neither needed by other commands)
    from ..remote import RemoteMemory
    from ..responses import AppendResult

    turns = _messages(texts, source, {"role": role, "speaker": speaker, "source_id": turn_id,
                                      "timestamp": timestamp, "metadata": scope["metadata"]})
    remote = RemoteMemory.from_env()
    if remote is not None:
        with remote:
            done = remote.client.remember(
                user, session, [_sent(t) for t in turns], session_time=session_time,
                agent_id=scope["agent_id"], run_id=scope["run_id"]).model_dump()
    else:
        with open_memory(answer_llm=False) as mem:
            done = mem.append(user, session, turns, session_time=session_time,
                              agent_id=scope["agent_id"], run_id=scope["run_id"]).to_dict()
    if as_json:
        click.echo(json.dumps(done))
        return
    r = AppendResult.model_validate(done)
    click.echo(f"session {r.session}{' (new)' if r.created else ''}: {len(r.added)} turns "
               f"added ({', '.join(t.source_turn_id for t in r.added) or '-'}), "
               f"{len(r.unchanged)} already held")
    for f in r.made:
        click.echo(f"fact [{f.status}] {f.text}  {f.id}")
        for old in f.replaced:
            click.echo(f"  {old.type} [{old.status}] {old.text}  {old.id}")


@main.command("time-zone")
@click.option("--user", required=True)
@click.option("--clear", is_flag=True, help="Back to UTC.")
@click.argument("zone", required=False)
@_fail_cleanly
def time_zone(user, clear, zone) -> None:
    """Set the IANA time zone (Europe/Berlin) the user's message times without an offset are
    read in from now on; --clear: UTC again."""
    if bool(zone) == clear:
        raise click.UsageError("give a ZONE, or --clear")
    with open_memory(answer_llm=False) as mem:
        name = mem.set_time_zone(user, None if clear else zone)
    click.echo(f"time zone of user {user!r}: {name or 'UTC'}")


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
