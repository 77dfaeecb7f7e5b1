"""End-to-end benchmark of ``rams-sim run``: prints figures, asserts nothing about time.

Runs the real command in a subprocess, as a user would (classic, 4 players, ``basic``),
once small to make sure numba's cache is warm, then with ``--deals 1e7`` into a
temporary folder; then ``rams-sim branch`` (every exchange option of seat 1, about 32
replays a deal) with ``basic`` and with ``expert``. Prints the wall time of the whole command (Python start-up, kernels,
Parquet writing and the summary included), deals/second, the peak memory (RSS) of the
command and the size of the data.

Run with ``make bench`` (or ``python bench/bench_run.py --deals 1e7``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rams_sim() -> list[str]:
    """The command line that starts rams-sim with this interpreter."""
    return [sys.executable, "-m", "rams_sim"]


def timed_run(args: list[str]) -> tuple[float, float, str]:
    """Run a command; return (wall seconds, peak RSS in MiB, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out, err = proc.stdout.read(), proc.stderr.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{out}\n{err}")
    return wall, usage.ru_maxrss / 1024, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1e7", help="deals of the timed run (default 1e7)")
    parser.add_argument("--branch-deals", type=int, default=300_000, help="deals of the timed branch runs")
    parser.add_argument("--threads", type=int, default=None, help="kernel threads (default: all cores)")
    args = parser.parse_args()
    deals = int(float(args.deals))
    threads = ["--threads", str(args.threads)] if args.threads else []
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "warm"
        wall, _, _ = timed_run([*rams_sim(), "run", "--deals", "1000", "--out", str(warm)])
        print(f"warm-up run (1,000 deals, compiles the kernels if the cache is cold): {wall:.1f} s")
        shutil.rmtree(warm)
        out = Path(tmp) / "run"
        wall, peak, text = timed_run([*rams_sim(), "run", "--deals", str(deals), "--out", str(out), *threads])
        size = sum(f.stat().st_size for f in out.glob("*.parquet"))
        inner = next((line for line in text.splitlines() if " deals in " in line), "")
        print(f"rams-sim run --deals {deals:,}: {wall:.2f} s end to end ({deals / wall:,.0f} deals/s), "
              f"peak memory {peak:,.0f} MiB, data {size / 1e6:,.0f} MB in {len(list(out.glob('*.parquet')))} files")  # fmt: skip
        print(f"  the command's own report (kernels + tables + Parquet, without start-up and summary): {inner}")
        for policy in ("basic", "expert"):
            branch_deals = args.branch_deals
            out = Path(tmp) / f"branch-{policy}"
            wall, peak, text = timed_run([*rams_sim(), "branch", "--seat", "1", "--deals", str(branch_deals),
                                          "--policy", policy, "--out", str(out), *threads])  # fmt: skip
            per_deal = next((line for line in text.splitlines() if "options per deal" in line), "")
            print(f"rams-sim branch --deals {branch_deals:,} --policy {policy}: {wall:.2f} s end to end, "
                  f"{branch_deals / wall * 60:,.0f} deals a minute ({per_deal}), peak memory {peak:,.0f} MiB")  # fmt: skip


if __name__ == "__main__":
    main()
