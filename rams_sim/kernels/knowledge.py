"""What a seat knows of the cards it cannot see, as the piles of :mod:`.worlds` (issue "Strong play").

:func:`play_piles` at a card of the play, :func:`exchange_piles` before it. Both read
only the public rows of the state (:mod:`.state`: ACTIVE, PASSED, TOOK_TRUMP, OWN_TRUMP, the
play log and trick, the number of cards each seat discarded) and the seat's own cards; the
tests (tests/test_worlds.py) replay every admitted history with the engine's legality
and check that no hidden card is read.

What play reveals (R6, for each card another seat played):

* following: a card off the led suit shows a void in it (R6.2), and then a plain card shows
  no trump either (R6.2: a void must trump); a trump under the best trump in the trick
  shows no higher trump where overtrumping is due (R6.3);
* with R6.3a (``must_head``), a card that does not win shows no winning card of what he
  had to play (the led suit, or his trumps when void);
* with R6.7 (``ace_covers_face``), a card other than the trump ace on a trump face shows no
  trump ace when the ace would have been legal;
* leading: a lead other than the trump ace shows no trump ace (R6.5); a lead of the trump
  Q shows no trump K (R6.6), a lead of neither shows not both (the pair constraint of
  :mod:`..worlds`); after a trump K led and won from a marriage, a lead other than the Q
  shows no Q (R6.6);
* R4.1: a passer holds no ace (where an ace forbids a pass).

* R5.5: a seat that declared no jacks (its declaration, public, not its points: a pair may
  be worth 0) holds no same-colour pair in his hand at the first lead (where that hand
  counts, option ``jacks_count`` other than ``dealt``); a seat that declared four jacks, or
  a pair whose colour is the only one possible, holds those jacks (:func:`declared_jacks`).

What the declarations and the running scores reveal, which piles cannot express, gives
each drawn world a chance to be kept (:func:`declarations_fit`; the search draws again a
world it does not keep, :mod:`..pimc`): no active seat held four aces or a rams (R5.1-R5.4
end the deal before the play), each declared the jacks the rules count (R5.5), and none
that announces has reached zero (R8.2).

Where the dealt hand counts, a world is kept with the share of the ways its players may
have drawn their cards that fit (:func:`dealt_jack_counts`); under every option, with the
share of the ways to deal the passers' hands from the cards they are among that give each
passer the jacks he declared (:func:`passers_jack_ways`: the passers share one pile, so the
piles place a passer's jacks only where their colour is settled, :func:`declared_jacks`).
R9 modern's worlds keep what its declarations show (:func:`modern_jacks_fit`).
"""

from __future__ import annotations

from numba import njit

from ..cards import ACE, HAND_SIZE, KING, N_TRICKS, QUEEN, SUIT_MASKS
from .bits import (
    ACE_CARDS,
    BLACK_JACKS,
    ONE,
    RED_JACKS,
    ZERO,
    above,
    ace_points,
    bit,
    card_of,
    has,
    highest,
    jack_kind,
    lowest,
    nth_card,
    popcount,
    rams_suit,
    suit_of,
    trump_face_mask,
)
from .codes import D_FOUR_JACKS, D_JACK_PAIR, JACKS_DEALT, JACKS_FINAL, RUFF_OVERTRUMP
from .declare import KIND_FOUR_JACKS
from .play import next_active
from .state import (
    ACTIVE,
    DECL,
    DISCARDS,
    FINAL,
    HAND,
    JACKS,
    LOG_LEADER,
    LOG_WINNER,
    PASSED,
    TOOK_TRUMP,
    TRICK_CARD,
    TRICK_SEAT,
    TRICKS,
    TRUMP_DISCARD,
    holds_trump_card,
    seat_after,
)
from .trick import winning_cards


@njit(cache=True)
def seat_cards_from(log, trick, t, k, n, o, from_trick):
    """The cards seat ``o`` played in tricks ``from_trick`` .. now (the current trick's ``k`` cards included)."""
    out = ZERO
    for tt in range(from_trick, t):
        if log[tt, o] >= 0:
            out |= bit(log[tt, o])
    for j in range(k):
        if trick[TRICK_SEAT, j] == o:
            out |= bit(trick[TRICK_CARD, j])
    return out


DEALER_DISCARDS = -2  # pile_seat of the dealer's laid-aside cards, where the trump card may be (modern)


@njit(cache=True, inline="always")
def trump_hidden(maybe_discarded, seat, dealer, played, trump_card):
    """Whether ``seat`` cannot tell where the trump card is: it is the dealer's (his own card
    in modern) and ``maybe_discarded`` (he laid cards aside, the widow's taker), it is not
    ``seat``'s, and it has not been played."""
    return maybe_discarded and dealer != seat and not has(played, trump_card)


@njit(cache=True)
def play_piles(r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, allowed, caps, pile_seat, forbid, before,
               pairs, pair_piles, maybe_discarded):  # fmt: skip
    """What ``seat`` knows at its card of trick ``t`` (``k`` cards already in it), as piles.

    Reads the public rows (ACTIVE, PASSED, TOOK_TRUMP, OWN_TRUMP, the play log, the trick, the
    count of each seat's discards) and the seat's own cards, never another seat's cards. Fills
    ``allowed``/``caps`` (uint64/int64[MAX_PILES]) for :mod:`..worlds` and ``pile_seat``
    (int64[MAX_PILES]: the seat whose hand a pile is, -1 for the passers' pile and the
    free pile, which is last); ``forbid`` uint64[MAX_SEATS] and ``before`` int8[MAX_SEATS]
    are scratch. ``pairs`` int8[MAX_PAIRS, 2] and ``pair_piles`` int64[MAX_PAIRS] receive the
    pair constraints: the trump K and Q (R6.6), the black and the red jacks (R5.5: a seat
    that declared no jacks, st[DECL], holds no same-colour pair at the first lead, where the
    final hand counts). ``maybe_discarded``: the dealer's trump card may be among the cards
    he laid aside (:func:`trump_hidden`; modern's widow taker): then it is unknown, allowed
    only in his hand and in a pile of his laid-aside cards (pile_seat DEALER_DISCARDS).
    Returns (unknown mask, n_piles).
    """
    trump = suit_of(trump_card)
    trumps = SUIT_MASKS[trump]
    t_ace = card_of(trump, ACE)
    t_king = card_of(trump, KING)
    t_queen = card_of(trump, QUEEN)
    played = ZERO
    for tt in range(t):
        for o in range(n):
            if log[tt, o] >= 0:
                played |= bit(log[tt, o])
    for j in range(k):
        played |= bit(trick[TRICK_CARD, j])
    hidden = trump_hidden(maybe_discarded, seat, dealer, played, trump_card)
    seen = cardsets[HAND, seat] | cardsets[DISCARDS, seat] | played
    if not hidden:
        seen |= bit(trump_card)
    if st[TRUMP_DISCARD, seat] >= 0:
        seen |= bit(st[TRUMP_DISCARD, seat])
    unknown = r.deck_mask & ~seen
    not_dealers = ~bit(trump_card) if hidden else ~ZERO  # a pile that is not the dealer's cannot hold it
    # ---- what play showed, seat by seat ----
    for o in range(n):
        forbid[o] = ZERO
    pair_seats = 0
    known_dealer = ZERO
    if holds_trump_card(st, dealer) and dealer != seat and not has(played, trump_card) and not hidden:
        known_dealer = bit(trump_card)  # the dealer holds the trump card he took (R4.3) or was dealt (modern)
    n_active = 0
    for o in range(n):
        n_active += st[ACTIVE, o]
    prev_leader, prev_winner, prev_led = -1, -1, -1
    for tt in range(t + 1):
        if tt < t:
            leader = log[tt, LOG_LEADER]
            count = n_active
        else:
            if k == 0:
                break
            leader = trick[TRICK_SEAT, 0]
            count = k
        o = leader
        for j in range(count):
            p = log[tt, o] if tt < t else trick[TRICK_CARD, j]
            if j == 0:
                q_duty = prev_leader == o and prev_winner == o and prev_led == t_king
                if p != t_ace:
                    forbid[o] |= bit(t_ace)  # R6.5
                    if q_duty and p != t_queen:
                        forbid[o] |= bit(t_queen)  # R6.6: the K won, the Q follows if held
                    elif p == t_queen and not q_duty:
                        forbid[o] |= bit(t_king)  # R6.6: with K and Q the K leads
                    elif p != t_king and p != t_queen:
                        later = seat_cards_from(log, trick, t, k, n, o, tt)  # he held these then
                        if o == dealer:
                            later |= known_dealer
                        if has(later, t_king):
                            forbid[o] |= bit(t_queen)
                        elif has(later, t_queen):
                            forbid[o] |= bit(t_king)
                        elif has(unknown, t_king) and has(unknown, t_queen):
                            pair_seats |= 1 << o
                led_suit = suit_of(p)
            else:
                suit = suit_of(p)
                if suit != led_suit:
                    forbid[o] |= SUIT_MASKS[led_suit]  # R6.2
                    if suit != trump:
                        forbid[o] |= trumps  # R6.2: a void must trump
                    elif r.ruff == RUFF_OVERTRUMP:
                        best = -1
                        for i in range(j):
                            if suit_of(before[i]) == trump and before[i] > best:
                                best = before[i]
                        if best >= 0 and p < best:
                            forbid[o] |= trumps & above(best)  # R6.3
                if r.ace_covers_face and p != t_ace and suit == trump:  # the ace would have been legal
                    for i in range(j):
                        if has(trump_face_mask(trump), before[i]):
                            forbid[o] |= bit(t_ace)  # R6.7
                            break
                if (r.must_head and (suit == led_suit or suit == trump)
                        and winning_cards(bit(p), before, j, trump) == ZERO):
                    forbid[o] |= winning_cards(SUIT_MASKS[suit], before, j, trump)  # R6.3a
            before[j] = p
            o = next_active(st, o, n)
        if tt < t:
            prev_leader, prev_winner, prev_led = leader, log[tt, LOG_WINNER], log[tt, leader]
    # ---- R5.5: no jacks declared, no same-colour pair in the hand at the first lead ----
    jack_seats_black = 0
    jack_seats_red = 0
    if r.jacks_count != JACKS_DEALT:
        for o in range(n):
            if o == seat or not st[ACTIVE, o] or st[DECL, o] == D_JACK_PAIR or st[DECL, o] == D_FOUR_JACKS:
                continue
            held = _held(o, dealer, log, trick, t, k, n, known_dealer)
            for colour in range(2):
                pair = BLACK_JACKS if colour == 0 else RED_JACKS
                in_hand = held & pair
                if in_hand != ZERO:
                    forbid[o] |= pair & ~in_hand  # he holds one: not the other
                elif unknown & pair == pair:
                    if colour == 0:
                        jack_seats_black |= 1 << o
                    else:
                        jack_seats_red |= 1 << o
    # ---- R4.1: where an ace forbids a pass and one is unseen, the passers' hands form a pile ----
    passers = 0
    for o in range(n):
        if st[PASSED, o] and o != seat:
            passers += 1
    passers_pile = r.ace_forbids_pass != 0 and passers > 0 and (unknown & ACE_CARDS) != ZERO
    # ---- R5.5: the jacks the declarations place with their declarers ----
    not_free, not_passers = declared_jacks(r, n, seat, dealer, st, log, trick, t, k, unknown, known_dealer, hidden, forbid,
                                           passers_pile)  # fmt: skip
    # ---- the piles ----
    n_piles = 0
    for i in range(3):
        pair_piles[i] = 0
    tracked = 0
    for step in range(1, n):
        o = seat_after(seat, step, n)
        if not st[ACTIVE, o]:
            continue
        in_hand = N_TRICKS - t
        for j in range(k):
            if trick[TRICK_SEAT, j] == o:
                in_hand -= 1
        if o == dealer:
            in_hand -= popcount(known_dealer)
        allowed[n_piles] = unknown & ~forbid[o]
        if o != dealer:
            allowed[n_piles] &= not_dealers
        caps[n_piles] = in_hand
        pile_seat[n_piles] = o
        if pair_seats >> o & 1:
            pair_piles[0] |= 1 << n_piles
        if jack_seats_black >> o & 1:
            pair_piles[1] |= 1 << n_piles
        if jack_seats_red >> o & 1:
            pair_piles[2] |= 1 << n_piles
        tracked += in_hand
        n_piles += 1
    if passers_pile:
        allowed[n_piles] = unknown & ~ACE_CARDS & not_dealers & ~not_passers  # R4.1: a passer held no ace
        caps[n_piles] = passers * N_TRICKS
        pile_seat[n_piles] = -1
        tracked += passers * N_TRICKS
        n_piles += 1
    if hidden:
        allowed[n_piles] = unknown
        caps[n_piles] = popcount(cardsets[DISCARDS, dealer])
        pile_seat[n_piles] = DEALER_DISCARDS
        tracked += caps[n_piles]
        n_piles += 1
    allowed[n_piles] = unknown & not_dealers & ~not_free
    caps[n_piles] = popcount(unknown) - tracked
    pile_seat[n_piles] = -1
    n_piles += 1
    pairs[0, 0], pairs[0, 1] = t_king, t_queen
    pairs[1, 0], pairs[1, 1] = lowest(BLACK_JACKS), highest(BLACK_JACKS)
    pairs[2, 0], pairs[2, 1] = lowest(RED_JACKS), highest(RED_JACKS)
    return unknown, n_piles


@njit(cache=True)
def _held(o, dealer, log, trick, t, k, n, known_dealer):
    """The cards seat ``o`` is known to have held at the first lead: those he played, and (the
    dealer) the trump card he took, ``known_dealer``."""
    held = seat_cards_from(log, trick, t, k, n, o, 0)
    if o == dealer:
        held |= known_dealer
    return held


@njit(cache=True)
def _possible_colours(o, dealer, log, trick, t, k, n, unknown, known_dealer):
    """The colours (bit 0 black, bit 1 red) whose jacks could all be seat ``o``'s: each one
    unseen or known to have been his (:func:`_held`)."""
    his = _held(o, dealer, log, trick, t, k, n, known_dealer)
    colours = 0
    if BLACK_JACKS & ~(his | unknown) == ZERO:
        colours |= 1
    if RED_JACKS & ~(his | unknown) == ZERO:
        colours |= 2
    return colours


@njit(cache=True)
def _place(jacks, owners, n, st, forbid, r, passers_pile):
    """Unseen ``jacks`` that lie with the seats of bitmask ``owners``: no other player's pile holds
    them. A player's lie in his hand under ``final``, else in his hand or among his discards (the
    free pile); a passer's in his hand (R5.5: his dealt hand counts), which is the passers' pile
    where there is one (``passers_pile``), else the free pile. Returns (the jacks the free pile
    may not hold, those the passers' pile may not hold)."""
    in_hands = True  # every owner's jacks are in his hand, and that hand is a pile of its own
    passer = False
    for other in range(n):
        if not owners >> other & 1:
            forbid[other] |= jacks
        elif st[ACTIVE, other]:
            in_hands = in_hands and r.jacks_count == JACKS_FINAL
        else:
            passer = True
            in_hands = in_hands and passers_pile
    return (jacks if in_hands else ZERO), (ZERO if passer else jacks)


@njit(cache=True)
def declared_jacks(r, n, seat, dealer, st, log, trick, t, k, unknown, known_dealer, hidden, forbid, passers_pile):
    """R5.5: the unseen jacks the declarations place with their declarers, passers included. Four
    jacks declared: all four are his. A pair declared: both jacks of a colour are his, and the
    colours of two declared pairs differ; so a colour that only one of them can hold (the other
    has a jack seen away from him) is his, and with two declared pairs every jack lies with the
    two. Where they lie: :func:`_place`. Adds to ``forbid`` (uint64[n]); returns (the jacks the
    free pile may not hold, those the passers' pile may not hold). Nothing where the dealer's
    trump card may lie among his laid-aside cards (``hidden``: modern). ``passers_pile``: the
    passers' hands form a pile of their own (:func:`play_piles`)."""
    not_free = ZERO
    not_passers = ZERO
    if hidden:
        return not_free, not_passers
    jacks = (BLACK_JACKS | RED_JACKS) & unknown
    first, second = -1, -1  # the seats that declared a pair
    for o in range(n):
        if o == seat:
            continue
        if st[DECL, o] == D_FOUR_JACKS:
            a, b = _place(jacks, 1 << o, n, st, forbid, r, passers_pile)
            not_free |= a
            not_passers |= b
        elif st[DECL, o] == D_JACK_PAIR:
            if first < 0:
                first = o
            else:
                second = o
    if first < 0:
        return not_free, not_passers
    c1 = _possible_colours(first, dealer, log, trick, t, k, n, unknown, known_dealer)
    if second < 0:
        if c1 == 1 or c1 == 2:
            a, b = _place((BLACK_JACKS if c1 == 1 else RED_JACKS) & unknown, 1 << first, n, st, forbid, r, passers_pile)
            not_free |= a
            not_passers |= b
        return not_free, not_passers
    c2 = _possible_colours(second, dealer, log, trick, t, k, n, unknown, known_dealer)
    if c1 == 1 or c1 == 2 or c2 == 1 or c2 == 2:  # one colour settles both
        black_first = c1 == 1 or (c1 == 3 and c2 == 2)
        a, b = _place(BLACK_JACKS & unknown, 1 << (first if black_first else second), n, st, forbid, r, passers_pile)
        c, d = _place(RED_JACKS & unknown, 1 << (second if black_first else first), n, st, forbid, r, passers_pile)
        return not_free | a | c, not_passers | b | d
    a, b = _place(jacks, (1 << first) | (1 << second), n, st, forbid, r, passers_pile)
    return not_free | a, not_passers | b


@njit(cache=True)
def unseen_before_play(r, seat, trump_card, cardsets, st):
    """The cards ``seat`` has not seen before the play (uint64): the deck less his hand, his
    discards, the turned-up trump card and his R4.3 give-up card."""
    seen = cardsets[HAND, seat] | cardsets[DISCARDS, seat] | bit(trump_card)
    if st[TRUMP_DISCARD, seat] >= 0:
        seen |= bit(st[TRUMP_DISCARD, seat])
    return r.deck_mask & ~seen


@njit(cache=True)
def exchange_piles(r, n, seat, trump_card, cardsets, st, allowed, caps, pile_seat):
    """What ``seat`` knows before the play, as piles: every other seat's hand (five unseen
    cards; a passer's holds no ace where R4.1 forbids passing with one), then the free pile
    (the talon's rest and the unseen discards). Reads the public rows and the seat's own
    cards only. Returns (unknown mask, n_piles)."""
    unknown = unseen_before_play(r, seat, trump_card, cardsets, st)
    n_piles = 0
    for step in range(1, n):
        o = seat_after(seat, step, n)
        allowed[n_piles] = unknown
        if st[PASSED, o] and r.ace_forbids_pass:
            allowed[n_piles] = unknown & ~ACE_CARDS  # R4.1
        caps[n_piles] = HAND_SIZE
        pile_seat[n_piles] = o
        n_piles += 1
    allowed[n_piles] = unknown
    caps[n_piles] = popcount(unknown) - HAND_SIZE * (n - 1)
    pile_seat[n_piles] = -1
    return unknown, n_piles + 1


KIND_PAIR = 1  # R5.5: jack_kind's kind of a same-colour pair (declare.KIND_FOUR_JACKS: of all four)
ALL_JACKS = BLACK_JACKS | RED_JACKS


@njit(cache=True)
def _choose(n, k):
    """The binomial coefficient C(n, k) (small n), 0 outside 0 <= k <= n."""
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


@njit(cache=True)
def dealt_jack_counts(hand, discards, give_up, took):
    """R3-R4.4: over the ways a seat may have drawn his new cards, how many give his dealt hand
    each jack kind (R5.5): (none, a pair, four jacks). ``hand``: his hand at the first lead
    (uint64); ``discards``: the cards he laid aside (R4.4); ``give_up``: his R4.3 give-up card
    or 0; ``took``: the trump card's bit if he took it, else 0. He drew as many cards as he
    discarded, any of his hand before R4.3 (the hand less the trump card, with the give-up
    card); the rest of that hand and his discards were dealt to him. The three counts sum to
    C(5, discards)."""
    before = (hand & ~took) | give_up
    n_drawn = popcount(discards)
    jacks = before & ALL_JACKS
    others = popcount(before) - popcount(jacks)
    counts0, counts1, counts2 = 0, 0, 0
    drawn = jacks
    while True:  # every subset of his jacks he may have drawn, with the other cards drawn beside it
        ways = _choose(others, n_drawn - popcount(drawn))
        kind = jack_kind((jacks & ~drawn) | (discards & ALL_JACKS))
        if kind == 0:
            counts0 += ways
        elif kind == 1:
            counts1 += ways
        else:
            counts2 += ways
        if drawn == ZERO:
            break
        drawn = (drawn - ONE) & jacks
    return counts0, counts1, counts2


@njit(cache=True, inline="always")
def _falling(n, k):
    """n (n - 1) ... (n - k + 1): the ways to put k labelled cards in k of n labelled places (0 if k > n)."""
    out = 1
    for i in range(k):
        out *= n - i  # a factor 0 once i reaches n
    return out


@njit(cache=True)
def passers_jack_ways(n, seat, st, among, kinds, holder, held):
    """R5.5 for the passers, who keep their dealt hands: of the ways to deal the passers' hands
    from ``among`` (uint64: the unseen cards their hands are among, :func:`..pimc._play_layout`),
    how many give each passer a jack kind his declaration allows. ``kinds``: the kinds allowed
    every passer (bit k: kind k; 0: the kind he declared, classic, where a passer declares his
    jacks). ``holder``: a passer known to hold the card ``held`` (modern's dealer, his own
    trump card), so one card fewer of his is among them; -1 if none. Returns (fitting, all)
    as whole numbers whose ratio is the share (only the jacks matter: each of ``among``'s
    jacks goes to a passer, five places each, or to the rest; ``all`` counts the places for
    the jacks, ``fitting`` those that fit). (1, 1) where no passer, or where every kind the
    jacks can make is allowed every passer."""
    passers = 0
    jacks = among & ALL_JACKS
    n_jacks = popcount(jacks)
    known = bit(held) & ALL_JACKS if holder >= 0 else ZERO
    n_passer_jacks = n_jacks + popcount(known)  # the jacks the passers may hold
    reach = 1 if n_passer_jacks < 2 else 3 if n_passer_jacks < 4 else 7  # the kinds (bits) they can make
    bound = False
    for o in range(n):
        if o != seat and st[PASSED, o]:
            passers += 1
            bound = bound or _allowed(st[DECL, o], kinds) & reach != reach
    if not bound:
        return 1, 1
    rest = popcount(among) - HAND_SIZE * passers + (1 if holder >= 0 else 0)  # the places not in a passer's hand
    places = passers + 1  # a jack's place: the i-th passer's hand (i < passers) or the rest
    fitting = 0
    for code in range(places**n_jacks):  # each jack's place, as the digits of ``code``
        ways = 1
        for i in range(places):
            his = ZERO
            digits = code
            for j in range(n_jacks):
                if digits % places == i:
                    his |= bit(nth_card(jacks, j))
                digits //= places
            if i == passers:
                ways *= _falling(rest, popcount(his))
                continue
            o = _nth_passer(n, seat, st, i)
            ways *= _falling(HAND_SIZE - (1 if o == holder else 0), popcount(his))
            if o == holder:
                his |= known
            if not _allowed(st[DECL, o], kinds) >> jack_kind(his) & 1:
                ways = 0
            if ways == 0:
                break
        fitting += ways
    return fitting, _falling(popcount(among), n_jacks)


@njit(cache=True, inline="always")
def _allowed(declaration, kinds):
    """The jack kinds (bit k: kind k) a seat's declaration allows: ``kinds`` if given, else the declared one."""
    return kinds if kinds != 0 else 1 << _shown(declaration)


@njit(cache=True, inline="always")
def _shown(declaration):
    """The jack kind a declaration shows (R5.5): KIND_PAIR, KIND_FOUR_JACKS or 0."""
    if declaration == D_FOUR_JACKS:
        return KIND_FOUR_JACKS
    if declaration == D_JACK_PAIR:
        return KIND_PAIR
    return 0


@njit(cache=True, inline="always")
def _nth_passer(n, seat, st, i):
    """The seat of the ``i``-th passer other than ``seat``, in seat order."""
    for o in range(n):
        if o != seat and st[PASSED, o]:
            if i == 0:
                return o
            i -= 1
    return -1


@njit(cache=True)
def seat_jack_ways(r, o, kinds, trump_card, st, w_cardsets, w_st):
    """R5.5 for another active seat ``o`` in a drawn world: of the ways he may have drawn his
    cards, how many make the jack kind the rules count (``jacks_count``) one that ``kinds``
    allows (bit k: kind k), and how many there are: that of his hand at the first lead
    (``final``: (1, 1) or (0, 1)); of his dealt hand (``dealt``) or the larger of the two
    (``dealt-or-final``): counted over the ways he may have drawn (:func:`dealt_jack_counts`),
    so that every deal consistent with what was shown, the cards drawn included, is as likely
    as any other."""
    hand = w_cardsets[FINAL, o]
    final_kind = jack_kind(hand)
    if r.jacks_count == JACKS_FINAL:
        return kinds >> final_kind & 1, 1
    give_up = w_st[TRUMP_DISCARD, o]
    took = bit(trump_card) if st[TOOK_TRUMP, o] else ZERO  # R4.3 only: modern's dealer was dealt his (OWN_TRUMP)
    counts = dealt_jack_counts(hand, w_cardsets[DISCARDS, o], bit(give_up) if give_up >= 0 else ZERO, took)
    good = 0
    for kind in range(3):
        counted = kind if r.jacks_count == JACKS_DEALT else max(kind, final_kind)
        if kinds >> counted & 1:
            good += counts[kind]
    return good, counts[0] + counts[1] + counts[2]


@njit(cache=True)
def declarations_fit(r, n, seat, trump_card, st, scores, announce, w_cardsets, w_st, passers_among):
    """How well a drawn world agrees with what the declarations and the play's running scores
    showed, as the chance to keep it (float64, 0 to 1; classic Rams). ``w_cardsets``/``w_st``:
    the world's state arrays, whose FINAL row holds each other active seat's hand at the first
    lead, its DISCARDS and TRUMP_DISCARD his unseen cards; ``st``: the real public rows;
    ``scores`` int64[n] before the deal, ``announce`` int8[n]; ``passers_among`` (uint64) the
    unseen cards the passers' hands are among. For each other active seat:

    * R5.1: he held no four aces (where four aces win); R5.2-R5.4: no rams (five of a suit),
      since either would have ended the deal before the play (0 if he did);
    * R5.5: the jack kind counted (``jacks_count``) is the one he declared
      (:func:`seat_jack_ways`: 1 or 0, or the share of the ways he may have drawn his cards);
    * R8.2: a seat that announces and has a trick is not at zero (score before the deal -
      jacks - tricks - A of that hand > 0), or the deal would have stopped (0 if he is);

    and, for the passers, R5.5: the share of the ways to deal their hands from
    ``passers_among`` that give each the jack kind he declared (:func:`passers_jack_ways`).
    The chance is the product (exact integers, then one division).
    """
    fits, ways = 1, 1
    for o in range(n):
        if o == seat or not st[ACTIVE, o]:
            continue
        hand = w_cardsets[FINAL, o]
        if r.four_aces_win and hand & ACE_CARDS == ACE_CARDS:
            return 0.0
        if rams_suit(hand) >= 0:
            return 0.0
        if (announce[o] and st[TRICKS, o] >= 1
                and scores[o] - st[JACKS, o] - st[TRICKS, o] - ace_points(hand, r.ace_values) <= 0):
            return 0.0
        good, every = seat_jack_ways(r, o, 1 << _shown(st[DECL, o]), trump_card, st, w_cardsets, w_st)
        if good == 0:
            return 0.0
        fits, ways = fits * good, ways * every
    good, every = passers_jack_ways(n, seat, st, passers_among, 0, -1, 0)
    if good == 0:
        return 0.0
    return (fits * good) / (ways * every)


PAIR_ONLY = 1 << KIND_PAIR  # jack kinds (bit k: kind k) a declared pair allows where four jacks win
NO_FOUR = (1 << KIND_PAIR) | 1  # where four jacks win: what a seat who showed nothing may hold
ANY_KIND = (1 << KIND_FOUR_JACKS) | NO_FOUR


@njit(cache=True)
def modern_jacks_fit(r, n, seat, trump_card, st, w_cardsets, w_st, passers_among):
    """The chance to keep a drawn world of R9 ``modern`` (docs/VARIANTS.md): a player declares a
    jack pair (it adds 5 with a trick), and four jacks, where they win (option
    ``four_jacks_win``), end the deal before the play, passers' too. So each other active
    seat's counted jack kind is a pair if he declared one (or four jacks where they do not
    win), else none (:func:`seat_jack_ways`); no passer, who declares nothing here, holds four
    jacks where they win (:func:`passers_jack_ways`). Aces count for nothing, and a dealt five
    of a suit only allows a redeal (a choice the others do not see refused), so neither is
    checked. The chance is the product (exact integers, then one division)."""
    pair = PAIR_ONLY if r.four_jacks_win else PAIR_ONLY | 1 << KIND_FOUR_JACKS
    fits, ways = 1, 1
    holder = -1  # a passing dealer holds his own trump card, unless he laid cards aside (it may be among them)
    for o in range(n):
        if o != seat and st[PASSED, o] and holds_trump_card(st, o) and w_cardsets[DISCARDS, o] == ZERO:
            holder = o
        if o == seat or not st[ACTIVE, o]:
            continue
        good, every = seat_jack_ways(r, o, pair if st[DECL, o] == D_JACK_PAIR else 1, trump_card, st, w_cardsets, w_st)
        if good == 0:
            return 0.0
        fits, ways = fits * good, ways * every
    good, every = passers_jack_ways(n, seat, st, passers_among, NO_FOUR if r.four_jacks_win else ANY_KIND, holder,
                                    trump_card)  # fmt: skip
    if good == 0:
        return 0.0
    return (fits * good) / (ways * every)
