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
trump K and Q not both in it (the pair constraint of :mod:`..worlds`).

Piles: at a card, the other hand (its cards left), then the free pile (the widow or the
partner's old hand, and the stock); at the swap, the dealer's hand, the widow, the free
pile (the stock).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import ACE, HAND_SIZE, KING, N_TRICKS, QUEEN, RANKS_PER_SUIT
from ...policies import P_PROKAT_WEIGHT, P_ROLLOUT, P_SAMPLES
from ..bits import ZERO, bit, card_of, has, lowest, popcount, rams_suit
from ..codes import NO_OPTION, OK, PHASE_ROUND, ZONE_LEAD_DUTY
from ..pimc import (
    CARD_DECISION, DECISIONS, DRAW_ROW, SEARCH_STREAM, _copy2, _count, _draw, _least, _rollout_players, _world_key,
    legal_options, start_rollout,
)  # fmt: skip
from ..rng import seed_stream
from ..worlds import MAX_DRAWS
from ..state import (
    DEALT, DELTA, DISCARDS, DRAWN, FINAL, HAND, LOG_LEADER, PROKAT, TRICK_CARD, TRICK_SEAT, TRUMP_CARD, seat_after,
)  # fmt: skip
from . import zone
from .zone import N_ZONE, SWAP_OPTION, WIDOW_SIZE

ERROR_DELTA = 1_000_000  # a rollout that stopped on a status counts this: never chosen (tests pin it never happens)


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
    leader and a duty the lead obeys. Returns (forbid, pin, pair): cards the other hand
    cannot hold, cards it must hold, and whether it cannot hold both the K and the Q.
    """
    partner = seat_after(dealer, 1, N_ZONE)
    other = 1 - seat
    trump = trump_card // RANKS_PER_SUIT
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
    return forbid, pin, pair


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
    forbid, pin, pair = ZERO, ZERO, False
    if r.zone_lead == ZONE_LEAD_DUTY:
        if t == 0 and k == 0:
            leader, first = seat, -1
        elif t == 0:
            leader, first = trick[TRICK_SEAT, 0], trick[TRICK_CARD, 0]
        else:
            leader = log[0, LOG_LEADER]
            first = log[0, leader]
        forbid, pin, pair = first_lead_facts(r, seat, dealer, trump_card, mine_now | mine_played, theirs, unknown, leader,
                                             first, duty, search.b_cardsets)  # fmt: skip
    allowed, caps, pile_seat = search.masks[0], search.ints[0], search.ints[1]
    allowed[0] = unknown & ~forbid
    caps[0] = in_hand
    pile_seat[0] = other
    allowed[1] = unknown & ~pin
    caps[1] = popcount(unknown) - in_hand
    pile_seat[1] = -1
    trump = trump_card // RANKS_PER_SUIT
    for i in range(search.pairs.shape[0]):
        search.pairs[i, 0], search.pairs[i, 1] = -1, -1
        search.pair_piles[i] = 0
    search.pairs[0, 0], search.pairs[0, 1] = card_of(trump, KING), card_of(trump, QUEEN)
    search.pair_piles[0] = 1 if pair else 0
    return unknown, 2


@njit(cache=True)
def _value(search, seat, weight):
    """A rollout's value to ``seat`` (the least is the best): its delta, plus ``weight`` points
    (pimc's ``prokat_weight``) if it pays the прокат, which is money and not in the delta."""
    return search.w_st[DELTA, seat] + weight * search.w_st[PROKAT, seat]


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
    seed_stream(search.rng, DRAW_ROW, search.key, SEARCH_STREAM + seat * DECISIONS + decision)
    _rollout_players(search, N_ZONE, np.int64(params[seat, P_ROLLOUT]))
    weight = np.int64(params[seat, P_PROKAT_WEIGHT])
    n_options = legal_options(search, legal)
    other = 1 - seat
    before = _played_by(log, trick, t, k, other)
    for j in range(np.int64(params[seat, P_SAMPLES])):
        world_key = _world_key(search.key, seat, decision, j)
        for _ in range(MAX_DRAWS):  # R5.2-R5.4: a rams would have ended the deal before the play
            _draw(search, m, n_pairs, n_piles, total)
            if rams_suit(search.masks[1][0] | before) < 0:
                break
        _copy2(search.b_cardsets, cardsets)
        _copy2(search.b_st, st)
        hand = search.masks[1][0]
        search.b_cardsets[HAND, other] = hand  # his other cards are none of the seat's business
        search.b_cardsets[FINAL, other] = hand | _played_by(log, trick, t, k, other)
        search.b_cardsets[DEALT, other] = ZERO
        search.b_cardsets[DISCARDS, other] = ZERO
        search.b_cardsets[DRAWN, other] = ZERO
        for i in range(n_options):
            start_rollout(search, world_key, N_ZONE, trick, log, info)
            status = zone.play_from(r, search.roll_kinds, search.roll_params, search.w_rng, search.w_cardsets,
                                    search.w_st, search.w_trick, search.w_info, search.w_log, scores, dealer,
                                    np.int64(t), np.int64(k), np.int64(leader), duty, np.int64(search.options[i]),
                                    None)  # fmt: skip
            search.totals[i] += _value(search, seat, weight) if status == OK else ERROR_DELTA
    return _least(search, n_options)


@njit(cache=True)
def zone_pimc_swap(search, r, params, cardsets, st, trick, info, log, scores, dealer):
    """The partner's swap by search: 0 (stand) or SWAP_OPTION. Worlds: the dealer's hand and
    the widow, uniform over the cards the partner has not seen (his hand, the turned card)."""
    seat = seat_after(dealer, 1, N_ZONE)
    trump_card = info[TRUMP_CARD]
    unknown = r.deck_mask & ~(cardsets[HAND, seat] | bit(trump_card))
    allowed, caps, pile_seat = search.masks[0], search.ints[0], search.ints[1]
    for p in range(3):
        allowed[p] = unknown
    caps[0], caps[1], caps[2] = HAND_SIZE, WIDOW_SIZE, popcount(unknown) - HAND_SIZE - WIDOW_SIZE
    pile_seat[0], pile_seat[1], pile_seat[2] = dealer, -1, -1
    for i in range(search.pairs.shape[0]):
        search.pairs[i, 0], search.pairs[i, 1] = -1, -1
        search.pair_piles[i] = 0
    m, n_pairs, total = _count(search, unknown, 3)
    if not total > 0.0:
        return np.int64(NO_OPTION)
    seed_stream(search.rng, DRAW_ROW, search.key, SEARCH_STREAM + seat * DECISIONS + PHASE_ROUND)
    _rollout_players(search, N_ZONE, np.int64(params[seat, P_ROLLOUT]))
    weight = np.int64(params[seat, P_PROKAT_WEIGHT])
    search.options[0], search.options[1] = 0, SWAP_OPTION
    search.totals[0], search.totals[1] = 0, 0
    for j in range(np.int64(params[seat, P_SAMPLES])):
        world_key = _world_key(search.key, seat, PHASE_ROUND, j)
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
            search.totals[i] += _value(search, seat, weight) if status == OK else ERROR_DELTA
    return _least(search, 2)
