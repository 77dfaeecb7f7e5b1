"""Each game's entry points, chosen by the class of the rules' kernel view at compile time.

``r``, the rules packed by :func:`rams_sim.kernels.args.rules_args`, is an instance of
its game's class (:data:`rams_sim.kernels.args.ARGS_TYPES`). The functions below are
numba overloads: when a driver is compiled for one class, each call resolves to that
game's module (:func:`_game_module`), so only its kernels are compiled and the other
games' code never enters the driver. Every game module (``kernels/games/*.py``) has:

* ``play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng,
  cardsets, st, trick, info, log, forced_seat, forced_option, search) -> status``: one deal
  (``search``: None, or :data:`rams_sim.kernels.search.Search` where a seat searches);
* ``settle_party(r, won, scores, stake, prokats, settlement, row)``: money at the end of a party;

and may have

* ``play_rows(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order,
  keys, out_sets, out_seat, out_delta, out_deal, out_log, search, lo, hi, order, rng, cardsets,
  st, trick, info, log) -> errors``: ``play_deals``' loop over a block of rows with the deal
  inlined, for a table without a searching seat (classic: a call of ``play_deal`` per deal
  passes about 160 words of arguments, 15% of its time); without it, or with a searching
  seat, the rows call ``play_deal`` one by one (:func:`rams_sim.kernels.drivers.deal_by_deal`);

and a game that plays its tricks with :func:`rams_sim.kernels.play.play_tricks` (R6)
also has its trick hooks:

* ``before_card(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores,
  t, k, leader, q_duty, seat, trump_card, dealer, played, search) -> bool``: True ends
  the deal before ``seat`` plays card ``k`` of trick ``t`` (duel's declined dave; a
  searching seat's dave is searched from where the play stands);
* ``credit(r, w, scores, st, announce) -> bool``: credit trick to ``w``; True when he
  wins the party at this trick (R8.2; modern counts up).

A game that policy ``pimc`` searches card by card with :func:`rams_sim.kernels.pimc.pimc_card`
(classic, modern) also has:

* ``finish_play(r, n, dealer, winner, scores, st, info)``: the deltas of a deal whose tricks
  were played (``winner``: play_tricks' result), as the game's own deal scores them;
* ``DELTA_SIGN``: +1 where a seat wants the least delta (R7: counting down), -1 where it wants
  the most (modern counts up);
* ``trump_maybe_discarded(cardsets, st, dealer) -> bool``: whether the turned trump card,
  known to be the dealer's, may have gone into his discards (modern: he took the widow);
* ``world_fits(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among)
  -> float``: the chance to keep a world drawn at a card, by what the piles cannot say
  (classic: the declarations and the running scores, the passers' hands among the cards
  ``passers_among``: :func:`rams_sim.kernels.knowledge.declarations_fit`);
* ``history_fits(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params,
  rng, row, floor) -> float`` (optional; a game without it weighs nothing): the chance, under
  the model of the players (``kinds``/``params``, ``floor``), of what the others did before
  the play, in a world drawn at a card (``infer=policy``; classic:
  :func:`rams_sim.kernels.inference.play_chance`);
* ``search_value(r, search, announce, seat, scores, dealer, world_key) -> int``: what a
  rollout (in ``search.w_*``) is worth to ``seat``, times DELTA_SIGN the least the best:
  classic and modern, his delta; duel, the party's outcome (:mod:`.games.duel`).
"""

from __future__ import annotations

from numba.core import types
from numba.extending import overload

from .args import ClassicArgs, DuelArgs, ModernArgs, ZoneArgs


def _game_module(args_type):
    """The game module of an argument class: a numba type (compiling) or the class itself (NUMBA_DISABLE_JIT)."""
    # imported here, not at the top: the game modules import play.py, which imports this module
    from .games import classic, duel, modern, zone

    cls = getattr(args_type, "instance_class", args_type)
    return {ClassicArgs: classic, DuelArgs: duel, ModernArgs: modern, ZoneArgs: zone}[cls]


def play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
              forced_seat, forced_option, search):  # fmt: skip
    """One deal of the rules' game into the state arrays; returns its status.

    Compiled kernels call the overload below; this body runs only with NUMBA_DISABLE_JIT."""
    return _game_module(type(r)).play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng,
                                           cardsets, st, trick, info, log, forced_seat, forced_option, search)  # fmt: skip


def _rows(args_type, searching):
    """The loop of :func:`rams_sim.kernels.drivers.play_deals` for a game: the game's own
    ``play_rows`` (no searching seat), else :func:`rams_sim.kernels.drivers.deal_by_deal`."""
    from .drivers import deal_by_deal  # here, not at the top: drivers imports this module

    game = _game_module(args_type)
    return deal_by_deal if searching or not hasattr(game, "play_rows") else game.play_rows


def play_rows(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets, out_seat,
              out_delta, out_deal, out_log, search, lo, hi, order, rng, cardsets, st, trick, info, log):  # fmt: skip
    """Rows ``lo .. hi - 1`` of :func:`rams_sim.kernels.drivers.play_deals`; returns the deals not OK.

    Compiled kernels call the overload below; this body runs only with NUMBA_DISABLE_JIT."""
    rows = _rows(type(r), search is not None)
    return rows(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets, out_seat,
                out_delta, out_deal, out_log, search, lo, hi, order, rng, cardsets, st, trick, info, log)  # fmt: skip


@overload(play_rows, inline="always")
def _play_rows(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets, out_seat,
               out_delta, out_deal, out_log, search, lo, hi, order, rng, cardsets, st, trick, info, log):  # fmt: skip
    rows = _rows(r, not isinstance(search, types.NoneType))

    def impl(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets, out_seat,
             out_delta, out_deal, out_log, search, lo, hi, order, rng, cardsets, st, trick, info, log):  # fmt: skip
        return rows(r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets,
                    out_seat, out_delta, out_deal, out_log, search, lo, hi, order, rng, cardsets, st, trick, info, log)  # fmt: skip

    return impl


def settle_party(r, won, scores, stake, prokats, settlement, row):
    """Money by seat at the end of a party, into ``settlement[row]`` (the body: NUMBA_DISABLE_JIT only)."""
    _game_module(type(r)).settle_party(r, won, scores, stake, prokats, settlement, row)


def before_card(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, seat,
                trump_card, dealer, played, search):  # fmt: skip
    """The game's step before each card of R6; True ends the deal (the body: NUMBA_DISABLE_JIT only)."""
    return _game_module(type(r)).before_card(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t,
                                             k, leader, q_duty, seat, trump_card, dealer, played, search)  # fmt: skip


def credit(r, w, scores, st, announce):
    """Credit a trick to ``w``; True when he wins the party with it (the body: NUMBA_DISABLE_JIT only)."""
    return _game_module(type(r)).credit(r, w, scores, st, announce)


@overload(play_deal, inline="always")
def _play_deal(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
               forced_seat, forced_option, search):  # fmt: skip
    game = _game_module(r).play_deal

    def impl(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, log,
             forced_seat, forced_option, search):  # fmt: skip
        return game(r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info,
                    log, forced_seat, forced_option, search)  # fmt: skip

    return impl


@overload(settle_party, inline="always")
def _settle_party(r, won, scores, stake, prokats, settlement, row):
    game = _game_module(r).settle_party

    def impl(r, won, scores, stake, prokats, settlement, row):
        game(r, won, scores, stake, prokats, settlement, row)

    return impl


@overload(before_card, inline="always")
def _before_card(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, seat,
                 trump_card, dealer, played, search):  # fmt: skip
    game = _game_module(r).before_card

    def impl(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, seat,
             trump_card, dealer, played, search):  # fmt: skip
        return game(r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, seat,
                    trump_card, dealer, played, search)  # fmt: skip

    return impl


@overload(credit, inline="always")
def _credit(r, w, scores, st, announce):
    game = _game_module(r).credit

    def impl(r, w, scores, st, announce):
        return game(r, w, scores, st, announce)

    return impl


def finish_play(r, n, dealer, winner, scores, st, info):
    """The deltas of a played deal, as the game scores them (the body: NUMBA_DISABLE_JIT only)."""
    _game_module(type(r)).finish_play(r, n, dealer, winner, scores, st, info)


def delta_sign(r):
    """+1: a seat wants the least delta; -1: the most (the body: NUMBA_DISABLE_JIT only)."""
    return _game_module(type(r)).DELTA_SIGN


def trump_maybe_discarded(r, cardsets, st, dealer):
    """Whether the dealer's trump card may lie in his discards (the body: NUMBA_DISABLE_JIT only)."""
    return _game_module(type(r)).trump_maybe_discarded(cardsets, st, dealer)


@overload(finish_play, inline="always")
def _finish_play(r, n, dealer, winner, scores, st, info):
    game = _game_module(r).finish_play

    def impl(r, n, dealer, winner, scores, st, info):
        game(r, n, dealer, winner, scores, st, info)

    return impl


@overload(delta_sign, inline="always")
def _delta_sign(r):
    sign = _game_module(r).DELTA_SIGN
    return lambda r: sign


@overload(trump_maybe_discarded, inline="always")
def _trump_maybe_discarded(r, cardsets, st, dealer):
    game = _game_module(r).trump_maybe_discarded
    return lambda r, cardsets, st, dealer: game(cardsets, st, dealer)


def search_value(r, search, announce, seat, scores, dealer, world_key):
    """What a rollout is worth to ``seat`` (the body: NUMBA_DISABLE_JIT only)."""
    return _game_module(type(r)).search_value(r, search, announce, seat, scores, dealer, world_key)


@overload(search_value, inline="always")
def _search_value(r, search, announce, seat, scores, dealer, world_key):
    game = _game_module(r).search_value
    return lambda r, search, announce, seat, scores, dealer, world_key: game(r, search, announce, seat, scores, dealer,
                                                                             world_key)


def world_fits(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among):
    """The chance to keep a drawn world, by what the piles cannot say (the body: NUMBA_DISABLE_JIT only)."""
    game = _game_module(type(r))
    return game.world_fits(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among)


@overload(world_fits, inline="always")
def _world_fits(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among):
    game = _game_module(r).world_fits
    return lambda r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among: game(
        r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among)


def history_fits(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row, floor):
    """The model's chance of the others' history in a world at a card; 1 for a game without the
    hook (the body: NUMBA_DISABLE_JIT only)."""
    game = _game_module(type(r))
    if not hasattr(game, "history_fits"):
        return 1.0
    return game.history_fits(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row,
                             floor)  # fmt: skip


@overload(history_fits, inline="always")
def _history_fits(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row, floor):
    game = getattr(_game_module(r), "history_fits", None)
    if game is None:
        return lambda r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row, floor: 1.0
    return lambda r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row, floor: game(
        r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row, floor)
