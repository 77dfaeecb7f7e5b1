"""Hand features for the analyses: what a player sees in five cards, computed in bulk.

These are descriptions of a hand, not rules: the analyses group deals by them (hand
classes) and name canonical exchange actions with them. Where a feature is a rule
concept (a jack pair, a rams, R5), it is computed by the same primitive the engine uses
(:mod:`rams_sim.kernels.bits`), never re-derived.
"""

from __future__ import annotations

from numba import njit, prange

from ..cards import HAND_SIZE, KING, N_SUITS, RANKS_PER_SUIT, SUIT_MASKS
from .bits import ONE, ZERO, aces_mask, has, jack_kind, longest_suit, lowest, popcount, rams_suit
from .policy import weakest

# columns of hand_features' output (int8)
F_ACES = 0  # bit mask of the suits whose ace is held
F_N_ACES = 1  # number of aces
F_TRUMPS = 2  # number of trumps
F_TOP_TRUMP = 3  # rank of the highest trump (0 = deuce .. 12 = ace), -1 without trumps
F_JACKS = 4  # R5.5 jack_kind: 0 none, 1 a same-colour pair, 2 four jacks
F_RAMS_SUIT = 5  # suit of a five-card suit (R5.2), -1 if none
F_LONGEST = 6  # length of the longest suit
F_OFF_KINGS = 7  # kings of non-trump suits
N_FEATURES = 8


@njit(cache=True, parallel=True)
def hand_features(masks, trumps, out):
    """Fill ``out`` (int8[n, N_FEATURES]) for hands ``masks`` (uint64[n]) with trump suits ``trumps`` (int8[n])."""
    for i in prange(masks.shape[0]):
        hand = masks[i]
        trump = trumps[i]
        trump_cards = hand & SUIT_MASKS[trump]
        aces = aces_mask(hand)
        out[i, F_ACES] = aces
        out[i, F_N_ACES] = popcount(aces)
        out[i, F_TRUMPS] = popcount(trump_cards)
        top = -1
        m = trump_cards
        while m != ZERO:
            top = lowest(m) % RANKS_PER_SUIT
            m &= m - ONE
        out[i, F_TOP_TRUMP] = top
        out[i, F_JACKS] = jack_kind(hand)
        out[i, F_RAMS_SUIT] = rams_suit(hand)
        kings = 0
        for suit in range(N_SUITS):
            if suit != trump and has(hand, suit * RANKS_PER_SUIT + KING):
                kings += 1
        out[i, F_LONGEST] = longest_suit(hand)
        out[i, F_OFF_KINGS] = kings


@njit(cache=True, parallel=True)
def weakest_discards(masks, trumps, out):
    """Fill ``out`` (int8[n, HAND_SIZE + 1]): column k is the exchange option that discards the
    k weakest of the five dealt cards (the ``option`` code of ``rams-sim branch``: a bit mask
    over the dealt cards in ascending id order; 0 = stand).

    "Weakest" is a fixed, policy-free order (:func:`rams_sim.kernels.policy.weakest`, the
    ``table`` policy's): non-trumps below trumps, non-ace plain cards below aces, then by
    rank, then by card id.
    """
    for i in prange(masks.shape[0]):
        hand = masks[i]
        trump = trumps[i]
        out[i, 0] = 0
        for k in range(1, HAND_SIZE + 1):
            chosen = weakest(hand, trump, k)
            option = 0
            m = hand
            for j in range(HAND_SIZE):
                card = lowest(m)
                m &= m - ONE
                if has(chosen, card):
                    option |= 1 << j
            out[i, k] = option
