"""R6: what may be played and the tricks of a deal.

:func:`legal_for` follows R6.7a step by step (who wins a trick, R6.4, is :mod:`.trick`);
:func:`play_tricks` plays up to five tricks at a :class:`.deal.DealTable`, crediting each
to the deal's sheet (whose ``credit`` may stop the deal) and asking the game, before each
card, whether the deal ends there (duel's dave). What a seat sees at its turn is
:class:`.policy.PlayView` (docs/ENGINE.md §8).
"""

from __future__ import annotations

from .. import cards as C
from ..record import Trick
from .args import RuleBook
from .bits import RANK, SUIT, TRUMP_HONOURS
from .policy import PlayView, threats
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
    if book.ace_covers_face and trump_ace in legal:
        # R6.7: the trump ace falls on a trump K, Q or J (never overriding R6.2)
        if trump_king in trick or trump_queen in trick or trump_jack in trick:
            legal = [trump_ace]
    if book.must_head:  # R6.3a: keep the cards that would win the trick now, if any
        heading = [c for c in legal if would_win(trump, trick, c)]
        if heading:
            legal = heading
    return sorted(legal)


def ask_card(table, sheet, seat: int, trick, q_duty: bool, behind) -> int:
    """The seat plays one legal card (R6.7a); an illegal one is rejected (R6.8).

    ``behind``: the active seats still to play to this trick after him, in order; their
    R4.0a announcements are public knowledge, said aloud at the table.
    """
    hand = table.hand[seat]
    legal = legal_for(table.book, hand, table.trump, trick, q_duty)
    view = PlayView(threats(table, seat, trick), len(behind), tuple(int(table.intent[s]) for s in behind))
    card = table.policies[seat].choose_card(list(hand), table.trump, list(trick), legal, sheet.tricks[seat], view)
    if card not in legal:
        raise ValueError(f"policy error (R6.8): seat {seat} plays {C.format_card(card)}, not a legal card")
    hand.remove(card)
    return card


def play_tricks(table, sheet, leader: int | None = None, before_card=None) -> None:
    """R6: five tricks among the active seats, until the sheet's ``credit`` stops the deal.

    ``leader``: the first leader (default R6.1: the first active seat in seat order);
    ``before_card(seat, trick)``: the game's step before each card, True ending the deal
    there (a trick left unfinished is not recorded).
    """
    n = table.n
    active = [not p for p in table.passed]
    if leader is None:
        leader = next(s for s in table.seats if active[s])  # R6.1: the first active seat leads
    q_duty = False  # R6.6: the duty to lead the trump Q after the led K won
    _, trump_king, trump_queen, _ = TRUMP_HONOURS[table.trump]
    for _ in range(C.N_TRICKS):
        players = [leader] + [(leader + j) % n for j in range(1, n) if active[(leader + j) % n]]
        trick = []
        by_seat = [C.NO_CARD] * n
        for k, seat in enumerate(players):
            if before_card is not None and before_card(seat, trick):
                return
            card = ask_card(table, sheet, seat, trick, q_duty and seat == leader, players[k + 1 :])
            trick.append(card)
            by_seat[seat] = card
        winner = players[trick_winner(table.trump, trick)]
        table.plays.append(Trick(leader=leader, cards=tuple(by_seat), winner=winner))
        table.note("trick", leader=leader, cards=list(trick), winner=winner)
        # R6.6: he led the marriage K, still holds the Q, and the K won
        q_duty = trick[0] == trump_king and trump_queen in table.hand[leader] and winner == leader
        if sheet.credit(winner):
            return
        leader = winner  # R6.1: the winner of the last trick leads
