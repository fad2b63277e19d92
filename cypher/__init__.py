"""Every Cypher query graphmem runs, one `.cypher` file each with `$parameters`, loaded by name."""

from __future__ import annotations

from functools import cache
from importlib import resources

from graphmem.errors import QueryNotFound


@cache
def query(name: str) -> str:
    """The text of `cypher/<name>.cypher`."""
    path = resources.files(__name__).joinpath(f"{name}.cypher")
    if not path.is_file():
        raise QueryNotFound(f"no query named {name!r} (expected cypher/{name}.cypher)")
    return path.read_text(encoding="utf-8").strip()


def names() -> list[str]:
    return sorted(
        p.name.removesuffix(".cypher")
        for p in resources.files(__name__).iterdir()
        if p.name.endswith(".cypher")
    )
