"""R3: the start of a deal: the deck order and the seats' coins, the hands, the trump card.

:class:`DealTable` is the table of one deal in every game: the deck order, the seats'
policies (their coin streams keyed by the deal's key, docs/ENGINE.md §1), the hands and
everything said and played; the later steps (:mod:`.exchange`, :mod:`.play`, the games'
own steps) act on it, and :meth:`DealTable.record` writes the deal's record.
"""

from __future__ import annotations

from .. import cards as C
from ..kernels.rng import deck_order
from ..record import DealRecord, Intent
from .args import RuleBook
from .bits import SUIT, mask_of, seat_order
from .policy import policy_for


def shuffle(book: RuleBook, key: int) -> list[int]:
    """ENGINE.md §1: the deck order of a deal keyed ``key`` (stream 0 of the key)."""
    return [int(c) for c in deck_order(key, book.deck_array)]


class DealTable:
    """One deal being played: the cards, every seat's choices and what was played.

    ``policy_of(spec, key, seat)`` makes a seat's policy (default: the built-in policies
    of :mod:`.policy`; zone brings its own).
    """

    def __init__(self, book: RuleBook, specs, key: int, dealer: int, scores, order, events=None, policy_of=policy_for):
        n = book.players
        self.book = book
        self.n = n
        self.dealer = dealer
        self.scores = list(scores)
        self.seats = seat_order(dealer, n)
        self.specs = specs
        self.policy_of = policy_of
        self.events = events
        self.seed(key, order)
        self.hand_dealt = [[] for _ in range(n)]
        self.hand = [[] for _ in range(n)]  # current hand, sorted ids
        self.passed = [False] * n
        self.discards = [[] for _ in range(n)]
        self.drawn = [[] for _ in range(n)]
        self.took_trump = [False] * n
        self.own_trump = [False] * n  # R9 modern: the seat dealt the trump card itself (the dealer), public
        self.trump_discard = [C.NO_CARD] * n
        self.intent = [Intent.NONE] * n  # R4.0a: the announcements, public
        self.hand_final = [[] for _ in range(n)]
        self.trump_card = C.NO_CARD
        self.trump = -1
        self.talon = []
        self.talon_next = 0  # index of the next talon card to draw
        self.widow = []  # R9 games: the widow's cards
        self.widow_taker = C.NO_SEAT  # R9 games: the seat that took the widow
        self.plays = []

    def seed(self, key: int, order) -> None:
        """ENGINE.md §1: the deck order to deal from and the seats' policies keyed ``key``."""
        self.key = key
        self.deck_order = list(order)
        self.policies = [self.policy_of(spec, key, seat) for seat, spec in enumerate(self.specs)]

    def holds_trump_card(self, seat: int) -> bool:
        """Whether everyone knows ``seat`` holds the trump card (until he plays it, or may have laid
        it aside): he took it (R4.3) or it is his own dealt card (modern). Public facts only."""
        return self.took_trump[seat] or self.own_trump[seat]

    def note(self, step: str, **details) -> None:
        """Record one step for a later narration, when an event list is attached."""
        if self.events is not None:
            self.events.append((step, details))

    @property
    def talon_size(self) -> int:
        """Cards left in the talon (the trump card is not part of it, R4.4)."""
        return len(self.talon) - self.talon_next

    def record(self, sheet, **game_columns) -> DealRecord:
        """The deal as a :class:`DealRecord`: the table's columns, the sheet's scores, and
        ``game_columns`` for what only an R9 game fills (stake, redeals, fine, dave, prokat)."""
        n = self.n
        columns = dict(
            dealer=self.dealer,
            trump_card=self.trump_card,
            hand_dealt=tuple(mask_of(h) for h in self.hand_dealt),
            passed=tuple(self.passed),
            discards=tuple(mask_of(h) for h in self.discards),
            drawn=tuple(mask_of(h) for h in self.drawn),
            took_trump=tuple(self.took_trump),
            trump_discard=tuple(self.trump_discard),
            hand_final=tuple(mask_of(h) for h in self.hand_final),
            jacks=tuple(sheet.jacks),
            declaration=tuple(sheet.declaration),
            tricks=tuple(sheet.tricks),
            delta=tuple(sheet.delta),
            overshoot=tuple(sheet.overshoot),
            outcome=sheet.outcome,
            ends_party=sheet.ends_party,
            end_kind=sheet.end_kind,
            plays=tuple(self.plays),
            intent=tuple(int(i) for i in self.intent),
            widow=self.widow_taker,
            # classic Rams has no dave, redeal, fine or прокат (R9 games only)
            stake=1,
            redeals=0,
            fine=(0,) * n,
            dave=(0,) * n,
            prokat=(False,) * n,
        )
        columns.update(game_columns)
        return DealRecord(**columns)


def deal_hands(table) -> None:
    """R3: seat (dealer+1+i) mod n gets d[5i..5i+4], in every game."""
    d = table.deck_order
    for i, seat in enumerate(table.seats):
        table.hand_dealt[seat] = sorted(d[C.HAND_SIZE * i : C.HAND_SIZE * (i + 1)])
        table.hand[seat] = list(table.hand_dealt[seat])


def turn_trump(table, card: int) -> None:
    """R3: ``card`` is the trump card and its suit trumps; the deal is noted (hands and trump card)."""
    table.trump_card = card
    table.trump = SUIT[card]
    table.note("deal", dealer=table.dealer, hands=[list(h) for h in table.hand_dealt], trump_card=card)


def deal_cards(table) -> None:
    """R3: the hands; d[5n] is the trump card; the rest is the talon, drawn in index order."""
    deal_hands(table)
    d = table.deck_order
    table.talon = d[C.HAND_SIZE * table.n + 1 :]
    table.talon_next = 0
    turn_trump(table, d[C.HAND_SIZE * table.n])
