"""`graphmem mcp` over stdio, driven by the official MCP SDK client against the test Neo4j."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from graphmem.responses import Facts
from graphmem.retrieval.config import PRESETS


def _undescribed(schema: dict, where: str) -> list[str]:
    """The parameters of an input schema (nested message fields included) without a description."""
    missing = []
    for name, prop in schema.get("properties", {}).items():
        if not prop.get("description"):
            missing.append(f"{where}.{name}")
    for name, sub in schema.get("$defs", {}).items():
        missing += _undescribed(sub, f"{where}.{name}")
    return missing


def test_mcp_stdio_lists_and_calls_the_tools(neo4j_graph, user_id):
    params = StdioServerParameters(command=sys.executable, args=["-m", "graphmem", "mcp"],
                                   env={"NEO4J_URI": neo4j_graph.uri})

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as c:
            names = {t.name for t in (await c.list_tools()).tools}
            assert names == {"remember", "set_time_zone", "search_memory", "current_facts",
                             "timeline", "inspect", "answer", "list_sessions", "list_turns",
                             "get_turn", "get_fact", "forget_turn", "invalidate_fact"}
            tools = {t.name: t.input_schema for t in (await c.list_tools()).tools}
            assert [m for n, s in tools.items() for m in _undescribed(s, n)] == []
            assert all(s["additionalProperties"] is False for s in tools.values())
            assert tools["search_memory"]["properties"]["preset"]["enum"] == list(PRESETS)
            for name in ("search_memory", "current_facts", "timeline", "answer"):
                assert "question_date" in tools[name]["properties"], name
            assert "nothing said after it counts" in (
                tools["current_facts"]["properties"]["question_date"]["description"])
            assert "as it was on this date" in (
                tools["current_facts"]["properties"]["as_of"]["description"])
            # An unknown argument is refused, not ignored (a misspelt as_of, a field on a message).
            typo = await c.call_tool("current_facts", {"user_id": user_id, "asof": "2024-01-01"})
            assert typo.is_error and "unknown argument 'asof'" in typo.content[0].text
            assert "as_of" in typo.content[0].text  # and names the ones it takes
            extra = await c.call_tool("remember", {"user_id": user_id, "session_id": "s1",
                                                   "messages": [{"role": "user", "content": "x",
                                                                 "mood": "happy"}]})
            assert extra.is_error and "mood" in extra.content[0].text
            r = await c.call_tool("remember", {
                "user_id": user_id, "session_id": "s1", "session_time": "2024-01-10T09:00:00Z",
                "messages": [{"role": "user", "content": "I live in Denver.", "turn_id": "d1"}]})
            assert not r.is_error, r.content
            again = await c.call_tool("remember", {
                "user_id": user_id, "session_id": "s1",
                "messages": [{"role": "user", "content": "I live in Denver.", "turn_id": "d1"}]})
            assert again.structured_content["added"] == []
            assert again.structured_content["unchanged"] == ["d1"]
            found = await c.call_tool("search_memory", {"user_id": user_id,
                                                        "query": "where do I live?"})
            assert found.structured_content["results"][0]["source_turn_ids"] == ["d1"]
            facts = await c.call_tool("current_facts", {"user_id": user_id})
            assert [f["value"] for f in facts.structured_content["facts"]] == ["Denver"]
            ans = await c.call_tool("answer", {"user_id": user_id, "question": "Where do I live?"})
            assert ans.structured_content["citations"][0]["source_turn_id"] == "d1"
            missing = await c.call_tool("search_memory", {"user_id": user_id + "-nobody",
                                                          "query": "x"})
            assert missing.is_error and "no memory for user" in missing.content[0].text
            # A message's own time, read in the user's time zone when it names no offset:
            # 00:30 in Berlin (+01:00) on the 20th is the 19th in UTC; "yesterday" is the 19th.
            tz = await c.call_tool("set_time_zone", {"user_id": user_id,
                                                     "time_zone": "Europe/Berlin"})
            assert tz.structured_content == {"time_zone": "Europe/Berlin"}
            r = await c.call_tool("remember", {"user_id": user_id, "session_id": "s1", "messages": [
                {"role": "user", "content": "I adopted a dog yesterday.", "turn_id": "d2",
                 "timestamp": "2026-02-20T00:30:00"}]})
            assert not r.is_error, r.content
            facts = await c.call_tool("current_facts", {"user_id": user_id,
                                                        "predicate": "owns_count:dog"})
            dog = facts.structured_content["facts"][0]
            # Only the known fields go to the model (no nulls), as compact JSON text too; the
            # result is still the HTTP route's model.
            every = (await c.call_tool("current_facts", {"user_id": user_id, "history": True})
                     ).structured_content
            assert every["facts"] and all(None not in f.values() for f in every["facts"])
            denver = next(f for f in every["facts"] if f.get("value") == "Denver")
            assert "quantity" not in denver and "occurred_start" not in denver  # null: left out
            assert json.loads(facts.content[0].text) == facts.structured_content
            assert "\n" not in facts.content[0].text
            Facts.model_validate(every)
            berlin = timezone(timedelta(hours=1))
            assert datetime.fromisoformat(dog["mentioned_at"]) == datetime(2026, 2, 20, 0, 30,
                                                                           tzinfo=berlin)
            assert datetime.fromisoformat(dog["occurred_start"]) == datetime(2026, 2, 19,
                                                                             tzinfo=berlin)
            # question_date: as memory knew it on that day (the dog was not said yet); limit.
            for tool in ("current_facts", "timeline"):
                known = await c.call_tool(tool, {"user_id": user_id,
                                                 "question_date": "2025-01-01"})
                assert [f["value"] for f in known.structured_content["facts"]] == ["Denver"]
                assert len((await c.call_tool(tool, {"user_id": user_id})
                            ).structured_content["facts"]) == 2
                one = await c.call_tool(tool, {"user_id": user_id, "limit": 1})
                assert len(one.structured_content["facts"]) == 1
            before = await c.call_tool("current_facts", {"user_id": user_id,
                                                         "question_date": "2024-01-01"})
            assert before.structured_content["facts"] == []
            bm25 = await c.call_tool("search_memory", {"user_id": user_id, "preset": "bm25",
                                                       "query": "where do I live?"})
            assert bm25.structured_content["results"][0]["source_turn_ids"] == ["d1"]
            nope = await c.call_tool("search_memory", {"user_id": user_id, "preset": "nope",
                                                       "query": "x"})
            assert nope.is_error and "fused" in nope.content[0].text
            ans = await c.call_tool("answer", {"user_id": user_id, "budget": 2,
                                               "question": "Where do I live?"})
            assert ans.structured_content["citations"][0]["source_turn_id"] == "d1"
            over = await c.call_tool("answer", {"user_id": user_id, "budget": 99,
                                                "question": "Where do I live?"})
            assert over.is_error and "budget" in over.content[0].text
            bad = await c.call_tool("remember", {"user_id": user_id, "session_id": "s1",
                                                 "messages": [{"role": "user", "turn_id": "d3",
                                                               "content": "I live in Boulder.",
                                                               "timestamp": "yesterday"}]})
            assert bad.is_error and "message 0: timestamp 'yesterday'" in bad.content[0].text
            card = await c.call_tool("inspect", {"user_id": user_id, "id": "d3"})
            assert card.is_error  # nothing was written
            # One memory at a time: list, get, mark wrong, forget.
            turns = await c.call_tool("list_turns", {"user_id": user_id, "limit": 1})
            assert [t["source_id"] for t in turns.structured_content["turns"]] == ["d1"]
            more = await c.call_tool("list_turns", {
                "user_id": user_id, "cursor": turns.structured_content["next_cursor"]})
            assert [t["source_id"] for t in more.structured_content["turns"]] == ["d2"]
            denver = (await c.call_tool("get_turn", {"user_id": user_id, "turn_id": "d1"})
                      ).structured_content["fact_ids"][0]
            wrong = await c.call_tool("invalidate_fact", {"user_id": user_id, "fact_id": denver,
                                                          "reason": "never lived there"})
            assert wrong.structured_content["status"] == "invalid"
            history = await c.call_tool("current_facts", {"user_id": user_id, "history": True,
                                                          "predicate": "lives_in"})
            assert [(f["value"], f["status"], f["invalidation"]["by"])
                    for f in history.structured_content["facts"]] == [("Denver", "invalid",
                                                                       "user")]
            gone = await c.call_tool("forget_turn", {"user_id": user_id, "turn_id": "d2"})
            assert gone.structured_content["source_id"] == "d2"
            missing = await c.call_tool("get_turn", {"user_id": user_id, "turn_id": "d2"})
            assert missing.is_error and "has no turn 'd2'" in missing.content[0].text

    anyio.run(main)
