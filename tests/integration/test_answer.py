"""The whole answering loop — retrieval in a real Neo4j, planner tool calls, reader — against a
scripted OpenAI-compatible server over real HTTP."""

import json
import re

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.ingest import IngestOptions
from graphmem.llm import LLMClient, LLMError
from graphmem.memory import Memory
from graphmem.store.admin import forget_user
from tests import llmstub
from tests.helpers import FakeVectors, _transcript, dt
from tests.llmstub import StubReply

llm_stub = llmstub.llm_stub
QDATE = dt(2024, 8, 1)
QUESTION = "When did I move to Seattle?"


@pytest.fixture
def memory_user(graph, user_id):
    Memory(graph, embedder=FakeVectors(), options=IngestOptions()).ingest([_transcript(user_id)])
    return user_id


def _memory(graph, stub, **config):
    return Memory(graph, embedder=FakeVectors(), llm=LLMClient(stub.config(**config)))


def _handle(body, word):
    """The handle of the first pool turn whose line mentions `word`, read from the prompt."""
    text = "\n".join(str(m.get("content") or "") for m in body["messages"])
    for line in text.splitlines():
        m = re.match(r"\[turn:(T\d+)\]", line.strip())
        if m and word in line:
            return m.group(1)
    raise AssertionError(f"no pool turn mentions {word!r}")


def finish_on(word):
    return lambda body: StubReply(tool_calls=[{"name": "finish", "arguments": {
        "evidence": [_handle(body, word)]}}], prompt_tokens=300, completion_tokens=15)


def reader_says(template, word="Seattle", not_in_memory=False):
    return lambda body: StubReply(content=json.dumps({
        "answer": template.format(h=_handle(body, word)), "not_in_memory": not_in_memory}),
        prompt_tokens=500, completion_tokens=30)


def _seattle_turn(graph, user_id):
    with graph.session(read_only=True) as s:
        return s.run("MATCH (t:Turn {user_id: $u}) WHERE t.text CONTAINS 'moved to Seattle' "
                     "RETURN t.id AS id", u=user_id).single()["id"]


def test_normal_answer_cites_valid_turns_and_counts_cost(graph, memory_user, llm_stub):
    llm_stub.push(finish_on("Seattle")).push(reader_says("You live in Seattle [turn:{h}]."))
    mem = _memory(graph, llm_stub, price_in_per_1m=1.0, price_out_per_1m=2.0)
    ans = mem.answer(memory_user, QUESTION, question_date=QDATE)
    seattle = _seattle_turn(graph, memory_user)
    assert ans.text == f"You live in Seattle [{seattle}]."
    assert [c.turn_id for c in ans.citations] == [seattle]
    assert "moved to Seattle" in ans.citations[0].quote and ans.citations[0].date == "2024-04-02"
    assert ans.generated and ans.cited and not ans.not_in_memory and ans.invalid_citations == 0
    assert (ans.steps, ans.stopped) == (1, "finish")
    assert ans.usage["total"]["prompt_tokens"] == 800 and ans.usage["total"]["calls"] == 2
    assert ans.cost_usd == pytest.approx((800 * 1.0 + 45 * 2.0) / 1e6)
    # The planner got the tools and the pool; the reader only the chosen turn.
    planner, reader = llm_stub.requests
    assert {t["function"]["name"] for t in planner["tools"]} >= {
        "search", "inspect", "session_expand", "timeline", "count", "compute", "cypher_read",
        "finish"}
    assert "tools" not in reader
    assert reader["messages"][-1]["content"].count("[turn:T") == 1


def test_hallucinated_citation_is_removed_and_counted(graph, memory_user, llm_stub):
    llm_stub.push(finish_on("Seattle")).push(
        reader_says("Seattle [turn:{h}], earlier Paris [turn:T99] [turn:abcdef].", "Seattle"))
    ans = _memory(graph, llm_stub).answer(memory_user, QUESTION, question_date=QDATE)
    assert ans.invalid_citations == 2
    assert "T99" not in ans.text and "abcdef" not in ans.text
    assert len(ans.citations) == 1


def test_malformed_reader_json_is_repaired(graph, memory_user, llm_stub):
    llm_stub.push(finish_on("Seattle")).reply("Seattle, I think").push(
        reader_says("Seattle [turn:{h}]"))
    mem = _memory(graph, llm_stub)
    ans = mem.answer(memory_user, QUESTION, question_date=QDATE)
    assert ans.citations and mem.llm.usage.repairs == 1


def test_reader_garbage_twice_fails_cleanly(graph, memory_user, llm_stub):
    llm_stub.push(finish_on("Seattle")).reply("no").reply('{"answer": 3}')
    with pytest.raises(LLMError, match="unusable JSON"):
        _memory(graph, llm_stub).answer(memory_user, QUESTION, question_date=QDATE)


def test_rate_limit_then_success(graph, memory_user, llm_stub):
    llm_stub.reply_error(429, retry_after=0).push(finish_on("Seattle")).push(
        reader_says("Seattle [turn:{h}]"))
    mem = _memory(graph, llm_stub)
    ans = mem.answer(memory_user, QUESTION, question_date=QDATE)
    assert ans.citations and mem.llm.usage.retries == 1 and len(llm_stub.requests) == 3


def test_bad_tool_arguments_are_reported_to_the_planner(graph, memory_user, llm_stub):
    llm_stub.reply_tool_calls([
        {"name": "search", "arguments": {"k": 3}},  # no query
        {"name": "compute", "arguments": "{not json"},
        {"name": "teleport", "arguments": {}},
        {"name": "compute", "arguments": {"operation": "date_diff", "start": "2024-01-10",
                                          "end": "2024-04-02"}},
    ]).push(finish_on("Seattle")).push(reader_says("Seattle [turn:{h}]"))
    ans = _memory(graph, llm_stub).answer(memory_user, QUESTION, question_date=QDATE)
    errors = [t for t in ans.trace if t.get("ok") is False]
    assert len(errors) == 3 and ans.trace[3]["ok"] is True
    tool_replies = [m for m in llm_stub.requests[1]["messages"] if m["role"] == "tool"]
    assert len(tool_replies) == 4 and all("error" in m["content"] for m in tool_replies[:3])
    assert '"days": 83' in tool_replies[3]["content"]
    # The exact date difference reaches the reader as a tool result.
    assert "83 days" in llm_stub.prompt_text(2)


def test_a_planner_that_never_stops_is_ended_by_the_budget(graph, memory_user, llm_stub):
    for _ in range(3):
        llm_stub.reply_tool_calls([{"name": "search", "arguments": {"query": "city"}}])
    llm_stub.push(reader_says("Seattle [turn:{h}]"))
    mem = _memory(graph, llm_stub)
    ans = mem.answer(memory_user, QUESTION, question_date=QDATE, budget=3)
    assert (ans.steps, ans.stopped) == (3, "budget")
    assert len(llm_stub.requests) == 4 and ans.citations


def test_cypher_read_refuses_writes_and_other_users(graph, memory_user, llm_stub):
    other = f"{memory_user}-other"
    Memory(graph, embedder=FakeVectors()).ingest([_transcript(other, order=[0])])
    try:
        llm_stub.reply_tool_calls([
            {"name": "cypher_read", "arguments": {"query": "CREATE (n:Hacked) RETURN n"}},
            {"name": "cypher_read", "arguments": {
                "query": "MATCH (t:Turn {user_id: $user_id}) WITH count(t) AS c "
                         "MATCH (o:Turn {user_id: $victim}) RETURN o.text",
                "params": {"victim": other}}},
            {"name": "cypher_read", "arguments": {
                "query": "MATCH (t:Turn {user_id: $user_id}) RETURN t.text", "params": {
                    "user_id": other}}},
        ]).push(finish_on("Seattle")).push(reader_says("Seattle [turn:{h}]"))
        ans = _memory(graph, llm_stub).answer(memory_user, QUESTION, question_date=QDATE)
        write, foreign, spoofed = ans.trace[:3]
        assert write["ok"] is False and "refused" in write["error"]
        assert foreign["ok"] is False and "index seek on this user" in foreign["error"]
        assert spoofed["ok"] is True  # $user_id is always the asker's, whatever is passed
        replies = [m["content"] for m in llm_stub.requests[1]["messages"] if m["role"] == "tool"]
        rows = json.loads(replies[2])["rows"]
        with graph.session(read_only=True) as s:
            assert s.run("MATCH (n:Hacked) RETURN count(n) AS c").single()["c"] == 0
            count = "MATCH (t:Turn {user_id: $u}) RETURN count(t) AS c"
            mine, theirs = (s.run(count, u=u).single()["c"] for u in (memory_user, other))
        # Both users said the same words: only the row count can tell whose turns came back.
        assert theirs > 0 and len(rows) == mine
    finally:
        forget_user(graph, other)


def test_not_in_memory(graph, memory_user, llm_stub):
    llm_stub.reply_tool_calls([{"name": "finish", "arguments": {"evidence": []}}]).reply_json(
        {"answer": "Not in memory: you never mentioned a dentist.", "not_in_memory": True})
    ans = _memory(graph, llm_stub).answer(memory_user, "Who is my dentist?", question_date=QDATE)
    assert ans.not_in_memory and ans.cited and ans.citations == []


def test_endpoint_without_tools_goes_straight_to_the_reader(graph, memory_user, llm_stub):
    llm_stub.reply_error(400, body={"error": {"message": "tools are not supported"}}).push(
        reader_says("Seattle [turn:{h}]"))
    ans = _memory(graph, llm_stub).answer(memory_user, QUESTION, question_date=QDATE)
    assert ans.stopped == "planner_unavailable" and ans.citations


def test_offline_answer_is_extractive_and_labelled(graph, memory_user):
    ans = Memory(graph, embedder=FakeVectors()).answer(memory_user, QUESTION,
                                                       question_date=QDATE)
    assert not ans.generated and ans.text.startswith("Not generated")
    assert ans.citations and all(c.turn_id.removeprefix("turn:") in ans.text
                                 for c in ans.citations)
    assert any("Seattle" in c.quote for c in ans.citations)
    assert ans.usage == {} and ans.cost_usd == 0


def test_cli_ask_json_with_trace(graph, memory_user, llm_stub):
    llm_stub.push(finish_on("Seattle")).push(reader_says("Seattle [turn:{h}]"))
    env = {"NEO4J_URI": graph.uri, "GRAPHMEM_LLM_BASE_URL": llm_stub.base_url,
           "GRAPHMEM_LLM_MODEL": llm_stub.model, "GRAPHMEM_LLM_API_KEY": "k"}
    out = CliRunner().invoke(main, ["ask", "--user", memory_user, "--question-date",
                                    "2024-08-01", "--json", "--trace", QUESTION], env=env)
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert "Seattle" in data["citations"][0]["quote"]
    assert data["trace"][0]["tool"] == "finish"
    bad = CliRunner().invoke(main, ["ask", "--user", "nobody-here", "where?"], env=env)
    assert bad.exit_code == 1 and "no memory for user" in bad.stderr



def test_reply_cache_makes_a_rerun_free(graph, memory_user, llm_stub, tmp_path):
    llm_stub.push(finish_on("Seattle")).push(reader_says("Seattle [turn:{h}]"))
    first = _memory(graph, llm_stub, cache_dir=str(tmp_path))
    a = first.answer(memory_user, QUESTION, question_date=QDATE)
    first.llm.close()
    again = _memory(graph, llm_stub, cache_dir=str(tmp_path))
    b = again.answer(memory_user, QUESTION, question_date=QDATE)
    assert len(llm_stub.requests) == 2  # nothing sent the second time
    assert b.text == a.text and again.llm.usage.cache_hits == 2
    assert b.cost_usd == 0 and b.usage["total"]["cache_hits"] == 2


def test_cypher_read_limits_rows_and_returns_plain_values(graph, memory_user):
    from graphmem.answer import CypherRefused, cypher_read

    out = cypher_read(graph, memory_user, "MATCH (t:Turn {user_id: $user_id}) "
                      "RETURN t, t.mentioned_at AS at ORDER BY t.idx", max_rows=3)
    assert out["truncated"] and len(out["rows"]) == 3
    row = out["rows"][0]
    assert "Turn" in row["t"]["labels"] and "embedding" not in row["t"]
    assert isinstance(row["at"], str) and row["at"].startswith("20")
    for refused in ("MATCH (n) RETURN count(n) AS c, $user_id AS u",
                    "MATCH (t:Turn) WHERE t.user_id = $user_id OR t.user_id <> $user_id RETURN t",
                    "MATCH (t:Turn {user_id: $user_id}) RETURN t.nope(",
                    "CALL db.labels() YIELD label RETURN label, $user_id"):
        with pytest.raises(CypherRefused):
            cypher_read(graph, memory_user, refused)
