"""Currency queries: a slot's facts, the decisions written back, judged links and candidates."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from ._run import rows, run

if TYPE_CHECKING:
    from ..db import Graph


def slot_facts(tx: Any, user_id: str, slots: list[str],
               anchors: list[str] | None = None) -> list[dict[str, Any]]:
    """Every fact of these slots (the fields currency decides on); `tied_to` names a fact of an
    `anchors` predicate said in the same piece."""
    return rows(tx, "currency_slot_facts", user_id=user_id, slots=slots, anchors=anchors or [],
                known_at=None)


def slot_facts_known_at(graph: Graph, user_id: str, slots: list[str], anchors: list[str],
                        known_at: datetime) -> list[dict[str, Any]]:
    """The facts of these slots mentioned by `known_at` (a question date)."""
    return graph.read("currency_slot_facts", user_id=user_id, slots=slots, anchors=anchors,
                      known_at=known_at)


def favorite_slots(tx: Any, user_id: str) -> list[dict[str, Any]]:
    """The user's favourite slots (of any subject) with each value stated for them."""
    return rows(tx, "currency_favorite_slots", user_id=user_id, known_at=None)


def favorite_slots_known_at(graph: Graph, user_id: str,
                            known_at: datetime) -> list[dict[str, Any]]:
    """The favourite slots and values mentioned by `known_at` (a question date)."""
    return graph.read("currency_favorite_slots", user_id=user_id, known_at=known_at)


def stance_family(tx: Any, user_id: str, pairs: list[dict[str, str]]) -> list[str]:
    """Stance slots of the user under each `prefix` ending in the word `head`."""
    return [r["slot"] for r in rows(tx, "currency_stance_family", user_id=user_id, pairs=pairs,
                                    known_at=None)]


def stance_family_known_at(graph: Graph, user_id: str, pairs: list[dict[str, str]],
                           known_at: datetime) -> list[str]:
    """The same, among facts mentioned by `known_at` (a question date)."""
    return [r["slot"] for r in graph.read("currency_stance_family", user_id=user_id,
                                          pairs=pairs, known_at=known_at)]


def plan_family(tx: Any, user_id: str, slots: list[str]) -> list[str]:
    """Plan slots of the user whose thing extends one of `slots`' things by more words."""
    return [r["slot"] for r in rows(tx, "currency_plan_family", user_id=user_id, slots=slots,
                                    known_at=None)]


def plan_family_known_at(graph: Graph, user_id: str, slots: list[str],
                         known_at: datetime) -> list[str]:
    """The same, among facts mentioned by `known_at` (a question date)."""
    return [r["slot"] for r in graph.read("currency_plan_family", user_id=user_id,
                                          slots=slots, known_at=known_at)]


def held_facts(tx: Any, user_id: str, predicates: list[str],
               subjects: list[str]) -> list[dict[str, Any]]:
    """Active asserted facts of these predicates and subjects, inside the caller's transaction."""
    return rows(tx, "currency_held_facts", user_id=user_id, predicates=predicates,
                subjects=subjects)


def apply_decisions(tx: Any, user_id: str, decided_by: str, facts: list[dict[str, Any]]) -> None:
    run(tx, "currency_apply", user_id=user_id, decided_by=decided_by, facts=facts)


def link(tx: Any, user_id: str, decided_by: str, links: list[dict[str, Any]]) -> None:
    """SUPERSEDES / UPDATES / CONTRADICTS edges from newer to older facts."""
    if links:
        run(tx, "currency_link", user_id=user_id, decided_by=decided_by, links=links)


def overlay(tx: Any, user_id: str, ids: list[str]) -> None:
    """Re-derive status and validity of facts that judged links point at."""
    run(tx, "currency_overlay", user_id=user_id, ids=ids)


def candidates(graph: Graph, user_id: str, facts: list[dict[str, Any]], *, modalities: list[str],
               min_cosine: float, per_way: int, limit: int) -> list[dict[str, Any]]:
    """Stored facts that might compete with each new fact, for the relation judge."""
    return graph.read("currency_candidates", user_id=user_id, facts=facts, modalities=modalities,
                      min_cosine=min_cosine, per_way=per_way, limit=limit)


def rule_edges(graph: Graph, user_id: str, decided_by: str) -> list[dict[str, Any]]:
    """The SUPERSEDES / UPDATES edges `decided_by` drew for this user, with both facts' source
    turns and sessions."""
    return graph.read("currency_rule_edges", user_id=user_id, decided_by=decided_by)
