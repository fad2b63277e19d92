"""Read LoCoMo files, where each sample is one user whose two speakers are both people.

Roles: LoCoMo conversations are between two people (`speaker_a`, `speaker_b`), neither of them an
assistant, and both speakers' turns are memory. Every turn therefore gets role "user" and keeps
the speaker's name in `TurnRecord.speaker`; tell the speakers apart by name, not by role.

Sessions are the `session_N` keys of `conversation`, sorted by N numerically, with source id
`D<N>` (the prefix of LoCoMo's dia ids) and time from `session_N_date_time`
("1:56 pm on 8 May, 2023", read as UTC). Turns keep `dia_id` as source id and their text verbatim;
image fields (`img_url`, `blip_caption`, `query`) are ignored. A date with no matching session
is ignored and noted in the report; a session with turns but no date is an error (its date is the
anchor of every relative time in it), found before anything of the file is used.
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

_SESSION = re.compile(r"session_(\d+)")
_SESSION_DATE = re.compile(r"session_(\d+)_date_time")
_DATE = re.compile(
    r"(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})",
    re.IGNORECASE)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def parse_date(value: str, where: str) -> datetime:
    """"1:56 pm on 8 May, 2023" as an aware UTC datetime (other absolute forms via parse_time)."""
    match = _DATE.fullmatch(value.strip())
    month_name = match.group(5)[:3].lower() if match else ""
    if not match or month_name not in _MONTHS:
        return parse_time(value, where)
    hour, minute = int(match.group(1)), int(match.group(2))
    hour = hour % 12 + (12 if match.group(3).lower() == "p" else 0)
    try:
        return datetime(int(match.group(6)), _MONTHS.index(month_name) + 1, int(match.group(4)),
                        hour, minute, tzinfo=UTC)
    except ValueError as exc:
        raise InputError(f"{where}: impossible date {value!r} ({exc})") from exc


def read(path: Path, report: LoadReport, *, only_user: str | None = None) -> Iterator[Transcript]:
    """One Transcript per LoCoMo sample, streamed."""
    for index, sample in enumerate(iter_json_array(path, "LoCoMo samples")):
        where = f"{path} sample {index}"
        if not isinstance(sample, dict):
            raise InputError(f"{where}: expected a sample object, got {type_name(sample)}")
        sample_id = sample.get("sample_id")
        if isinstance(sample_id, int) and not isinstance(sample_id, bool):
            sample_id = str(sample_id)
        if not isinstance(sample_id, str) or not sample_id:
            raise InputError(f'{where}: missing "sample_id" (a non-empty string)')
        if only_user is not None and sample_id != only_user:
            continue
        transcript = _transcript(sample, sample_id, f"{path} sample {sample_id}", report)
        if transcript.sessions:
            yield transcript
        else:
            report.skipped_empty_users += 1


def _transcript(sample: dict[str, Any], sample_id: str, where: str,
                report: LoadReport) -> Transcript:
    conversation = sample.get("conversation")
    if not isinstance(conversation, dict):
        raise InputError(f'{where}: "conversation" must be an object, got '
                         f"{type_name(conversation)}")
    sessions: dict[int, str] = {}
    dates: dict[int, str] = {}
    for key in conversation:
        if match := _SESSION.fullmatch(key):
            sessions[int(match.group(1))] = key
        elif match := _SESSION_DATE.fullmatch(key):
            dates[int(match.group(1))] = key
    orphans = sorted(set(dates) - set(sessions))
    if orphans:
        report.notes.append(f"{where}: {len(orphans)} session date(s) without a session "
                            f"ignored (session {', '.join(map(str, orphans))})")
    transcript = Transcript(user_id=sample_id)
    for n in sorted(sessions):
        key = sessions[n]
        turns = conversation[key]
        if not isinstance(turns, list):
            raise InputError(f"{where} {key}: expected a list of turns, got {type_name(turns)}")
        started_at = None
        if n in dates:
            raw = conversation[dates[n]]
            if not isinstance(raw, str):
                raise InputError(f"{where} {dates[n]}: expected a string, got {type_name(raw)}")
            started_at = parse_date(raw, f"{where} {dates[n]}")
        session = SessionRecord(source_id=f"D{n}", started_at=started_at)
        for k, turn in enumerate(turns, 1):
            record = _turn(turn, f"{where} {key} turn {k}", report)
            if record is not None:
                session.turns.append(record)
        if started_at is None and session.turns:
            raise InputError(f"{where} {key}: no {key}_date_time (a session needs its date)")
        if keep_session(session, report):
            transcript.sessions.append(session)
    return transcript


def _turn(turn: Any, where: str, report: LoadReport) -> TurnRecord | None:
    if not isinstance(turn, dict):
        raise InputError(f"{where}: expected a turn object, got {type_name(turn)}")
    if isinstance(turn.get("dia_id"), str):
        where = f"{where} ({turn['dia_id']})"
    for key in ("speaker", "dia_id", "text"):
        if key not in turn:
            raise InputError(f'{where}: missing field "{key}"')
        if not isinstance(turn[key], str):
            raise InputError(f'{where}: "{key}" must be a string, got {type_name(turn[key])}')
    if not turn["dia_id"].strip() or not turn["speaker"].strip():
        raise InputError(f'{where}: "dia_id" and "speaker" must not be empty')
    if is_blank(turn["text"]):
        report.skipped_empty_turns += 1
        return None
    return TurnRecord(role="user", text=turn["text"], speaker=turn["speaker"],
                      source_id=turn["dia_id"])
