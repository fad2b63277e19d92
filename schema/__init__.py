"""Ordered, idempotent schema migrations: `NNNN_name.cypher`, statements separated by `;`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.cypher$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


def _split(text: str) -> tuple[str, ...]:
    lines = [ln for ln in text.splitlines() if not ln.strip().startswith("//")]
    return tuple(s.strip() for s in "\n".join(lines).split(";") if s.strip())


def migrations() -> list[Migration]:
    found = []
    for p in resources.files(__name__).iterdir():
        m = _NAME.match(p.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), _split(p.read_text("utf-8"))))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"duplicate schema migration versions: {versions}")
    return found
