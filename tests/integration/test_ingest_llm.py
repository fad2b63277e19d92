"""`graphmem ingest --extractor llm` end to end: real HTTP to a scripted OpenAI-compatible stub,
real Neo4j; a hallucinated span is rejected and counted, and a dead endpoint writes nothing."""

import json

from click.testing import CliRunner

from graphmem.cli import main
from tests import llmstub
from tests.llmstub import LLMStub

llm_stub = llmstub.llm_stub


def _fact(value, support):
    return {"kind": "attribute", "predicate": "lives_in", "value": value, "subject": "user",
            "modality": "asserted", "text": f"The user lives in {value}.", "support": support,
            "time_text": None, "roles": [{"role": "location", "name": value, "type": "place"}]}


def _env(graph, stub: LLMStub):
    return {"NEO4J_URI": graph.uri, "GRAPHMEM_LLM_BASE_URL": stub.base_url,
            "GRAPHMEM_LLM_MODEL": stub.model, "GRAPHMEM_LLM_API_KEY": "k",
            "GRAPHMEM_LLM_MAX_RETRIES": "0"}


def _jsonl(tmp_path, user_id, texts):
    rows = [{"user_id": user_id, "session_id": "s1", "session_time": "2024-05-01T10:00:00Z",
             "role": "user", "content": t} for t in texts]
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    return path


def test_llm_extractor_ingest_rejects_unsupported_spans(graph, user_id, tmp_path, llm_stub):
    llm_stub.reply_json({"facts": [_fact("Denver", "I live in Denver"),
                                   _fact("Oslo", "I live in Oslo")]})  # Oslo is not in the text
    path = _jsonl(tmp_path, user_id, ["I live in Denver."])
    out = CliRunner().invoke(main, ["ingest", str(path), "--extractor", "llm", "--json", "-v"],
                             env=_env(graph, llm_stub))
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout.splitlines()[0])
    assert summary["facts"] == 1 and summary["rejected"] == 1
    assert summary["llm_tokens"] == 120  # one scripted reply: 100 prompt + 20 completion
    with graph.session(read_only=True) as s:
        rows = s.run("MATCH (f:FactEvent {user_id: $u})-[:DERIVED_FROM]->(p) "
                     "RETURN f.value AS v, f.extractor AS x, p.text AS p", u=user_id).data()
    assert rows == [{"v": "Denver", "x": "llm:stub-model", "p": "I live in Denver."}]


def test_llm_failure_leaves_no_half_written_session(graph, user_id, tmp_path, llm_stub):
    llm_stub.reply_error(500).reply_error(500)
    path = _jsonl(tmp_path, user_id, ["I live in Denver.", "I work at Acme."])
    out = CliRunner().invoke(main, ["ingest", str(path), "--extractor", "llm"],
                             env=_env(graph, llm_stub))
    assert out.exit_code == 1 and "graphmem: error:" in out.stderr
    assert graph.read("stats", user_id=user_id)[0]["sessions"] == 0


def test_llm_extractor_without_configuration_is_a_clear_error(tmp_path):
    path = _jsonl(tmp_path, "u", ["hi"])
    env = {"GRAPHMEM_LLM_BASE_URL": "", "GRAPHMEM_LLM_MODEL": "", "OPENAI_BASE_URL": ""}
    out = CliRunner().invoke(main, ["ingest", str(path), "--extractor", "llm"], env=env)
    assert out.exit_code == 1 and "GRAPHMEM_LLM_BASE_URL" in out.stderr


def test_relations_llm_without_configuration_is_a_clear_error(tmp_path):
    path = _jsonl(tmp_path, "u", ["hi"])
    env = {"GRAPHMEM_LLM_BASE_URL": "", "GRAPHMEM_LLM_MODEL": "", "OPENAI_BASE_URL": ""}
    out = CliRunner().invoke(main, ["ingest", str(path), "--relations", "llm"], env=env)
    assert out.exit_code == 1 and "--relations llm needs" in out.stderr
