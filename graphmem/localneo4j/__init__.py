"""The managed local Neo4j: Community jars from Maven Central, run by a small Java launcher.

The jars are resolved once by `mvn` into the cache directory; the database lives in `home/data`
and survives restarts. Bolt and HTTP (with Neo4j Browser) listen on loopback only.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

from ..config import JAVA_MIN, NEO4J_VERSION, LocalNeo4jSettings
from ..errors import JavaMissing, LocalNeo4jError, PortInUse
from ..maven import copy_dependencies

READY_MARK = "GRAPHMEM-NEO4J-READY"
LAUNCHER = "GraphmemNeo4j"
JVM_ROOT = Path("/usr/lib/jvm")  # where Debian and the Temurin packages put JDKs


@dataclass
class ServerState:
    """What `start` wrote about a running instance (home/server.json)."""

    pid: int
    host: str
    bolt_port: int
    http_port: int
    version: str
    home: str
    started_at: float

    @property
    def bolt_uri(self) -> str:
        return f"bolt://{self.host}:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return (
            f"http://{self.host}:{self.http_port}/browser/"
            f"?dbms=bolt://{self.host}:{self.bolt_port}&preselectAuthMethod=NO_AUTH"
        )


@dataclass
class ServerStatus:
    running: bool
    home: Path
    state: ServerState | None = None
    note: str = ""


def _resource_text(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def java_major(java: Path) -> int | None:
    """The feature release of a `java` binary: from its JDK's `release` file, else `java -version`."""
    release = java.resolve().parent.parent / "release"
    text = ""
    try:
        text = release.read_text(errors="replace")
    except OSError:
        try:
            proc = subprocess.run([str(java), "-version"], capture_output=True, text=True,
                                  timeout=30)
            text = proc.stderr + proc.stdout
        except (OSError, subprocess.SubprocessError):
            return None
    m = re.search(r'(?:JAVA_VERSION=|version )"(?:1\.)?(\d+)', text)
    return int(m.group(1)) if m else None


def _java_flags(java: str) -> list[str]:
    """Vector API for Lucene's vector search when the runtime has it (a jlinked JRE may not)."""
    try:
        release = (Path(java).resolve().parent.parent / "release").read_text(errors="replace")
    except OSError:
        return []
    return ["--add-modules", "jdk.incubator.vector"] if "jdk.incubator.vector" in release else []


def java_executable(env: Mapping[str, str] | None = None, jvm_root: Path = JVM_ROOT) -> str:
    """A `java` of release JAVA_MIN or newer: JAVA_HOME's, else the newest JDK under /usr/lib/jvm,
    else the one on PATH."""
    e = os.environ if env is None else env
    candidates: list[Path] = []
    if e.get("JAVA_HOME"):
        candidates.append(Path(e["JAVA_HOME"]) / "bin" / "java")
    try:
        homes = sorted({p.resolve() for p in jvm_root.iterdir() if (p / "bin" / "java").exists()})
    except OSError:
        homes = []
    found = [(major, home / "bin" / "java") for home in homes
             if (major := java_major(home / "bin" / "java"))]
    candidates += [java for _, java in sorted(found, key=lambda f: -f[0])]
    on_path = shutil.which("java", path=e.get("PATH", os.defpath))
    if on_path:
        candidates.append(Path(on_path))
    for java in candidates:
        if java.exists() and (java_major(java) or 0) >= JAVA_MIN:
            return str(java)
    raise JavaMissing(
        f"Java {JAVA_MIN}+ not found: the local Neo4j {NEO4J_VERSION} needs a JDK {JAVA_MIN} or "
        f"newer: install one (Temurin, or `apt-get install openjdk-{JAVA_MIN}-jdk-headless` on Debian 13+) "
        "and set JAVA_HOME to it, or point NEO4J_URI at a Neo4j you run yourself"
    )


def _javac_for(java: str) -> str | None:
    candidate = Path(java).with_name("javac")  # only the JDK's own: another one may be older
    return str(candidate) if candidate.exists() else None


def jar_dir(settings: LocalNeo4jSettings) -> Path:
    return settings.cache_dir / f"neo4j-{NEO4J_VERSION}" / "lib"


def ensure_jars(settings: LocalNeo4jSettings, echo=print) -> Path:
    """Resolve the Neo4j jars with Maven into the cache, once; return the lib folder."""
    return copy_dependencies(
        _resource_text("pom.xml"), jar_dir(settings), expect="neo4j-harness-*.jar",
        what=f"the Neo4j {NEO4J_VERSION} jars",
        otherwise=", or point NEO4J_URI at a Neo4j you run yourself", echo=echo)


def _launcher_classpath(settings: LocalNeo4jSettings, java: str, lib: Path) -> list[str]:
    """Compile the launcher once (cached by source hash); fall back to source-file mode."""
    source = _resource_text(f"{LAUNCHER}.java")
    digest = hashlib.sha256((source + java).encode()).hexdigest()[:16]  # per JDK: class versions
    classes = lib.parent / f"launcher-{digest}"
    cp = f"{lib}/*"
    if (classes / f"{LAUNCHER}.class").exists():
        return ["-cp", f"{classes}{os.pathsep}{cp}", LAUNCHER]
    src_dir = lib.parent / "src"
    src_dir.mkdir(parents=True, exist_ok=True)
    src = src_dir / f"{LAUNCHER}.java"
    src.write_text(source)
    javac = _javac_for(java)
    if javac:
        tmp = classes.with_suffix(".partial")
        shutil.rmtree(tmp, ignore_errors=True)
        proc = subprocess.run([javac, "-nowarn", "-cp", cp, "-d", str(tmp), str(src)],
                              capture_output=True, text=True)
        if proc.returncode == 0:
            tmp.rename(classes)
            return ["-cp", f"{classes}{os.pathsep}{cp}", LAUNCHER]
    return ["-cp", cp, str(src)]


def _state_file(settings: LocalNeo4jSettings) -> Path:
    return settings.home / "server.json"


def _read_state(settings: LocalNeo4jSettings) -> ServerState | None:
    path = _state_file(settings)
    try:
        return ServerState(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        return None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child of ours counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return True


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _port_answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def status(settings: LocalNeo4jSettings) -> ServerStatus:
    state = _read_state(settings)
    if state is None:
        return ServerStatus(False, settings.home, note="not started")
    if not _pid_alive(state.pid):
        return ServerStatus(False, settings.home, state, note="stopped")
    if not _port_answers(state.host, state.bolt_port):
        return ServerStatus(False, settings.home, state, note="process alive but Bolt not answering")
    return ServerStatus(True, settings.home, state)


def _log_tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def start(settings: LocalNeo4jSettings, echo=print) -> ServerState:
    """Start the local Neo4j in the background (no-op when running); wait until Bolt answers."""
    current = status(settings)
    if current.running:
        assert current.state is not None
        return current.state
    java = java_executable()
    for name, port in (("Bolt", settings.bolt_port), ("HTTP", settings.http_port)):
        if port and not _port_free(settings.host, port):
            var = "GRAPHMEM_BOLT_PORT" if name == "Bolt" else "GRAPHMEM_HTTP_PORT"
            raise PortInUse(
                f"{name} port {port} on {settings.host} is already in use by another process; "
                f"stop it or choose another port with {var}=<port>"
            )
    lib = ensure_jars(settings, echo=echo)
    launch = _launcher_classpath(settings, java, lib)
    settings.home.mkdir(parents=True, exist_ok=True)
    logs = settings.home / "logs"
    logs.mkdir(exist_ok=True)
    out_path = logs / "launcher.log"
    cmd = [
        java, f"-Xms{settings.heap}", f"-Xmx{settings.heap}", "-XX:+UseG1GC",
        "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true",
        "-Dfile.encoding=UTF-8", "--enable-native-access=ALL-UNNAMED",
        *_java_flags(java), *launch,
        str(settings.home), settings.host, str(settings.bolt_port), str(settings.http_port),
        str(settings.page_cache_mb * 1024 * 1024),
    ]
    env = dict(os.environ)
    env.pop("GRAPHMEM_NEO4J_AUTH_PASSWORD", None)
    if settings.auth_password:
        env["GRAPHMEM_NEO4J_AUTH_PASSWORD"] = settings.auth_password
    with open(out_path, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + settings.start_timeout_s
    bolt = http = ""  # the URIs the ready line names
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise LocalNeo4jError(
                f"the local Neo4j exited during start (code {proc.returncode}); "
                f"log {out_path}:\n{_log_tail(out_path)}"
            )
        for line in out_path.read_text(errors="replace").splitlines():
            if line.startswith(READY_MARK):
                _, bolt, http = line.split()
        if bolt:
            break
        time.sleep(0.25)
    else:
        _terminate(proc.pid, 30)
        raise LocalNeo4jError(
            f"the local Neo4j did not become ready within {settings.start_timeout_s:.0f}s; "
            f"log {out_path}:\n{_log_tail(out_path)}"
        )
    bolt_port = int(bolt.rstrip("/").rsplit(":", 1)[1])
    http_port = int(http.rstrip("/").rsplit(":", 1)[1])
    state = ServerState(pid=proc.pid, host=settings.host, bolt_port=bolt_port,
                        http_port=http_port, version=NEO4J_VERSION,
                        home=str(settings.home), started_at=time.time())
    _state_file(settings).write_text(json.dumps(asdict(state), indent=2))
    return state


def _terminate(pid: int, timeout: float) -> bool:
    """SIGTERM (clean shutdown via the launcher's hook), then SIGKILL after `timeout`."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return True
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            waited, _ = os.waitpid(pid, os.WNOHANG)
            if waited == pid:
                return True
        except ChildProcessError:
            pass
        if not _pid_alive(pid):
            return True
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
    return False


def stop(settings: LocalNeo4jSettings, timeout: float = 90.0) -> bool:
    """Stop the local Neo4j cleanly. Returns False when it was not running."""
    state = _read_state(settings)
    if state is None or not _pid_alive(state.pid):
        _state_file(settings).unlink(missing_ok=True)
        return False
    clean = _terminate(state.pid, timeout)
    _state_file(settings).unlink(missing_ok=True)
    if not clean:
        raise LocalNeo4jError(
            f"the local Neo4j (pid {state.pid}) did not stop within {timeout:.0f}s and was killed; "
            "it will recover its transaction log on next start"
        )
    return True
