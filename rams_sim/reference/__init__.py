"""The reference engine: one Rams deal and one party, in plain readable Python.

This package is the independent oracle the fast engine (:mod:`rams_sim.engine`) is
compared against, deal by deal. It follows docs/ENGINE.md step by step and cites
the rule book (docs/RULES.md) by section. It shares with the kernels only the card
constants (:mod:`rams_sim.cards`), the configuration (:class:`rams_sim.rules.Rules`,
:class:`rams_sim.policies.PolicySpec`), the record types (:mod:`rams_sim.record`),
the deck-order and key functions of :mod:`rams_sim.kernels.rng` and the layout sampler
of :mod:`rams_sim.kernels.worlds` (combinatorics, for the search of policy ``pimc``).
Legality, the trick, the declarations, the scoring, the party, the policies and what a
searching seat knows are written again here.

Its modules mirror the kernels' (``rams_sim/kernels/``), one rule concept each:

* ``deal`` (R3): the deck order and the seats' coins, the hands, the trump card;
  :class:`DealTable`, the table every step acts on;
* ``exchange`` (R4): passing, the exchange, the R4.0a intent round, the dealer's trump card;
* ``declare`` (R5 step 4): four aces, four jacks, the rams ranking, the jack pairs, R5.7;
* ``play`` (R6): the legal cards and the tricks of a deal; ``trick`` (R6.4): who wins a trick;
* ``score`` (R7, R8.2-R8.3): :class:`Scoresheet`: tricks credited, remiz, deltas, who ends the party;
* ``party`` (R8): one party loop for every game, and R8.4's settlement;
* ``policy``: the built-in policies' decisions (rams_sim/policies.py); ``pimc``: the
  searching policy's decisions and cards (docs/SEARCH.md), which play the rest of the deal
  from copies of the table (:func:`.games.classic.deal_from`, :func:`.play.play_from`);
* ``games`` (R9): ``classic``, ``duel``, ``modern``, ``zone``: each game's own steps and
  decisions, behind the same ``play_deal`` and ``settlement`` (:mod:`.games`);
* ``args``: :class:`RuleBook`, the rules as the steps read them; ``bits``: the card lookups
  the steps share.

A classic deal (:func:`rams_sim.reference.games.classic.play_deal`) runs as explicit steps:

1. :func:`.deal.deal_cards` (R3),
2. :func:`.exchange.exchange_from` (R4, R4.0-R4.4, R4.0a: one decision a step),
3. :func:`.exchange.dealer_trump` (R4.3),
4. :func:`.declare.declare` (R5 step 4),
5. :func:`.play.play_tricks` or :func:`.score.credit_lone` (R6, R4.5),
6. :meth:`Scoresheet.finish` (R7, R8.2-R8.3);

the other games replace the steps their rules change (:mod:`.games`). Every step can note
what happened in an ``events`` list (``(step, details)`` pairs) when one is given, so a
deal can later be told in words.

Hands are sorted lists of card ids; records carry them as bit masks (python ints).

>>> from rams_sim.rules import Rules
>>> rec = play_deal(Rules(), "basic", seed=1, deal=0)
>>> sum(rec.tricks) in (0, 1, 2, 3, 4, 5)
True
"""

from __future__ import annotations

import numbers

from .. import cards as C
from ..games import GAMES
from ..kernels.rng import deal_key
from ..policies import check_table_game
from ..record import DealOutcome, DealRecord, PartyRecord
from ..rules import Rules
from . import party as _party
from .args import RuleBook, rule_book
from .bits import cards_in
from .deal import DealTable, shuffle
from .games import classic, game_of
from .play import legal_for
from .policy import BasicPolicy, RandomPolicy, seat_specs
from .score import Scoresheet
from .trick import trick_winner

__all__ = [
    "BasicPolicy",
    "DealTable",
    "RandomPolicy",
    "Scoresheet",
    "legal_cards",
    "play_deal",
    "play_party",
    "settle_deal",
    "settlement",
    "trick_winner",
]


def _check_seat(value, players: int, what: str) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or not 0 <= value < players:
        raise ValueError(f"{what} must be a seat from 0 to {players - 1}; got {value!r}")
    return int(value)


def _check_scores(scores, book: RuleBook) -> list[int]:
    if scores is None:
        return [book.start] * book.players
    return book.rules.check_scores(scores)  # one score per seat, each one a deal can start from (R8.2, R9)


def _check_order(order, book: RuleBook) -> list[int]:
    order = [int(c) for c in order]
    if sorted(order) != book.deck:
        raise ValueError(f"order must be a permutation of the {book.deck_size}-card deck's card ids (R2, R3)")
    return order


def play_deal(rules, policies, *, seed=0, deal=0, dealer=None, scores=None, order=None, key=None, events=None) -> DealRecord:
    """Play one deal of the rules' game and return its :class:`DealRecord` (docs/ENGINE.md §9).

    ``policies``: one PolicySpec/str for every seat, or a list by seat; ``dealer``:
    default ``deal % players``; ``scores``: each seat's score before the deal (default
    ``rules.start``); ``key``: default ``deal_key(seed, deal)``; ``order``: a deck order
    used instead of the shuffle of stream 0 (coin flips still come from ``key``);
    ``events``: an optional list that receives the deal's steps for narration. A duel
    deal starts at stake 1 with the cube in the middle.
    """
    book = rule_book(rules)
    specs = seat_specs(policies, book.players)
    check_table_game(rules, specs)
    key = int(deal_key(seed, deal)) if key is None else int(key)
    dealer = _check_seat(deal % book.players if dealer is None else dealer, book.players, "dealer")
    scores = _check_scores(scores, book)
    order = shuffle(book, key) if order is None else _check_order(order, book)
    return game_of(rules).play_deal(book, specs, key, dealer, scores, order, events=events).record


def play_party(rules, policies, *, seed=0, party=0) -> PartyRecord:
    """Play one party (R8) of the rules' game and return its :class:`PartyRecord` (docs/ENGINE.md §7).

    Every seat starts at ``rules.start``; seat 0 deals first and the deal passes
    clockwise (zone: to the loser of the deal); deal ``d`` is keyed
    ``party_deal_key(seed, party, d)``.
    """
    book = rule_book(rules)
    specs = seat_specs(policies, book.players)
    check_table_game(rules, specs)
    return _party.play_party(game_of(rules), book, specs, seed, party)


def settlement(rules, scores, winner: int, stake: int = 1, prokats=None) -> tuple[float, ...]:
    """The money won (+) or paid (-) by seat at the end of a party of the rules' game.

    ``rules``: a :class:`Rules` or its :class:`RuleBook`; ``winner``: -1 for an unfinished
    party; ``stake``: duel's stake; ``prokats``: the прокаты each seat paid (zone).
    Classic Rams: R8.4.
    """
    book = rule_book(rules) if isinstance(rules, Rules) else rules
    prokats = [0] * len(scores) if prokats is None else list(prokats)
    return game_of(book.rules).settlement(book, list(scores), int(winner), int(stake), prokats)


def legal_cards(rules, hand, trump: int, trick, q_duty: bool = False) -> list[int]:
    """Return the legal cards of ``hand`` in ascending id order (R6.2-R6.7a).

    ``hand``: card ids; ``trump``: suit 0-3; ``trick``: the card ids played so far, led
    card first (empty = on lead); ``q_duty``: on lead, the R6.6 duty to lead the trump
    Q is active.
    """
    if not GAMES[rules.game].duty_to_follow:  # zone has no duty to follow (docs/VARIANTS.md); duel and modern keep R6
        raise ValueError(
            f"legal_cards follows the rams game's rules (R6.7a); preset {rules.preset} plays {rules.game.value}"
        )
    hand = [int(c) for c in hand]
    if not hand:
        raise ValueError("legal_cards needs a non-empty hand")
    return legal_for(rule_book(rules), hand, int(trump), [int(c) for c in trick], bool(q_duty))


def settle_deal(
    rules, *, dealer, trump, hands_dealt, hands_final, active, scores=None, trick_winners=(), announce=None
) -> DealOutcome:
    """Score given hands from R5 step 4 to R8.3 and return a :class:`DealOutcome`.

    ``hands_*``: card ids (or a mask) by seat; ``active``: bools by seat;
    ``trick_winners``: seats credited one trick each, in order, when play follows
    (a lone player is credited automatically and ``trick_winners`` is ignored);
    crediting stops when the party ends; ``announce``: bools by seat (default all True).
    """
    if not GAMES[rules.game].classic_scoring:
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
    sheet = classic.score_given(book, dealer, int(trump), hands_dealt, hands_final, active, _check_scores(scores, book),
                                announce, trick_winners)  # fmt: skip
    return sheet.result()
