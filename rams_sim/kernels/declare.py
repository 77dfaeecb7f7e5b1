"""R5 step 4 of classic Rams: four aces, four jacks, the highest rams, jack pairs.

``cardsets`` and ``st`` are the state arrays of :mod:`rams_sim.kernels.state`; ``first``
is the seat left of the dealer, where "seat order" starts. The other games of R9 build
their own declarations from the same holders (:mod:`rams_sim.kernels.games`).
"""

from __future__ import annotations

from numba import njit

from ..cards import N_SUITS
from .bits import ONE, ZERO, ace_points, aces_mask, jack_kind, lowest, rams_suit, rank_of
from .codes import (
    D_FOUR_ACES,
    D_FOUR_JACKS,
    D_JACK_PAIR,
    D_JACKS_VOID,
    D_NONE,
    D_RAMS_OUTRANKED,
    D_SUIT_RAMS,
    D_TRUMP_RAMS,
    E_FOUR_ACES,
    E_FOUR_JACKS,
    E_JACKS,
    E_RAMS,
    JACKS_DEALT,
    JACKS_FINAL,
    LONE_VOID_DEAL,
    O_FOUR_ACES,
    O_FOUR_JACKS,
    O_JACKS_END,
    O_LONE,
    O_NOBODY,
    O_PLAYED,
    O_RAMS,
    O_VOID,
)
from .state import (
    ACES,
    ACTIVE,
    DEALT,
    DECL,
    DELTA,
    END_KIND,
    ENDS_PARTY,
    FINAL,
    HAND,
    JACK_KIND,
    JACKS,
    OUTCOME,
    seat_after,
)

ALL_ACES = (1 << N_SUITS) - 1
TRUMP_RAMS_RANK = N_SUITS  # R5.4: trump rams outranks every plain rams (ranked by suit)
KIND_FOUR_JACKS = 2  # R5.5: the jack kind of a hand holding all four jacks (st[JACK_KIND])

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
        total += card_points[rank_of(card)]
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
def rams_deltas(r, st, n, best):
    """R5.2-R5.3: the best rams's holder ``best`` writes off its base (suit_rams, trump_rams by
    st[DECL, best]) plus his aces; every other active seat (passers too with
    rams_penalizes_passers) writes on the base plus every ace he holds."""
    base = r.trump_rams if st[DECL, best] == D_TRUMP_RAMS else r.suit_rams
    for seat in range(n):
        if seat == best:
            st[DELTA, seat] = -(base + st[ACES, seat])
        elif st[ACTIVE, seat] or r.rams_penalizes_passers:
            st[DELTA, seat] = base + st[ACES, seat]


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


@njit(cache=True, _nrt=False, inline="always")
def prepare_final(cardsets, st, n, ace_value, jacks_count):
    """Ace points (R7) and jack kinds (R5.5) of the final hands; returns (n_active, lone seat)."""
    n_active = 0
    lone = -1
    for seat in range(n):
        cardsets[FINAL, seat] = cardsets[HAND, seat]
        st[ACES, seat] = ace_points(cardsets[HAND, seat], ace_value)
        if st[ACTIVE, seat]:
            n_active += 1
            lone = seat
    jack_kinds(cardsets, st, n, jacks_count)
    return n_active, lone


@njit(cache=True, _nrt=False, inline="always")
def four_jacks_win(st, n, first, info):
    """Option four_jacks_win (R9 from-15, modern): a holder of all four counted jacks wins the
    party at the declaration; True if one did. A jack declaration, so passers' count too
    (R5.5); senior to every rams. As R5.1, every delta 0; no other seat can hold counted
    jacks (all four are his)."""
    holder = four_jacks_holder(st, n, first)
    if holder < 0:
        return False
    st[DECL, holder] = D_FOUR_JACKS
    info[OUTCOME] = O_FOUR_JACKS
    info[ENDS_PARTY] = holder
    info[END_KIND] = E_FOUR_JACKS
    return True


@njit(cache=True, _nrt=False, inline="always")
def declare(r, cardsets, st, n, first, trump, scores, n_active, info):
    """R5 step 4; fills st[DELTA/DECL/JACKS]. Returns True when tricks follow (play or a lone player)."""
    declarations = not (n_active == 0 or (n_active == 1 and r.lone_player == LONE_VOID_DEAL))
    if declarations and r.four_aces_win:
        holder = four_aces_holder(cardsets, st, n, first)
        if holder >= 0:  # R5.1: every delta 0, the party ends; R5.6 jacks void
            st[DECL, holder] = D_FOUR_ACES
            void_jacks(st, n)
            info[OUTCOME] = O_FOUR_ACES
            info[ENDS_PARTY] = holder
            info[END_KIND] = E_FOUR_ACES
            return False
    if r.four_jacks_win and four_jacks_win(st, n, first, info):
        return False
    if declarations:
        best = best_rams(cardsets, st, n, first, trump, r.card_points)
        if best >= 0:  # R5.2-R5.4, R5.6
            rams_deltas(r, st, n, best)
            void_jacks(st, n)
            info[OUTCOME] = O_RAMS
            if scores[best] + st[DELTA, best] <= 0:
                info[ENDS_PARTY] = best
                info[END_KIND] = E_RAMS
            return False
    for seat in range(n):  # R5.5: jack pairs, passers included
        if st[JACK_KIND, seat] == 2:
            st[JACKS, seat] = r.four_jacks
            st[DECL, seat] = D_FOUR_JACKS
        elif st[JACK_KIND, seat] == 1:
            st[JACKS, seat] = r.jack_pair
            st[DECL, seat] = D_JACK_PAIR
        st[DELTA, seat] = -st[JACKS, seat]
    for k in range(n):  # R5.7: finishing on jacks
        seat = seat_after(first, k, n)
        if scores[seat] - st[JACKS, seat] <= 0:
            info[OUTCOME] = O_JACKS_END
            info[ENDS_PARTY] = seat
            info[END_KIND] = E_JACKS
            return False
    if not declarations:
        info[OUTCOME] = O_NOBODY if n_active == 0 else O_VOID
        return False
    info[OUTCOME] = O_LONE if n_active == 1 else O_PLAYED
    return True
