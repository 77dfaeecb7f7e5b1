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

The second waste is in ``@overload(..., inline="always")``, the form of every game and
search hook of :mod:`.dispatch` and :mod:`.search`. To type a call, numba 0.68 compiles the
overload's body as a function of its own -- typing, lowering, LLVM's whole-module
optimization and machine code of everything it calls, a deal included -- and then types the
same body again for inlining, and never uses the compiled function (numba PR #6856, closed
unmerged, measured the same waste). :func:`apply` also rewrites the two methods of
``_OverloadFunctionTemplate`` that do it: an always-inlined body is typed where it is inlined
and nowhere else (its arguments folded as the compile would fold them). Measured: a
searching duel table's kernels 98.6 -> 87.3 s, every game and search 306 -> 265
CPU-seconds. Same guard and switch as above; the kernels compiled are the same.
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
     ("    callee_ir_original = callee_ir  # unmutated: the copy below is the one mutated\n"
      "    callee_ir = copy_ir(callee_ir)\n")),
    ("    callee_ir_original = copy_ir(callee_ir)\n", ""),
)  # fmt: skip
# numba's _OverloadFunctionTemplate: an ``inline="always"`` overload's implementation is typed, not compiled
_OVERLOAD_EDITS = {
    "_build_impl": (
        ("    disp_type = types.Dispatcher(disp)\n    disp_type.get_call_type(self.context, args, kws)\n",
         ("    disp_type = types.Dispatcher(disp)\n"
          "    if not self._inline.is_always_inline:  # inlined: typed in generic(), never compiled on its own\n"
          "        disp_type.get_call_type(self.context, args, kws)\n")),
    ),
    "generic": (
        (("        resolve = disp_type.dispatcher.get_call_template\n"
          "        template, pysig, folded_args, kws = resolve(new_args, kws)\n"),
         ("        if self._inline.is_always_inline:  # the arguments folded as get_call_template does, uncompiled\n"
          "            pysig, folded_args = disp_type.dispatcher._compiler.fold_argument_types(new_args, kws)\n"
          "            kws = {}\n"
          "        else:\n"
          "            resolve = disp_type.dispatcher.get_call_template\n"
          "            template, pysig, folded_args, kws = resolve(new_args, kws)\n")),
    ),
}  # fmt: skip
OFF = "RAMS_SIM_NUMBA_INLINER"


def _edited(method, edits) -> str | None:
    """``method``'s source with ``edits`` made, or None unless each edit's old text occurs exactly once."""
    try:
        source = textwrap.dedent(inspect.getsource(method))
    except (OSError, TypeError):
        return None
    for old, new in edits:
        if source.count(old) != 1:
            return None  # another numba: leave it alone
        source = source.replace(old, new)
    return source


def _install(owner: type, name: str, source: str, module) -> None:
    """Replace ``owner.name`` by the function ``source`` defines, compiled in ``module``'s namespace."""
    namespace: dict = {}
    exec(compile(source, module.__file__, "exec"), module.__dict__, namespace)  # noqa: S102
    replaced = namespace[name]
    replaced._rams_sim = True
    replaced.numba_original = getattr(owner, name)
    setattr(owner, name, replaced)


def _rewrite(owner: type, edits_by_name: dict, module) -> bool:
    """Make ``edits_by_name`` (method name -> edits) to ``owner``'s methods, all of them or none; True when
    they are in place."""
    if all(getattr(getattr(owner, name), "_rams_sim", False) for name in edits_by_name):
        return True
    sources = {name: _edited(getattr(owner, name), edits) for name, edits in edits_by_name.items()}
    if any(source is None for source in sources.values()):
        return False
    for name, source in sources.items():
        _install(owner, name, source, module)
    return True


def apply() -> bool:
    """Replace numba's ``InlineWorker.inline_ir`` by the version above, and stop numba compiling
    the implementations of ``inline="always"`` overloads; True when both are in place."""
    from numba.core import inline_closurecall
    from numba.core.typing import templates

    if os.environ.get(OFF) == "plain":
        return False
    inliner = _rewrite(inline_closurecall.InlineWorker, {"inline_ir": _EDITS}, inline_closurecall)
    # both methods or neither: either alone saves nothing (the other still compiles the body)
    overloads = _rewrite(templates._OverloadFunctionTemplate, _OVERLOAD_EDITS, templates)
    return inliner and overloads
