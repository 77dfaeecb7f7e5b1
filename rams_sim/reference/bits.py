"""Card lookups every step of the reference engine shares (R1, R3, R5.2, R5.5, R6.5-R6.7).

The suit and rank of every card id, the jack pairs and the trump honours; the two hand
shapes that the declarations, the policies and every game test (the jack kind, a rams);
hands as bit masks; the seat order. Values that only one step reads live in that step's
module (the ace total in ``score``, the rams seniority in ``declare``, the keep values in
``policy``). The kernels' counterpart is ``rams_sim/kernels/bits.py``.
"""

from __future__ import annotations

from .. import cards as C

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
