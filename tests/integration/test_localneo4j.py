"""The managed local Neo4j: lifecycle, persistence, Browser, and one clear line per bad environment."""

import re
import socket
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import localneo4j
from graphmem.cli import main
from graphmem.config import NEO4J_VERSION, Settings
from graphmem.db import Graph
from graphmem.errors import JavaMissing
from graphmem.store.admin import server_version


@pytest.fixture
def own_local(tmp_path):
    """A second managed instance on its own data dir and free ports (not the shared fixture)."""
    local = replace(Settings.from_env().local, home=tmp_path / "home", bolt_port=0, http_port=0)
    yield local
    localneo4j.stop(local)


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=30) as resp:
        return resp.status, resp.read()


def test_start_status_stop_keeps_data_and_serves_browser(own_local):
    state = localneo4j.start(own_local)
    assert state.host == "127.0.0.1" and state.bolt_port > 0 and state.http_port > 0
    st = localneo4j.status(own_local)
    assert st.running and st.state.pid == state.pid
    # starting again is a no-op that returns the running instance
    assert localneo4j.start(own_local).pid == state.pid

    with Graph.open(state.bolt_uri, None, None) as g:
        with g.session() as s:
            s.run("CREATE (:PersistProbe {v: $v})", v="kept").consume()
        assert NEO4J_VERSION in server_version(g)

    # Neo4j Browser: the page and every script it loads come back over HTTP
    status, page = _get(f"http://127.0.0.1:{state.http_port}/browser/")
    assert status == 200 and b"Neo4j Browser" in page
    scripts = re.findall(rb'<script[^>]+src="([^"]+)"', page)
    assert scripts, "the Browser page references no scripts"
    for src in scripts:
        code, body = _get(f"http://127.0.0.1:{state.http_port}/browser/{src.decode()}")
        assert code == 200 and len(body) > 100
    # discovery advertises the real Bolt port, so Browser connects to this instance
    _, discovery = _get(f"http://127.0.0.1:{state.http_port}/")
    assert f"127.0.0.1:{state.bolt_port}".encode() in discovery

    assert localneo4j.stop(own_local) is True
    assert not localneo4j.status(own_local).running
    assert localneo4j.stop(own_local) is False

    again = localneo4j.start(own_local)
    with Graph.open(again.bolt_uri, None, None) as g:
        with g.session() as s:
            rows = s.run("MATCH (p:PersistProbe) RETURN p.v AS v").data()
    assert rows == [{"v": "kept"}]


def _one_line_error(result) -> str:
    assert result.exit_code == 1, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("graphmem: error:")
    return lines[0]


def test_port_in_use_is_one_clear_line(tmp_path):
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]
        env = {"GRAPHMEM_NEO4J_HOME": str(tmp_path), "GRAPHMEM_BOLT_PORT": str(port),
               "NEO4J_URI": ""}
        result = CliRunner().invoke(main, ["neo4j", "start"], env=env)
    line = _one_line_error(result)
    assert f"port {port}" in line and "GRAPHMEM_BOLT_PORT" in line


def test_no_java_is_one_clear_line(tmp_path):
    env = {"GRAPHMEM_NEO4J_HOME": str(tmp_path), "JAVA_HOME": "", "PATH": str(tmp_path),
           "NEO4J_URI": "", "GRAPHMEM_BOLT_PORT": "0", "GRAPHMEM_HTTP_PORT": "0"}
    with pytest.raises(JavaMissing) as exc:
        localneo4j.java_executable(env, jvm_root=tmp_path / "no-jvms")
    message = str(exc.value)
    assert "\n" not in message and "Java 21+ not found" in message and "JAVA_HOME" in message


def _fake_jdk(root: Path, name: str, version: str) -> Path:
    """A JDK home whose `release` file says `version` and whose bin/java is a real java."""
    home = root / name
    (home / "bin").mkdir(parents=True)
    (home / "release").write_text(f'JAVA_VERSION="{version}"\n')
    (home / "bin" / "java").write_text("#!/bin/sh\n")
    return home


def test_java_21_plus_is_chosen_by_itself(tmp_path):
    jvms = tmp_path / "jvm"
    old = _fake_jdk(jvms, "java-17-openjdk", "17.0.15")
    _fake_jdk(jvms, "jdk-21", "21.0.4")
    newest = _fake_jdk(jvms, "temurin-25-jdk", "25.0.1")
    empty = {"PATH": str(tmp_path)}
    # JAVA_HOME older than 21 is passed over for the newest JDK 21+ under the JVM folder
    chosen = localneo4j.java_executable({**empty, "JAVA_HOME": str(old)}, jvm_root=jvms)
    assert chosen == str(newest / "bin" / "java")
    # JAVA_HOME 21+ wins over a newer one
    jdk21 = jvms / "jdk-21"
    assert localneo4j.java_executable({**empty, "JAVA_HOME": str(jdk21)}, jvm_root=jvms) == \
        str(jdk21 / "bin" / "java")
    # only a JDK 17 there: the one-line error
    with pytest.raises(JavaMissing):
        localneo4j.java_executable({**empty, "JAVA_HOME": str(old)}, jvm_root=old.parent / "x")


def test_no_maven_is_one_clear_line(tmp_path):
    java_dir = tmp_path / "bin"  # a PATH with java (and javac) but no mvn
    java_dir.mkdir()
    real_java = Path(localneo4j.java_executable()).resolve()
    (java_dir / "java").symlink_to(real_java)
    env = {"JAVA_HOME": "", "GRAPHMEM_NEO4J_HOME": str(tmp_path / "h"),
           "GRAPHMEM_CACHE_DIR": str(tmp_path / "c"),
           "PATH": str(java_dir), "NEO4J_URI": "", "GRAPHMEM_BOLT_PORT": "0",
           "GRAPHMEM_HTTP_PORT": "0"}
    line = _one_line_error(CliRunner().invoke(main, ["neo4j", "start"], env=env))
    assert "Maven" in line and "mvn" in line


def test_unreachable_neo4j_uri_is_one_clear_line():
    port = localneo4j.free_port()  # nothing listens there
    env = {"NEO4J_URI": f"bolt://127.0.0.1:{port}"}
    line = _one_line_error(CliRunner().invoke(main, ["schema", "status"], env=env))
    assert f"Neo4j unreachable at bolt://127.0.0.1:{port}" in line
