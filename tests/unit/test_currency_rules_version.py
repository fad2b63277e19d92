"""The currency rules' version: what it hashes, and that it names the code loaded."""

import ast
from pathlib import Path

from graphmem import currency_rules

PACKAGE = Path(currency_rules.__file__).resolve().parent
# Imported by the deciding modules, deciding nothing: the query runner, the search's read of
# later facts (a question date's), the typed results, the driver, this module.
NOT_DECIDING = {"store/_run.py", "store/search.py", "responses.py", "errors.py", "db.py",
                "currency_rules.py"}


def _imported(source: str) -> set[str]:
    """The graphmem modules one module imports (relative imports), as paths in the package."""
    path = PACKAGE / source
    here = Path(source).parent
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = here
        for _ in range(node.level - 1):
            base = base.parent
        parts = node.module.split(".") if node.module else []
        names = [parts] + [[*parts, a.name] for a in node.names]  # a module, or names of one
        for mod in filter(None, names):
            target = base.joinpath(*mod)
            for candidate in (target.with_suffix(".py"), target / "__init__.py"):
                if (PACKAGE / candidate).is_file() and candidate.name != "__init__.py":
                    found.add(candidate.as_posix())
    return found


def test_every_module_a_deciding_module_imports_is_hashed_or_decides_nothing():
    for source in currency_rules.SOURCES:
        assert (PACKAGE / source).is_file(), source
        missing = _imported(source) - set(currency_rules.SOURCES) - NOT_DECIDING
        assert not missing, f"{source} imports {missing}: hash it (SOURCES) or say it decides nothing"


def test_the_version_is_twelve_hex_digits_computed_once():
    v = currency_rules.rules_version()
    assert len(v) == 12 and int(v, 16) >= 0
    assert currency_rules.rules_version() is currency_rules.RULES_VERSION
    assert currency_rules._digest() == v  # the same files read again: the same version
