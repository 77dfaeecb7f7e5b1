"""rams_sim.kernels.inlining: numba's inliner without its two wasted IR copies.

The differential tests and bench/digest.py check the real kernels compiled with it; here,
that it is in place (or numba no longer makes the copies), that a function of nested
inlined helpers compiles to the same answers as plain Python, and that it can be turned off.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys

from numba import njit
from numba.core.inline_closurecall import InlineWorker

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
    return hi if x > hi else x


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


def test_it_can_be_turned_off():
    code = (
        "import rams_sim.kernels\n"
        "from numba.core.inline_closurecall import InlineWorker\n"
        "print(getattr(InlineWorker.inline_ir, '_rams_sim', False))\n"
    )
    env = dict(os.environ, **{inlining.OFF: "plain"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
