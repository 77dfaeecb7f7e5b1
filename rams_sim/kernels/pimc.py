"""Policy ``pimc``: determinized search for the card to play (docs/SEARCH.md, issue "Strong play").

At a card decision of a searching seat in classic Rams (R9 ``rams`` and the presets that
only change its options), :func:`pimc_card`:

1. reads what the seat knows (:func:`play_piles`): its hand, its discards and the card it
   gave up for the trump card, the trump card and whether the dealer took it (R4.3), who
   passed and how many cards each seat exchanged, every card played and by whom, and what
   the rules let it deduce from play (below);
2. draws ``samples`` worlds uniformly over the layouts of the unseen cards consistent with
   that (:mod:`rams_sim.kernels.worlds`), keyed by (deal key, seat, decision);
3. plays every legal card in every world and the rest of the deal with the ``rollout``
   policy for every seat (:func:`rams_sim.kernels.play.play_from` with ``search=None``),
   and takes the card of the best total score delta (R7: the least, as scores count down to
   zero; ties: the lowest card id).

What play reveals (R6, for each card another seat played):

* following: a card off the led suit shows a void in it (R6.2), and then a plain card shows
  no trump either (R6.2: a void must trump); a trump under the best trump in the trick
  shows no higher trump where overtrumping is due (R6.3);
* with R6.3a (``must_head``), a card that does not win shows no winning card of what he
  had to play (the led suit, or his trumps when void);
* with R6.7 (``ace_covers_face``), a card other than the trump ace on a trump face shows no
  trump ace when the ace would have been legal;
* leading: a lead other than the trump ace shows no trump ace (R6.5); a lead of the trump
  Q shows no trump K (R6.6), a lead of neither shows not both (the pair constraint of
  :mod:`..worlds`); after a trump K led and won from a marriage, a lead other than the Q
  shows no Q (R6.6);
* R4.1: a passer holds no ace (where an ace forbids a pass).

Known gap (docs/SEARCH.md): a declared jack pair (R5.5) fixes the seat's jack points but
does not pin where the shown jacks lie in the sampled worlds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import ACE, KING, MAX_SEATS, N_CARDS, N_TRICKS, QUEEN, RANKS_PER_SUIT, SUIT_MASKS
from ..policies import MAX_POLICY_PARAMS, P_ROLLOUT, P_SAMPLES, default_params
from .bits import ACE_CARDS, ZERO, ace_points, above, bit, card_of, has, lowest, popcount, trump_face_mask
from .codes import RUFF_OVERTRUMP, SCORE_SO_FAR
from .play import next_active, play_from
from .rng import GOLDEN, STATE_WORDS, bounded, mix64, seed_stream
from .score import finish_deal
from .trick import winning_cards
from .search import Scratch
from .state import (
    ACES, ACTIVE, DELTA, DISCARDS, FINAL, HAND, LOG_LEADER, LOG_WINNER, PASSED, TOOK_TRUMP, TRICK_CARD, TRICK_SEAT,
    TRUMP_DISCARD, make_state, seat_after,
)  # fmt: skip
from .worlds import MAX_PILES, MAX_STATES, count_layouts, draw_layout, n_states_of, order_cards

DEFAULT_PARAMS = default_params()  # float64[kinds, P]: the rollouts' players
SEARCH_STREAM = 64  # stream numbers from here key the search (deck 0, coins seat + 1)
DECISIONS = 16  # decision numbers per seat: 8 + trick for a card
CARD_DECISION = 8
SAMPLE_SALT = np.uint64(0x50494D43)  # "PIMC"


@njit(cache=True)
def new_scratch():
    """One thread's scratch for :func:`pimc_card` (:data:`rams_sim.kernels.search.Scratch`)."""
    order, rng, cardsets, st, trick, info, log = make_state()
    return Scratch(
        np.uint64(0),
        np.zeros((3, MAX_PILES), np.int64),  # ints: caps, pile_seat, strides
        np.zeros((2, MAX_PILES), np.uint64),  # masks: allowed, a drawn layout
        np.zeros(N_CARDS, np.int8),  # the unknown cards in DP order
        np.zeros(N_CARDS, np.int8),  # a shuffle buffer
        np.empty((N_CARDS + 1, MAX_STATES), np.float64),  # completion counts (pages touched as used)
        np.zeros(MAX_SEATS, np.uint64),  # forbid: what play showed a seat does not hold
        np.zeros(MAX_SEATS, np.int8),  # before: a trick's cards so far
        np.zeros((MAX_SEATS + 2, STATE_WORDS), np.uint64),  # the search's own stream (last row)
        np.zeros(MAX_SEATS, np.int8),  # the rollout players' kinds
        np.zeros((MAX_SEATS, MAX_POLICY_PARAMS), np.float64),  # and parameters
        cardsets.copy(), st.copy(),  # a world before its option
        cardsets.copy(), st.copy(), trick.copy(), log.copy(), info.copy(), rng.copy(),  # a rollout
        np.zeros(N_CARDS, np.int64),  # total delta by card
    )  # fmt: skip


@njit(cache=True)
def _seat_cards_from(log, trick, t, k, n, o, from_trick):
    """The cards seat ``o`` played in tricks ``from_trick`` .. now (the current trick's ``k`` cards included)."""
    out = ZERO
    for tt in range(from_trick, t):
        if log[tt, o] >= 0:
            out |= bit(log[tt, o])
    for j in range(k):
        if trick[TRICK_SEAT, j] == o:
            out |= bit(trick[TRICK_CARD, j])
    return out


@njit(cache=True)
def play_piles(r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, allowed, caps, pile_seat, forbid, before):
    """What ``seat`` knows at its card of trick ``t`` (``k`` cards already in it), as piles.

    Reads the public rows (ACTIVE, PASSED, TOOK_TRUMP, the play log, the trick, the count
    of each seat's discards) and the seat's own cards, never another seat's cards. Fills
    ``allowed``/``caps`` (uint64/int64[MAX_PILES]) for :mod:`..worlds` and ``pile_seat``
    (int64[MAX_PILES]: the seat whose hand a pile is, -1 for the passers' pile and the
    free pile, which is last); ``forbid`` uint64[MAX_SEATS] and ``before`` int8[MAX_SEATS]
    are scratch. Returns (unknown mask, n_piles, pair_a, pair_b, pair_piles).
    """
    trump = trump_card // RANKS_PER_SUIT
    trumps = SUIT_MASKS[trump]
    t_ace = card_of(trump, ACE)
    t_king = card_of(trump, KING)
    t_queen = card_of(trump, QUEEN)
    played = ZERO
    for tt in range(t):
        for o in range(n):
            if log[tt, o] >= 0:
                played |= bit(log[tt, o])
    for j in range(k):
        played |= bit(trick[TRICK_CARD, j])
    seen = cardsets[HAND, seat] | cardsets[DISCARDS, seat] | played | bit(trump_card)
    if st[TRUMP_DISCARD, seat] >= 0:
        seen |= bit(st[TRUMP_DISCARD, seat])
    unknown = r.deck_mask & ~seen
    # ---- what play showed, seat by seat ----
    for o in range(n):
        forbid[o] = ZERO
    pair_seats = 0
    known_dealer = ZERO
    if st[TOOK_TRUMP, dealer] and dealer != seat and not has(played, trump_card):
        known_dealer = bit(trump_card)  # R4.3: the dealer holds the trump card he took
    n_active = 0
    for o in range(n):
        n_active += st[ACTIVE, o]
    prev_leader, prev_winner, prev_led = -1, -1, -1
    for tt in range(t + 1):
        if tt < t:
            leader = log[tt, LOG_LEADER]
            count = n_active
        else:
            if k == 0:
                break
            leader = trick[TRICK_SEAT, 0]
            count = k
        o = leader
        for j in range(count):
            p = log[tt, o] if tt < t else trick[TRICK_CARD, j]
            if j == 0:
                q_duty = prev_leader == o and prev_winner == o and prev_led == t_king
                if p != t_ace:
                    forbid[o] |= bit(t_ace)  # R6.5
                    if q_duty and p != t_queen:
                        forbid[o] |= bit(t_queen)  # R6.6: the K won, the Q follows if held
                    elif p == t_queen and not q_duty:
                        forbid[o] |= bit(t_king)  # R6.6: with K and Q the K leads
                    elif p != t_king and p != t_queen:
                        later = _seat_cards_from(log, trick, t, k, n, o, tt)  # he held these then
                        if o == dealer:
                            later |= known_dealer
                        if has(later, t_king):
                            forbid[o] |= bit(t_queen)
                        elif has(later, t_queen):
                            forbid[o] |= bit(t_king)
                        elif has(unknown, t_king) and has(unknown, t_queen):
                            pair_seats |= 1 << o
                led_suit = p // RANKS_PER_SUIT
            else:
                suit = p // RANKS_PER_SUIT
                if suit != led_suit:
                    forbid[o] |= SUIT_MASKS[led_suit]  # R6.2
                    if suit != trump:
                        forbid[o] |= trumps  # R6.2: a void must trump
                    elif r.ruff == RUFF_OVERTRUMP:
                        best = -1
                        for i in range(j):
                            if before[i] // RANKS_PER_SUIT == trump and before[i] > best:
                                best = before[i]
                        if best >= 0 and p < best:
                            forbid[o] |= trumps & above(best)  # R6.3
                if r.ace_covers_face and p != t_ace and suit == trump:  # the ace would have been legal
                    for i in range(j):
                        if has(trump_face_mask(trump), before[i]):
                            forbid[o] |= bit(t_ace)  # R6.7
                            break
                if r.must_head and (suit == led_suit or suit == trump):
                    if winning_cards(bit(p), before, j, trump) == ZERO:
                        forbid[o] |= winning_cards(SUIT_MASKS[suit], before, j, trump)  # R6.3a
            before[j] = p
            o = next_active(st, o, n)
        if tt < t:
            prev_leader, prev_winner, prev_led = leader, log[tt, LOG_WINNER], log[tt, leader]
    # ---- the piles ----
    n_piles = 0
    pair_piles = 0
    tracked = 0
    for step in range(1, n):
        o = seat_after(seat, step, n)
        if not st[ACTIVE, o]:
            continue
        in_hand = N_TRICKS - t
        for j in range(k):
            if trick[TRICK_SEAT, j] == o:
                in_hand -= 1
        if o == dealer:
            in_hand -= popcount(known_dealer)
        allowed[n_piles] = unknown & ~forbid[o]
        caps[n_piles] = in_hand
        pile_seat[n_piles] = o
        if pair_seats >> o & 1:
            pair_piles |= 1 << n_piles
        tracked += in_hand
        n_piles += 1
    passers = 0
    for o in range(n):
        if st[PASSED, o] and o != seat:
            passers += 1
    if r.ace_forbids_pass and passers > 0 and unknown & ACE_CARDS != ZERO:
        allowed[n_piles] = unknown & ~ACE_CARDS  # R4.1: a passer held no ace
        caps[n_piles] = passers * N_TRICKS
        pile_seat[n_piles] = -1
        tracked += passers * N_TRICKS
        n_piles += 1
    allowed[n_piles] = unknown
    caps[n_piles] = popcount(unknown) - tracked
    pile_seat[n_piles] = -1
    n_piles += 1
    pa, pb = -1, -1
    if pair_piles != 0:
        pa, pb = t_king, t_queen
    return unknown, n_piles, pa, pb, pair_piles


@njit(cache=True)
def _shuffle_mask(mask, rng, row, buf):
    """The cards of ``mask`` in a uniform random order into ``buf``; returns their number."""
    m = 0
    rest = mask
    while rest != ZERO:
        buf[m] = lowest(rest)
        rest &= rest - np.uint64(1)
        m += 1
    for i in range(m - 1, 0, -1):
        j = bounded(rng, row, i + 1)
        tmp = buf[i]
        buf[i] = buf[j]
        buf[j] = tmp
    return m


@njit(cache=True)
def _copy2(dst, src):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True)
def pimc_card(search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t, k,
              leader, seat, legal, played, q_duty):  # fmt: skip
    """The card ``seat`` plays to trick ``t`` (``k`` cards in it) by determinized search (module docstring).

    ``search``: the armed :data:`rams_sim.kernels.search.Scratch` (its ``key`` is the
    deal's); the other arguments are the play loop's (:func:`rams_sim.kernels.play.play_from`).
    Returns a card of ``legal``. Allocates nothing.
    """
    if popcount(legal) == 1:
        return lowest(legal)
    samples = np.int64(params[seat, P_SAMPLES])
    rollout = np.int64(params[seat, P_ROLLOUT])
    caps, pile_seat, strides = search.ints[0], search.ints[1], search.ints[2]
    allowed, out = search.masks[0], search.masks[1]
    cards, buf, table, rng, totals = search.cards, search.buf, search.table, search.rng, search.totals
    # ---- the piles and their count ----
    unknown, n_piles, pa, pb, pair_piles = play_piles(r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k,
                                                      allowed, caps, pile_seat, search.forbid, search.before)  # fmt: skip
    m, pair = order_cards(unknown, pa, pb, cards)
    n_states = n_states_of(caps, n_piles, strides)
    if n_states == 0:
        return lowest(legal)  # beyond MAX_STATES (not reachable at one searching seat; see worlds.py)
    total = count_layouts(cards, m, pair, allowed, caps, n_piles, pair_piles, strides, n_states, table)
    if not total > 0.0:
        return lowest(legal)  # no consistent world: an impossible history (tests pin that this never happens)
    draw_row = MAX_SEATS + 1
    seed_stream(rng, draw_row, search.key, SEARCH_STREAM + seat * DECISIONS + CARD_DECISION + t)
    # ---- the rollout players: every seat plays the rollout policy with its defaults ----
    roll_kinds, roll_params = search.roll_kinds, search.roll_params
    for s in range(n):
        roll_kinds[s] = rollout
        for i in range(MAX_POLICY_PARAMS):
            roll_params[s, i] = DEFAULT_PARAMS[rollout, i]
    for c in range(N_CARDS):
        totals[c] = 0
    # ---- worlds ----
    b_cardsets, b_st = search.b_cardsets, search.b_st
    w_cardsets, w_st, w_trick, w_log, w_info, w_rng = (search.w_cardsets, search.w_st, search.w_trick, search.w_log,
                                                       search.w_info, search.w_rng)  # fmt: skip
    dealer_known = st[TOOK_TRUMP, dealer] != 0 and dealer != seat and not has(played, trump_card)
    first = seat_after(dealer, 1, n)
    for j in range(samples):
        draw_layout(cards, m, pair, allowed, caps, n_piles, pair_piles, strides, table, total, rng, draw_row, out)
        _copy2(b_cardsets, cardsets)
        _copy2(b_st, st)
        for p in range(n_piles - 1):
            o = pile_seat[p]
            if o < 0:
                continue
            hand = out[p]
            if o == dealer and dealer_known:
                hand |= bit(trump_card)
            b_cardsets[HAND, o] = hand
            b_cardsets[FINAL, o] = hand | _seat_cards_from(log, trick, t, k, n, o, 0)
            b_st[ACES, o] = ace_points(b_cardsets[FINAL, o], r.ace_values)
        # the others' unseen discards (and the dealer's R4.3 card) from the free pile, as their policies read them
        m_free = _shuffle_mask(out[n_piles - 1], rng, draw_row, buf)
        pos = 0
        for o in range(n):
            if o == seat:
                continue
            d = ZERO
            for _ in range(popcount(cardsets[DISCARDS, o])):
                if pos < m_free:
                    d |= bit(buf[pos])
                    pos += 1
            b_cardsets[DISCARDS, o] = d
            if st[TRUMP_DISCARD, o] >= 0:
                b_st[TRUMP_DISCARD, o] = buf[pos] if pos < m_free else -1
                pos += 1
        world_key = mix64(search.key ^ SAMPLE_SALT ^ (np.uint64(seat * DECISIONS + t) * GOLDEN) ^ np.uint64(j + 1))
        option = legal
        while option != ZERO:
            c = lowest(option)
            option &= option - np.uint64(1)
            _copy2(w_cardsets, b_cardsets)
            _copy2(w_st, b_st)
            _copy2(w_trick, trick)
            _copy2(w_log, log)
            for i in range(info.shape[0]):
                w_info[i] = info[i]
            for s in range(n):
                seed_stream(w_rng, s + 1, world_key, s + 1)
            winner = play_from(r, roll_kinds, roll_params, announce, w_rng, w_cardsets, w_st, w_trick, w_log, w_info,
                               n, dealer, trump_card, scores, t, k, leader, q_duty, played, c, None)  # fmt: skip
            if winner == -2:
                totals[c] += 1_000_000  # a rollout error: never chosen (tests pin that it does not happen)
                continue
            finish_deal(n, first, r.start, r.remiz, r.truncated_deal == SCORE_SO_FAR, winner, scores, w_st, w_info)
            totals[c] += w_st[DELTA, seat]
    best = -1
    option = legal
    while option != ZERO:
        c = lowest(option)
        option &= option - np.uint64(1)
        if best < 0 or totals[c] < totals[best]:  # R7: a delta counts down, so the least is the best
            best = c
    return best
