"""The reference engine for R9 ``zone`` ([004] "Рамс на зоне"), in plain readable Python.

Every rule here is a paragraph of docs/VARIANTS.md "zone" (cited as VARIANTS
"zone: <paragraph>"); RULES.md sections are cited where zone keeps a classic rule.
A deal runs as explicit steps of :class:`ZoneDeal`:

1. :meth:`ZoneDeal.deal_cards` (the deal: two hands, the widow, the turned card),
2. :meth:`ZoneDeal.swap` (the partner's swap of his hand for the widow),
3. :meth:`ZoneDeal.declare_rams` (rams: no play follows),
4. :meth:`ZoneDeal.play` (five tricks, the first lead by duty),
5. :meth:`ZoneDeal.finish` (the count at the end of the deal, the exact finish).

It shares nothing with the kernels but what the package's reference engine may share
(cards, rules, policy specs, records, the random streams).
"""

from __future__ import annotations

from .. import cards as C
from ..policies import PARAMS_BY_KIND, PolicyKind, PolicySpec
from ..record import Declaration, EndKind, Intent, Outcome, Trick
from .play import trick_winner
from .policy import BasicPolicy, RandomPolicy
from .tables import JACK_PAIRS, RANK, SUIT, TRUMP_HONOURS, mask_of, rams_suit, seat_order

WIDOW_SIZE = 5  # VARIANTS "zone: the deal": a five-card widow
N_PLAYERS = 2


# ---- the count (VARIANTS "zone: counting and the exact finish") --------------------------
def jack_points(rules, won, pair_tricks: int) -> tuple[int, int]:
    """(jack points, pairs) of one player's won cards (``zone_jacks``).

    ``won``: the cards he won; ``pair_tricks``: his tricks holding a same-colour jack pair.
    ``won-cards``: each same-colour pair among the won cards counts; ``one-trick``: each
    trick holding one counts. Each pair is worth ``jack_pair`` (5).
    """
    if rules.zone_jacks == "one-trick":
        pairs = pair_tricks
    else:
        pairs = sum(1 for a, b in JACK_PAIRS if a in won and b in won)
    return pairs * rules.jack_pair, pairs


def new_score(rules, score: int, write_off: int, write_on: int) -> tuple[int, bool]:
    """(score after the deal, overshoot) for one player (VARIANTS "zone: counting").

    A write-off ``w`` no larger than the score is subtracted. Going past 0 (``w > s``):
    the total written off would be ``T = start - s + w``; under ``zone_overshoot=penalty``
    T is written on instead (score ``s + T``), under ``restart`` the write-off stands and T
    is written on after it (score ``start``). A write-on (remiz, a rams penalty) is added.
    """
    if write_off > score:
        total = rules.start - score + write_off  # "списывает более 15 очков, например, 17"
        if rules.zone_overshoot == "restart":
            return score - write_off + total, True
        return score + total, True
    return score - write_off + write_on, False


# ---- the policies (rams_sim/policies.py, paragraph "zone") ----------------------------------
class ZoneRandom(RandomPolicy):
    """``random`` in zone: a coin for the swap, a uniform legal card (no draw for one choice);
    its stream and draws are classic random's (:meth:`RandomPolicy.draw`)."""

    def wants_swap(self, hand, trump) -> bool:
        """Swap iff ``bounded(2) == 1``."""
        return self.draw(2) == 1

    def choose_card(self, hand, trump, trick, legal, need_left, won, pair_tricks, rules) -> int:
        """The ``bounded(count)``-th legal card in ascending id order."""
        return legal[self.draw(len(legal))]


class ZoneBasic:
    """basic's zone decisions, made by every basic-like kind with its own parameter values."""

    def __init__(self, spec: PolicySpec, key: int, seat: int):
        self.basic = BasicPolicy(spec, key, seat)  # trump_weight, high_trump_*, king_weight
        values = PARAMS_BY_KIND[spec.kind]
        self.swap_threshold = float(spec.params.get("zone_swap_threshold", values["zone_swap_threshold"]))
        self.ace_weight = float(spec.params.get("zone_ace_weight", values["zone_ace_weight"]))

    def strength(self, hand, trump) -> float:
        """basic's strength plus ``zone_ace_weight`` per plain ace."""
        aces = sum(1 for c in hand if RANK[c] == C.ACE and SUIT[c] != trump)
        return self.basic.strength(hand, trump) + self.ace_weight * aces

    def wants_swap(self, hand, trump) -> bool:
        """A rams stands; else swap iff the zone strength is below ``zone_swap_threshold``."""
        if rams_suit(hand) >= 0:
            return False
        return self.strength(hand, trump) < self.swap_threshold

    @staticmethod
    def gain(rules, card, trick, won) -> int:
        """What winning this trick with ``card`` would add to his write-off: 1 + the jack
        points the trick's cards add to his won cards (``zone_jacks``)."""
        cards = list(trick) + [card]
        if rules.zone_jacks == "one-trick":
            pair = len(cards) == 2 and any(set(cards) == {a, b} for a, b in JACK_PAIRS)
            return 1 + (rules.jack_pair if pair else 0)
        before = sum(1 for a, b in JACK_PAIRS if a in won and b in won)
        after_won = set(won) | set(cards)
        after = sum(1 for a, b in JACK_PAIRS if a in after_won and b in after_won)
        return 1 + (after - before) * rules.jack_pair

    def choose_card(self, hand, trump, trick, legal, need_left, won, pair_tricks, rules) -> int:
        """Take tricks while they bring him no further than 0; duck once one would carry him past."""
        if len(legal) == 1:
            return legal[0]

        def cheap(c):
            return (SUIT[c] == trump, RANK[c], c)

        if trick:
            led = trick[0]
            winners = [c for c in legal if trick_winner(trump, [led, c]) == 1]
            fitting = [c for c in winners if self.gain(rules, c, trick, won) <= need_left]
            if fitting:
                return min(fitting, key=cheap)
            losers = [c for c in legal if c not in winners]
            if losers:
                return min(losers, key=cheap)
            return min(legal, key=lambda c: (self.gain(rules, c, trick, won), cheap(c)))
        fitting = [c for c in legal if self.gain(rules, c, trick, won) <= need_left] if need_left >= 1 else []
        if fitting:
            trumps = [c for c in fitting if SUIT[c] == trump]
            if trumps:
                return max(trumps, key=lambda c: RANK[c])
            return min(fitting, key=lambda c: (-RANK[c], c))
        plain = [c for c in legal if SUIT[c] != trump]
        if plain:
            return min(plain, key=lambda c: (RANK[c], c))
        return min(legal, key=lambda c: RANK[c])


def zone_policy(spec: PolicySpec, key: int, seat: int):
    """The zone decisions of a seat's policy kind."""
    if spec.kind == PolicyKind.RANDOM:
        return ZoneRandom(spec, key, seat)
    return ZoneBasic(spec, key, seat)


# ---- the first lead (VARIANTS "zone: the first lead") ---------------------------------------
def first_lead(rules, hands, trump_card, partner) -> tuple[int, list[int] | None]:
    """(the seat that leads trick 1, his duty cards or None for any card).

    ``zone_lead=duty``: the first that applies: the holder of the trump ace leads it; if
    the ace is the turned card, the holder of the trump K leads it; the holder of trump K
    and Q leads one of them; otherwise the partner leads any card. ``partner``: always the
    partner, any card.
    """
    if rules.zone_lead == "duty":
        trump = SUIT[trump_card]
        ace, king, queen, _ = TRUMP_HONOURS[trump]
        order = [partner, 1 - partner]
        for seat in order:
            if ace in hands[seat]:
                return seat, [ace]
        if trump_card == ace:
            for seat in order:
                if king in hands[seat]:
                    return seat, [king]
        for seat in order:
            if king in hands[seat] and queen in hands[seat]:
                return seat, [king, queen]
    return partner, None


class ZoneDeal:
    """One zone deal: the cards, the swap, the rams, the tricks and the count."""

    def __init__(self, rules, specs, key: int, dealer: int, scores, order, events=None):
        self.rules = rules
        self.key = key
        self.dealer = dealer
        self.partner = (dealer + 1) % N_PLAYERS  # "партнер": the other player
        self.scores = list(scores)
        self.deck_order = list(order)
        self.policies = [zone_policy(spec, key, seat) for seat, spec in enumerate(specs)]
        self.events = events
        self.hand_dealt = [[], []]
        self.hand = [[], []]
        self.widow: list[int] = []
        self.widow_seat = C.NO_SEAT
        self.discards = [[], []]
        self.drawn = [[], []]
        self.hand_final = [[], []]
        self.trump_card = C.NO_CARD
        self.trump = -1
        self.plays: list[Trick] = []
        self.won = [[], []]  # the cards each seat won
        self.pair_tricks = [0, 0]  # tricks holding a same-colour jack pair, by winner
        self.tricks = [0, 0]
        self.jacks = [0, 0]
        self.declaration = [int(Declaration.NONE)] * 2
        self.delta = [0, 0]
        self.overshoot = [False, False]
        self.prokat = [0, 0]
        self.outcome = int(Outcome.PLAYED)
        self.ends_party = C.NO_SEAT
        self.end_kind = int(EndKind.NONE)
        self.next_dealer = C.NO_SEAT

    def note(self, step: str, **details) -> None:
        if self.events is not None:
            self.events.append((step, details))

    # ---- step 1 ------------------------------------------------------------------------
    def deal_cards(self) -> None:
        """R3 with a widow: partner d[0..4], dealer d[5..9], widow d[10..14], turned card d[15]."""
        d = self.deck_order
        for i, seat in enumerate(seat_order(self.dealer, N_PLAYERS)):
            self.hand_dealt[seat] = sorted(d[C.HAND_SIZE * i : C.HAND_SIZE * (i + 1)])
            self.hand[seat] = list(self.hand_dealt[seat])
        start = C.HAND_SIZE * N_PLAYERS
        self.widow = sorted(d[start : start + WIDOW_SIZE])
        self.trump_card = d[start + WIDOW_SIZE]  # "снимается верхняя карта с оставшейся колоды"
        self.trump = SUIT[self.trump_card]
        self.note("deal", dealer=self.dealer, hands=[list(h) for h in self.hand_dealt], trump_card=self.trump_card)

    # ---- step 2 ------------------------------------------------------------------------
    def swap(self, forced: int | None = None) -> None:
        """The partner alone may give his five cards back to the stock and take the widow.

        ``forced``: None asks his policy; True/False forces the choice (branching)."""
        seat = self.partner
        take = self.policies[seat].wants_swap(list(self.hand[seat]), self.trump) if forced is None else forced
        if take:
            self.discards[seat] = list(self.hand[seat])
            self.drawn[seat] = list(self.widow)
            self.hand[seat] = list(self.widow)
            self.widow_seat = seat
            self.note("swap", seat=seat, discard=self.discards[seat], drawn=self.drawn[seat])
        else:
            self.note("stand", seat=seat, discard=[], drawn=[])
        self.hand_final = [list(h) for h in self.hand]

    # ---- step 3 ------------------------------------------------------------------------
    def declare_rams(self) -> bool:
        """Rams in the hands at the first lead: the best writes off 5 (10 trump), the other
        writes on as much; no play (R5.2-R5.4 seniority). Returns True when a rams ended the deal."""
        held = []
        for position, seat in enumerate(seat_order(self.dealer, N_PLAYERS)):
            suit = rams_suit(self.hand[seat])
            if suit >= 0:
                held.append(((suit == self.trump, suit, -position), seat, suit))
        if not held:
            return False
        held.sort(reverse=True)
        _, best, suit = held[0]
        is_trump = suit == self.trump
        value = self.rules.trump_rams if is_trump else self.rules.suit_rams
        self.declaration[best] = int(Declaration.TRUMP_RAMS if is_trump else Declaration.SUIT_RAMS)
        for _, seat, _ in held[1:]:
            self.declaration[seat] = int(Declaration.RAMS_OUTRANKED)
        self.outcome = int(Outcome.RAMS)
        self.note("rams", seat=best, suit=suit, trump=is_trump, outranked=[s for _, s, _ in held[1:]])
        writes = [(value, 0) if seat == best else (0, value) for seat in range(N_PLAYERS)]
        self.settle(writes, EndKind.RAMS)
        return True

    # ---- step 4 ------------------------------------------------------------------------
    def play(self) -> None:
        """Five tricks; the first lead by duty; any card in answer; the trick by R6.4."""
        leader, duty = first_lead(self.rules, self.hand, self.trump_card, self.partner)
        for t in range(C.N_TRICKS):
            trick = []
            by_seat = [C.NO_CARD] * N_PLAYERS
            for k, seat in enumerate((leader, 1 - leader)):
                hand = self.hand[seat]
                legal = sorted(duty) if (t == 0 and k == 0 and duty) else sorted(hand)
                need_left = self.scores[seat] - self.tricks[seat] - jack_points(self.rules, self.won[seat],
                                                                                self.pair_tricks[seat])[0]
                card = self.policies[seat].choose_card(list(hand), self.trump, list(trick), legal, need_left,
                                                       list(self.won[seat]), self.pair_tricks[seat], self.rules)
                if card not in legal:
                    raise ValueError(f"policy error (VARIANTS zone): seat {seat} plays {C.format_card(card)}, "
                                     "not a legal card")
                hand.remove(card)
                trick.append(card)
                by_seat[seat] = card
            winner = (leader, 1 - leader)[trick_winner(self.trump, trick)]
            self.tricks[winner] += 1
            self.won[winner] += trick
            if any(set(trick) == {a, b} for a, b in JACK_PAIRS):
                self.pair_tricks[winner] += 1
            self.plays.append(Trick(leader=leader, cards=tuple(by_seat), winner=winner))
            self.note("trick", leader=leader, cards=list(trick), winner=winner)
            leader = winner  # R6.1

    # ---- step 5 ------------------------------------------------------------------------
    def finish(self) -> None:
        """The count of a played deal: tricks and jacks written off, or the remiz and the прокат."""
        points = [jack_points(self.rules, self.won[s], self.pair_tricks[s]) for s in range(N_PLAYERS)]
        counted = [p[0] for p in points]
        if all(p[1] > 0 for p in points) and self.rules.zone_jacks_both == "trump-jack":
            trump_jack = TRUMP_HONOURS[self.trump][3]
            for s in range(N_PLAYERS):
                # both collected a pair: only the winner of the trump jack writes off
                if trump_jack not in self.won[s]:
                    counted[s] = 0
                    self.declaration[s] = int(Declaration.JACKS_VOID)
        writes = []
        for s in range(N_PLAYERS):
            self.jacks[s] = counted[s]
            if counted[s]:
                self.declaration[s] = int(Declaration.FOUR_JACKS if counted[s] > self.rules.jack_pair
                                          else Declaration.JACK_PAIR)
            if self.tricks[s] == 0:
                self.prokat[s] = 1  # "обязан уплатить заранее условленную сумму (прокат)"
                writes.append((0, self.rules.remiz))
            else:
                writes.append((self.tricks[s] + counted[s], 0))
        self.settle(writes, EndKind.TARGET)

    def settle(self, writes, kind: EndKind) -> None:
        """Apply (write-off, write-on) by seat; the first at exactly 0 in seat order wins;
        the seat with the larger delta deals next (equal: the usual rotation)."""
        for s, (off, on) in enumerate(writes):
            score, over = new_score(self.rules, self.scores[s], off, on)
            self.delta[s] = score - self.scores[s]
            self.overshoot[s] = over
        for s in seat_order(self.dealer, N_PLAYERS):
            if self.scores[s] + self.delta[s] == 0:
                self.ends_party, self.end_kind = s, int(kind)
                self.note("party_ends", seat=s, kind=kind.name)
                break
        if self.delta[0] != self.delta[1]:
            self.next_dealer = 0 if self.delta[0] > self.delta[1] else 1

    # ---- the whole deal ------------------------------------------------------------------
    def run(self, forced_swap: bool | None = None):
        """Every step; returns the :class:`rams_sim.record.DealRecord`."""
        self.deal_cards()
        self.swap(forced_swap)
        if not self.declare_rams():
            self.play()
            self.finish()
        return self.record()

    def record(self):
        from ..record import DealRecord

        return DealRecord(
            dealer=self.dealer,
            trump_card=self.trump_card,
            hand_dealt=tuple(mask_of(h) for h in self.hand_dealt),
            passed=(False, False),
            discards=tuple(mask_of(h) for h in self.discards),
            drawn=tuple(mask_of(h) for h in self.drawn),
            took_trump=(False, False),
            trump_discard=(C.NO_CARD, C.NO_CARD),
            hand_final=tuple(mask_of(h) for h in self.hand_final),
            jacks=tuple(self.jacks),
            declaration=tuple(self.declaration),
            tricks=tuple(self.tricks),
            delta=tuple(self.delta),
            overshoot=tuple(self.overshoot),
            outcome=self.outcome,
            ends_party=self.ends_party,
            end_kind=self.end_kind,
            plays=tuple(self.plays),
            intent=(int(Intent.NONE), int(Intent.NONE)),
            widow=self.widow_seat,
            stake=1,
            redeals=0,
            fine=(0, 0),  # the duties are kept by legality (VARIANTS "zone: the first lead")
            dave=(0, 0),
            prokat=tuple(bool(p) for p in self.prokat),
        )


# ---- the API (rams_sim.reference.play_deal / play_party dispatch here) ------------------
def play_deal(rules, specs, key: int, dealer: int, scores, order, events=None, forced_swap=None):
    """One zone deal: its :class:`rams_sim.record.DealRecord`."""
    return ZoneDeal(rules, specs, key, dealer, scores, order, events).run(forced_swap)


def play_party(rules, specs, seed: int, party: int):
    """One zone party: seat 0 deals first, the loser of a deal deals the next (equal deltas:
    the other player); the first at exactly 0 wins; settled as VARIANTS "zone: settlement"."""
    from ..kernels.rng import deck_order, party_deal_key
    from ..record import PartyRecord

    deck = C.deck_cards(rules.deck_size)
    scores = [rules.start] * N_PLAYERS
    resets = [0, 0]
    prokats = [0, 0]
    winner, end_kind, deals = C.NO_SEAT, int(EndKind.UNFINISHED), 0
    dealer = 0  # the lot: seat 0 deals the first deal
    for d in range(rules.max_deals):
        key = int(party_deal_key(seed, party, d))
        order = [int(c) for c in deck_order(key, deck)]
        table = ZoneDeal(rules, specs, key, dealer, scores, order)
        rec = table.run()
        deals += 1
        for s in range(N_PLAYERS):
            scores[s] += rec.delta[s]
            resets[s] += int(rec.overshoot[s])
            prokats[s] += int(rec.prokat[s])
        if rec.ends_party >= 0:
            winner, end_kind = rec.ends_party, rec.end_kind
            break
        dealer = table.next_dealer if table.next_dealer >= 0 else 1 - dealer
    money = []
    for s in range(N_PLAYERS):
        value = float(rules.zone_prokat * (prokats[1 - s] - prokats[s]))
        if winner >= 0:
            value += 1.0 if s == winner else -1.0
        money.append(value)
    return PartyRecord(deals=deals, scores=tuple(scores), winner=winner, end_kind=end_kind,
                       settlement=tuple(money), resets=tuple(resets), stake=1)
