"""R9 ``duel``: presets ``duel`` and ``duel-trump`` ([000] Variants 2 and 3).

docs/VARIANTS.md "duel and duel-trump" is the specification. One deal reuses the
classic steps (:mod:`..deal`, :func:`..exchange.dealer_trump`, the holders of
:mod:`..declare`, :func:`..play.play_tricks`, :mod:`..score`) and replaces four: the
widow instead of R4's pass and exchange, the trump card (never used, or compulsory for
the dealer), the declarations (any one wins the party at once, every delta 0) and the
play (its own first leader, and dave before each card: this module's ``before_card``).

Dave, the doubling: before each card he plays, a seat may offer to double the party's
stake; the other accepts (the stake doubles and he owns the cube, as in backgammon) or
declines and loses the party at the stake before it. The stake and the cube are
``info[STAKE]`` / ``info[CUBE]``, set by the driver and kept across a party.

The duel decisions of the built-in policies (the widow, dave) are here too; they build
on basic's hand strength (:mod:`..policy`, described in words in rams_sim/policies.py).
"""

from __future__ import annotations

from numba import njit

from ...cards import ACE, HAND_SIZE, N_SUITS, RANKS_PER_SUIT
from ...policies import DUEL_ACE_WEIGHT, DUEL_DAVE_HAND, DUEL_DAVE_OFFER, DUEL_DAVE_SLOPE, DUEL_DAVE_TAKE, DUEL_WIDOW_THRESHOLD
from ..bits import ACE_CARDS, ZERO, bit, card_of, has, jack_kind, popcount, rams_suit
from ..codes import (
    D_FOUR_ACES, D_FOUR_JACKS, D_JACK_PAIR, E_DECLINED, E_FOUR_ACES, E_FOUR_JACKS, E_JACKS, E_RAMS, ERR_CARD, O_FOUR_ACES,
    O_FOUR_JACKS, O_JACKS_END, O_PLAYED, O_RAMS, OK, SCORE_SO_FAR, UNAVAILABLE,
)  # fmt: skip
from ..deal import deal_cards, reset_scoring, shuffle_and_seed
from ..declare import best_rams, four_aces_holder, four_jacks_holder, prepare_final, void_jacks
from ..exchange import dealer_trump
from ..play import play_tricks
from ..policy import RANDOM, _strength, threats_of
from ..rng import bounded
from ..score import credit_trick, finish_deal
from ..state import (
    ACES, CUBE, DAVE, DECL, DISCARDS, DRAWN, END_KIND, ENDS_PARTY, HAND, JACK_KIND, OUTCOME, STAKE, STATUS,
    TRICKS, TRUMP_CARD, WIDOW, seat_after,
)  # fmt: skip

WIDOW_AT = 2 * HAND_SIZE + 1  # the widow: order[11..15], after the trump card order[10]
SWAP_OPTION = (1 << HAND_SIZE) - 1  # branching: discard mask 31 = swap the hand for the widow
N_SEATS = 2


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
def dave_turn(r, kinds, params, rng, cardsets, st, info, scores, seat, leading, trump_card, dealer, played):
    """Before ``seat`` plays a card: may he offer dave, does he, does the other accept?
    Returns True when the offer was declined (the party ends, ``seat`` wins).

    The estimates (policies.py): the opponent's aces count 0 for an offer from a centred
    cube, else the least value of an ace he may hold."""
    if r.dave == 0 or info[STAKE] * 2 > r.dave_max:
        return False
    if r.dave_lead_only != 0 and not leading:
        return False
    if info[CUBE] >= 0 and info[CUBE] != seat:
        return False
    trump = trump_card // RANKS_PER_SUIT
    other = 1 - seat
    p = 0.0
    if kinds[seat] != RANDOM:
        guess = 0 if info[CUBE] < 0 else _least_possible_ace(r, seat, dealer, trump_card, played, cardsets, st)
        p = dave_estimate(kinds[seat], params, seat, cardsets[HAND, seat], trump, scores[seat], st[TRICKS, seat],
                          st[ACES, seat], scores[other], st[TRICKS, other], guess)  # fmt: skip
    if not offers_dave(kinds[seat], params, seat, rng, p):
        return False
    st[DAVE, seat] += 1
    q = 0.0
    if kinds[other] != RANDOM:
        guess = _least_possible_ace(r, other, dealer, trump_card, played, cardsets, st)
        q = dave_estimate(kinds[other], params, other, cardsets[HAND, other], trump, scores[other], st[TRICKS, other],
                          st[ACES, other], scores[seat], st[TRICKS, seat], guess)  # fmt: skip
    if takes_dave(kinds[other], params, other, rng, q):
        info[STAKE] *= 2
        info[CUBE] = other
        return False
    return True


# ---- the deal -----------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def take_widow(kinds, params, rng, order, cardsets, st, info, first, forced_seat, forced_option):
    """The widow: the first hand swaps or stands, then (if he stood) the dealer; returns a status.

    A swap: discards = the whole dealt hand, drawn = the widow, info[WIDOW] = the seat.
    ``forced_seat`` takes option 0 (stand) or SWAP_OPTION; any other option is UNAVAILABLE,
    and so is a swap once the widow is gone.
    """
    widow = ZERO
    for j in range(HAND_SIZE):
        widow |= bit(order[WIDOW_AT + j])
    trump = info[TRUMP_CARD] // RANKS_PER_SUIT
    for k in range(N_SEATS):
        seat = seat_after(first, k, N_SEATS)
        hand = cardsets[HAND, seat]
        if seat == forced_seat:
            if forced_option != 0 and forced_option != SWAP_OPTION:
                return UNAVAILABLE
            if info[WIDOW] >= 0:
                if forced_option == SWAP_OPTION:
                    return UNAVAILABLE
                continue
            swap = forced_option == SWAP_OPTION
        elif info[WIDOW] >= 0:
            continue
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
    """Any declaration wins the party at once (VARIANTS.md): four aces (with four_aces_win),
    four jacks, the best rams (R5.4), a jack pair (the first hand first). Every delta stays 0.
    Returns True when the cards are played."""
    if r.four_aces_win:
        holder = four_aces_holder(cardsets, st, N_SEATS, first)
        if holder >= 0:
            return _wins(st, info, holder, D_FOUR_ACES, O_FOUR_ACES, E_FOUR_ACES)
    holder = four_jacks_holder(st, N_SEATS, first)
    if holder >= 0:
        return _wins(st, info, holder, D_FOUR_JACKS, O_FOUR_JACKS, E_FOUR_JACKS)
    best = best_rams(cardsets, st, N_SEATS, first, trump, r.card_points)
    if best >= 0:
        return _wins(st, info, best, -1, O_RAMS, E_RAMS)
    for k in range(N_SEATS):
        seat = seat_after(first, k, N_SEATS)
        if st[JACK_KIND, seat] == 1:
            return _wins(st, info, seat, D_JACK_PAIR, O_JACKS_END, E_JACKS)
    info[OUTCOME] = O_PLAYED
    return True


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


@njit(cache=True, _nrt=False)
def play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
              forced_seat, forced_option, search):  # fmt: skip
    """One duel deal into the state arrays (:func:`.classic.play_deal`'s contract); returns a status.

    ``forced_seat`` takes the widow option ``forced_option`` (0 stand, 31 swap) for branching.
    """
    n = N_SEATS
    first = seat_after(dealer, 1, n)
    shuffle_and_seed(r, kinds, key, fixed_order, fixed_order.shape[0] > 0, order, rng)
    reset_scoring(st, n, info, log)
    trump_card = deal_cards(order, n, dealer, cardsets, st)  # R3; the widow follows the trump card
    info[TRUMP_CARD] = trump_card
    trump = trump_card // RANKS_PER_SUIT
    status = take_widow(kinds, params, rng, order, cardsets, st, info, first, forced_seat, forced_option)
    if status == OK and r.duel_trump_card:
        status = dealer_trump(True, False, dealer, trump_card, kinds, params, rng, cardsets, st)  # compulsory
    if status != OK:
        info[STATUS] = status
        return status
    prepare_final(cardsets, st, n, r.ace_values, r.jacks_count)
    if declare_duel(r, cardsets, st, first, trump, info):
        leader = info[WIDOW] if info[WIDOW] >= 0 else first
        winner = play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card,
                             scores, leader, None)  # R6 with dave (before_card)
        if winner == -2:
            info[STATUS] = ERR_CARD
            return ERR_CARD
        declined = info[END_KIND] == E_DECLINED
        finish_deal(n, first, r.start, r.remiz, r.truncated_deal == SCORE_SO_FAR, winner, scores, st, info)
        if declined:
            info[END_KIND] = E_DECLINED
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
def before_card(r, kinds, params, rng, cardsets, st, info, scores, seat, leading, trump_card, dealer, played):
    """Dave before each card (:func:`dave_turn`); True when it was declined and the deal ends."""
    return dave_turn(r, kinds, params, rng, cardsets, st, info, scores, seat, leading, trump_card, dealer, played)


@njit(cache=True, _nrt=False, inline="always")
def credit(r, w, scores, st, announce):
    """R8.2: credit the trick to ``w``; True when he announces reaching zero."""
    return credit_trick(w, scores, st, announce)
