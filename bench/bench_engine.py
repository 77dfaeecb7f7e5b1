"""Benchmark of the engines: prints figures, asserts nothing about time.

Measures:
* the cold compile time of each game's kernels for a deals run (a fresh numba cache, one
  subprocess per game: a run compiles only its own game), and of everything a game has;
* for classic rules, 4 players, the ``basic`` policy: the kernel alone (outputs allocated
  once, no table, no I/O) on 1 and 2 threads, and :func:`rams_sim.engine.simulate`
  (which allocates its outputs) on 1 thread;
* the plain-rules loop (bench/plain_loop.py: shuffle, hands, tricks of lowest legal cards)
  on 1 thread, and the kernel's time per deal as a multiple of its time (a ratio the
  machine's speed moves less than either figure);
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
import numpy as np
from plain_loop import plain_rate

from rams_sim import engine, reference
from rams_sim.kernels import drivers
from rams_sim.kernels.args import rules_args
from rams_sim.parallel import in_blocks
from rams_sim.policies import pack_policies, seat_policies
from rams_sim.rules import Game, Rules

TARGET_RATE = 1.5e6  # issue "One house": the classic kernel on one core, basic policy
PLAIN_AIM = 2.0  # issue "One house": the kernel at most twice the plain-rules loop's time per deal


def cold_compile_seconds(game: str, only: str) -> float:
    """Seconds to compile ``game``'s kernels (``only``: run or all) with an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "rams_sim.warm", "--only", only, "--games", game], env=env,
                       capture_output=True, text=True, check=True)  # fmt: skip
    return time.perf_counter() - start


def kernel_rate(rules: Rules, policy: str, deals: int, threads: int, repeats: int = 3) -> float:
    """Best deals/second of ``repeats`` calls of the kernel alone (outputs allocated once)."""
    numba.set_num_threads(threads)
    kinds, params, announce = pack_policies(seat_policies(policy, rules.players))
    out = engine.new_deal_out(deals, rules.players)
    scores = np.full(rules.players, rules.start, np.int64)
    packed = rules_args(rules)
    engine.simulate(rules, policy, deals=1000)  # warm
    best = 0.0
    for r in range(repeats):
        start = time.perf_counter()
        args = (packed, kinds, params, announce, np.uint64(r), 0, -1, scores, engine.NO_ORDER, engine.NO_KEYS,
                *out.arrays, None)
        in_blocks(lambda lo, hi, args=args: drivers.play_deals(*args, lo, hi), deals, engine.DEALS_PER_BLOCK)
        best = max(best, deals / (time.perf_counter() - start))
    return best


def simulate_rate(rules: Rules, policy: str, deals: int, threads: int, repeats: int = 3) -> float:
    """Best deals/second of ``repeats`` calls of :func:`engine.simulate` (which allocates its outputs)."""
    numba.set_num_threads(threads)
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
        for game in Game:
            run = cold_compile_seconds(game.value, "run")
            every = cold_compile_seconds(game.value, "all")
            print(f"cold compile, {game.value:<6}: {run:5.1f} s for a deals run, {every:5.1f} s for all its drivers")
    one = kernel_rate(rules, "basic", deals, 1)
    print(f"kernel, 1 thread : {one:>12,.0f} deals/s  ({1e9 / one:,.0f} ns/deal; target {TARGET_RATE:,.0f})")
    plain = plain_rate(deals, rules)
    print(f"plain-rules loop : {plain:>12,.0f} deals/s  ({1e9 / plain:,.0f} ns/deal; the kernel takes "
          f"{plain / one:.2f}x its time, the aim {PLAIN_AIM:g}x; bench/plain_loop.py)")
    if numba.config.NUMBA_NUM_THREADS >= 2:
        two = kernel_rate(rules, "basic", deals, 2)
        print(f"kernel, 2 threads: {two:>12,.0f} deals/s  (x{two / one:.2f})")
    sim = simulate_rate(rules, "basic", deals, 1)
    print(f"simulate, 1 thread: {sim:>11,.0f} deals/s  (kernel + allocating its outputs)")
    ref = reference_rate(rules, "basic", args.reference_deals)
    print(f"reference engine : {ref:>12,.0f} deals/s  (kernel/reference = {one / ref:,.0f}x on one core)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (this process): {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
