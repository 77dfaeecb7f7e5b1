"""A position inside a deal's play, as the kernels' state arrays (for the search, ``advise`` and tests).

:func:`state_at` rebuilds the state the play loop (:func:`rams_sim.kernels.play.play_from`)
holds when card ``k`` of trick ``t`` is about to be played, from a finished deal's
:class:`~rams_sim.record.DealRecord` (with its play log). :mod:`rams_sim.advice.search` builds
the same arrays from what one seat was told, with the same two helpers:
:func:`new_arrays` (a deal's state before anything is known) and :func:`lay_out_play`
(the tricks so far). The arrays are those of :mod:`rams_sim.kernels.state`; nothing here
applies a rule of play: the order of play and the winners are given (R6.1, R6.4 as the
record or the caller left them); :func:`queen_duty` reads R6.6 off them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import cards as C
from ..kernels import codes
from ..kernels import state as S
from ..record import DealRecord, Declaration, Trick
from ..rules import Game, Rules


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


def new_arrays(trump_card: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(cardsets, st, trick, log, info) as :func:`rams_sim.kernels.state.make_state` shapes them, set as a
    deal starts (:func:`rams_sim.kernels.deal.reset_scoring`, a party's stake): no announcement,
    no R4.3 card given, no trick played, nobody ending the party; ``info[TRUMP_CARD]`` set."""
    _, _, cardsets, st, trick, info, log = _shapes()
    log[:, :] = -1
    st[S.INTENT, :] = codes.NO_INTENT
    st[S.TRUMP_DISCARD, :] = -1
    info[S.TRUMP_CARD] = trump_card
    info[S.ENDS_PARTY] = info[S.WIDOW] = info[S.NEXT_DEALER] = info[S.CUBE] = -1
    info[S.STAKE] = 1
    return cardsets, st, trick, log, info


def lay_out_play(done: list[Trick], current: list[tuple[int, int]], st: np.ndarray, trick: np.ndarray,
                 log: np.ndarray) -> int:  # fmt: skip
    """Write the play so far into the play loop's arrays; return the mask of the cards played.

    ``done``: the finished tricks (leader, cards by seat, winner) into ``log`` (int8[N_TRICKS,
    MAX_SEATS + 2]) and the winners' ``st[TRICKS]``; ``current``: the trick in progress as
    (seat, card) in playing order into ``trick`` (int8[2, MAX_SEATS])."""
    played = 0
    for t, tr in enumerate(done):
        for o, card in enumerate(tr.cards):
            log[t, o] = card
            if card >= 0:
                played |= 1 << card
        log[t, S.LOG_LEADER] = tr.leader
        log[t, S.LOG_WINNER] = tr.winner
        st[S.TRICKS, tr.winner] += 1
    for j, (o, card) in enumerate(current):
        trick[S.TRICK_CARD, j] = card
        trick[S.TRICK_SEAT, j] = o
        played |= 1 << card
    return played


def queen_duty(done: list[Trick], trump_card: int, winner_hand: int) -> bool:
    """R6.6: the next lead must be the trump Q: the last finished trick was led with the trump K
    and won by its leader, who still holds the Q (``winner_hand``: his cards now, a mask)."""
    if not done:
        return False
    last = done[-1]
    trump = C.suit_of(trump_card)
    king, queen = C.card_id(trump, C.KING), C.card_id(trump, C.QUEEN)
    w = last.winner
    return last.leader == w and last.cards[w] == king and bool(winner_hand >> queen & 1)


def play_order(record: DealRecord, leader: int) -> list[int]:
    """The active seats in playing order from ``leader`` (clockwise, passers skipped)."""
    n = len(record.passed)
    return [s % n for s in range(leader, leader + n) if not record.passed[s % n]]


def state_at(rules: Rules, record: DealRecord, t: int, k: int) -> Position:
    """The position before card ``k`` of trick ``t`` of ``record`` (which must hold that trick), under ``rules``."""
    if t >= len(record.plays):
        raise ValueError(f"the deal has {len(record.plays)} tricks recorded; trick {t + 1} asked")
    n = len(record.passed)
    cardsets, st, trick, log, info = new_arrays(record.trump_card)
    trick_now = record.plays[t]
    seats_now = play_order(record, trick_now.leader)
    if not 0 <= k < len(seats_now):
        raise ValueError(f"trick {t + 1} has {len(seats_now)} cards; card {k + 1} asked")
    modern = rules.game == Game.MODERN
    info[S.WIDOW] = record.widow
    done = list(record.plays[:t])
    played = lay_out_play(done, [(o, trick_now.cards[o]) for o in seats_now[:k]], st, trick, log)
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
        st[S.OWN_TRUMP, o] = int(modern and o == record.dealer)  # the shown trump card is the dealer's own
        st[S.TRUMP_DISCARD, o] = record.trump_discard[o]
        st[S.JACKS, o] = record.jacks[o]
        if modern and record.declaration[o] == Declaration.JACK_PAIR:
            st[S.JACKS, o] = rules.jack_pair  # the bonus shown, earned with a trick (the record keeps what was earned)
        st[S.DECL, o] = record.declaration[o]
        st[S.ACES, o] = sum(rules.ace_values[C.suit_of(c)] for c in C.cards_of(record.hand_final[o]) if C.rank_of(c) == C.ACE)
        if record.intent:
            st[S.INTENT, o] = record.intent[o]
    q_duty = k == 0 and queen_duty(done, record.trump_card, int(cardsets[S.HAND, done[-1].winner]) if done else 0)
    return Position(t, k, seats_now[k], trick_now.leader, played, q_duty, cardsets, st, trick, log, info)


def _shapes():
    from ..kernels.state import make_state

    return make_state()
