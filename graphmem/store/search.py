"""Retrieval queries: the tunnels' heads and hits, evidence details, near-duplicates, the
in-process baseline's corpus."""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache, partial
from typing import TYPE_CHECKING, Any, NamedTuple

from graphmem.cypher import query

from .time import from_epoch_us

if TYPE_CHECKING:
    from ..db import Graph


class SlotState(NamedTuple):
    """A slot fact that a turn or piece states, as search weighs it (a tuple, so positional
    readers keep working)."""

    predicate: str
    status: str | None  # None: not yet begun on the date asked (as_of)
    fact_id: str
    slot: str
    mentioned_at: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None


def _listed(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of a query that returns them as one row holding a list of maps (`rows`): the
    driver's cost is per record, so a search's larger reads come as one record each."""
    return found[0]["rows"] if found else []


class Read(NamedTuple):
    """One listed query (it returns one row holding its list of maps as `rows`) and its
    parameters, not yet run: `together` runs several in one round trip."""

    name: str
    params: dict[str, Any]


_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_ROWS = re.compile(r"\bAS rows\s*$")
_VERSION = re.compile(r"^CYPHER 25$", re.MULTILINE)  # the whole query says it, once
# Parameters every part of one `together` query has the same value of: sent once, not per part
# (the query embedding is 384 floats).
SHARED = frozenset(("user_id", "vector"))


def _renamed(key: str, param: re.Match[str]) -> str:
    name = param.group(1)
    return f"${name}" if name in SHARED else f"${key}_{name}"


@cache
def _together_text(parts: tuple[tuple[str, str], ...]) -> str:
    """One query running each (key, query name) as a CALL subquery of its own, its parameters
    renamed `$<key>_<name>` (but the SHARED ones) and its list returned as `<key>`: Neo4j's cost
    per query (the run, the transaction's bookkeeping, the result) is paid once, not per part."""
    calls = []
    for key, name in parts:
        body = _VERSION.sub("", query(name)).strip()
        if not _ROWS.search(body):
            raise ValueError(f"{name} does not return its rows as one list")
        body = _ROWS.sub(f"AS {key}", _PARAM.sub(partial(_renamed, key), body))
        calls.append(f"CALL () {{\n{body}\n}}")
    return "CYPHER 25\n" + "\n".join(calls) + "\nRETURN " + ", ".join(k for k, _ in parts)


def _together_params(reads: dict[str, Read]) -> dict[str, Any]:
    """The parameters of `together`'s query, as `_together_text` renames them."""
    params: dict[str, Any] = {}
    for key, r in reads.items():
        for p, v in r.params.items():
            if p not in SHARED:
                params[f"{key}_{p}"] = v
            elif p not in params:
                params[p] = v
            elif params[p] is not v and params[p] != v:
                raise ValueError(f"the parts of one query differ in ${p}")
    return params


def together(graph: Graph, reads: dict[str, Read]) -> dict[str, list[dict[str, Any]]]:
    """Each read's rows, by key, from one query (one round trip): a search's tunnels."""
    if not reads:
        return {}
    if len(reads) == 1:
        [(key, r)] = reads.items()
        return {key: _listed(graph.read(r.name, **r.params))}
    parts = tuple((key, r.name) for key, r in reads.items())
    found = graph.read_text(_together_text(parts), **_together_params(reads))
    return {key: found[0][key] for key, _ in parts}


def bm25_read(user_id: str, lucene: str, *, limit: int, heads: int,
              known_at: datetime | None = None, mentions: bool = True,
              speaker: str | None = None) -> Read:
    """`known_at`: no turn or fact mentioned later (a question date); `mentions`: facts kept as
    mentions (FactEvent.mention) may be heads; `speaker`: the same Lucene hits also give that
    speaker's own best turns, as rows with `speaker` true (a question that names them)."""
    return Read("tunnel_bm25", dict(user_id=user_id, lucene=lucene, limit=limit, heads=heads,
                                    known_at=known_at, mentions=mentions, speaker=speaker))


def speaker_dense_read(user_id: str, vector: list[float], speaker: str, *, heads: int,
                       min_cosine: float, known_at: datetime | None = None) -> Read:
    """The nearest of one speaker's own turns (a question that names that speaker) by an exact
    scan: for a server whose vector indexes do not filter by user (where they do, the dense
    tunnel's own index search gives them: dense_read's `speaker`)."""
    return Read("tunnel_speaker_dense", dict(user_id=user_id, vector=vector, speaker=speaker,
                                             heads=heads, min_cosine=min_cosine,
                                             known_at=known_at))


def bm25_heads(graph: Graph, user_id: str, lucene: str, *, limit: int, heads: int,
               known_at: datetime | None = None, mentions: bool = True
               ) -> list[dict[str, Any]]:
    """`known_at`: no turn or fact mentioned later (a question date); `mentions`: facts kept as
    mentions may be heads."""
    return together(graph, {"bm25": bm25_read(user_id, lucene, limit=limit, heads=heads,
                                              known_at=known_at, mentions=mentions)})["bm25"]


_FILTERED_INDEX: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()
FILTER_PROPERTIES = ("user_id", "mentioned_at")  # what the SEARCH ... WHERE of the tunnel names
INDEXES = 3  # turn, piece and fact embeddings
# The filtered vector search is approximate, and its recall falls where nodes were deleted and
# written again: with LoCoMo's users forgotten and ingested anew, 96.8% of the exact scan's top 20
# came back (LongMemEval's users, written once: 99.9%). Asking each index for three times the
# heads and keeping the best gives 99.4% (docs/benchmarks.md).
INDEX_OVERFETCH = 3
# With a speaker (speaker_heads) the dense tunnel asks the indexes (which filter by user, not by
# speaker) for this many times its over-fetch: the best of them are its own, the speaker's among
# all of them the speaker's (one speaker of a two-person chat says about half of it). On LoCoMo
# (2026-12-07) twice and four times the fetch and the exact scan (tunnel_speaker_dense) gave the
# same recall to the third decimal in every category with the hybrid extractor's users; with the
# rules' users the exact scan differed by a question or two.
SPEAKER_OVERFETCH = 2
END_OF_TIME = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)  # "no question date" in the index
START_OF_TIME = datetime(1, 1, 1, tzinfo=UTC)  # "no window start" in the index


def vector_index_filters(graph: Graph) -> bool:
    """Whether the dense tunnel's vector indexes carry user_id and mentioned_at (asked once per
    Graph): then the search is filtered inside the index by user and question date; else (an
    older server) the user's nodes are scanned."""
    found = _FILTERED_INDEX.get(graph)
    if found is None:
        rows = graph.read("tunnel_dense_index_filters")
        found = len(rows) == INDEXES and all(
            p in r["properties"] for r in rows for p in FILTER_PROPERTIES)
        _FILTERED_INDEX[graph] = found
    return found


def forget_vector_index_probe(graph: Graph) -> None:
    """Ask again on the next search (the vector indexes were just rebuilt)."""
    _FILTERED_INDEX.pop(graph, None)


def dense_heads(graph: Graph, user_id: str, vector: list[float], *, heads: int,
                min_cosine: float, known_at: datetime | None = None,
                since: datetime | None = None, exact: bool = False,
                mentions: bool = True) -> list[dict[str, Any]]:
    """The user's nearest turns (each scored by its best part: itself or an embedded piece) and
    facts, nothing mentioned after `known_at` (a question date) or before `since` (the start of
    a question's time window): by the vector indexes filtered on user and time where the server
    has them, by the exact scan otherwise (or when `exact`); both score with Neo4j's cosine.
    `mentions`: facts kept as mentions may be heads."""
    return together(graph, {"dense": dense_read(graph, user_id, vector, heads=heads,
                                                min_cosine=min_cosine, known_at=known_at,
                                                since=since, exact=exact,
                                                mentions=mentions)})["dense"]


def dense_read(graph: Graph, user_id: str, vector: list[float], *, heads: int,
               min_cosine: float, known_at: datetime | None = None,
               since: datetime | None = None, exact: bool = False,
               mentions: bool = True, speaker: str | None = None) -> Read:
    """dense_heads' query, not yet run (which one depends on the server: `graph`);
    `mentions`: facts kept as mentions may be heads; `speaker` (the index path only; the exact
    path ignores it: speaker_dense_read): the same index search, SPEAKER_OVERFETCH times wider,
    also gives that speaker's own nearest turns, as rows with `speaker` true. The tunnel's own
    rows are then the best of that wider search: close to, not always the same as, those of a
    search without a speaker (the index is approximate)."""
    if exact or not vector_index_filters(graph):
        return Read("tunnel_dense", dict(user_id=user_id, vector=vector, heads=heads,
                                         min_cosine=min_cosine, known_at=known_at, since=since,
                                         mentions=mentions))
    fetch = heads * INDEX_OVERFETCH
    return Read("tunnel_dense_index", dict(
        user_id=user_id, vector=vector, heads=heads, fetch=fetch,
        wide=fetch * SPEAKER_OVERFETCH if speaker is not None else fetch, speaker=speaker,
        min_cosine=min_cosine, known_at=known_at or END_OF_TIME, since=since or START_OF_TIME,
        mentions=mentions))


def graph_hits(graph: Graph, user_id: str, *, entity_lucene: str, fact_lucene: str, limit: int,
               entity_heads: int, fact_heads: int, fanout: int, per_head: int,
               vector: list[float] | None, hub_degree: int, predicates: Sequence[str] = (),
               include_stale: bool = False, slot_head: str = "slot") -> list[dict[str, Any]]:
    """Entity and fact heads expanded along entity and relation edges; then, with `predicates`
    (the slots a question asks about), the user's facts on them as the hits of one head
    `slot_head` (stale versions only with `include_stale`). One query."""
    return together(graph, {"graph": graph_read(
        user_id, entity_lucene=entity_lucene, fact_lucene=fact_lucene, limit=limit,
        entity_heads=entity_heads, fact_heads=fact_heads, fanout=fanout, per_head=per_head,
        vector=vector, hub_degree=hub_degree, predicates=predicates,
        include_stale=include_stale, slot_head=slot_head)})["graph"]


def graph_read(user_id: str, *, entity_lucene: str, fact_lucene: str, limit: int,
               entity_heads: int, fact_heads: int, fanout: int, per_head: int,
               vector: list[float] | None, hub_degree: int, predicates: Sequence[str] = (),
               include_stale: bool = False, slot_head: str = "slot",
               mentions: bool = True) -> Read:
    """graph_hits' query, not yet run; `mentions`: facts kept as mentions may be heads and hits."""
    return Read("tunnel_graph", dict(user_id=user_id, entity_lucene=entity_lucene,
                                     fact_lucene=fact_lucene, limit=limit,
                                     entity_heads=entity_heads, fact_heads=fact_heads,
                                     fanout=fanout, per_head=per_head, vector=vector,
                                     hub_degree=hub_degree, predicates=list(predicates),
                                     include_stale=include_stale, slot_head=slot_head,
                                     mentions=mentions))


def near_duplicates(graph: Graph, user_id: str, turn_ids: list[str], fact_ids: list[str],
                    theta: float) -> set[frozenset[str]]:
    """Pairs among the user's given turns and facts whose embeddings have cosine ≥ θ."""
    rows = graph.read("near_duplicates", user_id=user_id, turn_ids=turn_ids, fact_ids=fact_ids,
                      theta=theta)
    return {frozenset((r["a"], b)) for r in rows for b in r["close"]}


_DETAIL_TIMES = ("mentioned_at", "occurred_start", "occurred_end", "valid_from", "valid_until")


def evidence_details(graph: Graph, user_id: str, *, turn_ids: list[str], piece_ids: list[str],
                     fact_ids: list[str], slot_states: bool) -> list[dict[str, Any]]:
    """What fusion needs about each candidate; times as UTC datetimes (the query sends them as
    epoch microseconds), a turn's or piece's slot facts as `SlotState`s."""
    rows = _listed(graph.read("evidence_details", user_id=user_id, turn_ids=turn_ids,
                              piece_ids=piece_ids, fact_ids=fact_ids, slot_states=slot_states))
    for r in rows:
        for key in _DETAIL_TIMES:
            r[key] = from_epoch_us(r[key])
        if r["slot_states"]:
            r["slot_states"] = [SlotState(*st[:4], *(from_epoch_us(t) for t in st[4:]))
                                for st in r["slot_states"]]
    return rows


def user_turns(graph: Graph, user_id: str) -> list[dict[str, Any]]:
    """The user-role turns of one user, in session order."""
    return graph.read("user_turns", user_id=user_id)


def speakers(graph: Graph, user_id: str) -> list[str]:
    """The named speakers of the user's chats (two-person conversations), as labelled."""
    found = graph.read("speaker_labels", user_id=user_id)
    return list(found[0]["speakers"]) if found else []


def speaker_check(user_id: str, speakers: dict[str, str], name_predicate: str) -> Read:
    """The user's speakers now and, with two or more, the aliases of `speakers` (label → its
    entity's normalised name), as `speakers` and `speaker_aliases` give them: one row
    {speakers, aliases: [{speaker, aliases}]}, to run with other reads (`together`)."""
    return Read("speaker_check", dict(
        user_id=user_id, name_predicate=name_predicate,
        speakers=[{"label": k, "norm": v} for k, v in speakers.items()]))


def facts_after_read(user_id: str, known_at: datetime) -> Read:
    """Whether any fact of the user was mentioned after `known_at` (a question date): a list
    holding one such fact's id, or empty. To run with the tunnels' reads (`together`)."""
    return Read("facts_mentioned_after", dict(user_id=user_id, known_at=known_at))


def speaker_aliases(graph: Graph, user_id: str, speakers: dict[str, str],
                    name_predicate: str) -> dict[str, list[str]]:
    """Each speaker (label → its entity's normalised name) with the other names it is called by,
    sorted (as `speaker_check`'s row is compared with them: the query collects them unordered)."""
    return {r["speaker"]: sorted(r["aliases"]) for r in graph.read(
        "speaker_aliases", user_id=user_id, name_predicate=name_predicate,
        speakers=[{"label": k, "norm": v} for k, v in speakers.items()])}


def seed_neighbours(graph: Graph, user_id: str, seeds: list[str], *, per_seed: int, fetch: int,
                    min_cosine: float, known_at: datetime | None = None,
                    mentions: bool = True) -> list[dict[str, Any]]:
    """For each seed (the user's turn, piece or fact ids, best first), its nearest turns and
    facts in other sessions than its own (`per_seed` of each; facts kept as mentions only with
    `mentions`), nothing mentioned after `known_at`; rows carry the seed and its rank."""
    return _listed(graph.read("feedback_neighbours", user_id=user_id, seeds=seeds,
                              per_seed=per_seed, fetch=fetch, min_cosine=min_cosine,
                              known_at=known_at or END_OF_TIME, mentions=mentions))
