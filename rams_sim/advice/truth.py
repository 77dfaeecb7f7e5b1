"""What an option of a position is worth in fact: branch data for a recorded decision (issue 45).

The *truth* of an option (CLARIFICATIONS "Advice whose intervals cover the truth"): the mean score
delta when the asking seat takes that option and then plays the rollout policy, the other seats the
model policy, on decks consistent with what the seat saw, kept where the others' history matches.
It is computed by rejection, which is exact under the model: deck orders are drawn uniformly
among those that give the seat the cards it saw in their R3 places (its dealt hand; the trump card;
after its exchange, the cards it drew at the talon places its turn reached), every deal is played
once per option of the decision (:func:`rams_sim.engine.simulate_branches`, the option forced), and
a deal counts only where everything the seat had seen before the decision happened again: every
earlier seat's pass or count (R4.1-R4.4), its own exchange, the dealer's R4.3 take, the R4.0a
announcements, the declarations (R5) and every card played before (R6). The others' hidden choices
(which cards they threw) are the model's, so the kept deals follow the posterior of a player who
knows that the others play the model.

Positions are :class:`Spot`: a decision a seat of a recorded deal took (:class:`rams_sim.record.
DealRecord`, with its play log). The classic family (R9 ``rams``: one-turn exchanges, the dealer's
trump card, every card) is covered; declare-then-buy's round and purchase and the R4.0a
announcement are not yet (:func:`truth_of` refuses them in words).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import cards as C
from ..decisions import CARD, EXCHANGE, TRUMP, BranchDecision
from ..games import GAMES
from ..record import DealRecord, Outcome
from ..rules import Rules
from .position import play_order

Z95 = 1.959963984540054
CHUNK = 20_000  # deck orders per branch call
STAGES = ("exchange", "trump", "play")  # the stages of tests/questions.py that truth_of answers


@dataclass(frozen=True)
class Spot:
    """A decision of a recorded deal: ``seat`` at ``stage`` (exchange, trump, play), for a card the
    ``k``-th card (0-based) of trick ``t``."""

    seat: int
    stage: str
    t: int = 0
    k: int = 0

    def decision(self) -> BranchDecision:
        """The branch decision this spot forces."""
        if self.stage == "exchange":
            return BranchDecision(EXCHANGE)
        if self.stage == "trump":
            return BranchDecision(TRUMP)
        return BranchDecision(CARD, self.t)


@dataclass(frozen=True)
class Truth:
    """Branch data of a spot: per kept deal, each option's delta.

    ``options`` int[m]: the options in branch codes (the exchange's -1 pass, 0 stand, masks over the
    dealt cards ascending; the trump card's -1 decline or the card given up; a card's id);
    ``values`` float64[kept, m]: the seat's delta with that option in that deal (NaN where it was not
    open); ``remiz`` bool[kept, m]: a played deal without a trick (R7.2); ``tried``: deck orders drawn.
    """

    spot: Spot
    options: np.ndarray
    values: np.ndarray
    remiz: np.ndarray
    tried: int

    @property
    def kept(self) -> int:
        return int(self.values.shape[0])

    def n(self, option: int) -> int:
        """Kept deals in which ``option`` was open."""
        return int(np.isfinite(self._column(option)).sum())

    def _column(self, option: int) -> np.ndarray:
        where = np.flatnonzero(self.options == option)
        return self.values[:, where[0]] if where.size else np.full(self.kept, np.nan)

    def mean(self, option: int) -> tuple[float, float, int]:
        """(mean delta, its standard error, n) of ``option`` over the kept deals it was open in."""
        x = self._column(option)
        x = x[np.isfinite(x)]
        if x.size == 0:
            return math.nan, math.nan, 0
        se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else math.nan
        return float(x.mean()), se, int(x.size)

    def diff(self, option: int, other: int) -> tuple[float, float, int]:
        """(mean of ``option`` - ``other``, its standard error, n) over the kept deals both were open in:
        paired, the same deals."""
        d = self._column(option) - self._column(other)
        d = d[np.isfinite(d)]
        if d.size == 0:
            return math.nan, math.nan, 0
        se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else math.nan
        return float(d.mean()), se, int(d.size)


def _counts(record: DealRecord) -> list[int]:
    """Each seat's exchange as the table saw it: -1 passed, else how many cards he exchanged."""
    return [-1 if p else int(d).bit_count() for p, d in zip(record.passed, record.discards)]


def _order_before(record: DealRecord, seat: int) -> list[int]:
    """The seats that take their R4.0 turn before ``seat``, in turn order (from the dealer's left)."""
    n = len(record.passed)
    order = [(record.dealer + 1 + k) % n for k in range(n)]
    return order[: order.index(seat)]


def deck_orders(rules: Rules, record: DealRecord, spot: Spot, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` deck orders (int8[count, deck_size]) uniform among those that give ``spot.seat`` what it
    saw in its R3 places: its dealt hand at cards 5i .. 5i + 4 (i its place from the dealer's left),
    the trump card at card 5n; after its exchange, the cards it drew at the talon places that follow
    the earlier seats' draws (their counts, R4.4). Where the earlier seats draw other counts the deal
    is not kept (:func:`truth_of` matches them), so placing by the recorded counts loses nothing."""
    n = rules.players
    seat = spot.seat
    fixed = {C.HAND_SIZE * ((seat - record.dealer - 1) % n) + j: c for j, c in enumerate(C.cards_of(record.hand_dealt[seat]))}
    fixed[C.HAND_SIZE * n] = record.trump_card
    if spot.stage != "exchange" and not record.passed[seat]:
        counts = _counts(record)
        talon = C.HAND_SIZE * n + 1 + sum(max(0, counts[s]) for s in _order_before(record, seat))
        for j, c in enumerate(C.cards_of(record.drawn[seat])):
            fixed[talon + j] = c
    places = np.array(sorted(fixed), np.int64)
    free_places = np.array([p for p in range(rules.deck_size) if p not in fixed], np.int64)
    taken = set(fixed.values())
    rest = np.array([c for c in C.deck_cards(rules.deck_size).tolist() if c not in taken], np.int8)
    out = np.empty((count, rules.deck_size), np.int8)
    out[:, places] = np.array([fixed[p] for p in places], np.int8)
    out[:, free_places] = rest[np.argsort(rng.random((count, rest.size)), axis=1)]
    return out


def _seen_before(record: DealRecord, spot: Spot) -> tuple[list[int], list[tuple[int, int, int]]]:
    """What the seat had seen of the others' R4 choices (the seats whose counts it saw) and of the
    play: (seats, [(trick, seat, card)]) before the decision."""
    n = len(record.passed)
    if spot.stage == "exchange":
        return _order_before(record, spot.seat), []
    cards = []
    if spot.stage == "play":
        for t in range(spot.t + 1):
            trick = record.plays[t]
            seats = play_order(record, trick.leader)
            for s in seats[: spot.k] if t == spot.t else seats:
                cards.append((t, s, trick.cards[s]))
    return list(range(n)), cards


def _matching(out, record: DealRecord, spot: Spot) -> np.ndarray:
    """bool[rows]: the rows of ``out`` (a branch of ``spot``'s decision) whose deal showed the seat
    everything ``record`` had shown it before the decision."""
    seats, cards = _seen_before(record, spot)
    counts = _counts(record)
    keep = np.ones(len(out), bool)
    for s in seats:
        keep &= out.exchanged[:, s] == counts[s]
    if spot.stage == "exchange":
        return keep
    seat, dealer = spot.seat, record.dealer
    keep &= (out.discards == record.discards[seat]) & (out.drawn == record.drawn[seat])  # its own exchange
    keep &= (out.intents == np.asarray(record.intent, np.int8)[None, :]).all(axis=1)  # R4.0a (all NONE without it)
    if spot.stage == "trump":
        return keep
    keep &= out.took_trump_seats[:, dealer] == int(record.took_trump[dealer])  # R4.3, public
    keep &= out.hand_final == record.hand_final[seat]  # its hand at the first lead (its own R4.3 card too)
    others = [s for s in range(len(record.passed)) if s != seat]
    keep &= (out.declarations[:, others] == np.asarray(record.declaration, np.int8)[others]).all(axis=1)  # R5
    for t, s, card in cards:
        keep &= out.play_card[:, t, s] == card
    return keep


def truth_of(rules: Rules, record: DealRecord, spot: Spot, *, deals: int, seed: int = 0, model: str = "expert",
             rollout: str = "expert", orders: np.ndarray | None = None) -> Truth:  # fmt: skip
    """Branch data of ``spot`` over ``deals`` deck orders (module docstring): the seat plays
    ``rollout`` (its option forced at the spot), the others ``model``. ``orders``: deck orders to
    use instead (int8[k, deck_size]; tests). Raises ValueError for a stage it does not answer."""
    from ..engine import simulate_branches

    if not GAMES[rules.game].r4_exchange or rules.exchange_order.value != "one-turn" or rules.intent_round:
        raise ValueError(f"the truth of a position is computed for one-turn classic deals only; preset "
                         f"{rules.preset} is not one yet")  # fmt: skip
    if spot.stage not in STAGES:
        raise ValueError(f"stage {spot.stage!r} has no truth yet; known: {', '.join(STAGES)}")
    n = rules.players
    if spot.stage == "play":
        if spot.t >= len(record.plays) or spot.k >= len(order := play_order(record, record.plays[spot.t].leader)):
            raise ValueError(f"the deal has no card {spot.k + 1} in trick {spot.t + 1}")
        if order[spot.k] != spot.seat:
            raise ValueError(f"card {spot.k + 1} of trick {spot.t + 1} is seat {order[spot.k]}'s, not seat {spot.seat}'s")
    policies = [model] * n
    policies[spot.seat] = rollout
    decision = spot.decision()
    rng = np.random.default_rng([seed, spot.seat, spot.t, spot.k])
    blocks = []
    tried = 0
    total = deals if orders is None else len(orders)
    for first in range(0, total, CHUNK):
        count = min(CHUNK, total - first)
        batch = deck_orders(rules, record, spot, count, rng) if orders is None else orders[first:first + count]
        out = simulate_branches(rules, policies, seat=spot.seat, deals=count, dealer=record.dealer, orders=batch,
                                seed=seed, first_deal=first, decision=decision, log_plays=spot.stage == "play")  # fmt: skip
        tried += count
        keep = _matching(out, record, spot)
        remiz = (~out.passed) & (out.tricks == 0) & (out.outcome == Outcome.PLAYED)
        blocks.append((out.deal[keep], out.option[keep].astype(np.int64), out.delta[keep].astype(np.float64),
                       remiz[keep]))  # fmt: skip
    deal = np.concatenate([b[0] for b in blocks])
    option = np.concatenate([b[1] for b in blocks])
    delta = np.concatenate([b[2] for b in blocks])
    remiz = np.concatenate([b[3] for b in blocks])
    options = np.unique(option)
    kept, row = np.unique(deal, return_inverse=True)
    col = np.searchsorted(options, option)
    values = np.full((kept.size, options.size), np.nan)
    values[row, col] = delta
    rz = np.zeros((kept.size, options.size), bool)
    rz[row, col] = remiz
    return Truth(spot, options, values, rz, tried)
