"""CPU a process tree spends over a measured window (psutil), and which process is Neo4j's: what
`bench serve` divides by the requests it completed to report CPU ms per request."""

from __future__ import annotations

from urllib.parse import urlsplit

import psutil

from graphmem import localneo4j
from graphmem.config import Settings


def tree_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of `pid` and every descendant alive now, plus what its ended
    children left on record; None when `pid` is gone or not ours to read. A descendant that
    ends inside a window is counted whole (its time before the window too), a small overcount."""
    try:
        root = psutil.Process(pid)
        t = root.cpu_times()
        total = t.user + t.system + t.children_user + t.children_system
        kids = root.children(recursive=True)
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None
    for kid in kids:
        try:
            k = kid.cpu_times()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue  # ended between the listing and the read: its time is its parent's now
        total += k.user + k.system
    return total


def _loopback(host: str | None) -> bool:
    return host in ("127.0.0.1", "localhost", "::1")


def managed_neo4j_pid(settings: Settings | None = None) -> int | None:
    """The pid of the Neo4j this machine manages (`graphmem neo4j start`) when it is the one in
    use: no NEO4J_URI, or a NEO4J_URI naming its loopback Bolt port. Else None: an external Neo4j's
    CPU is not ours to measure."""
    settings = settings or Settings.from_env()
    st = localneo4j.status(settings.local)
    if not st.running or st.state is None:
        return None
    if settings.external:
        uri = urlsplit(settings.uri or "")
        if not _loopback(uri.hostname) or uri.port != st.state.bolt_port:
            return None
    return st.state.pid


class CpuWindow:
    """CPU seconds of some process trees between `start()` and `stop()`; a tree whose pid is None
    or cannot be read at either end is reported as None (not measured), never guessed."""

    def __init__(self, pids: dict[str, int | None]):
        self.pids = pids
        self._before: dict[str, float | None] = {}
        self.seconds: dict[str, float | None] = {}

    def start(self) -> CpuWindow:
        self._before = {name: tree_cpu_s(pid) if pid else None for name, pid in self.pids.items()}
        return self

    def stop(self) -> dict[str, float | None]:
        for name, pid in self.pids.items():
            before = self._before.get(name)
            after = tree_cpu_s(pid) if pid else None
            self.seconds[name] = (after - before if before is not None and after is not None
                                  else None)
        return self.seconds

    def ms_per(self, count: int) -> dict[str, float | None]:
        """CPU ms per one of `count` things done in the window (None when not measured or 0)."""
        return {name: round(s * 1000 / count, 2) if s is not None and count else None
                for name, s in self.seconds.items()}
