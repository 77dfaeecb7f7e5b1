"""Sufficient statistics of a block of deals by keys, for ``rams-sim run --aggregate`` (:mod:`rams_sim.runs.aggregate`).

:func:`accumulate` reads the bulk outputs of :func:`rams_sim.kernels.drivers.play_deals`
(as :func:`rams_sim.kernels.columns.fill_deal_columns` does) and adds every (deal, seat)
row to the cell of its key values: integer counts and sums only, so blocks, chunks and
threads merge exactly in any order. No rule is applied here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import HAND_SIZE, SUIT_MASKS
from ..record import Outcome
from .bits import aces_mask, popcount, suit_of
from .columns import D_DEALER, D_OUTCOME, D_TRUMP_CARD, P_DECL, P_PASSED, P_TRICKS, S_DEALT, S_FINAL

# key codes (rams_sim.runs.aggregate.KEYS names them, in this order)
K_SEAT, K_POSITION, K_DEALER, K_TRUMP, K_ACES, K_N_ACES, K_DEALT_ACES = 0, 1, 2, 3, 4, 5, 6
K_TRUMP_SUIT_HELD, K_PASSED, K_DECLARATION, K_TRICKS, K_OUTCOME = 7, 8, 9, 10, 11
N_KEYS = 12
# statistic columns of the accumulator (rams_sim.runs.aggregate.STATS names them); declaration counts follow
A_N, A_DELTA, A_DELTA_SQ, A_TRICKS, A_TRICKS_SQ, A_REMIZ = 0, 1, 2, 3, 4, 5
A_DECL = 6  # column A_DECL + code: rows with declaration code
PLAYED = int(Outcome.PLAYED)


@njit(cache=True, nogil=True, inline="always")
def key_value(key, i, s, n, out_sets, out_seat, out_deal):
    """The value of key ``key`` for seat ``s`` of deal row ``i`` (see rams_sim.runs.aggregate.KEYS)."""
    if key == K_SEAT:
        return s
    dealer = out_deal[i, D_DEALER]
    if key == K_POSITION:
        return (s - dealer - 1 + n) % n
    if key == K_DEALER:
        return dealer
    trump = suit_of(out_deal[i, D_TRUMP_CARD])
    if key == K_TRUMP:
        return trump
    final = out_sets[i, S_FINAL, s]
    if key == K_ACES:
        return aces_mask(final)
    if key == K_N_ACES:
        return popcount(aces_mask(final))
    if key == K_DEALT_ACES:
        return popcount(aces_mask(out_sets[i, S_DEALT, s]))
    if key == K_TRUMP_SUIT_HELD:
        return min(popcount(final & SUIT_MASKS[trump]), HAND_SIZE)
    if key == K_PASSED:
        return 1 if out_seat[i, P_PASSED, s] != 0 else 0
    if key == K_DECLARATION:
        return out_seat[i, P_DECL, s]
    if key == K_TRICKS:
        return out_seat[i, P_TRICKS, s]
    return out_deal[i, D_OUTCOME]


@njit(cache=True, nogil=True)
def accumulate(out_sets, out_seat, out_delta, out_deal, keys, radix, acc, lo, hi):
    """Add every (deal, seat) row of deals ``lo .. hi - 1`` of a block to ``acc``.

    ``out_*``: a block's outputs (shapes of :class:`rams_sim.engine.DealOut`); ``keys``
    int64[k] key codes and ``radix`` int64[k] their sizes: a row's cell is the mixed-radix
    number of its key values, the first key most significant; ``acc`` int64[cells, A_DECL +
    n_codes] receives per cell the rows, the sums and sums of squares of delta and tricks, the
    remizes (a played deal without a trick, R7.2) and the rows of each declaration code.
    """
    n = out_delta.shape[1]
    for i in range(lo, hi):
        outcome = out_deal[i, D_OUTCOME]
        for s in range(n):
            cell = 0
            for j in range(keys.shape[0]):
                cell = cell * radix[j] + key_value(keys[j], i, s, n, out_sets, out_seat, out_deal)
            d = np.int64(out_delta[i, s])
            t = np.int64(out_seat[i, P_TRICKS, s])
            acc[cell, A_N] += 1
            acc[cell, A_DELTA] += d
            acc[cell, A_DELTA_SQ] += d * d
            acc[cell, A_TRICKS] += t
            acc[cell, A_TRICKS_SQ] += t * t
            if t == 0 and outcome == PLAYED and out_seat[i, P_PASSED, s] == 0:
                acc[cell, A_REMIZ] += 1
            acc[cell, A_DECL + out_seat[i, P_DECL, s]] += 1
