"""graphmem: evidence-grounded temporal graph memory for LLM agents, stored natively in Neo4j."""

from .config import Settings
from .db import Graph
from .errors import GraphmemError

__all__ = ["Graph", "GraphmemError", "Settings"]
__version__ = "0.1.0"
