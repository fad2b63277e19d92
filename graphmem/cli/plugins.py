"""Command groups that packages of their own add to `graphmem` through the `graphmem.cli` entry
point group: the benchmark harness (`graphmem-bench`, the `bench/` directory of the repository)
is one. graphmem imports none of them; a command is looked up by its name when it is asked for."""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

import click

GROUP = "graphmem.cli"
# Commands that a package of graphmem's own repository provides, and how to install it.
KNOWN = {
    "bench": "it is the graphmem-bench package: install it from a graphmem checkout with "
             "`pip install -e bench/` (`make install` does)",
}


def _entry_point(name: str) -> EntryPoint | None:
    return next(iter(entry_points(group=GROUP, name=name)), None)


def _unavailable(name: str, why: str) -> click.Command:
    """A stand-in that says in one line why `graphmem NAME` cannot run, whatever follows it."""

    def fail() -> None:
        click.echo(f"graphmem: error: `graphmem {name}` is not available: {why}", err=True)
        raise SystemExit(1)

    return click.Command(name, callback=fail, help=f"(not installed) {why}", add_help_option=False,
                         context_settings={"ignore_unknown_options": True,
                                           "allow_extra_args": True})


class PluginGroup(click.Group):
    """A click group that adds the commands registered under the `graphmem.cli` entry points."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        added = {ep.name for ep in entry_points(group=GROUP)}
        return sorted({*super().list_commands(ctx), *added, *KNOWN})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        found = _entry_point(cmd_name)
        if found is None:
            return _unavailable(cmd_name, KNOWN[cmd_name]) if cmd_name in KNOWN else None
        try:
            command = found.load()
        except Exception as exc:  # a broken install: one line, not its traceback
            return _unavailable(cmd_name, f"{found.value} failed to load ({type(exc).__name__}: "
                                          f"{exc}); install its package again")
        if not isinstance(command, click.Command):
            return _unavailable(cmd_name, f"{found.value} is not a click command")
        return command
