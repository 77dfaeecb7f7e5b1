"""Benchmark of the search policy ``pimc`` and of ``rams-sim advise``: prints figures, asserts nothing.

* deals/second with one ``pimc`` seat among three ``expert`` seats (classic, 4 players) on
  every core, at the defaults (inferred worlds, racing), at the defaults before issue 35
  (``infer=none,race=0``) and with 32 worlds (issue 35's aim: >= 1,000 deals/s at the
  default on two cores);
* pimc decisions/second: the decisions where the search ran (two or more options open:
  the exchange turn, the dealer's R4.3 card, each card with a choice), counted from the
  deals' records with the engine's legality;
* ``advise`` wall time for an exchange turn and for a card, modern's turn, zone's swap and a
  card in zone, duel's widow, a dave offer and a card in duel, at the default target SE;
* deals/second with one ``pimc`` seat in zone (beside ``expert``) and in modern (among three
  ``expert``), and parties/second in duel (beside ``expert``), at the default ``samples``.

Run with ``make bench`` (or ``python bench/bench_pimc.py``).
"""

from __future__ import annotations

import argparse
import time

import numba

from rams_sim import advise, engine
from rams_sim import cards as C
from rams_sim.policies import PIMC_PARAMS
from rams_sim.rules import Rules


def searched_decisions(rules: Rules, out, seat: int) -> int:
    """The decisions of ``seat`` where pimc searched: its exchange turn (always two or more
    options), the dealer's R4.3 choice when he plays, and each card with two or more legal."""
    count = 0
    for i in range(out.delta.shape[0]):
        record = engine.record_of(out, i)
        if rules.players > 1:
            count += 1  # the exchange turn: stand and at least one discard set, or a pass
        if record.dealer == seat and not record.passed[seat]:
            count += 1
        if record.passed[seat] or not record.plays:
            continue
        hand = C.cards_of(record.hand_final[seat])
        trump = C.suit_of(record.trump_card)
        n = rules.players
        king = C.card_id(trump, C.KING)
        prev = None
        for tr in record.plays:
            seats = [s % n for s in range(tr.leader, tr.leader + n) if not record.passed[s % n]]
            if seat not in seats or tr.cards[seat] < 0:
                break
            j = seats.index(seat)
            before = [tr.cards[s] for s in seats[:j]]
            q_duty = j == 0 and prev is not None and prev.leader == seat and prev.winner == seat and prev.cards[seat] == king
            if len(engine.legal_cards(rules, hand, trump, before, q_duty)) > 1:
                count += 1
            hand.remove(tr.cards[seat])
            prev = tr
    return count


BEFORE_35 = "pimc:infer=none,race=0"  # the defaults before issue 35 (uniform worlds, every option in every world)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per timing run")
    args = parser.parse_args()
    rules = Rules()
    default = int(PIMC_PARAMS["samples"])
    print(f"pimc benchmark: classic, 4 players, seat 0 pimc, seats 1-3 expert; {numba.config.NUMBA_NUM_THREADS} threads")
    engine.simulate(rules, ["pimc:samples=1", "expert", "expert", "expert"], seed=0, deals=1)  # compile
    for spec, label in (("pimc", "default: inferred worlds, racing"), (BEFORE_35, "issue 35's start: uniform, no racing"),
                        ("pimc:samples=32", "32 worlds")):  # fmt: skip
        policies = [spec, "expert", "expert", "expert"]
        engine.simulate(rules, policies, seed=0, deals=4)  # compile
        start = time.perf_counter()
        out = engine.simulate(rules, policies, seed=1, deals=args.deals, log_plays=True)
        seconds = time.perf_counter() - start
        decisions = searched_decisions(rules, out, 0)
        print(f"{spec:<30} ({label}): {args.deals / seconds:8,.0f} deals/s, {decisions / seconds:9,.0f} "
              f"searched decisions/s ({decisions / args.deals:.2f} a deal)")  # fmt: skip
    print(f"aim (issue 35): 1,000 deals/s at the default on 2 cores, {default} worlds; strength: docs/SEARCH.md")
    for what, kwargs in (
        ("an exchange turn", dict(exchanged="1=2")),
        ("a card", dict(exchanged="1=2,2=0,3=1,0=1", played="8♠")),
        ("modern's turn", dict(hand="A♥ K♠ 9♠ 10♦ Q♣", trump="9♥", rules="modern", turns="1=pass")),
        ("zone's swap", dict(seat=1, rules="zone")),
        ("a card in zone", dict(hand="K♠ 7♠ 9♦ 10♣", seat=1, rules="zone", turns="1=stand", played="A♥ Q♦ / J♣")),
        ("duel's widow", dict(seat=1, rules="duel")),
        ("a dave offer in duel", dict(seat=1, rules="duel", turns="1=stand,0=stand", played="-")),
        ("a card in duel", dict(hand="K♠ 7♠ 9♦ 10♣ Q♣", seat=1, rules="duel", turns="1=stand,0=stand", played="-",
                                dave="pass")),
    ):
        hand, trump, seat = kwargs.pop("hand", "A♥ K♠ 7♠ 9♦ 10♣"), kwargs.pop("trump", "8♥"), kwargs.pop("seat", 2)
        advise(hand, trump, seat=seat, dealer=0, **kwargs)  # compile
        start = time.perf_counter()
        result = advise(hand, trump, seat=seat, dealer=0, **kwargs)
        print(f"advise, {what}: {time.perf_counter() - start:.2f} s, {len(result.table)} options, {result.worlds:,} worlds "
              f"(default target SE)")  # fmt: skip
    for preset, others in (("zone", ["expert"]), ("modern", ["expert"] * 3)):
        other_rules = Rules.named(preset)
        engine.simulate(other_rules, ["pimc:samples=1"] + others, seed=0, deals=1)  # compile
        deals = args.deals // 2
        start = time.perf_counter()
        engine.simulate(other_rules, ["pimc"] + others, seed=1, deals=deals)
        print(f"pimc in {preset} (seat 0 pimc, the others expert): {deals / (time.perf_counter() - start):8,.0f} deals/s "
              f"at samples={default}")  # fmt: skip
    duel = Rules.named("duel")
    engine.simulate_parties(duel, ["pimc:samples=1", "expert"], seed=0, parties=1)  # compile
    parties = args.deals // 2
    start = time.perf_counter()
    out = engine.simulate_parties(duel, ["pimc", "expert"], seed=1, parties=parties)
    seconds = time.perf_counter() - start
    print(f"pimc in duel (seat 0 pimc, seat 1 expert): {parties / seconds:8,.0f} parties/s, "
          f"{out.deals.sum() / seconds:8,.0f} deals/s at samples={default}")  # fmt: skip


if __name__ == "__main__":
    main()
