"""An authenticated Neo4j reached through NEO4J_URI / NEO4J_USERNAME / NEO4J_PASSWORD — the way to
use a shared server, Aura or a cluster: wrong and missing credentials are one clear line, the
`neo4j://` routing scheme works, and the storage tests pass against it."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import localneo4j
from graphmem.cli import main
from graphmem.config import Settings
from graphmem.db import Graph
from graphmem.errors import Neo4jUnavailable
from graphmem.memory import Memory
from graphmem.migrate import connect
from graphmem.store.admin import cross_user_edges
from tests.helpers import FakeVectors, _transcript

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def auth_neo4j(tmp_path_factory):
    password = f"pw-{uuid.uuid4().hex[:12]}"
    local = replace(Settings.from_env().local, home=tmp_path_factory.mktemp("auth-neo4j"),
                    bolt_port=0, http_port=0, auth_password=password)
    state = localneo4j.start(local)
    yield state, password
    localneo4j.stop(local)


def test_wrong_or_missing_credentials_are_one_clear_line(auth_neo4j):
    state, password = auth_neo4j
    for auth in (("neo4j", password + "-wrong"), None):
        with pytest.raises(Neo4jUnavailable, match="credentials|authentication"):
            Graph.open(state.bolt_uri, auth, None)
    env = {"NEO4J_URI": state.bolt_uri, "NEO4J_USERNAME": "neo4j", "NEO4J_PASSWORD": "nope"}
    out = CliRunner().invoke(main, ["stats"], env=env)
    assert out.exit_code != 0
    assert "Traceback" not in out.output and len(out.output.strip().splitlines()) == 1
    assert "NEO4J_PASSWORD" in out.output


def test_neo4j_routing_scheme_with_credentials(auth_neo4j):
    state, password = auth_neo4j
    uri = f"neo4j://{state.host}:{state.bolt_port}"
    env = {"NEO4J_URI": uri, "NEO4J_USERNAME": "neo4j", "NEO4J_PASSWORD": password}
    graph = connect(Settings.from_env({**os.environ, **env}))
    try:
        user = f"auth-{uuid.uuid4().hex[:8]}"
        Memory(graph, embedder=FakeVectors()).ingest([_transcript(user)])
        assert Memory(graph).stats(user)["sessions"] > 0
        assert cross_user_edges(graph) == 0
    finally:
        graph.close()


def test_storage_tests_pass_against_the_authenticated_server(auth_neo4j):
    state, password = auth_neo4j
    env = {**os.environ, "NEO4J_URI": f"neo4j://{state.host}:{state.bolt_port}",
           "NEO4J_USERNAME": "neo4j", "NEO4J_PASSWORD": password}
    modules = ["tests/integration/test_ingest.py", "tests/integration/test_currency.py",
               "tests/integration/test_tenancy.py", "tests/integration/test_schema.py"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-m", "not slow", *modules], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=1500)
    tail = "\n".join(run.stdout.splitlines()[-15:])
    assert run.returncode == 0, tail
    assert " passed" in tail and " failed" not in tail

