"""R9: one module per game, each with the same two entry points.

``classic`` plays classic Rams and every preset that only changes its options; ``duel``
the presets duel and duel-trump; ``modern`` and ``zone`` the presets of those names.
Every game module has:

* ``play_deal(book, specs, key, dealer, scores, order, *, stake=1, cube=-1, events=None)
  -> DealResult``: one deal (:class:`rams_sim.reference.party.DealResult`);
* ``settlement(book, scores, winner, stake, prokats) -> tuple[float, ...]``: the money of
  a party (R8.4 and the games' own rules).

:data:`GAMES` maps each :class:`rams_sim.rules.Game` to its module.
"""

from __future__ import annotations

from ...rules import Game
from . import classic, duel, modern, zone

GAMES = {Game.RAMS: classic, Game.DUEL: duel, Game.MODERN: modern, Game.ZONE: zone}


def game_of(rules):
    """The module that plays ``rules.game``."""
    return GAMES[rules.game]
