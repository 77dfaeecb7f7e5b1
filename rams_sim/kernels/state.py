"""The per-thread state of one deal: a few flat arrays, indexed by named rows.

Kernels pass these arrays one by one (never bundled in tuples, whose every array
numba reference-counts at each call) and index them, never slice them:

* ``order``    int8[N_CARDS]: the deck order of the deal (R3).
* ``rng``      uint64[MAX_SEATS + 1, 4]: row 0 shuffles, row seat + 1 is the seat's coins.
* ``cardsets`` uint64[N_CARDSETS, MAX_SEATS]: card masks by seat, rows below.
* ``st``       int64[N_FIELDS, MAX_SEATS]: per-seat numbers, rows below.
* ``trick``    int8[2, MAX_SEATS]: row 0 the cards of the trick in play order, row 1 their seats.
* ``info``     int64[N_INFO]: per-deal numbers, slots below.
* ``log``      int8[N_TRICKS, MAX_SEATS + 2]: card by seat of each trick, then leader and winner.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import MAX_SEATS, N_CARDS, N_TRICKS
from .rng import STATE_WORDS

# cardsets rows: HAND is the hand in play; FINAL keeps it as it was at the first lead
HAND, DEALT, DISCARDS, DRAWN, FINAL = 0, 1, 2, 3, 4
N_CARDSETS = 5

# st rows
ACTIVE, PASSED, TOOK_TRUMP, TRUMP_DISCARD, ACES, JACK_KIND = 0, 1, 2, 3, 4, 5
JACKS, DECL, TRICKS, AT_ZERO, OVERSHOT, DELTA = 6, 7, 8, 9, 10, 11
INTENT = 12  # R4.0a: the seat's announcement (record.Intent code; public)
# R9 games (docs/VARIANTS.md); 0 in classic Rams
FINE = 13  # points written on this deal for a broken duty (zone's lead duty); also in DELTA
DAVE = 14  # doublings (dave) the seat offered this deal (duel)
PROKAT = 15  # 1 if the seat pays the прокат this deal (zone)
OWN_TRUMP = 16  # 1 for the seat dealt the trump card itself (modern: the dealer's last card, shown); public
N_FIELDS = 17

# info slots
TRUMP_CARD, OUTCOME, ENDS_PARTY, END_KIND, STATUS = 0, 1, 2, 3, 4
# R9 games: WIDOW, NEXT_DEALER and REDEALS are per deal; STAKE and CUBE are the party's
# dave state, kept across its deals (the drivers set 1 and -1 before a party or single deal)
WIDOW = 5  # the seat that took the widow, -1 none (duel, modern, zone)
STAKE = 6  # the party's stake multiplier in force after the deal (1 without dave)
CUBE = 7  # the seat that owns the dave cube, -1 centred (duel)
NEXT_DEALER = 8  # the seat that deals next in a party, -1 for the usual rotation (zone: the loser)
REDEALS = 9  # redeals demanded before this deal was played (modern)
FORCED = 10  # a branch's forced option as taken this deal (kernels/force.py), codes.NO_OPTION until then
N_INFO = 11

# log columns after the seats
LOG_LEADER, LOG_WINNER = MAX_SEATS, MAX_SEATS + 1

# trick rows
TRICK_CARD, TRICK_SEAT = 0, 1


@njit(cache=True, _nrt=False)
def seat_after(seat, k, n):
    """The seat ``k`` places clockwise of ``seat`` (0 <= seat < n, 0 <= k <= n), without a division."""
    s = seat + k
    return s - n if s >= n else s


@njit(cache=True, _nrt=False, inline="always")
def holds_trump_card(st, seat):
    """Whether everyone knows ``seat`` holds the trump card (until he plays it or, having laid
    cards aside, may have laid it aside: the caller's ``trump_hidden``): he took it (R4.3,
    TOOK_TRUMP) or it is his own dealt card (modern, OWN_TRUMP). Public rows only."""
    return st[TOOK_TRUMP, seat] != 0 or st[OWN_TRUMP, seat] != 0


@njit(cache=True)
def make_state():
    """Fresh state arrays for one thread: (order, rng, cardsets, st, trick, info, log)."""
    return (
        np.zeros(N_CARDS, np.int8),
        np.zeros((MAX_SEATS + 1, STATE_WORDS), np.uint64),
        np.zeros((N_CARDSETS, MAX_SEATS), np.uint64),
        np.zeros((N_FIELDS, MAX_SEATS), np.int64),
        np.zeros((2, MAX_SEATS), np.int8),
        np.zeros(N_INFO, np.int64),
        np.zeros((N_TRICKS, MAX_SEATS + 2), np.int8),
    )
