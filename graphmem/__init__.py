"""graphmem: evidence-grounded temporal graph memory for LLM agents, stored natively in Neo4j."""

from typing import TYPE_CHECKING, Any

from .config import Settings
from .db import Graph
from .errors import GraphmemError

if TYPE_CHECKING:
    from .memory import Memory

__all__ = ["Graph", "GraphmemError", "Memory", "Settings"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # `Memory` pulls in retrieval and answering; import it only when asked for.
    if name == "Memory":
        from .memory import Memory

        return Memory
    raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
