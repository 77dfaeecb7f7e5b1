"""R9 ``modern`` ([004] "Рамс современный"): docs/VARIANTS.md, section "modern".

Four players, 24 cards dealt completely (5 each and a 4-card widow), the dealer's last
card shows the trump suit, a redeal for a dealt five-suit, the turns (R4.0
``exchange_order``: one turn each, pass, play, or take the widow blind keeping one card;
or a play/pass round, then the widow offered in turn to the players), counting up to 20 with the рожки, a jack pair
adding 5 with a trick, four jacks winning. The tricks are R6's (:func:`..play.play_tricks`);
the deal, the turns and the scoresheet (:class:`ModernSheet`, whose :meth:`credit`
counts up) are this game's own.
"""

from __future__ import annotations

import numpy as np

from ... import cards as C
from ...kernels.rng import deal_key
from ...policies import PARAMS_BY_KIND
from ...record import Declaration, EndKind, Outcome
from ...rules import ExchangeOrder, ModernHorns, ModernSettle
from ..args import RuleBook
from ..bits import FOUR_JACKS_KIND, jack_kind, rams_suit, seat_order
from ..deal import DealTable, deal_hands, shuffle, turn_trump
from ..declare import counted_jack_kind
from ..party import DealResult
from ..pimc import search_card
from ..play import play_tricks
from ..policy import RandomPolicy
from ..score import Sheet, credit_lone

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


def passes(policy, hand, trump, may_pass: bool) -> bool:
    """Play or pass, where a pass is allowed: random flips a coin; basic and its relatives pass
    iff basic would (strength below pass_threshold, no jack pair)."""
    if not may_pass:
        return False
    if isinstance(policy, RandomPolicy):
        return policy.draw(2) == 1
    return policy.wants_pass(hand, trump, 0, 4)  # no table in modern (policies.check_table_game)


def takes(policy, hand, trump) -> int:
    """The widow, offered: the card kept when taking it, or NO_CARD. random: a coin, then the
    kept card ``hand[draw(5)]``; basic and its relatives: a weak hand without a jack pair takes
    it, keeping the card of highest keep value (ties: the lower id)."""
    if isinstance(policy, RandomPolicy):
        return hand[policy.draw(len(hand))] if policy.draw(2) == 1 else C.NO_CARD
    if jack_kind(hand) == 0 and policy.strength(hand, trump) < widow_threshold(policy):
        return max(hand, key=lambda c: (policy.keep_value(c, hand, trump), -c))
    return C.NO_CARD


def choose_turn(policy, hand, trump, may_pass: bool, widow_open: bool) -> tuple[str, int]:
    """One turn of ``one-turn``: ("pass", -1), ("stand", -1) or ("take", kept card). random: the
    pass coin (where a pass is allowed), then the widow coin; basic and its relatives: the widow
    first (a weak hand takes it), then the pass."""
    if isinstance(policy, RandomPolicy) and passes(policy, hand, trump, may_pass):
        return "pass", C.NO_CARD
    kept = takes(policy, hand, trump) if widow_open else C.NO_CARD
    if kept != C.NO_CARD:
        return "take", kept
    if not isinstance(policy, RandomPolicy) and passes(policy, hand, trump, may_pass):
        return "pass", C.NO_CARD
    return "stand", C.NO_CARD


# ---- the scoresheet: declarations, tricks, deltas ----------------------------------------
class ModernSheet(Sheet):
    """Four jacks, the jack pairs, the tricks counted up to the target and the рожки.

    Same use as :class:`..score.Scoresheet`: :meth:`declare`, then :meth:`credit` per
    trick, then :meth:`finish`.
    """

    def __init__(self, book, dealer, hands_dealt, hands_final, active, scores, events=None):
        rules = book.rules
        n = book.players
        self.book = book
        self.order = seat_order(dealer, n)
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
        self.events = events

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
            elif not self.stopped and (not self.horns_from_five or self.scores[s] >= book.remiz):  # рожки
                self.delta[s] = -book.remiz
        self.settled = True


# ---- the deal: dealing, redeals, the turns (VARIANTS.md "modern") ------------------------
def deal_cards(table) -> None:
    """R3's packets: seat (dealer+1+i) gets d[5i..5i+4]; the widow is d[20..23]; the
    trump card is the dealer's last card d[19], which stays in his hand."""
    deal_hands(table)
    d = table.deck_order
    n = table.n
    table.widow = list(d[C.HAND_SIZE * n : C.HAND_SIZE * n + WIDOW_SIZE])
    table.took_trump = [False] * n  # nobody takes a turned card: the trump card was dealt (R4.3 has no place)
    table.own_trump = [s == table.dealer for s in range(n)]  # public: the shown card is the dealer's own
    turn_trump(table, d[C.HAND_SIZE * n - 1])


REDEAL = 1  # the redeal question's options: 0 keep the cards, REDEAL demand a new dealing


def redeal_demanded(table, k0: int = 0, searching: bool = False) -> bool:
    """Each seat from the ``k0``-th from the dealer's left, dealt five of one suit, may demand a
    redeal; the first does. With ``searching``, a ``pimc`` seat's answer is searched
    (:func:`.modern_search.search_redeal`)."""
    from .modern_search import search_redeal  # it plays this module's deals out

    for k in range(k0, table.n):
        seat = table.seats[k]
        if rams_suit(table.hand[seat]) < 0:
            continue
        option = search_redeal(table, k, seat) if searching else None
        if option is None:
            demand = wants_redeal(table.policies[seat], list(table.hand[seat]), table.trump)
        else:
            demand = option == REDEAL
        if demand:
            table.note("redeal", seat=seat)
            return True
    return False


def redeals_from(table, key: int, redeals: int = 0, k0: int = 0, searching: bool = False) -> int:
    """From the redeal question of the ``k0``-th seat of dealing ``redeals`` on (that dealing
    on the table): while a seat demands one (at most ``MAX_REDEALS``), deal anew, the r-th
    keyed ``deal_key(key, r)`` (its deck order and fresh coins). Returns the redeals."""
    table.redeals = redeals
    while redeals < MAX_REDEALS and redeal_demanded(table, k0, searching):
        redeals += 1
        table.redeals = redeals
        new_key = int(deal_key(np.uint64(key), redeals))
        table.seed(new_key, shuffle(table.book, new_key))
        deal_cards(table)
        k0 = 0
    return redeals


TAKE_BITS = C.HAND_SIZE - 1  # a take as an option: the 4-bit mask of the dealt cards given up (rams-sim branch)
PASS = -1  # a pass as an option


def option_turn(option: int, hand) -> tuple[str, int]:
    """A turn option (PASS, 0 play, a take mask over the cards in ascending order) as
    :func:`choose_turn`'s answer."""
    if option == PASS:
        return "pass", C.NO_CARD
    if option == 0:
        return "stand", C.NO_CARD
    kept = [c for j, c in enumerate(sorted(hand)) if not option >> j & 1]
    return "take", kept[0]


def steps(table) -> list[tuple[int, str]]:
    """The steps of the turns (R4.0 ``exchange_order``), each (seat, what he is asked): ``one-turn``,
    each seat from the dealer's left his "turn"; ``declare-then-buy``, each seat's "round" (play
    or pass), then each seat's "widow" offer (asked only if he plays and nobody took it yet)."""
    if table.book.rules.exchange_order == ExchangeOrder.DECLARE_THEN_BUY:
        return [(s, "round") for s in table.seats] + [(s, "widow") for s in table.seats]
    return [(s, "turn") for s in table.seats]


def turns(table, k0: int = 0, forced_seat: int | None = None, forced_option: int | None = None,
          first_option: int | None = None, searching: bool = False) -> None:  # fmt: skip
    """The turns from step ``k0`` on (:func:`steps`): pass (below the no-pass score), play, or take
    the widow; in declare-then-buy the play/pass round first, then the widow offered in turn
    to the players, the first who takes it getting it. ``forced_seat`` takes ``forced_option``
    at each of his steps (a take: he plays in the round); the step ``k0`` takes
    ``first_option`` (a search playing an option out); with ``searching``, a ``pimc`` seat's
    option is searched (:func:`.modern_search.search_turn`)."""
    from .modern_search import search_turn  # it plays this module's deals out

    no_pass = table.book.rules.modern_no_pass
    for k, (seat, step) in enumerate(steps(table)):
        if k < k0:
            continue
        if step == "widow" and (table.passed[seat] or table.widow_taker != C.NO_SEAT):
            if not table.passed[seat] and seat == forced_seat and forced_option != 0:
                raise ValueError(f"option unavailable: seat {seat} cannot take the widow, taken by another seat")
            continue  # a passer is not offered the widow, nor anyone once it is taken
        hand = table.hand[seat]
        may_pass = step != "widow" and table.scores[seat] < no_pass
        widow_open = step != "round" and table.widow_taker == C.NO_SEAT
        option = forced_option if seat == forced_seat else None
        if k == k0 and first_option is not None:
            option = first_option
        if option is None and searching:
            option = search_turn(table, k, seat)
        if option is not None:
            choice, keep = option_turn(option, hand)
            if step == "round" and choice == "take":
                choice = "stand"  # he plays, and takes the widow when it is offered to him
        elif step == "round":
            choice, keep = ("pass" if passes(table.policies[seat], list(hand), table.trump, may_pass) else "stand",
                            C.NO_CARD)  # fmt: skip
        elif step == "widow":
            keep = takes(table.policies[seat], list(hand), table.trump)
            choice = "stand" if keep == C.NO_CARD else "take"
        else:
            choice, keep = choose_turn(table.policies[seat], list(hand), table.trump, may_pass, widow_open)
        if choice == "pass":
            if not may_pass:
                raise ValueError(f"policy error: seat {seat} may not pass at {table.scores[seat]} (казна)")
            table.passed[seat] = True
            table.note("pass", seat=seat)
        elif choice == "take":
            if not widow_open or keep not in hand:
                raise ValueError(f"policy error: seat {seat} cannot take the widow keeping {keep}")
            table.widow_taker = seat
            table.discards[seat] = [c for c in hand if c != keep]
            table.drawn[seat] = sorted(table.widow)
            table.hand[seat] = sorted([keep] + table.widow)
            table.note("widow", seat=seat, keep=keep, discard=list(table.discards[seat]), drawn=list(table.drawn[seat]))
        elif step == "widow":
            table.note("decline", seat=seat)
        else:
            table.note("stand", seat=seat, discard=[], drawn=[])
    for seat in range(table.n):
        table.hand_final[seat] = list(table.hand[seat])


def deal_from(table, k0: int = 0, forced_seat: int | None = None, forced_option: int | None = None,
              first_option: int | None = None, searching: bool = False) -> ModernSheet:  # fmt: skip
    """The deal from step ``k0`` of the turns on (the dealing done): the turns, four jacks and the
    jack pairs, the tricks, the deltas; returns the sheet. ``forced_seat``/``forced_option``,
    ``first_option`` and ``searching`` as :func:`turns` (a ``pimc`` seat's cards are searched too)."""
    turns(table, k0, forced_seat, forced_option, first_option, searching)
    active = [not p for p in table.passed]
    sheet = ModernSheet(table.book, table.dealer, table.hand_dealt, table.hand_final, active, table.scores,
                        table.events)
    if sheet.declare():
        if sheet.n_active == 1:
            credit_lone(sheet)
        else:
            play_tricks(table, sheet, search=search_card if searching else None)
    sheet.finish()
    return sheet


# ---- the entry points (:mod:`.classic` describes them) ----------------------------------------
def play_deal(book: RuleBook, specs, key: int, dealer: int, scores, order, *, stake: int = 1, cube: int = C.NO_SEAT,
              events=None) -> DealResult:  # fmt: skip
    """One deal of ``modern`` (no dave: ``stake`` and ``cube`` do not apply)."""
    table = DealTable(book, specs, key, dealer, scores, order, events)
    deal_cards(table)
    redeals = redeals_from(table, key, searching=True)
    sheet = deal_from(table, searching=True)  # a pimc seat's redeal, turn and cards are searched
    return DealResult(table.record(sheet, redeals=redeals))


def settlement(book: RuleBook, scores, winner: int, stake: int, prokats) -> tuple[float, ...]:
    """``modern_settle``: missing (each loser pays target - score) or pot (each loser pays one stake)."""
    rules = book.rules
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


# ---- what policy pimc's card search needs of the game (:mod:`..pimc`) --------------------------
DELTA_SIGN = -1  # counting up: the most is the best


def trump_maybe_discarded(table) -> bool:
    """The trump card is the dealer's own card; if he took the widow it may be among the four
    he laid aside (how many he laid aside is public, which ones is not)."""
    return len(table.discards[table.dealer]) > 0


def world_fits(table, sheet, state, seat: int, world) -> float:
    """The chance to keep a world drawn at a card of modern (docs/VARIANTS.md): a player declares
    a jack pair (it adds 5 with a trick), and four jacks, where they win, end the deal before
    the play, passers' too. So each other active seat's counted jack kind is a pair if he
    declared one (or four jacks, where they do not win), else none (:func:`..pimc.seat_kind_ways`);
    where four jacks win, no passer (who declares nothing here) holds them
    (:func:`..pimc.passers_kind_ways`). Aces count for nothing, and a dealt five of a suit only
    allows a redeal (a choice the others do not see refused): neither is checked. The chance is
    the product of the shares: whole numbers of ways, divided once."""
    from ..pimc import passers_kind_ways, played_by, seat_kind_ways

    pair = {1} if table.book.four_jacks_win else {1, FOUR_JACKS_KIND}
    fits = ways = 1
    for o, hand in world.hands.items():
        if not sheet.active[o]:
            continue
        declared = sheet.declaration[o] == int(Declaration.JACK_PAIR)
        good, every = seat_kind_ways(table, o, list(hand) + played_by(table, state, o), pair if declared else {0}, world)
        if good == 0:
            return 0.0
        fits, ways = fits * good, ways * every
    passers = [o for o in range(table.n) if o != seat and table.passed[o]]
    if passers and table.book.four_jacks_win:  # a passing dealer holds his trump card, unless he laid cards aside
        known = [[table.trump_card] if table.holds_trump_card(o) and not table.discards[o] else [] for o in passers]
        good, every = passers_kind_ways([{0, 1}] * len(passers), world.passers_among, known)
        if good == 0:
            return 0.0
        fits, ways = fits * good, ways * every
    return fits / ways
