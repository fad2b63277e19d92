"""Every retrieval knob in one configuration object, with named presets."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

TUNNELS = ("graph", "bm25", "dense")

# The rerank steps fusion runs, declared here and implemented one function each in
# retrieval/steps.py. Score steps change an item's density or time bonus (or drop it); then the
# items are ranked by confidence (density + time bonus); order steps move items within that
# ranking. A configuration lists the steps it runs, score steps before order steps, in the order
# they run: a step left out is off.
SCORE_STEPS = ("context_once", "validity_gate", "stale", "other_speaker", "assistant", "merge",
               "time_bonus")
ORDER_STEPS = ("latest_first", "current_first", "coverage")
ALL_STEPS = SCORE_STEPS + ORDER_STEPS
# Second passes: searches seeded by what the first pass found, run after the first pass's fusion
# and fused with it (retrieval/feedback.py). A configuration lists the passes it runs.
PASSES = ("feedback",)
# Switches of a config turned on or off by name like a step ("fused-with-mention_heads").
SWITCHES = ("mention_heads", "deep_heads", "speaker_heads")  # each a bool field of RetrievalConfig
# Off by default: coverage (docs/bench/2026-12-01-whole-turns-coverage.md); context_once (issue
# 34, docs/bench/2026-12-06-spread-evidence-steps.md), which `fused` runs (with deep_heads).
OFF_BY_DEFAULT = ("coverage", "context_once")
DEFAULT_STEPS = tuple(s for s in ALL_STEPS if s not in OFF_BY_DEFAULT)


@dataclass(frozen=True)
class Masses:
    """Connection-density masses awarded per (tunnel, head, hit)."""

    strong_direct: float = 0.4
    weak_direct: float = 0.2
    strong_derived: float = 0.1
    weak_derived: float = 0.05


def _known(*steps: str) -> None:
    for s in steps:
        if s not in ALL_STEPS:
            raise ValueError(f"unknown rerank step {s!r}; the steps are {', '.join(ALL_STEPS)}")


@dataclass(frozen=True)
class RetrievalConfig:
    name: str = "fused"
    tunnels: tuple[str, ...] = TUNNELS
    strong_tunnels: tuple[str, ...] = ("graph", "bm25")  # the others count as weak
    masses: Masses = field(default_factory=Masses)
    heads: int = 10  # H: search heads per tunnel
    rank_decay: float = 0.0  # mass × (1 − rank_decay·rank/H): 0 = every head counts alike
    per_head: int = 10  # K: hits kept per head after the per-head rerank
    turn_window: int = 2  # a turn hit brings turns ±window of the same session
    beta: float = 0.3  # time bonus for items overlapping the temporal window W
    theta: float = 0.8  # cosine at or above which two items are near-duplicates and merge
    merge_top: int = 30  # near-duplicates are looked for among this many best candidates
    graph_hops: int = 1  # relation-type expansion depth in the graph tunnel
    entity_fanout: int = 50  # at most this many facts per entity head (hub protection)
    hub_degree: int = 25  # an entity in more facts than this is a hub, never a head
    fulltext_limit: int = 200  # Lucene candidates fetched before the user check
    dense_min_cosine: float = 0.2  # on Neo4j's (1 + cosine) / 2 scale; below it is noise
    # Facts kept as mentions (a state read in passing, FactEvent.mention) as search heads and hits
    # of any tunnel. Off: their statements are a few words ("Melanie: likes dance.") that match a
    # question's topic better than the turn that answers it, and on real chats most are
    # misreadings; their turns are found by their own words, and the answer still reads them
    # among their turn's facts (docs/bench/2026-12-05-retrieval-per-extractor.md).
    mention_heads: bool = False
    # Questions that aggregate across occasions (QueryAnalysis.coverage: "how many", "in total",
    # "both", …) need several items, each worded its own way: with deep_heads each tunnel takes
    # coverage_pool × heads heads for them, its rank decay spread over the deeper list
    # (for_question). coverage_pool (2) was set a priori before; nothing here is fitted.
    deep_heads: bool = False
    # A question that names one speaker of the user's chats (QueryAnalysis.speaker): the bm25 and
    # dense tunnels also search that speaker's own turns alone, and what their heads missed joins
    # as derived hits (tunnels.speaker_hits).
    speaker_heads: bool = False
    steps: tuple[str, ...] = DEFAULT_STEPS  # the rerank steps, in the order they run
    stale_penalty: float = 0.5  # present-tense questions: turns whose facts are all superseded
    # A question that names one speaker of a two-person chat: the other speaker's words count
    # half (in LoCoMo, 96% of such questions' evidence is the named speaker's own turns).
    other_speaker_penalty: float = 0.5
    # A question that does not ask what the assistant said (query.asks_the_assistant: "you"
    # as the one who said or made something, "your answer", "our last chat") is about the
    # user's life, which is in the user's own words: the assistant's turns count half (set a
    # priori, as other_speaker_penalty; 1 = alike;
    # docs/bench/2026-12-03-stemmed-bm25-own-words-first.md).
    assistant_penalty: float = 0.5
    # Questions about what holds now or lately (a "near" cue, or present tense with no window
    # or one holding the question date): among directly hit items with confidence ≥
    # recency_band × the best one's, in the first recency_pool, the latest said ranks first
    # (fusion.latest_first). recency_pool is also how deep a question that names no slot looks
    # for a change (fusion.chains_in_pool). Set a priori (half the best, ten), 0 = off.
    recency_band: float = 0.5
    recency_pool: int = 10
    in_process_bm25: bool = False  # the rank-bm25 baseline instead of the tunnels
    # A question with a time window W that leaves out part of the past ("four weeks ago", "last
    # Tuesday", "in March"): the dense tunnel also searches what was said within W (the vector
    # index filters by time); what its direct heads missed joins as derived hits
    # (tunnels.dense_tunnel), for the time bonus β to weigh.
    window_search: bool = True
    # Questions that aggregate or compare across sessions (retrieval/coverage.py), with the
    # step "coverage" configured: each further item of one session weighs this much less than
    # the one before, and the bm25 and dense tunnels fetch coverage_pool × heads candidates to
    # spread their heads over. Set a priori (a halving), not fitted to the dev questions. Off by
    # default: on the first 8 dev questions it lowered fused session recall_all@5 .857 → .714
    # and dense turn recall_all@10 .571 → .143 (the "how many … since" knowledge-update
    # questions keep their evidence in one or two sessions); see
    # docs/bench/2026-12-01-whole-turns-coverage.md before turning it on.
    coverage_decay: float = 0.5
    coverage_pool: int = 2
    # The second passes run (PASSES). "feedback" acts on questions that aggregate across
    # occasions (QueryAnalysis.coverage): the first pass's best feedback_seeds items said by the
    # user are seeds, and the K (per_head) nearest turns and facts of each in other sessions
    # join as derived hits of a weak tunnel (retrieval/feedback.py). Five seeds: the depth of
    # the session recall the benchmarks score (@5), set a priori.
    passes: tuple[str, ...] = ()
    feedback_seeds: int = 5

    def __post_init__(self) -> None:
        _known(*self.steps)
        for p in self.passes:
            if p not in PASSES:
                raise ValueError(f"unknown second pass {p!r}; the passes are {', '.join(PASSES)}")
        if len(set(self.steps)) != len(self.steps):
            raise ValueError(f"a rerank step is listed twice in {self.steps}")
        kinds = [s in ORDER_STEPS for s in self.steps]
        if kinds != sorted(kinds):
            raise ValueError("score steps (" + ", ".join(SCORE_STEPS) + ") come before order "
                             "steps (" + ", ".join(ORDER_STEPS) + ")")

    def for_question(self, aggregates: bool) -> RetrievalConfig:
        """The configuration one question is searched with: with `deep_heads`, a question that
        aggregates across occasions gets coverage_pool × heads heads per tunnel."""
        if self.deep_heads and aggregates:
            return replace(self, heads=self.heads * self.coverage_pool)
        return self

    def with_(self, **changes: Any) -> RetrievalConfig:
        return replace(self, **changes)

    def runs(self, step: str) -> bool:
        """Is the rerank step `step` on?"""
        return step in self.steps

    def without(self, *steps: str) -> RetrievalConfig:
        """This configuration with these rerank steps off."""
        _known(*steps)
        return replace(self, steps=tuple(s for s in self.steps if s not in steps))

    def with_steps(self, *steps: str) -> RetrievalConfig:
        """This configuration with these rerank steps on as well, each in its declared place."""
        # an added step goes where ALL_STEPS puts it relative to the ones already listed
        _known(*steps)
        ordered = list(self.steps)
        for s in steps:
            if s in ordered:
                continue
            later = [i for i, t in enumerate(ordered) if ALL_STEPS.index(t) > ALL_STEPS.index(s)]
            ordered.insert(later[0] if later else len(ordered), s)
        return replace(self, steps=tuple(ordered))


# The published defaults: 0.4/0.2/0.1/0.05, θ 0.8, H 10; W only as the time bonus β, no window
# search. (Query analysis is shared by every preset: a time phrase W stands for leaves the keys and
# the embedding here too, query.without_time.)
PAPER = RetrievalConfig(name="paper", window_search=False)

# Tuned on the development data (LongMemEval-S dev half, LoCoMo): with MiniLM the dense tunnel is
# as reliable as BM25, so its hits earn strong masses; θ 0.95 (MiniLM puts unrelated chit-chat
# above 0.8); 20 heads whose mass decays with rank. The graph tunnel is not run: turned off alone,
# session recall rose on LongMemEval dev (.953 → .957; turns .865 → .870) and LoCoMo (.734 →
# .743), with one temporal question and a half's turn figure lost, the scenario sets gained with
# the rules' facts (one lost with the hybrid's), and a search cost less CPU in most runs
# (docs/bench/2026-12-05-graph-tunnel-off.md). `fused-with-graph` (the old default) runs it (weak,
# 3 hits per head), as the published defaults (`paper`) do. A question over several occasions
# ("how many", "in total", "both", …) is searched with twice the heads and its turns' neighbour
# mass counted once per tunnel (deep_heads, context_once): turn recall rose on both halves of
# LongMemEval dev (.870 → .894) and no LoCoMo category fell (docs/bench/2026-12-06-spread-pair-on.md).
# A question that names one speaker of the user's chats also searches that speaker's own turns
# (speaker_heads): LoCoMo recall@10 .744 → .762 (rules' users), .756 → .769 (hybrid), both halves
# of the conversations up, LongMemEval (one speaker) unchanged
# (docs/bench/2026-12-07-speaker-heads.md).
FUSED = RetrievalConfig(name="fused", tunnels=("bm25", "dense"),
                        strong_tunnels=("bm25", "dense"), per_head=3, theta=0.95,
                        heads=20, rank_decay=0.8, deep_heads=True, speaker_heads=True,
                        steps=("context_once", *DEFAULT_STEPS))

PRESETS: dict[str, RetrievalConfig] = {
    "fused": FUSED,
    # The default until 2026-12-05, named so every door offers it (as it was: without the
    # spread-evidence pair `fused` runs since 2026-12-06).
    "fused-with-graph": replace(FUSED, name="fused-with-graph", tunnels=TUNNELS,
                                deep_heads=False, speaker_heads=False, steps=DEFAULT_STEPS),
    "paper": PAPER,
    "graph": RetrievalConfig(name="graph", tunnels=("graph",)),
    "bm25": RetrievalConfig(name="bm25", tunnels=("bm25",)),
    "dense": RetrievalConfig(name="dense", tunnels=("dense",)),
    "rank-bm25": RetrievalConfig(name="rank-bm25", tunnels=(), in_process_bm25=True),
}


_VARIANT = "-no-", "-with-"


def preset(name: str) -> RetrievalConfig:
    """A named preset, or a preset with one rerank step, second pass, switch or tunnel off or on:
    "fused-no-stale", "fused-with-coverage", "fused-no-feedback", "fused-with-mention_heads",
    "fused-no-graph" (the benchmark compares such variants in one run); variants chain, each
    on the one before it: "fused-no-deep_heads-no-context_once"."""
    found = _preset(name)
    if found is None:
        raise KeyError(f"unknown retrieval preset {name!r}; choose one of {sorted(PRESETS)} (or "
                       f"PRESET-no-STEP, PRESET-with-STEP; steps: {', '.join(ALL_STEPS)}; "
                       f"second passes: {', '.join(PASSES)}; switches: {', '.join(SWITCHES)}; "
                       f"tunnels: {', '.join(TUNNELS)})")
    return found


def _preset(name: str) -> RetrievalConfig | None:
    if name in PRESETS:
        return PRESETS[name]
    for marker in _VARIANT:
        base, found, step = name.rpartition(marker)
        if not found:
            continue
        cfg = _preset(base)
        if cfg is None:
            continue
        if step in ALL_STEPS:
            changed = cfg.without(step) if marker == "-no-" else cfg.with_steps(step)
            return replace(changed, name=name)
        if step in PASSES:
            passes = tuple(p for p in cfg.passes if p != step)
            return replace(cfg, name=name, passes=passes if marker == "-no-" else (*passes, step))
        if step in SWITCHES:  # each switch is a bool field of the config, by its own name
            switch: dict[str, Any] = {step: marker == "-with-"}
            return replace(cfg, name=name, **switch)
        if step in TUNNELS:
            kept = tuple(t for t in cfg.tunnels if t != step)
            return replace(cfg, name=name, tunnels=kept if marker == "-no-" else (*kept, step))
    return None
