"""`graphmem bench currency` as a real process on a scenario set written elsewhere: per-category
rates, the failing checks, exit 1 when a goal is missed, every scenario user forgotten."""

import json
import subprocess

from tests.bench.benchenv import bench_command, bench_env

SETS = {
    "moves.json": {"category": "moves", "scenarios": [
        {"id": "mv-ok", "sessions": [{"date": "2024-01-01", "turns": ["I live in Denver."]},
                                      {"date": "2024-05-01", "turns": ["I moved to Seattle."]}],
         "holds": [{"predicate": "lives_in", "value": "Seattle"}],
         "stale": [{"predicate": "lives_in", "value": "Denver"}],
         "asks": [{"question": "Where do I live now?", "top": "Seattle"}]}]},
    "wrong.json": {"category": "wrong on purpose", "scenarios": [
        {"id": "wrong-city", "sessions": [{"date": "2024-01-01", "turns": ["I live in Boise."]}],
         "holds": [{"predicate": "lives_in", "value": "Reno"}]}]},
}


def _scenario_users(graph):
    with graph.session(read_only=True) as s:
        return {r["u"] for r in s.run("MATCH (n:Session) WHERE n.user_id STARTS WITH 'currency-' "
                                      "RETURN DISTINCT n.user_id AS u")}


def test_bench_currency_on_another_set(graph, tmp_path):
    for name, doc in SETS.items():
        (tmp_path / name).write_text(json.dumps(doc))
    before = _scenario_users(graph)  # a shared database may hold some from an interrupted run
    env = bench_env(NEO4J_URI=graph.uri)
    cmd = bench_command("currency", str(tmp_path))
    done = subprocess.run(cmd + ["--failures"], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 1, done.stderr  # 1 of 2 passes: below the goals
    out = done.stdout
    assert "FAIL wrong-city [wrong on purpose]: holds predicate='lives_in' value='Reno'" in out
    assert "moves" in out and "1/1" in out and "0/1" in out
    assert "all" in out and "1/2" in out and "goals not met" in out
    (tmp_path / "wrong.json").unlink()
    done = subprocess.run(cmd + ["--json"], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    res = json.loads(done.stdout)
    assert res["passed"] == res["total"] == 1 and res["goals_missed"] == []
    assert res["categories"] == {"moves": {"passed": 1, "total": 1, "rate": 1.0}}
    assert not _scenario_users(graph) - before  # every scenario user it made was forgotten


def test_bench_currency_with_a_rerank_step_off(graph, tmp_path):
    (tmp_path / "moves.json").write_text(json.dumps(SETS["moves.json"]))
    env = bench_env(NEO4J_URI=graph.uri)
    cmd = bench_command("currency", str(tmp_path), "--json")
    done = subprocess.run(cmd + ["--preset", "fused-no-merge"], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["passed"] == 1
    bad = subprocess.run(cmd + ["--preset", "fused-no-shuffle"], env=env, capture_output=True,
                         text=True, timeout=600)
    assert bad.returncode == 2 and "unknown retrieval preset 'fused-no-shuffle'" in bad.stderr
    assert "Traceback" not in bad.stderr and not bad.stdout  # refused in one line, nothing run
