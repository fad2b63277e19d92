"""`graphmem bench soak` for a few seconds on a small LongMemEval-format file: parallel ingests
and searches, then the consistency check against a serial ingestion; nothing of it is left."""

import uuid

from click.testing import CliRunner

from graphmem.compose import embedder as configured_embedder
from graphmem.memory import Memory
from graphmem_bench.cli import bench
from graphmem_bench.soak import run_soak
from tests.bench.integration.test_bench_scale import _dataset


def _left(graph, prefix):
    with graph.session(read_only=True) as s:
        return [r["u"] for r in s.run("MATCH (n:Session) WHERE n.user_id STARTS WITH $p "
                                      "OR n.user_id STARTS WITH 'serial-' + $p "
                                      "RETURN DISTINCT n.user_id AS u", p=prefix)]


def test_soak_ingests_and_searches_in_parallel_then_checks_and_forgets(graph, tmp_path):
    path = _dataset(tmp_path, instances=4)
    prefix = f"soak-{uuid.uuid4().hex[:8]}-"
    seen = []
    res = run_soak(str(path), ingests=2, search_loops=2, seconds=6, sessions=2,
                   memory=Memory(graph, embedder=configured_embedder()), prefix=prefix,
                   echo=seen.append)
    assert res.ok, (res.errors, res.mismatched_users)
    assert (res.cross_user_edges, res.half_written_sessions, res.mismatched_users) == (0, 0, [])
    assert 1 <= res.users <= 4 and res.turns == 4 * res.users  # two sessions of two turns each
    assert res.searches > 0 and res.search_ms["median"] > 0 and res.seconds >= 6
    assert seen and "checking consistency" in seen[-1]
    assert _left(graph, prefix) == []


def test_soak_options_are_checked_before_anything_runs(tmp_path):
    path = _dataset(tmp_path, instances=1)
    out = CliRunner().invoke(bench, ["soak", str(path), "--ingests", "0"])
    assert out.exit_code == 2 and "--ingests" in out.output
    out = CliRunner().invoke(bench, ["soak", str(path), "--seconds", "0.5", "--json"])
    assert out.exit_code == 2 and "--seconds" in out.output
