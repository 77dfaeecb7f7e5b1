"""Decisions of the built-in policies (``rams_sim.policies`` describes them in words).

Every function takes the seat's policy ``kind`` (int), the table's ``params``
(float64[n_seats, P]) with the ``seat`` whose row applies, the stream states ``rng``
(uint64[K, 4]; the seat's coins are row ``seat + 1``) and what the player may know, and
returns a decision. Cards are ids, card sets uint64 masks. Arrays are indexed, never
sliced, so hot loops take no references.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import ACE, HAND_SIZE, KING, N_SUITS, RANKS_PER_SUIT, SUIT_MASKS
from ..policies import (
    B_HIGH_TRUMP_BONUS,
    B_HIGH_TRUMP_RANK,
    B_KEEP_KINGS,
    B_KEEP_TRUMP_RANK,
    B_KING_WEIGHT,
    B_PASS_THRESHOLD,
    B_RAMS_DRAW,
    B_TRUMP_WEIGHT,
    PolicyKind,
)
from .bits import ONE, ZERO, bit, card_of, has, jack_kind, lowest, pair_jacks, popcount, rams_suit
from .legal import winning_cards
from .rng import bounded

RANDOM = int(PolicyKind.RANDOM)
BASIC = int(PolicyKind.BASIC)

KEEP_ACE = 100.0  # basic's keep values (policies.py)
KEEP_TRUMP = 50.0
KEEP_PAIR_JACK = 40.0
KEEP_KING = 30.0
RANK_BITS = np.uint64((1 << RANKS_PER_SUIT) - 1)  # the ranks of one suit, shifted to bit 0


@njit(cache=True, _nrt=False)
def uses_coins(kind):
    """Whether a policy kind draws from its stream (its stream is seeded only then)."""
    return kind == RANDOM


@njit(cache=True, _nrt=False)
def _nth_card(mask, index):
    """The ``index``-th card (0-based) of ``mask`` in ascending id order."""
    m = mask
    for _ in range(index):
        m &= m - ONE
    return lowest(m)


@njit(cache=True, _nrt=False, inline="always")
def _random_card(mask, rng, row):
    """A uniform card of ``mask``, drawing only when there is a choice."""
    count = popcount(mask)
    if count < 2:
        return lowest(mask)
    return _nth_card(mask, bounded(rng, row, count))


@njit(cache=True, _nrt=False)
def _rank(card):
    return card % RANKS_PER_SUIT


@njit(cache=True, _nrt=False)
def _ranks(mask):
    """The ranks present in ``mask``, any suit: bit r set for rank r."""
    out = ZERO
    for suit in range(N_SUITS):
        out |= (mask >> np.uint64(suit * RANKS_PER_SUIT)) & RANK_BITS
    return out


@njit(cache=True, _nrt=False)
def _lowest_suit_card(mask, rank):
    """The card of ``rank`` in ``mask`` of the lowest suit (the rank is present)."""
    for suit in range(N_SUITS):
        card = card_of(suit, rank)
        if has(mask, card):
            return card
    return -1


@njit(cache=True, _nrt=False)
def lowest_ranked(mask):
    """The card of lowest rank in ``mask`` (ties: lower id, i.e. lower suit); -1 if empty."""
    ranks = _ranks(mask)
    if ranks == ZERO:
        return -1
    return _lowest_suit_card(mask, lowest(ranks))


@njit(cache=True, _nrt=False)
def highest_ranked(mask):
    """The card of highest rank in ``mask`` (ties: lower id); -1 if empty."""
    ranks = _ranks(mask)
    if ranks == ZERO:
        return -1
    rank = RANKS_PER_SUIT - 1
    while not has(ranks, rank):
        rank -= 1
    return _lowest_suit_card(mask, rank)


@njit(cache=True, _nrt=False)
def _cheapest(mask, trump):
    """The cheapest card by (trump, rank, id): a plain card of lowest rank, else the lowest trump."""
    plain = mask & ~SUIT_MASKS[trump]
    if plain != ZERO:
        return lowest_ranked(plain)
    return lowest(mask)


@njit(cache=True, _nrt=False, inline="always")
def _strength(hand, trump, params, seat):
    """basic: trumps, high trumps and plain kings, weighted."""
    total = 0.0
    trumps = hand & SUIT_MASKS[trump]
    m = trumps
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
        total += params[seat, B_TRUMP_WEIGHT]
        if _rank(card) >= params[seat, B_HIGH_TRUMP_RANK]:
            total += params[seat, B_HIGH_TRUMP_BONUS]
    for suit in range(N_SUITS):
        if suit != trump and has(hand, card_of(suit, KING)):
            total += params[seat, B_KING_WEIGHT]
    return total


@njit(cache=True, _nrt=False, inline="always")
def keep_value(card, hand, trump, params, seat):
    """basic: how much a card is worth keeping (ace 100, trump 50 + rank, ...)."""
    if _rank(card) == ACE:
        return KEEP_ACE
    if card // RANKS_PER_SUIT == trump:
        return KEEP_TRUMP + _rank(card)
    if has(pair_jacks(hand), card):
        return KEEP_PAIR_JACK
    if _rank(card) == KING and params[seat, B_KEEP_KINGS] != 0.0:
        return KEEP_KING
    return float(_rank(card))


@njit(cache=True, _nrt=False, inline="always")
def _least_kept(mask, hand, trump, params, seat):
    """The card of ``mask`` with the least keep value (ties: lower id)."""
    best = -1
    best_value = 0.0
    m = mask
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
        value = keep_value(card, hand, trump, params, seat)
        if best < 0 or value < best_value:
            best = card
            best_value = value
    return best


# ---- R4: pass or play ------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def wants_pass(kind, params, seat, rng, hand, trump):
    """Whether a seat allowed to pass (R4.1) passes with ``hand``."""
    if kind == RANDOM:
        return bounded(rng, seat + 1, 2) == 1
    return _strength(hand, trump, params, seat) < params[seat, B_PASS_THRESHOLD] and jack_kind(hand) == 0


# ---- R4: the exchange -----------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def choose_discards(kind, params, seat, rng, hand, trump, talon_size, is_dealer):
    """The discard set (uint64, empty = stand) of a seat that plays; at most ``talon_size`` cards."""
    if kind == RANDOM:
        return _random_discards(rng, seat + 1, hand, talon_size)
    return _basic_discards(params, seat, hand, trump, talon_size, is_dealer)


@njit(cache=True, _nrt=False, inline="always")
def _random_discards(rng, row, hand, talon_size):
    count = 0
    for m in range(1 << HAND_SIZE):
        if popcount(m) <= talon_size:
            count += 1
    pick = bounded(rng, row, count) if count >= 2 else 0
    for m in range(1 << HAND_SIZE):
        if popcount(m) <= talon_size:
            if pick == 0:
                out = ZERO
                for j in range(HAND_SIZE):
                    if m >> j & 1:
                        out |= bit(_nth_card(hand, j))
                return out
            pick -= 1
    return ZERO


@njit(cache=True, _nrt=False, inline="always")
def _basic_discards(params, seat, hand, trump, talon_size, is_dealer):
    if rams_suit(hand) >= 0:
        return ZERO  # a rams stands
    if params[seat, B_RAMS_DRAW] != 0.0:
        for suit in range(N_SUITS):
            if popcount(hand & SUIT_MASKS[suit]) == HAND_SIZE - 1:
                odd = hand & ~SUIT_MASKS[suit]
                if is_dealer and suit == trump:
                    return ZERO  # R4.3: the trump card completes the rams
                if _rank(lowest(odd)) != ACE and talon_size >= 1:
                    return odd
                break
    keep = pair_jacks(hand)
    m = hand
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
        rank = _rank(card)
        if rank == ACE:
            keep |= bit(card)
        elif card // RANKS_PER_SUIT == trump:
            if rank >= params[seat, B_KEEP_TRUMP_RANK]:
                keep |= bit(card)
        elif rank == KING and params[seat, B_KEEP_KINGS] != 0.0:
            keep |= bit(card)
    candidates = hand & ~keep
    if popcount(candidates) <= talon_size:
        return candidates
    out = ZERO  # R4.4: a short talon: the cards of least keep value
    for _ in range(talon_size):
        card = _least_kept(candidates, hand, trump, params, seat)
        out |= bit(card)
        candidates &= ~bit(card)
    return out


# ---- R4.3: the dealer and the trump card ----------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def takes_trump(kind, params, seat, rng, hand, trump_card):
    """Whether a dealer who may choose takes the trump card."""
    if kind == RANDOM:
        return bounded(rng, seat + 1, 2) == 1
    trump = trump_card // RANKS_PER_SUIT
    if rams_suit(hand) >= 0:
        return False
    if popcount(hand & SUIT_MASKS[trump]) == HAND_SIZE - 1:
        return True
    least = _least_kept(hand, hand, trump, params, seat)
    return keep_value(trump_card, hand, trump, params, seat) > keep_value(least, hand, trump, params, seat)


@njit(cache=True, _nrt=False, inline="always")
def trump_discard(kind, params, seat, rng, hand, trump_card):
    """The card the dealer gives up for the trump card."""
    if kind == RANDOM:
        return _nth_card(hand, bounded(rng, seat + 1, HAND_SIZE))
    trump = trump_card // RANKS_PER_SUIT
    if popcount(hand & SUIT_MASKS[trump]) == HAND_SIZE - 1:
        return lowest(hand & ~SUIT_MASKS[trump])
    return _least_kept(hand, hand, trump, params, seat)


# ---- R6: the card to play -----------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def choose_card(kind, params, seat, rng, legal, trick, n_trick, trump, my_tricks):
    """The card to play from the ``legal`` mask; ``trick``/``n_trick`` as in legal.py."""
    if kind == RANDOM:
        return _random_card(legal, rng, seat + 1)
    if popcount(legal) == 1:
        return lowest(legal)
    trumps = SUIT_MASKS[trump]
    if n_trick == 0:
        plain_aces = ZERO
        for suit in range(N_SUITS):
            if suit != trump:
                plain_aces |= legal & bit(card_of(suit, ACE))
        if plain_aces != ZERO:
            return lowest(plain_aces)
        if my_tricks == 0:
            if legal & trumps:
                return _highest_trump(legal & trumps)
            return highest_ranked(legal)
        return _cheapest(legal, trump)
    win = winning_cards(legal, trick, n_trick, trump)
    if win != ZERO:
        return _cheapest(win, trump)
    return _cheapest(legal, trump)


@njit(cache=True, _nrt=False)
def _highest_trump(trumps):
    card = lowest(trumps)
    m = trumps
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
    return card
