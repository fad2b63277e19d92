"""Re-key every node id to the length-prefixed encoding of `graphmem.models.stable_id`.

Ids before schema 5 joined their parts with \\x1f, which a user or session id may itself contain, so
two users could be given the same session and turn ids. Each user is re-keyed in one transaction
(all of that user's ids or none); the old id stays on the node as `legacy_id`, which `inspect`
still resolves. Running it again changes nothing: ids are re-derived from stored parts.
"""

from __future__ import annotations

from typing import Any

from graphmem.models import stable_id
from graphmem.store import admin


def _plan(user_id: str, parts: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The rows whose id changes, and the new values of the id-valued properties."""
    def session_of(source_id: Any) -> str:
        return stable_id("session", user_id, source_id)

    sessions = [{"old": s["id"], "new": session_of(s["source_id"])}
                for s in parts["sessions"] if s["source_id"] is not None]
    turn_new: dict[str, str] = {}
    turn_session: dict[str, str] = {}
    turns = []
    for t in parts["turns"]:
        if t["session_source_id"] is None or t["idx"] is None:
            continue
        new = stable_id("turn", user_id, t["session_source_id"], t["idx"])
        turn_new[t["id"]] = new
        turn_session[t["id"]] = session_of(t["session_source_id"])
        turns.append({"old": t["id"], "new": new, "session_id": turn_session[t["id"]]})
    pieces = [{"old": p["id"], "new": stable_id("piece", user_id, turn_new[p["turn_id"]],
                                                p["start"], p["end"]),
               "turn_id": turn_new[p["turn_id"]], "session_id": turn_session[p["turn_id"]]}
              for p in parts["pieces"] if p["turn_id"] in turn_new]
    facts = [{"old": f["id"], "new": stable_id("fact", user_id, turn_new[f["turn_id"]],
                                               f["span_start"], f["predicate"], f["value"]),
              "turn_id": turn_new[f["turn_id"]], "session_id": turn_session[f["turn_id"]]}
             for f in parts["facts"] if f["turn_id"] in turn_new]
    entities = [{"old": e["id"], "new": stable_id("entity", user_id, e["norm_name"])}
                for e in parts["entities"] if e["norm_name"] is not None]

    def changed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [r for r in rows if r["old"] != r["new"]]

    plan: dict[str, Any] = {"sessions": changed(sessions), "turns": changed(turns),
                            "pieces": changed(pieces), "facts": changed(facts),
                            "entities": changed(entities)}
    plan["fact_ids"] = {r["old"]: r["new"] for r in plan["facts"]}
    return plan


def migrate(graph: Any) -> dict[str, int]:
    """Re-key every user; returns how many nodes of each label got a new id."""
    totals = {"users": 0, "sessions": 0, "turns": 0, "pieces": 0, "facts": 0, "entities": 0}
    for user_id in admin.all_user_ids(graph):

        def work(tx: Any, user_id: str = user_id) -> dict[str, Any] | None:
            parts = admin.id_parts(tx, user_id)
            plan = _plan(user_id, parts)
            if not any(plan[k] for k in ("sessions", "turns", "pieces", "facts", "entities")):
                return None
            return admin.rekey(tx, user_id, plan)

        with graph.session() as session:
            done = session.execute_write(work)
        if done:
            totals["users"] += 1
            for key in ("sessions", "turns", "pieces", "facts", "entities"):
                totals[key] += done[key]
    return totals
