"""`graphmem mcp` over stdio, driven by the official MCP SDK client against the test Neo4j."""

from __future__ import annotations

import sys

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters


def test_mcp_stdio_lists_and_calls_the_tools(neo4j_graph, user_id):
    params = StdioServerParameters(command=sys.executable, args=["-m", "graphmem", "mcp"],
                                   env={"NEO4J_URI": neo4j_graph.uri})

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as c:
            names = {t.name for t in (await c.list_tools()).tools}
            assert names == {"remember", "search_memory", "current_facts", "timeline",
                             "inspect", "answer"}
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

    anyio.run(main)
