"""Cards, decks and their text form: the vocabulary both engines share (R1, R2).

A card is one universal id for every deck, ``card = suit * RANKS_PER_SUIT + rank``,
with suits ♠0 ♣1 ♦2 ♥3 and rank 0 = "2" … 12 = "A", so "A♥" is 51. A set of cards
(a hand, the talon, the cards seen) is a ``uint64`` bit mask with bit ``card`` set.
The 24/32/36/52-card decks are the cards whose rank is at least the deck's lowest
rank, so ids never change with the deck.

Only constants and text conversion live here; game values (ace values, card
points, jack colours) are lookup tables built from :class:`rams_sim.rules.Rules`.

>>> parse("Ah"), parse("A♥"), parse("10♣"), parse("Tc")
(51, 51, 21, 21)
>>> format_card(51), format_card(21, ascii=True)
('A♥', 'Tc')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

# dtypes used on both sides of the kernel boundary
CARD = np.int8  # one card id, or NO_CARD
MASK = np.uint64  # a set of cards
SCORE = np.int16  # a score delta of one deal

N_SUITS = 4
RANKS_PER_SUIT = 13
N_CARDS = N_SUITS * RANKS_PER_SUIT  # 52 ids; every deck is a subset
HAND_SIZE = 5  # R3: five cards each
N_TRICKS = HAND_SIZE  # one card per trick from each active player
MIN_SEATS = 2  # R2
MAX_SEATS = 7  # R2
NO_CARD = -1
NO_SEAT = -1

SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3  # R1: the order of ace values and rams
SUIT_SYMBOLS = "♠♣♦♥"
SUIT_LETTERS = "scdh"
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")

RANK_2, RANK_6, RANK_7, RANK_9 = 0, 4, 5, 7
RANK_10, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12
RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_LETTERS = "23456789TJQKA"

# R1: decks by size -> lowest rank in every suit
DECK_LOWEST_RANK = {52: RANK_2, 36: RANK_6, 32: RANK_7, 24: RANK_9}
DECK_SIZES = tuple(sorted(DECK_LOWEST_RANK))

_ONE = np.uint64(1)


def card_id(suit: int, rank: int) -> int:
    """Return the universal id of the card of ``suit`` and ``rank``."""
    return suit * RANKS_PER_SUIT + rank


def suit_of(card: int) -> int:
    """Return the suit index (0-3) of a card id."""
    return card // RANKS_PER_SUIT


def rank_of(card: int) -> int:
    """Return the rank index (0 = deuce … 12 = ace) of a card id."""
    return card % RANKS_PER_SUIT


def _build_suit_masks() -> np.ndarray:
    masks = np.zeros(N_SUITS, dtype=MASK)
    for suit in range(N_SUITS):
        for rank in range(RANKS_PER_SUIT):
            masks[suit] |= _ONE << np.uint64(card_id(suit, rank))
    return masks


SUIT_MASKS = _build_suit_masks()  # uint64[4]: every card of suit s
ALL_CARDS_MASK = np.uint64((1 << N_CARDS) - 1)


def deck_cards(deck_size: int) -> np.ndarray:
    """Return the card ids of a deck in ascending order, int8[deck_size] (R1)."""
    if deck_size not in DECK_LOWEST_RANK:
        raise ValueError(f"unknown deck size {deck_size}; choose one of {DECK_SIZES}")
    low = DECK_LOWEST_RANK[deck_size]
    ids = [card_id(s, r) for s in range(N_SUITS) for r in range(low, RANKS_PER_SUIT)]
    return np.array(ids, dtype=CARD)


def deck_mask(deck_size: int) -> int:
    """Return the deck of ``deck_size`` cards as a bit mask (python int)."""
    return mask_of(deck_cards(deck_size))


def mask_of(cards: Iterable[int]) -> int:
    """Return the bit mask (python int) of an iterable of card ids."""
    mask = 0
    for card in cards:
        card = int(card)
        if not 0 <= card < N_CARDS:
            raise ValueError(f"card id {card} is outside 0..{N_CARDS - 1}")
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Return the card ids of a bit mask in ascending order."""
    mask = int(mask)
    return [card for card in range(N_CARDS) if mask >> card & 1]


_CARD_RE = re.compile(r"^\s*(10|[2-9TtJjQqKkAa])\s*([♠♣♦♥♤♧♢♡SsCcDdHh])\s*$")
_SUIT_TEXT = {"♠": 0, "♤": 0, "s": 0, "♣": 1, "♧": 1, "c": 1, "♦": 2, "♢": 2, "d": 2, "♥": 3, "♡": 3, "h": 3}


def parse(text: str) -> int:
    """Parse one card, e.g. ``"A♥"``, ``"Ah"``, ``"10♣"`` or ``"Tc"``, into its id.

    Raises ``ValueError`` naming the text when it is not a card.
    """
    match = _CARD_RE.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a card; write rank then suit, e.g. 'A♥', 'Ah', '10♣' or 'Tc'")
    rank_text, suit_text = match.groups()
    rank_text = "T" if rank_text == "10" else rank_text.upper()
    return card_id(_SUIT_TEXT[suit_text.lower()], RANK_LETTERS.index(rank_text))


def parse_cards(text: str) -> list[int]:
    """Parse cards separated by spaces or commas, e.g. ``"A♥ K♥ 10♣"``."""
    return [parse(tok) for tok in re.split(r"[\s,]+", text.strip()) if tok]


def format_card(card: int, ascii: bool = False) -> str:
    """Return the text of one card id: ``"A♥"`` (or ``"Ah"`` with ``ascii``)."""
    card = int(card)
    if card == NO_CARD:
        return "--"
    if not 0 <= card < N_CARDS:
        raise ValueError(f"card id {card} is outside 0..{N_CARDS - 1}")
    suit, rank = suit_of(card), rank_of(card)
    if ascii:
        return RANK_LETTERS[rank] + SUIT_LETTERS[suit]
    return RANK_LABELS[rank] + SUIT_SYMBOLS[suit]


def format_cards(cards: Iterable[int] | int, ascii: bool = False) -> str:
    """Return cards (ids, or a mask given as an int) as text, highest suit last."""
    if isinstance(cards, (int, np.integer)):
        cards = cards_of(int(cards))
    return " ".join(format_card(c, ascii) for c in cards)
