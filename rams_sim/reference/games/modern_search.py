"""R9 ``modern``: policy ``pimc``'s search of the turn and the redeal (docs/SEARCH.md "modern").

At its turn (pass, play on its cards, or take the widow blind keeping one card) a
searching seat knows its five cards, the trump card (the dealer's own last card) and what
the seats before it did. The unseen cards are laid out uniformly (:class:`..pimc.Worlds`)
into the piles: each other seat's hand, clockwise from the seat (five cards; the dealer's
four beside his trump card), then one pile of four: the widow while nobody took it, else
the cards its taker laid aside. Which of his five a taker kept is drawn uniformly from the
worlds' stream. Every open option (a pass where the score allows, play, and each take as
the 4-bit mask of the cards given up; under ``exchange_order=declare-then-buy`` the seat has
two decisions: pass or play in the round, then, at the widow's offer, 0 or a take) is played
out in every world by the ``rollout`` policy at every seat (:func:`.modern.deal_from` from
this step, the seat's later decisions the rollout policy's), and the most total delta is
taken (modern counts up; ties: the first option, pass, play, the masks ascending).

The redeal question (a seat dealt five of one suit, before any turn) is searched on the
same piles: keeping plays the deal out from the next seat's question, demanding plays it
out from a new dealing, which each world deals for itself, keyed ``deal_key(world key, r)``
for the r-th. Options: 0 keep, then REDEAL (ties: keep).
"""

from __future__ import annotations

import copy

import numpy as np

from ... import cards as C
from ...kernels.rng import deal_key
from ...policies import PolicyKind, PolicySpec
from ...rules import ExchangeOrder
from ..deal import shuffle
from ..pimc import Knowledge, Pile, Worlds, world_key
from ..policy import pimc_parameters
from .modern import DELTA_SIGN, PASS, REDEAL, TAKE_BITS, WIDOW_SIZE, deal_cards, deal_from, redeals_from

TURN_DECISION = 0  # the turn's decision number: the phase of an exchange (codes.PHASE_ROUND)
WIDOW_DECISION = 2  # declare-then-buy's widow offer: the buying phase (codes.PHASE_BUY)
REDEAL_DECISION = 4  # the redeal question's (after the phases, before the cards)
TAKES = tuple(m for m in range(1 << C.HAND_SIZE) if m.bit_count() == TAKE_BITS)  # ascending


def offered(table, k: int) -> bool:
    """Whether step ``k`` of the turns is declare-then-buy's offer of the widow (:func:`.modern.steps`)."""
    return table.book.rules.exchange_order == ExchangeOrder.DECLARE_THEN_BUY and k >= table.n


def turn_options(table, k: int, seat: int) -> list[int]:
    """The options open to ``seat`` at step ``k`` of the turns, in the order they are tried: a pass
    where the score allows it (not at the widow's offer), play (at the offer: decline), the takes
    while the widow is open (not in declare-then-buy's play/pass round)."""
    in_round = table.book.rules.exchange_order == ExchangeOrder.DECLARE_THEN_BUY and k < table.n
    options = [PASS] if table.scores[seat] < table.book.rules.modern_no_pass and not offered(table, k) else []
    options.append(0)
    if table.widow_taker == C.NO_SEAT and not in_round:
        options += list(TAKES)
    return options


def what_seat_knows(table, seat: int) -> Knowledge:
    """The piles of the cards ``seat`` has not seen at its turn: reads its own hand, the trump
    card and nothing of the others' cards (module docstring)."""
    n = table.n
    unknown = C.deck_mask(table.book.deck_size) & ~(C.mask_of(table.hand[seat]) | 1 << table.trump_card)
    piles = []
    for step in range(1, n):
        o = (seat + step) % n
        piles.append(Pile(o, C.HAND_SIZE - (1 if o == table.dealer else 0), unknown))
    piles.append(Pile(C.NO_SEAT, WIDOW_SIZE, unknown))  # the widow, or the cards its taker laid aside
    return Knowledge(unknown, piles)


def _imagined(table, seat: int, layout: list[int], knowledge: Knowledge, worlds: Worlds, rollout: PolicyKind,
              key: int):  # fmt: skip
    """The table as ``seat`` imagines it in one layout: its own cards and the public facts as
    they are, the others' hands (a taker's kept card drawn from the worlds' stream), the widow
    or the laid-aside cards from the last pile; every seat plays ``rollout``, keyed ``key``."""
    imagined = copy.copy(table)
    imagined.events = None
    imagined.deck_order = []
    for name in ("hand", "hand_dealt", "discards", "drawn", "hand_final"):
        setattr(imagined, name, [list(row) if s == seat else [] for s, row in enumerate(getattr(table, name))])
    last = C.cards_of(layout[-1])
    for pile, cards in zip(knowledge.piles[:-1], layout):
        o = pile.seat
        hand = sorted(C.cards_of(cards) + ([table.trump_card] if o == table.dealer else []))
        imagined.hand[o] = hand
        if table.widow_taker == o:
            kept = hand[worlds.below(C.HAND_SIZE)]
            imagined.drawn[o] = [c for c in hand if c != kept]
            imagined.discards[o] = list(last)
            imagined.hand_dealt[o] = sorted([kept] + last)
        else:
            imagined.hand_dealt[o] = list(hand)
    imagined.widow = list(last)
    imagined.passed = list(table.passed)
    imagined.plays = list(table.plays)
    imagined.specs = [PolicySpec(rollout)] * table.n  # the rollouts never search
    imagined.policies = [table.policy_of(PolicySpec(rollout), key, s) for s in range(table.n)]
    return imagined


def search_turn(table, k: int, seat: int) -> int | None:
    """The option of a ``pimc`` seat at step ``k`` of the turns (module docstring), or None for a
    seat that does not search, or when no world can be drawn (never expected)."""
    spec = table.specs[seat]
    if spec.kind != PolicyKind.PIMC:
        return None
    options = turn_options(table, k, seat)
    if len(options) == 1:
        return options[0]
    return _search_worlds(table, seat, WIDOW_DECISION if offered(table, k) else TURN_DECISION, options,
                          lambda rolled, key, option: deal_from(rolled, k, first_option=option))


def _search_worlds(table, seat: int, decision: int, options, play_out) -> int | None:
    """The one world loop of :func:`search_turn` and :func:`search_redeal`: each option played out
    (``play_out(table, world key, option)`` -> the sheet) in ``samples`` worlds; the option of the
    most total delta, or None when no world can be drawn."""
    samples, rollout, _ = pimc_parameters(table.specs[seat])
    knowledge = what_seat_knows(table, seat)
    worlds = Worlds(knowledge, table.key, seat, decision)
    if not worlds.any():
        return None
    totals = [0] * len(options)
    for j in range(samples):
        layout = worlds.draw()
        key = world_key(table.key, seat, decision, j)
        imagined = _imagined(table, seat, layout, knowledge, worlds, rollout, key)
        for i, option in enumerate(options):
            rolled = _copy_for_rollout(imagined, rollout, key)
            totals[i] += DELTA_SIGN * play_out(rolled, key, option).delta[seat]
    return options[min(range(len(options)), key=lambda i: (totals[i], i))]


def _copy_for_rollout(imagined, rollout: PolicyKind, key: int):
    """A fresh copy of an imagined table for one option's rollout (the turns change it), its
    players' coins keyed ``key`` anew (the same coins for every option)."""
    rolled = copy.copy(imagined)
    for name in ("hand", "hand_dealt", "discards", "drawn", "hand_final"):
        setattr(rolled, name, [list(row) for row in getattr(imagined, name)])
    rolled.widow = list(imagined.widow)
    rolled.passed = list(imagined.passed)
    rolled.plays = []
    rolled.policies = [imagined.policy_of(PolicySpec(rollout), key, s) for s in range(imagined.n)]
    return rolled


def rollout_redeal(table, key: int, redeals: int, k0: int, demand: bool):
    """The rest of an imagined deal from the redeal question of the ``k0``-th seat (``demand``:
    that seat demands a redeal, dealt at once), nobody searching; new dealings keyed
    ``deal_key(key, r)``. Returns the sheet."""
    if demand:
        redeals += 1
        new_key = int(deal_key(np.uint64(key), redeals))
        table.seed(new_key, shuffle(table.book, new_key))
        deal_cards(table)
        k0 = 0
    redeals_from(table, key, redeals, k0)
    return deal_from(table)


def search_redeal(table, k: int, seat: int) -> int | None:
    """0 (keep) or REDEAL for a ``pimc`` seat dealt five of one suit, the ``k``-th from the
    dealer's left (module docstring); None for a seat that does not search, or when no world
    can be drawn (never expected)."""
    spec = table.specs[seat]
    if spec.kind != PolicyKind.PIMC:
        return None
    redeals = table.redeals
    return _search_worlds(table, seat, REDEAL_DECISION, (0, REDEAL),
                          lambda rolled, key, option: rollout_redeal(rolled, key, redeals, k + 1, option == REDEAL))
