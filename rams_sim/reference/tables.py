"""Lookups every step of the reference engine shares (R1, R3, R5.2, R5.5, R6.5-R6.7).

The suit and rank of every card id, the jack pairs and the trump honours; the two hand
shapes that the declarations, the policies and every game test (the jack kind, a rams);
hands as bit masks; the seat order; and :class:`RuleBook`, the option values a deal reads
from :class:`rams_sim.rules.Rules`, looked up once per rule set. Values that only one step
reads live in that step's module (the ace total in ``score``, the rams seniority in
``declare``, the keep values in ``policy``).
"""

from __future__ import annotations

from functools import lru_cache

from .. import cards as C
from ..rules import (
    DealerTakesTrump,
    ExchangeOrder,
    LonePlayer,
    Ruff,
    Rules,
    Settle,
    TruncatedDeal,
)

SUIT = tuple(C.suit_of(c) for c in range(C.N_CARDS))
RANK = tuple(C.rank_of(c) for c in range(C.N_CARDS))
# R0 / R5.5: a jack pair is two jacks of one colour: black = ♠♣, red = ♦♥.
JACK_PAIRS = (
    (C.card_id(C.SPADES, C.JACK), C.card_id(C.CLUBS, C.JACK)),
    (C.card_id(C.DIAMONDS, C.JACK), C.card_id(C.HEARTS, C.JACK)),
)
# R6.5-R6.7: the trump A, K, Q and J of each trump suit
TRUMP_HONOURS = tuple(tuple(C.card_id(suit, rank) for rank in (C.ACE, C.KING, C.QUEEN, C.JACK)) for suit in range(C.N_SUITS))
# R5.5: the jack kind of a hand holding all four jacks (jack_kind)
FOUR_JACKS_KIND = 2


def mask_of(hand) -> int:
    """Return the bit mask (python int) of a list of card ids."""
    mask = 0
    for card in hand:
        mask |= 1 << card
    return mask


def cards_in(hand_or_mask) -> list[int]:
    """Return a hand given as a mask (an integer) or as card ids as a sorted list of ids."""
    if not hasattr(hand_or_mask, "__iter__"):
        return C.cards_of(int(hand_or_mask))
    return sorted(int(c) for c in hand_or_mask)


def seat_order(dealer: int, players: int) -> list[int]:
    """Seats in the order they act: left of the dealer first, the dealer last (R3)."""
    return [(dealer + 1 + i) % players for i in range(players)]


def jack_kind(hand) -> int:
    """R5.5: 2 for all four jacks, 1 for a same-colour pair (three jacks hold one), else 0.

    Cross jacks (R5.8) are 0.
    """
    jacks = [c for c in hand if RANK[c] == C.JACK]
    if len(jacks) == 4:
        return FOUR_JACKS_KIND
    for first, second in JACK_PAIRS:
        if first in jacks and second in jacks:
            return 1
    return 0


def rams_suit(hand) -> int:
    """The suit of a rams (five cards of one suit, R5.2) held in ``hand``, else -1."""
    if len(hand) == C.HAND_SIZE and len({SUIT[c] for c in hand}) == 1:
        return SUIT[hand[0]]
    return -1


class RuleBook:
    """The values a deal needs from :class:`Rules`, looked up once per rule set.

    The options of the R9 games (``zone_*``, ``duel_*``, ``dave*``, ``modern_*``) are read
    from ``book.rules`` by the game modules themselves.
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self.players = rules.players
        self.deck_size = rules.deck_size
        self.deck_array = C.deck_cards(rules.deck_size)  # int8, ascending ids
        self.deck = sorted(int(c) for c in self.deck_array)
        self.declare_then_buy = rules.exchange_order == ExchangeOrder.DECLARE_THEN_BUY  # R4.0
        self.intent_round = rules.intent_round  # R4.0a: "on trumps" / "on suits" once all said play or pass
        self.ace_forbids_pass = rules.ace_forbids_pass  # R4.1
        self.turned_ace_binds_dealer = rules.turned_ace_binds_dealer  # R4.1
        self.dealer_must_take = rules.dealer_takes_trump == DealerTakesTrump.MUST  # R4.3
        self.lone_void = rules.lone_player == LonePlayer.VOID_DEAL  # R4.5
        self.four_aces_win = rules.four_aces_win  # R5.1
        self.rams_penalizes_passers = rules.rams_penalizes_passers  # R5.2
        self.jacks_count = rules.jacks_count  # R5.5
        self.four_jacks_win = rules.four_jacks_win  # R9 from-15
        self.overtrump = rules.ruff == Ruff.OVERTRUMP  # R6.3
        self.must_head = rules.must_head  # R6.3a
        self.ace_covers_face = rules.ace_covers_face  # R6.7
        self.score_so_far = rules.truncated_deal == TruncatedDeal.SCORE_SO_FAR  # R8.2a
        self.start = rules.start  # R8.1
        self.settle_stake = rules.settle == Settle.STAKE  # R8.4
        self.max_deals = rules.max_deals  # R8.2c
        self.ace_values = tuple(rules.ace_values)  # R1/R7, by suit
        self.remiz = rules.remiz  # R7.2
        self.suit_rams = rules.suit_rams  # R5.2
        self.trump_rams = rules.trump_rams  # R5.3
        self.jack_pair = rules.jack_pair  # R5.5
        self.four_jacks = rules.four_jacks  # R5.5


@lru_cache(maxsize=64)
def rule_book(rules: Rules) -> RuleBook:
    """Return the (cached) :class:`RuleBook` of a rule set."""
    return RuleBook(rules)
