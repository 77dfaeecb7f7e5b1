"""End-to-end benchmark of a paired rule comparison: prints figures, asserts nothing about time.

Runs, as a user would (subprocesses, each warmed once small), ``rams-sim run --deals N
--aggregate seat`` and ``rams-sim effect ace_forbids_pass=false --deals N --by seat`` (classic,
4 players, ``basic``; default N = 1e8) and prints each one's wall time, deals/second and peak
memory, and the ratio of the paired run's time to the aggregated run's (issue "Rule questions
answered paired": at most 2.2; two arms, each deal played twice). Both run in the same
minutes, so the ratio holds when the machine's speed moves.

Run with ``make bench`` (or ``python bench/bench_effect.py --deals 1e7`` for a shorter look).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench_run import rams_sim, timed_run

CHANGE = "ace_forbids_pass=false"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1e8", help="deals of each timed run (default 1e8)")
    args = parser.parse_args()
    deals = int(float(args.deals))
    with tempfile.TemporaryDirectory() as tmp:
        commands = {
            "aggregated": ["run", "--aggregate", "seat"],
            "paired": ["effect", CHANGE, "--by", "seat"],
        }
        walls = {}
        for name, command in commands.items():
            timed_run([*rams_sim(), *command, "--deals", "1000", "--out", str(Path(tmp) / f"warm-{name}")])
            wall, peak, _ = timed_run([*rams_sim(), *command, "--deals", str(deals), "--out", str(Path(tmp) / name)])
            walls[name] = wall
            print(f"rams-sim {' '.join(command)} --deals {deals:,}: {wall:.1f} s end to end "
                  f"({deals / wall:,.0f} deals/s), peak memory {peak:,.0f} MiB")  # fmt: skip
        print(f"paired / aggregated time: {walls['paired'] / walls['aggregated']:.2f} (aim: at most 2.2)")


if __name__ == "__main__":
    main()
