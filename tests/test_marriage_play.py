"""R6.6 in play: the marriage Q duty after a led K that wins, and the exception [000].

Stacked decks with the ``basic`` policy (ENGINE.md §2 layout: seat (dealer+1+i) gets
order[5i..5i+4], then the trump card, then the talon) make each situation certain.
"""

from __future__ import annotations

from rams_sim import cards as C
from rams_sim.rules import Rules

RULES = Rules.classic(players=3)


def stacked(*parts: str) -> list[int]:
    """A deck order: the given cards first, then the rest of the deck in ascending order."""
    head = [c for part in parts for c in C.parse_cards(part)]
    rest = [c for c in C.deck_cards(RULES.deck_size).tolist() if c not in head]
    return head + rest


def test_led_marriage_king_that_wins_obliges_the_queen(engine):
    """R6.6: a player who leads the trump K of a marriage and wins must lead the Q next."""
    order = stacked(
        "K♠ Q♠ A♦ K♦ A♣",  # seat 0 leads: all keepers, stands
        "7♥ 8♥ 9♥ 10♥ J♣",  # seat 1: weak, no ace: passes
        "A♥ 7♠ 8♣ 9♣ 10♣",  # seat 2, the dealer: holds an ace, plays
        "8♠",  # trump card: spades
        "7♦ 8♦ 9♦",  # the talon
    )
    rec = engine.play_deal(RULES, "basic", order=order, dealer=2)
    assert rec.passed == (False, True, False)
    first, second = rec.plays[0], rec.plays[1]
    assert first.leader == 0 and first.cards[0] == C.parse("K♠") and first.winner == 0
    # basic alone would lead its plain ace A♣ (policies.py); the duty makes it the Q
    assert second.leader == 0 and second.cards[0] == C.parse("Q♠")


def test_marriage_card_won_on_another_lead_frees_the_lead(engine):
    """R6.6 exception [000]: winning the lead with the marriage Q played to another's lead frees him."""
    order = stacked(
        "A♥ K♥ A♣ K♣ A♦",  # seat 0 leads A♣ (basic: a plain ace first)
        "K♠ Q♠ 7♥ 8♥ 9♥",  # seat 1: void in clubs, ruffs with the cheaper Q♠
        "7♣ 8♣ 10♦ J♥ 10♥",  # seat 2, the dealer: no ace, weak: passes
        "7♠",  # trump card: spades (unused: the dealer passes)
        "7♦ 8♦ 9♦",  # the talon: seat 1 draws these for his hearts
    )
    rec = engine.play_deal(RULES, "basic", order=order, dealer=2)
    assert rec.passed == (False, False, True)
    first, second = rec.plays[0], rec.plays[1]
    assert first.cards[0] == C.parse("A♣") and first.cards[1] == C.parse("Q♠") and first.winner == 1
    # no duty to lead the K: basic leads its cheapest plain card
    assert second.leader == 1 and second.cards[1] == C.parse("7♦")
