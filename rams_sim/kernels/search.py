"""The hook through which the play loop asks the search policy (``pimc``) for a card.

A driver receives ``search``: ``None`` when no seat searches (then this hook compiles to
"no card" and the deal kernels are exactly those of the scripted policies), or a
:data:`Search` tuple when one does; it turns it into the search's scratch arrays
(:func:`prepare`, a :data:`Scratch`, once per block of deals: the deal kernels allocate
nothing). The search plays its rollouts with ``search=None``,
so the rollouts never search again and numba never sees a recursion: the two values of
``search`` are two types, and each call resolves at compile time (as the game dispatch of
:mod:`rams_sim.kernels.dispatch`).

Each hook is made by :func:`search_hook` (:mod:`.hooks`: the plain-Python form and the
numba overload from one description); a game's own search hooks (zone's swap, modern's
turn, duel's widow ...) are made the same way in its module (``kernels/games/*.py``).

``Search.key`` is the deal's key once the deal kernel has armed it (:func:`arm`); the
search keys its own randomness by (key, seat, decision) (CLARIFICATIONS "Strong play").
"""

from __future__ import annotations

import importlib
from collections import namedtuple

import numpy as np

from .hooks import hook

Search = namedtuple("Search", ["key"])
# the search's scratch (rams_sim.kernels.pimc reads it); ``key`` is the deal's key once armed
Scratch = namedtuple("Scratch", [
    "key", "ints", "masks", "cards", "buf", "table", "forbid", "before", "rng", "roll_kinds", "roll_params",
    "b_cardsets", "b_st", "w_cardsets", "w_st", "w_trick", "w_log", "w_info", "w_rng", "totals",
    "options", "b_order", "w_order", "pairs", "pair_piles", "active_pairs", "w_deltas", "w_flags", "w_scores",
    "cross", "alive",
])  # fmt: skip


def search_on() -> Search:
    """The ``search`` argument of a driver whose seats include a searching policy."""
    return Search(np.uint64(0))


def search_hook(name: str, params: str, target: str, call: str, doc: str, module: str, decider: str = "seat",
                none: str = "NO_OPTION"):  # fmt: skip
    """The hook ``name(<params>)`` (``params`` include ``search`` and ``kinds``): ``none`` (an
    expression: ``NO_OPTION``, ``-1``) where ``search`` is None or the seat ``decider`` (an
    expression over the parameters) does not play ``pimc``, else ``target(<call>)``;
    ``target``: ``"module.function"`` relative to this package, imported when the hook is
    first resolved (the search modules import the play loop, which imports the hooks)."""

    def choose(classes):
        from .codes import NO_OPTION
        from .policy import PIMC
        from .state import seat_after

        names = {"NO_OPTION": NO_OPTION, "PIMC": PIMC, "seat_after": seat_after}
        if classes["search"] is not Scratch:
            return f"return {none}", names
        path, fn = target.rsplit(".", 1)
        names["target"] = getattr(importlib.import_module(path, __package__), fn)
        return f"if kinds[{decider}] != PIMC:\n    return {none}\nreturn target({call})", names

    return hook(name, params, choose, doc, module)


def _choose_prepare(classes):
    if classes["search"] is Search:
        from .pimc import new_scratch  # pimc imports the play loop, which imports this module

        return "return make()", {"make": new_scratch}
    return "return None", {}


prepare = hook("prepare", "search", _choose_prepare, """A driver's ``search`` argument as the deal kernels take it:
    None stays None, a :data:`Search` becomes a :data:`Scratch` (fresh arrays, once per block of deals).""",
               __name__, inline=False)  # fmt: skip

_ARMED = "Scratch(_uint64(key), " + ", ".join(f"search.{f}" for f in Scratch._fields[1:]) + ")"
arm = hook("arm", "search, key", lambda classes: ("return " + _ARMED, {"Scratch": Scratch, "_uint64": np.uint64})
           if classes["search"] is Scratch else ("return None", {}),
           "``search`` keyed by the deal's ``key`` (uint64); None stays None.", __name__)  # fmt: skip

search_card = search_hook(
    "search_card", "search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card, scores, "
    "t, k, leader, seat, legal, played, q_duty", ".pimc.pimc_card",
    "search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t, k, leader, "
    "seat, legal, played, q_duty", "The searching seat's card, or -1 when ``seat`` does not search.", __name__,
    none="-1")  # fmt: skip
search_decision = search_hook(
    "search_decision", "search, phase, step, talon_pos, seat, r, kinds, params, announce, order, rng, cardsets, st, "
    "trick, info, log, dealer, trump_card, scores", ".pimc.pimc_decision",
    "search, phase, step, talon_pos, seat, r, kinds, params, announce, order, rng, cardsets, st, trick, info, log, "
    "dealer, trump_card, scores", "A searching seat's option at an exchange step or the dealer's R4.3 choice, or "
    "NO_OPTION (``phase``: codes.PHASE_*).", __name__)  # fmt: skip
