"""Every graphmem module imports on its own, no two modules import each other at module level
(read from the source with `ast`), and an import inside a function defers a heavy optional
dependency and says which (issue 33, item 3)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "graphmem"
# Packages that ship inside graphmem from other folders of the repository (pyproject.toml).
MAPPED = {"graphmem.schema": REPO / "schema", "graphmem.cypher": REPO / "cypher",
          "graphmem.loaders": REPO / "loaders"}

def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, folder in {"graphmem": PACKAGE, **MAPPED}.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The graphmem modules an import statement makes Python load (the module itself when it
    imports a name, the submodule when it imports one)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        source = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
        assert source is not None
        names = [f"{source}.{a.name}" if f"{source}.{a.name}" in MODULES else source
                 for a in node.names]
    out = []
    for name in names:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name and name != module:
            out.append(name)
    return out


def _module_level_imports(module: str, path: Path) -> set[str]:
    deps: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                deps.update(_imported(module, path, node))
            elif isinstance(node, ast.If) and not _is_type_checking(node.test):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                visit(node.orelse)
                visit(node.finalbody)
                for handler in node.handlers:
                    visit(handler.body)

    visit(ast.parse(path.read_text()).body)
    return deps


def _all_imports(module: str, path: Path) -> set[str]:
    """The graphmem modules a module imports anywhere: at module level or inside a function
    (only what `if TYPE_CHECKING:` names is left out: it never runs)."""
    tree = ast.parse(path.read_text())
    type_only = {id(n) for block in ast.walk(tree)
                 if isinstance(block, ast.If) and _is_type_checking(block.test)
                 for stmt in block.body for n in ast.walk(stmt)}
    deps: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in type_only:
            deps.update(_imported(module, path, node))
    return deps


def _cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_graphmem_modules() -> None:
    graph = {m: _module_level_imports(m, p) for m, p in MODULES.items()}
    found = [sorted(c) for c in _cycles(graph)]
    assert found == [], f"modules that import each other at module level: {found}"


def test_no_import_cycle_hidden_in_functions() -> None:
    """A function-local import that closes a cycle only hides it: counted with the module-level
    ones, graphmem's imports still form no cycle."""
    found = _cycles({m: _all_imports(m, p) for m, p in MODULES.items()})
    assert [sorted(c) for c in found] == [], f"modules that import each other: {found}"


def _function_local_imports(path: Path) -> list[tuple[int, str]]:
    lines = path.read_text().splitlines()
    found = []
    for fn in ast.walk(ast.parse(path.read_text())):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import | ast.ImportFrom):
                said = " ".join(lines[max(0, node.lineno - 3):node.end_lineno])
                found.append((node.lineno, said))
    return found


def test_a_function_local_import_says_which_heavy_dependency_it_defers() -> None:
    unsaid = []
    for path in sorted(MODULES.values()):  # cypher/, schema/ and loaders/ included
        rel = path.relative_to(REPO).as_posix()
        for line, said in _function_local_imports(path):
            if "eferred" not in said and "efers" not in said:
                unsaid.append(f"{rel}:{line}")
    assert unsaid == [], ("an import inside a function that does not say which heavy optional "
                          f"dependency it defers (move it to the top of the module): {unsaid}")


def _every_import(path: Path) -> list[tuple[int, str]]:
    """The modules every import statement of a file names (module level or in a function)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.lineno, "." * node.level + node.module)]
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def test_graphmem_imports_nothing_of_the_benchmark_harness() -> None:
    """The bench is a package of its own (bench/, graphmem-bench) that depends on graphmem; graphmem
    finds `graphmem bench` through an entry point and never imports it (issue 33, item 6)."""
    assert not (PACKAGE / "bench").exists(), "graphmem/bench/ is back: the bench lives in bench/"
    named = [f"{p.relative_to(REPO)}:{line} {name}" for p in MODULES.values()
             for line, name in _every_import(p)
             if name.split(".")[0] == "graphmem_bench" or name.startswith(("graphmem.bench", ".bench"))]
    assert named == [], f"graphmem imports the benchmark harness: {named}"


def test_every_module_imports_in_one_fresh_interpreter() -> None:
    names = [m for m in MODULES if not m.endswith("__main__")]
    script = ("import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
              # nothing of graphmem loads the bench, which depends on graphmem (issue 33, item 6)
              "assert not [m for m in sys.modules if m.startswith('graphmem_bench')]")
    done = subprocess.run([sys.executable, "-c", script, *names], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_every_module_imports_on_its_own() -> None:
    """One fresh interpreter loads the third-party libraries once, then imports each graphmem
    module in a forked child of its own, so no module leans on another having been imported."""
    script = """
import os, sys
# Third-party libraries only, loaded once and shared by every child (a child pays for graphmem's
# own modules alone).
import click, dateparser, fastapi, httpx, mcp, neo4j, numpy, openai, platformdirs, tqdm
failed = []
for name in sys.argv[1:]:
    pid = os.fork()
    if pid == 0:
        try:
            __import__(name)
        except BaseException as exc:
            print(f"{name}: {type(exc).__name__}: {exc}", flush=True)
            os._exit(1)
        os._exit(0)
    if os.waitpid(pid, 0)[1] != 0:
        failed.append(name)
print("FAILED", failed)
sys.exit(1 if failed else 0)
"""
    names = [m for m in MODULES if not m.endswith("__main__")]
    done = subprocess.run([sys.executable, "-c", script, *names], cwd=REPO, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
