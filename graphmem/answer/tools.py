"""The planner's tools over one user's memory. Each returns a JSON-friendly result or raises
ToolError with a message the planner can act on; turns found join the evidence pool."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ..errors import GraphmemError, InputError
from . import compute as calc
from .cypher_read import CypherRefused
from .pool import EvidencePool, day
from .protocol import MemoryAccess

MAX_RESULT_CHARS = 4000
FINISH = "finish"  # the tool that ends planning (the answerer handles it, not the ToolBox)


def _fn(name: str, description: str, properties: dict[str, Any],
        required: list[str]) -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": properties, "required": required,
                       "additionalProperties": False}}}


_DATE = {"type": "string", "description": "a date, e.g. 2023-05-20"}
TOOLS: list[dict[str, Any]] = [  # what the planner is offered: one entry per tool
    _fn("search", "Search this person's memory; new turns join the pool.",
        {"query": {"type": "string"},
         "as_of": {**_DATE, "description": "only what was true and known on this date"},
         "k": {"type": "integer", "minimum": 1, "maximum": 20}}, ["query"]),
    _fn("inspect", "A memory card: a turn handle (T3) or a fact / entity id or entity name.",
        {"id": {"type": "string"}}, ["id"]),
    _fn("session_expand", "Add the turns around a turn of the pool (same session).",
        {"turn": {"type": "string", "description": "a handle such as T3"},
         "window": {"type": "integer", "minimum": 1, "maximum": 30}}, ["turn"]),
    _fn("timeline", "The ordered history of facts about a predicate and/or an entity.",
        {"predicate": {"type": "string"}, "entity": {"type": "string"},
         "since": _DATE, "until": _DATE}, []),
    _fn("count", "Count items exactly (distinct by default).",
        {"items": {"type": "array", "items": {"type": "string"}},
         "distinct": {"type": "boolean"}}, ["items"]),
    _fn("compute", "Exact arithmetic or date arithmetic.",
        {"operation": {"type": "string", "enum": ["arithmetic", "date_diff", "date_add"]},
         "expression": {"type": "string", "description": "arithmetic, e.g. (3 + 4) * 2"},
         "start": _DATE, "end": _DATE, "amount": {"type": "number"},
         "unit": {"type": "string", "enum": ["days", "weeks", "months", "years"]}},
        ["operation"]),
    _fn("cypher_read", "A read-only Cypher query over this person's own graph (max 50 rows).",
        {"query": {"type": "string"}, "params": {"type": "object"}}, ["query"]),
    _fn(FINISH, "Stop gathering: the listed turns are the evidence the answer needs.",
        {"evidence": {"type": "array", "items": {"type": "string"}},
         "reason": {"type": "string"}}, ["evidence"]),
]
NAMES = tuple(t["function"]["name"] for t in TOOLS)


class ToolError(GraphmemError):
    """A tool call that could not run: unknown tool, bad arguments, refused query."""


def _when(text: Any, name: str) -> datetime | None:
    if text is None or text == "":
        return None
    d = calc.parse_day(str(text))
    return datetime(d.year, d.month, d.day, 23, 59, 59, tzinfo=UTC) if name == "as_of" else \
        datetime(d.year, d.month, d.day, tzinfo=UTC)


def _brief(turns: list[Any]) -> list[str]:
    return [f"[turn:{t.handle}] {day(t.mentioned_at)} {t.role}: "
            f"{' '.join(t.text.split())[:300]}" for t in turns]


class ToolBox:
    def __init__(self, memory: MemoryAccess, user_id: str, pool: EvidencePool,
                 question_date: datetime | None, search_k: int = 8):
        self.memory = memory
        self.user_id = user_id
        self.pool = pool
        self.question_date = question_date
        self.search_k = search_k
        self.notes: list[str] = []  # exact results the reader should see (counts, computations)

    def run(self, name: str, arguments: Any) -> Any:
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments or "{}")
            except ValueError as error:
                raise ToolError(f"arguments are not valid JSON: {error}") from None
        if not isinstance(arguments, dict):
            raise ToolError("arguments must be a JSON object")
        method = getattr(self, f"tool_{name}", None) if name in NAMES else None
        if method is None:
            raise ToolError(f"unknown tool {name!r}")
        try:
            return method(**arguments)
        except TypeError as error:
            raise ToolError(f"bad arguments for {name}: {error}") from None
        except InputError as error:
            raise ToolError(str(error)) from None

    # --- the tools -------------------------------------------------------------------------------

    def tool_search(self, query: str, as_of: str | None = None, k: int | None = None) -> Any:
        if not isinstance(query, str) or not query.strip():
            raise ToolError("query must be a non-empty string")
        k = max(1, min(int(k or self.search_k), 20))
        found = self.memory.search(self.user_id, query, question_date=self.question_date,
                                   as_of=_when(as_of, "as_of"), k=k)
        return {"turns": _brief(self.pool.add_evidence(found))}

    def tool_inspect(self, id: str) -> Any:  # noqa: A002 - the tool's argument name
        if not isinstance(id, str) or not id.strip():
            raise ToolError("id must be a non-empty string")
        turn = self.pool.resolve(id)
        card = self.memory.inspect(self.user_id, turn.turn_id if turn else id)
        return card

    def tool_session_expand(self, turn: str, window: int | None = None) -> Any:
        found = self.pool.resolve(str(turn))
        if found is None:
            raise ToolError(f"{turn!r} is not a turn of the pool; use a handle such as T1")
        window = max(1, min(int(window or 8), 30))
        rows = self.memory.session_window(self.user_id, found.turn_id, window)
        return {"turns": _brief(self.pool.add_rows(rows))}

    def tool_timeline(self, predicate: str | None = None, entity: str | None = None,
                      since: str | None = None, until: str | None = None) -> Any:
        if not predicate and not entity:
            raise ToolError("give a predicate, an entity, or both")
        rows = self.memory.timeline(self.user_id, entity=entity, predicate=predicate,
                                    since=_when(since, "since"), until=_when(until, "until"),
                                    question_date=self.question_date, limit=40)
        turns = {t.turn_id: t for t in self.pool.add_turn_ids(
            [r.turn_id for r in rows if r.turn_id])}
        return {"facts": [
            {"turn": f"turn:{turns[r.turn_id].handle}" if r.turn_id in turns else None,
             "text": r.text, "status": r.status, "valid_from": day(r.valid_from),
             "valid_until": day(r.valid_until) if r.valid_until else None,
             "in_passing": r.mention} for r in rows]}

    def tool_count(self, items: list[Any], distinct: bool = True) -> Any:
        result = calc.count(items, distinct)
        self.notes.append(f"count({len(items)} items, distinct={distinct}) = {result['count']}: "
                          f"{result['items']}")
        return result

    def tool_compute(self, operation: str, expression: str | None = None,
                     start: str | None = None, end: str | None = None,
                     amount: float | None = None, unit: str = "days") -> Any:
        if operation == "arithmetic":
            result: Any = {"value": calc.arithmetic(expression or "")}
            self.notes.append(f"{expression} = {result['value']}")
        elif operation == "date_diff":
            if not start or not end:
                raise ToolError("date_diff needs start and end")
            result = calc.date_diff(start, end, unit)
            self.notes.append(f"from {result['start']} to {result['end']}: {result['value']} "
                              f"{unit} ({result['days']} days)")
        elif operation == "date_add":
            if not start or amount is None:
                raise ToolError("date_add needs start and amount")
            result = calc.date_add(start, amount, unit)
            self.notes.append(f"{start} + {amount} {unit} = {result['date']} "
                              f"({result['weekday']})")
        else:
            raise ToolError("operation must be arithmetic, date_diff or date_add")
        return result

    def tool_cypher_read(self, query: str, params: dict[str, Any] | None = None) -> Any:
        try:
            return self.memory.cypher_read(self.user_id, query, params)
        except CypherRefused as error:
            raise ToolError(f"refused: {error}") from None


def result_text(result: Any) -> str:
    """A tool result as the planner reads it, cut to a bounded size."""
    text = json.dumps(result, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_RESULT_CHARS else text[:MAX_RESULT_CHARS] + "…(truncated)"
