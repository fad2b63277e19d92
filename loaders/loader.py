"""The `load` entry point: pick the format, check arguments, stream Transcripts, keep a report."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

from graphmem.errors import InputError
from graphmem.loaders import (
    chatgpt,
    chatlog,
    claude,
    jsonl,
    locomo,
    longmemeval,
    openai_messages,
    realtalk,
)
from graphmem.loaders.common import LoadReport, PathLike, aware, parse_time
from graphmem.loaders.detect import FORMATS, detect_format
from graphmem.models import MAX_MESSAGE_CHARS, Transcript

# Formats holding one person's conversations without saying whose: the caller names the user
# (required), or the file name does (default).
OWNER_REQUIRED = {"openai": "an OpenAI-style message list", "chatgpt": "a ChatGPT export",
                  "claude": "a Claude export"}
OWNER_FROM_FILE_NAME = {"realtalk", "csv"}
OWNED_FORMATS = frozenset(OWNER_REQUIRED) | OWNER_FROM_FILE_NAME  # one user per file: `user` names it
# Streamed formats: read twice, once to check the whole file, then to yield.
STREAMED = {"longmemeval": longmemeval.read, "locomo": locomo.read}
NOTHING_WRITTEN = "nothing from the file was loaded or written"


class Loader(Iterator[Transcript]):
    """An iterator of Transcripts, one per user, with a `report` filled in as it goes.

    Arguments are checked and the format detected when the Loader is made; the file is read on
    the first `next()`. Like a file, it can be iterated once.

    `user`: for "openai", "chatgpt" and "claude" the id of the memory owner (required); for
    "realtalk" and "csv" the owner's id (default: the file name without extensions); for the
    other formats, load only that user (InputError if the file has no such user). `session`,
    `session_time`: the session id and time of an "openai" file (default: file name without
    extensions, file mtime in UTC). `me`: the speaker of a "csv" chat log who is the owner.
    `limit`: the most users to yield.

    Every format is checked whole before the first Transcript is yielded, so a bad record
    anywhere means nothing is handed on (the error says so).
    """

    def __init__(self, path: PathLike, format: str = "auto", *, user: str | None = None,
                 session: str | None = None, session_time: datetime | str | None = None,
                 limit: int | None = None, me: str | None = None) -> None:
        self.path = Path(path)
        if format != "auto" and format not in FORMATS:
            raise InputError(f"unknown transcript format {format!r}; use auto or one of "
                             f"{', '.join(FORMATS)}")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 0):
            raise InputError(f"--limit must be a whole number >= 0, got {limit!r}")
        if user is not None and (not isinstance(user, str) or not user.strip()):
            raise InputError(f"--user must be a non-empty string, got {user!r}")
        if format == "auto":
            format = detect_format(self.path)
        elif not self.path.is_file():
            raise InputError(f"{self.path}: no such file")
        if format in OWNER_REQUIRED and user is None:
            raise InputError(f"{self.path}: {OWNER_REQUIRED[format]} does not say whose it is; "
                             f"give --user")
        if format in OWNER_FROM_FILE_NAME and user is None:
            user = Path(self.path.name.removesuffix(".gz")).stem
        if format == "openai":
            if session is not None and (not isinstance(session, str) or not session.strip()):
                raise InputError(f"--session must be a non-empty string, got {session!r}")
        elif session is not None or session_time is not None:
            raise InputError(f"{self.path}: --session and --session-time apply only to "
                             f"OpenAI-style message lists; {format} files give their own sessions "
                             f"and times")
        if me is not None and format != "csv":
            raise InputError(f"{self.path}: --me applies only to csv chat logs; {format} files "
                             f"say who speaks")
        if me is not None and (not isinstance(me, str) or not me.strip()):
            raise InputError(f"--me must be a non-empty speaker name, got {me!r}")
        self.format = format
        self.user = user
        self.session = session
        self.session_time = _session_time(session_time)
        self.limit = limit
        self.me = me
        self.report = LoadReport(path=str(self.path), format=format)
        self._transcripts: Iterator[Transcript] | None = None

    def __iter__(self) -> Loader:
        return self

    def __next__(self) -> Transcript:
        if self._transcripts is None:
            self._transcripts = self._generate()
        return next(self._transcripts)

    def check(self) -> Loader:
        """Read and check the whole file now rather than on the first `next()` (InputError
        naming the record otherwise), e.g. before connecting to a database; returns self."""
        if self._transcripts is None:
            generated = self._generate()
            first = next(generated, None)
            self._transcripts = _chain(first, generated)
        return self

    def _source(self) -> Iterator[Transcript]:
        user = self.user or ""
        owned: dict[str, Callable[..., Iterator[Transcript]]] = {
            "chatgpt": chatgpt.read, "claude": claude.read, "realtalk": realtalk.read,
            "openai": functools.partial(openai_messages.read, session=self.session,
                                        session_time=self.session_time),
            "csv": functools.partial(chatlog.read, me=self.me)}
        if self.format in STREAMED:
            self._check_whole_file()
            return STREAMED[self.format](self.path, self.report, only_user=self.user)
        if self.format in owned:
            whole = list(owned[self.format](self.path, self.report, user=user))
        else:
            whole = list(jsonl.read(self.path, self.report, only_user=self.user))
        for transcript in whole:  # read whole already: check every one before the first is used
            check_transcript(self.path, transcript)
        return iter(whole)

    def _check_whole_file(self) -> None:
        """Read every record of a streamed file once, so a bad one is found before any is used."""
        for transcript in STREAMED[self.format](self.path,
                                                LoadReport(str(self.path), self.format)):
            check_transcript(self.path, transcript)

    def _generate(self) -> Iterator[Transcript]:
        if self.limit == 0:
            return
        try:
            source = self._source()
            first = next(source, None)
        except InputError as exc:
            raise InputError(f"{exc}; {NOTHING_WRITTEN}") from exc
        for transcript in _chain(first, source):
            self.report.users += 1
            self.report.sessions += len(transcript.sessions)
            self.report.turns += sum(len(s.turns) for s in transcript.sessions)
            yield transcript
            if self.limit is not None and self.report.users >= self.limit:
                return
        if (self.user is not None and self.format in ("longmemeval", "locomo", "jsonl")
                and self.report.users == 0):
            raise InputError(f"{self.path}: no user {self.user!r} in this {self.format} file "
                             f"(or all of their sessions are empty)")


def max_message_chars() -> int:
    """The most characters one message may hold: the one limit every door applies (HTTP, MCP,
    `Memory.append`), defined in graphmem.models."""
    return MAX_MESSAGE_CHARS


def check_transcript(path: Path, transcript: Transcript) -> None:
    """What ingest needs of every session, checked for the whole file before anything is
    written: a start time (the anchor of its relative dates), and messages of at most
    `max_message_chars()` characters."""
    limit = max_message_chars()
    for session in transcript.sessions:
        where = f"{path}: user {transcript.user_id!r} session {session.source_id!r}"
        if session.started_at is None:
            raise InputError(f"{where} has no start time (a session needs its date)")
        for k, turn in enumerate(session.turns, 1):
            if len(turn.text) > limit:
                name = f" ({turn.source_id})" if turn.source_id else ""
                raise InputError(f"{where} turn {k}{name}: the message is {len(turn.text):,} "
                                 f"characters; a message may hold at most {limit:,}")


def _chain(first: Transcript | None, rest: Iterator[Transcript]) -> Iterator[Transcript]:
    if first is not None:
        yield first
    yield from rest


def _session_time(value: datetime | str | None) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return aware(value) if value is not None else None
    if isinstance(value, str):
        return parse_time(value, "session_time")
    raise InputError(f"--session-time must be a datetime or a string, got {value!r}")


def load(path: PathLike, format: str = "auto", *, user: str | None = None,
         session: str | None = None, session_time: datetime | str | None = None,
         limit: int | None = None, me: str | None = None) -> Loader:
    """Stream one Transcript per user from `path`; the returned Loader also carries `.report`.

    `format` is "auto" (see `detect_format`) or one of FORMATS. Every problem with the file or
    the arguments is an InputError that names the file and, where it can, the line or record.
    """
    return Loader(path, format, user=user, session=session, session_time=session_time,
                  limit=limit, me=me)
