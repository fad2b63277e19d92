"""Read an OpenAI-style message list as one session of one user named by the caller.

The file holds `[{"role", "content"}, ...]` or `{"messages": [...]}`. The user id must be given;
the session id defaults to the file name without its extensions and the session time to the
file's modification time (UTC). `content` is a string, or a list of content parts whose text
parts are joined with newlines (images and other parts are ignored); null content is allowed
only on messages carrying `tool_calls`/`function_call` and counts as a blank turn. System,
developer and tool messages are not conversation and are skipped (counted in
`LoadReport.skipped_other_roles`). A message's `name` becomes the turn's speaker. Turn source
ids are `<session_id>_<k>`, k the 1-based position in the list counting every message.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.errors import InputError
from graphmem.loaders.common import LoadReport, is_blank, load_json, type_name
from graphmem.models import SessionRecord, Transcript, TurnRecord

OTHER_ROLES = frozenset({"system", "developer", "tool", "function"})
_TEXT_PARTS = frozenset({"text", "input_text", "output_text"})


def default_session_id(path: Path) -> str:
    """The file name without extensions: "chat.json.gz" -> "chat"."""
    name = path.name
    for suffix in (".gz", ".json"):
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    return name


def default_session_time(path: Path) -> datetime:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror or exc})") from exc


def read(path: Path, report: LoadReport, *, user: str, session: str | None,
         session_time: datetime | None) -> Iterator[Transcript]:
    """The single Transcript of `user`, unless every message is blank or skipped."""
    data = load_json(path)
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list):
        raise InputError(f'{path}: expected a JSON list of messages or an object with a '
                         f'"messages" list, got {type_name(data)}')
    session_id = session if session is not None else default_session_id(path)
    started_at = session_time if session_time is not None else default_session_time(path)
    record = SessionRecord(source_id=session_id, started_at=started_at)
    for k, message in enumerate(messages, 1):
        turn = _turn(message, f"{session_id}_{k}", f"{path} message {k}", report)
        if turn is not None:
            record.turns.append(turn)
    if record.turns:
        yield Transcript(user_id=user, sessions=[record])
    else:
        report.skipped_empty_sessions += 1
        report.skipped_empty_users += 1


def _turn(message: Any, source_id: str, where: str, report: LoadReport) -> TurnRecord | None:
    if not isinstance(message, dict):
        raise InputError(f"{where}: expected a message object, got {type_name(message)}")
    role = message.get("role")
    if not isinstance(role, str) or not role.strip():
        raise InputError(f'{where}: "role" must be a non-empty string, got {type_name(role)}')
    role = role.strip()
    if role.lower() in OTHER_ROLES:
        report.skipped_other_roles += 1
        return None
    if "content" not in message:
        raise InputError(f'{where}: missing field "content"')
    text = _text(message, where)
    if is_blank(text):
        report.skipped_empty_turns += 1
        return None
    name = message.get("name")
    if name is not None and not isinstance(name, str):
        raise InputError(f'{where}: "name" must be a string, got {type_name(name)}')
    return TurnRecord(role=role, text=text, speaker=name, source_id=source_id)


def _text(message: dict[str, Any], where: str) -> str:
    content = message["content"]
    if isinstance(content, str):
        return content
    if content is None and ("tool_calls" in message or "function_call" in message):
        return ""
    if not isinstance(content, list):
        raise InputError(f'{where}: "content" must be a string or a list of content parts, '
                         f"got {type_name(content)}")
    texts = []
    for i, part in enumerate(content, 1):
        if not isinstance(part, dict):
            raise InputError(f"{where} content part {i}: expected an object, got "
                             f"{type_name(part)}")
        if part.get("type") in _TEXT_PARTS:
            text = part.get("text")
            if not isinstance(text, str):
                raise InputError(f'{where} content part {i}: "text" must be a string, got '
                                 f"{type_name(text)}")
            texts.append(text)
    return "\n".join(texts)
