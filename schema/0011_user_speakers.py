"""The named speakers of each user's chats move onto the user node: a search read them from every
turn of the user before; ingest and append keep the list from now on. User by user, one write
transaction each; running it again sets the same lists."""

from __future__ import annotations

from typing import Any

from graphmem.store.admin import all_user_ids, keep_user_speakers


def migrate(graph: Any) -> dict[str, Any]:
    users = all_user_ids(graph)
    for user_id in users:
        keep_user_speakers(graph, user_id)
    return {"users": len(users)}
