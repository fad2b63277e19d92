"""Appending messages to a live session: only the new turns are written, re-sending changes
nothing, and currency is re-decided for the slots the new facts touch."""

from graphmem.errors import InputError
from graphmem.history import facts_as_of
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.store.admin import stats
from tests.helpers import FakeVectors, dt


def test_append_after_ingest_touches_only_new_turns(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, [SessionRecord("s1", dt(2024, 1, 10), [
        TurnRecord("user", "I live in Denver.", source_id="a1"),
        TurnRecord("assistant", "Nice city.", source_id="a2")])])])
    before = stats(graph, user_id)
    r = mem.append(user_id, "s1", [TurnRecord("user", "I moved to Portland.", source_id="a3")])
    assert not r.created and [(t.idx, t.source_id) for t in r.added] == [(3, "a3")]
    after = stats(graph, user_id)
    assert after["turns"] == before["turns"] + 1 and after["sessions"] == 1
    assert after["pieces"] == before["pieces"] + r.pieces and r.facts == 1
    lives = {f["value"]: f["status"] for f in facts_as_of(graph, user_id, history=True)
             if f["predicate"] == "lives_in"}
    assert lives == {"Denver": "superseded", "Portland": "active"}
    # The appended turn is anchored at the session's date and chained after the last turn.
    with graph.session(read_only=True) as s:
        rows = s.run("MATCH (a:Turn {user_id: $u, source_id: 'a2'})-[:NEXT]->(b:Turn) "
                     "RETURN b.source_id AS b, b.mentioned_at AS at", u=user_id).data()
    assert rows[0]["b"] == "a3" and rows[0]["at"].to_native() == dt(2024, 1, 10)
    again = mem.append(user_id, "s1", [TurnRecord("user", "I moved to Portland.", source_id="a3")])
    assert again.added == [] and again.unchanged == ["a3"]
    assert stats(graph, user_id) == after


def test_append_creates_user_and_session_and_checks_input(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    r = mem.append(user_id, "live", [TurnRecord("user", "I have two cats.")],
                   session_time=dt(2024, 5, 1))
    assert r.created and r.added[0].idx == 1
    assert mem.stats(user_id)["sessions"] == 1
    for bad in ([], [TurnRecord("user", "  ")], [TurnRecord("", "hi")]):
        try:
            mem.append(user_id, "live", bad)
        except InputError:
            continue
        raise AssertionError(f"accepted {bad!r}")
    assert mem.stats(user_id)["turns"] == 1
