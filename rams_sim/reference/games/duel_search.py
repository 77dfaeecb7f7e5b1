"""R9 ``duel``: policy ``pimc``'s search of the widow, duel-trump's card and dave (docs/SEARCH.md "duel").

The method is classic's (:mod:`..pimc`): what the seat knows becomes piles, ``samples``
worlds are drawn uniformly over their layouts (:class:`..pimc.Worlds`), every option is
played out in each world by the ``rollout`` policy at both seats, and the option of the
least total value is taken (ties: the first). A rollout is worth the party's outcome to
the seat (:func:`.duel.party_value`: -stake won, +stake lost, the party played on after a
deal that does not end it); a duel party is settled by its stake, not by points.

* The widow (0 stand, SWAP; decision 0, the phase of an exchange): the other hand and the
  widow, uniform over the cards the seat has not seen (its hand and the turned card);
  played out by :func:`.duel.deal_from` from the widow step.
* duel-trump's card (the dealer: his five cards ascending; decision 3, the R4.3 phase):
  the other hand, and, if the other swapped, the hand he laid aside: the first five of a
  shuffle of the rest (:meth:`..pimc.Worlds.shuffle`).
* Dave, before a card: the offerer's choice (0 pass, 1 offer) and the other's answer
  (0 decline, 1 accept), on the worlds of a card of the deciding seat at that point
  (:func:`..pimc.what_seat_knows`, :func:`..pimc.make_world`); an offer is answered in
  each world by the other's rollout player, a declined offer wins the party at the stake,
  and otherwise the play goes on from the card, its seat's rollout player choosing it.
  Decision numbers: :func:`dave_decision`, past every seat's own (the worlds are keyed as
  seat 0's).
* Each card: :func:`..pimc.search_card`, valued by :func:`.duel.card_rollout`.
"""

from __future__ import annotations

import copy

from ... import cards as C
from ...policies import PolicyKind
from ..exchange import PHASE_ROUND, PHASE_TRUMP
from ..pimc import (
    DECISIONS,
    Knowledge,
    Pile,
    World,
    Worlds,
    draw_world,
    imagined_sheet,
    imagined_table,
    what_seat_knows,
    world_key,
)
from ..play import play_from
from ..policy import pimc_parameters
from .duel import (
    DAVE_ACCEPT,
    DAVE_DECLINE,
    DAVE_OFFER,
    SWAP,
    TRUMP_STEP,
    answer_dave,
    dave_hook,
    deal_from,
    finish,
    party_value,
)

DAVE_DECISION = C.MAX_SEATS * DECISIONS  # dave decisions are numbered from here, past every seat's own numbers


def dave_decision(decider: int, t: int, answering: bool) -> int:
    """The decision number of ``decider``'s dave choice in trick ``t`` (an offer, or an answer)."""
    return DAVE_DECISION + (decider * C.N_TRICKS + t) * 2 + int(answering)


def widow_knowledge(table, seat: int) -> Knowledge:
    """What ``seat`` knows at its widow choice: its hand and the turned card. Piles: the other
    hand, the widow, the rest (unused in a duel), all over the unseen cards. Reads no other card."""
    unknown = C.deck_mask(table.book.deck_size) & ~(C.mask_of(table.hand[seat]) | 1 << table.trump_card)
    rest = unknown.bit_count() - 2 * C.HAND_SIZE
    return Knowledge(unknown, [Pile(1 - seat, C.HAND_SIZE, unknown), Pile(C.NO_SEAT, C.HAND_SIZE, unknown),
                               Pile(C.NO_SEAT, rest, unknown)])  # fmt: skip


def trump_knowledge(table) -> Knowledge:
    """What the dealer knows at duel-trump's card: his hand, the hand he laid aside if he swapped,
    the turned card. Piles: the other hand, the rest (where the other's laid-aside hand lies if he
    swapped). Reads who took the widow, no other card."""
    seat = table.dealer
    seen = C.mask_of(table.hand[seat]) | C.mask_of(table.discards[seat]) | 1 << table.trump_card
    unknown = C.deck_mask(table.book.deck_size) & ~seen
    return Knowledge(unknown, [Pile(1 - seat, C.HAND_SIZE, unknown),
                               Pile(C.NO_SEAT, unknown.bit_count() - C.HAND_SIZE, unknown)])  # fmt: skip


def _imagined(table, seat: int, rollout: PolicyKind, key: int, hands: dict, dealt: dict, discards: dict, drawn: dict,
              widow=None):  # fmt: skip
    """The table as ``seat`` imagines it before the play (:func:`..pimc.imagined_table`: its own cards
    and the public facts as they are, the other's cards from the world, every seat playing
    ``rollout`` keyed ``key``), with the world's widow and the party's cube its own copy."""
    imagined = imagined_table(table, World(hands, discards, dealt=dealt, drawn=drawn), seat, rollout, key)
    imagined.widow = sorted(widow) if widow is not None else list(table.widow)
    imagined.dave = copy.deepcopy(table.dave)
    return imagined


def _least(options, totals):
    return options[min(range(len(options)), key=lambda i: (totals[i], i))]


def search_widow(table, k: int, seat: int) -> int | None:
    """A ``pimc`` seat's widow option at widow step ``k`` (0 stand or SWAP; module docstring), or
    None for a seat that does not search, or when no world can be drawn (never expected)."""
    if table.specs[seat].kind != PolicyKind.PIMC:
        return None
    samples, rollout, _ = pimc_parameters(table.specs[seat])
    other = 1 - seat
    worlds = Worlds(widow_knowledge(table, seat), table.key, seat, PHASE_ROUND)
    if not worlds.any():
        return None
    options = (0, SWAP)
    totals = [0, 0]
    for j in range(samples):
        layout = worlds.draw()
        key = world_key(table.key, seat, PHASE_ROUND, j)
        theirs = C.cards_of(layout[0])
        for i, option in enumerate(options):
            imagined = _imagined(table, seat, rollout, key, {other: theirs}, {other: theirs}, {}, {},
                                 widow=C.cards_of(layout[1]))  # fmt: skip
            sheet = deal_from(imagined, k, option)
            totals[i] += party_value(imagined, sheet, seat, key, rollout)
    return _least(options, totals)


def search_trump(table) -> int | None:
    """duel-trump: the card a ``pimc`` dealer gives up for the trump card (module docstring), or
    None for a dealer who does not search, or when no world can be drawn (never expected)."""
    seat = table.dealer
    if table.specs[seat].kind != PolicyKind.PIMC:
        return None
    samples, rollout, _ = pimc_parameters(table.specs[seat])
    other = 1 - seat
    options = sorted(table.hand[seat])
    worlds = Worlds(trump_knowledge(table), table.key, seat, PHASE_TRUMP)
    if not worlds.any():
        return None
    swapped = table.widow_taker == other
    totals = [0] * len(options)
    for j in range(samples):
        layout = worlds.draw()
        key = world_key(table.key, seat, PHASE_TRUMP, j)
        theirs = C.cards_of(layout[0])
        dealt, discards, drawn = {other: theirs}, {}, {}
        if swapped:  # the hand he laid aside: five of the rest
            old = sorted(worlds.shuffle(layout[1])[: C.HAND_SIZE])
            dealt, discards, drawn = {other: old}, {other: old}, {other: theirs}
        for i, option in enumerate(options):
            imagined = _imagined(table, seat, rollout, key, {other: theirs}, dealt, discards, drawn)
            sheet = deal_from(imagined, TRUMP_STEP, option)
            totals[i] += party_value(imagined, sheet, seat, key, rollout)
    return _least(options, totals)


def _roll_dave(table, sheet, state, offerer: int, decider: int, option: int, key: int, rollout) -> int:
    """One dave option at an imagined table (``sheet`` its imagined sheet); its value to ``decider``."""
    if decider != offerer:  # the answer: accept or decline the offer made
        offer, answer = True, DAVE_ACCEPT if option == 1 else DAVE_DECLINE
    else:  # the offer: the other's rollout player answers it here
        offer, answer = option == DAVE_OFFER, None
    if offer and answer_dave(table, sheet, table.dave, offerer, state.trick, answer):
        return -table.dave.stake if offerer == decider else table.dave.stake  # declined: the offerer wins the party
    play_from(table, sheet, state.copy(), dave_hook(table, sheet), step_taken=True)
    finish(sheet)
    return party_value(table, sheet, decider, key, rollout)


def search_dave(table, sheet, state, offerer: int, decider: int) -> int | None:
    """A ``pimc`` seat's dave option before ``offerer``'s card (module docstring): the offerer's
    (``decider`` == ``offerer``: 0 pass, 1 offer) or the other's answer (0 decline, 1 accept);
    None for a seat that does not search, or when no world can be drawn (never expected)."""
    if table.specs[decider].kind != PolicyKind.PIMC:
        return None
    samples, rollout, _ = pimc_parameters(table.specs[decider])
    decision = dave_decision(decider, state.t, decider != offerer)
    knowledge = what_seat_knows(table, sheet, state, decider)
    worlds = Worlds(knowledge, table.key, 0, decision)
    if not worlds.any():
        return None
    totals = [0, 0]
    for j in range(samples):
        world = draw_world(table, sheet, state, knowledge, decider, worlds)
        key = world_key(table.key, 0, decision, j)
        for option in (0, 1):
            imagined = imagined_table(table, world, decider, rollout, key)
            imagined.dave = copy.deepcopy(table.dave)
            scored = imagined_sheet(table, sheet, world, decider)
            totals[option] += _roll_dave(imagined, scored, state, offerer, decider, option, key, rollout)
    return _least((0, 1), totals)
