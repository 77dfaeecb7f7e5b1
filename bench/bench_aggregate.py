"""End-to-end benchmark of an aggregated run: prints figures, asserts nothing about time.

Runs ``rams-sim run --aggregate seat,aces,trump_suit_held,declaration`` (classic, 4
players, ``basic``) in a subprocess, as a user would: once small to warm numba's cache,
then with ``--deals`` (default 1e9) into a temporary folder. Prints the wall time of the
whole command, deals/second, the peak memory (RSS) and the size of the output.

Run with ``make bench`` (or ``python bench/bench_aggregate.py --deals 1e8`` for a shorter look).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench_run import rams_sim, timed_run

KEYS = "seat,aces,trump_suit_held,declaration"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1e9", help="deals of the timed run (default 1e9)")
    parser.add_argument("--keys", default=KEYS, help=f"aggregation keys (default {KEYS})")
    args = parser.parse_args()
    deals = int(float(args.deals))
    with tempfile.TemporaryDirectory() as tmp:
        timed_run([*rams_sim(), "run", "--deals", "1000", "--aggregate", args.keys, "--out", str(Path(tmp) / "warm")])
        out = Path(tmp) / "run"
        wall, peak, _ = timed_run([*rams_sim(), "run", "--deals", str(deals), "--aggregate", args.keys, "--out", str(out)])
        size = sum(f.stat().st_size for f in out.iterdir())
        print(f"rams-sim run --deals {deals:,} --aggregate {args.keys}: {wall:.1f} s end to end "
              f"({deals / wall:,.0f} deals/s), peak memory {peak:,.0f} MiB, output {size / 1e6:.2f} MB")  # fmt: skip


if __name__ == "__main__":
    main()
