"""R6.4: who wins a trick, and which cards would win it (read by the legality of R6 and by the policies)."""

from __future__ import annotations

from numba import njit

from ..cards import SUIT_MASKS
from .bits import above, suit_of


@njit(cache=True, _nrt=False)
def beats(card, best, trump):
    """Whether ``card`` beats ``best``, the card now winning the trick (R6.4).

    A card beats a card of its own suit by rank, and any non-trump with a trump;
    a card of a third suit never wins.
    """
    suit = suit_of(card)
    best_suit = suit_of(best)
    return ((suit == best_suit) & (card > best)) | ((suit != best_suit) & (suit == trump))  # no branch


@njit(cache=True, _nrt=False, inline="always")
def trick_winner(trick, n_cards, trump):
    """Index in ``trick`` (int8[>= n_cards], led card first) of the winning card."""
    best = 0
    for i in range(1, n_cards):
        best = i if beats(trick[i], trick[best], trump) else best
    return best


@njit(cache=True, _nrt=False, inline="always")
def winning_cards(cards, trick, n_trick, trump):
    """The cards of ``cards`` that would win the trick as it stands (R6.4)."""
    return winning_over(cards, trick[trick_winner(trick, n_trick, trump)], trump)


@njit(cache=True, _nrt=False, inline="always")
def winning_over(cards, best, trump):
    """The cards of ``cards`` that beat ``best``, the card winning a trick (R6.4): its suit's higher
    cards, and any trump unless it is a trump."""
    win = cards & above(best)
    if suit_of(best) != trump:
        win |= cards & SUIT_MASKS[trump]
    return win
