"""Numba kernels: every ``@njit`` function of rams-sim, on arrays and scalars only.

Modules are named after rule concepts (RULES.md): ``deal`` (R3, R4), ``legal``
(R6.2-R6.7a), ``trick`` (R6.4), ``declare`` (R5), ``score`` (R7, R8.2-R8.4), ``policy``
(decisions of the built-in policies), ``game`` (one deal, many deals, a party), with
``rng`` (counter-based randomness), ``bits`` (card masks), ``state`` (the per-thread
arrays) and ``args`` (the rules packed for the kernels). Nothing here does I/O, raises
formatted errors or touches Python objects; :mod:`rams_sim.engine` validates, seeds,
allocates and reads status codes.

Kernels that take arrays and run once per card or per seat are ``inline="always"``:
numba inlines them into their caller, so a call costs no argument passing and, above
all, no reference counting of every array argument (an atomic increment and decrement
per array per call, which dominated the time of a deal).

Every kernel that never allocates is compiled with ``_nrt=False`` (numba's runtime off):
it only reads and writes arrays its caller holds for the duration of the call, so
reference counting them is pure cost, and with it off no call or inlined helper
counts references at all. Numba refuses to compile an allocation in such a kernel,
so the flag cannot hide a leak; only the few kernels that allocate state or outputs
(``make_state``, ``play_deals``, ``play_one``, ``play_party``, ``play_parties``,
``settle_given``) keep the runtime.

Numba's on-disk cache (``cache=True``) does not notice when a kernel's *callee* in
another module changes (numba#1833), so a stale cache could run old rule code. The
cache therefore lives in a folder named by a hash of every source file the kernels
are compiled from, unless ``NUMBA_CACHE_DIR`` says otherwise.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba


def _cache_dir() -> str:
    package = Path(__file__).resolve().parent.parent
    sources = sorted(package.glob("kernels/*.py")) + [package / n for n in ("cards.py", "policies.py", "record.py")]
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update(numba.__version__.encode())
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rams-sim" / "numba"
    return str(base / digest.hexdigest()[:16])


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()
