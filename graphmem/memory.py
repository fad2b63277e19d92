"""The one entry point for agents and for every door (CLI, HTTP, MCP): ingest transcripts, append
messages live, search, facts over time, timelines, memory cards, answers, stats, forget — per user."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from neo4j.exceptions import DriverError, Neo4jError

from .answer import Answer, Answerer
from .config import Settings
from .db import Graph
from .embed import Embedder, default_embedder
from .errors import GraphmemError, InputError, Neo4jUnavailable, UnknownUser, connection_lost
from .extract import Extractor, OfflineExtractor
from .ingest import AppendReport, IngestOptions, Ingestor, IngestReport
from .llm import LLMClient
from .models import Evidence, Transcript, TurnRecord
from .reembed import ReembedReport
from .retrieval import RetrievalConfig, Retriever, SearchResult
from .store import admin
from .store import answer as store_answer
from .store.nodes import FactEvent

MAX_APPEND_TURNS = 100  # messages in one append call
_LOCKS = 64  # appends to one session are serialised by one of these (striped by session)


def _neo4j_lost(method: Callable[..., Any]) -> Callable[..., Any]:
    """Raise Neo4jUnavailable, one line saying what happened and what to do, when the
    connection to Neo4j breaks during `method` (the driver's own errors are not graphmem's)."""

    @functools.wraps(method)
    def wrapper(self: Memory, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except GraphmemError:
            raise
        except Exception as exc:
            lost = connection_lost(exc)
            if lost is None:
                raise
            raise Neo4jUnavailable(
                f"lost the connection to Neo4j at {self.graph.uri} ({lost}); what "
                "finished before it is stored, nothing half-written is kept (one transaction per "
                "unit of work): check that Neo4j runs, then retry") from exc

    return wrapper


class Memory:
    """graphmem's facade over one Neo4j database. Every public method raises Neo4jUnavailable
    (a GraphmemError) when the connection to Neo4j breaks during it."""

    def __init__(self, graph: Graph | None = None, *, extractor: Extractor | None = None,
                 embedder: Embedder | None = None, options: IngestOptions | None = None,
                 llm: LLMClient | None = None, ingest_llm: LLMClient | None = None):
        """`llm`: the OpenAI-compatible client `answer` uses; None answers extractively.
        `ingest_llm`: the client extraction and relation judging use, if any (for its usage)."""
        self.llm = llm
        self.ingest_llm = ingest_llm
        self.graph = graph or Graph.connect()
        self.extractor = extractor or OfflineExtractor()
        self._embedder = embedder
        self._space_checked = False
        self.options = options or IngestOptions()
        self._retriever: Retriever | None = None
        self._lazy = threading.RLock()
        self._append_locks = [threading.Lock() for _ in range(_LOCKS)]

    @classmethod
    def from_settings(cls, settings: Settings | None = None, *, graph: Graph | None = None,
                      extractor: str = "offline", relations: str = "auto",
                      answer_llm: bool = True, options: IngestOptions | None = None,
                      embedder: Embedder | None = None,
                      echo: Callable[[str], None] = lambda _m: None,
                      retry_s: float = 15) -> Memory:
        """A Memory composed from settings and the GRAPHMEM_LLM_* environment: the extractor
        (offline | llm), who judges relations (auto | rules | llm) and, with `answer_llm`, the
        answering client. Configuration errors are raised before any connection."""
        from .compose import embedder as configured_embedder
        from .compose import ingest_parts, llm_client

        parts = ingest_parts(extractor, relations)
        embedder = embedder or configured_embedder()
        answering = llm_client() if answer_llm else None
        opts = replace(options or IngestOptions(), relation_judge=parts.relation_judge)
        graph = graph or Graph.connect(settings, echo=echo, retry_s=retry_s)
        return cls(graph, extractor=parts.extractor, embedder=embedder, options=opts,
                   llm=answering, ingest_llm=parts.client)

    @property
    def embedder(self) -> Embedder:
        """The embedder, once the database's recorded vector space is checked to be its own
        (VectorSpaceMismatch, naming `graphmem reembed`, otherwise)."""
        if not self._space_checked:
            with self._lazy:
                if self._embedder is None:
                    self._embedder = default_embedder()
                if not self._space_checked:
                    from .vectorspace import require

                    require(self.graph, self._embedder)
                    self._space_checked = True
        assert self._embedder is not None
        return self._embedder

    @property
    def retriever(self) -> Retriever:
        if self._retriever is None:
            with self._lazy:
                if self._retriever is None:
                    self._retriever = Retriever(self.graph, self.embedder)
        return self._retriever

    @_neo4j_lost
    def warm(self) -> None:
        """Load the embedder and let Neo4j plan the search queries now (a server does this once
        at start-up, so that its first request is not the slow one)."""
        self.embedder.embed_query("warm up")
        self.retriever.search("graphmem:warm-up", "where did I live last year?", k=1)

    def readiness(self) -> dict[str, bool]:
        """Is Neo4j reachable, every schema migration applied, the embedding model loaded?"""
        from graphmem.schema import migrations

        from .migrate import applied_versions

        model = self._space_checked  # set on first use of the embedder (warm loads it)
        try:
            versions = applied_versions(self.graph)
        except (Neo4jError, DriverError, OSError):
            return {"neo4j": False, "schema": False, "model": model}
        return {"neo4j": True, "schema": all(m.version in versions for m in migrations()),
                "model": model}

    def _ingestor(self, options: IngestOptions | None = None) -> Ingestor:
        return Ingestor(self.graph, self.extractor, self.embedder, options or self.options)

    # --- writing ---------------------------------------------------------------------------------

    @_neo4j_lost
    def ingest(self, transcripts: Iterable[Transcript],
               on_session: Callable[[IngestReport], None] | None = None, *,
               verbose: bool = False) -> IngestReport:
        """Whole transcripts: one transaction per session; re-running changes nothing."""
        options = replace(self.options, verbose=True) if verbose else None
        return self._ingestor(options).ingest(transcripts, on_session)

    @_neo4j_lost
    def append(self, user_id: str, session_id: str, messages: Iterable[TurnRecord], *,
               session_time: datetime | None = None) -> AppendReport:
        """Append messages to one session of a user, live (the user and the session are created
        on first use, the session starting at `session_time`, default now). `session_id` is the
        source's session id; a message whose `source_id` the session already holds is skipped,
        so re-sending it changes nothing. Only the new turns are processed."""
        if not isinstance(user_id, str) or not user_id.strip():
            raise InputError("user_id is empty")
        if not isinstance(session_id, str) or not session_id.strip():
            raise InputError("session_id is empty")
        turns = list(messages)
        if not turns:
            raise InputError("no messages to append")
        if len(turns) > MAX_APPEND_TURNS:
            raise InputError(f"at most {MAX_APPEND_TURNS} messages per append; send them in parts")
        for i, t in enumerate(turns):
            if not isinstance(t.text, str) or not t.text.strip():
                raise InputError(f"message {i} has no text")
            if not isinstance(t.role, str) or not t.role.strip():
                raise InputError(f"message {i} has no role")
        lock = self._append_locks[hash((user_id, session_id)) % _LOCKS]
        with lock:
            return self._ingestor().append(user_id, session_id, turns, session_time=session_time)

    @_neo4j_lost
    def forget(self, user_id: str) -> int:
        """Delete every node of one user (and nothing else); the number of nodes deleted."""
        return self.graph.forget_user(user_id)

    # --- reading ---------------------------------------------------------------------------------

    @_neo4j_lost
    def require_user(self, user_id: str) -> None:
        self.graph.require_user(user_id)

    @_neo4j_lost
    def search(self, user_id: str, query: str, *, question_date: datetime | None = None,
               as_of: datetime | None = None, k: int = 10,
               config: RetrievalConfig | str = "fused") -> list[Evidence]:
        """Ranked evidence (facts, pieces, turns) from one user's memory."""
        return self.search_full(user_id, query, question_date=question_date, as_of=as_of, k=k,
                                config=config).evidence

    @_neo4j_lost
    def search_full(self, user_id: str, query: str, *, question_date: datetime | None = None,
                    as_of: datetime | None = None, k: int = 10,
                    config: RetrievalConfig | str = "fused") -> SearchResult:
        """Like `search`, with the per-tunnel hits, the full turn ranking and timings."""
        return self.retriever.search(user_id, query, question_date=question_date, as_of=as_of,
                                     k=k, config=config)

    @_neo4j_lost
    def facts(self, user_id: str, as_of: datetime | None = None, *, predicate: str | None = None,
              history: bool = False, question_date: datetime | None = None,
              limit: int = 1000) -> list[FactEvent]:
        """The current facts, the facts valid at `as_of`, or (`history`) every version; with a
        `question_date`, as known that day."""
        from .history import current_facts

        return current_facts(self.graph, user_id, as_of, predicate=predicate, history=history,
                             question_date=question_date, limit=limit)

    @_neo4j_lost
    def timeline(self, user_id: str, *, entity: str | None = None, predicate: str | None = None,
                 since: datetime | None = None, until: datetime | None = None,
                 question_date: datetime | None = None, limit: int = 1000) -> list[FactEvent]:
        """The ordered history of facts with their changes (about an entity / predicate / period);
        with a `question_date`, as known that day."""
        from .history import fact_timeline

        return fact_timeline(self.graph, user_id, entity=entity, predicate=predicate,
                             since=since, until=until, question_date=question_date, limit=limit)

    @_neo4j_lost
    def inspect(self, user_id: str, node_id: str) -> dict[str, Any]:
        """A memory card for a fact, piece, turn (stored or source id) or entity (id or name)."""
        from .history import inspect

        return inspect(self.graph, user_id, node_id)

    @_neo4j_lost
    def turns(self, user_id: str, turn_ids: list[str]) -> list[dict[str, Any]]:
        return store_answer.turns_by_id(self.graph, user_id, turn_ids)

    @_neo4j_lost
    def session_window(self, user_id: str, turn_id: str, window: int) -> list[dict[str, Any]]:
        return store_answer.session_window(self.graph, user_id, turn_id, window)

    @_neo4j_lost
    def cypher_read(self, user_id: str, statement: str,
                    params: dict[str, Any] | None = None) -> dict[str, Any]:
        from .answer.cypher_read import cypher_read

        return cypher_read(self.graph, user_id, statement, params)

    @_neo4j_lost
    def stats(self, user_id: str | None = None) -> dict[str, int]:
        row = admin.stats(self.graph, user_id)
        if user_id is not None and row["users"] == 0:
            raise UnknownUser(f"no memory for user {user_id!r}")
        return row

    @_neo4j_lost
    def answer(self, user_id: str, question: str, *, question_date: datetime | None = None,
               budget: int = 4, reader_llm: LLMClient | None = None,
               offline: bool = False) -> Answer:
        """An answer citing the turns it stands on (or "not in memory"), with the planner's tool
        trace, tokens and cost; extractive and labelled so when no LLM is configured."""
        client = None if offline else self.llm
        return Answerer(self, client, reader_client=reader_llm, budget=budget).answer(
            user_id, question, question_date)

    # --- moving memory -----------------------------------------------------------------------

    @_neo4j_lost
    def export_user(self, user_id: str, out: IO[str]) -> dict[str, Any]:
        """Write one user's whole memory to `out` as JSONL; counts and a checksum of the graph."""
        from .transfer import export_user

        return export_user(self.graph, user_id, out)

    @_neo4j_lost
    def import_user(self, path: str | Path) -> dict[str, Any]:
        """Restore an export into this database (which must not hold that user yet), checked
        whole first and written in one transaction; counts and the checksum."""
        from .transfer import import_user

        return import_user(self.graph, Path(path))

    # --- the vector space ----------------------------------------------------------------------

    @_neo4j_lost
    def reembed(self, to: str | None = None, *, batch: int = 256,
                on_progress: Callable[[str, int, int], None] | None = None) -> ReembedReport:
        """Re-embed every stored embedding with the embedder `to` names (default: the configured
        one), resumable; see graphmem.reembed. This Memory embeds with it afterwards."""
        from .compose import embedder as configured_embedder
        from .reembed import reembed

        target = configured_embedder(to)
        report = reembed(self.graph, target, batch=batch, on_progress=on_progress)
        with self._lazy:
            self._embedder, self._space_checked, self._retriever = target, True, None
        return report

    def close(self) -> None:
        self.graph.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
