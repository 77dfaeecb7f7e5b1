"""Card-set primitives on ``uint64`` masks (bit = card id, see :mod:`rams_sim.cards`)."""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ..cards import ACE, HAND_SIZE, JACK, KING, N_SUITS, QUEEN, RANKS_PER_SUIT, SUIT_MASKS

ZERO = np.uint64(0)
ONE = np.uint64(1)
_U2, _U4, _U8 = np.uint64(2), np.uint64(4), np.uint64(8)
_U12, _U24, _U36, _U48 = np.uint64(12), np.uint64(24), np.uint64(36), np.uint64(48)


def _mask(cards) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


ACE_CARDS = _mask(s * RANKS_PER_SUIT + ACE for s in range(N_SUITS))  # the four aces (R1)
KINGS = _mask(s * RANKS_PER_SUIT + KING for s in range(N_SUITS))
BLACK_JACKS = _mask(s * RANKS_PER_SUIT + JACK for s in (0, 1))  # R0: ♠ ♣ are black
RED_JACKS = _mask(s * RANKS_PER_SUIT + JACK for s in (2, 3))  # ♦ ♥ red
# RANK_MASKS[r]: the cards of rank r in every suit
RANK_MASKS = np.array([_mask(s * RANKS_PER_SUIT + r for s in range(N_SUITS)) for r in range(RANKS_PER_SUIT)], np.uint64)


@njit(cache=True, _nrt=False)
def bit(card):
    """The mask of one card id."""
    return ONE << np.uint64(card)


@njit(cache=True, _nrt=False)
def has(mask, card):
    """Whether ``mask`` holds ``card``."""
    return (mask >> np.uint64(card)) & ONE != ZERO


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count of a uint64 (one instruction where the CPU has it)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])

    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    """LLVM's count of trailing zero bits of a uint64 (64 for zero, as the SWAR form it replaced gave)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])  # 0: zero is defined, not poison

    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    """LLVM's count of leading zero bits of a uint64 (64 for zero)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctlz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])  # 0: zero is defined, not poison

    return types.uint64(types.uint64), codegen


if numba.config.DISABLE_JIT:  # the kernels run as plain Python (make test-nojit): the same counts in Python

    def _ctpop(x):
        return np.uint64(int(x).bit_count())

    def _cttz(x):
        x = int(x)
        return np.uint64(64 if x == 0 else (x & -x).bit_length() - 1)

    def _ctlz(x):
        return np.uint64(64 - int(x).bit_length())


@njit(cache=True, _nrt=False)
def popcount(x):
    """Number of cards in a mask."""
    return np.int64(_ctpop(np.uint64(x)))


@njit(cache=True, _nrt=False)
def lowest(mask):
    """The lowest card id in a non-empty mask (64 for an empty one)."""
    return np.int64(_cttz(np.uint64(mask)))


@njit(cache=True, _nrt=False)
def highest(mask):
    """The highest card id in a non-empty mask (-1 for an empty one)."""
    return 63 - np.int64(_ctlz(np.uint64(mask)))


# card // 13 == (card * 79) >> 10 for every id -12 .. 340, the cards, NO_CARD (-1) and an empty mask's 64 among them:
# a multiply and a shift where numba's floor division of a signed int costs a dozen instructions
SUIT_MUL, SUIT_SHIFT = 79, 10
assert all((c * SUIT_MUL) >> SUIT_SHIFT == c // RANKS_PER_SUIT for c in range(-12, 341))


@njit(cache=True, _nrt=False)
def suit_of(card):
    """The suit of card id ``card``: ``card // RANKS_PER_SUIT`` (int64; exact for -12 .. 340)."""
    return (np.int64(card) * SUIT_MUL) >> SUIT_SHIFT


@njit(cache=True, _nrt=False)
def rank_of(card):
    """The rank of card id ``card``: ``card % RANKS_PER_SUIT`` (int64; exact for -12 .. 340)."""
    return np.int64(card) - RANKS_PER_SUIT * suit_of(card)


@njit(cache=True, _nrt=False)
def above(card):
    """The cards of ``card``'s suit that outrank it (suit-major ids: higher bits)."""
    suit = suit_of(card)
    return SUIT_MASKS[suit] & ~((bit(card) << ONE) - ONE)


@njit(cache=True, _nrt=False)
def card_of(suit, rank):
    """The id of the card of ``suit`` and ``rank``."""
    return suit * RANKS_PER_SUIT + rank


@njit(cache=True, _nrt=False)
def aces_mask(mask):
    """Bit s set for each suit s whose ace is in ``mask`` (int64): the ace of suit s, bit
    13s + 12, shifted down to bit s."""
    m = np.uint64(mask)
    out = (m >> _U12) & ONE
    out |= (m >> _U24) & _U2
    out |= (m >> _U36) & _U4
    out |= (m >> _U48) & _U8
    return np.int64(out)


@njit(cache=True, _nrt=False, inline="always")
def ace_points(mask, ace_value):
    """R7: sum of the values (``ace_value`` int64[4]) of the aces in ``mask``."""
    total = 0
    for suit in range(N_SUITS):  # without a branch: the ace's bit times its value
        total += ace_value[suit] * np.int64((np.uint64(mask) >> np.uint64(card_of(suit, ACE))) & ONE)
    return total


@njit(cache=True, _nrt=False)
def jack_kind(mask):
    """R5.5: 2 for four jacks, 1 for a same-colour pair (any three jacks hold one), else 0."""
    black = popcount(mask & BLACK_JACKS)
    red = popcount(mask & RED_JACKS)
    if black == 2 and red == 2:
        return 2
    if black == 2 or red == 2:
        return 1
    return 0


@njit(cache=True, _nrt=False)
def pair_jacks(mask):
    """The jacks of ``mask`` that belong to a same-colour pair (R5.5)."""
    out = ZERO
    if mask & BLACK_JACKS == BLACK_JACKS:
        out |= BLACK_JACKS
    if mask & RED_JACKS == RED_JACKS:
        out |= RED_JACKS
    return out


@njit(cache=True, _nrt=False)
def rams_suit(mask):
    """The suit of which ``mask`` holds five cards or more (R5.2), else -1."""
    count = popcount(mask)
    if count < HAND_SIZE:
        return -1
    if count == HAND_SIZE:  # a hand: a rams only if all five are of its lowest card's suit
        suit = suit_of(lowest(mask))
        return suit if mask & ~SUIT_MASKS[suit] == ZERO else -1
    for suit in range(N_SUITS):
        if popcount(mask & SUIT_MASKS[suit]) >= HAND_SIZE:
            return suit
    return -1


@njit(cache=True, _nrt=False)
def longest_suit(mask):
    """The number of cards of ``mask``'s longest suit."""
    longest = 0
    for suit in range(N_SUITS):
        longest = max(longest, popcount(mask & SUIT_MASKS[suit]))
    return longest


@njit(cache=True, _nrt=False)
def trump_face_mask(trump):
    """The trump K, Q and J (R6.7)."""
    return bit(card_of(trump, KING)) | bit(card_of(trump, QUEEN)) | bit(card_of(trump, JACK))


@njit(cache=True, _nrt=False)
def nth_card(mask, index):
    """The ``index``-th card (0-based) of ``mask`` in ascending id order."""
    m = mask
    for _ in range(index):
        m &= m - ONE
    return lowest(m)
