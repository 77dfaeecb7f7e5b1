"""The hook through which the play loop asks the search policy (``pimc``) for a card.

A driver receives ``search``: ``None`` when no seat searches (then this hook compiles to
"no card" and the deal kernels are exactly those of the scripted policies), or a
:data:`Search` tuple when one does; it turns it into the search's scratch arrays
(:func:`prepare`, a :data:`Scratch`, once per block of deals: the deal kernels allocate
nothing). The search plays its rollouts with ``search=None``,
so the rollouts never search again and numba never sees a recursion: the two values of
``search`` are two types, and each call resolves at compile time (as the game dispatch of
:mod:`rams_sim.kernels.dispatch`).

``Search.key`` is the deal's key once the deal kernel has armed it (:func:`arm`); the
search keys its own randomness by (key, seat, decision) (CLARIFICATIONS "Strong play").
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import types
from numba.extending import overload

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


def _is_search(t) -> bool:
    return isinstance(t, types.BaseNamedTuple) and t.instance_class is Search


def _is_scratch(t) -> bool:
    return isinstance(t, types.BaseNamedTuple) and t.instance_class is Scratch


def new_scratch():
    """Fresh scratch arrays for one thread's searches (see :data:`Scratch`)."""
    from .pimc import new_scratch as make

    return make()


def prepare(search):
    """A driver's ``search`` argument as the deal kernels take it: None stays None, a
    :data:`Search` becomes a :data:`Scratch` (body: NUMBA_DISABLE_JIT)."""
    return None if search is None else new_scratch()


def arm(search, key):
    """``search`` keyed by the deal's ``key`` (uint64); None stays None (body: NUMBA_DISABLE_JIT)."""
    return None if search is None else search._replace(key=np.uint64(key))


def search_card(search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t, k,
                leader, seat, legal, played, q_duty):  # fmt: skip
    """The searching seat's card, or -1 when ``seat`` does not search (body: NUMBA_DISABLE_JIT)."""
    from .pimc import pimc_card
    from .policy import PIMC

    if search is None or kinds[seat] != PIMC:
        return -1
    return pimc_card(search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card,
                     scores, t, k, leader, seat, legal, played, q_duty)  # fmt: skip


def search_decision(search, phase, step, talon_pos, seat, r, kinds, params, announce, order, rng, cardsets, st, trick,
                    info, log, dealer, trump_card, scores):  # fmt: skip
    """A searching seat's option at an exchange step or the dealer's R4.3 choice, or NO_OPTION
    (``phase``: codes.PHASE_*; body: NUMBA_DISABLE_JIT)."""
    from .codes import NO_OPTION
    from .pimc import pimc_decision
    from .policy import PIMC

    if search is None or kinds[seat] != PIMC:
        return NO_OPTION
    return pimc_decision(search, phase, step, talon_pos, seat, r, kinds, params, announce, order, rng, cardsets, st,
                         trick, info, log, dealer, trump_card, scores)  # fmt: skip


@overload(search_decision, inline="always")
def _search_decision(search, phase, step, talon_pos, seat, r, kinds, params, announce, order, rng, cardsets, st, trick,
                     info, log, dealer, trump_card, scores):  # fmt: skip
    from .codes import NO_OPTION

    if not _is_scratch(search):

        def none(search, phase, step, talon_pos, seat, r, kinds, params, announce, order, rng, cardsets, st, trick,
                 info, log, dealer, trump_card, scores):  # fmt: skip
            return NO_OPTION

        return none
    from .pimc import pimc_decision
    from .policy import PIMC

    def impl(search, phase, step, talon_pos, seat, r, kinds, params, announce, order, rng, cardsets, st, trick, info,
             log, dealer, trump_card, scores):  # fmt: skip
        if kinds[seat] != PIMC:
            return NO_OPTION
        return pimc_decision(search, phase, step, talon_pos, seat, r, kinds, params, announce, order, rng, cardsets,
                             st, trick, info, log, dealer, trump_card, scores)  # fmt: skip

    return impl


@overload(prepare)
def _prepare(search):
    if _is_search(search):
        from .pimc import new_scratch as make

        return lambda search: make()
    return lambda search: None


@overload(arm, inline="always")
def _arm(search, key):
    if _is_scratch(search):

        def impl(search, key):
            return Scratch(np.uint64(key), search.ints, search.masks, search.cards, search.buf, search.table, search.forbid, search.before, search.rng, search.roll_kinds, search.roll_params, search.b_cardsets, search.b_st, search.w_cardsets, search.w_st, search.w_trick, search.w_log, search.w_info, search.w_rng, search.totals, search.options, search.b_order, search.w_order, search.pairs, search.pair_piles, search.active_pairs, search.w_deltas, search.w_flags, search.w_scores, search.cross, search.alive)  # fmt: skip

        return impl
    return lambda search, key: None


@overload(search_card, inline="always")
def _search_card(search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t,
                 k, leader, seat, legal, played, q_duty):  # fmt: skip
    if not _is_scratch(search):

        def none(search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t,
                 k, leader, seat, legal, played, q_duty):  # fmt: skip
            return -1

        return none
    # imported when a searching driver is compiled: pimc imports the play loop, which imports this module
    from .pimc import pimc_card
    from .policy import PIMC

    def impl(search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card, scores, t, k,
             leader, seat, legal, played, q_duty):  # fmt: skip
        if kinds[seat] != PIMC:
            return -1
        return pimc_card(search, r, kinds, params, announce, cardsets, st, trick, log, info, n, dealer, trump_card,
                         scores, t, k, leader, seat, legal, played, q_duty)  # fmt: skip

    return impl


# ---- zone's hooks (R9 zone: the partner's swap, each card; rams_sim.kernels.games.zone_search) ----
def zone_search_swap(search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer):
    """The searching partner's swap option (0 stand, 31 swap), or NO_OPTION (body: NUMBA_DISABLE_JIT)."""
    from .codes import NO_OPTION
    from .games.zone_search import zone_pimc_swap
    from .policy import PIMC
    from .state import seat_after

    partner = seat_after(dealer, 1, 2)
    if search is None or kinds[partner] != PIMC:
        return NO_OPTION
    return zone_pimc_swap(search, r, params, cardsets, st, trick, info, log, scores, dealer)


def zone_search_card(search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer, t, k, leader, seat, legal,
                     duty):  # fmt: skip
    """A searching seat's card in zone, or -1 when ``seat`` does not search (body: NUMBA_DISABLE_JIT)."""
    from .games.zone_search import zone_pimc_card
    from .policy import PIMC

    if search is None or kinds[seat] != PIMC:
        return -1
    return zone_pimc_card(search, r, params, cardsets, st, trick, info, log, scores, dealer, t, k, leader, seat, legal,
                          duty)  # fmt: skip


@overload(zone_search_swap, inline="always")
def _zone_search_swap(search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer):
    from .codes import NO_OPTION

    if not _is_scratch(search):
        return lambda search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer: NO_OPTION
    from .games.zone_search import zone_pimc_swap
    from .policy import PIMC
    from .state import seat_after

    def impl(search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer):
        if kinds[seat_after(dealer, 1, 2)] != PIMC:
            return NO_OPTION
        return zone_pimc_swap(search, r, params, cardsets, st, trick, info, log, scores, dealer)

    return impl


@overload(zone_search_card, inline="always")
def _zone_search_card(search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer, t, k, leader, seat,
                      legal, duty):  # fmt: skip
    if not _is_scratch(search):

        def none(search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer, t, k, leader, seat, legal,
                 duty):  # fmt: skip
            return -1

        return none
    from .games.zone_search import zone_pimc_card
    from .policy import PIMC

    def impl(search, r, kinds, params, cardsets, st, trick, info, log, scores, dealer, t, k, leader, seat, legal, duty):
        if kinds[seat] != PIMC:
            return -1
        return zone_pimc_card(search, r, params, cardsets, st, trick, info, log, scores, dealer, t, k, leader, seat,
                              legal, duty)  # fmt: skip

    return impl


# ---- modern's hook (R9 modern: the turn; rams_sim.kernels.games.modern_search) ----
def modern_search_turn(search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat):
    """A searching seat's turn option in modern (OPTION_PASS, 0, a take mask), or NO_OPTION
    (body: NUMBA_DISABLE_JIT)."""
    from .codes import NO_OPTION
    from .games.modern_search import modern_pimc_turn
    from .policy import PIMC

    if search is None or kinds[seat] != PIMC:
        return NO_OPTION
    return modern_pimc_turn(search, r, params, announce, cardsets, st, info, scores, dealer, k, seat)


@overload(modern_search_turn, inline="always")
def _modern_search_turn(search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat):
    from .codes import NO_OPTION

    if not _is_scratch(search):
        return lambda search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat: NO_OPTION
    from .games.modern_search import modern_pimc_turn
    from .policy import PIMC

    def impl(search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat):
        if kinds[seat] != PIMC:
            return NO_OPTION
        return modern_pimc_turn(search, r, params, announce, cardsets, st, info, scores, dealer, k, seat)

    return impl


def modern_search_redeal(search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat):
    """A searching seat's answer to modern's redeal question (0 keep, 1 demand), or NO_OPTION
    (body: NUMBA_DISABLE_JIT)."""
    from .codes import NO_OPTION
    from .games.modern_search import modern_pimc_redeal
    from .policy import PIMC

    if search is None or kinds[seat] != PIMC:
        return NO_OPTION
    return modern_pimc_redeal(search, r, params, announce, cardsets, st, info, scores, dealer, k, seat)


@overload(modern_search_redeal, inline="always")
def _modern_search_redeal(search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat):
    from .codes import NO_OPTION

    if not _is_scratch(search):
        return lambda search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat: NO_OPTION
    from .games.modern_search import modern_pimc_redeal
    from .policy import PIMC

    def impl(search, r, kinds, params, announce, cardsets, st, info, scores, dealer, k, seat):
        if kinds[seat] != PIMC:
            return NO_OPTION
        return modern_pimc_redeal(search, r, params, announce, cardsets, st, info, scores, dealer, k, seat)

    return impl


# ---- duel's hooks (R9 duel: the widow, duel-trump's card, dave; rams_sim.kernels.games.duel_search) ----
def duel_search_widow(search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer, step,
                      seat):  # fmt: skip
    """A searching seat's widow option at widow step ``step`` (0 stand, SWAP_OPTION), or NO_OPTION
    (body: NUMBA_DISABLE_JIT)."""
    from .codes import NO_OPTION
    from .games.duel_search import duel_pimc_widow
    from .policy import PIMC

    if search is None or kinds[seat] != PIMC:
        return NO_OPTION
    return duel_pimc_widow(search, r, params, announce, order, cardsets, st, trick, info, log, scores, dealer, step,
                           seat)  # fmt: skip


def duel_search_trump(search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer):
    """A searching dealer's card for the trump card in duel-trump, or NO_OPTION (body: NUMBA_DISABLE_JIT)."""
    from .codes import NO_OPTION
    from .games.duel_search import duel_pimc_trump
    from .policy import PIMC

    if search is None or kinds[dealer] != PIMC:
        return NO_OPTION
    return duel_pimc_trump(search, r, params, announce, order, cardsets, st, trick, info, log, scores, dealer)


def duel_search_dave(search, r, kinds, params, announce, cardsets, st, trick, log, info, scores, t, k, leader, q_duty,
                     offerer, trump_card, dealer, played, decider):  # fmt: skip
    """A searching seat's dave option before ``offerer``'s card ``k`` of trick ``t``: the offerer's
    (``decider`` == ``offerer``: DAVE_PASS or DAVE_OFFER) or the other's answer (DAVE_DECLINE
    or DAVE_ACCEPT); NO_OPTION when ``decider`` does not search (body: NUMBA_DISABLE_JIT)."""
    from .codes import NO_OPTION
    from .games.duel_search import duel_pimc_dave
    from .policy import PIMC

    if search is None or kinds[decider] != PIMC:
        return NO_OPTION
    return duel_pimc_dave(search, r, params, announce, cardsets, st, trick, log, info, scores, t, k, leader, q_duty,
                          offerer, trump_card, dealer, played, decider)  # fmt: skip


@overload(duel_search_widow, inline="always")
def _duel_search_widow(search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer, step,
                       seat):  # fmt: skip
    from .codes import NO_OPTION

    if not _is_scratch(search):

        def none(search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer, step, seat):
            return NO_OPTION

        return none
    from .games.duel_search import duel_pimc_widow
    from .policy import PIMC

    def impl(search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer, step, seat):
        if kinds[seat] != PIMC:
            return NO_OPTION
        return duel_pimc_widow(search, r, params, announce, order, cardsets, st, trick, info, log, scores, dealer, step,
                               seat)  # fmt: skip

    return impl


@overload(duel_search_trump, inline="always")
def _duel_search_trump(search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer):
    from .codes import NO_OPTION

    if not _is_scratch(search):
        def none(search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer):
            return NO_OPTION

        return none
    from .games.duel_search import duel_pimc_trump
    from .policy import PIMC

    def impl(search, r, kinds, params, announce, order, cardsets, st, trick, info, log, scores, dealer):
        if kinds[dealer] != PIMC:
            return NO_OPTION
        return duel_pimc_trump(search, r, params, announce, order, cardsets, st, trick, info, log, scores, dealer)

    return impl


@overload(duel_search_dave, inline="always")
def _duel_search_dave(search, r, kinds, params, announce, cardsets, st, trick, log, info, scores, t, k, leader, q_duty,
                      offerer, trump_card, dealer, played, decider):  # fmt: skip
    from .codes import NO_OPTION

    if not _is_scratch(search):

        def none(search, r, kinds, params, announce, cardsets, st, trick, log, info, scores, t, k, leader, q_duty,
                 offerer, trump_card, dealer, played, decider):  # fmt: skip
            return NO_OPTION

        return none
    from .games.duel_search import duel_pimc_dave
    from .policy import PIMC

    def impl(search, r, kinds, params, announce, cardsets, st, trick, log, info, scores, t, k, leader, q_duty, offerer,
             trump_card, dealer, played, decider):  # fmt: skip
        if kinds[decider] != PIMC:
            return NO_OPTION
        return duel_pimc_dave(search, r, params, announce, cardsets, st, trick, log, info, scores, t, k, leader, q_duty,
                              offerer, trump_card, dealer, played, decider)  # fmt: skip

    return impl
