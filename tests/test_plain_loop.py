"""bench/plain_loop.py, the yardstick `make bench` measures the classic kernel against (issue 12),
plays what its docstring says: the deal's own deck order, R3's hands, the lowest legal card by
R6's lead and follow duties, R6.4's winner leading next. Checked deal by deal against the
reference engine's shuffle, legality and trick winner."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from rams_sim import cards as C
from rams_sim.kernels.rng import deal_key
from rams_sim.reference.args import RuleBook
from rams_sim.reference.deal import shuffle
from rams_sim.reference.play import legal_for
from rams_sim.reference.trick import trick_winner
from rams_sim.rules import Rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from plain_loop import plain_deals, rule_flags


def plain_tricks(book: RuleBook, seed: int, deal: int) -> list[int]:
    """The tricks each seat takes in deal ``deal`` when every seat plays its lowest legal card."""
    n = book.players
    order = shuffle(book, int(deal_key(seed, deal)))
    dealer = deal % n
    hands = {}
    for k in range(n):  # R3: five cards each from the dealer's left
        hands[(dealer + 1 + k) % n] = set(order[C.HAND_SIZE * k : C.HAND_SIZE * (k + 1)])
    trump = order[C.HAND_SIZE * n] // C.RANKS_PER_SUIT
    tricks = [0] * n
    leader = (dealer + 1) % n
    for _ in range(C.N_TRICKS):
        trick, seats = [], []
        for k in range(n):
            seat = (leader + k) % n
            card = min(legal_for(book, hands[seat], trump, trick))
            hands[seat].remove(card)
            trick.append(card)
            seats.append(seat)
        leader = seats[trick_winner(trump, trick)]
        tricks[leader] += 1
    return tricks


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 2, "deck": "24"}, {"players": 6, "deck": "36", "ruff": "overtrump", "must_head": True},
     {"players": 7, "ace_covers_face": False}],
)
def test_plain_loop_plays_the_lowest_legal_card(options):
    rules = Rules(**options)
    book, players = RuleBook(rules), rules.players
    deals, seed = 300, 11
    tricks = np.zeros((deals, players), np.int8)
    plain_deals(seed, 0, deals, players, C.deck_cards(rules.deck_size), *rule_flags(rules), tricks)
    for d in range(deals):
        assert tricks[d].tolist() == plain_tricks(book, seed, d), f"deal {d}"
