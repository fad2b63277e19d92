"""Retrieve(q, M_u): three tunnels over one user's memory, fused by connection density."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..db import Graph
from ..embed import Embedder
from ..entities import normalise_name
from ..errors import InputError
from ..knowledge import cutoff, decisions_known_at, known, status_at
from ..models import NAME_PREDICATE, Evidence
from ..store import search as store
from ..store.search import SlotState
from ..store.time import utc, utc_native
from .config import PRESETS, RetrievalConfig, preset
from .coverage import spread
from .fusion import accumulate, fuse, scores_in_rank_order
from .inprocess import InProcessBM25
from .query import QueryAnalysis, analyse, leave_out_names, speaker_about, speakers_named
from .tunnels import TUNNEL_FUNCTIONS, Hit

__all__ = ["PRESETS", "RetrievalConfig", "Retriever", "SearchResult", "preset"]

_NEED_VECTOR = ("dense", "graph")  # tunnels that read the query embedding
# The query embedding runs here, beside its search's first queries (a few threads: each job is
# short, and a server's workers share them). Running a vector tunnel beside the other in a
# session of its own was measured too: no faster at p50 on two cores, so it is not done.
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="graphmem-embed")


@dataclass
class SearchResult:
    evidence: list[Evidence]
    turn_ranking: list[str]  # source turn ids in rank order (every candidate, not only top k)
    analysis: QueryAnalysis
    hits: list[Hit] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)

    def to_dict(self, explain: bool = False) -> dict[str, Any]:
        """The result as the CLI's --json and the HTTP API give it (hits only with `explain`)."""
        w = self.analysis.intent
        out: dict[str, Any] = {
            "results": [e.to_dict() for e in self.evidence],
            "intent": {"window": list(w.window) if w.window else None,
                       "direction": w.direction, "about_present": w.about_present},
            "timings_ms": self.timings_ms}
        if explain:
            out["hits"] = [vars(h) for h in self.hits]
        return out


class Retriever:
    def __init__(self, graph: Graph, embedder: Embedder | None):
        self.graph = graph
        self.embedder = embedder
        self._inprocess = InProcessBM25(graph)

    def search(self, user_id: str, query: str, *, question_date: datetime | None = None,
               as_of: datetime | None = None, k: int = 10,
               config: RetrievalConfig | str = "fused") -> SearchResult:
        cfg = preset(config) if isinstance(config, str) else config
        if not isinstance(query, str) or not query.strip():
            raise InputError("the query is empty")
        # Every query of one search runs in one read transaction (one session, one commit).
        return self.graph.in_one_read(lambda: self._search(
            user_id, query, question_date=question_date, as_of=as_of, k=k, cfg=cfg))

    def _search(self, user_id: str, query: str, *, question_date: datetime | None,
                as_of: datetime | None, k: int, cfg: RetrievalConfig) -> SearchResult:
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        q = analyse(query, question_date)
        if question_date is not None and as_of is None:  # the question date is "now": a cutoff
            q.known_at = cutoff(question_date)
        if cfg.in_process_bm25:
            ranking = self._inprocess.rank(user_id, query)
            timings["total"] = (time.perf_counter() - t0) * 1000
            ev = [Evidence(id=d["id"], type="turn", text=d["text"], score=s, density=s,
                           tunnels=["rank-bm25"], session_source_id=d["session_source_id"],
                           source_turn_ids=[d["source_id"]], turn_id=d["id"], role="user",
                           mentioned_at=utc_native(d["mentioned_at"]))
                  for d, s in ranking[:k]]
            return SearchResult(ev, [d["source_id"] for d, _ in ranking], q, [], timings)
        # Whom the question names comes first (one or two small queries): the searches go by what
        # is asked, not by whom (query.without_names) nor by a time phrase its window stands for
        # (query.without_time), so the embedding is of the question's topic without that name.
        # The embedding (the model, outside the GIL) then runs beside the queries that do not
        # need it: the bm25 tunnel, in this thread's transaction.
        q.speaker, names = self._named_speaker(user_id, query)
        unnamed = leave_out_names(q, names)
        timings["analyse"] = (time.perf_counter() - t0) * 1000
        embedding = None
        if self.embedder is not None and any(n in _NEED_VECTOR for n in cfg.tunnels):
            embedding = _POOL.submit(self.embedder.embed_query, unnamed)
        hits_by: dict[str, list[Hit]] = {}
        try:
            for name in [n for n in cfg.tunnels if n not in _NEED_VECTOR]:
                hits_by[name] = self._tunnel(name, user_id, q, cfg, timings)
        except BaseException:
            if embedding is not None:
                embedding.cancel()  # one already running finishes on its own; nobody waits
            raise
        if embedding is not None:
            t1 = time.perf_counter()
            q.embedding = embedding.result()
            timings["embedding_wait"] = (time.perf_counter() - t1) * 1000
        for name in [n for n in cfg.tunnels if n in _NEED_VECTOR]:
            hits_by[name] = self._tunnel(name, user_id, q, cfg, timings)
        hits = [h for name in cfg.tunnels for h in hits_by[name]]  # in the preset's order
        t1 = time.perf_counter()
        candidates = accumulate(hits, cfg)
        details = self._details(user_id, candidates, as_of, slot_states=bool(
            q.slots and q.intent.about_present and q.intent.window is None), known_at=q.known_at)
        timings["details"] = (time.perf_counter() - t1) * 1000

        def near_duplicates(ids: list[str]) -> set[frozenset[str]]:
            t2 = time.perf_counter()
            try:
                return self._near_duplicates(user_id, ids, candidates, cfg.theta)
            finally:
                timings["near_duplicates"] = (time.perf_counter() - t2) * 1000

        evidence = fuse(candidates, details, q.intent, cfg, near_duplicates=near_duplicates,
                        slots=q.slots, speaker=q.speaker, to_assistant=q.to_assistant)
        if cfg.coverage and q.coverage:
            evidence = spread(evidence, score=lambda e: e.score, session=lambda e: e.session_source_id,
                              decay=cfg.coverage_decay)
        evidence = scores_in_rank_order(evidence)
        timings["fuse"] = (time.perf_counter() - t1) * 1000
        timings["total"] = (time.perf_counter() - t0) * 1000
        ranking = list(dict.fromkeys(t for e in evidence for t in e.source_turn_ids))
        return SearchResult(evidence[:k], ranking, q, hits, timings)

    def _tunnel(self, name: str, user_id: str, q: QueryAnalysis, cfg: RetrievalConfig,
                timings: dict[str, float]) -> list[Hit]:
        t1 = time.perf_counter()
        try:
            return TUNNEL_FUNCTIONS[name](self.graph, user_id, q, cfg)
        finally:
            timings[name] = (time.perf_counter() - t1) * 1000

    def _named_speaker(self, user_id: str, query: str) -> tuple[str | None, list[str]]:
        """The speaker the question is about (it names one of two or more) and the names it
        calls the speakers it names by."""
        labels = store.speakers(self.graph, user_id)
        if len(labels) < 2:  # one speaker (or none) is never told apart
            return None, []
        aliases = store.speaker_aliases(self.graph, user_id, {s: normalise_name(s) for s in labels},
                                        NAME_PREDICATE)
        # The names of every speaker the question names leave the search (two named speakers
        # address each other by name as much as one); only a question that names one speaker is
        # about that one.
        named = speakers_named(query, aliases)
        return speaker_about(named), [n for found in named.values() for n in found]

    def _near_duplicates(self, user_id: str, ids: list[str], candidates: dict[str, Any],
                         theta: float) -> set[frozenset[str]]:
        if len(ids) < 2:
            return set()
        return store.near_duplicates(
            self.graph, user_id, [i for i in ids if candidates[i].type == "turn"],
            [i for i in ids if candidates[i].type == "fact"], theta)

    def _details(self, user_id: str, candidates: dict[str, Any], as_of: datetime | None,
                 slot_states: bool = False,
                 known_at: datetime | None = None) -> list[dict[str, Any]]:
        by_type: dict[str, list[str]] = {"turn": [], "piece": [], "fact": []}
        for c in candidates.values():
            by_type[c.type].append(c.id)
        rows = store.evidence_details(self.graph, user_id, turn_ids=by_type["turn"],
                                      piece_ids=by_type["piece"], fact_ids=by_type["fact"],
                                      slot_states=slot_states or known_at is not None
                                      or as_of is not None)
        if known_at is not None:
            return self._known_at(user_id, rows, known_at)
        if as_of is None:
            return rows
        return self._as_of(rows, utc(as_of))

    @staticmethod
    def _as_of(rows: list[dict[str, Any]], at: datetime) -> list[dict[str, Any]]:
        """Rows as the world was at `at`, as known today: nothing mentioned later, only facts
        valid then (each `active`: it was the current version then), and every turn's and
        piece's slot facts with their status on that date, so a turn that said what held then
        is not stale."""
        kept = []
        for r in rows:
            if r["mentioned_at"] is not None and utc_native(r["mentioned_at"]) > at:
                continue  # the graph did not know it yet
            r = dict(r)
            if r["type"] == "fact":
                if status_at(r["status"], r["valid_from"], r["valid_until"], at) != "active":
                    continue
                r["status"] = "active"
            elif r.get("slot_states") is not None:
                states = [SlotState(p, status_at(st, vf, vu, at), i, slot, said, vf, vu)
                          for p, st, i, slot, said, vf, vu in r["slot_states"]
                          if known(said, at)]
                states = [s for s in states if s[1] is not None]  # not begun then
                r.update(slot_states=states, slot_facts=len(states),
                         stale_facts=sum(1 for s in states if s[1] != "active"))
            kept.append(r)
        return kept

    def _known_at(self, user_id: str, rows: list[dict[str, Any]],
                  known_at: datetime) -> list[dict[str, Any]]:
        """Rows as memory knew them on the question date: nothing mentioned later, and every
        slot fact with the status its slot had then (for facts and for turns' slot states)."""
        rows = [r for r in rows if known(utc_native(r["mentioned_at"]), known_at)]
        slots = [r.get("slot") for r in rows] + [
            s[3] for r in rows for s in r.get("slot_states") or []]
        decided = decisions_known_at(self.graph, user_id, slots, known_at)
        out = []
        for r in rows:
            r = dict(r)
            if r["type"] == "fact" and r["id"] in decided:
                d = decided[r["id"]]
                r.update(status=d.status, valid_from=d.valid_from, valid_until=d.valid_until)
            elif r["type"] != "fact" and r.get("slot_states") is not None:
                states = [SlotState(p, decided[i].status if i in decided else st, i, slot, at, vf, vu)
                          for p, st, i, slot, at, vf, vu in r["slot_states"]
                          if known(utc_native(at), known_at)]
                r.update(slot_states=states, slot_facts=len(states),
                         stale_facts=sum(1 for s in states if s[1] != "active"))
            out.append(r)
        return out
