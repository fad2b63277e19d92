"""Retrieve(q, M_u): the configured tunnels over one user's memory (bm25 and dense by default;
graph too where a preset runs it), fused by connection density."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ..db import Graph
from ..embed import Embedder
from ..entities import normalise_name
from ..errors import InputError
from ..knowledge import cutoff, decisions_known_at, known, status_at
from ..models import NAME_PREDICATE, Evidence
from ..store import search as store
from ..store.time import utc, utc_native
from . import feedback
from .config import ALL_STEPS, PRESETS, RetrievalConfig, preset
from .fusion import (
    Candidate,
    StepReport,
    accumulate,
    evidence_of,
    folded_evidence,
    fuse,
    fuse_rows,
    scores_in_rank_order,
    source_turns,
)
from .inprocess import InProcessBM25
from .query import QueryAnalysis, analyse
from .rows import Detail, with_slot_states
from .tunnels import TUNNELS, Hit

__all__ = ["PRESETS", "RetrievalConfig", "Retriever", "SearchResult", "preset"]

_NEED_VECTOR = ("dense", "graph")  # tunnels that read the query embedding
_SEEN_USERS = 4096  # users whose speakers a Retriever remembers (the oldest go first)


@dataclass
class SearchResult:
    evidence: list[Evidence]
    turn_ranking: list[str]  # source turn ids in rank order (every candidate, not only top k)
    analysis: QueryAnalysis
    hits: list[Hit] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    embedding: list[float] | None = None  # of the analysis' search text, when a tunnel used it
    steps: list[StepReport] = field(default_factory=list)  # the rerank steps run, in order
    steps_off: list[str] = field(default_factory=list)  # the declared steps not configured

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        """The result as the CLI's --json and the HTTP API give it (hits and the rerank steps
        only with `explain`)."""
        w = self.analysis.intent
        out: dict[str, Any] = {
            "results": [e.to_dict() for e in self.evidence],
            "intent": {"window": list(w.window) if w.window else None,
                       "direction": w.direction, "about_present": w.about_present},
            "timings_ms": self.timings_ms}
        if explain:
            out["hits"] = [vars(h) for h in self.hits]
            out["steps"] = [s.to_dict() for s in self.steps]
            out["steps_off"] = list(self.steps_off)
        return out


class Retriever:
    def __init__(self, graph: Graph, embedder: Embedder | None):
        self.graph = graph
        self.embedder = embedder
        self._inprocess = InProcessBM25(graph)
        # Each user's speakers (labels, and the aliases analyse takes) as the user's last search
        # read them: a search checks them inside its tunnels' query instead of asking first.
        self._seen_speakers: dict[str, tuple[list[str], dict[str, list[str]]]] = {}
        self._seen_lock = threading.Lock()

    def search(self, user_id: str, query: str, *, question_date: datetime | None = None,
               as_of: datetime | None = None, k: int = 10,
               config: RetrievalConfig | str = "fused", fold_depth: int | None = None
               ) -> SearchResult:
        """The first k items of the user's memory for `query`. With `fold_depth`, the first k
        places once each piece that repeats its whole turn, ranked within that depth, is folded
        into the turn (`graphmem.places`), as `Memory.search` gives them."""
        cfg = preset(config) if isinstance(config, str) else config
        if not isinstance(query, str) or not query.strip():
            raise InputError("the query is empty")
        # Every query of one search runs in one read transaction (one session, one commit).
        return self.graph.in_one_read(lambda: self._search(
            user_id, query, question_date=question_date, as_of=as_of, k=k, cfg=cfg,
            fold_depth=fold_depth))

    def _search_in_process(self, user_id: str, query: str, question_date: datetime | None,
                           known_at: datetime | None, k: int, t0: float) -> SearchResult:
        """The rank-bm25 baseline: the user's turns ranked in this process, nothing fused."""
        q = analyse(query, question_date, known_at=known_at)
        scored = self._inprocess.rank(user_id, query)
        timings = {"total": (time.perf_counter() - t0) * 1000}
        ev = [Evidence(id=doc["id"], type="turn", text=doc["text"], score=s, density=s,
                       tunnels=["rank-bm25"], session_source_id=doc["session_source_id"],
                       source_turn_ids=[doc["source_id"]], turn_id=doc["id"], role="user",
                       mentioned_at=utc_native(doc["mentioned_at"]), status=None)
              for doc, s in scored[:k]]
        return SearchResult(ev, [doc["source_id"] for doc, _ in scored], q, [], timings)

    def _search(self, user_id: str, query: str, *, question_date: datetime | None,
                as_of: datetime | None, k: int, cfg: RetrievalConfig,
                fold_depth: int | None = None) -> SearchResult:
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        # The question date is "now": a cutoff (unless memory is searched as of another date).
        known_at = cutoff(question_date) if question_date is not None and as_of is None else None
        if cfg.in_process_bm25:
            return self._search_in_process(user_id, query, question_date, known_at, k, t0)
        # The question is analysed once, here, for the whole search; whom it names needs the
        # user's speakers (one or two small queries). The searches go by what is asked, not by
        # whom (query.without_names) nor by a time phrase its window stands for
        # (query.without_time), so the embedding is of the question's topic without that name.
        labels, speakers, check = self._speakers(user_id)
        q = analyse(query, question_date, speakers=speakers, known_at=known_at)
        asked, cfg = cfg, cfg.for_question(q.coverage)  # deep_heads: over several occasions
        timings["analyse"] = (time.perf_counter() - t0) * 1000
        # The tunnels' queries run together, in one round trip, once the question is embedded:
        # Neo4j's cost per query and the driver's per round trip are paid once, not per tunnel.
        embedding = None
        if self.embedder is not None and any(n in _NEED_VECTOR for n in cfg.tunnels):
            t1 = time.perf_counter()
            embedding = self.embedder.embed_query(q.search_text)
            timings["embedding"] = (time.perf_counter() - t1) * 1000
        t1 = time.perf_counter()
        reads: dict[str, store.Read] = {}
        for name in cfg.tunnels:
            reads.update(TUNNELS[name].reads(self.graph, user_id, q, cfg, embedding))
        if check is not None:
            reads["speakers"] = check
        if q.known_at is not None:
            reads["later"] = store.facts_after_read(user_id, q.known_at)
        found = store.together(self.graph, reads)
        if check is not None and not self._speakers_still(user_id, labels, speakers,
                                                         found["speakers"]):
            # The speakers changed since they were remembered (another process ingested): the
            # search starts again with them read anew, as it would have without remembering.
            return self._search(user_id, query, question_date=question_date, as_of=as_of, k=k,
                                cfg=asked, fold_depth=fold_depth)
        # A question date decides the slots again from the facts known then, unless no fact was
        # mentioned later: then memory knew that day what it knows now (its stored statuses).
        redecide = q.known_at is not None and bool(found["later"])
        hits_by = {name: TUNNELS[name].hits(found, user_id, q, cfg) for name in cfg.tunnels}
        timings["tunnels"] = (time.perf_counter() - t1) * 1000
        hits = [h for name in cfg.tunnels for h in hits_by[name]]  # in the preset's order
        t1 = time.perf_counter()
        candidates = accumulate(hits, cfg)
        slot_states = bool(q.slots and q.intent.asks_about_now)
        details = self._details(user_id, candidates, as_of, slot_states=slot_states,
                                known_at=q.known_at, redecide=redecide)
        timings["details"] = (time.perf_counter() - t1) * 1000
        if feedback.runs(q, cfg):
            t2 = time.perf_counter()
            hits, candidates, details = self._second_pass(user_id, q, cfg, as_of, hits,
                                                          candidates, details, slot_states,
                                                          redecide)
            timings[feedback.TUNNEL] = (time.perf_counter() - t2) * 1000

        def near_duplicates(ids: list[str]) -> set[frozenset[str]]:
            t2 = time.perf_counter()
            try:
                return self._near_duplicates(user_id, ids, candidates, cfg.theta)
            finally:
                timings["near_duplicates"] = (time.perf_counter() - t2) * 1000

        rows, steps = fuse_rows(candidates, details, q, cfg, near_duplicates=near_duplicates)
        # Only the first k become evidence (a score is capped by those above it alone); the
        # turn ranking reads them all.
        evidence = (scores_in_rank_order(evidence_of(rows[:k])) if fold_depth is None
                    else folded_evidence(rows, k, fold_depth))
        ranking = list(dict.fromkeys(t for r in rows for t in source_turns(r)))
        timings["fuse"] = (time.perf_counter() - t1) * 1000
        timings["total"] = (time.perf_counter() - t0) * 1000
        return SearchResult(evidence, ranking, q, hits, timings, embedding, steps,
                            [s for s in ALL_STEPS if not cfg.runs(s)])

    def _second_pass(self, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
                     as_of: datetime | None, hits: list[Hit], candidates: dict[str, Candidate],
                     details: list[Detail], slot_states: bool, redecide: bool,
                     ) -> tuple[list[Hit], dict[str, Candidate], list[Detail]]:
        """The second pass, seeded by the first pass fused (without the near-duplicate query:
        the seeds need the order, not the merges); its hits join the first pass's."""
        first, _ = fuse(candidates, details, q, cfg)
        hits = hits + feedback.feedback_tunnel(self.graph, user_id, q, cfg, first)
        candidates = accumulate(hits, cfg)
        known = {d.id for d in details}
        new = {i: c for i, c in candidates.items() if i not in known}
        if new:
            details = details + self._details(user_id, new, as_of, slot_states=slot_states,
                                              known_at=q.known_at, redecide=redecide)
        return hits, candidates, details

    def _speakers(self, user_id: str) -> tuple[list[str], dict[str, list[str]], store.Read | None]:
        """The labels of the speakers of the user's chats and each speaker with the other names
        it is called by (none when there are fewer than two: one speaker is never told apart).
        Remembered from the user's last search, they come with the read that checks them
        (`None` when they were just read): the search runs it beside its tunnels and starts
        again if they changed."""
        seen = self._seen_speakers.get(user_id)
        if seen is not None:
            labels, named = seen
            norms = {s: normalise_name(s) for s in labels} if len(labels) >= 2 else {}
            return labels, named, store.speaker_check(user_id, norms, NAME_PREDICATE)
        labels = store.speakers(self.graph, user_id)
        named = {} if len(labels) < 2 else store.speaker_aliases(
            self.graph, user_id, {s: normalise_name(s) for s in labels}, NAME_PREDICATE)
        with self._seen_lock:
            if len(self._seen_speakers) >= _SEEN_USERS:
                del self._seen_speakers[next(iter(self._seen_speakers))]
            self._seen_speakers[user_id] = (labels, named)
        return labels, named, None

    def _speakers_still(self, user_id: str, labels: list[str], named: dict[str, list[str]],
                        found: list[dict[str, Any]]) -> bool:
        """Whether the speaker check's row (store.speaker_check) says what was remembered; if
        not, the user's entry is forgotten (the next `_speakers` reads them anew)."""
        now = found[0]
        same = list(now["speakers"]) == labels and named == (
            {} if len(labels) < 2 else {r["speaker"]: sorted(r["aliases"]) for r in now["aliases"]})
        if not same:
            with self._seen_lock:
                self._seen_speakers.pop(user_id, None)
        return same

    def _near_duplicates(self, user_id: str, ids: list[str], candidates: dict[str, Candidate],
                         theta: float) -> set[frozenset[str]]:
        if len(ids) < 2:
            return set()
        return store.near_duplicates(
            self.graph, user_id, [i for i in ids if candidates[i].type == "turn"],
            [i for i in ids if candidates[i].type == "fact"], theta)

    def _details(self, user_id: str, candidates: dict[str, Candidate], as_of: datetime | None,
                 slot_states: bool = False, known_at: datetime | None = None,
                 redecide: bool | None = None) -> list[Detail]:
        by_type: dict[str, list[str]] = {"turn": [], "piece": [], "fact": []}
        for c in candidates.values():
            by_type[c.type].append(c.id)
        rows = [Detail.from_store(r) for r in store.evidence_details(
            self.graph, user_id, turn_ids=by_type["turn"], piece_ids=by_type["piece"],
            fact_ids=by_type["fact"],
            slot_states=slot_states or known_at is not None or as_of is not None)]
        if known_at is not None:
            return self._known_at(user_id, rows, known_at, redecide)
        if as_of is None:
            return rows
        return _as_of(rows, as_of)

    def _known_at(self, user_id: str, rows: list[Detail], known_at: datetime,
                  redecide: bool | None = None) -> list[Detail]:
        """Rows as memory knew them on the question date: nothing mentioned later, and every
        slot fact with the status its slot had then (for facts and for turns' slot states).
        `redecide`: whether any fact was mentioned after the question date (None: ask); if none
        was, the stored statuses are those (knowledge.decisions_known_at)."""
        rows = [r for r in rows if known(utc_native(r.mentioned_at), known_at)]
        slots = [r.slot for r in rows] + [s.slot for r in rows for s in r.slot_states or ()]
        decided = decisions_known_at(self.graph, user_id, slots, known_at, later=redecide)
        out = []
        for r in rows:
            if r.type == "fact" and r.id in decided:
                d = decided[r.id]
                r = replace(r, status=d.status, valid_from=d.valid_from, valid_until=d.valid_until)
            elif r.type != "fact" and r.slot_states is not None:
                r = with_slot_states(r, [
                    s._replace(status=decided[s.fact_id].status) if s.fact_id in decided else s
                    for s in r.slot_states if known(utc_native(s.mentioned_at), known_at)])
            out.append(r)
        return out


def _as_of(rows: list[Detail], as_of: datetime) -> list[Detail]:
    """Rows as the world was at `as_of`, as known today: nothing mentioned later, only facts
    valid then (each `active`: it was the current version then), and every turn's and piece's
    slot facts with their status on that date, so a turn that said what held then is not
    stale."""
    at = utc(as_of) or as_of
    kept = []
    for r in rows:
        if r.mentioned_at is not None and utc_native(r.mentioned_at) > at:
            continue  # the graph did not know it yet
        if r.type == "fact":
            if status_at(r.status, r.valid_from, r.valid_until, at) != "active":
                continue
            r = replace(r, status="active")
        elif r.slot_states is not None:
            states = [s._replace(status=status_at(s.status, s.valid_from, s.valid_until, at))
                      for s in r.slot_states if known(s.mentioned_at, at)]
            r = with_slot_states(r, [s for s in states if s.status is not None])  # begun then
        kept.append(r)
    return kept
