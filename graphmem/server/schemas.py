"""The request bodies of the HTTP API (pydantic models: FastAPI validates them and documents them
in the OpenAPI schema)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

MAX_QUERY_CHARS = 4000
MAX_MESSAGE_CHARS = 100_000
MAX_MESSAGES = 100


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Message(_Body):
    role: str = Field(min_length=1, max_length=64, examples=["user"])
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    turn_id: str | None = Field(None, min_length=1, max_length=256,
                                description="Your id for the message: re-sending it changes nothing.")
    speaker: str | None = Field(None, max_length=256)


class AppendRequest(_Body):
    messages: list[Message] = Field(min_length=1, max_length=MAX_MESSAGES)
    session_time: datetime | None = Field(
        None, description="Start of the session when it is created (default: now).")


class SearchRequest(_Body):
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    question_date: datetime | None = None
    as_of: datetime | None = None
    k: int = Field(10, ge=1, le=100)
    preset: str = "fused"
    explain: bool = False


class AnswerRequest(_Body):
    question: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    question_date: datetime | None = None
    budget: int = Field(4, ge=0, le=12)
    offline: bool = Field(False, description="Extractive answer even if an LLM is configured.")
    trace: bool = False
