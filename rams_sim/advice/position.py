"""A position inside a deal's play, as the kernels' state arrays (for the search, ``advise`` and tests).

:func:`state_at` rebuilds the state the play loop (:func:`rams_sim.kernels.play.play_from`)
holds when card ``k`` of trick ``t`` is about to be played, from a finished deal's
:class:`~rams_sim.record.DealRecord` (with its play log). :mod:`rams_sim.advice.search` builds
the same arrays from what one seat was told, with the same two helpers:
:func:`new_arrays` (a deal's state before anything is known) and :func:`lay_out_play`
(the tricks so far). The arrays are those of :mod:`rams_sim.kernels.state`; nothing here
applies a rule of play: the order of play and the winners are given (R6.1, R6.4 as the
record or the caller left them); :func:`queen_duty` reads R6.6 off them.

Every game's advice (:mod:`.search`, :mod:`.duel`, :mod:`.modern`, :mod:`.zone`) shares the rest:
:class:`Decision` (the kernels' state for one decision and its options), :func:`check_cards`,
:func:`replay_play` (the play so far read and checked, :class:`Play`), :func:`order_from` and
:func:`unseen_cards`. They live here, below the game modules, so that no game module imports
:mod:`.search`, which imports them. So do the hooks by which :mod:`.search` asks a game without
naming it (:func:`advice_module`, the game's entry in :mod:`rams_sim.games`): :class:`Described`
(the position as given) and :class:`Batch` (a batch of worlds for the game's kernels).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import numpy as np

from .. import cards as C
from ..games import GAMES
from ..kernels import codes
from ..kernels import state as S
from ..record import DealRecord, Trick
from ..rules import Rules
from .notation import AdviceError


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
        st[S.OWN_TRUMP, o] = 0  # the game's own rows below (modern: the shown trump card is the dealer's own)
        st[S.TRUMP_DISCARD, o] = record.trump_discard[o]
        st[S.JACKS, o] = record.jacks[o]
        st[S.DECL, o] = record.declaration[o]
        st[S.ACES, o] = sum(rules.ace_values[C.suit_of(c)] for c in C.cards_of(record.hand_final[o]) if C.rank_of(c) == C.ACE)
        if record.intent:
            st[S.INTENT, o] = record.intent[o]
    record_rows = getattr(advice_module(rules), "record_rows", None)  # a game's own reading of the record
    if record_rows is not None:
        record_rows(rules, record, st)
    q_duty = k == 0 and queen_duty(done, record.trump_card, int(cardsets[S.HAND, done[-1].winner]) if done else 0)
    return Position(t, k, seats_now[k], trick_now.leader, played, q_duty, cardsets, st, trick, log, info)


def hand_places(players: int, dealer: int) -> list[list[int]]:
    """R3: the places of each seat's dealt hand in the deck order, seat (dealer + 1 + i) mod n at cards
    5i .. 5i + 4 (every game deals its hands so; the truth's deck orders, :mod:`.truth`)."""
    return [[C.HAND_SIZE * ((s - dealer - 1) % players) + j for j in range(C.HAND_SIZE)] for s in range(players)]


def advice_module(rules: Rules):
    """The advice module of ``rules.game`` (its registry entry's ``advice``: :mod:`.search` for classic).

    Every one has ``position_builder(rules, described)`` (a function ``build(cards, tricks,
    require_turn=False) -> Decision`` laying out positions described as ``described``),
    ``evaluation(pos, batch)`` (the search kernel and its arguments for a batch of worlds, or
    None where the cards' search shared by the games with R6's duty to follow is meant) and
    ``RACE_BEFORE_PLAY`` (its kernels before the play take a set of options, so racing may
    drop some); and may have ``record_rows(rules, record, st)`` (:func:`state_at`: the rows
    of the state the game reads off a record its own way)."""
    return importlib.import_module(GAMES[rules.game].advice)


def _shapes():
    from ..kernels.state import make_state

    return make_state()


# ---- shared by every game's advice (search.py, duel.py, modern.py, zone.py) ----------------------------------
_PLACEHOLDER = 56  # other seats' discard counts stand as bits from here, outside every deck


def unseen_cards(count: int) -> np.uint64:
    """``count`` cards nobody at the table has seen (another seat's discards), as the state's
    card set holds them: only their number is known, so they stand as bits outside every deck."""
    return np.uint64(((1 << count) - 1) << _PLACEHOLDER)


@dataclass
class Decision:
    """The kernels' state for one decision (arrays of :mod:`rams_sim.kernels.state`)."""

    stage: str  # "exchange", "round", "intent", "buy", "trump" or "play"
    labels: list[tuple[str, list[int]]]  # per option: (word, cards)
    options: np.ndarray  # int64: option codes (kernels.pimc.options_at) or card ids
    arrays: dict
    scalars: dict


@dataclass(frozen=True)
class Described:
    """A position as ``advise``'s arguments describe it, read from their notation, before its game lays it
    out (``position_builder``); each game reads the parts it has (``turns`` still as given: its words)."""

    seat: int
    dealer: int
    trump_card: int
    scores: list[int]
    exchanged: dict  # R4: seat -> cards exchanged, None (passed) or PLAYS
    discarded: list[int]
    took_trump: bool | None  # R4.3
    jacks: dict  # R5.5: the other seats' jack declarations
    intents: dict  # R4.0a: seat -> "trumps" / "suits"
    turns: str | dict | None  # the games' turns (modern's, zone's swap, duel's widow)
    redeals: int  # modern
    stake: int  # duel: the party's stake, its cube's owner (None: centred) and the dave asked about
    cube: int | None
    dave: str | None


@dataclass(frozen=True)
class Batch:
    """One batch of worlds for a game's ``evaluation``: the rules packed, the rollout players, the key,
    the options still racing, the worlds' first index and the outputs ``deltas``, ``flags`` [options,
    worlds]; ``infer`` (an INFER_NAMES index, 0: uniform worlds) and ``floor`` for classic's model."""

    r: object
    roll_kinds: np.ndarray
    roll_params: np.ndarray
    announce: np.ndarray
    key: np.uint64
    options: np.ndarray
    first: int
    deltas: np.ndarray
    flags: np.ndarray
    infer: int = 0
    floor: float = 0.0


def order_from(dealer: int, players: int) -> list[int]:
    return [(dealer + 1 + k) % players for k in range(players)]


@dataclass
class Play:
    """The play so far as :func:`replay_play` read it."""

    done: list[Trick]  # finished tricks
    current: list[tuple[int, int]]  # (seat, card) of the trick in progress, in playing order
    t: int  # the trick in progress (0-based) and
    k: int  # its cards so far
    leader: int  # who led it
    events: list[tuple[int, int, int, int]]  # every card: (trick, position in it, seat, card)
    own_played: int  # mask: the seat's own cards played
    q_duty: bool  # R6.6: the seat must lead the trump Q now


def check_cards(rules: Rules, seat: int, dealer: int, hand: list[int], trump_card: int, discarded: list[int]) -> None:
    """The seats are at the table and the cards in the deck (R2), none both held and discarded."""
    n = rules.players
    deck = C.deck_mask(rules.deck_size)
    for name, value in (("--seat", seat), ("--dealer", dealer)):
        if not 0 <= value < n:
            raise AdviceError(f"{name} must be a seat of the {n}-player table, 0..{n - 1}; got {value}")
    for c in [*hand, trump_card, *discarded]:
        if not deck >> c & 1:
            raise AdviceError(f"{C.format_card(c)} is not in the {rules.deck_size}-card deck (R2)")
    if set(hand) & set(discarded):
        raise AdviceError(f"{C.format_cards(sorted(set(hand) & set(discarded)))} cannot be both in the hand and discarded")


def replay_play(rules: Rules, seat: int, dealer: int, hand: list[int], trump_card: int, played: list[list[int]],
            passed: set[int], order: list[int], discarded: list[int], require_turn: bool) -> Play:  # fmt: skip
    """Read ``played`` (tricks in playing order from each leader): who played each card
    (R6.1, R6.4: the winner leads next), each card possible (in the deck, played once, the
    trump card by the dealer only, not discarded), the seat's own cards legal when he played
    them (R6, with his later cards still in his hand), and it is his turn."""
    from .. import engine

    n = rules.players
    deck = C.deck_mask(rules.deck_size)
    hand_mask = C.mask_of(hand)
    trump = C.suit_of(trump_card)
    active = [s for s in order if s not in passed]
    if len(active) < 2:
        raise AdviceError("fewer than two seats play: there is no play to advise on (R4.5)")
    leader = active[0]  # R6.1
    done: list[Trick] = []
    current: list[tuple[int, int]] = []
    events, context = [], []  # per card: (trick, position, seat, card); (cards before it, tricks done then)
    seen = 0
    t = k = 0
    for t_i, cards in enumerate(played):
        full = len(cards) == len(active)
        if t_i >= C.N_TRICKS or len(cards) > len(active) or (not full and t_i < len(played) - 1):
            raise AdviceError(f"--played trick {t_i + 1} has {len(cards)} cards; {len(active)} seats play "
                              f"each of five tricks (R6)")  # fmt: skip
        seats = [x % n for x in range(leader, leader + n) if x % n not in passed]
        for j, c in enumerate(cards):
            s = seats[j]
            if seen >> c & 1 or hand_mask >> c & 1:
                raise AdviceError(f"--played: {C.format_card(c)} is played twice or is still in the hand")
            if not deck >> c & 1:
                raise AdviceError(f"--played: {C.format_card(c)} is not in the {rules.deck_size}-card deck")
            if c == trump_card and s != dealer:
                raise AdviceError(f"--played: the trump card {C.format_card(c)} can only be played by the dealer "
                                  f"(seat {dealer}), who takes it (R4.3)")  # fmt: skip
            if c in discarded:
                raise AdviceError(f"--played: {C.format_card(c)} was discarded")
            events.append((t_i, j, s, c))
            context.append((list(cards[:j]), len(done)))
            seen |= 1 << c
        if full:
            w = seats[engine.trick_winner(trump, cards)]
            by_seat = [-1] * n
            for j, c in enumerate(cards):
                by_seat[seats[j]] = c
            done.append(Trick(leader, tuple(by_seat), w))
            leader = w
            t, k = t_i + 1, 0
        else:
            current = [(seats[j], c) for j, c in enumerate(cards)]
            t, k = t_i, len(cards)
    own_played = 0
    for i, (t_i, j, s, c) in enumerate(events):  # his own cards were legal then (R6)
        if s != seat:
            continue
        own_played |= 1 << c
        then = sorted(set(hand) | {e[3] for e in events[i:] if e[2] == seat})
        before, n_done = context[i]
        duty = j == 0 and queen_duty(done[:n_done], trump_card, C.mask_of(then))
        legal = engine.legal_cards(rules, then, trump, before, duty)
        if c not in legal:
            raise AdviceError(f"--played: seat {seat} could not play {C.format_card(c)} in trick {t_i + 1} "
                              f"(R6: legal were {C.format_cards(legal)})")  # fmt: skip
    if t >= C.N_TRICKS:
        raise AdviceError("--played holds all five tricks: the deal is over")
    seats_now = [x % n for x in range(leader, leader + n) if x % n not in passed]
    if require_turn and seats_now[k] != seat:
        raise AdviceError(f"after --played it is seat {seats_now[k]}'s turn, not seat {seat}'s (R6.1, R6.4)")
    if require_turn and len(hand) != C.N_TRICKS - t:
        raise AdviceError(f"seat {seat} holds {C.N_TRICKS - t} cards at trick {t + 1}; {len(hand)} given")
    q_duty = k == 0 and leader == seat and queen_duty(done, trump_card, hand_mask)
    return Play(done, current, t, k, leader, events, own_played, q_duty)
