"""The decorator of the kernels the Python layer runs in blocks on threads (:mod:`rams_sim.parallel`).

Such a kernel is a plain loop over a range of rows (deals, parties, blocks of worlds),
``nogil`` so that threads run it in parallel. It is compiled with numba's parallel
pipeline all the same, for the code it makes: that pipeline's lowering keeps every local
variable in a stack slot (numba's ``ParforLower`` turns off the "SROA-like" shortcut of
the plain lowering), after which LLVM removes more of the reference counting around the
inlined deal kernel: 650 instead of 830 ns a deal (``bench/bench_engine.py``, one
thread). With no ``prange`` inside there is no parallel region to build, so it costs no
compile time (a ``prange`` driver cost 4 s of compile per game, 12 s with a searching
seat); numba's remark that nothing was parallelized is silenced for these kernels only.
"""

from __future__ import annotations

import warnings

from numba import njit
from numba.core.errors import NumbaPerformanceWarning

from .rng import deal_key

row_kernel = njit(cache=True, nogil=True, parallel=True)


@njit(cache=True, _nrt=False, inline="always")
def deal_of_row(i, first_deal, fixed_dealer, n, seed, keys):
    """(dealer, key) of row ``i`` of a deals driver: deal ``d = first_deal + i`` is dealt by
    ``fixed_dealer`` if >= 0, else ``d % n``, and keyed ``keys[i]`` when ``keys`` (uint64[rows]
    or uint64[0]) is given, else ``deal_key(seed, d)`` (docs/ENGINE.md §1)."""
    d = first_deal + i
    dealer = fixed_dealer if fixed_dealer >= 0 else d % n
    key = keys[i] if keys.shape[0] > 0 else deal_key(seed, d)
    return dealer, key

warnings.filterwarnings("ignore", message=r"(?s).*no transformation for parallel execution.*kernels.(drivers|pimc|games.duel_search|games.modern_search|games.zone_search)\.py",
                        category=NumbaPerformanceWarning)  # fmt: skip
