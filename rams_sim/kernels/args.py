"""The kernels' view of the rules: :class:`rams_sim.rules.Rules` packed as numbers and arrays.

:func:`rules_args` builds it from the ``Rules`` fields in one place, by type, so a new
option needs no line here: a bool or an int becomes an int64, an enum option its code
(its position in the enum, spelled for the kernels in :mod:`rams_sim.kernels.codes`),
a tuple of ints an int64 array. A few derived values follow (:data:`DERIVED`).

Each game of R9 gets its own namedtuple class with the same fields (:data:`ARGS_TYPES`, named by
the game's entry in :data:`rams_sim.games.GAMES`; :func:`game_of_args` goes back):
numba compiles a driver once per class, and :mod:`rams_sim.kernels.dispatch` picks the
game's kernels by the class at compile time, so a classic run never compiles zone.
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from enum import StrEnum

import numpy as np

from .. import cards as C
from ..games import GAMES
from ..rules import CARD_POINTS, Game, Rules, enum_code

SKIPPED = ("preset", "deck")  # the preset's name; the deck is given as deck_size/deck/deck_mask
DERIVED = (
    "deck_size",  # R2: the number of cards (the ``deck`` option resolved)
    "deck",  # int8[deck_size]: the deck's card ids, ascending
    "deck_mask",  # uint64: the same cards as a mask
    "card_points",  # int64[13]: R1 points by rank (R5.4 ties)
)
FIELDS = tuple(f.name for f in dataclasses.fields(Rules) if f.name not in SKIPPED) + DERIVED

# one class per game of R9, named by its registry entry (GameInfo.args_class), each a module attribute of its
# name here: numba's on-disk cache pickles a signature's classes by reference (tests/test_games_registry.py)
ARGS_TYPES = {game: namedtuple(info.args_class, FIELDS, module=__name__) for game, info in GAMES.items()}
_BY_NAME = {cls.__name__: cls for cls in ARGS_TYPES.values()}
ClassicArgs, DuelArgs, ModernArgs, ZoneArgs = (_BY_NAME[name] for name in ("ClassicArgs", "DuelArgs", "ModernArgs",
                                                                            "ZoneArgs"))  # fmt: skip
_GAME_OF_ARGS = {cls: game for game, cls in ARGS_TYPES.items()}


def game_of_args(cls) -> Game:
    """The game whose kernel arguments are of class ``cls``: a class of :data:`ARGS_TYPES`, or numba's
    type of one while compiling (its ``instance_class``); ``GAMES[game_of_args(cls)].kernel`` names
    the game's kernel module."""
    return _GAME_OF_ARGS[getattr(cls, "instance_class", cls)]


def _packed(value):
    if isinstance(value, bool):
        return np.int64(value)
    if isinstance(value, StrEnum):
        return np.int64(enum_code(value))
    if isinstance(value, int):
        return np.int64(value)
    if isinstance(value, tuple):
        return np.array(value, dtype=np.int64)
    raise TypeError(f"no kernel form for a rules value of type {type(value).__name__}")


def rules_args(rules: Rules):
    """Pack ``rules`` for the kernels: an instance of its game's class in :data:`ARGS_TYPES`."""
    values = {name: _packed(getattr(rules, name)) for name in FIELDS if name not in DERIVED}
    values["deck_size"] = np.int64(rules.deck_size)
    values["deck"] = C.deck_cards(rules.deck_size)
    values["deck_mask"] = np.uint64(C.deck_mask(rules.deck_size))
    values["card_points"] = np.array(CARD_POINTS, dtype=np.int64)
    return ARGS_TYPES[rules.game](**values)
