"""kernels/hooks.py: one description makes a hook's plain-Python form and its numba overload;
the search's world loop is written once (issue 38 "each hook written once")."""

from __future__ import annotations

import ast
import inspect
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from rams_sim.kernels import dispatch, hooks, search
from rams_sim.kernels.games import duel, modern, zone

KERNELS = Path(hooks.__file__).parent
Twice = namedtuple("Twice", ["k"])  # a made-up argument class the test hook picks by


def _choose(classes):
    """Test hook: ``x * 2`` for a Twice ``t``, ``x + 1`` for None; counts its calls."""
    _choose.calls += 1
    if classes["t"] is Twice:
        return "return x * t.k", {}
    if classes["t"] is type(None):
        return "y = x + one\nreturn y", {"one": 1}
    raise TypeError(f"no implementation for {classes['t']}")


_choose.calls = 0
scaled = hooks.hook("scaled", "t, x", _choose, "A test hook.", __name__)


@njit
def _call_scaled(t, x):
    return scaled(t, x)


def test_a_hook_has_its_declared_signature_and_docstring():
    assert list(inspect.signature(scaled).parameters) == ["t", "x"]
    assert scaled.__doc__ == "A test hook." and scaled.__name__ == "scaled" and scaled.__module__ == __name__
    assert list(inspect.signature(dispatch.play_deal).parameters)[:4] == ["r", "kinds", "params", "announce"]


def test_a_hook_picks_its_implementation_by_argument_class_in_plain_python_and_compiled():
    assert scaled(Twice(np.int64(3)), np.int64(5)) == 15
    assert scaled(None, np.int64(5)) == 6
    assert _call_scaled(Twice(np.int64(3)), np.int64(5)) == 15
    assert _call_scaled(None, np.int64(5)) == 6
    with pytest.raises(TypeError, match="no implementation"):
        scaled(1.5, 2)


def test_a_hook_builds_each_implementation_once_per_argument_classes():
    before = _choose.calls
    for _ in range(5):
        scaled(Twice(np.int64(2)), np.int64(1))
    assert _choose.calls - before <= 1


def test_class_of_maps_numba_types_to_python_classes():
    from numba import typeof, types

    assert hooks.class_of(types.none) is type(None)
    assert hooks.class_of(typeof(Twice(np.int64(1)))) is Twice
    assert hooks.class_of(Twice) is Twice


@pytest.mark.parametrize("hook", [search.search_card, search.search_decision, zone.zone_search_swap,
                                  zone.zone_search_card, modern.modern_search_turn, modern.modern_search_redeal,
                                  duel.duel_search_widow, duel.duel_search_trump, duel.duel_search_dave])  # fmt: skip
def test_search_hooks_answer_no_option_without_a_search(hook):
    """A table without a searching seat (``search`` None): the hook never calls the search."""
    from rams_sim.kernels.codes import NO_OPTION

    names = list(inspect.signature(hook).parameters)
    args = {name: None for name in names}
    got = hook(*args.values())
    assert got in (NO_OPTION, -1)


def _overloads(path: Path) -> list[str]:
    """The functions decorated with numba's ``overload`` in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if getattr(target, "id", getattr(target, "attr", "")) == "overload":
                    found.append(f"{path.name}:{node.name}")
    return found


def test_no_hook_is_written_by_hand_outside_hooks_py():
    """Every compile-time hook comes from hooks.hook: no hand-written @overload pair elsewhere."""
    found = [name for path in sorted(KERNELS.rglob("*.py")) if path.name != "hooks.py" for name in _overloads(path)]
    assert found == []  # (the finder finds a decorated function: the next test)


def test_the_overload_finder_finds_a_decorated_function(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("from numba.extending import overload\n@overload(len)\ndef _len(x):\n    return None\n")
    assert _overloads(f) == ["m.py:_len"]


def test_the_world_loop_is_written_once():
    """Only pimc.world_loops loops over worlds; every searched decision of every game uses it
    (a loop ``for j in range(...P_SAMPLES...)`` nowhere else)."""
    loops = []
    for path in sorted(KERNELS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.For) and "P_SAMPLES" in ast.unparse(node.iter):
                loops.append(path.name)
    assert loops == ["pimc.py"]
    callers = {path.name for path in KERNELS.rglob("*.py") if "= world_loops(" in path.read_text(encoding="utf-8")}
    assert callers == {"pimc.py", "duel_search.py", "modern_search.py", "zone_search.py"}


def test_every_engine_import_circle_is_a_search_and_its_deals():
    """The engines' only import circles are a search and the deals it plays (docs/ENGINE.md): each
    circle inside rams_sim.kernels or rams_sim.reference holds a search module."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_layout import ENGINE_PACKAGES, MODULES, _cycles, top_level_imports

    graph = {m: top_level_imports(m, everywhere=True) - {m} for m in MODULES}
    circles = [c for c in _cycles(graph) if all(m.startswith(ENGINE_PACKAGES) for m in c)]
    assert circles, "the finder found no circle: the engines' search circles are expected"
    for circle in circles:
        assert any(m.rsplit(".", 1)[-1] in ("pimc", "search") or m.endswith("_search") for m in circle), circle


_SEARCH_TABLE = """
import hashlib, sys
import numpy as np
from rams_sim import Rules, simulate
rules = Rules.named(sys.argv[1])
out = simulate(rules, ["pimc:samples=6,race=2"] + ["basic"] * (rules.players - 1), seed=5, deals=3)
h = hashlib.sha256()
for name, value in sorted(vars(out).items()):
    if isinstance(value, np.ndarray):
        h.update(name.encode())
        h.update(value.tobytes())
print(h.hexdigest())
"""


@pytest.mark.heavy
@pytest.mark.parametrize("preset", ["classic", "modern", "duel-trump", "zone"])
def test_a_searching_table_plays_the_same_deals_without_the_jit(preset):
    """The hooks' plain-Python forms and the world loops run the search under NUMBA_DISABLE_JIT=1 (the
    coverage pass) and play exactly the deals the compiled kernels play, in every game."""
    import os
    import subprocess
    import sys

    def digest(disable_jit: bool) -> str:
        env = {**os.environ, "NUMBA_DISABLE_JIT": "1" if disable_jit else "0"}
        run = subprocess.run([sys.executable, "-W", "ignore", "-c", _SEARCH_TABLE, preset], env=env, capture_output=True,
                             text=True, check=False)  # fmt: skip
        assert run.returncode == 0, run.stderr[-2000:]
        return run.stdout.strip()

    assert digest(True) == digest(False)
