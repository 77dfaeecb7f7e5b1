"""R7 and R8.2-R8.3: crediting tricks, the running score, the deltas, who ends the party.

``st`` is the per-seat state of :mod:`rams_sim.kernels.state`; ``scores`` int64[n]
holds each seat's score before the deal.
"""

from __future__ import annotations

from numba import njit

from ..cards import N_TRICKS
from .codes import E_DEAL_END, E_TRICK
from .state import ACES, ACTIVE, AT_ZERO, DELTA, END_KIND, ENDS_PARTY, JACKS, OVERSHOT, TRICKS, seat_after


@njit(cache=True, _nrt=False, inline="always")
def credit_trick(w, scores, st, announce):
    """Credit one trick to seat ``w``; return True when ``w`` announces reaching zero (R8.2).

    A seat silently at zero (it does not announce) that takes another trick overshoots
    (R8.3); an overshot seat gains nothing more in this deal.
    """
    st[TRICKS, w] += 1
    if st[OVERSHOT, w]:
        return False
    if st[AT_ZERO, w]:
        st[OVERSHOT, w] = 1
        return False
    if scores[w] - st[JACKS, w] - st[TRICKS, w] - st[ACES, w] <= 0:
        if announce[w]:
            return True
        st[AT_ZERO, w] = 1
    return False


@njit(cache=True, _nrt=False, inline="always")
def credit_lone(lone, scores, st, announce):
    """R4.5 takes-all: credit the lone player's tricks one at a time; return him if he announces zero."""
    for _ in range(N_TRICKS):
        if credit_trick(lone, scores, st, announce):
            return lone
    return -1


@njit(cache=True, _nrt=False, inline="always")
def played_out_deltas(n, scores, st, start, remiz):
    """R7.1-R7.4, R8.3: every seat's delta for a deal played to the end."""
    for seat in range(n):
        if st[OVERSHOT, seat]:
            st[DELTA, seat] = start - scores[seat]
        elif not st[ACTIVE, seat]:
            st[DELTA, seat] = -st[JACKS, seat]
        elif st[TRICKS, seat] >= 1:
            st[DELTA, seat] = -(st[JACKS, seat] + st[TRICKS, seat] + st[ACES, seat])
        else:
            st[DELTA, seat] = -st[JACKS, seat] + remiz + st[ACES, seat]  # R7.2, R7.3


@njit(cache=True, _nrt=False, inline="always")
def cut_short_deltas(n, winner, scores, st, start, score_so_far):
    """R8.2a: deltas of a deal stopped when ``winner`` announced reaching zero."""
    for seat in range(n):
        if st[OVERSHOT, seat]:
            st[DELTA, seat] = start - scores[seat]  # R8.3: a reset stands
        elif seat == winner or score_so_far:
            aces = st[ACES, seat] if st[TRICKS, seat] >= 1 else 0
            st[DELTA, seat] = -(st[JACKS, seat] + st[TRICKS, seat] + aces)
        else:
            st[DELTA, seat] = -st[JACKS, seat]


@njit(cache=True, _nrt=False, inline="always")
def finish_deal(n, first, start, remiz, score_so_far, winner, scores, st, info):
    """R7, R8.2a, R8.3: deltas once the tricks are over (``winner`` announced zero, or -1)."""
    if winner >= 0:
        info[ENDS_PARTY] = winner
        info[END_KIND] = E_TRICK
        cut_short_deltas(n, winner, scores, st, start, score_so_far)
        return
    played_out_deltas(n, scores, st, start, remiz)
    for k in range(n):  # R8.3: a silent player at zero wins after the deal
        seat = seat_after(first, k, n)
        if st[AT_ZERO, seat] and not st[OVERSHOT, seat]:
            info[ENDS_PARTY] = seat
            info[END_KIND] = E_DEAL_END
            break
