"""R9 ``zone``: policy ``pimc``'s search, the partner's swap and each card (docs/SEARCH.md "zone").

The method is classic's (:mod:`..pimc`): what the seat knows becomes piles, ``samples``
worlds are drawn uniformly over their layouts (:class:`..pimc.Worlds`, on the shared
sampler), each option is played out in every world by the ``rollout`` policy at both
seats (:func:`.zone.deal_from` from the swap, :func:`.zone.play_from` from a card), and
the least total delta wins (ties: stand before swap, the lowest card). Keys: decision 0
(the phase of an exchange) for the swap, 8 + t at a card of trick t.

What a zone seat knows: its own cards (a partner who swapped, his old hand too: it lies in
the stock), the turned card, every card played and by whom, whether the partner swapped.
Play has no duty to follow (no card shows a void); only the first lead tells something,
under ``zone_lead=duty``: :func:`first_lead_facts` keeps each holding of the trump A, K
and Q by the other seat under which :func:`.zone.first_lead` names the leader seen and a
duty his lead obeys. Under ``zone_finish=trick`` a world whose other hand holds aces that
would have left him at exactly 0 after a trick already played is drawn again
(:func:`stopped_before`), as one that deals him a rams.
"""

from __future__ import annotations

import copy

from ... import cards as C
from ...kernels.worlds import MAX_DRAWS
from ...policies import PolicyKind, PolicySpec
from ..bits import JACK_PAIRS, TRUMP_HONOURS, rams_suit
from ..pimc import CARD_DECISION, MARRIAGE, Knowledge, Pile, Race, Worlds, world_key
from ..policy import pimc_parameters, pimc_race
from .zone import (
    N_PLAYERS,
    SWAP,
    WIDOW_SIZE,
    ZonePlay,
    ace_value,
    aces_of,
    counted_jacks,
    deal_from,
    finish,
    first_lead,
    play_from,
    zone_policy,
)

SWAP_DECISION = 0  # the swap's decision number: the phase of an exchange (codes.PHASE_ROUND)


def rollout_value(sheet, seat: int, weight: int) -> int:
    """A rollout's value to ``seat`` (the least is the best): its delta, plus ``weight`` points
    (pimc's ``prokat_weight``) if it pays the прокат, which is money and not in the delta."""
    return sheet.delta[seat] + (weight if sheet.prokat[seat] else 0)


def played_cards(table, state: ZonePlay, seat: int) -> list[int]:
    """The cards ``seat`` played so far (the tricks done, and the trick under way)."""
    cards = [trick.cards[seat] for trick in table.plays]
    order = (state.leader, 1 - state.leader)
    cards += [card for i, card in enumerate(state.trick) if order[i] == seat]
    return cards


def first_lead_facts(table, seat: int, mine: list[int], theirs: list[int], unknown: int, leader: int,
                     first: int | None, duty) -> tuple[set[int], set[int], bool, bool]:  # fmt: skip
    """What the first lead shows of the other seat's trump A, K and Q: (cards he cannot
    hold, cards he must hold, whether he cannot hold both K and Q, whether any holding fits),
    from every holding of the three that agrees with what is known and under which
    :func:`.zone.first_lead` names ``leader`` and a duty that ``first`` obeys (``first`` None:
    the seat leads now, and its duty is ``duty``)."""
    rules = table.book.rules
    other = 1 - seat
    ace, king, queen, _ = TRUMP_HONOURS[table.trump]
    honours = (ace, king, queen)
    holdings = []
    for combo in range(8):
        held = [c for i, c in enumerate(honours) if combo >> i & 1]
        if any(c not in theirs and not (unknown >> c & 1) for c in held):
            continue  # he cannot hold a card seen elsewhere
        if any(c in theirs for c in honours if c not in held):
            continue  # he held what he played
        hands = [[], []]
        hands[seat] = list(mine)
        hands[other] = sorted(set(theirs) | set(held))
        lead, lead_duty = first_lead(rules, hands, table.trump_card, table.seats[0])
        if lead != leader:
            continue
        if first is None:
            if sorted(lead_duty or []) != sorted(duty or []):
                continue
        elif lead_duty and first not in lead_duty:
            continue
        holdings.append(set(held))
    if not holdings:
        return set(), set(), False, False  # an impossible history: no world (as the kernels)
    cannot = {c for c in honours if unknown >> c & 1 and all(c not in h for h in holdings)}
    must = {c for c in honours if unknown >> c & 1 and all(c in h for h in holdings)}
    free = all(any((c in h) == x for h in holdings) for c in (king, queen) for x in (False, True))
    both = any(king in h and queen in h for h in holdings)
    pair = bool(unknown >> king & 1 and unknown >> queen & 1 and free and not both)
    return cannot, must, pair, True


def what_seat_knows(table, state: ZonePlay, seat: int) -> Knowledge:
    """The piles at ``seat``'s card: the other hand (its cards left), then the free pile (the
    widow or the old hand, and the stock); the trump K and Q as the one pair constraint."""
    other = 1 - seat
    played = [c for trick in table.plays for c in trick.cards if c != C.NO_CARD] + list(state.trick)
    mine = played_cards(table, state, seat)
    theirs = played_cards(table, state, other)
    seen = C.mask_of(table.hand[seat] + mine + table.discards[seat] + played + [table.trump_card])
    unknown = C.mask_of(table.book.deck) & ~seen
    cap = C.N_TRICKS - len(theirs)
    cannot, must, pair, fits = set(), set(), False, True
    if table.book.rules.zone_lead == "duty":
        if state.t == 0 and not state.trick:
            leader, first = seat, None
        elif table.plays:
            leader = table.plays[0].leader
            first = table.plays[0].cards[leader]
        else:
            leader, first = state.leader, state.trick[0]
        cannot, must, pair, fits = first_lead_facts(table, seat, table.hand[seat] + mine, theirs, unknown, leader,
                                                    first, state.duty)  # fmt: skip
    _, king, queen, _ = TRUMP_HONOURS[table.trump]
    allowed = unknown if fits else 0  # a first lead no holding explains: no world
    piles = [
        Pile(other, cap, allowed & ~C.mask_of(cannot), {MARRIAGE} if pair else set()),
        Pile(-1, unknown.bit_count() - cap, allowed & ~C.mask_of(must)),
    ]
    return Knowledge(unknown, piles, None, pairs=((king, queen),))


def stopped_before(table, aces) -> bool:
    """Whether, under ``zone_finish=trick``, a trick already played (``table.plays``) left a
    player at exactly 0 with A ``aces`` (by seat): the deal would have stopped there, so a
    world giving the other hand such aces is drawn again."""
    rules = table.book.rules
    if rules.zone_finish != "trick":
        return False
    won, pair_tricks, tricks = [[], []], [0, 0], [0, 0]
    for trick in table.plays:
        won[trick.winner] += list(trick.cards)
        pair_tricks[trick.winner] += any(set(trick.cards) == {a, b} for a, b in JACK_PAIRS)
        tricks[trick.winner] += 1
        counted, _ = counted_jacks(rules, table.trump, won, pair_tricks)
        if any(tricks[s] >= 1 and tricks[s] + counted[s] + aces[s] == table.scores[s] for s in range(N_PLAYERS)):
            return True
    return False


def _imagined(table, seat: int, rollout: PolicyKind, key: int):
    """The table as ``seat`` imagines it: its own cards and the public ones as they are,
    nothing of the other's (the world fills his hand); both seats play ``rollout``."""
    imagined = copy.copy(table)
    imagined.events = None
    imagined.deck_order = []
    other = 1 - seat
    for name in ("hand", "hand_dealt", "discards", "drawn", "hand_final"):
        rows = [list(row) for row in getattr(table, name)]
        rows[other] = []
        setattr(imagined, name, rows)
    imagined.widow = []
    imagined.plays = list(table.plays)
    imagined.specs = [PolicySpec(rollout)] * N_PLAYERS  # the rollouts never search
    imagined.policies = [zone_policy(PolicySpec(rollout), key, s) for s in range(N_PLAYERS)]
    return imagined


def search_card(table, sheet, state: ZonePlay, seat: int, legal: list[int]) -> int | None:
    """The card a ``pimc`` seat plays (module docstring), or None for a seat that does not search."""
    if table.specs[seat].kind != PolicyKind.PIMC:
        return None
    if len(legal) == 1:
        return legal[0]
    samples, rollout, weight = pimc_parameters(table.specs[seat])
    knowledge = what_seat_knows(table, state, seat)
    decision = CARD_DECISION + state.t
    worlds = Worlds(knowledge, table.key, seat, decision)
    if not worlds.any():
        return legal[0]  # an impossible history (tests pin that this never happens)
    race = Race(len(legal), pimc_race(table.specs[seat]))
    other = 1 - seat
    before = played_cards(table, state, other)
    for j in range(samples):
        for _ in range(MAX_DRAWS):  # R5.2-R5.4: a rams would have ended the deal before the play
            layout = worlds.draw()
            held = sorted(C.cards_of(layout[0]) + before)  # his hand at the first lead
            aces = [0, 0]
            aces[seat], aces[other] = aces_of(table, seat), ace_value(table.book.rules, held)
            if rams_suit(held) < 0 and not stopped_before(table, aces):  # zone_finish=trick: nor stopped at 0
                break
        key = world_key(table.key, seat, decision, j)
        values = {}
        for i, card in enumerate(legal):
            if not race.alive[i]:
                continue  # racing (docs/SEARCH.md): an option dropped gets no more rollouts
            imagined = _imagined(table, seat, rollout, key)
            imagined.hand[other] = C.cards_of(layout[0])
            imagined.hand_final[other] = held
            scored = copy.copy(sheet)
            for name in ("won", "pair_tricks", "tricks", "jacks", "declaration", "delta", "overshoot", "prokat",
                         "scores"):  # fmt: skip
                value = getattr(sheet, name)
                setattr(scored, name, [list(v) for v in value] if name == "won" else list(value))
            play_from(imagined, scored, state.copy(), forced=card)
            finish(imagined, scored)
            values[i] = rollout_value(scored, seat, weight)
        if race.add(values, j + 1) == 1:
            break  # one option left
    return legal[race.best()]  # the least value is the best


def search_swap(table) -> int | None:
    """A ``pimc`` partner's swap: 0 (stand) or SWAP, or None for a partner who does not
    search. Worlds: the dealer's hand and the widow, uniform over the unseen cards."""
    seat = table.seats[0]
    if table.specs[seat].kind != PolicyKind.PIMC:
        return None
    samples, rollout, weight = pimc_parameters(table.specs[seat])
    dealer = 1 - seat
    unknown = C.mask_of(table.book.deck) & ~C.mask_of(table.hand[seat] + [table.trump_card])
    size = unknown.bit_count()
    piles = [Pile(dealer, C.HAND_SIZE, unknown), Pile(-1, WIDOW_SIZE, unknown),
             Pile(-1, size - C.HAND_SIZE - WIDOW_SIZE, unknown)]  # fmt: skip
    worlds = Worlds(Knowledge(unknown, piles), table.key, seat, SWAP_DECISION)
    if not worlds.any():
        return None
    options = [0, SWAP]
    totals = [0, 0]
    for j in range(samples):
        layout = worlds.draw()
        key = world_key(table.key, seat, SWAP_DECISION, j)
        for i, option in enumerate(options):
            imagined = _imagined(table, seat, rollout, key)
            imagined.hand[dealer] = C.cards_of(layout[0])
            imagined.hand_dealt[dealer] = C.cards_of(layout[0])
            imagined.widow = C.cards_of(layout[1])
            totals[i] += rollout_value(deal_from(imagined, option), seat, weight)
    return options[min(range(2), key=lambda i: (totals[i], i))]
