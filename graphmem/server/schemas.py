"""The request bodies of the HTTP API (pydantic models: FastAPI validates them and documents them
in the OpenAPI schema). Types are strict (`"k": "5"` or `"k": true` is refused); the bounds of
lengths and numbers are `Memory`'s (graphmem.memory.MAX_*), checked there for every door and only
documented here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ..memory import (
    DEFAULT_BUDGET,
    DEFAULT_K,
    DEFAULT_PRESET,
    MAX_APPEND_TURNS,
    MAX_BUDGET,
    MAX_ID_CHARS,
    MAX_K,
    MAX_MESSAGE_CHARS,
    MAX_QUERY_CHARS,
    MAX_REASON_CHARS,
    MAX_ROLE_CHARS,
)
from ..metadata import (
    MAX_METADATA_KEY_CHARS,
    MAX_METADATA_KEYS,
    MAX_METADATA_VALUE_CHARS,
)
from ..retrieval.config import PRESETS
from ..timestamps import MAX_TIMESTAMP_CHARS, MAX_ZONE_CHARS
from .parameters import DOC

MAX_MESSAGES = MAX_APPEND_TURNS


# Values are typed loosely here so that `Memory` (graphmem.metadata) refuses a bad map with the
# one line every door gives.
METADATA_DOC = (f"A flat object: at most {MAX_METADATA_KEYS} keys of at most "
                f"{MAX_METADATA_KEY_CHARS} characters, each to a string (at most "
                f"{MAX_METADATA_VALUE_CHARS} characters), a number or a boolean.")


def _doc(**bounds: Any) -> dict[str, Any]:
    return {"json_schema_extra": bounds}


def _scope(key: str) -> Any:
    return Field(None, description=DOC[key], examples=[{"agent_id": "planner",
                                                              "run_id": "run-7"}[key]],
                 **_doc(minLength=1, maxLength=MAX_METADATA_VALUE_CHARS))


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Message(_Body):
    """One message to append (HTTP and MCP alike)."""

    role: StrictStr = Field(description="user, assistant, or a speaker-derived role",
                            examples=["user"], **_doc(minLength=1, maxLength=MAX_ROLE_CHARS))
    content: StrictStr = Field(description="The message text, stored verbatim",
                               **_doc(minLength=1, maxLength=MAX_MESSAGE_CHARS))
    turn_id: StrictStr | None = Field(
        None, description="Your id for the message: re-sending it changes nothing. It names one "
                          "turn of the user: an id another session holds is refused.",
        **_doc(minLength=1, maxLength=MAX_ID_CHARS))
    speaker: StrictStr | None = Field(None, description="The speaker's name, when the source "
                                      "gives one (a group chat)", **_doc(maxLength=MAX_ID_CHARS))
    timestamp: StrictStr | None = Field(
        None, description="When the message was said: an ISO 8601 date or datetime, with or "
                          "without an offset (without one: in the user's time zone, else UTC). "
                          "Its facts are dated by it and its \"yesterday\" counts from its local "
                          "day. Default: session_time, else the session's start.",
        examples=["2026-02-20T01:30:00+02:00"], **_doc(maxLength=MAX_TIMESTAMP_CHARS))
    metadata: dict[str, Any] | None = Field(
        None, description=METADATA_DOC + " Kept on the turn; search, facts and timeline filter "
                          "on it.", examples=[{"agent": "planner", "run": 7}],
        **_doc(maxProperties=MAX_METADATA_KEYS))


class AppendRequest(_Body):
    messages: list[Message] = Field(description=DOC["messages"] + f" 1 to {MAX_MESSAGES}.",
                                    **_doc(minItems=1, maxItems=MAX_MESSAGES))
    session_time: datetime | None = Field(None, description=DOC["session_time"])
    agent_id: StrictStr | None = _scope("agent_id")
    run_id: StrictStr | None = _scope("run_id")


class TimeZoneRequest(_Body):
    time_zone: StrictStr | None = Field(
        description=DOC["time_zone"], examples=["Europe/Berlin"], **_doc(maxLength=MAX_ZONE_CHARS))


class SearchRequest(_Body):
    query: StrictStr = Field(description=DOC["query"],
                             **_doc(minLength=1, maxLength=MAX_QUERY_CHARS))
    question_date: datetime | None = Field(None, description=DOC["question_date"])
    as_of: datetime | None = Field(None, description=DOC["as_of"])
    k: StrictInt = Field(DEFAULT_K, description=DOC["k"], **_doc(minimum=1, maximum=MAX_K))
    preset: StrictStr = Field(DEFAULT_PRESET, description=DOC["preset"],
                              **_doc(enum=list(PRESETS)))
    explain: StrictBool = Field(False, description=DOC["explain"])
    metadata: dict[str, Any] | None = Field(
        None, description=DOC["metadata_filter"], examples=[{"agent": "planner"}],
        **_doc(maxProperties=MAX_METADATA_KEYS))
    agent_id: StrictStr | None = _scope("agent_id")
    run_id: StrictStr | None = _scope("run_id")


class AnswerRequest(_Body):
    question: StrictStr = Field(description=DOC["question"],
                                **_doc(minLength=1, maxLength=MAX_QUERY_CHARS))
    question_date: datetime | None = Field(None, description=DOC["question_date"])
    budget: StrictInt = Field(DEFAULT_BUDGET, description=DOC["budget"],
                              **_doc(minimum=0, maximum=MAX_BUDGET))
    offline: StrictBool = Field(False, description=DOC["offline"])
    trace: StrictBool = Field(False, description=DOC["trace"])


class InvalidateRequest(_Body):
    by: StrictStr = Field("user", description=DOC["by"],
                          **_doc(minLength=1, maxLength=MAX_ID_CHARS))
    reason: StrictStr | None = Field(None, description=DOC["reason"],
                                     **_doc(maxLength=MAX_REASON_CHARS))
