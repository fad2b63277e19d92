"""An activity has one key however it is named ("the nightly journal thing", "journaling" →
`does:journaling`; "Sunday run club" → `does:running`; extract.text.activity_key): every stored
activity fact gets the predicate and slot the current rule gives it, so that a later end or
restart finds the habit stored before. User by user, one write transaction each; running it
again changes nothing. Past decisions stay as they are."""

from __future__ import annotations

from typing import Any

from graphmem.currency import slot_key
from graphmem.extract.text import activity_key
from graphmem.store.admin import activity_facts, all_user_ids, set_fact_predicates


def migrate(graph: Any) -> dict[str, Any]:
    users, changed = all_user_ids(graph), 0
    for user_id in users:
        rows = []
        for r in activity_facts(graph, user_id):
            predicate = "does:" + activity_key(r["predicate"][5:])
            slot = slot_key(r["subject"] or "user", predicate, r["value"], r["modality"])
            if predicate != r["predicate"] or slot != r["slot"]:
                rows.append({"id": r["id"], "predicate": predicate, "slot": slot})
        set_fact_predicates(graph, user_id, rows)
        changed += len(rows)
    return {"users": len(users), "facts": changed}
