"""The house rules of the code layout (docs/ENGINE.md "Map"), read from the import statements.

* No import cycle among the package's modules (module-level imports).
* Nothing below the CLI imports the package ``__init__``.
* The kernels import only each other and the shared constant modules their cache key hashes.
* The reference engine shares with the kernels only ``rng`` (docs/ENGINE.md §1) and the
  layout sampler ``worlds`` (pure combinatorics, no rule).
* Statistics helpers import neither the runner nor numba.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rams_sim"
TOP = ("rams_sim", "rams_sim.__main__", "rams_sim.cli.main")  # the package init and the command line above it
# kernels/__init__ hashes these; strategy_table: the table policy's cell layout and its loaded table (data)
# games: the registry of R9's games (rams_sim/games.py: data and names, no kernel code)
KERNEL_SHARED = {"rams_sim.cards", "rams_sim.games", "rams_sim.policies", "rams_sim.record", "rams_sim.rules",
                 "rams_sim.strategy_table"}
REFERENCE_SHARED = {"rams_sim.cards", "rams_sim.games", "rams_sim.policies", "rams_sim.record", "rams_sim.rules",
                    "rams_sim.strategy_table",
                    "rams_sim.kernels.rng",
                    "rams_sim.kernels.worlds"}  # rng: the random streams; worlds: the layout sampler (combinatorics)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = _modules()


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def top_level_imports(module: str, everywhere: bool = False) -> set[str]:
    """The package modules ``module`` imports at module level (``everywhere``: inside functions too)."""
    path = MODULES[module]
    out: set[str] = set()
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree) if everywhere else tree.body:
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path, node)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in MODULES else base)
    return {m for m in out if m == "rams_sim" or m.startswith("rams_sim.")}


def test_no_import_cycles():
    graph = {m: top_level_imports(m) - {m} for m in MODULES}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(n):] + [n]))
            if n not in state:
                visit(n)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


@pytest.mark.parametrize("module", [m for m in MODULES if m not in TOP])
def test_nothing_below_the_cli_imports_the_package_init(module):
    assert "rams_sim" not in top_level_imports(module)


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("rams_sim.kernels")])
def test_kernels_import_only_kernels_and_shared_constants(module):
    outside = {m for m in top_level_imports(module) if not m.startswith("rams_sim.kernels")}
    assert outside <= KERNEL_SHARED, outside - KERNEL_SHARED


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("rams_sim.reference")])
def test_reference_shares_only_constants_configuration_and_rng(module):
    """The reference never imports kernel legality, trick, scoring, policy or search code (function-level
    imports too); of the kernels it shares only the random streams and the layout sampler."""
    imports = top_level_imports(module, everywhere=True)
    outside = {m for m in imports if not m.startswith("rams_sim.reference")}
    assert outside <= REFERENCE_SHARED, outside - REFERENCE_SHARED


@pytest.mark.parametrize("module", ["rams_sim.runs.summary", "rams_sim.runs.read", "analyses.stats", "analyses.clustered"])
def test_statistics_helpers_import_neither_runner_nor_numba(module):
    code = f"import sys, {module}; print(sorted(m for m in ('numba', 'rams_sim.runs.runner', 'rams_sim.engine') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


ENGINE_PACKAGES = ("rams_sim.kernels", "rams_sim.reference")  # their circles are numba's compile-time hooks


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_above_the_engines_even_inside_functions():
    """Issue 38: counting the imports inside functions too, no two modules outside the engines import each
    other, directly or round a circle (the engines' circles are numba's compile-time hooks, docs/ENGINE.md)."""
    graph = {m: top_level_imports(m, everywhere=True) - {m} for m in MODULES}
    above = [c for c in _cycles(graph) if not all(m.startswith(ENGINE_PACKAGES) for m in c)]
    assert above == [], above
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]  # the finder finds a circle
