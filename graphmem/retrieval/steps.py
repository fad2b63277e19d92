"""The rerank steps of fusion, one small function each, registered by the names that
`RetrievalConfig.steps` lists (retrieval/config.py declares them and their order).

A step takes the candidate rows and what every step may read (StepContext: the question's
analysis, the configuration, the slots asked) and returns the rows it leaves, or None when its
gate does not hold for this question (then the rows are as they were). Score steps change an
item's density or time bonus, or drop it; order steps move items within the ranking by
confidence that fusion makes between the two kinds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..store.search import SlotState
from .config import ORDER_STEPS, RetrievalConfig
from .coverage import spread
from .query import QueryAnalysis, TemporalIntent
from .rows import Detail, Ranked

NearDuplicates = Callable[[list[str]], set[frozenset[str]]]


@dataclass(frozen=True)
class StepContext:
    """What a step may read besides the rows."""

    analysis: QueryAnalysis
    cfg: RetrievalConfig
    # The slots asked about: the question's, or (a present-tense question that names none) those
    # the search itself found a change on (fusion.chains_in_pool), with the turns that state
    # only their old versions.
    slots: tuple[str, ...] = ()
    chain_turns: frozenset[str] = frozenset()
    # Pairs among these ids whose embeddings are near-duplicates (cosine ≥ θ), asked of the
    # database by the merge step; None: no merge.
    near_duplicates: NearDuplicates | None = None


StepFunction = Callable[[list[Ranked], StepContext], list[Ranked] | None]


@dataclass(frozen=True)
class RerankStep:
    name: str
    run: StepFunction
    what: str  # one line: what it does, for --explain and the docs

    @property
    def kind(self) -> str:
        return "order" if self.name in ORDER_STEPS else "score"


# --- helpers ------------------------------------------------------------------------------------


def _asked(predicate: str | None, slots: Sequence[str]) -> bool:
    if not predicate:
        return False
    return any(predicate == s or predicate.startswith(s) for s in slots)


def passes_validity_gate(d: Detail, intent: TemporalIntent) -> bool:
    """The only hard filter: stale facts for present-tense questions, and facts whose known
    validity cannot overlap the window."""
    if d.type != "fact":
        return True
    if intent.asks_about_now and d.status in ("superseded", "invalid"):
        return False
    if d.status == "invalid":
        return False
    if intent.window is not None and d.valid_from is not None:
        until = d.valid_until
        if d.valid_from >= intent.window[1] or (until is not None and until <= intent.window[0]):
            return False
    return True


def stale_on_asked_slot(slot_states: Sequence[SlotState] | None, slots: Sequence[str]) -> bool:
    """Does the turn state a no-longer-current value of a slot the question asks about, and no
    current one ("I live in Denver" for "where do I live now?", after a move)?"""
    if not slot_states or not slots:
        return False
    asked = [s.status for s in slot_states if _asked(s.predicate, slots)]
    return bool(asked) and all(st != "active" for st in asked)


def merge_near_duplicates(ordered: list[Ranked], pairs: set[frozenset[str]]) -> list[Ranked]:
    """Greedy in rank order: an item that is a near-duplicate (cosine ≥ θ, computed in the
    database) of a kept item folds into it: its density adds to the kept one and its id and
    turns are remembered in `merged`."""
    near: dict[str, set[str]] = {}  # each item's near-duplicates: only they are looked for
    for pair in pairs:
        for a in pair:
            near.setdefault(a, set()).update(pair - {a})
    kept: list[Ranked] = []
    for row in ordered:
        close = near.get(row.id)
        target = next((k for k in kept if k.id in close), None) if close else None
        if target is not None:
            target.density += row.density
            target.merged.append(row.id)
            target.merged_turns.extend(row.detail.source_turn_ids)
            continue
        kept.append(row)
    return kept


def _elsewhere(r: Ranked, slots: Sequence[str]) -> bool:
    """Is the item known to be about other slots than those asked (a fact of another
    predicate, a turn whose slot facts are all of others)?"""
    if r.type == "fact":
        return not _asked(r.detail.predicate, slots)
    states = r.detail.slot_states or ()
    return bool(states) and not any(_asked(st.predicate, slots) for st in states)


def latest_first(rows: list[Ranked], band: float, pool: int,
                 slots: Sequence[str] = ()) -> list[Ranked]:
    """Among the first `pool` items a tunnel hit directly whose confidence is at least `band` ×
    the best one's, the one said latest comes first (two turns on one topic: the later one is
    what is true now, whether or not a fact was extracted from it); same-day items keep their
    order. With `slots`, a later item known to be about something else ("my favourite
    restaurant is …" for "where do I live now?") does not jump ahead; one that says nothing
    extracted may."""
    if not rows:
        return rows
    floor = band * rows[0].conf
    chosen = [r for r in rows[:pool] if r.conf >= floor and r.direct_score > 0
              and r.detail.mentioned_at is not None]
    if slots:
        chosen = [r for r in chosen if not _elsewhere(r, slots)]
    if len(chosen) < 2:
        return rows
    ids = {r.id for r in chosen}
    order = {r.id: i for i, r in enumerate(rows)}

    def said(r: Ranked) -> int:
        at = r.detail.mentioned_at
        return at.date().toordinal() if at is not None else 0

    chosen.sort(key=lambda r: (-said(r), order[r.id]))
    return chosen + [r for r in rows if r.id not in ids]


def current_first(rows: list[Ranked], slots: Sequence[str]) -> list[Ranked]:
    """Every turn or piece stale on an asked slot moves below the last piece of evidence for a
    current value (an active fact of the slot, its source turn, or a turn stating an active
    value of it), keeping the order otherwise."""
    current_turns = {r.detail.turn_id for r in rows if r.type == "fact"
                     and r.status == "active" and _asked(r.detail.predicate, slots)}

    def current(r: Ranked) -> bool:
        if r.type == "fact":
            return r.status == "active" and _asked(r.detail.predicate, slots)
        return r.detail.turn_id in current_turns or any(
            s.status == "active" and _asked(s.predicate, slots)
            for s in r.detail.slot_states or ())

    last = max((i for i, r in enumerate(rows) if current(r)), default=-1)
    if last < 0:
        return rows
    moved = [r for r in rows[:last] if r.status == "stale" and not current(r)]
    if not moved:
        return rows
    floor = rows[last].conf
    for r in moved:
        r.conf = min(r.conf, floor)
    ids = {r.id for r in moved}
    return [r for r in rows[:last + 1] if r.id not in ids] + moved + rows[last + 1:]


# --- the steps ----------------------------------------------------------------------------------


def context_once(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    if not ctx.analysis.coverage:
        return None  # one occasion: its neighbours' context is what answers it (LoCoMo)
    changed = False
    for r in rows:
        if r.context_surplus > 0:
            # Next to several matched turns of one stretch of talk is one sign, not several.
            r.density = max(0.0, r.density - r.context_surplus)
            changed = True
    return rows if changed else None


def validity_gate(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    intent = ctx.analysis.intent
    return [r for r in rows if passes_validity_gate(r.detail, intent)]


def stale(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    if not ctx.analysis.intent.asks_about_now:
        return None
    for r in rows:
        d = r.detail
        if d.type == "fact":
            continue
        all_stale = bool(d.slot_facts) and d.slot_facts == d.stale_facts
        if all_stale or d.turn_id in ctx.chain_turns or stale_on_asked_slot(d.slot_states,
                                                                            ctx.slots):
            # It says only what is no longer true (of what is asked).
            r.density *= ctx.cfg.stale_penalty
            r.status = "stale"
    return rows


def other_speaker(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    speaker = ctx.analysis.speaker
    if speaker is None:
        return None
    for r in rows:
        if r.detail.speaker not in (None, speaker):
            r.density *= ctx.cfg.other_speaker_penalty  # the question is about the other one
    return rows


def assistant(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    if ctx.analysis.to_assistant:
        return None
    for r in rows:
        if r.detail.role == "assistant":
            r.density *= ctx.cfg.assistant_penalty  # the user's life is in the user's words
    return rows


def merge(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    rows.sort(key=lambda r: (-r.density, r.best_rank, -r.direct_score, r.id))
    cfg = ctx.cfg
    if ctx.near_duplicates is None or cfg.theta >= 1.0:
        return None
    pairs = ctx.near_duplicates([r.id for r in rows[: cfg.merge_top] if r.type != "piece"])
    return merge_near_duplicates(rows, pairs)


def overlaps(a: tuple[datetime | None, datetime | None], w: tuple[datetime, datetime]) -> bool:
    start, end = a
    return start is not None and end is not None and start < w[1] and w[0] < end


def time_bonus(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    window = ctx.analysis.intent.window
    if window is None:
        return None
    for r in rows:
        r.time_bonus = ctx.cfg.beta if overlaps(r.detail.interval(), window) else 0.0
    return rows


def latest_first_step(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    intent, cfg = ctx.analysis.intent, ctx.cfg
    open_now = intent.window is None or intent.now_in_window  # "this year" reaches now
    if not (cfg.recency_band and open_now and (intent.direction == "near" or (
            intent.about_present and intent.direction is None))):
        return None
    # "do I still …", "what's my favourite book?", "when is Priya's wedding?"
    return latest_first(rows, cfg.recency_band, cfg.recency_pool, ctx.slots)


def current_first_step(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    if not (ctx.analysis.intent.asks_about_now and ctx.slots):
        return None
    return current_first(rows, ctx.slots)


def coverage(rows: list[Ranked], ctx: StepContext) -> list[Ranked] | None:
    if not ctx.analysis.coverage:
        return None
    return spread(rows, score=lambda r: round(r.conf, 6),
                  session=lambda r: r.detail.session_source_id, decay=ctx.cfg.coverage_decay)


STEPS: dict[str, RerankStep] = {s.name: s for s in (
    RerankStep("context_once", context_once,
               "questions over several occasions: a turn's mass from being next to matched "
               "turns counts once per tunnel (its largest), not once per neighbour"),
    RerankStep("validity_gate", validity_gate,
               "drops facts that no longer hold (present tense) or cannot overlap the window W"),
    RerankStep("stale", stale,
               "present tense: a turn that states only values no longer current (of the slot "
               "asked) × stale_penalty"),
    RerankStep("other_speaker", other_speaker,
               "a question naming one speaker: the other speaker's words × other_speaker_penalty"),
    RerankStep("assistant", assistant,
               "a question not about what the assistant said: its turns × assistant_penalty"),
    RerankStep("merge", merge,
               "near-duplicates (cosine ≥ θ) fold into the better one, densities added"),
    RerankStep("time_bonus", time_bonus, "items overlapping the window W earn β"),
    RerankStep("latest_first", latest_first_step,
               "questions about now or lately: of the direct hits near the top, the latest "
               "said first"),
    RerankStep("current_first", current_first_step,
               "present tense about a slot: turns stale on it go below the current evidence"),
    RerankStep("coverage", coverage,
               "questions over several occasions: each further item of a session weighs less"),
)}
