"""R1: card ids, decks and the text form of cards (rams_sim.cards)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rams_sim import cards as C
from rams_sim.cards import (
    ALL_CARDS_MASK,
    DECK_SIZES,
    N_CARDS,
    card_id,
    cards_of,
    deck_cards,
    deck_mask,
    format_card,
    format_cards,
    mask_of,
    parse,
    parse_cards,
    rank_of,
    suit_of,
)

ALL_IDS = list(range(N_CARDS))
RANK_TEXT = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_suit_and_rank_order():
    """R1: suits ♠0 ♣1 ♦2 ♥3, ranks 2..A low to high; id = suit * 13 + rank."""
    assert (C.SPADES, C.CLUBS, C.DIAMONDS, C.HEARTS) == (0, 1, 2, 3)
    assert C.SUIT_SYMBOLS == "♠♣♦♥"
    assert [RANK_TEXT[r] for r in range(13)] == list(C.RANK_LABELS)
    assert (C.RANK_10, C.JACK, C.QUEEN, C.KING, C.ACE) == (8, 9, 10, 11, 12)
    for card in ALL_IDS:
        assert card_id(suit_of(card), rank_of(card)) == card
    assert parse("A♥") == 51 and parse("2♠") == 0 and parse("10♣") == 21


@pytest.mark.parametrize("card", ALL_IDS)
def test_text_round_trip_every_card(card):
    """R1: every card of the 52 (so of every deck) parses back from each of its spellings."""
    suit, rank = suit_of(card), rank_of(card)
    symbol, letter = "♠♣♦♥"[suit], "scdh"[suit]
    text = format_card(card)
    assert text == RANK_TEXT[rank] + symbol  # "A♥", "10♣"
    assert format_card(card, ascii=True) == "23456789TJQKA"[rank] + letter  # "Ah", "Tc"
    spellings = {
        text,
        format_card(card, ascii=True),
        RANK_TEXT[rank] + letter,  # "10c", "Ah"
        RANK_TEXT[rank] + letter.upper(),  # "AH"
        "23456789TJQKA"[rank].lower() + letter,  # "ah", "tc"
        "23456789TJQKA"[rank] + "♤♧♢♡"[suit],  # hollow suit symbols
        " " + text + " ",
    }
    for spelling in spellings:
        assert parse(spelling) == card, spelling


def test_documented_examples():
    """cards.py docstring: "A♥" "Ah" "10♣" "Tc" and their formats."""
    assert (parse("Ah"), parse("A♥"), parse("10♣"), parse("Tc"), parse("10c")) == (51, 51, 21, 21, 21)
    assert format_card(51) == "A♥" and format_card(21, ascii=True) == "Tc"
    assert parse_cards("A♥ K♥ 10♣") == [51, 50, 21]
    assert parse_cards("A♥, K♥,10♣") == [51, 50, 21]
    assert parse_cards("") == []
    assert format_card(C.NO_CARD) == "--"


@pytest.mark.parametrize("size", DECK_SIZES)
def test_format_parse_cards_round_trip_each_deck(size):
    """R1: a whole deck survives format_cards -> parse_cards, in both text forms."""
    deck = [int(c) for c in deck_cards(size)]
    assert parse_cards(format_cards(deck)) == deck
    assert parse_cards(format_cards(deck, ascii=True)) == deck
    assert format_cards(mask_of(deck)) == format_cards(deck)


@pytest.mark.parametrize(
    "text",
    ["", " ", "A", "♥", "1♥", "11♣", "0c", "B♥", "Ax", "A♥K", "A♥ K♥", "AA♥", "10", "1O♣", "♥A", "Ace of hearts", "A-h"],
)
def test_bad_card_text_raises(text):
    """A text that is not one card raises ValueError naming it."""
    with pytest.raises(ValueError):
        parse(text)


def test_bad_card_in_list_raises():
    """parse_cards raises ValueError on the first token that is not a card."""
    with pytest.raises(ValueError):
        parse_cards("A♥ K♥ X♣")


@pytest.mark.parametrize("card", [-2, 52, 64, 100])
def test_format_out_of_range_raises(card):
    """format_card refuses ids outside 0..51 (R1: 52 ids)."""
    with pytest.raises(ValueError):
        format_card(card)


@pytest.mark.parametrize(
    "size, lowest",
    [(52, "2"), (36, "6"), (32, "7"), (24, "9")],
)
def test_deck_contents(size, lowest):
    """R1: decks of 52 (2-A), 36 (6-A), 32 (7-A), 24 (9-A), every suit alike, ids ascending."""
    deck = [int(c) for c in deck_cards(size)]
    assert len(deck) == size == len(set(deck))
    assert deck == sorted(deck)
    low = RANK_TEXT.index(lowest)
    assert deck == [card_id(s, r) for s in range(4) for r in range(low, 13)]
    for s in range(4):
        assert sum(1 for c in deck if suit_of(c) == s) == size // 4
        assert card_id(s, C.ACE) in deck and card_id(s, C.JACK) in deck
    assert deck_cards(size).dtype == C.CARD
    assert deck_mask(size) == mask_of(deck)
    assert cards_of(deck_mask(size)) == deck


def test_decks_are_nested():
    """R1: 24 ⊂ 32 ⊂ 36 ⊂ 52, so card ids never change with the deck."""
    assert DECK_SIZES == (24, 32, 36, 52)
    masks = [deck_mask(s) for s in DECK_SIZES]
    for small, big in itertools.pairwise(masks):
        assert small & big == small and small != big
    assert deck_mask(52) == int(ALL_CARDS_MASK)


@pytest.mark.parametrize("size", [0, 20, 40, 53])
def test_unknown_deck_size_raises(size):
    """R1: only 24, 32, 36 and 52-card decks exist."""
    with pytest.raises(ValueError):
        deck_cards(size)


def test_mask_of_rejects_bad_ids():
    """mask_of refuses ids outside 0..51."""
    with pytest.raises(ValueError):
        mask_of([52])
    with pytest.raises(ValueError):
        mask_of([-1])


def test_suit_masks():
    """R1: SUIT_MASKS[s] holds exactly the 13 cards of suit s."""
    for s in range(4):
        assert cards_of(int(C.SUIT_MASKS[s])) == [card_id(s, r) for r in range(13)]


@given(st.sets(st.integers(0, N_CARDS - 1), max_size=N_CARDS), st.booleans())
def test_mask_and_text_round_trip(cards, ascii):
    """Any set of cards survives mask_of/cards_of and format_cards/parse_cards."""
    ordered = sorted(cards)
    assert cards_of(mask_of(cards)) == ordered
    assert parse_cards(format_cards(ordered, ascii=ascii)) == ordered


def test_kernels_suit_and_rank_are_division_by_the_suit_length():
    """The kernels' ``suit_of``/``rank_of`` (a multiply and a shift, no division) are ``//`` and ``%``
    by RANKS_PER_SUIT for every card id, the empty-mask sentinel 64 and NO_CARD (-1), compiled
    for the int8 and int64 cards the kernels pass them."""
    import numpy as np
    from numba import njit

    from rams_sim.kernels.bits import rank_of as kernel_rank
    from rams_sim.kernels.bits import suit_of as kernel_suit

    @njit
    def both(cards):
        out = np.empty((cards.shape[0], 2), np.int64)
        for i in range(cards.shape[0]):
            out[i, 0], out[i, 1] = kernel_suit(cards[i]), kernel_rank(cards[i])
        return out

    ids = list(range(-12, 65))
    for dtype in (np.int8, np.int64):
        got = both(np.array(ids, dtype))
        assert got[:, 0].tolist() == [c // C.RANKS_PER_SUIT for c in ids]
        assert got[:, 1].tolist() == [c % C.RANKS_PER_SUIT for c in ids]


@given(st.sets(st.integers(0, 51), max_size=9), st.sampled_from([None, 0, 1, 2, 3]))
def test_kernels_rams_suit_is_five_of_a_suit(cards, suit):
    """R5.2: the kernels' ``rams_suit`` (a five-card hand is a rams only if its cards share its lowest
    card's suit; larger sets are counted suit by suit) is the first suit of which the set holds
    five cards or more, else -1; ``suit`` draws sets of one suit too (a rams, a long suit)."""
    import numpy as np

    from rams_sim.kernels.bits import rams_suit

    if suit is not None:  # most of the set from one suit, so that rams and near-rams are drawn
        same = {c for c in cards if C.suit_of(c) == suit}
        cards = same | set(sorted(cards)[:1]) | set(range(13 * suit, 13 * suit + 4))
    counts = [sum(1 for c in cards if C.suit_of(c) == s) for s in range(4)]
    expected = next((s for s in range(4) if counts[s] >= C.HAND_SIZE), -1)
    assert rams_suit(np.uint64(sum(1 << c for c in cards))) == expected
