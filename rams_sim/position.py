"""A position inside a deal's play, as the kernels' state arrays (for the search, ``advise`` and tests).

:func:`state_at` rebuilds the state the play loop (:func:`rams_sim.kernels.play.play_from`)
holds when card ``k`` of trick ``t`` is about to be played, from a finished deal's
:class:`~rams_sim.record.DealRecord` (with its play log). The arrays are those of
:mod:`rams_sim.kernels.state`; nothing here applies a rule: the order of play follows the
record's leaders and the active seats, as R6.1 and R6.4 left them in the record.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import cards as C
from .kernels import state as S
from .record import DealRecord
from .rules import Rules


@dataclass
class Position:
    """The play loop's state before card ``k`` of trick ``t`` (0-based) of a recorded deal.

    ``cardsets`` uint64[N_CARDSETS, MAX_SEATS], ``st`` int64[N_FIELDS, MAX_SEATS],
    ``trick`` int8[2, MAX_SEATS], ``log`` int8[N_TRICKS, MAX_SEATS + 2], ``info``
    int64[N_INFO]: as :mod:`rams_sim.kernels.state`. ``seat`` is to play; ``leader``
    led trick ``t``; ``played`` is the mask of every card played so far; ``q_duty`` is
    R6.6's duty to lead the trump Q, for a lead.
    """

    t: int
    k: int
    seat: int
    leader: int
    played: int
    q_duty: bool
    cardsets: np.ndarray
    st: np.ndarray
    trick: np.ndarray
    log: np.ndarray
    info: np.ndarray


def play_order(record: DealRecord, leader: int) -> list[int]:
    """The active seats in playing order from ``leader`` (clockwise, passers skipped)."""
    n = len(record.passed)
    return [s % n for s in range(leader, leader + n) if not record.passed[s % n]]


def state_at(rules: Rules, record: DealRecord, t: int, k: int) -> Position:
    """The position before card ``k`` of trick ``t`` of ``record`` (which must hold that trick), under ``rules``."""
    if t >= len(record.plays):
        raise ValueError(f"the deal has {len(record.plays)} tricks recorded; trick {t + 1} asked")
    n = len(record.passed)
    order, rng, cardsets, st, trick, info, log = (np.zeros(a.shape, a.dtype) for a in _shapes())
    log[:, :] = -1
    trick_now = record.plays[t]
    seats_now = play_order(record, trick_now.leader)
    if not 0 <= k < len(seats_now):
        raise ValueError(f"trick {t + 1} has {len(seats_now)} cards; card {k + 1} asked")
    played = 0
    for tt in range(t):
        tr = record.plays[tt]
        for o in range(n):
            log[tt, o] = tr.cards[o]
            if tr.cards[o] >= 0:
                played |= 1 << tr.cards[o]
        log[tt, S.LOG_LEADER] = tr.leader
        log[tt, S.LOG_WINNER] = tr.winner
    for j, o in enumerate(seats_now[:k]):
        trick[S.TRICK_CARD, j] = trick_now.cards[o]
        trick[S.TRICK_SEAT, j] = o
        played |= 1 << trick_now.cards[o]
    for o in range(n):
        hand = record.hand_final[o]
        if not record.passed[o]:
            hand &= ~played
        cardsets[S.HAND, o] = np.uint64(hand)
        cardsets[S.DEALT, o] = np.uint64(record.hand_dealt[o])
        cardsets[S.DISCARDS, o] = np.uint64(record.discards[o])
        cardsets[S.DRAWN, o] = np.uint64(record.drawn[o])
        cardsets[S.FINAL, o] = np.uint64(record.hand_final[o])
        st[S.ACTIVE, o] = int(not record.passed[o])
        st[S.PASSED, o] = int(record.passed[o])
        st[S.TOOK_TRUMP, o] = int(record.took_trump[o])
        st[S.TRUMP_DISCARD, o] = record.trump_discard[o]
        st[S.JACKS, o] = record.jacks[o]
        st[S.DECL, o] = record.declaration[o]
        st[S.ACES, o] = sum(rules.ace_values[C.suit_of(c)] for c in C.cards_of(record.hand_final[o]) if C.rank_of(c) == C.ACE)
        if record.intent:
            st[S.INTENT, o] = record.intent[o]
    for tt in range(t):  # the tricks taken so far
        st[S.TRICKS, record.plays[tt].winner] += 1
    info[S.TRUMP_CARD] = record.trump_card
    q_duty = False
    if t > 0 and k == 0:
        prev = record.plays[t - 1]
        trump = C.suit_of(record.trump_card)
        king, queen = C.card_id(trump, C.KING), C.card_id(trump, C.QUEEN)
        w = prev.winner
        q_duty = prev.leader == w and prev.cards[w] == king and bool(int(cardsets[S.HAND, w]) >> queen & 1)
    return Position(t, k, seats_now[k], trick_now.leader, played, q_duty, cardsets, st, trick, log, info)


def _shapes():
    from .kernels.state import make_state

    return make_state()
