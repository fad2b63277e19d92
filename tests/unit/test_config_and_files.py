import re
from importlib import resources
from pathlib import Path

import pytest

from graphmem import cypher
from graphmem.config import NEO4J_BROWSER_VERSION, NEO4J_VERSION, Settings
from graphmem.errors import ConfigError, QueryNotFound
from graphmem.schema import migrations


def test_settings_default_to_managed_local(tmp_path):
    s = Settings.from_env({"GRAPHMEM_NEO4J_HOME": str(tmp_path / "h")})
    assert not s.external
    assert s.local.home == (tmp_path / "h").resolve()
    assert s.local.host == "127.0.0.1"
    assert (s.local.bolt_port, s.local.http_port) == (7687, 7474)


def test_settings_use_standard_neo4j_variables():
    s = Settings.from_env({"NEO4J_URI": "bolt://db:7687", "NEO4J_USERNAME": "neo4j",
                           "NEO4J_PASSWORD": "pw", "NEO4J_DATABASE": "mem"})
    assert s.external and s.uri == "bolt://db:7687"
    assert (s.username, s.password, s.database) == ("neo4j", "pw", "mem")


def test_bad_port_is_a_clear_error():
    with pytest.raises(ConfigError, match="GRAPHMEM_BOLT_PORT"):
        Settings.from_env({"GRAPHMEM_BOLT_PORT": "seven"})


def test_migrations_are_ordered_and_idempotent_statements():
    ms = migrations()
    assert [m.version for m in ms] == sorted(m.version for m in ms)
    assert ms[0].version == 1
    for m in ms:
        for st in m.statements:  # creating what exists, or dropping what does not, is a no-op
            assert "IF NOT EXISTS" in st or (st.upper().startswith("DROP ") and "IF EXISTS" in st), st


def test_every_query_file_uses_parameters_not_literals():
    for name in cypher.names():
        text = cypher.query(name)
        assert text
        # no string literal holding a user id; user scoping always goes through $user_id
        assert not re.search(r"user_id\s*[:=]\s*['\"]", text), name


def test_unknown_query_name():
    with pytest.raises(QueryNotFound):
        cypher.query("no_such_query")


def test_pom_pins_the_configured_versions():
    pom = resources.files("graphmem.localneo4j").joinpath("pom.xml").read_text()
    assert f"<version>{NEO4J_VERSION}</version>" in pom
    assert f"<version>{NEO4J_BROWSER_VERSION}</version>" in pom


def test_docker_and_test_image_run_the_managed_version():
    compose = (Path(__file__).parents[2] / "docker" / "docker-compose.yml").read_text()
    assert f"image: neo4j:{NEO4J_VERSION}-community" in compose
