"""The routes of `graphmem serve`: each translates HTTP to one `Memory` call, run in a bounded
worker pool, after checking the caller's API key against the user it names."""

from __future__ import annotations

import contextlib
import functools
import json
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import anyio
from fastapi import FastAPI, Path, Query, Request, Security
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyHeader, HTTPBearer
from starlette.routing import Route

from .. import __version__
from .. import responses as out
from ..errors import Neo4jUnavailable, connection_lost
from ..loaders import FORMATS
from ..memory import DEFAULT_PAGE, MAX_FACTS, MAX_PAGE
from ..models import TurnRecord
from ..retrieval.config import PRESETS
from .auth import Grant, KeyRing
from .errors import (
    ADMIN,
    BODY,
    EVERY_ROUTE,
    KEYED,
    ONE_TURN,
    READ,
    UPLOAD_BODY,
    ApiError,
    BodyLimit,
    error_response,
    install,
)
from .guard import RequestGuard
from .parameters import DOC
from .schemas import (
    AnswerRequest,
    AppendRequest,
    InvalidateRequest,
    SearchRequest,
    TimeZoneRequest,
)

T = TypeVar("T")


class Neo4jBreaker:
    """Fail fast while Neo4j is down: once a memory call found Neo4j unreachable (after the
    driver's short retries), later calls get Neo4jUnavailable (503 + Retry-After, an MCP tool
    error) at once instead of each waiting out its own retries, until a probe in the background
    (at most one at a time) finds Neo4j serving again."""

    def __init__(self, probe: Callable[[], bool]):
        self.probe = probe
        self.down = False
        self._probing = threading.Lock()

    def check(self) -> None:
        if not self.down:
            return
        if self._probing.acquire(blocking=False):
            threading.Thread(target=self._run_probe, daemon=True).start()
        raise Neo4jUnavailable("Neo4j is unreachable (it stopped or is restarting); "
                               "retry in a few seconds")

    def _run_probe(self) -> None:
        try:
            if self.probe():
                self.down = False
        except Exception:  # noqa: BLE001 - a failed probe only means still down
            pass
        finally:
            self._probing.release()

    def saw(self, exc: BaseException) -> None:
        if isinstance(exc, Neo4jUnavailable) or connection_lost(exc):
            self.down = True


class WorkerPool:
    """At most `workers` memory calls run at once (embedding is CPU-bound); beyond `max_pending`
    waiting requests, new ones get 503 instead of piling up; while Neo4j is down, 503 at once."""

    def __init__(self, workers: int, max_pending: int, breaker: Neo4jBreaker | None = None):
        self.limiter = anyio.CapacityLimiter(max(1, workers))
        self.max_pending = max_pending
        self.pending = 0
        self.breaker = breaker

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self.breaker is not None:
            self.breaker.check()
        if self.pending >= self.max_pending:
            raise ApiError(503, "busy", "the server is busy; retry shortly", {"Retry-After": "1"})
        self.pending += 1
        try:
            return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs),
                                                  limiter=self.limiter)
        except Exception as exc:
            if self.breaker is not None:
                self.breaker.saw(exc)
            raise
        finally:
            self.pending -= 1


def _key(request: Request) -> str | None:
    auth = request.headers.get("authorization") or ""
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.headers.get("x-api-key")


# How a key is sent, as the OpenAPI document says it (securitySchemes): either header will do.
# They only document: `grant` reads the key, and without keys configured none is needed.
SECURITY = [Security(HTTPBearer(auto_error=False, description="Authorization: Bearer KEY")),
            Security(APIKeyHeader(name="X-API-Key", auto_error=False,
                                  description="X-API-Key: KEY"))]
# The path and query parameters, each described as graphmem.server.parameters says (the MCP
# tools read the same words).
USER = Path(description=DOC["user_id"])
SESSION = Path(description=DOC["session_id"])
TURN = Path(description=DOC["turn_id"])
FACT = Path(description=DOC["fact_id"])
NODE = Path(description=DOC["node_id"])
METADATA_QUERY = Query(None, description="A JSON object (URL-encoded). "
                       + DOC["metadata_filter"])
AGENT_QUERY = Query(None, description=DOC["agent_id"])
RUN_QUERY = Query(None, description=DOC["run_id"])
FACTS_LIMIT = Query(MAX_FACTS, description=DOC["facts_limit"],
                    json_schema_extra={"minimum": 1, "maximum": MAX_FACTS})
AS_OF = Query(None, description=DOC["as_of"])
QUESTION_DATE = Query(None, description=DOC["question_date"])
SINCE = Query(None, description=DOC["since"])
UNTIL = Query(None, description=DOC["until"])
PREDICATE = Query(None, description=DOC["predicate"])
ENTITY = Query(None, description=DOC["entity"])
HISTORY = Query(False, description=DOC["history"])
CURSOR = Query(None, description=DOC["cursor"])
PAGE_LIMIT = Query(DEFAULT_PAGE, ge=1, le=MAX_PAGE, description=DOC["page_limit"])


def _metadata_filter(text: str | None) -> Any:
    """The JSON object of a `metadata` query parameter (Memory checks what it holds)."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        raise ApiError(422, "invalid_request", "metadata must be a JSON object, e.g. "
                       '{"agent":"planner"} (URL-encoded)') from None


class KeyGate:
    """ASGI wrapper of the MCP endpoint: with keys configured, a request without a known key gets
    401 before MCP sees it (the tools then check the key's users)."""

    def __init__(self, app: Any, keys: KeyRing):
        self.app, self.keys = app, keys

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.keys.enabled:
            request = Request(scope)
            if self.keys.lookup(_key(request)) is None:
                response = error_response(401, "invalid_key" if _key(request) else "missing_key",
                                          "send a known API key: 'Authorization: Bearer KEY'",
                                          {"WWW-Authenticate": "Bearer"})
                return await response(scope, receive, send)
        await self.app(scope, receive, send)


def create_app(memory: Any, keys: KeyRing | None = None, *, workers: int = 4,
               max_pending: int = 64, max_body_bytes: int = 16 * 2**20, mcp: bool = True,
               host: str = "127.0.0.1", allowed_hosts: list[str] | None = None) -> Any:
    """The ASGI application over one `Memory` (its embedder and driver pool already loaded);
    with `mcp`, the MCP tools at /mcp (streamable HTTP). Every request first passes the
    `RequestGuard` (Host, Origin, content type; `allowed_hosts`: the names the server answers
    to besides loopback and `host`, default GRAPHMEM_ALLOWED_HOSTS)."""
    keys = keys or KeyRing()
    breaker = Neo4jBreaker(lambda: memory.readiness()["neo4j"])
    pool = WorkerPool(workers, max_pending, breaker)
    mcp_handler, lifespan = _mcp_endpoint(memory, keys, pool, host) if mcp else (None, None)
    app = FastAPI(title="graphmem", version=__version__, lifespan=lifespan,
                  responses=EVERY_ROUTE,  # the guard's refusals and an internal error
                  description="Evidence-grounded temporal graph memory for LLM agents. Every "
                              "endpoint under /v1/users/{user_id} touches that user's memory only; "
                              "the same tools over MCP (streamable HTTP) at /mcp.")
    install(app)
    if mcp_handler is not None:
        app.router.routes.append(Route("/mcp", endpoint=mcp_handler))
    _service_routes(app, memory, pool, breaker)
    authorize = Doorkeeper(keys).authorize
    for routes in (_writing_routes, _one_memory_routes, _reading_routes):
        routes(app, memory, pool, authorize)
    return RequestGuard(BodyLimit(app, max_body_bytes), host=host, allowed_hosts=allowed_hosts)


def _mcp_endpoint(memory: Any, keys: KeyRing, pool: WorkerPool,
                  host: str) -> tuple[Any, Callable[[Any], Any]]:
    """The MCP tools over streamable HTTP behind the key gate, and the lifespan that runs them."""
    # Deferred: the mcp SDK (about 2 s to import here), for an app that serves /mcp only.
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp

    from .mcp_tools import build_mcp  # deferred with the mcp SDK (it imports it)

    mcp_server = build_mcp(memory, keys, run=pool.run)
    mcp_server.streamable_http_app(stateless_http=True, json_response=True, host=host)
    manager = mcp_server.session_manager

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> Any:
        async with manager.run():
            yield

    return KeyGate(StreamableHTTPASGIApp(manager), keys), lifespan


class Doorkeeper:
    """The API key a request carries, checked against the user it names (without keys configured,
    a loopback-only server, anyone may call)."""

    def __init__(self, keys: KeyRing):
        self.keys = keys

    def grant(self, request: Request) -> Grant | None:
        if not self.keys.enabled:
            return None  # loopback-only server without keys
        key = _key(request)
        if not key:
            raise ApiError(401, "missing_key",
                           "send an API key: 'Authorization: Bearer KEY' or 'X-API-Key: KEY'",
                           {"WWW-Authenticate": "Bearer"})
        found = self.keys.lookup(key)
        if found is None:
            raise ApiError(401, "invalid_key", "the API key is not known to this server",
                           {"WWW-Authenticate": "Bearer"})
        return found

    def authorize(self, request: Request, user_id: str | None) -> None:
        g = self.grant(request)
        if g is not None and not g.allows(user_id):
            who = f"user {user_id!r}" if user_id else "all users"
            raise ApiError(403, "forbidden", f"this API key may not touch the memory of {who}")


Authorize = Callable[[Request, str | None], None]


def _service_routes(app: FastAPI, memory: Any, pool: WorkerPool, breaker: Neo4jBreaker) -> None:
    """The process and its readiness."""

    @app.get("/healthz", tags=["service"], response_model=out.Health)
    async def healthz() -> Any:
        """The process is up."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["service"], response_model=out.Readiness,
             responses={503: {"model": out.Readiness,
                              "description": "Not ready yet (Retry-After)"}})
    async def readyz() -> JSONResponse:
        """Neo4j reachable, schema applied, embedding model loaded."""
        checks = await anyio.to_thread.run_sync(memory.readiness, limiter=pool.limiter)
        if checks["neo4j"]:
            breaker.down = False
        ready = all(checks.values())
        return JSONResponse({"ready": ready, **checks}, status_code=200 if ready else 503,
                            headers=None if ready else {"Retry-After": "5"})


def _writing_routes(app: FastAPI, memory: Any, pool: WorkerPool, authorize: Authorize) -> None:
    """Writing: messages, transcripts, the time zone; forgetting a user."""

    @app.post("/v1/users/{user_id}/sessions/{session_id}/messages", tags=["memory"],
              response_model=out.AppendResult, responses=KEYED | BODY, dependencies=SECURITY)
    async def append(body: AppendRequest, request: Request, user_id: str = USER,
                     session_id: str = SESSION) -> Any:
        """Append messages to a session (created on first use). A message whose `turn_id` the
        session already holds changes nothing; only the new turns are processed. Returns the
        turns added and the facts they made (`made`), each with the facts it replaced."""
        authorize(request, user_id)
        turns = [TurnRecord(m.role, m.content, m.speaker, m.turn_id,
                            m.timestamp,  # type: ignore[arg-type]  # text: Memory.append reads it
                            m.metadata)
                 for m in body.messages]
        r = await pool.run(memory.append, user_id, session_id, turns,
                           session_time=body.session_time, agent_id=body.agent_id,
                           run_id=body.run_id)
        return r.to_dict()

    @app.put("/v1/users/{user_id}/time_zone", tags=["memory"], response_model=out.TimeZone,
             responses=KEYED | BODY, dependencies=SECURITY)
    async def set_time_zone(body: TimeZoneRequest, request: Request,
                            user_id: str = USER) -> Any:
        """Set the IANA time zone the user's message times without an offset are read in (null:
        UTC). Turns already stored keep their dates."""
        authorize(request, user_id)
        return {"time_zone": await pool.run(memory.set_time_zone, user_id, body.time_zone)}

    @app.post("/v1/users/{user_id}/transcripts", tags=["memory"],
              response_model=out.UploadResult, responses=KEYED | BODY, dependencies=SECURITY,
              openapi_extra=UPLOAD_BODY)
    async def upload(request: Request, user_id: str = USER,
                     format: str = Query("auto", description=DOC["format"],
                                         json_schema_extra={"enum": ["auto", *FORMATS]}),
                     filename: str = Query("transcript.json", description=DOC["filename"]),
                     session: str | None = Query(None, description=DOC["upload_session"]),
                     session_time: str | None = Query(None,
                                                      description=DOC["upload_session_time"])
                     ) -> Any:
        """Ingest a transcript file sent as the request body, for this user only (records of
        other users in the file are skipped and counted)."""
        authorize(request, user_id)
        report = await pool.run(memory.ingest_file, await request.body(), format,
                                user_id=user_id, filename=filename, session=session,
                                session_time=session_time)
        return report.to_dict()

    @app.delete("/v1/users/{user_id}", tags=["memory"], response_model=out.Deleted,
                responses=READ, dependencies=SECURITY)
    async def forget(request: Request, user_id: str = USER) -> Any:
        """Delete everything of one user, and nothing else."""
        authorize(request, user_id)
        return {"deleted": await pool.run(memory.forget, user_id)}


def _one_memory_routes(app: FastAPI, memory: Any, pool: WorkerPool,
                       authorize: Authorize) -> None:
    """One memory at a time: sessions, turns and facts by id; deleting or invalidating one."""

    @app.get("/v1/users/{user_id}/sessions", tags=["one memory"],
             response_model=out.SessionPage, responses=READ, dependencies=SECURITY)
    async def list_sessions(request: Request, user_id: str = USER,
                            cursor: str | None = CURSOR, limit: int = PAGE_LIMIT) -> Any:
        """One page of the user's sessions, oldest first, each with how many turns it holds;
        `next_cursor` (null on the last page) fetches the next."""
        authorize(request, user_id)
        page = await pool.run(memory.list_sessions, user_id, cursor=cursor, limit=limit)
        return out.SessionPage(sessions=page.items, next_cursor=page.next_cursor)

    @app.get("/v1/users/{user_id}/turns", tags=["one memory"], response_model=out.TurnPage,
             responses=READ, dependencies=SECURITY)
    async def list_turns(request: Request, user_id: str = USER,
                         session: str | None = Query(None, description=DOC["session_filter"]),
                         cursor: str | None = CURSOR, limit: int = PAGE_LIMIT) -> Any:
        """One page of the user's turns in conversation order (sessions oldest first, turns by
        position); every turn appears once across the pages."""
        authorize(request, user_id)
        page = await pool.run(memory.list_turns, user_id, session_id=session, cursor=cursor,
                              limit=limit)
        return out.TurnPage(turns=page.items, next_cursor=page.next_cursor)

    @app.get("/v1/users/{user_id}/turns/{turn_id:path}", tags=["one memory"],
             response_model=out.Turn, responses=ONE_TURN, dependencies=SECURITY)
    async def get_turn(request: Request, user_id: str = USER, turn_id: str = TURN) -> Any:
        """One turn by stored id or source turn id, with the ids of the facts derived from it."""
        authorize(request, user_id)
        return await pool.run(memory.get_turn, user_id, turn_id)

    @app.delete("/v1/users/{user_id}/turns/{turn_id:path}", tags=["one memory"],
                response_model=out.TurnRemoval, responses=ONE_TURN, dependencies=SECURITY)
    async def delete_turn(request: Request, user_id: str = USER, turn_id: str = TURN,
                          redact: bool = Query(False, description=DOC["redact"])) -> Any:
        """Delete (or redact) one turn, its pieces and the facts derived only from it; the
        slots those facts were in are decided again as if they had never been said."""
        authorize(request, user_id)
        remove = memory.redact_turn if redact else memory.delete_turn
        return await pool.run(remove, user_id, turn_id)

    @app.get("/v1/users/{user_id}/facts/{fact_id}", tags=["one memory"],
             response_model=out.Fact, responses=READ, dependencies=SECURITY)
    async def get_fact(request: Request, user_id: str = USER, fact_id: str = FACT) -> Any:
        """One fact by id: status, interval, source turns, changes, and who marked it wrong."""
        authorize(request, user_id)
        return await pool.run(memory.get_fact, user_id, fact_id)

    @app.post("/v1/users/{user_id}/facts/{fact_id}/invalidate", tags=["one memory"],
              response_model=out.Fact, responses=READ | BODY, dependencies=SECURITY)
    async def invalidate_fact(body: InvalidateRequest, request: Request,
                              user_id: str = USER, fact_id: str = FACT) -> Any:
        """Mark a fact wrong ("forget that"): status invalid, kept in history with who said so;
        its slot is decided again without it. Returns the fact."""
        authorize(request, user_id)
        fact = await pool.run(memory.invalidate_fact, user_id, fact_id,
                              by=body.by, reason=body.reason)
        return fact


def _reading_routes(app: FastAPI, memory: Any, pool: WorkerPool, authorize: Authorize) -> None:
    """Reading: search, facts, timeline, cards, answers, counts."""

    @app.post("/v1/users/{user_id}/search", tags=["memory"], response_model=out.SearchResult,
              response_model_exclude_unset=True,  # `hits` only with explain
              responses=READ | BODY, dependencies=SECURITY)
    async def search(body: SearchRequest, request: Request, user_id: str = USER) -> Any:
        """Ranked evidence (facts, pieces, turns) with source turn ids, dates and status."""
        authorize(request, user_id)
        if body.preset not in PRESETS:
            raise ApiError(400, "bad_input",
                           f"unknown preset {body.preset!r}; use one of {', '.join(PRESETS)}")
        found = await pool.run(memory.search_full, user_id, body.query,
                               question_date=body.question_date, as_of=body.as_of, k=body.k,
                               config=body.preset, metadata=body.metadata,
                               agent_id=body.agent_id, run_id=body.run_id)
        return found.to_dict(explain=body.explain)

    @app.get("/v1/users/{user_id}/facts", tags=["memory"], response_model=out.Facts,
             responses=READ, dependencies=SECURITY)
    async def facts(request: Request, user_id: str = USER, as_of: datetime | None = AS_OF,
                    history: bool = HISTORY, predicate: str | None = PREDICATE,
                    question_date: datetime | None = QUESTION_DATE,
                    limit: int = FACTS_LIMIT,
                    metadata: str | None = METADATA_QUERY,
                    agent_id: str | None = AGENT_QUERY, run_id: str | None = RUN_QUERY) -> Any:
        """The current facts, the facts valid `as_of`, or every version (`history`); with a
        `question_date`, as known that day; with `metadata`, only facts from matching turns."""
        authorize(request, user_id)
        found = await pool.run(memory.facts, user_id, as_of, predicate=predicate,
                               history=history, question_date=question_date, limit=limit,
                               metadata=_metadata_filter(metadata), agent_id=agent_id,
                               run_id=run_id)
        return out.Facts(facts=found)

    @app.get("/v1/users/{user_id}/timeline", tags=["memory"], response_model=out.Facts,
             responses=READ, dependencies=SECURITY)
    async def timeline(request: Request, user_id: str = USER, entity: str | None = ENTITY,
                       predicate: str | None = PREDICATE, since: datetime | None = SINCE,
                       until: datetime | None = UNTIL,
                       question_date: datetime | None = QUESTION_DATE,
                       limit: int = FACTS_LIMIT,
                       metadata: str | None = METADATA_QUERY,
                       agent_id: str | None = AGENT_QUERY, run_id: str | None = RUN_QUERY) -> Any:
        """The ordered history of facts with intervals, status, changes and source turn; with a
        `question_date`, as known that day; with `metadata`, only facts from matching turns."""
        authorize(request, user_id)
        found = await pool.run(memory.timeline, user_id, entity=entity, predicate=predicate,
                               since=since, until=until, question_date=question_date,
                               limit=limit, metadata=_metadata_filter(metadata),
                               agent_id=agent_id, run_id=run_id)
        return out.Facts(facts=found)

    @app.get("/v1/users/{user_id}/inspect/{node_id:path}", tags=["memory"],
             response_model=out.Card, responses=READ, dependencies=SECURITY)
    async def inspect(request: Request, user_id: str = USER, node_id: str = NODE) -> Any:
        """A memory card for a fact, piece, turn (stored or source id) or entity (id or name)."""
        authorize(request, user_id)
        return await pool.run(memory.inspect, user_id, node_id)

    @app.post("/v1/users/{user_id}/answer", tags=["memory"], response_model=out.Answer,
              response_model_exclude_unset=True,  # `trace` only when asked
              responses=READ | BODY, dependencies=SECURITY)
    async def answer(body: AnswerRequest, request: Request, user_id: str = USER) -> Any:
        """An answer with citations (turn ids, dates, verbatim words), usage and cost."""
        authorize(request, user_id)
        ans = await pool.run(memory.answer, user_id, body.question,
                             question_date=body.question_date, budget=body.budget,
                             offline=body.offline)
        return ans.model_dump(exclude=None if body.trace else {"trace"})

    @app.get("/v1/users/{user_id}/stats", tags=["memory"], response_model=out.Stats,
             responses=READ, dependencies=SECURITY)
    async def user_stats(request: Request, user_id: str = USER) -> Any:
        """Counts of one user's sessions, turns, pieces, facts and entities."""
        authorize(request, user_id)
        return await pool.run(memory.stats, user_id)

    @app.get("/v1/stats", tags=["memory"], response_model=out.Stats, responses=ADMIN,
             dependencies=SECURITY)
    async def all_stats(request: Request) -> Any:
        """Counts over every user (an admin key, or a server without keys)."""
        authorize(request, None)
        return await pool.run(memory.stats, None)
