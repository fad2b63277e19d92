"""Settings read from the environment: where Neo4j is, and where graphmem keeps its files."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from .errors import ConfigError

NEO4J_VERSION = "2026.09.0"
NEO4J_BROWSER_VERSION = "5.24.0"  # the newest neo4j-browser on Maven Central; serves 2026.x too
JAVA_MIN = 21  # the Neo4j 2025+ line runs on Java 21 or newer


def _int_env(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not an integer") from None
    if value < 0:
        raise ConfigError(f"{name}={value} must not be negative")
    return value


@dataclass(frozen=True)
class LocalNeo4jSettings:
    """The managed local Neo4j: jars cache, data home, loopback ports, memory."""

    home: Path
    cache_dir: Path
    host: str = "127.0.0.1"
    bolt_port: int = 7687
    http_port: int = 7474
    heap: str = "1g"
    page_cache_mb: int = 512
    start_timeout_s: float = 180.0
    # Test mode: authentication on, user neo4j with this password (set by the tests that check
    # graphmem against an authenticated server; never read from the environment).
    auth_password: str | None = None


@dataclass(frozen=True)
class Settings:
    """Connection settings. `uri` set means an external Neo4j; None means the managed local one."""

    uri: str | None
    username: str | None
    password: str | None
    database: str | None
    local: LocalNeo4jSettings = field(repr=False, default=None)  # type: ignore[assignment]

    @property
    def external(self) -> bool:
        return self.uri is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        e = os.environ if env is None else env
        home = Path(
            e.get("GRAPHMEM_NEO4J_HOME") or Path(platformdirs.user_data_dir("graphmem")) / "neo4j"
        )
        cache = Path(
            e.get("GRAPHMEM_CACHE_DIR") or platformdirs.user_cache_dir("graphmem")
        )
        bolt = _int_env(e, "GRAPHMEM_BOLT_PORT", 7687)
        http = _int_env(e, "GRAPHMEM_HTTP_PORT", 7474)
        local = LocalNeo4jSettings(
            home=home.expanduser().resolve(),
            cache_dir=cache.expanduser().resolve(),
            bolt_port=bolt,
            http_port=http,
            heap=e.get("GRAPHMEM_NEO4J_HEAP", "1g"),
            page_cache_mb=_int_env(e, "GRAPHMEM_NEO4J_PAGECACHE_MB", 512),
        )
        return cls(
            uri=e.get("NEO4J_URI") or None,
            username=e.get("NEO4J_USERNAME") or None,
            password=e.get("NEO4J_PASSWORD") or None,
            database=e.get("NEO4J_DATABASE") or None,
            local=local,
        )
