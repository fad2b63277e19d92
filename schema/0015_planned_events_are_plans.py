"""An event told as ahead is a plan ("my driving test is on the 14th" → a planned `did`,
"flying to Oslo in May" → a planned `traveled_to`): it is keyed like a `plans` fact by what it
is about (currency.is_plan, plan_key), so an outcome told later closes it. Every stored event
fact gets the slot the current rule gives it, and the plan slots it changed are decided again,
user by user in one write transaction each; running it again changes nothing."""

from __future__ import annotations

from typing import Any

from graphmem import predicates as P
from graphmem.currency import maintain_currency, slot_key
from graphmem.store import _run
from graphmem.store.admin import all_user_ids, plan_slot_facts


def migrate(graph: Any) -> dict[str, Any]:
    events = sorted(p.name for p in P.PREDICATES if p.cardinality is P.Cardinality.EVENT)
    users, changed = all_user_ids(graph), 0
    for user_id in users:
        rows = [{"id": r["id"], "slot": new}
                for r in plan_slot_facts(graph, user_id, events)
                if (new := slot_key(r["subject"] or "user", r["predicate"], r["value"],
                                    r["modality"])) != r["slot"]]
        if not rows:
            continue

        def work(tx: Any, user_id: str = user_id, rows: list = rows) -> None:
            _run.run(tx, "migrate_set_slots", user_id=user_id, rows=rows)
            maintain_currency(tx, user_id, sorted({r["slot"] for r in rows if r["slot"]}))

        with graph.session() as session:
            session.execute_write(work)
        changed += len(rows)
    return {"users": len(users), "facts": changed}
