"""Exact declaration odds (issue 5): counting formulas = enumeration = simulation."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from rams_sim import cards as C
from rams_sim import engine
from rams_sim.odds import DECLARATIONS, dealt_odds, enumerated_odds
from rams_sim.rules import Rules
from rams_sim.runs.summary import wilson


@pytest.mark.parametrize("deck_size", [24, 32])
def test_formulas_equal_enumeration_of_every_hand(deck_size):
    """The closed forms equal a brute-force count over every five-card hand (and turned card)."""
    assert dealt_odds(deck_size) == enumerated_odds(deck_size)


def test_known_values():
    """Hand-checked values for the 32-card deck."""
    odds = dealt_odds(32)
    assert odds["four_aces"] == Fraction(28, comb(32, 5))
    assert odds["rams"] == Fraction(4 * comb(8, 5), comb(32, 5))
    assert odds["trump_rams"] + odds["suit_rams"] == odds["rams"]
    assert odds["trump_rams"] == odds["rams"] * Fraction(3, 27)
    assert odds["four_jacks"] == odds["four_aces"]
    assert set(odds) == set(DECLARATIONS)
    with pytest.raises(ValueError, match="deck_size"):
        dealt_odds(40)


def _dealt_properties(out) -> dict[str, np.ndarray]:
    """Per (deal, seat): which declarations the dealt hand holds, from the card masks."""
    hands = out.hand_dealt
    trump = (out.trump_card // C.RANKS_PER_SUIT).astype(np.int64)

    def has_all(cards):
        mask = np.uint64(C.mask_of(cards))
        return (hands & mask) == mask

    suit_of_rams = np.full(hands.shape, -1)
    for suit in range(C.N_SUITS):
        suit_of_rams[np.bitwise_count(hands & C.SUIT_MASKS[suit]) == C.HAND_SIZE] = suit
    jacks = [C.card_id(s, C.JACK) for s in range(C.N_SUITS)]
    four_jacks = has_all(jacks)
    return {
        "four_aces": has_all([C.card_id(s, C.ACE) for s in range(C.N_SUITS)]),
        "rams": suit_of_rams >= 0,
        "trump_rams": suit_of_rams == trump[:, None],
        "suit_rams": (suit_of_rams >= 0) & (suit_of_rams != trump[:, None]),
        "four_jacks": four_jacks,
        "jack_pair": (has_all(jacks[:2]) | has_all(jacks[2:])) & ~four_jacks,
    }


@pytest.mark.parametrize("deck", ["24", "32", "36", "52"])
def test_simulated_dealt_hands_agree_with_the_exact_odds(deck):
    """The engine's dealt hands show each declaration at the exact rate (95% Wilson intervals widened to about 99.9%)."""
    rules = Rules.classic(deck=deck, players=4)
    out = engine.simulate(rules, "basic", seed=17, deals=150_000)
    exact = dealt_odds(rules.deck_size)
    for name, held in _dealt_properties(out).items():
        est = wilson(int(held.sum()), held.size)
        half = (est.high - est.low) / 2 * 3.29 / 1.96  # widen 95% to 99.9%
        assert abs(est.value - float(exact[name])) <= half + 1e-12, f"{deck} cards, {name}: {est.value} vs {float(exact[name])}"
