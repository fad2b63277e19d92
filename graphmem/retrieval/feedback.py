"""A second pass seeded by the first (pseudo-relevance feedback), for questions whose evidence is
spread over several sessions ("how many …", "all the …", "in total"): the first pass's best items
said by the user are the seeds, and what lies nearest each of them in the *other* sessions joins
the candidates. A session that says the same kind of thing in other words than the question
("I'm also getting Architectural Digest" for "magazine subscriptions") is then found by what the
sessions found first share with it; an item near several seeds gathers mass from each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..db import Graph
from ..models import Evidence
from ..store import search as store
from .config import RetrievalConfig
from .query import QueryAnalysis
from .tunnels import Hit

TUNNEL = "feedback"


def runs(q: QueryAnalysis, cfg: RetrievalConfig) -> bool:
    """Is the second pass configured, and does the question aggregate across occasions?"""
    return TUNNEL in cfg.passes and q.coverage


def seeds(evidence: Sequence[Evidence], n: int) -> list[Evidence]:
    """The first pass's best `n` items said by the user (the second pass runs for questions
    about the user's life, which is in the user's words; the assistant's turns have no vector)."""
    return [e for e in evidence if e.role != "assistant"][:n]


def feedback_hits(rows: Sequence[Mapping[str, Any]]) -> list[Hit]:
    """The second pass's rows (store.seed_neighbours) as hits of the tunnel `feedback`: each seed
    is a head, ranked as the first pass ranked it, and its neighbours are *derived* hits (found
    by what the first pass found, not by the question, they lift what the whole search found as
    a neighbour turn does, no more); a fact brings its turn."""
    hits: list[Hit] = []
    for r in rows:
        head = f"{TUNNEL}:{r['seed']}"
        hits.append(Hit(TUNNEL, head, r["id"], r["type"], False, r["rank"], r["score"]))
        if r["type"] == "fact" and r["turn_id"]:
            hits.append(Hit(TUNNEL, head, r["turn_id"], "turn", False, r["rank"], r["score"]))
    return hits


def feedback_tunnel(graph: Graph, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
                    first: Sequence[Evidence]) -> list[Hit]:
    """The second pass over the first pass's evidence `first` (ranked): for each of its best
    `cfg.feedback_seeds` items said by the user, the K (`cfg.per_head`) nearest turns and facts
    of other sessions, nothing mentioned after the question date. Each vector index is asked
    for H (`cfg.heads`) nodes per seed, of which the seed's own session's are left out (three
    times as many changed the top ten of 1 of 109 dev searches and no score, and the query
    took a median 70 ms against 29 on a loaded machine)."""
    found = seeds(first, cfg.feedback_seeds)
    if not found:
        return []
    return feedback_hits(store.seed_neighbours(
        graph, user_id, [e.id for e in found], per_seed=cfg.per_head,
        fetch=cfg.heads, min_cosine=cfg.dense_min_cosine, known_at=q.known_at,
        mentions=cfg.mention_heads))
