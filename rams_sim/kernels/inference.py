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

A world before the play is drawn with its history (:func:`history_world`): the other seats'
*dealt* hands are a uniform layout of the unseen cards over the piles of
:func:`.knowledge.exchange_piles` (five cards each; a passer none of them an ace where
R4.1 forbids it), the talon a uniform shuffle of the rest; then the exchange is replayed
in R4.0's order with each seat's observed action (pass or play, how many cards he
exchanged, his R4.0a announcement): the chance of that action relative to the model's own
choice (:func:`round_chance`, :func:`word_chance`, :func:`intent_chance`,
:func:`buy_chance`), and, for an exchange of ``k`` cards, the ``k`` cards the model
discards (:func:`model_discards`: which cards a seat threw is never seen) and the next
``k`` of the talon drawn. The world is kept with the product of the chances, else drawn
again, at most :data:`.worlds.MAX_DRAWS` times (as the searches' other checks: the last
draw is kept if none was). So a kept world is a draw from the posterior of the deal given
everything the seat saw, under the model. Reads the public rows only (who passed, the
count of each seat's discards, the announcements) and the seat's own cards.

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
assert INFER_NAMES[INFER_NONE] == "none" and INFER_NAMES[INFER_POLICY] == "policy"  # pimc's infer=NAME, advise's --infer


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
def _exchange_in_world(b_cardsets, o, discards, buf, pos, count):
    """Seat ``o`` of the world discards ``discards`` and draws ``buf[pos : pos + count]`` (R4)."""
    dealt = b_cardsets[DEALT, o]
    drawn = ZERO
    for j in range(count):
        drawn |= bit(buf[pos + j])
    b_cardsets[HAND, o] = (dealt & ~discards) | drawn
    b_cardsets[DISCARDS, o] = discards
    b_cardsets[DRAWN, o] = drawn


@njit(cache=True)
def replay_exchange(r, n, seat, dealer, trump_card, phase, step, cardsets, st, kinds, params, rng, row, b_cardsets, buf,
                    floor):  # fmt: skip
    """Replay the exchange in a world whose other seats hold their dealt hands in
    ``b_cardsets[DEALT]`` and whose talon is ``buf`` (the shuffled unseen cards), up to the
    decision (``phase``, ``step``: codes.PHASE_*, the exchange step of :func:`.exchange.exchange_from`).

    Each other seat's actions seen by then are taken as observed (public rows of
    ``cardsets``/``st``: PASSED, the count of DISCARDS, INTENT), each weighed by its chance
    under the model; an exchange of ``k`` cards discards :func:`model_discards` and draws the
    next ``k`` of ``buf``; the seat's own exchange skips its count of the talon (his drawn cards
    are his, not in ``buf``). Fills HAND, DISCARDS and DRAWN of the others in ``b_cardsets``.
    Returns (the product of the chances, the position in ``buf`` where the talon's rest starts).
    """
    trump = suit_of(trump_card)
    chance = 1.0
    pos = 0
    talon_pos = HAND_SIZE * n + 1  # R3: the talon starts after the hands and the trump card
    buy_later = r.exchange_order == ORDER_DECLARE_THEN_BUY
    first = seat_after(dealer, 1, n)
    for i in range(n):  # the first round (R4.0): pass or play, and in one turn the exchange
        o = seat_after(first, i, n)
        if not (phase > PHASE_ROUND or i < step):
            break
        count = popcount(cardsets[DISCARDS, o])
        if o == seat:
            if not buy_later:
                talon_pos += count
            continue
        hand = b_cardsets[DEALT, o]
        passed = st[PASSED, o] != 0
        if buy_later:
            chance *= word_chance(r, kinds[o], params, o, rng, hand, trump_card, dealer, i, passed, floor)
            continue
        chance *= round_chance(r, kinds[o], params, o, rng, hand, trump_card, dealer, i, r.deck_size - talon_pos,
                               passed, count, floor)  # fmt: skip
        if not passed:
            disc = model_discards(kinds[o], params, o, rng, row, hand, trump, count, o == dealer, i)
            _exchange_in_world(b_cardsets, o, disc, buf, pos, count)
            pos += count
            talon_pos += count
    if r.intent_round:
        for i in range(n):  # R4.0a: every seat that plays announces, in order
            o = seat_after(first, i, n)
            if not (phase > PHASE_INTENT or (phase == PHASE_INTENT and i < step - n)):
                break
            if o != seat and not st[PASSED, o]:
                chance *= intent_chance(kinds[o], params, o, rng, b_cardsets[DEALT, o], trump, st[INTENT, o], floor)
    if buy_later:
        for i in range(n):  # the purchases, in order
            o = seat_after(first, i, n)
            if not (phase > PHASE_BUY or (phase == PHASE_BUY and i < step - 2 * n)):
                break
            if st[PASSED, o]:
                continue
            count = popcount(cardsets[DISCARDS, o])
            if o == seat:
                talon_pos += count
                continue
            hand = b_cardsets[DEALT, o]
            chance *= buy_chance(kinds[o], params, o, rng, hand, trump, r.deck_size - talon_pos, o == dealer, i, count,
                                 floor)  # fmt: skip
            disc = model_discards(kinds[o], params, o, rng, row, hand, trump, count, o == dealer, i)
            _exchange_in_world(b_cardsets, o, disc, buf, pos, count)
            pos += count
            talon_pos += count
    return chance, pos


@njit(cache=True)
def keep_world(rng, row, chance):
    """Whether a world of ``chance`` is kept: always at 1 or more, never at 0, else with that
    probability (one uniform draw of stream ``row``)."""
    return chance >= 1.0 or (chance > 0.0 and uniform01(rng, row) < chance)

