"""The one entry point for agents: add transcripts, search, count, forget — per user."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from .answer import Answer, Answerer
from .db import Graph
from .embed import Embedder, default_embedder
from .errors import UnknownUser
from .extract import Extractor, OfflineExtractor
from .ingest import IngestOptions, Ingestor, IngestReport
from .llm import LLMClient
from .models import Evidence, Transcript
from .retrieval import RetrievalConfig, Retriever, SearchResult


class Memory:
    """graphmem's facade over one Neo4j database."""

    def __init__(self, graph: Graph | None = None, *, extractor: Extractor | None = None,
                 embedder: Embedder | None = None, options: IngestOptions | None = None,
                 llm: LLMClient | None = None):
        """`llm`: the OpenAI-compatible client `answer` uses; None answers extractively."""
        self.llm = llm
        self.graph = graph or Graph.connect()
        self.extractor = extractor or OfflineExtractor()
        self._embedder = embedder
        self.options = options or IngestOptions()
        self._retriever: Retriever | None = None

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = default_embedder()
        return self._embedder

    def ingest(self, transcripts: Iterable[Transcript]) -> IngestReport:
        return Ingestor(self.graph, self.extractor, self.embedder, self.options).ingest(transcripts)

    @property
    def retriever(self) -> Retriever:
        if self._retriever is None:
            self._retriever = Retriever(self.graph, self.embedder)
        return self._retriever

    def search(self, user_id: str, query: str, *, question_date: datetime | None = None,
               as_of: datetime | None = None, k: int = 10,
               config: RetrievalConfig | str = "fused") -> list[Evidence]:
        """Ranked evidence (facts, pieces, turns) from one user's memory."""
        return self.search_full(user_id, query, question_date=question_date, as_of=as_of, k=k,
                                config=config).evidence

    def search_full(self, user_id: str, query: str, *, question_date: datetime | None = None,
                    as_of: datetime | None = None, k: int = 10,
                    config: RetrievalConfig | str = "fused") -> SearchResult:
        """Like `search`, with the per-tunnel hits, the full turn ranking and timings."""
        return self.retriever.search(user_id, query, question_date=question_date, as_of=as_of,
                                     k=k, config=config)

    def answer(self, user_id: str, question: str, *, question_date: datetime | None = None,
               budget: int = 4, reader_llm: LLMClient | None = None) -> Answer:
        """An answer citing the turns it stands on (or "not in memory"), with the planner's tool
        trace, tokens and cost; extractive and labelled so when no LLM is configured."""
        return Answerer(self, self.llm, reader_client=reader_llm, budget=budget).answer(
            user_id, question, question_date)

    def stats(self, user_id: str | None = None) -> dict[str, int]:
        row = self.graph.read("stats", user_id=user_id)[0]
        if user_id is not None and row["users"] == 0:
            raise UnknownUser(f"no memory for user {user_id!r}")
        return row

    def forget(self, user_id: str) -> int:
        return self.graph.forget_user(user_id)

    def close(self) -> None:
        self.graph.close()
