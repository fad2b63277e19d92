"""One exception hierarchy for graphmem; every message tells the user what to do next."""


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
