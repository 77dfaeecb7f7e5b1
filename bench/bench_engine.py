"""Benchmark of the engines: prints figures, asserts nothing about time.

Measures, for classic rules, 4 players, the ``basic`` policy:
* the kernels' cold compile time (a fresh numba cache, in a subprocess);
* kernel deals/second on 1 and 2 threads (results only, no play log, no I/O);
* the reference engine's deals/second, and the ratio;
* the peak memory of this process.

Run with ``make bench`` (or ``python bench/bench_engine.py --deals 2e6``).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numba

from rams_sim import engine, reference
from rams_sim.rules import Rules

COMPILE_SNIPPET = (
    "import time; t = time.perf_counter(); "
    "from rams_sim import engine; from rams_sim.rules import Rules; "
    "engine.simulate(Rules.classic(), 'basic', deals=10); print(time.perf_counter() - t)"
)


def cold_compile_seconds() -> float:
    """Seconds to import and compile the kernels with an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def kernel_rate(rules: Rules, policy: str, deals: int, threads: int, repeats: int = 3) -> float:
    """Best deals/second of ``repeats`` runs on ``threads`` threads."""
    numba.set_num_threads(threads)
    engine.simulate(rules, policy, deals=1000)  # warm
    best = 0.0
    for r in range(repeats):
        start = time.perf_counter()
        engine.simulate(rules, policy, seed=r, deals=deals)
        best = max(best, deals / (time.perf_counter() - start))
    return best


def reference_rate(rules: Rules, policy: str, deals: int) -> float:
    """Deals/second of the pure-Python reference engine."""
    start = time.perf_counter()
    for d in range(deals):
        reference.play_deal(rules, policy, seed=1, deal=d)
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=float, default=2e6, help="deals per kernel timing run")
    parser.add_argument("--reference-deals", type=int, default=3000, help="deals for the reference timing")
    parser.add_argument("--skip-compile", action="store_true", help="skip the cold-compile measurement")
    args = parser.parse_args()
    rules = Rules.classic()
    deals = int(args.deals)
    print(f"rams-sim benchmark: classic, {rules.players} players, {rules.deck_size} cards, basic policy")
    print(f"machine: {os.cpu_count()} cores; numba {numba.__version__}, {numba.config.NUMBA_NUM_THREADS} threads available")
    if not args.skip_compile:
        print(f"cold compile (import + first call, empty cache): {cold_compile_seconds():.1f} s")
    one = kernel_rate(rules, "basic", deals, 1)
    print(f"kernel, 1 thread : {one:>12,.0f} deals/s  ({1e9 / one:,.0f} ns/deal)")
    if numba.config.NUMBA_NUM_THREADS >= 2:
        two = kernel_rate(rules, "basic", deals, 2)
        print(f"kernel, 2 threads: {two:>12,.0f} deals/s  (x{two / one:.2f})")
    ref = reference_rate(rules, "basic", args.reference_deals)
    print(f"reference engine : {ref:>12,.0f} deals/s  (kernel/reference = {one / ref:,.0f}x on one core)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (this process): {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
