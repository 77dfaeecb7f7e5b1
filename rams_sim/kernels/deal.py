"""R3: the start of a deal, for every game: the deck order, the coins, the hands, a clean score sheet.

State arrays are those of :mod:`rams_sim.kernels.state`; ``r`` is the rules' kernel view
(:mod:`rams_sim.kernels.args`); ``kinds`` int8[n] are the seats' policy kinds.
"""

from __future__ import annotations

from numba import njit

from ..cards import HAND_SIZE, N_TRICKS
from .bits import ZERO, bit
from .codes import D_NONE, E_NONE, NO_INTENT, NO_OPTION, OK
from .policy import uses_coins
from .rng import seed_stream, shuffle_deck
from .state import (
    ACTIVE,
    AT_ZERO,
    DAVE,
    DEALT,
    DECL,
    DELTA,
    DISCARDS,
    DRAWN,
    END_KIND,
    ENDS_PARTY,
    FINE,
    FORCED,
    HAND,
    INTENT,
    JACKS,
    LOG_LEADER,
    NEXT_DEALER,
    OVERSHOT,
    OWN_TRUMP,
    PASSED,
    PROKAT,
    REDEALS,
    STATUS,
    TOOK_TRUMP,
    TRICKS,
    TRUMP_DISCARD,
    WIDOW,
    seat_after,
)


@njit(cache=True, _nrt=False, inline="always")
def shuffle_and_seed(r, kinds, key, fixed_order, use_fixed, order, rng):
    """R3 and ENGINE.md §1, for every game: the deck order (``fixed_order`` if ``use_fixed``,
    else the shuffle of stream 0 of ``key``) into ``order``, and the coin stream of every seat
    whose policy flips coins (row seat + 1 of ``rng``, keyed ``key``)."""
    if use_fixed:
        for j in range(r.deck_size):
            order[j] = fixed_order[j]
    else:
        shuffle_deck(key, r.deck, order, rng)
    for seat in range(r.players):
        if uses_coins(kinds[seat]):
            seed_stream(rng, seat + 1, key, seat + 1)


@njit(cache=True, _nrt=False, inline="always")
def deal_cards(order, n, dealer, cardsets, st):
    """R3: seat (dealer + 1 + i) mod n gets order[5i .. 5i+4]; returns the trump card order[5n]."""
    first = seat_after(dealer, 1, n)
    for k in range(n):
        seat = seat_after(first, k, n)
        hand = ZERO
        for j in range(HAND_SIZE):
            hand |= bit(order[HAND_SIZE * k + j])
        cardsets[HAND, seat] = hand
        cardsets[DEALT, seat] = hand
        cardsets[DISCARDS, seat] = ZERO
        cardsets[DRAWN, seat] = ZERO
        st[ACTIVE, seat] = 1
        st[PASSED, seat] = 0
        st[TOOK_TRUMP, seat] = 0
        st[OWN_TRUMP, seat] = 0
        st[TRUMP_DISCARD, seat] = -1
        st[INTENT, seat] = NO_INTENT
    return order[HAND_SIZE * n]


@njit(cache=True, _nrt=False, inline="always")
def reset_scoring(st, n, info, log):
    """Clear the scoring state of every seat and the deal's party-end slots, and mark every
    trick of the play log unplayed (leader -1)."""
    for seat in range(n):
        st[TRICKS, seat] = 0
        st[AT_ZERO, seat] = 0
        st[OVERSHOT, seat] = 0
        st[DECL, seat] = D_NONE
        st[DELTA, seat] = 0
        st[JACKS, seat] = 0
        st[FINE, seat] = 0
        st[DAVE, seat] = 0
        st[PROKAT, seat] = 0
    info[ENDS_PARTY] = -1
    info[END_KIND] = E_NONE
    info[STATUS] = OK
    info[WIDOW] = -1
    info[NEXT_DEALER] = -1
    info[REDEALS] = 0
    info[FORCED] = NO_OPTION
    for t in range(N_TRICKS):
        log[t, LOG_LEADER] = -1
