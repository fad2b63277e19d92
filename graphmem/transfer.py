"""Export one user's memory as JSONL and import it into a database without that user, to the
identical graph (nodes, edges, ids, statuses, intervals, who decided each edge, embeddings).

The file: a header line `{"graphmem_export": 1, "user_id": …}`, then one line per node
(`{"node": label, "props": {…}}`) and per edge (`{"edge": type, "from": [label, id], "to": [label,
id], "props": {…}}`). Neo4j temporal values are written as `{"$datetime": iso}` / `{"$date": iso}`,
with nanoseconds. An import checks the whole file before it writes, and writes it in one
transaction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from neo4j.time import Date, DateTime

from .errors import InputError
from .store import admin
from .store import transfer as store

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
        if set(value) == {"$datetime"}:
            return DateTime.from_iso_format(value["$datetime"])
        if set(value) == {"$date"}:
            return Date.from_iso_format(value["$date"])
        raise InputError("a property holds a map, which Neo4j cannot store")
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def export_lines(graph: Any, user_id: str) -> Iterator[str]:
    """The lines of a user's export (the user must exist)."""
    graph.require_user(user_id)
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


def read_export(path: Path) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], str]:
    """(user id, node rows, edge rows, checksum) of an export file, checked whole; InputError
    naming the line otherwise."""
    try:
        raw = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    records = []
    for i, text in enumerate(raw, start=1):
        if text.strip():
            try:
                records.append((i, json.loads(text), text))
            except json.JSONDecodeError as exc:
                raise _fail(path, i, f"not JSON ({exc.msg})") from None
    if not records or not isinstance(records[0][1], dict) or \
            records[0][1].get("graphmem_export") != FORMAT_VERSION:
        raise InputError(f"{path}: not a graphmem export (line 1 must be the header written by "
                         "`graphmem export`); nothing was imported")
    user_id = records[0][1].get("user_id")
    if not isinstance(user_id, str) or not user_id:
        raise _fail(path, records[0][0], "the header names no user_id")
    nodes, edges, ids = [], [], {}
    for i, rec, _text in records[1:]:
        if not isinstance(rec, dict) or not isinstance(rec.get("props"), dict):
            raise _fail(path, i, "expected a node or edge record with props")
        try:
            props = {k: _decode(v) for k, v in rec["props"].items()}
        except (InputError, ValueError, TypeError) as exc:
            raise _fail(path, i, str(exc)) from None
        if "node" in rec:
            label, nid = rec["node"], props.get("id")
            if label not in LABELS:
                raise _fail(path, i, f"unknown label {label!r}")
            if props.get("user_id") != user_id or not isinstance(nid, str):
                raise _fail(path, i, f"the node does not belong to user {user_id!r}")
            if label == "User" and nid != user_id:
                raise _fail(path, i, "the User node's id is not the header's user_id")
            if nid in ids:
                raise _fail(path, i, f"node id {nid!r} appears twice")
            ids[nid] = label
            nodes.append({"label": label, "props": props})
        elif "edge" in rec:
            ends = [rec.get("from"), rec.get("to")]
            if rec["edge"] not in EDGE_TYPES:
                raise _fail(path, i, f"unknown edge type {rec['edge']!r}")
            if not all(isinstance(e, list) and len(e) == 2 for e in ends):
                raise _fail(path, i, "an edge needs from and to as [label, id]")
            edges.append({"type": rec["edge"], "props": props,
                          "from_label": ends[0][0], "from": ends[0][1],
                          "to_label": ends[1][0], "to": ends[1][1]})
            edges[-1]["line"] = i
        else:
            raise _fail(path, i, "expected a node or edge record")
    for e in edges:
        for end in ("from", "to"):
            if ids.get(e[end]) != e[f"{end}_label"]:
                raise _fail(path, e.pop("line"), f"the edge's {end} node is not in the file")
        e.pop("line", None)
    if not any(n["label"] == "User" for n in nodes):
        raise InputError(f"{path}: the export holds no User node; nothing was imported")
    return user_id, nodes, edges, checksum(text for _i, _r, text in records)


def import_user(graph: Any, path: Path) -> dict[str, Any]:
    """Restore an export into this database, which must not hold that user yet."""
    user_id, nodes, edges, digest = read_export(path)
    if admin.user_exists(graph, user_id):
        raise InputError(f"user {user_id!r} already has memory in this database; "
                         f"`graphmem forget --user {user_id}` first, or import elsewhere; "
                         "nothing was imported")
    counts = store.restore(graph, user_id, nodes, edges)
    admin.keep_user_speakers(graph, user_id, only_missing=True)  # an export older than 0011
    return {"user_id": user_id, "nodes": len(nodes), **counts, "checksum": digest}
