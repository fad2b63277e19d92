"""Artifacts from Maven Central, resolved once by `mvn dependency:copy-dependencies` into a cache
folder (the managed Neo4j's jars, the embedding models shipped inside jars)."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .errors import JarResolutionError, MavenMissing


def progress(message: str) -> None:
    """Progress goes to stderr: stdout is the command's output (`--json` must stay parseable
    on the first use of a model, when it is fetched)."""
    print(message, file=sys.stderr, flush=True)


def copy_dependencies(pom: str, lib: Path, *, expect: str, what: str, otherwise: str = "",
                      echo: Callable[[str], None] = progress) -> Path:
    """Resolve the dependencies of `pom` into `lib` unless a finished copy of the same pom is
    there already; `expect` is a glob that must match a copied file. `what` names them in
    messages, `otherwise` says what the user can do instead of installing Maven."""
    marker = lib / ".complete"
    digest = hashlib.sha256(pom.encode()).hexdigest()
    if marker.exists() and marker.read_text() == digest:
        return lib
    mvn = shutil.which("mvn")
    if not mvn:
        raise MavenMissing(
            f"Maven (`mvn`) not found: it is needed once to fetch {what} from Maven Central "
            f"(install it, e.g. `apt-get install maven`){otherwise}")
    work = lib.parent
    work.mkdir(parents=True, exist_ok=True)
    (work / "pom.xml").write_text(pom)
    tmp = work / f"{lib.name}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    echo(f"Resolving {what} from Maven Central into {lib} (first use only)…")
    proc = subprocess.run(
        [mvn, "-B", "-q", "-f", str(work / "pom.xml"), "dependency:copy-dependencies",
         f"-DoutputDirectory={tmp}"],
        capture_output=True, text=True,
    )
    if proc.returncode != 0 or not any(tmp.glob(expect)):
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-8:])
        raise JarResolutionError(
            f"could not resolve {what} with Maven (exit {proc.returncode}); "
            f"check network access to Maven Central and ~/.m2/settings.xml.\n{tail}"
        )
    shutil.rmtree(lib, ignore_errors=True)
    tmp.rename(lib)
    marker.write_text(digest)
    return lib
