"""The `bench` command group: `graphmem bench …` (found by graphmem through the `graphmem.cli`
entry point) and `python -m graphmem_bench …` run this same group."""

from __future__ import annotations

import click

from .cli_load import bench_ingest, bench_scale, bench_serve, bench_soak
from .cli_quality import bench_currency, bench_qa, bench_retrieval


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def bench() -> None:
    """Benchmarks: commands that print numbers."""


for command in (bench_ingest, bench_retrieval, bench_qa, bench_currency, bench_scale, bench_serve,
                bench_soak):
    bench.add_command(command)
