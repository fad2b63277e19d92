"""One exception hierarchy for graphmem; every message tells the user what to do next."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class GraphmemError(Exception):
    """Base class of every error graphmem raises on purpose."""


class ConfigError(GraphmemError):
    """A setting is missing or malformed."""


class Neo4jUnavailable(GraphmemError):
    """The configured Neo4j cannot be reached or refused the connection."""


def connection_lost(exc: BaseException) -> str | None:
    """The error's name when `exc` means the connection to Neo4j broke or its database is not
    serving (stopping, starting), else None: the one rule the facade and the CLI share (the
    driver is imported only once something failed)."""
    # Deferred: the neo4j driver, which a client of a running server (GRAPHMEM_URL) never loads.
    from neo4j.exceptions import DatabaseUnavailable, ServiceUnavailable, SessionExpired

    if isinstance(exc, ServiceUnavailable | SessionExpired | DatabaseUnavailable):
        return type(exc).__name__  # the driver wraps socket errors; retries came first
    return None


def neo4j_lost(method: Callable[Concatenate[Any, P], R]) -> Callable[Concatenate[Any, P], R]:
    """Raise Neo4jUnavailable, one line saying what happened and what to do, when the
    connection to Neo4j breaks during `method` (the driver's own errors are not graphmem's);
    the method's object holds the connection as `.graph` (Memory)."""

    @functools.wraps(method)
    def wrapper(self: Any, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except GraphmemError:
            raise
        except Exception as exc:
            lost = connection_lost(exc)
            if lost is None:
                raise
            raise Neo4jUnavailable(
                f"lost the connection to Neo4j at {self.graph.uri} ({lost}); what "
                "finished before it is stored, nothing half-written is kept (one transaction per "
                "unit of work): check that Neo4j runs, then retry") from exc

    return wrapper


class LocalNeo4jError(GraphmemError):
    """The managed local Neo4j could not be prepared, started or stopped."""


class JavaMissing(LocalNeo4jError):
    pass


class MavenMissing(LocalNeo4jError):
    pass


class PortInUse(LocalNeo4jError):
    pass


class JarResolutionError(LocalNeo4jError):
    pass


class SchemaError(GraphmemError):
    """A schema migration failed."""


class QueryNotFound(GraphmemError):
    """A named Cypher query file does not exist."""


class InputError(GraphmemError):
    """A transcript or argument supplied by the user is malformed."""


class OutOfBounds(InputError):
    """An input outside the bounds `Memory` sets for every door (HTTP, MCP, CLI): too long, too
    many, a number out of range, a NUL character, a turn id another session already uses."""


class UnknownUser(GraphmemError):
    """The requested user has no memory in the database."""


class UnknownId(InputError):
    """The user has no turn, fact or session with this id (another user's id is not theirs, and
    is refused alike)."""


class VectorSpaceMismatch(GraphmemError):
    """The database's embeddings come from another model than the configured embedder."""
