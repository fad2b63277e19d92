"""Ingest into a real Neo4j: counts, provenance at stored offsets, idempotence, isolation, atomicity."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphmem.errors import InputError
from graphmem.extract import OfflineExtractor
from graphmem.ingest import IngestOptions, Ingestor
from graphmem.loaders import load
from graphmem.memory import Memory
from graphmem.models import FactCandidate, SessionRecord, Transcript, TurnRecord
from graphmem.store.admin import forget_user
from tests.helpers import FakeVectors

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "graphmem" / "samples" / "sample.jsonl"
LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json"


def _as_user(user_id: str, path: Path = SAMPLE):
    for t in load(path):
        yield Transcript(user_id=user_id, sessions=t.sessions)


def _counts(graph, user_id):
    return graph.read("stats", user_id=user_id)[0]


def _provenance_violations(graph, user_id):
    with graph.session(read_only=True) as s:
        return s.run(
            """
            MATCH (f:FactEvent {user_id: $u})
            OPTIONAL MATCH (f)-[:DERIVED_FROM]->(p:MessagePiece)<-[:HAS_PIECE]-(t:Turn)
            WITH f, collect({p: p.text, t: t.text, s: p.start, e: p.end}) AS spans
            WHERE size([x IN spans WHERE x.p IS NOT NULL]) = 0
               OR any(x IN spans WHERE substring(x.t, x.s, x.e - x.s) <> x.p)
               OR none(x IN spans WHERE x.p CONTAINS f.support)
            RETURN f.id AS id
            """, u=user_id).data()


def test_sample_ingests_with_provenance_and_is_idempotent(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    first = mem.ingest(_as_user(user_id))
    assert first.sessions == 4 and first.turns == 18
    counts = _counts(graph, user_id)
    assert counts["sessions"] == 4 and counts["turns"] == 18
    assert counts["pieces"] >= 18 and counts["facts"] >= 5 and counts["entities"] >= 3
    assert _provenance_violations(graph, user_id) == []

    again = mem.ingest(_as_user(user_id))
    assert again.sessions == 0 and again.sessions_unchanged == 4
    assert _counts(graph, user_id) == counts

    with graph.session(read_only=True) as s:
        facts = s.run("MATCH (f:FactEvent {user_id: $u}) RETURN f.predicate AS p, f.value AS v, "
                      "f.occurred_start AS start, f.time_text AS tt", u=user_id).data()
        places = s.run("MATCH (e:Entity {user_id: $u}) RETURN e.norm_name AS n",
                       u=user_id).data()
    preds = {(f["p"], (f["v"] or "").lower()) for f in facts}
    assert ("lives_in", "denver") in preds
    assert ("lives_in", "seattle") in preds
    dentist = [f for f in facts if f["tt"] == "yesterday"]
    assert dentist and dentist[0]["start"].iso_format().startswith("2024-02-19")
    names = [p["n"] for p in places]
    assert len(names) == len(set(names))


def test_more_sessions_later_append(graph, user_id):
    mem = Memory(graph, embedder=FakeVectors())
    transcripts = list(_as_user(user_id))
    early = Transcript(user_id, transcripts[0].sessions[:2])
    mem.ingest([early])
    assert _counts(graph, user_id)["sessions"] == 2
    mem.ingest(transcripts)
    assert _counts(graph, user_id)["sessions"] == 4


class ExplodingExtractor:
    """Fails on the third session, after two whole sessions were written."""

    name = "exploding"

    def __init__(self):
        self.inner = OfflineExtractor()

    def extract(self, text, role):
        if "moved to Seattle" in text:
            raise RuntimeError("extractor crashed")
        return self.inner.extract(text, role)


def test_failure_leaves_only_whole_sessions_and_rerun_finishes(graph, user_id):
    ingestor = Ingestor(graph, ExplodingExtractor(), FakeVectors())
    with pytest.raises(RuntimeError):
        ingestor.ingest(_as_user(user_id))
    # planning happens before writing: nothing of the failing user's batch was half-written
    partial = _counts(graph, user_id)
    with graph.session(read_only=True) as s:
        per_session = s.run("MATCH (s:Session {user_id: $u}) "
                            "RETURN s.turn_count AS expected, COUNT { (s)-[:HAS_TURN]->() } AS got",
                            u=user_id).data()
    assert all(r["expected"] == r["got"] for r in per_session)
    assert partial["sessions"] < 4
    Memory(graph, embedder=FakeVectors()).ingest(_as_user(user_id))
    assert _counts(graph, user_id)["sessions"] == 4


def test_users_prepared_ahead_are_written_in_order_and_a_bad_one_stops_after_the_good(
        graph, user_id):
    """Ingest plans and embeds the next user while it writes this one: a user whose file is bad
    fails after every user before it is whole, and nothing of it is written."""
    from datetime import UTC, datetime

    bad, after = user_id + "-bad", user_id + "-after"
    broken = Transcript(bad, [SessionRecord("s1", datetime(2024, 1, 1, tzinfo=UTC),
                                            [TurnRecord("user", "I live in Oslo.")]),
                              SessionRecord("s2", None, [TurnRecord("user", "Hello.")])])
    try:
        with pytest.raises(InputError, match="has no start time"):
            Ingestor(graph, OfflineExtractor(), FakeVectors()).ingest(
                [*_as_user(user_id), broken, *_as_user(after)])
        assert _counts(graph, user_id)["sessions"] == 4
        assert _counts(graph, bad)["sessions"] == 0 and _counts(graph, after)["sessions"] == 0
        # the same session twice in one call is written once
        twice = Ingestor(graph, OfflineExtractor(), FakeVectors()).ingest(
            [*_as_user(after), *_as_user(after)])
        assert twice.users == 2 and twice.sessions == 4 and twice.sessions_unchanged == 4
        assert _counts(graph, after) == _counts(graph, user_id)
    finally:
        forget_user(graph, bad)
        forget_user(graph, after)


class LyingExtractor:
    """Proposes one fact whose words are not in the turn; it must be rejected and counted."""

    name = "lying"

    def extract(self, text, role):
        return [FactCandidate(kind="attribute", predicate="lives_in", text="User lives in Oslo.",
                              support="I live in Oslo", value="Oslo")]


def test_candidates_without_literal_support_are_rejected(graph, user_id):
    t = Transcript(user_id, [SessionRecord("s1", None, [])])
    from datetime import UTC, datetime

    t.sessions[0].started_at = datetime(2024, 1, 1, tzinfo=UTC)
    t.sessions[0].turns = [TurnRecord("user", "I live in Denver.")]
    report = Ingestor(graph, LyingExtractor(), FakeVectors(),
                      IngestOptions(verbose=True)).ingest([t])
    assert report.rejected == 1 and report.facts == 0
    assert "does not occur" in report.rejections[0].reason
    assert _counts(graph, user_id)["facts"] == 0


def test_users_are_isolated_and_forget_removes_only_one(graph, user_id):
    other = user_id + "-other"
    mem = Memory(graph, embedder=FakeVectors())
    try:
        mem.ingest(_as_user(user_id))
        mem.ingest(_as_user(other))
        a, b = _counts(graph, user_id), _counts(graph, other)
        assert a == b
        hits = mem.search(user_id, "I moved to Seattle last weekend")
        assert hits and all(h.source_id for h in hits)
        with graph.session(read_only=True) as s:
            owners = s.run("UNWIND $ids AS id MATCH (t:Turn {id: id}) RETURN DISTINCT t.user_id AS u",
                           ids=[h.id for h in hits]).data()
        assert owners == [{"u": user_id}]
        mem.forget(other)
        assert _counts(graph, other)["sessions"] == 0
        assert _counts(graph, user_id) == a
    finally:
        forget_user(graph, other)


def test_hostile_text_is_stored_verbatim_and_searchable(graph, user_id):
    from datetime import UTC, datetime

    hostile = ('MATCH (n) DETACH DELETE n // "}]) OR 1=1; CALL db.clearQueryCaches() '
               "title:(foo) AND bar~ +baz -qux \\ / ^2 *? é漢字 ") * 2
    big = "I live in Denver. " + ("lorem ipsum " * 90_000)  # ~1 MB message
    t = Transcript(user_id, [SessionRecord("s1", datetime(2024, 1, 1, tzinfo=UTC),
                                           [TurnRecord("user", hostile), TurnRecord("user", big)])])
    Memory(graph, embedder=FakeVectors()).ingest([t])
    with graph.session(read_only=True) as s:
        texts = s.run("MATCH (t:Turn {user_id: $u}) RETURN t.text AS x ORDER BY t.idx",
                      u=user_id).data()
    assert [r["x"] for r in texts] == [hostile, big]
    hits = Memory(graph, embedder=FakeVectors()).search(user_id, hostile)
    assert hits and hits[0].text == hostile


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not present")
def test_locomo_conversation_counts_and_provenance(graph, user_id):
    transcript = next(iter(load(LOCOMO, limit=1)))
    expected_sessions = len(transcript.sessions)
    expected_turns = sum(len(s.turns) for s in transcript.sessions)
    mem = Memory(graph, embedder=FakeVectors())
    mem.ingest([Transcript(user_id, transcript.sessions)])
    counts = _counts(graph, user_id)
    assert counts["sessions"] == expected_sessions and counts["turns"] == expected_turns
    assert counts["facts"] > 0
    assert _provenance_violations(graph, user_id) == []
    with graph.session(read_only=True) as s:
        ids = s.run("MATCH (t:Turn {user_id: $u}) RETURN t.source_id AS id", u=user_id).data()
    assert {"D1:1", "D1:2"} <= {r["id"] for r in ids}
    # both speakers are people: a fact said by one is about that speaker, not about "user"
    speakers = {t.speaker for s in transcript.sessions for t in s.turns}
    with graph.session(read_only=True) as s:
        facts = s.run("MATCH (f:FactEvent {user_id: $u})-[:DERIVED_FROM]->()<-[:HAS_PIECE]-(t) "
                      "RETURN f.subject AS subject, f.text AS text, f.predicate AS predicate, "
                      "t.speaker AS speaker", u=user_id).data()
    assert len(speakers) == 2 and facts
    people = {p.lower() for p in speakers}
    for f in facts:
        if f["predicate"] == "name" and f["subject"] != f["speaker"].lower():
            # "Hey Mel!": being addressed by another name says what the OTHER speaker is called
            assert f["subject"] in people - {f["speaker"].lower()}
            continue
        assert f["subject"] == f["speaker"].lower() and f["text"].startswith(f["speaker"])


def test_killed_ingest_then_rerun_matches_uninterrupted(graph, user_id, tmp_path):
    """Kill a real `graphmem ingest` process mid-run; a re-run reaches the same counts."""
    src = [json.loads(line) for line in SAMPLE.read_text().splitlines()]
    rows = []
    for rep in range(60):  # 240 sessions
        for r in src:
            rows.append({**r, "user_id": user_id, "session_id": f"{r['session_id']}-{rep}"})
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    env = {**os.environ, "NEO4J_URI": graph.uri}
    cmd = [sys.executable, "-m", "graphmem.cli", "ingest", str(path), "--json"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and _counts(graph, user_id)["sessions"] < 5:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    killed_at = _counts(graph, user_id)["sessions"]
    assert 0 < killed_at < 240
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    final = _counts(graph, user_id)
    assert final["sessions"] == 240 and final["turns"] == 60 * 18
    # an uninterrupted run of the same data under another user gives the same counts
    clean = user_id + "-clean"
    try:
        Memory(graph).ingest(Transcript(clean, t.sessions) for t in load(path))
        assert _counts(graph, clean) == {**final, "users": 1}
    finally:
        forget_user(graph, clean)


def test_entities_resolve_by_name_and_by_meaning(graph, user_id):
    from datetime import UTC, datetime

    from graphmem.compose import embedder as configured_embedder

    def session(sid, day, text):
        return SessionRecord(sid, datetime(2024, 1, day, tzinfo=UTC), [TurnRecord("user", text)])

    t = Transcript(user_id, [session("a", 1, "I live in New York City."),
                             session("b", 2, "I moved to NYC last week."),
                             session("c", 3, "I live in Denver, CO."),
                             session("d", 4, "I live in Denver."),
                             session("e", 5, "I moved to Boulder.")])
    Memory(graph, embedder=configured_embedder()).ingest([t])
    with graph.session(read_only=True) as s:
        rows = s.run("MATCH (e:Entity {user_id: $u}) RETURN e.norm_name AS n, e.aliases AS a "
                     "ORDER BY n", u=user_id).data()
    names = {r["n"]: set(r["a"]) for r in rows}
    assert set(names) == {"boulder", "denver", "new york city"}
    assert names["new york city"] == {"New York City", "NYC"}
    assert names["denver"] == {"Denver, CO", "Denver"}
