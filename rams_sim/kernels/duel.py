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

from ..cards import HAND_SIZE, N_TRICKS, RANKS_PER_SUIT
from ..record import EndKind, Outcome
from .bits import ZERO, bit
from .deal import ERR_CARD, NO_FORCE, OK, UNAVAILABLE, deal_cards, dealer_trump
from .declare import D_FOUR_ACES, D_FOUR_JACKS, D_JACK_PAIR, best_rams, four_aces_holder, four_jacks_holder, void_jacks
from .game import finish_deal, play_tricks, prepare_final, reset_scoring, shuffle_and_seed
from .policy import wants_widow
from .state import (
    DECL, DISCARDS, DRAWN, END_KIND, ENDS_PARTY, HAND, JACK_KIND, LOG_LEADER, OUTCOME, STATUS, TRUMP_CARD, WIDOW,
    seat_after,
)  # fmt: skip

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
        winner = play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card,
                             scores, leader)  # R6 with dave (game.play_tricks)
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
