"""R6: the cards a player may play (R6.2-R6.7a) and the play of the tricks (R6.1-R6.6).

Cards are ids, hands uint64 masks (:mod:`rams_sim.kernels.bits`); a trick so far is
``trick`` int8[>= n_trick], the cards in play order, led card first; who wins it is
:mod:`rams_sim.kernels.trick` (R6.4). The play loop works
on the state arrays of :mod:`rams_sim.kernels.state` and asks the game's hooks
(:mod:`rams_sim.kernels.dispatch`) before each card and to credit each trick.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import ACE, KING, MAX_SEATS, N_TRICKS, QUEEN, SUIT_MASKS
from .bits import ZERO, above, bit, card_of, has, suit_of, trump_face_mask
from .codes import CARD_DECISION, E_DECLINED, ERR_CARD, INTENT_TRUMPS, RUFF_OVERTRUMP, UNAVAILABLE
from .dispatch import before_card, credit
from .force import UNOPENED, branch_card
from .policy import choose_card, probed_card, reads_intents, threats_of, uses_threats
from .search import search_card
from .state import ACTIVE, END_KIND, HAND, INTENT, LOG_LEADER, LOG_WINNER, TRICK_CARD, TRICK_SEAT, TRICKS, seat_after
from .trick import beats, trick_winner, winning_cards

NO_CARD = -1  # play_from's forced_card: every card is asked of its seat
ILLEGAL = -2  # play_from's result where a policy played an illegal card (R6.8)
BEFORE_CARD_DONE = -3  # play_from's forced_card: the first card's before_card step was taken; its seat picks the card


# ---- R6.2-R6.7a: legal cards ----------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def lead_mask(hand, trump, q_duty):
    """Cards ``hand`` (uint64) may lead (R6.5, R6.6, R6.7a): the first duty that applies.

    ``q_duty``: the player led the previous trick with the trump K of a marriage and won it.
    """
    ace = bit(card_of(trump, ACE))
    if hand & ace:
        return ace  # R6.5
    king = bit(card_of(trump, KING))
    queen = bit(card_of(trump, QUEEN))
    if hand & king and hand & queen:
        return king  # R6.6: the marriage K first
    if q_duty and hand & queen:
        return queen  # R6.6: the K won, the Q follows
    return hand


@njit(cache=True, _nrt=False, inline="always")
def follow_mask(hand, led, trick, n_trick, trump, overtrump, must_head, ace_covers_face):
    """Cards ``hand`` may play to a trick of ``n_trick`` >= 1 cards (R6.7a).

    ``led``: the led suit's cards (uint64); ``trick``: int8[>= n_trick], the cards played,
    led card first.
    """
    trumps = SUIT_MASKS[trump]
    legal = hand & led  # R6.2: follow suit
    if legal == ZERO:
        legal = hand & trumps  # R6.2: void -> must trump
        if legal != ZERO and overtrump:
            best = -1  # R6.3: beat the best trump in the trick, if able
            for i in range(n_trick):
                if suit_of(trick[i]) == trump and trick[i] > best:
                    best = trick[i]
            if best >= 0 and legal & above(best) != ZERO:
                legal = legal & above(best)
        if legal == ZERO:
            legal = hand  # R6.2: otherwise anything
    if ace_covers_face:
        ace = bit(card_of(trump, ACE))  # R6.7: the trump ace falls on a trump face
        if legal & ace:
            faces = trump_face_mask(trump)
            for i in range(n_trick):
                if faces & bit(trick[i]):
                    legal = ace
                    break
    if must_head:
        win = winning_cards(legal, trick, n_trick, trump)  # R6.3a
        if win != ZERO:
            legal = win
    return legal


@njit(cache=True, _nrt=False, inline="always")
def legal_led(hand, led, trick, n_trick, trump, q_duty, overtrump, must_head, ace_covers_face):
    """:func:`legal_mask` with ``led``, the led suit's cards (uint64; ignored on the lead),
    given: the play loop keeps it from the lead instead of reading the led card back for
    every follower."""
    if n_trick == 0:
        return lead_mask(hand, trump, q_duty)
    return follow_mask(hand, led, trick, n_trick, trump, overtrump, must_head, ace_covers_face)


@njit(cache=True, _nrt=False, inline="always")
def legal_mask(hand, trick, n_trick, trump, q_duty, overtrump, must_head, ace_covers_face):
    """The legal cards of ``hand`` (uint64) for the trick so far (R6.7a)."""
    led = SUIT_MASKS[suit_of(trick[0])] if n_trick > 0 else ZERO
    return legal_led(hand, led, trick, n_trick, trump, q_duty, overtrump, must_head, ace_covers_face)


# ---- R6.1-R6.6: the play ---------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def next_active(st, seat, n):
    """The next active seat clockwise of ``seat``."""
    seat = seat_after(seat, 1, n)
    while not st[ACTIVE, seat]:
        seat = seat_after(seat, 1, n)
    return seat


SEAT_BITS = 4  # a seat in a packed table of seats
SEAT_FIELD = (1 << SEAT_BITS) - 1
assert MAX_SEATS <= SEAT_FIELD + 1 and MAX_SEATS * SEAT_BITS <= 64


@njit(cache=True, _nrt=False, inline="always")
def next_active_table(st, n):
    """The next active seat after each seat, packed SEAT_BITS bits a seat (uint64; read with
    :func:`next_in`): the active seats do not change during the play, so the play loop looks
    its next seat up instead of walking past the passers at every card."""
    table = ZERO
    for seat in range(n):
        table |= np.uint64(next_active(st, seat, n)) << np.uint64(SEAT_BITS * seat)
    return table


@njit(cache=True, _nrt=False, inline="always")
def next_in(table, seat):
    """The next active seat after ``seat`` in a :func:`next_active_table`."""
    return np.int64((table >> np.uint64(SEAT_BITS * seat)) & np.uint64(SEAT_FIELD))


@njit(cache=True, _nrt=False, inline="always")
def trumps_behind(st, seat, n, remaining):
    """Whether one of the ``remaining`` active seats to play after ``seat`` in this trick
    announced "on trumps" (R4.0a). Reads only the public ACTIVE and INTENT rows."""
    other = seat
    for _ in range(remaining):
        other = next_active(st, other, n)
        if st[INTENT, other] == INTENT_TRUMPS:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def failed_play(winner):
    """The deal's status where :func:`play_tricks` returned below -1: ERR_CARD for an illegal card
    (R6.8), UNAVAILABLE for a branch's card not open to its seat (:data:`.force.UNOPENED`)."""
    return UNAVAILABLE if winner == UNOPENED else ERR_CARD


@njit(cache=True, _nrt=False, inline="always")
def play_tricks(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card, scores, leader,
                search):  # fmt: skip
    """R6: play the tricks; return the seat that announced zero, -1, -2 on an illegal card, or
    :data:`.force.UNOPENED` where a branch forces a card the seat may not play.

    ``leader``: the first leader, or -1 for R6.1's (the first active seat from the dealer's
    left). The play log is cleared, then :func:`play_from` plays from the first card.
    ``search``: None, or :data:`rams_sim.kernels.search.Search` when a seat may search.
    """
    first = seat_after(dealer, 1, n)
    if leader < 0:
        leader = first if st[ACTIVE, first] else next_active(st, first, n)
    for seat in range(n):
        for t in range(N_TRICKS):
            log[t, seat] = -1
    return play_from(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card, scores,
                     0, 0, leader, False, ZERO, -1, search)  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def play_from(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t0, k0,
              leader, q_duty, played, forced_card, search):  # fmt: skip
    """R6 from card ``k0`` of trick ``t0`` on (0, 0 for a whole deal); returns as :func:`play_tricks`.

    ``leader`` leads trick ``t0``; its first ``k0`` cards are in ``trick``, the earlier tricks
    in ``log``; ``q_duty``: R6.6's duty to lead the Q applies to trick ``t0``'s lead;
    ``played``: uint64, every card played so far. A seat's ``first_card`` probe (policies.py)
    picks his card of trick 0 instead of his policy or search. ``forced_card`` (or NO_CARD) is played as
    the first card instead of asking the seat's policy (a searching policy's option:
    :mod:`rams_sim.kernels.pimc`; the game's ``before_card`` step for it has been taken);
    BEFORE_CARD_DONE: the ``before_card`` step of the first card has been taken (a searched
    dave, :mod:`rams_sim.kernels.games.duel_search`) and the seat's policy plays the card.

    Before each card the game's ``before_card`` hook runs (duel's dave,
    :mod:`rams_sim.kernels.games.duel`, which a searching seat decides by search and so
    gets where the play stands); when it ends the deal (a declined dave)
    ``info[END_KIND]`` is DECLINED and the seat about to play is returned. Each trick is
    credited by the game's ``credit`` hook.

    Each seat's policy sees its threats (policies.py): the deck less his hand, the cards
    played, his own discards and, unless another seat (the dealer) took it, the trump card;
    a policy that reads the R4.0a announcements also sees whether a seat still to play
    announced "on trumps". A searching seat's card comes from ``search`` (the
    :func:`rams_sim.kernels.search.search_card` hook).
    """
    trump = suit_of(trump_card)
    n_active = 0
    for seat in range(n):
        n_active += st[ACTIVE, seat]
    cards = trick[TRICK_CARD]
    trump_king = card_of(trump, KING)
    trump_queen = bit(card_of(trump, QUEEN))
    after = next_active_table(st, n) if n_active > 0 else ZERO  # (no active seat: no card is played)
    for t in range(t0, N_TRICKS):
        k_start = k0 if t == t0 else 0
        seat = leader if k_start == 0 else next_in(after, trick[TRICK_SEAT, k_start - 1])
        best = 0 if k_start == 0 else trick_winner(cards, k_start, trump)  # the card winning the trick so far (R6.4)
        best_card = cards[best]  # kept in hand as the cards fall, as the led suit's cards (from the lead on)
        led = SUIT_MASKS[suit_of(cards[0])] if k_start > 0 else ZERO
        for k in range(k_start, n_active):
            if forced_card == NO_CARD and before_card(r, kinds, params, announce, rng, cardsets, st, trick, log, info,
                                                      scores, t, k, leader, q_duty, seat, trump_card, dealer, played,
                                                      search):  # fmt: skip
                info[END_KIND] = E_DECLINED
                for s in range(n):
                    log[t, s] = -1  # a trick left unfinished is not recorded
                return seat
            hand = cardsets[HAND, seat]
            legal = legal_led(hand, led, cards, k, trump, q_duty and k == 0, r.ruff == RUFF_OVERTRUMP, r.must_head,
                              r.ace_covers_face)  # fmt: skip
            card = forced_card if forced_card >= 0 else NO_CARD
            forced_card = NO_CARD
            if card < 0 and t == 0:
                card = probed_card(params, seat, legal)  # the first_card probe: his first card, not searched
            branch = NO_CARD
            if card < 0:
                branch = branch_card(params, seat, CARD_DECISION + t, info, hand, legal)  # a branch's card (force.py)
                if branch == UNOPENED:
                    return UNOPENED
                if branch < 0:
                    card = search_card(search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer,
                                       trump_card, scores, t, k, leader, seat, legal, played, q_duty and k == 0)  # fmt: skip
            if card < 0:
                threats = ZERO
                if uses_threats(kinds[seat]):
                    threats = threats_of(seat, dealer, r.deck_mask, trump_card, played, cardsets, st)
                remaining = n_active - k - 1
                behind = reads_intents(kinds[seat], params, seat) and trumps_behind(st, seat, n, remaining)
                card = choose_card(kinds[seat], params, seat, rng, legal, best_card if k > 0 else NO_CARD, k, trump,
                                   st[TRICKS, seat], threats, remaining, behind)  # fmt: skip
                if branch >= 0:
                    card = branch  # his policy was asked all the same: its coins are drawn as in a plain run
            if card < 0 or not has(legal, card):
                return ILLEGAL
            cards[k] = card
            if k == 0:
                led = SUIT_MASKS[suit_of(card)]
            if k == 0 or beats(card, best_card, trump):
                best, best_card = k, card
            trick[TRICK_SEAT, k] = seat
            cardsets[HAND, seat] = hand & ~bit(card)
            played |= bit(card)  # seen by every later player, this trick included
            log[t, seat] = card
            seat = next_in(after, seat)
        w = trick[TRICK_SEAT, best]
        # R6.6: a marriage K led and won obliges the Q next
        q_duty = trick[TRICK_SEAT, 0] == w and cards[0] == trump_king and cardsets[HAND, w] & trump_queen != ZERO
        log[t, LOG_LEADER] = leader
        log[t, LOG_WINNER] = w
        leader = w
        if credit(r, w, scores, st, announce):  # R8.2 (the game's hook: modern counts up)
            return w
    return -1
