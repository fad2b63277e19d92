"""`graphmem bench qa` end to end on a small LongMemEval-format file written here: the dry run,
and a judged run against a scripted OpenAI-compatible server (answers, then the judge)."""

import json
import uuid

from click.testing import CliRunner

from graphmem.store.admin import forget_user
from graphmem_bench.cli import bench
from tests import llmstub

llm_stub = llmstub.llm_stub


def _dataset(tmp_path):
    tag = uuid.uuid4().hex[:8]
    sessions = [[{"role": "user", "content": "I adopted a beagle named Pixel.", "has_answer": True},
                 {"role": "assistant", "content": "Congratulations on Pixel!"}],
                [{"role": "user", "content": "My sister lives in Lisbon."},
                 {"role": "assistant", "content": "Lisbon is lovely."}]]
    questions = [
        {"question_id": f"qa{tag}a", "question_type": "single-session-user",
         "question": "What is the name of my dog?", "answer": "Pixel",
         "question_date": "2023/06/01 (Thu) 10:00"},
        {"question_id": f"qa{tag}b_abs", "question_type": "multi-session",
         "question": "What is the name of my cat?", "answer": "You never mentioned a cat.",
         "question_date": "2023/06/01 (Thu) 10:00"},
    ]
    for q in questions:
        q.update(answer_session_ids=["answer_1"], haystack_session_ids=["answer_1", "s2"],
                 haystack_dates=["2023/05/20 (Sat) 09:00", "2023/05/25 (Thu) 09:00"],
                 haystack_sessions=sessions)
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(questions))
    paper = tmp_path / "paper.txt"
    paper.write_text("Method\tDate\tModel\tAcc.\tCost / 10³ Q\nAlpha\t2026-01\tM\t90.0%\t$2 (meas.)\n")
    return path, paper, [q["question_id"] for q in questions]


def test_dry_run_and_judged_run(graph, tmp_path, llm_stub):
    path, paper, qids = _dataset(tmp_path)
    env = {"NEO4J_URI": graph.uri}
    try:
        out = CliRunner().invoke(bench, ["qa", str(path), "--dry-run", "--out",
                                        str(tmp_path / "dry")], env=env)
        assert out.exit_code == 0, out.output
        dry = json.loads((tmp_path / "dry/qa/results.json").read_text())
        assert dry["mode"] == "dry-run" and len(dry["per_question"]) == 2
        assert all(r["planner_first_step"] > 500 and r["reader"] > 100
                   for r in dry["per_question"])
        assert not llm_stub.requests  # a dry run sends nothing

        for verdict in ("yes", "no"):  # per question: planner, reader, judge
            llm_stub.reply("Enough evidence.").reply_json(
                {"answer": "Pixel [turn:T1]", "not_in_memory": False},
                prompt_tokens=400, completion_tokens=10).reply(verdict, prompt_tokens=50,
                                                                completion_tokens=1)
        env.update(GRAPHMEM_LLM_BASE_URL=llm_stub.base_url, GRAPHMEM_LLM_MODEL=llm_stub.model,
                   GRAPHMEM_LLM_PRICE_IN="1", GRAPHMEM_LLM_PRICE_OUT="2")
        out = CliRunner().invoke(bench, ["qa", str(path), "--out", str(tmp_path / "run"),
                                        "--paper", str(paper)], env=env)
        assert out.exit_code == 0, out.output
        run = json.loads((tmp_path / "run/qa/results.json").read_text())
        assert run["accuracy"]["overall"] == 0.5 and run["self_judged"]
        assert run["accuracy"]["abstention"] == {"accuracy": 0.0, "n": 1}
        assert run["tokens_per_question"]["median"] == 530  # 100+20 planner, 410 reader
        assert run["cost_per_question_usd"]["mean"] == (500 * 1 + 30 * 2) / 1e6
        assert (tmp_path / "run/qa/cost_accuracy.png").stat().st_size > 10_000
        judge_prompts = [llm_stub.prompt_text(i) for i in (2, 5)]
        assert "Correct Answer: Pixel" in judge_prompts[0]
        assert "unanswerable question" in judge_prompts[1]  # the _abs template
    finally:
        for qid in qids:
            forget_user(graph, "lme:" + qid)
