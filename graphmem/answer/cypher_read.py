"""`cypher_read`: a planner-written Cypher query, run only if it can read nothing but this user's
own subgraph and can write nothing.

Locks, each enough to stop a write on its own, and a scope proof over the whole plan:
1. text: the statement is tokenised in one pass (strings, backticked names and comments found in
   order, so none can hide another); outside them it may hold only ASCII, no escapes, no clause or
   keyword that writes, calls procedures, loads files, switches database or administers, no
   subquery expression (`COLLECT {`, `COUNT {`, `EXISTS {`) and no function of a namespace that can
   run queries of its own (apoc., db., dbms., gds.);
2. the server's own EXPLAIN must classify it as read-only (query type "r");
3. plan: every operator of the EXPLAIN plan, nested ones included, must be one the checker knows
   (an allow-list; anything else is refused), no operator may carry a nested query inside an
   expression, every operator that starts reading the graph must be an index seek whose own
   predicate holds `user_id = $user_id` (a positive equality, one AND-ed conjunct of the seek),
   and no relationship scan may appear. The first node the plan touches is then the user's, and
   users' subgraphs share no edge (the tests count them), so whatever is reached from it is the
   user's too: no answer, error or time of the query depends on another user's data (a scan
   filtered afterwards reads every user's nodes; a seek on a name first finds another user's);
4. it runs in a READ-access transaction, with a time limit, at most `max_rows` rows are read,
   `$user_id` is always set by graphmem, never by the caller, returned nodes are checked once
   more, and a run-time error is reported by its code only (its message may quote data).
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

MAX_STATEMENT_CHARS = 4000  # a planner's Cypher statement (not a search query)
_FORBIDDEN = re.compile(
    r"\b(CREATE|MERGE|DELETE|DETACH|SET|REMOVE|DROP|LOAD|CALL|FOREACH|USE|GRANT|DENY|REVOKE|"
    r"ALTER|RENAME|START|STOP|TERMINATE|SHOW|EXPLAIN|PROFILE|FINISH|INSERT|ENABLE|DISABLE|"
    r"CYPHER|PERIODIC|TRANSACTIONS|LET|FILTER|SEARCH|YIELD)\b",
    re.IGNORECASE)
_SUBQUERY = re.compile(r"\b(COLLECT|COUNT|EXISTS)\s*\{", re.IGNORECASE)
# Functions of these namespaces can run queries of their own (apoc.cypher.run…), unseen by the
# plan check, or reach the database's administration.
_NAMESPACES = re.compile(r"\b(apoc|gds|db|dbms|genai|graph)\s*\.\s*\w", re.IGNORECASE)
_NESTED = re.compile(r"\b(MATCH|COLLECT\s*\{|COUNT\s*\{|EXISTS\s*\{|CALL)\b|NestedPlan",
                     re.IGNORECASE)

# Operators that read nothing by themselves: they transform rows, or expand along edges from
# nodes that earlier operators bound.
_ALLOWED = frozenset("""
ProduceResults Projection Filter CacheProperties Argument Limit Skip ExhaustiveLimit Sort PartialSort
Top PartialTop Distinct OrderedDistinct EagerAggregation OrderedAggregation Aggregation Unwind Union
OrderedUnion Apply SemiApply AntiSemiApply LetSemiApply LetAntiSemiApply SelectOrSemiApply
SelectOrAntiSemiApply LetSelectOrSemiApply LetSelectOrAntiSemiApply RollUpApply ConditionalApply
AntiConditionalApply CartesianProduct NodeHashJoin ValueHashJoin NodeLeftOuterHashJoin
NodeRightOuterHashJoin Optional Anti Eager EmptyResult NullifyMetadata ProjectEndpoints
Expand(All) Expand(Into) OptionalExpand(All) OptionalExpand(Into) VarLengthExpand(All)
VarLengthExpand(Into) VarLengthExpand(Pruning) VarLengthExpand(Pruning,BFS)
VarLengthExpand(Pruning,BFS,All) BFSPruningVarExpand
ShortestPath StatefulShortestPath(All) StatefulShortestPath(Into) Trail Repeat(Trail)
""".split())
# Operators that start reading the graph from nothing: each must be anchored on the user.
_NODE_LEAVES = frozenset("""
AllNodesScan NodeByLabelScan UnionNodeByLabelsScan IntersectionNodeByLabelsScan
SubtractionNodeByLabelsScan NodeIndexScan NodeIndexSeek NodeUniqueIndexSeek NodeIndexSeekByRange
NodeUniqueIndexSeekByRange NodeIndexContainsScan NodeIndexEndsWithScan NodeByIdSeek
NodeByElementIdSeek
""".split())
_SEEKS = frozenset({"NodeIndexSeek", "NodeUniqueIndexSeek"})
_REL_LEAVES = frozenset("""
DirectedRelationshipTypeScan UndirectedRelationshipTypeScan DirectedAllRelationshipsScan
UndirectedAllRelationshipsScan
""".split())
_IDENT = r"(?:`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)"
_NODE_VAR = re.compile(rf"^(?:(?:UNIQUE|RANGE|TEXT|POINT|BTREE|LOOKUP)\s+)*(?:INDEX\s+)?({_IDENT})"
                       r"(?::[^\s(]+)?(?:\(([^)]*)\))?(?:\s+WHERE\s+(.*))?$", re.DOTALL)


class CypherRefused(GraphmemError):
    """The query was not run: it could write, or read outside the user's own subgraph."""


def _bare(statement: str) -> str:
    """The statement with string literals and backticked names replaced by placeholders and
    comments by spaces, scanned left to right so that none can hide another."""
    out: list[str] = []
    i, n = 0, len(statement)
    while i < n:
        skipped = _skip(statement, i)
        if skipped is None:
            out.append(statement[i])
            i += 1
        else:
            i, placeholder = skipped
            out.append(placeholder)
    return "".join(out)


def _skip(statement: str, i: int) -> tuple[int, str] | None:
    """Where the string literal, quoted name or comment that starts at `i` ends, and what stands
    for it; None when none starts there."""
    if statement[i] in "'\"":
        return _string_end(statement, i), "''"
    if statement[i] == "`":
        return _name_end(statement, i), "`q`"
    if statement.startswith("//", i):  # to the end of the line (the newline is kept)
        j = statement.find("\n", i)
        return (len(statement) if j == -1 else j), " "
    if statement.startswith("/*", i):
        j = statement.find("*/", i + 2)
        if j == -1:
            raise CypherRefused("a /* comment */ is not closed")
        return j + 2, " "
    return None


def _string_end(statement: str, i: int) -> int:
    quote, j, n = statement[i], i + 1, len(statement)
    while j < n and statement[j] != quote:
        j += 2 if statement[j] == "\\" else 1
    if j >= n:
        raise CypherRefused("a string literal is not closed")
    return j + 1


def _name_end(statement: str, i: int) -> int:
    j = statement.find("`", i + 1)
    while j != -1 and statement[j + 1:j + 2] == "`":  # `` escapes a backtick
        j = statement.find("`", j + 2)
    if j == -1:
        raise CypherRefused("a `quoted name` is not closed")
    return j + 1


def check_text(statement: str) -> str:
    """The statement, stripped, if its text is an acceptable read; else CypherRefused."""
    if not isinstance(statement, str) or not statement.strip():
        raise CypherRefused("the query is empty")
    if len(statement) > MAX_STATEMENT_CHARS:
        raise CypherRefused(f"the query is longer than {MAX_STATEMENT_CHARS} characters")
    bare = _bare(statement)
    if not bare.isascii() or "\\" in bare:
        raise CypherRefused("outside strings the query may hold only plain ASCII, no escapes")
    found = _FORBIDDEN.search(bare)
    if found:
        raise CypherRefused(f"{found.group(1).upper()} is not allowed: cypher_read runs read-only "
                            "MATCH / WITH / WHERE / RETURN queries")
    sub = _SUBQUERY.search(bare)
    if sub:
        raise CypherRefused(f"{sub.group(1).upper()} {{...}} subqueries are not allowed in "
                            "cypher_read; use MATCH and WITH")
    ns = _NAMESPACES.search(bare)
    if ns:
        raise CypherRefused(f"{ns.group(1)}.* functions are not allowed in cypher_read")
    if ";" in bare.strip().rstrip(";"):
        raise CypherRefused("one statement only")
    if "$user_id" not in bare:
        raise CypherRefused("anchor the query on this user: MATCH (x:Label {user_id: $user_id})")
    return statement.strip().rstrip(";").strip()


# --- the plan -----------------------------------------------------------------------------------


def _walk(op: dict[str, Any], path: tuple[dict[str, Any], ...] = ()
          ) -> Iterator[tuple[dict[str, Any], tuple[dict[str, Any], ...]]]:
    yield op, path
    for kid in op.get("children") or []:
        yield from _walk(kid, (*path, op))


def _name(op: dict[str, Any]) -> str:
    return str(op.get("operatorType", "")).split("@")[0]


def _details(op: dict[str, Any]) -> str:
    return str((op.get("args") or {}).get("Details") or "")


def _scan(text: str) -> Iterator[tuple[int, str, int]]:
    """(index, character, bracket depth after it) for each character outside quotes, then
    (len(text), "", final depth) — the final depth is -1 when a quote is left open."""
    depth, quote, i = 0, "", 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        else:
            if c in "'\"`":
                quote = c
            depth += (c in "([{") - (c in ")]}")
            yield i, c, depth
        i += 1
    yield len(text), "", -1 if quote else depth


def _split_top(text: str, sep: re.Pattern[str]) -> list[str] | None:
    """`text` split at `sep` where it stands outside brackets and quotes; None if unbalanced."""
    parts, start = [], 0
    for i, c, depth in _scan(text):
        if depth < 0 or (not c and depth):
            return None
        m = sep.match(text, i) if c and depth == 0 and i >= start and c not in ")]}" else None
        if m:
            parts.append(text[start:i])
            start = m.end()
    parts.append(text[start:])
    return [p.strip() for p in parts]


_AND = re.compile(r"\s+AND\s+", re.IGNORECASE)
_COMMA = re.compile(r",\s*")


def _closing(text: str, at: int) -> int:
    """Index of the bracket closing the one at `at` (quotes skipped); -1 if none."""
    return next((i for i, c, depth in _scan(text[at:]) if c and depth == 0), -1 - at) + at


def _unwrap(text: str) -> str:
    """`text` without parentheses that enclose all of it ("(a) AND (b)" keeps its own)."""
    while text.startswith("(") and _closing(text, 0) == len(text) - 1:
        text = text[1:-1].strip()
    return text


def _conjuncts(condition: str) -> list[str]:
    parts = _split_top(condition.strip(), _AND)
    return [_unwrap(p) for p in parts] if parts else []


def _check_node_leaf(name: str, details: str) -> None:
    """A node leaf must be an index seek whose own predicate holds `user_id = $user_id`: the
    first node the plan touches is the user's, so nothing is read, compared or timed on another
    user's nodes. A scan filtered afterwards would read every user's nodes of the label (its
    time grows with theirs), and a seek on another property first ("name = 'x'") would find
    another user's node before the filter drops it (its expansions time out or not)."""
    head = (_split_top(details, _COMMA) or [""])[0]  # after the first part: cached properties
    m = _NODE_VAR.match(head.strip())
    if not m:
        raise CypherRefused(f"the plan reads nodes in a way the checker does not understand "
                            f"({name}: {details[:120]})")
    seek_where = m.group(3)
    if name in _SEEKS and seek_where and "…" not in seek_where and any(
            re.fullmatch(r"user_id\s*=\s*\$user_id", c) for c in _conjuncts(seek_where)):
        return
    raise CypherRefused(
        f"the plan reads nodes without an index seek on this user ({name}); start every MATCH "
        "from a labelled node (x:Label {user_id: $user_id})")


def check_plan(plan: dict[str, Any]) -> None:
    """Every operator is known and every graph-reading one is anchored; else CypherRefused."""
    if not plan:
        raise CypherRefused("the server returned no plan to check")
    for op, _path in _walk(plan):
        name, details = _name(op), _details(op)
        if _NESTED.search(details):
            raise CypherRefused(f"the plan runs a nested query inside an expression ({name}); "
                                "use MATCH and WITH instead of subqueries")
        if name in _NODE_LEAVES:
            _check_node_leaf(name, details)
        elif name in _REL_LEAVES:
            raise CypherRefused(f"the plan scans relationships of every user ({name}); start "
                                "every MATCH from a labelled node (x:Label {user_id: $user_id})")
        elif "CountStore" in name:
            raise CypherRefused("counting a whole label counts every user: anchor the MATCH on "
                                "{user_id: $user_id}")
        elif name not in _ALLOWED:
            raise CypherRefused(f"the plan uses an operator cypher_read does not allow ({name})")


def _plain(value: Any, user_id: str) -> Any:
    """A JSON-friendly copy of a result value; nodes of another user refuse the whole result."""
    if isinstance(value, Node):
        props = {k: _plain(v, user_id) for k, v in value.items() if k != "embedding"}
        if props.get("user_id") != user_id:
            raise CypherRefused("the result holds a node that is not this user's")
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
        rows: list[dict[str, Any]] = []
        truncated = False
        try:
            for record in tx.run(text, values):
                if len(rows) >= max_rows:
                    truncated = True
                    break
                rows.append({k: _plain(v, user_id) for k, v in record.items()})
        except Neo4jError as error:  # its message may quote the data it failed on: not returned
            raise CypherRefused(f"the query failed while running ({error.code}); check types "
                                "and conversions") from None
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
