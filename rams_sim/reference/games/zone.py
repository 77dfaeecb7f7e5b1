"""R9 ``zone`` ([004] "Рамс на зоне"): docs/VARIANTS.md, section "zone".

Every rule here is a paragraph of docs/VARIANTS.md "zone" (cited as VARIANTS "zone:
<paragraph>"); RULES.md sections are cited where zone keeps a classic rule. A deal is:

1. :func:`deal_cards` (two hands, the widow, the turned card),
2. :func:`swap` (the partner's swap of his hand for the widow),
3. :func:`declare_four_aces` (``four_aces_win``: the party is won, R5.1) and
   :func:`declare_rams` (rams: no play follows),
4. :func:`play` (five tricks, the first lead by duty, any card in answer; :func:`play_from`
   resumes it anywhere; ``zone_finish=trick`` stops it where a player reaches exactly 0),
5. :func:`finish` (the count at the end of the deal, or at the stop; the exact finish; the
   loser deals next).

A player's A (R7) is ``ace_values`` summed over his hand at the first lead (after the swap).

Steps 2-5 are :func:`deal_from`, which the search (policy ``pimc``, :mod:`.zone_search`)
also plays its options out with.

The seats play zone's own policies (:func:`zone_policy`); the score is kept on a
:class:`ZoneSheet`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ... import cards as C
from ...policies import PARAMS_BY_KIND, PolicyKind, PolicySpec
from ...record import Declaration, EndKind, Outcome, Trick
from ..args import RuleBook
from ..bits import JACK_PAIRS, RANK, SUIT, TRUMP_HONOURS, rams_suit, seat_order
from ..deal import DealTable, deal_hands, turn_trump
from ..declare import holds_four_aces
from ..party import DealResult
from ..play import trick_winner
from ..policy import BasicPolicy, RandomPolicy, first_card_probe

WIDOW_SIZE = 5  # VARIANTS "zone: the deal": a five-card widow
N_PLAYERS = 2
SWAP = (1 << C.HAND_SIZE) - 1  # the swap as an exchange option: all five cards given (branching's mask 31)


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


def counted_jacks(rules, trump: int, won, pair_tricks) -> tuple[list[int], int]:
    """([jack points by seat], the seat whose pairs are void or NO_SEAT) for the cards won so far.

    Each seat's points as :func:`jack_points` counts them; when both collected a pair and
    ``zone_jacks_both`` is ``trump-jack``, only the winner of the trump jack writes his off.
    """
    points = [jack_points(rules, won[s], pair_tricks[s]) for s in range(N_PLAYERS)]
    counted = [p[0] for p in points]
    void = C.NO_SEAT
    if all(p[1] > 0 for p in points) and rules.zone_jacks_both == "trump-jack":
        trump_jack = TRUMP_HONOURS[trump][3]
        void = next(s for s in range(N_PLAYERS) if trump_jack not in won[s])
        counted[void] = 0
    return counted, void


def ace_value(rules, cards) -> int:
    """The values of the aces among ``cards`` (``ace_values``, by suit)."""
    return sum(rules.ace_values[SUIT[c]] for c in cards if RANK[c] == C.ACE)


def aces_of(table, seat: int) -> int:
    """A (R7): the values of the aces in ``seat``'s hand at the first lead."""
    return ace_value(table.book.rules, table.hand_final[seat])


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
        self.first_card = self.basic.first_card  # the probe (policies.py), read by play_from
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


# ---- the score of a deal ------------------------------------------------------------------
class ZoneSheet:
    """A zone deal's count: the tricks and cards won, the jacks, the deltas, the прокат,
    who ends the party and who deals next."""

    def __init__(self, scores):
        self.scores = list(scores)
        self.won = [[], []]  # the cards each seat won
        self.pair_tricks = [0, 0]  # tricks holding a same-colour jack pair, by winner
        self.tricks = [0, 0]
        self.jacks = [0, 0]
        self.declaration = [int(Declaration.NONE)] * N_PLAYERS
        self.delta = [0, 0]
        self.overshoot = [False, False]
        self.prokat = [False, False]
        self.outcome = int(Outcome.PLAYED)
        self.ends_party = C.NO_SEAT
        self.end_kind = int(EndKind.NONE)
        self.next_dealer = C.NO_SEAT
        self.stopper = C.NO_SEAT  # zone_finish=trick: the seat at exactly 0 that stopped the play


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


# ---- the steps of a deal ----------------------------------------------------------------------
def deal_cards(table) -> None:
    """R3 with a widow: partner d[0..4], dealer d[5..9], widow d[10..14], turned card d[15]."""
    deal_hands(table)
    start = C.HAND_SIZE * N_PLAYERS
    table.widow = sorted(table.deck_order[start : start + WIDOW_SIZE])
    turn_trump(table, table.deck_order[start + WIDOW_SIZE])  # "снимается верхняя карта с оставшейся колоды"


def swap(table, option: int | None = None) -> None:
    """The partner ("партнер": the other player, seat dealer+1) alone may give his five
    cards back to the stock and take the widow. ``option`` (SWAP or 0) imposes his choice
    (the search's rollouts); else a searching partner searches (:mod:`.zone_search`) and
    any other asks his policy."""
    seat = table.seats[0]
    if option is None:
        from .zone_search import search_swap

        option = search_swap(table)
    if option is None:
        swapping = table.policies[seat].wants_swap(list(table.hand[seat]), table.trump)
    else:
        swapping = option == SWAP
    if swapping:
        table.discards[seat] = list(table.hand[seat])
        table.drawn[seat] = list(table.widow)
        table.hand[seat] = list(table.widow)
        table.widow_taker = seat
        table.note("swap", seat=seat, discard=table.discards[seat], drawn=table.drawn[seat])
    else:
        table.note("stand", seat=seat, discard=[], drawn=[])
    table.hand_final = [list(h) for h in table.hand]


def declare_four_aces(table, sheet: ZoneSheet) -> bool:
    """``four_aces_win``: a hand holding all four aces at the first lead wins the party at the
    declaration, before any rams (R5.1, R5 step 4a); every delta 0, no play. Returns True
    when four aces ended the deal."""
    if not table.book.rules.four_aces_win:
        return False
    for seat in table.seats:
        if holds_four_aces(table.hand[seat]):
            sheet.declaration[seat] = int(Declaration.FOUR_ACES)
            sheet.outcome = int(Outcome.FOUR_ACES)
            sheet.ends_party, sheet.end_kind = seat, int(EndKind.FOUR_ACES)
            table.note("four_aces", seat=seat)
            table.note("party_ends", seat=seat, kind=EndKind.FOUR_ACES.name)
            return True
    return False


def declare_rams(table, sheet: ZoneSheet) -> bool:
    """Rams in the hands at the first lead: the best writes off 5 (10 trump), the other
    writes on as much, each plus his A (R5.2, R5.3); no play (R5.2-R5.4 seniority). Returns
    True when a rams ended the deal."""
    rules = table.book.rules
    held = []
    for position, seat in enumerate(table.seats):
        suit = rams_suit(table.hand[seat])
        if suit >= 0:
            held.append(((suit == table.trump, suit, -position), seat, suit))
    if not held:
        return False
    held.sort(reverse=True)
    _, best, suit = held[0]
    is_trump = suit == table.trump
    value = rules.trump_rams if is_trump else rules.suit_rams
    sheet.declaration[best] = int(Declaration.TRUMP_RAMS if is_trump else Declaration.SUIT_RAMS)
    for _, seat, _ in held[1:]:
        sheet.declaration[seat] = int(Declaration.RAMS_OUTRANKED)
    sheet.outcome = int(Outcome.RAMS)
    table.note("rams", seat=best, suit=suit, trump=is_trump, outranked=[s for _, s, _ in held[1:]])
    writes = [(value + aces_of(table, s), 0) if s == best else (0, value + aces_of(table, s)) for s in range(N_PLAYERS)]
    settle(table, sheet, writes, EndKind.RAMS)
    return True


@dataclass
class ZonePlay:
    """Where a zone play stands: trick ``t``, its ``leader``, the first lead's ``duty``
    (None: any card) and the cards of trick ``t`` so far, in the order played."""

    t: int
    leader: int
    duty: list[int] | None
    trick: list[int] = field(default_factory=list)

    def copy(self) -> ZonePlay:
        return ZonePlay(self.t, self.leader, None if self.duty is None else list(self.duty), list(self.trick))


def play(table, sheet: ZoneSheet) -> None:
    """Five tricks; the first lead by duty; any card in answer; the trick by R6.4."""
    leader, duty = first_lead(table.book.rules, table.hand, table.trump_card, table.seats[0])
    play_from(table, sheet, ZonePlay(0, leader, duty))


def play_from(table, sheet: ZoneSheet, state: ZonePlay, forced: int | None = None) -> None:
    """The play from where ``state`` stands to the end of trick 5. ``forced`` is the card
    played next instead of asking the seat (the search's rollouts); a seat that searches
    asks :mod:`.zone_search`, any other its policy. With ``zone_finish=trick`` the play
    stops after the trick that brings a player to exactly 0 (:func:`stopper`)."""
    from .zone_search import search_card

    rules = table.book.rules
    aces = [aces_of(table, s) for s in range(N_PLAYERS)]
    leader = state.leader
    for t in range(state.t, C.N_TRICKS):
        trick = list(state.trick) if t == state.t else []
        order = (leader, 1 - leader)
        by_seat = [C.NO_CARD] * N_PLAYERS
        for i, card in enumerate(trick):
            by_seat[order[i]] = card
        for k in range(len(trick), N_PLAYERS):
            seat = order[k]
            hand = table.hand[seat]
            duty = state.duty if t == 0 else None
            legal = sorted(duty) if (t == 0 and k == 0 and duty) else sorted(hand)
            if forced is not None:
                card, forced = forced, None
            elif t == 0 and (probed := first_card_probe(table.policies[seat], legal)) is not None:
                card = probed  # the first_card probe (policies.py): not searched
            else:
                card = search_card(table, sheet, ZonePlay(t, leader, duty, list(trick)), seat, legal)
                if card is None:
                    written = sheet.tricks[seat] + jack_points(rules, sheet.won[seat], sheet.pair_tricks[seat])[0]
                    need_left = sheet.scores[seat] - written - aces[seat]  # A comes with his first trick
                    card = table.policies[seat].choose_card(list(hand), table.trump, list(trick), legal, need_left,
                                                            list(sheet.won[seat]), sheet.pair_tricks[seat], rules)  # fmt: skip
            if card not in legal:
                raise ValueError(
                    f"policy error (VARIANTS zone): seat {seat} plays {C.format_card(card)}, not a legal card"
                )
            hand.remove(card)
            trick.append(card)
            by_seat[seat] = card
        winner = order[trick_winner(table.trump, trick)]
        sheet.tricks[winner] += 1
        sheet.won[winner] += trick
        if any(set(trick) == {a, b} for a, b in JACK_PAIRS):
            sheet.pair_tricks[winner] += 1
        table.plays.append(Trick(leader=leader, cards=tuple(by_seat), winner=winner))
        table.note("trick", leader=leader, cards=list(trick), winner=winner)
        leader = winner  # R6.1
        if rules.zone_finish == "trick":
            sheet.stopper = stopper(table, sheet, aces)
            if sheet.stopper != C.NO_SEAT:
                table.note("stop", seat=sheet.stopper, trick=t + 1)
                return


def stopper(table, sheet: ZoneSheet, aces) -> int:
    """``zone_finish=trick`` (R8.2): the first seat from the dealer's left whose running
    write-off (tricks so far + the jacks of his cards won so far, :func:`counted_jacks`, + A
    from his first trick on) equals his score before the deal; NO_SEAT if none."""
    counted, _ = counted_jacks(table.book.rules, table.trump, sheet.won, sheet.pair_tricks)
    for s in table.seats:
        if sheet.tricks[s] >= 1 and sheet.tricks[s] + counted[s] + aces[s] == sheet.scores[s]:
            return s
    return C.NO_SEAT


def finish(table, sheet: ZoneSheet) -> None:
    """The count of a played deal: tricks, jacks and A written off, or the remiz and A written
    on and the прокат (R7.1, R7.2). After a stop at exactly 0 (``sheet.stopper``) only the
    stopper writes off; the other records nothing, jacks included (R8.2a's freeze)."""
    rules = table.book.rules
    counted, void = counted_jacks(rules, table.trump, sheet.won, sheet.pair_tricks)
    writes = []
    for s in range(N_PLAYERS):
        if sheet.stopper != C.NO_SEAT and s != sheet.stopper:
            writes.append((0, 0))  # the tricks were not played out: no count, no remiz, no прокат
            continue
        if s == void:
            sheet.declaration[s] = int(Declaration.JACKS_VOID)  # both collected: the trump jack's pair counts
        sheet.jacks[s] = counted[s]
        if counted[s]:
            kind = Declaration.FOUR_JACKS if counted[s] > rules.jack_pair else Declaration.JACK_PAIR
            sheet.declaration[s] = int(kind)
        aces = aces_of(table, s)
        if sheet.tricks[s] == 0:
            sheet.prokat[s] = True  # "обязан уплатить заранее условленную сумму (прокат)"
            writes.append((0, rules.remiz + aces))
        else:
            writes.append((sheet.tricks[s] + counted[s] + aces, 0))
    settle(table, sheet, writes, EndKind.TARGET)


def settle(table, sheet: ZoneSheet, writes, kind: EndKind) -> None:
    """Apply (write-off, write-on) by seat; the first at exactly 0 in seat order wins;
    the seat with the larger delta deals next (equal: the usual rotation)."""
    for s, (off, on) in enumerate(writes):
        score, over = new_score(table.book.rules, sheet.scores[s], off, on)
        sheet.delta[s] = score - sheet.scores[s]
        sheet.overshoot[s] = over
    for s in seat_order(table.dealer, N_PLAYERS):
        if sheet.scores[s] + sheet.delta[s] == 0:
            sheet.ends_party, sheet.end_kind = s, int(kind)
            table.note("party_ends", seat=s, kind=kind.name)
            break
    if sheet.delta[0] != sheet.delta[1]:
        sheet.next_dealer = 0 if sheet.delta[0] > sheet.delta[1] else 1


# ---- the entry points (:mod:`.classic` describes them) ----------------------------------------
def play_deal(book: RuleBook, specs, key: int, dealer: int, scores, order, *, stake: int = 1, cube: int = C.NO_SEAT,
              events=None) -> DealResult:  # fmt: skip
    """One zone deal (no dave: ``stake`` and ``cube`` do not apply); the loser deals next."""
    table = DealTable(book, specs, key, dealer, scores, order, events, policy_of=zone_policy)
    deal_cards(table)
    sheet = deal_from(table)
    record = table.record(sheet, prokat=tuple(sheet.prokat))
    return DealResult(record, next_dealer=sheet.next_dealer)


def deal_from(table, option: int | None = None) -> ZoneSheet:
    """The deal from the partner's swap on (``option``: as :func:`swap`): the swap, a rams,
    the play and the count; returns the deal's sheet."""
    sheet = ZoneSheet(table.scores)
    swap(table, option)
    if not declare_four_aces(table, sheet) and not declare_rams(table, sheet):
        play(table, sheet)
        finish(table, sheet)
    return sheet


def settlement(book: RuleBook, scores, winner: int, stake: int, prokats) -> tuple[float, ...]:
    """VARIANTS "zone: settlement": the winner gets from the loser one stake (``settle=stake``)
    or the loser's remaining score, max(score, 0) stakes (``remaining``, R8.4); each прокат
    paid moves ``zone_prokat`` stakes to the other player (an unfinished party settles the
    прокаты only, R8.2c)."""
    money = []
    for s in range(N_PLAYERS):
        value = float(book.rules.zone_prokat * (prokats[1 - s] - prokats[s]))
        if winner >= 0:
            loser = 1 - winner
            paid = float(stake) if book.settle_stake else float(max(scores[loser], 0))
            value += paid if s == winner else -paid
        money.append(value)
    return tuple(money)
