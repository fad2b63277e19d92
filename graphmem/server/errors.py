"""Every failure as structured JSON (`{"error": {"code", "message"}}`), and the request-size bound."""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from neo4j.exceptions import DatabaseUnavailable, DriverError, ServiceUnavailable, SessionExpired
from starlette.exceptions import HTTPException

from ..answer import CypherRefused
from ..errors import (
    ConfigError,
    GraphmemError,
    InputError,
    Neo4jUnavailable,
    OutOfBounds,
    UnknownId,
    UnknownUser,
)
from ..responses import ErrorBody

log = logging.getLogger("graphmem.server")
RETRY_AFTER_S = 5


def _documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": ErrorBody, "description": _WHY[s]} for s in statuses}


# The refusals each route can give, as the OpenAPI document lists them (the body: ErrorBody).
_WHY = {
    400: "Malformed JSON or bad input (an unknown preset, a transcript that does not parse, a "
         "source turn id that names turns of two sessions)",
    401: "No API key, or one the server does not know (only with keys configured)",
    403: "The API key may not touch this user's memory, or the request came from a foreign "
         "Origin (a browser page of another site)",
    404: "No memory for this user (unknown_user), or no such id of theirs (not_found)",
    413: "The body is larger than --max-body-mb",
    415: "A body of the wrong content type",
    421: "The Host header names a host this server does not answer to (foreign_host, "
         "missing_host): use a loopback name or the bound host, or add the name to "
         "GRAPHMEM_ALLOWED_HOSTS",
    422: "A field out of bounds (lengths, k, budget, limits, ids, metadata, a cursor)",
    500: "An internal error (the server log has the details), or the configured LLM or "
         "embedding endpoint failed",
    503: "Neo4j is unreachable or the server is busy; retry after Retry-After seconds",
}
EVERY_ROUTE = _documented(403, 421, 500)  # the RequestGuard's refusals, before any route
ADMIN = _documented(401, 403, 503)  # a route over every user
KEYED = _documented(401, 403, 422, 503)  # a route of one user (its id is bounded)
READ = KEYED | _documented(404)  # ... that needs the user's memory to exist
ONE_TURN = READ | _documented(400)  # ... by a source turn id two sessions may share
BODY = _documented(400, 413, 415)  # a route that reads a body
UPLOAD_BODY = {"requestBody": {"required": True, "description": "The transcript file's bytes "
               "(sent as application/octet-stream): any format graphmem ingest reads",
               "content": {"application/octet-stream": {"schema": {
                   "type": "string", "format": "binary"}}}}}


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


def error_response(status: int, code: str, message: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status,
                        headers=headers)


def _unavailable(message: str) -> JSONResponse:
    return error_response(503, "neo4j_unavailable", message, {"Retry-After": str(RETRY_AFTER_S)})


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc if p != "body") or "body"


async def _api_error(_r: Request, exc: ApiError) -> JSONResponse:
    return error_response(exc.status, exc.code, exc.message, exc.headers)


async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return error_response(400, "malformed_json",
                              "the request body is not valid JSON; send a JSON object")
    first = errors[0] if errors else {}
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return error_response(422, "invalid_request",
                          f"{_where(tuple(first.get('loc', ())))}: {first.get('msg', 'invalid')}"
                          f"{more}")


async def _http_error(_r: Request, exc: HTTPException) -> JSONResponse:
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return error_response(exc.status_code, code, str(exc.detail), getattr(exc, "headers", None))


# A graphmem error as HTTP says it: the first kind that matches. Another user's id is refused
# as an unknown one (nothing is told); the bounds every door shares are Memory's (OutOfBounds).
_GRAPHMEM_ERRORS: tuple[tuple[type[Exception] | tuple[type[Exception], ...], int, str], ...] = (
    (UnknownUser, 404, "unknown_user"),
    (UnknownId, 404, "not_found"),
    (OutOfBounds, 422, "invalid_request"),
    ((InputError, CypherRefused, ConfigError), 400, "bad_input"),
)


async def _graphmem_error(_r: Request, exc: GraphmemError) -> JSONResponse:
    if isinstance(exc, Neo4jUnavailable):
        return _unavailable(str(exc))
    for kinds, status, code in _GRAPHMEM_ERRORS:
        if isinstance(exc, kinds):
            return error_response(status, code, str(exc))
    log.exception("graphmem error")
    return error_response(500, "internal", f"{type(exc).__name__}: {exc}")


async def _neo4j_down(_r: Request, _exc: DriverError) -> JSONResponse:
    return _unavailable("Neo4j is unreachable; retry later")


async def _internal(_r: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, DriverError | ConnectionError | DatabaseUnavailable):
        return _unavailable("Neo4j is unreachable; retry later")
    log.exception("unexpected error")
    return error_response(500, "internal", "internal error; the server log has the details")


def install(app: FastAPI) -> None:
    """Register the handlers that turn every exception into one structured JSON error."""
    handlers: list[tuple[type[Exception], Any]] = [
        (ApiError, _api_error), (RequestValidationError, _invalid), (HTTPException, _http_error),
        (GraphmemError, _graphmem_error), (ServiceUnavailable, _neo4j_down),
        (SessionExpired, _neo4j_down), (DatabaseUnavailable, _neo4j_down), (Exception, _internal)]
    for kind, handler in handlers:
        app.add_exception_handler(kind, handler)


class BodyLimit:
    """ASGI middleware: a request body larger than `max_bytes` gets 413 before the app reads it
    (with or without a Content-Length header)."""

    def __init__(self, app: Any, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def _reject(self, send: Any) -> None:
        body = json.dumps({"error": {"code": "too_large", "message":
                          f"the request body is larger than {self.max_bytes} bytes; send less "
                          "(split a transcript, or append fewer messages at once)"}}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None:
            if self._too_long(length):
                return await self._reject(send)
            return await self.app(scope, receive, send)
        if scope["method"] in ("GET", "HEAD", "DELETE", "OPTIONS"):
            return await self.app(scope, receive, send)
        return await self._chunked(scope, receive, send)

    def _too_long(self, length: bytes) -> bool:
        try:
            return int(length) > self.max_bytes
        except ValueError:
            return True

    async def _chunked(self, scope: Any, receive: Any, send: Any) -> None:
        """A body without a Content-Length: read it here, bounded, then replay it to the app."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_bytes:
                return await self._reject(send)
            if not message.get("more_body"):
                break
        replay = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replayed() -> Any:
            return replay.pop() if replay else await receive()

        return await self.app(scope, replayed, send)
