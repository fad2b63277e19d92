"""Ingest: transcripts become sessions, verbatim turns, MessagePieces and provenance-checked
FactEvents in Neo4j, one transaction per session, idempotent on re-run."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from .correcting import corrected, correction_facts
from .currency import (
    ENDED_BY_LEAVING,
    ended_by_leaving,
    maintain_currency,
)
from .currency_rules import rules_version
from .db import Graph
from .embed import Embedder, window_ends
from .entities import normalise_name
from .extract import Extractor
from .metadata import from_pairs
from .models import (
    MessagePiece,
    SessionRecord,
    Transcript,
    TurnRecord,
    stable_id,
)
from .predicates import lookup
from .relate import RELATABLE_MODALITIES, link_for
from .session_plan import (  # noqa: F401 - IngestReport, Made, Rejection, MAX_EXTRACT_CHARS: re-exported
    MAX_EXTRACT_CHARS,
    IngestReport,
    Made,
    Rejection,
    SessionPlanner,
    content_hash,
    extractor_turns,
    session_pieces,
)
from .session_plan import SessionPlan as _Plan
from .store import currency as store_currency
from .store import sessions as store
from .store.nodes import Turn
from .store.time import utc_native
from .timestamps import local, read_time_zone


@dataclass
class IngestOptions:
    embed_turn_roles: tuple[str, ...] = ("user",)  # which turns get a vector
    embed_facts: bool = True
    embed_pieces: bool = False  # every piece of every turn (1.6 M on the dev file: too slow)
    # An embedded turn longer than the embedder's window also gets vectors for its pieces past
    # that window, so it is scored by its best part, not by its opening only (the dense tunnel
    # takes the max over the turn and its pieces); the turn's own vector covers the rest.
    embed_long_turn_pieces: bool = True
    long_turn_chars: int = 512  # the window of an embedder that cannot say its own (no tokenizer)
    embed_entities: bool = True  # entity names: needed to resolve "NYC" to "New York City"
    entity_merge_cosine: float = 0.88  # a new name this close to a known entity is an alias
    currency: bool = True  # maintain SUPERSEDES / UPDATES / CONTRADICTS at write time
    # With a judge (relate.LLMRelationJudge), an LLM also names the relation between each new
    # fact and the stored facts that may compete with it beyond the slot rules.
    relation_judge: Any = None
    relation_min_cosine: float = 0.6  # a candidate "by similarity" is at least this close
    relation_per_way: int = 4  # candidates taken by slot, by entity and by similarity, each
    batch_sessions: int = 256  # sessions planned and embedded together, then written one by one
    verbose: bool = False


@dataclass
class AppendReport:
    """What appending messages to a live session did."""

    session_id: str  # the stored Session id
    session_source_id: str
    created: bool  # the session was created by this call
    added: list[Turn] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # source turn ids already stored
    pieces: int = 0
    facts: int = 0
    rejected: int = 0
    judged_links: int = 0
    seconds: float = 0.0


@dataclass
class _Batch:
    """Planned, embedded sessions of one user, ready to write."""

    user_id: str
    plans: list[_Plan] = field(default_factory=list)
    unchanged: int = 0  # sessions stored already, unchanged
    first: bool = False  # the user's first batch


class Ingestor:
    """Writes transcripts into one Graph with one extractor and one embedder."""

    def __init__(self, graph: Graph, extractor: Extractor, embedder: Embedder | None,
                 options: IngestOptions | None = None):
        self.graph = graph
        self.extractor = extractor
        self.embedder = embedder
        self.options = options or IngestOptions()

    # --- planning (pure: no database; see session_plan) -----------------------------------------

    def plan_session(self, user_id: str, session: SessionRecord, *, first_idx: int = 1,
                     prev_turn_id: str | None = None, prepared: Any = None,
                     pieces: list[list[MessagePiece]] | None = None) -> _Plan:
        """Plan a whole session, or (with `first_idx`) the turns that follow the stored ones;
        `prepared`: the extractor's reading of it and `pieces` its turns' pieces, as
        `_plan_sessions` cut them."""
        return SessionPlanner(self.extractor, self.options.verbose).plan(
            user_id, session, first_idx=first_idx, prev_turn_id=prev_turn_id, prepared=prepared,
            pieces=pieces)

    def _plan_sessions(self, user_id: str, sessions: list[SessionRecord]) -> list[_Plan]:
        """Plan whole sessions of one user; an extractor that reads several sessions at once
        (`read_sessions`: the learned tagger, whose batches one session's turns do not fill)
        reads them all first."""
        read = getattr(self.extractor, "read_sessions", None)
        if read is None or len(sessions) < 2:
            return [self.plan_session(user_id, s) for s in sessions]
        pieces = [session_pieces(user_id, s) for s in sessions]
        prepared = read([extractor_turns(s, ps) for s, ps in zip(sessions, pieces, strict=True)])
        return [self.plan_session(user_id, s, prepared=p, pieces=ps)
                for s, p, ps in zip(sessions, prepared, pieces, strict=True)]

    def _embed(self, plans: list[_Plan]) -> None:
        """One embedding call for many sessions (batching is where the speed is)."""
        if self.embedder is None:
            return
        targets: list[tuple[dict[str, Any], str]] = []
        opts = self.options
        for plan in plans:
            turns = [t for t in plan.turns
                     if t["role"] in opts.embed_turn_roles and t["text"].strip()]
            targets += [(t, t["text"]) for t in turns]
            if opts.embed_facts:
                targets += [(f, f["text"]) for f in plan.facts]
            if opts.embed_pieces:
                targets += [(p, p["text"]) for p in plan.pieces]
            elif opts.embed_long_turn_pieces:
                ends = window_ends(self.embedder, [t["text"] for t in turns],
                                   opts.long_turn_chars)
                read = {t["id"]: end for t, end in zip(turns, ends, strict=True)
                        if end < len(t["text"])}
                targets += [(p, p["text"]) for p in plan.pieces
                            if p["turn_id"] in read and p["end"] > read[p["turn_id"]]]
            if opts.embed_entities:
                targets += [(e, e["name"]) for e in plan.entities]
        vectors = self.embedder.embed_documents([text for _, text in targets])
        for (row, _), vec in zip(targets, vectors, strict=True):
            row["embedding"] = vec

    def _resolve_entities(self, user_id: str, plan: _Plan) -> None:
        """Point new entity names at a known entity when their embeddings say they are one."""
        rows = [e for e in plan.entities if e["embedding"] is not None]
        if not rows:
            return
        alias = store.resolve_entities(self.graph, user_id, rows, self.options.entity_merge_cosine)
        if not alias:
            return
        for e in plan.entities:
            e["id"] = alias.get(e["id"], e["id"])
        for r in plan.roles:
            r["entity_id"] = alias.get(r["entity_id"], r["entity_id"])
        for r in plan.relations:
            r["subject_id"] = alias.get(r["subject_id"], r["subject_id"])
            r["object_id"] = alias.get(r["object_id"], r["object_id"])

    def _relate(self, user_id: str, plan: _Plan) -> None:
        """Ask the relation judge about each new fact and its candidate neighbours (stored facts
        found by predicate, entity and similarity, and earlier facts of the same session)."""
        judge, opts = self.options.relation_judge, self.options
        if judge is None or not opts.currency:
            return
        # Not a fact read in passing (a mention): it ends nothing and its end claims no change
        # (currency._superseded_by), whoever would decide it; stored mentions are not offered.
        new = [f for f in plan.facts
               if f["modality"] in RELATABLE_MODALITIES and not f.get("mention")]
        if not new:
            return
        entity_ids: dict[str, list[str]] = {}
        for r in plan.roles:
            entity_ids.setdefault(r["fact_id"], []).append(r["entity_id"])
        rows = [{"id": f["id"], "subject": f["subject"], "predicate": f["predicate"],
                 "slot": f["slot"], "embedding": f["embedding"],
                 "entity_ids": entity_ids.get(f["id"], [])} for f in new]
        found = store_currency.candidates(
            self.graph, user_id, rows, modalities=sorted(RELATABLE_MODALITIES),
            min_cosine=opts.relation_min_cosine, per_way=opts.relation_per_way,
            limit=judge.max_candidates)
        items = _judged_pairs(new, found, entity_ids, {f["id"] for f in plan.facts})
        by_id = {f["id"]: f for f in new}
        for _fact, cands in items:
            for c in cands:
                by_id.setdefault(c["id"], c)
        for p in judge.propose(items):
            link = link_for(p.relation, by_id[p.new_id], by_id[p.candidate_id])
            if link is not None:
                plan.currency_links.append(link)
        plan.report.judged_links = len(plan.currency_links)

    # --- writing ---------------------------------------------------------------------------------

    @staticmethod
    def _ended_by_leaving(tx: Any, user_id: str,
                          facts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The negated facts this session's `left` facts make of what the user held (read in
        the write transaction, so the facts of a batch written just before are seen)."""
        left = [f for f in facts if f["modality"] == "asserted"
                and (entry := lookup(f["predicate"])) is not None and entry.ends_held]
        if not left:
            return []
        held = store_currency.held_facts(tx, user_id, sorted(ENDED_BY_LEAVING),
                                         sorted({f["subject"] for f in left}))
        return ended_by_leaving(left, held,
                                lambda *parts: stable_id(parts[0], user_id, *parts[1:]))

    def _corrected(self, tx: Any, user_id: str, plan: _Plan) -> list[dict[str, Any]]:
        """The facts this session's corrections make: each new value in the slot of the fact it
        corrects, and that fact's retraction (graphmem.correcting), written one correction at a
        time so a later one sees an earlier one's facts."""
        made: list[dict[str, Any]] = []
        planner = SessionPlanner(self.extractor)
        for said in plan.corrections:
            anchors = store_currency.correction_anchors(tx, user_id, said.said.astimezone(UTC))
            if said.speaker:  # in a chat between named people, one corrects only their own facts
                anchors = [a for a in anchors if a.subject == normalise_name(said.speaker)]
            found = corrected(said.correction, said.piece.text, plan.session["id"],
                              said.turn_idx, anchors)
            if found is None:
                continue
            rows, entities, roles = planner.correction_rows(
                user_id, said, correction_facts(said.correction, said.piece.text, *found))
            rows[1]["retraction"] = True  # the replaced value never held
            if self.embedder is not None and self.options.embed_facts:
                for row, vec in zip(rows, self.embedder.embed_documents(
                        [r["text"] for r in rows]), strict=True):
                    row["embedding"] = vec
            store.write_facts(tx, user_id, plan.session["id"], rows, entities, roles, [])
            made += rows
        return made

    def _write(self, user_id: str, plan: _Plan) -> None:
        sid = plan.session["id"]

        def work(tx: Any) -> None:
            rules = rules_version() if self.options.currency else None
            if plan.appended:
                store.grow_session(tx, user_id, plan.session, added=len(plan.turns), rules=rules)
            else:
                store.write_session(tx, user_id, plan.session, rules)
            store.write_turns(tx, user_id, sid, plan.turns, plan.links)
            store.write_pieces(tx, user_id, sid, plan.pieces)
            store.write_facts(tx, user_id, sid, plan.facts, plan.entities, plan.roles,
                              plan.relations)
            if self.options.currency:
                fixed = self._corrected(tx, user_id, plan)
                ended = self._ended_by_leaving(tx, user_id, plan.facts)
                if ended:
                    store.write_facts(tx, user_id, sid, ended, [], [], [])
                # Only the slots the new facts touch are re-decided.
                slots = sorted({f["slot"] for f in plan.facts + ended + fixed if f["slot"]})
                if slots:
                    maintain_currency(tx, user_id, slots)
                if plan.currency_links:
                    store_currency.link(tx, user_id, self.options.relation_judge.name,
                                        [vars(x) for x in plan.currency_links])
                    store_currency.overlay(tx, user_id,
                                           sorted({x.target for x in plan.currency_links}))

        with self.graph.session() as s:
            s.execute_write(work)

    def _already_ingested(self, user_id: str, session: SessionRecord) -> bool:
        stored = store.session(self.graph, user_id, stable_id("session", user_id, session.source_id))
        return stored is not None and stored.content_hash == content_hash(session)

    def append(self, user_id: str, session_source_id: str, turns: list[TurnRecord], *,
               session_time: datetime | None = None) -> AppendReport:
        """Write new turns after the stored turns of one session (created on first use, starting
        at `session_time`, else at its first message's timestamp, else now). Each turn is dated
        by its own `timestamp`, else by `session_time`, else by the session's start; a time
        without an offset is read in the user's time zone (UTC without one), and the turn's
        time phrases resolve in that local day. Turns whose source id the session already holds are
        left alone, so re-sending a message changes nothing; the session's other turns are not
        touched, and currency is re-decided only for the slots the new facts compete in. Callers
        serialise appends to one session (`Memory` holds a lock per session)."""
        started = time.perf_counter()
        sid = stable_id("session", user_id, session_source_id)
        stored = store.session(self.graph, user_id, sid)
        ids = [t.source_id for t in turns if t.source_id]
        known = store.known_turn_sources(self.graph, user_id, sid, ids) if stored and ids else set()
        out = AppendReport(sid, session_source_id, created=stored is None)
        fresh, seen = [], set(known)
        for t in turns:
            if t.source_id and t.source_id in seen:
                out.unchanged.append(t.source_id)
                continue
            if t.source_id:
                seen.add(t.source_id)
            fresh.append(t)
        if not fresh:
            out.seconds = time.perf_counter() - started
            return out
        count = stored.turn_count if stored else 0
        zone_name = store.user_time_zone(self.graph, user_id)
        zone = read_time_zone(zone_name) if zone_name else None
        given = local(session_time, zone) if session_time else None
        own = [local(t.timestamp, zone) for t in fresh if t.timestamp]
        if stored and stored.started_at:
            opened = stored.started_at
        else:  # a new session starts at the time given, else at its first message's, else now
            opened = given or (own[0] if own else datetime.now(zone or UTC))
        # A message without its own timestamp was said at the time given with this call, else
        # (as before timestamps existed) at the session's start.
        dated = [replace(t, timestamp=local(t.timestamp, zone) if t.timestamp else given or opened)
                 for t in fresh]
        last = stored.last_idx() if stored else None  # turns deleted one by one are skipped
        prev = stable_id("turn", user_id, session_source_id, last) if last else None
        plan = self.plan_session(user_id, SessionRecord(session_source_id, opened, dated),
                                 first_idx=count + 1, prev_turn_id=prev)
        plan.appended = True
        self._embed([plan])
        self._resolve_entities(user_id, plan)
        self._relate(user_id, plan)
        self._write(user_id, plan)
        out.added = [Turn(id=t["id"], session_id=sid, source_id=t["source_id"], idx=t["idx"],
                          role=t["role"], text=t["text"], speaker=t["speaker"],
                          mentioned_at=t["mentioned_at"], metadata=from_pairs(t["metadata"]))
                     for t in plan.turns]
        out.pieces, out.facts = plan.report.pieces, plan.report.facts
        out.rejected, out.judged_links = plan.report.rejected, plan.report.judged_links
        out.seconds = time.perf_counter() - started
        return out

    def _prepared(self, transcripts: Iterable[Transcript]) -> Iterator[_Batch]:
        """Each transcript's new sessions, planned and embedded, a batch at a time (pure work
        but for the check of what is stored: it may run ahead of the writes, so a session given
        twice in one call is recognised here too)."""
        planned: set[tuple[str, str, str]] = set()
        for transcript in transcripts:
            user_id = transcript.user_id
            sessions = [s for s in transcript.sessions if s.turns]
            batch = _Batch(user_id, first=True)
            new: list[SessionRecord] = []
            for i, session in enumerate(sessions):
                key = (user_id, session.source_id, content_hash(session))
                if key in planned or self._already_ingested(user_id, session):
                    batch.unchanged += 1
                else:
                    planned.add(key)
                    new.append(session)
                if len(new) >= self.options.batch_sessions and i < len(sessions) - 1:
                    batch.plans = self._plan_sessions(user_id, new)
                    self._embed(batch.plans)
                    yield batch
                    batch, new = _Batch(user_id), []
            batch.plans = self._plan_sessions(user_id, new)
            if batch.plans:
                self._embed(batch.plans)
            yield batch

    def _commit(self, batch: _Batch, total: IngestReport,
                on_session: Callable[[IngestReport], None] | None) -> None:
        """Write one prepared batch, session by session (one transaction each)."""
        total.sessions_unchanged += batch.unchanged
        if on_session:
            for _ in range(batch.unchanged):
                on_session(IngestReport(sessions_unchanged=1))
        for plan in batch.plans:
            self._resolve_entities(batch.user_id, plan)
            self._relate(batch.user_id, plan)
            self._write(batch.user_id, plan)
            total.add(plan.report)
            if on_session:
                on_session(plan.report)

    def ingest_transcript(self, transcript: Transcript,
                          on_session: Callable[[IngestReport], None] | None = None
                          ) -> IngestReport:
        """Ingest every new session of one user; sessions already stored unchanged are skipped."""
        return self.ingest([transcript], on_session)

    def ingest(self, transcripts: Iterable[Transcript],
               on_session: Callable[[IngestReport], None] | None = None) -> IngestReport:
        """Ingest transcripts in order. The next batch is planned and embedded (the model runs
        outside the GIL) while this one is written, so the model and Neo4j work at once; writes
        stay in this thread, in order, so a failing batch leaves every earlier one written."""
        started = time.perf_counter()
        total = IngestReport()
        batches = self._prepared(transcripts)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-ingest") as ahead:
            upcoming = ahead.submit(next, batches, None)
            while (batch := upcoming.result()) is not None:
                upcoming = ahead.submit(next, batches, None)
                total.users += batch.first
                self._commit(batch, total, on_session)
        total.seconds = time.perf_counter() - started
        return total


def _judged_pairs(new: list[dict[str, Any]], found: list[dict[str, Any]],
                  entity_ids: dict[str, list[str]],
                  own: set[str]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Each new fact with the facts the relation judge is asked about: the stored candidates
    found for it (not of this plan) and the earlier facts of this session on the same predicate
    or entity, outside its slot."""
    stored: dict[str, list[dict[str, Any]]] = {}
    for row in found:
        c = {**row, "mentioned_at": utc_native(row["mentioned_at"]),
             "occurred_start": utc_native(row["occurred_start"])}
        stored.setdefault(c.pop("new_id"), []).append(c)
    items = []
    for i, f in enumerate(new):
        same = [g for g in new[:i] if g["subject"] == f["subject"] and (
            g["predicate"] == f["predicate"]
            or set(entity_ids.get(g["id"], [])) & set(entity_ids.get(f["id"], [])))
            and not (f["slot"] and g["slot"] == f["slot"])]
        cands = [c for c in stored.get(f["id"], []) if c["id"] not in own] + same
        if cands:
            items.append((f, cands))
    return items
