"""The plain-rules loop: the yardstick issue 12 measures the classic kernel against.

A deal here is the part of Rams no player decides: the shuffle of the deal's key
(:mod:`rams_sim.kernels.rng`, the same stream the engine uses), five cards to each seat
from the dealer's left (R3), the next card turned for trump, then five tricks in which
every seat plays the lowest legal card (R6.2: follow suit, else trump, else anything;
R6.5-R6.7's duties of the lead and the trump ace, R6.6's queen duty aside: the engine's own
:func:`rams_sim.kernels.play.legal_mask` under the rules' R6 options) and the trick goes to the
winner by :func:`rams_sim.kernels.trick.beats` (R6.4), who leads the next. No pass, no
exchange, no dealer's trump card, no declarations, no scoring and no policy: what the
kernel adds to this is the cost of the game's decisions and its bookkeeping.

It shares the rule code it calls with the kernels, so it adds no rule logic of its own;
it is a benchmark, not part of the engine. ``python bench/plain_loop.py`` prints its speed.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from rams_sim.cards import HAND_SIZE, N_TRICKS, deck_cards
from rams_sim.kernels.bits import ZERO, bit, lowest, suit_of
from rams_sim.kernels.play import legal_mask
from rams_sim.kernels.rng import STATE_WORDS, deal_key, shuffle_deck
from rams_sim.kernels.state import seat_after
from rams_sim.kernels.trick import beats
from rams_sim.rules import Ruff, Rules


@njit(cache=True, nogil=True)
def plain_deals(seed, first, count, players, deck, overtrump, must_head, ace_covers_face, tricks):
    """Play deals ``first .. first + count - 1`` of ``seed`` at ``players`` seats by the plain rules.

    ``deck``: int8[N], the deck's card ids ascending; ``overtrump``, ``must_head``,
    ``ace_covers_face``: the R6.3, R6.3a and R6.7 options (:func:`rule_flags`);
    ``tricks``: int8[count, players], output, the tricks each seat took. Returns the sum of
    the trick winners' seats (a checksum that keeps the loop from being optimised away).
    """
    order = np.empty(deck.shape[0], np.int8)
    states = np.zeros((1, STATE_WORDS), np.uint64)
    hands = np.zeros(players, np.uint64)
    trick = np.zeros(players, np.int8)
    checksum = 0
    for i in range(count):
        d = first + i
        shuffle_deck(deal_key(seed, d), deck, order, states)
        dealer = d % players
        pos = 0
        for k in range(players):  # R3: five cards each, from the dealer's left
            seat = seat_after(dealer, k + 1, players)
            hand = ZERO
            for _ in range(HAND_SIZE):
                hand |= bit(order[pos])
                pos += 1
            hands[seat] = hand
            tricks[i, seat] = 0
        trump = suit_of(order[pos])
        leader = seat_after(dealer, 1, players)
        for _ in range(N_TRICKS):
            seat, best, winner = leader, 0, leader
            for k in range(players):
                legal = legal_mask(hands[seat], trick, k, trump, False, overtrump, must_head, ace_covers_face)
                card = lowest(legal)
                trick[k] = card
                hands[seat] &= ~bit(card)
                if k > 0 and beats(card, trick[best], trump):
                    best, winner = k, seat
                seat = seat_after(seat, 1, players)
            tricks[i, winner] += 1
            checksum += winner
            leader = winner
    return checksum


def rule_flags(rules: Rules) -> tuple[bool, bool, bool]:
    """The legality options of ``rules`` that :func:`plain_deals` reads: (overtrump, must_head, ace_covers_face)."""
    return rules.ruff == Ruff.OVERTRUMP, rules.must_head, rules.ace_covers_face


def plain_rate(deals: int, rules: Rules, repeats: int = 3) -> float:
    """Best deals/second of ``repeats`` runs of :func:`plain_deals` on one thread (compiled first)
    at the table size, deck and legality options of ``rules``."""
    deck, players = deck_cards(rules.deck_size), rules.players
    tricks = np.zeros((deals, players), np.int8)
    plain_deals(0, 0, 100, players, deck, *rule_flags(rules), tricks)  # compile (or load from the cache)
    best = 0.0
    for r in range(repeats):
        start = time.perf_counter()
        plain_deals(r, 0, deals, players, deck, *rule_flags(rules), tricks)
        best = max(best, deals / (time.perf_counter() - start))
    assert (tricks.sum(axis=1) == N_TRICKS).all()  # every deal played its five tricks
    return best


if __name__ == "__main__":
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 4_000_000
    rate = plain_rate(n, Rules.classic())
    print(f"plain-rules loop, 1 thread: {rate:,.0f} deals/s ({1e9 / rate:,.0f} ns/deal)")
