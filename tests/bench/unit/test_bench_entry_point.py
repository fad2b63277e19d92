"""`graphmem bench …` is the graphmem-bench package's click group, found by graphmem through the
entry point the package declares: every subcommand and option answers as before the move."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem_bench.cli import bench
from tests.bench.benchenv import BENCH_DIR

COMMANDS = {"ingest", "retrieval", "qa", "currency", "scale", "serve", "soak"}


def _declared() -> dict[str, str]:
    project = tomllib.loads((BENCH_DIR / "pyproject.toml").read_text())
    assert project["project"]["name"] == "graphmem-bench"
    assert "graphmem" in project["project"]["dependencies"]
    return project["project"]["entry-points"]["graphmem.cli"]


def test_the_package_declares_its_group_under_graphmem_cli():
    assert _declared() == {"bench": "graphmem_bench.cli:bench"}
    assert set(bench.commands) == COMMANDS


def test_installed_as_declared_graphmem_bench_runs_the_bench(tmp_path: Path, monkeypatch):
    info = tmp_path / "graphmem_bench-0.1.0.dist-info"  # what pip writes for the declaration
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: graphmem-bench\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(
        "[graphmem.cli]\n" + "".join(f"{k} = {v}\n" for k, v in _declared().items()))
    monkeypatch.syspath_prepend(str(tmp_path))
    out = CliRunner().invoke(main, ["bench", "--help"])
    assert out.exit_code == 0 and all(f"  {c} " in out.output for c in COMMANDS), out.output
    data = tmp_path / "lme.json"
    data.write_text("[]")
    out = CliRunner().invoke(main, ["bench", "serve", str(data), "--clients", "0"])
    assert out.exit_code == 2 and "client counts" in out.output, out.output


@pytest.mark.skipif(not os.environ.get("CI") and not any(
    d.metadata["Name"] == "graphmem-bench" for d in importlib.metadata.distributions()),
    reason="graphmem-bench is not installed here (`make install` installs it; CI requires it)")
def test_the_installed_graphmem_finds_the_installed_bench():
    done = subprocess.run([sys.executable, "-m", "graphmem.cli", "bench", "--help"],
                          capture_output=True, text=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert done.returncode == 0, done.stderr
    assert all(f"  {c} " in done.stdout for c in COMMANDS), done.stdout
