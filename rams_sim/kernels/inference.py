"""Inference: worlds before the play drawn with a history the others' choices make likely (issue 35).

Uniform worlds (:mod:`.worlds`) give a seat that stayed in and exchanged two cards a weak
hand as often as a strong one; players who pass weak hands do not. Policy-based inference
(Rebstock, Solinas, Buro & Sturtevant 2019, for Skat) weighs each sampled world by how
likely the others' observed actions are under a model of the players. Here the model is
the rollout policy itself (``kinds``/``params`` of the rollout players: ``expert`` unless
told otherwise), made stochastic by a *floor*: a player takes the action his policy takes
with probability ``1 - floor``, and any of the ``n`` actions open to him with probability
``floor / n`` (so no world the model finds unlikely has weight 0, and a deterministic
policy cannot collapse the sample; ``floor = 1`` is a player who chooses at random).

A world before the play is drawn with its history (:func:`draw_history`). Each other seat
whose action was seen gets a dealt hand of five of the cards the searching seat has not
seen, drawn from its conditional: five cards drawn uniformly, kept with the chance of what
he was seen to do -- pass or play, how many cards he exchanged, his R4.0a announcement --
relative to the model's own choice (:func:`round_chance`, :func:`word_chance`,
:func:`intent_chance`, :func:`buy_chance`; a pass R4.1 forbids has chance 0), else drawn
again (:func:`seat_hand`). The seats are drawn in R4.0's order, then once more each given
the others' hands (one sweep of Gibbs sampling, INFER_SWEEPS): the posterior of the deal
given everything the seat saw, under the model, up to how much one seat's hand changes the
chances of another's (the second pass corrects most of it; exact rejection of whole deals,
tried first, cost the dealer hundreds of attempts a world). The seats still to act get five
cards each; then the exchange is replayed: a seat that exchanged ``k`` cards discards what
the model discards (:func:`model_discards`: which cards a seat threw is never seen) and
draws ``k`` of the cards left, whose uniform order is the talon. Reads the public rows only
(who passed, the count of each seat's discards, the announcements) and the seat's own cards.

Arrays are those of :mod:`.state`; ``kinds`` int8[n] and ``params`` float64[n, P] the
model's players (the rollout players). The reference engine's :mod:`rams_sim.reference.inference`
implements the same reading with its own policies.
"""

from __future__ import annotations

from numba import njit

from ..cards import ACE, HAND_SIZE, KING, QUEEN, SUIT_MASKS
from ..policies import INFER_NAMES, INFER_SWEEPS
from .bits import ZERO, ace_points, bit, card_of, nth_card, popcount, rank_of, suit_of
from .codes import ORDER_DECLARE_THEN_BUY, PHASE_BUY, PHASE_INTENT, PHASE_ROUND, PHASE_TRUMP, RUFF_OVERTRUMP, TAKE_MUST
from .exchange import can_pass
from .play import legal_led, next_active, trumps_behind
from .policy import (
    RANDOM,
    choose_card,
    choose_discards,
    choose_intent,
    least_kept,
    reads_intents,
    threats_of,
    trump_exchange,
    uses_threats,
    wants_pass,
)
from .rng import bounded
from .state import (
    ACES,
    ACTIVE,
    DEALT,
    DISCARDS,
    DRAWN,
    FINAL,
    HAND,
    INTENT,
    LOG_LEADER,
    LOG_WINNER,
    OWN_TRUMP,
    PASSED,
    TOOK_TRUMP,
    TRICK_CARD,
    TRICK_SEAT,
    TRICKS,
    TRUMP_DISCARD,
    seat_after,
)
from .trick import beats
from .worlds import MAX_DRAWS, uniform01

INFER_NONE = 0  # uniform worlds (docs/SEARCH.md)
INFER_POLICY = 1  # worlds before the play drawn with a history, weighed by the rollout policy with a floor
INFER_PLAY = 2  # as INFER_POLICY, and the worlds at a card kept with that history's chance too (play_chance)
INFER_CARDS = 3  # as INFER_PLAY, and with the chance of every card the others played (cards_chance)
assert INFER_NAMES[INFER_NONE] == "none" and INFER_NAMES[INFER_POLICY] == "policy"  # pimc's infer=, advise's --infer
assert INFER_NAMES[INFER_PLAY] == "play" and INFER_NAMES[INFER_CARDS] == "cards"


@njit(cache=True, inline="always")
def mismatch(floor, n_actions):
    """The chance of an action the model's policy would not take, relative to the one it takes:
    (floor / n) / (1 - floor + floor / n) for ``n_actions`` open actions."""
    share = floor / n_actions
    return share / (1.0 - floor + share)


@njit(cache=True, inline="always")
def draw_cards(pool, count, rng, row):
    """``count`` cards drawn uniformly without replacement from ``pool`` (uint64): each the j-th
    lowest of the cards left, j uniform from stream ``row``. Returns the cards (uint64)."""
    out = ZERO
    for _ in range(count):
        c = nth_card(pool & ~out, bounded(rng, row, popcount(pool & ~out)))
        out |= bit(c)
    return out


@njit(cache=True, inline="always")
def model_discards(kind, params, o, rng, row, hand, trump, k, is_dealer, position):
    """The ``k`` cards seat ``o`` discards from ``hand`` under the model: the policy's own choice
    on a talon of ``k`` cards (R4.4's short talon), topped up with its least-kept cards
    (:func:`.policy.least_kept`); ``random``: ``k`` cards drawn uniformly from stream ``row``."""
    if kind == RANDOM:
        return draw_cards(hand, k, rng, row)
    out = choose_discards(kind, params, o, rng, hand, trump, k, is_dealer, position)
    while popcount(out) < k:
        out |= bit(least_kept(hand & ~out, hand, trump, params, o))
    return out


@njit(cache=True, inline="always")
def round_chance(r, kind, params, o, rng, hand, trump_card, dealer, position, talon_left, passed, count, floor):
    """R4.0-R4.4 in one turn: the chance, relative to the model's choice, that seat ``o`` with the
    dealt ``hand`` passed (``passed``) or played and exchanged ``count`` cards. The open actions:
    a pass where R4.1 allows it (a pass it forbids has chance 0), and 0 .. min(5, talon) cards."""
    may = can_pass(hand, o == dealer, r.ace_forbids_pass, r.turned_ace_binds_dealer, trump_card)
    if passed and not may:
        return 0.0
    if kind == RANDOM:
        return 1.0
    trump = suit_of(trump_card)
    n_actions = min(HAND_SIZE, talon_left) + 1 + (1 if may else 0)
    own_pass = may and wants_pass(kind, params, o, rng, hand, trump, position)
    if passed or own_pass:
        return 1.0 if passed == own_pass else mismatch(floor, n_actions)
    own = popcount(choose_discards(kind, params, o, rng, hand, trump, talon_left, o == dealer, position))
    return 1.0 if own == count else mismatch(floor, n_actions)


@njit(cache=True, inline="always")
def word_chance(r, kind, params, o, rng, hand, trump_card, dealer, position, passed, floor):
    """R4.0's declare-then-buy round: the chance that seat ``o`` said pass (``passed``) or play."""
    may = can_pass(hand, o == dealer, r.ace_forbids_pass, r.turned_ace_binds_dealer, trump_card)
    if passed and not may:
        return 0.0
    if kind == RANDOM or not may:
        return 1.0
    own_pass = wants_pass(kind, params, o, rng, hand, suit_of(trump_card), position)
    return 1.0 if own_pass == passed else mismatch(floor, 2)


@njit(cache=True, inline="always")
def intent_chance(kind, params, o, rng, hand, trump, said, floor):
    """R4.0a: the chance that seat ``o`` announced ``said`` (codes.INTENT_*) with ``hand``."""
    if kind == RANDOM:
        return 1.0
    return 1.0 if choose_intent(kind, params, o, rng, hand, trump) == said else mismatch(floor, 2)


@njit(cache=True, inline="always")
def buy_chance(kind, params, o, rng, hand, trump, talon_left, is_dealer, position, count, floor):
    """R4.0's purchase: the chance that seat ``o`` bought ``count`` cards (0 .. min(5, talon))."""
    if kind == RANDOM:
        return 1.0
    own = popcount(choose_discards(kind, params, o, rng, hand, trump, talon_left, is_dealer, position))
    return 1.0 if own == count else mismatch(floor, min(HAND_SIZE, talon_left) + 1)


@njit(cache=True, inline="always")
def has_acted(phase, step, seat_index):
    """Whether the ``seat_index``-th seat of R4.0's order said pass or play before the decision
    (``phase``, ``step``: the first round is over, or he came before the step)."""
    return phase > PHASE_ROUND or seat_index < step


@njit(cache=True, inline="always")
def seat_chance(r, n, seat_index, o, dealer, trump_card, phase, step, st, talon_left, count, kinds, params, rng, hand,
                floor):  # fmt: skip
    """The chance, relative to the model's own choices, of everything seat ``o`` (``seat_index``
    in R4.0's order) was seen to do before the decision (``phase``, ``step``) with the dealt
    ``hand``: in one turn his pass or his ``count`` of cards; in declare-then-buy his word, then
    his purchase of ``count``; his R4.0a announcement. ``talon_left``: the talon at his exchange."""
    i = seat_index
    passed = st[PASSED, o] != 0
    kind = kinds[o]
    chance = 1.0
    if not has_acted(phase, step, i):
        return chance
    if r.exchange_order == ORDER_DECLARE_THEN_BUY:
        chance *= word_chance(r, kind, params, o, rng, hand, trump_card, dealer, i, passed, floor)
    else:
        chance *= round_chance(r, kind, params, o, rng, hand, trump_card, dealer, i, talon_left, passed, count, floor)
    if passed:
        return chance
    trump = suit_of(trump_card)
    if r.intent_round and (phase > PHASE_INTENT or (phase == PHASE_INTENT and i < step - n)):
        chance *= intent_chance(kind, params, o, rng, hand, trump, st[INTENT, o], floor)
    if r.exchange_order == ORDER_DECLARE_THEN_BUY and (phase > PHASE_BUY or (phase == PHASE_BUY and i < step - 2 * n)):
        chance *= buy_chance(kind, params, o, rng, hand, trump, talon_left, o == dealer, i, count, floor)
    return chance


@njit(cache=True, inline="always")
def has_exchanged(r, n, seat_index, phase, step, st, o):
    """Whether seat ``o`` (``seat_index`` in R4.0's order) has made his exchange before the decision."""
    if st[PASSED, o]:
        return False
    if r.exchange_order == ORDER_DECLARE_THEN_BUY:
        return phase > PHASE_BUY or (phase == PHASE_BUY and seat_index < step - 2 * n)
    return has_acted(phase, step, seat_index)


@njit(cache=True, inline="always")
def talon_at(r, n, dealer, seat_index, cardsets):
    """The talon's size when the ``seat_index``-th seat of R4.0's order exchanges: the cards after
    the hands and the trump card (R3) less what the seats before him exchanged (public counts)."""
    left = r.deck_size - (HAND_SIZE * n + 1)
    first = seat_after(dealer, 1, n)
    for j in range(seat_index):
        left -= popcount(cardsets[DISCARDS, seat_after(first, j, n)])
    return left


@njit(cache=True)
def seat_hand(r, n, i, o, dealer, trump_card, phase, step, cardsets, st, kinds, params, rng, row, pool, floor):
    """Seat ``o``'s dealt hand (the ``i``-th seat of R4.0's order) drawn from its conditional: five
    cards of ``pool`` drawn uniformly (:func:`draw_cards`) until kept with their :func:`seat_chance`,
    at most MAX_DRAWS times (the last draw is kept if none was). Returns the hand (uint64)."""
    talon_left = talon_at(r, n, dealer, i, cardsets)
    count = popcount(cardsets[DISCARDS, o])
    hand = ZERO
    for _ in range(MAX_DRAWS):
        hand = draw_cards(pool, HAND_SIZE, rng, row)
        chance = seat_chance(r, n, i, o, dealer, trump_card, phase, step, st, talon_left, count, kinds, params, rng,
                             hand, floor)  # fmt: skip
        if chance >= 1.0 or (chance > 0.0 and uniform01(rng, row) < chance):
            break
    return hand


@njit(cache=True)
def draw_history(r, n, seat, dealer, trump_card, phase, step, cardsets, st, kinds, params, rng, row, unknown, floor,
                 w_cardsets):  # fmt: skip
    """One world with its history (module docstring), into the other seats' rows of ``w_cardsets``
    (HAND, DEALT, DISCARDS, DRAWN): the dealt hands of the seats that acted, each from its
    conditional (:func:`seat_hand`) in R4.0's order and then again, INFER_SWEEPS times, given the
    others' (Gibbs sampling); five cards for each seat still to act; then the exchange replayed in
    order: a seat that exchanged ``k`` cards discards :func:`model_discards` and draws ``k`` of the
    cards left (the talon is a uniform order of them). Returns the talon's rest (uint64)."""
    first = seat_after(dealer, 1, n)
    trump = suit_of(trump_card)
    pool = unknown
    for sweep in range(INFER_SWEEPS + 1):
        for i in range(n):
            o = seat_after(first, i, n)
            if o == seat or not has_acted(phase, step, i):
                continue
            if sweep > 0:
                pool |= w_cardsets[DEALT, o]
            hand = seat_hand(r, n, i, o, dealer, trump_card, phase, step, cardsets, st, kinds, params, rng, row, pool,
                             floor)  # fmt: skip
            w_cardsets[DEALT, o] = hand
            pool &= ~hand
    for i in range(n):  # the seats still to act
        o = seat_after(first, i, n)
        if o == seat or has_acted(phase, step, i):
            continue
        w_cardsets[DEALT, o] = draw_cards(pool, HAND_SIZE, rng, row)
        pool &= ~w_cardsets[DEALT, o]
    for i in range(n):  # the exchange, in order
        o = seat_after(first, i, n)
        if o == seat:
            continue
        hand = w_cardsets[DEALT, o]
        disc, drawn = ZERO, ZERO
        if has_exchanged(r, n, i, phase, step, st, o):
            count = popcount(cardsets[DISCARDS, o])
            disc = model_discards(kinds[o], params, o, rng, row, hand, trump, count, o == dealer, i)
            drawn = draw_cards(pool, count, rng, row)
            pool &= ~drawn
        w_cardsets[HAND, o] = (hand & ~disc) | drawn
        w_cardsets[DISCARDS, o] = disc
        w_cardsets[DRAWN, o] = drawn
    return pool


# ---- at a card of the first trick: the world drawn with its history (infer=cards) -----------------
@njit(cache=True)
def first_trick_world(r, n, seat, dealer, trump_card, cardsets, st, trick, k, kinds, params, rng, row, floor, w_cardsets,
                      w_st):  # fmt: skip
    """``infer=cards`` at card ``k`` of the first trick: a world drawn with its history, the exact
    posterior under the model but for what the caller weighs after (the declarations, the cards).

    The others' dealt hands, discards and draws as before the play (:func:`draw_history`, every seat
    having acted: the cards ``seat`` had not seen before the play are the pool); then R4.3: a playing
    dealer other than ``seat`` who took the trump card gives up his model's card (a uniform card of
    his hand where the model would have kept it, or where the model is ``random``), and his take or
    refusal weighs :func:`mismatch` where the model would have done otherwise (1 where R4.3 made him
    take it); then each other playing seat's hand at the first lead (FINAL, ACES, R7) must hold the
    cards he played to this trick before card ``k`` (0 ends it), which leave his HAND. Writes the
    other seats' rows of ``w_cardsets``/``w_st`` (copies of the seat's state). Returns (the chance,
    the cards the passers' hands are among: their drawn dealt hands)."""
    seen = cardsets[FINAL, seat] | cardsets[DISCARDS, seat] | bit(trump_card)
    if st[TRUMP_DISCARD, seat] >= 0:
        seen |= bit(st[TRUMP_DISCARD, seat])
    draw_history(r, n, seat, dealer, trump_card, PHASE_TRUMP, 0, cardsets, st, kinds, params, rng, row,
                 r.deck_mask & ~seen, floor, w_cardsets)  # fmt: skip
    chance = 1.0
    if dealer != seat and not st[PASSED, dealer]:  # R4.3, under the model
        hand = w_cardsets[HAND, dealer]
        took = st[TOOK_TRUMP, dealer] != 0
        forced = r.dealer_takes_trump == TAKE_MUST or (r.turned_ace_binds_dealer and rank_of(trump_card) == ACE)
        give = -1
        if kinds[dealer] != RANDOM:
            give = trump_exchange(kinds[dealer], params, dealer, rng, hand, trump_card, forced)
            if (give >= 0) != took:
                chance *= mismatch(floor, 2)
        if took:
            if give < 0:
                give = nth_card(hand, bounded(rng, row, popcount(hand)))
            w_cardsets[HAND, dealer] = (hand & ~bit(give)) | bit(trump_card)
        w_st[TRUMP_DISCARD, dealer] = give if took else -1
    among = ZERO
    for o in range(n):
        if o == seat:
            continue
        if st[PASSED, o]:
            among |= w_cardsets[DEALT, o]
            continue
        final = w_cardsets[HAND, o]
        mine = ZERO
        for j in range(k):
            if trick[TRICK_SEAT, j] == o:
                mine |= bit(trick[TRICK_CARD, j])
        if mine & ~final != ZERO:
            return 0.0, among
        w_cardsets[FINAL, o] = final
        w_cardsets[HAND, o] = final & ~mine
        w_st[ACES, o] = ace_points(final, r.ace_values)
    return chance, among


# ---- at a card of the play -----------------------------------------------------------------------
@njit(cache=True, inline="always")
def take_chance(r, kind, params, dealer, rng, hand, trump_card, took, floor):
    """R4.3: the chance, relative to the model's choice, that the playing dealer holding ``hand``
    after his exchange took the trump card (``took``) or kept his hand; 1 where he had to take it."""
    forced = r.dealer_takes_trump == TAKE_MUST or (r.turned_ace_binds_dealer and rank_of(trump_card) == ACE)
    if forced or kind == RANDOM:
        return 1.0
    own = trump_exchange(kind, params, dealer, rng, hand, trump_card, False) >= 0
    return 1.0 if own == took else mismatch(floor, 2)


@njit(cache=True)
def play_chance(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row, floor):
    """``infer=play``: the chance, relative to the model's choices, of what the other playing seats
    were seen to do before the play, in a world drawn at a card (``w_cardsets``/``w_st``: each seat's FINAL
    hand at the first lead, his DISCARDS and R4.3 give-up card TRUMP_DISCARD from the world).

    Each playing seat's hand after his exchange is his hand at the first lead (the dealer's
    with his give-up card for the trump card he took, R4.3); of it, the cards he drew are
    ``k`` drawn uniformly from stream ``row`` (``k`` his public count: given the world, each
    choice is as likely), and his dealt hand is the rest with the world's discards. The chance
    is the product over the seats, in R4.0's order, of :func:`seat_chance` of that dealt hand
    (play, count, announcement, purchase) and, for the dealer, :func:`take_chance`; 0 ends it.
    Which cards a seat threw (and gave up) the world draws uniformly: the model's choice of
    them is not weighed here (docs/SEARCH.md "Inference"). The passers are not weighed.
    Reads of the real deal only the public rows (PASSED, TOOK_TRUMP, INTENT, the counts of
    DISCARDS)."""
    first = seat_after(dealer, 1, n)
    chance = 1.0
    for i in range(n):
        o = seat_after(first, i, n)
        if o == seat or st[PASSED, o]:
            continue
        after = w_cardsets[FINAL, o]
        took = st[TOOK_TRUMP, o] != 0
        if o == dealer and took and w_st[TRUMP_DISCARD, o] >= 0:
            after = (after & ~bit(trump_card)) | bit(w_st[TRUMP_DISCARD, o])
        count = popcount(cardsets[DISCARDS, o])
        drawn = draw_cards(after, count, rng, row)
        dealt = (after & ~drawn) | w_cardsets[DISCARDS, o]
        talon_left = talon_at(r, n, dealer, i, cardsets)
        chance *= seat_chance(r, n, i, o, dealer, trump_card, PHASE_TRUMP, 0, st, talon_left, count, kinds, params,
                              rng, dealt, floor)  # fmt: skip
        if o == dealer:
            chance *= take_chance(r, kinds[o], params, o, rng, after, trump_card, took, floor)
        if chance == 0.0:
            return chance
    return chance


@njit(cache=True)
def cards_chance(r, n, seat, dealer, trump_card, st, trick, log, t, k, w_cardsets, w_st, kinds, params, rng, floor,
                 s_cardsets, s_st, buf):  # fmt: skip
    """``infer=cards``: the chance, relative to the model's choices, of every card the other seats
    played before card ``k`` of trick ``t``, in a world drawn at that card (``w_cardsets`` FINAL: each
    seat's hand at the first lead; DISCARDS and ``w_st`` TRUMP_DISCARD: his discards and R4.3 card).

    The play so far is replayed card by card in playing order (R6.1-R6.2, the tricks before ``t`` from
    ``log``, trick ``t``'s first ``k`` cards from ``trick``): for another seat's card, his hand then
    (his hand at the first lead less what he had played), the cards R6 left him (R6.5-R6.7a, R6.6's
    duty from the trick before), and the card his model plays there with what he saw then
    (:func:`.policy.choose_card`: his threats, the tricks he had won, the announcements of those
    still to play). A card he was left alone with weighs 1; his model's card 1, any other
    :func:`mismatch` (``floor`` over his legal cards). A ``random`` model weighs nothing. A card the world's
    hand does not hold, or that R6 did not leave him, gives 0 (a world drawn with its history,
    :func:`first_trick_world`; a layout never does). 0 ends it.
    ``s_cardsets``/``s_st``: scratch state arrays (the seats' hands then, the tricks they had won);
    ``buf``: int8[>= MAX_SEATS], a trick's cards. Reads of the real deal only the public rows
    (ACTIVE, INTENT, TOOK_TRUMP, OWN_TRUMP) and the cards played."""
    trump = suit_of(trump_card)
    overtrump = r.ruff == RUFF_OVERTRUMP
    queen = bit(card_of(trump, QUEEN))
    n_active = 0
    for s in range(n):
        s_cardsets[HAND, s] = w_cardsets[FINAL, s]
        s_cardsets[DISCARDS, s] = w_cardsets[DISCARDS, s]
        s_st[TRUMP_DISCARD, s] = w_st[TRUMP_DISCARD, s]
        s_st[TOOK_TRUMP, s] = st[TOOK_TRUMP, s]
        s_st[OWN_TRUMP, s] = st[OWN_TRUMP, s]
        s_st[ACTIVE, s] = st[ACTIVE, s]
        s_st[INTENT, s] = st[INTENT, s]
        s_st[TRICKS, s] = 0
        n_active += st[ACTIVE, s]
    chance = 1.0
    played = ZERO
    q_duty = False
    for tt in range(t + 1):
        count = n_active if tt < t else k
        o = log[tt, LOG_LEADER] if tt < t else (trick[TRICK_SEAT, 0] if k > 0 else seat)
        leader = o
        led = ZERO
        best_card = -1
        for kk in range(count):
            card = log[tt, o] if tt < t else trick[TRICK_CARD, kk]
            hand = s_cardsets[HAND, o]
            if o != seat:
                legal = legal_led(hand, led, buf, kk, trump, q_duty and kk == 0, overtrump, r.must_head,
                                  r.ace_covers_face)  # fmt: skip
                if legal & bit(card) == ZERO:
                    return 0.0  # a card the world's hand could not play (R6): a world drawn with its history
                options = popcount(legal)
                if options > 1 and kinds[o] != RANDOM:
                    threats = ZERO
                    if uses_threats(kinds[o]):
                        threats = threats_of(o, dealer, r.deck_mask, trump_card, played, s_cardsets, s_st)
                    remaining = n_active - kk - 1
                    behind = reads_intents(kinds[o], params, o) and trumps_behind(s_st, o, n, remaining)
                    own = choose_card(kinds[o], params, o, rng, legal, best_card if kk > 0 else -1, kk, trump,
                                      s_st[TRICKS, o], threats, remaining, behind)  # fmt: skip
                    if own != card:
                        chance *= mismatch(floor, options)
            buf[kk] = card
            if kk == 0:
                led = SUIT_MASKS[suit_of(card)]
                best_card = card
            elif beats(card, best_card, trump):
                best_card = card
            s_cardsets[HAND, o] = hand & ~bit(card)
            played |= bit(card)
            o = next_active(st, o, n)
        if tt < t:
            w = log[tt, LOG_WINNER]
            s_st[TRICKS, w] += 1
            # R6.6: a marriage K led and won obliges the Q next
            q_duty = leader == w and buf[0] == card_of(trump, KING) and s_cardsets[HAND, w] & queen != ZERO
        if chance == 0.0:
            return chance
    return chance
