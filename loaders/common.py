"""Shared pieces of the transcript loaders: the load report, file reading, JSON and time parsing."""

from __future__ import annotations

import codecs
import functools
import gzip
import json
import os
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.errors import InputError
from graphmem.models import SessionRecord, Transcript

PathLike = str | os.PathLike[str]

GZIP_MAGIC = b"\x1f\x8b"
_WS = re.compile(r"[ \t\n\r]*")


@dataclass
class LoadReport:
    """What one load produced and what it left out, so nothing is dropped silently."""

    path: str
    format: str
    users: int = 0
    sessions: int = 0
    turns: int = 0
    skipped_empty_users: int = 0  # users left with no session at all
    skipped_empty_sessions: int = 0  # sessions with no turn (or only blank turns)
    skipped_empty_turns: int = 0  # turns whose text is empty or whitespace only
    skipped_duplicate_sessions: int = 0  # a session id repeated with identical turns
    skipped_other_roles: int = 0  # system / tool / hidden messages in OpenAI-style files, exports
    skipped_other_branches: int = 0  # ChatGPT messages off the conversation's current branch
    notes: list[str] = field(default_factory=list)

    @property
    def skipped(self) -> int:
        """All skipped items together (users, sessions, turns, duplicates, other roles)."""
        return (self.skipped_empty_users + self.skipped_empty_sessions + self.skipped_empty_turns
                + self.skipped_duplicate_sessions + self.skipped_other_roles
                + self.skipped_other_branches)


def type_name(value: object) -> str:
    """A JSON-flavoured name of a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def is_blank(text: str) -> bool:
    return not text.strip()


def keep_session(session: SessionRecord, report: LoadReport) -> bool:
    """True when the session has turns; otherwise count it as skipped."""
    if session.turns:
        return True
    report.skipped_empty_sessions += 1
    return False


def one_user(user: str, sessions: Iterable[SessionRecord],
             report: LoadReport) -> Iterator[Transcript]:
    """The Transcript of a one-user file, after every session was read: the sessions with turns
    (empty ones counted as skipped), unless none has any."""
    kept = [session for session in sessions if keep_session(session, report)]
    if kept:
        yield Transcript(user_id=user, sessions=kept)
    else:
        report.skipped_empty_users += 1


def export_sessions(path: Path, data: Any, what: str,
                    session_of: Callable[[Any, str], SessionRecord]) -> Iterator[SessionRecord]:
    """The sessions of a chat export (a JSON list of conversations), one per conversation, with
    the conversation ids unique."""
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a JSON list of {what} conversations, got "
                         f"{type_name(data)}")
    seen: dict[str, int] = {}
    for index, conversation in enumerate(data):
        where = f"{path} conversation {index}"
        session = session_of(conversation, where)
        if session.source_id in seen:
            raise InputError(f"{where}: conversation id {session.source_id!r} already used by "
                             f"conversation {seen[session.source_id]}")
        seen[session.source_id] = index
        yield session


def read_bytes(path: Path) -> bytes:
    """The file's bytes, gunzipped when they are gzip data."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror or exc})") from exc
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (EOFError, OSError, zlib.error) as exc:
            raise InputError(f"{path}: broken gzip data ({exc}); is the file truncated?") from exc
    return data


def decode_utf8(data: bytes, path: Path) -> str:
    """Decode UTF-8 (a leading BOM is dropped); bad bytes are an error naming line and column."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{path} line {line} column {column}: not valid UTF-8 "
            f"(byte 0x{data[exc.start]:02x}); save the file as UTF-8") from exc


def read_text(path: Path) -> str:
    text = decode_utf8(read_bytes(path), path)
    if not text.strip():
        raise InputError(f"{path}: the file is empty")
    return text


def json_error(path: Path, text: str, exc: json.JSONDecodeError) -> InputError:
    """An InputError naming the file and position; says so when the file looks truncated."""
    truncated = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
    hint = "; the file ends early, is it truncated?" if truncated else ""
    return InputError(
        f"{path} line {exc.lineno} column {exc.colno}: invalid JSON ({exc.msg}){hint}")


def load_json(path: Path) -> Any:
    """Parse a whole JSON file (gzip allowed)."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise json_error(path, text, exc) from None


def _skip_ws(text: str, idx: int) -> int:
    match = _WS.match(text, idx)
    return match.end() if match else idx


def _position(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    return f"line {line} column {pos - (text.rfind(chr(10), 0, pos) + 1) + 1}"


def iter_json_array(path: Path, what: str) -> Iterator[Any]:
    """Stream the elements of a top-level JSON list, parsing one element at a time.

    Only the raw text and the current element are held, not every parsed element. Errors after
    the last element requested (e.g. truncation past `limit`) are not seen.
    """
    text = read_text(path)
    decoder = json.JSONDecoder()
    end = len(text)
    idx = _skip_ws(text, 0)
    if text[idx] != "[":
        raise InputError(f"{path}: expected a JSON list of {what}, but the file starts with "
                         f"{text[idx:idx + 20]!r}")
    idx = _skip_ws(text, idx + 1)
    if text.startswith("]", idx):
        idx = _skip_ws(text, idx + 1)
    else:
        while True:
            try:
                element, idx = decoder.raw_decode(text, idx)
            except json.JSONDecodeError as exc:
                raise json_error(path, text, exc) from None
            yield element
            idx = _skip_ws(text, idx)
            if idx >= end:
                raise InputError(f"{path} {_position(text, idx)}: invalid JSON (the list is not "
                                 f"closed); the file ends early, is it truncated?")
            if text[idx] == ",":
                idx = _skip_ws(text, idx + 1)
                continue
            if text[idx] == "]":
                idx = _skip_ws(text, idx + 1)
                break
            raise InputError(f"{path} {_position(text, idx)}: invalid JSON "
                             f"(expected ',' or ']' after a list element)")
    if idx < end:
        raise InputError(f"{path} {_position(text, idx)}: invalid JSON (extra data after the list)")


_DATEPARSER_SETTINGS: dict[str, Any] = {
    # Session times must be absolute: "yesterday" would silently mean "yesterday from now".
    "PARSERS": ["timestamp", "custom-formats", "absolute-time"],
    "REQUIRE_PARTS": ["day", "month", "year"],
}


def aware(value: datetime) -> datetime:
    """Timezone-aware: a naive datetime is taken to be UTC; an aware one keeps its offset."""
    if value.tzinfo is None or value.utcoffset() is None:
        return value.replace(tzinfo=UTC)
    return value


def parse_time(value: str, where: str) -> datetime:
    """ISO-8601, else any absolute date dateparser reads; naive results are UTC."""
    parsed = _parse_time(value.strip())
    if parsed is None:
        raise InputError(f"{where}: cannot read the time {value!r}; give an absolute date and "
                         f"time such as 2023-05-20T02:21:00Z")
    return parsed


def from_epoch(value: Any, where: str) -> datetime:
    """Unix seconds (an int or a float) as an aware UTC datetime."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{where}: expected Unix seconds (a number), got {type_name(value)}")
    try:
        return datetime.fromtimestamp(value, tz=UTC)
    except (OverflowError, OSError, ValueError) as exc:
        raise InputError(f"{where}: {value!r} is not a possible time ({exc})") from exc


@functools.lru_cache(maxsize=4096)
def _parse_time(text: str) -> datetime | None:
    parsed: datetime | None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        import dateparser  # deferred: slow to import; only needed for non-ISO times

        parsed = dateparser.parse(text, settings=_DATEPARSER_SETTINGS) if text else None
    return aware(parsed) if parsed is not None else None
