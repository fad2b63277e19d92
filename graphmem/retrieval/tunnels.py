"""The three tunnels (graph, BM25, dense): each turns a query into (tunnel, head, hit) triples.
The default preset runs BM25 and dense (config.FUSED says why)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from ..db import Graph
from ..lucene import english_words, escape, scopes_user, terms, user_scoped_query
from ..models import stable_id
from ..store import search as store
from ..store.time import utc
from .config import RetrievalConfig
from .coverage import spread
from .query import QueryAnalysis


@dataclass(frozen=True)
class Hit:
    tunnel: str
    head: str
    id: str
    type: str  # fact | piece | turn
    direct: bool
    rank: int  # the head's rank within its tunnel (0 = best)
    score: float  # the tunnel's own score for the head
    # A turn next to the head turn in its session (turn_window), not the head itself nor a
    # piece's or fact's own turn: what the step context_once counts once per tunnel.
    neighbour: bool = False


@lru_cache(maxsize=1 << 16)
def _turn_id(user_id: str, session_source_id: str, idx: int) -> str:
    # A search derives about 60 of these (a hash each) and the same turns come up again and
    # again: remembered, they cost a lookup.
    return stable_id("turn", user_id, session_source_id, idx)


def _neighbour_turns(user_id: str, session_source_id: str | None, idx: int | None,
                     window: int) -> list[str]:
    """Ids of turns ±window around a turn: derivable, since turn ids are stable."""
    if session_source_id is None or idx is None or window <= 0:
        return []
    return [_turn_id(user_id, session_source_id, k)
            for k in range(max(1, idx - window), idx + window + 1) if k != idx]


_INSTANT = timedelta(microseconds=1)

# Candidates an English-analysed index returns for a user whose id it cannot scope by (all stop
# words): the query then runs over every user and the exact user check keeps this one's.
UNSCOPED_FULLTEXT_LIMIT = 10_000


def _fulltext_limit(user_id: str, cfg: RetrievalConfig) -> int:
    return cfg.fulltext_limit if scopes_user(user_id) else max(cfg.fulltext_limit,
                                                               UNSCOPED_FULLTEXT_LIMIT)


def _coverage(q: QueryAnalysis, cfg: RetrievalConfig) -> bool:
    """A coverage question, with the coverage step on: the heads spread across sessions too."""
    return cfg.runs("coverage") and q.coverage


def _fetch(q: QueryAnalysis, cfg: RetrievalConfig) -> int:
    """Rows a tunnel fetches per type: more for a coverage question, to spread heads over."""
    return cfg.heads * (cfg.coverage_pool if _coverage(q, cfg) else 1)


def _expand(tunnel: str, rows: list[dict[str, Any]], user_id: str, cfg: RetrievalConfig,
            coverage: bool = False, head: str = "", direct: bool = True) -> list[Hit]:
    """Heads are the best rows across types (scores normalised per type), spread across sessions
    for a coverage question; each head is a direct hit (unless `direct` is false) and brings its
    parent turn (piece, fact) or its neighbour turns (turn) as derived hits."""
    best: dict[str, float] = {}
    for r in rows:
        best[r["type"]] = max(best.get(r["type"], 0.0), r["score"] or 0.0)

    def norm(r: dict[str, Any]) -> float:
        top = best[r["type"]]
        return (r["score"] or 0.0) / top if top else 0.0

    heads = sorted(rows, key=lambda r: (-norm(r), -(r["score"] or 0.0), r["id"]))
    if coverage:
        heads = spread(heads, score=norm, session=lambda r: r.get("session_id"),
                       decay=cfg.coverage_decay)
    heads = heads[: cfg.heads]
    hits: list[Hit] = []
    for rank, r in enumerate(heads):
        name = f"{tunnel}:{head + ':' if head else ''}{r['type']}:{r['id']}"
        hits.append(Hit(tunnel, name, r["id"], r["type"], direct, rank, r["score"] or 0.0))
        if r["type"] in ("piece", "fact") and r["turn_id"]:
            hits.append(Hit(tunnel, name, r["turn_id"], "turn", False, rank, r["score"] or 0.0))
        if r["type"] == "turn":
            for nid in _neighbour_turns(user_id, r["session_source_id"], r["idx"],
                                        cfg.turn_window):
                hits.append(Hit(tunnel, name, nid, "turn", False, rank, r["score"] or 0.0,
                                neighbour=True))
    return hits


def bm25_reads(graph: Graph, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
               embedding: list[float] | None = None) -> dict[str, store.Read]:
    # Not by the names of the speakers the question names (query.leave_out_names).
    named = {w for n in q.speaker_names for w in terms(n)}
    lucene = user_scoped_query(" ".join(english_words([k for k in q.keys if k not in named])),
                               user_id)
    if lucene is None:
        return {}
    return {"bm25": store.bm25_read(user_id, lucene, limit=_fulltext_limit(user_id, cfg),
                                    heads=_fetch(q, cfg), known_at=q.known_at,
                                    mentions=cfg.mention_heads, speaker=_speaker(q, cfg))}


def bm25_hits(found: dict[str, list[dict[str, Any]]], user_id: str, q: QueryAnalysis,
              cfg: RetrievalConfig) -> list[Hit]:
    if "bm25" not in found:
        return []
    own, theirs = _apart(found["bm25"])
    hits = _expand("bm25", own, user_id, cfg, _coverage(q, cfg))
    return hits + speaker_hits("bm25", hits, theirs, user_id, q, cfg)


def _speaker(q: QueryAnalysis, cfg: RetrievalConfig) -> str | None:
    """The speaker whose own turns the tunnels also search (speaker_heads), or None."""
    return q.speaker if cfg.speaker_heads else None


def _apart(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A tunnel's rows apart from the named speaker's own (rows with `speaker` true: the same
    index search read for that speaker's turns alone)."""
    return ([r for r in rows if not r.get("speaker")], [r for r in rows if r.get("speaker")])


def speaker_hits(tunnel: str, hits: list[Hit], rows: list[dict[str, Any]], user_id: str,
                 q: QueryAnalysis, cfg: RetrievalConfig) -> list[Hit]:
    """The named speaker's own turns that the tunnel's heads missed, as derived hits: a question
    about one person is answered in their own words (the other speaker's count half, the step
    other_speaker), and among all the user's turns a turn of theirs worded unlike the question
    ranks below the heads; among their turns alone it is nearer the top. A turn the tunnel
    reached only as a neighbour or as a piece's turn gains this mass too: most of the measured
    gain is that lift (docs/bench/2026-12-07-speaker-heads.md)."""
    if not rows:
        return []
    seen = {h.id for h in hits if h.direct}
    return _expand(tunnel, [r for r in rows if r["id"] not in seen], user_id, cfg,
                   _coverage(q, cfg), head="speaker", direct=False)


def dense_reads(graph: Graph, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
                embedding: list[float] | None = None) -> dict[str, store.Read]:
    """`embedding`: of the question's search text (QueryAnalysis.search_text)."""
    if embedding is None:
        return {}
    speaker = _speaker(q, cfg)
    # Asked once: the speaker's turns come from the tunnel's own index search, or (a server whose
    # vector indexes do not filter by user) from an exact scan of their own.
    exact = not store.vector_index_filters(graph)
    reads = {"dense": store.dense_read(graph, user_id, embedding, heads=_fetch(q, cfg),
                                       min_cosine=cfg.dense_min_cosine, known_at=q.known_at,
                                       mentions=cfg.mention_heads, exact=exact,
                                       speaker=None if exact else speaker)}
    if exact and speaker is not None:
        reads["dense_exact_speaker"] = store.speaker_dense_read(
            user_id, embedding, speaker, heads=_fetch(q, cfg), min_cosine=cfg.dense_min_cosine,
            known_at=q.known_at)
    window = _search_window(q) if cfg.window_search else None
    if window is not None:
        # The question names when ("four weeks ago", "last Tuesday"): the nearest of what was
        # said then join as candidates, so the time bonus has them to weigh even when what the
        # user said then is worded unlike the question ("signed my first client" for "a
        # business milestone"). Asked beside the search itself (one round trip).
        reads["window"] = store.dense_read(graph, user_id, embedding, heads=_fetch(q, cfg),
                                           min_cosine=cfg.dense_min_cosine, since=window[0],
                                           known_at=window[1], mentions=cfg.mention_heads)
    return reads


def dense_hits(found: dict[str, list[dict[str, Any]]], user_id: str, q: QueryAnalysis,
               cfg: RetrievalConfig) -> list[Hit]:
    if "dense" not in found:
        return []
    own, theirs = _apart(found["dense"])
    hits = _expand("dense", own, user_id, cfg, _coverage(q, cfg))
    theirs += found.get("dense_exact_speaker", [])
    hits += speaker_hits("dense", hits, theirs, user_id, q, cfg)
    if "window" not in found:
        return hits
    # The window's nearest come as derived hits (the search found them by the window, not by
    # the words), so they lift what the whole search found no more than a neighbour turn does.
    seen = {h.id for h in hits if h.direct}
    in_window = [r for r in found["window"] if r["id"] not in seen]
    return hits + _expand("dense", in_window, user_id, cfg, _coverage(q, cfg), head="window",
                          direct=False)


def _search_window(q: QueryAnalysis) -> tuple[datetime, datetime] | None:
    """The question's time window W, in UTC, up to the question date and not including W's end
    (the search filters `since <= mentioned_at <= until`), when W leaves out part of the past:
    not "this year", which reaches now; nothing for a window wholly after the question date."""
    w = q.intent.window
    if w is None or q.intent.now_in_window:
        return None
    since, end, now = utc(w[0]), utc(w[1]), utc(q.known_at or q.question_date)
    if since is None or end is None or now is None:
        return None
    until = min(end - _INSTANT, now)
    return (since, until) if since <= until else None


def graph_reads(graph: Graph, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
                embedding: list[float] | None = None) -> dict[str, store.Read]:
    # Entity heads come from names; fact heads from the other words of the question, since a
    # person's name is in every fact about them and would pick facts at random.
    entity_lucene = user_scoped_query(" ".join((*q.mentions, *q.keys)), user_id,
                                      fields=("name", "aliases_text"))
    named = {w for m in q.mentions for w in terms(m)}
    fact_lucene = user_scoped_query(" ".join(english_words([k for k in q.keys if k not in named])),
                                    user_id)
    if entity_lucene is None and fact_lucene is None and not q.slots:
        return {}
    # A branch with no words gets no heads: its placeholder query (an empty phrase, which Lucene
    # drops) would otherwise match every one of the user's entities or facts alike.
    placeholder = f'+user_id:"{escape(user_id)}"'
    slot_heads = 1 if q.slots else 0
    entity_heads = max(1, (cfg.heads - slot_heads) // 2)
    fact_heads = max(0, cfg.heads - slot_heads - entity_heads)
    # The slot heads ("where do I live" → lives_in) come in the same query, after the others.
    return {"graph": store.graph_read(
        user_id, entity_lucene=entity_lucene or placeholder,
        fact_lucene=fact_lucene or placeholder, limit=_fulltext_limit(user_id, cfg),
        entity_heads=entity_heads if entity_lucene else 0,
        fact_heads=fact_heads if fact_lucene else 0, fanout=cfg.entity_fanout,
        per_head=cfg.per_head, vector=embedding, hub_degree=cfg.hub_degree, predicates=q.slots,
        include_stale=(not q.intent.about_present or q.intent.window is not None
                       or q.known_at is not None),
        slot_head="slot:" + "|".join(q.slots), mentions=cfg.mention_heads)}


def graph_hits(found: dict[str, list[dict[str, Any]]], user_id: str, q: QueryAnalysis,
               cfg: RetrievalConfig) -> list[Hit]:
    rows = found.get("graph", [])
    order: dict[str, int] = {}
    for r in sorted(rows, key=lambda r: -(r["head_score"] or 0.0)):
        order.setdefault(r["head"], len(order))
    hits: list[Hit] = []
    for r in rows:
        rank = order[r["head"]]
        hits.append(Hit("graph", r["head"], r["id"], "fact", bool(r["direct"]), rank,
                        r["head_score"] or 0.0))
        if r["turn_id"]:
            hits.append(Hit("graph", r["head"], r["turn_id"], "turn", False, rank,
                            r["head_score"] or 0.0))
    return hits


Reads = Callable[[Graph, str, QueryAnalysis, RetrievalConfig, list[float] | None],
                dict[str, store.Read]]
Hits = Callable[[dict[str, list[dict[str, Any]]], str, QueryAnalysis, RetrievalConfig], list[Hit]]


@dataclass(frozen=True)
class TunnelParts:
    """A tunnel as its queries (keyed apart from every other tunnel's, so a search runs them all
    in one round trip: store.search.together) and what turns their rows into hits."""

    reads: Reads
    hits: Hits


TUNNELS: dict[str, TunnelParts] = {"graph": TunnelParts(graph_reads, graph_hits),
                                   "bm25": TunnelParts(bm25_reads, bm25_hits),
                                   "dense": TunnelParts(dense_reads, dense_hits)}


def run_tunnel(name: str, graph: Graph, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
               embedding: list[float] | None = None) -> list[Hit]:
    """One tunnel on its own (its queries in one round trip)."""
    t = TUNNELS[name]
    return t.hits(store.together(graph, t.reads(graph, user_id, q, cfg, embedding)),
                  user_id, q, cfg)


def bm25_tunnel(graph: Graph, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
                embedding: list[float] | None = None) -> list[Hit]:
    return run_tunnel("bm25", graph, user_id, q, cfg, embedding)


def dense_tunnel(graph: Graph, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
                 embedding: list[float] | None = None) -> list[Hit]:
    """`embedding`: of the question's search text (QueryAnalysis.search_text)."""
    return run_tunnel("dense", graph, user_id, q, cfg, embedding)


def graph_tunnel(graph: Graph, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
                 embedding: list[float] | None = None) -> list[Hit]:
    return run_tunnel("graph", graph, user_id, q, cfg, embedding)

