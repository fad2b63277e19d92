"""Read generic JSONL transcripts: one message per line, grouped by user and then by session.

Each line is an object `{"user_id", "session_id", "session_time", "role", "content"}` with
optional `"turn_id"`, `"speaker"`, `"timestamp"` (when the message was said, read like
`session_time`; default the session's time: it dates the message's facts and anchors its
"yesterday") and `"metadata"` (a flat object of the caller's labels kept on the turn, bounded as
graphmem.metadata says). Users and sessions keep their first-seen order; a session's lines need not be
contiguous. `session_time` is ISO-8601 or any absolute date dateparser reads
(naive means UTC); it may be left out on later lines of a session but must then agree with the
first. The turn source id is `turn_id` when given, else `<session_id>_<k>` with k the 1-based
position of the line within its session; source ids must be unique per user. The whole file is
validated before the first user is yielded, and every error names the file and line.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

from graphmem.errors import InputError, OutOfBounds
from graphmem.loaders.common import GZIP_MAGIC, LoadReport, is_blank, parse_time, type_name
from graphmem.metadata import read_metadata
from graphmem.models import SessionRecord, Transcript, TurnRecord

REQUIRED = ("user_id", "session_id", "role", "content")


@dataclass
class _Session:
    source_id: str
    started_at: datetime
    time_line: int
    turns: list[TurnRecord] = field(default_factory=list)
    lines: int = 0  # every line of the session, blank ones included (for k)


@dataclass
class _User:
    sessions: dict[str, _Session] = field(default_factory=dict)
    source_ids: dict[str, int] = field(default_factory=dict)  # source id -> line number


def read(path: Path, report: LoadReport, *, only_user: str | None = None) -> Iterator[Transcript]:
    """One Transcript per user_id, in first-seen order, after validating the whole file."""
    users: dict[str, _User] = {}
    records = 0
    for lineno, record in _records(path):
        _add(record, f"{path} line {lineno}", lineno, users, report, only_user)
        records += bool(record)
    if not records:
        raise InputError(f"{path}: the file is empty (no JSON lines)")
    for user_id, user in users.items():
        transcript = Transcript(user_id=user_id)
        for session in user.sessions.values():
            if session.turns:
                transcript.sessions.append(SessionRecord(session.source_id, session.started_at,
                                                         session.turns))
            else:
                report.skipped_empty_sessions += 1
        if transcript.sessions:
            yield transcript
        else:
            report.skipped_empty_users += 1


def _open(path: Path) -> BinaryIO:
    try:
        handle: BinaryIO = path.open("rb")
        if handle.read(2) == GZIP_MAGIC:
            handle.close()
            return gzip.open(path, "rb")  # type: ignore[return-value]
        handle.seek(0)
        return handle
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror or exc})") from exc


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line."""
    with _open(path) as handle:
        lineno = 0
        try:
            for lineno, raw in enumerate(handle, 1):  # noqa: B007 - lineno used after the loop
                yield lineno, _parse_line(raw, path, lineno)
        except (EOFError, OSError, zlib.error) as exc:
            raise InputError(f"{path} after line {lineno}: broken gzip data ({exc}); "
                             f"is the file truncated?") from exc


def _parse_line(raw: bytes, path: Path, lineno: int) -> dict[str, Any]:
    where = f"{path} line {lineno}"
    if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{where} column {exc.start + 1}: not valid UTF-8 "
                         f"(byte 0x{raw[exc.start]:02x}); save the file as UTF-8") from exc
    if not text.strip():
        return {}
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: invalid JSON ({exc.msg} at column {exc.colno}); each line "
                         f"must be one complete JSON object") from None
    if not isinstance(record, dict):
        raise InputError(f"{where}: expected a JSON object, got {type_name(record)}")
    if not record:
        raise InputError(f"{where}: the object is empty")
    return record


def _field(record: dict[str, Any], key: str, where: str, *, ident: bool) -> str:
    if key not in record:
        raise InputError(f'{where}: missing field "{key}"')
    value = record[key]
    if ident and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        kind = "a string or an integer" if ident else "a string"
        raise InputError(f'{where}: "{key}" must be {kind}, got {type_name(value)}')
    if key != "content" and not value.strip():
        raise InputError(f'{where}: "{key}" is empty')
    return value


def _add(record: dict[str, Any], where: str, lineno: int, users: dict[str, _User],
         report: LoadReport, only_user: str | None) -> None:
    if not record:  # a blank line
        return
    user_id = _field(record, "user_id", where, ident=True)
    session_id = _field(record, "session_id", where, ident=True)
    role = _field(record, "role", where, ident=False).strip()
    content = _field(record, "content", where, ident=False)
    turn_id = _field(record, "turn_id", where, ident=True) if "turn_id" in record else None
    speaker = record.get("speaker")
    if speaker is not None and not isinstance(speaker, str):
        raise InputError(f'{where}: "speaker" must be a string, got {type_name(speaker)}')
    raw_time = record.get("session_time")
    if raw_time is not None and not isinstance(raw_time, str):
        raise InputError(f'{where}: "session_time" must be a string, got {type_name(raw_time)}')
    started_at = parse_time(raw_time, where) if raw_time is not None else None
    said = record.get("timestamp")
    if said is not None and not isinstance(said, str):
        raise InputError(f'{where}: "timestamp" must be a string, got {type_name(said)}')
    said_at = parse_time(said, where) if said is not None else None
    try:
        metadata = read_metadata(record.get("metadata"), '"metadata"')
    except OutOfBounds as exc:
        raise InputError(f"{where}: {exc}") from None
    if only_user is not None and user_id != only_user:
        return

    user = users.setdefault(user_id, _User())
    session = user.sessions.get(session_id)
    if session is None:
        if started_at is None:
            raise InputError(f'{where}: missing field "session_time" (needed on the first line '
                             f'of session {session_id!r})')
        session = user.sessions[session_id] = _Session(session_id, started_at, lineno)
    elif started_at is not None and started_at != session.started_at:
        raise InputError(f"{where}: session_time {raw_time!r} differs from the time of session "
                         f"{session_id!r} given on line {session.time_line} "
                         f"({session.started_at.isoformat()})")
    session.lines += 1
    source_id = turn_id if turn_id is not None else f"{session_id}_{session.lines}"
    if source_id in user.source_ids:
        raise InputError(f"{where}: turn id {source_id!r} of user {user_id!r} was already used "
                         f"on line {user.source_ids[source_id]}")
    user.source_ids[source_id] = lineno
    if is_blank(content):
        report.skipped_empty_turns += 1
        return
    session.turns.append(TurnRecord(role=role, text=content, speaker=speaker,
                                    source_id=source_id, timestamp=said_at, metadata=metadata))
