"""R6.4: who wins a trick, and whether a card would win it (read by R6's legality and by the policies)."""

from __future__ import annotations

from .bits import RANK, SUIT


def trick_winner(trump: int, trick) -> int:
    """Return the index in ``trick`` (led card first) of the card that wins it (R6.4).

    The highest trump wins; with no trump in the trick, the highest card of the suit led.
    """
    led = SUIT[trick[0]]
    best = 0
    for i in range(1, len(trick)):
        card, top = trick[i], trick[best]
        if SUIT[card] == trump:
            if SUIT[top] != trump or RANK[card] > RANK[top]:
                best = i
        elif SUIT[card] == led and SUIT[top] != trump and RANK[card] > RANK[top]:
            best = i
    return best


def would_win(trump: int, trick, card: int) -> bool:
    """True when ``card`` played now to ``trick`` wins it as it stands (R6.4)."""
    return trick_winner(trump, list(trick) + [card]) == len(trick)

