"""A very long message: extraction stops on a sentence boundary, so no fact is built from a word
cut in two, every fact still stands on words that occur in the turn, and search output caps the
text it prints per item."""

from __future__ import annotations

import json

from click.testing import CliRunner

from graphmem.cli import main
from graphmem.ingest import MAX_EXTRACT_CHARS
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from tests.helpers import FakeVectors, dt


def test_a_5_mb_message_builds_no_fact_from_a_cut_word(graph, user_id, monkeypatch):
    sentence = "I live in Denver. "
    # chosen so that a plain cut at MAX_EXTRACT_CHARS lands inside "Denver"
    body = sentence * (5_000_000 // len(sentence))
    text = next(t for t in ("Hi" + "!" * k + " " + body for k in range(len(sentence)))
                if t[:MAX_EXTRACT_CHARS].endswith("Denve"))
    memory = Memory(graph, embedder=FakeVectors())
    memory.ingest([Transcript(user_id, [SessionRecord("s1", dt(2024, 1, 10), [
        TurnRecord("user", text), TurnRecord("assistant", "Noted.")])])])
    with graph.session() as s:  # every fact (more than one facts call returns)
        values = {r["v"] for r in s.run("MATCH (f:FactEvent {user_id: $u, predicate: 'lives_in'}) "
                                        "RETURN DISTINCT f.value AS v", u=user_id)}
        assert values == {"Denver"}, values
        bad = s.run("MATCH (f:FactEvent {user_id: $u})-[:DERIVED_FROM]->(p)<-[:HAS_PIECE]-(t) "
                    "WHERE NOT t.text CONTAINS f.support OR NOT p.text CONTAINS f.support "
                    "RETURN count(f) AS n", u=user_id).single()["n"]
        contradictions = s.run("MATCH (:FactEvent {user_id: $u})-[r:CONTRADICTS]->() "
                               "RETURN count(r) AS n", u=user_id).single()["n"]
    assert bad == 0 and contradictions == 0

    monkeypatch.setenv("NEO4J_URI", graph.uri)
    out = CliRunner().invoke(main, ["search", "--user", user_id, "--json", "where do I live?"])
    assert out.exit_code == 0, out.output[-500:]
    assert len(out.stdout) < 50_000  # not the 5 MB turn
    turn = next(e for e in json.loads(out.stdout)["results"] if e["type"] == "turn")
    assert turn["text_truncated"] and turn["text_chars"] == len(text)
