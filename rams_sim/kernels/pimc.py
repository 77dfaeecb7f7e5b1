"""Policy ``pimc``: determinized search for every decision of classic Rams, and modern's cards (docs/SEARCH.md).

At a decision of a searching seat in classic Rams (R9 ``rams`` and the presets that only
change its options) -- pass or play and the discards (R4.1, R4.4), the buying round and
the R4.0a announcement where the rules have them, the dealer's R4.3 card, each card (R6):

1. what the seat knows becomes piles (:mod:`.knowledge`);
2. ``samples`` worlds are drawn uniformly over the layouts consistent with it
   (:mod:`.worlds`), keyed by (deal key, seat, decision): for a card, decision 8 + trick;
   before the play, the phase (codes.PHASE_*);
3. every option is played out in every world, and the rest of the deal with the
   ``rollout`` policy for every seat (:func:`.play.play_from` from the card,
   :func:`.games.classic.deal_from` from an exchange step; ``search=None``: the rollouts
   never search), and the option of the least total score delta is taken (R7: a delta
   counts down; ties: the first option -- the lowest card id; pass, stand, the discard
   masks ascending; decline, the cards ascending).

A modern seat's cards are searched the same way (docs/SEARCH.md "modern"): each game's
``finish_play`` scores the rollouts and its ``DELTA_SIGN`` turns "least" into "most" where
the game counts up (:mod:`.dispatch`).

:func:`evaluate_cards` and :func:`evaluate_options` run the same worlds for
``rams-sim advise`` (:mod:`rams_sim.advice.search`) and keep every world's result.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import ACE, HAND_SIZE, MAX_SEATS, N_CARDS
from ..policies import (
    MAX_POLICY_PARAMS,
    P_FLOOR,
    P_INFER,
    P_RACE,
    P_ROLLOUT,
    P_SAMPLES,
    RACE_BATCH,
    RACE_MIN,
    default_params,
)
from .bits import ZERO, ace_points, bit, has, lowest, popcount, rank_of
from .codes import (
    CARD_DECISION,
    DECISIONS,
    DECLINE,
    E_DECLINED,
    E_TRICK,
    INTENT_SUITS,
    INTENT_TRUMPS,
    N_OPTIONS,
    NO_FORCE,
    NO_OPTION,
    O_PLAYED,
    OK,
    OPTION_PASS,
    ORDER_DECLARE_THEN_BUY,
    PHASE_INTENT,
    PHASE_ROUND,
    PHASE_TRUMP,
    TAKE_MUST,
)
from .dispatch import (
    cards_fit,
    delta_sign,
    finish_play,
    history_fits,
    history_world,
    search_value,
    trump_maybe_discarded,
    world_fits,
)
from .exchange import can_pass
from .games.classic import deal_from
from .inference import INFER_CARDS, INFER_NONE, INFER_PLAY, draw_cards, draw_history
from .knowledge import DEALER_DISCARDS, exchange_piles, play_piles, seat_cards_from, trump_hidden, unseen_before_play
from .play import play_from
from .policy import uses_coins
from .rng import GOLDEN, STATE_WORDS, bounded, mix64, seed_stream
from .rows import row_kernel
from .search import Scratch, arm
from .state import (
    ACES,
    ACTIVE,
    DEALT,
    DELTA,
    DISCARDS,
    DRAWN,
    END_KIND,
    ENDS_PARTY,
    FINAL,
    HAND,
    OUTCOME,
    PASSED,
    TRICKS,
    TRUMP_CARD,
    TRUMP_DISCARD,
    holds_trump_card,
    make_state,
)
from .worlds import (
    MAX_DRAWS,
    MAX_PAIRS,
    MAX_PILES,
    MAX_STATES,
    count_layouts,
    draw_layout,
    n_states_of,
    order_cards,
    uniform01,
)

DEFAULT_PARAMS = default_params()  # float64[kinds, P]: the rollouts' players
SEARCH_STREAM = 64  # stream numbers from here key the search (deck 0, coins seat + 1)
SAMPLE_SALT = np.uint64(0x50494D43)  # "PIMC"
DRAW_ROW = MAX_SEATS + 1  # the search's own stream in Scratch.rng
NO_RACE = 0.0  # world_loops' z where a game's search does not race (duel, modern, zone's swap)
BLOCK = 256  # worlds per block of evaluate_* (the unit the threads take; a batch starts at a multiple)
# what a rollout tells about the searching seat (evaluate_*'s flags, bit by bit)
FLAG_REMIZ = 1  # he played, the deal was played out and he took no trick (R7.2)
FLAG_ENDS = 2  # the deal ended the party (R5.7, R8.2, R8.3)
FLAG_WINS = 4  # ... with him the winner
FLAG_ERROR = 8  # the rollout stopped on a status (never expected: tests pin it)


@njit(cache=True)
def new_scratch():
    """One thread's scratch for :func:`pimc_card` (:data:`rams_sim.kernels.search.Scratch`)."""
    order, rng, cardsets, st, trick, info, log = make_state()
    return Scratch(
        np.uint64(0),
        np.zeros((3, MAX_PILES), np.int64),  # ints: caps, pile_seat, strides
        np.zeros((2, MAX_PILES), np.uint64),  # masks: allowed, a drawn layout
        np.zeros(N_CARDS, np.int8),  # the unknown cards in DP order
        np.zeros(N_CARDS, np.int8),  # a shuffle buffer
        np.empty((N_CARDS + 1, MAX_STATES), np.float64),  # completion counts (pages touched as used)
        np.zeros(MAX_SEATS, np.uint64),  # forbid: what play showed a seat does not hold
        np.zeros(MAX_SEATS, np.int8),  # before: a trick's cards so far
        np.zeros((MAX_SEATS + 2, STATE_WORDS), np.uint64),  # the search's own stream (last row)
        np.zeros(MAX_SEATS, np.int8),  # the rollout players' kinds
        np.zeros((MAX_SEATS, MAX_POLICY_PARAMS), np.float64),  # and parameters
        cardsets.copy(), st.copy(),  # a world before its option
        cardsets.copy(), st.copy(), trick.copy(), log.copy(), info.copy(), rng.copy(),  # a rollout
        np.zeros(N_OPTIONS + 1, np.int64),  # total delta by option
        np.zeros(N_OPTIONS + 1, np.int64),  # the options of a decision (cards: the legal cards ascending)
        order.copy(), order.copy(),  # a world's deck order (its talon), and a rollout's
        np.full((MAX_PAIRS, 2), -1, np.int8), np.zeros(MAX_PAIRS, np.int64),  # pair constraints (knowledge.py)
        np.zeros(MAX_PAIRS, np.int64),  # the constrained pairs' pile masks, as the DP orders them
        np.zeros((N_OPTIONS + 1, 1), np.int64), np.zeros((N_OPTIONS + 1, 1), np.int64),  # one world's deltas, flags
        np.zeros(MAX_SEATS, np.int64),  # a rollout's scores as it plays the party on (duel)
        np.zeros((N_OPTIONS + 1, N_OPTIONS + 1), np.int64),  # racing: sums of products of two options' values
        np.ones(N_OPTIONS + 1, np.int8),  # racing: the options still receiving worlds
    )  # fmt: skip


@njit(cache=True)
def _shuffle_mask(mask, rng, row, buf):
    """The cards of ``mask`` in a uniform random order into ``buf``; returns their number."""
    m = 0
    rest = mask
    while rest != ZERO:
        buf[m] = lowest(rest)
        rest &= rest - np.uint64(1)
        m += 1
    for i in range(m - 1, 0, -1):
        j = bounded(rng, row, i + 1)
        tmp = buf[i]
        buf[i] = buf[j]
        buf[j] = tmp
    return m


@njit(cache=True)
def _copy2(dst, src):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True, _nrt=False)
def rollout_play(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t, k,
                 leader, q_duty, played, card):  # fmt: skip
    """The rest of the play from ``card`` on, nobody searching (:func:`.play.play_from`). One
    compiled function serves every caller (the search and advise), instead of a copy in each."""
    return play_from(r, kinds, params, announce, rng, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t, k,
                     leader, q_duty, played, card, None)  # fmt: skip


@njit(cache=True, _nrt=False)
def rollout_deal(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log, step, talon_pos,
                 option):  # fmt: skip
    """The rest of the deal from exchange step ``step`` with ``option`` taken there, nobody
    searching (:func:`.games.classic.deal_from`); one compiled function for every caller."""
    return deal_from(r, kinds, params, announce, dealer, scores, order, rng, cardsets, st, trick, info, log,
                     np.int64(NO_FORCE), np.int64(0), step, talon_pos, option, None)  # fmt: skip


@njit(cache=True)
def _rollout_players(search, n, rollout):
    """Every seat plays the rollout policy with its default parameters."""
    for s in range(n):
        search.roll_kinds[s] = rollout
        for i in range(MAX_POLICY_PARAMS):
            search.roll_params[s, i] = DEFAULT_PARAMS[rollout, i]


@njit(cache=True)
def start_rollout(search, world_key, n, trick, log, info):
    """The rollout's arrays from the world of ``search.b_*`` and the deal's ``trick``, ``log`` and
    ``info``, and the coins of the rollout players keyed by ``world_key`` (only random draws coins)."""
    _copy2(search.w_cardsets, search.b_cardsets)
    _copy2(search.w_st, search.b_st)
    _copy2(search.w_trick, trick)
    _copy2(search.w_log, log)
    for i in range(info.shape[0]):
        search.w_info[i] = info[i]
    for s in range(n):
        if uses_coins(search.roll_kinds[s]):
            seed_stream(search.w_rng, s + 1, world_key, s + 1)


@njit(cache=True)
def legal_options(search, legal):
    """The cards of ``legal`` ascending into ``search.options``, their totals zeroed; returns their number."""
    n_options = 0
    option = legal
    while option != ZERO:
        search.options[n_options] = lowest(option)
        search.totals[n_options] = 0
        option &= option - np.uint64(1)
        n_options += 1
    return n_options


@njit(cache=True)
def _world_key(key, seat, decision, j):
    return mix64(key ^ SAMPLE_SALT ^ (np.uint64(seat * DECISIONS + decision) * GOLDEN) ^ np.uint64(j + 1))


@njit(cache=True)
def _count(search, unknown, n_piles):
    """Fill the DP table for the piles and pairs in ``search``; return (m, n_pairs, total) (total 0: no world)."""
    caps, strides = search.ints[0], search.ints[2]
    m, n_pairs = order_cards(unknown, search.pairs, search.pair_piles, search.cards, search.active_pairs)
    n_states = n_states_of(caps, n_piles, strides)
    if n_states == 0:
        return m, n_pairs, 0.0  # beyond MAX_STATES (not reachable with one searching seat; see worlds.py)
    total = count_layouts(search.cards, m, n_pairs, search.masks[0], caps, n_piles, search.active_pairs, strides,
                          n_states, search.table)  # fmt: skip
    return m, n_pairs, total


@njit(cache=True)
def _draw(search, m, n_pairs, n_piles, total):
    draw_layout(search.cards, m, n_pairs, search.masks[0], search.ints[0], n_piles, search.active_pairs,
                search.ints[2], search.table, total, search.rng, DRAW_ROW, search.masks[1])  # fmt: skip


# ---- the world loops: every searched decision of every game ----------------------------------
def world_loops(world):
    """The two loops over the worlds of a searched decision whose one world is ``world``: returns
    ``(sample, block)``, each an @njit function (not cached alone: each compiles into the cached
    search kernel that calls it; ``world`` is bound here, not passed, as numba cannot cache a
    kernel that passes a function as a value).

    ``world(search, world_key, deltas, flags, col, *args)`` draws one world and plays each option
    alive (``search.options``, ``search.alive``) out in it: option i's value into
    ``deltas[i, col]``/``flags[i, col]``.

    * ``sample(search, n, seat, decision, seat_params, z, n_options, sign, no_trick_weight, args)``
      searches the decision (module docstring, steps 2-3) and returns the option of the least
      total (``sign``, ``no_trick_weight``: :func:`_world_value`). ``seat`` and ``decision`` key
      the worlds' stream (``seat * DECISIONS + decision``; duel's dave passes seat 0 and a decision
      of its own); ``seat_params`` (float64[P]) is the searching seat's row of the policy
      parameters (``rollout`` for every seat of the rollouts, ``samples`` worlds); ``z`` its
      ``race`` (docs/SEARCH.md "Racing"), NO_RACE where the game's search does not race.
    * ``block(search, seat, decision, first_world, b, deltas, flags, args)`` plays block ``b`` of an
      advise evaluation's worlds (``first_world + b * BLOCK ..``; ``search`` armed with the block's
      key), every world kept: world j's option values into ``deltas[:, j]``/``flags[:, j]``
      (int64[n_options, n_worlds]).
    """

    @njit
    def sample(search, n, seat, decision, seat_params, z, n_options, sign, no_trick_weight, args):
        seed_stream(search.rng, DRAW_ROW, search.key, SEARCH_STREAM + seat * DECISIONS + decision)
        _rollout_players(search, n, np.int64(seat_params[P_ROLLOUT]))
        _start_race(search, n_options)
        for j in range(np.int64(seat_params[P_SAMPLES])):
            world(search, _world_key(search.key, seat, decision, j), search.w_deltas, search.w_flags, np.int64(0),
                  *args)  # fmt: skip
            _add_raced(search, n_options, sign, no_trick_weight)
            if _racing_now(z, j + 1) and _race(search, n_options, j + 1, z) == 1:
                break  # one option left
        return _least_alive(search, n_options)

    @njit
    def block(search, seat, decision, first_world, b, deltas, flags, args):
        seed_stream(search.rng, DRAW_ROW, search.key, SEARCH_STREAM + seat * DECISIONS + decision)
        for j in range(b * BLOCK, min(deltas.shape[1], (b + 1) * BLOCK)):
            world(search, _world_key(search.key, seat, decision, first_world + j), deltas, flags, j, *args)

    return sample, block


# ---- a card of the play ----------------------------------------------------------------------
@njit(cache=True)
def _play_count(search, r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k):
    unknown, n_piles = play_piles(r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, search.masks[0],
                                  search.ints[0], search.ints[1], search.forbid, search.before, search.pairs,
                                  search.pair_piles, bool(trump_maybe_discarded(r, cardsets, st, dealer)))  # fmt: skip
    m, n_pairs, total = _count(search, unknown, n_piles)
    return m, n_pairs, total, n_piles


@njit(cache=True)
def _play_world(search, r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, played, m, n_pairs, total,
                n_piles, scores, announce, infer, floor):  # fmt: skip
    """Draw one world at a card of the play into ``search.b_cardsets``/``b_st``: the other
    active hands from the layout (the dealer's taken trump card added back), their hands at
    the first lead and ace points (R7; a seat at zero ends the deal, R8.2), and, dealt from
    the shuffled free pile in seat order, their unseen discards and R4.3 cards (the dealer's
    discards from their own pile where the trump card may be among them, modern).

    The game's :func:`..dispatch.world_fits` gives the chance to keep the world (what the
    declarations and the running scores showed, which the piles cannot say: 0 for a world
    that breaks it, less than 1 where only some of the ways the others drew their cards fit);
    a world not kept is drawn again, up to :data:`..worlds.MAX_DRAWS` times (the last draw is
    kept if none was: docs/SEARCH.md). ``infer``: INFER_PLAY also keeps it with the game's
    :func:`..dispatch.history_fits`, the chance under the model (the rollout players, ``floor``)
    of what the others did before the play (classic: :func:`.inference.play_chance`), so the
    worlds are drawn from the deals the history makes likely; INFER_CARDS also with the game's
    :func:`..dispatch.cards_fit`, the chance of every card they played since (classic:
    :func:`.inference.cards_chance`); at a card of the first trick, where the game has
    :func:`..dispatch.history_world` (classic), INFER_CARDS draws the world with its history
    instead of from the layout (the others' dealt hands, the model's discards and R4.3 card, then the
    cards played checked against them: :func:`.inference.first_trick_world`), the exact posterior
    under the model. Returns whether it was kept."""
    for _ in range(MAX_DRAWS):
        if infer == INFER_CARDS and t == 0:  # the first trick: the world drawn with its history, where the game can
            _copy2(search.b_cardsets, cardsets)
            _copy2(search.b_st, st)
            chance = history_world(r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, scores, announce,
                                   search.b_cardsets, search.b_st, search.roll_kinds, search.roll_params, search.rng,
                                   DRAW_ROW, floor, search.w_cardsets, search.w_st, search.w_trick[0])  # fmt: skip
            if chance >= 0.0:
                if chance >= 1.0 or (chance > 0.0 and uniform01(search.rng, DRAW_ROW) < chance):
                    return True
                continue
        passers_among = _play_layout(search, r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, played, m,
                                     n_pairs, total, n_piles)  # fmt: skip
        chance = world_fits(r, n, seat, trump_card, st, scores, announce, search.b_cardsets, search.b_st, passers_among)
        if infer >= INFER_PLAY and chance > 0.0:
            chance *= history_fits(r, n, seat, dealer, trump_card, cardsets, st, search.b_cardsets, search.b_st,
                                   search.roll_kinds, search.roll_params, search.rng, DRAW_ROW, floor)  # fmt: skip
        if infer == INFER_CARDS and chance > 0.0:  # the scratch: the rollout's arrays, not in use yet
            chance *= cards_fit(r, n, seat, dealer, trump_card, st, trick, log, t, k, search.b_cardsets, search.b_st,
                                search.roll_kinds, search.roll_params, search.rng, floor, search.w_cardsets,
                                search.w_st, search.w_trick[0])  # fmt: skip
        if chance >= 1.0 or (chance > 0.0 and uniform01(search.rng, DRAW_ROW) < chance):
            return True
    return False


@njit(cache=True)
def _play_layout(search, r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, played, m, n_pairs, total,
                 n_piles):  # fmt: skip
    """One draw of :func:`_play_world`, unchecked. Returns the cards the passers' hands are among
    (uint64): the passers' pile where there is one, else what the free pile has left (nothing
    where nobody passed)."""
    out, pile_seat, buf = search.masks[1], search.ints[1], search.buf
    b_cardsets, b_st = search.b_cardsets, search.b_st
    _draw(search, m, n_pairs, n_piles, total)
    _copy2(b_cardsets, cardsets)
    _copy2(b_st, st)
    hidden = trump_hidden(trump_maybe_discarded(r, cardsets, st, dealer), seat, dealer, played, trump_card)
    dealer_known = holds_trump_card(st, dealer) and dealer != seat and not has(played, trump_card) and not hidden
    passers_among = ZERO  # the passers' pile where there is one (never empty: five cards a passer)
    for p in range(n_piles - 1):
        o = pile_seat[p]
        if o == DEALER_DISCARDS:
            b_cardsets[DISCARDS, dealer] = out[p]
            continue
        if o < 0:
            passers_among = out[p]
            continue
        hand = out[p]
        if o == dealer and dealer_known:
            hand |= bit(trump_card)
        b_cardsets[HAND, o] = hand
        b_cardsets[FINAL, o] = hand | seat_cards_from(log, trick, t, k, n, o, 0)
        b_st[ACES, o] = ace_points(b_cardsets[FINAL, o], r.ace_values)
    m_free = _shuffle_mask(out[n_piles - 1], search.rng, DRAW_ROW, buf)
    pos = 0
    passers = 0
    for o in range(n):
        passers += st[PASSED, o]
        if o == seat or (o == dealer and hidden):
            continue
        d = ZERO
        for _ in range(popcount(cardsets[DISCARDS, o])):
            if pos < m_free:
                d |= bit(buf[pos])
                pos += 1
        b_cardsets[DISCARDS, o] = d
        if st[TRUMP_DISCARD, o] >= 0:
            b_st[TRUMP_DISCARD, o] = buf[pos] if pos < m_free else -1
            pos += 1
    if passers and passers_among == ZERO:  # no pile of their own: among what the free pile has left
        for i in range(pos, m_free):
            passers_among |= bit(buf[i])
    return passers_among


@njit(cache=True, inline="always")  # inlined into _card_world only: never into a prange body (see _roll_option)
def _roll_card(search, card, world_key, r, announce, trick, log, info, n, dealer, trump_card, scores, t, k, leader,
               q_duty, played):  # fmt: skip
    """Play ``card`` in the world of ``search.b_*`` and the rest of the deal by the rollout
    players; the result is in ``search.w_st``/``w_info``. Returns False on a rollout error."""
    w_cardsets, w_st, w_info = search.w_cardsets, search.w_st, search.w_info
    start_rollout(search, world_key, n, trick, log, info)
    winner = rollout_play(r, search.roll_kinds, search.roll_params, announce, search.w_rng, w_cardsets, w_st,
                          search.w_trick, search.w_log, w_info, n, dealer, trump_card, scores, np.int64(t), np.int64(k),
                          np.int64(leader), q_duty, played, np.int64(card))  # fmt: skip
    if winner == -2:
        return False
    finish_play(r, n, dealer, winner, scores, w_st, w_info)  # the game's scoring (R7-R8.3; modern counts up)
    return True


@njit(cache=True)
def _flags(w_st, w_info, seat):
    """What a rollout's deal tells about ``seat`` (FLAG_* bits). A deal cut short by the end of the
    party (R8.2a; duel's declined dave) writes no remiz, so it sets no FLAG_REMIZ."""
    f = 0
    cut_short = w_info[END_KIND] == E_TRICK or w_info[END_KIND] == E_DECLINED
    if w_st[ACTIVE, seat] and w_info[OUTCOME] == O_PLAYED and w_st[TRICKS, seat] == 0 and not cut_short:
        f |= FLAG_REMIZ
    if w_info[ENDS_PARTY] >= 0:
        f |= FLAG_ENDS
        if w_info[ENDS_PARTY] == seat:
            f |= FLAG_WINS
    return f


@njit(cache=True)
def _card_world(search, world_key, deltas, flags, col, r, announce, cardsets, st, trick, log, info, n, dealer, trump_card,
                scores, t, k, leader, seat, legal, played, q_duty, m, n_pairs, total, n_piles, infer, floor):  # fmt: skip
    """Draw one world at a card of the play (:func:`_play_world`; ``m`` .. ``n_piles`` from
    :func:`_play_count`) and play each card of ``legal`` (ascending) out in it by the rollout
    players: the seat's delta and FLAG_* bits into ``deltas[i, col]``/``flags[i, col]`` for the
    i-th card (int64[., .]). The world of :func:`pimc_card` and :func:`evaluate_cards` (:func:`world_loops`)."""
    _play_world(search, r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, played, m, n_pairs, total,
                n_piles, scores, announce, infer, floor)  # fmt: skip
    option = legal
    i = 0
    while option != ZERO:
        c = lowest(option)
        option &= option - np.uint64(1)
        if search.alive[i]:  # racing: an option dropped gets no more rollouts
            ok = _roll_card(search, c, world_key, r, announce, trick, log, info, n, dealer, trump_card, scores, t, k,
                            leader, q_duty, played)  # fmt: skip
            keep_value(search, r, announce, seat, scores, dealer, world_key, ok, deltas, flags, i, col)
        i += 1


_card_world_sample, _card_world_block = world_loops(_card_world)


@njit(cache=True)
def keep_value(search, r, announce, seat, scores, dealer, world_key, ok, deltas, flags, i, col):
    """A rollout's result for ``seat`` into ``deltas[i, col]`` (its worth, the game's
    :func:`..dispatch.search_value`: the delta, or duel's party played on) and ``flags[i, col]``
    (the FLAG_* bits of the rollout's deal, read before duel plays the party on; FLAG_ERROR
    where ``ok`` is False: the rollout stopped on a status)."""
    if ok:
        flags[i, col] = _flags(search.w_st, search.w_info, seat)
        deltas[i, col] = search_value(r, search, announce, seat, scores, dealer, world_key)
    else:
        deltas[i, col] = 0
        flags[i, col] = FLAG_ERROR


@njit(cache=True)
def no_pairs(search):
    """No pair constraint binds the piles in ``search`` (:mod:`.worlds`)."""
    for i in range(search.pairs.shape[0]):
        search.pairs[i, 0], search.pairs[i, 1] = -1, -1
        search.pair_piles[i] = 0


@njit(cache=True, inline="always")
def _world_value(search, i, sign, no_trick_weight):
    """Option ``i``'s value in one world (``search.w_deltas``/``w_flags``): its delta times ``sign``
    (the game's DELTA_SIGN: the least is the best), plus ``no_trick_weight`` where the seat took
    no trick (FLAG_REMIZ: zone's прокат, money outside the delta, weighed by pimc's
    ``prokat_weight``); a rollout error 1,000,000 (never chosen; tests pin that it does not happen)."""
    f = search.w_flags[i, 0]
    if f & FLAG_ERROR:
        return 1_000_000
    return sign * search.w_deltas[i, 0] + (no_trick_weight if f & FLAG_REMIZ else 0)


@njit(cache=True)
def _start_race(search, n_options):
    """Every option alive, its total and sums of products zeroed (:func:`_add_raced`)."""
    for i in range(n_options):
        search.totals[i] = 0
        search.alive[i] = 1
        for j in range(n_options):
            search.cross[i, j] = 0


@njit(cache=True)
def _add_raced(search, n_options, sign, no_trick_weight=0):
    """Add one world's values (:func:`_world_value`) to ``search.totals`` for the options still alive,
    and the sums of products of their values
    (``search.cross``: what the paired differences' variances need, :func:`_race`)."""
    for i in range(n_options):
        if not search.alive[i]:
            continue
        v = _world_value(search, i, sign, no_trick_weight)
        search.w_deltas[i, 0] = v
        search.totals[i] += v
    for i in range(n_options):
        if not search.alive[i]:
            continue
        vi = search.w_deltas[i, 0]
        for j in range(i, n_options):
            if search.alive[j]:
                search.cross[i, j] += vi * search.w_deltas[j, 0]


@njit(cache=True)
def _race(search, n_options, n_worlds, z):
    """Racing (docs/SEARCH.md "Racing"): after ``n_worlds`` worlds shared by every option alive,
    an option whose paired difference to the best so far (the least total; ties the first) is
    above 0 by more than ``z`` standard errors stops receiving worlds: with D the sum of the
    differences and Q the sum of their squares, when D > 0 and D² (n - 1) > z² (n Q - D²).
    Returns the number of options alive."""
    best = _best_alive(search, n_options)
    alive = 0
    for i in range(n_options):
        if not search.alive[i]:
            continue
        if i != best:
            d = search.totals[i] - search.totals[best]
            lo, hi = min(i, best), max(i, best)
            q = search.cross[i, i] - 2 * search.cross[lo, hi] + search.cross[best, best]
            dd = float(d) * float(d)
            if d > 0 and dd * (n_worlds - 1) > z * z * (float(n_worlds) * float(q) - dd):
                search.alive[i] = 0
                continue
        alive += 1
    return alive


@njit(cache=True, inline="always")
def _best_alive(search, n_options):
    """The index of the alive option of the least total (ties: the first)."""
    best = -1
    for i in range(n_options):
        if search.alive[i] and (best < 0 or search.totals[i] < search.totals[best]):
            best = i
    return best


@njit(cache=True)
def _least_alive(search, n_options):
    """The option of the least total over its worlds among those still alive (R7: a delta counts
    down; every option, where nothing raced); ties: the first."""
    return search.options[_best_alive(search, n_options)]


@njit(cache=True)
def _racing_now(z, n_worlds):
    """Whether the options race after ``n_worlds`` worlds: racing on (``z`` > 0), every
    RACE_BATCH worlds from RACE_MIN on."""
    return z > 0.0 and n_worlds >= RACE_MIN and n_worlds % RACE_BATCH == 0


@njit(cache=True)
def pimc_card(search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t, k,
              leader, seat, legal, played, q_duty):  # fmt: skip
    """The card ``seat`` plays to trick ``t`` (``k`` cards in it) by search (module docstring).

    ``search``: the armed :data:`rams_sim.kernels.search.Scratch` (its ``key`` is the
    deal's); the other arguments are the play loop's (:func:`rams_sim.kernels.play.play_from`).
    Returns a card of ``legal``. Allocates nothing.
    """
    if popcount(legal) == 1:
        return lowest(legal)
    m, n_pairs, total, n_piles = _play_count(search, r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k)
    if not total > 0.0:
        return lowest(legal)  # no consistent world: an impossible history (tests pin that this never happens)
    n_options = legal_options(search, legal)
    return _card_world_sample(search, n, seat, CARD_DECISION + t, params[seat], params[seat, P_RACE], n_options,
                              delta_sign(r), 0, (r, announce, cardsets, st, trick, log, info, n, dealer, trump_card,
                              scores, t, k, leader, seat, legal, played, q_duty, m, n_pairs, total, n_piles,
                              np.int64(params[seat, P_INFER]), params[seat, P_FLOOR]))  # fmt: skip


# ---- the decisions before the play --------------------------------------------------------------
@njit(cache=True)
def options_at(phase, step, talon_pos, seat, r, cardsets, st, dealer, trump_card, out):
    """The options open to ``seat`` at a decision before the play, into ``out``; returns their number.

    PHASE_ROUND: OPTION_PASS where R4.1 allows it, then (one-turn) stand 0 and every
    discard mask 1..31 over his cards of at most the talon's size (R4.4), or
    (declare-then-buy) 0 for "play"; PHASE_BUY: 0 and the masks; PHASE_INTENT: "on trumps",
    "on suits"; PHASE_TRUMP (R4.3): DECLINE unless he must take it, then each of his cards.
    """
    hand = cardsets[HAND, seat]
    count = 0
    if phase == PHASE_TRUMP:
        forced = r.dealer_takes_trump == TAKE_MUST or (r.turned_ace_binds_dealer and rank_of(trump_card) == ACE)
        if not forced:
            out[count] = DECLINE
            count += 1
        m = hand
        while m != ZERO:
            out[count] = lowest(m)
            m &= m - np.uint64(1)
            count += 1
        return count
    if phase == PHASE_INTENT:
        out[0] = INTENT_TRUMPS
        out[1] = INTENT_SUITS
        return 2
    if phase == PHASE_ROUND and can_pass(cardsets[DEALT, seat], seat == dealer, r.ace_forbids_pass,
                                         r.turned_ace_binds_dealer, trump_card):  # fmt: skip
        out[count] = OPTION_PASS
        count += 1
    out[count] = 0
    count += 1
    if phase == PHASE_ROUND and r.exchange_order == ORDER_DECLARE_THEN_BUY:
        return count
    talon = r.deck_size - talon_pos
    for mask in range(1, 1 << HAND_SIZE):
        if popcount(np.uint64(mask)) <= talon:
            out[count] = mask
            count += 1
    return count


@njit(cache=True)
def _exchange_world(search, r, n, cardsets, st, order, talon_pos, m, total, n_piles):
    """Draw one world before the play into ``search.b_*``: the other hands from the layout;
    from the shuffled free pile, in the piles' seat order, the cards each of them discarded,
    then the talon's rest (from ``talon_pos``) in order; of each one's hand, which cards he
    drew (uniformly, as many as he discarded), hence his dealt hand (R3, R4)."""
    out, pile_seat, buf = search.masks[1], search.ints[1], search.buf
    b_cardsets, b_st, b_order = search.b_cardsets, search.b_st, search.b_order
    _draw(search, m, 0, n_piles, total)
    _copy2(b_cardsets, cardsets)
    _copy2(b_st, st)
    for i in range(order.shape[0]):
        b_order[i] = order[i]
    m_free = _shuffle_mask(out[n_piles - 1], search.rng, DRAW_ROW, buf)
    pos = 0
    for p in range(n_piles - 1):
        o = pile_seat[p]
        hand = out[p]
        b_cardsets[HAND, o] = hand
        k = popcount(cardsets[DISCARDS, o])
        disc = ZERO
        for _ in range(k):
            disc |= bit(buf[pos])
            pos += 1
        drawn = draw_cards(hand, k, search.rng, DRAW_ROW)
        b_cardsets[DISCARDS, o] = disc
        b_cardsets[DRAWN, o] = drawn
        b_cardsets[DEALT, o] = (hand & ~drawn) | disc
    _fill_talon(b_order, buf, pos, m_free, talon_pos, r.deck_size)


@njit(cache=True, inline="always")
def _fill_talon(b_order, buf, pos, m_free, talon_pos, deck_size):
    """The talon's rest of a world: ``b_order[talon_pos:deck_size]`` from ``buf[pos:m_free]``
    (-1 past its end: positions no draw reaches)."""
    for i in range(talon_pos, deck_size):
        b_order[i] = buf[pos] if pos < m_free else -1
        pos += 1


@njit(cache=True)
def _history_world(search, r, n, seat, dealer, trump_card, cardsets, st, order, phase, step, talon_pos, floor):
    """Draw one world before the play with its history (``infer=policy``, :func:`.inference.draw_history`)
    into ``search.b_*``; the talon's rest (from ``talon_pos``) is the cards left in a uniform order."""
    b_cardsets, b_st, b_order, buf = search.b_cardsets, search.b_st, search.b_order, search.buf
    _copy2(b_cardsets, cardsets)
    _copy2(b_st, st)
    unknown = unseen_before_play(r, seat, trump_card, cardsets, st)
    rest = draw_history(r, n, seat, dealer, trump_card, phase, step, cardsets, st, search.roll_kinds,
                        search.roll_params, search.rng, DRAW_ROW, unknown, floor, b_cardsets)  # fmt: skip
    for i in range(order.shape[0]):
        b_order[i] = order[i]
    m_free = _shuffle_mask(rest, search.rng, DRAW_ROW, buf)
    _fill_talon(b_order, buf, 0, m_free, talon_pos, r.deck_size)


@njit(cache=True, inline="always")  # inlined into _option_world only: never into a prange body (numba 0.68
# miscompiled it there, and advise's test against branch data caught it)
def _roll_option(search, option, world_key, r, announce, trick, log, info, n, dealer, scores, step, talon_pos):
    """Take ``option`` at exchange step ``step`` in the world of ``search.b_*`` and play the
    deal out by the rollout players (result in ``search.w_st``/``w_info``); False on a status."""
    w_order = search.w_order
    start_rollout(search, world_key, n, trick, log, info)
    for x in range(w_order.shape[0]):
        w_order[x] = search.b_order[x]
    status = rollout_deal(r, search.roll_kinds, search.roll_params, announce, dealer, scores, w_order, search.w_rng,
                          search.w_cardsets, search.w_st, search.w_trick, search.w_info, search.w_log, np.int64(step),
                          np.int64(talon_pos), np.int64(option))  # fmt: skip
    return status == 0


@njit(cache=True)
def _option_world(search, world_key, deltas, flags, col, r, announce, order, cardsets, st, trick, log, info, n, dealer,
                  scores, phase, step, talon_pos, seat, options, n_options, m, total, n_piles, infer, floor):  # fmt: skip
    """Draw one world before the play (:func:`_exchange_world`; ``m``, ``total``, ``n_piles``
    from :func:`_exchange_count`) and take each of ``options[:n_options]`` at exchange step
    ``step`` in it, the deal played out by the rollout players: the seat's delta and FLAG_*
    bits into ``deltas[i, col]``/``flags[i, col]``. The world of
    :func:`pimc_decision` and :func:`evaluate_options`. ``infer``: INFER_POLICY or INFER_PLAY draws the world
    with its history (:func:`_history_world`, the model's ``floor``), else uniformly."""
    if phase == PHASE_TRUMP:
        talon_pos = r.deck_size  # after the exchange the talon's rest plays no part
    if infer != INFER_NONE:
        _history_world(search, r, n, seat, dealer, info[TRUMP_CARD], cardsets, st, order, phase, step, talon_pos,
                       floor)  # fmt: skip
    else:
        _exchange_world(search, r, n, cardsets, st, order, talon_pos, m, total, n_piles)
    for i in range(n_options):
        if not search.alive[i]:
            continue  # racing: an option dropped gets no more rollouts
        if _roll_option(search, options[i], world_key, r, announce, trick, log, info, n, dealer, scores, step,
                        talon_pos):  # fmt: skip
            deltas[i, col] = search.w_st[DELTA, seat]
            flags[i, col] = _flags(search.w_st, search.w_info, seat)
        else:
            deltas[i, col] = 0
            flags[i, col] = FLAG_ERROR  # an option the rules refuse (tests pin that it does not happen)


_option_world_sample, _option_world_block = world_loops(_option_world)


@njit(cache=True)
def _exchange_count(search, r, n, seat, trump_card, cardsets, st):
    unknown, n_piles = exchange_piles(r, n, seat, trump_card, cardsets, st, search.masks[0], search.ints[0],
                                      search.ints[1])  # fmt: skip
    for i in range(MAX_PAIRS):
        search.pair_piles[i] = 0  # before the play nothing binds a pair
    m, _, total = _count(search, unknown, n_piles)
    return m, total, n_piles


@njit(cache=True)
def pimc_decision(search, phase, step, talon_pos, seat, r, kinds, params, announce, order, rng, cardsets, st, trick,
                  info, log, dealer, trump_card, scores):  # fmt: skip
    """``seat``'s option at a decision before the play (``phase``: codes.PHASE_*) by search
    (module docstring); options as :func:`options_at`. Allocates nothing."""
    n = r.players
    options = search.options
    n_options = options_at(phase, step, talon_pos, seat, r, cardsets, st, dealer, trump_card, options)
    if n_options == 1:
        return options[0]
    m, total, n_piles = _exchange_count(search, r, n, seat, trump_card, cardsets, st)
    if not total > 0.0:
        return NO_OPTION
    return _option_world_sample(search, n, seat, phase, params[seat], params[seat, P_RACE], n_options, 1, 0, (r,
                                announce, order, cardsets, st, trick, log, info, n, dealer, scores, phase, step,
                                talon_pos, seat, options, n_options, m, total, n_piles, np.int64(params[seat,
                                P_INFER]), params[seat, P_FLOOR]))  # fmt: skip (classic only, R7: the least delta)


# ---- every world kept: rams-sim advise ---------------------------------------------------------
@njit(cache=True)
def keep_result(search, seat, status, deltas, flags, i, col):
    """A rollout's result for ``seat`` (its status, ``search.w_st``/``w_info``) into ``deltas[i, col]``
    (the seat's delta) and ``flags[i, col]`` (FLAG_* bits; FLAG_ERROR where it stopped on a status)."""
    if status == OK:
        deltas[i, col] = search.w_st[DELTA, seat]
        flags[i, col] = _flags(search.w_st, search.w_info, seat)
    else:
        deltas[i, col] = 0
        flags[i, col] = FLAG_ERROR


@njit(cache=True)
def set_options(search, options):
    """``options`` (int64[n]) into ``search.options``. A function of its own: numba 0.68 lost an
    element stored through a field of the scratch tuple in a loop of the function that built it."""
    for i in range(options.shape[0]):
        search.options[i] = options[i]


@njit(cache=True)
def _copy_players(search, n, roll_kinds, roll_params):
    for s in range(n):
        search.roll_kinds[s] = roll_kinds[s]
        for i in range(MAX_POLICY_PARAMS):
            search.roll_params[s, i] = roll_params[s, i]


@row_kernel
def evaluate_cards(r, roll_kinds, roll_params, announce, key, cardsets, st, trick, log, info, dealer, trump_card,
                   scores, t, k, leader, seat, legal, played, q_duty, infer, floor, first_world, deltas, flags, lo,
                   hi):  # fmt: skip
    """Blocks ``lo .. hi - 1`` of worlds ``first_world ..`` of a card decision (block b: the
    worlds ``b * BLOCK ..``), every legal card (ascending ids) in each: ``deltas``/``flags``
    int64[n_cards, n_worlds] receive the seat's delta and FLAG_* bits. World w is drawn from
    the stream keyed ``(key + w // BLOCK)``, so any block is the same in any batch; the
    players are ``roll_kinds``/``roll_params`` (int8[n], float64[n, P]), also the model of
    ``infer``/``floor`` (pimc's parameters, :func:`_play_world`). Returns the number
    of layouts (0.0: the position is impossible, and no world is drawn). The Python layer
    runs the blocks on threads (:mod:`rams_sim.parallel`)."""
    n = r.players
    count = 0.0
    for b in range(lo, hi):
        search = arm(new_scratch(), mix64(np.uint64(key) + np.uint64((first_world // BLOCK + b) * GOLDEN)))
        _copy_players(search, n, roll_kinds, roll_params)
        m, n_pairs, count, n_piles = _play_count(search, r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k)
        if not count > 0.0:
            return count
        _card_world_block(search, seat, CARD_DECISION + t, first_world, b, deltas, flags, (r, announce, cardsets, st,
                          trick, log, info, n, dealer, trump_card, scores, t, k, leader, seat, legal, played, q_duty,
                          m, n_pairs, count, n_piles, np.int64(infer), np.float64(floor)))  # fmt: skip
    return count


@row_kernel
def evaluate_options(r, roll_kinds, roll_params, announce, key, order, cardsets, st, trick, log, info, dealer,
                     trump_card, scores, phase, step, talon_pos, seat, options, infer, floor, first_world, deltas, flags,
                     lo, hi):  # fmt: skip
    """As :func:`evaluate_cards` for a decision before the play: ``options`` int64[n_options]
    (from :func:`options_at`) at exchange step ``step`` (codes.PHASE_*: ``phase``); ``infer``
    and ``floor`` as pimc's parameters (:mod:`.inference`: the model is ``roll_kinds``/``roll_params``)."""
    n = r.players
    count = 0.0
    for b in range(lo, hi):
        search = arm(new_scratch(), mix64(np.uint64(key) + np.uint64((first_world // BLOCK + b) * GOLDEN)))
        _copy_players(search, n, roll_kinds, roll_params)
        m, count, n_piles = _exchange_count(search, r, n, seat, trump_card, cardsets, st)
        if not count > 0.0:
            return count
        _option_world_block(search, seat, phase, first_world, b, deltas, flags, (r, announce, order, cardsets, st,
                            trick, log, info, n, dealer, scores, phase, step, talon_pos, seat, options,
                            options.shape[0], m, count, n_piles, np.int64(infer), np.float64(floor)))  # fmt: skip
    return count
