"""Ingest: transcripts become sessions, verbatim turns, MessagePieces and provenance-checked
FactEvents in Neo4j, one transaction per session, idempotent on re-run."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from pydantic import Field

from .correcting import corrected, correction_facts
from .currency import (
    ENDED_BY_LEAVING,
    Link,
    ended_by_leaving,
    is_retraction,
    maintain_currency,
    slot_key,
)
from .db import Graph
from .embed import Embedder, window_ends
from .entities import entity_id, is_self, normalise_name
from .errors import InputError
from .extract import Extractor
from .extract.base import extract_in_turn
from .extract.corrections import Correction
from .extract.corrections import read as read_correction
from .extract.names import addressed_name
from .metadata import from_pairs, to_pairs
from .models import (
    NAME_PREDICATE,
    FactCandidate,
    MessagePiece,
    RoleRef,
    SessionRecord,
    Transcript,
    TurnRecord,
    stable_id,
)
from .predicates import lookup
from .relate import RELATABLE_MODALITIES, link_for
from .responses import IngestCounts
from .segment import extraction_window, pieces_of_turn
from .store import currency as store_currency
from .store import sessions as store
from .store.nodes import Turn
from .store.time import utc_native
from .temporal import resolve_time_expression, tense_prefers
from .timestamps import local, read_time_zone

# Turns longer than this are stored whole but only their first part is segmented and searched
# for facts: a pasted document is not a statement about the user.
MAX_EXTRACT_CHARS = 20_000
CONTEXT_CHARS = 300  # the turn's words before a piece that an extractor may read (not cite)


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
class Rejection:
    turn_source_id: str | None
    predicate: str
    support: str
    reason: str


@dataclass
class Made:
    """A fact written, as `ingest -v` shows it: what it says and what made it."""

    turn_source_id: str | None
    predicate: str
    value: str | None
    modality: str
    extracted_by: str


class IngestReport(IngestCounts):
    """What an ingest did: its counts (declared with the results every door returns), how long
    it took, the candidates it rejected and, with `verbose`, every fact written."""

    seconds: float = 0.0
    rejections: list[Rejection] = Field(default_factory=list)
    made: list[Made] = Field(default_factory=list)

    def add(self, other: IngestReport) -> None:
        for name in ("sessions", "sessions_unchanged", "turns", "pieces", "facts", "rejected",
                     "entities", "judged_links"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.rejections.extend(other.rejections)
        self.made.extend(other.made)


def _content_hash(session: SessionRecord) -> str:
    h = hashlib.blake2b(digest_size=16)
    h.update(str(session.started_at).encode())
    for t in session.turns:
        h.update(f"\x1e{t.role}\x1f{t.speaker}\x1f{t.source_id}\x1f{t.text}".encode())
        if t.timestamp is not None:  # only then: the hashes of sessions without stay as they were
            h.update(f"\x1f{t.timestamp.isoformat()}".encode())
        if t.metadata:  # likewise
            h.update(f"\x1f{to_pairs(t.metadata)}".encode())
    return h.hexdigest()


def _locate_support(cand: FactCandidate, piece: MessagePiece, turn_text: str) -> tuple[int, int]:
    """Absolute offsets of the support inside the turn, or raise ValueError with the reason."""
    if not cand.support or not cand.support.strip():
        raise ValueError("empty support span")
    rel = piece.text.find(cand.support)
    if rel < 0:
        raise ValueError("support does not occur in the source piece")
    start = piece.start + rel
    end = start + len(cand.support)
    if turn_text[start:end] != cand.support:
        raise ValueError("support does not occur at the stored offsets of the turn")
    return start, end


def _as_speaker(cand: FactCandidate, speaker: str) -> FactCandidate:
    """In a conversation between named people (LoCoMo), "I" is the speaker, not the owner."""
    text = cand.text
    if text.startswith(("User ", "User's ", "User’s ")):
        text = speaker + text[4:]
    roles = [r for r in cand.roles if not (r.role == "subject" and is_self(r.name))]
    return replace(cand, subject=speaker, text=text,
                   roles=[RoleRef("subject", speaker, "person"), *roles])


def _addressed(text: str, piece: MessagePiece, speakers: tuple[str, ...],
               speaker: str) -> FactCandidate | None:
    """In a two-person chat, a message that opens by addressing someone by another name ("Hey
    Kate!") says what the other speaker is called."""
    found = addressed_name(piece.text, speakers)
    if found is None:
        return None
    name, start, end = found
    other = next(s for s in speakers if s != speaker)
    return FactCandidate(kind="attribute", predicate=NAME_PREDICATE, text=f"{other} is called {name}.",
                         support=piece.text[start:end].strip(), subject=other, value=name,
                         roles=[RoleRef("subject", other, "person")],
                         extracted_by="rule:ingest.addressed")


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
class _Plan:
    """Everything one session will write, prepared before the transaction opens."""

    session: dict[str, Any]
    turns: list[dict[str, Any]]
    links: list[dict[str, Any]]
    pieces: list[dict[str, Any]]
    facts: list[dict[str, Any]]
    entities: list[dict[str, Any]]
    roles: list[dict[str, Any]]
    relations: list[dict[str, Any]]
    report: IngestReport
    currency_links: list[Link] = field(default_factory=list)  # decided by the relation judge
    appended: bool = False  # new turns of a stored session, not a whole session
    # Corrections said in the session ("scratch that, it's three"), decided at write time
    corrections: list[_Said] = field(default_factory=list)


@dataclass(frozen=True)
class _Said:
    """A correction, where it was said: decided against the user's facts at write time."""

    correction: Correction
    turn_id: str
    turn_idx: int
    turn_text: str
    piece: MessagePiece
    said: datetime
    speaker: str | None


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

    # --- planning (pure: no database) ----------------------------------------------------------

    def plan_session(self, user_id: str, session: SessionRecord, *, first_idx: int = 1,
                     prev_turn_id: str | None = None) -> _Plan:
        """Plan a whole session, or (with `first_idx`) the turns that follow the stored ones."""
        if session.started_at is None:
            raise InputError(f"user {user_id!r} session {session.source_id!r} has no start time")
        # Each turn's time phrases resolve in its own local day (the offset it was given); every
        # time is stored as a fixed UTC offset (see store.time.utc_native).
        opened = local(session.started_at, None)
        t_s = opened.astimezone(UTC)
        session_id = stable_id("session", user_id, session.source_id)
        report = IngestReport(sessions=1)
        turns, links, pieces, facts = [], [], [], []
        corrections: list[_Said] = []
        entities: dict[str, dict[str, Any]] = {}
        roles: list[dict[str, Any]] = []
        relations: list[dict[str, Any]] = []
        prev_id = prev_turn_id
        speakers = tuple(dict.fromkeys(t.speaker for t in session.turns if t.speaker))
        all_pieces = [pieces_of_turn(user_id, stable_id("turn", user_id, session.source_id, k),
                                     rec.text[:extraction_window(rec.text, MAX_EXTRACT_CHARS)])
                      for k, rec in enumerate(session.turns, start=first_idx)]
        prepare = getattr(self.extractor, "prepare", None)
        if prepare is not None:  # a batching extractor reads the whole session at once
            prepare([(p.text, rec.role) for rec, ps in zip(session.turns, all_pieces, strict=True)
                     for p in ps])
        for (k, rec), turn_pieces in zip(enumerate(session.turns, start=first_idx), all_pieces,
                                         strict=True):
            source_id = rec.source_id or f"{session.source_id}_{k}"
            turn_id = stable_id("turn", user_id, session.source_id, k)
            said = local(rec.timestamp, None) if rec.timestamp else opened
            turns.append({"id": turn_id, "source_id": source_id, "idx": k, "role": rec.role,
                          "speaker": rec.speaker, "text": rec.text,
                          "mentioned_at": said.astimezone(UTC),
                          "metadata": to_pairs(rec.metadata), "embedding": None})
            if prev_id:
                links.append({"prev_id": prev_id, "id": turn_id})
            prev_id = turn_id
            piece_rows = [{"id": p.id, "turn_id": turn_id, "start": p.start, "end": p.end,
                           "text": p.text, "embedding": None} for p in turn_pieces]
            pieces.extend(piece_rows)
            for piece in turn_pieces:
                if rec.role == "user" and (fix := read_correction(piece.text)) is not None:
                    corrections.append(_Said(fix, turn_id, k, rec.text, piece, said, rec.speaker))
                before = rec.text[max(0, piece.start - CONTEXT_CHARS):piece.start]
                for cand in extract_in_turn(self.extractor, piece.text, rec.role, before):
                    try:
                        start, _end = _locate_support(cand, piece, rec.text)
                        if lookup(cand.predicate) is None:
                            raise ValueError("its predicate is not in the registry")
                    except ValueError as why:
                        report.rejected += 1
                        if self.options.verbose:
                            report.rejections.append(
                                Rejection(source_id, cand.predicate, cand.support, str(why)))
                        continue
                    if rec.speaker and is_self(cand.subject):
                        cand = _as_speaker(cand, rec.speaker)
                    facts.append(self._fact_row(user_id, turn_id, k, piece, cand, start, said,
                                                entities, roles, relations))
                    if self.options.verbose:
                        report.made.append(Made(source_id, cand.predicate, cand.value,
                                                cand.modality, facts[-1]["extracted_by"]))
            if len(speakers) == 2 and rec.speaker in speakers and turn_pieces:
                addressed = _addressed(rec.text, turn_pieces[0], speakers, rec.speaker)
                if addressed is not None:
                    start, _end = _locate_support(addressed, turn_pieces[0], rec.text)
                    facts.append(self._fact_row(user_id, turn_id, k, turn_pieces[0], addressed,
                                                start, said, entities, roles, relations))
        report.turns = len(turns)
        report.pieces = len(pieces)
        report.facts = len(facts)
        report.entities = len(entities)
        session_row = {"id": session_id, "source_id": session.source_id, "started_at": t_s,
                       "turn_count": len(turns), "content_hash": _content_hash(session),
                       "speakers": list(speakers)}
        return _Plan(session_row, turns, links, pieces, facts, list(entities.values()), roles,
                     relations, report, corrections=corrections)

    def _fact_row(self, user_id: str, turn_id: str, turn_idx: int, piece: MessagePiece,
                  cand: FactCandidate,
                  start: int, said: datetime, entities: dict[str, dict[str, Any]],
                  roles: list[dict[str, Any]], relations: list[dict[str, Any]]) -> dict[str, Any]:
        """The fact's row; `said` is when its turn was said, in the turn's own local time."""
        fact_id = stable_id("fact", user_id, turn_id, start, cand.predicate, cand.value)
        entry = lookup(cand.predicate)
        ahead = cand.modality == "planned" or (entry is not None and entry.time_ahead)
        prefer = "future" if ahead else tense_prefers(piece.text)
        when = (resolve_time_expression(cand.time_text, said, prefer=prefer)
                if cand.time_text else None)
        t_s = said.astimezone(UTC)
        occurred_start = when.start.astimezone(UTC) if when and when.start else None
        occurred_end = when.end.astimezone(UTC) if when and when.end else None
        subject_key = user_id if is_self(cand.subject) else None
        object_key = None
        for role in cand.roles:
            if is_self(role.name):
                continue
            norm = normalise_name(role.name, role.type)
            if not norm:
                continue
            eid = entity_id(user_id, norm)
            entities.setdefault(eid, {"id": eid, "name": role.name.strip(), "norm_name": norm,
                                      "type": role.type, "mentioned_at": t_s, "embedding": None})
            roles.append({"fact_id": fact_id, "entity_id": eid, "role": role.role})
            if role.role == "subject":
                subject_key = eid
            elif object_key is None:
                object_key = eid
        if subject_key and object_key and cand.modality != "hypothetical":
            relations.append({"subject_id": subject_key, "object_id": object_key,
                              "predicate": cand.predicate, "fact_id": fact_id})
        subject = "user" if is_self(cand.subject) else normalise_name(cand.subject)
        return {
            "id": fact_id, "turn_id": turn_id, "turn_idx": turn_idx, "span_start": start,
            "kind": cand.kind,
            "predicate": cand.predicate, "value": cand.value, "subject": subject,
            "slot": slot_key(subject, cand.predicate, cand.value, cand.modality),
            "text": cand.text, "support": cand.support, "modality": cand.modality,
            "retraction": cand.modality == "negated" and is_retraction(piece.text),
            "mentioned_at": t_s, "time_text": cand.time_text,
            "time_resolved": bool(when and when.resolved) if cand.time_text else None,
            "occurred_start": occurred_start,
            "occurred_end": occurred_end,
            "valid_from": occurred_start or t_s, "extractor": self.extractor.name,
            "extracted_by": cand.extracted_by or self.extractor.name,
            "mention": not cand.competes,  # read in passing: ended by a later fact, ends none
            "piece_ids": [piece.id], "embedding": None,
        }

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
        new = [f for f in plan.facts if f["modality"] in RELATABLE_MODALITIES]
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
        stored: dict[str, list[dict[str, Any]]] = {}
        for row in found:
            c = {**row, "mentioned_at": utc_native(row["mentioned_at"]),
                 "occurred_start": utc_native(row["occurred_start"])}
            stored.setdefault(c.pop("new_id"), []).append(c)
        own = {f["id"] for f in plan.facts}
        items = []
        for i, f in enumerate(new):
            # Earlier facts of this session on the same predicate or entity, outside its slot.
            same = [g for g in new[:i] if g["subject"] == f["subject"] and (
                g["predicate"] == f["predicate"]
                or set(entity_ids.get(g["id"], [])) & set(entity_ids.get(f["id"], [])))
                and not (f["slot"] and g["slot"] == f["slot"])]
            cands = [c for c in stored.get(f["id"], []) if c["id"] not in own] + same
            if cands:
                items.append((f, cands))
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
        for said in plan.corrections:
            anchors = store_currency.correction_anchors(tx, user_id, said.said.astimezone(UTC))
            if said.speaker:  # in a chat between named people, one corrects only their own facts
                anchors = [a for a in anchors if a.subject == normalise_name(said.speaker)]
            found = corrected(said.correction, said.piece.text, plan.session["id"],
                              said.turn_idx, anchors)
            if found is None:
                continue
            entities: dict[str, dict[str, Any]] = {}
            roles: list[dict[str, Any]] = []
            rows = []
            for cand in correction_facts(said.correction, said.piece.text, *found):
                start, _end = _locate_support(cand, said.piece, said.turn_text)
                rows.append(self._fact_row(user_id, said.turn_id, said.turn_idx, said.piece,
                                           cand, start, said.said, entities, roles, []))
            rows[1]["retraction"] = True  # the replaced value never held
            if self.embedder is not None and self.options.embed_facts:
                for row, vec in zip(rows, self.embedder.embed_documents(
                        [r["text"] for r in rows]), strict=True):
                    row["embedding"] = vec
            store.write_facts(tx, user_id, plan.session["id"], rows, list(entities.values()),
                              roles, [])
            made += rows
        return made

    def _write(self, user_id: str, plan: _Plan) -> None:
        sid = plan.session["id"]

        def work(tx: Any) -> None:
            if plan.appended:
                store.grow_session(tx, user_id, plan.session, added=len(plan.turns))
            else:
                store.write_session(tx, user_id, plan.session)
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
        return stored is not None and stored.content_hash == _content_hash(session)

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
            sessions = [s for s in transcript.sessions if s.turns]
            batch = _Batch(transcript.user_id, first=True)
            for i, session in enumerate(sessions):
                key = (transcript.user_id, session.source_id, _content_hash(session))
                if key in planned or self._already_ingested(transcript.user_id, session):
                    batch.unchanged += 1
                else:
                    planned.add(key)
                    batch.plans.append(self.plan_session(transcript.user_id, session))
                if len(batch.plans) >= self.options.batch_sessions and i < len(sessions) - 1:
                    self._embed(batch.plans)
                    yield batch
                    batch = _Batch(transcript.user_id)
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
