"""Validity gate, connection-density fusion, near-duplicate merge and the time bonus."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..models import Evidence
from ..store.search import SlotState
from .config import RetrievalConfig
from .query import TemporalIntent
from .tunnels import Hit

_DAY = timedelta(days=1)


@dataclass
class Candidate:
    id: str
    type: str
    density: float = 0.0
    tunnels: set[str] = field(default_factory=set)
    heads: set[str] = field(default_factory=set)
    best_rank: int = 10**6
    direct_score: float = 0.0  # the best tunnel score when hit directly (tie-break only)


def mass(hit: Hit, cfg: RetrievalConfig) -> float:
    strong = hit.tunnel in cfg.strong_tunnels
    m = cfg.masses
    if hit.direct:
        base = m.strong_direct if strong else m.weak_direct
    else:
        base = m.strong_derived if strong else m.weak_derived
    if cfg.rank_decay:
        base *= max(0.0, 1.0 - cfg.rank_decay * hit.rank / max(1, cfg.heads))
    return base


def accumulate(hits: list[Hit], cfg: RetrievalConfig) -> dict[str, Candidate]:
    """Each distinct (tunnel, head, hit) awards its mass once; masses add across heads/tunnels."""
    seen: set[tuple[str, str, str]] = set()
    out: dict[str, Candidate] = {}
    for h in hits:
        key = (h.tunnel, h.head, h.id)
        if key in seen:
            continue
        seen.add(key)
        c = out.setdefault(h.id, Candidate(h.id, h.type))
        c.density += mass(h, cfg)
        c.tunnels.add(h.tunnel)
        c.heads.add(h.head)
        c.best_rank = min(c.best_rank, h.rank)
        if h.direct:
            c.direct_score = max(c.direct_score, h.score)
    return out


def item_interval(row: dict[str, Any]) -> tuple[datetime | None, datetime | None]:
    """When the item happened: a fact's occurrence, else the day it was mentioned."""
    start, end = row.get("occurred_start"), row.get("occurred_end")
    if start is not None:
        return start, end or start + _DAY
    mentioned = row.get("mentioned_at")
    return (mentioned, mentioned + _DAY) if mentioned is not None else (None, None)


def overlaps(a: tuple[datetime | None, datetime | None], w: tuple[datetime, datetime]) -> bool:
    return a[0] is not None and a[1] is not None and a[0] < w[1] and w[0] < a[1]


def passes_validity_gate(row: dict[str, Any], intent: TemporalIntent) -> bool:
    """The only hard filter: stale facts for present-tense questions, and facts whose known
    validity cannot overlap the window."""
    if row["type"] != "fact":
        return True
    if intent.about_present and intent.window is None and row.get("status") in ("superseded",
                                                                                "invalid"):
        return False
    if row.get("status") == "invalid":
        return False
    if intent.window is not None and row.get("valid_from") is not None:
        until = row.get("valid_until")
        if row["valid_from"] >= intent.window[1] or (until is not None and until <= intent.window[0]):
            return False
    return True


def merge_near_duplicates(ordered: list[dict[str, Any]],
                          pairs: set[frozenset[str]]) -> list[dict[str, Any]]:
    """Greedy in rank order: an item that is a near-duplicate (cosine ≥ θ, computed in the
    database) of a kept item folds into it: its density adds to the kept one and its id and
    turns are remembered in `merged`."""
    kept: list[dict[str, Any]] = []
    for row in ordered:
        target = next((k for k in kept if frozenset((k["id"], row["id"])) in pairs), None) \
            if pairs else None
        if target is not None:
            target["density"] += row["density"]
            target["merged"].append(row["id"])
            target["merged_turns"].extend(row["source_turn_ids"])
            continue
        row["merged"], row["merged_turns"] = [], []
        kept.append(row)
    return kept


def stale_on_asked_slot(slot_states: Sequence[SlotState] | None, slots: Sequence[str]) -> bool:
    """Does the turn state a no-longer-current value of a slot the question asks about, and no
    current one ("I live in Denver" for "where do I live now?", after a move)?"""
    if not slot_states or not slots:
        return False
    asked = [(s[0], s[1]) for s in slot_states if any(s[0] == p or s[0].startswith(p)
                                                       for p in slots)]
    return bool(asked) and all(st != "active" for _p, st in asked)


def _asked(predicate: str | None, slots: Sequence[str]) -> bool:
    return bool(predicate) and any(predicate == s or predicate.startswith(s) for s in slots)


def current_first(rows: list[dict[str, Any]], slots: Sequence[str]) -> list[dict[str, Any]]:
    """For a present-tense question about a slot: every turn or piece stale on that slot moves
    below the last piece of evidence for a current value (an active fact of the slot, its source
    turn, or a turn stating an active value of it), keeping the order otherwise."""
    current_turns = {r["turn_id"] for r in rows if r["type"] == "fact"
                     and r.get("status") == "active" and _asked(r.get("predicate"), slots)}

    def current(r: dict[str, Any]) -> bool:
        if r["type"] == "fact":
            return r.get("status") == "active" and _asked(r.get("predicate"), slots)
        return r.get("turn_id") in current_turns or any(
            s[1] == "active" and _asked(s[0], slots) for s in r.get("slot_states") or [])

    last = max((i for i, r in enumerate(rows) if current(r)), default=-1)
    if last < 0:
        return rows
    moved = [r for r in rows[:last] if r.get("status") == "stale" and not current(r)]
    if not moved:
        return rows
    floor = rows[last]["conf"]
    for r in moved:
        r["conf"] = min(r["conf"], floor)
    ids = {r["id"] for r in moved}
    return [r for r in rows[:last + 1] if r["id"] not in ids] + moved + rows[last + 1:]


def _elsewhere(r: dict[str, Any], slots: Sequence[str]) -> bool:
    """Is the item known to be about other slots than those asked (a fact of another
    predicate, a turn whose slot facts are all of others)?"""
    if r.get("type") == "fact":
        return not _asked(r.get("predicate"), slots)
    states = r.get("slot_states") or []
    return bool(states) and not any(_asked(st[0], slots) for st in states)


def latest_first(rows: list[dict[str, Any]], cfg: RetrievalConfig,
                 slots: Sequence[str] = ()) -> list[dict[str, Any]]:
    """For a question that asks what holds now or lately ("do I still …", "what's my current
    …", a present-tense question about a slot such as "what's my favourite book?"): among the
    items a tunnel hit directly whose confidence is within `recency_band` of the best, the one
    said latest comes first (two turns on one topic: the later one is what is true now, whether
    or not a fact was extracted from it); same-day items keep their order."""
    if not rows:
        return rows
    floor = cfg.recency_band * rows[0]["conf"]
    pool = rows[: cfg.recency_pool]
    band = [r for r in pool if r["conf"] >= floor and r["direct_score"] > 0
            and r.get("mentioned_at") is not None]
    if slots:
        # A later item known to be about something else ("my favourite restaurant is …" for
        # "where do I live now?") does not jump ahead; one that says nothing extracted may.
        band = [r for r in band if not _elsewhere(r, slots)]
    if len(band) < 2:
        return rows
    ids = {r["id"] for r in band}
    order = {r["id"]: i for i, r in enumerate(rows)}
    band.sort(key=lambda r: (-r["mentioned_at"].date().toordinal(), order[r["id"]]))
    return band + [r for r in rows if r["id"] not in ids]


def chains_in_pool(candidates: dict[str, Candidate], details: list[dict[str, Any]],
                   pool: int) -> tuple[list[str], set[str]]:
    """The slots the search itself found a change on, for a question that names none ("am I
    still doing the Sunday runs?"): a superseded version among the `pool` densest candidates
    whose slot also has a current version among the candidates. Returns the predicates of those
    slots and the turns that state only their old versions."""
    facts = [d for d in details if d["type"] == "fact" and d.get("slot")]  # details: candidates
    if not facts:
        return [], set()
    top = {c.id for c in sorted(candidates.values(), key=lambda c: -c.density)[:pool]}
    old = {d["slot"] for d in facts if d["id"] in top and d.get("status") == "superseded"}
    current = [d for d in facts if d["slot"] in old and d.get("status") == "active"]
    chained = {d["slot"] for d in current}
    if not chained:
        return [], set()
    current_turns = {d["turn_id"] for d in current}
    stale_turns = {d["turn_id"] for d in facts if d["slot"] in chained
                   and d.get("status") == "superseded"} - current_turns
    return sorted({d["predicate"] for d in current}), stale_turns


def fuse(candidates: dict[str, Candidate], details: list[dict[str, Any]], intent: TemporalIntent,
         cfg: RetrievalConfig,
         near_duplicates: Callable[[list[str]], set[frozenset[str]]] | None = None,
         slots: Sequence[str] = (), speaker: str | None = None,
         to_assistant: bool = True) -> list[Evidence]:
    present = intent.about_present and intent.window is None
    chain_turns: set[str] = set()
    if present and not slots and cfg.recency_pool:
        slots, chain_turns = chains_in_pool(candidates, details, cfg.recency_pool)
    rows = []
    for d in details:
        d = dict(d)  # the details hold Python values only (store.search.evidence_details)
        c = candidates.get(d["id"])
        if c is None or (cfg.validity_gate and not passes_validity_gate(d, intent)):
            continue
        d.update(density=c.density, tunnels=sorted(c.tunnels), heads=sorted(c.heads),
                 best_rank=c.best_rank, direct_score=c.direct_score)
        all_stale = bool(d.get("slot_facts")) and d["slot_facts"] == d["stale_facts"]
        if (d["type"] != "fact" and present
                and (all_stale or d.get("turn_id") in chain_turns
                     or stale_on_asked_slot(d.get("slot_states"), slots))):
            # It says only what is no longer true (of what is asked).
            d["density"] *= cfg.stale_penalty
            d["status"] = "stale"
        if speaker is not None and d.get("speaker") not in (None, speaker):
            d["density"] *= cfg.other_speaker_penalty  # the question is about the other one
        if not to_assistant and d.get("role") == "assistant":
            d["density"] *= cfg.assistant_penalty  # the user's life is in the user's words
        rows.append(d)
    rows.sort(key=lambda r: (-r["density"], r["best_rank"], -r["direct_score"], r["id"]))
    pairs: set[frozenset[str]] = set()
    if near_duplicates is not None and cfg.theta < 1.0:
        pairs = near_duplicates([r["id"] for r in rows[: cfg.merge_top] if r["type"] != "piece"])
    rows = merge_near_duplicates(rows, pairs)
    for r in rows:
        r["time_bonus"] = (cfg.beta if intent.window is not None
                           and overlaps(item_interval(r), intent.window) else 0.0)
        r["conf"] = r["density"] + r["time_bonus"]

    def when(r: dict[str, Any]) -> float:
        t = item_interval(r)[0]
        if t is None or intent.direction is None:
            return 0.0
        return -t.timestamp() if intent.direction == "near" else t.timestamp()

    rows.sort(key=lambda r: (-round(r["conf"], 9), when(r), r["best_rank"], -r["direct_score"],
                             r["id"]))
    open_now = intent.window is None or intent.now_in_window  # "this year" reaches now
    if cfg.recency_band and open_now and (intent.direction == "near" or (
            intent.about_present and intent.direction is None)):
        # "do I still …", "what's my favourite book?", "when is Priya's wedding?"
        rows = latest_first(rows, cfg, slots)
    if present and slots:
        rows = current_first(rows, slots)
    return [
        Evidence(id=r["id"], type=r["type"], text=r["text"], score=round(r["conf"], 6),
                 density=round(r["density"], 6), time_bonus=r["time_bonus"], tunnels=r["tunnels"],
                 heads=r["heads"], session_source_id=r["session_source_id"],
                 source_turn_ids=list(dict.fromkeys(r["source_turn_ids"] + r["merged_turns"])),
                 turn_id=r.get("turn_id"), role=r["role"], mentioned_at=r["mentioned_at"],
                 occurred_start=r["occurred_start"], occurred_end=r["occurred_end"],
                 valid_from=r["valid_from"], valid_until=r["valid_until"], status=r["status"],
                 merged=r["merged"])
        for r in rows
    ]


def scores_in_rank_order(evidence: list[Evidence]) -> list[Evidence]:
    """Each item's score made at most the score of the item above it: the rules that reorder
    after fusion (latest first, current first, coverage) place an item above one of higher
    confidence, and a score that said otherwise would contradict the ranking (a reader sorting
    by score, the answer's evidence pool, would undo the rule)."""
    ceiling = float("inf")
    for e in evidence:
        e.score = ceiling = min(e.score, ceiling)
    return evidence
