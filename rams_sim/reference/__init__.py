"""The reference engine: one Rams deal and one party, in plain readable Python.

This package is the independent oracle the fast engine (:mod:`rams_sim.engine`) is
compared against, deal by deal. It follows docs/ENGINE.md step by step and cites
the rule book (docs/RULES.md) by section. It shares with the kernels only the card
constants (:mod:`rams_sim.cards`), the configuration (:class:`rams_sim.rules.Rules`,
:class:`rams_sim.policies.PolicySpec`), the record types (:mod:`rams_sim.record`) and
the random-number functions of :mod:`rams_sim.kernels.rng`. Legality, the trick,
the declarations, the scoring, the party and the policies are written again here.

The package's modules: ``tables`` (cards and rule values), ``play`` (R6),
``scoresheet`` (R5 step 4, R7, R8), ``policy`` (the policies), ``deal`` (one deal).
A deal runs as explicit steps, each a method of :class:`DealTable`:

1. :meth:`DealTable.deal_cards` (R3),
2. :meth:`DealTable.exchange` (R4, R4.0-R4.4),
3. :meth:`DealTable.dealer_trump` (R4.3),
4. :meth:`Scoresheet.declare` (R5 step 4),
5. :meth:`DealTable.play` or :meth:`DealTable.lone_tricks` (R6, R4.5),
6. :meth:`Scoresheet.finish` (R7, R8.2-R8.3).

Every step can note what happened in ``DealTable.events`` (a list of
``(step, details)`` pairs) when one is given, so a deal can later be told in words.

Hands are sorted lists of card ids; records carry them as bit masks (python ints).

>>> from rams_sim.rules import Rules
>>> rec = play_deal(Rules(), "basic", seed=1, deal=0)
>>> sum(rec.tricks) in (0, 1, 2, 3, 4, 5)
True
"""

from __future__ import annotations

import numbers

from .. import cards as C
from ..kernels.rng import deal_key, deck_order, party_deal_key
from ..record import DealOutcome, DealRecord, EndKind, PartyRecord
from ..rules import Game
from . import duel, modern, zone
from .deal import DealTable
from .declare import declare
from .play import legal_cards, trick_winner
from .policy import BasicPolicy, RandomPolicy, seat_specs
from .score import Scoresheet
from .tables import RuleBook, cards_in, rule_book

__all__ = [
    "play_deal",
    "play_party",
    "legal_cards",
    "trick_winner",
    "settle_deal",
    "settlement",
    "DealTable",
    "Scoresheet",
    "BasicPolicy",
    "RandomPolicy",
]


def _check_seat(value, players: int, what: str) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not 0 <= value < players:
        raise ValueError(f"{what} must be a seat from 0 to {players - 1}; got {value!r}")
    return int(value)


def _check_scores(scores, book: RuleBook) -> list[int]:
    if scores is None:
        return [book.start] * book.players
    scores = [int(s) for s in scores]
    if len(scores) != book.players:
        raise ValueError(f"{len(scores)} scores given for {book.players} seats")
    return scores


def _check_order(order, book: RuleBook) -> list[int]:
    order = [int(c) for c in order]
    if sorted(order) != book.deck:
        raise ValueError(f"order must be a permutation of the {book.deck_size}-card deck's card ids (R2, R3)")
    return order


def play_deal(rules, policies, *, seed=0, deal=0, dealer=None, scores=None, order=None, key=None, events=None) -> DealRecord:
    """Play one deal and return its :class:`DealRecord` (docs/ENGINE.md §9).

    ``policies``: one PolicySpec/str for every seat, or a list by seat; ``dealer``:
    default ``deal % players``; ``scores``: each seat's score before the deal (default
    ``rules.start``); ``key``: default ``deal_key(seed, deal)``; ``order``: a deck order
    used instead of the shuffle of stream 0 (coin flips still come from ``key``);
    ``events``: an optional list that receives the deal's steps for narration.
    """
    book = rule_book(rules)
    specs = seat_specs(policies, book.players)
    # each other game of R9 dispatches here: ``if rules.game == Game.DUEL: return duel.play_deal(...)``
    key = int(deal_key(seed, deal)) if key is None else int(key)
    dealer = _check_seat(deal % book.players if dealer is None else dealer, book.players, "dealer")
    scores = _check_scores(scores, book)
    given = order is not None
    if order is None:
        order = [int(c) for c in deck_order(key, book.deck_array)]
    else:
        order = _check_order(order, book)
    if rules.game == Game.ZONE:
        return zone.play_deal(rules, specs, key, dealer, scores, order, events)
    if rules.game == Game.DUEL:  # R9 duel, duel-trump (docs/VARIANTS.md)
        return duel.play_duel_deal(book, specs, key, dealer, scores, order, events)[0]
    if rules.game == Game.MODERN:
        return modern.play_deal(book, specs, key, dealer, scores, order, given, events)
    return DealTable(book, specs, key, dealer, scores, order, events).run()


def play_party(rules, policies, *, seed=0, party=0) -> PartyRecord:
    """Play one party (R8) and return its :class:`PartyRecord` (docs/ENGINE.md §7).

    Every seat starts at ``rules.start``; seat 0 deals first and the deal passes
    clockwise; deal ``d`` is keyed ``party_deal_key(seed, party, d)``.
    """
    book = rule_book(rules)
    specs = seat_specs(policies, book.players)
    # each other game of R9 dispatches here: ``if rules.game == Game.DUEL: return duel.play_party(...)``
    if rules.game == Game.ZONE:
        return zone.play_party(rules, specs, seed, party)
    if rules.game == Game.DUEL:  # R9 duel, duel-trump (docs/VARIANTS.md)
        return duel.play_duel_party(
            book, specs, seed, party, lambda d: int(party_deal_key(seed, party, d)),
            lambda key: [int(c) for c in deck_order(key, book.deck_array)],
        )  # fmt: skip
    if rules.game == Game.MODERN:
        return modern.play_party(rules, specs, lambda d: party_deal_key(seed, party, d))
    n = book.players
    scores = [book.start] * n  # R8.1
    resets = [0] * n
    winner, end_kind, deals = C.NO_SEAT, int(EndKind.UNFINISHED), 0
    for d in range(book.max_deals):
        key = int(party_deal_key(seed, party, d))
        order = [int(c) for c in deck_order(key, book.deck_array)]
        dealer = d % n  # R3: seat 0 deals first, then clockwise
        rec = DealTable(book, specs, key, dealer, scores, order).run()
        deals += 1
        for s in range(n):
            scores[s] += rec.delta[s]  # R7.5
            resets[s] += int(rec.overshoot[s])  # R8.3
        if rec.ends_party >= 0:
            winner, end_kind = rec.ends_party, rec.end_kind
            break
    return PartyRecord(
        deals=deals,
        scores=tuple(scores),
        winner=winner,
        end_kind=end_kind,
        settlement=settlement(book, scores, winner),
        resets=tuple(resets),
        stake=1,  # classic Rams has no dave
    )


def settlement(book: RuleBook, scores, winner: int) -> tuple[float, ...]:
    """R8.4: money won (+) or paid (-) by seat; nothing for an unfinished party (R8.2c)."""
    n = len(scores)
    money = [0.0] * n
    if winner < 0:
        return tuple(money)
    losers = [s for s in range(n) if s != winner]
    if book.settle_stake:
        # stake: the losers with the highest remaining score share one stake
        top = max(scores[s] for s in losers)
        payers = [s for s in losers if scores[s] == top]
        for s in payers:
            money[s] = 0.0 - 1.0 / len(payers)
        money[winner] = 1.0
    else:
        # remaining: each loser pays max(score, 0) to the winner
        for s in losers:
            pay = float(max(scores[s], 0))
            money[s] = 0.0 - pay
            money[winner] += pay
    return tuple(money)


def settle_deal(
    rules, *, dealer, trump, hands_dealt, hands_final, active, scores=None, trick_winners=(), announce=None
) -> DealOutcome:
    """Score given hands from R5 step 4 to R8.3 and return a :class:`DealOutcome`.

    ``hands_*``: card ids (or a mask) by seat; ``active``: bools by seat;
    ``trick_winners``: seats credited one trick each, in order, when play follows
    (a lone player is credited automatically and ``trick_winners`` is ignored);
    crediting stops when the party ends; ``announce``: bools by seat (default all True).
    """
    if rules.game != Game.RAMS:
        raise ValueError(f"settle_deal follows the rams game's rules (R5-R8); preset {rules.preset} plays {rules.game.value}")
    book = rule_book(rules)
    n = book.players
    dealer = _check_seat(dealer, n, "dealer")
    if not 0 <= int(trump) < C.N_SUITS:
        raise ValueError(f"trump must be a suit from 0 to 3; got {trump!r}")
    hands_dealt = [cards_in(h) for h in hands_dealt]
    hands_final = [cards_in(h) for h in hands_final]
    active = [bool(a) for a in active]
    announce = [True] * n if announce is None else [bool(a) for a in announce]
    for name, seq in (("hands_dealt", hands_dealt), ("hands_final", hands_final), ("active", active), ("announce", announce)):
        if len(seq) != n:
            raise ValueError(f"{name} has {len(seq)} entries for {n} seats")
    sheet = Scoresheet(book, dealer, int(trump), hands_dealt, hands_final, active, _check_scores(scores, book), announce)
    if declare(sheet):
        if sheet.n_active == 1:
            seat = sheet.lone_seat()
            for _ in range(C.N_TRICKS):
                if sheet.credit(seat):
                    break
        else:
            winners = [int(w) for w in trick_winners]
            if len(winners) > C.N_TRICKS:
                raise ValueError(f"at most {C.N_TRICKS} trick winners; got {len(winners)}")
            for w in winners:
                if not (0 <= w < n and active[w]):
                    raise ValueError(f"trick winner {w} is not an active seat (R6)")
                if sheet.credit(w):
                    break
    sheet.finish()
    return sheet.result()
