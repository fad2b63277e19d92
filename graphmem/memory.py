"""The one entry point for agents: add transcripts, search, count, forget — per user."""

from __future__ import annotations

from collections.abc import Iterable

from .db import Graph
from .embed import Embedder, default_embedder
from .errors import InputError, UnknownUser
from .extract import Extractor, OfflineExtractor
from .ingest import IngestOptions, Ingestor, IngestReport
from .lucene import user_scoped_query
from .models import Evidence, Transcript


class Memory:
    """graphmem's facade over one Neo4j database."""

    def __init__(self, graph: Graph | None = None, *, extractor: Extractor | None = None,
                 embedder: Embedder | None = None, options: IngestOptions | None = None):
        self.graph = graph or Graph.connect()
        self.extractor = extractor or OfflineExtractor()
        self._embedder = embedder
        self.options = options or IngestOptions()

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = default_embedder()
        return self._embedder

    def ingest(self, transcripts: Iterable[Transcript]) -> IngestReport:
        return Ingestor(self.graph, self.extractor, self.embedder, self.options).ingest(transcripts)

    def search(self, user_id: str, query: str, *, k: int = 10) -> list[Evidence]:
        """Full-text (BM25) search over one user's turns."""
        if not isinstance(query, str):
            raise InputError("query must be text")
        lucene = user_scoped_query(query, user_id)
        if lucene is None:
            return []
        rows = self.graph.read("search_turns_fulltext", lucene=lucene, user_id=user_id,
                               limit=max(k * 5, 50), k=k)
        return [Evidence(tunnels=["bm25"], **row) for row in rows]

    def stats(self, user_id: str | None = None) -> dict[str, int]:
        row = self.graph.read("stats", user_id=user_id)[0]
        if user_id is not None and row["users"] == 0:
            raise UnknownUser(f"no memory for user {user_id!r}")
        return row

    def forget(self, user_id: str) -> int:
        return self.graph.forget_user(user_id)

    def close(self) -> None:
        self.graph.close()
