"""`bench serve` options and the percentile it reports, checked without starting anything."""

from pathlib import Path

from click.testing import CliRunner

from graphmem_bench.cli import bench
from graphmem_bench.stats import percentile, summary


def test_percentile_is_nearest_rank_and_summary_agrees():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 51.0 and percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) is None and percentile([7.0], 0.99) == 7.0
    assert summary(values)["p95"] == percentile(values, 0.95)


def test_bad_client_counts_fail_with_one_line_before_anything_runs(tmp_path: Path):
    data = tmp_path / "lme.json"
    data.write_text("[]")
    for bad in ("0", "1,x", ",", "-2"):
        r = CliRunner().invoke(bench, ["serve", str(data), "--clients", bad])
        assert r.exit_code == 2 and "client counts" in r.output, (bad, r.output)


def test_an_append_share_outside_0_to_1_fails_before_anything_runs(tmp_path: Path):
    data = tmp_path / "lme.json"
    data.write_text("[]")
    for bad in ("-0.1", "1.5", "x"):
        r = CliRunner().invoke(bench, ["serve", str(data), "--append-share", bad])
        assert r.exit_code == 2 and "append-share" in r.output, (bad, r.output)
