"""The currency scenario suite against the real Neo4j: each transcript as its own user, checked
for current facts, stale versions, as-of and question-date answers, edges and top evidence."""

import pytest

from graphmem.embed import default_embedder
from graphmem.memory import Memory
from tests.scenarios.check import run
from tests.scenarios.data import ALL


@pytest.fixture(scope="module")
def mem(neo4j_graph):
    return Memory(neo4j_graph, embedder=default_embedder())


def _param(s):
    marks = [pytest.mark.xfail(reason=s.xfail, strict=True)] if s.xfail else []
    return pytest.param(s, id=s.id, marks=marks)


@pytest.mark.parametrize("scenario", [_param(s) for s in ALL])
def test_scenario(mem, user_id, scenario):
    failures = run(mem, scenario, user_id)
    assert not failures, f"{scenario.category}: " + "; ".join(failures)
