"""R7 and R8.2-R8.4: crediting tricks, the running score, deltas, settlement.

``st`` is the per-seat state of :mod:`rams_sim.kernels.state`; ``scores`` int64[n]
holds each seat's score before the deal.
"""

from __future__ import annotations

from numba import njit

from .args import SETTLE_STAKE
from .state import ACES, ACTIVE, AT_ZERO, DELTA, JACKS, OVERSHOT, TRICKS


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
def credit_up(w, scores, st, target):
    """R9 modern (docs/VARIANTS.md): credit one trick to ``w``, counting up; True when his
    score before the deal + tricks + jack bonus (st[JACKS]) reaches ``target``: he wins."""
    st[TRICKS, w] += 1
    return scores[w] + st[TRICKS, w] + st[JACKS, w] >= target


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


@njit(cache=True, _nrt=False)
def settle(n, winner, scores, settle_rule, out, row):
    """R8.4: money won (+) or paid (-) by each seat, into ``out[row]`` (float64[., n])."""
    for seat in range(n):
        out[row, seat] = 0.0
    if winner < 0:
        return
    if settle_rule == SETTLE_STAKE:
        high = -(1 << 62)
        for seat in range(n):
            if seat != winner and scores[seat] > high:
                high = scores[seat]
        payers = 0
        for seat in range(n):
            if seat != winner and scores[seat] == high:
                payers += 1
        for seat in range(n):
            if seat != winner and scores[seat] == high:
                out[row, seat] = -1.0 / payers
        out[row, winner] = 1.0
        return
    for seat in range(n):
        if seat != winner:
            pay = max(scores[seat], 0)
            out[row, seat] = -float(pay)
            out[row, winner] += float(pay)
