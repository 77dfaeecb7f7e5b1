"""Paired sufficient statistics of a rule change, deal by deal (``rams-sim effect``, :mod:`rams_sim.runs.effect`).

The same deals (same keys, so the same deck orders and coins) are played under the baseline
rules (arm A) and under a variant (arm B) by :func:`rams_sim.kernels.drivers.play_deals`;
:func:`accumulate_paired` reads both blocks of outputs and adds, per cell of the baseline's
key values, integer sums only, so blocks, chunks and threads merge exactly in any order.

Measures (``M_*``), each a number per (deal, seat) row of an arm:

* ``delta``: the seat's score change (R7.5);
* ``tricks``: tricks taken;
* ``remiz``: 1 for a seat that played a played deal and took no trick (R7.2);
* ``before_play``: 1 when the deal ended before any card was played (its outcome is not
  PLAYED: a rams, four aces, a lone player's tricks taken without play, all passed, ...);
* ``decl_<name>``: 1 when the seat's declaration (R5) has that code.

The unit of the paired sample is the deal: within a cell, deal i contributes ``m_i`` rows
(the seats whose baseline key values fall in the cell) and the paired sum ``C_i = sum(b - a)``
over them. Per cell and measure the columns are ``sum_a``, ``sum_b``, ``sum C_i**2`` and
``sum C_i * m_i``; per cell ``n`` (rows), ``sum m_i**2`` and the deals with a row in it. The
mean difference per row is ``sum C_i / sum m_i`` and its variance the deal-clustered
(ratio) estimator's (:func:`rams_sim.runs.effect.estimates`): seats of one deal are not
independent, deals are. ``deal_acc`` counts the deals and the deals the change altered (any
seat's delta, any decision or any card differs: every output row and the play log).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..record import Declaration, Outcome
from .aggregate import key_value
from .columns import D_OUTCOME, P_DECL, P_PASSED, P_TRICKS

M_DELTA, M_TRICKS, M_REMIZ, M_BEFORE_PLAY, M_PASS = 0, 1, 2, 3, 4
M_DECL = 5  # measure M_DECL + code: the rows with declaration code
N_DECL = max(Declaration) + 1
N_MEASURES = M_DECL + N_DECL
# columns of the accumulator: per cell, then per measure (E_PER_MEASURE each, from E_MEASURES)
E_N, E_M_SQ, E_DEALS = 0, 1, 2
E_MEASURES = 3
E_SUM_A, E_SUM_B, E_C_SQ, E_C_M = 0, 1, 2, 3
E_PER_MEASURE = 4
N_COLUMNS = E_MEASURES + N_MEASURES * E_PER_MEASURE
# deal_acc: deals, and deals the variant altered
G_DEALS, G_CHANGED = 0, 1
N_DEAL_STATS = 2
PLAYED = int(Outcome.PLAYED)


@njit(cache=True, nogil=True, inline="always")
def column(mm, which):
    """The accumulator's column of measure ``mm`` (M_*) and sum ``which`` (E_SUM_A .. E_C_M)."""
    return E_MEASURES + mm * E_PER_MEASURE + which


@njit(cache=True, nogil=True, inline="always")
def row_values(i, s, out_seat, out_delta, out_deal, values):
    """The measures M_DELTA .. M_PASS of seat ``s`` in deal row ``i`` of one arm into
    ``values`` (int64[M_DECL]); returns the seat's declaration code (its M_DECL measure is 1)."""
    played = out_deal[i, D_OUTCOME] == PLAYED
    tricks = np.int64(out_seat[i, P_TRICKS, s])
    values[M_DELTA] = out_delta[i, s]
    values[M_TRICKS] = tricks
    values[M_REMIZ] = 1 if played and tricks == 0 and out_seat[i, P_PASSED, s] == 0 else 0
    values[M_BEFORE_PLAY] = 0 if played else 1
    values[M_PASS] = 1 if out_seat[i, P_PASSED, s] != 0 else 0  # R4: the seat passed
    return np.int64(out_seat[i, P_DECL, s])


@njit(cache=True, nogil=True, inline="always")
def _add_row(acc, c, va, vb, decl_a, decl_b):
    for mm in range(M_DECL):
        acc[c, column(mm, E_SUM_A)] += va[mm]
        acc[c, column(mm, E_SUM_B)] += vb[mm]
    acc[c, column(M_DECL + decl_a, E_SUM_A)] += 1
    acc[c, column(M_DECL + decl_b, E_SUM_B)] += 1


@njit(cache=True, nogil=True, inline="always")
def _add_cluster(acc, c, m, paired, q):
    """Deal i's rows in cell ``c`` (``m`` of them, paired sums ``paired[q]``) into ``acc``; clears them."""
    acc[c, E_N] += m
    acc[c, E_M_SQ] += m * m
    acc[c, E_DEALS] += 1
    for mm in range(N_MEASURES):
        d = paired[q, mm]
        if d != 0:
            acc[c, column(mm, E_C_SQ)] += d * d
            acc[c, column(mm, E_C_M)] += d * m
            paired[q, mm] = 0


@njit(cache=True, nogil=True)
def deal_changed(i, a_sets, a_seat, a_delta, a_deal, a_log, b_sets, b_seat, b_delta, b_deal, b_log):
    """Whether deal row ``i`` differs between the arms in any output: a hand, a decision, a
    score, the deal's outcome, or (where the play is logged) any card."""
    for r in range(a_sets.shape[1]):
        for s in range(a_sets.shape[2]):
            if a_sets[i, r, s] != b_sets[i, r, s]:
                return True
    for r in range(a_seat.shape[1]):
        for s in range(a_seat.shape[2]):
            if a_seat[i, r, s] != b_seat[i, r, s]:
                return True
    for s in range(a_delta.shape[1]):
        if a_delta[i, s] != b_delta[i, s]:
            return True
    for r in range(a_deal.shape[1]):
        if a_deal[i, r] != b_deal[i, r]:
            return True
    if a_log.shape[0] > i and b_log.shape[0] > i:
        for t in range(a_log.shape[1]):
            for c in range(a_log.shape[2]):
                if a_log[i, t, c] != b_log[i, t, c]:
                    return True
    return False


@njit(cache=True, nogil=True)
def accumulate_paired(a_sets, a_seat, a_delta, a_deal, a_log, b_sets, b_seat, b_delta, b_deal, b_log, keys, radix,
                      acc, whole, deal_acc, lo, hi):  # fmt: skip
    """Add deals ``lo .. hi - 1`` of a block played under the baseline (``a_*``) and a variant
    (``b_*``; the outputs of :class:`rams_sim.engine.DealOut`, the same deal in the same row).

    ``keys`` int64[k] key codes (:data:`rams_sim.runs.aggregate.KEYS`) and ``radix`` int64[k] their
    sizes: a row's cell is the mixed-radix number of its *baseline* key values. ``acc``
    int64[cells, N_COLUMNS] (module docstring); ``whole`` int64[1, N_COLUMNS] receives the
    whole table's sums (every row of a deal in one cell) where it has a row (keys given),
    else nothing; ``deal_acc`` int64[N_DEAL_STATS].
    """
    n = a_delta.shape[1]
    cell = np.empty(n, np.int64)
    slot = np.empty(n, np.int64)  # the first seat of the deal in the same cell
    rows = np.zeros(n, np.int64)
    paired = np.zeros((n + 1, N_MEASURES), np.int64)  # row n: the whole table's
    va = np.zeros(M_DECL, np.int64)
    vb = np.zeros(M_DECL, np.int64)
    with_whole = whole.shape[0] > 0
    for i in range(lo, hi):
        for s in range(n):
            c = 0
            for j in range(keys.shape[0]):
                c = c * radix[j] + key_value(keys[j], i, s, n, a_sets, a_seat, a_deal)
            cell[s] = c
            slot[s] = s
            for q in range(s):
                if cell[q] == c:
                    slot[s] = q
                    break
        for s in range(n):
            c, q = cell[s], slot[s]
            rows[q] += 1
            decl_a = row_values(i, s, a_seat, a_delta, a_deal, va)
            decl_b = row_values(i, s, b_seat, b_delta, b_deal, vb)
            _add_row(acc, c, va, vb, decl_a, decl_b)
            if with_whole:
                _add_row(whole, 0, va, vb, decl_a, decl_b)
            for mm in range(M_DECL):
                paired[q, mm] += vb[mm] - va[mm]
                paired[n, mm] += vb[mm] - va[mm]
            if decl_a != decl_b:
                paired[q, M_DECL + decl_a] -= 1
                paired[q, M_DECL + decl_b] += 1
                paired[n, M_DECL + decl_a] -= 1
                paired[n, M_DECL + decl_b] += 1
        for q in range(n):
            if rows[q] > 0:
                _add_cluster(acc, cell[q], rows[q], paired, q)
                rows[q] = 0
        if with_whole:
            _add_cluster(whole, 0, n, paired, n)
        else:
            paired[n, :] = 0
        deal_acc[G_DEALS] += 1
        if deal_changed(i, a_sets, a_seat, a_delta, a_deal, a_log, b_sets, b_seat, b_delta, b_deal, b_log):
            deal_acc[G_CHANGED] += 1
