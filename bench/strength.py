"""pimc's strength and speed by ``infer=``, paired by deal (issue 45, item 5): prints figures, asserts nothing.

Seat 0 plays each policy in turn among ``expert`` players, on the same deals (the run's seed and
the deal index fix the deck and every coin of the other seats: common random numbers), the
dealer rotating so seat 0 sits in every position. For each table the script prints seat 0's
mean delta and deals/second under each policy, then the paired differences of each pimc
variant against today's default (``pimc``, infer=policy), against ``expert`` and against
``table`` in the same seat: mean +- 1.96 standard errors of the per-deal differences, n deals.
Signs: "gain" is the improvement in the game's own direction (classic's deltas count down,
modern's count up), so a positive gain is better for the first named policy.

Tables: classic at 3, 4 and 5 players, handbook at 4, and modern at 4 (an R9 game, where ``table``,
which looks up R4's pass and exchange, does not play). Run with
``python bench/strength.py --deals 6000`` (about 20 minutes on two cores at that size).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rams_sim import engine
from rams_sim.games import GAMES
from rams_sim.rules import Rules

Z95 = 1.959963984540054
TABLES = {"classic-3": ("classic", 3), "classic-4": ("classic", 4), "classic-5": ("classic", 5),
          "handbook-4": ("handbook", 4), "modern-4": ("modern", 4)}  # fmt: skip
DEFAULT = "pimc"  # today's default: infer=policy
VARIANTS = ("pimc:infer=play", "pimc:infer=cards")
SCRIPTED = ("expert", "table")


def seat0_deltas(rules: Rules, policy: str, seed: int, deals: int) -> tuple[np.ndarray, float]:
    """Seat 0's deltas (float64[deals]) with ``policy`` in seat 0 and ``expert`` elsewhere, and the
    wall seconds (after a one-deal compile)."""
    table = [policy] + ["expert"] * (rules.players - 1)
    engine.simulate(rules, table, seed=seed + 1, deals=2)  # compile outside the timing
    start = time.perf_counter()
    out = engine.simulate(rules, table, seed=seed, deals=deals)
    return out.delta[:, 0].astype(np.float64), time.perf_counter() - start


def paired(a: np.ndarray, b: np.ndarray, sign: float) -> str:
    """``sign * (a - b)``'s mean +- its 95% half-width, and n."""
    d = sign * (a - b)
    half = Z95 * d.std(ddof=1) / np.sqrt(d.size)
    return f"{d.mean():+.3f} +- {half:.3f} (n = {d.size:,})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6000, help="deals per table and policy (default 6000)")
    parser.add_argument("--seed", type=int, default=4505, help="the deals' seed (default 4505)")
    parser.add_argument("--tables", default=",".join(TABLES), help="comma-separated: " + ", ".join(TABLES))
    parser.add_argument("--variants", default=",".join(VARIANTS), help="pimc variants beside the default")
    args = parser.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    for name in args.tables.split(","):
        preset, players = TABLES[name]
        rules = Rules.named(preset, players=players)
        sign = 1.0 if GAMES[rules.game].counts_up else -1.0  # gain: the improvement in the game's direction
        print(f"\n{name}: seat 0 among {players - 1} expert, seed {args.seed}, {args.deals:,} deals")
        deltas = {}
        scripted = SCRIPTED if GAMES[rules.game].r4_exchange else ("expert",)  # table plays R4's exchange only
        for policy in (*scripted, DEFAULT, *variants):
            deltas[policy], seconds = seat0_deltas(rules, policy, args.seed, args.deals)
            print(f"  {policy:<22} mean delta {deltas[policy].mean():+.3f}   {args.deals / seconds:>10,.0f} deals/s",
                  flush=True)  # fmt: skip
        for policy in (DEFAULT, *variants):
            for other in (*((DEFAULT,) if policy != DEFAULT else ()), *scripted):
                print(f"  gain {policy} - {other}: {paired(deltas[policy], deltas[other], sign)}")


if __name__ == "__main__":
    main()
