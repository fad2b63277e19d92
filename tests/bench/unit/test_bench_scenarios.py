"""The currency scenario files: the shipped suite loads, and a malformed file is one clear line
from `graphmem bench currency` before anything runs (no Neo4j is contacted)."""

import json
import subprocess

import pytest

from graphmem.errors import InputError
from graphmem_bench.currency import default_path
from graphmem_bench.scenarios import load_scenarios
from tests.bench.benchenv import bench_command, bench_env

GOOD = {"id": "x", "sessions": [{"date": "2024-01-01", "turns": ["I live in Denver."]}],
        "holds": [{"predicate": "lives_in", "value": "Denver"}]}


def _write(tmp_path, name, doc):
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def test_shipped_suite_loads():
    scenarios = load_scenarios(default_path())
    assert len(scenarios) >= 120 and len({s.category for s in scenarios}) >= 12
    assert len({s.id for s in scenarios}) == len(scenarios)
    s = next(s for s in scenarios if s.id == "back-cities")
    assert s.order == [2, 0, 1] and s.checks["holds"][0]["predicate"] == "lives_in"


@pytest.mark.parametrize("scenario, message", [
    ({**GOOD, "hold": []}, "unknown key hold"),
    ({**GOOD, "sessions": []}, "sessions must be a non-empty list"),
    ({**GOOD, "sessions": [{"date": "March", "turns": ["x"]}]}, "'March' is not a date"),
    ({**GOOD, "holds": [{"predicate": "lives_in"}]}, "holds[0]: missing value"),
    ({**GOOD, "holds": [{"predicate": "p", "value": "v", "modality": "maybe"}]}, "modality"),
    ({**GOOD, "edges": [{"type": "REPLACES", "predicate": "p"}]}, "REPLACES"),
    ({**GOOD, "order": [0, 0]}, "not an ordering"),
    ({"id": "x", "sessions": GOOD["sessions"]}, "has no checks"),
    ({**GOOD, "asks": [{"question": "where?", "top": "Denver", "as_of": "soon"}]}, "as_of"),
])
def test_malformed_scenario_names_file_and_scenario(tmp_path, scenario, message):
    _write(tmp_path, "a.json", {"category": "c", "scenarios": [GOOD | {"id": "ok"}]})
    bad = _write(tmp_path, "b.json", {"category": "c", "scenarios": [scenario]})
    with pytest.raises(InputError) as err:
        load_scenarios(tmp_path)
    assert str(bad) in str(err.value) and "'x'" in str(err.value) and message in str(err.value)


def test_malformed_files(tmp_path):
    with pytest.raises(InputError, match="no such scenario"):
        load_scenarios(tmp_path / "missing")
    with pytest.raises(InputError, match="no \\*.json"):
        load_scenarios(tmp_path)
    _write(tmp_path, "a.json", "{not json")
    with pytest.raises(InputError, match="not a readable JSON file"):
        load_scenarios(tmp_path)
    _write(tmp_path, "a.json", {"category": "c", "scenarios": [GOOD]})
    _write(tmp_path, "b.json", {"category": "d", "scenarios": [GOOD]})
    with pytest.raises(InputError, match="also used in"):
        load_scenarios(tmp_path)


def test_cli_rejects_a_malformed_set_in_one_line(tmp_path):
    _write(tmp_path, "a.json", {"category": "c", "scenarios": [GOOD]})
    _write(tmp_path, "b.json", {"category": "c", "scenarios": [{**GOOD, "id": "y", "sessions": 3}]})
    env = bench_env(NEO4J_URI="bolt://127.0.0.1:9")  # never reached: files come first
    done = subprocess.run(bench_command("currency", str(tmp_path)), env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "b.json: scenario 'y': sessions must be" in lines[0], done.stderr
