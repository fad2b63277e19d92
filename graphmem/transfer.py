"""Export one user's memory as JSONL and import it into a database without that user, to the
identical graph (nodes, edges, ids, statuses, intervals, who decided each edge, embeddings).

The file: a header line `{"graphmem_export": 1, "user_id": …}`, then one line per node
(`{"node": label, "props": {…}}`) and per edge (`{"edge": type, "from": [label, id], "to": [label,
id], "props": {…}}`). Neo4j temporal values are written as `{"$datetime": iso}` / `{"$date": iso}`,
with nanoseconds. An import checks the whole file before it writes, and writes it in one
transaction: ids are not trusted but recomputed from the header's user and each record's own keys
(the functions ingest uses), so an import can never hold an id another user's memory will need.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from neo4j.exceptions import ClientError as Neo4jClientError
from neo4j.time import Date, DateTime

from .entities import entity_id
from .errors import InputError
from .metadata import pair_error
from .models import stable_id
from .store import admin
from .store import transfer as store
from .vectorspace import recorded

FORMAT_VERSION = 1
LABELS = ("User", "Session", "Turn", "MessagePiece", "FactEvent", "Entity")
EDGE_TYPES = ("HAS_SESSION", "HAS_TURN", "NEXT", "HAS_PIECE", "DERIVED_FROM", "HAS_ROLE", "RELATED",
              "SUPERSEDES", "CONTRADICTS", "UPDATES")


def _encode(value: Any) -> Any:
    if isinstance(value, DateTime):
        return {"$datetime": value.iso_format()}
    if isinstance(value, Date):
        return {"$date": value.iso_format()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise InputError(f"cannot export a property value of type {type(value).__name__}")


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        (tag, text), = value.items() if len(value) == 1 else ((None, None),)
        if tag in ("$datetime", "$date") and isinstance(text, str):
            try:
                return (DateTime if tag == "$datetime" else Date).from_iso_format(text)
            except (ValueError, TypeError, AttributeError, IndexError):
                raise InputError(f"cannot read {text!r} as a {tag[1:]}") from None
        raise InputError("a property holds a map, which Neo4j cannot store")
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def export_lines(graph: Any, user_id: str) -> Iterator[str]:
    """The lines of a user's export (the user must exist)."""
    admin.require_user(graph, user_id)
    yield json.dumps({"graphmem_export": FORMAT_VERSION, "user_id": user_id})
    for n in store.user_nodes(graph, user_id):
        yield json.dumps({"node": n["label"], "props": _encode(n["props"])}, sort_keys=True)
    for e in store.user_edges(graph, user_id):
        yield json.dumps({"edge": e["type"], "from": [e["from_label"], e["from"]],
                          "to": [e["to_label"], e["to"]], "props": _encode(e["props"])},
                         sort_keys=True)


def checksum(lines: Iterable[str]) -> str:
    """sha256 of an export's node and edge lines, order-independent: equal for equal graphs."""
    digest = hashlib.sha256()
    for line in sorted(ln for ln in lines if not ln.startswith('{"graphmem_export"')):
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def export_user(graph: Any, user_id: str, out: IO[str]) -> dict[str, Any]:
    """Write the export to `out`; counts and the checksum."""
    lines = list(export_lines(graph, user_id))
    for line in lines:
        out.write(line + "\n")
    return {"user_id": user_id, "nodes": sum('"node"' in ln[:9] for ln in lines[1:]),
            "edges": sum('"edge"' in ln[:9] for ln in lines[1:]), "checksum": checksum(lines)}


def _fail(path: Path, line: int, what: str) -> InputError:
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


def _kind(value: Any) -> str:
    """The Neo4j type of one property value (not a list); ValueError when Neo4j cannot store it."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        if not _INT_RANGE[0] <= value <= _INT_RANGE[1]:
            raise ValueError(f"the integer {value} does not fit in 64 bits")
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("a string holds an unpaired surrogate (not UTF-8)") from None
        return "string"
    if isinstance(value, DateTime):
        return "datetime"
    if isinstance(value, Date):
        return "date"
    if isinstance(value, list):
        raise ValueError("a list inside a list, which Neo4j cannot store")
    if value is None:
        raise ValueError("a list holds null, which Neo4j cannot store")
    raise ValueError(f"a value of type {type(value).__name__}")


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
                raise _fail(path, i, f"not JSON ({why})") from None
    if not records or not isinstance(records[0][1], dict) or \
            records[0][1].get("graphmem_export") != FORMAT_VERSION:
        raise InputError(f"{path}: not a graphmem export (line 1 must be the header written by "
                         "`graphmem export`); nothing was imported")
    user_id = records[0][1].get("user_id")
    if not isinstance(user_id, str) or not user_id.strip():
        raise _fail(path, records[0][0], "the header names no user_id")
    try:
        _kind(user_id)
    except ValueError as exc:
        raise _fail(path, records[0][0], f"the header's user_id: {exc}") from None
    return user_id, records


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
        if not isinstance(rec, dict) or not isinstance(rec.get("props"), dict):
            raise _fail(path, i, "expected a node or edge record with props")
        try:
            props = {k: _decode(v) for k, v in rec["props"].items()}
            _check_props(props)
        except (InputError, ValueError, TypeError, AttributeError, OverflowError) as exc:
            raise _fail(path, i, str(exc)) from None
        if props.get("user_id", user_id) != user_id:
            raise _fail(path, i, f"user_id {props['user_id']!r}: the record does not belong to "
                                 f"user {user_id!r}, the header's")
        if "node" in rec:
            label, nid = rec["node"], props.get("id")
            if not isinstance(label, str) or label not in LABELS:
                raise _fail(path, i, f"unknown label {label!r}")
            if props.get("user_id") != user_id or not isinstance(nid, str):
                raise _fail(path, i, f"the node does not belong to user {user_id!r}")
            if nid in labels:
                raise _fail(path, i, f"node id {nid!r} appears twice")
            try:
                _check_vectors(props, dimensions)
            except ValueError as exc:
                raise _fail(path, i, f"node {nid!r}: {exc}") from None
            labels[nid] = label
            nodes.append(_Rec(i, label, props))
        elif "edge" in rec:
            kind, ends = rec["edge"], [rec.get("from"), rec.get("to")]
            if not isinstance(kind, str) or kind not in EDGE_TYPES:
                raise _fail(path, i, f"unknown edge type {kind!r}")
            if not all(isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)
                       for e in ends):
                raise _fail(path, i, "an edge needs from and to as [label, id], two strings")
            edges.append((i, kind, ends, props))
        else:
            raise _fail(path, i, "expected a node or edge record")
    if not any(n.label == "User" for n in nodes):
        raise InputError(f"{path}: the export holds no User node; nothing was imported")
    _verify_ids(path, user_id, nodes, labels)
    edge_rows = _verify_edges(path, user_id, nodes, edges, labels)
    node_rows = [{"label": n.label, "props": n.props, "line": n.line} for n in nodes]
    return user_id, node_rows, edge_rows, checksum(text for _i, _r, text in records)


def _get(path: Path, n: _Rec, key: str, kind: type | tuple[type, ...]) -> Any:
    value = n.props.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _fail(path, n.line, f"{n.label} {n.props['id']!r} needs {key!r} "
                                  f"({getattr(kind, '__name__', 'a value')}), got {value!r}")
    return value


def _verify_ids(path: Path, user_id: str, nodes: list[_Rec], labels: dict[str, str]) -> None:
    """Every id is the one ingest would give this user's record; id-valued properties agree."""
    by_label: dict[str, list[_Rec]] = {label: [] for label in LABELS}
    for n in nodes:
        by_label[n.label].append(n)

    def check(n: _Rec, expected: str, keys: str) -> None:
        if n.props["id"] != expected:
            raise _fail(path, n.line, f"{n.label} id {n.props['id']!r} is not the id its user "
                                      f"{user_id!r} and {keys} give ({expected!r})")

    for n in by_label["User"]:
        if n.props["id"] != user_id:
            raise _fail(path, n.line, "the User node's id is not the header's user_id")
    if len(by_label["User"]) > 1:
        raise _fail(path, by_label["User"][1].line, "a second User node")
    legacy: set[str] = set()
    for n in nodes:
        old = n.props.get("legacy_id")
        if old is None:
            continue
        if not isinstance(old, str) or old in labels or old in legacy:
            raise _fail(path, n.line, f"legacy_id {old!r} is not a string or is also another "
                                      "node's id or legacy_id")
        legacy.add(old)

    sessions: dict[str, _Rec] = {}
    for n in by_label["Session"]:
        check(n, stable_id("session", user_id, _get(path, n, "source_id", str)), "source_id")
        count = _get(path, n, "turn_count", int)
        if count < 0:
            raise _fail(path, n.line, f"Session {n.props['id']!r} has turn_count {count}")
        sessions[n.props["id"]] = n
    turns: dict[str, _Rec] = {}
    idxs: dict[str, set[int]] = {sid: set() for sid in sessions}
    for n in by_label["Turn"]:
        source = _get(path, n, "session_source_id", str)
        idx = _get(path, n, "idx", int)
        check(n, stable_id("turn", user_id, source, idx), "session_source_id and idx")
        sid = stable_id("session", user_id, source)
        if sid not in sessions or n.props.get("session_id") != sid or idx < 1:
            raise _fail(path, n.line, f"Turn {n.props['id']!r}: its session {sid!r} is not in "
                                      "the file, or session_id or idx disagree with it")
        _get(path, n, "text", str)
        if n.props.get("metadata") is not None:  # its labels, as graphmem.metadata stores them
            wrong = pair_error(n.props["metadata"])
            if wrong:
                raise _fail(path, n.line, f"Turn {n.props['id']!r}: {wrong}")
        idxs[sid].add(idx)
        turns[n.props["id"]] = n
    for sid, n in sessions.items():
        # Positions of turns deleted one by one (Memory.delete_turn) are listed, not held.
        deleted = n.props.get("deleted_idxs") or []
        if not isinstance(deleted, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in deleted):
            raise _fail(path, n.line, f"Session {sid!r}: deleted_idxs must be a list of whole "
                                      "numbers")
        if (idxs[sid] & set(deleted) or len(set(deleted)) != len(deleted)
                or idxs[sid] | set(deleted) != set(range(1, n.props["turn_count"] + 1))):
            raise _fail(path, n.line, f"Session {sid!r} has turn_count {n.props['turn_count']} "
                                      f"but the file holds {len(idxs[sid])} turns of it "
                                      f"and {len(deleted)} deleted positions (numbered 1 to "
                                      "turn_count, each once)")
    for n in by_label["MessagePiece"]:
        turn = turns.get(_get(path, n, "turn_id", str))
        start, end = _get(path, n, "start", int), _get(path, n, "end", int)
        if turn is None:
            raise _fail(path, n.line, f"MessagePiece {n.props['id']!r}: its turn is not in the "
                                      "file")
        check(n, stable_id("piece", user_id, turn.props["id"], start, end), "turn_id, start, end")
        text = turn.props["text"]
        if (n.props.get("session_id") != turn.props["session_id"] or not 0 <= start < end
                or n.props.get("text") != text[start:end]):
            raise _fail(path, n.line, f"MessagePiece {n.props['id']!r}: session_id, offsets or "
                                      "text disagree with its turn")
    for n in by_label["FactEvent"]:
        turn = turns.get(_get(path, n, "turn_id", str))
        start = _get(path, n, "span_start", int)
        if turn is None:
            raise _fail(path, n.line, f"FactEvent {n.props['id']!r}: its turn is not in the file")
        check(n, stable_id("fact", user_id, turn.props["id"], start, n.props.get("predicate"),
                           n.props.get("value")), "turn_id, span_start, predicate, value")
        support = _get(path, n, "support", str)
        if (n.props.get("session_id") != turn.props["session_id"]
                or n.props.get("turn_idx") != turn.props["idx"] or start < 0
                or turn.props["text"][start:start + len(support)] != support):
            raise _fail(path, n.line, f"FactEvent {n.props['id']!r}: session_id, turn_idx or "
                                      "support disagree with its turn")
    for n in by_label["Entity"]:
        check(n, entity_id(user_id, _get(path, n, "norm_name", str)), "norm_name")


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
            raise _fail(path, line, f"the edge's {end} node is not in the file")
        if a_label not in EDGE_ENDS[kind][0] or b_label not in EDGE_ENDS[kind][1]:
            raise _fail(path, line, f"a {kind} edge does not join {a_label} to {b_label}")
        pa, pb = props[a], props[b]
        if not _edge_agrees(kind, a, pa, pb, eprops, labels, props):
            raise _fail(path, line, f"the {kind} edge disagrees with its nodes' properties")
        key = (kind, a, b, json.dumps(_encode(eprops), sort_keys=True)
               if kind in KEYED_BY_PROPS else None)
        if key in seen:
            raise _fail(path, line, f"the {kind} edge from {a!r} to {b!r} appears twice")
        seen.add(key)
        if kind in ("HAS_SESSION", "HAS_TURN", "HAS_PIECE"):
            parents[b] = parents.get(b, 0) + 1
        rows.append({"type": kind, "props": eprops, "from_label": a_label, "from": a,
                     "to_label": b_label, "to": b})
    for n in nodes:
        if n.label in ("Session", "Turn", "MessagePiece") and parents.get(n.props["id"]) != 1:
            raise _fail(path, n.line, f"{n.label} {n.props['id']!r} has no edge from its parent "
                                      "(or more than one)")
    return rows


def import_user(graph: Any, path: Path) -> dict[str, Any]:
    """Restore an export into this database, which must not hold that user yet. The file is
    checked whole (see `read_export`) and written in one transaction, which first checks that no
    id of the file is taken; every refusal is one InputError naming the file and the record, and
    leaves the database as it was."""
    space = recorded(graph)
    user_id, nodes, edges, digest = read_export(path, dimensions=space.dimensions if space else None)
    if admin.user_exists(graph, user_id):
        raise InputError(f"user {user_id!r} already has memory in this database; "
                         f"`graphmem forget --user {user_id}` first, or import elsewhere; "
                         "nothing was imported")
    try:
        counts = store.restore(graph, user_id, nodes, edges)
    except store.IdsTaken as exc:
        line = {n["props"]["id"]: n["line"] for n in nodes}
        taken = exc.ids[0]
        raise _fail(path, line.get(taken, 0), f"node id {taken!r} is already in this database "
                    f"({len(exc.ids)} id(s) of the file are)") from None
    except Neo4jClientError as exc:  # checked above; a database rule the checks do not know
        raise InputError(f"{path}: Neo4j refused the import ({exc.code}: "
                         f"{str(exc.message).splitlines()[0] if exc.message else ''}); "
                         "nothing was imported") from None
    except (OverflowError, TypeError, ValueError) as exc:
        raise InputError(f"{path}: a value the driver cannot send ({exc}); "
                         "nothing was imported") from None
    admin.keep_user_speakers(graph, user_id, only_missing=True)  # an export older than 0011
    return {"user_id": user_id, "nodes": len(nodes), **counts, "checksum": digest}
