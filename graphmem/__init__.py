"""graphmem: evidence-grounded temporal graph memory for LLM agents, stored natively in Neo4j."""

from typing import TYPE_CHECKING, Any

from .config import Settings
from .errors import GraphmemError

if TYPE_CHECKING:
    from .db import Graph
    from .memory import Memory

__all__ = ["Graph", "GraphmemError", "Memory", "Settings"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # Deferred: both pull in the neo4j driver (and `Memory` retrieval and answering), which a
    # command that talks to a server (GRAPHMEM_URL) never needs; and every submodule imports this
    # package first, so importing them here would make every module part of one cycle.
    if name == "Memory":
        from .memory import Memory  # deferred: the neo4j driver, see above

        return Memory
    if name == "Graph":
        from .db import Graph  # deferred: the neo4j driver, see above

        return Graph
    raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
