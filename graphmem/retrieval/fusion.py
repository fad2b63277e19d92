"""Connection-density fusion: the hits' masses added per candidate, then the rerank steps the
configuration lists (retrieval/steps.py), in its order, around one ranking by confidence."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..models import Evidence
from ..places import whole_turn_places
from .config import RetrievalConfig
from .query import QueryAnalysis
from .rows import Detail, Ranked
from .steps import STEPS, NearDuplicates, StepContext
from .tunnels import Hit


@dataclass
class Candidate:
    id: str
    type: str
    density: float = 0.0
    tunnels: set[str] = field(default_factory=set)
    heads: set[str] = field(default_factory=set)
    best_rank: int = 10**6
    direct_score: float = 0.0  # the best tunnel score when hit directly (tie-break only)
    # Mass from being a neighbour turn of heads, per tunnel: its sum is in `density`; the step
    # context_once keeps only each tunnel's largest (context_surplus).
    context: dict[str, list[float]] = field(default_factory=dict)

    @property
    def context_surplus(self) -> float:
        """The neighbour mass beyond each tunnel's largest share of it."""
        return sum(sum(m) - max(m) for m in self.context.values())


@dataclass(frozen=True)
class StepReport:
    """What one rerank step did to one search (graphmem search --explain)."""

    name: str
    kind: str  # score | order
    applied: bool  # its gate held for this question
    dropped: int = 0  # items it removed (validity gate) or folded into others (merge)
    rescored: int = 0  # items whose density or time bonus it changed
    moved: int = 0  # items whose place in the ranking it changed (order steps)

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "kind": self.kind, "applied": self.applied,
                "dropped": self.dropped, "rescored": self.rescored, "moved": self.moved}


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
        m = mass(h, cfg)
        c.density += m
        if h.neighbour:
            c.context.setdefault(h.tunnel, []).append(m)
        c.tunnels.add(h.tunnel)
        c.heads.add(h.head)
        c.best_rank = min(c.best_rank, h.rank)
        if h.direct:
            c.direct_score = max(c.direct_score, h.score)
    return out


def chains_in_pool(candidates: dict[str, Candidate], details: Sequence[Detail],
                   pool: int) -> tuple[list[str], set[str]]:
    """The slots the search itself found a change on, for a question that names none ("am I
    still doing the Sunday runs?"): a superseded version among the `pool` densest candidates
    whose slot also has a current version among the candidates. Returns the predicates of those
    slots and the turns that state only their old versions."""
    facts = [d for d in details if d.type == "fact" and d.slot]  # details: candidates
    if not facts:
        return [], set()
    top = {c.id for c in sorted(candidates.values(), key=lambda c: -c.density)[:pool]}
    old = {d.slot for d in facts if d.id in top and d.status == "superseded"}
    current = [d for d in facts if d.slot in old and d.status == "active"]
    chained = {d.slot for d in current}
    if not chained:
        return [], set()
    current_turns = {d.turn_id for d in current}
    stale_turns = {d.turn_id for d in facts if d.slot in chained
                   and d.status == "superseded" and d.turn_id is not None} - current_turns
    return sorted({d.predicate for d in current if d.predicate}), stale_turns


def _rank(rows: list[Ranked], q: QueryAnalysis) -> list[Ranked]:
    """Confidence = density + time bonus, best first; ties: by the question's direction in time
    (near → far or far → near), then the best head rank, the direct score, the id."""
    direction = q.intent.direction

    def when(r: Ranked) -> float:
        t = r.detail.interval()[0]
        if t is None or direction is None:
            return 0.0
        return -t.timestamp() if direction == "near" else t.timestamp()

    for r in rows:
        r.conf = r.density + r.time_bonus
    rows.sort(key=lambda r: (-round(r.conf, 9), when(r), r.best_rank, -r.direct_score, r.id))
    return rows


def _run(name: str, rows: list[Ranked], ctx: StepContext) -> tuple[list[Ranked], StepReport]:
    step = STEPS[name]
    # The report's figures, for every step of every search: the rows' ids and scores before the
    # step, read once (`detail.id`, not the `id` property: a search runs this ~500 times).
    before_ids = [r.detail.id for r in rows]
    scores = [(r.density, r.time_bonus) for r in rows]
    out = step.run(rows, ctx)
    if out is None:
        return rows, StepReport(name, step.kind, applied=False)
    before = dict(zip(before_ids, scores, strict=True))
    rescored = sum(1 for r in out if not _same(before[r.detail.id], (r.density, r.time_bonus)))
    moved = 0
    if step.kind == "order":
        moved = sum(1 for a, r in zip(before_ids, out, strict=False) if a != r.detail.id)
    return out, StepReport(name, step.kind, applied=True, dropped=len(before_ids) - len(out),
                           rescored=rescored, moved=moved)


def _same(a: tuple[float, float], b: tuple[float, float]) -> bool:
    # Most steps leave most rows as they were: equal tuples need no closeness test.
    return a == b or all(math.isclose(x, y, rel_tol=0.0, abs_tol=1e-12) for x, y in zip(a, b, strict=True))


def fuse(candidates: dict[str, Candidate], details: Sequence[Detail], q: QueryAnalysis,
         cfg: RetrievalConfig, near_duplicates: NearDuplicates | None = None
         ) -> tuple[list[Evidence], list[StepReport]]:
    """The candidates with their details, through the configured rerank steps in order: score
    steps, the ranking by confidence, order steps. Returns the evidence and what each step did."""
    rows, reports = fuse_rows(candidates, details, q, cfg, near_duplicates)
    return [_evidence(r) for r in rows], reports


def fuse_rows(candidates: dict[str, Candidate], details: Sequence[Detail], q: QueryAnalysis,
              cfg: RetrievalConfig, near_duplicates: NearDuplicates | None = None
              ) -> tuple[list[Ranked], list[StepReport]]:
    """`fuse`'s ranking as rows: a search turns only its first k into evidence
    (`evidence_of`) and ranks the turns of them all (`source_turns`)."""
    slots, chain_turns = q.slots, set[str]()
    if q.intent.asks_about_now and not slots and cfg.recency_pool:
        found, chain_turns = chains_in_pool(candidates, details, cfg.recency_pool)
        slots = tuple(found)
    ctx = StepContext(analysis=q, cfg=cfg, slots=slots, chain_turns=frozenset(chain_turns),
                      near_duplicates=near_duplicates)
    rows: list[Ranked] = []
    for d in details:
        c = candidates.get(d.id)
        if c is not None:
            rows.append(Ranked(d, c.density, sorted(c.tunnels), sorted(c.heads), c.best_rank,
                               c.direct_score, d.status, context_surplus=c.context_surplus))
    reports: list[StepReport] = []
    ranked = False
    for name in cfg.steps:
        if STEPS[name].kind == "order" and not ranked:
            rows, ranked = _rank(rows, q), True
        rows, report = _run(name, rows, ctx)
        reports.append(report)
    if not ranked:
        rows = _rank(rows, q)
    return rows, reports


def evidence_of(rows: Sequence[Ranked]) -> list[Evidence]:
    """Fused rows as evidence, in their order."""
    return [_evidence(r) for r in rows]


def source_turns(r: Ranked) -> list[str]:
    """The source turns of a fused row: its own, then those of the near-duplicates folded in."""
    return list(dict.fromkeys([*r.detail.source_turn_ids, *r.merged_turns]))


def _evidence(r: Ranked) -> Evidence:
    d = r.detail
    return Evidence(id=d.id, type=d.type, text=d.text, score=round(r.conf, 6),
                    density=round(r.density, 6), time_bonus=r.time_bonus, tunnels=r.tunnels,
                    heads=r.heads, session_source_id=d.session_source_id,
                    source_turn_ids=source_turns(r),
                    turn_id=d.turn_id, role=d.role, mentioned_at=d.mentioned_at,
                    occurred_start=d.occurred_start, occurred_end=d.occurred_end,
                    valid_from=d.valid_from, valid_until=d.valid_until, status=r.status,
                    merged=r.merged)


def folded_evidence(rows: Sequence[Ranked], k: int, depth: int) -> list[Evidence]:
    """The first k places of the fused rows as evidence, once each piece that repeats its whole
    turn ranked in the first `depth` rows is folded into the turn (`places`), scores capped in
    rank order: `fold_whole_turn_pieces(scores_in_rank_order(evidence_of(rows[:depth])))[:k]`,
    with evidence made for the k places only."""
    rows = rows[:depth]
    caps = _capped([round(r.conf, 6) for r in rows])
    out = []
    for at, folded in whole_turn_places(rows, lambda r: r.detail.type,
                                        lambda r: r.detail.turn_id, lambda r: r.detail.text)[:k]:
        e = _evidence(rows[at])
        e.score = max([caps[at], *(caps[i] for i in folded)])
        e.merged = [*e.merged, *(rows[i].id for i in folded)]
        out.append(e)
    return out


def scores_in_rank_order(evidence: list[Evidence]) -> list[Evidence]:
    """Each item's score made at most the score of the item above it: the steps that reorder
    after the ranking (latest first, current first, coverage) place an item above one of
    higher confidence, and a score that said otherwise would contradict the ranking (a reader
    sorting by score, the answer's evidence pool, would undo the rule)."""
    for e, score in zip(evidence, _capped([e.score for e in evidence]), strict=True):
        e.score = score
    return evidence


def _capped(scores: Sequence[float]) -> list[float]:
    """Each score made at most the one before it."""
    out: list[float] = []
    ceiling = float("inf")
    for s in scores:
        ceiling = min(s, ceiling)
        out.append(ceiling)
    return out
