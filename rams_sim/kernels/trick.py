"""R6.4: who wins a trick."""

from __future__ import annotations

from numba import njit

from ..cards import RANKS_PER_SUIT


@njit(cache=True, _nrt=False)
def beats(card, best, trump):
    """Whether ``card`` beats ``best``, the card now winning the trick (R6.4).

    A card beats a card of its own suit by rank, and any non-trump with a trump;
    a card of a third suit never wins.
    """
    suit = card // RANKS_PER_SUIT
    best_suit = best // RANKS_PER_SUIT
    if suit == best_suit:
        return card > best
    return suit == trump


@njit(cache=True, _nrt=False, inline="always")
def trick_winner(trick, n_cards, trump):
    """Index in ``trick`` (int8[>= n_cards], led card first) of the winning card."""
    best = 0
    for i in range(1, n_cards):
        if beats(trick[i], trick[best], trump):
            best = i
    return best
