"""The bulk output layout of the deal drivers, and the copy of one deal's results into it.

The layout (:mod:`rams_sim.kernels.drivers` lists the arrays): ``out_sets`` holds the
card sets of :data:`SET_ROWS`, ``out_seat`` the per-seat fields of :data:`SEAT_ROWS`,
``out_deal`` the dealer and the deal slots of :data:`DEAL_SLOTS`, named :data:`OUT_SETS`,
:data:`OUT_SEAT` and :data:`OUT_DEAL` for the Python layer (:mod:`rams_sim.runs.dataset`). No rule
is applied here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import N_TRICKS
from .state import (
    DAVE,
    DEALT,
    DECL,
    DELTA,
    DISCARDS,
    DRAWN,
    END_KIND,
    ENDS_PARTY,
    FINAL,
    FINE,
    INTENT,
    JACKS,
    LOG_LEADER,
    LOG_WINNER,
    OUTCOME,
    OVERSHOT,
    PASSED,
    PROKAT,
    REDEALS,
    STAKE,
    STATUS,
    TOOK_TRUMP,
    TRICKS,
    TRUMP_CARD,
    TRUMP_DISCARD,
    WIDOW,
)

SET_ROWS = (DEALT, DISCARDS, DRAWN, FINAL)  # cardsets rows stored in out_sets, in order
OUT_SETS = ("hand_dealt", "discards", "drawn", "hand_final")
SEAT_ROWS = (PASSED, TOOK_TRUMP, TRUMP_DISCARD, JACKS, DECL, TRICKS, OVERSHOT, INTENT, FINE, DAVE, PROKAT)
OUT_SEAT = ("passed", "took_trump", "trump_discard", "jacks", "declaration", "tricks", "overshoot", "intent",
            "fine", "dave", "prokat")  # fmt: skip
OUT_DEAL = ("dealer", "trump_card", "outcome", "ends_party", "end_kind", "status", "widow", "stake", "redeals")
DEAL_SLOTS = (-1, TRUMP_CARD, OUTCOME, ENDS_PARTY, END_KIND, STATUS, WIDOW, STAKE, REDEALS)  # the dealer is an argument
SET_ROW_IDS, SEAT_ROW_IDS, DEAL_SLOT_IDS = (np.array(rows, np.int64) for rows in (SET_ROWS, SEAT_ROWS, DEAL_SLOTS))


@njit(cache=True, _nrt=False, inline="always")
def store_deal(i, n, dealer, cardsets, st, info, log, out_sets, out_seat, out_delta, out_deal, out_log):
    """Copy one deal's results from the state arrays into row ``i`` of the outputs."""
    for seat in range(n):  # the rows from constant arrays, not tuples: a tuple indexed in a loop is a lookup a step
        for j in range(SET_ROW_IDS.shape[0]):
            out_sets[i, j, seat] = cardsets[SET_ROW_IDS[j], seat]
        for j in range(SEAT_ROW_IDS.shape[0]):
            out_seat[i, j, seat] = st[SEAT_ROW_IDS[j], seat]
        out_delta[i, seat] = st[DELTA, seat]
    out_deal[i, 0] = dealer
    for j in range(1, DEAL_SLOT_IDS.shape[0]):
        out_deal[i, j] = info[DEAL_SLOT_IDS[j]]
    if out_log.shape[0] > 0:
        for t in range(N_TRICKS):
            for seat in range(n):
                out_log[i, t, seat] = log[t, seat]
            out_log[i, t, n] = log[t, LOG_LEADER]
            out_log[i, t, n + 1] = log[t, LOG_WINNER]
