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
DealRecord`, with its play log). Covered: the classic family (R9 ``rams``: one-turn exchanges or
declare-then-buy's round and purchase, the R4.0a announcement, the dealer's trump card, every card)
and the R9 games whose advice module lays out its deal (``deal_places``: zone's swap and every card,
modern's every card). Duel is not: its branch rows do not say before which card a dave was offered,
so a deal cannot be kept for "nobody offered dave before this card" (:func:`not_answered` says so in words).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import cards as C
from ..decisions import BUY, CARD, EXCHANGE, INTENT, ROUND, TRUMP, BranchDecision
from ..games import GAMES
from ..record import DealRecord, Outcome
from ..rules import Rules
from .position import advice_module, hand_places, play_order

CHUNK = 20_000  # deck orders per branch call
STAGES = ("exchange", "round", "intent", "buy", "trump", "swap", "play")  # the stages of .questions truth_of answers
DEAL_DECISIONS = {"exchange": EXCHANGE, "swap": EXCHANGE, "round": ROUND, "intent": INTENT, "buy": BUY, "trump": TRUMP}
PLAYED = -2  # a seat's entry in Seen.counts: he played (did not pass), his count not seen (R4.0's first round, R9)


@dataclass(frozen=True)
class Spot:
    """A decision of a recorded deal: ``seat`` at ``stage`` (one of :data:`STAGES`; zone's swap is its
    exchange), for a card the ``k``-th card (0-based) of trick ``t``."""

    seat: int
    stage: str
    t: int = 0
    k: int = 0

    def decision(self) -> BranchDecision:
        """The branch decision this spot forces."""
        if self.stage == "play":
            return BranchDecision(CARD, self.t)
        return BranchDecision(DEAL_DECISIONS[self.stage])


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
    as the seat saw it, :data:`PLAYED` where it saw only that he played (R4.0's first round; the R9
    games' turns), None for a seat whose turn had not come; ``intents``: each seat's R4.0a
    announcement (record.Intent codes), None for one not yet made; ``took_trump``: the dealer's R4.3
    take once it was seen, else None; ``widow``: the seat that took the widow (R9; -1 none) once the
    turns were seen; ``hand_final``: the seat's hand at the first lead once the play began;
    ``declarations``: every seat's (R5) once they were made; ``cards``: (trick, seat, card) of every
    card played before.
    """

    seat: int
    dealer: int
    trump_card: int
    stage: str
    hand_dealt: int
    discards: int = 0
    drawn: int = 0
    counts: tuple[int | None, ...] = ()
    intents: tuple[int | None, ...] | None = None
    took_trump: bool | None = None
    widow: int | None = None
    hand_final: int | None = None
    declarations: tuple[int, ...] | None = None
    cards: tuple[tuple[int, int, int], ...] = ()


def _order_before(dealer: int, n: int, seat: int) -> list[int]:
    """The seats that take their R4.0 turn before ``seat``, in turn order (from the dealer's left)."""
    order = [(dealer + 1 + k) % n for k in range(n)]
    return order[: order.index(seat)]


def seen_of(rules: Rules, record: DealRecord, spot: Spot) -> Seen:
    """What ``spot.seat`` of ``record`` had seen at ``spot`` under ``rules``."""
    n = rules.players
    r4 = GAMES[rules.game].r4_exchange
    played = [-1 if p else PLAYED for p in record.passed]
    counts = [-1 if p else int(d).bit_count() for p, d in zip(record.passed, record.discards)] if r4 else played
    seat = spot.seat
    base = {"seat": seat, "dealer": record.dealer, "trump_card": record.trump_card, "stage": spot.stage,
            "hand_dealt": int(record.hand_dealt[seat])}  # fmt: skip
    before = set(_order_before(record.dealer, n, seat))
    if spot.stage in ("exchange", "round", "swap"):  # its first turn: the earlier seats' turns (R4.0, R9)
        shown = counts if spot.stage == "exchange" else played
        return Seen(**base, counts=tuple(c if s in before else None for s, c in enumerate(shown)))
    intents = tuple(int(i) for i in record.intent)
    if spot.stage in ("intent", "buy"):  # R4.0: every seat's play or pass; the earlier active seats' turn
        active = {s for s in before if not record.passed[s]}
        if spot.stage == "intent":
            return Seen(**base, counts=tuple(played), intents=tuple(i if s in active else None for s, i in enumerate(intents)))
        return Seen(**base, counts=tuple(c if s in active else p for s, (c, p) in enumerate(zip(counts, played))),
                    intents=intents)  # fmt: skip
    later = {"discards": int(record.discards[seat]), "drawn": int(record.drawn[seat]), "counts": tuple(counts),
             "intents": intents, "widow": None if r4 else int(record.widow)}  # fmt: skip
    if spot.stage == "trump":
        return Seen(**base, **later)
    cards = []
    for t in range(spot.t + 1):
        trick = record.plays[t]
        seats = play_order(record, trick.leader)
        for s in seats[: spot.k] if t == spot.t else seats:
            cards.append((t, s, trick.cards[s]))
    return Seen(**base, **later, took_trump=bool(record.took_trump[record.dealer]) if r4 else None,
                hand_final=int(record.hand_final[seat]), declarations=tuple(int(d) for d in record.declaration),
                cards=tuple(cards))  # fmt: skip


def r3_places(rules: Rules, dealer: int) -> tuple[list[list[int]], int, list[int]]:
    """R3's layout of the deck order: seat (dealer + 1 + i) mod n gets cards 5i .. 5i + 4, the trump card
    is card 5n and the talon follows it, drawn in turn (R4.4). Returns (each seat's places, the trump
    card's place, the talon's places in drawing order). A game of R9 that deals otherwise has its own
    ``deal_places`` in its advice module (the widow's places in place of the talon's)."""
    n = rules.players
    return hand_places(n, dealer), C.HAND_SIZE * n, list(range(C.HAND_SIZE * n + 1, rules.deck_size))


def deal_places(rules: Rules, dealer: int) -> tuple[list[list[int]], int, list[int]]:
    """The layout of ``rules``' deal (:func:`r3_places`, or the game's advice module's ``deal_places``)."""
    return getattr(advice_module(rules), "deal_places", r3_places)(rules, dealer)


def deck_orders(rules: Rules, seen: Seen, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` deck orders (int8[count, deck_size]) uniform among those that give the seat what it
    saw in its places of the deal (:func:`deal_places`; R3: its dealt hand at cards 5i .. 5i + 4, i its
    place from the dealer's left, the trump card at card 5n): the trump card at its place (modern's is
    the dealer's last card, so it may lie among the seat's own), the rest of its dealt hand at its
    other places; after its exchange, the cards it drew at the talon places that follow the earlier
    seats' draws (their counts, R4.4; an R9 widow is taken whole, from its first place). Where the
    earlier seats draw other counts the deal is not kept (:func:`truth_of` matches them), so placing
    by the seen counts loses nothing."""
    n = rules.players
    seat = seen.seat
    hands, trump_at, talon_at = deal_places(rules, seen.dealer)
    fixed = {trump_at: seen.trump_card}
    own = [p for p in hands[seat] if p not in fixed]
    fixed |= dict(zip(own, [c for c in C.cards_of(seen.hand_dealt) if c != seen.trump_card]))
    if seen.drawn:
        before = _order_before(seen.dealer, n, seat)
        talon = sum(max(0, seen.counts[s] or 0) for s in before)
        for j, c in enumerate(C.cards_of(seen.drawn)):
            fixed[talon_at[talon + j]] = c
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
    keep = (out.hand_dealt == seen.hand_dealt) & (out.trump_card == seen.trump_card)  # not where R9 modern redealt
    for s, c in enumerate(seen.counts):
        if c == PLAYED:
            keep &= out.exchanged[:, s] != -1
        elif c is not None:
            keep &= out.exchanged[:, s] == c
    for s, i in enumerate(seen.intents or ()):
        if i is not None:
            keep &= out.intents[:, s] == i  # R4.0a (all NONE without it)
    if seen.stage in ("exchange", "round", "swap", "intent", "buy"):
        return keep
    seat = seen.seat
    keep &= (out.discards == seen.discards) & (out.drawn == seen.drawn)  # its own exchange
    if seen.widow is not None:
        keep &= out.widow == seen.widow  # R9: who took the widow (or swapped with it), public
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


def not_answered(rules: Rules) -> str | None:
    """Why the truth of ``rules``' positions is not computed, in one line, or None where it is (the
    classic family, and the R9 games whose advice module lays out the deal: module docstring)."""
    if GAMES[rules.game].r4_exchange or hasattr(advice_module(rules), "deal_places"):
        return None
    return (f"the truth of a position is not computed for preset {rules.preset} yet: the {rules.game.value} game's "
            "deal is not laid out for it (docs/SEARCH.md, 'Does the advice hold?')")


def truth_of(rules: Rules, record: DealRecord | None, spot: Spot, *, deals: int, seed: int = 0, model: str = "expert",
             rollout: str = "expert", orders: np.ndarray | None = None, seen: Seen | None = None) -> Truth:  # fmt: skip
    """Branch data of ``spot`` over ``deals`` deck orders (module docstring): the seat plays
    ``rollout`` (its option forced at the spot), the others ``model``. What the seat saw comes from
    ``record`` (:func:`seen_of`), or is ``seen`` (a position typed by hand, :func:`seen_at`).
    ``orders``: deck orders to use instead (int8[k, deck_size]; tests). Raises ValueError for a
    stage it does not answer."""
    from ..engine import simulate_branches

    if (why := not_answered(rules)) is not None:
        raise ValueError(why)
    if spot.stage not in STAGES:
        raise ValueError(f"stage {spot.stage!r} has no truth yet; known: {', '.join(STAGES)}")
    n = rules.players
    if spot.stage == "play" and record is not None:
        if spot.t >= len(record.plays) or spot.k >= len(order := play_order(record, record.plays[spot.t].leader)):
            raise ValueError(f"the deal has no card {spot.k + 1} in trick {spot.t + 1}")
        if order[spot.k] != spot.seat:
            raise ValueError(f"card {spot.k + 1} of trick {spot.t + 1} is seat {order[spot.k]}'s, not seat {spot.seat}'s")
    if seen is None:
        seen = seen_of(rules, record, spot)
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
