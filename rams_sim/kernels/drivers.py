"""The drivers: deals, parties and branches by ranges of rows; one deal.

Every driver plays a deal through :func:`rams_sim.kernels.dispatch.play_deal`, which is
the deal kernel of the rules' game (R9), chosen at compile time by the class of ``r``
(:mod:`rams_sim.kernels.args`): a driver compiled for classic Rams contains no other
game; ``play_deals`` plays its rows by :func:`rams_sim.kernels.dispatch.play_rows` (classic's
own loop with the deal inlined, else the deal by deal loop here). State arrays are those of
:mod:`rams_sim.kernels.state`. Bulk results go to flat output arrays
(:mod:`rams_sim.kernels.output` names them and copies a deal into them):

* ``out_sets``  uint64[n_deals, N_OUT_SETS, n]: hand_dealt, discards, drawn, hand_final
* ``out_seat``  int8[n_deals, N_OUT_SEAT, n]: passed, took_trump, trump_discard, jacks,
  declaration, tricks, overshoot, intent, fine, dave, prokat
* ``out_delta`` int16[n_deals, n]: the score deltas (R7.5)
* ``out_deal``  int8[n_deals, N_OUT_DEAL]: dealer, trump_card, outcome, ends_party, end_kind,
  status, widow, stake, redeals
* ``out_log``   int8[n_log, N_TRICKS, n + 2]: cards by seat, leader, winner (n_log = 0: no log)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..policies import FORCE_DECISION, FORCE_OPTION
from .bits import popcount
from .codes import EXCHANGE_DECISION, NO_FORCE, NO_INTENT, NO_OPTION, OK, SCORE_SO_FAR, UNAVAILABLE
from .deal import reset_scoring
from .declare import declare, prepare_final
from .dispatch import play_deal, play_rows
from .output import store_deal
from .party import new_party_state, play_party
from .rng import deal_key
from .rows import deal_of_row, row_kernel
from .score import credit_lone, credit_trick, finish_deal
from .search import prepare
from .state import (
    ACTIVE,
    DAVE,
    DEALT,
    DECL,
    DELTA,
    DISCARDS,
    DRAWN,
    ENDS_PARTY,
    FINAL,
    FORCED,
    HAND,
    INTENT,
    OUTCOME,
    PASSED,
    STAKE,
    TOOK_TRUMP,
    TRICKS,
    TRUMP_CARD,
    TRUMP_DISCARD,
    WIDOW,
    make_state,
)

# the rows of play_branches' ``public``: what the table saw each seat do
PUBLIC_EXCHANGED, PUBLIC_TOOK_TRUMP, PUBLIC_INTENT, PUBLIC_DAVE, PUBLIC_DECL = 0, 1, 2, 3, 4
N_PUBLIC = 5


@row_kernel
def play_deals(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets,
               out_seat, out_delta, out_deal, out_log, search, lo, hi):  # fmt: skip
    """Play deals ``first_deal + lo .. first_deal + hi - 1`` of ``seed`` into output rows ``lo .. hi - 1``.

    Deal ``d`` is keyed ``deal_key(seed, d)``, or ``keys[i]`` for row ``i`` when ``keys``
    (uint64[rows] or uint64[0]) is given; its deck is shuffled from its key, or is
    ``fixed_order`` (int8[deck_size] or int8[0]); its dealer is ``fixed_dealer`` if >= 0,
    else ``d % players``. ``scores``: int64[n], every seat's score before each deal (R8.2b).
    ``search``: None, or :data:`.search.Search` when a seat searches (every driver takes it).
    Returns the number of deals whose status is not OK. The Python layer runs blocks of
    rows on threads (:mod:`rams_sim.parallel`); the API's single deal is one row (one
    compiled driver serves both). The rows are played by the game's ``play_rows``
    (:func:`.dispatch.play_rows`: classic's own loop, else :func:`deal_by_deal`).
    """
    order, rng, cardsets, st, trick, info, log = make_state()
    return play_rows(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets,
                     out_seat, out_delta, out_deal, out_log, prepare(search), lo, hi, order, rng, cardsets, st, trick,
                     info, log)  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def deal_by_deal(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets,
                 out_seat, out_delta, out_deal, out_log, search, lo, hi, order, rng, cardsets, st, trick, info, log):  # fmt: skip
    """:func:`play_deals`' rows, one call of the game's ``play_deal`` each (``search``: prepared);
    returns the number of deals whose status is not OK."""
    n = r.players
    errors = 0
    no_force, no_option = np.int64(NO_FORCE), np.int64(0)
    for i in range(lo, hi):
        dealer, key = deal_of_row(i, first_deal, fixed_dealer, n, seed, keys)
        new_party_state(info)
        status = play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st,
                           trick, info, log, no_force, no_option, search)  # fmt: skip
        if status != OK:
            errors += 1
        store_deal(i, n, dealer, cardsets, st, info, log, out_sets, out_seat, out_delta, out_deal, out_log)
    return errors


@row_kernel
def play_parties(r, kinds, params, announce, seed, first_party, deals, scores_out, winner, end_kind, settlement, resets,
                 stakes, status, search, lo, hi):  # fmt: skip
    """Play parties ``first_party + lo .. first_party + hi - 1`` into rows ``lo .. hi - 1`` of the party outputs; return the error count."""
    errors = 0
    for p in range(lo, hi):
        state = make_state()
        status[p] = play_party(r, kinds, params, announce, seed, first_party + p, state, deals, scores_out, winner, end_kind,
                               settlement, resets, stakes, p, prepare(search))  # fmt: skip
        if status[p] != 0:
            errors += 1
    return errors


@njit(cache=True)
def settle_given(r, announce, dealer, trump, dealt, final, active, scores, winners, out_sets, out_seat, out_delta, out_deal, out_log):
    """R5 step 4 to R8.3 for given hands and trick winners, into row 0 of the outputs.

    ``dealt``, ``final``: uint64[n] hands; ``active`` int64[n]; ``winners`` int64[k]: the
    seats credited with tricks in order (ignored for a lone player). For tests and what-if
    tools: it runs the same declaration and scoring code as :func:`play_deal`.
    """
    n = r.players
    first = (dealer + 1) % n
    _order, _rng, cardsets, st, _trick, info, log = make_state()
    new_party_state(info)
    reset_scoring(st, n, info, log)
    for seat in range(n):
        cardsets[HAND, seat] = final[seat]
        cardsets[DEALT, seat] = dealt[seat]
        st[ACTIVE, seat] = active[seat]
        st[PASSED, seat] = 1 - active[seat]
        st[TRUMP_DISCARD, seat] = -1
        st[INTENT, seat] = NO_INTENT
    n_active, lone = prepare_final(cardsets, st, n, r.ace_values, r.jacks_count)
    if declare(r, cardsets, st, n, first, trump, scores, n_active, info):
        winner = -1
        if n_active == 1:
            winner = credit_lone(lone, scores, st, announce)
        else:
            for w in winners:
                if credit_trick(w, scores, st, announce):
                    winner = w
                    break
        finish_deal(n, first, r.start, r.remiz, r.truncated_deal == SCORE_SO_FAR, winner, scores, st, info)
    store_deal(0, n, dealer, cardsets, st, info, log, out_sets, out_seat, out_delta, out_deal, out_log)


@row_kernel
def play_branches(r, kinds, params, announce, seed, first_deal, fixed_dealer, focal, decision, option_lo, n_options,
                  scores, valid, sets, small, delta, search, orders, public, chosen, logs, lo, hi):  # fmt: skip
    """Every option of one decision of seat ``focal`` in deals ``first_deal + lo .. first_deal + hi - 1``
    (``rams-sim branch``; :mod:`.force`).

    Row ``i * n_options + j`` replays deal ``first_deal + i`` (same deck order and coins) with
    option ``option_lo + j`` forced on the focal seat; everyone else follows
    his policy, and so does the focal seat at every other decision. ``decision`` EXCHANGE_DECISION:
    the game's first decision, at each of his steps (classic: OPTION_PASS, stand, discard masks
    1..31; zone's swap and duel's widow 0 or 31; modern's turn); else a decision number
    (:mod:`.codes`) forced through his policy row (:mod:`.force`: the j-th card of his hand,
    DECLINE, 0/1). Outputs: ``valid`` bool[rows] (the option is open to him at a decision he
    reached), ``chosen`` int8[rows] (the option as taken: the code, the card, DECLINE, 0/1),
    ``sets`` uint64[rows, 4] (his hand_dealt, discards, drawn, hand_final), ``small`` int8[rows,
    10] (dealer, trump_card, passed, took_trump, declaration, tricks, outcome, the seat whose party
    the deal ended or -1, the stake after the deal, the widow's taker), ``delta`` int16[rows],
    ``public`` int8[rows, N_PUBLIC, n]: what the table saw each seat do (PUBLIC_*: -1 passed
    else how many cards he exchanged, R4.1-R4.4; whether he took the trump card, R4.3; his R4.0a
    announcement; his dave offers; his declaration, R5), what branch data are conditioned on; ``logs``
    int8[rows, N_TRICKS, MAX_SEATS + 2] the play log (int8[0, ...]: not kept). ``orders``
    int8[n_deals, deck_size]: the deck orders to replay instead of the deals' shuffles (int8[0, 0]:
    the shuffles). Returns the number of policy errors (status != OK other than UNAVAILABLE).
    """
    n = r.players
    errors = 0
    own = params.copy()  # the focal seat's row carries the forced decision (this block's copy)
    keep_log = logs.shape[0] > 0
    for i in range(lo, hi):
        order, rng, cardsets, st, trick, info, log = make_state()
        scratch = prepare(search)
        d = first_deal + i
        dealer = fixed_dealer if fixed_dealer >= 0 else d % n
        key = deal_key(seed, d)
        given = orders[i] if orders.shape[0] > 0 else np.empty(0, np.int8)
        for j in range(n_options):
            row = i * n_options + j
            option = option_lo + j
            new_party_state(info)
            if decision == EXCHANGE_DECISION:
                status = play_deal(r, kinds, params, announce, key, given, dealer, scores, order, rng, cardsets, st,
                                   trick, info, log, focal, option, scratch)  # fmt: skip
                reached = True
                taken = option
            else:
                own[focal, FORCE_DECISION] = decision
                own[focal, FORCE_OPTION] = option
                status = play_deal(r, kinds, own, announce, key, given, dealer, scores, order, rng, cardsets, st,
                                   trick, info, log, NO_FORCE, NO_OPTION, scratch)  # fmt: skip
                reached = info[FORCED] != NO_OPTION
                taken = info[FORCED]
            valid[row] = status == OK and reached
            if status != OK:
                if status != UNAVAILABLE:
                    errors += 1
                continue
            if not reached:
                continue
            chosen[row] = taken
            sets[row, 0] = cardsets[DEALT, focal]
            sets[row, 1] = cardsets[DISCARDS, focal]
            sets[row, 2] = cardsets[DRAWN, focal]
            sets[row, 3] = cardsets[FINAL, focal]
            small[row, 0] = dealer
            small[row, 1] = info[TRUMP_CARD]
            small[row, 2] = st[PASSED, focal]
            small[row, 3] = st[TOOK_TRUMP, focal]
            small[row, 4] = st[DECL, focal]
            small[row, 5] = st[TRICKS, focal]
            small[row, 6] = info[OUTCOME]
            small[row, 7] = info[ENDS_PARTY]
            small[row, 8] = info[STAKE]
            small[row, 9] = info[WIDOW]
            delta[row] = st[DELTA, focal]
            for o in range(n):
                public[row, PUBLIC_EXCHANGED, o] = -1 if st[PASSED, o] else popcount(cardsets[DISCARDS, o])
                public[row, PUBLIC_TOOK_TRUMP, o] = st[TOOK_TRUMP, o]
                public[row, PUBLIC_INTENT, o] = st[INTENT, o]
                public[row, PUBLIC_DAVE, o] = st[DAVE, o]
                public[row, PUBLIC_DECL, o] = st[DECL, o]
            if keep_log:
                for t in range(log.shape[0]):
                    for c in range(log.shape[1]):
                        logs[row, t, c] = log[t, c]
    return errors
