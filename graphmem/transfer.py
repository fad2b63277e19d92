"""Export one user's memory as JSONL and import it into a database without that user, to the
identical graph (nodes, edges, ids, statuses, intervals, who decided each edge, embeddings).

The file and its check are in `export_file`. An import checks the whole file before it writes,
and writes it in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from neo4j.exceptions import ClientError as Neo4jClientError

from .errors import InputError
from .export_file import FORMAT_VERSION, checksum, encode, read_export, refusal
from .store import admin
from .store import transfer as store
from .vectorspace import recorded

__all__ = ["checksum", "export_lines", "export_user", "import_user"]


def export_lines(graph: Any, user_id: str) -> Iterator[str]:
    """The lines of a user's export (the user must exist)."""
    admin.require_user(graph, user_id)
    yield json.dumps({"graphmem_export": FORMAT_VERSION, "user_id": user_id})
    for n in store.user_nodes(graph, user_id):
        yield json.dumps({"node": n["label"], "props": encode(n["props"])}, sort_keys=True)
    for e in store.user_edges(graph, user_id):
        yield json.dumps({"edge": e["type"], "from": [e["from_label"], e["from"]],
                          "to": [e["to_label"], e["to"]], "props": encode(e["props"])},
                         sort_keys=True)


def export_user(graph: Any, user_id: str, out: IO[str]) -> dict[str, Any]:
    """Write the export to `out`; counts and the checksum."""
    lines = list(export_lines(graph, user_id))
    for line in lines:
        out.write(line + "\n")
    return {"user_id": user_id, "nodes": sum('"node"' in ln[:9] for ln in lines[1:]),
            "edges": sum('"edge"' in ln[:9] for ln in lines[1:]), "checksum": checksum(lines)}


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
        raise refusal(path, line.get(taken, 0), f"node id {taken!r} is already in this database "
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
