"""The per-(deal, seat) columns of ``rams-sim run``, filled in parallel from the kernels' output, and their sums.

:func:`fill_deal_columns` reads the bulk outputs of :func:`rams_sim.kernels.drivers.play_deals`
and writes one flat array per column, row ``i * players + seat`` for deal ``i`` of the
chunk (:mod:`rams_sim.runs.dataset` lists the columns and their meanings); :func:`chunk_sums`
adds up what a run's summary needs from them. Only copies, bit counting and sums happen
here; no rule is applied.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .bits import aces_mask, popcount, suit_of
from .output import OUT_DEAL, OUT_SEAT, OUT_SETS

S_DEALT, S_DISCARDS, S_FINAL = OUT_SETS.index("hand_dealt"), OUT_SETS.index("discards"), OUT_SETS.index("hand_final")
P_PASSED, P_TOOK_TRUMP = OUT_SEAT.index("passed"), OUT_SEAT.index("took_trump")
P_DECL, P_TRICKS = OUT_SEAT.index("declaration"), OUT_SEAT.index("tricks")
P_INTENT = OUT_SEAT.index("intent")
P_FINE, P_DAVE, P_PROKAT = OUT_SEAT.index("fine"), OUT_SEAT.index("dave"), OUT_SEAT.index("prokat")
D_WIDOW, D_STAKE, D_REDEALS = OUT_DEAL.index("widow"), OUT_DEAL.index("stake"), OUT_DEAL.index("redeals")
D_DEALER, D_TRUMP_CARD = OUT_DEAL.index("dealer"), OUT_DEAL.index("trump_card")
D_OUTCOME, D_ENDS_PARTY = OUT_DEAL.index("outcome"), OUT_DEAL.index("ends_party")


FILL_BLOCKS = 64  # deals are filled in this many blocks, one per prange iteration


@njit(cache=True, parallel=True, nogil=True)
def fill_deal_columns(
    first_deal, out_sets, out_seat, out_delta, out_deal, codes,
    deal, seat, dealer, players, policy, trump, trump_card, hand_dealt, hand_final,
    passed, discarded, took_trump, aces, declaration, tricks, delta, outcome, ends_party, intent,
    widow, stake, redeals, fine, dave, prokat,
):  # fmt: skip
    """Fill the column arrays (length n_deals * n) from a chunk's outputs.

    Inputs: ``out_sets`` uint64[n_deals, N_OUT_SETS, n], ``out_seat`` int8[n_deals,
    N_OUT_SEAT, n], ``out_delta`` int16[n_deals, n], ``out_deal`` int8[n_deals,
    N_OUT_DEAL], ``codes`` int8[n] (policy code by seat). Outputs: int64 ``deal``,
    uint64 ``hand_dealt``/``hand_final``, int16 ``delta``, bool ``passed``/``took_trump``/``prokat``,
    int8 for every other column.

    Each block of deals is filled in a few passes of four or five columns each: a pass
    writing 25 columns at once is limited by its many store streams (this way costs half
    the time).
    """
    n_deals, n = out_delta.shape
    for b in prange(FILL_BLOCKS):
        lo, hi = b * n_deals // FILL_BLOCKS, (b + 1) * n_deals // FILL_BLOCKS
        for i in range(lo, hi):
            for s in range(n):
                row = i * n + s
                deal[row] = first_deal + i
                seat[row] = s
                players[row] = n
                policy[row] = codes[s]
        for i in range(lo, hi):
            card, outcome_i, ends_i = out_deal[i, D_TRUMP_CARD], out_deal[i, D_OUTCOME], out_deal[i, D_ENDS_PARTY]
            dealer_i = out_deal[i, D_DEALER]
            for s in range(n):
                row = i * n + s
                dealer[row] = dealer_i
                trump_card[row] = card
                trump[row] = suit_of(card)
                outcome[row] = outcome_i
                ends_party[row] = ends_i
        for i in range(lo, hi):
            widow_i, stake_i, redeals_i = out_deal[i, D_WIDOW], out_deal[i, D_STAKE], out_deal[i, D_REDEALS]
            for s in range(n):
                row = i * n + s
                widow[row] = widow_i
                stake[row] = stake_i
                redeals[row] = redeals_i
        for i in range(lo, hi):
            for s in range(n):
                row = i * n + s
                hand_dealt[row] = out_sets[i, S_DEALT, s]
                final = out_sets[i, S_FINAL, s]
                hand_final[row] = final
                aces[row] = aces_mask(final)
                discarded[row] = popcount(out_sets[i, S_DISCARDS, s])
        for i in range(lo, hi):
            for s in range(n):
                row = i * n + s
                passed[row] = out_seat[i, P_PASSED, s] != 0
                took_trump[row] = out_seat[i, P_TOOK_TRUMP, s] != 0
                declaration[row] = out_seat[i, P_DECL, s]
                tricks[row] = out_seat[i, P_TRICKS, s]
                delta[row] = out_delta[i, s]
        for i in range(lo, hi):
            for s in range(n):
                row = i * n + s
                intent[row] = out_seat[i, P_INTENT, s]
                fine[row] = out_seat[i, P_FINE, s]
                dave[row] = out_seat[i, P_DAVE, s]
                prokat[row] = out_seat[i, P_PROKAT, s] != 0


@njit(cache=True, nogil=True)
def chunk_sums(seat, delta, declaration, n_seats, n_codes):
    """Per seat, the rows, the sum and the sum of squares of ``delta``; per declaration code, the rows.

    ``seat`` int8[rows], ``delta`` int16[rows], ``declaration`` int8[rows] (codes 0 ..
    n_codes - 1); returns int64[n_seats] three times and int64[n_codes] (exact integers).
    """
    count = np.zeros(n_seats, np.int64)
    total = np.zeros(n_seats, np.int64)
    squares = np.zeros(n_seats, np.int64)
    codes = np.zeros(n_codes, np.int64)
    for row in range(seat.shape[0]):
        s = seat[row]
        d = np.int64(delta[row])
        count[s] += 1
        total[s] += d
        squares[s] += d * d
        codes[declaration[row]] += 1
    return count, total, squares, codes
