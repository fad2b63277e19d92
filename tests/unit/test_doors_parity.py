"""Every door offers the same operations with the same parameters (issue 32, items 1-3): for each
`Memory` operation, its CLI command, HTTP route, MCP tool and client method, each taking the
operation's parameters (scopes and filters included). Read from the doors themselves: the click
commands, the OpenAPI document, the MCP tool schemas and the client's signatures."""

from __future__ import annotations

import inspect

import anyio
import pytest

from graphmem.cli import main
from graphmem.client import Client
from graphmem.memory import Memory
from graphmem.server.app import create_app
from graphmem.server.mcp_tools import build_mcp

SCOPE = {"metadata", "agent_id", "run_id"}
# operation: (Memory method, CLI command, HTTP "METHOD path", MCP tool, client method, parameters
# every door takes besides the user). None: deliberately not offered by that door (said why).
DOORS = {
    "append": ("append", "remember", "POST /v1/users/{user_id}/sessions/{session_id}/messages",
               "remember", "remember", {"session_id", "session_time", "agent_id", "run_id"}),
    "time zone": ("set_time_zone", "time-zone", "PUT /v1/users/{user_id}/time_zone",
                  "set_time_zone", "set_time_zone", set()),
    # A file is a program's or a person's to send, not a model's: no MCP tool.
    "ingest a file": ("ingest_file", "ingest", "POST /v1/users/{user_id}/transcripts", None,
                      "upload", {"session_id", "session_time"}),
    # Deleting a whole user is not a model's to do: no MCP tool (forget_turn is).
    "forget a user": ("forget", "forget", "DELETE /v1/users/{user_id}", None, "forget_user",
                      set()),
    "sessions": ("list_sessions", "sessions", "GET /v1/users/{user_id}/sessions",
                 "list_sessions", "sessions", {"cursor", "limit"}),
    "turns": ("list_turns", "turns", "GET /v1/users/{user_id}/turns", "list_turns", "turns",
              {"session_id", "cursor", "limit"}),
    "get a turn": ("get_turn", "get", "GET /v1/users/{user_id}/turns/{turn_id}", "get_turn",
                   "get_turn", set()),
    "get a fact": ("get_fact", "get", "GET /v1/users/{user_id}/facts/{fact_id}", "get_fact",
                   "get_fact", set()),
    "forget a turn": ("delete_turn", "forget-turn", "DELETE /v1/users/{user_id}/turns/{turn_id}",
                      "forget_turn", "delete_turn", set()),  # redact: below
    "mark a fact wrong": ("invalidate_fact", "invalidate",
                          "POST /v1/users/{user_id}/facts/{fact_id}/invalidate",
                          "invalidate_fact", "invalidate_fact", {"by", "reason"}),
    "search": ("search_full", "search", "POST /v1/users/{user_id}/search", "search_memory",
               "search", {"question_date", "as_of", "k", "preset"} | SCOPE),
    "facts": ("facts", "facts", "GET /v1/users/{user_id}/facts", "current_facts", "facts",
              {"as_of", "history", "predicate", "question_date", "limit"} | SCOPE),
    "timeline": ("timeline", "timeline", "GET /v1/users/{user_id}/timeline", "timeline",
                 "timeline", {"entity", "predicate", "since", "until", "question_date",
                              "limit"} | SCOPE),
    "inspect": ("inspect", "inspect", "GET /v1/users/{user_id}/inspect/{node_id}", "inspect",
                "inspect", set()),
    "answer": ("answer", "ask", "POST /v1/users/{user_id}/answer", "answer", "answer",
               {"question_date", "budget", "offline"}),
    # Counts are for operators; a model has search and facts.
    "stats": ("stats", "stats", "GET /v1/users/{user_id}/stats", None, "stats", set()),
}
# The same parameter under another name in one door (a CLI option, an HTTP query name).
ALIASES = {"session": "session_id", "user": "user_id", "config": "preset",
           "source": "messages"}


def _names(params: list[str]) -> set[str]:
    return {ALIASES.get(p, p) for p in params}


@pytest.fixture(scope="module")
def doors():
    app = create_app(object(), mcp=False)
    spec = app.app.app.openapi()  # RequestGuard -> BodyLimit -> FastAPI
    http = {}
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            names = [p["name"] for p in op.get("parameters", [])]
            ref = (op.get("requestBody") or {}).get("content", {}).get(
                "application/json", {}).get("schema", {}).get("$ref")
            if ref:
                names += list(spec["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"])
            http[f"{method.upper()} {path}"] = _names(names)
    mcp = {t.name: _names(list(t.input_schema["properties"]))
           for t in anyio.run(build_mcp(object()).list_tools)}
    return http, mcp


@pytest.mark.parametrize("operation", list(DOORS))
def test_every_door_offers_the_operation_with_its_parameters(doors, operation):
    http, mcp = doors
    method, command, route, tool, client_method, params = DOORS[operation]
    memory = _names(list(inspect.signature(getattr(Memory, method)).parameters))
    cli = _names([p.name for p in main.commands[command].params])
    client = _names(list(inspect.signature(getattr(Client, client_method)).parameters))
    seen = {"Memory": memory, "CLI": cli, "HTTP": http[route], "client": client}
    if tool is not None:
        seen["MCP"] = mcp[tool]
    for door, names in seen.items():
        assert not params - names, (operation, door, sorted(params - names))


def test_redacting_is_offered_beside_deleting(doors):
    http, mcp = doors
    assert callable(Memory.redact_turn) and callable(Client.redact_turn)
    assert {p.name for p in main.commands["forget-turn"].params} >= {"redact"}
    assert "redact" in http["DELETE /v1/users/{user_id}/turns/{turn_id}"]
    assert "redact" in mcp["forget_turn"]
