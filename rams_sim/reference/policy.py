"""The built-in policies (rams_sim/policies.py): what a seat decides, from what it may see.

Each decision receives only what its player may know: his own hand, the trump suit or
card, whether he deals, the talon size, the cards of the current trick, the legal cards,
his own tricks and, at his turn to play, what :class:`PlayView` shows. The decisions
only one R9 game asks for (duel's widow and dave, modern's redeal and turn, zone's swap
and play) live in that game's module of :mod:`.games`. The decisions and cards of the
searching policy ``pimc`` are chosen in :mod:`.pimc`, from what its seat can know of the
table and the play.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import cards as C
from .. import strategy_table as T
from ..kernels.rng import Stream
from ..policies import (
    B_HIGH_TRUMP_BONUS,
    B_HIGH_TRUMP_RANK,
    B_INTENT_THRESHOLD,
    B_KEEP_KINGS,
    B_KEEP_TRUMP_RANK,
    B_KING_WEIGHT,
    B_PASS_THRESHOLD,
    B_RAMS_DRAW,
    B_TRUMP_WEIGHT,
    G_RAMS_LENGTH,
    INFER_NAMES,
    P_ROLLOUT,
    P_SAMPLES,
    PARAMS_BY_KIND,
    PROBE_PARAMS,
    X_INTENT_WEIGHT,
    X_READ_INTENTS,
    X_VOID_WEIGHT,
    PolicyKind,
    PolicySpec,
)
from ..record import Intent
from .bits import JACK_PAIRS, RANK, SUIT, jack_kind, rams_suit
from .trick import would_win


# ---- what a seat sees when it plays (docs/ENGINE.md §8) ---------------------------------
@dataclass(frozen=True)
class PlayView:
    """What a seat knows at its turn to play, beyond its hand and the trick (policies.py).

    ``threats``: the cards that may be in an opponent's hand (:func:`threats`);
    ``remaining``: active seats still to play to this trick after him; ``intents_behind``:
    their R4.0a announcements (Intent codes, public), in play order.
    """

    threats: frozenset[int] | set[int]
    remaining: int
    intents_behind: tuple[int, ...] = ()


def threats(table, seat: int, trick) -> set[int]:
    """Cards that may be in an opponent's hand, as ``seat`` can tell (policies.py).

    Every card of the deck except: his hand, the cards played (finished tricks and
    this trick), his own discards (and the card he gave up for the trump card), and
    the turned-up trump card unless another seat, the dealer, holds it: he took it (R4.3),
    or it is his own dealt card (modern; still a threat once he may have laid it aside).
    """
    seen = set(table.hand[seat]) | set(trick) | set(table.discards[seat])
    seen |= {c for t in table.plays for c in t.cards if c != C.NO_CARD}
    if table.trump_discard[seat] != C.NO_CARD:
        seen.add(table.trump_discard[seat])
    if not (table.holds_trump_card(table.dealer) and seat != table.dealer):
        seen.add(table.trump_card)
    return set(table.book.deck) - seen


def in_jack_pair(card, hand) -> bool:
    """True when ``card`` is a jack and the other jack of its colour is in ``hand`` (R5.5)."""
    if RANK[card] != C.JACK:
        return False
    for first, second in JACK_PAIRS:
        if card == first:
            return second in hand
        if card == second:
            return first in hand
    return False


def suit_counts(hand) -> list[int]:
    """The number of cards of each suit in ``hand``, by suit index."""
    counts = [0] * C.N_SUITS
    for card in hand:
        counts[SUIT[card]] += 1
    return counts


# Random discard choices (policies.py "random"): every 5-bit mask m from 0 to 31 with
# popcount(m) <= talon size, ascending; indexed by the talon size (5 = no limit).
DISCARD_MASKS = tuple(tuple(m for m in range(32) if m.bit_count() <= t) for t in range(C.HAND_SIZE + 1))


def probe(spec: PolicySpec, name: str) -> int:
    """A seat's probe (policies.py "Probes"): ``first_card`` (j >= 0: his first card is his j-th
    legal card) or ``take_trump`` (1 take, 0 decline where R4.3 lets him choose); -1 when off."""
    return int(spec.params.get(name, PROBE_PARAMS[name]))


def first_card_probe(policy, legal) -> int | None:
    """The card ``policy``'s ``first_card`` probe plays as his first card of the deal, from ``legal``
    (ascending ids): the j-th, or the highest if he has j or fewer; None when the probe is off."""
    j = policy.first_card
    if j < 0:
        return None
    return legal[j] if j < len(legal) else legal[-1]


class RandomPolicy:
    """``random``: uniform over the legal choices, from the seat's own stream.

    A draw is made only when there are two or more choices, and none for a probed decision.
    """

    def __init__(self, spec: PolicySpec, key: int, seat: int):
        self.spec = spec
        self.key = key
        self.seat = seat
        self.stream = None  # created at the first draw
        self.first_card = probe(spec, "first_card")
        self.take_trump = probe(spec, "take_trump")

    def draw(self, count: int) -> int:
        """A uniform index in 0 .. count-1; no draw for a single choice."""
        if count < 2:
            return 0
        if self.stream is None:
            self.stream = Stream(self.key, self.seat)
        return self.stream.bounded(count)

    def wants_pass(self, hand, trump, position, players) -> bool:
        """Pass (where R4.1 allows it) iff ``bounded(2) == 1``."""
        return self.draw(2) == 1

    def choose_intent(self, hand, trump) -> Intent:
        """R4.0a: "on suits" iff ``bounded(2) == 1``, else "on trumps"."""
        return Intent.ON_SUITS if self.draw(2) == 1 else Intent.ON_TRUMPS

    def choose_discard(self, hand, trump, is_dealer, talon_size, position, players) -> list[int]:
        """Pick a discard mask over the hand's cards c0..c4 (ascending), popcount <= talon."""
        choices = DISCARD_MASKS[min(talon_size, C.HAND_SIZE)]
        mask = choices[self.draw(len(choices))]
        return [card for j, card in enumerate(hand) if mask >> j & 1]

    def choose_trump_card(self, hand, trump_card, forced) -> tuple[bool, int]:
        """R4.3: take iff forced, else as ``take_trump`` says if set, else iff ``bounded(2) == 1``;
        discard ``c[bounded(5)]``."""
        if forced:
            take = True
        elif self.take_trump >= 0:
            take = self.take_trump == 1  # the probe: no coin
        else:
            take = self.draw(2) == 1
        if not take:
            return False, C.NO_CARD
        return True, hand[self.draw(len(hand))]

    def choose_card(self, hand, trump, trick, legal, tricks_taken, view=None) -> int:
        """Pick the ``bounded(count)``-th legal card in ascending id order."""
        return legal[self.draw(len(legal))]


class BasicPolicy:
    """``basic``: a sensible player who does not count cards (policies.py)."""

    def __init__(self, spec: PolicySpec, key: int, seat: int):
        self.spec = spec
        params = [float(spec.params.get(name, default)) for name, default in PARAMS_BY_KIND[spec.kind].items()]
        self.pass_threshold = float(params[B_PASS_THRESHOLD])
        self.trump_weight = float(params[B_TRUMP_WEIGHT])
        self.high_trump_bonus = float(params[B_HIGH_TRUMP_BONUS])
        self.high_trump_rank = float(params[B_HIGH_TRUMP_RANK])
        self.king_weight = float(params[B_KING_WEIGHT])
        self.intent_threshold = float(params[B_INTENT_THRESHOLD])
        self.keep_trump_rank = float(params[B_KEEP_TRUMP_RANK])
        # CHOICE: the 0/1 switches read as "on" when the parameter is non-zero
        self.keep_kings = float(params[B_KEEP_KINGS]) != 0.0
        self.rams_draw = float(params[B_RAMS_DRAW]) != 0.0
        self.first_card = probe(spec, "first_card")  # pimc refuses the probes: -1 for it
        self.take_trump = probe(spec, "take_trump")

    # ---- valuations ------------------------------------------------------------------
    def trump_strength(self, hand, trump) -> float:
        """Per trump ``trump_weight`` (+ ``high_trump_bonus`` if rank >= ``high_trump_rank``),
        summed trump by trump, ascending ids."""
        total = 0.0
        for card in hand:
            if SUIT[card] == trump:
                total += self.trump_weight
                if RANK[card] >= self.high_trump_rank:
                    total += self.high_trump_bonus
        return total

    def strength(self, hand, trump) -> float:
        """The trump strength, then ``king_weight`` per king of another suit."""
        total = self.trump_strength(hand, trump)
        for card in hand:
            if SUIT[card] != trump and RANK[card] == C.KING:
                total += self.king_weight
        return total

    def keep_value(self, card, hand, trump) -> int:
        """Ace 100; trump 50 + rank; jack of a same-colour pair 40; other king 30 if
        ``keep_kings``; any other card its rank (the first that applies)."""
        if RANK[card] == C.ACE:
            return 100
        if SUIT[card] == trump:
            return 50 + RANK[card]
        if in_jack_pair(card, hand):
            return 40
        if RANK[card] == C.KING and self.keep_kings:
            return 30
        return RANK[card]

    def keeps(self, card, hand, trump) -> bool:
        """Discard step (3): keep aces, trumps of rank >= ``keep_trump_rank``, other kings
        if ``keep_kings``, and the jacks of a same-colour pair."""
        if RANK[card] == C.ACE or in_jack_pair(card, hand):
            return True
        if SUIT[card] == trump:
            return RANK[card] >= self.keep_trump_rank
        return RANK[card] == C.KING and self.keep_kings

    # ---- decisions -------------------------------------------------------------------
    def wants_pass(self, hand, trump, position, players) -> bool:
        """Pass iff strength < ``pass_threshold`` and no same-colour jack pair (R7.3)."""
        return self.strength(hand, trump) < self.pass_threshold and jack_kind(hand) == 0

    def choose_intent(self, hand, trump) -> Intent:
        """R4.0a: "on trumps" iff the trump strength is at least ``intent_threshold``, else "on suits"."""
        return Intent.ON_TRUMPS if self.trump_strength(hand, trump) >= self.intent_threshold else Intent.ON_SUITS

    def choose_discard(self, hand, trump, is_dealer, talon_size, position, players) -> list[int]:
        """The exchange (R4): rams stands; rams draw; else discard what is not kept."""
        counts = suit_counts(hand)
        if max(counts) == C.HAND_SIZE:  # (1) a rams stands
            return []
        if self.rams_draw and max(counts) == C.HAND_SIZE - 1:  # (2) four of one suit
            suit = counts.index(C.HAND_SIZE - 1)
            if is_dealer and suit == trump:
                return []  # the trump card completes the rams (R4.3)
            odd = next(c for c in hand if SUIT[c] != suit)
            if RANK[odd] != C.ACE and talon_size >= 1:
                return [odd]
            # CHOICE: an odd ace, or an empty talon, falls through to step (3)
        discard = [c for c in hand if not self.keeps(c, hand, trump)]  # (3)
        if len(discard) > talon_size:
            # R4.4 short talon: only the talon-size cards of least keep value
            # CHOICE: chosen among the cards step (3) would discard (ties: lower id)
            discard.sort(key=lambda c: (self.keep_value(c, hand, trump), c))
            discard = sorted(discard[:talon_size])
        return discard

    def choose_trump_card(self, hand, trump_card, forced) -> tuple[bool, int]:
        """R4.3: take when forced; else as ``take_trump`` says if set; else decline with a rams,
        take with four trumps, else take iff the trump card's keep value exceeds the lowest in
        the hand. The card given up: the odd one with four trumps, else the least kept."""
        trump = SUIT[trump_card]
        values = {c: self.keep_value(c, hand, trump) for c in hand}
        n_trumps = sum(1 for c in hand if SUIT[c] == trump)
        if forced:
            take = True
        elif self.take_trump >= 0:
            take = self.take_trump == 1  # the probe decides, his rule picks the card
        elif rams_suit(hand) >= 0:
            take = False
        elif n_trumps == C.HAND_SIZE - 1:
            take = True
        else:
            take = self.keep_value(trump_card, hand, trump) > min(values.values())
        if not take:
            return False, C.NO_CARD
        if n_trumps == C.HAND_SIZE - 1:  # the odd card goes
            return True, next(c for c in hand if SUIT[c] != trump)
        return True, min(hand, key=lambda c: (values[c], c))

    def choose_card(self, hand, trump, trick, legal, tricks_taken, view=None) -> int:
        """Lead or follow (R6) from the legal cards."""
        if len(legal) == 1:
            return legal[0]
        if not trick:
            # Lead, no lead duty: an ace of a plain suit (lowest id)
            plain_aces = [c for c in legal if RANK[c] == C.ACE and SUIT[c] != trump]
            if plain_aces:
                return plain_aces[0]
            trumps = [c for c in legal if SUIT[c] == trump]
            plain = [c for c in legal if SUIT[c] != trump]
            if tricks_taken == 0:
                # with no trick yet: the highest trump, else the highest-ranked card
                if trumps:
                    return max(trumps, key=lambda c: RANK[c])
                return min(legal, key=lambda c: (-RANK[c], c))
            if plain:  # the lowest-ranked plain card (ties: lower id), or the lowest trump
                return min(plain, key=lambda c: (RANK[c], c))
            return min(trumps, key=lambda c: RANK[c])

        # Follow: the cheapest card that wins the trick as it stands, else the cheapest
        def cheap(c):
            return (SUIT[c] == trump, RANK[c], c)

        winning = [c for c in legal if would_win(trump, trick, c)]
        return min(winning or legal, key=cheap)


def cheap(card, trump):
    """Order of cheapness: plain before trump, then rank, then id."""
    return (SUIT[card] == trump, RANK[card], card)


def beats(later, card, trump) -> bool:
    """Whether ``later``, played after ``card`` to a trick ``card`` now wins, would beat it (R6.4)."""
    if SUIT[later] == SUIT[card]:
        return RANK[later] > RANK[card]
    return SUIT[later] == trump


def threat_count(card, trump, view: PlayView) -> int:
    """How many threat cards could beat ``card`` in this trick (0 if nobody plays after him)."""
    if view.remaining == 0:
        return 0
    return sum(1 for x in view.threats if beats(x, card, trump))


def risk(card, trump, view: PlayView, void_weight: float, trump_weight: float = 1.0) -> float:
    """How likely ``card`` is to be beaten: (higher threats of its suit) + ``void_weight`` x
    (threat trumps, against a plain card: they beat it only if their holder is void); a trump
    card's higher threats count ``trump_weight`` times (expert's reading of R4.0a)."""
    if view.remaining == 0:
        return 0.0
    higher = sum(1 for x in view.threats if SUIT[x] == SUIT[card] and RANK[x] > RANK[card])
    if SUIT[card] == trump:
        return higher * trump_weight
    trumps = sum(1 for x in view.threats if SUIT[x] == trump)
    return higher + void_weight * trumps


class _CountingPolicy(BasicPolicy):
    """A basic player who also reads ``void_weight`` (parameter X_VOID_WEIGHT)."""

    def __init__(self, spec: PolicySpec, key: int, seat: int):
        super().__init__(spec, key, seat)
        names = list(PARAMS_BY_KIND[spec.kind])
        assert names.index("void_weight") == X_VOID_WEIGHT
        self.void_weight = float(spec.params.get("void_weight", PARAMS_BY_KIND[spec.kind]["void_weight"]))


class CautiousPolicy(_CountingPolicy):
    """``cautious``: basic's valuation (passing more), but secures a trick first (policies.py)."""

    def choose_card(self, hand, trump, trick, legal, tricks_taken, view=None) -> int:
        """No trick yet: the winning card fewest threats can beat; then basic's play."""
        if len(legal) == 1:
            return legal[0]
        if tricks_taken > 0:
            return super().choose_card(hand, trump, trick, legal, tricks_taken, view)
        winners = [c for c in legal if not trick or would_win(trump, trick, c)]
        if not winners:
            return min(legal, key=lambda c: cheap(c, trump))
        return min(winners, key=lambda c: (risk(c, trump, view, self.void_weight), cheap(c, trump)))


class GreedyPolicy(BasicPolicy):
    """``greedy``: exchanges aggressively, draws to rams, tries to take every trick (policies.py)."""

    def __init__(self, spec: PolicySpec, key: int, seat: int):
        super().__init__(spec, key, seat)
        self.rams_length = float(spec.params.get("rams_length", PARAMS_BY_KIND[spec.kind]["rams_length"]))
        assert list(PARAMS_BY_KIND[spec.kind]).index("rams_length") == G_RAMS_LENGTH

    def choose_discard(self, hand, trump, is_dealer, talon_size, position, players) -> list[int]:
        """A rams stands; with ``rams_length``+ cards of one suit keep that suit and the aces
        (the longest suit; ties: the trump suit, then the lower suit); else basic's step (3)."""
        counts = suit_counts(hand)
        longest = max(counts)
        if longest == C.HAND_SIZE:
            return []
        if longest >= self.rams_length:
            suits = [s for s in range(C.N_SUITS) if counts[s] == longest]
            suit = trump if trump in suits else suits[0]
            discard = [c for c in hand if SUIT[c] != suit and RANK[c] != C.ACE]
            if len(discard) > talon_size:
                discard.sort(key=lambda c: (self.keep_value(c, hand, trump), c))
                discard = sorted(discard[:talon_size])
            return discard
        return super().choose_discard(hand, trump, is_dealer, talon_size, position, players)

    def choose_card(self, hand, trump, trick, legal, tricks_taken, view=None) -> int:
        """Lead the highest trump, else the highest-ranked card (ties: lower id); follow
        with the cheapest winning card, else the cheapest card."""
        if len(legal) == 1:
            return legal[0]
        if not trick:
            trumps = [c for c in legal if SUIT[c] == trump]
            if trumps:
                return max(trumps, key=lambda c: RANK[c])
            return min(legal, key=lambda c: (-RANK[c], c))
        winners = [c for c in legal if would_win(trump, trick, c)]
        return min(winners or legal, key=lambda c: cheap(c, trump))


class ExpertPolicy(_CountingPolicy):
    """``expert``: basic's pass and exchange; plays by counting the cards out (policies.py)."""

    def __init__(self, spec: PolicySpec, key: int, seat: int):
        super().__init__(spec, key, seat)
        names = list(PARAMS_BY_KIND[spec.kind])
        assert names.index("read_intents") == X_READ_INTENTS and names.index("intent_weight") == X_INTENT_WEIGHT
        defaults = PARAMS_BY_KIND[spec.kind]
        # CHOICE: the 0/1 switch reads as "on" when the parameter is non-zero
        self.read_intents = float(spec.params.get("read_intents", defaults["read_intents"])) != 0.0
        self.intent_weight = float(spec.params.get("intent_weight", defaults["intent_weight"]))

    def trump_risk_weight(self, view: PlayView) -> float:
        """How many times a trump card's higher threats count: ``intent_weight`` when reading the
        announcements and a seat still to play to this trick said "on trumps" (R4.0a), else 1."""
        if self.read_intents and Intent.ON_TRUMPS in view.intents_behind:
            return self.intent_weight
        return 1.0

    def choose_card(self, hand, trump, trick, legal, tricks_taken, view=None) -> int:
        """Sure winners first, the safest winner while trickless, ducking what cannot win."""
        if len(legal) == 1:
            return legal[0]
        trump_weight = self.trump_risk_weight(view)

        def key(c):
            return cheap(c, trump)

        def risky(c):
            return (risk(c, trump, view, self.void_weight, trump_weight), cheap(c, trump))

        if not trick:
            sure = [c for c in legal if threat_count(c, trump, view) == 0]
            if sure:
                return min(sure, key=key)
            if tricks_taken == 0:
                return min(legal, key=risky)
            plain = [c for c in legal if SUIT[c] != trump]
            return min(plain or legal, key=lambda c: (RANK[c], c))
        winners = [c for c in legal if would_win(trump, trick, c)]
        if not winners:
            return min(legal, key=key)
        if view.remaining == 0:
            return min(winners, key=key)
        sure = [c for c in winners if threat_count(c, trump, view) == 0]
        if sure:
            return min(sure, key=key)
        if tricks_taken == 0:
            return min(winners, key=risky)
        return min(winners, key=key)


class TablePolicy(ExpertPolicy):
    """``table``: expert, but the pass and the exchange come from its strategy table
    (rams_sim/strategy_table.py: the dealt hand's class at the seat's position)."""

    def __init__(self, spec: PolicySpec, key: int, seat: int):
        super().__init__(spec, key, seat)
        self.strategy = spec.strategy()

    def cell(self, hand, trump, position, players) -> tuple[str, str]:
        """(action, play) of the table's cell for ``hand`` at ``position``."""
        trumps = [RANK[c] for c in hand if SUIT[c] == trump]
        if not trumps:
            top = T.TOP_NONE
        elif max(trumps) >= C.KING:
            top = T.TOP_HIGH
        elif max(trumps) >= C.JACK:
            top = T.TOP_MID
        else:
            top = T.TOP_LOW
        aces = sum(1 for c in hand if RANK[c] == C.ACE)
        longest = max(suit_counts(hand))
        cls = T.class_index(min(aces, T.MAX_ACES), min(len(trumps), T.MAX_TRUMPS), top, int(jack_kind(hand) > 0),
                            min(max(longest, T.MIN_LONGEST), T.MAX_LONGEST))  # fmt: skip
        return self.strategy.action(players, position, cls)

    def wants_pass(self, hand, trump, position, players) -> bool:
        """Pass iff the cell's action is pass."""
        return self.cell(hand, trump, position, players)[0] == T.PASS

    def choose_discard(self, hand, trump, is_dealer, talon_size, position, players) -> list[int]:
        """The cell's play: stand; x<k> the k weakest; low the plain cards below a king; plain the
        plain cards but aces; at most the talon size of them, weakest first (R4.4)."""
        play = self.cell(hand, trump, position, players)[1]
        plain = [c for c in hand if SUIT[c] != trump and RANK[c] != C.ACE]
        if play == T.STAND:
            k = 0
        elif play == T.LOW:
            k = sum(1 for c in plain if RANK[c] < C.KING)
        elif play == T.PLAIN:
            k = len(plain)
        else:
            k = int(play[1:])

        def weakness(c):  # weakest first: plain non-aces, plain aces, trumps; by rank, then id
            return (SUIT[c] == trump, RANK[c] == C.ACE, RANK[c], c)

        return sorted(sorted(hand, key=weakness)[: min(k, talon_size)])


def pimc_parameters(spec: PolicySpec) -> tuple[int, PolicyKind, int]:
    """(samples, rollout kind, prokat weight) of a ``pimc`` seat: given, else the defaults (policies.py)."""
    defaults = PARAMS_BY_KIND[spec.kind]
    samples = int(spec.params.get("samples", defaults["samples"]))  # worlds per decision
    rollout = PolicyKind(int(spec.params.get("rollout", defaults["rollout"])))  # every seat's rollout policy
    return samples, rollout, int(spec.params.get("prokat_weight", defaults["prokat_weight"]))  # zone only


def pimc_race(spec: PolicySpec) -> float:
    """A ``pimc`` seat's racing threshold in standard errors (docs/SEARCH.md "Racing"; 0: off)."""
    return float(spec.params.get("race", PARAMS_BY_KIND[spec.kind]["race"]))


def pimc_inference(spec: PolicySpec) -> tuple[bool, bool, bool, float]:
    """(infer, infer_card, infer_cards, floor) of a ``pimc`` seat (docs/SEARCH.md "Inference"): whether
    its worlds before the play are drawn with their history (infer=policy, play or cards), whether its
    worlds at a card are weighed by that history too (play, cards), and by every card the others
    played (cards), and the model's floor."""
    defaults = PARAMS_BY_KIND[spec.kind]
    name = INFER_NAMES[int(spec.params.get("infer", defaults["infer"]))]
    floor = float(spec.params.get("floor", defaults["floor"]))
    return name != "none", name in ("play", "cards"), name == "cards", floor


class PimcPolicy(BasicPolicy):
    """``pimc`` (docs/SEARCH.md): its decisions and cards come from a search (:mod:`.pimc`),
    which the exchange, the dealer's trump card and the play loop ask (each game's own hooks elsewhere).
    Where the search draws no world, a decision before the play is expert's, i.e. basic's
    rules, with pimc's own parameter values: its first parameters are expert's, in the same slots."""

    def __init__(self, spec: PolicySpec, key: int, seat: int):
        super().__init__(spec, key, seat)
        names = list(PARAMS_BY_KIND[spec.kind])
        assert names.index("samples") == P_SAMPLES and names.index("rollout") == P_ROLLOUT
        self.samples, self.rollout, _ = pimc_parameters(spec)
        self.infer, self.infer_card, self.infer_cards, self.floor = pimc_inference(spec)
        self.race = pimc_race(spec)

    def choose_card(self, hand, trump, trick, legal, tricks_taken, view=None) -> int:
        """Never asked: the play loop takes pimc's cards from the search (a game without it is refused)."""
        raise ValueError("policy pimc's cards come from its search, which only classic Rams runs (reference.pimc)")


POLICY_CLASSES = {
    PolicyKind.RANDOM: RandomPolicy,
    PolicyKind.BASIC: BasicPolicy,
    PolicyKind.CAUTIOUS: CautiousPolicy,
    PolicyKind.GREEDY: GreedyPolicy,
    PolicyKind.EXPERT: ExpertPolicy,
    PolicyKind.PIMC: PimcPolicy,
    PolicyKind.TABLE: TablePolicy,
}


def policy_for(spec: PolicySpec, key: int, seat: int):
    """The policy of ``seat`` in the deal keyed ``key``: its kind's class (random's coins
    come from stream ``seat + 1`` of the key)."""
    return POLICY_CLASSES[spec.kind](spec, key, seat)


def seat_specs(policies, players: int) -> list[PolicySpec]:
    """One :class:`PolicySpec` for every seat, from one spec/string or a list by seat."""
    if isinstance(policies, (PolicySpec, str)):
        spec = policies if isinstance(policies, PolicySpec) else PolicySpec.parse(policies)
        return [spec] * players
    specs = [p if isinstance(p, PolicySpec) else PolicySpec.parse(p) for p in policies]
    if len(specs) != players:
        raise ValueError(f"{len(specs)} policies given for {players} seats")
    return specs
