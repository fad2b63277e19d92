"""Plans and their outcomes are keyed by what they are about, and that key now reads "the
bathroom remodel" as "remodel the bathroom" (currency.plan_key): every stored plan and outcome
gets the key the current rule gives it, so a later outcome finds an older plan. User by user,
one write transaction each; running it again changes nothing. Past decisions stay as they are."""

from __future__ import annotations

from typing import Any

from graphmem.currency import PLAN_OUTCOMES, PLAN_PREDICATES, slot_key
from graphmem.store.admin import all_user_ids, plan_slot_facts, set_fact_slots


def migrate(graph: Any) -> dict[str, Any]:
    predicates = sorted(PLAN_PREDICATES | PLAN_OUTCOMES)
    users, changed = all_user_ids(graph), 0
    for user_id in users:
        rows = [{"id": r["id"], "slot": new}
                for r in plan_slot_facts(graph, user_id, predicates)
                if (new := slot_key(r["subject"] or "user", r["predicate"], r["value"],
                                    r["modality"])) != r["slot"]]
        set_fact_slots(graph, user_id, rows)
        changed += len(rows)
    return {"users": len(users), "facts": changed}
