"""Currency queries: a slot's facts, the decisions written back, judged links and candidates."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ..currency_rules import rules_version
from ..predicates import BROUGHT_BY
from ._run import rows, run
from .search import facts_after_read, together
from .time import utc_native

if TYPE_CHECKING:
    from ..db import Graph


@dataclass(frozen=True)
class SlotFactRecord:
    """The fields of a stored fact that currency decides on (`graphmem.currency.SlotFact` adds
    its rules)."""

    id: str
    predicate: str
    value: str | None
    modality: str
    mentioned_at: datetime
    occurred_start: datetime | None = None
    turn_idx: int = 0
    span_start: int = 0  # where in the turn it was said: orders statements within one turn
    retraction: bool = False  # "Actually, I don't live in Denver": the old fact never held
    tied_to: str | None = None  # the fact of the same sentence this one ends with (TIED_TO)
    # When memory wrote the fact's session: orders two sessions stamped with the same time (the
    # one heard later is the later statement), never facts said at different times.
    heard_at: datetime | None = None
    # Read in passing (a model state that does not compete, FactCandidate.competes): a later
    # fact of the slot ends it (no edge is drawn), but it ends nothing itself.
    mention: bool = False
    # The end of the period its time phrase names ("this year": the year's end), if any: a
    # period that holds the moment it was said orders the fact at that moment (SlotFact.effective).
    occurred_end: datetime | None = None
    # Made by the learned model (`extracted_by` "model:…"), or a state the registry brings from
    # one of its events (`predicates.BROUGHT_BY`); not by a rule or an LLM.
    by_model: bool = False
    # The session that told it: a plan told again in an outcome's session says the thing is
    # still ahead (`currency.decide_plan_slot`).
    session_id: str | None = None
    # Where its statement (support) ends in the turn: orders two facts read from one clause.
    span_end: int = 0


R = TypeVar("R", bound=SlotFactRecord)


class FavoriteValue(NamedTuple):
    """A favourite slot (of any subject) and one value stated for it."""

    slot: str
    value: str | None


@dataclass(frozen=True)
class HeldFact:
    """An active asserted fact, as a `left` fact of the same subject may end it."""

    id: str
    predicate: str
    value: str | None
    subject: str | None
    kind: str
    mentioned_at: datetime | None


@dataclass(frozen=True)
class Anchor:
    """A fact the user holds that a later correction may replace (`graphmem.correcting`)."""

    id: str
    predicate: str
    value: str | None
    subject: str
    session_id: str
    turn_idx: int
    mentioned_at: datetime


def user_time_zone(tx: Any, user_id: str) -> str | None:
    """The user's IANA time zone name (None: UTC), inside the caller's transaction."""
    found = rows(tx, "user_time_zone", user_id=user_id)
    return found[0]["time_zone"] if found else None


def correction_anchors(tx: Any, user_id: str, at: datetime, limit: int = 200) -> list[Anchor]:
    """The user's held asserted facts said no later than `at`, latest first, inside the caller's
    transaction (so the facts of the session being written are among them)."""
    out = []
    for r in rows(tx, "correction_anchors", user_id=user_id, at=at, limit=limit):
        mentioned_at = utc_native(r["mentioned_at"])
        assert mentioned_at is not None  # every stored fact has one
        out.append(Anchor(id=r["id"], predicate=r["predicate"], value=r["value"],
                          subject=r["subject"] or "user", session_id=r["session_id"] or "",
                          turn_idx=r["turn_idx"] or 0, mentioned_at=mentioned_at))
    return out


def _by_slot(found: list[dict[str, Any]], kind: type[R]) -> dict[str, list[R]]:
    by_slot: dict[str, list[R]] = {}
    for row in found:
        mentioned_at = utc_native(row["mentioned_at"])
        assert mentioned_at is not None  # every stored fact has one
        by_slot.setdefault(row["slot"], []).append(kind(
            id=row["id"], predicate=row["predicate"], value=row["value"],
            modality=row["modality"], mentioned_at=mentioned_at,
            occurred_start=utc_native(row["occurred_start"]),
            occurred_end=utc_native(row["occurred_end"]), turn_idx=row["turn_idx"] or 0,
            span_start=row["span_start"] or 0, span_end=row["span_end"] or 0,
            retraction=bool(row["retraction"]),
            tied_to=row["tied_to"], heard_at=utc_native(row["heard_at"]),
            mention=bool(row["mention"]), by_model=row["by_model"],
            session_id=row["session_id"]))
    return by_slot


def slot_facts(tx: Any, user_id: str, slots: list[str], kind: type[R],
               anchors: list[str] | None = None) -> dict[str, list[R]]:
    """Every fact of these slots, by slot, as `kind` records; `tied_to` names a fact of an
    `anchors` predicate said in the same piece."""
    return _by_slot(rows(tx, "currency_slot_facts", user_id=user_id, slots=slots,
                         anchors=anchors or [], known_at=None, brought_by=BROUGHT_BY), kind)


def slot_facts_known_at(graph: Graph, user_id: str, slots: list[str], kind: type[R],
                        anchors: list[str], known_at: datetime) -> dict[str, list[R]]:
    """The facts of these slots mentioned by `known_at` (a question date), by slot."""
    return _by_slot(graph.read("currency_slot_facts", user_id=user_id, slots=slots,
                               anchors=anchors, known_at=known_at, brought_by=BROUGHT_BY), kind)


def favorite_slots(tx: Any, user_id: str) -> list[FavoriteValue]:
    """The user's favourite slots (of any subject) with each value stated for them."""
    return [FavoriteValue(r["slot"], r["value"])
            for r in rows(tx, "currency_favorite_slots", user_id=user_id, known_at=None)]


def facts_mentioned_after(graph: Graph, user_id: str, known_at: datetime) -> bool:
    """Whether any fact of the user was mentioned after `known_at` (a question date): the read a
    search runs inside its tunnels' query, run alone."""
    read = facts_after_read(user_id, known_at)
    return bool(together(graph, {"later": read})["later"])


def judged_closings_known_at(graph: Graph, user_id: str, ids: list[str],
                             known_at: datetime) -> dict[str, datetime]:
    """Fact id → the earliest time an LLM-decided edge from a fact mentioned by `known_at`
    closes it (currency_overlay as the question date knew it)."""
    if not ids:
        return {}
    out = {}
    for r in graph.read("currency_judged_closings", user_id=user_id, ids=ids, known_at=known_at):
        closed = utc_native(r["closed"])
        if closed is not None:
            out[r["id"]] = closed
    return out


def lock_user(tx: Any, user_id: str) -> None:
    """Take the user node's write lock for the rest of the transaction (user_write_lock), for a
    write that decides slots with this version's rules."""
    run(tx, "user_write_lock", user_id=user_id, rules=rules_version())


def mark_rules_decided(tx: Any, user_id: str, rules: str) -> None:
    """Record that every slot of the user was just decided by these rules (graphmem redecide)."""
    run(tx, "user_rules_decided", user_id=user_id, rules=rules)


def user_slots(tx: Any, user_id: str) -> list[str]:
    """Every slot of the user's facts, sorted."""
    found = rows(tx, "user_slots", user_id=user_id)
    return sorted(found[0]["slots"]) if found else []


def slot_decisions(tx: Any, user_id: str) -> dict[str, tuple[Any, ...]]:
    """Fact id → (status, valid_from, valid_until, quantity) of each of the user's slot facts."""
    return {r["id"]: (r["status"], r["valid_from"], r["valid_until"], r["quantity"])
            for r in rows(tx, "slot_decisions", user_id=user_id)}


def favorite_slots_known_at(graph: Graph, user_id: str, known_at: datetime) -> list[FavoriteValue]:
    """The favourite slots and values mentioned by `known_at` (a question date)."""
    return [FavoriteValue(r["slot"], r["value"]) for r in graph.read(
        "currency_favorite_slots", user_id=user_id, known_at=known_at)]


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
               subjects: list[str]) -> list[HeldFact]:
    """Active asserted facts of these predicates and subjects, inside the caller's transaction."""
    return [HeldFact(id=r["id"], predicate=r["predicate"], value=r["value"], subject=r["subject"],
                     kind=r["kind"], mentioned_at=utc_native(r["mentioned_at"]))
            for r in rows(tx, "currency_held_facts", user_id=user_id, predicates=predicates,
                          subjects=subjects)]


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
