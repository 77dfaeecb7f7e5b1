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

A world before the play is drawn with its history (:func:`draw_history`): in R4.0's order,
each other seat whose action was seen gets a dealt hand of five cards drawn uniformly from
the cards the seat has not seen, and the chance of what he was seen to do -- pass or play,
how many cards he exchanged, his R4.0a announcement -- relative to the model's own choice
(:func:`round_chance`, :func:`word_chance`, :func:`intent_chance`, :func:`buy_chance`;
a pass R4.1 forbids has chance 0); a seat that exchanged ``k`` cards discards what the
model discards (:func:`model_discards`: which cards a seat threw is never seen) and draws
``k`` of the cards left. The attempt is kept with the product of the chances: a uniform
threshold is drawn first and the attempt given up as soon as the product falls to it, so
most attempts stop at the first seat (exact rejection, cheap). Then the seats still to
act get five cards each and the rest, in a uniform order, is the talon. At most
:data:`.worlds.MAX_DRAWS` attempts (the last is completed whatever its chance). So a kept
world is a draw from the posterior of the deal given everything the seat saw, under the
model. Reads the public rows only (who passed, the count of each seat's discards, the
announcements) and the seat's own cards.

Arrays are those of :mod:`.state`; ``kinds`` int8[n] and ``params`` float64[n, P] the
model's players (the rollout players). The reference engine's :mod:`rams_sim.reference.inference`
implements the same reading with its own policies.
"""

from __future__ import annotations

from numba import njit

from ..cards import HAND_SIZE
from ..policies import INFER_NAMES
from .bits import ZERO, bit, nth_card, popcount, suit_of
from .codes import ORDER_DECLARE_THEN_BUY, PHASE_BUY, PHASE_INTENT, PHASE_ROUND
from .exchange import can_pass
from .policy import RANDOM, choose_discards, choose_intent, least_kept, wants_pass
from .rng import bounded
from .state import DEALT, DISCARDS, DRAWN, HAND, INTENT, PASSED, seat_after
from .worlds import uniform01

INFER_NONE = 0  # uniform worlds (docs/SEARCH.md)
INFER_POLICY = 1  # worlds drawn with a history, weighed by the rollout policy with a floor
assert INFER_NAMES[INFER_NONE] == "none" and INFER_NAMES[INFER_POLICY] == "policy"  # pimc's infer=, advise's --infer


@njit(cache=True)
def mismatch(floor, n_actions):
    """The chance of an action the model's policy would not take, relative to the one it takes:
    (floor / n) / (1 - floor + floor / n) for ``n_actions`` open actions."""
    share = floor / n_actions
    return share / (1.0 - floor + share)


@njit(cache=True)
def model_discards(kind, params, o, rng, row, hand, trump, k, is_dealer, position):
    """The ``k`` cards seat ``o`` discards from ``hand`` under the model: the policy's own choice
    on a talon of ``k`` cards (R4.4's short talon), topped up with its least-kept cards
    (:func:`.policy.least_kept`); ``random``: ``k`` cards drawn uniformly from stream ``row``."""
    out = ZERO
    if kind == RANDOM:
        rest = hand
        for _ in range(k):
            c = nth_card(rest, bounded(rng, row, popcount(rest)))
            out |= bit(c)
            rest &= ~bit(c)
        return out
    out = choose_discards(kind, params, o, rng, hand, trump, k, is_dealer, position)
    while popcount(out) < k:
        out |= bit(least_kept(hand & ~out, hand, trump, params, o))
    return out


@njit(cache=True)
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


@njit(cache=True)
def word_chance(r, kind, params, o, rng, hand, trump_card, dealer, position, passed, floor):
    """R4.0's declare-then-buy round: the chance that seat ``o`` said pass (``passed``) or play."""
    may = can_pass(hand, o == dealer, r.ace_forbids_pass, r.turned_ace_binds_dealer, trump_card)
    if passed and not may:
        return 0.0
    if kind == RANDOM or not may:
        return 1.0
    own_pass = wants_pass(kind, params, o, rng, hand, suit_of(trump_card), position)
    return 1.0 if own_pass == passed else mismatch(floor, 2)


@njit(cache=True)
def intent_chance(kind, params, o, rng, hand, trump, said, floor):
    """R4.0a: the chance that seat ``o`` announced ``said`` (codes.INTENT_*) with ``hand``."""
    if kind == RANDOM:
        return 1.0
    return 1.0 if choose_intent(kind, params, o, rng, hand, trump) == said else mismatch(floor, 2)


@njit(cache=True)
def buy_chance(kind, params, o, rng, hand, trump, talon_left, is_dealer, position, count, floor):
    """R4.0's purchase: the chance that seat ``o`` bought ``count`` cards (0 .. min(5, talon))."""
    if kind == RANDOM:
        return 1.0
    own = popcount(choose_discards(kind, params, o, rng, hand, trump, talon_left, is_dealer, position))
    return 1.0 if own == count else mismatch(floor, min(HAND_SIZE, talon_left) + 1)


@njit(cache=True)
def draw_cards(pool, count, rng, row):
    """``count`` cards drawn uniformly without replacement from ``pool`` (uint64): each the j-th
    lowest of the cards left, j uniform from stream ``row``. Returns the cards (uint64)."""
    out = ZERO
    for _ in range(count):
        c = nth_card(pool & ~out, bounded(rng, row, popcount(pool & ~out)))
        out |= bit(c)
    return out


@njit(cache=True)
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
    if not (phase > PHASE_ROUND or i < step):
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


@njit(cache=True)
def has_exchanged(r, n, seat_index, phase, step, st, o):
    """Whether seat ``o`` (``seat_index`` in R4.0's order) has made his exchange before the decision."""
    if st[PASSED, o]:
        return False
    if r.exchange_order == ORDER_DECLARE_THEN_BUY:
        return phase > PHASE_BUY or (phase == PHASE_BUY and seat_index < step - 2 * n)
    return phase > PHASE_ROUND or seat_index < step


@njit(cache=True)
def draw_history(r, n, seat, dealer, trump_card, phase, step, cardsets, st, kinds, params, rng, row, unknown, floor,
                 w_cardsets, may_give_up):  # fmt: skip
    """One attempt at a world with its history (module docstring), into the other seats' rows of
    ``w_cardsets`` (HAND, DEALT, DISCARDS, DRAWN). In R4.0's order, each other seat whose action
    was seen gets five cards drawn uniformly from the cards still unknown, and the running chance
    is multiplied by his :func:`seat_chance`; the attempt is given up as soon as it falls to a
    uniform threshold drawn first (so it is kept with the product of the chances, exactly);
    a seat that exchanged discards :func:`model_discards` and draws his count from the cards left
    (the talon is a uniform order of them: who draws first does not change the law). Then the
    seats still to act get five cards each. ``may_give_up`` False: the attempt is completed
    whatever its chance (the last one the caller allows). Returns the cards left (the talon's rest, uint64),
    Returns (the cards left: the talon's rest, uint64; whether the attempt was kept)."""
    u = uniform01(rng, row)
    chance = 1.0
    pool = unknown
    trump = suit_of(trump_card)
    talon_left = r.deck_size - (HAND_SIZE * n + 1)
    first = seat_after(dealer, 1, n)
    for i in range(n):  # the seats that acted, in order
        o = seat_after(first, i, n)
        count = popcount(cardsets[DISCARDS, o])
        exchanged = has_exchanged(r, n, i, phase, step, st, o)
        if o == seat:
            if exchanged:
                talon_left -= count
            continue
        acted = phase > PHASE_ROUND or i < step
        if not acted:
            continue
        hand = draw_cards(pool, HAND_SIZE, rng, row)
        pool &= ~hand
        chance *= seat_chance(r, n, i, o, dealer, trump_card, phase, step, st, talon_left, count, kinds, params, rng,
                              hand, floor)  # fmt: skip
        if may_give_up and not chance > u:
            return ZERO, False
        disc, drawn = ZERO, ZERO
        if exchanged:
            disc = model_discards(kinds[o], params, o, rng, row, hand, trump, count, o == dealer, i)
            drawn = draw_cards(pool, count, rng, row)
            pool &= ~drawn
            talon_left -= count
        w_cardsets[HAND, o] = (hand & ~disc) | drawn
        w_cardsets[DEALT, o] = hand
        w_cardsets[DISCARDS, o] = disc
        w_cardsets[DRAWN, o] = drawn
    for i in range(n):  # the seats still to act: their dealt hands
        o = seat_after(first, i, n)
        if o == seat or phase > PHASE_ROUND or i < step:
            continue
        hand = draw_cards(pool, HAND_SIZE, rng, row)
        pool &= ~hand
        w_cardsets[HAND, o] = hand
        w_cardsets[DEALT, o] = hand
        w_cardsets[DISCARDS, o] = ZERO
        w_cardsets[DRAWN, o] = ZERO
    return pool, chance > u
