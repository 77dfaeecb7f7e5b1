"""Counter-based randomness: every deal's randomness is a pure function of (seed, deal).

A deal's 64-bit key is ``deal_key(seed, index)`` (splitmix64 mixing); a party's deal
``d`` of party ``p`` is keyed ``deal_key(deal_key(seed, p), d)``. From a key come
independent xoshiro256** streams: stream 0 shuffles the deck, stream ``seat + 1``
flips that seat's policy coins. Nothing depends on threads, chunks or neighbours, so
any deal replays alone and two policies on one seed see the same deck orders.

These functions are the one piece of machinery the reference engine shares with the
kernels (CLARIFICATIONS: the generator is not rule logic). They work from plain
Python too. Stream states live in one ``uint64[n_streams, 4]`` array, addressed by
row, so kernels never slice it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # splitmix64's increment
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
SEED_SALT = np.uint64(0x5241_4D53_5349_4D31)  # "RAMSSIM1"
STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
STATE_WORDS = 4
DECK_STREAM = 0  # stream index of the shuffle; seat s uses stream s + 1

_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U17 = np.uint64(17)
_U45 = np.uint64(45)
_U7 = np.uint64(7)
_U5 = np.uint64(5)
_U9 = np.uint64(9)
_U64_ONE = np.uint64(1)


@njit(cache=True, _nrt=False)
def mix64(z):
    """splitmix64's finaliser: a bijective 64-bit mix of ``z`` (uint64 -> uint64)."""
    z = np.uint64(z)
    z = (z ^ (z >> _U30)) * MIX1
    z = (z ^ (z >> _U27)) * MIX2
    return z ^ (z >> _U31)


@njit(cache=True, _nrt=False)
def deal_key(seed, index):
    """Key of deal ``index`` under ``seed`` (both non-negative integers) -> uint64."""
    base = mix64(np.uint64(seed) ^ SEED_SALT)
    return mix64(base + (np.uint64(index) + _U64_ONE) * GOLDEN)


@njit(cache=True, _nrt=False)
def party_deal_key(seed, party, deal):
    """Key of deal ``deal`` of party ``party`` (CLARIFICATIONS: keyed by (seed, p, d))."""
    return deal_key(deal_key(seed, party), deal)


@njit(cache=True, _nrt=False, inline="always")
def seed_stream(states, row, key, stream):
    """Seed row ``row`` of ``states`` (uint64[K, 4]) as xoshiro256** ``stream`` of ``key``."""
    s = mix64(np.uint64(key) ^ (np.uint64(stream) + _U64_ONE) * STREAM_SALT)
    for i in range(STATE_WORDS):
        s = s + GOLDEN
        states[row, i] = mix64(s)


@njit(cache=True, _nrt=False)
def _rotl(x, k):
    return (x << k) | (x >> (np.uint64(64) - k))


@njit(cache=True, _nrt=False)
def _step(s0, s1, s2, s3):
    """One xoshiro256** step on the four state words: (output, s0, s1, s2, s3) after it."""
    result = _rotl(s1 * _U5, _U7) * _U9
    t = s1 << _U17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, _U45)
    return result, s0, s1, s2, s3


@njit(cache=True, _nrt=False, inline="always")
def next_u64(states, row):
    """Advance the xoshiro256** state in row ``row`` of ``states`` and return its next uint64."""
    result, s0, s1, s2, s3 = _step(states[row, 0], states[row, 1], states[row, 2], states[row, 3])
    states[row, 0], states[row, 1], states[row, 2], states[row, 3] = s0, s1, s2, s3
    return result


@njit(cache=True, _nrt=False)
def _scale(x, n):
    """``bounded``'s map of a uint64 draw to ``0 .. n-1``: the high 32 bits times n."""
    return np.int64(((x >> _U32) * np.uint64(n)) >> _U32)


@njit(cache=True, _nrt=False, inline="always")
def bounded(states, row, n):
    """A draw in ``0 .. n-1`` from stream row ``row`` (n <= 2**32): the high 32 bits times n."""
    return _scale(next_u64(states, row), n)


@njit(cache=True, _nrt=False, inline="always")
def shuffle_deck(key, deck, order, states):
    """Write the deck order of the deal keyed ``key`` into ``order``.

    ``deck``: int8[N], the deck's card ids ascending; ``order``: int8[>= N], output;
    ``states``: uint64[K, 4], row ``DECK_STREAM`` is used. Forward Fisher-Yates:
    for i = 0 .. N-2, swap position i with i + bounded(N - i).
    """
    n = deck.shape[0]
    for i in range(n):
        order[i] = deck[i]
    seed_stream(states, DECK_STREAM, key, DECK_STREAM)
    row = DECK_STREAM  # the stream's words stay in locals (registers) for the whole loop
    s0, s1, s2, s3 = states[row, 0], states[row, 1], states[row, 2], states[row, 3]
    for i in range(n - 1):
        x, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        j = i + _scale(x, n - i)
        tmp = order[i]
        order[i] = order[j]
        order[j] = tmp
    states[row, 0], states[row, 1], states[row, 2], states[row, 3] = s0, s1, s2, s3


def deck_order(key: int, deck: np.ndarray) -> np.ndarray:
    """Return the deck order (int8[N]) of the deal keyed ``key`` (a Python convenience)."""
    order = np.empty_like(deck)
    shuffle_deck(np.uint64(key), deck, order, np.zeros((1, STATE_WORDS), dtype=np.uint64))
    return order


class Stream:
    """A seat's coin-flip stream for Python callers (the reference engine).

    >>> s = Stream(key=1, seat=0); 0 <= s.bounded(6) < 6
    True
    """

    def __init__(self, key: int, seat: int):
        self.states = np.zeros((1, STATE_WORDS), dtype=np.uint64)
        seed_stream(self.states, 0, np.uint64(key), seat + 1)

    def bounded(self, n: int) -> int:
        """A draw in ``0 .. n-1``."""
        return int(bounded(self.states, 0, n))
