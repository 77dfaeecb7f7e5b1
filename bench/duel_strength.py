"""pimc's strength in duel and duel-trump, by whole parties (docs/SEARCH.md "duel"): prints figures.

One seat plays ``pimc`` at its defaults and the other a scripted policy, each seat in turn;
each party is paired with the same party (same seed and index) played by two scripted
players, and the difference is the searching seat's settlement minus the scripted
player's in its place (in stakes; a 95% interval from the paired differences). Also the
share of its parties the searching seat won.

Run with ``python bench/duel_strength.py --parties 4000``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rams_sim import engine
from rams_sim.rules import Rules

Z95 = 1.959963984540054


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parties", type=int, default=4000, help="parties per seat (default 4000)")
    parser.add_argument("--pimc", default="pimc", help="the searching policy (default pimc at its defaults)")
    args = parser.parse_args()
    for preset in ("duel", "duel-trump"):
        rules = Rules.named(preset)
        for other in ("expert", "basic"):
            start = time.perf_counter()
            gains, wins = [], []
            for seat in (0, 1):
                table = [other, other]
                table[seat] = args.pimc
                searched = engine.simulate_parties(rules, table, seed=100 + seat, parties=args.parties)
                scripted = engine.simulate_parties(rules, [other, other], seed=100 + seat, parties=args.parties)
                gains.append(searched.settlement[:, seat] - scripted.settlement[:, seat])
                wins.append(searched.winner == seat)
            gain, won = np.concatenate(gains), np.concatenate(wins)
            half = Z95 * gain.std(ddof=1) / np.sqrt(len(gain))
            p = won.mean()
            p_half = Z95 * np.sqrt(p * (1 - p) / len(won))
            print(f"{preset}: {args.pimc} in place of {other}: {gain.mean():+.3f} ± {half:.3f} stake a party, "
                  f"won {100 * p:.1f}% ± {100 * p_half:.1f}, n = {len(gain):,} parties "
                  f"({time.perf_counter() - start:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
