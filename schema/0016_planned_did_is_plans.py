"""A fact of the catch-all `did` told as planned ("my driving test is on the 14th") is stored as
a `plans` fact (the registry's `planned_as`), as extraction now writes it: questions about
plans find it under one predicate. Its slot (the plan slot of what it is about) and its status
do not change. One write transaction per user; running it again changes nothing."""

from __future__ import annotations

from typing import Any

from graphmem import predicates as P
from graphmem.store import _run
from graphmem.store.admin import all_user_ids


def migrate(graph: Any) -> dict[str, Any]:
    renames = [(p.name, p.planned_as, P.BY_NAME[p.planned_as].kind)
               for p in P.PREDICATES if p.planned_as]
    users, changed = all_user_ids(graph), 0
    for user_id in users:

        def work(tx: Any, user_id: str = user_id) -> int:
            return sum(_run.rows(tx, "migrate_planned_as", user_id=user_id, **{
                "from": old, "to": new, "kind": kind})[0]["facts"] for old, new, kind in renames)

        with graph.session() as session:
            changed += session.execute_write(work)
    return {"users": len(users), "facts": changed}
