"""R9 ``duel``: presets ``duel`` and ``duel-trump`` ([000] Variants 2 and 3).

docs/VARIANTS.md "duel and duel-trump" is the specification. One deal reuses the
classic steps (:mod:`..deal`, :func:`..exchange.dealer_trump_with`, the holders of
:mod:`..declare`, :func:`..play.play_tricks`, :mod:`..score`) and replaces four: the
widow instead of R4's pass and exchange, the trump card (never used, or compulsory for
the dealer), the declarations (any one wins the party at once; every delta 0, or with
``duel_declaration_points`` its R5 points) and the play (its own first leader, and dave
before each card: this module's ``before_card``). The layout is R3's with a widow:
the hands ``order[0..9]``, the widow ``order[10..14]``, the trump card ``order[15]``.

Dave, the doubling: before each card he plays, a seat may offer to double the party's
stake; the other accepts (the stake doubles and he owns the cube, as in backgammon) or
declines and loses the party at the stake before it. The stake and the cube are
``info[STAKE]`` / ``info[CUBE]``, set by the driver and kept across a party.

The duel decisions of the built-in policies (the widow, dave) are here too; they build
on basic's hand strength (:mod:`..policy`, described in words in rams_sim/policies.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import ACE, HAND_SIZE, JACK, N_SUITS, N_TRICKS
from ...policies import (
    DUEL_ACE_WEIGHT,
    DUEL_DAVE_HAND,
    DUEL_DAVE_OFFER,
    DUEL_DAVE_SLOPE,
    DUEL_DAVE_TAKE,
    DUEL_WIDOW_THRESHOLD,
)
from ..bits import ACE_CARDS, ZERO, bit, card_of, has, jack_kind, pair_jacks, popcount, rams_suit, suit_of
from ..codes import (
    D_FOUR_ACES,
    D_FOUR_JACKS,
    D_JACK_PAIR,
    DAVE_DECISION,
    DUEL_TRUMP_JACK,
    E_DECLINED,
    E_FOUR_ACES,
    E_FOUR_JACKS,
    E_JACKS,
    E_RAMS,
    JACKS_DEALT,
    JACKS_FINAL,
    NO_FORCE,
    NO_OPTION,
    O_FOUR_ACES,
    O_FOUR_JACKS,
    O_JACKS_END,
    O_PLAYED,
    O_RAMS,
    OK,
    SCORE_SO_FAR,
    UNAVAILABLE,
)
from ..deal import deal_cards, reset_scoring, shuffle_and_seed
from ..declare import best_rams, four_aces_holder, four_jacks_holder, prepare_final, rams_deltas, void_jacks
from ..exchange import dealer_trump_with
from ..force import forced_option, took
from ..knowledge import declarations_fit
from ..play import failed_play, play_tricks
from ..policy import RANDOM, _strength, threats_of
from ..rng import bounded, deal_key
from ..score import credit_trick, finish_deal
from ..search import arm, search_hook
from ..state import (
    ACES,
    CUBE,
    DAVE,
    DEALT,
    DECL,
    DELTA,
    DISCARDS,
    DRAWN,
    END_KIND,
    ENDS_PARTY,
    HAND,
    JACK_KIND,
    JACKS,
    OUTCOME,
    STAKE,
    STATUS,
    TRICKS,
    TRUMP_CARD,
    WIDOW,
    seat_after,
)

N_SEATS = 2
WIDOW_AT = N_SEATS * HAND_SIZE  # R3: the widow order[10..14] takes the cards after the hands
TRUMP_AT = WIDOW_AT + HAND_SIZE  # R3: the next card, order[15], is turned up
SWAP_OPTION = (1 << HAND_SIZE) - 1  # branching: discard mask 31 = swap the hand for the widow
# the steps of a deal (deal_from): the first hand's widow, the dealer's, the duel-trump card, the play
TRUMP_STEP, PLAY_STEP = 2, 3
NEW_DEAL = -1  # rollout_deal's step: a whole new deal

# ---- the search's hooks (duel_search.py, imported when a searching driver is compiled) ----
duel_search_widow = search_hook(
    "duel_search_widow", "search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer, "
    "step, seat", ".games.duel_search.duel_pimc_widow", "search, r, params, announce, order, cardsets, st, trick, "
    "info, log, scores, dealer, step, seat", "A searching seat's widow option at widow step ``step`` (0 stand, "
    "SWAP_OPTION), or NO_OPTION.", __name__)  # fmt: skip
duel_search_trump = search_hook(
    "duel_search_trump", "search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer",
    ".games.duel_search.duel_pimc_trump", "search, r, params, announce, order, cardsets, st, trick, info, log, scores, "
    "dealer", "A searching dealer's card for the trump card in duel-trump, or NO_OPTION.", __name__,
    decider="dealer")  # fmt: skip
duel_search_dave = search_hook(
    "duel_search_dave", "search, r, kinds, params, announce, cardsets, st, trick, log, info, scores, t, k, leader, "
    "q_duty, offerer, trump_card, dealer, played, decider", ".games.duel_search.duel_pimc_dave", "search, r, params, "
    "announce, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, offerer, trump_card, dealer, played, "
    "decider", "A searching seat's dave option before ``offerer``'s card ``k`` of trick ``t``: the offerer's "
    "(``decider`` == ``offerer``: DAVE_PASS or DAVE_OFFER) or the other's answer (DAVE_DECLINE or DAVE_ACCEPT); "
    "NO_OPTION when ``decider`` does not search.", __name__, decider="decider")  # fmt: skip
# a dave decision's options (a searching seat's, :mod:`.duel_search`)
DAVE_PASS, DAVE_OFFER = 0, 1  # the offerer: no offer, or an offer
DAVE_DECLINE, DAVE_ACCEPT = 0, 1  # the other: decline (he loses the party now), or accept (the stake doubles)


# ---- the policies' duel decisions (policies.py) ------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def _duel_value(params, seat, hand, trump):
    """basic's strength plus ``duel_ace_weight`` per ace."""
    aces = popcount(hand & ACE_CARDS)
    return _strength(hand, trump, params, seat) + params[seat, DUEL_ACE_WEIGHT] * aces


@njit(cache=True, _nrt=False, inline="always")
def wants_widow(kind, params, seat, rng, hand, trump):
    """duel: swap the hand for the widow? random: a coin; basic-like: stand with a rams or a
    jack pair in hand, else swap iff the duel value is below ``duel_widow_threshold``."""
    if kind == RANDOM:
        return bounded(rng, seat + 1, 2) == 1
    if rams_suit(hand) >= 0 or jack_kind(hand) > 0:
        return False
    return _duel_value(params, seat, hand, trump) < params[seat, DUEL_WIDOW_THRESHOLD]


@njit(cache=True, _nrt=False, inline="always")
def _need(score, tricks, aces):
    """duel: the tricks still needed to reach zero (at least 1 before the first trick)."""
    rest = score - tricks - aces
    if tricks == 0:
        return max(rest, 1)
    return max(rest, 0)


@njit(cache=True, _nrt=False, inline="always")
def dave_estimate(kind, params, seat, hand, trump, my_score, my_tricks, my_aces, other_score, other_tricks, other_aces):
    """duel: a basic-like seat's chance to win the party (policies.py); 0 for random (unused)."""
    if kind == RANDOM:
        return 0.0
    diff = _need(other_score, other_tricks, other_aces) - _need(my_score, my_tricks, my_aces)
    p = 0.5 + params[seat, DUEL_DAVE_SLOPE] * diff + params[seat, DUEL_DAVE_HAND] * (_strength(hand, trump, params, seat) - 2.0)
    return min(max(p, 0.0), 1.0)


@njit(cache=True, _nrt=False, inline="always")
def offers_dave(kind, params, seat, rng, p):
    """duel: offer dave? random: a coin; basic-like: ``p > duel_dave_offer``."""
    if kind == RANDOM:
        return bounded(rng, seat + 1, 2) == 1
    return p > params[seat, DUEL_DAVE_OFFER]


@njit(cache=True, _nrt=False, inline="always")
def takes_dave(kind, params, seat, rng, p):
    """duel: accept an offered dave? random: a coin; basic-like: ``p > duel_dave_take``."""
    if kind == RANDOM:
        return bounded(rng, seat + 1, 2) == 1
    return p > params[seat, DUEL_DAVE_TAKE]


# ---- dave -------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def _least_possible_ace(r, seat, dealer, trump_card, played, cardsets, st):
    """The least value of an ace the opponent of ``seat`` may hold (one of his threats), or 0."""
    threats = threats_of(seat, dealer, r.deck_mask, trump_card, played, cardsets, st)
    least = -1
    for suit in range(N_SUITS):
        if has(threats, card_of(suit, ACE)) and (least < 0 or r.ace_values[suit] < least):
            least = r.ace_values[suit]
    return max(least, 0)


@njit(cache=True, _nrt=False, inline="always")
def seat_estimate(r, kinds, params, cardsets, st, scores, seat, trump_card, dealer, played, centred_offer):
    """``seat``'s estimate of its chance to win the party (:func:`dave_estimate`; 0 for random, which
    reads none). The opponent's aces count 0 when ``centred_offer`` (he offers from a centred cube),
    else the least value of an ace the opponent may hold."""
    if kinds[seat] == RANDOM:
        return 0.0
    other = 1 - seat
    guess = 0 if centred_offer else _least_possible_ace(r, seat, dealer, trump_card, played, cardsets, st)
    return dave_estimate(kinds[seat], params, seat, cardsets[HAND, seat], suit_of(trump_card), scores[seat],
                         st[TRICKS, seat], st[ACES, seat], scores[other], st[TRICKS, other], guess)  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def may_offer(r, info, seat, leading):
    """Dave is on, the doubled stake is within ``dave_max``, (``dave_lead_only``) he leads, and
    the cube is centred or his."""
    if r.dave == 0 or info[STAKE] * 2 > r.dave_max:
        return False
    if r.dave_lead_only != 0 and not leading:
        return False
    return info[CUBE] < 0 or info[CUBE] == seat


@njit(cache=True, _nrt=False)  # a call, not inlined: numba 0.68 inlining it with an inlined hook's result as
# ``answer`` compiled the answer as imposed (tests/test_differential.py's duel pimc tests caught it)
def answer_dave(r, kinds, params, rng, cardsets, st, info, scores, seat, trump_card, dealer, played, answer, branch):
    """``seat`` offers: the offer is counted, and the other accepts (the stake doubles, he owns
    the cube) or declines. ``answer``: DAVE_ACCEPT or DAVE_DECLINE imposed (a searched answer),
    or NO_OPTION: his policy answers, estimating the offerer's aces as the least value of an
    ace he may hold; ``branch`` (or NO_OPTION) then replaces his policy's answer (a branch,
    :mod:`..force`: his coins are drawn as in a plain run). Returns True when the offer was declined (the party ends, ``seat`` wins)."""
    st[DAVE, seat] += 1
    other = 1 - seat
    if answer == NO_OPTION:
        q = seat_estimate(r, kinds, params, cardsets, st, scores, other, trump_card, dealer, played, False)
        take = takes_dave(kinds[other], params, other, rng, q)
        if branch != NO_OPTION:
            take = took(info, branch) == DAVE_ACCEPT
    else:
        take = answer == DAVE_ACCEPT
    if take:
        info[STAKE] *= 2
        info[CUBE] = other
        return False
    return True


@njit(cache=True, _nrt=False, inline="always")
def dave_turn(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, seat,
              trump_card, dealer, played, search):  # fmt: skip
    """Before ``seat`` plays card ``k`` of trick ``t``: may he offer dave, does he, does the other
    accept? Returns True when the offer was declined (the party ends, ``seat`` wins).

    A ``pimc`` seat's offer and answer are searched from where the play stands
    (:mod:`.duel_search`, through the hook of :mod:`..search`). The policies' estimates
    (policies.py): the opponent's aces count 0 for an offer from a centred cube, else the
    least value of an ace he may hold. A branch forces an offer or an answer through the seat's policy
    row (:func:`..force.forced_option`, the decision numbers of :func:`dave_decision`)."""
    if not may_offer(r, info, seat, k == 0):
        return False
    branch = forced_option(params, seat, dave_decision(seat, t, 0), info)  # a branch's: DAVE_PASS, DAVE_OFFER
    option = NO_OPTION
    if branch == NO_OPTION:
        option = duel_search_dave(search, r, kinds, params, announce, cardsets, st, trick, log, info, scores, t, k,
                                  leader, q_duty, seat, trump_card, dealer, played, seat)  # fmt: skip
    if option == NO_OPTION:
        p = seat_estimate(r, kinds, params, cardsets, st, scores, seat, trump_card, dealer, played, info[CUBE] < 0)
        offer = offers_dave(kinds[seat], params, seat, rng, p)
        if branch != NO_OPTION:  # his policy was asked all the same: its coins drawn as in a plain run
            offer = took(info, branch) == DAVE_OFFER
    else:
        offer = option == DAVE_OFFER
    if not offer:
        return False
    branch = forced_option(params, 1 - seat, dave_decision(1 - seat, t, 1), info)  # a branch's: DAVE_DECLINE, ACCEPT
    answer = NO_OPTION
    if branch == NO_OPTION:
        answer = duel_search_dave(search, r, kinds, params, announce, cardsets, st, trick, log, info, scores, t, k,
                                  leader, q_duty, seat, trump_card, dealer, played, 1 - seat)  # fmt: skip
    return answer_dave(r, kinds, params, rng, cardsets, st, info, scores, seat, trump_card, dealer, played, answer,
                       branch)  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def dave_decision(decider, t, answering):
    """The decision number of ``decider``'s dave choice in trick ``t`` (``answering``: 1 for an answer,
    0 for an offer): a seat offers at most once a trick, before its card, and answers at most once."""
    return DAVE_DECISION + (decider * N_TRICKS + t) * 2 + answering


# ---- the deal -----------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def take_widow(kinds, params, rng, order, cardsets, st, info, first, forced_seat, forced_option, step0, first_option,
               search, r, announce, trick, log, scores, dealer):  # fmt: skip
    """The widow from step ``step0`` (0: the first hand swaps or stands, 1: then, if he stood,
    the dealer); returns a status.

    A swap: discards = the whole dealt hand, drawn = the widow, info[WIDOW] = the seat.
    ``forced_seat`` takes option 0 (stand) or SWAP_OPTION; any other option is UNAVAILABLE,
    and so is a swap once the widow is gone. ``first_option`` (or NO_OPTION) is imposed at
    step ``step0`` (a searched option played out, :mod:`.duel_search`); a ``pimc`` seat's
    choice is searched (``search``).
    """
    widow = ZERO
    for j in range(HAND_SIZE):
        widow |= bit(order[WIDOW_AT + j])
    trump = suit_of(info[TRUMP_CARD])
    for k in range(step0, N_SEATS):
        seat = seat_after(first, k, N_SEATS)
        hand = cardsets[HAND, seat]
        option = first_option if k == step0 else NO_OPTION
        if option == NO_OPTION and seat == forced_seat:
            option = forced_option
        if option != NO_OPTION:
            if option != 0 and option != SWAP_OPTION:
                return UNAVAILABLE
            if info[WIDOW] >= 0:
                if option == SWAP_OPTION:
                    return UNAVAILABLE
                continue
            swap = option == SWAP_OPTION
        elif info[WIDOW] >= 0:
            continue
        else:
            option = duel_search_widow(search, r, kinds, params, announce, order, cardsets, st, trick, info, log,
                                       scores, dealer, k, seat)  # fmt: skip
            if option != NO_OPTION:
                swap = option == SWAP_OPTION
            else:
                swap = wants_widow(kinds[seat], params, seat, rng, hand, trump)
        if swap:
            cardsets[DISCARDS, seat] = hand
            cardsets[DRAWN, seat] = widow
            cardsets[HAND, seat] = widow
            info[WIDOW] = seat
    return OK


@njit(cache=True, _nrt=False, inline="always")
def declare_duel(r, cardsets, st, first, trump, info):
    """Any declaration wins the party at once (VARIANTS.md "Declarations"), checked in this
    order: four aces (with four_aces_win), four jacks (``duel_four_jacks_senior``; else after
    the rams), the best rams (R5.4), a jack pair (both: :func:`_jack_pair_winner`). Every delta
    stays 0, or with ``duel_declaration_points`` the winning declaration writes its R5 points.
    Returns True when the cards are played."""
    if r.four_aces_win:
        holder = four_aces_holder(cardsets, st, N_SEATS, first)
        if holder >= 0:  # R5.1: no points, even with duel_declaration_points
            return _wins(st, info, holder, D_FOUR_ACES, O_FOUR_ACES, E_FOUR_ACES)
    if r.duel_four_jacks_senior:
        holder = four_jacks_holder(st, N_SEATS, first)
        if holder >= 0:
            return _jacks_win(r, st, info, holder, r.four_jacks, D_FOUR_JACKS, O_FOUR_JACKS, E_FOUR_JACKS)
    best = best_rams(cardsets, st, N_SEATS, first, trump, r.card_points)
    if best >= 0:  # a lower rams is RAMS_OUTRANKED; any jacks (four jacks junior) are void, R5.6
        if r.duel_declaration_points:
            rams_deltas(r, st, N_SEATS, best)  # R5.2-R5.3: the other writes on, an outranked rams too
        return _wins(st, info, best, -1, O_RAMS, E_RAMS)
    holder = four_jacks_holder(st, N_SEATS, first)  # four jacks junior to a rams, none shown
    if holder >= 0:
        return _jacks_win(r, st, info, holder, r.four_jacks, D_FOUR_JACKS, O_FOUR_JACKS, E_FOUR_JACKS)
    holder = _jack_pair_winner(r, cardsets, st, first, trump)
    if holder >= 0:
        return _jacks_win(r, st, info, holder, r.jack_pair, D_JACK_PAIR, O_JACKS_END, E_JACKS)
    info[OUTCOME] = O_PLAYED
    return True


@njit(cache=True, _nrt=False, inline="always")
def _holds_trump_pair(r, cardsets, seat, trump):
    """A hand of ``seat`` that counts for jacks (R5.5 ``jacks_count``: the dealt, the final, or
    either) holds the pair of the trump suit's jack."""
    jack = card_of(trump, JACK)
    dealt = has(pair_jacks(cardsets[DEALT, seat]), jack)
    final = has(pair_jacks(cardsets[HAND, seat]), jack)
    if r.jacks_count == JACKS_DEALT:
        return dealt
    if r.jacks_count == JACKS_FINAL:
        return final
    return dealt or final


@njit(cache=True, _nrt=False, inline="always")
def _jack_pair_winner(r, cardsets, st, first, trump):
    """The seat whose counted jack pair wins (R5.5), or -1. Both hold one (one red, one black
    pair: all four jacks): the first hand's (``duel_jacks_both`` first-hand, R5 step 4c's
    "nearest the dealer's left") or the pair holding the trump jack's (trump-jack)."""
    winner = -1
    for k in range(N_SEATS):
        seat = seat_after(first, k, N_SEATS)
        if st[JACK_KIND, seat] != 1:
            continue
        if winner < 0 or (r.duel_jacks_both == DUEL_TRUMP_JACK and _holds_trump_pair(r, cardsets, seat, trump)):
            winner = seat
    return winner


@njit(cache=True, _nrt=False, inline="always")
def _jacks_win(r, st, info, seat, points, decl, outcome, kind):
    """``seat`` wins the party by jacks (a pair, four jacks); with ``duel_declaration_points`` he
    writes off their ``points`` (R5.5: jack_pair, four_jacks), the other nothing (his are void)."""
    if r.duel_declaration_points:
        st[JACKS, seat] = points
        st[DELTA, seat] = -points
    return _wins(st, info, seat, decl, outcome, kind)


@njit(cache=True, _nrt=False, inline="always")
def _wins(st, info, seat, decl, outcome, kind):
    """``seat`` wins the party by a declaration (``decl`` >= 0 is written; -1: already set)."""
    if decl >= 0:
        st[DECL, seat] = decl
    void_jacks(st, N_SEATS)  # the other's jacks (and the winner's under a rams) are void
    info[OUTCOME] = outcome
    info[ENDS_PARTY] = seat
    info[END_KIND] = kind
    return False


@njit(cache=True, _nrt=False, inline="always")
def deal_duel(order, dealer, cardsets, st, info):
    """R3 with a widow: seat dealer+1 gets order[0..4], the dealer order[5..9], the widow is
    order[10..14] (read at the widow step, :func:`take_widow`), the trump card order[15]."""
    deal_cards(order, N_SEATS, dealer, cardsets, st)
    info[TRUMP_CARD] = order[TRUMP_AT]


@njit(cache=True, _nrt=False)
def play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
              forced_seat, forced_option, search):  # fmt: skip
    """One duel deal into the state arrays (:func:`.classic.play_deal`'s contract); returns a status.

    ``forced_seat`` takes the widow option ``forced_option`` (0 stand, 31 swap) for branching.
    """
    shuffle_and_seed(r, kinds, key, fixed_order, fixed_order.shape[0] > 0, order, rng)
    reset_scoring(st, N_SEATS, info, log)
    deal_duel(order, dealer, cardsets, st, info)
    return deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log, forced_seat,
                     forced_option, np.int64(0), np.int64(NO_OPTION), arm(search, key))  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")  # inlined: a search calls it from inside itself (no recursion)
def deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log, forced_seat,
              forced_option, step0, first_option, search):  # fmt: skip
    """The deal from step ``step0`` on (0, 1: the widow of the first hand, of the dealer;
    TRUMP_STEP: duel-trump's card; PLAY_STEP: the declarations and the play); returns a status.

    ``first_option`` (or NO_OPTION) is imposed on the decision at ``step0`` (a searched
    option played out from the middle of a deal: :mod:`.duel_search`). ``search``: an armed
    :data:`..search.Scratch`, or None (the rollouts).
    """
    n = N_SEATS
    first = seat_after(dealer, 1, n)
    trump_card = info[TRUMP_CARD]
    trump = suit_of(trump_card)
    status = OK
    if step0 < TRUMP_STEP:
        status = take_widow(kinds, params, rng, order, cardsets, st, info, first, forced_seat, forced_option, step0,
                            first_option, search, r, announce, trick, log, scores, dealer)  # fmt: skip
    if status == OK and r.duel_trump_card and step0 <= TRUMP_STEP:  # compulsory: he must give a card for it
        option = first_option if step0 == TRUMP_STEP else NO_OPTION
        if option == NO_OPTION:
            option = duel_search_trump(search, r, kinds, params, announce, order, cardsets, st, trick, info, log,
                                       scores, dealer)  # fmt: skip
        status = dealer_trump_with(True, False, dealer, trump_card, kinds, params, rng, cardsets, st, option, None, r,
                                   announce, order, trick, info, log, scores, np.int64(0))  # fmt: skip
    if status != OK:
        info[STATUS] = status
        return status
    prepare_final(cardsets, st, n, r.ace_values, r.jacks_count)
    if declare_duel(r, cardsets, st, first, trump, info):
        leader = info[WIDOW] if info[WIDOW] >= 0 else first
        winner = play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card,
                             scores, leader, search)  # R6 with dave (before_card)
        if winner < -1:  # an illegal card (R6.8), or a branch's card not open to its seat
            info[STATUS] = failed_play(winner)
            return info[STATUS]
        finish_play(r, n, dealer, winner, scores, st, info)
    return OK


# ---- the entry points of a game (dispatch.py) ---------------------------------------------
@njit(cache=True, _nrt=False)
def settle_party(r, won, scores, stake, prokats, settlement, row):
    """Per party ("Расчёт за партию"): the winner gets the stake, the loser pays it; nothing unfinished."""
    for seat in range(N_SEATS):
        settlement[row, seat] = 0.0
    if won < 0:
        return
    for seat in range(N_SEATS):
        settlement[row, seat] = float(stake) if seat == won else -float(stake)


@njit(cache=True, _nrt=False, inline="always")
def before_card(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, seat,
                trump_card, dealer, played, search):  # fmt: skip
    """Dave before each card (:func:`dave_turn`); True when it was declined and the deal ends."""
    return dave_turn(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, seat,
                     trump_card, dealer, played, search)  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def credit(r, w, scores, st, announce):
    """R8.2: credit the trick to ``w``; True when he announces reaching zero."""
    return credit_trick(w, scores, st, announce)


# ---- what policy pimc's search needs of the game (:mod:`rams_sim.kernels.dispatch`, :mod:`.duel_search`) --------
DELTA_SIGN = 1  # the values below: the least is the best


@njit(cache=True, _nrt=False, inline="always")
def finish_play(r, n, dealer, winner, scores, st, info):
    """R7, R8.2a-R8.3 after the play; a declined dave is a deal cut short, the offerer (``winner``)
    in the winner's place, and stays DECLINED."""
    declined = info[END_KIND] == E_DECLINED
    score_so_far = r.truncated_deal == SCORE_SO_FAR
    finish_deal(n, seat_after(dealer, 1, n), r.start, r.remiz, score_so_far, winner, scores, st, info)
    if declined:
        info[END_KIND] = E_DECLINED


@njit(cache=True, _nrt=False, inline="always")
def trump_maybe_discarded(cardsets, st, dealer):
    """duel: the turned card stays out of play; duel-trump: the dealer holds it until he plays it."""
    return False


@njit(cache=True, _nrt=False)
def rollout_deal(r, kinds, params, announce, key, dealer, scores, order, rng, cardsets, st, trick, info, log, step,
                 option):  # fmt: skip
    """A rollout's deal, nobody searching: with ``step`` >= 0, the deal in the state arrays from
    ``step`` on with ``option`` taken there (:func:`deal_from`); with ``step`` < 0, a whole new deal
    keyed ``key`` (as :func:`play_deal`). One compiled function for every rollout of a deal: each
    extra one would cost a compile of the deal (docs/ENGINE.md), and a search inside
    :func:`play_deal` cannot call :func:`play_deal` (numba compiles no recursion)."""
    if step < 0:
        shuffle_and_seed(r, kinds, key, order, False, order, rng)
        reset_scoring(st, N_SEATS, info, log)
        deal_duel(order, dealer, cardsets, st, info)
        step, option = np.int64(0), np.int64(NO_OPTION)
    return deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log,
                     np.int64(NO_FORCE), np.int64(0), step, option, None)  # fmt: skip


@njit(cache=True)
def play_on(r, search, announce, scores, dealer, world_key):
    """A rollout's party after its deal, when the deal did not end it: the next deals, the
    dealer alternating, keyed ``deal_key(world_key, d)`` for d = 1, 2, ..., dealt and played
    by the rollout players (``search.roll_*``, nobody searching) in ``search.w_*``, the stake
    and the cube carried on, until a deal ends the party or ``max_deals`` deals in all.
    ``scores``: int64[2] before the rollout's deal. Returns the party's winner, or -1."""
    w_scores = search.w_scores
    for seat in range(N_SEATS):
        w_scores[seat] = scores[seat] + search.w_st[DELTA, seat]
    for d in range(1, r.max_deals):
        dealer = 1 - dealer
        status = rollout_deal(r, search.roll_kinds, search.roll_params, announce, deal_key(world_key, d), dealer,
                              w_scores, search.w_order, search.w_rng, search.w_cardsets, search.w_st, search.w_trick,
                              search.w_info, search.w_log, np.int64(NEW_DEAL), np.int64(NO_OPTION))  # fmt: skip
        if status != OK:
            return -1
        for seat in range(N_SEATS):
            w_scores[seat] += search.w_st[DELTA, seat]
        if search.w_info[ENDS_PARTY] >= 0:
            return search.w_info[ENDS_PARTY]
    return -1


@njit(cache=True, _nrt=False, inline="always")
def search_value(r, search, announce, seat, scores, dealer, world_key):
    """A rollout's worth to ``seat``, the least the best: the party's outcome, settled by its
    stake ("Расчёт за партию"): -stake if he wins it, +stake if he loses it, 0 if it is not
    over within ``max_deals`` deals. A deal that does not end the party is followed by the
    rest of the party (:func:`play_on`)."""
    winner = search.w_info[ENDS_PARTY]
    if winner < 0:
        winner = play_on(r, search, announce, scores, dealer, world_key)
    if winner < 0:
        return 0
    return -search.w_info[STAKE] if winner == seat else search.w_info[STAKE]


@njit(cache=True, inline="always")
def world_fits(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among):
    """Any declaration would have won the party (VARIANTS.md), so the other seat showed none:
    no rams, no four aces where they win, no jacks dealt or kept (:func:`..knowledge.declarations_fit`
    with nothing declared; a swap's discards are his dealt hand); R8.2 as in classic."""
    return declarations_fit(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among)
