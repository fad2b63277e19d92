"""Deciding every slot of a user again with this version's currency rules. A slot is decided when
a fact of it is written, removed or marked wrong, by the rules of the version that did it; after
an upgrade that changed the rules, the other slots keep their old decisions (and a question date
after every fact reads them as they are: knowledge.decisions_known_at). `graphmem redecide` brings
them up to date, one write transaction per user, and records the rules on the user
(graphmem.currency_rules: `graphmem doctor` counts the users decided by older ones); the relation
judge's edges stay and still close their facts (currency_apply)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .currency import maintain_currency
from .currency_rules import rules_version
from .responses import Redecided
from .store import currency as store

if TYPE_CHECKING:
    from .db import Graph


def redecide_user(graph: Graph, user_id: str) -> Redecided:
    """Decide every slot of the user again, in one transaction; what changed."""

    def work(tx: Any) -> Redecided:
        store.lock_user(tx, user_id)  # no ingest, append or edit of this user meanwhile
        before = store.slot_decisions(tx, user_id)
        slots = store.user_slots(tx, user_id)
        if slots:
            maintain_currency(tx, user_id, slots)
        store.mark_rules_decided(tx, user_id, rules_version())
        after = store.slot_decisions(tx, user_id)
        changed = sorted(fid for fid, now in after.items() if before.get(fid) != now)
        return Redecided(user_id=user_id, slots=len(slots), changed=changed)

    with graph.session() as s:
        return s.execute_write(work)
