"""`graphmem bench retrieval` end to end on a small LongMemEval file: every config scored, with
its latency and the CPU one search costs (this process and, where it is the managed one, Neo4j)."""

import json
import uuid

from graphmem.store.admin import forget_user
from graphmem_bench.retrieval import run_retrieval_bench, user_prefix


def _dataset(tmp_path):
    tag = uuid.uuid4().hex[:8]
    other = [{"role": "user", "content": "My sister bought a red kayak last week."},
             {"role": "assistant", "content": "Nice, kayaks are fun."}]
    questions = []
    for i, place in enumerate(("Lisbon", "Kyoto")):
        said = [{"role": "user", "content": f"I'm moving to {place} for my new job in March.",
                 "has_answer": True},
                {"role": "assistant", "content": "Congratulations on the move!"}]
        questions.append({
            "question_id": f"rt{tag}{i}", "question_type": "single-session-user",
            "question": "Which city am I moving to for work?", "answer": place,
            "question_date": "2023/06/01 (Thu) 10:00",
            "answer_session_ids": [f"answer_{tag}_{i}"],
            "haystack_session_ids": [f"other_{tag}_{i}", f"answer_{tag}_{i}"],
            "haystack_dates": ["2023/05/01 (Mon) 09:00", "2023/05/10 (Wed) 09:00"],
            "haystack_sessions": [other, said]})
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(questions))
    return path, [q["question_id"] for q in questions]


def test_bench_retrieval_reports_recall_and_cpu_per_search(graph, tmp_path, monkeypatch):
    path, ids = _dataset(tmp_path)
    monkeypatch.setenv("NEO4J_URI", graph.uri)
    try:
        res = run_retrieval_bench("longmemeval", str(path), configs=["rank-bm25", "fused"],
                                  out_dir=tmp_path / "out", echo=lambda _m: None)
    finally:
        for qid in ids:
            forget_user(graph, user_prefix("longmemeval", "offline") + qid)
    fused = res["configs"]["fused"]
    assert fused["n"]["turn"] == 2 and fused["turn"]["recall_all@1"] == 1.0
    assert fused["cpu_ms"]["search"] > 0
    assert fused["cpu_ms"]["neo4j"] is None or fused["cpu_ms"]["neo4j"] >= 0
    md = (tmp_path / "out" / "results.md").read_text()
    assert "CPU ms per search: process + Neo4j" in md
    # each question's turn ranking per preset, its first turn the answer's (recall_all@1 is 1)
    rankings = json.loads((tmp_path / "out" / "rankings.json").read_text())
    assert set(rankings) == {"rank-bm25", "fused"} and set(rankings["fused"]) == set(ids)
    assert all(r[0].startswith("answer_") for r in rankings["fused"].values())
