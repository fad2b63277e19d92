"""`graphmem bench scale` end to end on a small LongMemEval-format file written here: one user
grown to a multiple of a haystack (a session shared by instances kept once), other users added,
every point measured, the chart written, and every user it made forgotten afterwards."""

import json
import uuid

from click.testing import CliRunner

from graphmem_bench.cli import bench


def _dataset(tmp_path, instances=4):
    tag = uuid.uuid4().hex[:8]
    shared = [{"role": "user", "content": "I keep a sourdough starter called Bubbles."},
              {"role": "assistant", "content": "Bubbles sounds lively."}]
    questions = []
    for i in range(instances):
        own = [[{"role": "user", "content": f"Trip number {i}.{j}: we hiked above the lake {tag}."},
                {"role": "assistant", "content": "That sounds like a good walk."}]
               for j in range(2)]
        questions.append({
            "question_id": f"sc{tag}{i}", "question_type": "single-session-user",
            "question": f"Where did we hike on trip {i}?", "answer": "above the lake",
            "question_date": "2023/06/01 (Thu) 10:00",
            "answer_session_ids": [f"answer_{tag}_{i}_0"],
            "haystack_session_ids": ["shared_1", f"answer_{tag}_{i}_0", f"s_{tag}_{i}_1"],
            "haystack_dates": ["2023/05/01 (Mon) 09:00", f"2023/05/{10 + i:02d} (Wed) 09:00",
                               f"2023/05/{20 + i:02d} (Sat) 09:00"],
            "haystack_sessions": [shared, *own]})
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(questions))
    return path


def test_bench_scale_grows_one_user_and_forgets_everything(graph, tmp_path):
    path = _dataset(tmp_path)
    before = graph.read("stats", user_id=None)[0]["users"]
    chart = tmp_path / "scale.png"
    out = CliRunner().invoke(bench, ["scale", str(path), "--sizes", "1,2", "--users", "3",
                                    "--rounds", "1", "--chart", str(chart), "--json"],
                             env={"NEO4J_URI": graph.uri})
    assert out.exit_code == 0, out.output
    res = json.loads(out.output.strip().splitlines()[-1])
    points = res["points"]
    assert [(p["size"], p["db_users"]) for p in points] == [
        (1, before + 1), (2, before + 2), (1, before + 5), (2, before + 5)]
    one, two = points[0], points[1]
    assert (one["turns"], one["sessions"]) == (6, 3)
    # 12 turns wanted: two instances hold 10 once the shared session is kept once, so a third joins
    assert (two["turns"], two["sessions"]) == (14, 7)
    for p in points:
        assert p["queries"] == 4
        assert p["ms"]["fused"]["p50"] > 0 and set(p["ms"]) >= {"fused", "embedding", "tunnels"}
    assert chart.stat().st_size > 10_000
    assert graph.read("stats", user_id=None)[0]["users"] == before


def test_bench_scale_refuses_bad_sizes(graph, tmp_path):
    path = _dataset(tmp_path, instances=1)
    out = CliRunner().invoke(bench, ["scale", str(path), "--sizes", "1,x"],
                             env={"NEO4J_URI": graph.uri})
    assert out.exit_code != 0 and "--sizes" in out.output and "Traceback" not in out.output
