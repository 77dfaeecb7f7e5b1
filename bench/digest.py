"""Digest of the first rows of every report dataset: proof that a code change moved no row.

    python bench/digest.py > before.txt     # on the old code
    python bench/digest.py > after.txt      # on the new code
    diff before.txt after.txt               # no output: every row is the same

Each line is ``NAME SHA256`` over the table :func:`rams_sim.runs.runner.run_chunk` makes for the
dataset's first ``--deals`` deals (``--parties`` parties, ``--branches`` branched deals),
with the dataset's own rules, policies and seed (analyses/data.py). ``--only`` takes a
substring of the dataset names; extra lines cover the play log, a fixed dealer and every
policy kind in every game.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyses.data import REGISTRY
from rams_sim.policies import PolicySpec
from rams_sim.rules import PRESETS, Rules
from rams_sim.runs.runner import BRANCHES, DEALS, PARTIES, ChunkTask, RunSpec, run_chunk


def digest(spec: RunSpec, count: int) -> str:
    table = run_chunk(spec, ChunkTask(0, 0, count))
    h = hashlib.sha256()
    for name in table.columns:
        h.update(name.encode())
        h.update(table[name].to_numpy().tobytes())
    return h.hexdigest()[:20]


def extra_specs():
    """Runs the report data do not cover: the play log, a fixed dealer, every policy in every game."""
    for name in PRESETS:
        rules = Rules.named(name)
        n = rules.players
        for policy in ("random", "basic", "cautious", "greedy", "expert"):
            pol = tuple(PolicySpec.parse(p) for p in ([policy] + ["basic"] * (n - 1)))
            yield f"x-{name}-{policy}-log", RunSpec(DEALS, rules, pol, 77, 1, dealer=None, log_plays=True)
        pol = tuple(PolicySpec.parse("expert") for _ in range(n))
        yield f"x-{name}-expert-dealer1", RunSpec(DEALS, rules, pol, 78, 1, dealer=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--parties", type=int, default=2_000)
    ap.add_argument("--branches", type=int, default=2_000)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    sizes = {DEALS: args.deals, PARTIES: args.parties, BRANCHES: args.branches}
    for name, data in REGISTRY.items():
        if args.only in name:
            print(name, digest(data.spec(), sizes[data.kind]), flush=True)
    for name, spec in extra_specs():
        if args.only in name:
            print(name, digest(spec, 5_000), flush=True)


if __name__ == "__main__":
    main()
