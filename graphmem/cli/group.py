"""The `graphmem` click group and what its commands share (parsing, printing, opening memory).
The command modules import it; `graphmem.cli` imports them, so nothing imports back."""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import click

from ..errors import GraphmemError, connection_lost
from .plugins import PluginGroup

if TYPE_CHECKING:
    from ..memory import Memory


def _fail_cleanly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn graphmem's own errors into one clear line on stderr and exit code 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphmemError as exc:
            click.echo(f"graphmem: error: {exc}", err=True)
            sys.exit(1)
        except Exception as exc:
            lost = connection_lost(exc)
            if lost is None:
                raise
            click.echo(f"graphmem: error: lost the connection to Neo4j mid-command ({lost}); "
                       "what finished before it is stored, nothing half-written is kept (one "
                       "transaction per session). Check that Neo4j runs (`graphmem neo4j "
                       "status`, or NEO4J_URI) and run the command again: stored sessions are "
                       "skipped.", err=True)
            sys.exit(1)

    return wrapper


class LazyChoice(click.Choice):
    """A Choice whose values come from their one declaration, read only when needed (help, or a
    value given): importing it up front would load the Neo4j driver for every command."""

    def __init__(self, load: Callable[[], list[str]]):
        self._load = load
        self._loaded: tuple[str, ...] | None = None
        super().__init__([])

    @property
    def choices(self) -> tuple[str, ...]:
        if self._loaded is None:
            self._loaded = tuple(self._load())
        return self._loaded

    @choices.setter
    def choices(self, _value: object) -> None:
        pass


def _extractors() -> list[str]:
    from ..compose import EXTRACTORS

    return list(EXTRACTORS)


def _relations() -> list[str]:
    from ..compose import RELATIONS

    return list(RELATIONS)


# The extractor and relation-judge choices, read from graphmem.compose only by a command that
# takes them: compose loads the extractors and the LLM client library, which a command talking
# to a server (`ask`, `search` with GRAPHMEM_URL) never needs.
EXTRACTOR_CHOICE = LazyChoice(_extractors)
RELATIONS_CHOICE = LazyChoice(_relations)


def _echo_err(msg: str) -> None:
    click.echo(msg, err=True)


def open_memory(**composition: Any) -> Memory:
    """The Memory the commands work on (`Memory.from_settings` composes it); progress of starting
    the managed Neo4j goes to stderr."""
    # Deferred: graphmem.memory loads the Neo4j driver and the whole pipeline (numpy, the
    # embedders' registry…), which `graphmem --help` and the server-client commands never need.
    from ..memory import Memory

    return Memory.from_settings(echo=_echo_err, **composition)


@click.group(cls=PluginGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="graphmem")
def main() -> None:
    """graphmem: evidence-grounded temporal graph memory for LLM agents, in Neo4j."""


# --- shared by the commands ----------------------------------------------------------------------


def _parse_when(value: str | None, name: str) -> datetime | None:
    if value is None:
        return None
    parsed: datetime | None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        import dateparser  # deferred: dateparser (~50 ms), only for a date that is not ISO 8601

        parsed = dateparser.parse(value, settings={"RETURN_AS_TIMEZONE_AWARE": True,
                                                   "TIMEZONE": "UTC"})
    if parsed is None:
        raise click.BadParameter(f"cannot read {value!r} as a date or time", param_hint=name)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _json_option(value: str | None, name: str) -> Any:
    """The JSON an option holds (Memory checks what it holds), or None."""
    if value is None:
        return None
    try:
        return json.loads(value)
    except ValueError:
        raise click.BadParameter('not JSON; give an object, e.g. \'{"channel": "chat"}\'',
                                 param_hint=name) from None


def scope_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--metadata, --agent and --run: the labels a message gets (remember), or the only memory
    read (search, facts, timeline); Memory's `metadata`, `agent_id` and `run_id`, as over HTTP
    and MCP. The command receives them as `scope` (keyword arguments for Memory)."""

    @click.option("--metadata", "metadata", default=None, metavar="JSON",
                  help="A flat JSON object of labels: kept on a message (remember); only "
                       "evidence from turns holding every one of these pairs (reading).")
    @click.option("--agent", "agent_id", default=None,
                  help="The agent (the reserved metadata key agent_id).")
    @click.option("--run", "run_id", default=None,
                  help="The run, one task or episode (the reserved metadata key run_id).")
    @functools.wraps(fn)
    def wrapper(*args: Any, metadata: str | None, agent_id: str | None, run_id: str | None,
                **kwargs: Any) -> Any:
        scope = {"metadata": _json_option(metadata, "--metadata"), "agent_id": agent_id,
                 "run_id": run_id}
        return fn(*args, scope=scope, **kwargs)

    return wrapper


def _day(value: Any) -> str:
    if isinstance(value, str):  # an ISO time from a server's JSON
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return "…"
    return value.isoformat()[:16].replace("T", " ") if isinstance(value, datetime) else "…"


def _ingest_progress(disable: bool) -> tuple[Any, Callable[[Any], None]]:
    """A tqdm session bar on stderr and the `on_session` callback that advances it."""
    from tqdm import tqdm  # deferred: tqdm (and its own imports) only for an ingest's bar

    bar = tqdm(unit="session", desc="ingest", file=sys.stderr, dynamic_ncols=True,
               disable=disable or not sys.stderr.isatty())
    turns = 0
    started = time.perf_counter()

    def tick(r: Any) -> None:
        nonlocal turns
        turns += r.turns
        bar.update(r.sessions + r.sessions_unchanged)
        bar.set_postfix(turns=turns, turns_s=f"{turns / (time.perf_counter() - started):.0f}")

    return bar, tick


def _plain(v: Any) -> Any:
    if hasattr(v, "isoformat"):
        return v.isoformat()
    if hasattr(v, "to_dict"):
        return v.to_dict()
    return str(v)


def _dump(obj: Any) -> str:
    return json.dumps(obj, default=_plain)
