"""R4: passing, the exchange, the R4.0a announcements and the dealer's trump card.

State arrays are those of :mod:`rams_sim.kernels.state`; ``kinds`` int8[n] and
``params`` float64[n, P] are the seats' policies (:mod:`rams_sim.kernels.policy`).
"""

from __future__ import annotations

from numba import njit

from ..cards import ACE, HAND_SIZE
from .bits import ACE_CARDS, ZERO, bit, has, nth_card, popcount, rank_of, suit_of
from .codes import (
    DECLINE,
    ERR_DISCARD,
    ERR_TRUMP_DISCARD,
    NO_OPTION,
    OK,
    OPTION_PASS,
    ORDER_DECLARE_THEN_BUY,
    PHASE_BUY,
    PHASE_INTENT,
    PHASE_ROUND,
    PHASE_TRUMP,
    UNAVAILABLE,
)
from .force import forced_option as branch_option
from .force import took
from .policy import choose_discards, choose_intent, trump_exchange, wants_pass
from .search import search_decision
from .state import ACTIVE, DEALT, DISCARDS, DRAWN, HAND, INTENT, PASSED, TOOK_TRUMP, TRUMP_DISCARD, seat_after


@njit(cache=True, _nrt=False, inline="always")
def can_pass(dealt, is_dealer, ace_forbids_pass, turned_ace_binds_dealer, trump_card):
    """R4.1: no ace in the dealt hand (unless ``ace_forbids_pass`` is off); with the option, a
    turned-up ace binds the dealer."""
    if ace_forbids_pass and dealt & ACE_CARDS != ZERO:
        return False
    if is_dealer and turned_ace_binds_dealer and rank_of(trump_card) == ACE:
        return False
    return True


@njit(cache=True, _nrt=False, inline="always")
def _exchange_seat(kinds, params, rng, order, cardsets, seat, is_dealer, trump, talon_pos, deck_size, forced, option,
                   position, branch):  # fmt: skip
    """R4: one seat discards, then draws as many; returns the new talon position, -1 on a
    policy error, -2 when a ``forced`` discard ``option`` exceeds the talon. ``branch`` (or
    NO_OPTION): a branch's discard mask (:mod:`.force`), which replaces his policy's after it
    was asked (its coins drawn as in a plain run)."""
    hand = cardsets[HAND, seat]
    talon = deck_size - talon_pos
    if forced or branch != NO_OPTION:
        if branch != NO_OPTION:
            choose_discards(kinds[seat], params, seat, rng, hand, trump, talon, is_dealer, position)
            option = branch
        disc = ZERO
        for j in range(HAND_SIZE):
            if option >> j & 1:
                disc |= bit(nth_card(hand, j))
        if popcount(disc) > talon:
            return -2  # R4.4: this option is not open
    else:
        disc = choose_discards(kinds[seat], params, seat, rng, hand, trump, talon, is_dealer, position)
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
def exchange_from(r, n, dealer, trump_card, kinds, params, rng, order, cardsets, st, forced_seat, forced_option, step0,
                  talon_pos, first_option, search, announce, trick, info, log, scores):  # fmt: skip
    """R4.0-R4.4 from step ``step0`` on (0: the whole exchange); returns a status code.

    The steps (codes.PHASE_*): for k < n, seat (dealer + 1 + k) passes or plays, and in
    ``one-turn`` exchanges at once; then, with option ``intent_round``, the R4.0a round
    (steps n..2n-1: every seat that plays announces "on trumps" or "on suits"; passers
    announce nothing); then, in ``declare-then-buy``, the buying round (steps 2n..3n-1).
    ``talon_pos``: the next talon card's position in ``order`` at ``step0``.

    Options imposed instead of asking a policy: ``forced_seat`` (or NO_FORCE) takes
    ``forced_option`` (OPTION_PASS, 0 stand, or a discard mask over his cards) at each of
    his steps (branching); the decision at ``step0`` takes ``first_option`` unless it is
    NO_OPTION (a resumed deal: :mod:`rams_sim.kernels.pimc`); a searching seat's
    decision comes from ``search`` (:func:`rams_sim.kernels.search.search_decision`, which
    reads the other arguments). UNAVAILABLE if the rules do not open an imposed option to
    him (a pass with an ace, R4.1; more discards than the talon, R4.4).
    """
    first = seat_after(dealer, 1, n)
    trump = suit_of(trump_card)
    buy_later = r.exchange_order == ORDER_DECLARE_THEN_BUY
    phase0 = step0 // n  # one division; each phase then loops over its seats from where the deal resumes
    k0 = step0 - phase0 * n
    if phase0 == PHASE_ROUND:
        for k in range(k0, n):
            seat = seat_after(first, k, n)
            option = forced_option if seat == forced_seat else NO_OPTION  # branching
            branch = branch_option(params, seat, PHASE_ROUND, info) if buy_later else NO_OPTION  # pass or play
            if k == k0 and first_option != NO_OPTION:
                option = first_option
            elif option == NO_OPTION and branch == NO_OPTION:
                option = search_decision(search, PHASE_ROUND, k, talon_pos, seat, r, kinds, params, announce, order,
                                         rng, cardsets, st, trick, info, log, dealer, trump_card, scores)  # fmt: skip
            may_pass = can_pass(cardsets[DEALT, seat], seat == dealer, r.ace_forbids_pass, r.turned_ace_binds_dealer,
                                trump_card)  # fmt: skip
            if option == OPTION_PASS:
                if not may_pass:
                    return UNAVAILABLE
                st[ACTIVE, seat] = 0
                st[PASSED, seat] = 1
            elif option == NO_OPTION:
                passes = may_pass and wants_pass(kinds[seat], params, seat, rng, cardsets[HAND, seat], trump, k)
                if branch != NO_OPTION:  # a branch's word replaces his policy's, asked all the same (its coins)
                    if branch == OPTION_PASS and not may_pass:
                        return UNAVAILABLE
                    passes = took(info, branch) == OPTION_PASS
                if passes:
                    st[ACTIVE, seat] = 0
                    st[PASSED, seat] = 1
            if not buy_later and st[ACTIVE, seat]:
                talon_pos = _exchange_seat(kinds, params, rng, order, cardsets, seat, seat == dealer, trump, talon_pos,
                                           r.deck_size, option != NO_OPTION, option, k, NO_OPTION)  # fmt: skip
                if talon_pos < 0:
                    return UNAVAILABLE if talon_pos == -2 else ERR_DISCARD
    if r.intent_round and phase0 <= PHASE_INTENT:
        start = k0 if phase0 == PHASE_INTENT else 0
        for k in range(start, n):
            seat = seat_after(first, k, n)
            if not st[ACTIVE, seat]:
                continue
            option = NO_OPTION
            branch = branch_option(params, seat, PHASE_INTENT, info)  # a branch's announcement (kernels/force.py)
            if phase0 == PHASE_INTENT and k == k0 and first_option != NO_OPTION:
                option = first_option
            elif branch == NO_OPTION:
                option = search_decision(search, PHASE_INTENT, n + k, talon_pos, seat, r, kinds, params, announce,
                                         order, rng, cardsets, st, trick, info, log, dealer, trump_card, scores)  # fmt: skip
            if option == NO_OPTION:
                option = choose_intent(kinds[seat], params, seat, rng, cardsets[HAND, seat], trump)
                if branch != NO_OPTION:  # replaces his policy's, asked all the same (its coins)
                    option = took(info, branch)
            st[INTENT, seat] = option
    if buy_later:
        start = k0 if phase0 == PHASE_BUY else 0
        for k in range(start, n):
            seat = seat_after(first, k, n)
            if not st[ACTIVE, seat]:
                continue
            option = forced_option if seat == forced_seat else NO_OPTION
            branch = branch_option(params, seat, PHASE_BUY, info)  # a branch's purchase: a discard mask
            if phase0 == PHASE_BUY and k == k0 and first_option != NO_OPTION:
                option = first_option
            elif option == NO_OPTION and branch == NO_OPTION:
                option = search_decision(search, PHASE_BUY, 2 * n + k, talon_pos, seat, r, kinds, params, announce,
                                         order, rng, cardsets, st, trick, info, log, dealer, trump_card, scores)  # fmt: skip
            talon_pos = _exchange_seat(kinds, params, rng, order, cardsets, seat, seat == dealer, trump, talon_pos,
                                       r.deck_size, option != NO_OPTION, option, k,
                                       branch if option == NO_OPTION else NO_OPTION)  # fmt: skip
            if branch != NO_OPTION and option == NO_OPTION and talon_pos >= 0:
                took(info, branch)
            if talon_pos < 0:
                return UNAVAILABLE if talon_pos == -2 else ERR_DISCARD
    return OK


@njit(cache=True, _nrt=False, inline="always")
def dealer_trump_with(must_take, binds, dealer, trump_card, kinds, params, rng, cardsets, st, option, search, r,
                      announce, order, trick, info, log, scores, step):  # fmt: skip
    """R4.3: a playing dealer may (or must) give up one card for the trump card; returns a status.

    The dealer's choice imposed (``option``: DECLINE or the card he gives up; NO_OPTION asks his policy) or searched (``search``, as in :func:`exchange_from`;
    ``step``: 3n, the deal's step of this decision); a branch forces it through his policy row
    (:func:`..force.forced_option`, decision PHASE_TRUMP; UNAVAILABLE where a decline is forced on a
    dealer who must take the card)."""
    if not st[ACTIVE, dealer]:
        return OK  # R4.3: if the dealer passes, nobody uses the trump card
    hand = cardsets[HAND, dealer]
    forced = must_take or (binds and rank_of(trump_card) == ACE)
    j = NO_OPTION
    if option == NO_OPTION:  # a branch's choice (kernels/force.py): DECLINE, or the j-th card of his hand
        j = branch_option(params, dealer, PHASE_TRUMP, info)
        if (j == DECLINE and forced) or (j != NO_OPTION and j != DECLINE and not 0 <= j < popcount(hand)):
            return UNAVAILABLE
        if j == NO_OPTION:
            option = search_decision(search, PHASE_TRUMP, step, -1, dealer, r, kinds, params, announce, order, rng,
                                     cardsets, st, trick, info, log, dealer, trump_card, scores)  # fmt: skip
    if option != NO_OPTION:
        give = option
        if give == DECLINE and forced:
            return UNAVAILABLE
    else:
        give = trump_exchange(kinds[dealer], params, dealer, rng, hand, trump_card, forced)
        if j != NO_OPTION:  # the branch's choice; his policy was asked all the same (its coins drawn as in a plain run)
            give = took(info, DECLINE if j == DECLINE else nth_card(hand, j))
    if give >= 0 or forced:
        if give < 0 or not has(hand, give):
            return ERR_TRUMP_DISCARD
        cardsets[HAND, dealer] = (hand & ~bit(give)) | bit(trump_card)
        st[TOOK_TRUMP, dealer] = 1
        st[TRUMP_DISCARD, dealer] = give
    return OK
