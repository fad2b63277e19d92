"""Read a ChatGPT data export (`conversations.json`) as one user's sessions, one per conversation.

The file is a list of conversations; each holds its messages as a tree of nodes under `mapping`
(`{node_id: {"message", "parent", "children"}}`) because edited prompts and regenerated answers
branch. The conversation as the person last saw it is the branch from `current_node` back to the
root; other branches are left out (counted in `LoadReport.skipped_other_branches`). Without a
`current_node`, the branch that always takes the last child is used, and noted.

Sessions: source id `conversation_id` (else `id`), time `create_time` (Unix seconds, UTC; else
the first message's). Turns: user and assistant messages whose content has text parts (`text`,
`multimodal_text`; images and other parts are ignored), in branch order, with the message id as
source id. System and tool messages, hidden context messages and custom instructions are not
conversation (counted in `skipped_other_roles`). The export does not say whose it is: the
caller names the user.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.errors import InputError
from graphmem.loaders.common import (
    LoadReport,
    export_sessions,
    from_epoch,
    is_blank,
    load_json,
    one_user,
    type_name,
)
from graphmem.models import SessionRecord, Transcript, TurnRecord

_ROLES = frozenset({"user", "assistant"})
_TEXT_CONTENT = frozenset({"text", "multimodal_text"})


def read(path: Path, report: LoadReport, *, user: str) -> Iterator[Transcript]:
    """The single Transcript of `user`, after reading and checking every conversation."""
    sessions = export_sessions(path, load_json(path), "ChatGPT",
                               lambda conversation, where: _session(conversation, where, report))
    return one_user(user, sessions, report)


def _session(conversation: Any, where: str, report: LoadReport) -> SessionRecord:
    if not isinstance(conversation, dict):
        raise InputError(f"{where}: expected a conversation object, got {type_name(conversation)}")
    sid = conversation.get("conversation_id") or conversation.get("id")
    if not isinstance(sid, str) or not sid.strip():
        raise InputError(f'{where}: missing "conversation_id" (a non-empty string)')
    where = f"{where} ({sid})"
    mapping = conversation.get("mapping")
    if not isinstance(mapping, dict):
        raise InputError(f'{where}: "mapping" must be an object of message nodes, got '
                         f"{type_name(mapping)}")
    branch = _branch(mapping, conversation.get("current_node"), where, report)
    on_branch = sum(1 for node in branch if node.get("message"))
    report.skipped_other_branches += sum(1 for n in mapping.values() if n.get("message")) - on_branch
    started_at = _time(conversation.get("create_time"), f"{where} create_time")
    session = SessionRecord(source_id=sid, started_at=started_at)
    for node in branch:
        message = node.get("message")
        if message is None:
            continue
        turn, at = _turn(message, f"{where} message {node.get('id')}", report)
        if session.started_at is None and at is not None:
            session.started_at = at
        if turn is not None:
            session.turns.append(turn)
    return session


def _branch(mapping: dict[str, Any], current: Any, where: str,
            report: LoadReport) -> list[dict[str, Any]]:
    """The nodes from the root to the current node, in conversation order."""
    for key, node in mapping.items():
        if not isinstance(node, dict):
            raise InputError(f"{where} node {key}: expected a message node object, got "
                             f"{type_name(node)}")
    if current is None:
        current = _last_leaf(mapping, where)
        report.notes.append(f"{where}: no current_node; followed the last child at each branch")
    if not isinstance(current, str) or current not in mapping:
        raise InputError(f"{where}: current_node {current!r} is not a node of the mapping")
    branch: list[dict[str, Any]] = []
    seen: set[str] = set()
    node_id: Any = current
    while node_id is not None:
        if node_id in seen:
            raise InputError(f"{where} node {node_id}: the parent links form a loop")
        if not isinstance(node_id, str) or node_id not in mapping:
            raise InputError(f"{where}: parent {node_id!r} is not a node of the mapping")
        seen.add(node_id)
        node = mapping[node_id]
        branch.append({**node, "id": node_id})
        node_id = node.get("parent")
    branch.reverse()
    return branch


def _last_leaf(mapping: dict[str, Any], where: str) -> str:
    roots = [nid for nid, node in mapping.items() if node.get("parent") is None]
    if len(roots) != 1:
        raise InputError(f"{where}: no current_node and {len(roots)} root nodes; cannot tell "
                         f"which branch is the conversation")
    node_id, seen = roots[0], set()
    while (children := mapping[node_id].get("children")) and node_id not in seen:
        seen.add(node_id)
        if not isinstance(children, list) or not all(c in mapping for c in children):
            raise InputError(f"{where} node {node_id}: children must be node ids of the mapping")
        node_id = children[-1]
    return node_id


def _time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    return from_epoch(value, where)


def _turn(message: Any, where: str, report: LoadReport) -> tuple[TurnRecord | None,
                                                                 datetime | None]:
    if not isinstance(message, dict):
        raise InputError(f"{where}: expected a message object, got {type_name(message)}")
    author = message.get("author")
    role = author.get("role") if isinstance(author, dict) else None
    if not isinstance(role, str) or not role:
        raise InputError(f'{where}: "author.role" must be a non-empty string, got '
                         f"{type_name(role)}")
    at = _time(message.get("create_time"), f"{where} create_time")
    content = message.get("content")
    if not isinstance(content, dict):
        raise InputError(f'{where}: "content" must be an object, got {type_name(content)}')
    found = message.get("metadata")
    metadata: dict[str, Any] = found if isinstance(found, dict) else {}
    if (role not in _ROLES or content.get("content_type") not in _TEXT_CONTENT
            or metadata.get("is_visually_hidden_from_conversation")):
        report.skipped_other_roles += 1
        return None, at
    parts = content.get("parts")
    if not isinstance(parts, list):
        raise InputError(f'{where}: "content.parts" must be a list, got {type_name(parts)}')
    text = "\n".join(p for p in parts if isinstance(p, str))  # dict parts are images, files
    if is_blank(text):
        report.skipped_empty_turns += 1
        return None, at
    mid = message.get("id")
    if not isinstance(mid, str) or not mid:
        raise InputError(f'{where}: missing message "id" (a non-empty string)')
    return TurnRecord(role=role, text=text, source_id=mid), at
