"""advise against branch data: the validation suite, and issue 35's named positions (docs/SEARCH.md).

By default this runs the product's validation suite (:mod:`rams_sim.advice.check`, ``rams-sim
check-advice``: positions drawn from expert deals, each option's truth from branch data) and writes
its tables under reports/tables/ (advise-check-summary.csv, advise-check-options.csv). With
``--named`` it answers issue 35's twelve typed positions instead, as below.

For each position -- a hand, the turned-up trump card, the seat, the dealer and the
exchanges made before the seat's turn -- the *branch data* are deals that fix the seat's
five cards and the trump card (R3's places: seat ``(dealer + 1 + i) % n`` gets cards
``5i .. 5i + 4``, the trump card is card ``5n``), the rest shuffled uniformly; every seat
plays ``expert``; each exchange option open to the seat is replayed on the same deck
(:func:`rams_sim.engine.simulate_branches`), and only the deals whose earlier seats made the
exchanges given are kept (CLARIFICATIONS "Advice that reads the table"). advise answers the
same position with uniform worlds (``--infer none``) and with worlds weighted by the others'
exchanges (``--infer policy``), every option on every world (``race=0``: the gap then
measures the worlds, not racing's shorter rows); each option's mean is compared with the data's.

Per position the table gives the data's best option and its mean; for each advise, its best
option and that option's mean *in the data* (so the cost of following the advice is the
difference to the data's best), and the mean absolute gap between advise's means and the
data's over the options with at least MIN_DEALS kept deals. The data's intervals are 95%.

Run: ``python -m analyses.advise_check [--positions N] [--seed S]`` (the suite), or ``python -m
analyses.advise_check --named [--deals N]`` (minutes on two cores; ``--quick`` for a smoke run), which
prints a Markdown table and writes reports/tables/advise-vs-branch.csv.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rams_sim import advise, engine
from rams_sim import cards as C
from rams_sim.advice.check import branch_code
from rams_sim.advice.notation import parse_exchanged
from rams_sim.kernels.codes import OPTION_PASS
from rams_sim.record import Outcome
from rams_sim.rules import Rules

Z95 = 1.959963984540054
CHUNK = 50_000  # deals per branch call (33 rows each)
MIN_DEALS = 200  # an option's mean in the data counts in the gap from this many kept deals


@dataclass(frozen=True)
class Position:
    """A decision of the exchange turn after other seats' exchanges."""

    name: str
    hand: str
    trump_card: str
    seat: int
    dealer: int
    exchanged: str
    players: int = 4


POSITIONS = (
    Position("dealer, weak, after three exchanges of 3 (issue 35)", "K♠ Q♣ 9♣ 8♦ 7♦", "10♥", 0, 0, "1=3,2=3,3=3"),
    Position("a lone plain ace after 1=2 (issue 35's kind)", "A♦ K♠ 7♠ 9♥ 10♣", "8♣", 2, 0, "1=2"),
    Position("a lone plain ace after 1=2, trump 10", "A♣ Q♠ 8♠ 9♦ 7♥", "10♦", 2, 0, "1=2"),
    Position("two trumps after 1=1", "K♥ 9♥ Q♠ 8♣ 7♦", "7♥", 2, 0, "1=1"),
    Position("a plain ace, seat 3 after 1=2,2=3", "A♠ 10♦ 9♦ 8♣ 7♣", "Q♣", 3, 0, "1=2,2=3"),
    Position("seat 3 after 1=pass,2=3", "Q♦ J♦ 9♠ 8♥ 7♠", "K♦", 3, 0, "1=pass,2=3"),
    Position("dealer after 1=pass,2=3,3=2", "K♣ 10♣ 9♥ 8♠ 7♦", "J♣", 0, 0, "1=pass,2=3,3=2"),
    Position("dealer with a plain ace after 1=3,2=2,3=3", "A♥ K♦ 9♠ 8♠ 7♣", "9♣", 0, 0, "1=3,2=2,3=3"),
    Position("seat 2 after 1=5", "Q♥ 10♠ 9♣ 8♦ 7♦", "A♥", 2, 0, "1=5"),
    Position("seat 2 after 1=pass", "K♠ J♣ 9♦ 8♦ 7♥", "10♠", 2, 0, "1=pass"),
    Position("a black pair, seat 3 after 1=3,2=1", "J♠ J♣ 10♥ 8♥ 7♦", "9♦", 3, 0, "1=3,2=1"),
    Position("dealer, ace and trumps, after 1=2,2=3,3=3", "A♠ Q♣ 10♣ 8♥ 7♥", "K♠", 0, 0, "1=2,2=3,3=3"),
)


@dataclass
class Sums:
    """Per option: kept deals, the sums of delta and delta², remizes."""

    n: np.ndarray
    s: np.ndarray
    ss: np.ndarray
    remiz: np.ndarray


def _orders(rules: Rules, pos: Position, hand: list[int], trump_card: int, count: int, rng) -> np.ndarray:
    """``count`` deck orders with the seat's hand and the trump card in their R3 places, the rest uniform."""
    n = rules.players
    i = (pos.seat - pos.dealer - 1) % n
    rest = np.array([c for c in C.cards_of(C.deck_mask(rules.deck_size)) if c not in hand and c != trump_card], np.int8)
    shuffled = rest[np.argsort(rng.random((count, rest.size)), axis=1)]
    before, after = C.HAND_SIZE * i, C.HAND_SIZE * (n - 1 - i)
    fixed = np.tile(np.array(sorted(hand), np.int8), (count, 1))
    return np.concatenate([shuffled[:, :before], fixed, shuffled[:, before:before + after],
                           np.full((count, 1), trump_card, np.int8), shuffled[:, before + after:]], axis=1)  # fmt: skip


def branch_sums(rules: Rules, pos: Position, deals: int, seed: int) -> tuple[Sums, int]:
    """The branch data of ``pos`` over ``deals`` deck orders: per option code (OPTION_PASS ..
    31, shifted by -OPTION_PASS), the sums over the deals whose earlier seats exchanged as
    given. Returns the sums and the number of deals kept."""
    hand = C.parse_cards(pos.hand)
    trump_card = C.parse(pos.trump_card)
    given = parse_exchanged(pos.exchanged, rules.players)
    want = {s: -1 if v is None else v for s, v in given.items()}
    size = 33
    sums = Sums(np.zeros(size, np.int64), np.zeros(size, np.float64), np.zeros(size, np.float64), np.zeros(size, np.int64))
    rng = np.random.default_rng(seed)
    kept = 0
    for first in range(0, deals, CHUNK):
        count = min(CHUNK, deals - first)
        orders = _orders(rules, pos, hand, trump_card, count, rng)
        out = engine.simulate_branches(rules, "expert", seat=pos.seat, deals=count, dealer=pos.dealer, orders=orders,
                                       seed=seed, first_deal=first)  # fmt: skip
        match = np.ones(len(out), bool)
        for s, v in want.items():
            match &= out.exchanged[:, s] == v
        kept += len(np.unique(out.deal[match]))
        code = out.option[match].astype(np.int64) - OPTION_PASS
        delta = out.delta[match].astype(np.float64)
        remiz = (~out.passed[match]) & (out.tricks[match] == 0) & (out.outcome[match] == Outcome.PLAYED)
        np.add.at(sums.n, code, 1)
        np.add.at(sums.s, code, delta)
        np.add.at(sums.ss, code, delta * delta)
        np.add.at(sums.remiz, code, remiz.astype(np.int64))
    return sums, kept


def _code(row: dict, hand: list[int]) -> int:
    """An exchange row of advise as the branch's option code (rams_sim.advice.check.branch_code)."""
    return branch_code(row, hand, "exchange")


def _label(code: int, hand: list[int]) -> str:
    if code == OPTION_PASS:
        return "pass"
    if code == 0:
        return "stand"
    return "discard " + C.format_cards([c for j, c in enumerate(sorted(hand)) if code >> j & 1])


def check(pos: Position, deals: int, seed: int, target_se: float) -> dict:
    """One position: the data's and both advises' answers (see the module docstring)."""
    rules = Rules(players=pos.players)
    hand = C.parse_cards(pos.hand)
    sums, kept = branch_sums(rules, pos, deals, seed)
    n = np.maximum(sums.n, 1)
    mean = sums.s / n
    sd = np.sqrt(np.maximum(sums.ss / n - mean**2, 0.0) * n / np.maximum(n - 1, 1))
    enough = sums.n >= MIN_DEALS
    if not enough.any():
        raise ValueError(f"{pos.name}: {kept} of {deals:,} deals kept, too few to compare; give more --deals")
    best = int(np.flatnonzero(enough)[np.argmin(mean[enough])])
    out = {"position": pos.name, "hand": pos.hand, "trump": pos.trump_card, "seat": pos.seat, "dealer": pos.dealer,
           "exchanged": pos.exchanged, "deals kept": kept, "data best": _label(best + OPTION_PASS, hand),
           "data best mean": mean[best], "data best ci": Z95 * sd[best] / math.sqrt(n[best])}  # fmt: skip
    for infer in ("none", "policy"):
        result = advise(pos.hand, pos.trump_card, seat=pos.seat, dealer=pos.dealer, players=pos.players,
                        exchanged=pos.exchanged, infer=infer, target_se=target_se, seed=seed, race=0)  # fmt: skip
        gaps = []
        for row in result.rows:
            code = _code(row, hand) - OPTION_PASS
            if enough[code]:
                gaps.append(row["mean"] - mean[code])
        top = _code(result.rows[0], hand) - OPTION_PASS
        out[f"{infer} best"] = _label(top + OPTION_PASS, hand)
        out[f"{infer} best mean"] = result.rows[0]["mean"]
        out[f"{infer} best in data"] = mean[top] if sums.n[top] else float("nan")
        out[f"{infer} regret"] = (mean[top] - mean[best]) if sums.n[top] else float("nan")
        out[f"{infer} gap at data best"] = next(r["mean"] for r in result.rows if _code(r, hand) - OPTION_PASS == best) - mean[best]
        out[f"{infer} mean abs gap"] = float(np.mean(np.abs(gaps)))
        out[f"{infer} p_remiz"] = result.rows[0]["p_remiz"]
    return out


def suite(positions: int, seed: int, deals: int, folder: Path) -> None:
    """The product's validation suite (rams_sim.advice.check), its summary printed and its tables written."""
    from rams_sim.advice.check import CheckConfig, run_check, summary_markdown

    config = CheckConfig(positions=positions, seed=seed, presets=("classic", "encyclopedia", "from-15"),
                         players=(2, 3, 4, 5, 6, 7), deals=deals)  # fmt: skip
    options, _, summary = run_check(config, progress=lambda done, total: print(f"{done}/{total}", end="\r", flush=True))
    folder.mkdir(parents=True, exist_ok=True)
    summary.write_csv(folder / "advise-check-summary.csv")
    options.write_csv(folder / "advise-check-options.csv")
    print("\n".join(summary_markdown(summary)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--named", action="store_true", help="issue 35's named positions instead of the suite")
    parser.add_argument("--positions", type=int, default=150, help="the suite's positions")
    parser.add_argument("--deals", type=float, default=None, help="deck orders per position (the kept ones are fewer)")
    parser.add_argument("--seed", type=int, default=None, help="default 4502 for the suite, 35 for --named")
    parser.add_argument("--target-se", type=float, default=0.1, help="--named: advise's target standard error")
    parser.add_argument("--quick", action="store_true", help="--named: two positions, 100,000 orders each")
    parser.add_argument("--out", type=Path, default=Path("reports/tables/advise-vs-branch.csv"))
    args = parser.parse_args()
    if not args.named:
        suite(args.positions, 4502 if args.seed is None else args.seed, int(args.deals or 2e5), args.out.parent)
        return
    args.seed = 35 if args.seed is None else args.seed
    args.deals = 1e6 if args.deals is None else args.deals
    positions = POSITIONS[:2] if args.quick else POSITIONS
    deals = 100_000 if args.quick else int(args.deals)
    rows = []
    for pos in positions:
        try:
            rows.append(check(pos, deals, args.seed, args.target_se))
        except ValueError as err:
            print(f"skipped: {err}", flush=True)
            continue
        r = rows[-1]
        print(f"{pos.name}: kept {r['deals kept']:,}; data {r['data best']} {r['data best mean']:+.2f}; "
              f"none {r['none best']} gap {r['none mean abs gap']:.2f}; policy {r['policy best']} gap "
              f"{r['policy mean abs gap']:.2f}", flush=True)  # fmt: skip
    import polars as pl

    table = pl.DataFrame(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.write_csv(args.out)
    print("| position | kept | data best (mean ± 95%) | uniform: best, its data mean, gap | inferred: best, its data mean, gap |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['position']} | {r['deals kept']:,} | {r['data best']} {r['data best mean']:+.2f} ± {r['data best ci']:.2f} "
              f"| {r['none best']}, {r['none best in data']:+.2f}, {r['none mean abs gap']:.2f} "
              f"| {r['policy best']}, {r['policy best in data']:+.2f}, {r['policy mean abs gap']:.2f} |")  # fmt: skip
    for infer in ("none", "policy"):
        print(f"{infer}: mean abs gap {np.mean([r[f'{infer} mean abs gap'] for r in rows]):.2f}, gap at the data's best "
              f"{np.mean([abs(r[f'{infer} gap at data best']) for r in rows]):.2f}, regret "
              f"{np.nanmean([r[f'{infer} regret'] for r in rows]):.2f} points a deal")  # fmt: skip


if __name__ == "__main__":
    main()
