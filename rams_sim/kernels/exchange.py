"""R4: passing, the exchange, the R4.0a announcements and the dealer's trump card.

State arrays are those of :mod:`rams_sim.kernels.state`; ``kinds`` int8[n] and
``params`` float64[n, P] are the seats' policies (:mod:`rams_sim.kernels.policy`).
"""

from __future__ import annotations

from numba import njit

from ..cards import ACE, HAND_SIZE, RANKS_PER_SUIT
from .bits import ACE_CARDS, ZERO, bit, has, nth_card, popcount
from .codes import ERR_DISCARD, ERR_TRUMP_DISCARD, OK, OPTION_PASS, ORDER_DECLARE_THEN_BUY, UNAVAILABLE
from .policy import choose_discards, choose_intent, trump_exchange, wants_pass
from .state import ACTIVE, DEALT, DISCARDS, DRAWN, HAND, INTENT, PASSED, TOOK_TRUMP, TRUMP_DISCARD, seat_after


@njit(cache=True, _nrt=False, inline="always")
def can_pass(dealt, is_dealer, ace_forbids_pass, turned_ace_binds_dealer, trump_card):
    """R4.1: no ace in the dealt hand (unless ``ace_forbids_pass`` is off); with the option, a
    turned-up ace binds the dealer."""
    if ace_forbids_pass and dealt & ACE_CARDS != ZERO:
        return False
    if is_dealer and turned_ace_binds_dealer and trump_card % RANKS_PER_SUIT == ACE:
        return False
    return True


@njit(cache=True, _nrt=False, inline="always")
def _exchange_seat(kinds, params, rng, order, cardsets, seat, is_dealer, trump, talon_pos, deck_size, forced, option):
    """R4: one seat discards, then draws as many; returns the new talon position, -1 on a
    policy error, -2 when a ``forced`` discard ``option`` exceeds the talon."""
    hand = cardsets[HAND, seat]
    talon = deck_size - talon_pos
    if forced:
        disc = ZERO
        for j in range(HAND_SIZE):
            if option >> j & 1:
                disc |= bit(nth_card(hand, j))
        if popcount(disc) > talon:
            return -2  # R4.4: this option is not open
    else:
        disc = choose_discards(kinds[seat], params, seat, rng, hand, trump, talon, is_dealer)
    k = popcount(disc)
    if k > talon or disc & ~hand != ZERO:
        return -1  # R4.4: a policy error, never clamped
    drawn = ZERO
    for _ in range(k):
        drawn |= bit(order[talon_pos])
        talon_pos += 1
    cardsets[HAND, seat] = (hand & ~disc) | drawn
    cardsets[DISCARDS, seat] = disc
    cardsets[DRAWN, seat] = drawn
    return talon_pos


@njit(cache=True, _nrt=False, inline="always")
def intent_round(n, dealer, trump, kinds, params, rng, cardsets, st):
    """R4.0a: every seat that plays, from the dealer's left, announces "on trumps" or "on suits"
    (st[INTENT]); passers announce nothing."""
    first = seat_after(dealer, 1, n)
    for k in range(n):
        seat = seat_after(first, k, n)
        if st[ACTIVE, seat]:
            st[INTENT, seat] = choose_intent(kinds[seat], params, seat, rng, cardsets[HAND, seat], trump)


@njit(cache=True, _nrt=False, inline="always")
def exchange(r, n, dealer, trump_card, kinds, params, rng, order, cardsets, st, forced_seat, forced_option):
    """R4.0-R4.4: passing and the exchange in seat order; returns a status code.

    ``forced_seat`` (or NO_FORCE) takes ``forced_option`` instead of asking its policy:
    OPTION_PASS, 0 (stand) or a discard mask over its cards; UNAVAILABLE if the rules do
    not open that option to him (a pass with an ace, R4.1; more discards than the talon, R4.4).
    With option ``intent_round``, the R4.0a round runs once every seat has said
    play or pass: before the buying round of declare-then-buy, after the single round of one-turn.
    """
    first = seat_after(dealer, 1, n)
    trump = trump_card // RANKS_PER_SUIT
    talon_pos = HAND_SIZE * n + 1
    for k in range(n):
        seat = seat_after(first, k, n)
        may_pass = can_pass(cardsets[DEALT, seat], seat == dealer, r.ace_forbids_pass, r.turned_ace_binds_dealer,
                            trump_card)  # fmt: skip
        if seat == forced_seat:
            if forced_option == OPTION_PASS:
                if not may_pass:
                    return UNAVAILABLE
                st[ACTIVE, seat] = 0
                st[PASSED, seat] = 1
        elif may_pass and wants_pass(kinds[seat], params, seat, rng, cardsets[HAND, seat], trump):
            st[ACTIVE, seat] = 0
            st[PASSED, seat] = 1
        if r.exchange_order != ORDER_DECLARE_THEN_BUY and st[ACTIVE, seat]:
            talon_pos = _exchange_seat(kinds, params, rng, order, cardsets, seat, seat == dealer, trump, talon_pos,
                                       r.deck_size, seat == forced_seat, forced_option)  # fmt: skip
            if talon_pos < 0:
                return UNAVAILABLE if talon_pos == -2 else ERR_DISCARD
    if r.intent_round:
        intent_round(n, dealer, trump, kinds, params, rng, cardsets, st)
    if r.exchange_order == ORDER_DECLARE_THEN_BUY:
        for k in range(n):
            seat = seat_after(first, k, n)
            if st[ACTIVE, seat]:
                talon_pos = _exchange_seat(kinds, params, rng, order, cardsets, seat, seat == dealer, trump, talon_pos,
                                           r.deck_size, seat == forced_seat, forced_option)  # fmt: skip
                if talon_pos < 0:
                    return UNAVAILABLE if talon_pos == -2 else ERR_DISCARD
    return OK


@njit(cache=True, _nrt=False, inline="always")
def dealer_trump(must_take, binds, dealer, trump_card, kinds, params, rng, cardsets, st):
    """R4.3: a playing dealer may (or must) give up one card for the trump card; returns a status."""
    if not st[ACTIVE, dealer]:
        return OK  # R4.3: if the dealer passes, nobody uses the trump card
    hand = cardsets[HAND, dealer]
    forced = must_take or (binds and trump_card % RANKS_PER_SUIT == ACE)
    give = trump_exchange(kinds[dealer], params, dealer, rng, hand, trump_card, forced)
    if give >= 0 or forced:
        if give < 0 or not has(hand, give):
            return ERR_TRUMP_DISCARD
        cardsets[HAND, dealer] = (hand & ~bit(give)) | bit(trump_card)
        st[TOOK_TRUMP, dealer] = 1
        st[TRUMP_DISCARD, dealer] = give
    return OK
