"""A transcript file as every door ingests it (`Memory.ingest_file`: the CLI's `ingest`, the HTTP
upload): read and checked whole before anything is written, kept to one user when one is named,
with one report of what was stored and what was left out."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError
from .ingest import IngestReport
from .loaders import FORMATS, OWNED_FORMATS, detect_format, load
from .models import Transcript

_SUMMED = ("users", "sessions", "sessions_unchanged", "turns", "pieces", "facts", "rejected",
           "entities", "judged_links")


@dataclass
class FileIngestReport:
    """What ingesting one file did: the ingest's counts, the records of other users it left out
    (a file uploaded for one user), and what the loader skipped (empty turns, other roles…)."""

    ingest: IngestReport
    skipped_other_users: int = 0
    skipped: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The summary the CLI prints and the upload endpoint returns."""
        r = self.ingest
        out: dict[str, Any] = {k: getattr(r, k) for k in _SUMMED}
        out["skipped_other_users"] = self.skipped_other_users
        out["seconds"] = round(r.seconds, 3)
        out["turns_per_s"] = round(r.turns / r.seconds, 1) if r.seconds else 0.0
        out["skipped"] = dict(self.skipped)
        return out


class TranscriptFile:
    """A transcript file read and checked whole (InputError naming the record otherwise), ready
    to be ingested: `source` is a path, or the file's bytes (`filename` then gives the suffix
    format detection reads). With `user_id`, only that user's memory is written: it names the
    owner of a one-user format (ChatGPT, Claude, OpenAI messages, CSV, REALTALK), and in a file
    of several users (JSONL, LongMemEval, LoCoMo) the other users' records are skipped and
    counted. Use it in a `with` block (the bytes live in a temporary file until it ends)."""

    def __init__(self, source: str | Path | bytes, format: str = "auto", *,
                 user_id: str | None = None, filename: str | None = None,
                 session: str | None = None, session_time: str | None = None,
                 limit: int | None = None, me: str | None = None):
        if format != "auto" and format not in FORMATS:
            raise InputError(f"unknown format {format!r}; use auto or one of {', '.join(FORMATS)}")
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if isinstance(source, bytes):
            if not source.strip():
                raise InputError("the transcript is empty; send the file's contents")
            self._tmp = tempfile.TemporaryDirectory(prefix="graphmem-upload-")
            suffix = "".join(Path(filename or "transcript.json").suffixes[-2:]) or ".json"
            path = Path(self._tmp.name) / ("upload" + suffix)
            path.write_bytes(source)
        else:
            path = Path(source)
        try:
            kind = detect_format(path) if format == "auto" else format
            owned = kind in OWNED_FORMATS
            self.user_id, self.skipped_other_users = user_id, 0
            self._loader = load(path, kind, user=user_id if owned else None, session=session,
                                session_time=session_time, limit=limit, me=me).check()
        except BaseException:
            self.close()
            raise

    def transcripts(self) -> Iterator[Transcript]:
        """The transcripts to ingest; a named user the file does not hold is an InputError
        once the file is read through (nothing of it was written)."""
        found = False
        for t in self._loader:
            if self.user_id is None or t.user_id == self.user_id:
                found = True
                yield t
            else:
                self.skipped_other_users += 1
        if not found and self.skipped_other_users:
            raise InputError(f"{self._loader.path.name}: no user {self.user_id!r} in this "
                             f"{self._loader.format} file ({self.skipped_other_users} other "
                             "users); nothing was written")

    def report(self, ingest: IngestReport) -> FileIngestReport:
        loaded = getattr(self._loader, "report", None)
        skipped = {k.removeprefix("skipped_"): v for k, v in vars(loaded).items()
                   if k.startswith("skipped_") and isinstance(v, int)} if loaded else {}
        return FileIngestReport(ingest, self.skipped_other_users, skipped)

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> TranscriptFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
