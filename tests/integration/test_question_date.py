"""The question date as "now" and current-first ranking, through the API and the CLI."""

import json

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.compose import embedder as configured_embedder
from graphmem.history import facts_as_of, timeline
from graphmem.memory import Memory
from graphmem.models import SessionRecord, Transcript, TurnRecord
from tests.helpers import dt


@pytest.fixture(scope="module")
def minilm():
    return configured_embedder()


def _sessions(*items):
    return [SessionRecord(f"s{i}", when, [TurnRecord("user", text, source_id=f"s{i}_0"),
                                          TurnRecord("assistant", "Okay.", source_id=f"s{i}_1")])
            for i, (when, text) in enumerate(items)]


def _load(graph, user_id, minilm, *items):
    mem = Memory(graph, embedder=minilm)
    mem.ingest([Transcript(user_id, _sessions(*items))])
    return mem


def test_nothing_said_after_the_question_date_is_known(graph, user_id, minilm, monkeypatch):
    mem = _load(graph, user_id, minilm,
                (dt(2024, 1, 10), "My favorite bakery is Tartine."),
                (dt(2024, 7, 1), "My favorite bakery is now Arsicault."))
    q = "What is my favorite bakery?"
    may = dt(2024, 5, 1)
    found = mem.search(user_id, q, question_date=may)
    assert "Tartine" in found[0].text and found[0].status in (None, "active")
    assert all("Arsicault" not in e.text for e in found)
    assert "Arsicault" in mem.search(user_id, q)[0].text  # no question date: today
    assert "Arsicault" in mem.search(user_id, q, question_date=dt(2024, 8, 1))[0].text
    assert "Tartine" in mem.search(user_id, q, as_of=may)[0].text  # as_of still time-travels
    known = facts_as_of(graph, user_id, question_date=may)
    assert [(r["value"], r["status"]) for r in known] == [("Tartine", "active")]
    history = timeline(graph, user_id, question_date=may)
    assert [r["value"] for r in history] == ["Tartine"] and history[0]["valid_until"] is None

    monkeypatch.setenv("NEO4J_URI", graph.uri)
    runner = CliRunner()
    out = runner.invoke(main, ["search", "--user", user_id, "--question-date", "2024-05-01",
                               "--json", q])
    assert out.exit_code == 0, out.output
    results = json.loads(out.output)["results"]
    assert "Tartine" in results[0]["text"]
    assert all("Arsicault" not in r["text"] for r in results)
    facts = runner.invoke(main, ["facts", "--user", user_id, "--question-date", "2024-05-01"])
    assert facts.exit_code == 0 and "Tartine" in facts.output and "Arsicault" not in facts.output
    tl = runner.invoke(main, ["timeline", "--user", user_id, "--question-date", "2024-05-01"])
    assert tl.exit_code == 0 and "Tartine" in tl.output and "Arsicault" not in tl.output
    bad = runner.invoke(main, ["facts", "--user", user_id, "--question-date", "not a date"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


def test_a_question_date_after_every_fact_decides_no_slot_again(graph, user_id, minilm,
                                                                monkeypatch):
    """When no fact was mentioned after the question date, the stored statuses are the statuses
    on that date: the search asks that inside its tunnels' query and decides no slot again; with
    a later fact, it does, and the search is as before."""
    import graphmem.knowledge as knowledge
    import graphmem.retrieval as retrieval
    from graphmem.store import currency as store

    mem = _load(graph, user_id, minilm,
                (dt(2024, 1, 10), "I work at Acme as a welder."),
                (dt(2024, 4, 2), "I left Acme and I work at Boeing now."),
                (dt(2024, 7, 1), "My favorite bakery is Tartine."))
    q = "Where do I work?"
    assert not store.facts_mentioned_after(graph, user_id, dt(2024, 8, 1))
    assert store.facts_mentioned_after(graph, user_id, dt(2024, 5, 1))
    late, between = dt(2024, 8, 1), dt(2024, 5, 1)
    calls = []
    real = knowledge.decisions_known_at

    def counted(*args, **kwargs):
        calls.append(kwargs.get("later"))
        return real(*args, **kwargs)

    monkeypatch.setattr(retrieval, "decisions_known_at", counted)
    found = mem.search(user_id, q, question_date=late)
    assert calls == [False]  # told by the tunnels' query: nothing later, nothing asked
    assert knowledge.decisions_known_at(graph, user_id, ["user|works_at"], late) == {}
    forced = retrieval.Retriever._known_at
    monkeypatch.setattr(retrieval.Retriever, "_known_at",
                        lambda self, u, rows, k, redecide=None: forced(self, u, rows, k, True))
    again = mem.search(user_id, q, question_date=late)
    assert [(e.id, e.status, e.score) for e in found] == [
        (e.id, e.status, e.score) for e in again]
    assert "Boeing" in found[0].text
    monkeypatch.setattr(retrieval.Retriever, "_known_at", forced)
    calls.clear()
    mem.search(user_id, q, question_date=between)
    assert calls == [True]  # the bakery came later: the slots are decided again


def test_an_append_keeps_the_order_of_sessions_said_at_the_same_time(graph, user_id, minilm,
                                                                     monkeypatch):
    """Two sessions stamped with the same time: the one memory wrote later wins the tie. An
    append to the first one (a message with no fact) must not make it the later one: the append
    re-decides only its own facts' slots, so the stored Seattle would stay while the rules would
    now say Denver, and a question date would answer by whichever it read."""
    from graphmem import knowledge

    same = dt(2024, 3, 1)
    mem = Memory(graph, embedder=minilm)
    mem.ingest([Transcript(user_id, [
        SessionRecord("a", same, [TurnRecord("user", "I live in Denver.", source_id="a0")]),
        SessionRecord("b", same, [TurnRecord("user", "I live in Seattle.", source_id="b0")])])])
    mem.append(user_id, "a", [TurnRecord("user", "Okay, thanks.", source_id="a1")],
               session_time=same)
    stored = {f.value: f.status for f in mem.facts(user_id, history=True)
              if f.predicate == "lives_in"}
    assert stored == {"Seattle": "active", "Denver": "superseded"}
    asked = dt(2024, 6, 1)
    monkeypatch.setattr(knowledge.store, "facts_mentioned_after", lambda *a: True)
    decided = knowledge.decisions_known_at(graph, user_id, ["user|lives_in"],
                                           knowledge.cutoff(asked))
    assert {d.id: d.status for d in decided.values()} == {
        f.id: f.status for f in mem.facts(user_id, history=True) if f.predicate == "lives_in"}


def test_ask_offline_uses_the_question_date(graph, user_id, minilm, monkeypatch):
    mem = _load(graph, user_id, minilm, (dt(2024, 1, 10), "I live in Denver."),
                (dt(2024, 6, 1), "I moved to Seattle."))
    early = mem.answer(user_id, "Where do I live now?", question_date=dt(2024, 3, 1))
    assert "Denver" in early.text and "Seattle" not in early.text
    late = mem.answer(user_id, "Where do I live now?", question_date=dt(2024, 7, 1))
    assert "Seattle" in late.text.split("\n")[1]
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    out = CliRunner().invoke(main, ["ask", "--user", user_id, "--offline", "--question-date",
                                    "2024-03-01", "Where do I live now?"])
    assert out.exit_code == 0, out.output
    assert "Denver" in out.output and "Seattle" not in out.output


def test_the_current_employer_ranks_above_the_stale_role_turn(graph, user_id, minilm,
                                                              monkeypatch):
    mem = _load(graph, user_id, minilm,
                (dt(2024, 1, 5), "I'm a QA lead at Initech and I love the people there."),
                (dt(2024, 4, 2), "I left Initech and joined Hooli last month."))
    res = mem.search_full(user_id, "Where do I work now?")
    ranking = res.turn_ranking
    assert ranking.index("s1_0") < ranking.index("s0_0")
    assert "Hooli" in res.evidence[0].text
    old_role = [r for r in facts_as_of(graph, user_id, history=True)
                if r["predicate"] == "occupation"]
    assert [r["status"] for r in old_role] == ["superseded"]
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    out = CliRunner().invoke(main, ["search", "--user", user_id, "--json", "Where do I work now?"])
    assert out.exit_code == 0, out.output
    turns = [t for r in json.loads(out.output)["results"] for t in r["source_turn_ids"]]
    assert turns.index("s1_0") < (turns.index("s0_0") if "s0_0" in turns else len(turns))
