"""R9 ``zone``: policy ``pimc``'s search (docs/SEARCH.md "zone"), the partner's swap and each card.

The search is classic's (:mod:`..pimc`): the seat's knowledge becomes piles, ``samples``
worlds are drawn uniformly over the layouts (:mod:`..worlds`), every option is played out
in each world by the ``rollout`` policy at both seats (:func:`.zone.deal_from` from the
swap, :func:`.zone.play_from` from a card; ``search=None``: the rollouts never search),
and the option of the least total delta is taken (ties: stand before swap; the lowest card).
The keys are classic's: decision 0 for the swap, 8 + t at a card of trick t.

What a zone seat knows (docs/VARIANTS.md "zone"): its own cards (the partner who swapped
also knows his old hand, now in the stock), the turned card, every card played and by
whom, and whether the partner swapped. Play has no duty to follow, so a card shows no
void; only the first lead tells something, under ``zone_lead=duty``: who led and what
(:func:`.zone.first_lead` decides both from who holds the trump A, K and Q). The
consistent holdings of those three cards are found by asking ``first_lead`` itself about
each of the eight, and become a card the other hand cannot hold, one it must hold, or the
trump K and Q not both in it (the pair constraint of :mod:`..worlds`). A world is drawn
again (as one that deals him a rams) when, under ``zone_finish=trick``, the other hand's A
would have left him at exactly 0 after a trick already played: the deal would have stopped.

Piles: at a card, the other hand (its cards left), then the free pile (the widow or the
partner's old hand, and the stock); at the swap, the dealer's hand, the widow, the free
pile (the stock).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import ACE, HAND_SIZE, KING, N_TRICKS, QUEEN
from ...policies import P_PROKAT_WEIGHT, P_RACE
from ..bits import ZERO, ace_points, bit, card_of, has, lowest, popcount, rams_suit, suit_of
from ..codes import NO_OPTION, OK, PHASE_ROUND, ZONE_LEAD_DUTY
from ..pimc import (
    BLOCK,
    CARD_DECISION,
    FLAG_REMIZ,
    NO_RACE,
    _copy2,
    _copy_players,
    _count,
    _draw,
    keep_result,
    legal_options,
    new_scratch,
    no_pairs,
    set_options,
    start_rollout,
    world_loops,
)
from ..rng import GOLDEN, mix64
from ..rows import row_kernel
from ..search import arm
from ..state import (
    DEALT,
    DISCARDS,
    DRAWN,
    FINAL,
    HAND,
    LOG_LEADER,
    PROKAT,
    TRICK_CARD,
    TRICK_SEAT,
    TRUMP_CARD,
    seat_after,
)
from ..worlds import MAX_DRAWS
from . import zone
from .zone import N_ZONE, SWAP_OPTION, WIDOW_SIZE


@njit(cache=True)
def _keep(search, seat, status, deltas, flags, i, col):
    """:func:`..pimc.keep_result`, with FLAG_REMIZ where the seat pays the прокат: a deal stopped
    at a trick (``zone_finish=trick``) writes no remiz and costs none, whatever his tricks."""
    keep_result(search, seat, status, deltas, flags, i, col)
    if status == OK:
        flags[i, col] = (flags[i, col] & ~FLAG_REMIZ) | (FLAG_REMIZ if search.w_st[PROKAT, seat] else 0)


@njit(cache=True)
def _played_by(log, trick, t, k, o):
    """The cards seat ``o`` played so far (tricks before ``t``, and the current trick's ``k`` cards)."""
    out = ZERO
    for tt in range(t):
        out |= bit(log[tt, o])
    for j in range(k):
        if trick[TRICK_SEAT, j] == o:
            out |= bit(trick[TRICK_CARD, j])
    return out


@njit(cache=True)
def first_lead_facts(r, seat, dealer, trump_card, mine, theirs, unknown, leader, first, duty, hands):
    """What the first lead shows of the other hand's trump A, K and Q (``zone_lead=duty``).

    ``mine``: the seat's hand at the first lead; ``theirs``: the other's cards known to have
    been in his (those he played); ``unknown``: the unseen cards; ``leader`` and ``first``:
    who led trick 1 and with what (``first`` -1 when the seat itself leads it now, then
    ``duty`` is its duty, ZERO for any card); ``hands``: scratch uint64[>= 2, >= 2] rows
    of :mod:`..state`. Each of the eight holdings of the three cards by the other seat is
    kept if it agrees with what is known and :func:`.zone.first_lead` then names the same
    leader and a duty the lead obeys. Returns (forbid, pin, pair, fits): cards the other hand
    cannot hold, cards it must hold, whether it cannot hold both the K and the Q, and whether
    any holding was kept (False: the first lead broke the rule; no world agrees).
    """
    partner = seat_after(dealer, 1, N_ZONE)
    other = 1 - seat
    trump = suit_of(trump_card)
    cards = (card_of(trump, ACE), card_of(trump, KING), card_of(trump, QUEEN))
    can = 0  # bits 2i and 2i + 1: a consistent holding without, with card i
    both = False  # a consistent holding with both K and Q
    for combo in range(8):
        held = theirs
        ok = True
        for i in range(3):
            c = cards[i]
            if combo >> i & 1:
                if not has(unknown, c) and not has(theirs, c):
                    ok = False  # seen elsewhere
                held |= bit(c)
            elif has(theirs, c):
                ok = False  # he played it
        if not ok:
            continue
        hands[HAND, seat] = mine
        hands[HAND, other] = held
        l2, d2 = zone.first_lead(True, hands, trump_card, partner)
        if l2 != leader:
            continue
        if first >= 0:
            if d2 != ZERO and not has(d2, first):
                continue
        elif d2 != duty:
            continue
        for i in range(3):
            can |= 1 << (2 * i + (combo >> i & 1))
        if combo >> 1 & 1 and combo >> 2 & 1:
            both = True
    forbid, pin = ZERO, ZERO
    for i in range(3):
        seen = can >> (2 * i) & 3
        if has(unknown, cards[i]):
            if seen == 1:
                forbid |= bit(cards[i])
            elif seen == 2:
                pin |= bit(cards[i])
    pair = has(unknown, cards[1]) and has(unknown, cards[2]) and (can >> 2 & 15) == 15 and not both
    return forbid, pin, pair, can != 0


@njit(cache=True)
def card_piles(r, seat, dealer, cardsets, info, trick, log, t, k, duty, search):
    """What ``seat`` knows at its card of trick ``t`` (``k`` cards in it), as piles in
    ``search`` (allowed ``masks[0]``, caps ``ints[0]``, seats ``ints[1]``, the pair
    constraint ``pairs``/``pair_piles``): the other hand, then the free pile. Reads the seat's
    own cards and the public ones only. Returns (unknown mask, n_piles)."""
    other = 1 - seat
    trump_card = info[TRUMP_CARD]
    played = ZERO
    for o in range(N_ZONE):
        played |= _played_by(log, trick, t, k, o)
    mine_now = cardsets[HAND, seat]
    mine_played = _played_by(log, trick, t, k, seat)
    seen = mine_now | mine_played | cardsets[DISCARDS, seat] | played | bit(trump_card)
    unknown = r.deck_mask & ~seen
    theirs = _played_by(log, trick, t, k, other)
    in_hand = N_TRICKS - t - (1 if popcount(theirs) > t else 0)
    forbid, pin, pair, fits = ZERO, ZERO, False, True
    if r.zone_lead == ZONE_LEAD_DUTY:
        if t == 0 and k == 0:
            leader, first = seat, -1
        elif t == 0:
            leader, first = trick[TRICK_SEAT, 0], trick[TRICK_CARD, 0]
        else:
            leader = log[0, LOG_LEADER]
            first = log[0, leader]
        forbid, pin, pair, fits = first_lead_facts(r, seat, dealer, trump_card, mine_now | mine_played, theirs, unknown,
                                                   leader, first, duty, search.b_cardsets)  # fmt: skip
    allowed, caps, pile_seat = search.masks[0], search.ints[0], search.ints[1]
    allowed[0] = unknown & ~forbid if fits else ZERO  # a first lead no holding explains: no world (count 0)
    caps[0] = in_hand
    pile_seat[0] = other
    allowed[1] = unknown & ~pin if fits else ZERO
    caps[1] = popcount(unknown) - in_hand
    pile_seat[1] = -1
    trump = suit_of(trump_card)
    no_pairs(search)
    search.pairs[0, 0], search.pairs[0, 1] = card_of(trump, KING), card_of(trump, QUEEN)
    search.pair_piles[0] = 1 if pair else 0
    return unknown, 2


@njit(cache=True)
def _card_world(search, world_key, deltas, flags, col, r, cardsets, st, trick, info, log, scores, dealer, t, k, leader,
                seat, duty, n_options, m, n_pairs, n_piles, total):  # fmt: skip
    """Draw one world at a card (the piles counted) and play each of ``search.options[:n_options]``
    out in it: the seat's delta and FLAG_* bits into ``deltas[i, col]``/``flags[i, col]``
    (FLAG_REMIZ: no trick, so the прокат is paid). The world of :func:`zone_pimc_card`
    and :func:`evaluate_card`."""
    other = 1 - seat
    before = _played_by(log, trick, t, k, other)
    mine = ace_points(cardsets[FINAL, seat], r.ace_values)
    trump = suit_of(info[TRUMP_CARD])
    for _ in range(MAX_DRAWS):  # R5.2-R5.4: a rams would have ended the deal before the play
        _draw(search, m, n_pairs, n_piles, total)
        held = search.masks[1][0] | before
        theirs = ace_points(held, r.ace_values)  # zone_finish=trick: nor may his A have stopped it at 0
        a0, a1 = (mine, theirs) if seat == 0 else (theirs, mine)
        if rams_suit(held) < 0 and not zone.stopped_before(r, log, t, scores, dealer, trump, a0, a1):
            break
    _copy2(search.b_cardsets, cardsets)
    _copy2(search.b_st, st)
    hand = search.masks[1][0]
    search.b_cardsets[HAND, other] = hand  # his other cards are none of the seat's business
    search.b_cardsets[FINAL, other] = hand | before
    search.b_cardsets[DEALT, other] = ZERO
    search.b_cardsets[DISCARDS, other] = ZERO
    search.b_cardsets[DRAWN, other] = ZERO
    for i in range(n_options):
        if not search.alive[i]:
            continue  # racing: an option dropped gets no more rollouts
        start_rollout(search, world_key, N_ZONE, trick, log, info)
        status = zone.play_from(r, search.roll_kinds, search.roll_params, search.w_rng, search.w_cardsets,
                                search.w_st, search.w_trick, search.w_info, search.w_log, scores, dealer,
                                np.int64(t), np.int64(k), np.int64(leader), duty, np.int64(search.options[i]),
                                None)  # fmt: skip
        _keep(search, seat, status, deltas, flags, i, col)


_card_world_sample, _card_world_block = world_loops(_card_world)


@njit(cache=True)
def zone_pimc_card(search, r, params, cardsets, st, trick, info, log, scores, dealer, t, k, leader, seat, legal, duty):
    """The card ``seat`` plays to trick ``t`` (``k`` cards in it) by search (module docstring).

    Arguments are :func:`.zone.play_from`'s; ``search`` is the armed scratch. Returns a card of ``legal``."""
    if popcount(legal) == 1:
        return lowest(legal)
    unknown, n_piles = card_piles(r, seat, dealer, cardsets, info, trick, log, t, k, duty, search)
    m, n_pairs, total = _count(search, unknown, n_piles)
    if not total > 0.0:
        return lowest(legal)  # no consistent world: an impossible history (tests pin that this never happens)
    decision = CARD_DECISION + t
    n_options = legal_options(search, legal)
    # the least delta, the прокат weighed in; racing (docs/SEARCH.md "Racing")
    return _card_world_sample(search, N_ZONE, seat, decision, params[seat], params[seat, P_RACE], n_options, 1,
                              np.int64(params[seat, P_PROKAT_WEIGHT]), (r, cardsets, st, trick, info, log, scores,
                              dealer, t, k, leader, seat, duty, n_options, m, n_pairs, n_piles, total))  # fmt: skip


@njit(cache=True)
def swap_piles(r, cardsets, info, dealer, search):
    """The partner's piles at the swap: the dealer's hand, the widow, the stock, uniform over the
    cards he has not seen (his hand, the turned card). Returns the unknown mask."""
    seat = seat_after(dealer, 1, N_ZONE)
    unknown = r.deck_mask & ~(cardsets[HAND, seat] | bit(info[TRUMP_CARD]))
    allowed, caps, pile_seat = search.masks[0], search.ints[0], search.ints[1]
    for p in range(3):
        allowed[p] = unknown
    caps[0], caps[1], caps[2] = HAND_SIZE, WIDOW_SIZE, popcount(unknown) - HAND_SIZE - WIDOW_SIZE
    pile_seat[0], pile_seat[1], pile_seat[2] = dealer, -1, -1
    no_pairs(search)
    return unknown


@njit(cache=True)
def _swap_world(search, world_key, deltas, flags, col, r, cardsets, st, trick, info, log, scores, dealer, m, n_pairs,
                total):  # fmt: skip
    """Draw one world at the swap and play stand and swap (``search.options[:2]``) out in it into
    ``deltas[i, col]``/``flags[i, col]``. The world of :func:`zone_pimc_swap` and
    :func:`evaluate_swap`."""
    seat = seat_after(dealer, 1, N_ZONE)
    _draw(search, m, n_pairs, 3, total)
    _copy2(search.b_cardsets, cardsets)
    _copy2(search.b_st, st)
    search.b_cardsets[HAND, dealer] = search.masks[1][0]
    search.b_cardsets[DEALT, dealer] = search.masks[1][0]
    widow = search.masks[1][1]
    for i in range(2):
        start_rollout(search, world_key, N_ZONE, trick, log, info)
        status = zone.deal_from(r, search.roll_kinds, search.roll_params, search.w_rng, search.w_cardsets,
                                search.w_st, search.w_trick, search.w_info, search.w_log, scores, dealer, widow,
                                np.int64(search.options[i]), None)  # fmt: skip
        _keep(search, seat, status, deltas, flags, i, col)


_swap_world_sample, _swap_world_block = world_loops(_swap_world)


@njit(cache=True)
def zone_pimc_swap(search, r, params, cardsets, st, trick, info, log, scores, dealer):
    """The partner's swap by search: 0 (stand) or SWAP_OPTION. Worlds: the dealer's hand and
    the widow, uniform over the cards the partner has not seen (his hand, the turned card)."""
    seat = seat_after(dealer, 1, N_ZONE)
    unknown = swap_piles(r, cardsets, info, dealer, search)
    m, n_pairs, total = _count(search, unknown, 3)
    if not total > 0.0:
        return np.int64(NO_OPTION)
    search.options[0], search.options[1] = 0, SWAP_OPTION
    return _swap_world_sample(search, N_ZONE, seat, PHASE_ROUND, params[seat], NO_RACE, 2, 1, np.int64(params[seat,
                              P_PROKAT_WEIGHT]), (r, cardsets, st, trick, info, log, scores, dealer, m, n_pairs,
                              total))  # fmt: skip


# ---- every world kept: rams-sim advise ---------------------------------------------------------
@row_kernel
def evaluate_card(r, roll_kinds, roll_params, key, cardsets, st, trick, info, log, scores, dealer, t, k, leader, seat,
                  duty, options, first_world, deltas, flags, lo, hi):  # fmt: skip
    """As :func:`..pimc.evaluate_cards` for a zone card (``options`` int64[n]: the legal cards
    ascending; ``duty``: the first lead's duty cards, :func:`.zone.first_lead`): blocks ``lo ..
    hi - 1`` of worlds ``first_world ..``, each card's delta and FLAG_* bits into
    ``deltas``/``flags`` int64[n_options, n_worlds]. Returns the number of layouts."""
    decision = CARD_DECISION + t
    count = 0.0
    for b in range(lo, hi):
        search = arm(new_scratch(), mix64(np.uint64(key) + np.uint64((first_world // BLOCK + b) * GOLDEN)))
        _copy_players(search, N_ZONE, roll_kinds, roll_params)
        unknown, n_piles = card_piles(r, seat, dealer, cardsets, info, trick, log, t, k, duty, search)
        m, n_pairs, count = _count(search, unknown, n_piles)
        if not count > 0.0:
            return count
        set_options(search, options)
        _card_world_block(search, seat, decision, first_world, b, deltas, flags, (r, cardsets, st, trick, info, log,
                          scores, dealer, t, k, leader, seat, duty, options.shape[0], m, n_pairs, n_piles, count))  # fmt: skip
    return count


@row_kernel
def evaluate_swap(r, roll_kinds, roll_params, key, cardsets, st, trick, info, log, scores, dealer, first_world, deltas,
                  flags, lo, hi):  # fmt: skip
    """As :func:`evaluate_card` for the partner's swap: rows 0 stand, 1 swap."""
    seat = seat_after(dealer, 1, N_ZONE)
    count = 0.0
    for b in range(lo, hi):
        search = arm(new_scratch(), mix64(np.uint64(key) + np.uint64((first_world // BLOCK + b) * GOLDEN)))
        _copy_players(search, N_ZONE, roll_kinds, roll_params)
        unknown = swap_piles(r, cardsets, info, dealer, search)
        m, n_pairs, count = _count(search, unknown, 3)
        if not count > 0.0:
            return count
        set_options(search, np.array([0, SWAP_OPTION], np.int64))
        _swap_world_block(search, seat, PHASE_ROUND, first_world, b, deltas, flags, (r, cardsets, st, trick, info,
                          log, scores, dealer, m, n_pairs, count))  # fmt: skip
    return count
