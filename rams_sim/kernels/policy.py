"""Decisions of the built-in policies in classic Rams (``rams_sim.policies`` describes them in words).

The decisions the other games of R9 add (duel's widow and dave, modern's redeal and
turn, zone's swap and play) are in their game modules (:mod:`rams_sim.kernels.games`),
built on the hand values here.

Every function takes the seat's policy ``kind`` (int), the table's ``params``
(float64[n_seats, P]) with the ``seat`` whose row applies, the stream states ``rng``
(uint64[K, 4]; the seat's coins are row ``seat + 1``) and what the player may know, and
returns a decision. Cards are ids, card sets uint64 masks. Arrays are indexed, never
sliced, so hot loops take no references.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import ACE, HAND_SIZE, JACK, KING, N_SUITS, RANKS_PER_SUIT, SUIT_MASKS
from ..policies import (
    B_HIGH_TRUMP_BONUS,
    B_HIGH_TRUMP_RANK,
    B_INTENT_THRESHOLD,
    B_KEEP_KINGS,
    B_KEEP_TRUMP_RANK,
    B_KING_WEIGHT,
    B_PASS_THRESHOLD,
    B_RAMS_DRAW,
    B_TRUMP_WEIGHT,
    FIRST_CARD,
    G_RAMS_LENGTH,
    TABLE_BASE,
    TAKE_TRUMP,
    X_INTENT_WEIGHT,
    X_READ_INTENTS,
    X_VOID_WEIGHT,
    PolicyKind,
)
from ..strategy_table import (
    CODE_LOW,
    CODE_PLAIN,
    MAX_ACES,
    MAX_LONGEST,
    MAX_TRUMPS,
    MIN_LONGEST,
    N_CLASSES,
    PASS_FLAG,
    TOP_HIGH,
    TOP_LOW,
    TOP_MID,
    TOP_NONE,
)
from .bits import (
    ACE_CARDS,
    KINGS,
    ONE,
    RANK_MASKS,
    ZERO,
    above,
    bit,
    has,
    highest,
    jack_kind,
    longest_suit,
    lowest,
    nth_card,
    pair_jacks,
    popcount,
    rams_suit,
    rank_of,
    suit_of,
)
from .codes import INTENT_SUITS, INTENT_TRUMPS
from .rng import bounded
from .state import DISCARDS, HAND, TRUMP_DISCARD, holds_trump_card
from .trick import winning_over

RANDOM = int(PolicyKind.RANDOM)
BASIC = int(PolicyKind.BASIC)
CAUTIOUS = int(PolicyKind.CAUTIOUS)
GREEDY = int(PolicyKind.GREEDY)
EXPERT = int(PolicyKind.EXPERT)
PIMC = int(PolicyKind.PIMC)  # its cards come from kernels/pimc.py; its other decisions are basic-like
TABLE = int(PolicyKind.TABLE)  # expert, but its pass and exchange come from its strategy table

KEEP_ACE = 100.0  # basic's keep values (policies.py)
KEEP_TRUMP = 50.0
KEEP_PAIR_JACK = 40.0
KEEP_KING = 30.0
RANK_BITS = np.uint64((1 << RANKS_PER_SUIT) - 1)  # the ranks of one suit, shifted to bit 0


@njit(cache=True, _nrt=False)
def uses_coins(kind):
    """Whether a policy kind draws from its stream (its stream is seeded only then)."""
    return kind == RANDOM


@njit(cache=True, _nrt=False, inline="always")
def uses_threats(kind):
    """Whether a policy kind reads its threats when it plays (they are computed only then)."""
    return kind == CAUTIOUS or kind == EXPERT or kind == TABLE


@njit(cache=True, _nrt=False, inline="always")
def reads_intents(kind, params, seat):
    """Whether a seat's policy reads the others' R4.0a announcements when it plays (expert, unless switched off)."""
    return (kind == EXPERT or kind == TABLE) and params[seat, X_READ_INTENTS] != 0.0


@njit(cache=True, _nrt=False)
def _random_card(mask, rng, row):
    """A uniform card of ``mask``, drawing only when there is a choice."""
    count = popcount(mask)
    if count < 2:
        return lowest(mask)
    return nth_card(mask, bounded(rng, row, count))


@njit(cache=True, _nrt=False)
def _rank(card):
    return rank_of(card)


@njit(cache=True, _nrt=False)
def _ranks(mask):
    """The ranks present in ``mask``, any suit: bit r set for rank r."""
    out = ZERO
    for suit in range(N_SUITS):
        out |= (mask >> np.uint64(suit * RANKS_PER_SUIT)) & RANK_BITS
    return out


@njit(cache=True, _nrt=False)
def _lowest_suit_card(mask, rank):
    """The card of ``rank`` in ``mask`` of the lowest suit (the lowest id), or -1."""
    cards = mask & RANK_MASKS[rank]
    if cards == ZERO:
        return -1
    return lowest(cards)


@njit(cache=True, _nrt=False)
def lowest_ranked(mask):
    """The card of lowest rank in ``mask`` (ties: lower id, i.e. lower suit); -1 if empty."""
    ranks = _ranks(mask)
    if ranks == ZERO:
        return -1
    return _lowest_suit_card(mask, lowest(ranks))


@njit(cache=True, _nrt=False)
def highest_ranked(mask):
    """The card of highest rank in ``mask`` (ties: lower id); -1 if empty."""
    ranks = _ranks(mask)
    if ranks == ZERO:
        return -1
    return _lowest_suit_card(mask, highest(ranks))


@njit(cache=True, _nrt=False)
def _cheapest(mask, trump):
    """The cheapest card by (trump, rank, id): a plain card of lowest rank, else the lowest trump.

    Written without a branch on the cards (a select, then masks): the plain cards if any,
    else the trumps (one suit, whose lowest rank is its lowest id); of those, the lowest id
    among the cards of the lowest rank (64 for an empty ``mask``, as ``lowest``)."""
    plain = mask & ~SUIT_MASKS[trump]
    cards = plain if plain != ZERO else mask
    return lowest(cards & RANK_MASKS[min(lowest(_ranks(cards)), RANKS_PER_SUIT - 1)])


@njit(cache=True, _nrt=False, inline="always")
def _trump_strength(hand, trump, params, seat):
    """basic: the trumps of the strength, weighted (trump_weight, plus high_trump_bonus for a high one)."""
    total = 0.0
    trumps = hand & SUIT_MASKS[trump]
    m = trumps
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
        total += params[seat, B_TRUMP_WEIGHT]
        if _rank(card) >= params[seat, B_HIGH_TRUMP_RANK]:
            total += params[seat, B_HIGH_TRUMP_BONUS]
    return total


@njit(cache=True, _nrt=False, inline="always")
def _strength(hand, trump, params, seat):
    """basic: trumps, high trumps and plain kings, weighted."""
    total = _trump_strength(hand, trump, params, seat)
    for _ in range(popcount(hand & KINGS & ~SUIT_MASKS[trump])):  # one addition per plain king, as the weights sum
        total += params[seat, B_KING_WEIGHT]
    return total


@njit(cache=True, _nrt=False, inline="always")
def keep_value(card, hand, trump, params, seat):
    """basic: how much a card is worth keeping (ace 100, trump 50 + rank, ...)."""
    if _rank(card) == ACE:
        return KEEP_ACE
    if suit_of(card) == trump:
        return KEEP_TRUMP + _rank(card)
    if has(pair_jacks(hand), card):
        return KEEP_PAIR_JACK
    if _rank(card) == KING and params[seat, B_KEEP_KINGS] != 0.0:
        return KEEP_KING
    return float(_rank(card))


@njit(cache=True, _nrt=False)
def _least_kept(mask, hand, trump, params, seat):
    """The card of ``mask`` (a subset of ``hand``) with the least keep value (ties: lower id); -1 if empty.

    :func:`keep_value`'s classes never overlap in value (plain cards by rank <= 11 < kept
    kings 30 < pair jacks 40 < trumps 50 + rank < aces 100), so the least card is the
    first class present, and within it the lowest rank, then the lowest id: masks and
    one pick, not a value per card (the dealer's R4.3 choice asks this every deal)."""
    trumps = SUIT_MASKS[trump]
    aces = mask & ACE_CARDS
    trump_cards = mask & trumps & ~ACE_CARDS
    jacks = mask & pair_jacks(hand) & ~trumps
    kings = mask & KINGS & ~trumps if params[seat, B_KEEP_KINGS] != 0.0 else ZERO
    plain = mask & ~(aces | trump_cards | jacks | kings)
    if plain != ZERO:
        return lowest_ranked(plain)
    # the other classes are each of one rank or one suit: the lowest id is the least
    if kings != ZERO:
        return lowest(kings)
    if jacks != ZERO:
        return lowest(jacks)
    if trump_cards != ZERO:
        return lowest(trump_cards)
    return lowest(aces) if aces != ZERO else -1


least_kept = _least_kept  # the least-kept card of a set (inference's discards beyond the policy's own)


# ---- R4: pass or play ------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def wants_pass(kind, params, seat, rng, hand, trump, position):
    """Whether a seat allowed to pass (R4.1) passes with ``hand``; ``position`` 0 .. n-1 is
    his place in the round (0 left of the dealer, n-1 the dealer; read by table only)."""
    if kind == RANDOM:
        return bounded(rng, seat + 1, 2) == 1
    if kind == TABLE:
        return table_cell(params, seat, hand, trump, position) >= PASS_FLAG
    return _strength(hand, trump, params, seat) < params[seat, B_PASS_THRESHOLD] and jack_kind(hand) == 0


# ---- R4.0a: the announcement -------------------------------------------------------
@njit(cache=True, _nrt=False)
def choose_intent(kind, params, seat, rng, hand, trump):
    """R4.0a: INTENT_TRUMPS ("on trumps") or INTENT_SUITS ("on suits") for a seat that plays."""
    if kind == RANDOM:
        return INTENT_SUITS if bounded(rng, seat + 1, 2) == 1 else INTENT_TRUMPS
    if _trump_strength(hand, trump, params, seat) >= params[seat, B_INTENT_THRESHOLD]:
        return INTENT_TRUMPS
    return INTENT_SUITS


# ---- R4: the exchange -----------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def choose_discards(kind, params, seat, rng, hand, trump, talon_size, is_dealer, position):
    """The discard set (uint64, empty = stand) of a seat that plays; at most ``talon_size`` cards
    (``position`` as in :func:`wants_pass`)."""
    if kind == RANDOM:
        return _random_discards(rng, seat + 1, hand, talon_size)
    if kind == TABLE:
        return _table_discards(table_cell(params, seat, hand, trump, position) % PASS_FLAG, hand, trump, talon_size)
    if kind == GREEDY:
        return _greedy_discards(params, seat, hand, trump, talon_size, is_dealer)
    return _basic_discards(params, seat, hand, trump, talon_size, is_dealer)


@njit(cache=True, _nrt=False)
def _random_discards(rng, row, hand, talon_size):
    count = 0
    for m in range(1 << HAND_SIZE):
        if popcount(m) <= talon_size:
            count += 1
    pick = bounded(rng, row, count) if count >= 2 else 0
    for m in range(1 << HAND_SIZE):
        if popcount(m) <= talon_size:
            if pick == 0:
                out = ZERO
                for j in range(HAND_SIZE):
                    if m >> j & 1:
                        out |= bit(nth_card(hand, j))
                return out
            pick -= 1
    return ZERO


@njit(cache=True, _nrt=False, inline="always")
def _ranks_at_least(threshold):
    """Bit r set for each rank r (0 = deuce .. 12 = ace) with ``r >= threshold`` (a finite float
    parameter): the ranks from ceil(threshold), clamped to 0 .. 13, up (no loop over the ranks)."""
    first = min(max(np.ceil(threshold), 0.0), float(RANKS_PER_SUIT))
    return RANK_BITS & ~((ONE << np.uint64(first)) - ONE)


@njit(cache=True, _nrt=False, inline="always")
def _basic_discards(params, seat, hand, trump, talon_size, is_dealer):
    if rams_suit(hand) >= 0:
        return ZERO  # a rams stands
    if params[seat, B_RAMS_DRAW] != 0.0:
        for suit in range(N_SUITS):
            if popcount(hand & SUIT_MASKS[suit]) == HAND_SIZE - 1:
                odd = hand & ~SUIT_MASKS[suit]
                if is_dealer and suit == trump:
                    return ZERO  # R4.3: the trump card completes the rams
                if _rank(lowest(odd)) != ACE and talon_size >= 1:
                    return odd
                break
    trumps = SUIT_MASKS[trump]
    keep = pair_jacks(hand) | (hand & ACE_CARDS)
    keep |= hand & trumps & (_ranks_at_least(params[seat, B_KEEP_TRUMP_RANK]) << np.uint64(trump * RANKS_PER_SUIT))
    if params[seat, B_KEEP_KINGS] != 0.0:
        keep |= hand & KINGS & ~trumps
    return _at_most(hand & ~keep, hand, trump, params, seat, talon_size)


@njit(cache=True, _nrt=False, inline="always")
def _at_most(candidates, hand, trump, params, seat, talon_size):
    """``candidates``, or on a short talon (R4.4) the ``talon_size`` of least keep value."""
    if popcount(candidates) <= talon_size:
        return candidates
    out = ZERO
    for _ in range(talon_size):
        card = _least_kept(candidates, hand, trump, params, seat)
        out |= bit(card)
        candidates &= ~bit(card)
    return out


@njit(cache=True, _nrt=False)
def _greedy_discards(params, seat, hand, trump, talon_size, is_dealer):
    """greedy: a rams stands; with rams_length+ of one suit keep it and the aces; else basic."""
    if rams_suit(hand) >= 0:
        return ZERO
    longest = longest_suit(hand)
    if longest < params[seat, G_RAMS_LENGTH]:
        return _basic_discards(params, seat, hand, trump, talon_size, is_dealer)
    keep_suit = trump
    if popcount(hand & SUIT_MASKS[trump]) != longest:
        keep_suit = 0
        while popcount(hand & SUIT_MASKS[keep_suit]) != longest:
            keep_suit += 1
    return _at_most(hand & ~SUIT_MASKS[keep_suit] & ~ACE_CARDS, hand, trump, params, seat, talon_size)


# ---- the table policy (rams_sim.strategy_table) -------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def hand_class(hand, trump):
    """The strategy table's class index of ``hand`` with trump suit ``trump`` (strategy_table.class_index)."""
    aces = min(popcount(hand & ACE_CARDS), MAX_ACES)
    trumps = hand & SUIT_MASKS[trump]
    n_trumps = min(popcount(trumps), MAX_TRUMPS)
    top = TOP_NONE
    if trumps != ZERO:
        rank = _rank(highest(trumps))
        top = TOP_HIGH if rank >= KING else (TOP_MID if rank >= JACK else TOP_LOW)
    pair = 1 if jack_kind(hand) > 0 else 0
    longest = min(max(longest_suit(hand), MIN_LONGEST), MAX_LONGEST)
    return (((aces * 4 + n_trumps) * 4 + top) * 2 + pair) * 3 + (longest - MIN_LONGEST)


@njit(cache=True, _nrt=False, inline="always")
def table_cell(params, seat, hand, trump, position):
    """The table seat's cell for ``hand`` at ``position``: play code, plus PASS_FLAG if it passes."""
    return int(params[seat, TABLE_BASE + position * N_CLASSES + hand_class(hand, trump)])


@njit(cache=True, _nrt=False, inline="always")
def weakness(card, trump):
    """The order of "weakest first" (strategy_table): plain non-aces by rank, then plain aces,
    then trumps by rank; ties by card id. Smaller is weaker."""
    rank = rank_of(card)
    return ((suit_of(card) == trump) * 2 + (rank == ACE)) * 1000 + rank * 64 + card


@njit(cache=True, _nrt=False)
def weakest(hand, trump, k):
    """The ``k`` weakest cards of ``hand`` (uint64 mask; all of them if it holds fewer)."""
    out = ZERO
    for _ in range(k):
        rest = hand & ~out
        if rest == ZERO:
            break
        pick = lowest(rest)
        m = rest & (rest - ONE)
        while m != ZERO:
            card = lowest(m)
            if weakness(card, trump) < weakness(pick, trump):
                pick = card
            m &= m - ONE
        out |= bit(pick)
    return out


@njit(cache=True, _nrt=False)
def _table_discards(play, hand, trump, talon_size):
    """The discards of table play code ``play``: x<k> the k weakest, low every plain card below a
    king, plain every plain card but aces; on a short talon the talon-size weakest of them (R4.4)."""
    if play == CODE_LOW or play == CODE_PLAIN:
        plain = hand & ~SUIT_MASKS[trump] & ~ACE_CARDS
        if play == CODE_LOW:
            plain &= ~KINGS
        k = popcount(plain)
    else:
        k = play
    return weakest(hand, trump, min(k, talon_size))


# ---- R4.3: the dealer and the trump card ----------------------------------------
@njit(cache=True, _nrt=False)
def trump_exchange(kind, params, seat, rng, hand, trump_card, forced):
    """R4.3: the card a playing dealer gives up for the trump card, or -1 to keep his hand.

    ``forced``: he must take it (dealer_takes_trump=must, or a turned-up ace that binds
    him), so only the card to give up is his choice. Where he may choose, the seat's
    ``take_trump`` probe (policies.py; -1 off) takes it (1) or keeps his hand (0) instead of
    his policy. random: a coin to take (unless forced or probed), then a uniform card.
    basic-like: a rams keeps its hand; with four trumps he takes it and gives up the odd
    card; else he takes it iff the trump card's keep value beats that of his least-kept
    card, which he gives up.
    """
    probe = params[seat, TAKE_TRUMP]
    if not forced and probe == 0.0:
        return -1
    if probe == 1.0:
        forced = True  # he takes it; the card he gives up stays his policy's
    if kind == RANDOM:
        if not forced and bounded(rng, seat + 1, 2) != 1:
            return -1
        return nth_card(hand, bounded(rng, seat + 1, HAND_SIZE))
    trump = suit_of(trump_card)
    if not forced and rams_suit(hand) >= 0:
        return -1
    if popcount(hand & SUIT_MASKS[trump]) == HAND_SIZE - 1:
        return lowest(hand & ~SUIT_MASKS[trump])
    least = _least_kept(hand, hand, trump, params, seat)
    if not forced and not keep_value(trump_card, hand, trump, params, seat) > keep_value(least, hand, trump, params, seat):
        return -1
    return least


# ---- R6: the card to play -----------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def probed_card(params, seat, legal):
    """The seat's ``first_card`` probe (policies.py) for his first card of the deal: the j-th card
    of ``legal`` in ascending id order, the highest if he has j or fewer; -1 if the probe is off."""
    j = params[seat, FIRST_CARD]
    if j < 0.0:
        return -1
    return nth_card(legal, min(int(j), popcount(legal) - 1))


@njit(cache=True, _nrt=False, inline="always")
def choose_card(kind, params, seat, rng, legal, best, n_trick, trump, my_tricks, threats, remaining, trumps_behind):
    """The card to play from the ``legal`` mask to a trick of ``n_trick`` cards, ``best`` the card
    winning it so far (R6.4; ignored on the lead: the play loop keeps it as the cards fall).

    ``threats``: the cards an opponent may hold, as the seat can tell (policies.py; left
    empty for the kinds that do not read them, see :func:`uses_threats`);
    ``remaining``: active seats still to play to this trick after him; ``trumps_behind``:
    one of them announced "on trumps" (R4.0a; False for the kinds that do not read the
    announcements, see :func:`reads_intents`).
    """
    if kind == RANDOM:
        return _random_card(legal, rng, seat + 1)
    if popcount(legal) == 1:
        return lowest(legal)
    if kind == GREEDY:
        return _greedy_card(legal, best, n_trick, trump)
    if kind == EXPERT or kind == TABLE:
        trump_weight = params[seat, X_INTENT_WEIGHT] if trumps_behind else 1.0
        void_weight = params[seat, X_VOID_WEIGHT]
        return _expert_card(legal, best, n_trick, trump, my_tricks, threats, remaining, void_weight, trump_weight)
    if kind == CAUTIOUS and my_tricks == 0:
        win = legal if n_trick == 0 else winning_over(legal, best, trump)
        if win == ZERO:
            return _cheapest(legal, trump)
        return _least_risk(win, trump, threats, remaining, params[seat, X_VOID_WEIGHT], 1.0)
    return _basic_card(legal, best, n_trick, trump, my_tricks)


@njit(cache=True, _nrt=False, inline="always")
def _basic_card(legal, best, n_trick, trump, my_tricks):
    """basic: lead a plain ace, or with no trick the highest trump / highest card, else the cheapest;
    follow with the cheapest winner, else the cheapest card."""
    trumps = SUIT_MASKS[trump]
    if n_trick == 0:
        plain_aces = legal & ACE_CARDS & ~trumps
        if plain_aces != ZERO:
            return lowest(plain_aces)
        if my_tricks == 0:
            if legal & trumps:
                return highest(legal & trumps)
            return highest_ranked(legal)
        return _cheapest(legal, trump)
    win = winning_over(legal, best, trump)
    return _cheapest(win if win != ZERO else legal, trump)  # the cheapest winner, else the cheapest card


@njit(cache=True, _nrt=False)
def _greedy_card(legal, best, n_trick, trump):
    """greedy: lead the highest trump, else the highest-ranked card; follow as basic."""
    if n_trick == 0:
        trumps = legal & SUIT_MASKS[trump]
        if trumps != ZERO:
            return highest(trumps)
        return highest_ranked(legal)
    win = winning_over(legal, best, trump)
    if win != ZERO:
        return _cheapest(win, trump)
    return _cheapest(legal, trump)


@njit(cache=True, _nrt=False, inline="always")
def _beaters(card, trump, threats):
    """(threats of ``card``'s suit above it, threat trumps if ``card`` is plain)."""
    higher = popcount(threats & above(card))
    trumps = 0
    if suit_of(card) != trump:
        trumps = popcount(threats & SUIT_MASKS[trump])
    return higher, trumps


@njit(cache=True, _nrt=False, inline="always")
def _sure(mask, trump, threats, remaining):
    """The cards of ``mask`` no threat can beat in this trick (all of them if nobody follows)."""
    if remaining == 0:
        return mask
    out = ZERO
    m = mask
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
        higher, trumps = _beaters(card, trump, threats)
        if higher == 0 and trumps == 0:
            out |= bit(card)
    return out


@njit(cache=True, _nrt=False, inline="always")
def _cheap_key(card, trump):
    """The cheapness order (trump, rank, id) as one integer."""
    is_trump = 1 if suit_of(card) == trump else 0
    return (is_trump * RANKS_PER_SUIT + _rank(card)) * 64 + card


@njit(cache=True, _nrt=False)
def _least_risk(mask, trump, threats, remaining, void_weight, trump_weight):
    """The card of ``mask`` with the least risk (higher threats + void_weight x threat trumps;
    a trump card's higher threats count ``trump_weight`` times); ties: the cheapest. Risk is 0
    when nobody plays after."""
    best = -1
    best_risk = 0.0
    best_key = 0
    m = mask
    while m != ZERO:
        card = lowest(m)
        m &= m - ONE
        risk = 0.0
        if remaining > 0:
            higher, trumps = _beaters(card, trump, threats)
            if suit_of(card) == trump:
                risk = higher * trump_weight  # R4.0a: expert's reading of an "on trumps" behind
            else:
                risk = higher + void_weight * trumps
        key = _cheap_key(card, trump)
        if best < 0 or risk < best_risk or (risk == best_risk and key < best_key):
            best, best_risk, best_key = card, risk, key
    return best


@njit(cache=True, _nrt=False)
def _expert_card(legal, best, n_trick, trump, my_tricks, threats, remaining, void_weight, trump_weight):
    """expert: sure cards first; the least risky while trickless; duck what cannot win.

    ``trump_weight``: how many times a trump card's higher threats count (``intent_weight``
    when a seat still to play said "on trumps" and the expert reads the announcements, else 1).
    """
    if n_trick == 0:
        sure = _sure(legal, trump, threats, remaining)
        if sure != ZERO:
            return _cheapest(sure, trump)
        if my_tricks == 0:
            return _least_risk(legal, trump, threats, remaining, void_weight, trump_weight)
        plain = legal & ~SUIT_MASKS[trump]
        if plain != ZERO:
            return lowest_ranked(plain)
        return lowest(legal)
    win = winning_over(legal, best, trump)
    if win == ZERO:
        return _cheapest(legal, trump)
    if remaining == 0:
        return _cheapest(win, trump)
    sure = _sure(win, trump, threats, remaining)
    if sure != ZERO:
        return _cheapest(sure, trump)
    if my_tricks == 0:
        return _least_risk(win, trump, threats, remaining, void_weight, trump_weight)
    return _cheapest(win, trump)


@njit(cache=True, _nrt=False, inline="always")
def threats_of(seat, dealer, deck_mask, trump_card, played, cardsets, st):
    """The cards an opponent of ``seat`` may hold, as he can tell (policies.py): uint64 mask.

    The deck less his hand, the cards ``played`` (a mask: finished tricks and this one),
    his discards and the card he gave up for the trump card, and the turned-up trump card
    unless the dealer, another seat, holds it: he took it (R4.3), or it is his own dealt card
    (modern; still a threat once he may have laid it aside with the widow's discard). Reads
    only ``seat``'s own rows and the dealer's public flags (:func:`..state.holds_trump_card`).
    """
    seen = cardsets[HAND, seat] | played | cardsets[DISCARDS, seat]
    if st[TRUMP_DISCARD, seat] >= 0:
        seen |= bit(st[TRUMP_DISCARD, seat])
    if not holds_trump_card(st, dealer) or seat == dealer:
        seen |= bit(trump_card)
    return deck_mask & ~seen
