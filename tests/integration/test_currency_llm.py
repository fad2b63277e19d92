"""Currency decided by an LLM (scripted over real HTTP) in a real Neo4j: the model names the
relation, the code fixes direction and intervals, the edge records who decided."""

import json
from dataclasses import replace

import pytest

from graphmem.history import facts_as_of
from graphmem.ingest import IngestOptions
from graphmem.llm import LLMClient, LLMError
from graphmem.memory import Memory
from graphmem.models import FactCandidate, RoleRef, SessionRecord, Transcript, TurnRecord
from graphmem.relate import LLMRelationJudge
from graphmem.store.admin import forget_user
from tests import llmstub
from tests.helpers import FakeVectors, dt
from tests.llmstub import StubReply

llm_stub = llmstub.llm_stub

MARATHON = RoleRef("object", "Boston Marathon", "activity")
# Registry predicates whose facts no slot rule links (a value-keyed `learning`, `did` events), so
# any edge between them is the model's. Sentence -> the candidate a scripted extractor proposes.
FACTS = {
    "I work as a junior analyst.": FactCandidate(
        "attribute", "learning", "The user works as a junior analyst.", "I work as a junior analyst",
        value="junior analyst"),
    "I got promoted to senior analyst.": FactCandidate(
        "attribute", "learning", "The user is a senior analyst.", "I got promoted to senior analyst",
        value="senior analyst"),
    "I live in Denver.": FactCandidate(
        "attribute", "lives_in", "The user lives in Denver.", "I live in Denver", value="Denver"),
    "I live in Seattle.": FactCandidate(
        "attribute", "lives_in", "The user lives in Seattle.", "I live in Seattle", value="Seattle"),
    "I'm training for the Boston Marathon.": FactCandidate(
        "plan", "did", "The user is training for the Boston Marathon.",
        "I'm training for the Boston Marathon", value="Boston Marathon", roles=[MARATHON]),
    "I dropped out of the Boston Marathon.": FactCandidate(
        "event", "did", "The user dropped out of the Boston Marathon.",
        "I dropped out of the Boston Marathon", value="Boston Marathon", roles=[MARATHON]),
}
SESSIONS = [
    ("s1", dt(2024, 1, 10), ["I work as a junior analyst.", "I live in Denver."]),
    ("s2", dt(2024, 2, 1), ["I got promoted to senior analyst.", "I live in Seattle."]),
    ("s3", dt(2024, 3, 1), ["I'm training for the Boston Marathon."]),
    ("s4", dt(2024, 4, 1), ["I dropped out of the Boston Marathon."]),
]
# What the scripted model answers for a pair of fact texts (either order); anything else: none.
RELATIONS = {
    frozenset({"The user works as a junior analyst.", "The user is a senior analyst."}): "supersedes",
    frozenset({"The user is training for the Boston Marathon.",
               "The user dropped out of the Boston Marathon."}): "supersedes",
}


class ScriptedExtractor:
    name = "scripted"

    def extract(self, text, role):
        return [FACTS[text]] if role == "user" and text in FACTS else []


def _transcript(user_id, order=(0, 1, 2, 3)):
    sessions = [SessionRecord(sid, when, [TurnRecord("user", t) for t in texts])
                for sid, when, texts in (SESSIONS[i] for i in order)]
    return Transcript(user_id, sessions)


def _judge_reply(relations=RELATIONS):
    """A stub reply computed from the request: the pairs it was asked about, answered from
    `relations`, so the script does not depend on the order sessions arrive in."""
    def reply(body):
        listed = json.loads(body["messages"][-1]["content"].split("\n", 1)[1])
        out = [{"new": n["id"], "candidate": c["id"],
                "relation": relations.get(frozenset({n["text"], c["text"]}), "none")}
               for n in listed for c in n["candidates"]]
        return StubReply(content=json.dumps({"relations": out}))
    return reply


def _asked_pairs(stub, since=0):
    pairs = []
    for i in range(since, len(stub.requests)):
        listed = json.loads(stub.prompt_text(i).split("(JSON):\n", 1)[1])
        pairs += [{n["text"], c["text"]} for n in listed for c in n["candidates"]]
    return pairs


def _memory(graph, stub):
    judge = LLMRelationJudge(LLMClient(stub.config(max_retries=0)))
    return Memory(graph, extractor=ScriptedExtractor(), embedder=FakeVectors(),
                  options=IngestOptions(relation_judge=judge))


def _state(graph, user_id):
    rows = facts_as_of(graph, user_id, history=True)
    facts = {r["text"]: (r["status"], r["valid_from"], r["valid_until"]) for r in rows}
    with graph.session(read_only=True) as s:
        edges = s.run("MATCH (a:FactEvent {user_id: $u})-[r]->(b:FactEvent) "
                      "RETURN a.text AS a, type(r) AS type, b.text AS b, r.decided_by AS by, "
                      "r.at AS at ORDER BY a, b", u=user_id).data()
    return facts, [(e["a"], e["type"], e["b"], e["by"], e["at"].to_native()) for e in edges]


def test_llm_decides_relations_beyond_the_slot_rules(graph, user_id, llm_stub):
    for _ in range(4):
        llm_stub.push(_judge_reply())
    report = _memory(graph, llm_stub).ingest([_transcript(user_id)])
    facts, edges = _state(graph, user_id)
    assert facts["The user works as a junior analyst."] == ("superseded", dt(2024, 1, 10),
                                                            dt(2024, 2, 1))
    assert facts["The user is a senior analyst."] == ("active", dt(2024, 2, 1), None)
    assert facts["The user is training for the Boston Marathon."] == (
        "superseded", dt(2024, 3, 1), dt(2024, 4, 1))
    assert facts["The user dropped out of the Boston Marathon."][0] == "active"
    assert ("The user is a senior analyst.", "SUPERSEDES", "The user works as a junior analyst.",
            "llm:stub-model", dt(2024, 2, 1)) in edges
    assert ("The user dropped out of the Boston Marathon.", "SUPERSEDES",
            "The user is training for the Boston Marathon.", "llm:stub-model",
            dt(2024, 4, 1)) in edges
    # The slot rules still decide their own slot, and the model was never asked about it.
    assert ("The user lives in Seattle.", "SUPERSEDES", "The user lives in Denver.", "rules",
            dt(2024, 2, 1)) in edges
    assert not any({"The user lives in Denver.", "The user lives in Seattle."} == pair
                   for pair in _asked_pairs(llm_stub))
    assert report.judged_links == 2
    # Time travel agrees with the intervals.
    in_jan = {r["text"] for r in facts_as_of(graph, user_id, dt(2024, 1, 20))}
    assert "The user works as a junior analyst." in in_jan
    assert "The user is a senior analyst." not in in_jan


def test_a_question_date_reads_the_model_s_edges_known_then(graph, user_id, llm_stub):
    """Asked on a date, memory decides the slots from the facts known then, and the model's
    edges from facts known then still close their facts (as at ingest); an edge from a fact
    said later does not."""
    for _ in range(4):
        llm_stub.push(_judge_reply())
    _memory(graph, llm_stub).ingest([_transcript(user_id)])
    junior, senior = "The user works as a junior analyst.", "The user is a senior analyst."

    def known(on):
        return {r["text"]: (r["status"], r["valid_until"])
                for r in facts_as_of(graph, user_id, history=True, question_date=on)}

    # Facts were said after both dates (the marathon), so each decides its slots again.
    in_feb = known(dt(2024, 2, 15))
    assert in_feb[junior] == ("superseded", dt(2024, 2, 1)) and in_feb[senior][0] == "active"
    in_jan = known(dt(2024, 1, 20))
    assert in_jan[junior] == ("active", None) and senior not in in_jan
    # A date after every fact reads the stored statuses: the same as the slot rules and the
    # model's edges decide again.
    assert known(dt(2024, 6, 1))[junior] == ("superseded", dt(2024, 2, 1))


def test_llm_relations_are_order_independent(graph, user_id, llm_stub):
    for _ in range(8):
        llm_stub.push(_judge_reply())
    _memory(graph, llm_stub).ingest([_transcript(user_id)])
    backfill = f"{user_id}-backfill"
    try:
        _memory(graph, llm_stub).ingest([_transcript(backfill, order=(3, 1, 2, 0))])
        assert _state(graph, backfill) == _state(graph, user_id)
    finally:
        forget_user(graph, backfill)


def test_none_draws_no_edge_and_the_model_sees_only_this_users_facts(graph, user_id, llm_stub):
    other = f"{user_id}-other"
    try:
        for _ in range(4):
            llm_stub.push(_judge_reply({}))
        _memory(graph, llm_stub).ingest([_transcript(other, order=(0,))])
        asked_before = len(llm_stub.requests)
        _memory(graph, llm_stub).ingest([_transcript(user_id, order=(0, 1))])
        facts, edges = _state(graph, user_id)
        assert facts["The user works as a junior analyst."][0] == "active"
        assert all(by == "rules" for *_, by, _at in edges)
        prompts = [json.loads(llm_stub.prompt_text(i).split("(JSON):\n", 1)[1])
                   for i in range(asked_before, len(llm_stub.requests))]
        assert len(prompts) == 1  # one request per session with candidates, none for s1
        assert [[c["text"] for c in n["candidates"]] for n in prompts[0]] == [
            ["The user works as a junior analyst."]]
    finally:
        forget_user(graph, other)


def test_garbage_from_the_model_writes_nothing_for_that_session(graph, user_id, llm_stub):
    llm_stub.reply("no idea").reply('{"relations": [{"new": "N1", "relation": "maybe"}]}')
    mem = _memory(graph, llm_stub)
    mem.ingest([_transcript(user_id, order=(0,))])  # no candidates: no request
    with pytest.raises(LLMError, match="unusable JSON"):
        mem.ingest([_transcript(user_id, order=(0, 1))])
    assert graph.read("stats", user_id=user_id)[0]["sessions"] == 1
    facts, _ = _state(graph, user_id)
    assert facts["The user works as a junior analyst."][0] == "active"


ACME = RoleRef("employer", "Acme", "organization")
FACTS.update({
    "I work at Acme.": FactCandidate("attribute", "works_at", "The user works at Acme.",
                                     "I work at Acme", value="Acme", roles=[ACME]),
    "I left Acme for good.": FactCandidate("event", "left", "The user left Acme.",
                                           "I left Acme for good", value="Acme", roles=[ACME]),
    "I still remember that I work at Acme.": FactCandidate(
        "attribute", "works_at", "The user works at Acme (again).", "I work at Acme",
        value="Acme", roles=[ACME]),
})


def test_a_later_rules_decision_keeps_what_the_llm_closed(graph, user_id, llm_stub):
    relations = {frozenset({"The user works at Acme.", "The user left Acme."}): "supersedes"}
    for _ in range(3):
        llm_stub.push(_judge_reply(relations))
    sessions = [("a1", dt(2024, 1, 1), ["I work at Acme."]),
                ("a2", dt(2024, 2, 1), ["I left Acme for good."]),
                # Re-decides the works_at slot by the rules (a reaffirmation of the same value).
                ("a3", dt(2024, 3, 1), ["I still remember that I work at Acme."])]
    _memory(graph, llm_stub).ingest([Transcript(user_id, [
        SessionRecord(sid, when, [TurnRecord("user", t) for t in texts])
        for sid, when, texts in sessions])])
    facts, edges = _state(graph, user_id)
    assert facts["The user works at Acme."] == ("superseded", dt(2024, 1, 1), dt(2024, 2, 1))
    assert ("The user left Acme.", "SUPERSEDES", "The user works at Acme.", "llm:stub-model",
            dt(2024, 2, 1)) in edges
    assert facts["The user works at Acme (again)."][0] == "active"


def test_a_fact_read_in_passing_is_neither_asked_about_nor_offered(graph, user_id, llm_stub):
    """A mention (a state the learned extractor read in passing) ends nothing and is ended
    without an edge by the rules; the relation judge is not asked to end it either, nor is a
    new mention asked about."""
    passing = {t: replace(FACTS[t], competes=False) for t in (
        "I work as a junior analyst.", "I'm training for the Boston Marathon.")}

    class Passing(ScriptedExtractor):
        def extract(self, text, role):
            return [passing.get(text, FACTS.get(text))] if role == "user" and text in FACTS else []

    for _ in range(4):
        llm_stub.push(_judge_reply())
    judge = LLMRelationJudge(LLMClient(llm_stub.config(max_retries=0)))
    Memory(graph, extractor=Passing(), embedder=FakeVectors(),
           options=IngestOptions(relation_judge=judge)).ingest([_transcript(user_id)])
    facts, edges = _state(graph, user_id)
    asked = _asked_pairs(llm_stub)
    assert not any("The user works as a junior analyst." in pair for pair in asked)
    assert not any("The user is training for the Boston Marathon." in pair for pair in asked)
    assert facts["The user works as a junior analyst."][0] == "active"
    assert facts["The user is training for the Boston Marathon."][0] == "active"
    assert not any(by != "rules" for *_, by, _at in edges)


def test_mentions_take_no_stated_candidate_s_place(graph, user_id, llm_stub):
    """Mentions are left out in each way before its limit (four per way by default): five newer
    mentions of the predicate do not push the stated fact out of the judge's candidates."""
    said = {f"I was reading up on role {n}.": replace(FactCandidate(
        "attribute", "learning", f"The user reads about role {n}.", f"reading up on role {n}",
        value=f"role {n}"), competes=False) for n in range(5)}

    class Passing(ScriptedExtractor):
        def extract(self, text, role):
            if role != "user":
                return []
            return [said[text]] if text in said else [FACTS[text]] if text in FACTS else []

    for _ in range(8):
        llm_stub.push(_judge_reply())
    judge = LLMRelationJudge(LLMClient(llm_stub.config(max_retries=0)))
    days = [("s1", dt(2024, 1, 10), ["I work as a junior analyst."])]
    days += [(f"m{n}", dt(2024, 1, 11 + n), [t]) for n, t in enumerate(said)]
    days += [("s2", dt(2024, 2, 1), ["I got promoted to senior analyst."])]
    Memory(graph, extractor=Passing(), embedder=FakeVectors(),
           options=IngestOptions(relation_judge=judge)).ingest([Transcript(user_id, [
               SessionRecord(sid, when, [TurnRecord("user", t) for t in texts])
               for sid, when, texts in days])])
    asked = _asked_pairs(llm_stub)
    assert {"The user works as a junior analyst.", "The user is a senior analyst."} in asked
    assert not any(p & {f"The user reads about role {n}." for n in range(5)} for p in asked)
    facts, _ = _state(graph, user_id)
    assert facts["The user works as a junior analyst."][0] == "superseded"
