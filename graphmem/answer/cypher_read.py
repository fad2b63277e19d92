"""`cypher_read`: a planner-written Cypher query, run only if it can read nothing but this user's
own subgraph and can write nothing.

Four locks, each enough to stop a write on its own, and a scope check:
1. the statement text (comments and string literals removed) may not contain a clause or
   keyword that writes, calls procedures, loads files, switches database or administers;
2. the server's own EXPLAIN must classify it as read-only (query type "r");
3. it runs in a READ-access transaction, with a time limit, and at most `max_rows` rows are read;
4. scope: every operator of the EXPLAIN plan that starts reading the graph (a scan or seek) must
   be anchored on `user_id = $user_id` — in the seek itself or in a filter right above it — and
   `$user_id` is always set by graphmem, never by the caller. Users' subgraphs share no
   relationship, so whatever is reached by expanding from an anchored node is the user's too.
   Returned nodes are checked once more.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime, time
from typing import Any

import neo4j
from neo4j.exceptions import ClientError, Neo4jError
from neo4j.graph import Node, Path, Relationship
from neo4j.time import Date, DateTime, Duration, Time

from ..db import Graph
from ..errors import GraphmemError

MAX_QUERY_CHARS = 4000
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_STRING = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"")
_FORBIDDEN = re.compile(
    r"\b(CREATE|MERGE|DELETE|DETACH|SET|REMOVE|DROP|LOAD|CALL|FOREACH|USE|GRANT|DENY|REVOKE|"
    r"ALTER|RENAME|START|STOP|TERMINATE|SHOW|EXPLAIN|PROFILE|FINISH|INSERT|ENABLE|DISABLE)\b",
    re.IGNORECASE)
# Functions of these namespaces can run queries of their own (apoc.cypher.run…), unseen by the
# plan check, or reach the database's administration.
_NAMESPACES = re.compile(r"\b(apoc|gds|db|dbms|genai|graph)\s*\.\s*\w", re.IGNORECASE)
_READS_GRAPH = re.compile(r"Scan|Seek|CountStore|ById|ByElementId", re.IGNORECASE)
_ANCHOR = re.compile(r"(?:^|\s|\()(?:`?\w+`?\.)?user_id\s*=\s*\$user_id\b")


class CypherRefused(GraphmemError):
    """The query was not run: it could write, or read outside the user's own subgraph."""


def check_text(statement: str) -> str:
    """The statement, stripped, if its text is an acceptable read; else CypherRefused."""
    if not isinstance(statement, str) or not statement.strip():
        raise CypherRefused("the query is empty")
    if len(statement) > MAX_QUERY_CHARS:
        raise CypherRefused(f"the query is longer than {MAX_QUERY_CHARS} characters")
    bare = _STRING.sub("''", _COMMENT.sub(" ", statement))
    found = _FORBIDDEN.search(bare)
    if found:
        raise CypherRefused(f"{found.group(1).upper()} is not allowed: cypher_read runs read-only "
                            "MATCH / WITH / WHERE / RETURN queries")
    ns = _NAMESPACES.search(bare)
    if ns:
        raise CypherRefused(f"{ns.group(1)}.* functions are not allowed in cypher_read")
    if ";" in bare.strip().rstrip(";"):
        raise CypherRefused("one statement only")
    if "$user_id" not in bare:
        raise CypherRefused("anchor the query on this user: MATCH (x:Label {user_id: $user_id})")
    return statement.strip().rstrip(";")


def _leaves(op: dict[str, Any], path: tuple[dict[str, Any], ...] = ()
            ) -> Iterator[tuple[dict[str, Any], tuple[dict[str, Any], ...]]]:
    kids = op.get("children") or []
    if not kids:
        yield op, path
    for kid in kids:
        yield from _leaves(kid, (*path, op))


def _details(op: dict[str, Any]) -> str:
    return str((op.get("args") or {}).get("Details") or "")


def _anchored(details: str) -> bool:
    """Is `user_id = $user_id` one of the AND-ed conditions (not inside an OR)?"""
    if " OR " in details.upper() or " XOR " in details.upper():
        return False
    return any(_ANCHOR.search(" " + part.strip()) for part in re.split(r"\bAND\b|,", details))


def check_plan(plan: dict[str, Any]) -> None:
    """Every graph-reading leaf of the plan is anchored on the user; else CypherRefused."""
    for leaf, path in _leaves(plan):
        name = str(leaf.get("operatorType", "")).split("@")[0]
        if not _READS_GRAPH.search(name):
            continue
        if "CountStore" in name:
            raise CypherRefused("counting a whole label counts every user: anchor the MATCH on "
                                "{user_id: $user_id}")
        ok = _anchored(_details(leaf))
        for parent in reversed(path):  # the filters stacked right above the leaf
            if ok or not str(parent.get("operatorType", "")).startswith("Filter"):
                break
            ok = _anchored(_details(parent))
        if not ok:
            raise CypherRefused(
                f"the plan reads nodes not anchored on this user ({name}: {_details(leaf)[:120]}); "
                "start every MATCH from (x:Label {user_id: $user_id})")


def _plain(value: Any, user_id: str) -> Any:
    """A JSON-friendly copy of a result value; nodes of another user refuse the whole result."""
    if isinstance(value, Node):
        props = {k: _plain(v, user_id) for k, v in value.items() if k != "embedding"}
        if "user_id" in props and props["user_id"] != user_id:
            raise CypherRefused("the result holds another user's node")
        return {"labels": sorted(value.labels), **props}
    if isinstance(value, Relationship):
        return {"type": value.type, **{k: _plain(v, user_id) for k, v in value.items()}}
    if isinstance(value, Path):
        return {"nodes": [_plain(n, user_id) for n in value.nodes],
                "relationships": [_plain(r, user_id) for r in value.relationships]}
    if isinstance(value, DateTime | Date | Time | datetime | date | time):
        return value.isoformat()
    if isinstance(value, Duration):
        return str(value)
    if isinstance(value, list):
        return [_plain(v, user_id) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v, user_id) for k, v in value.items()}
    return value


def cypher_read(graph: Graph, user_id: str, statement: str, params: dict[str, Any] | None = None,
                *, max_rows: int = 50, timeout_s: float = 3.0) -> dict[str, Any]:
    """{"rows": [...], "truncated": bool} for an acceptable query; CypherRefused otherwise."""
    text = check_text(statement)
    values = {k: v for k, v in (params or {}).items()
              if isinstance(k, str) and isinstance(v, str | int | float | bool | type(None) | list)}
    values["user_id"] = user_id  # never the caller's

    @neo4j.unit_of_work(timeout=timeout_s)
    def work(tx: neo4j.ManagedTransaction) -> dict[str, Any]:
        summary = tx.run("EXPLAIN " + text, values).consume()
        if summary.query_type != "r":
            raise CypherRefused(f"the server classifies the query as {summary.query_type!r}, "
                                "not read-only")
        check_plan(summary.plan or {})
        result = tx.run(text, values)
        rows, truncated = [], False
        for record in result:
            if len(rows) >= max_rows:
                truncated = True
                break
            rows.append({k: _plain(v, user_id) for k, v in record.items()})
        return {"rows": rows, "truncated": truncated}

    try:
        with graph.session(read_only=True) as session:
            return session.execute_read(work)
    except CypherRefused:
        raise
    except ClientError as error:
        raise CypherRefused(f"Neo4j refused the query: {error.message}") from None
    except Neo4jError as error:
        raise CypherRefused(f"the query failed: {error.message}") from None
