"""Numba kernels: every ``@njit`` function of rams-sim, on arrays and scalars only.

Modules are named after rule concepts (RULES.md): ``deal`` (R3), ``exchange`` (R4),
``legal`` (R6.2-R6.7a), ``trick`` (R6.4), ``declare`` (R5), ``score`` (R7, R8.2-R8.3),
``policy`` (decisions of the built-in policies), ``game`` (one deal, many deals, a party).
Nothing here does I/O, raises formatted errors or touches Python objects; the Python
layer (:mod:`rams_sim.engine`) validates, seeds, allocates and reads status codes.
"""
