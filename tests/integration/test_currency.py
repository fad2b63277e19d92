"""Currency in a real Neo4j: supersession chains, validity intervals, time travel, backfills."""

import json

from click.testing import CliRunner

from graphmem.cli import main
from graphmem.history import facts_as_of, inspect, timeline
from graphmem.ingest import IngestOptions
from graphmem.memory import Memory
from graphmem.store.admin import forget_user
from tests.helpers import FakeVectors, _transcript, dt


def _ingest(graph, user_id, order=None, currency=True):
    mem = Memory(graph, embedder=FakeVectors(), options=IngestOptions(currency=currency))
    return mem.ingest([_transcript(user_id, order)])


def _slot(graph, user_id, predicate):
    rows = facts_as_of(graph, user_id, predicate=predicate, history=True)
    return [(r["value"], r["status"], r["valid_from"], r["valid_until"]) for r in rows]


def _value_at(graph, user_id, predicate, when):
    rows = facts_as_of(graph, user_id, when, predicate=predicate)
    return sorted(r["value"] for r in rows if r["modality"] == "asserted")


def test_city_move_and_time_travel(graph, user_id):
    _ingest(graph, user_id)
    lives = _slot(graph, user_id, "lives_in")
    denver, seattle, portland, not_portland = lives
    weekend = dt(2024, 3, 30, 0)  # "last weekend" said on Tue 2 April 2024
    assert denver == ("Denver", "superseded", dt(2024, 1, 10), weekend)
    assert seattle == ("Seattle", "active", weekend, None)  # the retraction restores it
    assert portland[1] == "invalid"  # retracted: it never held
    assert not_portland[1] == "active"
    # "Where did I live in February 2024?" and at each boundary
    assert _value_at(graph, user_id, "lives_in", dt(2024, 2, 15)) == ["Denver"]
    assert _value_at(graph, user_id, "lives_in", dt(2024, 3, 29, 23)) == ["Denver"]
    assert _value_at(graph, user_id, "lives_in", weekend) == ["Seattle"]
    assert _value_at(graph, user_id, "lives_in", dt(2024, 7, 10)) == ["Seattle"]
    assert _value_at(graph, user_id, "lives_in", None) == ["Seattle"]
    assert _value_at(graph, user_id, "lives_in", dt(2023, 12, 1)) == []


def test_job_change_favourites_counts_and_preferences(graph, user_id):
    _ingest(graph, user_id)
    jobs = _slot(graph, user_id, "works_at")
    assert [(v, s) for v, s, *_ in jobs] == [
        ("Acme Robotics", "superseded"), ("Acme Robotics", "superseded"), ("Boeing", "active")]
    assert _value_at(graph, user_id, "works_at", dt(2024, 2, 1)) == ["Acme Robotics"]
    assert _value_at(graph, user_id, "works_at", dt(2024, 5, 1)) == ["Boeing"]

    fav = _slot(graph, user_id, "favorite_restaurant")
    assert [(v, s) for v, s, *_ in fav] == [("Sushi Den", "superseded"), ("Canlis", "superseded"),
                                           ("Pike Place Chowder", "active")]
    assert fav[0][3] == dt(2024, 3, 5) and fav[1][3] == dt(2024, 6, 15)
    assert _value_at(graph, user_id, "favorite_restaurant", dt(2024, 4, 1)) == ["Canlis"]

    cats = facts_as_of(graph, user_id, predicate="owns_count:cat", history=True)
    assert [(r["quantity"], r["status"]) for r in cats] == [(2.0, "superseded"), (3.0, "active")]

    spicy = facts_as_of(graph, user_id, history=True)
    stance = [(r["predicate"], r["status"]) for r in spicy if r["value"] == "spicy food"]
    assert stance == [("likes", "superseded"), ("reduces", "active")]


def test_edges_types_and_superseded_fact_still_cites_its_turn(graph, user_id):
    _ingest(graph, user_id)
    with graph.session(read_only=True) as s:
        edges = s.run("MATCH (a:FactEvent {user_id: $u})-[r]->(b:FactEvent) "
                      "RETURN type(r) AS t, a.predicate AS p, r.decided_by AS by", u=user_id).data()
    kinds = {(e["t"], e["p"]) for e in edges}
    assert ("SUPERSEDES", "lives_in") in kinds
    assert ("UPDATES", "owns_count:cat") in kinds
    assert ("CONTRADICTS", "lives_in") in kinds
    assert ("SUPERSEDES", "favorite_restaurant") in kinds
    assert {e["by"] for e in edges} == {"rules"}
    denver = next(r for r in facts_as_of(graph, user_id, history=True) if r["value"] == "Denver")
    card = inspect(graph, user_id, denver["id"])
    assert card["fact"]["status"] == "superseded"
    assert card["sources"][0]["span"] == "I live in Denver"
    assert card["sources"][0]["session_source_id"] == "s1"
    assert any(c["type"] == "SUPERSEDES" and c["direction"] == "in" for c in card["changes"])


def _state(graph, user_id):
    rows = facts_as_of(graph, user_id, history=True)
    with graph.session(read_only=True) as s:
        edges = s.run("MATCH (a:FactEvent {user_id: $u})-[r]->(b:FactEvent) "
                      "RETURN a.text + ' ' + type(r) + ' ' + b.text AS e ORDER BY e",
                      u=user_id).data()
    return (sorted((r["text"], r["status"], r["valid_from"], r["valid_until"]) for r in rows),
            [e["e"] for e in edges])


def test_backfill_out_of_order_gives_the_same_state(graph, user_id):
    _ingest(graph, user_id)
    in_order = _state(graph, user_id)
    other = user_id + "-backfill"
    try:
        _ingest(graph, other, order=[3, 5, 0, 4, 2, 1])
        assert _state(graph, other) == in_order
    finally:
        forget_user(graph, other)


def test_without_currency_everything_stays_active(graph, user_id):
    _ingest(graph, user_id, currency=False)
    assert {r["status"] for r in facts_as_of(graph, user_id, history=True)} == {"active"}


def test_timeline_and_inspect_cli(graph, user_id, monkeypatch):
    _ingest(graph, user_id)
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    runner = CliRunner()
    out = runner.invoke(main, ["timeline", "--user", user_id, "--predicate", "lives_in"])
    assert out.exit_code == 0, out.output
    assert out.output.index("Denver") < out.output.index("Seattle") < out.output.index("Portland")
    assert "superseded" in out.output and "turn s1_1" in out.output
    js = runner.invoke(main, ["timeline", "--user", user_id, "--entity", "seattle", "--json"])
    rows = json.loads(js.output)
    assert rows and all("Seattle" in r["text"] for r in rows)
    fact_id = rows[0]["id"]
    card = runner.invoke(main, ["inspect", "--user", user_id, fact_id])
    assert card.exit_code == 0 and ">>>I moved to Seattle last weekend<<<" in card.output
    assert runner.invoke(main, ["inspect", "--user", user_id, "s3_1"]).exit_code == 0
    ent = runner.invoke(main, ["inspect", "--user", user_id, "Seattle"])
    assert ent.exit_code == 0 and "Entity" in ent.output
    cur = runner.invoke(main, ["facts", "--user", user_id, "--as-of", "2024-02-15",
                               "--predicate", "lives_in"])
    assert "Denver" in cur.output and "Seattle" not in cur.output
    bad = runner.invoke(main, ["inspect", "--user", user_id, "no-such-id"])
    assert bad.exit_code == 1 and "has no fact" in bad.stderr
    unknown = runner.invoke(main, ["timeline", "--user", user_id + "-nobody"])
    assert unknown.exit_code == 1 and "no memory for user" in unknown.stderr


def test_timeline_since_until(graph, user_id):
    _ingest(graph, user_id)
    rows = timeline(graph, user_id, since=dt(2024, 3, 1), until=dt(2024, 5, 1))
    assert rows and all(dt(2024, 3, 1) <= (r["occurred_start"] or r["mentioned_at"])
                        < dt(2024, 5, 1) for r in rows)


def test_browser_queries_run_and_show_the_chains(graph, user_id):
    from importlib import resources

    from graphmem.browser import ready_queries

    _ingest(graph, user_id)
    queries = ready_queries()
    assert len(queries) >= 5
    counts = []
    with graph.session(read_only=True) as s:
        for q in queries:
            counts.append(len(s.run(q.cypher, {**q.defaults, "user": user_id}).data()))
    assert all(c > 0 for c in counts), counts
    grass = resources.files("graphmem").joinpath("browser/graphmem.grass").read_text()
    for label in ("FactEvent", "MessagePiece", "Entity", "SUPERSEDES", "UPDATES", "CONTRADICTS"):
        assert f".{label} {{" in grass
