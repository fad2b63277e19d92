"""`graphmem.client` against a real `graphmem serve` process over real HTTP: every method of
`Client`, the async client on a representative subset, typed results, the error class; the 503
retry against a tiny local HTTP stub (a busy server is hard to make on demand)."""

from __future__ import annotations

import asyncio
import http.server
import json
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import datetime

import pytest

from graphmem.client import (
    Answer,
    AppendResult,
    AsyncClient,
    Card,
    Client,
    Evidence,
    Fact,
    GraphmemHTTPError,
    Message,
    RetryPolicy,
    SearchResult,
    SessionPage,
    Stats,
    Turn,
    TurnPage,
    TurnRemoval,
    UploadResult,
)
from graphmem.store.admin import forget_user
from tests.integration.test_server import free_port, start_server, stop, wait_ready

USER_KEY = "client-key-0123456789"
ADMIN_KEY = "client-admin-0123456789"


@pytest.fixture(scope="module")
def user(neo4j_graph) -> Iterator[str]:
    uid = f"test-cli-{uuid.uuid4().hex[:10]}"
    yield uid
    forget_user(neo4j_graph, uid)
    forget_user(neo4j_graph, f"{uid}-up")


@pytest.fixture(scope="module")
def base(neo4j_graph, user) -> Iterator[str]:
    port = free_port()
    proc = start_server(neo4j_graph.uri, port,
                        f"{USER_KEY}={user},{user}-up;{ADMIN_KEY}=*")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, url)
        yield url
    finally:
        stop(proc)


def test_every_sync_method_gives_typed_results(base, user):
    with Client(base, USER_KEY, timeout=60) as c:
        assert c.health() is True and c.readiness().ready
        assert c.set_time_zone(user, "Europe/Berlin") == "Europe/Berlin"
        first = c.remember(user, "s1", [Message("user", "I live in Denver.", turn_id="h1")],
                           session_time=datetime.fromisoformat("2024-01-10T09:00:00+00:00"))
        assert isinstance(first, AppendResult) and first.created and first.session == "s1"
        assert [t.source_turn_id for t in first.added] == ["h1"]
        c.append(user, "s2", [{"role": "user", "content": "I moved to Boulder.",
                               "turn_id": "h2"}], session_time="2024-03-10T09:00:00Z")
        c.remember(user, "s3", [Message("user", "I moved to Portland.", turn_id="h3",
                                        timestamp="2024-06-10T09:00:00Z")])
        again = c.remember(user, "s3", [Message("user", "I moved to Portland.", turn_id="h3")])
        assert again.unchanged == ["h3"] and not again.added

        found = c.search(user, "where do I live now?", k=3, explain=True)
        assert isinstance(found, SearchResult) and found.hits is not None
        assert all(isinstance(e, Evidence) for e in found.results) and found.results
        assert any("Portland" in e.text for e in found.results)
        assert any(isinstance(e.mentioned_at, datetime) for e in found.results)
        ans = c.answer(user, "Where do I live now?", offline=True)
        assert isinstance(ans, Answer) and ans.generated is False and not ans.trace
        assert any(x.source_turn_id == "h3" and "Portland" in x.quote for x in ans.citations)

        facts = c.facts(user, history=True, predicate="lives_in")
        assert all(isinstance(f, Fact) for f in facts)
        # what made each fact reaches the client (the rules here: none is a mention)
        assert all((f.extracted_by or "").startswith("rule:") and not f.mention for f in facts)
        assert {f.value: f.status for f in facts} == {
            "Denver": "superseded", "Boulder": "superseded", "Portland": "active"}
        assert [f.value for f in c.facts(user, as_of="2024-04-01T00:00:00Z",
                                         predicate="lives_in")] == ["Boulder"]
        line = c.timeline(user, predicate="lives_in", limit=10)
        assert [f.value for f in line] == ["Denver", "Boulder", "Portland"]
        assert isinstance(line[0].valid_from, datetime) and line[1].changes
        card = c.inspect(user, "h3")
        assert isinstance(card, Card) and card.type == "turn"
        stats = c.stats(user)
        assert isinstance(stats, Stats) and stats.users == 1 and stats.turns == 3

        sessions = c.sessions(user, limit=2)
        assert isinstance(sessions, SessionPage) and sessions.next_cursor
        assert [s.source_id for s in sessions.sessions] == ["s1", "s2"]
        assert [s.source_id for s in c.sessions(user, cursor=sessions.next_cursor).sessions] \
            == ["s3"]
        page = c.turns(user, limit=2)
        assert isinstance(page, TurnPage) and len(page.turns) == 2 and page.next_cursor
        assert [t.source_id for t in c.iter_turns(user, limit=1)] == ["h1", "h2", "h3"]
        assert [t.source_id for t in c.turns(user, session="s2").turns] == ["h2"]
        turn = c.get_turn(user, "h3")
        assert isinstance(turn, Turn) and turn.text == "I moved to Portland." and turn.fact_ids
        assert c.get_turn(user, turn.id) == turn
        fact = c.get_fact(user, turn.fact_ids[0])
        assert fact.value == "Portland" and fact.invalidation is None

        gone = c.delete_turn(user, "h3")
        assert isinstance(gone, TurnRemoval) and gone.facts == turn.fact_ids
        assert gone.slots == ["user|lives_in"] and not gone.redacted
        boulder = c.get_turn(user, "h2").fact_ids[0]
        wrong = c.invalidate_fact(user, boulder, by="agent:test", reason="never lived there")
        assert wrong.status == "invalid" and wrong.invalidation is not None
        assert wrong.invalidation.by == "agent:test" and isinstance(wrong.invalidation.at,
                                                                     datetime)
        assert c.redact_turn(user, "h1").redacted
        assert c.get_turn(user, "h1").text == "[redacted]"

        up = f"{user}-up"
        lines = [{"user_id": up, "session_id": "u1", "session_time": "2024-01-10T09:00:00Z",
                  "role": "user", "content": "I have two cats."},
                 {"user_id": "someone-else", "session_id": "u1", "role": "user",
                  "session_time": "2024-01-10T09:00:00Z", "content": "Not mine."}]
        report = c.upload(up, "\n".join(json.dumps(x) for x in lines).encode(), format="jsonl")
        assert isinstance(report, UploadResult)
        assert report.sessions == 1 and report.skipped_other_users == 1
        assert c.forget_user(up) > 0
        with pytest.raises(GraphmemHTTPError) as err:
            c.stats(up)
        assert err.value.status == 404 and err.value.code == "unknown_user"
        assert "no memory for user" in err.value.message

    with Client(base, ADMIN_KEY) as admin:
        assert admin.stats().users >= 1


def test_errors_carry_status_code_and_message(base, user):
    with Client(base, USER_KEY) as c:
        with pytest.raises(GraphmemHTTPError) as err:
            c.search(f"{user}-nobody", "anything")
        assert err.value.status == 403 and err.value.code == "forbidden"
        with pytest.raises(GraphmemHTTPError) as err:
            c.get_turn(user, "no-such-turn")
        assert err.value.status == 404 and err.value.code == "not_found"
    with Client(base, ADMIN_KEY) as admin:
        with pytest.raises(GraphmemHTTPError) as err:
            admin.facts(f"{user}-nobody")
        assert err.value.status == 404 and err.value.code == "unknown_user"
        assert f"{user}-nobody" in str(err.value)
    with Client(base, "not-a-known-key") as c:
        with pytest.raises(GraphmemHTTPError) as err:
            c.stats(user)
        assert err.value.status == 401


def test_async_client(base, user):
    async def main() -> None:
        async with AsyncClient(base, USER_KEY, timeout=60) as c:
            assert await c.health() is True
            added = await c.remember(user, "a1", [Message("user", "I work at Acme Robotics.",
                                                          turn_id="a1m1")],
                                     session_time="2024-07-01T09:00:00Z")
            assert isinstance(added, AppendResult) and added.created
            results = await asyncio.gather(c.search(user, "where do I work?", k=3),
                                           c.facts(user), c.stats(user), c.turns(user))
            found, facts, stats, page = results
            assert isinstance(found, SearchResult)
            assert any("Acme" in e.text for e in found.results)
            assert all(isinstance(f, Fact) for f in facts) and isinstance(stats, Stats)
            assert "a1m1" in [t.source_id for t in page.turns]
            assert isinstance(await c.answer(user, "Where do I work?", offline=True), Answer)
            assert (await c.get_turn(user, "a1m1")).text == "I work at Acme Robotics."
            assert (await c.delete_turn(user, "a1m1")).turn_id
            with pytest.raises(GraphmemHTTPError) as err:
                await c.get_turn(user, "a1m1")
            assert err.value.status == 404

    asyncio.run(main())


class _Busy(http.server.BaseHTTPRequestHandler):
    """Answers 503 with Retry-After to the first `busy` requests, then 200."""

    busy = 1
    seen: list[float] = []

    def do_GET(self) -> None:
        type(self).seen.append(time.monotonic())
        if len(self.seen) <= self.busy:
            body, status = b'{"error": {"code": "busy", "message": "busy"}}', 503
        else:
            body, status = json.dumps({"users": 1, "turns": 7}).encode(), 200
        self.send_response(status)
        if status == 503:
            self.send_header("Retry-After", "1")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def busy_stub() -> Iterator[tuple[str, type[_Busy]]]:
    handler = type("Busy", (_Busy,), {"seen": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler
    finally:
        server.shutdown()
        server.server_close()


def test_503_is_retried_after_retry_after(busy_stub):
    url, handler = busy_stub
    with Client(url) as c:
        stats = c.stats("u")
    assert stats == Stats(users=1, turns=7)
    assert len(handler.seen) == 2 and handler.seen[1] - handler.seen[0] >= 0.9
    handler.seen.clear()
    handler.busy = 5  # more than the attempts: the last 503 is raised, with its Retry-After
    with Client(url, retry=RetryPolicy(attempts=2, max_wait=0.1)) as c:
        with pytest.raises(GraphmemHTTPError) as err:
            c.stats("u")
    assert err.value.status == 503 and err.value.retry_after == 1.0 and len(handler.seen) == 2
    assert handler.seen[1] - handler.seen[0] < 0.9  # max_wait bounds the wait
    handler.seen.clear()
    handler.busy = 1

    async def main() -> Stats:
        async with AsyncClient(url) as c:
            return await c.stats("u")

    assert asyncio.run(main()) == Stats(users=1, turns=7) and len(handler.seen) == 2


def test_connection_refused_is_a_remote_error():
    from graphmem.client import RemoteError

    with Client(f"http://127.0.0.1:{free_port()}",
                retry=RetryPolicy(attempts=2, backoff=0.01)) as c:
        with pytest.raises(RemoteError, match="cannot reach graphmem"):
            c.health()
