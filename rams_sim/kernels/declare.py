"""R5 step 4: four aces, the highest rams, jack pairs.

``cardsets`` and ``st`` are the state arrays of :mod:`rams_sim.kernels.state`; ``first``
is the seat left of the dealer, where "seat order" starts.
"""

from __future__ import annotations

from numba import njit

from ..cards import N_SUITS, RANKS_PER_SUIT
from ..record import Declaration
from .args import JACKS_DEALT, JACKS_FINAL
from .bits import ONE, ZERO, aces_mask, jack_kind, lowest, rams_suit
from .state import ACTIVE, DEALT, DECL, HAND, JACK_KIND, seat_after

ALL_ACES = (1 << N_SUITS) - 1
TRUMP_RAMS_RANK = N_SUITS  # R5.4: trump rams outranks every plain rams (ranked by suit)
KIND_FOUR_JACKS = 2  # R5.5: the jack kind of a hand holding all four jacks (st[JACK_KIND])
D_NONE = int(Declaration.NONE)
D_JACK_PAIR = int(Declaration.JACK_PAIR)
D_FOUR_JACKS = int(Declaration.FOUR_JACKS)
D_SUIT_RAMS = int(Declaration.SUIT_RAMS)
D_TRUMP_RAMS = int(Declaration.TRUMP_RAMS)
D_FOUR_ACES = int(Declaration.FOUR_ACES)
D_RAMS_OUTRANKED = int(Declaration.RAMS_OUTRANKED)
D_JACKS_VOID = int(Declaration.JACKS_VOID)


@njit(cache=True, _nrt=False, inline="always")
def four_aces_holder(cardsets, st, n, first):
    """R5.1: the active seat holding four aces, or -1."""
    for i in range(n):
        seat = seat_after(first, i, n)
        if st[ACTIVE, seat] and aces_mask(cardsets[HAND, seat]) == ALL_ACES:
            return seat
    return -1


@njit(cache=True, _nrt=False, inline="always")
def four_jacks_holder(st, n, first):
    """four_jacks_win (R9 from-15): the first seat in seat order whose counted jack kind
    (R5.5, passers included) is four jacks, or -1."""
    for i in range(n):
        seat = seat_after(first, i, n)
        if st[JACK_KIND, seat] == KIND_FOUR_JACKS:
            return seat
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _points(mask, card_points):
    total = 0
    m = mask
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
        total += card_points[card % RANKS_PER_SUIT]
    return total


@njit(cache=True, _nrt=False, inline="always")
def best_rams(cardsets, st, n, first, trump, card_points):
    """R5.2-R5.4: the seat of the highest rams among active seats, or -1.

    Marks every other active rams holder RAMS_OUTRANKED in ``st[DECL]`` and the best one
    SUIT_RAMS or TRUMP_RAMS. Seniority: trump, then ♥ ♦ ♣ ♠; one suit: card points (R1);
    a full tie: the first in seat order.
    """
    best = -1
    best_rank = -1
    best_points = -1
    for i in range(n):
        seat = seat_after(first, i, n)
        if not st[ACTIVE, seat]:
            continue
        suit = rams_suit(cardsets[HAND, seat])
        if suit < 0:
            continue
        st[DECL, seat] = D_RAMS_OUTRANKED
        rank = TRUMP_RAMS_RANK if suit == trump else suit
        points = _points(cardsets[HAND, seat], card_points)
        if rank > best_rank or (rank == best_rank and points > best_points):
            best, best_rank, best_points = seat, rank, points
    if best >= 0:
        st[DECL, best] = D_TRUMP_RAMS if best_rank == TRUMP_RAMS_RANK else D_SUIT_RAMS
    return best


@njit(cache=True, _nrt=False, inline="always")
def jack_kinds(cardsets, st, n, jacks_count):
    """R5.5: the jack kind (0 none, 1 pair, 2 four jacks) counted for each seat, into st[JACK_KIND]."""
    for seat in range(n):
        dealt_kind = jack_kind(cardsets[DEALT, seat])
        final_kind = jack_kind(cardsets[HAND, seat])
        if jacks_count == JACKS_DEALT:
            st[JACK_KIND, seat] = dealt_kind
        elif jacks_count == JACKS_FINAL:
            st[JACK_KIND, seat] = final_kind
        else:
            st[JACK_KIND, seat] = max(dealt_kind, final_kind)


@njit(cache=True, _nrt=False, inline="always")
def void_jacks(st, n):
    """R5.6: a rams or four aces voids every jack pair; mark holders JACKS_VOID."""
    for seat in range(n):
        if st[JACK_KIND, seat] > 0 and st[DECL, seat] == D_NONE:
            st[DECL, seat] = D_JACKS_VOID
