"""The game ``duel`` (presets ``duel`` and ``duel-trump``, [000] Variants 2 and 3), in plain Python.

docs/VARIANTS.md "duel and duel-trump" is the specification; the sections below cite it.
A duel deal is a classic deal (:class:`rams_sim.reference.deal.DealTable`) with four
steps replaced:

1. the layout (the widow is ``order[11..15]``, after the trump card ``order[10]``),
2. the widow instead of R4's pass and exchange (the first hand, then the dealer),
3. the trump card: never used (``duel``), or compulsory for the dealer (``duel-trump``),
4. the declarations: any one wins the party at once (every delta 0),

and the play gains the dave offers (a doubling cube, as in backgammon) and its own first
leader. Scoring of tricks (R7, R8.2-R8.3) is the classic scoresheet's.
"""

from __future__ import annotations

import dataclasses

from .. import cards as C
from ..policies import PARAMS_BY_KIND
from ..record import DealRecord, Declaration, EndKind, Outcome, PartyRecord, Trick
from .deal import DealTable
from .declare import counted_jack_kinds, declare_four_aces, declare_rams
from .play import trick_winner
from .policy import RandomPolicy
from .score import Scoresheet
from .tables import RANK, SUIT, TRUMP_HONOURS, jack_kind, rams_suit, seat_order

WIDOW_AT = 2 * C.HAND_SIZE + 1  # the widow's first position in the deck order (after the trump card)


def param(policy, name: str) -> float:
    """A policy parameter by name (its override, else the kind's default)."""
    spec = policy.spec
    return float(spec.params.get(name, PARAMS_BY_KIND[spec.kind][name]))


# ---- the policies' duel decisions (rams_sim/policies.py, "duel") ------------------------
def duel_value(policy, hand, trump) -> float:
    """basic's strength plus ``duel_ace_weight`` per ace."""
    aces = sum(1 for c in hand if RANK[c] == C.ACE)
    return policy.strength(hand, trump) + param(policy, "duel_ace_weight") * aces


def wants_widow(policy, hand, trump) -> bool:
    """Swap the hand for the widow? random: ``bounded(2) == 1``; basic-like: stand with a
    rams or a jack pair in hand (it wins at once), else swap iff the duel value is below
    ``duel_widow_threshold``."""
    if isinstance(policy, RandomPolicy):
        return policy.draw(2) == 1
    if rams_suit(hand) >= 0 or jack_kind(hand) > 0:
        return False
    return duel_value(policy, hand, trump) < param(policy, "duel_widow_threshold")


def need(score: int, tricks: int, aces: int) -> int:
    """The tricks still needed to reach zero: score - tricks - aces, at least 1 before the first trick."""
    rest = score - tricks - aces
    return max(rest, 1) if tricks == 0 else max(rest, 0)


def win_estimate(policy, hand, trump, my_score, my_tricks, my_aces, other_score, other_tricks, other_aces) -> float:
    """p = clamp(0.5 + slope x (need_other - need_me) + hand x (strength - 2), 0, 1).

    need_me counts his own aces (he knows them), need_other the ``other_aces`` the seat
    credits the opponent with (DuelTable.estimate).
    """
    diff = need(other_score, other_tricks, other_aces) - need(my_score, my_tricks, my_aces)
    p = 0.5 + param(policy, "duel_dave_slope") * diff + param(policy, "duel_dave_hand") * (policy.strength(hand, trump) - 2.0)
    return min(max(p, 0.0), 1.0)


def offers_dave(policy, estimate: float) -> bool:
    """random: ``bounded(2) == 1``; basic-like: the estimate exceeds ``duel_dave_offer``."""
    if isinstance(policy, RandomPolicy):
        return policy.draw(2) == 1
    return estimate > param(policy, "duel_dave_offer")


def takes_dave(policy, estimate: float) -> bool:
    """random: ``bounded(2) == 1``; basic-like: the estimate exceeds ``duel_dave_take``."""
    if isinstance(policy, RandomPolicy):
        return policy.draw(2) == 1
    return estimate > param(policy, "duel_dave_take")


# ---- the declarations ---------------------------------------------------------------
class DuelSheet(Scoresheet):
    """VARIANTS.md "Declarations": any declaration wins the party at once, every delta 0."""

    def declare(self) -> bool:
        """Four aces (only with ``four_aces_win``), four jacks, the best rams, a jack pair."""
        if declare_four_aces(self) or self.declare_four_jacks() or self.duel_rams() or self.duel_jacks():
            self.settled = True
            return False
        self.outcome = int(Outcome.PLAYED)
        return True

    def finish(self) -> None:
        """R7, R8.2a-R8.3; a declined dave is a deal cut short whose winner, the offerer,
        counts his aces only once he has a trick (as R8.2's running score)."""
        declined = self.end_kind == int(EndKind.DECLINED) and not self.settled
        super().finish()
        s = self.ends_party
        if declined and self.tricks[s] == 0 and not self.overshoot[s] and not self.book.score_so_far:
            self.delta[s] = -self.jacks[s]

    def declare_four_jacks(self) -> bool:
        """Four jacks win whatever ``four_jacks_win`` says (any declaration wins)."""
        kinds = counted_jack_kinds(self)
        for s in self.order:
            if kinds[s] == 2:
                self.declaration[s] = int(Declaration.FOUR_JACKS)
                self.outcome = int(Outcome.FOUR_JACKS)
                self.end_party(s, EndKind.FOUR_JACKS)
                return True
        return False

    def duel_rams(self) -> bool:
        """The best rams (R5.4 seniority, the classic ranking) wins; lower rams are outranked,
        jacks void (R5.6); no points are written."""
        saved = list(self.delta)
        if not declare_rams(self):
            return False
        self.delta = saved  # no points: the party is settled by stake
        if self.ends_party < 0:
            best = next(s for s in self.order if self.declaration[s] in (int(Declaration.SUIT_RAMS), int(Declaration.TRUMP_RAMS)))
            self.end_party(best, EndKind.RAMS)
        return True

    def duel_jacks(self) -> bool:
        """A counted jack pair wins; if both hold one, the first hand; the other's is void."""
        kinds = counted_jack_kinds(self)
        for s in self.order:
            if kinds[s] == 1:
                self.declaration[s] = int(Declaration.JACK_PAIR)
                for other in self.order:
                    if other != s and kinds[other] > 0:
                        self.declaration[other] = int(Declaration.JACKS_VOID)
                self.outcome = int(Outcome.JACKS_END)
                self.end_party(s, EndKind.JACKS)
                return True
        return False


# ---- one deal -------------------------------------------------------------------------
class DuelTable(DealTable):
    """One duel deal (VARIANTS.md); ``stake`` and ``cube`` carry over the deals of a party."""

    def __init__(self, book, specs, key, dealer, scores, order, events=None, stake=1, cube=-1):
        super().__init__(book, specs, key, dealer, scores, order, events)
        rules = book.rules
        self.trump_card_used = rules.duel_trump_card
        self.dave = rules.dave
        self.dave_max = rules.dave_max
        self.dave_lead_only = rules.dave_lead_only
        self.stake = stake
        self.cube = cube
        self.widow = []
        self.widow_taker = C.NO_SEAT
        self.offers = [0] * self.n
        self.declined = False

    def deal_cards(self) -> None:
        """R3's layout; the widow is the five cards after the trump card (VARIANTS.md "The deal")."""
        super().deal_cards()
        self.widow = sorted(self.deck_order[WIDOW_AT : WIDOW_AT + C.HAND_SIZE])

    def exchange(self) -> None:
        """The widow: the first hand swaps or stands ("продаю"); if he stood, the dealer may."""
        for seat in self.seats:
            hand = self.hand[seat]
            if wants_widow(self.policies[seat], list(hand), self.trump):
                self.discards[seat] = list(hand)
                self.drawn[seat] = list(self.widow)
                self.hand[seat] = list(self.widow)
                self.widow_taker = seat
                self.note("exchange", seat=seat, discard=list(hand), drawn=list(self.widow))
                return
            self.note("stand", seat=seat, discard=[], drawn=[])

    def dealer_trump(self) -> None:
        """duel: nobody uses the trump card; duel-trump: the dealer must give one card for it."""
        if self.trump_card_used:
            dealer = self.dealer
            hand = self.hand[dealer]
            take, discard = self.policies[dealer].choose_trump_card(list(hand), self.trump_card, True)
            if not take or discard not in hand:
                raise ValueError(f"policy error (duel-trump): the dealer (seat {dealer}) must give a card of his for the trump card")
            self.took_trump[dealer] = True
            self.trump_discard[dealer] = discard
            self.hand[dealer] = sorted([c for c in hand if c != discard] + [self.trump_card])
            self.note("take_trump", seat=dealer, discard=discard, trump_card=self.trump_card)
        for seat in range(self.n):
            self.hand_final[seat] = list(self.hand[seat])

    def may_offer(self, seat: int, leading: bool) -> bool:
        """Dave: on, the cube centred or his, the doubled stake within ``dave_max``, and (with
        ``dave_lead_only``) he leads."""
        if not self.dave or self.stake * 2 > self.dave_max:
            return False
        if self.dave_lead_only and not leading:
            return False
        return self.cube in (C.NO_SEAT, seat)

    def estimate(self, seat: int, trick, centred_offer: bool) -> float:
        """The seat's win estimate (policies.py "duel"). The opponent's aces count 0 when
        the seat offers from a centred cube; otherwise (answering, or redoubling after the
        opponent showed strength) the least value of an ace he may hold (one of the seat's
        threats), 0 if none."""
        other = 1 - seat
        sheet = self.sheet
        other_aces = 0
        if not centred_offer:
            values = [self.book.ace_values[SUIT[c]] for c in self.threats(seat, trick) if RANK[c] == C.ACE]
            other_aces = min(values) if values else 0
        return win_estimate(
            self.policies[seat], list(self.hand[seat]), self.trump, self.scores[seat], sheet.tricks[seat],
            sheet.aces[seat], self.scores[other], sheet.tricks[other], other_aces,
        )  # fmt: skip

    def dave_turn(self, seat: int, trick) -> bool:
        """Before ``seat`` plays: may offer; the other accepts (stake x2, he owns the cube) or
        declines (the party ends, ``seat`` wins). Returns True when declined."""
        if not self.may_offer(seat, not trick):
            return False
        policy = self.policies[seat]
        centred = self.cube == C.NO_SEAT
        if not offers_dave(policy, 0.0 if isinstance(policy, RandomPolicy) else self.estimate(seat, trick, centred)):
            return False
        self.offers[seat] += 1
        other = 1 - seat
        answerer = self.policies[other]
        if takes_dave(answerer, 0.0 if isinstance(answerer, RandomPolicy) else self.estimate(other, trick, False)):
            self.stake *= 2
            self.cube = other
            self.note("dave", seat=seat, accepted=True, stake=self.stake)
            return False
        self.note("dave", seat=seat, accepted=False, stake=self.stake)
        # the deal stops as one cut short by the end of the party (R8.2a), the offerer winning
        self.sheet.stopped = True
        self.sheet.end_party(seat, EndKind.DECLINED)
        return True

    def play(self) -> None:
        """R6 for two, the first lead to the widow taker (else the first hand), with dave."""
        leader = self.widow_taker if self.widow_taker >= 0 else self.seats[0]
        q_duty = False
        _, trump_king, trump_queen, _ = TRUMP_HONOURS[self.trump]
        for _ in range(C.N_TRICKS):
            players = [leader, 1 - leader]
            trick = []
            by_seat = [C.NO_CARD] * self.n
            for k, seat in enumerate(players):
                if self.dave_turn(seat, trick):
                    return  # a trick left unfinished is not recorded
                card = self.ask_card(seat, trick, q_duty and k == 0, players[k + 1 :])
                trick.append(card)
                by_seat[seat] = card
            winner = players[trick_winner(self.trump, trick)]
            self.plays.append(Trick(leader=leader, cards=tuple(by_seat), winner=winner))
            self.note("trick", leader=leader, cards=list(trick), winner=winner)
            q_duty = trick[0] == trump_king and trump_queen in self.hand[leader] and winner == leader
            if self.sheet.credit(winner):
                return
            leader = winner

    def run(self) -> DealRecord:
        """Every step of a duel deal; the record."""
        self.deal_cards()
        self.exchange()
        self.dealer_trump()
        self.sheet = DuelSheet(
            self.book, self.dealer, self.trump, self.hand_dealt, self.hand_final, [True] * self.n, self.scores,
            [spec.announce for spec in self.specs], self.events,
        )  # fmt: skip
        if self.sheet.declare():
            self.play()
        self.sheet.finish()
        rec = self.record()
        return dataclasses.replace(rec, widow=self.widow_taker, stake=self.stake, dave=tuple(self.offers))


def play_duel_deal(book, specs, key, dealer, scores, order, events=None, stake=1, cube=-1):
    """One duel deal; returns (record, cube after the deal)."""
    table = DuelTable(book, specs, key, dealer, scores, order, events, stake, cube)
    rec = table.run()
    return rec, table.cube


def duel_settlement(winner: int, stake: int, n: int = 2) -> tuple[float, ...]:
    """Per party ("Расчёт за партию"): the winner gets the stake, the loser pays it."""
    money = [0.0] * n
    if winner >= 0:
        for s in range(n):
            money[s] = float(stake) if s == winner else -float(stake)
    return tuple(money)


def play_duel_party(book, specs, seed: int, party: int, key_of, order_of) -> PartyRecord:
    """One duel party: seat 0 deals first, the deal alternates, the stake and cube carry over.

    ``key_of(d)``: the key of deal ``d``; ``order_of(key)``: its deck order.
    """
    n = book.players
    scores = [book.start] * n
    resets = [0] * n
    stake, cube = 1, C.NO_SEAT
    winner, end_kind, deals = C.NO_SEAT, int(EndKind.UNFINISHED), 0
    dealer = 0
    for d in range(book.max_deals):
        key = key_of(d)
        rec, cube = play_duel_deal(book, specs, key, dealer, scores, order_of(key), None, stake, cube)
        stake = rec.stake
        deals += 1
        for s in range(n):
            scores[s] += rec.delta[s]
            resets[s] += int(rec.overshoot[s])
        if rec.ends_party >= 0:
            winner, end_kind = rec.ends_party, rec.end_kind
            break
        dealer = seat_order(dealer, n)[0]  # "сдают по очереди"
    return PartyRecord(
        deals=deals,
        scores=tuple(scores),
        winner=winner,
        end_kind=end_kind,
        settlement=duel_settlement(winner, stake, n),
        resets=tuple(resets),
        stake=stake,
    )
