"""`python -m graphmem_bench …`: the same commands as `graphmem bench …`."""

from .cli import bench

bench(prog_name="graphmem bench")
