"""`Graph.in_one_read`: the reads of one unit of work (a search) share one read transaction on
their own thread, and leave nothing behind when the work ends or fails."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord


def _transaction_id(graph) -> str:
    return graph._reading.tx.run(
        "SHOW TRANSACTIONS YIELD transactionId, currentQuery "
        "WHERE currentQuery STARTS WITH 'SHOW TRANSACTIONS' RETURN transactionId").single()[0]


def test_reads_inside_share_one_transaction_and_other_threads_do_not(graph, user_id):
    seen: dict[str, object] = {}

    def other_thread() -> None:
        seen["other"] = getattr(graph._reading, "tx", None)
        seen["other_read"] = graph.read("user_exists", user_id=user_id)

    def work() -> list[str]:
        first = _transaction_id(graph)
        assert graph.read("user_exists", user_id=user_id) == [{"exists": False}]
        inner = graph.in_one_read(lambda: _transaction_id(graph))  # nested: the same one
        th = threading.Thread(target=other_thread)
        th.start()
        th.join()
        return [first, inner, _transaction_id(graph)]

    ids = graph.in_one_read(work)
    assert len(set(ids)) == 1
    assert seen["other"] is None and seen["other_read"] == [{"exists": False}]
    assert getattr(graph._reading, "tx", None) is None  # the transaction ended with the work


def test_a_failing_work_leaves_reads_working(graph, user_id):
    def work() -> None:
        graph.read("user_exists", user_id=user_id)
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        graph.in_one_read(work)
    assert getattr(graph._reading, "tx", None) is None
    assert graph.read("user_exists", user_id=user_id) == [{"exists": False}]


def test_search_runs_in_one_read_transaction(graph, user_id, monkeypatch):
    mem = Memory(graph)
    mem.ingest([Transcript(user_id, [SessionRecord("s1", datetime(2024, 5, 1, tzinfo=UTC), [
        TurnRecord("user", "I adopted a cat named Miso last week.")])])])
    opened: list[int] = []
    real = graph.in_one_read

    def counting(work):
        opened.append(1)
        return real(work)

    monkeypatch.setattr(graph, "in_one_read", counting)
    sessions: list[bool] = []
    real_session = graph.session

    def session(**kw):
        sessions.append(kw.get("read_only", False))
        return real_session(**kw)

    monkeypatch.setattr(graph, "session", session)
    evidence = mem.search(user_id, "What is my cat called?")
    assert evidence and "Miso" in evidence[0].text
    assert opened == [1] and sessions == [True]  # one session for all the search's queries
