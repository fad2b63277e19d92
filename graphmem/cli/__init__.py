"""The `graphmem` command line: a thin door over the Python API."""

from __future__ import annotations

# The commands register themselves on `main` when their modules are imported; `graphmem bench`
# comes from the graphmem-bench package, through the `graphmem.cli` entry points (plugins.py).
from . import admin, answering, ingesting, memories, reading, serving, transfer  # noqa: F401
from .group import main

__all__ = ["main"]

if __name__ == "__main__":  # pragma: no cover
    main()
