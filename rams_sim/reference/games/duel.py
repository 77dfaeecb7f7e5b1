"""R9 ``duel`` (presets ``duel`` and ``duel-trump``, [000] Variants 2 and 3).

docs/VARIANTS.md "duel and duel-trump" is the specification. A duel deal is a classic
deal with four steps replaced:

1. the layout: R3's with a widow, the hands ``order[0..9]``, the widow ``order[10..14]``,
   the trump card ``order[15]``;
2. the widow instead of R4's pass and exchange (the first hand, then the dealer);
3. the trump card: never used (``duel``), or compulsory for the dealer (``duel-trump``);
4. the declarations: any one wins the party at once (every delta 0, or with
   ``duel_declaration_points`` the winner's R5 points; options ``duel_jacks_both`` and
   ``duel_four_jacks_senior`` rank two declarations);

and the play gains the dave offers (a doubling cube, as in backgammon; the stake and the
cube carry over the deals of a party) and its own first leader. The tricks are R6's
(:func:`..play.play_tricks`) and their scoring the classic sheet's (R7, R8.2-R8.3).
"""

from __future__ import annotations

import copy

import numpy as np

from ... import cards as C
from ...kernels.rng import deal_key
from ...policies import PARAMS_BY_KIND, PolicySpec
from ...record import Declaration, EndKind, Outcome
from ...rules import DuelJacksBoth, JacksCount
from ..args import RuleBook
from ..bits import FOUR_JACKS_KIND, JACK_PAIRS, RANK, SUIT, jack_kind, rams_suit
from ..deal import DealTable, deal_hands, shuffle, turn_trump
from ..declare import counted_jack_kinds, declare_four_aces, declare_rams, jack_points
from ..exchange import take_trump_card
from ..party import DealResult
from ..play import play_from, play_tricks, threats
from ..policy import RandomPolicy
from ..score import Scoresheet

N_PLAYERS = 2
WIDOW_AT = N_PLAYERS * C.HAND_SIZE  # R3: the widow's first position in the deck order, after the hands
TRUMP_AT = WIDOW_AT + C.HAND_SIZE  # R3: the turned card, after the widow
SWAP = (1 << C.HAND_SIZE) - 1  # the widow option "swap" (a discard of the whole hand); 0 stands
TRUMP_STEP, PLAY_STEP = 2, 3  # the steps of deal_from after the two widow steps
DAVE_PASS, DAVE_OFFER = 0, 1  # a searched dave offer's options
DAVE_DECLINE, DAVE_ACCEPT = 0, 1  # a searched answer's options


# ---- the policies' duel decisions (rams_sim/policies.py, "duel") ------------------------
def param(policy, name: str) -> float:
    """A policy parameter by name (its override, else the kind's default)."""
    spec = policy.spec
    return float(spec.params.get(name, PARAMS_BY_KIND[spec.kind][name]))


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
    credits the opponent with (:func:`estimate`).
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


# ---- the deal: layout, widow, trump card (VARIANTS.md "The deal", "The widow") --------------
def deal_widow(table) -> None:
    """R3's layout with a widow: the first hand d[0..4], the dealer d[5..9], the widow
    d[10..14] (the next cards), the trump card d[15] (the next one); no talon."""
    deal_hands(table)
    table.widow = sorted(table.deck_order[WIDOW_AT:TRUMP_AT])
    turn_trump(table, table.deck_order[TRUMP_AT])


def take_widow(table, step0: int = 0, first_option=None, searching: bool = False) -> None:
    """The first hand swaps his hand for the widow or stands ("продаю"); if he stood, the dealer
    may. From widow step ``step0`` (0 the first hand, 1 the dealer); ``first_option`` (0 stand,
    SWAP, or None) is taken at ``step0``; ``searching``: a ``pimc`` seat's choice is searched."""
    from .duel_search import search_widow  # the search plays deals of this module

    for k, seat in enumerate(table.seats):
        if k < step0 or table.widow_taker != C.NO_SEAT:
            continue
        hand = table.hand[seat]
        option = first_option if k == step0 else None
        if option is None and searching:
            option = search_widow(table, k, seat)
        swap = option == SWAP if option is not None else wants_widow(table.policies[seat], list(hand), table.trump)
        if swap:
            table.discards[seat] = list(hand)
            table.drawn[seat] = list(table.widow)
            table.hand[seat] = list(table.widow)
            table.widow_taker = seat
            table.note("exchange", seat=seat, discard=list(hand), drawn=list(table.widow))
        else:
            table.note("stand", seat=seat, discard=[], drawn=[])


def dealer_trump(table, option=None, searching: bool = False) -> None:
    """duel: nobody uses the trump card; duel-trump: the dealer must give one card for it
    (``option``: the card imposed; ``searching``: a ``pimc`` dealer's card is searched)."""
    from .duel_search import search_trump

    if table.book.rules.duel_trump_card:
        dealer = table.dealer
        hand = table.hand[dealer]
        if option is None and searching:
            option = search_trump(table)
        if option is not None:
            take, discard = True, option
        else:
            take, discard = table.policies[dealer].choose_trump_card(list(hand), table.trump_card, True)
        if not take or discard not in hand:
            raise ValueError(
                f"policy error (duel-trump): the dealer (seat {dealer}) must give a card of his for the trump card"
            )
        take_trump_card(table, discard)
    for seat in range(table.n):
        table.hand_final[seat] = list(table.hand[seat])


# ---- the declarations (VARIANTS.md "Declarations") -----------------------------------------
def declare(sheet) -> bool:
    """Any declaration wins the party at once: four aces (only with ``four_aces_win``), four
    jacks (after the rams when ``duel_four_jacks_senior`` is off), the best rams, a jack pair.
    Every delta is 0, or with ``duel_declaration_points`` the winner's R5 points. True when
    play follows."""
    senior = sheet.book.duel_four_jacks_senior
    won = (declare_four_aces(sheet) or (senior and _four_jacks(sheet)) or _rams(sheet)
           or (not senior and _four_jacks(sheet)) or _jack_pair(sheet))  # fmt: skip
    if won:
        sheet.settled = True
        return False
    sheet.outcome = int(Outcome.PLAYED)
    return True


def _four_jacks(sheet) -> bool:
    """Four jacks win whatever ``four_jacks_win`` says (any declaration wins); with points the
    holder writes off ``four_jacks`` (R5.5)."""
    kinds = counted_jack_kinds(sheet)
    for s in sheet.order:
        if kinds[s] == FOUR_JACKS_KIND:
            sheet.declaration[s] = int(Declaration.FOUR_JACKS)
            _write_jacks(sheet, s, kinds[s])
            sheet.outcome = int(Outcome.FOUR_JACKS)
            sheet.end_party(s, EndKind.FOUR_JACKS)
            return True
    return False


def _rams(sheet) -> bool:
    """The best rams (R5.4 seniority, the classic ranking) wins; lower rams are outranked,
    jacks void (R5.6), four jacks too when they are junior. Its points (R5.2-R5.3, the
    other's penalty included) stand only with ``duel_declaration_points``."""
    saved = list(sheet.delta)
    if not declare_rams(sheet):
        return False
    if not sheet.book.duel_declaration_points:
        sheet.delta = saved  # no points: the party is settled by stake
    if sheet.ends_party < 0:
        shown = (int(Declaration.SUIT_RAMS), int(Declaration.TRUMP_RAMS))
        best = next(s for s in sheet.order if sheet.declaration[s] in shown)
        sheet.end_party(best, EndKind.RAMS)
    return True


def _jack_pair(sheet) -> bool:
    """A counted jack pair wins; if both hold one, the first hand's (``duel_jacks_both``
    first-hand) or the one holding the trump jack (trump-jack); the other's is void."""
    kinds = counted_jack_kinds(sheet)
    holders = [s for s in sheet.order if kinds[s] == 1]
    if not holders:
        return False
    s = holders[0]
    if len(holders) > 1 and sheet.book.duel_jacks_both == DuelJacksBoth.TRUMP_JACK:
        s = next(h for h in holders if _holds_trump_pair(sheet, h))
    sheet.declaration[s] = int(Declaration.JACK_PAIR)
    _write_jacks(sheet, s, kinds[s])
    for other in sheet.order:
        if other != s and kinds[other] > 0:
            sheet.declaration[other] = int(Declaration.JACKS_VOID)
    sheet.outcome = int(Outcome.JACKS_END)
    sheet.end_party(s, EndKind.JACKS)
    return True


def _holds_trump_pair(sheet, seat: int) -> bool:
    """The seat's pair is the one of the trump suit's jack, in a hand that counts (R5.5 ``jacks_count``)."""
    trump_jack = C.card_id(sheet.trump, C.JACK)
    pair = next(p for p in JACK_PAIRS if trump_jack in p)
    counted = {JacksCount.DEALT: [sheet.hands_dealt[seat]], JacksCount.FINAL: [sheet.hands_final[seat]]}
    hands = counted.get(sheet.book.jacks_count, [sheet.hands_dealt[seat], sheet.hands_final[seat]])
    return any(all(c in hand for c in pair) for hand in hands)


def _write_jacks(sheet, seat: int, kind: int) -> None:
    """With ``duel_declaration_points`` the winner writes off his jacks (R5.5); else nothing."""
    if sheet.book.duel_declaration_points:
        sheet.jacks[seat] = jack_points(sheet.book, kind)
        sheet.delta[seat] = -sheet.jacks[seat]


def finish(sheet) -> None:
    """R7, R8.2a-R8.3; a declined dave is a deal cut short whose winner, the offerer,
    counts his aces only once he has a trick (as R8.2's running score)."""
    declined = sheet.end_kind == int(EndKind.DECLINED) and not sheet.settled
    sheet.finish()
    s = sheet.ends_party
    if declined and sheet.tricks[s] == 0 and not sheet.overshoot[s] and not sheet.book.score_so_far:
        sheet.delta[s] = -sheet.jacks[s]


# ---- dave (VARIANTS.md "Dave") ---------------------------------------------------------------
class Dave:
    """The party's doubling cube: the stake, the cube's owner (-1 in the middle), and the
    offers made in this deal by seat."""

    def __init__(self, stake: int, cube: int, players: int):
        self.stake = stake
        self.cube = cube
        self.offers = [0] * players


def estimate(table, sheet, seat: int, trick, centred_offer: bool) -> float:
    """The seat's win estimate (policies.py "duel"). The opponent's aces count 0 when the
    seat offers from a centred cube; otherwise (answering, or redoubling after the
    opponent showed strength) the least value of an ace he may hold (one of the seat's
    threats), 0 if none."""
    other = 1 - seat
    other_aces = 0
    if not centred_offer:
        values = [table.book.ace_values[SUIT[c]] for c in threats(table, seat, trick) if RANK[c] == C.ACE]
        other_aces = min(values) if values else 0
    return win_estimate(
        table.policies[seat], list(table.hand[seat]), table.trump, table.scores[seat], sheet.tricks[seat],
        sheet.aces[seat], table.scores[other], sheet.tricks[other], other_aces,
    )  # fmt: skip


def may_offer(rules, dave: Dave, seat: int, leading: bool) -> bool:
    """Dave: on, the cube centred or his, the doubled stake within ``dave_max``, and (with
    ``dave_lead_only``) he leads."""
    if not rules.dave or dave.stake * 2 > rules.dave_max:
        return False
    if rules.dave_lead_only and not leading:
        return False
    return dave.cube in (C.NO_SEAT, seat)


def answer_dave(table, sheet, dave: Dave, seat: int, trick, answer=None) -> bool:
    """``seat`` offers: the offer is counted, and the other accepts (stake x2, he owns the cube)
    or declines (the party ends, ``seat`` wins). ``answer``: DAVE_ACCEPT or DAVE_DECLINE imposed
    (a searched answer), or None: his policy answers. Returns True when declined."""
    dave.offers[seat] += 1
    other = 1 - seat
    if answer is None:
        answerer = table.policies[other]
        answer_estimate = 0.0 if isinstance(answerer, RandomPolicy) else estimate(table, sheet, other, trick, False)
        take = takes_dave(answerer, answer_estimate)
    else:
        take = answer == DAVE_ACCEPT
    if take:
        dave.stake *= 2
        dave.cube = other
        table.note("dave", seat=seat, accepted=True, stake=dave.stake)
        return False
    table.note("dave", seat=seat, accepted=False, stake=dave.stake)
    # the deal stops as one cut short by the end of the party (R8.2a), the offerer winning
    sheet.stopped = True
    sheet.end_party(seat, EndKind.DECLINED)
    return True


def dave_turn(table, sheet, dave: Dave, seat: int, state, searching: bool = False) -> bool:
    """Before ``seat`` plays (``state``: where the play stands): he may offer; the other accepts
    (stake x2, he owns the cube) or declines (the party ends, ``seat`` wins). Returns True when
    declined. ``searching``: a ``pimc`` seat's offer or answer is searched (:mod:`.duel_search`)."""
    from .duel_search import search_dave

    trick = state.trick
    if not may_offer(table.book.rules, dave, seat, not trick):
        return False
    option = search_dave(table, sheet, state, seat, seat) if searching else None
    if option is None:
        policy = table.policies[seat]
        centred = dave.cube == C.NO_SEAT
        offer_estimate = 0.0 if isinstance(policy, RandomPolicy) else estimate(table, sheet, seat, trick, centred)
        offer = offers_dave(policy, offer_estimate)
    else:
        offer = option == DAVE_OFFER
    if not offer:
        return False
    answer = search_dave(table, sheet, state, seat, 1 - seat) if searching else None
    return answer_dave(table, sheet, dave, seat, trick, answer)


# ---- the entry points (:mod:`.classic` describes them) ----------------------------------------
def play_deal(book: RuleBook, specs, key: int, dealer: int, scores, order, *, stake: int = 1, cube: int = C.NO_SEAT,
              events=None) -> DealResult:  # fmt: skip
    """One duel deal; ``stake`` and ``cube`` are the party's dave state before it."""
    table = DealTable(book, specs, key, dealer, scores, order, events)
    deal_widow(table)
    table.dave = Dave(stake, cube, table.n)
    sheet = deal_from(table, 0, None, searching=True)
    record = table.record(sheet, stake=table.dave.stake, dave=tuple(table.dave.offers))
    return DealResult(record, cube=table.dave.cube)


def deal_from(table, step0: int, first_option=None, searching: bool = False):
    """The deal from step ``step0`` on (0, 1: the widow of the first hand, of the dealer;
    TRUMP_STEP: duel-trump's card; PLAY_STEP: the declarations and the play), as a finished
    sheet; the table's ``dave`` holds the party's stake and cube. ``first_option`` (or None)
    is taken at ``step0``; ``searching``: a ``pimc`` seat's decisions and cards are searched
    (:mod:`.duel_search`; its rollouts play with ``False``)."""
    from ..pimc import search_card

    if step0 < TRUMP_STEP:
        take_widow(table, step0, first_option, searching)
    if step0 <= TRUMP_STEP:
        dealer_trump(table, first_option if step0 == TRUMP_STEP else None, searching)
    active = [True] * table.n  # nobody passes in a duel
    announce = [spec.announce for spec in table.specs]
    sheet = Scoresheet(table.book, table.dealer, table.trump, table.hand_dealt, table.hand_final, active, table.scores,
                       announce, table.events)  # fmt: skip
    if declare(sheet):
        # R6 for two; the first lead to the widow taker, else the first hand
        leader = table.widow_taker if table.widow_taker >= 0 else table.seats[0]
        play_tricks(table, sheet, leader, dave_hook(table, sheet, searching), search_card if searching else None)
    finish(sheet)
    return sheet


def dave_hook(table, sheet, searching: bool = False):
    """The play's ``before_card`` step of a duel: :func:`dave_turn` on the table's cube."""
    return lambda seat, state: dave_turn(table, sheet, table.dave, seat, state, searching)


# ---- what policy pimc's search needs of the game (:mod:`..pimc`, :mod:`.duel_search`) ----------------
DELTA_SIGN = 1  # the values of party_value: the least is the best


def trump_maybe_discarded(table) -> bool:
    """duel: the turned card stays out of play; duel-trump: the dealer holds it until he plays it."""
    return False


def play_on(table, sheet, key: int, rollout) -> tuple[int, int]:
    """An imagined party after its deal (``sheet``, finished), when the deal did not end it: the
    next deals, the dealer alternating, keyed ``deal_key(key, d)`` for d = 1, 2, ..., every seat
    playing ``rollout`` (its defaults, the seats' announce flags kept), the stake and the cube
    carried on, until a deal ends the party or ``max_deals`` deals in all. Returns the winner
    (or -1) and the stake."""
    book = table.book
    scores = [table.scores[s] + sheet.delta[s] for s in range(table.n)]
    stake, cube = table.dave.stake, table.dave.cube
    specs = [PolicySpec(rollout, announce=spec.announce) for spec in table.specs]
    dealer = table.dealer
    for d in range(1, book.max_deals):
        dealer = 1 - dealer
        k = int(deal_key(np.uint64(key), d))
        result = play_deal(book, specs, k, dealer, scores, shuffle(book, k), stake=stake, cube=cube)
        rec = result.record
        scores = [scores[s] + rec.delta[s] for s in range(table.n)]
        stake, cube = rec.stake, result.cube
        if rec.ends_party >= 0:
            return rec.ends_party, stake
    return C.NO_SEAT, stake


def party_value(table, sheet, seat: int, key: int, rollout) -> int:
    """What an imagined deal (``sheet``, finished) is worth to ``seat``, the least the best: the
    party's outcome, settled by its stake: -stake if he wins it, +stake if he loses it, 0 if
    it is not over within ``max_deals`` deals; a deal that does not end the party is followed
    by the rest of the party (:func:`play_on`)."""
    winner, stake = sheet.ends_party, table.dave.stake
    if winner < 0:
        winner, stake = play_on(table, sheet, key, rollout)
    if winner < 0:
        return 0
    return -stake if winner == seat else stake


def card_rollout(table, sheet, state, seat: int, card: int, key: int, rollout) -> int:
    """A searched card's rollout (:func:`..pimc.search_card`): ``card`` now, the deal played on
    with dave by the imagined table's players, then :func:`party_value`."""
    table.dave = copy.deepcopy(table.dave)  # the imagined table's own cube
    play_from(table, sheet, state.copy(), dave_hook(table, sheet), forced=card)
    finish(sheet)
    return party_value(table, sheet, seat, key, rollout)


def settlement(book: RuleBook, scores, winner: int, stake: int, prokats) -> tuple[float, ...]:
    """Per party ("Расчёт за партию"): the winner gets the stake, the loser pays it."""
    n = len(scores)
    money = [0.0] * n
    if winner >= 0:
        for s in range(n):
            money[s] = float(stake) if s == winner else -float(stake)
    return tuple(money)


def world_fits(table, sheet, state, seat: int, world) -> float:
    """Any declaration would have won the party, so the other seat showed none; R8.2 as in
    classic (:func:`..pimc.declarations_fit`)."""
    from ..pimc import declarations_fit

    return declarations_fit(table, sheet, state, seat, world)
