"""`graphmem serve`: the HTTP JSON door over `Memory` (FastAPI on uvicorn), versioned under /v1."""

from .app import create_app
from .auth import KeyRing

__all__ = ["KeyRing", "create_app"]
