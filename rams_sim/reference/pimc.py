"""Policy ``pimc``: a searching seat's decisions and cards, by determinized search (docs/SEARCH.md).

In classic Rams (R9 ``rams`` and the presets that only change its options) a ``pimc``
seat searches every decision it takes: pass or play and its discards (R4.0-R4.4), its
purchase in the buying round and its R4.0a announcement where the rules have them, the
dealer's R4.3 card (:func:`search_decision`, the hook of :func:`.exchange.exchange_from`
and :func:`.exchange.dealer_trump`) and each card (:func:`search_card`, the hook of
:func:`.play.play_from`). At each one:

1. a single open option is taken at once (no world is drawn);
2. what the seat knows becomes *piles* (:func:`what_seat_knows` at a card,
   :func:`what_seat_knows_before_play` before the play): its own cards, the trump card and
   whether the dealer took it (R4.3), who passed and how many cards each seat exchanged,
   the announcements and jack points, every card played and by whom, and what the rules
   let it deduce (:func:`shown_not_held`, :func:`undeclared_jacks`); each other seat's
   hand is a pile, the passers' hands share one where an ace forbids a pass (R4.1), and a
   free pile takes the rest (the talon left, the others' discards);
3. ``samples`` worlds are drawn uniformly among the layouts of the unseen cards into those
   piles (:class:`Worlds`, on the layout sampler :mod:`rams_sim.kernels.worlds`, which the
   reference shares with the kernels as it shares the random streams: combinatorics, no
   rule), keyed by (deal key, seat, decision);
4. in every world, each option is taken and the rest of the deal played with the
   ``rollout`` policy (its default parameters) at every seat and scored (R7, R8.2-R8.3):
   from the card (:func:`.play.play_from`) or from the exchange step
   (:func:`.games.classic.deal_from`); the seat's deltas are summed by option;
5. the option of the least total is taken (R7: a delta counts down, the least is the
   best; ties: the first option -- the lowest card; pass, stand, the discard masks
   ascending; decline, the cards ascending).

The draws follow docs/ENGINE.md §1 and §8a: the worlds of decision ``d`` (the phase before
the play, ``8 + t`` at a card of trick ``t``) are drawn from stream ``64 + 16 seat + d`` of
the deal's key, each one a layout, then one shuffle of the free pile, then (before the
play) which cards each other seat drew; world ``j``'s rollouts take their coins from the
key ``mix64(key ^ SAMPLE_SALT ^ (16 seat + e) * GOLDEN ^ (j + 1))`` with ``e`` the phase,
or ``t`` at a card, stream ``s + 1`` for seat ``s``, afresh for every option tried.

At a card, a world is kept with the chance :func:`declarations_fit` gives it by what the
declarations and the running scores showed (the piles cannot say it: no rams or four aces,
the jacks declared, nobody who announces at zero), else drawn again, layout and shuffle, up
to :data:`rams_sim.kernels.worlds.MAX_DRAWS` times (:func:`draw_world`).

Where the dealt hand counts, a world is kept with the share of the ways its players may have
drawn their cards that fit (:func:`dealt_kind_ways`); under every option, with the share of
the ways to deal the passers' hands from the cards they are among that give each passer the
jacks he declared (:func:`passers_kind_ways`: the passers share one pile, so the piles place
a passer's jacks only where their colour is settled, :func:`declared_jacks`).
"""

from __future__ import annotations

import copy
import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from .. import cards as C
from ..kernels.rng import GOLDEN, STATE_WORDS, bounded, mix64, seed_stream
from ..kernels.worlds import (
    MAX_DRAWS,
    MAX_PAIRS,
    MAX_PILES,
    count_layouts,
    draw_layout,
    n_states_of,
    new_tables,
    order_cards,
    uniform01,
)
from ..policies import RACE_BATCH, RACE_MIN, PolicyKind, PolicySpec
from ..record import Declaration, Intent
from ..rules import JacksCount
from .bits import FOUR_JACKS_KIND, JACK_PAIRS, RANK, SUIT, TRUMP_HONOURS, jack_kind, mask_of, rams_suit
from .declare import holds_four_aces
from .exchange import DECLINE, PASS, PHASE_INTENT, PHASE_ROUND, PHASE_TRUMP, may_pass, must_take_trump
from .inference import draw_cards, draw_world_with_history
from .play import PlayState, play_from, play_order
from .policy import policy_for
from .score import ace_total
from .trick import would_win

# ---- the search's random streams (docs/ENGINE.md §1) ---------------------------------------
SEARCH_STREAM = 64  # the search's streams of the deal key start here (0 shuffles, 1-7 are the coins)
DECISIONS = 16  # stream numbers per seat: the phase before the play (0-3), 8 + t at a card of trick t
CARD_DECISION = 8
DECLARED_JACKS = (int(Declaration.JACK_PAIR), int(Declaration.FOUR_JACKS))  # R5.5: public declarations
SAMPLE_SALT = 0x50494D43  # "PIMC": salts the keys of the worlds' rollouts
U64 = (1 << 64) - 1  # the keys are 64-bit words: arithmetic wraps around
DRAW_ROW = C.MAX_SEATS + 1  # the row of the stream array the worlds are drawn from (as the kernels' scratch)

ACES = mask_of(C.card_id(suit, C.ACE) for suit in range(C.N_SUITS))
# the pairs of cards a pile may be shown not to hold together, in the sampler's order:
DEALER_DISCARDS = -2  # Pile.seat of the dealer's laid-aside cards, where his trump card may be (modern)
MARRIAGE, BLACK_PAIR, RED_PAIR = 0, 1, 2  # the trump K and Q (R6.6); the black, the red jacks (R5.5)
ALL_DISCARDS = range(1, 1 << C.HAND_SIZE)  # discard options: bit j discards the j-th card, ascending


def bit(card: int) -> int:
    """The mask (python int) of one card."""
    return 1 << card


def suit_cards(suit: int) -> int:
    """The mask of every card of ``suit`` (all 13 ranks; a mask is read against the deck)."""
    return mask_of(C.card_id(suit, rank) for rank in range(C.RANKS_PER_SUIT))


def popcount(mask: int) -> int:
    return mask.bit_count()


# ---- 2. what the seat knows ------------------------------------------------------------------
@dataclass
class Pile:
    """Where some unseen cards lie: ``cap`` of them, each one of ``allowed`` (a mask).

    ``seat``: whose hand it is, or -1 (the passers' hands, the free pile); ``pairs``: the
    pairs (MARRIAGE, BLACK_PAIR, RED_PAIR) the seat is shown not to hold both cards of."""

    seat: int
    cap: int
    allowed: int
    pairs: set[int] = field(default_factory=set)


@dataclass
class Knowledge:
    """What a seat knows of the unseen cards at one of its decisions.

    ``unknown``: the cards it has not seen (mask); ``piles``: where they lie, the other
    (active) seats clockwise from the seat, then the passers' pile if any, the free pile
    last; ``dealer_card``: the trump card, when the dealer (another seat) took it and has
    not played it yet (R4.3: it is in his hand), else None; ``pairs``: the cards of each
    pair constraint (MARRIAGE, BLACK_PAIR, RED_PAIR)."""

    unknown: int
    piles: list[Pile]
    dealer_card: int | None = None
    pairs: tuple[tuple[int, int], ...] = ()


def history(table, state: PlayState) -> list[list[tuple[int, int]]]:
    """Every card played so far, trick by trick: (seat, card) in play order, the
    trick under way (if started) last."""
    tricks = []
    for trick in table.plays[: state.t]:
        tricks.append([(o, trick.cards[o]) for o in play_order(table, trick.leader)])
    if state.trick:
        tricks.append(list(zip(state.players(table), state.trick)))
    return tricks


def played_by(table, state: PlayState, seat: int) -> list[int]:
    """The cards ``seat`` has played so far, this trick's included."""
    return [card for trick in history(table, state) for o, card in trick if o == seat]


def shown_not_held(table, state: PlayState, unknown: int, dealer_card) -> tuple[list[int], set[int]]:
    """What the play showed each seat does not hold: (a mask by seat, the seats shown not
    to hold both the trump K and Q while both are unseen).

    Following (R6.2-R6.7a): a card off the suit led shows a void in it, and a plain card
    then no trump either (a void must trump); with ``ruff=overtrump`` a trump under the
    best trump of the trick shows no trump above it (R6.3); with ``must_head`` a card that
    does not win shows no winning card of its suit when he had to play that suit (the suit
    led, or trumps when void, R6.3a); with ``ace_covers_face`` a trump other than the ace
    on a trump K, Q or J shows no trump ace (R6.7: the ace would have been legal).
    Leading: any lead but the trump ace shows no trump ace (R6.5); after his marriage K led
    and won, a lead but the Q shows no Q (R6.6); a lead of the Q shows no K (with both, the
    K leads first); a lead of neither shows not both: no Q when he played the K later (or,
    the dealer, holds it as the trump card), no K likewise, else the pair constraint.
    """
    book = table.book
    trump = table.trump
    ace, king, queen, jack = TRUMP_HONOURS[trump]
    trumps = suit_cards(trump)
    none = [0] * table.n
    pair_seats = set()
    tricks = history(table, state)
    for i, cards in enumerate(tricks):
        leader, led = cards[0]
        if led != ace:
            none[leader] |= bit(ace)  # R6.5
            prev = table.plays[i - 1] if i > 0 else None
            q_duty = prev is not None and prev.leader == leader and prev.winner == leader and prev.cards[leader] == king
            if q_duty:
                if led != queen:
                    none[leader] |= bit(queen)  # R6.6: the K won, the Q follows if held
            elif led == queen:
                none[leader] |= bit(king)  # R6.6: with K and Q the K leads
            elif led != king:
                # R6.6: he led neither, so he did not hold both; the cards he played from
                # this trick on (and the dealer's trump card) he held then
                held = {card for trick in tricks[i:] for o, card in trick if o == leader}
                if leader == table.dealer and dealer_card is not None:
                    held.add(dealer_card)
                if king in held:
                    none[leader] |= bit(queen)
                elif queen in held:
                    none[leader] |= bit(king)
                elif unknown & bit(king) and unknown & bit(queen):
                    pair_seats.add(leader)
        led_suit = SUIT[led]
        for j in range(1, len(cards)):
            o, card = cards[j]
            before = [c for _, c in cards[:j]]
            suit = SUIT[card]
            if suit != led_suit:
                none[o] |= suit_cards(led_suit)  # R6.2: void in the suit led
                if suit != trump:
                    none[o] |= trumps  # R6.2: a void must trump
                elif book.overtrump:
                    trumped = [c for c in before if SUIT[c] == trump]
                    if trumped and RANK[card] < max(RANK[c] for c in trumped):
                        best = max(trumped, key=lambda c: RANK[c])
                        none[o] |= mask_of(c for c in C.cards_of(trumps) if RANK[c] > RANK[best])  # R6.3
            if book.ace_covers_face and suit == trump and card != ace and {king, queen, jack} & set(before):
                none[o] |= bit(ace)  # R6.7
            if book.must_head and suit in (led_suit, trump) and not would_win(trump, before, card):
                none[o] |= mask_of(c for c in C.cards_of(suit_cards(suit)) if would_win(trump, before, c))  # R6.3a
    return none, pair_seats


def held_at_lead(table, state: PlayState, o: int, dealer_card) -> list[int]:
    """The cards seat ``o`` is known to have held at the first lead: those he played, and (the
    dealer) the trump card he took, ``dealer_card`` (None if it is not known to be his)."""
    held = played_by(table, state, o)
    if o == table.dealer and dealer_card is not None:
        held = held + [dealer_card]
    return held


def undeclared_jacks(table, sheet, state: PlayState, seat: int, unknown: int, dealer_card, none) -> list[set[int]]:
    """R5.5: a seat that plays and declared no jacks (the declaration, not the points, which may
    be 0) held no same-colour jack pair in
    his hand at the first lead, where that hand counts (``jacks_count`` other than ``dealt``).

    For each such other seat and each colour: if he is known to have held one jack of the
    pair (he played it, or, the dealer, holds it as the trump card), the other is added to
    ``none`` (what he does not hold); else, while both jacks are unseen, he is shown not to
    hold both. Returns the seats so constrained, by colour (black, red)."""
    constrained = [set(), set()]
    if table.book.jacks_count == JacksCount.DEALT:
        return constrained  # his jack points come from his dealt hand: the hand in play shows nothing
    for o in range(table.n):
        if o == seat or table.passed[o] or sheet.declaration[o] in DECLARED_JACKS:
            continue
        held = set(held_at_lead(table, state, o, dealer_card))
        for colour, pair in enumerate(JACK_PAIRS):
            mine = held & set(pair)
            if mine:
                none[o] |= mask_of(set(pair) - mine)  # he held one: not the other
            elif unknown & mask_of(pair) == mask_of(pair):
                constrained[colour].add(o)
    return constrained


def declared_jacks(table, sheet, state: PlayState, seat: int, unknown: int, dealer_card, none, hidden: bool,
                   passers_pile: bool):  # fmt: skip
    """R5.5: the unseen jacks the declarations place with their declarers, passers included. Four
    jacks: all his. A pair: both jacks of one colour are his, and two declared pairs are of the
    two colours; so a colour only one declarer can hold (the other has a jack of it seen away
    from him) is his, the other colour the other's, and with two declared pairs every jack lies
    with the two. A player's lie in his hand under ``final``, else in his hand or his discards
    (the free pile); a passer's in his hand (his dealt hand counts), which is the passers' pile
    where there is one, else the free pile. Adds to the other seats' ``none``; returns (the
    jacks the free pile may not hold, those the passers' pile may not hold). Nothing when the
    dealer's trump card may be among his laid-aside cards (``hidden``). ``passers_pile``: the
    passers' hands form a pile of their own (:func:`what_seat_knows`)."""
    placed = []  # (jacks, the seats they lie with)
    if not hidden:
        jacks = mask_of(c for pair in JACK_PAIRS for c in pair) & unknown
        declarers = [o for o in range(table.n) if o != seat and sheet.declaration[o] in DECLARED_JACKS]
        four = [o for o in declarers if sheet.declaration[o] == int(Declaration.FOUR_JACKS)]
        pairs = [o for o in declarers if o not in four]

        def colours(o: int) -> list[int]:
            his = mask_of(held_at_lead(table, state, o, dealer_card))
            return [i for i, pair in enumerate(JACK_PAIRS) if all((his | unknown) & bit(c) for c in pair)]

        placed += [(jacks, {o}) for o in four]
        if len(pairs) == 1 and len(colours(pairs[0])) == 1:
            placed.append((mask_of(JACK_PAIRS[colours(pairs[0])[0]]) & unknown, {pairs[0]}))
        elif len(pairs) == 2:
            first, second = (colours(o) for o in pairs)
            if len(first) != 1 and len(second) != 1:
                placed.append((jacks, set(pairs)))  # which colour is whose is open
            else:
                owner, colour = (pairs[0], first[0]) if len(first) == 1 else (pairs[1], second[0])
                other = pairs[1] if owner == pairs[0] else pairs[0]
                placed.append((mask_of(JACK_PAIRS[colour]) & unknown, {owner}))
                placed.append((mask_of(JACK_PAIRS[1 - colour]) & unknown, {other}))
    not_free = not_passers = 0
    for cards, owners in placed:
        for o in range(table.n):
            if o not in owners:
                none[o] |= cards
        if not any(table.passed[o] for o in owners):
            not_passers |= cards
        if all(passers_pile if table.passed[o] else table.book.jacks_count == JacksCount.FINAL for o in owners):
            not_free |= cards
    return not_free, not_passers


def trump_hidden(table, seat: int, played: int) -> bool:
    """Whether ``seat`` cannot tell where the trump card is: the game says the dealer may have
    laid it aside (modern: it is his own card and he took the widow), it is not ``seat``'s,
    and it has not been played."""
    from .games import game_of  # the games import this module

    game = game_of(table.book.rules)
    return game.trump_maybe_discarded(table) and table.dealer != seat and not played & bit(table.trump_card)


def what_seat_knows(table, sheet, state: PlayState, seat: int) -> Knowledge:
    """The piles of the cards ``seat`` has not seen, at its card to trick ``state.t``.

    Reads the public table (who passed, who took the trump card, how many cards each seat
    discarded, the tricks played, the jacks declared) and the seat's own cards;
    never another seat's cards. Unseen: the deck less his hand, his discards and R4.3
    give-up card, the cards played and the trump card. Piles: each other active seat,
    clockwise from the seat, takes as many as he holds (five a trick, less the card he
    played to this trick and the trump card the dealer is known to hold), minus what the
    play and his jack points showed he does not hold (with the pair constraints); then,
    where an ace forbids a pass (R4.1) and an ace is unseen, the passers' five cards each,
    no ace among them; the free pile takes the rest (the talon left, the others' discards).
    """
    n = table.n
    played = mask_of(c for trick in history(table, state) for _, c in trick)
    dealer = table.dealer
    hidden = trump_hidden(table, seat, played)
    seen = mask_of(table.hand[seat]) | mask_of(table.discards[seat]) | played
    if not hidden:
        seen |= bit(table.trump_card)
    if table.trump_discard[seat] != C.NO_CARD:
        seen |= bit(table.trump_discard[seat])
    unknown = C.deck_mask(table.book.deck_size) & ~seen
    not_dealers = ~bit(table.trump_card) if hidden else -1  # a pile not the dealer's cannot hold his card
    dealer_card = None
    if table.holds_trump_card(dealer) and dealer != seat and not played & bit(table.trump_card) and not hidden:
        dealer_card = table.trump_card  # the dealer holds the trump card he took (R4.3) or was dealt (modern)
    none, marriage_seats = shown_not_held(table, state, unknown, dealer_card)
    black_seats, red_seats = undeclared_jacks(table, sheet, state, seat, unknown, dealer_card, none)
    passers = sum(1 for o in range(n) if table.passed[o] and o != seat)
    passers_pile = bool(table.book.ace_forbids_pass and passers and unknown & ACES)  # R4.1: a pile of no aces
    not_free, not_passers = declared_jacks(table, sheet, state, seat, unknown, dealer_card, none, hidden, passers_pile)
    piles = []
    in_trick = state.players(table)[: len(state.trick)]
    for step in range(1, n):
        o = (seat + step) % n
        if table.passed[o]:
            continue
        in_hand = C.N_TRICKS - state.t - (o in in_trick) - (o == dealer and dealer_card is not None)
        pairs = {pair for pair, seats in ((MARRIAGE, marriage_seats), (BLACK_PAIR, black_seats),
                                          (RED_PAIR, red_seats)) if o in seats}  # fmt: skip
        allowed = unknown & ~none[o] & (not_dealers if o != dealer else -1)
        piles.append(Pile(o, in_hand, allowed, pairs))
    if passers_pile:
        piles.append(Pile(C.NO_SEAT, C.HAND_SIZE * passers, unknown & ~ACES & not_dealers & ~not_passers))  # R4.1
    if hidden:  # the dealer's laid-aside cards: his trump card may be among them
        piles.append(Pile(DEALER_DISCARDS, len(table.discards[dealer]), unknown))
    piles.append(Pile(C.NO_SEAT, popcount(unknown) - sum(p.cap for p in piles), unknown & not_dealers & ~not_free))
    _, king, queen, _ = TRUMP_HONOURS[table.trump]
    return Knowledge(unknown, piles, dealer_card, ((king, queen),) + JACK_PAIRS)


def what_seat_knows_before_play(table, seat: int) -> Knowledge:
    """The piles of the cards ``seat`` has not seen, at a decision before the play (R4, R4.0a, R4.3).

    Unseen: the deck less his hand, his discards and the trump card. Piles: every other
    seat, clockwise from the seat, holds five unseen cards (a passer none of them an ace,
    where R4.1 forbids passing with one); the free pile takes the rest: the talon left and
    the others' discards. Reads who passed and how many cards each seat discarded; never
    another seat's cards.
    """
    seen = mask_of(table.hand[seat]) | mask_of(table.discards[seat]) | bit(table.trump_card)
    if table.trump_discard[seat] != C.NO_CARD:
        seen |= bit(table.trump_discard[seat])
    unknown = C.deck_mask(table.book.deck_size) & ~seen
    piles = []
    for step in range(1, table.n):
        o = (seat + step) % table.n
        allowed = unknown
        if table.passed[o] and table.book.ace_forbids_pass:
            allowed &= ~ACES  # R4.1: a passer was dealt no ace
        piles.append(Pile(o, C.HAND_SIZE, allowed))
    piles.append(Pile(C.NO_SEAT, popcount(unknown) - C.HAND_SIZE * (table.n - 1), unknown))  # the free pile
    return Knowledge(unknown, piles)


# ---- 3. the worlds ---------------------------------------------------------------------------
_TABLES = None  # the layout counts' scratch (about 20 MB), made once


class Worlds:
    """Uniform layouts of the unseen cards into the piles of a :class:`Knowledge`
    (:mod:`rams_sim.kernels.worlds`), drawn from the search stream of (key, seat, decision)."""

    def __init__(self, knowledge: Knowledge, key: int, seat: int, decision: int):
        global _TABLES
        if _TABLES is None:
            _TABLES = new_tables()
        self.cards, self.strides, self.table = _TABLES
        piles = knowledge.piles
        self.n_piles = len(piles)
        self.allowed = np.zeros(MAX_PILES, np.uint64)
        self.caps = np.zeros(MAX_PILES, np.int64)
        for p, pile in enumerate(piles):
            self.allowed[p] = np.uint64(pile.allowed)
            self.caps[p] = pile.cap
        pairs = np.full((MAX_PAIRS, 2), -1, np.int8)
        pair_piles = np.zeros(MAX_PAIRS, np.int64)
        for i, (a, b) in enumerate(knowledge.pairs):
            pairs[i] = (a, b)
            pair_piles[i] = sum(1 << p for p, pile in enumerate(piles) if i in pile.pairs)
        self.active = np.zeros(MAX_PAIRS, np.int64)  # the constrained pairs' pile masks, as the sampler orders them
        self.m, self.n_pairs = order_cards(np.uint64(knowledge.unknown), pairs, pair_piles, self.cards, self.active)
        self.n_states = n_states_of(self.caps, self.n_piles, self.strides)
        self.total = 0.0
        if self.n_states > 0:
            self.total = count_layouts(self.cards, self.m, self.n_pairs, self.allowed, self.caps, self.n_piles,
                                       self.active, self.strides, self.n_states, self.table)  # fmt: skip
        self.rng = np.zeros((C.MAX_SEATS + 2, STATE_WORDS), np.uint64)
        seed_stream(self.rng, DRAW_ROW, np.uint64(key), SEARCH_STREAM + seat * DECISIONS + decision)
        self.out = np.zeros(MAX_PILES, np.uint64)

    def any(self) -> bool:
        """Whether a layout can be drawn (the count fits the sampler and is positive)."""
        return self.n_states > 0 and self.total > 0.0

    def draw(self) -> list[int]:
        """One layout: the cards of each pile (masks, in pile order)."""
        draw_layout(self.cards, self.m, self.n_pairs, self.allowed, self.caps, self.n_piles, self.active,
                    self.strides, self.table, self.total, self.rng, DRAW_ROW, self.out)  # fmt: skip
        return [int(x) for x in self.out[: self.n_piles]]

    def uniform(self) -> float:
        """A uniform draw in [0, 1) from the worlds' stream (the sampler's)."""
        return float(uniform01(self.rng, DRAW_ROW))

    def below(self, count: int) -> int:
        """A uniform draw in 0 .. count - 1 from the worlds' stream."""
        return int(bounded(self.rng, DRAW_ROW, count))

    def shuffle(self, mask: int) -> list[int]:
        """The cards of ``mask`` in a uniform order: from ascending ids, swap position i
        with a position drawn below i + 1, for i from the last down to 1 (Fisher-Yates)."""
        cards = C.cards_of(mask)
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards


@dataclass
class World:
    """What one world says of the unseen cards, by seat (only the other seats appear): their
    hands now, and what else of theirs the decision needs: at a card, their aces (R7: A of
    the hand at the first lead, the cards played since included) and R4.3 give-up card;
    before the play, their dealt hands and the cards they drew, and the talon left."""

    hands: dict[int, list[int]]
    discards: dict[int, list[int]]
    aces: dict[int, int] = field(default_factory=dict)
    give_ups: dict[int, int] = field(default_factory=dict)
    dealt: dict[int, list[int]] = field(default_factory=dict)
    drawn: dict[int, list[int]] = field(default_factory=dict)
    talon: list[int] = field(default_factory=list)
    passers_among: list[int] = field(default_factory=list)  # at a card: the cards the passers' hands are among


def make_world(table, state: PlayState, knowledge: Knowledge, seat: int, layout: list[int], free_order) -> World:
    """The world of one layout at a card: each seat's pile is his hand (the dealer's with
    the trump card he holds); the free pile's cards, in ``free_order``, go to the others'
    discards, then the give-up card, seat by seat from seat 0 (as many as each discarded). The
    passers' hands are among the passers' pile's cards where there is one, else among the free
    pile's cards left."""
    hands, aces = {}, {}
    discards = {}
    passers_pile = None
    for pile, cards in zip(knowledge.piles[:-1], layout):
        if pile.seat == DEALER_DISCARDS:
            discards[table.dealer] = C.cards_of(cards)
        if pile.seat == C.NO_SEAT:
            passers_pile = C.cards_of(cards)
        if pile.seat >= 0:
            hand = C.cards_of(cards)
            if pile.seat == table.dealer and knowledge.dealer_card is not None:
                hand = sorted(hand + [knowledge.dealer_card])
            hands[pile.seat] = hand
            aces[pile.seat] = ace_total(table.book, hand + played_by(table, state, pile.seat))
    give_ups = {}
    rest = list(free_order)
    for o in range(table.n):
        if o == seat or o in discards:
            continue
        count = len(table.discards[o])
        discards[o], rest = sorted(rest[:count]), rest[count:]
        if table.trump_discard[o] != C.NO_CARD:
            give_ups[o] = rest.pop(0) if rest else C.NO_CARD
    among = sorted(rest) if passers_pile is None else passers_pile
    return World(hands, discards, aces=aces, give_ups=give_ups, passers_among=among)


def dealt_kind_ways(at_lead, discards, give_up: int, took) -> dict[int, int]:
    """R3-R4.4: for each jack kind (R5.5), in how many ways of drawing his new cards a seat's dealt
    hand had it. He drew as many cards as he discarded, any of his hand before R4.3 (``at_lead``
    less the trump card he took, ``took``, with his give-up card); the rest of it and his
    ``discards`` were dealt to him."""
    before = [c for c in at_lead if c != took] + ([give_up] if give_up != C.NO_CARD else [])
    ways = {0: 0, 1: 0, 2: 0}
    for drawn in itertools.combinations(before, len(discards)):
        ways[jack_kind([c for c in before if c not in drawn] + list(discards))] += 1
    return ways


def passers_kind_ways(kinds: list[set[int]], among: list[int], known=None) -> tuple[int, int]:
    """R5.5 for the passers, who keep their dealt hands: in how many of the ways to deal their
    hands in turn from the cards ``among`` (five cards each, less the cards ``known[i]`` the
    i-th is known to hold: modern's passing dealer, his own trump card), the i-th passer's
    hand has a jack kind of ``kinds[i]``; and in how many ways in all. Only the jacks matter:
    each passer in turn takes a set of the jacks left, and his other cards from the non-jacks
    left."""
    known = known or [[] for _ in kinds]
    jacks = [c for c in among if RANK[c] == C.JACK]
    plain = len(among) - len(jacks)
    sizes = [C.HAND_SIZE - len(cards) for cards in known]  # each passer's unseen cards

    def ways(i: int, jacks_left: list[int], plain_left: int) -> int:
        if i == len(kinds):
            return 1
        out = 0
        for size in range(min(len(jacks_left), sizes[i]) + 1):
            for his in itertools.combinations(jacks_left, size):
                if jack_kind(list(his) + known[i]) in kinds[i]:
                    fill = math.comb(plain_left, sizes[i] - size)
                    if fill:
                        left = [c for c in jacks_left if c not in his]
                        out += fill * ways(i + 1, left, plain_left - (sizes[i] - size))
        return out

    every = math.prod(math.comb(len(among) - sum(sizes[:i]), sizes[i]) for i in range(len(kinds)))
    return ways(0, jacks, plain), every


SHOWN_KIND = {int(Declaration.JACK_PAIR): 1, int(Declaration.FOUR_JACKS): FOUR_JACKS_KIND}  # R5.5: declaration -> kind


def seat_kind_ways(table, o: int, at_lead: list[int], kinds: set[int], world: World) -> tuple[int, int]:
    """R5.5 for another active seat ``o`` whose hand at the first lead is ``at_lead``: in how many
    of the ways he may have drawn his cards the jack kind the rules count is one of ``kinds``,
    and in how many ways in all: that hand's (``final``: (1, 1) or (0, 1)); his dealt hand's
    (``dealt``), or the larger of the two (``dealt-or-final``), over the ways he may have drawn
    (:func:`dealt_kind_ways`)."""
    final_kind = jack_kind(at_lead)
    if table.book.jacks_count == JacksCount.FINAL:
        return int(final_kind in kinds), 1
    took = table.trump_card if table.took_trump[o] else None  # R4.3 only: modern's dealer was dealt his
    dealt = dealt_kind_ways(at_lead, world.discards.get(o, []), world.give_ups.get(o, C.NO_CARD), took)
    if table.book.jacks_count == JacksCount.DEALT:
        good = sum(w for kind, w in dealt.items() if kind in kinds)
    else:  # dealt-or-final: the larger of the two kinds counts
        good = sum(w for kind, w in dealt.items() if max(kind, final_kind) in kinds)
    return good, sum(dealt.values())


def declarations_fit(table, sheet, state: PlayState, seat: int, world: World) -> float:
    """The chance to keep a world drawn at a card, by what the declarations and the running scores
    showed (classic Rams, and duel, where nothing was declared). For each other active seat, his
    hand at the first lead (his hand in the world and the cards he played since):

    * R5.1, R5.2-R5.4: four aces (where they win) or a rams would have ended the deal before the
      play: 0 if he held either;
    * R8.2: if he announces and holds a trick, his running score with that hand's aces is above
      zero, or his announcement would have stopped the deal: 0 if it is not;
    * R5.5: the counted jack kind is the declared one (:func:`seat_kind_ways`: 1 or 0, or the
      share of the ways he may have drawn his cards under which it is).

    And for the passers, R5.5: the share of the ways to deal their hands from the cards they are
    among under which each holds the jack kind he declared (:func:`passers_kind_ways`). The
    chance is the product: whole numbers of ways, divided once.
    """
    book = table.book
    fits = ways = 1
    for o, hand in world.hands.items():
        if not sheet.active[o]:
            continue
        at_lead = list(hand) + played_by(table, state, o)
        if book.four_aces_win and holds_four_aces(at_lead):
            return 0.0
        if rams_suit(at_lead) >= 0:
            return 0.0
        if (sheet.announce[o] and sheet.tricks[o] >= 1
                and sheet.scores[o] - sheet.jacks[o] - sheet.tricks[o] - world.aces[o] <= 0):
            return 0.0
        good, every = seat_kind_ways(table, o, at_lead, {SHOWN_KIND.get(sheet.declaration[o], 0)}, world)
        if good == 0:
            return 0.0
        fits, ways = fits * good, ways * every
    passers = [o for o in range(table.n) if o != seat and table.passed[o]]
    if passers:
        good, every = passers_kind_ways([{SHOWN_KIND.get(sheet.declaration[o], 0)} for o in passers],
                                        world.passers_among)  # fmt: skip
        if good == 0:
            return 0.0
        fits, ways = fits * good, ways * every
    return fits / ways


def draw_world(table, sheet, state: PlayState, knowledge: Knowledge, seat: int, worlds: Worlds,
               policy=None) -> World:  # fmt: skip
    """One world at ``seat``'s card: a layout and a shuffle of the free pile, kept with the chance
    the game gives it (its ``world_fits``: 0 where it breaks what was shown, the share of the ways
    the others may have drawn their cards that fit), else drawn again, up to MAX_DRAWS times (the
    last is kept if none was). So every deal consistent with what was shown is as likely. A
    ``policy`` (the seat's :class:`.policy.PimcPolicy`) with ``infer_card`` also keeps it with the
    chance of the others' history before the play under its model, where the game has one
    (classic: :func:`.inference.play_chance`), and ``infer_cards`` with that of every card they
    played since (classic: :func:`.inference.cards_chance`); at a card of the first trick, where the
    game has ``history_world`` (classic), ``infer_cards`` draws the world with its history instead of
    from the layout (:func:`.inference.first_trick_world`)."""
    from .games import game_of

    game = game_of(table.book.rules)
    fits = game.world_fits
    history = getattr(game, "history_fits", None) if policy is not None and policy.infer_card else None
    played = getattr(game, "cards_fits", None) if policy is not None and policy.infer_cards else None
    first_trick = getattr(game, "history_world", None) if played is not None and state.t == 0 else None
    for _ in range(MAX_DRAWS):
        if first_trick is not None:  # the first trick: the world drawn with its history
            world, chance = first_trick(table, sheet, state, seat, worlds, policy.rollout, policy.floor)
            if chance >= 1.0 or (chance > 0.0 and worlds.uniform() < chance):
                break
            continue
        layout = worlds.draw()
        world = make_world(table, state, knowledge, seat, layout, worlds.shuffle(layout[-1]))
        chance = fits(table, sheet, state, seat, world)
        if history is not None and chance > 0.0:
            chance *= history(table, state, seat, world, worlds, policy.rollout, policy.floor)
        if played is not None and chance > 0.0:
            chance *= played(table, state, seat, world, worlds, policy.rollout, policy.floor)
        if chance >= 1.0 or (chance > 0.0 and worlds.uniform() < chance):
            break
    return world


def make_world_before_play(table, knowledge: Knowledge, layout: list[int], free_order, worlds: Worlds,
                           with_talon: bool) -> World:  # fmt: skip
    """The world of one layout before the play. Pile by pile (clockwise from the seat),
    each other seat holds his pile's cards; he discarded the next cards of ``free_order``
    (as many as he discarded) and, of the cards he holds, drew as many, each drawn
    uniformly from the worlds' stream among those not yet picked (the j-th of them in
    ascending order); his dealt hand is what he holds less what he drew, plus his discards.
    The talon's rest (``with_talon``: before the R4.3 card) is the rest of ``free_order``."""
    hands, dealt, discards, drawn = {}, {}, {}, {}
    pos = 0
    for pile, cards in zip(knowledge.piles[:-1], layout):
        o = pile.seat
        hand = C.cards_of(cards)
        k = len(table.discards[o])
        discards[o] = sorted(free_order[pos : pos + k])
        pos += k
        rest = list(hand)
        picked = draw_cards(rest, k, worlds)  # leaves rest
        hands[o] = hand
        drawn[o] = sorted(picked)
        dealt[o] = sorted(rest + discards[o])
    talon = []
    if with_talon:
        talon = list(free_order[pos : pos + table.talon_size])
        assert len(talon) == table.talon_size, "the free pile holds the others' discards and the talon's rest"
    return World(hands, discards, dealt=dealt, drawn=drawn, talon=talon)


# ---- 4. the rollouts ---------------------------------------------------------------------------
def world_key(key: int, seat: int, decision: int, j: int) -> int:
    """The key of world ``j``'s rollouts (64-bit arithmetic): ``decision`` is the phase
    before the play, the trick ``t`` at a card."""
    z = key ^ SAMPLE_SALT ^ (((seat * DECISIONS + decision) * int(GOLDEN)) & U64) ^ (j + 1)
    return int(mix64(np.uint64(z)))


def imagined_table(table, world: World, seat: int, rollout: PolicyKind, key: int):
    """The table as ``seat`` imagines it in ``world``: its own cards and the public ones as
    they are, the others' hidden cards the world's (and nothing else of theirs: what the
    world does not say of them is empty); every seat plays ``rollout`` with its defaults,
    its coins keyed by ``key`` (the seats' specs stay: whether each announces reaching
    zero is public, R8.2)."""
    n = table.n

    def theirs(mine, worlds, empty):
        return [list(mine[s]) if s == seat else list(worlds.get(s, empty)) for s in range(n)]

    imagined = copy.copy(table)
    imagined.events = None
    imagined.deck_order = []  # unseen
    imagined.hand = theirs(table.hand, world.hands, [])
    imagined.discards = theirs(table.discards, world.discards, [])
    imagined.trump_discard = [table.trump_discard[s] if s == seat else world.give_ups.get(s, C.NO_CARD)
                              for s in range(n)]  # fmt: skip
    imagined.hand_dealt = theirs(table.hand_dealt, world.dealt, [])
    imagined.drawn = theirs(table.drawn, world.drawn, [])
    imagined.hand_final = theirs(table.hand_final, {}, [])
    imagined.talon, imagined.talon_next = list(world.talon), 0  # the talon left, in the world's order
    imagined.passed = list(table.passed)
    imagined.took_trump = list(table.took_trump)
    imagined.intent = list(table.intent)
    imagined.plays = list(table.plays)
    imagined.policies = [policy_for(PolicySpec(rollout), key, s) for s in range(n)]
    return imagined


def imagined_sheet(table, sheet, world: World, seat: int):
    """The deal's sheet as ``seat`` imagines it in ``world``: the public marks as they are (every
    list of the sheet copied), the others' aces (R7) from their world hands where the game
    counts aces. The sheet's flags of a silent seat at zero (R8.3) stay as they are, as in
    the kernels: they never change another seat's delta."""
    n = table.n
    scored = copy.copy(sheet)
    scored.events = None
    for name, value in vars(sheet).items():
        if isinstance(value, list):
            setattr(scored, name, list(value))
    if hasattr(sheet, "hands_dealt"):
        scored.hands_dealt = [list(sheet.hands_dealt[s]) if s == seat else [] for s in range(n)]
        scored.hands_final = [list(sheet.hands_final[s]) if s == seat else [] for s in range(n)]
    if hasattr(sheet, "aces"):
        for s, aces in world.aces.items():
            scored.aces[s] = aces
        for s in range(n):
            if table.passed[s]:
                scored.aces[s] = 0  # unseen, and never scored: a passer takes no trick (R7.4)
    return scored


def game_sign(table) -> int:
    """The game's DELTA_SIGN: +1 where a seat wants the least delta, -1 the most."""
    from .games import game_of

    return game_of(table.book.rules).DELTA_SIGN


def game_rollout(table):
    """The game's rollout of a card (``card_rollout(table, sheet, state, seat, card, key, rollout)``
    -> the value to the seat, times DELTA_SIGN the least the best): duel's values the party
    (its module's ``card_rollout``); the others, the deal's delta (:func:`rollout`)."""
    from .games import game_of

    game = game_of(table.book.rules)
    return getattr(game, "card_rollout", lambda t, s, st, seat, card, key, kind: rollout(t, s, st, seat, card))


def rollout(table, sheet, state: PlayState, seat: int, card: int) -> int:
    """The seat's delta (R7, R8.2-R8.3) when it plays ``card`` now and every seat of this
    (imagined) table plays its policy to the end of the deal, which the sheet then scores."""
    play_from(table, sheet, state.copy(), forced=card)
    sheet.finish()
    return sheet.delta[seat]


def rollout_before_play(table, seat: int, step: int, option: int) -> int:
    """The seat's delta when it takes ``option`` at exchange step ``step`` of this (imagined)
    table and every seat plays its policy to the end of the deal (R4 to R8.3)."""
    from .games.classic import deal_from  # the game's steps (it asks this module's hooks)

    return deal_from(table, step, option).delta[seat]


# ---- racing ------------------------------------------------------------------------------------
class Race:
    """Racing (docs/SEARCH.md "Racing"): the options of a decision, their values world by world
    (the least total is the best; ties the first), and which still receive worlds. Every
    RACE_BATCH worlds from RACE_MIN on (``z`` > 0), an option whose paired difference to the best
    so far is above 0 by more than ``z`` standard errors is dropped: with D the sum over the
    shared worlds of its value less the best's, Q the sum of their squares and n the worlds, when
    D > 0 and D² (n - 1) > z² (n Q - D²) (the sums of the values' products give Q)."""

    def __init__(self, n_options: int, z: float):
        self.z = z
        self.alive = [True] * n_options
        self.totals = [0] * n_options
        self.products = [[0] * n_options for _ in range(n_options)]

    def add(self, values: dict[int, int], n_worlds: int) -> int:
        """Add one world's ``values`` (by option alive); race if it is time. Returns the options alive."""
        for i, v in values.items():
            self.totals[i] += v
            for j, w in values.items():
                self.products[i][j] += v * w
        if self.z > 0 and n_worlds >= RACE_MIN and n_worlds % RACE_BATCH == 0:
            best = self.best()
            for i in values:
                d = self.totals[i] - self.totals[best]
                q = self.products[i][i] - 2 * self.products[i][best] + self.products[best][best]
                dd = float(d) * float(d)
                if i != best and d > 0 and dd * (n_worlds - 1) > self.z * self.z * (float(n_worlds) * float(q) - dd):
                    self.alive[i] = False
        return sum(self.alive)

    def best(self) -> int:
        """The option alive with the least total (ties: the first)."""
        return min((i for i, a in enumerate(self.alive) if a), key=lambda i: (self.totals[i], i))


# ---- the search --------------------------------------------------------------------------------
def search_card(table, sheet, state: PlayState, seat: int, legal) -> int | None:
    """The card a ``pimc`` seat plays (module docstring), or None for a seat that does not search.

    The play loop's ``search`` hook (:func:`.play.ask_card`): ``table`` and ``sheet`` are
    the deal's, ``state`` where the play stands, ``legal`` the seat's legal cards, ascending.
    """
    if table.specs[seat].kind != PolicyKind.PIMC:
        return None
    if len(legal) == 1:
        return legal[0]  # no choice: no world is drawn
    policy = table.policies[seat]
    knowledge = what_seat_knows(table, sheet, state, seat)
    worlds = Worlds(knowledge, table.key, seat, CARD_DECISION + state.t)
    if not worlds.any():
        return legal[0]  # no world can be drawn (not reached: tests/test_pimc.py)
    race = Race(len(legal), policy.race)
    card_rollout = game_rollout(table)
    sign = game_sign(table)  # R7: the least delta is the best; modern counts up, the most
    for j in range(policy.samples):
        world = draw_world(table, sheet, state, knowledge, seat, worlds, policy)
        key = world_key(table.key, seat, CARD_DECISION + state.t, j)
        values = {}
        for i, card in enumerate(legal):
            if race.alive[i]:
                imagined = imagined_table(table, world, seat, policy.rollout, key)
                scored = imagined_sheet(table, sheet, world, seat)
                values[i] = sign * card_rollout(imagined, scored, state, seat, card, key, policy.rollout)
        if race.add(values, j + 1) == 1:
            break  # one option left
    return legal[race.best()]


def options_before_play(table, phase: int, seat: int) -> list[int]:
    """The options open to ``seat`` at a decision before the play, in the order they are tried.

    The round (R4.0): a pass where R4.1 allows it, then 0 (stand; in ``declare-then-buy``
    "play", and nothing more); then, and in the buying round, every discard of at most the
    talon's size (R4.4) as a mask over his cards in ascending order, the masks ascending.
    R4.0a: "on trumps", "on suits". R4.3: decline unless he must take the trump card, then
    each card he may give up, ascending.
    """
    if phase == PHASE_TRUMP:
        options = [] if must_take_trump(table) else [DECLINE]
        return options + sorted(table.hand[seat])
    if phase == PHASE_INTENT:
        return [int(Intent.ON_TRUMPS), int(Intent.ON_SUITS)]
    options = []
    if phase == PHASE_ROUND:
        if may_pass(table, seat):
            options.append(PASS)
        if table.book.declare_then_buy:
            return options + [0]
    return options + [0] + [mask for mask in ALL_DISCARDS if popcount(mask) <= table.talon_size]


def search_decision(table, phase: int, step: int, seat: int) -> int | None:
    """A ``pimc`` seat's option at a decision before the play (module docstring), or None
    for a seat that does not search, or when no world can be drawn (its policy decides).

    The hook of :func:`.exchange.exchange_from` and :func:`.exchange.dealer_trump`:
    ``phase`` (PHASE_*) and exchange step ``step`` (3n: the dealer's R4.3 card);
    options as :func:`options_before_play`.
    """
    if table.specs[seat].kind != PolicyKind.PIMC:
        return None
    options = options_before_play(table, phase, seat)
    if len(options) == 1:
        return options[0]  # no choice: no world is drawn
    policy = table.policies[seat]
    knowledge = what_seat_knows_before_play(table, seat)
    worlds = Worlds(knowledge, table.key, seat, phase)
    if not worlds.any():
        return None
    race = Race(len(options), policy.race)
    for j in range(policy.samples):
        if policy.infer:  # the world with its history, weighed by the rollout policy (docs/SEARCH.md "Inference")
            world = draw_world_with_history(table, knowledge, worlds, seat, phase, step, policy.rollout, policy.floor,
                                            phase != PHASE_TRUMP)  # fmt: skip
        else:
            layout = worlds.draw()
            free_order = worlds.shuffle(layout[-1])
            world = make_world_before_play(table, knowledge, layout, free_order, worlds, phase != PHASE_TRUMP)
        key = world_key(table.key, seat, phase, j)
        values = {}
        for i, option in enumerate(options):
            if race.alive[i]:
                imagined = imagined_table(table, world, seat, policy.rollout, key)
                values[i] = rollout_before_play(imagined, seat, step, option)
        if race.add(values, j + 1) == 1:
            break  # one option left
    return options[race.best()]  # R7: the least delta is the best
