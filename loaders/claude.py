"""Read a Claude data export (`conversations.json`) as one user's sessions, one per conversation.

The file is a list of conversations `{"uuid", "name", "created_at", "chat_messages": [...]}`;
each message has `uuid`, `sender` ("human" or "assistant"), `created_at` and its words in `text`
or, in newer exports, in `content` parts of type "text" (joined with newlines; tool use,
attachments and files are ignored). Sessions: source id `uuid`, time `created_at` (ISO-8601,
else the first message's). Turns: "human" becomes role "user", "assistant" stays; message
`uuid` is the source id. Other senders are counted in `LoadReport.skipped_other_roles`. The
export does not say whose it is: the caller names the user.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from graphmem.errors import InputError
from graphmem.loaders.common import (
    LoadReport,
    export_sessions,
    is_blank,
    load_json,
    one_user,
    parse_time,
    type_name,
)
from graphmem.models import SessionRecord, Transcript, TurnRecord

_ROLES = {"human": "user", "user": "user", "assistant": "assistant"}


def read(path: Path, report: LoadReport, *, user: str) -> Iterator[Transcript]:
    """The single Transcript of `user`, after reading and checking every conversation."""
    turn_ids: set[str] = set()
    sessions = export_sessions(
        path, load_json(path), "Claude",
        lambda conversation, where: _session(conversation, where, report, turn_ids))
    return one_user(user, sessions, report)


def _string(record: dict[str, Any], key: str, where: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InputError(f'{where}: "{key}" must be a non-empty string, got {type_name(value)}')
    return value


def _session(conversation: Any, where: str, report: LoadReport,
             turn_ids: set[str]) -> SessionRecord:
    if not isinstance(conversation, dict):
        raise InputError(f"{where}: expected a conversation object, got {type_name(conversation)}")
    sid = _string(conversation, "uuid", where)
    where = f"{where} ({sid})"
    messages = conversation.get("chat_messages")
    if not isinstance(messages, list):
        raise InputError(f'{where}: "chat_messages" must be a list, got {type_name(messages)}')
    started = conversation.get("created_at")
    session = SessionRecord(source_id=sid, started_at=(
        parse_time(_string(conversation, "created_at", where), f"{where} created_at")
        if started is not None else None))
    for k, message in enumerate(messages, 1):
        mwhere = f"{where} message {k}"
        if not isinstance(message, dict):
            raise InputError(f"{mwhere}: expected a message object, got {type_name(message)}")
        if session.started_at is None and message.get("created_at") is not None:
            session.started_at = parse_time(_string(message, "created_at", mwhere),
                                            f"{mwhere} created_at")
        turn = _turn(message, mwhere, report)
        if turn is None:
            continue
        if turn.source_id in turn_ids:
            raise InputError(f"{mwhere}: message uuid {turn.source_id!r} already used")
        turn_ids.add(turn.source_id or "")
        session.turns.append(turn)
    return session


def _turn(message: dict[str, Any], where: str, report: LoadReport) -> TurnRecord | None:
    sender = _string(message, "sender", where)
    mid = _string(message, "uuid", where)
    if sender not in _ROLES:
        report.skipped_other_roles += 1
        return None
    text = message.get("text")
    if text is not None and not isinstance(text, str):
        raise InputError(f'{where}: "text" must be a string, got {type_name(text)}')
    if not text:
        text = _content_text(message.get("content"), where)
    if is_blank(text):
        report.skipped_empty_turns += 1
        return None
    return TurnRecord(role=_ROLES[sender], text=text, source_id=mid)


def _content_text(content: Any, where: str) -> str:
    if content is None:
        return ""
    if not isinstance(content, list):
        raise InputError(f'{where}: "content" must be a list of parts, got {type_name(content)}')
    texts = []
    for i, part in enumerate(content, 1):
        if not isinstance(part, dict):
            raise InputError(f"{where} content part {i}: expected an object, got "
                             f"{type_name(part)}")
        if part.get("type") == "text":
            if not isinstance(part.get("text"), str):
                raise InputError(f'{where} content part {i}: "text" must be a string, got '
                                 f"{type_name(part.get('text'))}")
            texts.append(part["text"])
    return "\n".join(texts)
