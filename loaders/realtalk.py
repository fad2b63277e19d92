"""Read a REALTALK conversation file (21 days of real chat between two people) as one user.

A file is one object: `name` ({"speaker_1", "speaker_2"}), `session_N` lists of messages
`{"clean_text", "speaker", "date_time", "dia_id"}`, `session_N_date_time`, `events_session_N`
and `qa`. As in LoCoMo, both people are speakers of the same memory: every turn gets role "user"
and keeps its `speaker`, sessions are sorted by N with source id `D<N>`, turns keep `dia_id` and
their `clean_text` verbatim. Times are "29.12.2023, 22:42:04" (day first, read as UTC); a session
without `session_N_date_time` starts at its first message's `date_time`. The questions, events
and image fields are not memory and are not read. The user id is given by the caller, else the
file name without extensions ("Chat_1_Emi_Elise").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.errors import InputError
from graphmem.loaders.common import LoadReport, is_blank, load_json, one_user, type_name
from graphmem.models import SessionRecord, Transcript, TurnRecord

_SESSION = re.compile(r"session_(\d+)")
_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4}),?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?")


def parse_date(value: Any, where: str) -> datetime:
    """ "29.12.2023, 22:42:04" (day.month.year) as an aware UTC datetime."""
    if not isinstance(value, str):
        raise InputError(f"{where}: expected a date string, got {type_name(value)}")
    match = _DATE.fullmatch(value.strip())
    if not match:
        raise InputError(f"{where}: cannot read the time {value!r}; REALTALK times look like "
                         f"'29.12.2023, 22:42:04'")
    day, month, year, hour, minute, second = (int(g or 0) for g in match.groups())
    try:
        return datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError as exc:
        raise InputError(f"{where}: impossible date {value!r} ({exc})") from exc


def read(path: Path, report: LoadReport, *, user: str) -> Iterator[Transcript]:
    """The single Transcript of the conversation, after checking every session."""
    data = load_json(path)
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a REALTALK object with session_N lists, got "
                         f"{type_name(data)}")
    sessions = {int(m.group(1)): key for key in data if (m := _SESSION.fullmatch(key))}
    if not sessions:
        raise InputError(f"{path}: no session_N lists; is this a REALTALK file?")
    yield from one_user(user, [_session(data, sessions[n], n, f"{path} {sessions[n]}", report)
                               for n in sorted(sessions)], report)


def _session(data: dict[str, Any], key: str, n: int, where: str,
             report: LoadReport) -> SessionRecord:
    messages = data[key]
    if not isinstance(messages, list):
        raise InputError(f"{where}: expected a list of messages, got {type_name(messages)}")
    date_key = f"{key}_date_time"
    started_at = parse_date(data[date_key], f"{where.rsplit(' ', 1)[0]} {date_key}") if (
        date_key in data) else None
    session = SessionRecord(source_id=f"D{n}", started_at=started_at)
    for k, message in enumerate(messages, 1):
        mwhere = f"{where} message {k}"
        if not isinstance(message, dict):
            raise InputError(f"{mwhere}: expected a message object, got {type_name(message)}")
        if isinstance(message.get("dia_id"), str):
            mwhere = f"{mwhere} ({message['dia_id']})"
        for field in ("clean_text", "speaker", "dia_id", "date_time"):
            if field not in message:
                raise InputError(f'{mwhere}: missing field "{field}"')
            if not isinstance(message[field], str):
                raise InputError(f'{mwhere}: "{field}" must be a string, got '
                                 f"{type_name(message[field])}")
        if not message["speaker"].strip() or not message["dia_id"].strip():
            raise InputError(f'{mwhere}: "speaker" and "dia_id" must not be empty')
        at = parse_date(message["date_time"], f"{mwhere} date_time")
        if session.started_at is None:
            session.started_at = at
            report.notes.append(f"{where}: no {date_key}; starts at its first message")
        if is_blank(message["clean_text"]):
            report.skipped_empty_turns += 1
            continue
        session.turns.append(TurnRecord(role="user", text=message["clean_text"],
                                        speaker=message["speaker"], source_id=message["dia_id"]))
    return session
