"""One deal of classic Rams (R3-R8.3) on the state arrays, and its steps.

The procedure is docs/ENGINE.md's. State arrays are those of
:mod:`rams_sim.kernels.state`. The drivers that play many deals, whole parties and
branches, and the output layout, are in :mod:`rams_sim.kernels.table`; the other
games of R9 reuse the steps here (``declare``, ``play_tricks``, ``finish_deal``, …).
"""

from __future__ import annotations

from numba import njit

from ..cards import KING, N_TRICKS, QUEEN, RANKS_PER_SUIT
from ..record import EndKind, Outcome
from .args import GAME_MODERN
from .bits import ZERO, ace_points, bit, card_of, has
from .deal import ERR_CARD, NO_FORCE, OK, deal_cards, dealer_trump, exchange
from .declare import D_FOUR_ACES, D_FOUR_JACKS, D_JACK_PAIR, D_NONE, D_TRUMP_RAMS
from .declare import best_rams, four_aces_holder, four_jacks_holder, jack_kinds, void_jacks
from .dave import dave_turn
from .legal import legal_mask
from .policy import INTENT_TRUMPS, choose_card, reads_intents, threats_of, uses_coins, uses_threats
from .rng import seed_stream, shuffle_deck
from .score import credit_trick, credit_up, cut_short_deltas, played_out_deltas
from .state import (
    ACES, ACTIVE, AT_ZERO, DAVE, DECL, DELTA, END_KIND, ENDS_PARTY, FINAL, FINE, HAND, INTENT,
    JACK_KIND, JACKS, LOG_LEADER, LOG_WINNER, NEXT_DEALER, OUTCOME, OVERSHOT, PROKAT, REDEALS, STATUS,
    TRICK_CARD, TRICK_SEAT, TRICKS, TRUMP_CARD, WIDOW, seat_after,
)  # fmt: skip
from .trick import trick_winner

O_PLAYED, O_LONE, O_NOBODY = int(Outcome.PLAYED), int(Outcome.LONE), int(Outcome.NOBODY)
O_RAMS, O_FOUR_ACES = int(Outcome.RAMS), int(Outcome.FOUR_ACES)
O_JACKS_END, O_VOID = int(Outcome.JACKS_END), int(Outcome.VOID)
O_FOUR_JACKS, E_FOUR_JACKS = int(Outcome.FOUR_JACKS), int(EndKind.FOUR_JACKS)
E_NONE, E_FOUR_ACES, E_RAMS = int(EndKind.NONE), int(EndKind.FOUR_ACES), int(EndKind.RAMS)
E_JACKS, E_TRICK, E_DEAL_END = int(EndKind.JACKS), int(EndKind.TRICK), int(EndKind.DEAL_END)
E_DECLINED = int(EndKind.DECLINED)


@njit(cache=True, _nrt=False, inline="always")
def shuffle_and_seed(r, kinds, key, fixed_order, use_fixed, order, rng):
    """R3 and ENGINE.md §1, for every game: the deck order (``fixed_order`` if ``use_fixed``,
    else the shuffle of stream 0 of ``key``) into ``order``, and the coin stream of every seat
    whose policy flips coins (row seat + 1 of ``rng``, keyed ``key``)."""
    if use_fixed:
        for j in range(r.deck_size):
            order[j] = fixed_order[j]
    else:
        shuffle_deck(key, r.deck, order, rng)
    for seat in range(r.players):
        if uses_coins(kinds[seat]):
            seed_stream(rng, seat + 1, key, seat + 1)


@njit(cache=True, _nrt=False)
def play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
              forced_seat=NO_FORCE, forced_option=0):  # fmt: skip
    """Play one deal into the state arrays; return a status code (OK = 0).

    ``r``: RulesArgs; ``kinds`` int8[n], ``params`` float64[n, P], ``announce`` int8[n]:
    the seats' policies; ``key``: the deal's uint64 key; ``fixed_order``: int8[deck_size],
    a deck order to use instead of the shuffle, or int8[0]; ``scores``: int64[n] before
    the deal. The play log is written to ``log``. ``forced_seat`` takes the exchange
    option ``forced_option`` instead of asking its policy (deal.exchange; for branching).
    """
    n = r.players
    first = seat_after(dealer, 1, n)
    shuffle_and_seed(r, kinds, key, fixed_order, fixed_order.shape[0] > 0, order, rng)
    reset_scoring(st, n, info)
    for t in range(N_TRICKS):
        log[t, LOG_LEADER] = -1
    trump_card = deal_cards(order, n, dealer, cardsets, st)  # R3
    info[TRUMP_CARD] = trump_card
    trump = trump_card // RANKS_PER_SUIT
    status = exchange(
        r.exchange_order, r.ace_forbids_pass, r.turned_ace_binds_dealer, r.deck_size, n, dealer, trump_card,
        kinds, params, rng, order, cardsets, st, forced_seat, forced_option, r.intent_round,
    )  # fmt: skip
    if status == OK:
        status = dealer_trump(r.dealer_must_take, r.turned_ace_binds_dealer, dealer, trump_card, kinds, params, rng, cardsets, st)
    if status != OK:
        info[STATUS] = status
        return status
    n_active, lone = prepare_final(cardsets, st, n, r.ace_value, r.jacks_count)
    if declare(r, cardsets, st, n, first, trump, scores, n_active, info):
        if n_active == 1:
            winner = credit_lone(lone, scores, st, announce)
        else:
            winner = play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card,
                                 scores, -1)  # fmt: skip
            if winner == -2:
                info[STATUS] = ERR_CARD
                return ERR_CARD
        finish_deal(n, first, r.start, r.remiz, r.score_so_far, winner, scores, st, info)
    return OK


@njit(cache=True, _nrt=False, inline="always")
def reset_scoring(st, n, info):
    """Clear the scoring state of every seat and the deal's party-end slots."""
    for seat in range(n):
        st[TRICKS, seat] = 0
        st[AT_ZERO, seat] = 0
        st[OVERSHOT, seat] = 0
        st[DECL, seat] = D_NONE
        st[DELTA, seat] = 0
        st[JACKS, seat] = 0
        st[FINE, seat] = 0
        st[DAVE, seat] = 0
        st[PROKAT, seat] = 0
    info[ENDS_PARTY] = -1
    info[END_KIND] = E_NONE
    info[STATUS] = OK
    info[WIDOW] = -1
    info[NEXT_DEALER] = -1
    info[REDEALS] = 0


@njit(cache=True, _nrt=False, inline="always")
def prepare_final(cardsets, st, n, ace_value, jacks_count):
    """Ace points (R7) and jack kinds (R5.5) of the final hands; returns (n_active, lone seat)."""
    n_active = 0
    lone = -1
    for seat in range(n):
        cardsets[FINAL, seat] = cardsets[HAND, seat]
        st[ACES, seat] = ace_points(cardsets[HAND, seat], ace_value)
        if st[ACTIVE, seat]:
            n_active += 1
            lone = seat
    jack_kinds(cardsets, st, n, jacks_count)
    return n_active, lone


@njit(cache=True, _nrt=False, inline="always")
def four_jacks_win(st, n, first, info):
    """Option four_jacks_win (R9 from-15, modern): a holder of all four counted jacks wins the
    party at the declaration; True if one did. A jack declaration, so passers' count too
    (R5.5); senior to every rams. As R5.1, every delta 0; no other seat can hold counted
    jacks (all four are his)."""
    holder = four_jacks_holder(st, n, first)
    if holder < 0:
        return False
    st[DECL, holder] = D_FOUR_JACKS
    info[OUTCOME] = O_FOUR_JACKS
    info[ENDS_PARTY] = holder
    info[END_KIND] = E_FOUR_JACKS
    return True


@njit(cache=True, _nrt=False, inline="always")
def declare(r, cardsets, st, n, first, trump, scores, n_active, info):
    """R5 step 4; fills st[DELTA/DECL/JACKS]. Returns True when tricks follow (play or a lone player)."""
    declarations = not (n_active == 0 or (n_active == 1 and r.lone_void))
    if declarations and r.four_aces_win:
        holder = four_aces_holder(cardsets, st, n, first)
        if holder >= 0:  # R5.1: every delta 0, the party ends; R5.6 jacks void
            st[DECL, holder] = D_FOUR_ACES
            void_jacks(st, n)
            info[OUTCOME] = O_FOUR_ACES
            info[ENDS_PARTY] = holder
            info[END_KIND] = E_FOUR_ACES
            return False
    if r.four_jacks_win and four_jacks_win(st, n, first, info):
        return False
    if declarations:
        best = best_rams(cardsets, st, n, first, trump, r.card_points)
        if best >= 0:  # R5.2-R5.4, R5.6
            base = r.trump_rams if st[DECL, best] == D_TRUMP_RAMS else r.suit_rams
            for seat in range(n):
                if seat == best:
                    st[DELTA, seat] = -(base + st[ACES, seat])
                elif st[ACTIVE, seat] or r.rams_penalizes_passers:
                    st[DELTA, seat] = base + st[ACES, seat]
            void_jacks(st, n)
            info[OUTCOME] = O_RAMS
            if scores[best] + st[DELTA, best] <= 0:
                info[ENDS_PARTY] = best
                info[END_KIND] = E_RAMS
            return False
    for seat in range(n):  # R5.5: jack pairs, passers included
        if st[JACK_KIND, seat] == 2:
            st[JACKS, seat] = r.four_jacks
            st[DECL, seat] = D_FOUR_JACKS
        elif st[JACK_KIND, seat] == 1:
            st[JACKS, seat] = r.jack_pair
            st[DECL, seat] = D_JACK_PAIR
        st[DELTA, seat] = -st[JACKS, seat]
    for k in range(n):  # R5.7: finishing on jacks
        seat = seat_after(first, k, n)
        if scores[seat] - st[JACKS, seat] <= 0:
            info[OUTCOME] = O_JACKS_END
            info[ENDS_PARTY] = seat
            info[END_KIND] = E_JACKS
            return False
    if not declarations:
        info[OUTCOME] = O_NOBODY if n_active == 0 else O_VOID
        return False
    info[OUTCOME] = O_LONE if n_active == 1 else O_PLAYED
    return True


@njit(cache=True, _nrt=False, inline="always")
def credit_lone(lone, scores, st, announce):
    """R4.5 takes-all: credit the lone player's tricks one at a time; return him if he announces zero."""
    for _ in range(N_TRICKS):
        if credit_trick(lone, scores, st, announce):
            return lone
    return -1


@njit(cache=True, _nrt=False, inline="always")
def finish_deal(n, first, start, remiz, score_so_far, winner, scores, st, info):
    """R7, R8.2a, R8.3: deltas once the tricks are over (``winner`` announced zero, or -1)."""
    if winner >= 0:
        info[ENDS_PARTY] = winner
        info[END_KIND] = E_TRICK
        cut_short_deltas(n, winner, scores, st, start, score_so_far)
        return
    played_out_deltas(n, scores, st, start, remiz)
    for k in range(n):  # R8.3: a silent player at zero wins after the deal
        seat = seat_after(first, k, n)
        if st[AT_ZERO, seat] and not st[OVERSHOT, seat]:
            info[ENDS_PARTY] = seat
            info[END_KIND] = E_DEAL_END
            break


@njit(cache=True, _nrt=False, inline="always")
def _next_active(st, seat, n):
    seat = seat_after(seat, 1, n)
    while not st[ACTIVE, seat]:
        seat = seat_after(seat, 1, n)
    return seat


@njit(cache=True, _nrt=False, inline="always")
def trumps_behind(st, seat, n, remaining):
    """Whether one of the ``remaining`` active seats to play after ``seat`` in this trick
    announced "on trumps" (R4.0a). Reads only the public ACTIVE and INTENT rows."""
    other = seat
    for _ in range(remaining):
        other = _next_active(st, other, n)
        if st[INTENT, other] == INTENT_TRUMPS:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card, scores, leader):
    """R6: play the tricks; return the seat that announced zero, -1, or -2 on an illegal card.

    ``leader``: the first leader, or -1 for R6.1's (the first active seat from the dealer's
    left). With option ``dave`` (R9 duel) each seat may double before each of his cards
    (:func:`rams_sim.kernels.dave.dave_turn`); a declined dave ends the deal at once:
    ``info[END_KIND]`` is DECLINED and the seat that offered it is returned.

    Each seat's policy sees its threats (policies.py): the deck less his hand, the cards
    played, his own discards and, unless another seat (the dealer) took it, the trump card;
    a policy that reads the R4.0a announcements also sees whether a seat still to play
    announced "on trumps".
    """
    first = seat_after(dealer, 1, n)
    trump = trump_card // RANKS_PER_SUIT
    played = ZERO
    if leader < 0:
        leader = first if st[ACTIVE, first] else _next_active(st, first, n)
    n_active = 0
    for seat in range(n):
        n_active += st[ACTIVE, seat]
        for t in range(N_TRICKS):
            log[t, seat] = -1
    cards = trick[TRICK_CARD]
    q_duty = False
    trump_king = card_of(trump, KING)
    trump_queen = bit(card_of(trump, QUEEN))
    for t in range(N_TRICKS):
        seat = leader
        for k in range(n_active):
            if r.dave and dave_turn(r, kinds, params, rng, cardsets, st, info, scores, seat, k == 0, trump_card, dealer, played):
                info[END_KIND] = E_DECLINED
                for s in range(n):
                    log[t, s] = -1  # a trick left unfinished is not recorded
                return seat
            hand = cardsets[HAND, seat]
            legal = legal_mask(hand, cards, k, trump, q_duty and k == 0, r.overtrump, r.must_head, r.ace_covers_face)
            threats = ZERO
            if uses_threats(kinds[seat]):
                threats = threats_of(seat, dealer, r.deck_mask, trump_card, played, cardsets, st)
            remaining = n_active - k - 1
            behind = reads_intents(kinds[seat], params, seat) and trumps_behind(st, seat, n, remaining)
            card = choose_card(kinds[seat], params, seat, rng, legal, cards, k, trump, st[TRICKS, seat], threats, remaining,
                               behind)  # fmt: skip
            if card < 0 or not has(legal, card):
                return -2
            cards[k] = card
            trick[TRICK_SEAT, k] = seat
            cardsets[HAND, seat] = hand & ~bit(card)
            played |= bit(card)  # seen by every later player, this trick included
            log[t, seat] = card
            seat = _next_active(st, seat, n)
        w = trick[TRICK_SEAT, trick_winner(cards, n_active, trump)]
        # R6.6: a marriage K led and won obliges the Q next
        q_duty = trick[TRICK_SEAT, 0] == w and cards[0] == trump_king and cardsets[HAND, w] & trump_queen != ZERO
        log[t, LOG_LEADER] = leader
        log[t, LOG_WINNER] = w
        leader = w
        if r.game == GAME_MODERN:  # R9 modern counts up to its target (docs/VARIANTS.md)
            if credit_up(w, scores, st, r.modern_target):
                return w
        elif credit_trick(w, scores, st, announce):
            return w
    return -1
