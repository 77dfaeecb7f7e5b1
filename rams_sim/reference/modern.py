"""R9 ``modern`` ([004] "Рамс современный") in plain Python: docs/VARIANTS.md, section "modern".

Four players, 24 cards dealt completely (5 each and a 4-card widow), the dealer's last
card shows the trump suit, a redeal for a dealt five-suit, one turn each (pass, play,
or take the widow blind keeping one card), counting up to 20 with the рожки, a jack pair
adding 5 with a trick, four jacks winning. The play of the tricks is the classic one
(:meth:`DealTable.play`, R6); only the deal, the turns and the scoresheet are this
game's own.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .. import cards as C
from ..kernels.rng import deal_key, deck_order
from ..policies import PARAMS_BY_KIND
from ..record import DealRecord, Declaration, EndKind, Outcome, PartyRecord
from ..rules import ModernHorns, ModernSettle
from .deal import DealTable
from .declare import counted_jack_kind
from .policy import POLICY_CLASSES, RandomPolicy
from .tables import FOUR_JACKS_KIND, SUIT, jack_kind, rams_suit, rule_book

MAX_REDEALS = 10  # VARIANTS.md: after 10 redeals the right to a redeal lapses
WIDOW_SIZE = 4  # [004]: "4 карты откладываются в прикуп"


# ---- the policies' decisions in this game (policies.py, VARIANTS.md "Policies") ---------
def widow_threshold(policy) -> float:
    """basic-like kinds: ``modern_widow_threshold`` of the seat's spec."""
    spec = policy.spec
    return float(spec.params.get("modern_widow_threshold", PARAMS_BY_KIND[spec.kind]["modern_widow_threshold"]))


def wants_redeal(policy, hand, trump) -> bool:
    """A seat dealt five of one suit: random flips a coin; the others demand one unless they are trumps."""
    if isinstance(policy, RandomPolicy):
        return policy.draw(2) == 1
    return rams_suit(hand) != trump


def choose_turn(policy, hand, trump, may_pass: bool, widow_open: bool) -> tuple[str, int]:
    """One turn: ("pass", -1), ("stand", -1) or ("take", kept card)."""
    if isinstance(policy, RandomPolicy):
        # the pass coin first (where a pass is allowed), then the widow coin, then the kept card
        if may_pass and policy.draw(2) == 1:
            return "pass", C.NO_CARD
        if widow_open and policy.draw(2) == 1:
            return "take", hand[policy.draw(len(hand))]
        return "stand", C.NO_CARD
    # basic and its relatives: a weak hand without a jack pair takes the widow
    if widow_open and jack_kind(hand) == 0 and policy.strength(hand, trump) < widow_threshold(policy):
        best = max(hand, key=lambda c: (policy.keep_value(c, hand, trump), -c))  # ties: the lower id
        return "take", best
    if may_pass and policy.wants_pass(hand, trump):
        return "pass", C.NO_CARD
    return "stand", C.NO_CARD


# ---- the scoresheet: declarations, tricks, deltas ----------------------------------------
class ModernSheet:
    """Four jacks, the jack pairs, the tricks counted up to the target and the рожки.

    Same use as :class:`rams_sim.reference.scoresheet.Scoresheet`: :meth:`declare`, then
    :meth:`credit` per trick, then :meth:`finish`.
    """

    def __init__(self, book, dealer, hands_dealt, hands_final, active, scores):
        rules = book.rules
        n = book.players
        self.book = book
        self.order = [(dealer + 1 + i) % n for i in range(n)]
        self.active = list(active)
        self.scores = list(scores)
        self.target = rules.modern_target
        self.horns_from_five = rules.modern_horns == ModernHorns.FROM_FIVE
        # R5.5 as jacks_count says; a passer's final hand is his dealt hand
        self.kinds = [
            counted_jack_kind(book, hands_dealt[s], hands_final[s] if active[s] else hands_dealt[s]) for s in range(n)
        ]
        self.bonus = [0] * n  # the jack pair's 5, earned with a trick
        self.jacks = [0] * n  # the bonus actually scored (the record's column)
        self.declaration = [int(Declaration.NONE)] * n
        self.tricks = [0] * n
        self.delta = [0] * n
        self.overshoot = [False] * n  # counting up, nobody overshoots (R8.3 does not apply)
        self.outcome = int(Outcome.PLAYED)
        self.ends_party = C.NO_SEAT
        self.end_kind = int(EndKind.NONE)
        self.stopped = False
        self.settled = False
        self.events = None

    def note(self, step: str, **details) -> None:
        if self.events is not None:
            self.events.append((step, details))

    @property
    def n_active(self) -> int:
        return sum(self.active)

    def lone_seat(self) -> int:
        seats = [s for s in self.order if self.active[s]]
        return seats[0] if len(seats) == 1 else C.NO_SEAT

    def declare(self) -> bool:
        """Before the first lead; returns True when tricks follow (play or a lone player)."""
        book = self.book
        if book.four_jacks_win:
            for s in self.order:  # four jacks, passers included: the holder wins, every delta 0
                if self.kinds[s] == FOUR_JACKS_KIND:
                    self.declaration[s] = int(Declaration.FOUR_JACKS)
                    self.outcome = int(Outcome.FOUR_JACKS)
                    self.ends_party, self.end_kind = s, int(EndKind.FOUR_JACKS)
                    self.settled = True
                    self.note("four_jacks", seat=s)
                    return False
        for s in self.order:  # a jack pair shown by a player who plays (four jacks count as one)
            if self.active[s] and self.kinds[s] >= 1:
                self.declaration[s] = int(Declaration.JACK_PAIR)
                self.bonus[s] = book.jack_pair
                self.note("jacks", seat=s, points=book.jack_pair)
        if self.n_active == 0:
            self.outcome = int(Outcome.NOBODY)
            self.settled = True
            return False
        if self.n_active == 1 and book.lone_void:
            self.outcome = int(Outcome.VOID)  # R4.5 void-deal: nothing scores
            self.settled = True
            return False
        self.outcome = int(Outcome.LONE if self.n_active == 1 else Outcome.PLAYED)
        return True

    def running_score(self, seat: int) -> int:
        """Score before the deal + tricks so far + the jack bonus from the first trick on."""
        t = self.tricks[seat]
        return self.scores[seat] + t + (self.bonus[seat] if t >= 1 else 0)

    def credit(self, seat: int) -> bool:
        """One trick to ``seat``; True when it takes him to the target (he wins, the deal stops)."""
        self.tricks[seat] += 1
        if self.running_score(seat) >= self.target:
            self.stopped = True
            self.ends_party, self.end_kind = seat, int(EndKind.TARGET)
            self.note("target", seat=seat)
            return True
        return False

    def finish(self) -> None:
        """The deltas: tricks + bonus, or the рожки; a deal cut short as R8.2a."""
        if self.settled:
            return
        book = self.book
        for s in range(len(self.active)):
            t = self.tricks[s]
            if not self.active[s]:
                continue  # a passer scores nothing
            if self.stopped and s != self.ends_party and not book.score_so_far:
                continue  # freeze: the others' tricks were not played out
            if t >= 1:
                self.jacks[s] = self.bonus[s]
                self.delta[s] = t + self.bonus[s]
            elif not self.stopped:  # рожки
                if not self.horns_from_five or self.scores[s] >= book.remiz:
                    self.delta[s] = -book.remiz
        self.settled = True


# ---- the deal ------------------------------------------------------------------------
class ModernTable(DealTable):
    """One deal of ``modern``: the steps of docs/VARIANTS.md in order."""

    def __init__(self, book, specs, key, dealer, scores, order, events=None, given_order=False):
        super().__init__(book, specs, key, dealer, scores, order, events)
        self.given_order = given_order
        self.redeals = 0
        self.widow = []
        self.widow_taker = C.NO_SEAT

    def start_dealing(self, r: int) -> None:
        """The r-th dealing: key deal_key(K, r) for r >= 1; fresh coins from that key."""
        key = self.key if r == 0 else int(deal_key(np.uint64(self.key), r))
        if r > 0 or not self.given_order:
            self.deck_order = [int(c) for c in deck_order(key, self.book.deck_array)]
        self.policies = [POLICY_CLASSES[spec.kind](spec, key, seat) for seat, spec in enumerate(self.specs)]
        self.deal_cards()

    def deal_cards(self) -> None:
        """R3's packets: seat (dealer+1+i) gets d[5i..5i+4]; the widow is d[20..23]; the
        trump card is the dealer's last card d[19], which stays in his hand."""
        d = self.deck_order
        n = self.n
        for i, seat in enumerate(self.seats):
            self.hand_dealt[seat] = sorted(d[C.HAND_SIZE * i : C.HAND_SIZE * (i + 1)])
            self.hand[seat] = list(self.hand_dealt[seat])
        self.trump_card = d[C.HAND_SIZE * n - 1]
        self.trump = SUIT[self.trump_card]
        self.widow = list(d[C.HAND_SIZE * n : C.HAND_SIZE * n + WIDOW_SIZE])
        self.took_trump = [False] * n
        self.took_trump[self.dealer] = True  # the trump card is in the dealer's hand
        self.note("deal", dealer=self.dealer, hands=[list(h) for h in self.hand_dealt], trump_card=self.trump_card)

    def redeal_demanded(self) -> bool:
        """Each seat dealt five of one suit, in seat order, may demand a redeal; the first does."""
        for seat in self.seats:
            if rams_suit(self.hand[seat]) >= 0 and wants_redeal(self.policies[seat], list(self.hand[seat]), self.trump):
                self.note("redeal", seat=seat)
                return True
        return False

    def turns(self) -> None:
        """One turn each from the dealer's left: pass (below the no-pass score), play, or take the widow."""
        no_pass = self.book.rules.modern_no_pass
        for seat in self.seats:
            hand = self.hand[seat]
            may_pass = self.scores[seat] < no_pass
            widow_open = self.widow_taker == C.NO_SEAT
            choice, keep = choose_turn(self.policies[seat], list(hand), self.trump, may_pass, widow_open)
            if choice == "pass":
                if not may_pass:
                    raise ValueError(f"policy error: seat {seat} may not pass at {self.scores[seat]} (казна)")
                self.passed[seat] = True
                self.note("pass", seat=seat)
            elif choice == "take":
                if not widow_open or keep not in hand:
                    raise ValueError(f"policy error: seat {seat} cannot take the widow keeping {keep}")
                self.widow_taker = seat
                self.discards[seat] = [c for c in hand if c != keep]
                self.drawn[seat] = sorted(self.widow)
                self.hand[seat] = sorted([keep] + self.widow)
                self.note("widow", seat=seat, keep=keep, discard=list(self.discards[seat]), drawn=list(self.drawn[seat]))
            else:
                self.note("stand", seat=seat, discard=[], drawn=[])
        for seat in range(self.n):
            self.hand_final[seat] = list(self.hand[seat])

    def run(self) -> DealRecord:
        r = 0
        self.start_dealing(0)
        while r < MAX_REDEALS and self.redeal_demanded():
            r += 1
            self.start_dealing(r)
        self.redeals = r
        self.turns()
        self.sheet = ModernSheet(self.book, self.dealer, self.hand_dealt, self.hand_final,
                                 [not p for p in self.passed], self.scores)  # fmt: skip
        self.sheet.events = self.events
        if self.sheet.declare():
            if self.sheet.n_active == 1:
                self.lone_tricks()
            else:
                self.play()
        self.sheet.finish()
        return self.record()

    def record(self) -> DealRecord:
        """The deal as a :class:`DealRecord`: DealTable's, with the widow taker and the redeals."""
        return dataclasses.replace(super().record(), widow=self.widow_taker, redeals=self.redeals)


def play_deal(book, specs, key, dealer, scores, order, given_order, events=None) -> DealRecord:
    """One deal of ``modern`` (reference.play_deal dispatches here)."""
    return ModernTable(book, specs, key, dealer, scores, order, events, given_order).run()


def settlement(rules, scores, winner: int, stake: int = 1) -> tuple[float, ...]:
    """``modern_settle``: missing (each loser pays target - score) or pot (each loser pays one stake)."""
    n = len(scores)
    money = [0.0] * n
    if winner < 0:
        return tuple(money)
    for s in range(n):
        if s != winner:
            pay = float(rules.modern_target - scores[s]) if rules.modern_settle == ModernSettle.MISSING else 1.0
            money[s] = 0.0 - pay * stake
            money[winner] += pay * stake
    return tuple(money)


def play_party(rules, specs, key_of, max_deals=None) -> PartyRecord:
    """One party: scores from ``start`` (0), seat 0 deals first, clockwise; ``key_of(d)`` keys deal d."""
    book = rule_book(rules)
    n = book.players
    scores = [book.start] * n
    winner, end_kind, deals = C.NO_SEAT, int(EndKind.UNFINISHED), 0
    for d in range(book.max_deals if max_deals is None else max_deals):
        key = int(key_of(d))
        order = [int(c) for c in deck_order(key, book.deck_array)]
        rec = ModernTable(book, specs, key, d % n, scores, order).run()
        deals += 1
        for s in range(n):
            scores[s] += rec.delta[s]
        if rec.ends_party >= 0:
            winner, end_kind = rec.ends_party, rec.end_kind
            break
    return PartyRecord(
        deals=deals,
        scores=tuple(scores),
        winner=winner,
        end_kind=end_kind,
        settlement=settlement(rules, scores, winner),
        resets=(0,) * n,
        stake=1,
    )
