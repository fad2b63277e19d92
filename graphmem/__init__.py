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
    # Both pull in the Neo4j driver (and `Memory` retrieval and answering): a command that talks
    # to a server (GRAPHMEM_URL) never needs them.
    if name == "Memory":
        from .memory import Memory

        return Memory
    if name == "Graph":
        from .db import Graph

        return Graph
    raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
