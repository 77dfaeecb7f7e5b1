"""Exact odds of the declarations in a dealt hand (R5), by counting.

A hand is five cards dealt from a well-shuffled deck of ``deck_size`` cards (4 suits of
``deck_size / 4`` ranks); the trump suit is that of the turned card, a sixth card drawn
from the rest of the deck (R3). For each declaration the probability is an exact
:class:`fractions.Fraction`:

* ``four_aces``: all four aces (R5.1);
* ``rams``: five cards of one suit (R5.2-R5.3), split into ``trump_rams`` (of the
  trump suit: the turned card is of the same suit) and ``suit_rams``;
* ``four_jacks``: all four jacks; ``jack_pair``: a same-colour pair of jacks (both black
  or both red, three jacks included) without all four (R5.5).

These are properties of the dealt five cards, before any exchange; what is declared at
the table also depends on the exchange and on R5's order (a rams voids jacks, R5.6).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

from . import cards as C

DECLARATIONS = ("four_aces", "rams", "trump_rams", "suit_rams", "four_jacks", "jack_pair")


def dealt_odds(deck_size: int) -> dict[str, Fraction]:
    """Exact probability of each declaration in a dealt hand of a ``deck_size`` deck."""
    if deck_size not in C.DECK_SIZES:
        raise ValueError(f"deck_size must be one of {C.DECK_SIZES}; got {deck_size}")
    ranks = deck_size // C.N_SUITS
    hands = comb(deck_size, C.HAND_SIZE)
    rest = deck_size - C.HAND_SIZE  # cards the trump card is turned from
    rams = Fraction(C.N_SUITS * comb(ranks, C.HAND_SIZE), hands)
    same_suit_turned = Fraction(ranks - C.HAND_SIZE, rest)
    four_jacks = Fraction(comb(deck_size - 4, C.HAND_SIZE - 4), hands)
    # a black pair or a red pair: inclusion-exclusion over the two colours, less four jacks
    one_colour = comb(deck_size - 2, C.HAND_SIZE - 2)
    both_colours = comb(deck_size - 4, C.HAND_SIZE - 4)
    jack_pair = Fraction(2 * one_colour - both_colours, hands) - four_jacks
    return {
        "four_aces": Fraction(comb(deck_size - 4, C.HAND_SIZE - 4), hands),
        "rams": rams,
        "trump_rams": rams * same_suit_turned,
        "suit_rams": rams * (1 - same_suit_turned),
        "four_jacks": four_jacks,
        "jack_pair": jack_pair,
    }


def enumerated_odds(deck_size: int) -> dict[str, Fraction]:
    """The same probabilities by enumerating every five-card hand (slow; for checking).

    The turned card is counted over the cards left: a rams hand is a trump rams for as many
    turned cards as its suit has left.
    """
    deck = [int(c) for c in C.deck_cards(deck_size)]
    counts = dict.fromkeys(DECLARATIONS, 0)
    rest = deck_size - C.HAND_SIZE
    hands = 0
    for hand in combinations(deck, C.HAND_SIZE):
        hands += 1
        suits = {C.suit_of(c) for c in hand}
        aces = sum(C.rank_of(c) == C.ACE for c in hand)
        jacks = {C.suit_of(c) for c in hand if C.rank_of(c) == C.JACK}
        if aces == 4:
            counts["four_aces"] += rest
        if len(suits) == 1:
            suit = suits.pop()
            left = sum(1 for c in deck if C.suit_of(c) == suit and c not in hand)
            counts["rams"] += rest
            counts["trump_rams"] += left
            counts["suit_rams"] += rest - left
        if len(jacks) == 4:
            counts["four_jacks"] += rest
        elif {C.SPADES, C.CLUBS} <= jacks or {C.DIAMONDS, C.HEARTS} <= jacks:
            counts["jack_pair"] += rest
    return {name: Fraction(k, hands * rest) for name, k in counts.items()}
