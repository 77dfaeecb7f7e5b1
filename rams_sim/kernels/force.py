"""Branching: one decision of one seat forced (``rams-sim branch --decision``, :mod:`rams_sim.decisions`).

A branch replays a deal once per option of one decision of the focal seat, everyone else on
his policy and the focal seat on his for every other decision. The forced decision and option
travel in the focal seat's policy row (``params[seat, FORCE_DECISION]``, ``params[seat,
FORCE_OPTION]``; -1 off: :func:`rams_sim.policies.param_vector`), so no deal kernel takes an
argument more and a row with nothing forced runs the same code as a plain run. Each decision
site asks :func:`forced_option` after any option a search resumes with (which a branch never
sets); a forced seat does not search, but his policy is asked all the same and its answer
replaced, so that his coins are drawn as in the plain run (a row forced to the policy's own
choice is then the plain run's deal, for ``random`` too). The site writes the option it took
into ``info[FORCED]`` (NO_OPTION until then), so that the driver can tell a decision that was
reached from one the seat never met (he passed, the deal ended at a declaration) and record
the card or choice the option stood for.

Decision numbers are the search's (:mod:`.codes`: PHASE_* before the play, REDEAL_DECISION,
CARD_DECISION + t, dave numbers); the options, as the driver numbers them:

* a card (CARD_DECISION + t): j, the j-th card (ascending ids) of the seat's hand at that
  card; not open (:data:`UNOPENED`) where the seat holds fewer or the card is not legal (R6);
* R4.3's trump card (PHASE_TRUMP; duel-trump's card too): DECLINE keeps the hand (not open
  where he must take it), j gives up the j-th card of his hand for the trump card;
* modern's redeal (REDEAL_DECISION): 0 keep, 1 demand a new dealing;
* duel's dave (its dave numbers): 0 no offer / 1 offer; 0 decline / 1 accept.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..policies import FORCE_DECISION, FORCE_OPTION
from .bits import has, nth_card, popcount
from .codes import NO_OPTION
from .state import FORCED

UNOPENED = -4  # play_from's result where a forced card is not open to the seat (the deal's status: UNAVAILABLE)


@njit(cache=True, _nrt=False, inline="always")
def forced_option(params, seat, decision, info):
    """The option a branch imposes on ``seat``'s ``decision`` (int), or NO_OPTION: his row names that
    decision and nothing was forced yet this deal (``info[FORCED]``: a decision met twice, as a
    modern seat's redeal question after a redeal, is forced the first time)."""
    if params[seat, FORCE_DECISION] == decision and info[FORCED] == NO_OPTION:
        return np.int64(params[seat, FORCE_OPTION])
    return np.int64(NO_OPTION)


@njit(cache=True, _nrt=False, inline="always")
def branch_card(params, seat, decision, info, hand, legal):
    """The card a branch imposes on ``seat`` at card ``decision`` (the j-th of ``hand``, taken and
    written into ``info[FORCED]``), UNOPENED where it is not in ``legal``, -1 where nothing is forced."""
    j = forced_option(params, seat, decision, info)
    if j == NO_OPTION:
        return -1
    if j < 0 or j >= popcount(hand):
        return UNOPENED
    card = nth_card(hand, j)
    if not has(legal, card):
        return UNOPENED
    info[FORCED] = card
    return card


@njit(cache=True, _nrt=False, inline="always")
def took(info, option):
    """Record ``option`` as the forced decision's, taken; returns it."""
    info[FORCED] = option
    return option
