"""Split a turn into MessagePieces (sentences, long ones cut at clause breaks) with exact offsets."""

from __future__ import annotations

import re

from .models import MessagePiece, stable_id

# A sentence ends at . ! ? (plus closing quotes/brackets) followed by space, or at a line break.
_BOUNDARY = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+|\n\s*")
# Abbreviations that end in a period but do not end a sentence.
_ABBREV = re.compile(r"(?:\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|vs|etc|e\.g|i\.e|approx|No|Mt)\.|\b[A-Z]\.)$")
_CLAUSE = re.compile(r"[;:,]\s+|\s+[-–—]\s+")
MAX_PIECE_CHARS = 400


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`, abbreviations ("Dr.", "D.C.") not ending one."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        end = m.start()
        if text[m.start() - 1 : m.start()] == "." and _ABBREV.search(text[start:end]):
            continue
        spans.append((start, end))
        start = m.end()
    spans.append((start, len(text)))
    return spans


def _cut_long(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cut a span longer than MAX_PIECE_CHARS at clause breaks, else at spaces."""
    out: list[tuple[int, int]] = []
    while end - start > MAX_PIECE_CHARS:
        window = text[start : start + MAX_PIECE_CHARS]
        cut = None
        for m in _CLAUSE.finditer(window):
            if m.start() > MAX_PIECE_CHARS // 3:
                cut = (m.start() + 1 if window[m.start()] in ";:," else m.start(), m.end())
        if cut is None:
            space = window.rfind(" ", MAX_PIECE_CHARS // 2)
            cut = (space, space + 1) if space > 0 else (MAX_PIECE_CHARS, MAX_PIECE_CHARS)
        out.append((start, start + cut[0]))
        start += cut[1]
    out.append((start, end))
    return out


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def segment(text: str) -> list[tuple[int, int]]:
    """Offsets (start, end) of the pieces of `text`; text[start:end] is each piece verbatim."""
    spans = []
    for s, e in sentence_spans(text):
        s, e = _trim(text, s, e)
        if e <= s:
            continue
        for cs, ce in _cut_long(text, s, e):
            cs, ce = _trim(text, cs, ce)
            if ce > cs and any(ch.isalnum() for ch in text[cs:ce]):
                spans.append((cs, ce))
    return spans


def extraction_window(text: str, limit: int) -> int:
    """Where to stop reading a long turn: the last sentence end within `limit` characters, else
    the last space, so that no piece (and no fact) is built from a word cut in two."""
    if len(text) <= limit:
        return len(text)
    ends = [e for _s, e in sentence_spans(text[: limit + 1]) if e <= limit]
    best = max((e for e in ends[:-1] if e > limit // 2), default=0)  # the last span is cut
    if best:
        return best
    space = max(text.rfind(" ", 0, limit + 1), text.rfind("\n", 0, limit + 1))
    return space if space > 0 else 0


def pieces_of_turn(user_id: str, turn_id: str, text: str) -> list[MessagePiece]:
    """MessagePieces with ids stable across runs (derived from user, turn and offsets)."""
    return [
        MessagePiece(id=stable_id("piece", user_id, turn_id, s, e), turn_id=turn_id,
                     start=s, end=e, text=text[s:e])
        for s, e in segment(text)
    ]
