"""The in-process rank-bm25 baseline over a user's own user turns (lowercase whitespace tokens)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from rank_bm25 import BM25Okapi

from ..db import Graph
from ..store.search import user_turns


class InProcessBM25:
    """BM25Okapi built per user from Neo4j and kept in a small LRU cache."""

    def __init__(self, graph: Graph, cache_size: int = 64) -> None:
        self.graph = graph
        self.cache: OrderedDict[str, tuple[BM25Okapi | None, list[dict[str, Any]]]] = OrderedDict()
        self.cache_size = cache_size

    def _index(self, user_id: str) -> tuple[BM25Okapi | None, list[dict[str, Any]]]:
        if user_id in self.cache:
            self.cache.move_to_end(user_id)
            return self.cache[user_id]
        docs = user_turns(self.graph, user_id)
        bm25 = BM25Okapi([d["text"].lower().split() for d in docs]) if docs else None
        self.cache[user_id] = (bm25, docs)
        if len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
        return bm25, docs

    def rank(self, user_id: str, query: str) -> list[tuple[dict[str, Any], float]]:
        """Every user turn of the user with its BM25 score, best first."""
        bm25, docs = self._index(user_id)
        if bm25 is None:
            return []
        scores = bm25.get_scores(query.lower().split())
        order = sorted(range(len(docs)), key=lambda i: (-scores[i], i))
        return [(docs[i], float(scores[i])) for i in order]
