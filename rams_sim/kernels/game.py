"""One deal (R3-R8.3), many deals in parallel, and whole parties (R8).

The procedure is docs/ENGINE.md's. State arrays are those of
:mod:`rams_sim.kernels.state`. Bulk results go to flat output arrays:

* ``out_sets``  uint64[n_deals, N_OUT_SETS, n]: hand_dealt, discards, drawn, hand_final
* ``out_seat``  int8[n_deals, N_OUT_SEAT, n]: passed, took_trump, trump_discard, jacks,
  declaration, tricks, overshoot, intent
* ``out_delta`` int16[n_deals, n]: the score deltas (R7.5)
* ``out_deal``  int8[n_deals, N_OUT_DEAL]: dealer, trump_card, outcome, ends_party, end_kind, status
* ``out_log``   int8[n_log, N_TRICKS, n + 2]: cards by seat, leader, winner (n_log = 0: no log)
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..cards import KING, N_TRICKS, QUEEN, RANKS_PER_SUIT
from ..record import EndKind, Outcome
from .bits import ZERO, ace_points, bit, card_of, has
from .deal import ERR_CARD, N_OPTIONS, NO_FORCE, NO_INTENT, OK, OPTION_PASS, UNAVAILABLE, deal_cards, dealer_trump, exchange
from .declare import D_FOUR_ACES, D_FOUR_JACKS, D_JACK_PAIR, D_NONE, D_TRUMP_RAMS
from .declare import best_rams, four_aces_holder, four_jacks_holder, jack_kinds, void_jacks
from .legal import legal_mask
from .policy import INTENT_TRUMPS, choose_card, reads_intents, uses_coins, uses_threats
from .rng import deal_key, party_deal_key, seed_stream, shuffle_deck
from .score import credit_trick, cut_short_deltas, played_out_deltas, settle
from .state import (
    ACES, ACTIVE, AT_ZERO, DEALT, DECL, DELTA, DISCARDS, DRAWN, END_KIND, ENDS_PARTY, FINAL, HAND, INTENT,
    JACK_KIND, JACKS, LOG_LEADER, LOG_WINNER, OUTCOME, OVERSHOT, PASSED, STATUS, TOOK_TRUMP,
    TRICK_CARD, TRICK_SEAT, TRICKS, TRUMP_CARD, TRUMP_DISCARD, make_state, seat_after,
)  # fmt: skip
from .trick import trick_winner

O_PLAYED, O_LONE, O_NOBODY = int(Outcome.PLAYED), int(Outcome.LONE), int(Outcome.NOBODY)
O_RAMS, O_FOUR_ACES = int(Outcome.RAMS), int(Outcome.FOUR_ACES)
O_JACKS_END, O_VOID = int(Outcome.JACKS_END), int(Outcome.VOID)
O_FOUR_JACKS, E_FOUR_JACKS = int(Outcome.FOUR_JACKS), int(EndKind.FOUR_JACKS)
E_NONE, E_FOUR_ACES, E_RAMS = int(EndKind.NONE), int(EndKind.FOUR_ACES), int(EndKind.RAMS)
E_JACKS, E_TRICK, E_DEAL_END = int(EndKind.JACKS), int(EndKind.TRICK), int(EndKind.DEAL_END)
E_UNFINISHED = int(EndKind.UNFINISHED)

# output layout (see the module docstring)
SET_ROWS = (DEALT, DISCARDS, DRAWN, FINAL)  # cardsets rows stored in out_sets, in order
OUT_SETS = ("hand_dealt", "discards", "drawn", "hand_final")
SEAT_ROWS = (PASSED, TOOK_TRUMP, TRUMP_DISCARD, JACKS, DECL, TRICKS, OVERSHOT, INTENT)
OUT_SEAT = ("passed", "took_trump", "trump_discard", "jacks", "declaration", "tricks", "overshoot", "intent")
OUT_DEAL = ("dealer", "trump_card", "outcome", "ends_party", "end_kind", "status")
DEAL_SLOTS = (-1, TRUMP_CARD, OUTCOME, ENDS_PARTY, END_KIND, STATUS)  # info slots; the dealer is an argument


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
    if fixed_order.shape[0] > 0:
        for j in range(r.deck_size):
            order[j] = fixed_order[j]
    else:
        shuffle_deck(key, r.deck, order, rng)
    for seat in range(n):
        if uses_coins(kinds[seat]):
            seed_stream(rng, seat + 1, key, seat + 1)
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
            winner = play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, n, dealer, trump_card, scores)
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
    info[ENDS_PARTY] = -1
    info[END_KIND] = E_NONE
    info[STATUS] = OK


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
    if r.four_jacks_win:
        # R9 from-15: a jack declaration, so passers' count too (R5.5); senior to every rams.
        # As R5.1, every delta 0. No other seat can hold counted jacks (all four are his).
        holder = four_jacks_holder(st, n, first)
        if holder >= 0:
            st[DECL, holder] = D_FOUR_JACKS
            info[OUTCOME] = O_FOUR_JACKS
            info[ENDS_PARTY] = holder
            info[END_KIND] = E_FOUR_JACKS
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
def threats_of(seat, dealer, deck_mask, trump_card, played, cardsets, st):
    """The cards an opponent of ``seat`` may hold, as he can tell (policies.py): uint64 mask.

    The deck less his hand, the cards ``played`` (a mask: finished tricks and this one),
    his discards and the card he gave up for the trump card, and the turned-up trump card
    unless the dealer, another seat, took it (R4.3). Reads only ``seat``'s own rows and
    the dealer's public R4.3 flag.
    """
    seen = cardsets[HAND, seat] | played | cardsets[DISCARDS, seat]
    if st[TRUMP_DISCARD, seat] >= 0:
        seen |= bit(st[TRUMP_DISCARD, seat])
    if st[TOOK_TRUMP, dealer] == 0 or seat == dealer:
        seen |= bit(trump_card)
    return deck_mask & ~seen


@njit(cache=True, _nrt=False, inline="always")
def play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, n, dealer, trump_card, scores):
    """R6: play the tricks; return the seat that announced zero, -1, or -2 on an illegal card.

    Each seat's policy sees its threats (policies.py): the deck less his hand, the cards
    played, his own discards and, unless another seat (the dealer) took it, the trump card;
    a policy that reads the R4.0a announcements also sees whether a seat still to play
    announced "on trumps".
    """
    first = seat_after(dealer, 1, n)
    trump = trump_card // RANKS_PER_SUIT
    played = ZERO
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
        if credit_trick(w, scores, st, announce):
            return w
    return -1


@njit(cache=True, _nrt=False, inline="always")
def store_deal(i, n, dealer, cardsets, st, info, log, out_sets, out_seat, out_delta, out_deal, out_log):
    """Copy one deal's results from the state arrays into row ``i`` of the outputs."""
    for seat in range(n):
        for j in range(len(SET_ROWS)):
            out_sets[i, j, seat] = cardsets[SET_ROWS[j], seat]
        for j in range(len(SEAT_ROWS)):
            out_seat[i, j, seat] = st[SEAT_ROWS[j], seat]
        out_delta[i, seat] = st[DELTA, seat]
    out_deal[i, 0] = dealer
    for j in range(1, len(DEAL_SLOTS)):
        out_deal[i, j] = info[DEAL_SLOTS[j]]
    if out_log.shape[0] > 0:
        for t in range(N_TRICKS):
            for seat in range(n):
                out_log[i, t, seat] = log[t, seat]
            out_log[i, t, n] = log[t, LOG_LEADER]
            out_log[i, t, n + 1] = log[t, LOG_WINNER]


DEAL_BLOCK = 256  # deals per scheduling block: one set of state arrays serves a block


@njit(cache=True, parallel=True, nogil=True)
def play_deals(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, out_sets, out_seat, out_delta, out_deal, out_log):
    """Play deals ``first_deal .. first_deal + n_deals - 1`` of ``seed`` into output rows 0..n_deals-1.

    ``n_deals`` is ``out_delta.shape[0]``. Deal ``d`` is keyed ``deal_key(seed, d)``; its
    dealer is ``fixed_dealer`` if >= 0, else ``d % players``. ``scores``: int64[n], every
    seat's score before each deal (R8.2b). Returns the number of deals whose status is not OK.
    """
    n = r.players
    n_deals = out_delta.shape[0]
    n_blocks = (n_deals + DEAL_BLOCK - 1) // DEAL_BLOCK
    errors = np.zeros(n_blocks, np.int64)
    empty = np.empty(0, np.int8)
    for b in prange(n_blocks):
        order, rng, cardsets, st, trick, info, log = make_state()
        for i in range(b * DEAL_BLOCK, min(n_deals, (b + 1) * DEAL_BLOCK)):
            d = first_deal + i
            dealer = fixed_dealer if fixed_dealer >= 0 else d % n
            key = deal_key(seed, d)
            status = play_deal(r, kinds, params, announce, key, empty, dealer, scores, order, rng, cardsets, st, trick, info, log)
            if status != OK:
                errors[b] += 1
            store_deal(i, n, dealer, cardsets, st, info, log, out_sets, out_seat, out_delta, out_deal, out_log)
    return errors.sum()


@njit(cache=True)
def play_one(r, kinds, params, announce, key, fixed_order, dealer, scores, out_sets, out_seat, out_delta, out_deal, out_log):
    """Play one deal into row 0 of the outputs (the API's single-deal entry); return its status."""
    order, rng, cardsets, st, trick, info, log = make_state()
    status = play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log)
    store_deal(0, r.players, dealer, cardsets, st, info, log, out_sets, out_seat, out_delta, out_deal, out_log)
    return status


@njit(cache=True)
def play_party(r, kinds, params, announce, seed, party, state, deals, scores_out, winner, end_kind, settlement, resets, row):
    """Play party ``party`` of ``seed`` (R8) into row ``row`` of the party outputs; return a status.

    Seat 0 deals first; the deal passes clockwise; deal ``d`` is keyed
    ``party_deal_key(seed, party, d)``. ``state``: a :func:`make_state` tuple.
    """
    order, rng, cardsets, st, trick, info, log = state
    n = r.players
    scores = np.empty(n, np.int64)
    for seat in range(n):
        scores[seat] = r.start
        resets[row, seat] = 0
    empty = np.empty(0, np.int8)
    dealer = 0
    won = -1
    kind = E_UNFINISHED
    status = OK
    played = 0
    for d in range(r.max_deals):
        key = party_deal_key(seed, party, d)
        status = play_deal(r, kinds, params, announce, key, empty, dealer, scores, order, rng, cardsets, st, trick, info, log)
        played = d + 1
        if status != OK:
            break
        for seat in range(n):
            scores[seat] += st[DELTA, seat]
            resets[row, seat] += st[OVERSHOT, seat]
        if info[ENDS_PARTY] >= 0:
            won = info[ENDS_PARTY]
            kind = info[END_KIND]
            break
        dealer = seat_after(dealer, 1, n)
    deals[row] = played
    winner[row] = won
    end_kind[row] = kind
    for seat in range(n):
        scores_out[row, seat] = scores[seat]
    settle(n, won, scores, r.settle, settlement, row)
    return status


@njit(cache=True, parallel=True, nogil=True)
def play_parties(r, kinds, params, announce, seed, first_party, deals, scores_out, winner, end_kind, settlement, resets, status):
    """Play parties ``first_party ..`` into rows 0..len(deals)-1 of the party outputs; return the error count."""
    n_parties = deals.shape[0]
    errors = np.zeros(n_parties, np.int64)
    for p in prange(n_parties):
        state = make_state()
        status[p] = play_party(r, kinds, params, announce, seed, first_party + p, state, deals, scores_out, winner, end_kind, settlement, resets, p)
        if status[p] != 0:
            errors[p] = 1
    return errors.sum()


@njit(cache=True)
def settle_given(r, announce, dealer, trump, dealt, final, active, scores, winners, out_sets, out_seat, out_delta, out_deal, out_log):
    """R5 step 4 to R8.3 for given hands and trick winners, into row 0 of the outputs.

    ``dealt``, ``final``: uint64[n] hands; ``active`` int64[n]; ``winners`` int64[k]: the
    seats credited with tricks in order (ignored for a lone player). For tests and what-if
    tools: it runs the same declaration and scoring code as :func:`play_deal`.
    """
    n = r.players
    first = (dealer + 1) % n
    order, rng, cardsets, st, trick, info, log = make_state()
    reset_scoring(st, n, info)
    for t in range(N_TRICKS):
        log[t, LOG_LEADER] = -1
    for seat in range(n):
        cardsets[HAND, seat] = final[seat]
        cardsets[DEALT, seat] = dealt[seat]
        st[ACTIVE, seat] = active[seat]
        st[PASSED, seat] = 1 - active[seat]
        st[TRUMP_DISCARD, seat] = -1
        st[INTENT, seat] = NO_INTENT
    n_active, lone = prepare_final(cardsets, st, n, r.ace_value, r.jacks_count)
    if declare(r, cardsets, st, n, first, trump, scores, n_active, info):
        winner = -1
        if n_active == 1:
            winner = credit_lone(lone, scores, st, announce)
        else:
            for w in winners:
                if credit_trick(w, scores, st, announce):
                    winner = w
                    break
        finish_deal(n, first, r.start, r.remiz, r.score_so_far, winner, scores, st, info)
    store_deal(0, n, dealer, cardsets, st, info, log, out_sets, out_seat, out_delta, out_deal, out_log)


@njit(cache=True, parallel=True, nogil=True)
def play_branches(r, kinds, params, announce, seed, first_deal, fixed_dealer, focal, scores, valid, sets, small, delta):
    """Every exchange option of seat ``focal`` in deals ``first_deal ..`` (``rams-sim branch``).

    Row ``i * N_OPTIONS + j`` replays deal ``first_deal + i`` (same deck order and coins)
    with option ``j - 1`` forced on the focal seat (OPTION_PASS, stand, discard masks 1..31);
    everyone else follows his policy. Outputs: ``valid`` bool[rows] (the option is open
    to him), ``sets`` uint64[rows, 4] (his hand_dealt, discards, drawn, hand_final),
    ``small`` int8[rows, 7] (dealer, trump_card, passed, took_trump, declaration, tricks,
    outcome), ``delta`` int16[rows]. Returns the number of policy errors (status != OK
    other than UNAVAILABLE).
    """
    n = r.players
    n_deals = valid.shape[0] // N_OPTIONS
    errors = 0
    for i in prange(n_deals):
        order, rng, cardsets, st, trick, info, log = make_state()
        d = first_deal + i
        dealer = fixed_dealer if fixed_dealer >= 0 else d % n
        key = deal_key(seed, d)
        empty = np.empty(0, np.int8)
        for j in range(N_OPTIONS):
            row = i * N_OPTIONS + j
            status = play_deal(r, kinds, params, announce, key, empty, dealer, scores, order, rng, cardsets, st,
                               trick, info, log, focal, OPTION_PASS + j)  # fmt: skip
            valid[row] = status == OK
            if status != OK:
                if status != UNAVAILABLE:
                    errors += 1
                continue
            sets[row, 0] = cardsets[DEALT, focal]
            sets[row, 1] = cardsets[DISCARDS, focal]
            sets[row, 2] = cardsets[DRAWN, focal]
            sets[row, 3] = cardsets[FINAL, focal]
            small[row, 0] = dealer
            small[row, 1] = info[TRUMP_CARD]
            small[row, 2] = st[PASSED, focal]
            small[row, 3] = st[TOOK_TRUMP, focal]
            small[row, 4] = st[DECL, focal]
            small[row, 5] = st[TRICKS, focal]
            small[row, 6] = info[OUTCOME]
            delta[row] = st[DELTA, focal]
    return errors
