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


@dataclass(frozen=True)
class Seen:
    """What the seat had seen at a decision: the conditions of its truth.

    Card sets are int masks. ``counts``: each seat's pass (-1) or the number of cards he exchanged
    as the seat saw it, None for a seat whose turn had not come; ``intents``: every seat's R4.0a
    announcement (record.Intent codes); ``took_trump``: the dealer's R4.3 take once it was seen, else
    None; ``hand_final``: the seat's hand at the first lead once the play began; ``declarations``:
    every seat's (R5) once they were made; ``cards``: (trick, seat, card) of every card played before.
    """

    seat: int
    dealer: int
    trump_card: int
    stage: str
    hand_dealt: int
    discards: int = 0
    drawn: int = 0
    counts: tuple[int | None, ...] = ()
    intents: tuple[int, ...] | None = None
    took_trump: bool | None = None
    hand_final: int | None = None
    declarations: tuple[int, ...] | None = None
    cards: tuple[tuple[int, int, int], ...] = ()


def _order_before(dealer: int, n: int, seat: int) -> list[int]:
    """The seats that take their R4.0 turn before ``seat``, in turn order (from the dealer's left)."""
    order = [(dealer + 1 + k) % n for k in range(n)]
    return order[: order.index(seat)]


def seen_of(record: DealRecord, spot: Spot) -> Seen:
    """What ``spot.seat`` of ``record`` had seen at ``spot``."""
    n = len(record.passed)
    counts = [-1 if p else int(d).bit_count() for p, d in zip(record.passed, record.discards)]
    seat = spot.seat
    base = {"seat": seat, "dealer": record.dealer, "trump_card": record.trump_card, "stage": spot.stage,
            "hand_dealt": int(record.hand_dealt[seat])}  # fmt: skip
    if spot.stage == "exchange":
        before = set(_order_before(record.dealer, n, seat))
        return Seen(**base, counts=tuple(c if s in before else None for s, c in enumerate(counts)))
    later = {"discards": int(record.discards[seat]), "drawn": int(record.drawn[seat]), "counts": tuple(counts),
             "intents": tuple(int(i) for i in record.intent)}  # fmt: skip
    if spot.stage == "trump":
        return Seen(**base, **later)
    cards = []
    for t in range(spot.t + 1):
        trick = record.plays[t]
        seats = play_order(record, trick.leader)
        for s in seats[: spot.k] if t == spot.t else seats:
            cards.append((t, s, trick.cards[s]))
    return Seen(**base, **later, took_trump=bool(record.took_trump[record.dealer]),
                hand_final=int(record.hand_final[seat]), declarations=tuple(int(d) for d in record.declaration),
                cards=tuple(cards))  # fmt: skip


def deck_orders(rules: Rules, seen: Seen, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` deck orders (int8[count, deck_size]) uniform among those that give the seat what it
    saw in its R3 places: its dealt hand at cards 5i .. 5i + 4 (i its place from the dealer's left),
    the trump card at card 5n; after its exchange, the cards it drew at the talon places that follow
    the earlier seats' draws (their counts, R4.4). Where the earlier seats draw other counts the deal
    is not kept (:func:`truth_of` matches them), so placing by the seen counts loses nothing."""
    n = rules.players
    seat = seen.seat
    fixed = {C.HAND_SIZE * ((seat - seen.dealer - 1) % n) + j: c for j, c in enumerate(C.cards_of(seen.hand_dealt))}
    fixed[C.HAND_SIZE * n] = seen.trump_card
    if seen.drawn:
        before = _order_before(seen.dealer, n, seat)
        talon = C.HAND_SIZE * n + 1 + sum(max(0, seen.counts[s] or 0) for s in before)
        for j, c in enumerate(C.cards_of(seen.drawn)):
            fixed[talon + j] = c
    places = np.array(sorted(fixed), np.int64)
    free_places = np.array([p for p in range(rules.deck_size) if p not in fixed], np.int64)
    taken = set(fixed.values())
    rest = np.array([c for c in C.deck_cards(rules.deck_size).tolist() if c not in taken], np.int8)
    out = np.empty((count, rules.deck_size), np.int8)
    out[:, places] = np.array([fixed[p] for p in places], np.int8)
    out[:, free_places] = rest[np.argsort(rng.random((count, rest.size)), axis=1)]
    return out


def _matching(out, seen: Seen) -> np.ndarray:
    """bool[rows]: the rows of ``out`` (a branch of the seen decision) whose deal showed the seat
    everything it had seen before the decision."""
    keep = np.ones(len(out), bool)
    for s, c in enumerate(seen.counts):
        if c is not None:
            keep &= out.exchanged[:, s] == c
    if seen.stage == "exchange":
        return keep
    seat = seen.seat
    keep &= (out.discards == seen.discards) & (out.drawn == seen.drawn)  # its own exchange
    if seen.intents is not None:
        keep &= (out.intents == np.asarray(seen.intents, np.int8)[None, :]).all(axis=1)  # R4.0a (all NONE without it)
    if seen.took_trump is not None:
        keep &= out.took_trump_seats[:, seen.dealer] == int(seen.took_trump)  # R4.3, public
    if seen.hand_final is not None:
        keep &= out.hand_final == seen.hand_final  # its hand at the first lead (its own R4.3 card too)
    if seen.declarations is not None:
        others = [s for s in range(len(seen.declarations)) if s != seat]
        keep &= (out.declarations[:, others] == np.asarray(seen.declarations, np.int8)[others]).all(axis=1)  # R5
    for t, s, card in seen.cards:
        keep &= out.play_card[:, t, s] == card
    return keep


def truth_of(rules: Rules, record: DealRecord | None, spot: Spot, *, deals: int, seed: int = 0, model: str = "expert",
             rollout: str = "expert", orders: np.ndarray | None = None, seen: Seen | None = None) -> Truth:  # fmt: skip
    """Branch data of ``spot`` over ``deals`` deck orders (module docstring): the seat plays
    ``rollout`` (its option forced at the spot), the others ``model``. What the seat saw comes from
    ``record`` (:func:`seen_of`), or is ``seen`` (a position typed by hand, :func:`seen_at`).
    ``orders``: deck orders to use instead (int8[k, deck_size]; tests). Raises ValueError for a
    stage it does not answer."""
    from ..engine import simulate_branches

    if not GAMES[rules.game].r4_exchange or rules.exchange_order.value != "one-turn" or rules.intent_round:
        raise ValueError(f"the truth of a position is computed for one-turn classic deals only; preset "
                         f"{rules.preset} is not one yet")  # fmt: skip
    if spot.stage not in STAGES:
        raise ValueError(f"stage {spot.stage!r} has no truth yet; known: {', '.join(STAGES)}")
    n = rules.players
    if spot.stage == "play" and record is not None:
        if spot.t >= len(record.plays) or spot.k >= len(order := play_order(record, record.plays[spot.t].leader)):
            raise ValueError(f"the deal has no card {spot.k + 1} in trick {spot.t + 1}")
        if order[spot.k] != spot.seat:
            raise ValueError(f"card {spot.k + 1} of trick {spot.t + 1} is seat {order[spot.k]}'s, not seat {spot.seat}'s")
    if seen is None:
        seen = seen_of(record, spot)
    policies = [model] * n
    policies[spot.seat] = rollout
    decision = spot.decision()
    rng = np.random.default_rng([seed, spot.seat, spot.t, spot.k])
    blocks = []
    tried = 0
    total = deals if orders is None else len(orders)
    for first in range(0, total, CHUNK):
        count = min(CHUNK, total - first)
        batch = deck_orders(rules, seen, count, rng) if orders is None else orders[first:first + count]
        out = simulate_branches(rules, policies, seat=spot.seat, deals=count, dealer=seen.dealer, orders=batch,
                                seed=seed, first_deal=first, decision=decision, log_plays=spot.stage == "play")  # fmt: skip
        tried += count
        keep = _matching(out, seen)
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


def seen_at(rules: Rules, hand, trump_card, *, seat: int, dealer: int, exchanged: str = "", stage: str = "exchange") -> Seen:
    """What a seat saw at a position typed as for advise, before the play: ``hand`` its dealt hand
    (it stood where ``stage`` is ``trump``: the dealer's R4.3 card after standing), ``exchanged`` the
    seats' turns as advise's ``--exchanged`` (``"1=2,2=pass"``)."""
    from .notation import parse_exchanged

    given = parse_exchanged(exchanged, rules.players) if exchanged else {}
    counts = tuple((-1 if given[s] is None else given[s]) if s in given else None for s in range(rules.players))
    dealt = C.mask_of(C.parse_cards(hand) if isinstance(hand, str) else hand)
    card = C.parse(trump_card) if isinstance(trump_card, str) else trump_card
    if stage == "trump":
        counts = tuple(0 if s == seat else c for s, c in enumerate(counts))
        if any(c is None for c in counts):
            raise ValueError("the trump card's truth needs every seat's turn in --exchanged")
        return Seen(seat, dealer, card, "trump", dealt, counts=counts,
                    intents=tuple(-1 for _ in range(rules.players)))  # fmt: skip
    return Seen(seat, dealer, card, "exchange", dealt, counts=counts)
