"""The OpenAPI document of a real `graphmem serve` process: it validates as OpenAPI, documents
every 200 with a named model, the API keys as security schemes, the `{"error": …}` body for each
refusal a route can give (the guard's 403/421 and an internal 500 on every route), the upload
body, and a description on every parameter (path, query and body fields, nested ones included);
the bodies the server really sends, success and refusal, match the schemas it documents; and an
MCP client sees a description on every tool parameter."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema
import pytest
from openapi_spec_validator import validate

from tests.serving import fresh_user, served

KEY = "openapi-key-0123456789"
ADMIN = "openapi-admin-0123456789"
EVERY_ROUTE = {"403", "421", "500"}  # foreign Origin or Host (the guard), an internal error
USER_ERRORS = {"401", "403", "422", "503"}  # any route of one user, with keys configured
BODY_ERRORS = {"400", "413", "415"}  # any route that reads a body


@pytest.fixture(scope="module")
def user(neo4j_graph) -> Iterator[str]:
    with fresh_user(neo4j_graph, "test-oa") as uid:
        yield uid


@pytest.fixture(scope="module")
def base(neo4j_graph, user) -> Iterator[str]:
    with served(neo4j_graph.uri, f"{KEY}={user};{ADMIN}=*", None) as client:
        yield str(client.base_url)


@pytest.fixture(scope="module")
def spec(base) -> dict[str, Any]:
    r = httpx.get(f"{base}/openapi.json", timeout=30)
    assert r.status_code == 200
    return r.json()


def _operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            yield method.upper(), path, op


def _schema(op: dict[str, Any], status: str) -> dict[str, Any]:
    return op["responses"][status]["content"]["application/json"]["schema"]


def _conforms(spec: dict[str, Any], schema: dict[str, Any], body: Any) -> None:
    """`body` is valid against `schema`, its $refs read from the document's components."""
    jsonschema.validate(body, {**schema, "components": spec["components"]})


def test_the_document_validates_and_types_every_answer(spec):
    validate(spec)  # raises on an invalid OpenAPI document
    schemes = spec["components"]["securitySchemes"]
    assert {(s["type"], s.get("scheme"), s.get("name")) for s in schemes.values()} == {
        ("http", "bearer", None), ("apiKey", None, "X-API-Key")}
    models = spec["components"]["schemas"]
    assert "HTTPValidationError" not in models  # FastAPI's 422 body is not what we send
    for method, path, op in _operations(spec):
        ref = _schema(op, "200").get("$ref", "")
        assert ref.startswith("#/components/schemas/"), (method, path, "200 untyped")
        assert models[ref.rsplit("/", 1)[1]].get("properties"), (method, path, ref)
        assert EVERY_ROUTE <= set(op["responses"]), (method, path, sorted(op["responses"]))
        if not path.startswith("/v1/"):
            continue
        assert {next(iter(s)) for s in op["security"]} == set(schemes), (method, path)
        expected = USER_ERRORS if "{user_id}" in path else {"401", "403", "503"}
        if "requestBody" in op:
            expected = expected | BODY_ERRORS
        assert expected <= set(op["responses"]), (method, path, sorted(op["responses"]))
        for status, answer in op["responses"].items():
            if status != "200":
                assert _schema(op, status) == {"$ref": "#/components/schemas/ErrorBody"}, (
                    method, path, status)
                assert answer["description"], (method, path, status)
    formats = {p["name"]: p for p in spec["paths"]["/v1/users/{user_id}/transcripts"]["post"][
        "parameters"]}["format"]["schema"]
    assert formats["default"] == "auto" and {"auto", "jsonl", "locomo"} <= set(formats["enum"])
    search = models["SearchRequest"]["properties"]["preset"]
    assert search["default"] == "fused" and "fused" in search["enum"]
    upload = spec["paths"]["/v1/users/{user_id}/transcripts"]["post"]["requestBody"]
    assert upload["required"] and set(upload["content"]) == {"application/octet-stream"}
    read = spec["paths"]["/v1/users/{user_id}/facts"]["get"]["responses"]
    assert "404" in read and "413" not in read
    assert "400" in spec["paths"]["/v1/users/{user_id}/turns/{turn_id}"]["get"]["responses"]


def _undescribed(schema: dict[str, Any], where: str, models: dict[str, Any],
                 seen: set[str] | None = None) -> list[str]:
    """The fields of a JSON schema without a description: its properties, and the properties
    of every model it refers to (arrays, $ref, anyOf), each model once; `models`: the
    document's components or an MCP input schema's $defs."""
    seen = set() if seen is None else seen
    missing: list[str] = []
    for name, prop in (schema.get("properties") or {}).items():
        if not prop.get("description"):
            missing.append(f"{where}.{name}")
        missing += _undescribed(prop, f"{where}.{name}", models, seen)
    nested = [*([schema["items"]] if "items" in schema else []), *(schema.get("anyOf") or []),
              *(schema.get("allOf") or [])]
    ref = schema.get("$ref", "")
    if ref and ref not in seen:
        seen.add(ref)
        missing += _undescribed(models[ref.rsplit("/", 1)[1]], ref.rsplit("/", 1)[1], models,
                                seen)
    for sub in nested:
        missing += _undescribed(sub, where, models, seen)
    return missing


def test_every_parameter_and_body_field_is_described(spec):
    """Every path and query parameter of every route, and every field of every request body
    (a message's fields within an append included), carries a description."""
    models = spec["components"]["schemas"]
    missing = []
    for method, path, op in _operations(spec):
        missing += [f"{method} {path} {p['in']} {p['name']}" for p in op.get("parameters", [])
                    if not p.get("description")]
        body = (op.get("requestBody") or {}).get("content", {}).get("application/json")
        if body:
            missing += _undescribed(body["schema"], f"{method} {path} body", models)
    assert missing == []
    # The two dates every reader confuses are told apart where they are taken.
    search = models["SearchRequest"]["properties"]
    assert "as_of" in search["question_date"]["description"]
    facts = {p["name"]: p for p in spec["paths"]["/v1/users/{user_id}/facts"]["get"]["parameters"]}
    assert facts["as_of"]["description"] == search["as_of"]["description"]


def test_the_guards_refusals_are_documented_and_sent_as_documented(base, spec):
    """A foreign Host (421) and a foreign Origin (403) are refused before any route, with the
    documented error body, and each route lists them."""
    u = "/v1/users/someone/facts"
    op = spec["paths"]["/v1/users/{user_id}/facts"]["get"]
    for headers, status, code in (({"Host": "evil.example"}, 421, "foreign_host"),
                                  ({"Origin": "http://evil.example"}, 403, "foreign_origin")):
        for path, doc in ((u, op), ("/healthz", spec["paths"]["/healthz"]["get"])):
            r = httpx.get(f"{base}{path}", headers={"Authorization": f"Bearer {KEY}", **headers},
                          timeout=30)
            assert r.status_code == status and r.json()["error"]["code"] == code, r.text
            _conforms(spec, _schema(doc, str(status)), r.json())


def test_real_answers_match_the_documented_schemas(base, spec, user):
    """Each route's real 200 body, and real refusals, against what the document says."""
    def op(method: str, path: str) -> dict[str, Any]:
        return spec["paths"][path][method]

    u = f"/v1/users/{user}"
    auth = {"Authorization": f"Bearer {KEY}"}
    with httpx.Client(base_url=base, headers=auth, timeout=120) as c:
        def check(method: str, path: str, url: str, status: int = 200, **kw: Any) -> Any:
            r = c.request(method, url, **kw)
            assert r.status_code == status, (url, r.status_code, r.text)
            _conforms(spec, _schema(op(method.lower(), path), str(status)), r.json())
            return r.json()

        made = check("POST", "/v1/users/{user_id}/sessions/{session_id}/messages",
                     f"{u}/sessions/s1/messages", json={
                         "session_time": "2026-03-01T10:00:00Z", "messages": [
                             {"role": "user", "content": "I live in Leeds.", "turn_id": "a1",
                              "metadata": {"agent": "planner"}},
                             {"role": "user", "content": "I moved to York.", "turn_id": "a2"}]})
        assert made["made"]
        check("PUT", "/v1/users/{user_id}/time_zone", f"{u}/time_zone",
              json={"time_zone": "Europe/Berlin"})
        line = {"user_id": user, "session_id": "up", "role": "user",
                "content": "My dog is called Rex.", "session_time": "2026-03-02T10:00:00Z"}
        check("POST", "/v1/users/{user_id}/transcripts", f"{u}/transcripts",
              params={"format": "jsonl", "filename": "x.jsonl"}, content=json.dumps(line),
              headers={**auth, "Content-Type": "application/octet-stream"})
        found = check("POST", "/v1/users/{user_id}/search", f"{u}/search",
                      json={"query": "where do I live?", "explain": True})
        assert found["results"] and found["hits"] is not None
        facts = check("GET", "/v1/users/{user_id}/facts", f"{u}/facts",
                      params={"history": "true"})["facts"]
        check("GET", "/v1/users/{user_id}/timeline", f"{u}/timeline")
        check("GET", "/v1/users/{user_id}/inspect/{node_id}", f"{u}/inspect/a1")
        check("POST", "/v1/users/{user_id}/answer", f"{u}/answer",
              json={"question": "Where do I live?", "offline": True})
        check("GET", "/v1/users/{user_id}/stats", f"{u}/stats")
        check("GET", "/v1/users/{user_id}/sessions", f"{u}/sessions")
        turns = check("GET", "/v1/users/{user_id}/turns", f"{u}/turns")["turns"]
        assert turns[0]["metadata"] == {"agent": "planner"}
        check("GET", "/v1/users/{user_id}/turns/{turn_id}", f"{u}/turns/a1")
        check("GET", "/v1/users/{user_id}/facts/{fact_id}", f"{u}/facts/{facts[0]['id']}")
        check("POST", "/v1/users/{user_id}/facts/{fact_id}/invalidate",
              f"{u}/facts/{facts[0]['id']}/invalidate", json={"by": "test"})
        check("DELETE", "/v1/users/{user_id}/turns/{turn_id}", f"{u}/turns/a2")
        check("GET", "/v1/stats", "/v1/stats", headers={"Authorization": f"Bearer {ADMIN}"})
        check("GET", "/healthz", "/healthz")
        check("GET", "/readyz", "/readyz")

        # Refusals, each with the documented error body.
        check("GET", "/v1/users/{user_id}/facts", f"{u}/facts", 401, headers={"Authorization": ""})
        check("GET", "/v1/users/{user_id}/facts", "/v1/users/someone-else/facts", 403)
        check("GET", "/v1/users/{user_id}/facts/{fact_id}", f"{u}/facts/fact:nope", 404)
        check("POST", "/v1/users/{user_id}/search", f"{u}/search", 422,
              json={"query": "x", "k": 0})
        check("POST", "/v1/users/{user_id}/search", f"{u}/search", 400, content=b"{not json",
              headers={**auth, "Content-Type": "application/json"})
        check("POST", "/v1/users/{user_id}/transcripts", f"{u}/transcripts", 413,
              content=b"x" * 300_000,
              headers={**auth, "Content-Type": "application/octet-stream"})
        check("POST", "/v1/users/{user_id}/search", f"{u}/search", 415, content=b"{}",
              headers={**auth, "Content-Type": "text/plain"})


def test_mcp_and_http_share_defaults_bounds_and_results(base, spec):
    """One declaration of each choice: an MCP tool parameter and the HTTP field it stands for
    have the same default and bounds (the facts of a call excepted: over MCP a model reads them,
    so fewer by default, under the same bound); every tool parameter is described, and every tool
    declares its result as the model the HTTP route returns."""
    import anyio
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def listed() -> dict[str, Any]:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {ADMIN}"}, timeout=60)
        async with Client(streamable_http_client(f"{base}/mcp", http_client=http)) as c:
            return {t.name: t for t in (await c.list_tools()).tools}

    tools = anyio.run(listed)
    models = spec["components"]["schemas"]

    def query(path: str, name: str) -> dict[str, Any]:
        params = spec["paths"][path]["get"]["parameters"]
        return next(p["schema"] for p in params if p["name"] == name)

    def tool(name: str, param: str) -> dict[str, Any]:
        return tools[name].input_schema["properties"][param]

    same = [(tool("search_memory", "k"), models["SearchRequest"]["properties"]["k"]),
            (tool("search_memory", "preset"), models["SearchRequest"]["properties"]["preset"]),
            (tool("answer", "budget"), models["AnswerRequest"]["properties"]["budget"]),
            (tool("list_turns", "limit"), query("/v1/users/{user_id}/turns", "limit")),
            (tool("list_sessions", "limit"), query("/v1/users/{user_id}/sessions", "limit"))]
    for mcp, http in same:
        assert mcp.get("default") is not None
        for key in ("default", "minimum", "maximum"):
            assert mcp.get(key) == http.get(key), (key, mcp, http)
    for name, path in (("current_facts", "/v1/users/{user_id}/facts"),
                       ("timeline", "/v1/users/{user_id}/timeline")):
        mcp, http = tool(name, "limit"), query(path, "limit")
        assert (mcp["minimum"], mcp["maximum"]) == (http["minimum"], http["maximum"])
        assert mcp["default"] < http["default"] == http["maximum"]
    for t in tools.values():  # every parameter, a message's fields within `remember` included
        assert _undescribed(t.input_schema, t.name, t.input_schema.get("$defs", {})) == []
        assert t.output_schema and t.output_schema.get("properties"), t.name
    # The facts a model gets by default are fewer than HTTP's, and the parameter says so.
    assert str(tool("current_facts", "limit")["default"]) in tool(
        "current_facts", "limit")["description"]
    assert tool("timeline", "limit")["description"] == tool("current_facts", "limit")[
        "description"]
    returns = {"search_memory": "SearchResult", "current_facts": "Facts", "timeline": "Facts",
               "answer": "Answer", "remember": "AppendResult", "get_fact": "Fact",
               "get_turn": "Turn", "list_turns": "TurnPage", "list_sessions": "SessionPage",
               "forget_turn": "TurnRemoval", "invalidate_fact": "Fact",
               "set_time_zone": "TimeZone", "inspect": "Card"}
    for name, model in returns.items():  # search over MCP: the results only, each brief
        mcp, http = set(tools[name].output_schema["properties"]), set(models[model]["properties"])
        assert mcp == http or (name == "search_memory" and mcp == {"results"} < http), name
