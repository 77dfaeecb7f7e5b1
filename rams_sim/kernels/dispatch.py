"""Each game's entry points, chosen by the class of the rules' kernel view at compile time.

``r``, the rules packed by :func:`rams_sim.kernels.args.rules_args`, is an instance of
its game's class (:data:`rams_sim.kernels.args.ARGS_TYPES`). The functions below are
hooks (:func:`rams_sim.kernels.hooks.hook`: one description makes the plain-Python form and
the numba overload): when a driver is compiled for one class, each call resolves to that
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
  seat, the rows call ``play_deal`` one by one (:func:`rams_sim.kernels.drivers.deal_by_deal`).
  Its arguments are not bundled, as measured: the state arrays as one tuple cost 2% of a deal,
  and the outputs as one namedtuple stop numba's parallel pipeline compiling the driver;

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
  the play, in a world drawn at a card (``infer=play``; classic:
  :func:`rams_sim.kernels.inference.play_chance`);
* ``cards_fit(r, n, seat, dealer, trump_card, st, trick, log, t, k, w_cardsets, w_st, kinds, params, rng,
  floor, s_cardsets, s_st, buf) -> float`` (optional): the chance under the model of every card the
  others played before this one (``infer=cards``; classic: :func:`rams_sim.kernels.inference.cards_chance`);
* ``history_world(r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, scores, announce,
  w_cardsets, w_st, kinds, params, rng, row, floor, s_cardsets, s_st, buf) -> float`` (optional): at a
  card of the first trick with ``infer=cards``, a world drawn with its history into ``w_*`` and the
  chance to keep it (classic: :func:`rams_sim.kernels.games.classic.history_world`); a game without it
  gives -1 and the world is drawn from the layout;
* ``search_value(r, search, announce, seat, scores, dealer, world_key) -> int``: what a
  rollout (in ``search.w_*``) is worth to ``seat``, times DELTA_SIGN the least the best:
  classic and modern, his delta; duel, the party's outcome (:mod:`.games.duel`).
"""

from __future__ import annotations

import importlib

from ..games import GAMES
from .args import game_of_args
from .hooks import hook


def _game_module(args_class: type):
    """The game's kernel module (its registry entry's ``kernel``) for an argument class of
    :data:`rams_sim.kernels.args.ARGS_TYPES`: imported here, when a hook is resolved, not at the top
    (the game modules import play.py, which imports this module)."""
    return importlib.import_module(GAMES[game_of_args(args_class)].kernel)


def _game_hook(name: str, params: str, doc: str, call: str | None = None, missing: str | None = None):
    """The hook ``name``: the game module's function of that name, called with ``call``
    (default: every parameter); ``missing``: the value where the game has no such function."""

    def choose(classes):
        game = _game_module(classes["r"])
        fn = getattr(game, name, None)
        if fn is None:
            if missing is None:
                raise TypeError(f"{game.__name__} has no {name}, which the kernels compiled here call")
            return f"return {missing}", {}
        return f"return fn({call or params})", {"fn": fn}

    return hook(name, params, choose, doc, __name__)


# ---- every game ----
play_deal = _game_hook(
    "play_deal", "r, kinds, params, announce, key, fixed_order, dealer, scores, order, rng, cardsets, st, trick, info, "
    "log, forced_seat, forced_option, search", "One deal of the rules' game into the state arrays; returns its status.")
settle_party = _game_hook("settle_party", "r, won, scores, stake, prokats, settlement, row",
                          "Money by seat at the end of a party, into ``settlement[row]``.")

_ROWS = ("r, kinds, params, announce, seed, first_deal, fixed_dealer, scores, fixed_order, keys, out_sets, out_seat, "
         "out_delta, out_deal, out_log, search, lo, hi, order, rng, cardsets, st, trick, info, log")  # fmt: skip


def _rows(args_class: type, searching: bool):
    """The loop of :func:`rams_sim.kernels.drivers.play_deals` for a game: the game's own
    ``play_rows`` (no searching seat), else :func:`rams_sim.kernels.drivers.deal_by_deal`."""
    from .drivers import deal_by_deal  # here, not at the top: drivers imports this module

    game = _game_module(args_class)
    return deal_by_deal if searching or not hasattr(game, "play_rows") else game.play_rows


def _choose_rows(classes):
    return f"return rows({_ROWS})", {"rows": _rows(classes["r"], classes["search"] is not type(None))}


play_rows = hook("play_rows", _ROWS, _choose_rows, "Rows ``lo .. hi - 1`` of :func:`rams_sim.kernels.drivers."
                 "play_deals`; returns the deals not OK.", __name__)  # fmt: skip

# ---- a game that plays its tricks with play.play_tricks (R6) ----
before_card = _game_hook(
    "before_card", "r, kinds, params, announce, rng, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, "
    "seat, trump_card, dealer, played, search", "The game's step before each card of R6; True ends the deal.")
credit = _game_hook("credit", "r, w, scores, st, announce",
                    "Credit a trick to ``w``; True when he wins the party with it.")

# ---- a game that pimc searches card by card (pimc.pimc_card) ----
finish_play = _game_hook("finish_play", "r, n, dealer, winner, scores, st, info",
                         "The deltas of a played deal, as the game scores them.")
trump_maybe_discarded = _game_hook("trump_maybe_discarded", "r, cardsets, st, dealer",
                                   "Whether the dealer's trump card may lie in his discards.", "cardsets, st, dealer")
search_value = _game_hook("search_value", "r, search, announce, seat, scores, dealer, world_key",
                          "What a rollout is worth to ``seat``.")
world_fits = _game_hook("world_fits", "r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among",
                        "The chance to keep a drawn world, by what the piles cannot say.")
history_fits = _game_hook(
    "history_fits", "r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, row, floor",
    "The model's chance of the others' history in a world at a card; 1 for a game without the hook.", missing="1.0")
cards_fit = _game_hook(
    "cards_fit", "r, n, seat, dealer, trump_card, st, trick, log, t, k, w_cardsets, w_st, kinds, params, rng, floor, "
    "s_cardsets, s_st, buf", "The model's chance of the cards the others played, in a world at a card; 1 for a game "
    "without the hook.", missing="1.0")  # fmt: skip
history_world = _game_hook(
    "history_world", "r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, scores, announce, w_cardsets, "
    "w_st, kinds, params, rng, row, floor, s_cardsets, s_st, buf", "A world at a card of the first trick drawn with its "
    "history (``infer=cards``) and the chance to keep it; -1 for a game without the hook (the layout's world).",
    missing="-1.0")  # fmt: skip
delta_sign = hook("delta_sign", "r", lambda classes: ("return sign", {"sign": _game_module(classes["r"]).DELTA_SIGN}),
                  "+1: a seat wants the least delta; -1: the most.", __name__)
