"""The one entry point for agents and for every door (CLI, HTTP, MCP): ingest transcripts, append
messages live, search, facts over time, timelines, memory cards, answers, stats, forget a user or
one turn, mark a fact wrong, list sessions and turns — per user."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import IO, Any, TypeVar

from neo4j.exceptions import DriverError, Neo4jError

from graphmem.schema import migrations

from .answer import Answer, Answerer
from .answer.cypher_read import cypher_read
from .appending import AppendResult, refuse_turn_ids_of_other_sessions
from .compose import embedder as configured_embedder
from .compose import ingest_parts, llm_client
from .config import Settings
from .currency_rules import rules_version
from .db import Graph
from .embed import Embedder
from .errors import (
    UnknownId,
    UnknownUser,
    neo4j_lost,
)
from .extract import Extractor, OfflineExtractor
from .files import FileIngestReport, TranscriptFile
from .forgetting import TurnRemoval, invalidate_fact, remove_turn
from .history import current_facts, fact_timeline, inspect
from .ingest import IngestOptions, Ingestor, IngestReport
from .listing import sessions_page, turn_named, turns_page
from .llm import LLMClient
from .migrate import applied_versions, connect
from .models import Evidence, Transcript, TurnRecord
from .pages import Page
from .places import fold_whole_turn_pieces
from .redeciding import redecide_user
from .reembed import ReembedReport, reembed
from .responses import Redecided
from .retrieval import RetrievalConfig, Retriever, SearchResult
from .store import admin
from .store import answer as store_answer
from .store import reads as store_reads
from .store import sessions as store_sessions
from .store.nodes import FactEvent, SessionSummary, Turn
from .timestamps import read_time_zone, read_timestamp
from .transfer import export_user, import_user
from .vectorspace import require

# The bounds and defaults of every door live in graphmem.bounds; re-exported here for the
# callers that import them from memory.
from .bounds import (  # isort: skip
    MAX_APPEND_TURNS as MAX_APPEND_TURNS,
    MAX_MESSAGE_CHARS as MAX_MESSAGE_CHARS,
    MAX_QUERY_CHARS as MAX_QUERY_CHARS,
    MAX_ID_CHARS as MAX_ID_CHARS,
    MAX_ROLE_CHARS as MAX_ROLE_CHARS,
    MAX_K as MAX_K,
    MAX_BUDGET as MAX_BUDGET,
    MAX_PAGE as MAX_PAGE,
    MAX_FACTS as MAX_FACTS,
    DEFAULT_PAGE as DEFAULT_PAGE,
    DEFAULT_K as DEFAULT_K,
    DEFAULT_BUDGET as DEFAULT_BUDGET,
    DEFAULT_PRESET as DEFAULT_PRESET,
    MODEL_FACTS as MODEL_FACTS,
    MAX_REASON_CHARS as MAX_REASON_CHARS,
)
from .bounds import bounded, checked_messages, reading_filter, whole_number  # isort: skip

K = TypeVar("K")  # a result checked by `_known`
_LOCKS = 64  # appends of one user are serialised by one of these (striped by user)


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
        self.graph = graph or connect()
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
        parts = ingest_parts(extractor, relations)
        embedder = embedder or configured_embedder()
        answering = llm_client() if answer_llm else None
        opts = replace(options or IngestOptions(), relation_judge=parts.relation_judge)
        graph = graph or connect(settings, echo=echo, retry_s=retry_s)
        return cls(graph, extractor=parts.extractor, embedder=embedder, options=opts,
                   llm=answering, ingest_llm=parts.client)

    @property
    def embedder(self) -> Embedder:
        """The embedder, once the database's recorded vector space is checked to be its own
        (VectorSpaceMismatch, naming `graphmem reembed`, otherwise)."""
        if not self._space_checked:
            with self._lazy:
                if self._embedder is None:
                    self._embedder = configured_embedder()
                if not self._space_checked:
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

    @neo4j_lost
    def warm(self) -> None:
        """Load the embedder and let Neo4j plan the search queries now (a server does this once
        at start-up, so that its first request is not the slow one)."""
        self.embedder.embed_query("warm up")
        self.retriever.search("graphmem:warm-up", "where did I live last year?", k=1)

    def readiness(self) -> dict[str, bool]:
        """Is Neo4j reachable, every schema migration applied, the embedding model loaded?"""
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

    @neo4j_lost
    def ingest(self, transcripts: Iterable[Transcript],
               on_session: Callable[[IngestReport], None] | None = None, *,
               verbose: bool = False) -> IngestReport:
        """Whole transcripts: one transaction per session; re-running changes nothing."""
        options = replace(self.options, verbose=True) if verbose else None
        return self._ingestor(options).ingest(transcripts, on_session)

    @neo4j_lost
    def ingest_file(self, source: str | Path | bytes | TranscriptFile, format: str = "auto", *,
                    user_id: str | None = None, filename: str | None = None,
                    session: str | None = None, session_time: str | None = None,
                    on_session: Callable[[IngestReport], None] | None = None,
                    verbose: bool = False) -> FileIngestReport:
        """A transcript file (a path, its bytes, or a TranscriptFile already read and checked),
        checked whole before anything is written; with `user_id`, only that user's memory (see
        graphmem.files.TranscriptFile). What was stored and what was left out."""
        bounded(user_id, "user_id", MAX_ID_CHARS, optional=True)
        file = source if isinstance(source, TranscriptFile) else TranscriptFile(
            source, format, user_id=user_id, filename=filename, session=session,
            session_time=session_time)
        with file:
            report = self.ingest(file.transcripts(), on_session, verbose=verbose)
            return file.report(report)

    @neo4j_lost
    def append(self, user_id: str, session_id: str, messages: Iterable[TurnRecord], *,
               session_time: datetime | str | None = None, agent_id: str | None = None,
               run_id: str | None = None) -> AppendResult:
        """Append messages to one session of a user, live (the user and the session are created
        on first use, the session starting at `session_time`, else at its first message's
        `timestamp`, else now). A message is dated by its own `timestamp` (an ISO 8601 date or
        datetime, or a datetime), else by `session_time`, else by the session's start: that
        date is its facts' `mentioned_at` and the day its "yesterday" counts from, in its own
        offset, else the user's time zone (`set_time_zone`), else UTC. `session_id` is the
        source's session id; a message whose `source_id` the session already holds is skipped,
        so re-sending it changes nothing; a `source_id` another session of the user holds is
        refused (a turn id names one turn of a user). Only the new turns are processed.
        Returns the turns added and the facts they made, each with what it replaced.
        `agent_id` / `run_id` label every message (the reserved metadata keys of the scope).
        Inputs outside the bounds above raise OutOfBounds, before anything is written."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        bounded(session_id, "session_id", MAX_ID_CHARS)
        turns = checked_messages(messages, agent_id=agent_id, run_id=run_id)
        session_time = read_timestamp(session_time, "session_time")
        lock = self._append_locks[hash(user_id) % _LOCKS]
        with lock:
            refuse_turn_ids_of_other_sessions(self.graph, user_id, session_id, turns)
            report = self._ingestor().append(user_id, session_id, turns,
                                             session_time=session_time)
        made = store_reads.facts_made_by_turns(
            self.graph, user_id, [t.id for t in report.added]) if report.added else []
        return AppendResult.of(report, made)

    @neo4j_lost
    def set_time_zone(self, user_id: str, time_zone: str | None) -> str | None:
        """The IANA time zone ("Europe/Berlin") the user's message times without an offset are
        read in from now on (None: UTC again); the user is created on first use. A name
        zoneinfo does not know raises OutOfBounds. Turns already stored keep their dates."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        name = read_time_zone(time_zone).key if time_zone is not None else None
        store_sessions.set_user_time_zone(self.graph, user_id, name, rules_version())
        return name

    @neo4j_lost
    def forget(self, user_id: str, *, missing_ok: bool = False) -> int:
        """Delete every node of one user (and nothing else); the number of nodes deleted. A
        user with no memory raises UnknownUser, unless `missing_ok` (then 0)."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        deleted = admin.forget_user(self.graph, user_id)
        if deleted == 0 and not missing_ok:
            raise UnknownUser(f"no memory for user {user_id!r}; nothing deleted")
        return deleted

    # --- one memory at a time --------------------------------------------------------------------

    @neo4j_lost
    def delete_turn(self, user_id: str, turn_id: str) -> TurnRemoval:
        """Delete one turn (stored id, or the source's turn id) with its pieces and the facts
        derived only from it, in one transaction: the slots those facts were in are decided
        again as if they had never been said, the NEXT chain is joined around it, and entities
        no fact names any more go. Nothing of another turn or user is touched. An id that is
        not one of this user's turns raises UnknownId (UnknownUser for an unknown user)."""
        return self._remove_turn(user_id, turn_id, redact=False)

    @neo4j_lost
    def redact_turn(self, user_id: str, turn_id: str) -> TurnRemoval:
        """Like `delete_turn`, but the turn keeps its place (id, session, position, date) and
        its words are replaced by "[redacted]" (forgetting.REDACTED_TEXT)."""
        return self._remove_turn(user_id, turn_id, redact=True)

    def _remove_turn(self, user_id: str, turn_id: str, *, redact: bool) -> TurnRemoval:
        turn = self.get_turn(user_id, turn_id)
        with self._append_locks[hash(user_id) % _LOCKS]:  # not while an append numbers turns
            done = remove_turn(self.graph, user_id, turn.id, redact=redact)
        if done is None:  # deleted meanwhile
            raise UnknownId(f"user {user_id!r} has no turn {turn_id!r}")
        return done

    @neo4j_lost
    def invalidate_fact(self, user_id: str, fact_id: str, *, by: str = "user",
                        reason: str | None = None) -> FactEvent:
        """Mark one fact wrong ("forget that"): status `invalid`, with who said so (`by`), when
        and why, kept in history (`facts(history=True)`, `timeline`); its slot is decided again
        without it, so the value it had replaced is current again where nothing else replaced
        it. A fact marked already keeps its first mark. Returns the fact as it is now."""
        bounded(by, "by", MAX_ID_CHARS)
        bounded(reason, "reason", MAX_REASON_CHARS, optional=True)
        fact = self.get_fact(user_id, fact_id)
        invalidate_fact(self.graph, user_id, fact.id, by=by, reason=reason)
        return self.get_fact(user_id, fact.id)

    @neo4j_lost
    def redecide(self, user_id: str) -> Redecided:
        """Decide every slot of the user again with this version's currency rules (after an
        upgrade that changed them), in one transaction; returns the facts whose status,
        interval or count changed. UnknownUser for a user with no memory."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        self.require_user(user_id)
        return redecide_user(self.graph, user_id)  # it takes the user's write lock first

    @neo4j_lost
    def users_with_stale_rules(self) -> list[str]:
        """Every user whose slots were not all decided by this version's currency rules (created
        by an older graphmem, or imported from one, and not decided again since): what
        `graphmem redecide --stale` decides. An administrator's view over all users."""
        return admin.users_with_stale_rules(self.graph, rules_version())

    @neo4j_lost
    def get_fact(self, user_id: str, fact_id: str) -> FactEvent:
        """One fact of the user by id (UnknownId if it is not theirs, UnknownUser if the user
        has no memory)."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        bounded(fact_id, "fact_id", MAX_ID_CHARS)
        found = store_reads.fact(self.graph, user_id, fact_id)
        if found is None:
            admin.require_user(self.graph, user_id)
            raise UnknownId(f"user {user_id!r} has no fact {fact_id!r}")
        return found

    @neo4j_lost
    def get_turn(self, user_id: str, turn_id: str) -> Turn:
        """One turn of the user by stored id or source turn id, with the ids of its facts
        (UnknownId if it is not theirs; a source id two sessions share must be given as the
        stored id)."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        bounded(turn_id, "turn_id", MAX_ID_CHARS)
        return turn_named(self.graph, user_id, turn_id)

    @neo4j_lost
    def list_sessions(self, user_id: str, *, cursor: str | None = None,
                      limit: int = DEFAULT_PAGE) -> Page[SessionSummary]:
        """One page of the user's sessions, oldest first (start time, then id), each with how
        many turns it holds; pass `next_cursor` back for the next page (None: the last)."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        whole_number(limit, "limit", 1, MAX_PAGE)
        return sessions_page(self.graph, user_id, cursor, limit)

    @neo4j_lost
    def list_turns(self, user_id: str, *, session_id: str | None = None,
                   cursor: str | None = None, limit: int = DEFAULT_PAGE) -> Page[Turn]:
        """One page of the user's turns (of one session: the source's session id) in
        conversation order — sessions oldest first, turns by position; pass `next_cursor` back
        for the next page (None: the last). Every turn appears exactly once across the pages."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        bounded(session_id, "session_id", MAX_ID_CHARS, optional=True)
        whole_number(limit, "limit", 1, MAX_PAGE)
        return turns_page(self.graph, user_id, session_id, cursor, limit)

    # --- reading ---------------------------------------------------------------------------------

    @neo4j_lost
    def require_user(self, user_id: str) -> None:
        admin.require_user(self.graph, user_id)

    @neo4j_lost
    def search(self, user_id: str, query: str, *, question_date: datetime | None = None,
               as_of: datetime | None = None, k: int = DEFAULT_K,
               config: RetrievalConfig | str = DEFAULT_PRESET,
               metadata: dict[str, Any] | None = None, agent_id: str | None = None,
               run_id: str | None = None) -> list[Evidence]:
        """Ranked evidence (facts, pieces, turns) from one user's memory; with `metadata`
        ({key: value}), only evidence from turns whose metadata holds every one of these pairs
        (`agent_id` / `run_id`: the pairs of the scope)."""
        return self.search_full(user_id, query, question_date=question_date, as_of=as_of, k=k,
                                config=config, metadata=metadata, agent_id=agent_id,
                                run_id=run_id).evidence

    @neo4j_lost
    def search_full(self, user_id: str, query: str, *, question_date: datetime | None = None,
                    as_of: datetime | None = None, k: int = DEFAULT_K,
                    config: RetrievalConfig | str = DEFAULT_PRESET,
                    metadata: dict[str, Any] | None = None, agent_id: str | None = None,
                    run_id: str | None = None) -> SearchResult:
        """Like `search`, with the per-tunnel hits, the full turn ranking and timings. A query
        over MAX_QUERY_CHARS, a `k` outside 1..MAX_K or metadata outside its bounds
        (graphmem.metadata) raises OutOfBounds."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        bounded(query, "query", MAX_QUERY_CHARS)
        whole_number(k, "k", 1, MAX_K)
        pairs = reading_filter(metadata, agent_id, run_id)
        # A piece that only repeats its turn is folded into it (graphmem.places) within the
        # first MAX_K of the ranking (retrieval ranks every candidate whatever k is), so that k
        # places hold k different items; retrieval folds them and makes evidence of k places
        # only. With a metadata filter the ranking is drawn MAX_K deep, so that k places remain
        # after it.
        if pairs is None:
            return self._known(user_id, self.retriever.search(
                user_id, query, question_date=question_date, as_of=as_of, k=k, config=config,
                fold_depth=MAX_K))
        found = self.retriever.search(user_id, query, question_date=question_date, as_of=as_of,
                                      k=MAX_K, config=config)
        found.evidence = fold_whole_turn_pieces(found.evidence)
        # The metadata filter is applied after retrieval, not inside its tunnels (which rank
        # over all the user's evidence and would each need the filter): only items whose turn
        # holds every pair are kept (one query), in order. A filter matching few turns may so
        # return fewer than k items.
        turn_ids = sorted({e.turn_id for e in found.evidence if e.turn_id})
        keep = (store_reads.turns_with_metadata(self.graph, user_id, turn_ids, pairs)
                if turn_ids else set())
        found.evidence = [e for e in found.evidence if e.turn_id in keep][:k]
        return self._known(user_id, found)

    def _known(self, user_id: str, found: K) -> K:
        """`found`, once an empty result is known not to stand for an unknown user (UnknownUser:
        HTTP 404, an MCP tool error, one CLI line); a result with items needs no query."""
        if not (found.evidence if isinstance(found, SearchResult) else found):
            self.require_user(user_id)
        return found

    @neo4j_lost
    def facts(self, user_id: str, as_of: datetime | None = None, *, predicate: str | None = None,
              history: bool = False, question_date: datetime | None = None,
              limit: int = MAX_FACTS, metadata: dict[str, Any] | None = None,
              agent_id: str | None = None, run_id: str | None = None) -> list[FactEvent]:
        """The current facts, the facts valid at `as_of`, or (`history`) every version; with a
        `question_date`, as known that day; with `metadata` ({key: value}), only facts from
        turns whose metadata holds every one of these pairs. At most `limit` (1..MAX_FACTS);
        an unknown user raises UnknownUser."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        whole_number(limit, "limit", 1, MAX_FACTS)
        pairs = reading_filter(metadata, agent_id, run_id)
        return self._known(user_id, current_facts(
            self.graph, user_id, as_of, predicate=predicate, history=history,
            question_date=question_date, limit=limit, metadata=pairs))

    @neo4j_lost
    def timeline(self, user_id: str, *, entity: str | None = None, predicate: str | None = None,
                 since: datetime | None = None, until: datetime | None = None,
                 question_date: datetime | None = None, limit: int = MAX_FACTS,
                 metadata: dict[str, Any] | None = None, agent_id: str | None = None,
                 run_id: str | None = None) -> list[FactEvent]:
        """The ordered history of facts with their changes (about an entity / predicate / period);
        with a `question_date`, as known that day; with `metadata`, `limit` and an unknown user
        as in `facts`."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        whole_number(limit, "limit", 1, MAX_FACTS)
        pairs = reading_filter(metadata, agent_id, run_id)
        return self._known(user_id, fact_timeline(
            self.graph, user_id, entity=entity, predicate=predicate, since=since, until=until,
            question_date=question_date, limit=limit, metadata=pairs))

    @neo4j_lost
    def inspect(self, user_id: str, node_id: str) -> dict[str, Any]:
        """A memory card for a fact, piece, turn (stored or source id) or entity (id or name);
        UnknownId when it names nothing of the user's, UnknownUser for an unknown user."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        bounded(node_id, "id", MAX_ID_CHARS)
        card = inspect(self.graph, user_id, node_id)
        if card is None:
            self.require_user(user_id)
            raise UnknownId(f"user {user_id!r} has no fact, piece, turn, session or entity "
                            f"{node_id!r}")
        return card

    @neo4j_lost
    def turns(self, user_id: str, turn_ids: list[str]) -> list[dict[str, Any]]:
        return store_answer.turns_by_id(self.graph, user_id, turn_ids)

    @neo4j_lost
    def session_window(self, user_id: str, turn_id: str, window: int) -> list[dict[str, Any]]:
        return store_answer.session_window(self.graph, user_id, turn_id, window)

    @neo4j_lost
    def cypher_read(self, user_id: str, statement: str,
                    params: dict[str, Any] | None = None) -> dict[str, Any]:
        return cypher_read(self.graph, user_id, statement, params)

    @neo4j_lost
    def stats(self, user_id: str | None = None) -> dict[str, int]:
        bounded(user_id, "user_id", MAX_ID_CHARS, optional=True)
        row = admin.stats(self.graph, user_id)
        if user_id is not None and row["users"] == 0:
            raise UnknownUser(f"no memory for user {user_id!r} (without a user, stats counts "
                              "every user)")
        return row

    @neo4j_lost
    def facts_by_extractor(self, user_id: str | None = None) -> dict[str, int]:
        """How many facts each rule (`rule:<id>`), model version or LLM made."""
        if user_id is not None and not admin.user_exists(self.graph, user_id):
            raise UnknownUser(f"no memory for user {user_id!r}")
        return admin.facts_by_extractor(self.graph, user_id)

    @neo4j_lost
    def answer(self, user_id: str, question: str, *, question_date: datetime | None = None,
               budget: int = DEFAULT_BUDGET, reader_llm: LLMClient | None = None,
               offline: bool = False) -> Answer:
        """An answer citing the turns it stands on (or "not in memory"), with the planner's tool
        trace, tokens and cost; extractive and labelled so when no LLM is configured. A
        question over MAX_QUERY_CHARS or a `budget` outside 0..MAX_BUDGET raises OutOfBounds."""
        bounded(user_id, "user_id", MAX_ID_CHARS)
        bounded(question, "question", MAX_QUERY_CHARS)
        whole_number(budget, "budget", 0, MAX_BUDGET)
        client = None if offline else self.llm
        return Answerer(self, client, reader_client=reader_llm, budget=budget).answer(
            user_id, question, question_date)

    # --- moving memory -----------------------------------------------------------------------

    @neo4j_lost
    def export_user(self, user_id: str, out: IO[str]) -> dict[str, Any]:
        """Write one user's whole memory to `out` as JSONL; counts and a checksum of the graph."""
        return export_user(self.graph, user_id, out)

    @neo4j_lost
    def import_user(self, path: str | Path) -> dict[str, Any]:
        """Restore an export into this database (which must not hold that user yet), checked
        whole first and written in one transaction; counts and the checksum."""
        return import_user(self.graph, Path(path))

    # --- the vector space ----------------------------------------------------------------------

    @neo4j_lost
    def reembed(self, to: str | None = None, *, batch: int = 256,
                on_progress: Callable[[str, int, int], None] | None = None) -> ReembedReport:
        """Re-embed every stored embedding with the embedder `to` names (default: the configured
        one), resumable; see graphmem.reembed. This Memory embeds with it afterwards."""
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
