"""The package metadata: every module directory ships, the licence is an SPDX string."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Not packages: the extractor's training corpus and the second annotation of its held-out
# messages stay in the repository (not shipped), and its weights ship as package data of
# graphmem.extract.model ("weights/*" in package-data).
NOT_SHIPPED = {"graphmem.extract.data.corpus", "graphmem.extract.data.agreement"}
PACKAGE_DATA_DIRS = {"graphmem.extract.model.weights"}


def test_every_package_directory_is_listed_and_the_licence_is_spdx() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(project["tool"]["setuptools"]["packages"])
    on_disk = {".".join(d.relative_to(ROOT).parts) for d in (ROOT / "graphmem").rglob("*")
               if d.is_dir() and "__pycache__" not in d.parts and any(
                   f.is_file() and f.suffix != ".pyc" for f in d.iterdir())}
    assert on_disk - listed - NOT_SHIPPED - PACKAGE_DATA_DIRS == set()
    data = project["tool"]["setuptools"]["package-data"]
    assert "weights/*" in data["graphmem.extract.model"]  # a directory left out is missing from a built wheel
    assert project["project"]["license"] == "Apache-2.0"  # a table is deprecated in setuptools
    assert any(r.startswith("setuptools>=77") for r in project["build-system"]["requires"])
