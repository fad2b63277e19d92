"""`graphmem` adds the command groups other packages register under the `graphmem.cli` entry
points (the benchmark harness is one), and says in one line how to install one that is missing."""

from __future__ import annotations

from importlib.metadata import EntryPoint, EntryPoints
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main, plugins


def _installed(site: Path, name: str, module: str, source: str) -> None:
    """A package installed the way pip records it: its module and a dist-info with entry points."""
    (site / f"{module}.py").write_text(source)
    info = site / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[graphmem.cli]\nhello = {module}:hello\n")


def _only(monkeypatch: pytest.MonkeyPatch, *eps: EntryPoint) -> None:
    """The installed entry points are exactly these (as if nothing else were installed)."""
    monkeypatch.setattr(plugins, "entry_points", lambda **params: EntryPoints(eps).select(**params))


def test_a_command_group_installed_under_the_entry_point_runs_as_a_graphmem_command(tmp_path,
                                                                                   monkeypatch):
    _installed(tmp_path, "graphmem-hello", "graphmem_hello_plugin", (
        "import click\n\n@click.group()\ndef hello():\n    'Says hello.'\n\n"
        "@hello.command()\n@click.argument('name')\ndef to(name):\n    click.echo(f'hello {name}')\n"))
    monkeypatch.syspath_prepend(str(tmp_path))
    out = CliRunner().invoke(main, ["hello", "to", "Ada"])
    assert out.exit_code == 0 and out.output == "hello Ada\n", out.output
    listed = CliRunner().invoke(main, ["--help"]).output
    assert "hello" in listed and "Says hello." in listed


def test_graphmem_bench_without_the_bench_installed_says_how_to_install_it(monkeypatch):
    _only(monkeypatch)
    for args in (["bench"], ["bench", "--help"], ["bench", "qa", "data.json", "--dry-run"]):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 1, (args, out.output)
        assert out.output.count("\n") == 1 and "Traceback" not in out.output, out.output
        assert "`graphmem bench` is not available" in out.output
        assert "pip install -e bench/" in out.output and "make install" in out.output
    assert "(not installed)" in CliRunner().invoke(main, ["--help"]).output


def test_a_plugin_that_fails_to_load_is_one_line(monkeypatch):
    _only(monkeypatch, EntryPoint("bench", "graphmem_no_such_module:bench", plugins.GROUP))
    out = CliRunner().invoke(main, ["bench", "currency"])
    assert out.exit_code == 1 and out.output.count("\n") == 1 and "Traceback" not in out.output
    assert "graphmem_no_such_module:bench failed to load (ModuleNotFoundError" in out.output
    _only(monkeypatch, EntryPoint("bench", "json:dumps", plugins.GROUP))
    out = CliRunner().invoke(main, ["bench"])
    assert out.exit_code == 1 and "json:dumps is not a click command" in out.output


def test_an_unknown_command_is_still_a_usage_error(monkeypatch):
    _only(monkeypatch)
    out = CliRunner().invoke(main, ["no-such-command"])
    assert out.exit_code == 2 and "No such command" in out.output


def test_graphmem_own_commands_win_over_a_plugin_of_the_same_name(monkeypatch):
    _only(monkeypatch, EntryPoint("stats", "graphmem_no_such_module:stats", plugins.GROUP))
    assert main.get_command(None, "stats") is main.commands["stats"]  # type: ignore[arg-type]
