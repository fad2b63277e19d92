"""The connection to Neo4j: an external one from NEO4J_* settings, or the managed local one."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable

from graphmem.cypher import query
from graphmem.store._run import records as rows

from . import localneo4j
from .config import Settings
from .errors import Neo4jUnavailable

T = TypeVar("T")


# The same index or constraint created by another process at the same moment: IF NOT EXISTS
# checks before it creates, so two creators can both pass the check.
_ALREADY_THERE = frozenset(("Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
                            "Neo.ClientError.Schema.IndexAlreadyExists",
                            "Neo.ClientError.Schema.ConstraintAlreadyExists"))


class Graph:
    """The connection: a driver plus database name; runs the named queries of `cypher/` with
    parameters only. Schema and users are not its business (`graphmem.migrate`,
    `graphmem.store.admin`)."""

    def __init__(self, driver: neo4j.Driver, uri: str, database: str | None = None):
        self.driver = driver
        self.uri = uri
        self.database = database
        self._reading = threading.local()  # the read transaction `in_one_read` opened, if any

    @classmethod
    def connect(
        cls,
        settings: Settings | None = None,
        *,
        start_local: bool = True,
        echo: Callable[[str], None] = lambda _m: None,
        retry_s: float = 15,
    ) -> Graph:
        """Connect (starting the managed local Neo4j on demand). The schema is the caller's:
        `graphmem.migrate.apply_schema` (as `Memory` and `migrate.connect` do)."""
        settings = settings or Settings.from_env()
        if settings.external:
            uri = settings.uri
            auth = (settings.username, settings.password or "") if settings.username else None
        else:
            state = (
                localneo4j.start(settings.local, echo=echo)
                if start_local
                else localneo4j.status(settings.local).state
            )
            if state is None:
                raise Neo4jUnavailable(
                    "the local Neo4j is not running; start it with `graphmem neo4j start`"
                )
            uri, auth = state.bolt_uri, None
        assert uri is not None
        return cls.open(uri, auth, settings.database, retry_s=retry_s)

    @classmethod
    def open(cls, uri: str, auth: tuple[str, str] | None, database: str | None, *,
             retry_s: float = 15) -> Graph:
        """`retry_s`: how long a transaction is retried while Neo4j is unreachable (a server
        keeps it short, to answer 503 rather than hang)."""
        try:
            driver = GraphDatabase.driver(uri, auth=auth, connection_timeout=min(10, max(2, retry_s)),
                                          notifications_min_severity="OFF",
                                          max_transaction_retry_time=retry_s)
        except ValueError as exc:
            raise Neo4jUnavailable(f"NEO4J_URI={uri!r} is not a valid Neo4j URI: {exc}") from None
        try:
            driver.verify_connectivity()
        except AuthError as exc:
            driver.close()
            raise Neo4jUnavailable(
                f"Neo4j at {uri} refused the credentials ({exc.message}); "
                "check NEO4J_USERNAME / NEO4J_PASSWORD"
            ) from None
        except (ServiceUnavailable, OSError) as exc:
            driver.close()
            raise Neo4jUnavailable(
                f"Neo4j unreachable at {uri} ({type(exc).__name__}); check that it runs and that "
                "NEO4J_URI is right, or unset NEO4J_URI to use the managed local Neo4j"
            ) from None
        return cls(driver, uri, database)

    def close(self) -> None:
        self.driver.close()

    def __enter__(self) -> Graph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def session(self, *, read_only: bool = False) -> neo4j.Session:
        mode = neo4j.READ_ACCESS if read_only else neo4j.WRITE_ACCESS
        return self.driver.session(database=self.database, default_access_mode=mode)

    def read(self, query_name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Run the named query in a read transaction (the server refuses writes). Callers are the
        typed functions of `graphmem.store`."""
        return self.read_text(query(query_name), **params)

    def read_text(self, text: str, /, **params: Any) -> list[dict[str, Any]]:
        """`read` of a query made of named ones (`store.search.together`), never of text from
        outside: every value is a parameter."""
        tx = getattr(self._reading, "tx", None)
        if tx is not None:
            return rows(tx.run(text, params))
        with self.session(read_only=True) as s:
            return s.execute_read(lambda tx: rows(tx.run(text, params)))

    def in_one_read(self, work: Callable[[], T]) -> T:
        """Run `work` with every `read` it makes (on this thread) inside one read transaction:
        one session and one commit instead of one per query. The driver retries the whole of
        `work` on a transient error, as it would one query."""
        if getattr(self._reading, "tx", None) is not None:
            return work()

        def unit(tx: Any) -> T:
            self._reading.tx = tx
            try:
                return work()
            finally:
                self._reading.tx = None

        with self.session(read_only=True) as s:
            return s.execute_read(unit)

    def write(self, query_name: str, /, **params: Any) -> list[dict[str, Any]]:
        text = query(query_name)
        with self.session() as s:
            return s.execute_write(lambda tx: rows(tx.run(text, params)))

    def run_statement(self, statement: str, params: dict[str, Any] | None = None, *,
                      attempts: int = 6) -> None:
        """Run one schema statement (auto-commit, as schema changes require). A transient
        failure — two processes creating the same constraint on a fresh database deadlock on the
        label's schema lock — is retried, as the driver retries managed transactions: every
        schema statement is idempotent (IF NOT EXISTS / IF EXISTS)."""
        for attempt in range(attempts):
            try:
                with self.session() as s:
                    s.run(statement, params or {}).consume()
                return
            except Neo4jError as exc:
                if exc.code in _ALREADY_THERE and "IF NOT EXISTS" in statement.upper():
                    return  # another process created the same rule between check and create
                if not exc.is_retryable() or attempt == attempts - 1:
                    raise
                time.sleep(0.2 * 2 ** attempt * (1 + random.random()))
