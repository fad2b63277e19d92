"""Ordered, idempotent schema migrations: `NNNN_name.cypher` (statements separated by `;`) or
`NNNN_name.py` (a data migration: a module with `migrate(graph)`, safe to run again)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.(cypher|py)$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...] = ()
    run: Callable[[Any], Any] | None = None  # a data migration's `migrate(graph)`


def _split(text: str) -> tuple[str, ...]:
    lines = [ln for ln in text.splitlines() if not ln.strip().startswith("//")]
    return tuple(s.strip() for s in "\n".join(lines).split(";") if s.strip())


def migrations() -> list[Migration]:
    found = []
    for p in resources.files(__name__).iterdir():
        m = _NAME.match(p.name)
        if not m:
            continue
        version, name, kind = int(m.group(1)), m.group(2), m.group(3)
        if kind == "cypher":
            found.append(Migration(version, name, _split(p.read_text("utf-8"))))
        else:
            module = importlib.import_module(f"{__name__}.{p.name.removesuffix('.py')}")
            found.append(Migration(version, name, run=module.migrate))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"duplicate schema migration versions: {versions}")
    return found
