"""R9 ``zone`` ([004] "Рамс на зоне"): one deal, as docs/VARIANTS.md "zone" states it.

The entry points are those of every game module (:mod:`rams_sim.kernels.dispatch`), on
the state arrays of :mod:`rams_sim.kernels.state`. Zone plays its own R6 (no duty to
follow), so it has no trick hooks; its policies' decisions are here too. Two players:
the partner (seat dealer+1) and the dealer. The deal: the hands, the widow, the turned card (R3's layout); the partner's swap; a rams ends the
deal (R5.2-R5.4 seniority, ``declare.best_rams``; four aces before it, with
``four_aces_win``, R5.1); else five tricks, the first lead by duty, any card in answer, the
trick by R6.4 (``trick.trick_winner``); the count at the end of the deal (write off exactly
to 0; going past writes the total on), or with ``zone_finish=trick`` at the trick that
brings a player to exactly 0 (R8.2, R8.2a's freeze). A = ``ace_values`` of the hand at the
first lead (R7).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import ACE, HAND_SIZE, JACK, KING, N_SUITS, N_TRICKS, QUEEN, SUIT_MASKS
from ...policies import FIRST_CARD, Z_ACE_WEIGHT, Z_SWAP_THRESHOLD
from ..bits import (
    ONE,
    ZERO,
    ace_points,
    bit,
    card_of,
    has,
    lowest,
    nth_card,
    pair_jacks,
    popcount,
    rams_suit,
    rank_of,
    suit_of,
)
from ..codes import (
    CARD_DECISION,
    D_FOUR_ACES,
    D_FOUR_JACKS,
    D_JACK_PAIR,
    D_JACKS_VOID,
    D_TRUMP_RAMS,
    E_FOUR_ACES,
    E_RAMS,
    E_TARGET,
    ERR_CARD,
    NO_OPTION,
    O_FOUR_ACES,
    O_PLAYED,
    O_RAMS,
    OK,
    SETTLE_STAKE,
    UNAVAILABLE,
    ZONE_AT_TRICK,
    ZONE_JACKS_BOTH,
    ZONE_LEAD_DUTY,
    ZONE_ONE_TRICK,
    ZONE_RESTART,
)
from ..deal import deal_cards, reset_scoring, shuffle_and_seed
from ..declare import best_rams, four_aces_holder
from ..force import UNOPENED, branch_card
from ..policy import RANDOM, _strength, highest_ranked, lowest_ranked, probed_card
from ..rng import bounded
from ..search import arm, search_hook
from ..state import (
    ACES,
    DECL,
    DELTA,
    DISCARDS,
    DRAWN,
    END_KIND,
    ENDS_PARTY,
    FINAL,
    HAND,
    JACK_KIND,
    JACKS,
    LOG_LEADER,
    LOG_WINNER,
    NEXT_DEALER,
    OUTCOME,
    OVERSHOT,
    PROKAT,
    STATUS,
    TRICK_CARD,
    TRICK_SEAT,
    TRICKS,
    TRUMP_CARD,
    WIDOW,
    seat_after,
)
from ..trick import trick_winner

N_ZONE = 2  # VARIANTS "zone: the table": two players
WIDOW_SIZE = 5  # a five-card widow
SWAP_OPTION = (1 << HAND_SIZE) - 1  # branching: discard mask 31 = give all five for the widow

# ---- the search's hooks (zone_search.py, imported when a searching driver is compiled) ----
zone_search_swap = search_hook(
    "zone_search_swap", "search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer",
    ".games.zone_search.zone_pimc_swap", "search, r, params, cardsets, st, trick, info, log, scores, dealer",
    "The searching partner's swap option (0 stand, 31 swap), or NO_OPTION.", __name__,
    decider="seat_after(dealer, 1, 2)")  # fmt: skip
zone_search_card = search_hook(
    "zone_search_card", "search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer, t, k, leader, seat, "
    "legal, duty", ".games.zone_search.zone_pimc_card", "search, r, params, cardsets, st, trick, info, log, scores, "
    "dealer, t, k, leader, seat, legal, duty", "A searching seat's card in zone, or -1 when ``seat`` does not search.",
    __name__, none="-1")  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def _pairs(mask):
    """Same-colour jack pairs in ``mask``: 0, 1 or 2 (R0: ♠♣ black, ♦♥ red)."""
    return popcount(pair_jacks(mask)) // 2


@njit(cache=True, _nrt=False, inline="always")
def _is_pair(a, b):
    """Whether the two cards are the two jacks of one colour."""
    return popcount(pair_jacks(bit(a) | bit(b))) == 2


@njit(cache=True, _nrt=False, inline="always")
def jack_points(one_trick, jack_pair, won, pair_tricks):
    """(points, pairs) of one player's jacks: pairs among his won cards (won-cards), or his
    tricks holding a pair (one-trick); ``jack_pair`` points each."""
    pairs = pair_tricks if one_trick else _pairs(won)
    return pairs * jack_pair, pairs


@njit(cache=True, _nrt=False, inline="always")
def new_score(start, restart, score, write_off, write_on):
    """(score after the deal, overshoot): VARIANTS "zone: counting and the exact finish".

    Going past 0 (``write_off > score``): the total written off would be
    ``T = start - score + write_off``; T is written on instead (score + T), or with
    ``restart`` after the write-off (the start score).
    """
    if write_off > score:
        total = start - score + write_off
        if restart:
            return score - write_off + total, 1
        return score + total, 1
    return score - write_off + write_on, 0


@njit(cache=True, _nrt=False, inline="always")
def counted_jacks(r, trump, won0, pt0, won1, pt1):
    """(j0, j1, void): the jack points each seat writes off from his won cards (``zone_jacks``;
    ``pt``: his tricks holding a pair) and the seat whose pairs ``zone_jacks_both=trump-jack``
    voids (both collected a pair: the one without the trump jack), or -1."""
    one_trick = r.zone_jacks == ZONE_ONE_TRICK
    j0, p0 = jack_points(one_trick, r.jack_pair, won0, pt0)
    j1, p1 = jack_points(one_trick, r.jack_pair, won1, pt1)
    void = -1
    if p0 > 0 and p1 > 0 and r.zone_jacks_both != ZONE_JACKS_BOTH:
        if has(won0, card_of(trump, JACK)):
            j1, void = 0, 1
        else:
            j0, void = 0, 0
    return j0, j1, void


@njit(cache=True, _nrt=False, inline="always")
def at_zero(scores, dealer, tricks0, tricks1, j0, j1, a0, a1):
    """``zone_finish=trick`` (R8.2): the first seat from the dealer's left whose running write-off
    (tricks so far + jacks of his cards won so far + A, from his first trick on) equals his
    score before the deal, or -1."""
    for k in range(N_ZONE):
        seat = seat_after(dealer, k + 1, N_ZONE)
        if seat == 0 and tricks0 >= 1 and tricks0 + j0 + a0 == scores[0]:
            return seat
        if seat == 1 and tricks1 >= 1 and tricks1 + j1 + a1 == scores[1]:
            return seat
    return -1


@njit(cache=True, _nrt=False, inline="always")
def stopped_before(r, log, t, scores, dealer, trump, a0, a1):
    """Whether, under ``zone_finish=trick``, one of the tricks before ``t`` (in ``log``) left a
    player at exactly 0 with A ``a0``/``a1`` (:func:`at_zero`): the deal would have stopped
    there. The search redraws a world that gives the other hand such aces."""
    if r.zone_finish != ZONE_AT_TRICK:
        return False
    won0, won1 = ZERO, ZERO
    pt0, pt1, tricks0, tricks1 = 0, 0, 0, 0
    for tt in range(t):
        both = bit(log[tt, 0]) | bit(log[tt, 1])
        pair = 1 if _is_pair(log[tt, 0], log[tt, 1]) else 0
        if log[tt, LOG_WINNER] == 0:
            won0 |= both
            pt0 += pair
            tricks0 += 1
        else:
            won1 |= both
            pt1 += pair
            tricks1 += 1
        j0, j1, _ = counted_jacks(r, trump, won0, pt0, won1, pt1)
        if at_zero(scores, dealer, tricks0, tricks1, j0, j1, a0, a1) >= 0:
            return True
    return False


# ---- the policies (policies.py, paragraph "zone") ---------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def wants_swap(kind, params, seat, rng, hand, trump):
    """The partner's swap: random ``bounded(2) == 1``; basic-like: no rams and zone strength
    (basic's strength + ``zone_ace_weight`` per plain ace) below ``zone_swap_threshold``."""
    if kind == RANDOM:
        return bounded(rng, seat + 1, 2) == 1
    if rams_suit(hand) >= 0:
        return False
    aces = 0
    for suit in range(N_SUITS):
        if suit != trump and has(hand, card_of(suit, ACE)):
            aces += 1
    strength = _strength(hand, trump, params, seat) + params[seat, Z_ACE_WEIGHT] * aces
    return strength < params[seat, Z_SWAP_THRESHOLD]


@njit(cache=True, _nrt=False, inline="always")
def _cheap_key(card, trump):
    """Order (trump, rank, id) as one integer."""
    return (1 if suit_of(card) == trump else 0) * 4096 + rank_of(card) * 64 + card


@njit(cache=True, _nrt=False, inline="always")
def _cheapest(mask, trump):
    best = -1
    m = mask
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
        if best < 0 or _cheap_key(card, trump) < _cheap_key(best, trump):
            best = card
    return best


@njit(cache=True, _nrt=False, inline="always")
def _gain(card, led, n_trick, won, one_trick, jack_pair):
    """1 + the jack points winning this trick with ``card`` adds to his won cards."""
    if one_trick:
        return 1 + (jack_pair if n_trick == 1 and _is_pair(led, card) else 0)
    cards = bit(card)
    if n_trick == 1:
        cards |= bit(led)
    return 1 + (_pairs(won | cards) - _pairs(won)) * jack_pair


@njit(cache=True, _nrt=False, inline="always")
def choose_card(kind, params, seat, rng, legal, led, n_trick, trump, need_left, won, one_trick, jack_pair):
    """The card to play (VARIANTS "zone: the policies"); ``led``: the led card when ``n_trick`` is 1."""
    if kind == RANDOM:
        count = popcount(legal)
        if count < 2:
            return lowest(legal)
        return nth_card(legal, bounded(rng, seat + 1, count))
    if popcount(legal) == 1:
        return lowest(legal)
    trumps = SUIT_MASKS[trump]
    if n_trick == 1:
        led_suit = suit_of(led)
        winners = ZERO
        fitting = ZERO
        m = legal
        while m != ZERO:
            card = lowest(m)
            m &= m - ONE
            suit = suit_of(card)
            if (suit == led_suit and card > led) or (suit == trump and led_suit != trump):
                winners |= bit(card)
                if _gain(card, led, 1, won, one_trick, jack_pair) <= need_left:
                    fitting |= bit(card)
        if fitting != ZERO:
            return _cheapest(fitting, trump)
        if legal & ~winners != ZERO:
            return _cheapest(legal & ~winners, trump)
        best = -1
        best_gain = 0
        m = legal
        while m != ZERO:
            card = lowest(m)
            m &= m - ONE
            g = _gain(card, led, 1, won, one_trick, jack_pair)
            if best < 0 or g < best_gain or (g == best_gain and _cheap_key(card, trump) < _cheap_key(best, trump)):
                best, best_gain = card, g
        return best
    fitting = ZERO
    if need_left >= 1:
        m = legal
        while m != ZERO:
            card = lowest(m)
            m &= m - ONE
            if _gain(card, -1, 0, won, one_trick, jack_pair) <= need_left:
                fitting |= bit(card)
    if fitting != ZERO:
        if fitting & trumps != ZERO:
            top = fitting & trumps
            card = lowest(top)
            while top != ZERO:
                card = lowest(top)
                top &= top - ONE
            return card
        return highest_ranked(fitting)
    if legal & ~trumps != ZERO:
        return lowest_ranked(legal & ~trumps)
    return lowest(legal)


# ---- the deal ---------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def first_lead(duty, cardsets, trump_card, partner):
    """(leader, duty cards or ZERO for any card): VARIANTS "zone: the first lead"."""
    if duty:
        trump = suit_of(trump_card)
        ace = card_of(trump, ACE)
        king = card_of(trump, KING)
        queen = card_of(trump, QUEEN)
        for k in range(N_ZONE):
            seat = seat_after(partner, k, N_ZONE)
            if has(cardsets[HAND, seat], ace):
                return seat, bit(ace)
        if trump_card == ace:
            for k in range(N_ZONE):
                seat = seat_after(partner, k, N_ZONE)
                if has(cardsets[HAND, seat], king):
                    return seat, bit(king)
        for k in range(N_ZONE):
            seat = seat_after(partner, k, N_ZONE)
            if has(cardsets[HAND, seat], king) and has(cardsets[HAND, seat], queen):
                return seat, bit(king) | bit(queen)
    return partner, ZERO


@njit(cache=True, _nrt=False, inline="always")
def settle(r, scores, dealer, off0, on0, off1, on1, kind, st, info):
    """Deltas from (write-off, write-on) by seat; the first seat at exactly 0 from the
    dealer's left wins; the seat with the larger delta deals next (equal: rotation)."""
    restart = r.zone_overshoot == ZONE_RESTART
    s0, o0 = new_score(r.start, restart, scores[0], off0, on0)
    s1, o1 = new_score(r.start, restart, scores[1], off1, on1)
    st[DELTA, 0] = s0 - scores[0]
    st[DELTA, 1] = s1 - scores[1]
    st[OVERSHOT, 0] = o0
    st[OVERSHOT, 1] = o1
    for k in range(N_ZONE):
        seat = seat_after(dealer, k + 1, N_ZONE)
        if scores[seat] + st[DELTA, seat] == 0:
            info[ENDS_PARTY] = seat
            info[END_KIND] = kind
            break
    if st[DELTA, 0] != st[DELTA, 1]:
        info[NEXT_DEALER] = 0 if st[DELTA, 0] > st[DELTA, 1] else 1


@njit(cache=True, _nrt=False)
def play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
              forced_seat, forced_option, search):  # fmt: skip
    """Play one zone deal into the state arrays; return a status code (OK = 0).

    Arguments as :func:`.classic.play_deal`. Branching (``forced_seat``):
    the partner's options are 0 (stand) and 31 (swap); every other option is UNAVAILABLE.
    ``search``: None, or the search's scratch where a seat plays ``pimc``
    (:mod:`..zone_search`; armed here with the deal's key).
    """
    n = N_ZONE
    partner = seat_after(dealer, 1, n)
    shuffle_and_seed(r, kinds, key, fixed_order, fixed_order.shape[0] > 0, order, rng)
    reset_scoring(st, n, info, log)
    for t in range(N_TRICKS):
        for seat in range(n):
            log[t, seat] = -1
    deal_cards(order, n, dealer, cardsets, st)  # R3: the hands; its "trump card" is the widow's first
    widow = ZERO
    for j in range(WIDOW_SIZE):
        widow |= bit(order[HAND_SIZE * n + j])
    info[TRUMP_CARD] = order[HAND_SIZE * n + WIDOW_SIZE]
    # the swap: the partner alone, his whole hand for the widow
    if forced_seat >= 0 and not (forced_option == 0 or (forced_seat == partner and forced_option == SWAP_OPTION)):
        info[STATUS] = UNAVAILABLE
        return UNAVAILABLE
    option = np.int64(forced_option) if forced_seat == partner else np.int64(NO_OPTION)
    return deal_from(r, kinds, params, rng, cardsets, st, trick, info, log, scores, dealer, widow, option,
                     arm(search, key))  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")  # inlined: the search calls it from inside itself (no recursion)
def deal_from(r, kinds, params, rng, cardsets, st, trick, info, log, scores, dealer, widow, option, search):
    """The deal from the partner's swap on (the hands dealt, ``widow`` the widow's cards, the
    turned card in ``info``): the swap (``option``: 0 stand, SWAP_OPTION swap, or NO_OPTION:
    his policy, or his search, decides), a rams, the play and the count; returns a status."""
    n = N_ZONE
    partner = seat_after(dealer, 1, n)
    trump_card = info[TRUMP_CARD]
    trump = suit_of(trump_card)
    if option == NO_OPTION:
        option = zone_search_swap(search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer)
    if option == NO_OPTION:
        swap = wants_swap(kinds[partner], params, partner, rng, cardsets[HAND, partner], trump)
    else:
        swap = option == SWAP_OPTION
    if swap:
        cardsets[DISCARDS, partner] = cardsets[HAND, partner]
        cardsets[DRAWN, partner] = widow
        cardsets[HAND, partner] = widow
        info[WIDOW] = partner
    for seat in range(n):
        cardsets[FINAL, seat] = cardsets[HAND, seat]
        st[ACES, seat] = ace_points(cardsets[HAND, seat], r.ace_values)  # R7: A, the hand at the first lead
        st[JACK_KIND, seat] = 0
    # four aces (four_aces_win): the party is won at the declaration, before any rams (R5.1, R5 step 4a)
    if r.four_aces_win:
        holder = four_aces_holder(cardsets, st, n, partner)
        if holder >= 0:  # every delta 0
            st[DECL, holder] = D_FOUR_ACES
            info[OUTCOME] = O_FOUR_ACES
            info[ENDS_PARTY] = holder
            info[END_KIND] = E_FOUR_ACES
            return OK
    # rams: no play follows (R5.2-R5.4 seniority); aces add to both sides (R5.2, R5.3)
    best = best_rams(cardsets, st, n, partner, trump, r.card_points)
    if best >= 0:
        value = r.trump_rams if st[DECL, best] == D_TRUMP_RAMS else r.suit_rams
        info[OUTCOME] = O_RAMS
        if best == 0:
            settle(r, scores, dealer, value + st[ACES, 0], 0, 0, value + st[ACES, 1], E_RAMS, st, info)
        else:
            settle(r, scores, dealer, 0, value + st[ACES, 0], value + st[ACES, 1], 0, E_RAMS, st, info)
        return OK
    info[OUTCOME] = O_PLAYED
    leader, duty = first_lead(r.zone_lead == ZONE_LEAD_DUTY, cardsets, trump_card, partner)
    return play_from(r, kinds, params, rng, cardsets, st, trick, info, log, scores, dealer, np.int64(0), np.int64(0),
                     leader, duty, np.int64(-1), search)  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")  # inlined: the search calls it from inside itself (no recursion)
def play_from(r, kinds, params, rng, cardsets, st, trick, info, log, scores, dealer, t0, k0, leader, duty, first_card,
              search):  # fmt: skip
    """The play from card ``k0`` of trick ``t0`` (its ``leader``; the tricks before it in
    ``log``, its first ``k0`` cards in ``trick``), then the count; returns a status.

    ``duty``: the first lead's duty cards (ZERO: any card); ``first_card`` (or -1) is
    played at ``(t0, k0)`` instead of asking the seat: the way the search plays a card out. A
    seat's ``first_card`` probe (policies.py) picks his card of trick 0 instead of his policy.
    A (R7) is read from the hands at the first lead (``cardsets[FINAL]``); with
    ``zone_finish=trick`` the deal stops at the trick that brings a player to exactly 0.
    """
    n = N_ZONE
    trump_card = info[TRUMP_CARD]
    trump = suit_of(trump_card)
    one_trick = r.zone_jacks == ZONE_ONE_TRICK
    at_trick = r.zone_finish == ZONE_AT_TRICK
    a0 = ace_points(cardsets[FINAL, 0], r.ace_values)
    a1 = ace_points(cardsets[FINAL, 1], r.ace_values)
    st[ACES, 0] = a0
    st[ACES, 1] = a1
    cards = trick[TRICK_CARD]
    won0 = ZERO
    won1 = ZERO
    pt0 = 0
    pt1 = 0
    for tt in range(t0):  # the tricks already played
        both = bit(log[tt, 0]) | bit(log[tt, 1])
        pair = 1 if _is_pair(log[tt, 0], log[tt, 1]) else 0
        if log[tt, LOG_WINNER] == 0:
            won0 |= both
            pt0 += pair
        else:
            won1 |= both
            pt1 += pair
    for t in range(t0, N_TRICKS):
        seat = leader
        for k in range(n):
            if t == t0 and k < k0:
                seat = seat_after(seat, 1, n)
                continue
            hand = cardsets[HAND, seat]
            legal = duty if (t == 0 and k == 0 and duty != ZERO) else hand
            won = won0 if seat == 0 else won1
            pts, _ = jack_points(one_trick, r.jack_pair, won, pt0 if seat == 0 else pt1)
            need_left = scores[seat] - st[TRICKS, seat] - pts - st[ACES, seat]  # A comes with his first trick
            if t == t0 and k == k0 and first_card >= 0:
                card = first_card
            elif t == 0 and params[seat, FIRST_CARD] >= 0.0:
                card = probed_card(params, seat, legal)  # the first_card probe (policies.py): not searched
            else:
                branch = branch_card(params, seat, CARD_DECISION + t, info, hand, legal)  # a branch's card (force.py)
                if branch == UNOPENED:
                    info[STATUS] = UNAVAILABLE
                    return UNAVAILABLE
                card = -1
                if branch < 0:
                    card = zone_search_card(search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer, t,
                                            k, leader, seat, legal, duty)  # fmt: skip
                if card < 0:
                    card = choose_card(kinds[seat], params, seat, rng, legal, cards[0], k, trump, need_left, won,
                                       one_trick, r.jack_pair)  # fmt: skip
                    if branch >= 0:
                        card = branch  # his policy was asked all the same: its coins are drawn as in a plain run
            if card < 0 or not has(legal, card):
                info[STATUS] = ERR_CARD
                return ERR_CARD
            cards[k] = card
            trick[TRICK_SEAT, k] = seat
            cardsets[HAND, seat] = hand & ~bit(card)
            log[t, seat] = card
            seat = seat_after(seat, 1, n)
        w = trick[TRICK_SEAT, trick_winner(cards, n, trump)]
        st[TRICKS, w] += 1
        both = bit(cards[0]) | bit(cards[1])
        pair = 1 if _is_pair(cards[0], cards[1]) else 0
        if w == 0:
            won0 |= both
            pt0 += pair
        else:
            won1 |= both
            pt1 += pair
        log[t, LOG_LEADER] = leader
        log[t, LOG_WINNER] = w
        leader = w
        if at_trick:  # R8.2: a player at exactly 0 wins at once, the deal stops here
            j0, j1, void = counted_jacks(r, trump, won0, pt0, won1, pt1)
            stopper = at_zero(scores, dealer, st[TRICKS, 0], st[TRICKS, 1], j0, j1, a0, a1)
            if stopper >= 0:
                count(r, scores, dealer, j0, j1, void, stopper, st, info)
                return OK
    j0, j1, void = counted_jacks(r, trump, won0, pt0, won1, pt1)  # the count at the end of the deal
    count(r, scores, dealer, j0, j1, void, np.int64(-1), st, info)
    return OK


@njit(cache=True, _nrt=False, inline="always")
def count(r, scores, dealer, j0, j1, void, stopper, st, info):
    """The count of a played deal (VARIANTS "zone: counting"): with a trick, w = tricks + jacks
    (``j0``/``j1``, :func:`counted_jacks`; ``void``: the seat whose pair is void) + A written
    off; without one, the remiz + A written on and the прокат (R7.1, R7.2). ``stopper``: the
    seat that reached exactly 0 at a trick (``zone_finish=trick``), or -1 after five tricks;
    then only he writes off, the other records nothing, jacks included (R8.2a's freeze)."""
    off0, on0, off1, on1 = 0, 0, 0, 0
    for seat in range(N_ZONE):
        if stopper >= 0 and seat != stopper:
            continue
        jacks = j0 if seat == 0 else j1
        if seat == void:
            st[DECL, seat] = D_JACKS_VOID  # both collected: the winner of the trump jack writes off
        st[JACKS, seat] = jacks
        if jacks > 0:
            st[DECL, seat] = D_FOUR_JACKS if jacks > r.jack_pair else D_JACK_PAIR
        off, on = 0, 0
        if st[TRICKS, seat] == 0:
            on = r.remiz + st[ACES, seat]
            st[PROKAT, seat] = 1
        else:
            off = st[TRICKS, seat] + jacks + st[ACES, seat]
        if seat == 0:
            off0, on0 = off, on
        else:
            off1, on1 = off, on
    settle(r, scores, dealer, off0, on0, off1, on1, E_TARGET, st, info)


@njit(cache=True, _nrt=False)
def settle_party(r, won, scores, stake, prokats, settlement, row):
    """VARIANTS "zone: settlement": the winner receives from the loser ``stake`` (``settle=stake``)
    or the loser's remaining score, max(score, 0) stakes (``remaining``, R8.4); nothing if
    unfinished (R8.2c). Each прокат paid moves ``zone_prokat`` stakes from its payer to the other."""
    for seat in range(N_ZONE):
        other = seat_after(seat, 1, N_ZONE)
        money = float(r.zone_prokat * (prokats[other] - prokats[seat]))
        if won >= 0:
            loser = other if seat == won else seat
            paid = float(stake) if r.settle == SETTLE_STAKE else float(max(scores[loser], 0))
            money += paid if seat == won else -paid
        settlement[row, seat] = money
