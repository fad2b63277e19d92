"""A real Neo4j for every integration test: NEO4J_URI when set; else a testcontainers Neo4j when a
Docker engine answers; else the managed local Neo4j on a throwaway data dir and free ports."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from graphmem import localneo4j
from graphmem.config import NEO4J_VERSION, Settings
from graphmem.db import Graph
from graphmem.migrate import apply_schema
from graphmem.store.admin import cross_user_edges, forget_user

NEO4J_IMAGE = f"neo4j:{NEO4J_VERSION}-community"


def _testcontainers_graph() -> tuple[Graph, object] | None:
    try:
        from testcontainers.community.neo4j import Neo4jContainer  # type: ignore
    except ImportError:
        return None
    try:
        container = Neo4jContainer(NEO4J_IMAGE)
        container.start()
    except Exception:  # no Docker engine, no image registry: fall back
        return None
    graph = Graph.open(container.get_connection_url(),
                       (container.username, container.password), None)
    return graph, container


@pytest.fixture(scope="session")
def neo4j_graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Graph]:
    settings = Settings.from_env()
    if settings.external:
        graph = Graph.open(settings.uri, (settings.username, settings.password or "")
                           if settings.username else None, settings.database)
        apply_schema(graph, only_if_needed=True)
        yield graph
        graph.close()
        return
    if os.environ.get("GRAPHMEM_TEST_DOCKER", "1") != "0":
        found = _testcontainers_graph()
        if found:
            graph, container = found
            apply_schema(graph)
            yield graph
            graph.close()
            container.stop()  # type: ignore[attr-defined]
            return
    local = replace(settings.local, home=tmp_path_factory.mktemp("neo4j-home"),
                    bolt_port=0, http_port=0)
    state = localneo4j.start(local)
    graph = Graph.open(state.bolt_uri, None, None)
    apply_schema(graph)
    yield graph
    graph.close()
    localneo4j.stop(local)


@pytest.fixture
def graph(neo4j_graph: Graph) -> Graph:
    _in_configured_space(neo4j_graph)
    return neo4j_graph


def _in_configured_space(graph: Graph) -> None:
    """The test database holds the configured embedder's vector space: one reused from a run
    with another default embedder is moved there first (with stand-in vectors; it is throwaway)."""
    from graphmem.reembed import reembed
    from graphmem.vectorspace import current
    from tests.helpers import FakeVectors

    fake = FakeVectors()
    space = current(graph, fake)
    if (space.model, space.dimensions, space.target_model) != (fake.name, fake.dimensions, None):
        reembed(graph, fake, batch=1000)


@pytest.fixture
def user_id(neo4j_graph: Graph) -> Iterator[str]:
    """A fresh user per test, so tests never see each other's memory; removed afterwards."""
    uid = f"test-{uuid.uuid4().hex[:12]}"
    yield uid
    forget_user(neo4j_graph, uid)


@pytest.fixture
def new_user(neo4j_graph: Graph) -> Iterator[Callable[[], str]]:
    """Makes fresh user ids on demand (`new_user()`); every one is removed afterwards."""
    made: list[str] = []

    def new() -> str:
        made.append(f"test-{uuid.uuid4().hex[:12]}")
        return made[-1]

    yield new
    for uid in made:
        forget_user(neo4j_graph, uid)


@pytest.fixture(autouse=True)
def _no_cross_user_edges(request: pytest.FixtureRequest) -> Iterator[None]:
    """After every test that used the database: no edge joins two users' nodes."""
    yield
    if "neo4j_graph" in request.fixturenames:
        graph = request.getfixturevalue("neo4j_graph")
        assert cross_user_edges(graph) == 0, "an edge joins two users' nodes"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "/integration/" in str(item.fspath):
            item.add_marker(pytest.mark.integration)
