"""Numba kernels: every ``@njit`` function of rams-sim, on arrays and scalars only.

Modules are named after the rule book's sections (RULES.md; docs/ENGINE.md opens with the
map): ``deal`` (R3), ``exchange`` (R4), ``declare`` (R5), ``play`` (R6: legal cards and the
play of the tricks), ``trick`` (R6.4), ``score`` (R7, R8.2-R8.3), ``party`` (R8), and
``games/`` (R9: one module per game, ``classic``, ``duel``, ``modern``, ``zone``, each with
its own deal steps, its policies' decisions and the entry points :mod:`.dispatch` picks).
``policy`` holds the built-in policies' decisions, ``drivers`` the entry points the
Python layer calls (many deals, one deal, parties, branches), with ``args`` (the rules
packed for the kernels), ``codes`` (every integer code), ``rng`` (counter-based
randomness), ``bits`` (card masks) and ``state`` (the per-thread arrays). Nothing here
does I/O, raises formatted errors or touches Python objects; :mod:`rams_sim.engine`
validates, seeds, allocates and reads status codes.

Kernels that take arrays and run once per card or per seat are ``inline="always"``:
numba inlines them into their caller, so a call costs no argument passing and, above
all, no reference counting of every array argument (an atomic increment and decrement
per array per call, which dominated the time of a deal).

Every kernel that never allocates is compiled with ``_nrt=False`` (numba's runtime off):
it only reads and writes arrays its caller holds for the duration of the call, so
reference counting them is pure cost, and with it off no call or inlined helper
counts references at all. Numba refuses to compile an allocation in such a kernel,
so the flag cannot hide a leak; only the few kernels that allocate state or outputs
(``make_state``, ``play_deals``, ``play_party``, ``play_parties``,
``settle_given``, ``play_branches``) keep the runtime.

Numba's on-disk cache (``cache=True``) does not notice when a kernel's *callee* in
another module changes (numba#1833), so a stale cache could run old rule code. The
cache therefore lives in a folder named by a hash of every source file the kernels
are compiled from, unless ``NUMBA_CACHE_DIR`` says otherwise.

Importing this package also removes two wasted copies from numba's inliner and the
compile of every ``inline="always"`` overload's body on its own (:mod:`.inlining`):
together they cut about 40% off a cold compile.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

from . import inlining


def _cache_dir() -> str:
    package = Path(__file__).resolve().parent.parent
    # modules the kernels import constants from (games.py: which module plays each game)
    shared = ("cards.py", "games.py", "policies.py", "record.py", "rules.py", "strategy_table.py")
    sources = sorted(package.glob("kernels/**/*.py")) + [package / name for name in shared]
    digest = hashlib.sha256()
    for path in sources:
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    digest.update(numba.__version__.encode())
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rams-sim" / "numba"
    return str(base / digest.hexdigest()[:16])


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()

inlining.apply()
