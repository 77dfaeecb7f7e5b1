"""rams_sim.kernels.inlining: numba's inliner without its two wasted IR copies, and
``inline="always"`` overloads without a compile of their own.

The differential tests and bench/digest.py check the real kernels compiled with it; here,
that it is in place (or numba no longer makes the copies), that a function of nested
inlined helpers compiles to the same answers as plain Python, that an inlined overload is
typed and inlined but never compiled on its own, and that it can be turned off.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys

import pytest
from numba import njit, types
from numba.core import event
from numba.core.inline_closurecall import InlineWorker
from numba.core.typing.templates import _OverloadFunctionTemplate
from numba.extending import overload

from rams_sim.kernels import inlining


def test_the_inliner_is_replaced_or_numba_no_longer_copies_twice():
    if inlining.apply():
        assert getattr(InlineWorker.inline_ir, "_rams_sim", False)
        original = inspect.getsource(InlineWorker.inline_ir.numba_original)
        assert "callee_ir_original = copy_ir(callee_ir)" in original
    else:  # another numba: only acceptable where the copy it removes is gone
        assert "callee_ir_original = copy_ir(callee_ir)" not in inspect.getsource(InlineWorker.inline_ir)


@njit(inline="always")
def _clip(x, lo, hi):
    if x < lo:
        return lo
    return hi if x > hi else x  # noqa: FURB136  (a branch, not min(): the inliner is tested on blocks it copies)


@njit(inline="always")
def _step(x, k):
    y = _clip(x * 3 + k, -50, 50)  # nested: inlined into a function that is itself inlined
    for _ in range(k % 3):
        y = _clip(y - 7, -20, 20)
    return y


@njit
def _walk(xs):
    total = 0
    for i in range(xs.shape[0]):
        total += _step(xs[i], i) - _step(-xs[i], i + 1)  # two sites of the same callee
    return total


def test_nested_inlined_helpers_compile_to_the_python_answer():
    import numpy as np

    xs = np.arange(-40, 41, dtype=np.int64)
    assert _walk(xs) == _walk.py_func(xs)


def _scaled(x, k):
    """A stub: compiled kernels call the overload below (as kernels/dispatch.py's hooks are)."""


@overload(_scaled, inline="always")
def _scaled_overload(x, k):
    if isinstance(k, types.Integer):
        return lambda x, k: _step(x * k, k)  # calls an inlined helper: typed inside the overload's body
    return lambda x, k: x


@njit
def _scale_all(xs, k):
    total = 0
    for i in range(xs.shape[0]):
        total += _scaled(xs[i], k) + _scaled(i, k)  # two sites
    return total


class _Compiles(event.Listener):
    def __init__(self):
        self.names = []

    def on_start(self, ev):
        self.names.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaIRAssumptionWarning")  # numba's, with or without it
def test_an_inlined_overload_is_typed_and_inlined_but_not_compiled_on_its_own():
    import numpy as np

    inlining.apply()
    fixed = [getattr(getattr(_OverloadFunctionTemplate, name), "_rams_sim", False) for name in ("_build_impl", "generic")]
    assert fixed in ([True, True], [False, False])  # both rewritten or neither (another numba)
    xs = np.arange(-30, 31, dtype=np.int64)
    listener = _Compiles()
    with event.install_listener("numba:compile", listener):
        got = _scale_all(xs, 3)
    assert got == sum(_step.py_func(int(x) * 3, 3) + _step.py_func(i * 3, 3) for i, x in enumerate(xs))
    assert "_scale_all" in listener.names
    compiled_alone = [n for n in listener.names if n.startswith("_scaled_overload")]
    assert (compiled_alone == []) == fixed[0], compiled_alone


def test_it_can_be_turned_off():
    code = (
        "import rams_sim.kernels\n"
        "from numba.core.inline_closurecall import InlineWorker\n"
        "from numba.core.typing.templates import _OverloadFunctionTemplate as T\n"
        "print([getattr(f, '_rams_sim', False) for f in (InlineWorker.inline_ir, T.generic, T._build_impl)])\n"
    )
    env = dict(os.environ, **{inlining.OFF: "plain"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[False, False, False]"
