"""R9 ``modern``: policy ``pimc``'s search of the turn and the redeal (docs/SEARCH.md "modern").

At its turn (docs/VARIANTS.md "modern": pass, play on its cards, or take the widow blind
keeping one card) a searching seat knows its five cards, the trump card (the dealer's own
last card), and what the seats before it did: who passed, who stood, who took the widow.
Under ``exchange_order=declare-then-buy`` the seat searches two decisions, at two steps of
the turns (:func:`.modern.n_steps`): in the play/pass round, pass or play (knowing who
passed before it); at the widow's offer, once everybody has said play or pass, take it or
not (knowing every seat's word, and that the players offered it before declined it).
The unseen cards are laid out uniformly (:mod:`..worlds`) into the piles: each other
seat's hand, clockwise from the seat (five cards; the dealer's four beside his trump
card), then one pile of four: the widow while nobody took it, else the four cards its
taker laid aside. A taker's hand is his kept card and the widow: which of his five he
kept is drawn uniformly (every choice is a different, equally likely world).

Every open option (a pass where the score allows it, play, and each of the five takes,
as ``rams-sim branch`` numbers them: the 4-bit mask of the cards given up; in
declare-then-buy's round only pass and play, at the widow's offer 0 (decline) and the
takes: :func:`turn_options`) is played out in every world by the ``rollout`` policy at
every seat (:func:`rollout`, the deal from this step on: the seat's later decisions are
the rollout policy's), and the option of the most total delta is taken (modern counts up;
ties: the first option, in the order pass, play, the masks ascending). The keys are
classic's: the decision PHASE_ROUND (the widow's offer: PHASE_BUY).

The redeal question (a seat dealt five of one suit, before any turn) is searched on the
same piles (nobody has taken the widow): keeping the cards plays the deal out from the
next seat's question; demanding a redeal plays it out from a new dealing. The seat cannot
know that dealing, so each world deals its own, keyed ``deal_key(world key, r)`` for the
r-th (the rollouts' later redeals too). Options: 0 keep, then REDEAL (ties: keep);
decision REDEAL_DECISION.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import HAND_SIZE
from ..bits import ZERO, bit, lowest, nth_card
from ..codes import NO_FORCE, NO_OPTION, OPTION_PASS, ORDER_DECLARE_THEN_BUY, PHASE_BUY, PHASE_ROUND, REDEAL_DECISION
from ..pimc import (
    BLOCK,
    DRAW_ROW,
    NO_RACE,
    _copy2,
    _copy_players,
    _count,
    _draw,
    keep_result,
    new_scratch,
    no_pairs,
    set_options,
    start_rollout,
    world_loops,
)
from ..rng import GOLDEN, bounded, deal_key, mix64
from ..rows import row_kernel
from ..search import arm
from ..state import DEALT, DISCARDS, DRAWN, HAND, REDEALS, TRUMP_CARD, WIDOW, seat_after
from . import modern
from .modern import REDEAL, TAKE_BITS, WIDOW_SIZE

TAKES = np.array([m for m in range(1 << HAND_SIZE) if m.bit_count() == TAKE_BITS], dtype=np.int64)  # ascending


@njit(cache=True, _nrt=False)
def rollout(r, kinds, params, announce, key, dealer, scores, order, rng, cardsets, st, trick, info, log, redeals,
            k_redeal, demand, k_turn, option):  # fmt: skip
    """The rest of the deal, nobody searching; one compiled function for every caller. From the
    redeal question of the ``k_redeal``-th seat of dealing ``redeals`` (``demand``: that seat
    demands a redeal, dealt at once; new dealings keyed ``deal_key(key, r)``,
    :func:`.modern.redeals_from`); or, with ``k_redeal`` -1, from step ``k_turn`` of the turns
    with ``option`` taken there (:func:`.modern.deal_from`'s ``first_option``: the seat's later
    steps are his policy's)."""
    if k_redeal >= 0:
        no_order = order[:0]  # no given deck order: each dealing is shuffled from its key
        if demand:
            redeals += 1
            info[TRUMP_CARD] = modern._deal(r, kinds, deal_key(key, redeals), no_order, False, dealer, order, rng,
                                            cardsets, st)  # fmt: skip
            k_redeal = 0
        modern.redeals_from(r, kinds, params, announce, key, no_order, dealer, scores, order, rng, cardsets, st, info,
                            redeals, k_redeal, None)  # fmt: skip
        k_turn, option = 0, NO_OPTION
    return modern.deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log,
                            np.int64(k_turn), np.int64(NO_FORCE), np.int64(NO_OPTION), np.int64(option),
                            None)  # fmt: skip


@njit(cache=True, inline="always")
def turn_decision(r, k):
    """The decision number of step ``k`` of the turns: PHASE_BUY at declare-then-buy's widow
    offers (steps n..2n-1), else PHASE_ROUND."""
    return PHASE_BUY if r.exchange_order == ORDER_DECLARE_THEN_BUY and k >= r.players else PHASE_ROUND


@njit(cache=True)
def turn_options(r, k, hand, score, widow_open, options):
    """The options open at step ``k`` of the turns into ``options``; returns their number.
    ``one-turn``: pass where the score allows, play, the takes while the widow is open;
    ``declare-then-buy``: in the round (k < n) pass where allowed and play; at the widow's
    offer (k >= n) 0 (decline) and the takes."""
    buy_later = r.exchange_order == ORDER_DECLARE_THEN_BUY
    n_options = 0
    if score < r.modern_no_pass and not (buy_later and k >= r.players):
        options[n_options] = OPTION_PASS
        n_options += 1
    options[n_options] = 0
    n_options += 1
    if widow_open and not (buy_later and k < r.players):
        for i in range(TAKES.shape[0]):
            options[n_options] = TAKES[i]
            n_options += 1
    return n_options


@njit(cache=True)
def turn_piles(r, seat, dealer, cardsets, info, search):
    """What ``seat`` knows at its turn, as piles in ``search`` (module docstring): the other
    hands clockwise from the seat, then the widow or the laid-aside cards. Reads the seat's
    own hand, the trump card and the public turns only. Returns the unknown mask."""
    n = r.players
    trump_card = info[TRUMP_CARD]
    unknown = r.deck_mask & ~(cardsets[HAND, seat] | bit(trump_card))
    allowed, caps, pile_seat = search.masks[0], search.ints[0], search.ints[1]
    for step in range(1, n):
        o = seat_after(seat, step, n)
        allowed[step - 1] = unknown
        caps[step - 1] = HAND_SIZE - (1 if o == dealer else 0)
        pile_seat[step - 1] = o
    allowed[n - 1] = unknown
    caps[n - 1] = WIDOW_SIZE
    pile_seat[n - 1] = -1
    no_pairs(search)
    return unknown


@njit(cache=True)
def _turn_world(search, n, dealer, trump_card, cardsets, st, info):
    """Lay one drawn layout out in ``search.b_*`` and the widow into ``search.b_order``:
    each other hand (the dealer's with his trump card); a taker's kept card drawn
    uniformly among his five, the widow the other four, his laid-aside cards the last pile."""
    out, pile_seat = search.masks[1], search.ints[1]
    _copy2(search.b_cardsets, cardsets)
    _copy2(search.b_st, st)
    last = out[n - 1]
    for p in range(n - 1):
        o = pile_seat[p]
        hand = out[p]
        if o == dealer:
            hand |= bit(trump_card)
        search.b_cardsets[HAND, o] = hand
        if info[WIDOW] == o:
            kept = bit(nth_card(hand, bounded(search.rng, DRAW_ROW, HAND_SIZE)))
            search.b_cardsets[DRAWN, o] = hand & ~kept
            search.b_cardsets[DISCARDS, o] = last
            search.b_cardsets[DEALT, o] = kept | last
        else:
            search.b_cardsets[DRAWN, o] = ZERO
            search.b_cardsets[DISCARDS, o] = ZERO
            search.b_cardsets[DEALT, o] = hand
    rest = last
    for j in range(WIDOW_SIZE):  # the widow (or, once taken, the laid-aside cards: never read then)
        search.b_order[HAND_SIZE * n + j] = lowest(rest)
        rest &= rest - np.uint64(1)


@njit(cache=True)
def _option_world(search, world_key, deltas, flags, col, r, announce, cardsets, st, info, scores, dealer, k, seat,
                  n_options, redeal, m, n_pairs, total):  # fmt: skip
    """Draw one world of the counted piles (``m`` .. ``total`` from ``_count``) and play each of
    ``search.options[:n_options]`` out in it: the seat's delta and FLAG_* bits into
    ``deltas[i, col]``/``flags[i, col]`` (int64[., .]) for the i-th option. ``redeal``: the
    options are keep and REDEAL at the ``k``-th seat's redeal question, else options of its
    turn. The world of :func:`_search_worlds` and :func:`evaluate_turn`."""
    n = r.players
    trump_card = info[TRUMP_CARD]
    # where the rollout starts: the next seat's redeal question (a demand dealt first), or this turn
    redeals = np.int64(info[REDEALS]) if redeal else np.int64(0)
    k_redeal = np.int64(k + 1) if redeal else np.int64(-1)
    k_turn = np.int64(0) if redeal else np.int64(k)
    _draw(search, m, n_pairs, n, total)
    _turn_world(search, n, dealer, trump_card, cardsets, st, info)
    for i in range(n_options):
        # the play has not begun: the rollout's own trick and log stand (the deal clears them)
        start_rollout(search, world_key, n, search.w_trick, search.w_log, info)
        for x in range(search.b_order.shape[0]):
            search.w_order[x] = search.b_order[x]
        option = np.int64(NO_OPTION) if redeal else np.int64(search.options[i])
        status = rollout(r, search.roll_kinds, search.roll_params, announce, world_key, dealer, scores,
                         search.w_order, search.w_rng, search.w_cardsets, search.w_st, search.w_trick,
                         search.w_info, search.w_log, redeals, k_redeal, redeal and i == 1, k_turn, option)  # fmt: skip
        keep_result(search, seat, status, deltas, flags, i, col)


_option_world_sample, _option_world_block = world_loops(_option_world)


@njit(cache=True)
def _search_worlds(search, r, params, announce, cardsets, st, info, scores, dealer, k, seat, decision, n_options,
                   redeal, m, n_pairs, total):  # fmt: skip
    """The search of :func:`modern_pimc_turn` and :func:`modern_pimc_redeal`: each of
    ``search.options[:n_options]`` played out in ``samples`` worlds of :func:`_option_world`
    (:func:`..pimc.world_loops`, no racing); returns the option of the most total delta (a rollout
    that stopped on a status counts 1,000,000: never chosen)."""
    return _option_world_sample(search, r.players, seat, decision, params[seat], NO_RACE, n_options,
                                modern.DELTA_SIGN, 0, (r, announce, cardsets, st, info, scores, dealer, k, seat,
                                n_options, redeal, m, n_pairs, total))  # fmt: skip


@njit(cache=True)
def modern_pimc_turn(search, r, params, announce, cardsets, st, info, scores, dealer, k, seat):
    """The option of ``seat`` at step ``k`` of the turns (:func:`.modern.n_steps`), by search
    (module docstring): OPTION_PASS, 0 or a take mask; NO_OPTION when no world can be drawn
    (never expected)."""
    n = r.players
    n_options = turn_options(r, k, cardsets[HAND, seat], scores[seat], info[WIDOW] < 0, search.options)
    if n_options == 1:
        return search.options[0]
    unknown = turn_piles(r, seat, dealer, cardsets, info, search)
    m, n_pairs, total = _count(search, unknown, n)
    if not total > 0.0:
        return np.int64(NO_OPTION)
    return _search_worlds(search, r, params, announce, cardsets, st, info, scores, dealer, k, seat,
                          turn_decision(r, k), n_options, False, m, n_pairs, total)  # fmt: skip


@njit(cache=True)
def modern_pimc_redeal(search, r, params, announce, cardsets, st, info, scores, dealer, k, seat):
    """0 (keep) or REDEAL for ``seat``, the ``k``-th from the dealer's left, dealt five of one
    suit (module docstring); NO_OPTION when no world can be drawn (never expected)."""
    unknown = turn_piles(r, seat, dealer, cardsets, info, search)
    m, n_pairs, total = _count(search, unknown, r.players)
    if not total > 0.0:
        return np.int64(NO_OPTION)
    search.options[0], search.options[1] = 0, REDEAL
    return _search_worlds(search, r, params, announce, cardsets, st, info, scores, dealer, k, seat, REDEAL_DECISION, 2,
                          True, m, n_pairs, total)  # fmt: skip


# ---- every world kept: rams-sim advise ---------------------------------------------------------
@row_kernel
def evaluate_turn(r, roll_kinds, roll_params, announce, key, cardsets, st, info, dealer, scores, k, seat, redeal,
                  options, first_world, deltas, flags, lo, hi):  # fmt: skip
    """As :func:`..pimc.evaluate_cards` for ``seat``'s decision at step ``k`` of the turns
    (``options`` int64[n]: :func:`turn_options`' codes) or, with ``redeal``, the redeal
    question of the ``k``-th seat from the dealer's left (options 0 keep,
    REDEAL): blocks ``lo .. hi - 1`` of worlds ``first_world ..``, the seat's delta (counting
    up) and FLAG_* bits of each option into ``deltas``/``flags`` int64[n_options, n_worlds].
    World w is drawn from the stream keyed ``(key + w // BLOCK)``. Returns the number of
    layouts (0.0: no world; never with a valid position)."""
    n = r.players
    decision = REDEAL_DECISION if redeal else turn_decision(r, k)
    count = 0.0
    for b in range(lo, hi):
        search = arm(new_scratch(), mix64(np.uint64(key) + np.uint64((first_world // BLOCK + b) * GOLDEN)))
        _copy_players(search, n, roll_kinds, roll_params)
        unknown = turn_piles(r, seat, dealer, cardsets, info, search)
        m, n_pairs, count = _count(search, unknown, n)
        if not count > 0.0:
            return count
        set_options(search, options)
        _option_world_block(search, seat, decision, first_world, b, deltas, flags, (r, announce, cardsets, st, info,
                            scores, dealer, k, seat, options.shape[0], redeal, m, n_pairs, count))  # fmt: skip
    return count
