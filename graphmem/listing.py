"""Reading one memory at a time, for `Memory`: a turn by its id, and the user's sessions and
turns a page at a time (UnknownId / UnknownUser when they are not the user's)."""

from __future__ import annotations

from .db import Graph
from .errors import InputError, UnknownId
from .models import stable_id
from .pages import Page
from .pages import decode as decode_cursor
from .pages import page as make_page
from .store import admin
from .store import reads as store_reads
from .store import sessions as store_sessions
from .store.nodes import SessionSummary, Turn


def turn_named(graph: Graph, user_id: str, turn_id: str) -> Turn:
    """The user's turn by stored id or source turn id (a source id two sessions share must be
    given as the stored id)."""
    found = store_reads.turns_named(graph, user_id, turn_id)
    if not found:
        admin.require_user(graph, user_id)
        raise UnknownId(f"user {user_id!r} has no turn {turn_id!r}")
    if len(found) > 1:
        raise InputError(f"turn id {turn_id!r} names {len(found)} turns of user {user_id!r} "
                         f"(stored ids {', '.join(t.id for t in found)}); pass the stored "
                         "id of the one meant")
    return found[0]


def sessions_page(graph: Graph, user_id: str, cursor: str | None,
                  limit: int) -> Page[SessionSummary]:
    after = decode_cursor("sessions", cursor, {"at": int, "id": str})
    rows = store_reads.sessions_page(graph, user_id, after, limit + 1)
    if not rows and after is None:
        admin.require_user(graph, user_id)
    return make_page("sessions", rows, limit, {"at": "at", "id": "id"},
                     SessionSummary.from_row)


def turns_page(graph: Graph, user_id: str, session_id: str | None, cursor: str | None,
               limit: int) -> Page[Turn]:
    after = decode_cursor("turns", cursor, {"at": int, "session": str, "idx": int})
    stored = None
    if session_id is not None:
        stored = stable_id("session", user_id, session_id)
        if store_sessions.session(graph, user_id, stored) is None:
            admin.require_user(graph, user_id)
            raise UnknownId(f"user {user_id!r} has no session {session_id!r}")
    rows = store_reads.turns_page(graph, user_id, stored, after, limit + 1)
    if not rows and after is None:
        admin.require_user(graph, user_id)
    return make_page("turns", rows, limit, {"at": "at", "session": "session_id", "idx": "idx"},
                     Turn.from_row)
