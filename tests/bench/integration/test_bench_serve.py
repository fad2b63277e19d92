"""`graphmem bench serve` end to end for a few seconds: a real `graphmem serve` process, one client,
and the CPU each request cost the server (and Neo4j, where it is the one managed here)."""

import json

import pytest
from click.testing import CliRunner

from graphmem_bench.cli import bench
from tests.bench.integration.test_bench_scale import _dataset


@pytest.mark.parametrize("dated", [False, True])
def test_bench_serve_reports_cpu_ms_per_request(graph, tmp_path, dated):
    path = _dataset(tmp_path, instances=1)
    out = CliRunner().invoke(bench, ["serve", str(path), "--clients", "1", "--seconds", "3",
                                    "--users", "1", "--sessions", "2", "--json",
                                    *(["--dated"] if dated else [])],
                             env={"NEO4J_URI": graph.uri})
    assert out.exit_code == 0, out.output
    res = json.loads(out.output.strip().splitlines()[-1])
    assert res["errors"] == 0 and res["dated"] is dated
    level = res["levels"][0]
    served = sum(e["n"] for e in level["endpoints"].values())
    assert level["clients"] == 1 and served > 0
    cpu = level["cpu_ms_per_request"]
    assert cpu["server"] > 0 and level["cpu_s"]["server"] > 0
    # Neo4j's CPU is measured only when the Neo4j in use is the one this machine manages.
    assert cpu["neo4j"] is None or cpu["neo4j"] > 0
