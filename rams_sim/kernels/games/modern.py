"""R9 ``modern`` ([004] "Рамс современный"): one deal on the state arrays (docs/VARIANTS.md "modern").

Four players, the 24-card deck dealt completely (R3's packets, then a 4-card widow
``order[20..23]``); the trump card is the dealer's last card ``order[19]``, kept in his
hand. A seat dealt five of one suit may demand a redeal (``deal_key(key, r)`` for the
r-th); the turns from the dealer's left (R4.0 ``exchange_order``): one turn each (pass
below ``modern_no_pass``, play, or take the widow blind keeping one card), or a play/pass
round and then the widow offered in turn to the players; four jacks win; a jack pair adds 5 with a trick;
tricks count up to ``modern_target``; a player with no trick loses ``remiz`` (рожки).
The tricks are played by :func:`..play.play_tricks` (R6 is unchanged; this module's
``credit`` counts up). The modern decisions of the built-in policies (the redeal, the
turn) are here too, built on basic's hand values (:mod:`..policy`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import HAND_SIZE, N_TRICKS
from ...policies import M_WIDOW_THRESHOLD
from ..bits import ONE, ZERO, bit, jack_kind, lowest, nth_card, popcount, rams_suit, suit_of
from ..codes import (
    D_JACK_PAIR,
    E_TARGET,
    ERR_DISCARD,
    HORNS_FROM_FIVE,
    LONE_VOID_DEAL,
    MODERN_POT,
    NO_OPTION,
    O_LONE,
    O_NOBODY,
    O_PLAYED,
    O_VOID,
    OK,
    OPTION_PASS,
    ORDER_DECLARE_THEN_BUY,
    REDEAL_DECISION,
    SCORE_SO_FAR,
    UNAVAILABLE,
)
from ..deal import deal_cards, reset_scoring, shuffle_and_seed
from ..declare import four_jacks_win, prepare_final
from ..force import forced_option, took
from ..knowledge import modern_jacks_fit
from ..play import failed_play, play_tricks
from ..policy import RANDOM, _strength, keep_value, wants_pass
from ..rng import bounded, deal_key
from ..search import arm, search_hook
from ..state import (
    ACTIVE,
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
    OWN_TRUMP,
    PASSED,
    REDEALS,
    STATUS,
    TRICKS,
    TRUMP_CARD,
    WIDOW,
    seat_after,
)

MAX_REDEALS = 10  # VARIANTS.md: the right to a redeal lapses after 10
# ---- the search's hooks (modern_search.py, imported when a searching driver is compiled) ----
_HOOK = "search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat"
_CALL = "search, r, params, announce, cardsets, st, info, scores, dealer, k, seat"
modern_search_turn = search_hook("modern_search_turn", _HOOK, ".games.modern_search.modern_pimc_turn", _CALL,
                                 "A searching seat's turn option in modern (OPTION_PASS, 0, a take mask), or "
                                 "NO_OPTION.", __name__)  # fmt: skip
modern_search_redeal = search_hook("modern_search_redeal", _HOOK, ".games.modern_search.modern_pimc_redeal", _CALL,
                                   "A searching seat's answer to modern's redeal question (0 keep, 1 demand), or "
                                   "NO_OPTION.", __name__)  # fmt: skip
WIDOW_SIZE = 4  # [004]: "4 карты откладываются в прикуп"
TAKE_BITS = HAND_SIZE - 1  # a take in `branch`: the 4-bit mask of the cards given up


# ---- the policies' modern decisions (policies.py) ------------------------------------------
TURN_PASS, TURN_STAND = -1, -2  # modern_turn's answers; any other answer is the card kept when taking the widow
TURN_UNAVAILABLE = -3  # turn_choice: the option is not open to the seat


@njit(cache=True, _nrt=False, inline="always")
def wants_redeal(kind, params, seat, rng, hand, trump):
    """A seat dealt five of one suit: random flips a coin; the others demand a redeal unless they are trumps."""
    if kind == RANDOM:
        return bounded(rng, seat + 1, 2) == 1
    return rams_suit(hand) != trump


@njit(cache=True, _nrt=False, inline="always")
def _most_kept(hand, trump, params, seat):
    """The card of ``hand`` with the highest keep value (ties: lower id)."""
    best = -1
    best_value = 0.0
    m = hand
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
        value = keep_value(card, hand, trump, params, seat)
        if best < 0 or value > best_value:
            best = card
            best_value = value
    return best


@njit(cache=True, _nrt=False, inline="always")
def modern_passes(kind, params, seat, rng, hand, trump, may_pass):
    """The pass decision (policies.py), where a pass is allowed: random flips a coin; the others
    pass iff basic would (strength below ``pass_threshold``, no jack pair)."""
    if not may_pass:
        return False
    if kind == RANDOM:
        return bounded(rng, seat + 1, 2) == 1
    return wants_pass(kind, params, seat, rng, hand, trump, 0)  # no table in modern (policies.check_table_game)


@njit(cache=True, _nrt=False, inline="always")
def modern_takes(kind, params, seat, rng, hand, trump):
    """The widow decision (policies.py), the widow open: the card kept when taking it, or TURN_STAND.
    random: a coin, then ``c[bounded(5)]``; the others take it with no jack pair and a strength
    below ``modern_widow_threshold``, keeping the card of highest keep value."""
    if kind == RANDOM:
        if bounded(rng, seat + 1, 2) == 1:
            return nth_card(hand, bounded(rng, seat + 1, HAND_SIZE))
        return TURN_STAND
    if jack_kind(hand) == 0 and _strength(hand, trump, params, seat) < params[seat, M_WIDOW_THRESHOLD]:
        return _most_kept(hand, trump, params, seat)
    return TURN_STAND


@njit(cache=True, _nrt=False, inline="always")
def modern_turn(kind, params, seat, rng, hand, trump, may_pass, widow_open):
    """One turn of ``one-turn``: TURN_PASS, TURN_STAND, or the card kept when taking the widow
    (policies.py): random, the pass coin and then the widow coin; the others, the widow first."""
    if kind == RANDOM:
        if modern_passes(kind, params, seat, rng, hand, trump, may_pass):
            return TURN_PASS
        return modern_takes(kind, params, seat, rng, hand, trump) if widow_open else TURN_STAND
    if widow_open:
        kept = modern_takes(kind, params, seat, rng, hand, trump)
        if kept != TURN_STAND:
            return kept
    if modern_passes(kind, params, seat, rng, hand, trump, may_pass):
        return TURN_PASS
    return TURN_STAND


# ---- the deal -----------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def credit_up(w, scores, st, target):
    """R9 modern (docs/VARIANTS.md): credit one trick to ``w``, counting up; True when his
    score before the deal + tricks + jack bonus (st[JACKS]) reaches ``target``: he wins."""
    st[TRICKS, w] += 1
    return scores[w] + st[TRICKS, w] + st[JACKS, w] >= target


@njit(cache=True, _nrt=False, inline="always")
def _deal(r, kinds, key, fixed_order, first_dealing, dealer, order, rng, cardsets, st):
    """One dealing: the deck order (given, or shuffled with ``key``), the seats' coins, R3's packets.

    Returns the trump card: the dealer's last card order[5n - 1]."""
    n = r.players
    shuffle_and_seed(r, kinds, key, fixed_order, first_dealing and fixed_order.shape[0] > 0, order, rng)
    deal_cards(order, n, dealer, cardsets, st)  # its return, order[5n], is the widow's first card here
    return order[HAND_SIZE * n - 1]


REDEAL = 1  # the redeal decision's options: 0 keep the cards, REDEAL demand a new dealing


@njit(cache=True, _nrt=False, inline="always")
def _redeal_demanded(r, n, dealer, trump, kinds, params, announce, rng, cardsets, st, info, scores, k0, search):
    """Each seat from the ``k0``-th from the dealer's left, dealt five of one suit, may demand a
    redeal; True at the first demand. A searching seat's answer comes from ``search``
    (:func:`rams_sim.kernels.games.modern.modern_search_redeal`), a branch's from the
    seat's policy row (:func:`..force.forced_option`)."""
    first = seat_after(dealer, 1, n)
    for k in range(k0, n):
        seat = seat_after(first, k, n)
        hand = cardsets[HAND, seat]
        if rams_suit(hand) >= 0:
            branch = forced_option(params, seat, REDEAL_DECISION, info)  # a branch's answer: 0 keep, REDEAL
            option = NO_OPTION
            if branch == NO_OPTION:
                option = modern_search_redeal(search, r, kinds, params, announce, cardsets, st, info, scores, dealer,
                                              k, seat)  # fmt: skip
            if option == NO_OPTION:
                demand = wants_redeal(kinds[seat], params, seat, rng, hand, trump)
                if branch != NO_OPTION:  # his policy was asked all the same: its coins drawn as in a plain run
                    demand = took(info, branch) == REDEAL
                if demand:
                    return True
            elif option == REDEAL:
                return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def is_take(option):
    """Whether an option is a take: a 4-bit mask of the five dealt cards (the cards given up)."""
    return option > 0 and option >> HAND_SIZE == 0 and popcount(option) == TAKE_BITS


@njit(cache=True, _nrt=False, inline="always")
def turn_choice(option, hand, may_pass, widow_open):
    """A turn option (``rams-sim branch``'s and the search's: OPTION_PASS, 0 stand, a 4-bit mask
    of the dealt cards given up for the widow) as modern_turn's answer, or TURN_UNAVAILABLE."""
    if option == OPTION_PASS:
        return TURN_PASS if may_pass else TURN_UNAVAILABLE
    if option == 0:
        return TURN_STAND
    if not is_take(option) or not widow_open:
        return TURN_UNAVAILABLE
    kept = -1
    for j in range(HAND_SIZE):
        if not option >> j & 1:
            kept = nth_card(hand, j)
    return kept


@njit(cache=True, _nrt=False, inline="always")
def round_choice(option, may_pass):
    """An option at a step of ``declare-then-buy``'s play/pass round: OPTION_PASS passes; 0 and a
    take (he plays, to take the widow at his offer) stand; anything else is TURN_UNAVAILABLE."""
    if option == OPTION_PASS:
        return TURN_PASS if may_pass else TURN_UNAVAILABLE
    return TURN_STAND if option == 0 or is_take(option) else TURN_UNAVAILABLE


@njit(cache=True, _nrt=False, inline="always")
def n_steps(r, n):
    """The steps of the turns (R4.0): ``one-turn``, one a seat; ``declare-then-buy``, the play/pass
    round (steps 0..n-1) and then the widow's offers (steps n..2n-1), seat (dealer + 1 + k mod n)."""
    return 2 * n if r.exchange_order == ORDER_DECLARE_THEN_BUY else n


@njit(cache=True, _nrt=False, inline="always")
def _turns(r, n, dealer, trump, kinds, params, announce, rng, order, cardsets, st, scores, info, k0, forced_seat,
           forced_option, first_option, search):  # fmt: skip
    """The turns from step ``k0`` on (:func:`n_steps`); a status.

    ``one-turn``: each seat in turn passes, plays, or takes the widow. ``declare-then-buy``: each
    seat in turn passes or plays; then the widow is offered in turn to the players, the first who
    takes it gets it (the other players are not asked once it is gone). ``forced_seat`` takes
    ``forced_option`` (:func:`turn_choice`; :func:`round_choice` in the play/pass round) at each
    of his steps instead of asking his policy (``rams-sim branch``); the decision at step ``k0``
    takes ``first_option`` unless it is NO_OPTION (a search playing an option out); a searching
    seat's option comes from ``search`` (:func:`rams_sim.kernels.games.modern.modern_search_turn`)."""
    first = seat_after(dealer, 1, n)
    widow = ZERO
    for j in range(WIDOW_SIZE):
        widow |= bit(order[HAND_SIZE * n + j])
    buy_later = r.exchange_order == ORDER_DECLARE_THEN_BUY
    for k in range(k0, n_steps(r, n)):
        in_round = k < n  # one-turn: always; declare-then-buy: the play/pass round
        seat = seat_after(first, k if in_round else k - n, n)
        if not in_round and not st[ACTIVE, seat]:
            continue  # a passer is not offered the widow
        if not in_round and info[WIDOW] >= 0:
            if seat == forced_seat and forced_option != 0:
                return UNAVAILABLE  # branch: a take after another seat took the widow
            continue
        hand = cardsets[HAND, seat]
        may_pass = in_round and scores[seat] < r.modern_no_pass
        widow_open = info[WIDOW] < 0 and not (buy_later and in_round)
        option = forced_option if seat == forced_seat else NO_OPTION
        if k == k0 and first_option != NO_OPTION:
            option = first_option
        if option == NO_OPTION:
            option = modern_search_turn(search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat)
        if option != NO_OPTION:
            if buy_later and in_round:
                choice = round_choice(option, may_pass)
            else:
                choice = turn_choice(option, hand, may_pass, widow_open)
            if choice == TURN_UNAVAILABLE:
                return UNAVAILABLE
        elif not buy_later:
            choice = modern_turn(kinds[seat], params, seat, rng, hand, trump, may_pass, widow_open)
        elif in_round:
            choice = TURN_PASS if modern_passes(kinds[seat], params, seat, rng, hand, trump, may_pass) else TURN_STAND
        else:
            choice = modern_takes(kinds[seat], params, seat, rng, hand, trump)
        if choice == TURN_PASS:
            if not may_pass:
                return ERR_DISCARD
            st[ACTIVE, seat] = 0
            st[PASSED, seat] = 1
        elif choice != TURN_STAND:  # take the widow, keeping card ``choice``
            if not widow_open or choice < 0 or hand & bit(choice) == ZERO:
                return ERR_DISCARD
            keep = bit(choice)
            cardsets[DISCARDS, seat] = hand & ~keep
            cardsets[DRAWN, seat] = widow
            cardsets[HAND, seat] = keep | widow
            info[WIDOW] = seat
    return OK


@njit(cache=True, _nrt=False, inline="always")
def _declare(r, st, n, first, n_active, info):
    """Four jacks (the holder wins), the jack pairs of the players; True when tricks follow."""
    if r.four_jacks_win and four_jacks_win(st, n, first, info):
        return False
    if n_active == 0:
        info[OUTCOME] = O_NOBODY
        return False
    for seat in range(n):
        if st[ACTIVE, seat] and st[JACK_KIND, seat] >= 1:
            st[DECL, seat] = D_JACK_PAIR
            st[JACKS, seat] = r.jack_pair  # the bonus, earned with a trick (finish)
    if n_active == 1 and r.lone_player == LONE_VOID_DEAL:
        info[OUTCOME] = O_VOID
        for seat in range(n):
            st[JACKS, seat] = 0
        return False
    info[OUTCOME] = O_LONE if n_active == 1 else O_PLAYED
    return True


@njit(cache=True, _nrt=False, inline="always")
def _finish(r, n, winner, scores, st, info):
    """Deltas: tricks + the jack bonus, or the рожки; a deal cut short scores as R8.2a."""
    for seat in range(n):
        t = st[TRICKS, seat]
        bonus = st[JACKS, seat]
        st[JACKS, seat] = 0
        st[DELTA, seat] = 0
        if not st[ACTIVE, seat]:
            continue
        if winner >= 0 and seat != winner and r.truncated_deal != SCORE_SO_FAR:
            continue  # freeze
        if t >= 1:
            st[JACKS, seat] = bonus
            st[DELTA, seat] = t + bonus
        elif winner < 0 and (r.modern_horns != HORNS_FROM_FIVE or scores[seat] >= r.remiz):
            st[DELTA, seat] = -r.remiz  # рожки
    if winner >= 0:
        info[ENDS_PARTY] = winner
        info[END_KIND] = E_TARGET


@njit(cache=True, _nrt=False)
def play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
              forced_seat, forced_option, search):  # fmt: skip
    """Play one ``modern`` deal into the state arrays; return a status code (OK = 0).

    Arguments as :func:`.classic.play_deal`. ``announce`` has no effect here
    (counting up, the first to reach the target always wins at once). A searching seat
    (``search``) searches its redeal, its turn and each card (:mod:`.modern_search`,
    :func:`..pimc.pimc_card`), keyed by the dealing played.
    """
    reset_scoring(st, r.players, info, log)
    info[TRUMP_CARD] = _deal(r, kinds, key, fixed_order, True, dealer, order, rng, cardsets, st)
    dealing_key = redeals_from(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st,
                               info, np.int64(0), np.int64(0), search)  # fmt: skip
    return deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log,
                     np.int64(0), forced_seat, forced_option, np.int64(NO_OPTION),
                     arm(search, dealing_key))  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")  # inlined: a search calls it from inside itself (no recursion)
def redeals_from(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, info, redeals,
                 k0, search):  # fmt: skip
    """The redeal questions from the ``k0``-th seat of dealing ``redeals`` on (that dealing in
    the state, ``info[TRUMP_CARD]`` set): each redeal demanded deals anew, keyed
    ``deal_key(key, r)`` for the r-th. Leaves the dealing that is played in the state (then
    :func:`deal_from`); returns its key. ``search``: unarmed, or None."""
    n = r.players
    dealing_key = key if redeals == 0 else deal_key(key, redeals)  # the key of the dealing that is played
    info[WIDOW] = -1
    info[REDEALS] = redeals
    while redeals < MAX_REDEALS and _redeal_demanded(r, n, dealer, suit_of(info[TRUMP_CARD]), kinds, params,
                                                     announce, rng, cardsets, st, info, scores, k0,
                                                     arm(search, dealing_key)):  # fmt: skip
        redeals += 1
        info[REDEALS] = redeals
        dealing_key = deal_key(key, redeals)
        info[TRUMP_CARD] = _deal(r, kinds, dealing_key, fixed_order, False, dealer, order, rng, cardsets, st)
        k0 = 0
    st[OWN_TRUMP, dealer] = 1  # the trump card is the dealer's own card, shown (VARIANTS.md): he did not take it
    return dealing_key


@njit(cache=True, _nrt=False, inline="always")  # inlined: a search calls it from inside itself (no recursion)
def deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log, k0, forced_seat,
              forced_option, first_option, search):  # fmt: skip
    """The deal from step ``k0`` of the turns on (the dealing done, ``info[TRUMP_CARD]`` set): the
    turns, four jacks and the jack pairs, the tricks, the deltas; returns a status. ``forced_seat``/
    ``forced_option``/``first_option`` as :func:`_turns`; ``search``: an armed scratch, or None
    (the rollouts)."""
    n = r.players
    first = seat_after(dealer, 1, n)
    trump_card = info[TRUMP_CARD]
    trump = suit_of(trump_card)
    status = _turns(r, n, dealer, trump, kinds, params, announce, rng, order, cardsets, st, scores, info, k0,
                    forced_seat, forced_option, first_option, search)  # fmt: skip
    if status != OK:
        info[STATUS] = status
        return status
    n_active, lone = prepare_final(cardsets, st, n, r.ace_values, r.jacks_count)  # aces have no role here
    if _declare(r, st, n, first, n_active, info):
        winner = -1
        if n_active == 1:  # R4.5 takes-all: credited one at a time
            for _ in range(N_TRICKS):
                if credit_up(lone, scores, st, r.modern_target):
                    winner = lone
                    break
        else:
            winner = play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card,
                                 scores, -1, search)  # fmt: skip
            if winner < -1:  # an illegal card (R6.8), or a branch's card not open to its seat
                info[STATUS] = failed_play(winner)
                return info[STATUS]
        _finish(r, n, winner, scores, st, info)
    return OK


# ---- the entry points of a game (dispatch.py) ---------------------------------------------
@njit(cache=True, _nrt=False)
def settle_party(r, won, scores, stake, prokats, settlement, row):
    """``modern_settle``: each loser pays the winner (target - his score) stakes, or one stake (the pot)."""
    for seat in range(r.players):
        settlement[row, seat] = 0.0
    if won < 0:
        return
    for seat in range(r.players):
        if seat != won:
            pay = 1.0 if r.modern_settle == MODERN_POT else float(r.modern_target - scores[seat])
            settlement[row, seat] = -pay * stake
            settlement[row, won] += pay * stake


@njit(cache=True, _nrt=False, inline="always")
def before_card(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, seat,
                trump_card, dealer, played, search):  # fmt: skip
    """R6: nothing happens between the cards."""
    return False


@njit(cache=True, _nrt=False, inline="always")
def credit(r, w, scores, st, announce):
    """Counting up: credit the trick to ``w``; True when he reaches ``modern_target`` (he wins at once)."""
    return credit_up(w, scores, st, r.modern_target)


# ---- what policy pimc's card search needs of the game (:mod:`rams_sim.kernels.dispatch`) --------
DELTA_SIGN = -1  # counting up: the most is the best


@njit(cache=True, _nrt=False, inline="always")
def finish_play(r, n, dealer, winner, scores, st, info):
    """The deltas of a deal whose tricks were played (tricks + bonus, the рожки, R8.2a)."""
    _finish(r, n, winner, scores, st, info)


@njit(cache=True, _nrt=False, inline="always")
def search_value(r, search, announce, seat, scores, dealer, world_key):
    """A rollout's worth to ``seat`` (times DELTA_SIGN, the least the best): his delta."""
    return search.w_st[DELTA, seat]


@njit(cache=True, _nrt=False, inline="always")
def trump_maybe_discarded(cardsets, st, dealer):
    """The trump card is the dealer's own card; if he took the widow it may be among the four he
    laid aside (how many he laid aside is public, which ones is not)."""
    return cardsets[DISCARDS, dealer] != ZERO


@njit(cache=True, inline="always")
def world_fits(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among):
    """modern: the jacks declared, and four jacks where they win, no one's who reached the play
    (:func:`..knowledge.modern_jacks_fit`); aces count for nothing and a dealt five of a suit
    only allows a redeal, so neither is checked."""
    return modern_jacks_fit(r, n, seat, trump_card, st, w_cardsets, w_st, passers_among)
