"""Tell a transcript file's format from its name and its first bytes, without reading it all.

Rules, in order: `.jsonl`/`.ndjson` (optionally `.gz`) is JSONL; `.csv`/`.tsv` is a chat log;
otherwise the (gunzipped) head is sniffed: a list whose first element has `question_id`/`haystack_*`
is LongMemEval, one with `sample_id`/`conversation`/`qa` is LoCoMo, one with `mapping` is a ChatGPT
export, one with `chat_messages` a Claude export, one with `role` and `content` an OpenAI message
list (when the first element does not fit in the head, the first of these keys to appear decides);
an object with `messages` is an OpenAI message list, one with `session_N` lists or `clean_text`
messages is REALTALK; one object per line with `user_id` is JSONL. When the head says nothing,
`.json.gz` means LongMemEval. Anything else is an InputError naming the file.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from pathlib import Path
from typing import Any

from graphmem.errors import InputError
from graphmem.loaders.common import GZIP_MAGIC, PathLike

FORMATS = ("longmemeval", "locomo", "jsonl", "openai", "chatgpt", "claude", "realtalk", "csv")
HEAD_BYTES = 1 << 16

_LONGMEMEVAL_KEYS = frozenset({"question_id", "haystack_sessions", "haystack_session_ids"})
_LOCOMO_KEYS = frozenset({"sample_id", "conversation"})
# A key of the first list element that names the format (first one in the file wins).
_LIST_MARKS = re.compile(r'(?<!\\)"(question_id|haystack_session_ids|haystack_sessions|sample_id|'
                         r'conversation|qa|mapping|chat_messages)"\s*:')
_BY_MARK = {"question_id": "longmemeval", "haystack_session_ids": "longmemeval",
            "haystack_sessions": "longmemeval", "sample_id": "locomo", "conversation": "locomo",
            "qa": "locomo", "mapping": "chatgpt", "chat_messages": "claude"}
_MESSAGES_MARK = re.compile(r'^\{\s*"messages"\s*:')
_REALTALK_MARK = re.compile(r'(?<!\\)"(?:session_\d+"\s*:\s*\[|clean_text"\s*:)')


def detect_format(path: PathLike) -> str:
    """One of FORMATS for the file at `path`; InputError when it cannot tell."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if not path.is_file():
        raise InputError(f"{path}: not a file")
    name = path.name.lower()
    if name.endswith((".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz")):
        return "jsonl"
    if name.endswith((".csv", ".tsv", ".csv.gz", ".tsv.gz")):
        return "csv"
    head = _head(path).decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if not head:
        raise InputError(f"{path}: the file is empty")
    found = _sniff(head)
    if found:
        return found
    if name.endswith(".json.gz"):
        return "longmemeval"
    raise InputError(f"{path}: cannot tell the transcript format from its name or content; "
                     f"give --format, one of {', '.join(FORMATS)}")


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
        if head[:2] != GZIP_MAGIC:
            return head
        with gzip.open(path, "rb") as handle:
            return handle.read(HEAD_BYTES)
    except (EOFError, zlib.error) as exc:
        raise InputError(f"{path}: broken gzip data ({exc}); is the file truncated?") from exc
    except OSError as exc:  # also gzip.BadGzipFile
        raise InputError(f"{path}: cannot read the file ({exc.strerror or exc})") from exc


def _sniff(head: str) -> str | None:
    if head.startswith("["):
        return _sniff_list(head)
    if head.startswith("{"):
        return _sniff_object(head)
    return None


def _sniff_list(head: str) -> str | None:
    rest = head[1:].lstrip()
    if rest.startswith("{"):
        try:
            first, _ = json.JSONDecoder().raw_decode(rest)
        except json.JSONDecodeError:
            first = None  # the first element does not fit in the head
        if isinstance(first, dict):
            return _by_keys(first)
    mark = _LIST_MARKS.search(head)
    return _BY_MARK[mark.group(1)] if mark else None


def _by_keys(first: dict[str, Any]) -> str | None:
    keys = set(first)
    if keys & _LONGMEMEVAL_KEYS:
        return "longmemeval"
    if keys & _LOCOMO_KEYS:
        return "locomo"
    if "mapping" in keys:
        return "chatgpt"
    if "chat_messages" in keys:
        return "claude"
    if {"role", "content"} <= keys:
        return "openai"
    return None


def _sniff_object(head: str) -> str | None:
    first_line = head.split("\n", 1)[0]
    try:
        first = json.loads(first_line)
    except json.JSONDecodeError:
        first = None
    if isinstance(first, dict):
        if "user_id" in first:
            return "jsonl"
        if "messages" in first:
            return "openai"
    if _MESSAGES_MARK.match(head):
        return "openai"
    if _REALTALK_MARK.search(head):
        return "realtalk"
    return None
