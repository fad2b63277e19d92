"""How the bench's tests run `graphmem bench …` as a process: `python -m graphmem_bench …` (the
same click group that graphmem finds through its entry point), with the checkout's bench/ on the
path whether or not graphmem-bench is installed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"


def bench_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "graphmem_bench", *args]


def bench_env(**extra: str) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(BENCH_DIR), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}
