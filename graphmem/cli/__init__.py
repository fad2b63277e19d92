"""The `graphmem` command line: a thin door over the Python API."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import click

from ..db import Graph
from ..errors import ConfigError, GraphmemError


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


# --- shared by the commands ----------------------------------------------------------------------


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


def _llm_client(needed_by: str | None = None, prefix: str = "GRAPHMEM_LLM_") -> Any:
    """The LLM client configured by `<prefix>*` variables; None when there is none, unless
    `needed_by` names what requires one (then a ConfigError saying what to set)."""
    from ..llm import LLMClient, LLMConfig

    config = LLMConfig.from_env(prefix=prefix)
    if config is None and needed_by:
        raise ConfigError(f"{needed_by} needs an OpenAI-compatible endpoint: set {prefix}BASE_URL "
                          f"and {prefix}MODEL (and {prefix}API_KEY if it needs one)")
    return LLMClient(config) if config else None


def _ingest_progress(disable: bool) -> tuple[Any, Callable[[Any], None]]:
    """A tqdm session bar on stderr and the `on_session` callback that advances it."""
    import time

    from tqdm import tqdm

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


def _dump(obj: Any) -> str:
    return json.dumps(obj, default=lambda v: v.isoformat() if hasattr(v, "isoformat") else str(v))


# --- bench -------------------------------------------------------------------------------------


@main.group()
def bench() -> None:
    """Benchmarks: commands that print numbers."""


# The commands register themselves on `main` and `bench` when their modules are imported.
from . import admin, answering, benchmarks, ingesting, reading  # noqa: E402,F401

if __name__ == "__main__":  # pragma: no cover
    main()
