"""R9 ``duel``: policy ``pimc``'s search (docs/SEARCH.md "duel"): the widow, duel-trump's card, dave, each card.

The method is classic's (:mod:`..pimc`): what the seat knows becomes piles, ``samples``
worlds are drawn uniformly over their layouts (:mod:`..worlds`), every option is played
out in each world by the ``rollout`` policy at both seats (nobody searching), and the
option of the least total value is taken (ties: the first option). What differs is the
value: a duel party is settled by its stake, not by points, and any declaration, a declined
dave or a trick that reaches zero ends it, so a rollout is worth the party's outcome to
the seat (:func:`.duel.search_value`: -stake won, +stake lost; a deal that does not end
the party is followed by the rest of the party, :func:`.duel.play_on`).

The decisions and their worlds:

* the widow (steps 0 and 1, options stand 0 and swap SWAP_OPTION; decision PHASE_ROUND):
  the other hand and the widow, uniform over the cards the seat has not seen (its hand,
  the turned card); played out by :func:`.duel.deal_from` from the step;
* duel-trump's card (the dealer, options his five cards ascending; decision PHASE_TRUMP):
  the other hand, and, if the other swapped, the hand he laid aside (five of the rest);
* dave (before a card, :func:`.duel.dave_turn`): the offerer's (pass 0, offer 1) and the
  other's answer (decline 0, accept 1), at the card's position (the worlds of a card,
  :func:`..pimc._play_count`); an offer is answered in each world by the other's rollout
  player, a declined offer wins the party at the stake, and otherwise the play goes on
  from the card, its seat's rollout player choosing it. Decision numbers past every seat's
  own (:func:`dave_decision`);
* each card: :func:`..pimc.pimc_card`, valued by :func:`.duel.search_value` (the hook of
  :mod:`..dispatch`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import HAND_SIZE
from ..bits import bit, lowest, popcount
from ..codes import E_DECLINED, NO_OPTION, OK, PHASE_ROUND, PHASE_TRUMP
from ..inference import INFER_NONE
from ..pimc import (
    BLOCK,
    DRAW_ROW,
    NO_RACE,
    _copy2,
    _copy_players,
    _count,
    _draw,
    _play_count,
    _play_world,
    _shuffle_mask,
    keep_value,
    legal_options,
    new_scratch,
    no_pairs,
    rollout_play,
    set_options,
    start_rollout,
    world_loops,
)
from ..play import BEFORE_CARD_DONE
from ..rng import GOLDEN, mix64
from ..rows import row_kernel
from ..search import arm
from ..state import DEALT, DISCARDS, DRAWN, END_KIND, ENDS_PARTY, HAND, TRUMP_CARD, WIDOW
from . import duel
from .duel import DAVE_ACCEPT, DAVE_DECLINE, DAVE_OFFER, N_SEATS, SWAP_OPTION, TRUMP_STEP, WIDOW_AT, dave_decision


@njit(cache=True)
def _roll_step(search, r, announce, trick, log, info, scores, dealer, world_key, step, option):
    """Take ``option`` at ``step`` in the world of ``search.b_*`` and play the deal out in
    ``search.w_*``; returns False where the rollout stopped on a status."""
    start_rollout(search, world_key, N_SEATS, trick, log, info)
    for x in range(search.w_order.shape[0]):
        search.w_order[x] = search.b_order[x]
    status = duel.rollout_deal(r, search.roll_kinds, search.roll_params, announce, search.key, dealer, scores,
                               search.w_order, search.w_rng, search.w_cardsets, search.w_st, search.w_trick,
                               search.w_info, search.w_log, np.int64(step), np.int64(option))  # fmt: skip
    return status == OK


@njit(cache=True)
def _base_world(search, order, cardsets, st):
    _copy2(search.b_cardsets, cardsets)
    _copy2(search.b_st, st)
    for x in range(order.shape[0]):
        search.b_order[x] = order[x]


# ---- the widow ------------------------------------------------------------------------------
@njit(cache=True)
def widow_piles(r, cardsets, info, seat, search):
    """``seat``'s piles at the widow: the other hand, the widow, the rest (unused in a duel),
    uniform over the cards the seat has not seen (its hand, the turned card). Returns the
    unknown mask."""
    unknown = r.deck_mask & ~(cardsets[HAND, seat] | bit(info[TRUMP_CARD]))
    allowed, caps, pile_seat = search.masks[0], search.ints[0], search.ints[1]
    for p in range(3):
        allowed[p] = unknown
    caps[0], caps[1], caps[2] = HAND_SIZE, HAND_SIZE, popcount(unknown) - 2 * HAND_SIZE
    pile_seat[0], pile_seat[1], pile_seat[2] = 1 - seat, -1, -1
    no_pairs(search)
    return unknown


@njit(cache=True)
def _widow_world(search, world_key, deltas, flags, col, r, announce, order, cardsets, st, trick, info, log, scores,
                 dealer, step, seat, m, n_pairs, total):  # fmt: skip
    """Draw one world at the widow and play stand and swap (``search.options[:2]``) out in it from
    ``step``: each one's worth and FLAG_* bits into ``deltas[i, col]``/``flags[i, col]``
    (:func:`..pimc.keep_value`). The world of :func:`duel_pimc_widow` and :func:`evaluate_widow`."""
    other = 1 - seat
    _draw(search, m, n_pairs, 3, total)
    _base_world(search, order, cardsets, st)
    hand = search.masks[1][0]
    search.b_cardsets[HAND, other] = hand
    search.b_cardsets[DEALT, other] = hand
    widow = search.masks[1][1]
    for i in range(HAND_SIZE):  # the widow's cards ascending (only which cards it holds matters)
        search.b_order[WIDOW_AT + i] = lowest(widow)
        widow &= widow - np.uint64(1)
    for i in range(2):
        ok = _roll_step(search, r, announce, trick, log, info, scores, dealer, world_key, step, search.options[i])
        keep_value(search, r, announce, seat, scores, dealer, world_key, ok, deltas, flags, i, col)


_widow_world_sample, _widow_world_block = world_loops(_widow_world)


@njit(cache=True)
def duel_pimc_widow(search, r, params, announce, order, cardsets, st, trick, info, log, scores, dealer, step, seat):
    """``seat``'s widow option at widow step ``step`` by search: 0 (stand) or SWAP_OPTION
    (:func:`widow_piles`' worlds)."""
    unknown = widow_piles(r, cardsets, info, seat, search)
    m, n_pairs, total = _count(search, unknown, 3)
    if not total > 0.0:
        return np.int64(NO_OPTION)
    search.options[0], search.options[1] = 0, SWAP_OPTION
    # the least worth; an error counts 1,000,000: never chosen
    return _widow_world_sample(search, N_SEATS, seat, PHASE_ROUND, params[seat], NO_RACE, 2, 1, 0, (r, announce,
                               order, cardsets, st, trick, info, log, scores, dealer, step, seat, m, n_pairs, total))  # fmt: skip


# ---- duel-trump's card ----------------------------------------------------------------------
@njit(cache=True)
def trump_piles(r, cardsets, info, dealer, search):
    """The dealer's piles at duel-trump's card: the other hand, the rest, uniform over the cards
    he has not seen (his hand, the hand he laid aside if he swapped, the turned card). Returns
    the unknown mask."""
    unknown = r.deck_mask & ~(cardsets[HAND, dealer] | cardsets[DISCARDS, dealer] | bit(info[TRUMP_CARD]))
    allowed, caps, pile_seat = search.masks[0], search.ints[0], search.ints[1]
    allowed[0], allowed[1] = unknown, unknown
    caps[0], caps[1] = HAND_SIZE, popcount(unknown) - HAND_SIZE
    pile_seat[0], pile_seat[1] = 1 - dealer, -1
    no_pairs(search)
    return unknown


@njit(cache=True)
def _trump_world(search, world_key, deltas, flags, col, r, announce, order, cardsets, st, trick, info, log, scores,
                 dealer, n_options, m, n_pairs, total):  # fmt: skip
    """Draw one world at duel-trump's card and play each of ``search.options[:n_options]`` (the
    card given up) out in it into ``deltas[i, col]``/``flags[i, col]``. If the other swapped,
    the hand he laid aside is five of the rest (their first five in a shuffle of it, from the
    worlds' stream). The world of :func:`duel_pimc_trump` and :func:`evaluate_trump`."""
    other = 1 - dealer
    _draw(search, m, n_pairs, 2, total)
    _base_world(search, order, cardsets, st)
    theirs = search.masks[1][0]
    b = search.b_cardsets
    b[HAND, other] = theirs
    b[DEALT, other], b[DISCARDS, other], b[DRAWN, other] = theirs, np.uint64(0), np.uint64(0)
    if info[WIDOW] == other:
        m_free = _shuffle_mask(search.masks[1][1], search.rng, DRAW_ROW, search.buf)
        old = np.uint64(0)
        for i in range(min(HAND_SIZE, m_free)):
            old |= bit(search.buf[i])
        b[DEALT, other], b[DISCARDS, other], b[DRAWN, other] = old, old, theirs
    for i in range(n_options):
        ok = _roll_step(search, r, announce, trick, log, info, scores, dealer, world_key, TRUMP_STEP, search.options[i])
        keep_value(search, r, announce, dealer, scores, dealer, world_key, ok, deltas, flags, i, col)


_trump_world_sample, _trump_world_block = world_loops(_trump_world)


@njit(cache=True)
def duel_pimc_trump(search, r, params, announce, order, cardsets, st, trick, info, log, scores, dealer):
    """duel-trump: the card the dealer gives up for the trump card, by search (his five cards
    ascending; :func:`trump_piles`' worlds)."""
    n_options = legal_options(search, cardsets[HAND, dealer])
    unknown = trump_piles(r, cardsets, info, dealer, search)
    m, n_pairs, total = _count(search, unknown, 2)
    if not total > 0.0:
        return np.int64(NO_OPTION)
    return _trump_world_sample(search, N_SEATS, dealer, PHASE_TRUMP, params[dealer], NO_RACE, n_options, 1, 0, (r,
                               announce, order, cardsets, st, trick, info, log, scores, dealer, n_options, m, n_pairs,
                               total))  # fmt: skip


# ---- dave -----------------------------------------------------------------------------------
@njit(cache=True)
def _roll_dave(search, r, announce, trick, log, info, scores, t, k, leader, q_duty, offerer, trump_card, dealer, played,
               decider, option, world_key):  # fmt: skip
    """One dave option in the world of ``search.b_*``, played out in ``search.w_*``; returns
    False where the rollout stopped on an error."""
    start_rollout(search, world_key, N_SEATS, trick, log, info)
    if decider != offerer:  # the answer: accept or decline the offer made
        offer, answer = True, DAVE_ACCEPT if option == 1 else DAVE_DECLINE
    else:  # the offer: the other's rollout player answers it in this world
        offer, answer = option == DAVE_OFFER, NO_OPTION
    if offer and duel.answer_dave(r, search.roll_kinds, search.roll_params, search.w_rng, search.w_cardsets,
                                  search.w_st, search.w_info, scores, offerer, trump_card, dealer, played,
                                  answer, np.int64(NO_OPTION)):  # fmt: skip
        search.w_info[ENDS_PARTY] = offerer  # declined: the offerer wins the party at the stake
        search.w_info[END_KIND] = E_DECLINED  # (a deal cut short: nobody's remiz)
        return True
    winner = rollout_play(r, search.roll_kinds, search.roll_params, announce, search.w_rng, search.w_cardsets,
                          search.w_st, search.w_trick, search.w_log, search.w_info, N_SEATS, dealer, trump_card, scores,
                          np.int64(t), np.int64(k), np.int64(leader), q_duty, played,
                          np.int64(BEFORE_CARD_DONE))  # fmt: skip
    if winner == -2:
        return False
    duel.finish_play(r, N_SEATS, dealer, winner, scores, search.w_st, search.w_info)
    return True


@njit(cache=True)
def _dave_world(search, world_key, deltas, flags, col, r, announce, cardsets, st, trick, log, info, scores, t, k, leader,
                q_duty, offerer, trump_card, dealer, played, decider, m, n_pairs, total, n_piles):  # fmt: skip
    """Draw one world of ``decider``'s card at this point of the play (:func:`..pimc._play_world`)
    and play both dave options out in it (the offerer's: 0 no offer, 1 offer; the answer: 0
    decline, 1 accept) into ``deltas[i, col]``/``flags[i, col]``. The world of
    :func:`duel_pimc_dave` and :func:`evaluate_dave`."""
    _play_world(search, r, N_SEATS, decider, dealer, trump_card, cardsets, st, trick, log, t, k, played, m, n_pairs,
                total, n_piles, scores, announce, INFER_NONE, 0.0)  # fmt: skip (duel weighs no history)
    for option in range(2):
        ok = _roll_dave(search, r, announce, trick, log, info, scores, t, k, leader, q_duty, offerer, trump_card, dealer,
                        played, decider, option, world_key)  # fmt: skip
        keep_value(search, r, announce, decider, scores, dealer, world_key, ok, deltas, flags, option, col)


_dave_world_sample, _dave_world_block = world_loops(_dave_world)


@njit(cache=True)
def duel_pimc_dave(search, r, params, announce, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, offerer,
                   trump_card, dealer, played, decider):  # fmt: skip
    """``decider``'s dave option before ``offerer``'s card ``k`` of trick ``t``, by search: the
    offerer's (0 pass, 1 offer) or the other's answer (0 decline, 1 accept); the worlds are
    those of a card of ``decider`` at this point of the play."""
    decision = dave_decision(decider, t, 0 if decider == offerer else 1)
    m, n_pairs, total, n_piles = _play_count(search, r, N_SEATS, decider, dealer, trump_card, cardsets, st, trick, log,
                                             t, k)  # fmt: skip
    if not total > 0.0:
        return np.int64(NO_OPTION)
    search.options[0], search.options[1] = 0, 1
    # the stream and the worlds' keys: seat 0 and the decision, which names the decider (dave_decision)
    return _dave_world_sample(search, N_SEATS, 0, decision, params[decider], NO_RACE, 2, 1, 0, (r, announce, cardsets,
                              st, trick, log, info, scores, t, k, leader, q_duty, offerer, trump_card, dealer, played,
                              decider, m, n_pairs, total, n_piles))  # fmt: skip


# ---- every world kept: rams-sim advise ---------------------------------------------------------
@row_kernel
def evaluate_widow(r, roll_kinds, roll_params, announce, key, order, cardsets, st, trick, info, log, scores, dealer,
                   step, seat, first_world, deltas, flags, lo, hi):  # fmt: skip
    """As :func:`..pimc.evaluate_cards` for ``seat``'s widow at widow step ``step`` (0: the first
    hand, 1: the dealer after the first hand stood): rows 0 stand, 1 swap; each world's worth
    to the seat (:func:`.duel.search_value`: -stake won, +stake lost) and the deal's FLAG_*
    bits into ``deltas``/``flags`` int64[2, n_worlds]. ``order``: int8[N_CARDS], the deal's
    layout (the seat's hand where the kernels deal it; the rest is drawn). Returns the
    number of layouts."""
    count = 0.0
    for b in range(lo, hi):
        search = arm(new_scratch(), mix64(np.uint64(key) + np.uint64((first_world // BLOCK + b) * GOLDEN)))
        _copy_players(search, N_SEATS, roll_kinds, roll_params)
        unknown = widow_piles(r, cardsets, info, seat, search)
        m, n_pairs, count = _count(search, unknown, 3)
        if not count > 0.0:
            return count
        set_options(search, np.array([0, SWAP_OPTION], np.int64))
        _widow_world_block(search, seat, PHASE_ROUND, first_world, b, deltas, flags, (r, announce, order, cardsets,
                           st, trick, info, log, scores, dealer, step, seat, m, n_pairs, count))  # fmt: skip
    return count


@row_kernel
def evaluate_trump(r, roll_kinds, roll_params, announce, key, order, cardsets, st, trick, info, log, scores, dealer,
                   first_world, deltas, flags, lo, hi):  # fmt: skip
    """As :func:`evaluate_widow` for duel-trump's card: rows the dealer's five cards ascending
    (the card given up for the trump card)."""
    count = 0.0
    for b in range(lo, hi):
        search = arm(new_scratch(), mix64(np.uint64(key) + np.uint64((first_world // BLOCK + b) * GOLDEN)))
        _copy_players(search, N_SEATS, roll_kinds, roll_params)
        n_options = legal_options(search, cardsets[HAND, dealer])
        unknown = trump_piles(r, cardsets, info, dealer, search)
        m, n_pairs, count = _count(search, unknown, 2)
        if not count > 0.0:
            return count
        _trump_world_block(search, dealer, PHASE_TRUMP, first_world, b, deltas, flags, (r, announce, order, cardsets,
                           st, trick, info, log, scores, dealer, n_options, m, n_pairs, count))  # fmt: skip
    return count


@row_kernel
def evaluate_dave(r, roll_kinds, roll_params, announce, key, cardsets, st, trick, log, info, scores, t, k, leader,
                  q_duty, offerer, trump_card, dealer, played, decider, first_world, deltas, flags, lo, hi):  # fmt: skip
    """As :func:`evaluate_widow` for ``decider``'s dave choice before ``offerer``'s card ``k`` of
    trick ``t``: rows 0 no offer, 1 offer (``decider`` the offerer) or 0 decline, 1 accept (the
    other)."""
    decision = dave_decision(decider, t, 0 if decider == offerer else 1)
    count = 0.0
    for b in range(lo, hi):
        search = arm(new_scratch(), mix64(np.uint64(key) + np.uint64((first_world // BLOCK + b) * GOLDEN)))
        _copy_players(search, N_SEATS, roll_kinds, roll_params)
        m, n_pairs, count, n_piles = _play_count(search, r, N_SEATS, decider, dealer, trump_card, cardsets, st, trick,
                                                 log, t, k)  # fmt: skip
        if not count > 0.0:
            return count
        _dave_world_block(search, 0, decision, first_world, b, deltas, flags, (r, announce, cardsets, st, trick, log,
                          info, scores, t, k, leader, q_duty, offerer, trump_card, dealer, played, decider, m,
                          n_pairs, count, n_piles))  # fmt: skip
    return count
