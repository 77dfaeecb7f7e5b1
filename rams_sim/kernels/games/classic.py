"""R9 ``rams``: one deal of classic Rams (R3-R8.3) and of every preset that only changes its options.

The procedure is docs/ENGINE.md's, step by step: R3 (:mod:`..deal`), R4
(:mod:`..exchange`), R5 step 4 (:mod:`..declare`), R6 (:mod:`..play`), R7-R8.3
(:mod:`..score`); the party's settlement is R8.4 (:mod:`..party`). The entry points are
those every game module has (:mod:`rams_sim.kernels.dispatch`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import HAND_SIZE
from ..bits import suit_of
from ..codes import NO_FORCE, NO_OPTION, OK, SCORE_SO_FAR, TAKE_MUST
from ..deal import deal_cards, reset_scoring, shuffle_and_seed
from ..declare import declare, prepare_final
from ..exchange import dealer_trump_with, exchange_from
from ..inference import cards_chance, first_trick_world, play_chance
from ..knowledge import declarations_fit
from ..output import store_deal
from ..party import new_party_state, settle
from ..play import failed_play, play_tricks
from ..rows import deal_of_row
from ..score import credit_lone, credit_trick, finish_deal
from ..search import arm
from ..state import DELTA, STATUS, TRUMP_CARD, seat_after


@njit(cache=True, _nrt=False)
def play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
              forced_seat, forced_option, search):  # fmt: skip
    """Play one deal into the state arrays; return a status code (OK = 0).

    ``r``: the rules (:func:`rams_sim.kernels.args.rules_args`); ``kinds`` int8[n], ``params`` float64[n, P], ``announce`` int8[n]:
    the seats' policies; ``key``: the deal's uint64 key; ``fixed_order``: int8[deck_size],
    a deck order to use instead of the shuffle, or int8[0]; ``scores``: int64[n] before
    the deal. The play log is written to ``log``. ``forced_seat`` takes the exchange
    option ``forced_option`` instead of asking its policy (:func:`..exchange.exchange`; for branching).
    ``search``: None, or :data:`..search.Search` when a seat plays ``pimc`` (its cards:
    :mod:`..pimc`; armed here with the deal's key).
    """
    n = r.players
    shuffle_and_seed(r, kinds, key, fixed_order, fixed_order.shape[0] > 0, order, rng)
    reset_scoring(st, n, info, log)
    trump_card = deal_cards(order, n, dealer, cardsets, st)  # R3
    info[TRUMP_CARD] = trump_card
    return deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log, forced_seat,
                     forced_option, np.int64(0), np.int64(HAND_SIZE * n + 1), np.int64(NO_OPTION),
                     arm(search, key))  # fmt: skip (int64, not literals: a cached caller links to one specialization)


@njit(cache=True, _nrt=False)
def play_rows(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets,
              out_seat, out_delta, out_deal, out_log, search, lo, hi, order, rng, cardsets, st, trick, info, log):  # fmt: skip
    """Rows ``lo .. hi - 1`` of :func:`..drivers.play_deals` for a table without a searching seat
    (``search`` None); returns the number of deals whose status is not OK.

    Each row is :func:`play_deal` with no forced seat, written out in the loop so that
    the deal is inlined here (:mod:`..dispatch`): a call per deal passed its ~160 words of
    arguments through the stack, 15% of a deal's time, and one inlining layer more (this
    loop calling an inlined ``play_deal``) doubled the cold compile.
    """
    n = r.players
    errors = 0
    given = fixed_order.shape[0] > 0
    for i in range(lo, hi):
        dealer, key = deal_of_row(i, first_deal, fixed_dealer, n, seed, keys)
        new_party_state(info)
        shuffle_and_seed(r, kinds, key, fixed_order, given, order, rng)
        reset_scoring(st, n, info, log)
        info[TRUMP_CARD] = deal_cards(order, n, dealer, cardsets, st)  # R3
        status = deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log,
                           np.int64(NO_FORCE), np.int64(0), np.int64(0), np.int64(HAND_SIZE * n + 1),
                           np.int64(NO_OPTION), search)  # fmt: skip
        if status != OK:
            errors += 1
        store_deal(i, n, dealer, cardsets, st, info, log, out_sets, out_seat, out_delta, out_deal, out_log)
    return errors


@njit(cache=True, _nrt=False, inline="always")  # inlined: a search calls it from inside itself (no recursion)
def deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log, forced_seat,
              forced_option, step0, talon_pos, first_option, search):  # fmt: skip
    """The deal from step ``step0`` on (R4 to R8.3; :func:`..exchange.exchange_from`'s steps,
    then 3n: the dealer's R4.3 card, 3n + 1: the declarations and the play); returns a status.

    ``first_option`` (or NO_OPTION) is imposed on the decision at ``step0``: the way a
    search (:mod:`..pimc`) plays an option out from the middle of a deal; ``talon_pos``
    is the next talon card's position in ``order`` at ``step0``. ``search``: an armed
    :data:`..search.Scratch` or None (the rollouts).
    """
    n = r.players
    first = seat_after(dealer, 1, n)
    trump_card = info[TRUMP_CARD]
    trump = suit_of(trump_card)
    status = OK
    if step0 < 3 * n:
        status = exchange_from(r, n, dealer, trump_card, kinds, params, rng, order, cardsets, st, forced_seat,
                               forced_option, step0, talon_pos, first_option, search, announce, trick, info, log,
                               scores)  # fmt: skip
    if status == OK and step0 <= 3 * n:
        must = r.dealer_takes_trump == TAKE_MUST
        status = dealer_trump_with(must, r.turned_ace_binds_dealer, dealer, trump_card, kinds, params, rng, cardsets, st,
                                   first_option if step0 == 3 * n else NO_OPTION, search, r, announce, order, trick,
                                   info, log, scores, 3 * n)  # fmt: skip
    if status != OK:
        info[STATUS] = status
        return status
    n_active, lone = prepare_final(cardsets, st, n, r.ace_values, r.jacks_count)
    if declare(r, cardsets, st, n, first, trump, scores, n_active, info):
        if n_active == 1:
            winner = credit_lone(lone, scores, st, announce)
        else:
            winner = play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card,
                                 scores, -1, search)  # fmt: skip
            if winner < -1:  # an illegal card (R6.8), or a branch's card not open to its seat
                info[STATUS] = failed_play(winner)
                return info[STATUS]
        finish_deal(n, first, r.start, r.remiz, r.truncated_deal == SCORE_SO_FAR, winner, scores, st, info)
    return OK


@njit(cache=True, _nrt=False)
def settle_party(r, won, scores, stake, prokats, settlement, row):
    """R8.4: money by seat at the end of a party, into ``settlement[row]`` (float64[., n])."""
    settle(r.players, won, scores, r.settle, settlement, row)


@njit(cache=True, _nrt=False, inline="always")
def before_card(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, seat,
                trump_card, dealer, played, search):  # fmt: skip
    """R6: nothing happens between the cards of classic Rams."""
    return False


@njit(cache=True, _nrt=False, inline="always")
def credit(r, w, scores, st, announce):
    """R8.2: credit the trick to ``w``; True when he announces reaching zero."""
    return credit_trick(w, scores, st, announce)


# ---- what policy pimc's card search needs of a game (:mod:`rams_sim.kernels.dispatch`) ----------
DELTA_SIGN = 1  # R7: a delta counts down; the least is the best


@njit(cache=True, _nrt=False, inline="always")
def finish_play(r, n, dealer, winner, scores, st, info):
    """R7-R8.3: the deltas of a deal whose tricks were played."""
    score_so_far = r.truncated_deal == SCORE_SO_FAR
    finish_deal(n, seat_after(dealer, 1, n), r.start, r.remiz, score_so_far, winner, scores, st, info)


@njit(cache=True, _nrt=False, inline="always")
def search_value(r, search, announce, seat, scores, dealer, world_key):
    """A rollout's worth to ``seat`` (times DELTA_SIGN, the least the best): his delta."""
    return search.w_st[DELTA, seat]


@njit(cache=True, _nrt=False, inline="always")
def trump_maybe_discarded(cardsets, st, dealer):
    """R4.3: a dealer who took the trump card holds it until he plays it."""
    return False


@njit(cache=True, inline="always")
def world_fits(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among):
    """R5.1-R5.5, R8.2: the chance to keep a drawn world, by the declarations and the running
    scores (:func:`..knowledge.declarations_fit`)."""
    return declarations_fit(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among)


@njit(cache=True, inline="always")
def history_fits(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row, floor):
    """R4.0-R4.3 under the model: the chance of the others' passes, counts, announcements and the
    dealer's take in a world at a card (:func:`..inference.play_chance`)."""
    return play_chance(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row, floor)


@njit(cache=True)
def history_world(r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, scores, announce, w_cardsets, w_st,
                  kinds, params, rng, row, floor, s_cardsets, s_st, buf):  # fmt: skip
    """``infer=cards`` at a card of the first trick: the world drawn with its history
    (:func:`..inference.first_trick_world`), kept with the chance of the declarations and running
    scores (:func:`..knowledge.declarations_fit`) and of the cards played (:func:`..inference.cards_chance`)."""
    chance, among = first_trick_world(r, n, seat, dealer, trump_card, cardsets, st, trick, k, kinds, params, rng, row,
                                      floor, w_cardsets, w_st)  # fmt: skip
    if chance > 0.0:
        chance *= declarations_fit(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, among)
    if chance > 0.0:
        chance *= cards_chance(r, n, seat, dealer, trump_card, st, trick, log, t, k, w_cardsets, w_st, kinds, params, rng,
                               floor, s_cardsets, s_st, buf)  # fmt: skip
    return chance


@njit(cache=True, inline="always")
def cards_fit(r, n, seat, dealer, trump_card, st, trick, log, t, k, w_cardsets, w_st, kinds, params, rng, floor,
              s_cardsets, s_st, buf):  # fmt: skip
    """R6 under the model: the chance of every card the others played before this one, in a world at a
    card (:func:`..inference.cards_chance`)."""
    return cards_chance(r, n, seat, dealer, trump_card, st, trick, log, t, k, w_cardsets, w_st, kinds, params, rng,
                        floor, s_cardsets, s_st, buf)  # fmt: skip
