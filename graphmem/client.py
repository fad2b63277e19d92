"""The Python client of `graphmem serve`: `Client` (sync) and `AsyncClient` (async), one method
per HTTP route with typed results: the server's own response models (`graphmem.responses`, the
names the HTTP API uses: `id` / `turn_id` / `session_id` are stored ids, `source_id` /
`source_turn_ids` / `session_source_id` the source's own; fields a newer server adds are
ignored). Each operation is written once (`_Operations` builds the request and names its result
type); the sync and async clients differ only in how they send it. A refusal raises
`GraphmemHTTPError` (status, code, the server's message); 503 is retried as `Retry-After` asks
(bounded); a refused connection is retried for any method (nothing was sent), other transport
errors for GETs only (a POST may have been received). The raw-JSON door the CLI uses with
GRAPHMEM_URL is graphmem.remote.RemoteMemory."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx

from .errors import GraphmemError

# The results: one declaration with the server's (graphmem.responses), re-exported here.
from .responses import (
    AddedTurn,
    Answer,
    AppendResult,
    Card,
    Citation,
    Deleted,
    Evidence,
    Fact,
    FactChange,
    Facts,
    Health,
    Intent,
    Invalidation,
    MadeFact,
    Readiness,
    Replaced,
    SearchResult,
    SessionPage,
    SessionSummary,
    Stats,
    TimeZone,
    Turn,
    TurnPage,
    TurnRemoval,
    UploadResult,
)

__all__ = ["AddedTurn", "Answer", "AppendResult", "AsyncClient", "Card", "Citation", "Client",
           "Evidence", "Fact", "FactChange", "GraphmemHTTPError", "Intent", "Invalidation",
           "MadeFact", "Message", "Readiness", "RemoteError", "Replaced",
           "RetryPolicy", "SearchResult", "SessionPage", "SessionSummary", "Stats", "Turn",
           "TurnPage", "TurnRemoval", "UploadResult"]

T = TypeVar("T")


# --- what is sent -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """A message to append (`Client.remember`); `timestamp` dates it (ISO 8601 or a datetime),
    `metadata` labels it (a flat map: search, facts and timeline filter on it)."""

    role: str
    content: str
    turn_id: str | None = None
    speaker: str | None = None
    timestamp: datetime | str | None = None
    metadata: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        for name in ("turn_id", "speaker", "metadata"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.timestamp is not None:
            out["timestamp"] = _when(self.timestamp)
        return out


# --- the clients ----------------------------------------------------------------------------------


DEFAULT_URL = "http://127.0.0.1:8420"


class RemoteError(GraphmemError):
    """The server refused the request or could not be reached; the message says why."""


class GraphmemHTTPError(RemoteError):
    """The server answered with an error: `status` (e.g. 404), `code` (e.g. "unknown_user") and
    the server's `message`."""

    def __init__(self, status: int, code: str, message: str, url: str,
                 retry_after: float | None = None):
        super().__init__(f"{message} (HTTP {status} from {url})")
        self.status, self.code, self.message = status, code, message
        self.retry_after = retry_after


@dataclass(frozen=True)
class RetryPolicy:
    """At most `attempts` tries; 503 waits what Retry-After says (else `backoff` doubling), never
    more than `max_wait` seconds at once. A refused connection is retried for every method,
other transport errors (timeouts, a dropped connection) for GETs only."""

    attempts: int = 3
    backoff: float = 0.5
    max_wait: float = 10.0

    def wait(self, attempt: int, retry_after: float | None) -> float:
        base = retry_after if retry_after is not None else self.backoff * 2 ** attempt
        return max(0.0, min(base, self.max_wait))


@dataclass(frozen=True)
class _Request(Generic[T]):
    method: str
    path: str
    parse: Callable[[Any], T]
    params: dict[str, Any] = field(default_factory=dict)
    json: Any = None
    content: bytes | None = None
    accept: tuple[int, ...] = ()  # error statuses whose body is still the result (readyz)

    @property
    def idempotent(self) -> bool:
        return self.method == "GET"

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"params": {k: _param(v) for k, v in self.params.items()
                                          if v is not None}}
        if self.json is not None:
            out["json"] = self.json
        if self.content is not None:
            out["content"] = self.content
            out["headers"] = {"Content-Type": "application/octet-stream"}
        return out


def _param(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value.isoformat() if isinstance(value, datetime) else value


def _when(value: datetime | str | None) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else value


def _present(**fields: Any) -> dict[str, Any]:
    """A request body without the fields left unset (the server's defaults apply)."""
    return {k: v for k, v in fields.items() if v is not None}


def _filter(metadata: dict[str, Any] | None) -> str | None:
    return json.dumps(metadata, separators=(",", ":")) if metadata is not None else None


def _seg(value: str) -> str:
    return quote(value, safe="")


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return float(response.headers["retry-after"])
    except (KeyError, ValueError):
        return None


def _error(response: httpx.Response, url: str) -> GraphmemHTTPError:
    try:
        err = response.json()["error"]
        code, message = str(err.get("code", "error")), str(err["message"])
    except (ValueError, KeyError, TypeError, AttributeError):
        code, message = "error", response.text[:200] or response.reason_phrase
    return GraphmemHTTPError(response.status_code, code, message, url, _retry_after(response))


def _unreachable(url: str, exc: Exception) -> RemoteError:
    return RemoteError(f"cannot reach graphmem at {url} ({type(exc).__name__}); start "
                       "`graphmem serve` or check the base_url")


def _users(user_id: str) -> str:
    return f"/v1/users/{_seg(user_id)}"


class _Operations:
    """Every operation once; `_send` (sync or async) runs the request it builds."""

    def _send(self, request: _Request[Any]) -> Any:
        raise NotImplementedError

    # --- service ---------------------------------------------------------------------------------

    def health(self) -> Any:
        """True when the process is up (`/healthz`)."""
        return self._send(_Request("GET", "/healthz",
                                   lambda d: Health.model_validate(d).status == "ok"))

    def readiness(self) -> Any:
        """`Readiness`: Neo4j reachable, schema applied, model loaded (`/readyz`; not raised on
        503, which only means not ready yet)."""
        return self._send(_Request("GET", "/readyz", Readiness.model_validate, accept=(503,)))

    # --- writing ---------------------------------------------------------------------------------

    def remember(self, user_id: str, session_id: str,
                 messages: Sequence[Message | dict[str, Any]], *,
                 session_time: datetime | str | None = None, agent_id: str | None = None,
                 run_id: str | None = None) -> Any:
        """`AppendResult`: append messages to a session (created on first use); a message whose
        `turn_id` the session holds changes nothing."""
        body: dict[str, Any] = {"messages": [x.to_json() if isinstance(x, Message) else x
                                             for x in messages]}
        body.update(_present(session_time=_when(session_time), agent_id=agent_id, run_id=run_id))
        return self._send(_Request("POST", f"{_users(user_id)}/sessions/{_seg(session_id)}/messages",
                                   AppendResult.model_validate, json=body))

    append = remember

    def set_time_zone(self, user_id: str, time_zone: str | None) -> Any:
        """The IANA zone message times without an offset are read in (None: UTC); returns it."""
        return self._send(_Request("PUT", f"{_users(user_id)}/time_zone",
                                   lambda d: TimeZone.model_validate(d).time_zone,
                                   json={"time_zone": time_zone}))

    def upload(self, user_id: str, transcript: str | Path | bytes, *, format: str = "auto",
               filename: str | None = None, session: str | None = None,
               session_time: datetime | str | None = None) -> Any:
        """`UploadResult`: ingest a transcript file (a path, or its bytes) for this user only."""
        if isinstance(transcript, bytes):
            data, name = transcript, filename or "transcript.json"
        else:
            data, name = Path(transcript).read_bytes(), filename or Path(transcript).name
        params = {"format": format, "filename": name, "session": session,
                  "session_time": _when(session_time)}
        return self._send(_Request("POST", f"{_users(user_id)}/transcripts",
                                   UploadResult.model_validate, params=params,
                                   content=data))

    def forget_user(self, user_id: str) -> Any:
        """Delete everything of one user; returns how many nodes went (404 if none)."""
        return self._send(_Request("DELETE", _users(user_id),
                                   lambda d: Deleted.model_validate(d).deleted))

    # --- one memory at a time --------------------------------------------------------------------

    def sessions(self, user_id: str, *, cursor: str | None = None,
                 limit: int | None = None) -> Any:
        """`SessionPage`: one page of the user's sessions, oldest first."""
        return self._send(_Request("GET", f"{_users(user_id)}/sessions",
                                   SessionPage.model_validate,
                                   params={"cursor": cursor, "limit": limit}))

    def turns(self, user_id: str, *, session: str | None = None, cursor: str | None = None,
              limit: int | None = None) -> Any:
        """`TurnPage`: one page of the user's turns in conversation order."""
        return self._send(_Request("GET", f"{_users(user_id)}/turns",
                                   TurnPage.model_validate,
                                   params={"session": session, "cursor": cursor, "limit": limit}))

    def get_turn(self, user_id: str, turn_id: str) -> Any:
        """`Turn` by stored or source turn id, with the ids of its facts."""
        return self._send(_Request("GET", f"{_users(user_id)}/turns/{_seg(turn_id)}",
                                   Turn.model_validate))

    def delete_turn(self, user_id: str, turn_id: str, *, redact: bool = False) -> Any:
        """`TurnRemoval`: delete (or, with `redact`, blank the words of) one turn and its facts."""
        return self._send(_Request("DELETE", f"{_users(user_id)}/turns/{_seg(turn_id)}",
                                   TurnRemoval.model_validate,
                                   params={"redact": redact or None}))

    def redact_turn(self, user_id: str, turn_id: str) -> Any:
        """`TurnRemoval`: the turn keeps its place and date, its words become "[redacted]"."""
        return self.delete_turn(user_id, turn_id, redact=True)

    def get_fact(self, user_id: str, fact_id: str) -> Any:
        """`Fact` by id, with `invalidation` if someone marked it wrong."""
        return self._send(_Request("GET", f"{_users(user_id)}/facts/{_seg(fact_id)}",
                                   Fact.model_validate))

    def invalidate_fact(self, user_id: str, fact_id: str, *, by: str = "user",
                        reason: str | None = None) -> Any:
        """`Fact`: mark it wrong ("forget that"); its slot is decided again without it."""
        body: dict[str, Any] = {"by": by}
        if reason is not None:
            body["reason"] = reason
        return self._send(_Request("POST", f"{_users(user_id)}/facts/{_seg(fact_id)}/invalidate",
                                   Fact.model_validate, json=body))

    # --- reading ---------------------------------------------------------------------------------

    def search(self, user_id: str, query: str, *, question_date: datetime | str | None = None,
               as_of: datetime | str | None = None, k: int | None = None,
               preset: str | None = None, explain: bool = False,
               metadata: dict[str, Any] | None = None, agent_id: str | None = None,
               run_id: str | None = None) -> Any:
        """`SearchResult`: ranked evidence (facts, pieces, turns) with source turn ids; `k` and
        `preset` default to the server's; `metadata`: only evidence from turns holding these
        pairs (`agent_id`, `run_id`: those of the scope)."""
        body = _present(query=query, question_date=_when(question_date), as_of=_when(as_of),
                        k=k, preset=preset, explain=explain, metadata=metadata,
                        agent_id=agent_id, run_id=run_id)
        return self._send(_Request("POST", f"{_users(user_id)}/search",
                                   SearchResult.model_validate, json=body))

    def answer(self, user_id: str, question: str, *,
               question_date: datetime | str | None = None, budget: int | None = None,
               offline: bool = False, trace: bool = False) -> Any:
        """`Answer` with citations (stored and source turn ids, verbatim quotes), usage, cost;
        `budget` (planner steps) defaults to the server's."""
        body = _present(question=question, question_date=_when(question_date), budget=budget,
                        offline=offline, trace=trace)
        return self._send(_Request("POST", f"{_users(user_id)}/answer",
                                   Answer.model_validate, json=body))

    def facts(self, user_id: str, *, as_of: datetime | str | None = None, history: bool = False,
              predicate: str | None = None, question_date: datetime | str | None = None,
              limit: int | None = None, metadata: dict[str, Any] | None = None,
              agent_id: str | None = None, run_id: str | None = None) -> Any:
        """`list[Fact]`: current facts, those valid `as_of`, or every version (`history`)."""
        params = {"as_of": _when(as_of), "history": history or None, "predicate": predicate,
                  "question_date": _when(question_date), "limit": limit,
                  "metadata": _filter(metadata), "agent_id": agent_id, "run_id": run_id}
        return self._send(_Request("GET", f"{_users(user_id)}/facts", _fact_list, params=params))

    def timeline(self, user_id: str, *, entity: str | None = None, predicate: str | None = None,
                 since: datetime | str | None = None, until: datetime | str | None = None,
                 question_date: datetime | str | None = None, limit: int | None = None,
                 metadata: dict[str, Any] | None = None, agent_id: str | None = None,
                 run_id: str | None = None) -> Any:
        """`list[Fact]`: the ordered history of facts with intervals, status and changes."""
        params = {"entity": entity, "predicate": predicate, "since": _when(since),
                  "until": _when(until), "question_date": _when(question_date), "limit": limit,
                  "metadata": _filter(metadata), "agent_id": agent_id, "run_id": run_id}
        return self._send(_Request("GET", f"{_users(user_id)}/timeline", _fact_list,
                                   params=params))

    def inspect(self, user_id: str, node_id: str) -> Any:
        """`Card` for a fact, piece, turn (stored or source id) or entity (id or name)."""
        return self._send(_Request("GET", f"{_users(user_id)}/inspect/{_seg(node_id)}",
                                   Card.model_validate))

    def stats(self, user_id: str | None = None) -> Any:
        """`Stats` of one user, or (user_id None: an admin key) of every user."""
        path = f"{_users(user_id)}/stats" if user_id is not None else "/v1/stats"
        return self._send(_Request("GET", path, Stats.model_validate))


def _fact_list(d: dict[str, Any]) -> list[Fact]:
    return Facts.model_validate(d).facts


def _setup(base_url: str | None, api_key: str | None) -> tuple[str, dict[str, str]]:
    url = (base_url or os.environ.get("GRAPHMEM_URL") or DEFAULT_URL).rstrip("/")
    key = api_key if api_key is not None else os.environ.get("GRAPHMEM_API_KEY") or None
    return url, ({"Authorization": f"Bearer {key}"} if key else {})


class Client(_Operations):
    """A synchronous client of `graphmem serve`. `base_url` and `api_key` default to
    GRAPHMEM_URL and GRAPHMEM_API_KEY; use it as a context manager or call `close()`."""

    def __init__(self, base_url: str | None = None, api_key: str | None = None, *,
                 timeout: float = 300.0, retry: RetryPolicy | None = None,
                 transport: httpx.BaseTransport | None = None):
        self.base_url, headers = _setup(base_url, api_key)
        self.retry = retry or RetryPolicy()
        self.http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout,
                                 transport=transport)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def _send(self, request: _Request[T]) -> T:
        return request.parse(self.raw(request))

    def raw(self, request: _Request[Any]) -> Any:
        """The JSON the server answered `request` with (after retries), or the error raised."""
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                r = self.http.request(request.method, request.path, **request.kwargs())
            except httpx.TransportError as exc:
                if last or not (request.idempotent or isinstance(exc, httpx.ConnectError)):
                    raise _unreachable(self.base_url, exc) from None
                time.sleep(self.retry.wait(attempt, None))
                continue
            if r.status_code == 503 and not last and 503 not in request.accept:
                time.sleep(self.retry.wait(attempt, _retry_after(r)))
                continue
            if r.status_code >= 400 and r.status_code not in request.accept:
                raise _error(r, self.base_url)
            return r.json()
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def iter_turns(self, user_id: str, *, session: str | None = None,
                   limit: int | None = None) -> Any:
        """Every turn of the user (or of one session), page after page."""
        cursor = None
        while True:
            page = self.turns(user_id, session=session, cursor=cursor, limit=limit)
            yield from page.turns
            if not (cursor := page.next_cursor):
                return


class AsyncClient(_Operations):
    """The asynchronous client: the same methods as `Client`, each awaited (`await
    client.search(...)`), over one `httpx.AsyncClient`; `async with` or `await aclose()`."""

    def __init__(self, base_url: str | None = None, api_key: str | None = None, *,
                 timeout: float = 300.0, retry: RetryPolicy | None = None,
                 transport: httpx.AsyncBaseTransport | None = None):
        self.base_url, headers = _setup(base_url, api_key)
        self.retry = retry or RetryPolicy()
        self.http = httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout,
                                      transport=transport)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def _send(self, request: _Request[T]) -> T:
        return request.parse(await self.raw(request))

    async def raw(self, request: _Request[Any]) -> Any:
        for attempt in range(self.retry.attempts):
            last = attempt == self.retry.attempts - 1
            try:
                r = await self.http.request(request.method, request.path, **request.kwargs())
            except httpx.TransportError as exc:
                if last or not (request.idempotent or isinstance(exc, httpx.ConnectError)):
                    raise _unreachable(self.base_url, exc) from None
                await asyncio.sleep(self.retry.wait(attempt, None))
                continue
            if r.status_code == 503 and not last and 503 not in request.accept:
                await asyncio.sleep(self.retry.wait(attempt, _retry_after(r)))
                continue
            if r.status_code >= 400 and r.status_code not in request.accept:
                raise _error(r, self.base_url)
            return r.json()
        raise AssertionError("unreachable")
