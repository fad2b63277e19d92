"""The bounds every door shares (HTTP, MCP, CLI, a program): `Memory` refuses an input outside
them with OutOfBounds before anything is written, and the defaults each door applies."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from .errors import OutOfBounds
from .metadata import read_metadata, scoped, to_pairs
from .models import MAX_MESSAGE_CHARS as MESSAGE_CHARS
from .models import TurnRecord
from .timestamps import read_timestamp

# The bounds of every door (HTTP, MCP, CLI, a program): `Memory` refuses an input outside them
# with OutOfBounds (HTTP 422, an MCP tool error, one CLI line) before anything is written.
MAX_APPEND_TURNS = 100  # messages in one append call
MAX_MESSAGE_CHARS = MESSAGE_CHARS  # characters of one message (graphmem.models)
MAX_QUERY_CHARS = 4_000  # characters of a search query or a question
MAX_ID_CHARS = 256  # characters of a user, session or turn id, or a speaker's name
MAX_ROLE_CHARS = 64
MAX_K = 100  # results of one search
MAX_BUDGET = 12  # planner steps of one answer
MAX_PAGE = 200  # sessions or turns in one page of a listing
MAX_FACTS = 1000  # facts of one facts or timeline call (also the default)
DEFAULT_PAGE = 50
# The defaults every door applies when the caller names none (the client sends none of its own).
DEFAULT_K = 10
DEFAULT_BUDGET = 4
DEFAULT_PRESET = "fused"
# A model reads what an MCP tool returns: its facts and timeline calls default to fewer facts
# (the bound, MAX_FACTS, is the same over every door).
MODEL_FACTS = 200
MAX_REASON_CHARS = 1_000  # why a fact was marked wrong


def reading_filter(metadata: Any, agent_id: str | None, run_id: str | None) -> list[str] | None:
    """The pairs a reading keeps: the metadata filter with the scope's (agent, run) added."""
    return to_pairs(read_metadata(scoped(metadata, "metadata filter", agent_id=agent_id,
                                         run_id=run_id), "metadata filter"))


def bounded(value: Any, name: str, limit: int, *, optional: bool = False) -> None:
    """Refuse (OutOfBounds) a text that is not a string, is blank, is longer than `limit`
    characters or holds a NUL character (which no stored text may hold)."""
    if value is None and optional:
        return
    if not isinstance(value, str) or not value.strip():
        raise OutOfBounds(f"{name} is empty")
    if len(value) > limit:
        raise OutOfBounds(f"{name} is {len(value):,} characters long; at most {limit:,} are "
                          "accepted")
    if "\x00" in value:
        raise OutOfBounds(f"{name} contains a NUL character (\\x00); remove it")


def whole_number(value: Any, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OutOfBounds(f"{name} must be a whole number from {low} to {high} (got {value!r})")


def checked_messages(messages: Iterable[TurnRecord], *, agent_id: str | None,
                     run_id: str | None) -> list[TurnRecord]:
    """The messages of one append, each within the bounds, its timestamp read and its metadata
    labelled with the scope (`agent_id` / `run_id`)."""
    turns = list(messages)
    if not turns:
        raise OutOfBounds("no messages to append")
    if len(turns) > MAX_APPEND_TURNS:
        raise OutOfBounds(f"{len(turns)} messages in one append; at most {MAX_APPEND_TURNS}: "
                          "send them in parts")
    for i, t in enumerate(turns):
        bounded(t.text, f"message {i}: content", MAX_MESSAGE_CHARS)
        bounded(t.role, f"message {i}: role", MAX_ROLE_CHARS)
        bounded(t.source_id, f"message {i}: turn_id", MAX_ID_CHARS, optional=True)
        bounded(t.speaker, f"message {i}: speaker", MAX_ID_CHARS, optional=True)
        turns[i] = replace(t, timestamp=read_timestamp(t.timestamp, f"message {i}: timestamp"),
                           metadata=read_metadata(scoped(
                               t.metadata, f"message {i}: metadata", agent_id=agent_id,
                               run_id=run_id), f"message {i}: metadata"))
    return turns
