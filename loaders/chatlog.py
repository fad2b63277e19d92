"""Read a chat log exported as CSV or TSV (`timestamp, speaker, text`) as one user's sessions.

The first row names the columns (any order, case ignored): `timestamp` (or time, date,
datetime), `speaker` (or sender, author, from, name) and `text` (or message, content, body);
optional `session` (or session_id) and `id` (or turn_id, message_id). `.tsv` files are
tab-separated; `.csv` files use the delimiter the header shows (comma, semicolon or tab).
Timestamps are ISO-8601 or any absolute date dateparser reads (naive means UTC).

A log has no sessions of its own, so rows are sorted by time (stably) and a new session starts
when more than `SESSION_GAP` passes between two messages; with a `session` column, that column
decides instead. Session source ids are the session column's values, else the start time
("2024-01-10T09:00"); turn source ids are the `id` column, else `<session>_<k>`.

Speakers: with `me` given (the CLI's `--me`), that speaker's turns are the memory owner's (role
"user", no speaker name) and everyone else keeps their name, as in LoCoMo; without it every
speaker keeps their name. The user id is given by the caller, else the file name.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from graphmem.errors import InputError
from graphmem.loaders.common import LoadReport, is_blank, one_user, parse_time, read_text
from graphmem.models import SessionRecord, Transcript, TurnRecord

SESSION_GAP = timedelta(hours=4)
_COLUMNS = {
    "timestamp": ("timestamp", "time", "date", "datetime", "date_time"),
    "speaker": ("speaker", "sender", "author", "from", "name"),
    "text": ("text", "message", "content", "body"),
    "session": ("session", "session_id"),
    "id": ("id", "turn_id", "message_id"),
}
_REQUIRED = ("timestamp", "speaker", "text")


@dataclass
class _Row:
    line: int
    at: datetime
    speaker: str
    text: str
    session: str | None
    turn_id: str | None


def read(path: Path, report: LoadReport, *, user: str, me: str | None) -> Iterator[Transcript]:
    """The single Transcript of `user`, after reading and checking every row."""
    rows = _rows(path)
    if me is not None and not any(r.speaker == me for r in rows):
        speakers = sorted({r.speaker for r in rows})
        raise InputError(f"{path}: no speaker {me!r} (--me); the speakers are "
                         f"{', '.join(map(repr, speakers[:10]))}")
    sessions: list[SessionRecord] = []
    seen: dict[str, int] = {}
    for sid, group in _sessions(rows):
        session = SessionRecord(source_id=sid, started_at=group[0].at)
        for k, row in enumerate(group, 1):
            turn_id = row.turn_id or f"{sid}_{k}"
            if turn_id in seen:
                raise InputError(f"{path} line {row.line}: turn id {turn_id!r} was already used "
                                 f"on line {seen[turn_id]}")
            seen[turn_id] = row.line
            if is_blank(row.text):
                report.skipped_empty_turns += 1
                continue
            mine = me is not None and row.speaker == me
            session.turns.append(TurnRecord(role="user", text=row.text,
                                            speaker=None if mine else row.speaker,
                                            source_id=turn_id))
        sessions.append(session)
    yield from one_user(user, sessions, report)


def _sessions(rows: list[_Row]) -> Iterator[tuple[str, list[_Row]]]:
    if rows and rows[0].session is not None:
        groups: dict[str, list[_Row]] = {}
        for row in rows:
            groups.setdefault(row.session or "", []).append(row)
        yield from groups.items()
        return
    group: list[_Row] = []
    for row in rows:
        if group and row.at - group[-1].at > SESSION_GAP:
            yield _start(group), group
            group = []
        group.append(row)
    if group:
        yield _start(group), group


def _start(group: list[_Row]) -> str:
    return group[0].at.isoformat(timespec="minutes")[:16]


def _rows(path: Path) -> list[_Row]:
    text = read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(path, text))
    try:
        header = next(reader)
    except csv.Error as exc:
        raise InputError(f"{path} line 1: cannot read the header ({exc})") from None
    columns = _columns(path, header)
    rows: list[_Row] = []
    try:
        for values in reader:
            line = reader.line_num
            if not any(v.strip() for v in values):
                continue
            if len(values) != len(header):
                raise InputError(f"{path} line {line}: {len(values)} fields, the header has "
                                 f"{len(header)}; quote text that holds the delimiter")
            rows.append(_row(values, columns, f"{path} line {line}", line))
    except csv.Error as exc:
        raise InputError(f"{path} line {reader.line_num}: {exc}; is a quote left open?") from None
    if not rows:
        raise InputError(f"{path}: no messages after the header")
    if (rows[0].session is None) != all(r.session is None for r in rows):
        raise InputError(f"{path}: the session column is empty on some rows; fill it on every "
                         f"row or leave it out")
    rows.sort(key=lambda r: r.at)
    return rows


def _delimiter(path: Path, text: str) -> str:
    if path.name.lower().removesuffix(".gz").endswith(".tsv"):
        return "\t"
    header = text.split("\n", 1)[0]
    return max(",;\t", key=header.count)


def _columns(path: Path, header: list[str]) -> dict[str, int]:
    names = [h.strip().lower().lstrip("\ufeff") for h in header]
    columns: dict[str, int] = {}
    for key, aliases in _COLUMNS.items():
        found = [i for i, name in enumerate(names) if name in aliases]
        if found:
            columns[key] = found[0]
    missing = [k for k in _REQUIRED if k not in columns]
    if missing:
        raise InputError(f"{path} line 1: the header {', '.join(header)!r} has no "
                         f"{' and no '.join(missing)} column; the first row must name the columns "
                         f"timestamp, speaker, text")
    return columns


def _row(values: list[str], columns: dict[str, int], where: str, line: int) -> _Row:
    def get(key: str) -> str | None:
        return values[columns[key]] if key in columns else None

    speaker = (get("speaker") or "").strip()
    if not speaker:
        raise InputError(f"{where}: the speaker is empty")
    stamp = (get("timestamp") or "").strip()
    if not stamp:
        raise InputError(f"{where}: the timestamp is empty")
    session = (get("session") or "").strip() or None
    turn_id = (get("id") or "").strip() or None
    return _Row(line, parse_time(stamp, where), speaker, get("text") or "", session, turn_id)
