"""Dealing around known cards: the worlds a seat cannot tell from the real deal (issue "Strong play").

A *layout* puts each unknown card in one *pile* (a seat's hand, a dead pile, ...) so that
pile ``p`` gets exactly ``caps[p]`` cards, all from ``allowed[p]`` (uint64). Pile
``n_piles - 1`` is the *free* pile: it takes what the others leave (its allowed set is
usually every card). Optionally up to MAX_PAIRS *pairs* of cards: pair i's two cards may
not lie together in a pile of ``pair_piles[i]`` (a bit per pile) -- R6.6's "he led neither
card of the marriage, so he does not hold both", R5.5's "he declared no jacks, so he holds
no same-colour pair".

:func:`count_layouts` counts the layouts with a dynamic program over the cards, one at a
time, whose state is how many cards each non-free pile still needs (mixed radix,
``caps[p] + 1`` values each; the free pile's need follows from the number of cards left);
the pairs' cards come first, two rows per pair, whose joint placements skip the forbidden
ones; :func:`draw_layout` then places each card (each pair) with probability proportional
to the number of completions. Every consistent layout is equally likely, by construction: no rejection, no
loop that can stall. Counts are float64 (exact below 2**53, relative error 1e-16 above).

This is combinatorics, not rule logic: which piles exist and what each may hold is the
caller's reading of the rules (:mod:`rams_sim.kernels.search` for the kernels; the
reference engine builds its own piles and shares only this module, as it shares the deck
shuffle of :mod:`rams_sim.kernels.rng`). Arrays: ``cards`` int8[>= m] (the unknown cards,
the constrained pairs first), ``table`` float64[>= m + 1, >= n_states], ``strides``
int64[>= n_piles], ``pairs`` int8[MAX_PAIRS, 2] (card ids, -1 unused), ``pair_piles``
int64[MAX_PAIRS].
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import N_CARDS
from .bits import ZERO, bit, has, lowest
from .rng import next_u64

MAX_PILES = 12
MAX_PAIRS = 3  # the trump marriage (R6.6), the black and the red jacks (R5.5)
MAX_STATES = 6**6  # six non-free piles of at most five cards (7 players, one seat searching)
TWO_POW_53 = 2.0**-53
MAX_DRAWS = 1024  # a search draws a world again while it breaks a fact the piles cannot express, at most this often


@njit(cache=True)
def uniform01(rng, row):
    """A float64 in [0, 1) from stream ``row`` of ``rng`` (the top 53 bits of a draw)."""
    return float(next_u64(rng, row) >> np.uint64(11)) * TWO_POW_53


@njit(cache=True)
def order_cards(unknown, pairs, pair_piles, cards, active):
    """Write the cards of ``unknown`` into ``cards``: first the two cards of each constrained
    pair (both unknown, some pile constrained), then the rest ascending. ``active``
    (int64[MAX_PAIRS]) receives the constrained pairs' pile masks in that order. Returns
    (m, number of constrained pairs)."""
    m = 0
    n_pairs = 0
    rest = unknown
    for i in range(MAX_PAIRS):
        a, b = pairs[i, 0], pairs[i, 1]
        if a >= 0 and b >= 0 and pair_piles[i] != 0 and has(rest, a) and has(rest, b):
            cards[m] = a
            cards[m + 1] = b
            m += 2
            active[n_pairs] = pair_piles[i]
            n_pairs += 1
            rest &= ~(bit(a) | bit(b))
    while rest != ZERO:
        c = lowest(rest)
        rest &= rest - np.uint64(1)
        cards[m] = c
        m += 1
    return m, n_pairs


@njit(cache=True)
def n_states_of(caps, n_piles, strides):
    """Fill ``strides`` for the non-free piles; return the number of DP states (0 if over MAX_STATES)."""
    size = 1
    for p in range(n_piles - 1):
        strides[p] = size
        size *= caps[p] + 1
        if size > MAX_STATES:
            return 0
    return size


@njit(cache=True)
def _fill(cards, m, start, allowed, caps, n_piles, strides, n_states, table):
    """Rows ``start .. m`` of the completion counts: table[i, s] = layouts of cards i.. given needs s."""
    free = n_piles - 1
    for s in range(n_states):
        table[m, s] = 0.0
    table[m, 0] = 1.0
    for i in range(m - 1, start - 1, -1):
        c = cards[i]
        rem = m - i
        free_ok = has(allowed[free], c)
        for s in range(n_states):
            x = s
            total = 0
            v = 0.0
            for p in range(free):
                radix = caps[p] + 1
                digit = x % radix
                x //= radix
                total += digit
                if digit > 0 and has(allowed[p], c):
                    v += table[i + 1, s - strides[p]]
            f = rem - total
            if f < 0:
                table[i, s] = 0.0
                continue
            if f > 0 and free_ok:
                v += table[i + 1, s]
            table[i, s] = v


@njit(cache=True)
def _need(caps, n_piles, strides):
    s = 0
    for p in range(n_piles - 1):
        s += caps[p] * strides[p]
    return s


@njit(cache=True)
def _digit(s, p, caps, strides):
    return (s // strides[p]) % (caps[p] + 1)


@njit(cache=True)
def _pair_weight(s, row, pa, pb, free, caps, strides, table, piles_mask, m):
    """Completions after the pair at rows ``row``, ``row + 1`` goes to piles (pa, pb) from need
    state ``s``; 0 if not allowed. Returns (weight, next state)."""
    if pa == pb and (np.uint64(piles_mask) >> np.uint64(pa)) & np.uint64(1):
        return 0.0, -1
    n_free = (pa == free) + (pb == free)
    if m - row - _total_need(s, caps, free + 1, strides) < n_free:
        return 0.0, -1
    t = s
    if pa != free:
        if _digit(t, pa, caps, strides) < 1:
            return 0.0, -1
        t -= strides[pa]
    if pb != free:
        if _digit(t, pb, caps, strides) < 1:
            return 0.0, -1
        t -= strides[pb]
    return table[row + 2, t], t


@njit(cache=True)
def _pair_rows(cards, m, n_pairs, allowed, caps, n_piles, pair_piles, strides, n_states, table):
    """Rows 2i of the pairs, from the last pair up: each from the row two below."""
    free = n_piles - 1
    for i in range(n_pairs - 1, -1, -1):
        row = 2 * i
        for s in range(n_states):
            v = 0.0
            for pa in range(n_piles):
                if not has(allowed[pa], cards[row]):
                    continue
                for pb in range(n_piles):
                    if has(allowed[pb], cards[row + 1]):
                        w, _ = _pair_weight(s, row, pa, pb, free, caps, strides, table, pair_piles[i], m)
                        v += w
            table[row, s] = v


@njit(cache=True)
def count_layouts(cards, m, n_pairs, allowed, caps, n_piles, pair_piles, strides, n_states, table):
    """The number of layouts (float64); fills ``table``. The first ``n_pairs`` pairs of
    ``cards`` are constrained by ``pair_piles`` (as :func:`order_cards` leaves them). The
    caps must sum to ``m``."""
    _fill(cards, m, 2 * n_pairs, allowed, caps, n_piles, strides, n_states, table)
    _pair_rows(cards, m, n_pairs, allowed, caps, n_piles, pair_piles, strides, n_states, table)
    return table[0, _need(caps, n_piles, strides)]


@njit(cache=True)
def _total_need(s, caps, n_piles, strides):
    total = 0
    for p in range(n_piles - 1):
        total += _digit(s, p, caps, strides)
    return total


@njit(cache=True)
def draw_layout(cards, m, n_pairs, allowed, caps, n_piles, pair_piles, strides, table, total, rng, row, out):
    """Draw one layout uniformly (after :func:`count_layouts` filled ``table`` and gave ``total`` > 0):
    ``out[p]`` (uint64) receives pile p's cards."""
    free = n_piles - 1
    for p in range(n_piles):
        out[p] = ZERO
    s = _need(caps, n_piles, strides)
    for i in range(n_pairs):
        r2 = 2 * i
        u = uniform01(rng, row) * table[r2, s]
        last_a, last_b, last_t = -1, -1, -1
        done = False
        for pa in range(n_piles):
            if done or not has(allowed[pa], cards[r2]):
                continue
            for pb in range(n_piles):
                if not has(allowed[pb], cards[r2 + 1]):
                    continue
                w, t = _pair_weight(s, r2, pa, pb, free, caps, strides, table, pair_piles[i], m)
                if w <= 0.0:
                    continue
                last_a, last_b, last_t = pa, pb, t
                if u < w:
                    done = True
                    break
                u -= w
        out[last_a] |= bit(cards[r2])
        out[last_b] |= bit(cards[r2 + 1])
        s = last_t
    for i in range(2 * n_pairs, m):
        c = cards[i]
        u = uniform01(rng, row) * table[i, s]
        chosen = -1
        step = 0
        for p in range(n_piles):
            if not has(allowed[p], c):
                continue
            if p == free:
                if m - i - _total_need(s, caps, n_piles, strides) < 1:
                    continue
                w = table[i + 1, s]
                t = 0
            else:
                if _digit(s, p, caps, strides) < 1:
                    continue
                w = table[i + 1, s - strides[p]]
                t = strides[p]
            if w <= 0.0:
                continue
            chosen = p
            step = t
            if u < w:
                break
            u -= w
        out[chosen] |= bit(c)
        s -= step


def new_tables(max_cards: int = N_CARDS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scratch for :func:`count_layouts` from Python: (cards int8, strides int64, table float64)."""
    return (np.zeros(max_cards, np.int8), np.zeros(MAX_PILES, np.int64),
            np.zeros((max_cards + 1, MAX_STATES), np.float64))  # fmt: skip
