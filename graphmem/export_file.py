"""The file `graphmem export` writes and `graphmem import` reads, and the check of such a file
before anything of it is written.

A header line `{"graphmem_export": 1, "user_id": …}`, then one line per node (`{"node": label,
"props": {…}}`) and per edge (`{"edge": type, "from": [label, id], "to": [label, id], "props":
{…}}`). Neo4j temporal values are written as `{"$datetime": iso}` / `{"$date": iso}`, with
nanoseconds. Ids are not trusted but recomputed from the header's user and each record's own keys
(the functions ingest uses), so an import can never hold an id another user's memory will need.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from neo4j.time import Date, DateTime

from .entities import entity_id
from .errors import InputError
from .metadata import pair_error
from .models import stable_id

FORMAT_VERSION = 1
LABELS = ("User", "Session", "Turn", "MessagePiece", "FactEvent", "Entity")
EDGE_TYPES = ("HAS_SESSION", "HAS_TURN", "NEXT", "HAS_PIECE", "DERIVED_FROM", "HAS_ROLE", "RELATED",
              "SUPERSEDES", "CONTRADICTS", "UPDATES")


def encode(value: Any) -> Any:
    if isinstance(value, DateTime):
        return {"$datetime": value.iso_format()}
    if isinstance(value, Date):
        return {"$date": value.iso_format()}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise InputError(f"cannot export a property value of type {type(value).__name__}")


def decode(value: Any) -> Any:
    if isinstance(value, dict):
        (tag, text), = value.items() if len(value) == 1 else ((None, None),)
        if tag in ("$datetime", "$date") and isinstance(text, str):
            try:
                return (DateTime if tag == "$datetime" else Date).from_iso_format(text)
            except (ValueError, TypeError, AttributeError, IndexError):
                raise InputError(f"cannot read {text!r} as a {tag[1:]}") from None
        raise InputError("a property holds a map, which Neo4j cannot store")
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def checksum(lines: Iterable[str]) -> str:
    """sha256 of an export's node and edge lines, order-independent: equal for equal graphs."""
    digest = hashlib.sha256()
    for line in sorted(ln for ln in lines if not ln.startswith('{"graphmem_export"')):
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def refusal(path: Path, line: int, what: str) -> InputError:
    return InputError(f"{path}: line {line}: {what}; nothing was imported")


# Which labels each edge type joins (from, to): what graphmem itself writes.
EDGE_ENDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "HAS_SESSION": (frozenset({"User"}), frozenset({"Session"})),
    "HAS_TURN": (frozenset({"Session"}), frozenset({"Turn"})),
    "NEXT": (frozenset({"Turn"}), frozenset({"Turn"})),
    "HAS_PIECE": (frozenset({"Turn"}), frozenset({"MessagePiece"})),
    "DERIVED_FROM": (frozenset({"FactEvent"}), frozenset({"MessagePiece"})),
    "HAS_ROLE": (frozenset({"FactEvent"}), frozenset({"Entity"})),
    "RELATED": (frozenset({"User", "Entity"}), frozenset({"Entity"})),
    **{t: (frozenset({"FactEvent"}), frozenset({"FactEvent"}))
       for t in ("SUPERSEDES", "CONTRADICTS", "UPDATES")},
}
# Edges told apart by their properties as well as their ends (graphmem MERGEs them so).
KEYED_BY_PROPS = frozenset({"HAS_ROLE", "RELATED"})
VECTOR_KEYS = ("embedding", "embedding_next")
_INT_RANGE = (-(2 ** 63), 2 ** 63 - 1)  # what a Neo4j integer holds


# The Neo4j type of each Python type a property value may have, tried in order (a bool is an int).
_KINDS = ((bool, "boolean"), (int, "integer"), (float, "float"), (str, "string"),
          (DateTime, "datetime"), (Date, "date"))


def _kind(value: Any) -> str:
    """The Neo4j type of one property value (not a list); ValueError when Neo4j cannot store it."""
    kind = next((name for python_type, name in _KINDS if isinstance(value, python_type)), None)
    if kind is None:
        raise ValueError(_unstorable(value))
    if kind == "integer" and not _INT_RANGE[0] <= value <= _INT_RANGE[1]:
        raise ValueError(f"the integer {value} does not fit in 64 bits")
    if kind == "string":
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a string holds an unpaired surrogate (not UTF-8)") from None
    return kind


def _unstorable(value: Any) -> str:
    if isinstance(value, list):
        return "a list inside a list, which Neo4j cannot store"
    if value is None:
        return "a list holds null, which Neo4j cannot store"
    return f"a value of type {type(value).__name__}"


def _check_props(props: dict[str, Any]) -> None:
    """ValueError naming the first property Neo4j would refuse (or reject with a type error)."""
    for key, value in props.items():
        try:
            _kind(key)
            if not key or "\x00" in key:
                raise ValueError("an empty property name, or one holding NUL")
            if value is None:
                continue
            if isinstance(value, list):
                kinds = {_kind(v) for v in value}
                if len(kinds) > 1:
                    raise ValueError(f"a list mixes {' and '.join(sorted(kinds))} values")
            else:
                _kind(value)
        except ValueError as exc:
            raise ValueError(f"property {key!r}: {exc}") from None


def _check_vectors(props: dict[str, Any], dimensions: int | None) -> None:
    for key in VECTOR_KEYS:
        vec = props.get(key)
        if vec is None:
            continue
        if not isinstance(vec, list) or not vec or not all(
                isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
                for x in vec):
            raise ValueError(f"property {key!r} is not a vector of finite numbers")
        if key == "embedding" and dimensions is not None and len(vec) != dimensions:
            raise ValueError(f"property 'embedding' has {len(vec)} dimensions; this database's "
                             f"vectors have {dimensions}")


class _Rec:
    """One node or edge of the file, with its line."""

    __slots__ = ("line", "label", "props")

    def __init__(self, line: int, label: str, props: dict[str, Any]):
        self.line, self.label, self.props = line, label, props


def _parse(path: Path) -> tuple[str, list[tuple[int, Any, str]]]:
    try:
        raw = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}; nothing was imported") from None
    records = []
    for i, text in enumerate(raw, start=1):
        if text.strip():
            try:
                records.append((i, json.loads(text), text))
            except (json.JSONDecodeError, RecursionError) as exc:
                why = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
                raise refusal(path, i, f"not JSON ({why})") from None
    if not records or not isinstance(records[0][1], dict) or \
            records[0][1].get("graphmem_export") != FORMAT_VERSION:
        raise InputError(f"{path}: not a graphmem export (line 1 must be the header written by "
                         "`graphmem export`); nothing was imported")
    user_id = records[0][1].get("user_id")
    if not isinstance(user_id, str) or not user_id.strip():
        raise refusal(path, records[0][0], "the header names no user_id")
    try:
        _kind(user_id)
    except ValueError as exc:
        raise refusal(path, records[0][0], f"the header's user_id: {exc}") from None
    return user_id, records


def _record_props(path: Path, i: int, rec: Any, user_id: str) -> dict[str, Any]:
    """The decoded properties of one record, of types Neo4j stores, of the header's user."""
    if not isinstance(rec, dict) or not isinstance(rec.get("props"), dict):
        raise refusal(path, i, "expected a node or edge record with props")
    try:
        props = {k: decode(v) for k, v in rec["props"].items()}
        _check_props(props)
    except (InputError, ValueError, TypeError, AttributeError, OverflowError) as exc:
        raise refusal(path, i, str(exc)) from None
    if props.get("user_id", user_id) != user_id:
        raise refusal(path, i, f"user_id {props['user_id']!r}: the record does not belong to "
                             f"user {user_id!r}, the header's")
    return props


def _node(path: Path, i: int, label: Any, props: dict[str, Any], user_id: str,
          labels: dict[str, str], dimensions: int | None) -> _Rec:
    if not isinstance(label, str) or label not in LABELS:
        raise refusal(path, i, f"unknown label {label!r}")
    nid = props.get("id")
    if props.get("user_id") != user_id or not isinstance(nid, str):
        raise refusal(path, i, f"the node does not belong to user {user_id!r}")
    if nid in labels:
        raise refusal(path, i, f"node id {nid!r} appears twice")
    try:
        _check_vectors(props, dimensions)
    except ValueError as exc:
        raise refusal(path, i, f"node {nid!r}: {exc}") from None
    return _Rec(i, label, props)


def _edge(path: Path, i: int, rec: dict[str, Any], props: dict[str, Any]
          ) -> tuple[int, str, list[Any], dict[str, Any]]:
    kind, ends = rec["edge"], [rec.get("from"), rec.get("to")]
    if not isinstance(kind, str) or kind not in EDGE_TYPES:
        raise refusal(path, i, f"unknown edge type {kind!r}")
    if not all(isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)
               for e in ends):
        raise refusal(path, i, "an edge needs from and to as [label, id], two strings")
    return i, kind, ends, props


def read_export(path: Path, *, dimensions: int | None = None
                ) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], str]:
    """(user id, node rows, edge rows, checksum) of an export file, checked whole; InputError
    naming the line otherwise.

    Besides the shape and the property types, every id is recomputed from the header's user and
    the record's own keys with the functions ingest uses (`graphmem.models.stable_id`,
    `graphmem.entities.entity_id`, `graphmem.segment.pieces_of_turn`'s scheme), so a file cannot
    hold a node under an id another user's memory will need; every id-valued property and every
    edge must agree with them, and each session's `turn_count` with its turns. `dimensions`: the
    width every `embedding` must have (the database's vector space), if known."""
    user_id, records = _parse(path)
    nodes: list[_Rec] = []
    edges: list[tuple[int, str, list[Any], dict[str, Any]]] = []
    labels: dict[str, str] = {}  # id -> label
    for i, rec, _text in records[1:]:
        props = _record_props(path, i, rec, user_id)
        if "node" in rec:
            node = _node(path, i, rec["node"], props, user_id, labels, dimensions)
            labels[node.props["id"]] = node.label
            nodes.append(node)
        elif "edge" in rec:
            edges.append(_edge(path, i, rec, props))
        else:
            raise refusal(path, i, "expected a node or edge record")
    if not any(n.label == "User" for n in nodes):
        raise InputError(f"{path}: the export holds no User node; nothing was imported")
    _verify_ids(path, user_id, nodes, labels)
    edge_rows = _verify_edges(path, user_id, nodes, edges, labels)
    node_rows = [{"label": n.label, "props": n.props, "line": n.line} for n in nodes]
    return user_id, node_rows, edge_rows, checksum(text for _i, _r, text in records)


def _get(path: Path, n: _Rec, key: str, kind: type | tuple[type, ...]) -> Any:
    value = n.props.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise refusal(path, n.line, f"{n.label} {n.props['id']!r} needs {key!r} "
                                  f"({getattr(kind, '__name__', 'a value')}), got {value!r}")
    return value


def _verify_ids(path: Path, user_id: str, nodes: list[_Rec], labels: dict[str, str]) -> None:
    """Every id is the one ingest would give this user's record; id-valued properties agree."""
    by_label: dict[str, list[_Rec]] = {label: [] for label in LABELS}
    for n in nodes:
        by_label[n.label].append(n)
    ids = _Ids(path, user_id)
    ids.user(by_label["User"])
    ids.legacy(nodes, labels)
    sessions = ids.sessions(by_label["Session"])
    turns = ids.turns(by_label["Turn"], sessions)
    ids.positions(sessions, by_label["Turn"])
    ids.pieces(by_label["MessagePiece"], turns)
    ids.facts(by_label["FactEvent"], turns)
    for n in by_label["Entity"]:
        ids.check(n, entity_id(user_id, _get(path, n, "norm_name", str)), "norm_name")


class _Ids:
    """The checks of `_verify_ids`, one kind of record each, in the order a reader meets them."""

    def __init__(self, path: Path, user_id: str):
        self.path, self.user_id = path, user_id

    def check(self, n: _Rec, expected: str, keys: str) -> None:
        if n.props["id"] != expected:
            raise refusal(self.path, n.line, f"{n.label} id {n.props['id']!r} is not the id its user "
                                           f"{self.user_id!r} and {keys} give ({expected!r})")

    def user(self, users: list[_Rec]) -> None:
        for n in users:
            if n.props["id"] != self.user_id:
                raise refusal(self.path, n.line, "the User node's id is not the header's user_id")
        if len(users) > 1:
            raise refusal(self.path, users[1].line, "a second User node")

    def legacy(self, nodes: list[_Rec], labels: dict[str, str]) -> None:
        seen: set[str] = set()
        for n in nodes:
            old = n.props.get("legacy_id")
            if old is None:
                continue
            if not isinstance(old, str) or old in labels or old in seen:
                raise refusal(self.path, n.line, f"legacy_id {old!r} is not a string or is also "
                                               "another node's id or legacy_id")
            seen.add(old)

    def sessions(self, sessions: list[_Rec]) -> dict[str, _Rec]:
        found: dict[str, _Rec] = {}
        for n in sessions:
            self.check(n, stable_id("session", self.user_id,
                                    _get(self.path, n, "source_id", str)), "source_id")
            count = _get(self.path, n, "turn_count", int)
            if count < 0:
                raise refusal(self.path, n.line, f"Session {n.props['id']!r} has turn_count {count}")
            found[n.props["id"]] = n
        return found

    def turns(self, turns: list[_Rec], sessions: dict[str, _Rec]) -> dict[str, _Rec]:
        found: dict[str, _Rec] = {}
        for n in turns:
            source = _get(self.path, n, "session_source_id", str)
            idx = _get(self.path, n, "idx", int)
            self.check(n, stable_id("turn", self.user_id, source, idx), "session_source_id and idx")
            sid = stable_id("session", self.user_id, source)
            if sid not in sessions or n.props.get("session_id") != sid or idx < 1:
                raise refusal(self.path, n.line, f"Turn {n.props['id']!r}: its session {sid!r} is "
                                               "not in the file, or session_id or idx disagree "
                                               "with it")
            _get(self.path, n, "text", str)
            if n.props.get("metadata") is not None:  # its labels, as graphmem.metadata stores them
                wrong = pair_error(n.props["metadata"])
                if wrong:
                    raise refusal(self.path, n.line, f"Turn {n.props['id']!r}: {wrong}")
            found[n.props["id"]] = n
        return found

    def positions(self, sessions: dict[str, _Rec], turns: list[_Rec]) -> None:
        """A session's turns and deleted positions number 1 to turn_count, each once."""
        idxs: dict[str, set[int]] = {sid: set() for sid in sessions}
        for t in turns:
            idxs[t.props["session_id"]].add(t.props["idx"])
        for sid, n in sessions.items():
            # Positions of turns deleted one by one (Memory.delete_turn) are listed, not held.
            deleted = n.props.get("deleted_idxs") or []
            if not isinstance(deleted, list) or not all(
                    isinstance(i, int) and not isinstance(i, bool) for i in deleted):
                raise refusal(self.path, n.line, f"Session {sid!r}: deleted_idxs must be a list of "
                                               "whole numbers")
            if (idxs[sid] & set(deleted) or len(set(deleted)) != len(deleted)
                    or idxs[sid] | set(deleted) != set(range(1, n.props["turn_count"] + 1))):
                raise refusal(self.path, n.line, f"Session {sid!r} has turn_count "
                                               f"{n.props['turn_count']} but the file holds "
                                               f"{len(idxs[sid])} turns of it and {len(deleted)} "
                                               "deleted positions (numbered 1 to turn_count, "
                                               "each once)")

    def pieces(self, pieces: list[_Rec], turns: dict[str, _Rec]) -> None:
        for n in pieces:
            turn = turns.get(_get(self.path, n, "turn_id", str))
            start, end = _get(self.path, n, "start", int), _get(self.path, n, "end", int)
            if turn is None:
                raise refusal(self.path, n.line, f"MessagePiece {n.props['id']!r}: its turn is not "
                                               "in the file")
            self.check(n, stable_id("piece", self.user_id, turn.props["id"], start, end),
                       "turn_id, start, end")
            text = turn.props["text"]
            if (n.props.get("session_id") != turn.props["session_id"] or not 0 <= start < end
                    or n.props.get("text") != text[start:end]):
                raise refusal(self.path, n.line, f"MessagePiece {n.props['id']!r}: session_id, "
                                               "offsets or text disagree with its turn")

    def facts(self, facts: list[_Rec], turns: dict[str, _Rec]) -> None:
        for n in facts:
            turn = turns.get(_get(self.path, n, "turn_id", str))
            start = _get(self.path, n, "span_start", int)
            if turn is None:
                raise refusal(self.path, n.line, f"FactEvent {n.props['id']!r}: its turn is not in "
                                               "the file")
            self.check(n, stable_id("fact", self.user_id, turn.props["id"], start,
                                    n.props.get("predicate"), n.props.get("value")),
                       "turn_id, span_start, predicate, value")
            support = _get(self.path, n, "support", str)
            if (n.props.get("session_id") != turn.props["session_id"]
                    or n.props.get("turn_idx") != turn.props["idx"] or start < 0
                    or turn.props["text"][start:start + len(support)] != support):
                raise refusal(self.path, n.line, f"FactEvent {n.props['id']!r}: session_id, "
                                               "turn_idx or support disagree with its turn")


def _edge_agrees(kind: str, a: str, pa: dict[str, Any], pb: dict[str, Any],
                 eprops: dict[str, Any], labels: dict[str, str],
                 props: dict[str, dict[str, Any]]) -> bool:
    """A structural edge agrees with its nodes' id-valued properties."""
    if kind == "HAS_TURN":
        return pb.get("session_id") == a
    if kind == "HAS_PIECE":
        return pb.get("turn_id") == a
    if kind == "NEXT":  # to the next position, or over positions deleted one by one
        deleted = set(props.get(pa["session_id"], {}).get("deleted_idxs") or [])
        return (pa["session_id"] == pb["session_id"] and pb["idx"] > pa["idx"]
                and set(range(pa["idx"] + 1, pb["idx"])) <= deleted)
    if kind == "DERIVED_FROM":
        return pb.get("turn_id") == pa.get("turn_id")
    if kind == "RELATED":
        fact = eprops.get("fact_id")
        return isinstance(fact, str) and labels.get(fact) == "FactEvent"
    return True


def _verify_edges(path: Path, user_id: str, nodes: list[_Rec],
                  edges: list[tuple[int, str, list[Any], dict[str, Any]]],
                  labels: dict[str, str]) -> list[dict[str, Any]]:
    """Edges join nodes of the file, of the labels their type joins, agreeing with the nodes'
    own id-valued properties; no edge twice; every session, turn and piece has its one parent."""
    props = {n.props["id"]: n.props for n in nodes}
    parents: dict[str, int] = {}
    seen: set[tuple[Any, ...]] = set()
    rows = []
    for line, kind, ends, eprops in edges:
        (a_label, a), (b_label, b) = ends
        if labels.get(a) != a_label or labels.get(b) != b_label:
            end = "from" if labels.get(a) != a_label else "to"
            raise refusal(path, line, f"the edge's {end} node is not in the file")
        if a_label not in EDGE_ENDS[kind][0] or b_label not in EDGE_ENDS[kind][1]:
            raise refusal(path, line, f"a {kind} edge does not join {a_label} to {b_label}")
        pa, pb = props[a], props[b]
        if not _edge_agrees(kind, a, pa, pb, eprops, labels, props):
            raise refusal(path, line, f"the {kind} edge disagrees with its nodes' properties")
        key = (kind, a, b, json.dumps(encode(eprops), sort_keys=True)
               if kind in KEYED_BY_PROPS else None)
        if key in seen:
            raise refusal(path, line, f"the {kind} edge from {a!r} to {b!r} appears twice")
        seen.add(key)
        if kind in ("HAS_SESSION", "HAS_TURN", "HAS_PIECE"):
            parents[b] = parents.get(b, 0) + 1
        rows.append({"type": kind, "props": eprops, "from_label": a_label, "from": a,
                     "to_label": b_label, "to": b})
    for n in nodes:
        if n.label in ("Session", "Turn", "MessagePiece") and parents.get(n.props["id"]) != 1:
            raise refusal(path, n.line, f"{n.label} {n.props['id']!r} has no edge from its parent "
                                      "(or more than one)")
    return rows
