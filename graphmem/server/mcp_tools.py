"""The MCP door over `Memory` (the official `mcp` SDK): the same tools over stdio (`graphmem mcp`)
and mounted on `graphmem serve` at /mcp (streamable HTTP, the same API keys and user scoping)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, ConfigDict, Field, model_validator

from .. import responses as out
from ..errors import GraphmemError
from ..memory import (
    DEFAULT_BUDGET,
    DEFAULT_K,
    DEFAULT_PAGE,
    DEFAULT_PRESET,
    MAX_BUDGET,
    MAX_FACTS,
    MAX_K,
    MAX_PAGE,
    MODEL_FACTS,
)
from ..models import TurnRecord
from ..retrieval.config import PRESETS
from .auth import KeyRing
from .parameters import DOC
from .schemas import Message

INSTRUCTIONS = (
    "graphmem is an evidence-grounded temporal memory of one user's conversations. Every tool "
    "takes the user_id whose memory it reads or writes. Results cite their evidence: stored turn "
    "ids (pass them to `inspect`), the source's own turn ids, dates, and the verbatim words.")


def _key(headers: Any) -> str | None:
    auth = headers.get("authorization") or ""
    return auth[7:].strip() if auth.lower().startswith("bearer ") else headers.get("x-api-key")


# The tools' parameters, each described for the model that calls them (graphmem.server.parameters:
# the same words the OpenAPI document uses).
UserId = Annotated[str, Field(description=DOC["user_id"])]
TurnId = Annotated[str, Field(description=DOC["turn_id"])]
FactId = Annotated[str, Field(description=DOC["fact_id"])]
Cursor = Annotated[str | None, Field(description=DOC["cursor"])]
Limit = Annotated[int, Field(description=DOC["page_limit"], ge=1, le=MAX_PAGE)]
QuestionDate = Annotated[datetime | None, Field(description=DOC["question_date"])]
AsOf = Annotated[datetime | None, Field(description=DOC["as_of"])]
Since = Annotated[datetime | None, Field(description=DOC["since"])]
Until = Annotated[datetime | None, Field(description=DOC["until"])]
Predicate = Annotated[str | None, Field(description=DOC["predicate"])]
Entity = Annotated[str | None, Field(description=DOC["entity"])]
History = Annotated[bool, Field(description=DOC["history"])]
FactLimit = Annotated[int, Field(description=DOC["model_facts_limit"],
                                 json_schema_extra={"minimum": 1, "maximum": MAX_FACTS})]
Query = Annotated[str, Field(description=DOC["query"])]
# k and budget: bounds Memory checks for every door (one message for all), documented here.
K = Annotated[int, Field(description=DOC["k"],
                         json_schema_extra={"minimum": 1, "maximum": MAX_K})]
Preset = Annotated[Literal[tuple(PRESETS)], Field(  # type: ignore[valid-type]
    description=DOC["preset"])]
MetadataFilter = Annotated[dict[str, Any] | None, Field(description=DOC["metadata_filter"])]
AgentId = Annotated[str | None, Field(description=DOC["agent_id"])]
RunId = Annotated[str | None, Field(description=DOC["run_id"])]
Budget = Annotated[int, Field(description=DOC["budget"],
                              json_schema_extra={"minimum": 0, "maximum": MAX_BUDGET})]


# A list of facts as a model reads it: only the fields that are known (a fact of a plain slot has
# no quantity, occurrence or invalidation; ~5 nulls of a fact's ~21 fields), compact: 596 -> 480
# characters a fact on the test scenario. The output schema is the same model's (each field left
# out has its default), so a client validates it as the HTTP route's.
FactList = Annotated[CallToolResult, out.Facts]


def _known_fields(result: BaseModel) -> CallToolResult:
    data = result.model_dump(mode="json", exclude_none=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _strict(tool: Tool) -> Tool:
    """The tool refusing arguments it does not take: the SDK's argument model ignores unknown
    ones, so a misspelt `as_of` would silently answer another question."""
    base: Any = tool.fn_metadata.arg_model
    accepted = [f.alias or n for n, f in base.model_fields.items()]

    def refuse_unknown(cls: Any, data: Any) -> Any:
        unknown = sorted(set(data) - set(accepted)) if isinstance(data, dict) else []
        if unknown:
            raise ValueError(f"unknown argument {', '.join(map(repr, unknown))}; "
                             f"{tool.name} takes {', '.join(accepted)}")
        return data

    strict: Any = type(base.__name__, (base,), {
        "__module__": base.__module__,
        "model_config": ConfigDict(extra="forbid"),  # additionalProperties: false in the schema
        # pydantic takes the classmethod object at run time; its stubs name functions only
        "refuse_unknown": model_validator(mode="before")(
            classmethod(refuse_unknown))})  # type: ignore[arg-type]
    tool.fn_metadata.arg_model = strict
    tool.parameters = strict.model_json_schema(by_alias=True)
    return tool


def build_mcp(memory: Any, keys: KeyRing | None = None, run: Any = None) -> MCPServer:
    """The MCP server over `memory`. `run(fn, *args, **kw)` runs a memory call off the event
    loop (the HTTP server's bounded pool); by default a worker thread."""
    tools: list[Tool] = []

    def tool(description: str) -> Callable[[Callable[..., Any]], Any]:
        def register(fn: Callable[..., Any]) -> Any:
            tools.append(_strict(Tool.from_function(fn, description=description)))
            return fn
        return register

    call = _caller(keys or KeyRing(), run or _in_a_thread)
    for register in (_writing_tools, _reading_tools, _one_memory_tools):
        register(tool, memory, call)
    # WARNING: the SDK's INFO lines (a session manager starting, each request) are not news.
    return MCPServer("graphmem", instructions=INSTRUCTIONS, tools=tools, log_level="WARNING")


async def _in_a_thread(fn: Any, *args: Any, **kwargs: Any) -> Any:
    return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))


def _caller(keys: KeyRing, run: Any) -> Any:
    """How a tool calls memory: over HTTP with keys configured, only for a user the key may
    touch; off the event loop (`run`); a graphmem error becomes the tool's error."""

    async def call(ctx: Context, user_id: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        headers = ctx.headers
        if headers is not None and keys.enabled:  # over HTTP; stdio is the local owner
            grant = keys.lookup(_key(headers))
            if grant is None:
                raise ToolError("missing or unknown API key")
            if not grant.allows(user_id):
                raise ToolError(f"this API key may not touch the memory of user {user_id!r}")
        try:
            return await run(fn, *args, **kwargs)
        except GraphmemError as exc:
            raise ToolError(str(exc)) from None

    return call


def _writing_tools(tool: Any, memory: Any, call: Any) -> None:
    """Remembering messages; the user's time zone."""

    @tool("Remember messages: append them to a session of the user's memory (created on first "
          "use). Returns the stored turn ids of the new turns, the ids left unchanged (already "
          "remembered), and the facts made (`made`: id, predicate, value, statement, status), "
          "each with the older facts it replaced (`replaced`: how, id, statement).")
    async def remember(user_id: UserId, session_id: Annotated[str, Field(
                           description=DOC["session_id"])],
                       messages: Annotated[list[Message], Field(description=DOC["messages"])],
                       ctx: Context,
                       session_time: Annotated[datetime | None, Field(
                           description=DOC["session_time"])] = None, agent_id: AgentId = None,
                       run_id: RunId = None) -> out.AppendResult:
        turns = [TurnRecord(m.role, m.content, m.speaker, m.turn_id,
                            m.timestamp,  # type: ignore[arg-type]  # text: Memory.append reads it
                            m.metadata)
                 for m in messages]
        r = await call(ctx, user_id, memory.append, user_id, session_id, turns,
                       session_time=session_time, agent_id=agent_id, run_id=run_id)
        return out.AppendResult.model_validate(r.to_dict())

    @tool("Set the user's IANA time zone (e.g. Europe/Berlin; null: UTC): message times "
          "without an offset are read in it from now on.")
    async def set_time_zone(user_id: UserId, time_zone: Annotated[str | None, Field(
                                description=DOC["time_zone"])],
                            ctx: Context) -> out.TimeZone:
        return out.TimeZone(
            time_zone=await call(ctx, user_id, memory.set_time_zone, user_id, time_zone))


def _reading_tools(tool: Any, memory: Any, call: Any) -> None:
    """Search, facts, timeline, cards and answers."""

    @tool("Search the user's memory. Returns ranked evidence (facts, pieces, turns), each with "
          "its verbatim text, status (active/superseded/invalid), stored turn id, source turn "
          "ids and the date it was said.")
    async def search_memory(user_id: UserId, query: Query, ctx: Context, k: K = DEFAULT_K,
                            question_date: QuestionDate = None, as_of: AsOf = None,
                            preset: Preset = DEFAULT_PRESET,  # type: ignore[valid-type]
                            metadata: MetadataFilter = None, agent_id: AgentId = None,
                            run_id: RunId = None) -> out.SearchHits:
        found = await call(ctx, user_id, memory.search, user_id, query,
                           question_date=question_date, as_of=as_of, k=k, config=preset,
                           metadata=metadata, agent_id=agent_id, run_id=run_id)
        return out.SearchHits(results=found)  # each item brief: what a reader needs

    @tool("The user's current facts (or those valid at `as_of`, or every version with "
          "`history`), each with validity interval, status and the source turn ids it was "
          "derived from.")
    async def current_facts(user_id: UserId, ctx: Context, as_of: AsOf = None,
                            predicate: Predicate = None, history: History = False,
                            question_date: QuestionDate = None,
                            limit: FactLimit = MODEL_FACTS,
                            metadata: MetadataFilter = None, agent_id: AgentId = None,
                            run_id: RunId = None) -> FactList:
        found = await call(ctx, user_id, memory.facts, user_id, as_of, predicate=predicate,
                           history=history, question_date=question_date, limit=limit,
                           metadata=metadata, agent_id=agent_id, run_id=run_id)
        return _known_fields(out.Facts(facts=found))

    @tool("The ordered history of the user's facts (about an entity or a predicate, within "
          "dates): what changed when, with SUPERSEDES / UPDATES / CONTRADICTS changes and the "
          "source turn of each fact.")
    async def timeline(user_id: UserId, ctx: Context, entity: Entity = None,
                       predicate: Predicate = None, since: Since = None, until: Until = None,
                       question_date: QuestionDate = None,
                       limit: FactLimit = MODEL_FACTS,
                       metadata: MetadataFilter = None, agent_id: AgentId = None,
                       run_id: RunId = None) -> FactList:
        found = await call(ctx, user_id, memory.timeline, user_id, entity=entity,
                           predicate=predicate, since=since, until=until,
                           question_date=question_date, limit=limit, metadata=metadata,
                           agent_id=agent_id, run_id=run_id)
        return _known_fields(out.Facts(facts=found))

    @tool("A memory card for one id (a fact, piece, turn — stored or source id — or an entity "
          "id or name): the verbatim words, their session and date, and the facts and changes "
          "around it.")
    async def inspect(user_id: UserId, id: Annotated[str, Field(  # noqa: A002
                          description=DOC["node_id"])],
                      ctx: Context) -> out.Card:
        return out.Card.model_validate(await call(ctx, user_id, memory.inspect, user_id, id))

    @tool("Answer a question from the user's memory. Returns the answer text with citations "
          "(stored turn id, source turn id, session, date, verbatim quote), whether memory "
          "holds no answer, and tokens and cost when an LLM is used.")
    async def answer(user_id: UserId, question: Annotated[str, Field(
                         description=DOC["question"])], ctx: Context,
                     question_date: QuestionDate = None,
                     budget: Budget = DEFAULT_BUDGET,
                     offline: Annotated[bool, Field(description=DOC["offline"])] = False
                     ) -> out.Answer:
        ans = await call(ctx, user_id, memory.answer, user_id, question,
                         question_date=question_date, budget=budget, offline=offline)
        ans.trace = []
        return ans


def _one_memory_tools(tool: Any, memory: Any, call: Any) -> None:
    """Listing, getting, deleting and correcting one memory at a time."""

    @tool("List the user's sessions, oldest first, a page at a time: each "
                 "with its id, start time and how many turns it holds. Pass next_cursor back "
                 "for the next page (null: the last).")
    async def list_sessions(user_id: UserId, ctx: Context, cursor: Cursor = None,
                            limit: Limit = DEFAULT_PAGE) -> out.SessionPage:
        page = await call(ctx, user_id, memory.list_sessions, user_id, cursor=cursor,
                          limit=limit)
        return out.SessionPage(sessions=page.items, next_cursor=page.next_cursor)

    @tool("List the user's turns in conversation order (sessions oldest "
                 "first, turns by position), a page at a time, with their verbatim text and "
                 "ids. Pass next_cursor back for the next page (null: the last).")
    async def list_turns(user_id: UserId, ctx: Context,
                         session_id: Annotated[str | None, Field(
                             description=DOC["session_filter"])] = None,
                         cursor: Cursor = None, limit: Limit = DEFAULT_PAGE) -> out.TurnPage:
        page = await call(ctx, user_id, memory.list_turns, user_id, session_id=session_id,
                          cursor=cursor, limit=limit)
        return out.TurnPage(turns=page.items, next_cursor=page.next_cursor)

    @tool("Get one turn: its verbatim text, session, position, date and the "
                 "ids of the facts derived from it.")
    async def get_turn(user_id: UserId, turn_id: TurnId, ctx: Context) -> out.Turn:
        return await call(ctx, user_id, memory.get_turn, user_id, turn_id)

    @tool("Get one fact: its text, status (active/superseded/invalid), "
                 "validity interval, source turns, what it replaced, and who marked it wrong.")
    async def get_fact(user_id: UserId, fact_id: FactId, ctx: Context) -> out.Fact:
        return await call(ctx, user_id, memory.get_fact, user_id, fact_id)

    @tool("Forget one turn: delete it (or, with redact, keep its place and "
                 "replace its words by [redacted]) with its pieces and the facts derived only "
                 "from it; what those facts had replaced becomes current again as if they had "
                 "never been said. Nothing else is touched. Returns what was removed.")
    async def forget_turn(user_id: UserId, turn_id: TurnId, ctx: Context,
                          redact: Annotated[bool, Field(description=DOC["redact"])] = False
                          ) -> out.TurnRemoval:
        fn = memory.redact_turn if redact else memory.delete_turn
        return await call(ctx, user_id, fn, user_id, turn_id)

    @tool("Mark one fact wrong (the user says \"forget that\" or \"that's "
                 "not true\"): its status becomes invalid, kept in history with who said so and "
                 "why, and the value it had replaced is current again. Returns the fact.")
    async def invalidate_fact(user_id: UserId, fact_id: FactId, ctx: Context,
                              by: Annotated[str, Field(description=DOC["by"])] = "user",
                              reason: Annotated[str | None, Field(
                                  description=DOC["reason"])] = None) -> out.Fact:
        return await call(ctx, user_id, memory.invalidate_fact, user_id, fact_id, by=by,
                          reason=reason)
