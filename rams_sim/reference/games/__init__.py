"""R9: one module per game, each with the same two entry points.

``classic`` plays classic Rams and every preset that only changes its options; ``duel``
the presets duel and duel-trump; ``modern`` and ``zone`` the presets of those names.
Every game module has:

* ``play_deal(book, specs, key, dealer, scores, order, *, stake=1, cube=-1, events=None)
  -> DealResult``: one deal (:class:`rams_sim.reference.party.DealResult`);
* ``settlement(book, scores, winner, stake, prokats) -> tuple[float, ...]``: the money of
  a party (R8.4 and the games' own rules).

:data:`GAMES` maps each :class:`rams_sim.rules.Game` to its module, the one its entry in
:data:`rams_sim.games.GAMES` names (``GameInfo.reference``).
"""

from __future__ import annotations

import importlib

from ...games import GAMES as REGISTRY

GAMES = {game: importlib.import_module(info.reference) for game, info in REGISTRY.items()}


def game_of(rules):
    """The module that plays ``rules.game``."""
    return GAMES[rules.game]
