"""The kernels' view of the rules: :class:`rams_sim.rules.Rules` packed as numbers and arrays.

:func:`rules_args` builds it from the ``Rules`` fields in one place, by type, so a new
option needs no line here: a bool or an int becomes an int64, an enum option its code
(its position in the enum, spelled for the kernels in :mod:`rams_sim.kernels.codes`),
a tuple of ints an int64 array. A few derived values follow (:data:`DERIVED`).

Each game of R9 gets its own namedtuple class with the same fields (:data:`ARGS_TYPES`):
numba compiles a driver once per class, and :mod:`rams_sim.kernels.dispatch` picks the
game's kernels by the class at compile time, so a classic run never compiles zone.
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from enum import StrEnum

import numpy as np

from .. import cards as C
from ..rules import CARD_POINTS, Game, Rules, enum_code

SKIPPED = ("preset", "deck")  # the preset's name; the deck is given as deck_size/deck/deck_mask
DERIVED = (
    "deck_size",  # R2: the number of cards (the ``deck`` option resolved)
    "deck",  # int8[deck_size]: the deck's card ids, ascending
    "deck_mask",  # uint64: the same cards as a mask
    "card_points",  # int64[13]: R1 points by rank (R5.4 ties)
)
FIELDS = tuple(f.name for f in dataclasses.fields(Rules) if f.name not in SKIPPED) + DERIVED

ClassicArgs = namedtuple("ClassicArgs", FIELDS)  # Game.RAMS: classic Rams and the presets of its options
DuelArgs = namedtuple("DuelArgs", FIELDS)  # Game.DUEL
ModernArgs = namedtuple("ModernArgs", FIELDS)  # Game.MODERN
ZoneArgs = namedtuple("ZoneArgs", FIELDS)  # Game.ZONE
ARGS_TYPES = {Game.RAMS: ClassicArgs, Game.DUEL: DuelArgs, Game.MODERN: ModernArgs, Game.ZONE: ZoneArgs}


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
