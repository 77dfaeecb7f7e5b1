"""R8: a party, deal after deal until one seat wins it, and its settlement (R8.4).

A party is one independent task: its deal ``d`` is keyed ``party_deal_key(seed, party,
d)``. The deal and the settlement are the rules' game's (:mod:`rams_sim.kernels.dispatch`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .codes import E_UNFINISHED, NO_FORCE, OK, SETTLE_STAKE
from .dispatch import play_deal, settle_party
from .rng import party_deal_key
from .state import CUBE, DELTA, END_KIND, ENDS_PARTY, NEXT_DEALER, OVERSHOT, PROKAT, STAKE, seat_after


@njit(cache=True, _nrt=False, inline="always")
def new_party_state(info):
    """The dave state at the start of a party or a single deal: stake 1, cube centred."""
    info[STAKE] = 1
    info[CUBE] = -1


@njit(cache=True, inline="always")  # inlined into play_parties: no library of its own to re-optimize the deal in
def play_party(r, kinds, params, announce, seed, party, state, deals, scores_out, winner, end_kind, settlement, resets,
               stakes, row, search):  # fmt: skip
    """Play party ``party`` of ``seed`` (R8) into row ``row`` of the party outputs; return a status.

    Seat 0 deals first; the next dealer is the one the deal names (``info[NEXT_DEALER]``)
    or else the next seat clockwise; deal ``d`` is keyed ``party_deal_key(seed, party, d)``.
    The party's stake (dave) starts at 1 and is kept across its deals. ``state``: a
    :func:`make_state` tuple; ``search``: None, or :data:`.search.Search` when a seat searches.
    """
    order, rng, cardsets, st, trick, info, log = state
    n = r.players
    scores = np.empty(n, np.int64)
    prokats = np.zeros(n, np.int64)  # zone: the прокаты each seat paid
    for seat in range(n):
        scores[seat] = r.start
        resets[row, seat] = 0
    empty = np.empty(0, np.int8)
    no_force, no_option = np.int64(NO_FORCE), np.int64(0)
    new_party_state(info)
    dealer = np.int64(0)
    won = -1
    kind = E_UNFINISHED
    status = OK
    played = 0
    for d in range(r.max_deals):
        key = party_deal_key(seed, party, d)
        status = play_deal(r, kinds, params, announce, key, empty, dealer, scores, order, rng, cardsets, st, trick, info, log,
                          no_force, no_option, search)  # fmt: skip
        played = d + 1
        if status != OK:
            break
        for seat in range(n):
            scores[seat] += st[DELTA, seat]
            resets[row, seat] += st[OVERSHOT, seat]
            prokats[seat] += st[PROKAT, seat]
        if info[ENDS_PARTY] >= 0:
            won = info[ENDS_PARTY]
            kind = info[END_KIND]
            break
        dealer = info[NEXT_DEALER] if info[NEXT_DEALER] >= 0 else seat_after(dealer, 1, n)
    deals[row] = played
    winner[row] = won
    end_kind[row] = kind
    stakes[row] = info[STAKE]
    for seat in range(n):
        scores_out[row, seat] = scores[seat]
    settle_party(r, won, scores, info[STAKE], prokats, settlement, row)
    return status


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
