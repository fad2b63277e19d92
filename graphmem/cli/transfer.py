"""`graphmem export` and `graphmem import`: one user's memory as a JSONL file, and back."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

from .group import _fail_cleanly, main, open_memory


@main.command("export")
@click.option("--user", required=True, help="The user whose memory is written.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="The file to write (default: standard output).")
@_fail_cleanly
def export_cmd(user: str, output: Path | None) -> None:
    """Write one user's memory (transcripts with turn ids and times, facts, entities, every edge
    and who decided it) as JSONL, for backups, moving servers or the user's own copy."""
    with open_memory(answer_llm=False) as mem:
        if output is None:
            summary = mem.export_user(user, sys.stdout)
        else:  # written beside the target and renamed: never a half-written file
            fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", dir=output.parent or ".")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    summary = mem.export_user(user, out)
                os.replace(tmp, output)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
    click.echo(f"exported user {user!r}: nodes={summary['nodes']} edges={summary['edges']} "
               f"checksum={summary['checksum']}", err=True)


@main.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_fail_cleanly
def import_cmd(path: Path) -> None:
    """Restore a `graphmem export` file into this database (which must not hold that user):
    checked whole first, then written in one transaction."""
    with open_memory(answer_llm=False) as mem:
        s = mem.import_user(path)
    click.echo(f"imported user {s['user_id']!r}: nodes={s['nodes']} edges={s['edges']} "
               f"sessions={s['sessions']} turns={s['turns']} facts={s['facts']} "
               f"checksum={s['checksum']}")
