"""The CPU window of `bench serve`: a process tree's time, children included, and an external
Neo4j left unmeasured."""

import os
import subprocess
import sys
from dataclasses import replace

from graphmem.config import Settings
from graphmem_bench.cpu import CpuWindow, managed_neo4j_pid, tree_cpu_s


def test_a_busy_child_counts_in_its_parents_window():
    window = CpuWindow({"me": os.getpid(), "gone": None}).start()
    child = subprocess.Popen([sys.executable, "-c", "import time\nt=time.process_time()\n"
                              "while time.process_time() - t < 0.3: pass\ninput()"],
                             stdin=subprocess.PIPE)
    try:
        while (tree_cpu_s(child.pid) or 0) < 0.3:
            pass
        seconds = window.stop()  # the child is still running: counted as a live descendant
    finally:
        child.communicate(b"\n")
    assert seconds["me"] >= 0.3 and seconds["gone"] is None
    assert window.ms_per(3)["me"] >= 100 and window.ms_per(0)["me"] is None


def test_an_external_neo4j_is_not_measured():
    settings = replace(Settings.from_env({}), uri="bolt://db.example.com:7687")
    assert managed_neo4j_pid(settings) is None


def test_the_printed_line_names_what_was_not_measured():
    from graphmem_bench.serve import LoadLevel

    level = LoadLevel(1, 3.0, cpu_ms_per_request={"server": 20.5, "neo4j": 22.25}, load_avg_1m=4.1)
    assert level.cpu_line() == ("  CPU per request: server 20.5 ms + Neo4j 22.25 ms = 42.8 ms "
                                "(load average 4.1)")
    level.cpu_ms_per_request["neo4j"] = None
    assert "Neo4j not measured (load" in level.cpu_line()
