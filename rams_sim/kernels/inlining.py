"""Numba's inliner without its wasted copies: a third off every cold compile of the kernels.

Most kernels are ``inline="always"`` (:mod:`rams_sim.kernels`), so a deal's compile is
mostly numba inlining. For every call site numba's ``InlineWorker.inline_ir`` deep-copies
the callee's IR twice: once to mutate (needed), and once more to return an "unmutated
copy" that every caller in numba discards. And it copies block by block, each with a memo
of its own, so the function's scope -- every variable of the callee -- is copied again
for every block. Measured on this project (the classic kernels of every driver, cold): half
of the compile was ``copy.deepcopy`` (numba issue #8989, open; numba-cuda #688/#689 make the
same change).

:func:`apply` rewrites that one method: one copy per call site, one memo for all its
blocks (so they share one copied scope, as the callee's blocks share one scope), and the
input IR itself returned as the unmutated original (the mutated IR is the copy). The IR
that reaches type inference is the same, so the compiled kernels are the same (the
differential tests and the report data's digests run with it). The rewrite is made only
when the method's source holds exactly the lines it replaces; any other numba is left as
it is (slower to compile, equally right). ``RAMS_SIM_NUMBA_INLINER=plain`` turns it off.
"""

from __future__ import annotations

import inspect
import os
import textwrap

# (the lines of numba's InlineWorker.inline_ir, dedented, that are replaced; what replaces them)
_EDITS = (
    ("        kernel_copy.blocks = {}\n", "        kernel_copy.blocks = {}\n        memo = {}  # one scope copy\n"),
    ("copy.deepcopy(the_ir.blocks[block_label])", "copy.deepcopy(the_ir.blocks[block_label], memo)"),
    ("    callee_ir = copy_ir(callee_ir)\n",
     "    callee_ir_original = callee_ir  # unmutated: the copy below is the one mutated\n"
     "    callee_ir = copy_ir(callee_ir)\n"),
    ("    callee_ir_original = copy_ir(callee_ir)\n", ""),
)  # fmt: skip
OFF = "RAMS_SIM_NUMBA_INLINER"


def apply() -> bool:
    """Replace numba's ``InlineWorker.inline_ir`` by the version above; True when it is in place."""
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "_rams_sim", False):
        return True
    if os.environ.get(OFF) == "plain":
        return False
    try:
        source = textwrap.dedent(inspect.getsource(worker.inline_ir))
    except (OSError, TypeError):
        return False
    for old, new in _EDITS:
        if source.count(old) != 1:
            return False  # another numba: leave it alone
        source = source.replace(old, new)
    namespace: dict = {}
    exec(compile(source, inline_closurecall.__file__, "exec"), inline_closurecall.__dict__, namespace)  # noqa: S102
    inline_ir = namespace["inline_ir"]
    inline_ir._rams_sim = True
    inline_ir.numba_original = worker.inline_ir
    worker.inline_ir = inline_ir
    return True
