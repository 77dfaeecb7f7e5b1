"""R6: what may be played and the tricks of a deal.

:func:`legal_for` follows R6.7a step by step (who wins a trick, R6.4, is :mod:`.trick`);
:func:`play_tricks` plays up to five tricks at a :class:`.deal.DealTable`, crediting each
to the deal's sheet (whose ``credit`` may stop the deal) and asking the game, before each
card, whether the deal ends there (duel's dave). The play can stop between two cards and
go on from there: :class:`PlayState` is where it stands, :func:`play_from` goes on from it
(the search of policy ``pimc`` plays the rest of a deal from a copy, :mod:`.pimc`). What a
seat sees at its turn is :class:`.policy.PlayView` (docs/ENGINE.md §8); a searching seat's
card comes from the ``search`` hook instead, which sees the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import cards as C
from ..record import Trick
from .args import RuleBook
from .bits import RANK, SUIT, TRUMP_HONOURS
from .policy import PlayView, first_card_probe, threats
from .trick import trick_winner, would_win


def legal_for(book: RuleBook, hand, trump: int, trick, q_duty: bool = False) -> list[int]:
    """The legal cards of ``hand`` (ascending ids), following R6.7a step by step."""
    trump_ace, trump_king, trump_queen, trump_jack = TRUMP_HONOURS[trump]
    if not trick:
        # On lead, the first duty that applies (R6.7a):
        if trump_ace in hand:  # R6.5: the trump ace is led as soon as its holder leads
            return [trump_ace]
        if trump_king in hand and trump_queen in hand:  # R6.6: the marriage K first
            return [trump_king]
        if q_duty and trump_queen in hand:  # R6.6: the Q after the led K won the trick
            return [trump_queen]
        return sorted(hand)
    led = SUIT[trick[0]]
    legal = [c for c in hand if SUIT[c] == led]  # R6.2: follow suit
    if not legal:
        trumps = [c for c in hand if SUIT[c] == trump]
        if trumps:  # R6.2: void in the suit led, one must trump
            legal = trumps
            trick_trumps = [RANK[c] for c in trick if SUIT[c] == trump]
            if book.overtrump and trick_trumps:  # R6.3 overtrump: beat the best trump if able
                over = [c for c in trumps if RANK[c] > max(trick_trumps)]
                if over:
                    legal = over
        else:  # R6.2: otherwise anything
            legal = list(hand)
    # R6.7: the trump ace falls on a trump K, Q or J (never overriding R6.2)
    if (book.ace_covers_face and trump_ace in legal
            and (trump_king in trick or trump_queen in trick or trump_jack in trick)):
        legal = [trump_ace]
    if book.must_head:  # R6.3a: keep the cards that would win the trick now, if any
        heading = [c for c in legal if would_win(trump, trick, c)]
        if heading:
            legal = heading
    return sorted(legal)


@dataclass
class PlayState:
    """Where the play of a deal stands before its next card (what :func:`play_from` goes on from).

    ``t``: the trick in play, 0-4 (the finished ones are the table's ``plays``); ``leader``:
    who leads it (R6.1); ``trick``: its cards so far, led card first; ``q_duty``: R6.6, the
    leader must lead the trump Q if he still holds it (his marriage K led and won the last
    trick). The hands, the tricks credited and the scores are the table's and the sheet's.
    """

    t: int
    leader: int
    trick: list[int] = field(default_factory=list)
    q_duty: bool = False

    def copy(self) -> PlayState:
        """An independent copy (its trick list is its own)."""
        return PlayState(self.t, self.leader, list(self.trick), self.q_duty)

    def players(self, table) -> list[int]:
        """The seats that play to trick ``t``, in order (:func:`play_order`)."""
        return play_order(table, self.leader)


def play_order(table, leader: int) -> list[int]:
    """The active seats in playing order from ``leader`` (R6.2: clockwise, passers skipped)."""
    n = table.n
    return [(leader + j) % n for j in range(n) if not table.passed[(leader + j) % n]]


def ask_card(table, sheet, seat: int, state: PlayState, behind, search=None, forced=None) -> int:
    """The seat plays one legal card to the trick of ``state`` (R6.7a); an illegal one is rejected (R6.8).

    ``behind``: the active seats still to play to this trick after him, in order; their
    R4.0a announcements are public knowledge, said aloud at the table. ``search``: the
    searching policies' hook, ``search(table, sheet, state, seat, legal)`` -> a card, or
    None when the seat does not search (:func:`.pimc.search_card`). ``forced``: a card
    played without asking (the search's option). In trick 0 the seat's ``first_card`` probe,
    if set, plays instead of his policy or search (:func:`.policy.first_card_probe`).
    """
    hand = table.hand[seat]
    trick = state.trick
    legal = legal_for(table.book, hand, table.trump, trick, state.q_duty and not trick)
    card = forced
    if card is None and state.t == 0:
        card = first_card_probe(table.policies[seat], legal)  # his first card of the deal, not searched
    if card is None and search is not None:
        card = search(table, sheet, state, seat, legal)
    if card is None:
        view = PlayView(threats(table, seat, trick), len(behind), tuple(int(table.intent[s]) for s in behind))
        card = table.policies[seat].choose_card(list(hand), table.trump, list(trick), legal, sheet.tricks[seat], view)
    if card not in legal:
        raise ValueError(f"policy error (R6.8): seat {seat} plays {C.format_card(card)}, not a legal card")
    hand.remove(card)
    return card


def play_tricks(table, sheet, leader: int | None = None, before_card=None, search=None) -> None:
    """R6: five tricks among the active seats, until the sheet's ``credit`` stops the deal.

    ``leader``: the first leader (default R6.1: the first active seat in seat order);
    ``before_card(seat, state)``: the game's step before each card (``state``: where the
    play stands, :class:`PlayState`), True ending the deal there (a trick left unfinished
    is not recorded); ``search``: as :func:`ask_card`.
    """
    if leader is None:
        leader = next(s for s in table.seats if not table.passed[s])  # R6.1: the first active seat leads
    play_from(table, sheet, PlayState(0, leader), before_card, search)


def play_from(table, sheet, state: PlayState, before_card=None, search=None, forced=None, step_taken=False) -> None:
    """R6 from ``state`` on (its trick may be under way), until the sheet's ``credit`` stops
    the deal or the fifth trick is played; ``state`` moves on with the play.

    ``forced``: a card played as the next card without asking its seat (a searching policy's
    option; the game's ``before_card`` step for that card is not taken again).
    ``step_taken``: the game's ``before_card`` step for the next card was taken (a searched
    dave, :mod:`.games.duel_search`), and its seat is asked for the card. The other
    arguments are :func:`play_tricks`'s.
    """
    _, trump_king, trump_queen, _ = TRUMP_HONOURS[table.trump]
    while state.t < C.N_TRICKS:
        players = state.players(table)
        for k in range(len(state.trick), len(players)):
            seat = players[k]
            if forced is None and not step_taken and before_card is not None and before_card(seat, state):
                return
            card = ask_card(table, sheet, seat, state, players[k + 1 :], search, forced)
            forced, step_taken = None, False
            state.trick.append(card)
        trick = state.trick
        by_seat = [C.NO_CARD] * table.n
        for seat, card in zip(players, trick):
            by_seat[seat] = card
        leader = state.leader
        winner = players[trick_winner(table.trump, trick)]
        table.plays.append(Trick(leader=leader, cards=tuple(by_seat), winner=winner))
        table.note("trick", leader=leader, cards=list(trick), winner=winner)
        # R6.6: he led the marriage K, still holds the Q, and the K won
        q_duty = trick[0] == trump_king and trump_queen in table.hand[leader] and winner == leader
        state.t, state.leader, state.trick, state.q_duty = state.t + 1, winner, [], q_duty  # R6.1: the winner leads
        if sheet.credit(winner):
            return
