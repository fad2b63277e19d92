"""The edge-precision audit's ingest: the rules draw their edges with nothing embedded."""

from graphmem.currency import DECIDED_BY_RULES
from graphmem.models import SessionRecord, Transcript, TurnRecord
from graphmem.store.currency import rule_edges
from graphmem_bench.currency_audit import audit_ingestor
from tests.helpers import dt


def test_the_audit_ingest_embeds_nothing_and_the_rules_draw_edges(graph, user_id):
    sessions = [SessionRecord("s1", dt(2024, 3, 1), [TurnRecord("user", "I live in Denver.")]),
                SessionRecord("s2", dt(2024, 6, 1), [TurnRecord("user", "I moved to Boston.")])]
    report = audit_ingestor(graph).ingest_transcript(Transcript(user_id, sessions))
    assert report.turns == 2 and report.facts >= 2
    edges = rule_edges(graph, user_id, DECIDED_BY_RULES)
    assert [(e["type"], e["old_value"], e["new_value"]) for e in edges] == \
        [("SUPERSEDES", "Denver", "Boston")]
    with graph.session() as s:
        embedded = s.run("MATCH (n {user_id: $u}) WHERE n.embedding IS NOT NULL RETURN count(n) AS n",
                         u=user_id).single()["n"]
    assert embedded == 0
