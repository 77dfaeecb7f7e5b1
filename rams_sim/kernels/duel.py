"""The game ``duel``: presets ``duel`` and ``duel-trump`` ([000] Variants 2 and 3).

docs/VARIANTS.md "duel and duel-trump" is the specification. One deal reuses the
classic primitives (deal.deal_cards, deal.dealer_trump, declare.*, legal.legal_mask,
trick.trick_winner, score.credit_trick, game.finish_deal) and replaces four steps: the
widow instead of R4's pass and exchange, the trump card (never used, or compulsory for
the dealer), the declarations (any one wins the party at once, every delta 0) and the
play (its own first leader, and the dave offers before each card). The dave stake and
cube are ``info[STAKE]`` / ``info[CUBE]``, set by the driver and kept across a party.
"""

from __future__ import annotations

from numba import njit

from ..cards import ACE, HAND_SIZE, KING, N_SUITS, N_TRICKS, QUEEN, RANKS_PER_SUIT
from ..record import EndKind, Outcome
from .bits import ZERO, bit, card_of, has
from .deal import ERR_CARD, NO_FORCE, OK, UNAVAILABLE, deal_cards, dealer_trump
from .declare import D_FOUR_ACES, D_FOUR_JACKS, D_JACK_PAIR, best_rams, four_aces_holder, four_jacks_holder, void_jacks
from .game import finish_deal, prepare_final, reset_scoring, shuffle_and_seed, threats_of
from .legal import legal_mask
from .policy import RANDOM, choose_card, dave_estimate, offers_dave, takes_dave, uses_threats, wants_widow
from .score import credit_trick
from .state import (
    ACES, CUBE, DAVE, DECL, DISCARDS, DRAWN, END_KIND, ENDS_PARTY, HAND, JACK_KIND, LOG_LEADER, LOG_WINNER,
    OUTCOME, STAKE, STATUS, TRICK_CARD, TRICK_SEAT, TRICKS, TRUMP_CARD, WIDOW, seat_after,
)  # fmt: skip
from .trick import trick_winner

O_PLAYED, O_RAMS, O_FOUR_ACES = int(Outcome.PLAYED), int(Outcome.RAMS), int(Outcome.FOUR_ACES)
O_JACKS_END, O_FOUR_JACKS = int(Outcome.JACKS_END), int(Outcome.FOUR_JACKS)
E_FOUR_ACES, E_RAMS, E_JACKS = int(EndKind.FOUR_ACES), int(EndKind.RAMS), int(EndKind.JACKS)
E_FOUR_JACKS, E_DECLINED = int(EndKind.FOUR_JACKS), int(EndKind.DECLINED)
WIDOW_AT = 2 * HAND_SIZE + 1  # the widow: order[11..15], after the trump card order[10]
SWAP_OPTION = (1 << HAND_SIZE) - 1  # branching: discard mask 31 = swap the hand for the widow
N_SEATS = 2


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


@njit(cache=True, _nrt=False, inline="always")
def _least_possible_ace(r, seat, dealer, trump_card, played, cardsets, st):
    """The least value of an ace the opponent of ``seat`` may hold (one of his threats), or 0."""
    threats = threats_of(seat, dealer, r.deck_mask, trump_card, played, cardsets, st)
    least = -1
    for suit in range(N_SUITS):
        if has(threats, card_of(suit, ACE)) and (least < 0 or r.ace_value[suit] < least):
            least = r.ace_value[suit]
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


@njit(cache=True, _nrt=False, inline="always")
def duel_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, dealer, leader, trump_card, scores):
    """R6 for two with dave; returns the seat that announced zero or won a declined dave
    (info[END_KIND] tells which), -1 when played out, -2 on an illegal card."""
    trump = trump_card // RANKS_PER_SUIT
    played = ZERO
    for seat in range(N_SEATS):
        for t in range(N_TRICKS):
            log[t, seat] = -1
    cards = trick[TRICK_CARD]
    q_duty = False
    trump_king = card_of(trump, KING)
    trump_queen = bit(card_of(trump, QUEEN))
    for t in range(N_TRICKS):
        seat = leader
        for k in range(N_SEATS):
            if dave_turn(r, kinds, params, rng, cardsets, st, info, scores, seat, k == 0, trump_card, dealer, played):
                info[END_KIND] = E_DECLINED
                for s in range(N_SEATS):
                    log[t, s] = -1  # a trick left unfinished is not recorded
                return seat
            hand = cardsets[HAND, seat]
            legal = legal_mask(hand, cards, k, trump, q_duty and k == 0, r.overtrump, r.must_head, r.ace_covers_face)
            threats = ZERO
            if uses_threats(kinds[seat]):
                threats = threats_of(seat, dealer, r.deck_mask, trump_card, played, cardsets, st)
            remaining = N_SEATS - k - 1
            card = choose_card(kinds[seat], params, seat, rng, legal, cards, k, trump, st[TRICKS, seat], threats, remaining,
                               False)  # fmt: skip
            if card < 0 or not has(legal, card):
                return -2
            cards[k] = card
            trick[TRICK_SEAT, k] = seat
            cardsets[HAND, seat] = hand & ~bit(card)
            played |= bit(card)
            log[t, seat] = card
            seat = 1 - seat
        w = trick[TRICK_SEAT, trick_winner(cards, N_SEATS, trump)]
        q_duty = trick[TRICK_SEAT, 0] == w and cards[0] == trump_king and cardsets[HAND, w] & trump_queen != ZERO  # R6.6
        log[t, LOG_LEADER] = leader
        log[t, LOG_WINNER] = w
        leader = w
        if credit_trick(w, scores, st, announce):
            return w
    return -1


@njit(cache=True, _nrt=False)
def play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
              forced_seat=NO_FORCE, forced_option=0):  # fmt: skip
    """One duel deal into the state arrays (game.play_deal's contract); returns a status.

    ``forced_seat`` takes the widow option ``forced_option`` (0 stand, 31 swap) for branching.
    """
    n = N_SEATS
    first = seat_after(dealer, 1, n)
    shuffle_and_seed(r, kinds, key, fixed_order, fixed_order.shape[0] > 0, order, rng)
    reset_scoring(st, n, info)
    for t in range(N_TRICKS):
        log[t, LOG_LEADER] = -1
    trump_card = deal_cards(order, n, dealer, cardsets, st)  # R3; the widow follows the trump card
    info[TRUMP_CARD] = trump_card
    trump = trump_card // RANKS_PER_SUIT
    status = take_widow(kinds, params, rng, order, cardsets, st, info, first, forced_seat, forced_option)
    if status == OK and r.duel_trump_card:
        status = dealer_trump(True, False, dealer, trump_card, kinds, params, rng, cardsets, st)  # compulsory
    if status != OK:
        info[STATUS] = status
        return status
    prepare_final(cardsets, st, n, r.ace_value, r.jacks_count)
    if declare_duel(r, cardsets, st, first, trump, info):
        leader = info[WIDOW] if info[WIDOW] >= 0 else first
        winner = duel_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, dealer, leader, trump_card,
                             scores)  # fmt: skip
        if winner == -2:
            info[STATUS] = ERR_CARD
            return ERR_CARD
        declined = info[END_KIND] == E_DECLINED
        finish_deal(n, first, r.start, r.remiz, r.score_so_far, winner, scores, st, info)
        if declined:
            info[END_KIND] = E_DECLINED
    return OK


@njit(cache=True, _nrt=False)
def settle_party(n, won, stake, settlement, row):
    """Per party ("Расчёт за партию"): the winner gets the stake, the loser pays it; nothing unfinished."""
    for seat in range(n):
        settlement[row, seat] = 0.0
    if won < 0:
        return
    for seat in range(n):
        settlement[row, seat] = float(stake) if seat == won else -float(stake)
