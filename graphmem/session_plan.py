"""Planning one session's writes, pure (no database): its verbatim turns, their MessagePieces,
the provenance-checked FactEvents the extractor finds in them, and their entities, roles and
relations. `Ingestor` embeds, relates and writes what is planned here."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from pydantic import Field

from .currency import Link, is_retraction, slot_key
from .entities import entity_id, is_self, normalise_name
from .errors import InputError
from .extract import Extractor
from .extract.base import extract_in_turn
from .extract.corrections import Correction
from .extract.corrections import read as read_correction
from .extract.names import addressed_name
from .metadata import to_pairs
from .models import (
    NAME_PREDICATE,
    FactCandidate,
    MessagePiece,
    RoleRef,
    SessionRecord,
    TurnRecord,
    stable_id,
)
from .predicates import LLM_MADE, MODEL_MADE, Cardinality, lookup
from .responses import IngestCounts
from .segment import extraction_window, pieces_of_turn
from .temporal import resolve_time_expression, tense_prefers
from .timestamps import local

# Turns longer than this are stored whole but only their first part is segmented and searched
# for facts: a pasted document is not a statement about the user.
MAX_EXTRACT_CHARS = 20_000
CONTEXT_CHARS = 300  # the turn's words before a piece that an extractor may read (not cite)


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



def content_hash(session: SessionRecord) -> str:
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


# How a statement names the owner at its start: the rules' and the registry's "User" ("User went
# camping.", "User: went to beach.", "User's dog"), an LLM's "The user" ("The user adopted a cat.").
_USER_OPENING = re.compile(r"^(?:[Tt]he )?[Uu]ser(?=[\s:'’])")


def _as_speaker(cand: FactCandidate, speaker: str) -> FactCandidate:
    """In a conversation between named people (LoCoMo), "I" is the speaker, not the owner: the
    subject and the statement name them ("User went camping.", the registry's "User: went to
    beach." and an LLM's "The user adopted a cat." alike)."""
    text = _USER_OPENING.sub(speaker, cand.text, count=1)
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
class SessionPlan:
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
    corrections: list[SaidCorrection] = field(default_factory=list)


@dataclass(frozen=True)
class SaidCorrection:
    """A correction, where it was said: decided against the user's facts at write time."""

    correction: Correction
    turn_id: str
    turn_idx: int
    turn_text: str
    piece: MessagePiece
    said: datetime
    speaker: str | None


@dataclass
class _Draft:
    """One session's rows as they are planned."""

    user_id: str
    speakers: tuple[str, ...]
    turns: list[dict[str, Any]] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)
    pieces: list[dict[str, Any]] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)
    entities: dict[str, dict[str, Any]] = field(default_factory=dict)
    roles: list[dict[str, Any]] = field(default_factory=list)
    relations: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[SaidCorrection] = field(default_factory=list)
    report: IngestReport = field(default_factory=lambda: IngestReport(sessions=1))

    def plan(self, session: SessionRecord, t_s: datetime) -> SessionPlan:
        report = self.report
        report.turns = len(self.turns)
        report.pieces = len(self.pieces)
        report.facts = len(self.facts)
        report.entities = len(self.entities)
        session_row = {"id": stable_id("session", self.user_id, session.source_id),
                       "source_id": session.source_id, "started_at": t_s,
                       "turn_count": len(self.turns), "content_hash": content_hash(session),
                       "speakers": list(self.speakers)}
        return SessionPlan(session_row, self.turns, self.links, self.pieces, self.facts,
                           list(self.entities.values()), self.roles, self.relations, report,
                           corrections=self.corrections)


def session_pieces(user_id: str, session: SessionRecord, first_idx: int = 1
                   ) -> list[list[MessagePiece]]:
    """The pieces of each turn of a session, as far as extraction reads a turn."""
    return [pieces_of_turn(user_id, stable_id("turn", user_id, session.source_id, k),
                           rec.text[:extraction_window(rec.text, MAX_EXTRACT_CHARS)])
            for k, rec in enumerate(session.turns, start=first_idx)]


def extractor_turns(session: SessionRecord, all_pieces: list[list[MessagePiece]]
                    ) -> list[tuple[str, str, list[tuple[int, int]]]]:
    """A session as a batching extractor reads it: each turn's text, role and pieces' spans."""
    return [(rec.text, rec.role, [(p.start, p.end) for p in ps])
            for rec, ps in zip(session.turns, all_pieces, strict=True)]


class SessionPlanner:
    """Plans sessions with one extractor; `verbose` keeps every rejection and fact made."""

    def __init__(self, extractor: Extractor, verbose: bool = False):
        self.extractor = extractor
        self.verbose = verbose

    def plan(self, user_id: str, session: SessionRecord, *, first_idx: int = 1,
             prev_turn_id: str | None = None, prepared: Any = None,
             pieces: list[list[MessagePiece]] | None = None) -> SessionPlan:
        """Plan a whole session, or (with `first_idx`) the turns that follow the stored ones.
        `prepared`: the session as a batching extractor's `read_sessions` read it (with others);
        without it, such an extractor reads the session alone (`prepare`). `pieces`: its turns'
        pieces (`session_pieces` with the same `first_idx`) when the caller has cut them."""
        if session.started_at is None:
            raise InputError(f"user {user_id!r} session {session.source_id!r} has no start time")
        # Each turn's time phrases resolve in its own local day (the offset it was given); every
        # time is stored as a fixed UTC offset (see store.time.utc_native).
        opened = local(session.started_at, None)
        draft = _Draft(user_id, tuple(dict.fromkeys(t.speaker for t in session.turns if t.speaker)))
        all_pieces = pieces if pieces is not None else session_pieces(user_id, session,
                                                                     first_idx)
        use = getattr(self.extractor, "use", None)
        prepare = getattr(self.extractor, "prepare", None)
        if prepared is not None and use is not None:  # read with other sessions (read_sessions)
            use(prepared)
        elif prepare is not None:  # a batching extractor reads the whole session at once
            prepare(extractor_turns(session, all_pieces))
        prev_id = prev_turn_id
        for (k, rec), turn_pieces in zip(enumerate(session.turns, start=first_idx), all_pieces,
                                         strict=True):
            turn_id = stable_id("turn", user_id, session.source_id, k)
            said = local(rec.timestamp, None) if rec.timestamp else opened
            draft.turns.append({"id": turn_id, "source_id": rec.source_id or f"{session.source_id}_{k}",
                                "idx": k, "role": rec.role, "speaker": rec.speaker,
                                "text": rec.text, "mentioned_at": said.astimezone(UTC),
                                "metadata": to_pairs(rec.metadata), "embedding": None})
            if prev_id:
                draft.links.append({"prev_id": prev_id, "id": turn_id})
            prev_id = turn_id
            draft.pieces.extend({"id": p.id, "turn_id": turn_id, "start": p.start, "end": p.end,
                                 "text": p.text, "embedding": None} for p in turn_pieces)
            self._facts_of_turn(draft, k, rec, turn_pieces, said)
            if rec.role == "user":  # corrections are decided at write time (Ingestor._corrected)
                draft.corrections.extend(
                    SaidCorrection(fix, turn_id, k, rec.text, piece, said, rec.speaker)
                    for piece in turn_pieces if (fix := read_correction(piece.text)) is not None)
        return draft.plan(session, opened.astimezone(UTC))

    def _facts_of_turn(self, draft: _Draft, k: int, rec: TurnRecord,
                       turn_pieces: list[MessagePiece], said: datetime) -> None:
        """The facts extracted from each piece of a turn whose support is where it says (the
        others rejected), and in a two-person chat, the name the turn addresses someone by."""
        turn = draft.turns[-1]
        turn_id, source_id, report = turn["id"], turn["source_id"], draft.report
        for piece in turn_pieces:
            before = rec.text[max(0, piece.start - CONTEXT_CHARS):piece.start]
            for cand in extract_in_turn(self.extractor, piece.text, rec.role, before):
                try:
                    start, _end = _locate_support(cand, piece, rec.text)
                    if lookup(cand.predicate) is None:
                        raise ValueError("its predicate is not in the registry")
                except ValueError as why:
                    report.rejected += 1
                    if self.verbose:
                        report.rejections.append(
                            Rejection(source_id, cand.predicate, cand.support, str(why)))
                    continue
                if rec.speaker and is_self(cand.subject):
                    cand = _as_speaker(cand, rec.speaker)
                draft.facts.append(self._fact_row(draft, turn_id, k, piece, cand, start, said))
                if self.verbose:
                    report.made.append(Made(source_id, cand.predicate, cand.value,
                                            cand.modality, draft.facts[-1]["extracted_by"]))
        speakers = draft.speakers
        if len(speakers) == 2 and rec.speaker in speakers and turn_pieces:
            addressed = _addressed(rec.text, turn_pieces[0], speakers, rec.speaker)
            if addressed is not None:
                start, _end = _locate_support(addressed, turn_pieces[0], rec.text)
                draft.facts.append(self._fact_row(draft, turn_id, k, turn_pieces[0], addressed,
                                                  start, said))

    def correction_rows(self, user_id: str, said: SaidCorrection, cands: Iterable[FactCandidate],
                        ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        """The rows of the facts a correction makes (graphmem.correcting), with their entities
        and roles, planned as any fact of its turn."""
        draft = _Draft(user_id, ())
        rows = []
        for cand in cands:
            start, _end = _locate_support(cand, said.piece, said.turn_text)
            rows.append(self._fact_row(draft, said.turn_id, said.turn_idx, said.piece, cand,
                                       start, said.said))
        return rows, list(draft.entities.values()), draft.roles

    def _fact_row(self, draft: _Draft, turn_id: str, turn_idx: int, piece: MessagePiece,
                  cand: FactCandidate, start: int, said: datetime) -> dict[str, Any]:
        """The fact's row (its entities, roles and relations go to `draft`); `said` is when its
        turn was said, in the turn's own local time."""
        user_id, entities, roles, relations = draft.user_id, draft.entities, draft.roles, draft.relations
        fact_id = stable_id("fact", user_id, turn_id, start, cand.predicate, cand.value)
        entry = lookup(cand.predicate)
        ahead = cand.modality == "planned" or (entry is not None and entry.time_ahead)
        # an event the tagger or an LLM read as done (they tell done from planned; the rules'
        # "asserted" does not: "We fly out to Japan on 4 April") happened before it was told: its time
        # points back whatever the rest of the piece says ("thinking of visiting … since I
        # enjoyed my trip to Chicago in July", said in May, is last July's trip)
        done = (entry is not None and entry.cardinality is Cardinality.EVENT
                and cand.modality == "asserted"
                and (cand.extracted_by or "").startswith((MODEL_MADE, LLM_MADE)))
        prefer = "future" if ahead else "past" if done else tense_prefers(piece.text)
        when = (resolve_time_expression(cand.time_text, said, prefer=prefer)
                if cand.time_text else None)
        t_s = said.astimezone(UTC)
        occurred_start = when.start.astimezone(UTC) if when and when.start else None
        occurred_end = when.end.astimezone(UTC) if when and when.end else None
        # A number of things said for a time still ahead of its saying ("my goal of 50 books by
        # the end of the year", "I'll have 6 chickens by spring") is a target, not a count held:
        # it is kept as a mention (found, ends nothing; corpus rule 17 labels goals as no count).
        target = (entry is not None and entry.cardinality is Cardinality.COUNT
                  and occurred_start is not None and occurred_start > t_s)
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
            "mention": not cand.competes or target,  # in passing: ended by a later fact, ends none
            "piece_ids": [piece.id], "embedding": None,
        }
