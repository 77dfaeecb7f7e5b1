"""R9 ``rams``: a deal of classic Rams (R3-R8.3), for every preset that only changes its options.

The steps of docs/ENGINE.md in order: R3 (:mod:`..deal`), R4 (:mod:`..exchange`), R5 step
4 (:mod:`..declare`), R6 or R4.5's lone player (:mod:`..play`, :mod:`..score`; the
decisions and cards of a ``pimc`` seat are searched, :mod:`..pimc`, which plays its
options out from any step with :func:`deal_from`), R7-R8.3 (:mod:`..score`). The party's
settlement is R8.4 (:func:`..party.settle`). Every game module has the entry points
:func:`play_deal` and :func:`settlement` with these arguments.
"""

from __future__ import annotations

from ... import cards as C
from ..args import RuleBook
from ..deal import DealTable, deal_cards
from ..declare import declare
from ..exchange import dealer_trump, exchange_from
from ..inference import cards_chance, first_trick_world, play_chance
from ..party import DealResult, settle
from ..pimc import declarations_fit, search_card, search_decision
from ..play import play_tricks
from ..score import Scoresheet, credit_lone


def play_deal(book: RuleBook, specs, key: int, dealer: int, scores, order, *, stake: int = 1, cube: int = C.NO_SEAT,
              events=None) -> DealResult:  # fmt: skip
    """One deal of classic Rams: ``order`` is its deck order, ``key`` keys the seats' coins,
    ``scores`` are the seats' scores before it; ``stake`` and ``cube`` (duel's dave) do not
    apply; ``events`` receives the deal's steps for narration."""
    table = DealTable(book, specs, key, dealer, scores, order, events)
    deal_cards(table)  # R3
    sheet = deal_from(table, 0, None, searching=True)
    return DealResult(table.record(sheet))


def deal_from(table, step0: int, first_option=None, searching: bool = False) -> Scoresheet:
    """The deal from step ``step0`` on (R4 to R8.3), as a finished :class:`Scoresheet`.

    The steps are :func:`..exchange.exchange_from`'s (the exchange, one decision each),
    then 3n, the dealer's trump card (R4.3); ``first_option`` (or None) is taken at
    ``step0`` instead of asking its seat. ``searching``: a ``pimc`` seat's decisions and
    cards are searched (:mod:`..pimc`); a search plays its options out with ``False``.
    """
    n = table.n
    decide, card = (search_decision, search_card) if searching else (None, None)
    if step0 < 3 * n:
        exchange_from(table, step0, first_option, decide)  # R4.0-R4.4, R4.0a
    dealer_trump(table, first_option if step0 == 3 * n else None, decide)  # R4.3
    active = [not p for p in table.passed]
    announce = [spec.announce for spec in table.specs]  # R8.2: whether each seat announces reaching zero
    sheet = Scoresheet(table.book, table.dealer, table.trump, table.hand_dealt, table.hand_final, active, table.scores,
                       announce, table.events)  # fmt: skip
    if declare(sheet):  # R5 step 4
        if sheet.n_active == 1:
            credit_lone(sheet)  # R4.5 takes-all
        else:
            play_tricks(table, sheet, search=card)  # R6; a pimc seat's cards are searched
    sheet.finish()  # R7, R8.2-R8.3
    return sheet


def score_given(book: RuleBook, dealer: int, trump: int, hands_dealt, hands_final, active, scores, announce,
                trick_winners) -> Scoresheet:  # fmt: skip
    """R5 step 4 to R8.3 for given hands (``rams_sim.reference.settle_deal``): the
    declarations, then the tricks credited to ``trick_winners`` in order (a lone player
    is credited automatically) until one ends the party, then the deltas."""
    sheet = Scoresheet(book, dealer, trump, hands_dealt, hands_final, active, scores, announce)
    if declare(sheet):
        if sheet.n_active == 1:
            credit_lone(sheet)
        else:
            winners = [int(w) for w in trick_winners]
            if len(winners) > C.N_TRICKS:
                raise ValueError(f"at most {C.N_TRICKS} trick winners; got {len(winners)}")
            for w in winners:
                if not (0 <= w < book.players and active[w]):
                    raise ValueError(f"trick winner {w} is not an active seat (R6)")
                if sheet.credit(w):
                    break
    sheet.finish()
    return sheet


def settlement(book: RuleBook, scores, winner: int, stake: int, prokats) -> tuple[float, ...]:
    """R8.4 (``settle``: remaining or stake); classic Rams has no dave and no прокат."""
    return settle(book, scores, winner)


# ---- what policy pimc's card search needs of a game (:mod:`..pimc`) ---------------------------
DELTA_SIGN = 1  # R7: a delta counts down; the least is the best


def trump_maybe_discarded(table) -> bool:
    """R4.3: a dealer who took the trump card holds it until he plays it."""
    return False


def world_fits(table, sheet, state, seat: int, world) -> float:
    """R5.1-R5.5, R8.2: the chance to keep a world drawn at a card, by the declarations and the
    running scores (:func:`..pimc.declarations_fit`)."""
    return declarations_fit(table, sheet, state, seat, world)


def history_fits(table, state, seat: int, world, worlds, rollout, floor: float) -> float:
    """R4.0-R4.3 under the model: the chance of the others' passes, counts, announcements and the
    dealer's take in a world at a card (:func:`..inference.play_chance`)."""
    return play_chance(table, state, seat, world, worlds, rollout, floor)


def history_world(table, sheet, state, seat: int, worlds, rollout, floor: float):
    """``infer=cards`` at a card of the first trick: the world drawn with its history
    (:func:`..inference.first_trick_world`), kept with the chance of the declarations and running
    scores (:func:`..pimc.declarations_fit`) and of the cards played (:func:`..inference.cards_chance`).
    Returns (the world, the chance)."""
    world, chance = first_trick_world(table, state, seat, worlds, rollout, floor)
    if chance > 0.0:
        chance *= declarations_fit(table, sheet, state, seat, world)
    if chance > 0.0:
        chance *= cards_chance(table, state, seat, world, worlds, rollout, floor)
    return world, chance


def cards_fits(table, state, seat: int, world, worlds, rollout, floor: float) -> float:
    """R6 under the model: the chance of every card the others played before this one, in a world at
    a card (:func:`..inference.cards_chance`)."""
    return cards_chance(table, state, seat, world, worlds, rollout, floor)
