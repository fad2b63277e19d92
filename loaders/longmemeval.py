"""Read LongMemEval files, where each question instance is its own user and its haystack the memory.

Sessions come from `haystack_session_ids`, `haystack_dates` and `haystack_sessions`, in the order
given (which is not always chronological). Turn source ids are `<session_id>_<k>`, k the 1-based
index of the turn within its session counting every role, so they match the benchmark's turn ids
even when blank turns are skipped. The question, answer and `has_answer` flags are not memory and
are not read. A session id that repeats with identical turns is kept once (the first occurrence)
and counted in `LoadReport.skipped_duplicate_sessions`; one that repeats with different turns is
kept as `<session_id>#2`, `#3`… and noted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.errors import InputError
from graphmem.loaders.common import (
    LoadReport,
    is_blank,
    iter_json_array,
    keep_session,
    parse_time,
    type_name,
)
from graphmem.models import SessionRecord, Transcript, TurnRecord

_DATE = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})")
_KEYS = ("haystack_session_ids", "haystack_dates", "haystack_sessions")


def parse_date(value: str, where: str) -> datetime:
    """"2023/05/20 (Sat) 02:21" as an aware UTC datetime (other absolute forms via parse_time)."""
    match = _DATE.fullmatch(value.strip())
    if not match:
        return parse_time(value, where)
    year, month, day, hour, minute = (int(g) for g in match.groups())
    try:
        return datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError as exc:
        raise InputError(f"{where}: impossible date {value!r} ({exc})") from exc


def turn_source_id(session_id: str, k: int) -> str:
    """A turn's source id: `<session_id>_<k>`, k 1-based over every role of the session (as the
    benchmark numbers turns, blank ones included)."""
    return f"{session_id}_{k}"


def session_of_turn(turn_id: str) -> str:
    """The session part of a turn source id ("abc_answer_1_7" -> "abc_answer_1")."""
    return turn_id.rsplit("_", 1)[0]


def unique_session_id(sid: str, turns: list[Any], seen: dict[str, list[Any]]) -> str | None:
    """The id a haystack session is kept under, given the sessions kept so far (`seen`, id ->
    turns, which this updates): None for an identical repeat (the first occurrence is kept),
    `<id>#2`, `#3`… for a repeat with different turns, else the id itself."""
    if sid in seen:
        if seen[sid] == turns:
            return None
        n = 2
        while f"{sid}#{n}" in seen:
            n += 1
        sid = f"{sid}#{n}"
    seen[sid] = turns
    return sid


def read(path: Path, report: LoadReport, *, only_user: str | None = None) -> Iterator[Transcript]:
    """One Transcript per question instance, streamed."""
    for index, instance in enumerate(iter_json_array(path, "LongMemEval question instances")):
        where = f"{path} instance {index}"
        if not isinstance(instance, dict):
            raise InputError(f"{where}: expected a question instance object, got "
                             f"{type_name(instance)}")
        qid = instance.get("question_id")
        if not isinstance(qid, str) or not qid:
            raise InputError(f'{where}: missing "question_id" (a non-empty string)')
        if only_user is not None and qid != only_user:
            continue
        transcript = _transcript(instance, qid, f"{path} question {qid}", report)
        if transcript.sessions:
            yield transcript
        else:
            report.skipped_empty_users += 1


def _transcript(instance: dict[str, Any], qid: str, where: str,
                report: LoadReport) -> Transcript:
    columns = []
    for key in _KEYS:
        value = instance.get(key)
        if not isinstance(value, list):
            raise InputError(f'{where}: "{key}" must be a list, got {type_name(value)}')
        columns.append(value)
    ids, dates, sessions = columns
    if not len(ids) == len(dates) == len(sessions):
        raise InputError(f"{where}: {', '.join(_KEYS)} have different lengths "
                         f"({len(ids)}, {len(dates)}, {len(sessions)})")
    transcript = Transcript(user_id=qid)
    seen: dict[str, list[Any]] = {}
    first_dates: dict[str, str] = {}
    for sid, date, turns in zip(ids, dates, sessions, strict=True):
        if not isinstance(sid, str) or not sid:
            raise InputError(f"{where}: a haystack session id is {type_name(sid)}, "
                             f"expected a non-empty string")
        if not isinstance(turns, list):
            raise InputError(f"{where} session {sid}: turns must be a list, got {type_name(turns)}")
        if not isinstance(date, str):
            raise InputError(f"{where} session {sid}: date must be a string, got "
                             f"{type_name(date)}")
        kept = unique_session_id(sid, turns, seen)
        if kept is None:
            report.skipped_duplicate_sessions += 1
            report.notes.append(f"{where}: session {sid} repeats at {date} with the same "
                                f"turns as at {first_dates[sid]}; kept the first")
            continue
        if kept != sid:
            report.notes.append(f"{where}: session {sid} repeats at {date} with different "
                                f"turns; loaded as {kept}")
        first_dates.setdefault(kept, date)
        sid = kept
        started_at = parse_date(date, f"{where} session {sid}")
        session = SessionRecord(source_id=sid, started_at=started_at)
        for k, turn in enumerate(turns, 1):
            record = _turn(turn, turn_source_id(sid, k), f"{where} session {sid} turn {k}", report)
            if record is not None:
                session.turns.append(record)
        if keep_session(session, report):
            transcript.sessions.append(session)
    return transcript


def _turn(turn: Any, source_id: str, where: str, report: LoadReport) -> TurnRecord | None:
    if not isinstance(turn, dict):
        raise InputError(f"{where}: expected a turn object, got {type_name(turn)}")
    role, content = turn.get("role"), turn.get("content")
    if not isinstance(role, str) or not role.strip():
        raise InputError(f'{where}: "role" must be a non-empty string, got {type_name(role)}')
    if not isinstance(content, str):
        raise InputError(f'{where}: "content" must be a string, got {type_name(content)}')
    if is_blank(content):
        report.skipped_empty_turns += 1
        return None
    return TurnRecord(role=role.strip(), text=content, source_id=source_id)
