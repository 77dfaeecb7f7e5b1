"""R6.2-R6.7a: the cards a player may play, as a mask."""

from __future__ import annotations

from numba import njit

from ..cards import ACE, KING, QUEEN, RANKS_PER_SUIT, SUIT_MASKS
from .bits import ZERO, above, bit, card_of, trump_face_mask
from .trick import trick_winner


@njit(cache=True, _nrt=False, inline="always")
def lead_mask(hand, trump, q_duty):
    """Cards ``hand`` (uint64) may lead (R6.5, R6.6, R6.7a): the first duty that applies.

    ``q_duty``: the player led the previous trick with the trump K of a marriage and won it.
    """
    ace = bit(card_of(trump, ACE))
    if hand & ace:
        return ace  # R6.5
    king = bit(card_of(trump, KING))
    queen = bit(card_of(trump, QUEEN))
    if hand & king and hand & queen:
        return king  # R6.6: the marriage K first
    if q_duty and hand & queen:
        return queen  # R6.6: the K won, the Q follows
    return hand


@njit(cache=True, _nrt=False, inline="always")
def follow_mask(hand, trick, n_trick, trump, overtrump, must_head, ace_covers_face):
    """Cards ``hand`` may play to a trick of ``n_trick`` >= 1 cards (R6.7a).

    ``trick``: int8[>= n_trick], the cards played, led card first.
    """
    led_suit = trick[0] // RANKS_PER_SUIT
    trumps = SUIT_MASKS[trump]
    legal = hand & SUIT_MASKS[led_suit]  # R6.2: follow suit
    if legal == ZERO:
        legal = hand & trumps  # R6.2: void -> must trump
        if legal != ZERO and overtrump:
            best = -1  # R6.3: beat the best trump in the trick, if able
            for i in range(n_trick):
                if trick[i] // RANKS_PER_SUIT == trump and trick[i] > best:
                    best = trick[i]
            if best >= 0 and legal & above(best) != ZERO:
                legal = legal & above(best)
        if legal == ZERO:
            legal = hand  # R6.2: otherwise anything
    if ace_covers_face:
        ace = bit(card_of(trump, ACE))  # R6.7: the trump ace falls on a trump face
        if legal & ace:
            faces = trump_face_mask(trump)
            for i in range(n_trick):
                if faces & bit(trick[i]):
                    legal = ace
                    break
    if must_head:
        win = winning_cards(legal, trick, n_trick, trump)  # R6.3a
        if win != ZERO:
            legal = win
    return legal


@njit(cache=True, _nrt=False, inline="always")
def winning_cards(cards, trick, n_trick, trump):
    """The cards of ``cards`` that would win the trick as it stands (R6.4)."""
    best = trick[trick_winner(trick, n_trick, trump)]
    win = cards & above(best)
    if best // RANKS_PER_SUIT != trump:
        win |= cards & SUIT_MASKS[trump]
    return win


@njit(cache=True, _nrt=False, inline="always")
def legal_mask(hand, trick, n_trick, trump, q_duty, overtrump, must_head, ace_covers_face):
    """The legal cards of ``hand`` (uint64) for the trick so far (R6.7a)."""
    if n_trick == 0:
        return lead_mask(hand, trump, q_duty)
    return follow_mask(hand, trick, n_trick, trump, overtrump, must_head, ace_covers_face)
