"""Dave, the doubling of R9 ``duel`` ([000] Variant 2; docs/VARIANTS.md "duel and duel-trump").

Before each card he plays, a seat may offer to double the party's stake; the other accepts
(the stake doubles and he owns the cube, as in backgammon) or declines and loses the party
at the stake before it. :func:`rams_sim.kernels.game.play_tricks` asks :func:`dave_turn`
before every card when option ``dave`` is on. The stake and the cube are ``info[STAKE]``
and ``info[CUBE]``, kept across the deals of a party by the drivers.
"""

from __future__ import annotations

from numba import njit

from ..cards import ACE, N_SUITS, RANKS_PER_SUIT
from .bits import card_of, has
from .policy import RANDOM, dave_estimate, offers_dave, takes_dave, threats_of
from .state import ACES, CUBE, DAVE, HAND, STAKE, TRICKS


@njit(cache=True, _nrt=False, inline="always")
def _least_possible_ace(r, seat, dealer, trump_card, played, cardsets, st):
    """The least value of an ace the opponent of ``seat`` may hold (one of his threats), or 0."""
    threats = threats_of(seat, dealer, r.deck_mask, trump_card, played, cardsets, st)
    least = -1
    for suit in range(N_SUITS):
        if has(threats, card_of(suit, ACE)) and (least < 0 or r.ace_value[suit] < least):
            least = r.ace_value[suit]
    return max(least, 0)


@njit(cache=True, _nrt=False, inline="always")
def dave_turn(r, kinds, params, rng, cardsets, st, info, scores, seat, leading, trump_card, dealer, played):
    """Before ``seat`` plays a card: may he offer dave, does he, does the other accept?
    Returns True when the offer was declined (the party ends, ``seat`` wins).

    The estimates (policies.py): the opponent's aces count 0 for an offer from a centred
    cube, else the least value of an ace he may hold."""
    if r.dave == 0 or info[STAKE] * 2 > r.dave_max:
        return False
    if r.dave_lead_only != 0 and not leading:
        return False
    if info[CUBE] >= 0 and info[CUBE] != seat:
        return False
    trump = trump_card // RANKS_PER_SUIT
    other = 1 - seat
    p = 0.0
    if kinds[seat] != RANDOM:
        guess = 0 if info[CUBE] < 0 else _least_possible_ace(r, seat, dealer, trump_card, played, cardsets, st)
        p = dave_estimate(kinds[seat], params, seat, cardsets[HAND, seat], trump, scores[seat], st[TRICKS, seat],
                          st[ACES, seat], scores[other], st[TRICKS, other], guess)  # fmt: skip
    if not offers_dave(kinds[seat], params, seat, rng, p):
        return False
    st[DAVE, seat] += 1
    q = 0.0
    if kinds[other] != RANDOM:
        guess = _least_possible_ace(r, other, dealer, trump_card, played, cardsets, st)
        q = dave_estimate(kinds[other], params, other, cardsets[HAND, other], trump, scores[other], st[TRICKS, other],
                          st[ACES, other], scores[seat], st[TRICKS, seat], guess)  # fmt: skip
    if takes_dave(kinds[other], params, other, rng, q):
        info[STAKE] *= 2
        info[CUBE] = other
        return False
    return True
