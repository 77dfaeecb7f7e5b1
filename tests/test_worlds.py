"""Dealing around known cards (issue "Strong play"): exact counts, uniform draws, no leak.

* :mod:`rams_sim.kernels.worlds` counts the layouts of small random instances exactly as
  an enumeration does, and draws them uniformly (card-by-pile frequencies within 5 sd);
* :func:`rams_sim.kernels.pimc.play_piles`, the search's reading of R6, admits exactly
  the hands under which every recorded card was legal (checked by replaying the history
  with the engine's own legality, :func:`rams_sim.kernels.play.legal_mask`), on positions
  of real deals late enough to enumerate;
* the piles depend only on what the seat may know: two states that differ only in the
  other seats' hidden cards give identical piles and identical draws, and a planted leak
  (piles that peek at another seat's hand) is caught by the same check.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from rams_sim import cards as C
from rams_sim import engine
from rams_sim.advice.position import state_at
from rams_sim.kernels import state as S
from rams_sim.kernels.args import rules_args
from rams_sim.kernels.knowledge import play_piles
from rams_sim.kernels.play import legal_mask
from rams_sim.kernels.rng import STATE_WORDS, seed_stream
from rams_sim.kernels.worlds import MAX_PAIRS, MAX_PILES, count_layouts, draw_layout, n_states_of, order_cards
from rams_sim.record import Declaration
from rams_sim.rules import Rules

ONE = 1


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


def _dp(unknown: int, allowed: list[int], caps: list[int], pairs=(), pair_piles=()):
    """count_layouts on Python inputs (``pairs``: up to MAX_PAIRS card pairs, each with its pile mask);
    returns (total, arrays for draw_layout)."""
    n_piles = len(caps)
    a = np.zeros(MAX_PILES, np.uint64)
    c = np.zeros(MAX_PILES, np.int64)
    a[:n_piles] = [np.uint64(x) for x in allowed]
    c[:n_piles] = caps
    pair_arr = np.full((MAX_PAIRS, 2), -1, np.int8)
    masks = np.zeros(MAX_PAIRS, np.int64)
    for i, (pair, mask) in enumerate(zip(pairs, pair_piles)):
        pair_arr[i] = pair
        masks[i] = mask
    cards = np.zeros(C.N_CARDS, np.int8)
    active = np.zeros(MAX_PAIRS, np.int64)
    m, n_pairs = order_cards(np.uint64(unknown), pair_arr, masks, cards, active)
    strides = np.zeros(MAX_PILES, np.int64)
    n_states = n_states_of(c, n_piles, strides)
    table = np.zeros((m + 1, max(n_states, 1)), np.float64)
    total = count_layouts(cards, m, n_pairs, a, c, n_piles, active, strides, n_states, table)
    return total, (cards, m, n_pairs, a, c, n_piles, active, strides, table, total)


def _draws(args, count: int, key: int = 7) -> list[tuple[int, ...]]:
    rng = np.zeros((1, STATE_WORDS), np.uint64)
    seed_stream(rng, 0, np.uint64(key), 99)
    out = np.zeros(MAX_PILES, np.uint64)
    n_piles = args[5]
    draws = []
    for _ in range(count):
        draw_layout(*args, rng, 0, out)
        draws.append(tuple(int(x) for x in out[:n_piles]))
    return draws


def _enumerate(unknown: int, allowed: list[int], caps: list[int], pairs=(), pair_piles=()):
    """Every layout by brute force: a list of tuples of pile masks."""
    cards = C.cards_of(unknown)
    out = []
    for assign in itertools.product(range(len(caps)), repeat=len(cards)):
        piles = [0] * len(caps)
        for card, p in zip(cards, assign):
            piles[p] |= 1 << card
        if any(int(piles[p]).bit_count() != caps[p] or piles[p] & ~allowed[p] for p in range(len(caps))):
            continue
        if any(mask >> p & 1 and piles[p] >> a & 1 and piles[p] >> b & 1
               for (a, b), mask in zip(pairs, pair_piles) for p in range(len(caps))):  # fmt: skip
            continue
        out.append(tuple(piles))
    return out


def _random_instance(rng: np.random.Generator, n_pairs: int):
    cards = sorted(rng.choice(C.N_CARDS, size=int(rng.integers(4, 9)), replace=False).tolist())
    unknown = _mask(cards)
    n_piles = int(rng.integers(2, 5))
    caps = [0] * n_piles
    for _ in cards:
        caps[int(rng.integers(n_piles))] += 1
    allowed = [unknown] * n_piles
    for p in range(n_piles - 1):
        for card in cards:
            if rng.random() < 0.3:
                allowed[p] &= ~(1 << card)
    picked = rng.permutation(cards)[: 2 * n_pairs].tolist()
    pairs = [(picked[2 * i], picked[2 * i + 1]) for i in range(n_pairs)]
    pair_piles = [int(rng.integers(1, 1 << n_piles)) for _ in range(n_pairs)]
    return unknown, allowed, caps, pairs, pair_piles


@pytest.mark.parametrize("n_pairs", [0, 1, 2])
def test_counts_match_enumeration(n_pairs):
    rng = np.random.default_rng(11 + n_pairs)
    checked = 0
    for _ in range(60):
        unknown, allowed, caps, pairs, pair_piles = _random_instance(rng, n_pairs)
        total, _ = _dp(unknown, allowed, caps, pairs, pair_piles)
        assert total == len(_enumerate(unknown, allowed, caps, pairs, pair_piles))
        checked += total > 0
    assert checked >= 10  # the instances are not all empty


@pytest.mark.parametrize("n_pairs", [0, 1, 2])
def test_draws_are_uniform(n_pairs):
    rng = np.random.default_rng(5 + n_pairs)
    while True:
        unknown, allowed, caps, pairs, pair_piles = _random_instance(rng, n_pairs)
        layouts = _enumerate(unknown, allowed, caps, pairs, pair_piles)
        if 8 <= len(layouts) <= 60:
            break
    _, args = _dp(unknown, allowed, caps, pairs, pair_piles)
    n = 30 * len(layouts)
    draws = _draws(args, n)
    assert set(draws) <= set(layouts)
    counts = np.array([draws.count(layout) for layout in layouts])
    expected = n / len(layouts)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    dof = len(layouts) - 1
    assert chi2 < dof + 5 * math.sqrt(2 * dof), (chi2, dof)


# ---- the search's reading of R6 on real positions ----------------------------------------
def _history_legal(rules: Rules, record, pos, o: int, hand_now: int) -> bool:
    """Whether every card seat ``o`` played so far was legal from ``hand_now`` plus his later cards (R6)."""
    trump = C.suit_of(record.trump_card)
    king, queen = C.card_id(trump, C.KING), C.card_id(trump, C.QUEEN)
    tricks = [(record.plays[tt], tt) for tt in range(pos.t + 1)]
    later = hand_now
    events = []
    for tr, tt in tricks:
        seats = [s % len(record.passed) for s in range(tr.leader, tr.leader + len(record.passed))
                 if not record.passed[s % len(record.passed)]]  # fmt: skip
        if tt == pos.t:
            seats = seats[: pos.k]
        cards = [tr.cards[s] for s in seats]
        if o in seats:
            events.append((tt, seats.index(o), cards))
    for tt, j, cards in events:
        later |= 1 << cards[j]
    for tt, j, cards in events:  # in order; the hand then = now + what he played from then on
        hand = hand_now
        for tt2, j2, cards2 in events:
            if tt2 >= tt:
                hand |= 1 << cards2[j2]
        q_duty = False
        if j == 0 and tt > 0:
            prev = record.plays[tt - 1]
            q_duty = prev.leader == o and prev.winner == o and prev.cards[o] == king and bool(hand >> queen & 1)
        before = np.array(cards[:j] + [0] * (C.MAX_SEATS - j), np.int8)
        legal = int(legal_mask(np.uint64(hand), before, j, trump, q_duty, rules.ruff.value == "overtrump",
                               rules.must_head, rules.ace_covers_face))  # fmt: skip
        if not legal >> cards[j] & 1:
            return False
    return True


def _positions(rules: Rules, seed: int, deals: int, min_t: int, policy: str = "expert"):
    out = engine.simulate(rules, policy, seed=seed, deals=deals, log_plays=True)
    for i in range(deals):
        record = engine.record_of(out, i)
        for t in range(min_t, len(record.plays)):
            n_active = sum(not p for p in record.passed)
            for k in range(n_active):
                yield record, state_at(rules, record, t, k)


def _piles_of(rules: Rules, record, pos, piles_fn=play_piles):
    n = rules.players
    allowed = np.zeros(MAX_PILES, np.uint64)
    caps = np.zeros(MAX_PILES, np.int64)
    pile_seat = np.zeros(MAX_PILES, np.int64)
    forbid = np.zeros(C.MAX_SEATS, np.uint64)
    before = np.zeros(C.MAX_SEATS, np.int8)
    pairs = np.full((MAX_PAIRS, 2), -1, np.int8)
    pair_piles = np.zeros(MAX_PAIRS, np.int64)
    unknown, n_piles = piles_fn(
        rules_args(rules), n, pos.seat, record.dealer, record.trump_card, pos.cardsets, pos.st, pos.trick, pos.log,
        pos.t, pos.k, allowed, caps, pile_seat, forbid, before, pairs, pair_piles, False,
    )  # fmt: skip
    return int(unknown), [int(x) for x in allowed[:n_piles]], [int(x) for x in caps[:n_piles]], \
        [int(x) for x in pile_seat[:n_piles]], [tuple(int(c) for c in p) for p in pairs], \
        [int(x) for x in pair_piles]  # fmt: skip


def _brute_force(rules: Rules, record, pos):
    """Weighted count of the other active hands consistent with the record, as the piles count them."""
    n = rules.players
    seat = pos.seat
    trump_card = record.trump_card
    seen = int(pos.cardsets[S.HAND, seat]) | record.discards[seat] | pos.played | 1 << trump_card
    if record.trump_discard[seat] >= 0:
        seen |= 1 << record.trump_discard[seat]
    unknown = C.deck_mask(rules.deck_size) & ~seen
    others = [(seat + i) % n for i in range(1, n) if not record.passed[(seat + i) % n]]
    sizes = []
    pinned = {}
    for o in others:
        size = C.N_TRICKS - pos.t - sum(1 for j in range(pos.k) if pos.trick[S.TRICK_SEAT, j] == o)
        if o == record.dealer and record.took_trump[o] and not pos.played >> trump_card & 1:
            pinned[o] = 1 << trump_card
            size -= 1
        sizes.append(size)
    passers = sum(1 for o in range(n) if record.passed[o] and o != seat)
    aces = C.mask_of(C.card_id(s, C.ACE) for s in range(C.N_SUITS))
    track_passers = rules.ace_forbids_pass and passers > 0 and unknown & aces

    black = C.mask_of(C.card_id(s, C.JACK) for s in (0, 1))
    red = C.mask_of(C.card_id(s, C.JACK) for s in (2, 3))

    def no_undeclared_pair(o: int, h: int) -> bool:
        """R5.5: a seat that declared no jacks held no same-colour pair at the first lead (final counting)."""
        if rules.jacks_count.value == "dealt" or record.declaration[o] in (Declaration.JACK_PAIR, Declaration.FOUR_JACKS):
            return True
        final = h | pinned.get(o, 0) | C.mask_of(record.plays[tt].cards[o] for tt in range(pos.t)) | \
            C.mask_of(int(pos.trick[S.TRICK_CARD, j]) for j in range(pos.k) if pos.trick[S.TRICK_SEAT, j] == o)  # fmt: skip
        return final & black != black and final & red != red

    def possible(o: int) -> list[int]:
        """The colours whose jacks could all be his: unseen, played by him or his trump card."""
        his = pinned.get(o, 0) | C.mask_of(c for tt in range(pos.t) if (c := record.plays[tt].cards[o]) >= 0) | \
            C.mask_of(int(pos.trick[S.TRICK_CARD, j]) for j in range(pos.k) if pos.trick[S.TRICK_SEAT, j] == o)  # fmt: skip
        return [pair for pair in (black, red) if pair & ~(his | unknown) == 0]

    # R5.5 as the piles read it: a declarer of four jacks holds all four, of a pair a whole colour,
    # two declared pairs both colours, as far as what is seen tells whose colour is whose; passers
    # (who hold their dealt hands) included
    declarers = [o for o in range(n) if o != seat]
    four = [o for o in declarers if record.declaration[o] == Declaration.FOUR_JACKS]
    two = [o for o in declarers if record.declaration[o] == Declaration.JACK_PAIR]
    placements = [((black | red) & unknown, {o}) for o in four]  # (jacks, the seats they lie with)
    if len(two) == 1 and len(possible(two[0])) == 1:
        placements.append((possible(two[0])[0] & unknown, {two[0]}))
    elif len(two) == 2:
        (a, pa), (b, pb) = ((o, possible(o)) for o in two)
        if len(pa) == 1:
            placements += [(pa[0] & unknown, {a}), (((black | red) & ~pa[0]) & unknown, {b})]
        elif len(pb) == 1:
            placements += [(pb[0] & unknown, {b}), (((black | red) & ~pb[0]) & unknown, {a})]
        else:
            placements.append(((black | red) & unknown, {a, b}))
    final = rules.jacks_count.value == "final"

    def confined(owners) -> bool:
        """Whether the jacks lie in the owners' hands (a player's under final; a passer's always,
        tracked in the passers' cards where there is a pile of them), not among discards."""
        return all(track_passers if record.passed[o] else final for o in owners)

    def declared_jacks_fit(hands) -> bool:
        for cards, owners in placements:
            if any(hands[x] & cards for x in hands if x not in owners):
                return False  # in no other player's hand
            in_hands = sum(hands.get(o, 0) & cards for o in owners)
            if confined(owners) and not any(record.passed[o] for o in owners) and in_hands != cards:
                return False  # in the declarers' hands
        return True

    # the passers' cards: no jack placed with players only; every jack placed with passers (and
    # confined) that no player holds
    not_passers = sum(cards for cards, owners in placements if not any(record.passed[o] for o in owners))

    def passers_ways(hands, rest) -> int:
        must = 0
        for cards, owners in placements:
            if any(record.passed[o] for o in owners) and confined(owners):
                must |= cards & rest
        free = int(rest & ~aces & ~not_passers & ~must).bit_count()
        return math.comb(free, passers * C.N_TRICKS - int(must).bit_count())

    total = 0
    for hands, rest in each_deal(unknown, sizes):
        if all(_history_legal(rules, record, pos, o, h | pinned.get(o, 0)) and no_undeclared_pair(o, h)
               for o, h in zip(others, hands)) and declared_jacks_fit(dict(zip(others, hands))):  # fmt: skip
            total += passers_ways(hands, rest) if track_passers else 1
    return total


def each_deal(unknown: int, sizes: list[int]):
    """Every way to deal hands of ``sizes`` cards from the cards of ``unknown``: (the hands, the cards left)."""
    if not sizes:
        yield [], unknown
        return
    for combo in itertools.combinations(C.cards_of(unknown), sizes[0]):
        h = _mask(combo)
        for hands, rest in each_deal(unknown & ~h, sizes[1:]):
            yield [h] + hands, rest


PILE_RULES = {
    "classic": Rules(),
    "overtrump-must-head": Rules(ruff="overtrump", must_head=True),
    "no-ace-duty": Rules(ace_covers_face=False, players=3),
}


@pytest.mark.parametrize("limit", [1_500, pytest.param(20_000, marks=pytest.mark.slow, id="20000")])
@pytest.mark.parametrize("name", list(PILE_RULES))
def test_piles_admit_exactly_the_legal_histories(name, limit):
    """Every position small enough to enumerate (at most ``limit`` hands for the others), the
    R6.6 pair constraint among them, counts as the replayed histories do."""
    rules = PILE_RULES[name]
    checked = pairs = jacks = 0
    for record, pos in _positions(rules, seed=3, deals=150, min_t=2):
        unknown, allowed, caps, pile_seat, pair_cards, pair_piles = _piles_of(rules, record, pos)
        hands = [c for c, o in zip(caps, pile_seat) if o >= 0]  # the passers' pile is counted, not enumerated
        if math.prod(math.comb(int(unknown).bit_count(), c) for c in hands) > limit:
            continue
        if checked >= 40 and not any(pair_piles):
            continue
        total, _ = _dp(unknown, allowed, caps, pair_cards, pair_piles)
        assert total == _brute_force(rules, record, pos), (record, pos.t, pos.k)
        checked += 1
        pairs += pair_piles[0] != 0
        jacks += pair_piles[1] != 0 or pair_piles[2] != 0
    assert checked >= 30
    if name == "classic":
        assert pairs >= 1 and jacks >= 1  # R6.6's "not both K and Q" and R5.5's "no jack pair" were exercised


@pytest.mark.parametrize("name, rules", [("passers-pile", Rules()), ("no-passers-pile", Rules(ace_forbids_pass=False))])
def test_piles_place_passers_declared_jacks(name, rules):
    """A passer's declared jacks (R5.5: his dealt hand, which he keeps) lie with him: where what the
    seat saw settles their colour, in no player's hand; in the passers' pile where there is one
    (R4.1), else in the free pile. Positions of tables of random players, who pass often, whose
    passers declared jacks; the piles count as the replayed histories do."""
    checked = 0
    for record, pos in _positions(rules, seed=5, deals=400, min_t=2, policy="random"):
        if not any(record.passed[o] and o != pos.seat and record.declaration[o] in DECLARED
                   for o in range(rules.players)):  # fmt: skip
            continue
        unknown, allowed, caps, pile_seat, pair_cards, pair_piles = _piles_of(rules, record, pos)
        hands = [c for c, o in zip(caps, pile_seat) if o >= 0]  # the passers' pile is counted, not enumerated
        if math.prod(math.comb(int(unknown).bit_count(), c) for c in hands) > 4_000:
            continue
        total, _ = _dp(unknown, allowed, caps, pair_cards, pair_piles)
        assert total == _brute_force(rules, record, pos), (name, record, pos.t, pos.k)
        checked += 1
    assert checked >= 10, checked


DECLARED = (Declaration.JACK_PAIR, Declaration.FOUR_JACKS)


def test_piles_read_no_hidden_card():
    rules = Rules()
    checked = 0
    for record, pos in _positions(rules, seed=8, deals=40, min_t=1):
        base = _piles_of(rules, record, pos)
        swapped = _swap_hidden(record, pos)
        if swapped is None:
            continue
        assert _piles_of(rules, record, swapped) == base
        checked += 1
    assert checked >= 20


def _swap_hidden(record, pos):
    """The same position with two hidden cards swapped between the hands of two other active seats
    (a card of a suit both still hold, so no void is broken), or None if there is no such pair."""
    n = len(record.passed)
    others = [o for o in range(n) if o != pos.seat and not record.passed[o]]
    for a, b in itertools.combinations(others, 2):
        ha, hb = int(pos.cardsets[S.HAND, a]), int(pos.cardsets[S.HAND, b])
        for ca in C.cards_of(ha):
            for cb in C.cards_of(hb):
                if C.suit_of(ca) == C.suit_of(cb) and ca != record.trump_card and cb != record.trump_card:
                    cardsets = pos.cardsets.copy()
                    cardsets[S.HAND, a] = np.uint64(ha & ~(1 << ca) | 1 << cb)
                    cardsets[S.HAND, b] = np.uint64(hb & ~(1 << cb) | 1 << ca)
                    return type(pos)(**{**pos.__dict__, "cardsets": cardsets})
    return None


def test_a_planted_leak_is_caught():
    """Piles that pin another seat's real hand (a leak) differ between the swapped states."""

    def leaky(r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, allowed, caps, pile_seat, forbid, before,
              pairs, pair_piles, maybe_discarded):  # fmt: skip
        out = play_piles(r, n, seat, dealer, trump_card, cardsets, st, trick, log, t, k, allowed, caps, pile_seat, forbid,
                         before, pairs, pair_piles, maybe_discarded)  # fmt: skip
        for p in range(out[1] - 1):
            if pile_seat[p] >= 0:
                allowed[p] &= cardsets[S.HAND, pile_seat[p]]  # peeks
        return out

    rules = Rules()
    for record, pos in _positions(rules, seed=8, deals=40, min_t=1):
        swapped = _swap_hidden(record, pos)
        if swapped is not None and _piles_of(rules, record, swapped, leaky) != _piles_of(rules, record, pos, leaky):
            return
    pytest.fail("the leak was never visible")


# ---- before the play: every other hand is five unseen cards; a passer's holds no ace ------------
@pytest.mark.parametrize("passers", [(), (1,), (1, 3)])
def test_exchange_piles_count_the_deals_left(passers):
    """Seat 2's view at his turn to exchange (4 players, 32 cards): the layouts are the ways to deal
    the other three hands from the unseen cards, the passers' from the non-aces (R4.1)."""
    from rams_sim.kernels.knowledge import exchange_piles

    rules = Rules()
    n, seat = rules.players, 2
    _order, _rng, cardsets, st, _trick, _info, _log = (np.zeros(a.shape, a.dtype) for a in _state())
    deck = C.cards_of(C.deck_mask(rules.deck_size))
    mine = [c for c in deck if C.rank_of(c) != C.ACE][:5]
    trump_card = [c for c in deck if C.rank_of(c) != C.ACE][-1]
    cardsets[S.HAND, seat] = np.uint64(_mask(mine))
    for o in passers:
        st[S.PASSED, o] = 1
    allowed = np.zeros(MAX_PILES, np.uint64)
    caps = np.zeros(MAX_PILES, np.int64)
    pile_seat = np.zeros(MAX_PILES, np.int64)
    unknown, n_piles = exchange_piles(rules_args(rules), n, seat, trump_card, cardsets, st, allowed, caps, pile_seat)
    assert list(pile_seat[:n_piles]) == [3, 0, 1, -1] and list(caps[:n_piles]) == [5, 5, 5, 11]
    total, args = _dp(int(unknown), [int(a) for a in allowed[:n_piles]], [int(c) for c in caps[:n_piles]])
    u = int(unknown).bit_count()
    aces = 4  # none in his hand, the trump card is not an ace
    p, q = len(passers), n - 1 - len(passers)
    expected = math.prod(math.comb(u - aces - 5 * i, 5) for i in range(p)) * \
        math.prod(math.comb(u - 5 * p - 5 * i, 5) for i in range(q))  # fmt: skip
    assert total == pytest.approx(expected, rel=1e-12)
    ace_mask = C.mask_of(C.card_id(s, C.ACE) for s in range(C.N_SUITS))
    for layout in _draws(args, 300):
        for pile, o in zip(layout, pile_seat[:n_piles]):
            assert int(pile).bit_count() == caps[list(pile_seat[:n_piles]).index(o)]
            if o in passers:
                assert pile & ace_mask == 0


def _state():
    from rams_sim.kernels.state import make_state

    return make_state()


TRUTH_RULES = {
    "classic": Rules(),
    "jack-pair-worth-0": Rules(jack_pair=0),  # a declared pair writes off nothing: the declaration still counts
    "overtrump-must-head": Rules(ruff="overtrump", must_head=True),
    "jacks-final-5p": Rules(jacks_count="final", players=5),
}


@pytest.mark.parametrize("name", list(TRUTH_RULES))
def test_the_real_deal_is_always_one_of_the_worlds(name):
    """At every card of 60 real deals, each other seat's real hand fits its pile (its cards
    allowed, their number its capacity) and breaks no pair constraint: what the seat deduces
    is never false."""
    rules = TRUTH_RULES[name]
    checked = 0
    for record, pos in _positions(rules, seed=17, deals=60, min_t=0):
        unknown, allowed, caps, pile_seat, pair_cards, pair_piles = _piles_of(rules, record, pos)
        for p, o in enumerate(pile_seat[:-1]):
            if o < 0:
                continue
            real = int(pos.cardsets[S.HAND, o]) & unknown
            assert real & ~allowed[p] == 0, (name, o, C.format_cards(real & ~allowed[p]))
            assert int(real).bit_count() == caps[p]
            for (a, b), mask in zip(pair_cards, pair_piles):
                assert not (mask >> p & 1 and real >> a & 1 and real >> b & 1), (name, o, a, b)
        checked += 1
    assert checked > 500
