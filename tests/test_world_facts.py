"""What the declarations and the running scores show, in a searching seat's worlds (issue "Strong play").

The piles (:mod:`rams_sim.kernels.knowledge`) say what play showed; what the declarations
and the running scores showed is checked on each drawn world and a world that breaks it is
drawn again (:func:`rams_sim.kernels.knowledge.declarations_fit`, the reference's
:func:`rams_sim.reference.pimc.declarations_fit`). Here, on positions of real deals small
enough to enumerate:

* the facts are typed from RULES.md again (R5.1 four aces, R5.2 a rams, R5.5 the declared
  jacks under ``jacks_count=final``, R8.2 a seat that announces is not at zero) and every
  consistent layout of the other hands is enumerated; the positions are chosen where the
  facts rule some layouts out, each kind of fact at several of them;
* the kernel's draws (:func:`rams_sim.kernels.pimc._play_world`) match the exact
  probability of every card in every other hand (within 5 sd), and every drawn world fits;
* both engines agree deal by deal on deals with searching seats whose worlds are redrawn
  (the redraws counted, by the fact broken).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from test_worlds import _history_legal, _piles_of, _positions, each_deal

from rams_sim import cards as C
from rams_sim import engine, reference
from rams_sim.kernels import pimc as K
from rams_sim.kernels import state as S
from rams_sim.kernels.args import rules_args
from rams_sim.kernels.rng import seed_stream
from rams_sim.record import Declaration
from rams_sim.reference.pimc import passers_kind_ways
from rams_sim.rules import Rules

ACES = [C.card_id(s, C.ACE) for s in range(C.N_SUITS)]
BLACK_JACKS = {C.card_id(C.SPADES, C.JACK), C.card_id(C.CLUBS, C.JACK)}
RED_JACKS = {C.card_id(C.DIAMONDS, C.JACK), C.card_id(C.HEARTS, C.JACK)}
SHOWN = {int(Declaration.JACK_PAIR): 1, int(Declaration.FOUR_JACKS): 2}


def _jack_kind(cards) -> int:
    """R5.5: 2 for the four jacks, 1 for both black or both red, else 0."""
    black, red = len(BLACK_JACKS & set(cards)), len(RED_JACKS & set(cards))
    return 2 if black == 2 and red == 2 else 1 if 2 in (black, red) else 0


def _played_by(record, pos, o: int) -> int:
    return C.mask_of(record.plays[tt].cards[o] for tt in range(pos.t)) | C.mask_of(
        int(pos.trick[S.TRICK_CARD, j]) for j in range(pos.k) if pos.trick[S.TRICK_SEAT, j] == o)  # fmt: skip


def _broken(rules: Rules, record, pos, o: int, hand: int) -> set[str]:
    """The facts a layout giving seat ``o`` the cards ``hand`` now (the dealer's trump card included) breaks."""
    cards = C.cards_of(hand | _played_by(record, pos, o))  # his hand at the first lead
    broken = set()
    if rules.four_aces_win and all(a in cards for a in ACES):
        broken.add("four aces")  # R5.1: they would have won at the declaration
    if any(sum(C.suit_of(c) == s for c in cards) == C.HAND_SIZE for s in range(C.N_SUITS)):
        broken.add("rams")  # R5.2-R5.3: a rams ends the deal before the play
    if rules.jacks_count.value == "final" and _jack_kind(cards) != SHOWN.get(record.declaration[o], 0):
        broken.add("jacks")  # R5.5: he declares what his final hand holds
    tricks = int(pos.st[S.TRICKS, o])
    aces = sum(rules.ace_values[C.suit_of(c)] for c in cards if C.rank_of(c) == C.ACE)
    if tricks >= 1 and rules.start - record.jacks[o] - tricks - aces <= 0:
        broken.add("zero")  # R8.2: he would have announced at that trick
    return broken


def _exact(rules: Rules, record, pos):
    """Every layout of the other active hands under which the history was legal: (weight, hands by
    seat, facts broken, its weight without R5.5 for the passers). Passers share one pile of non-aces where R4.1
    applies, else take their hands from the cards left; a layout weighs the ways to deal the
    passers' hands from those under which each holds the jacks he declared (R5.5: the
    reference's count, which test_passers_jacks_in_both_engines checks by hand)."""
    unknown, _, caps, pile_seat, _, _ = _piles_of(rules, record, pos)
    others = [o for o in pile_seat[:-1] if o >= 0]
    sizes = [caps[i] for i, o in enumerate(pile_seat[:-1]) if o >= 0]
    trump_card = record.trump_card
    pinned = {o: 1 << trump_card for o in others
              if o == record.dealer and record.took_trump[o] and not pos.played >> trump_card & 1}  # fmt: skip
    passers = [o for o in range(rules.players) if record.passed[o] and o != pos.seat]
    kinds = [SHOWN.get(record.declaration[o], 0) for o in passers]
    ace_mask = C.mask_of(ACES)
    track_passers = rules.ace_forbids_pass and passers and unknown & ace_mask
    layouts = []
    for hands, rest in each_deal(unknown, sizes):
        full = {o: h | pinned.get(o, 0) for o, h in zip(others, hands)}
        if all(_history_legal(rules, record, pos, o, h) for o, h in full.items()):
            good, every = passers_kind_ways([{k} for k in kinds], C.cards_of(rest & ~ace_mask if track_passers else rest))
            broken = set().union(*(_broken(rules, record, pos, o, h) for o, h in full.items()))
            layouts.append((good, full, broken, every))
    return layouts


def _card_chances(fitting) -> dict[tuple[int, int], float]:
    """P(seat o holds card c) over weighted layouts [(weight, hands by seat)]."""
    total = sum(w for w, _ in fitting)
    exact = {}
    for w, hands in fitting if total else ():
        for o, h in hands.items():
            for c in C.cards_of(h):
                exact[o, c] = exact.get((o, c), 0) + w / total
    return exact


PASSERS_EFFECT = 0.05  # positions where the passers' jacks move a card's chance this much (kind "passers")


def _largest_change(fitting) -> float:
    """How much the passers' declared jacks move the chance of some card in some hand: the layouts
    [(weight, hands, weight without them)] weighed with them and without."""
    weighed, without = _card_chances([(w, h) for w, h, _ in fitting]), _card_chances([(e, h) for _, h, e in fitting])
    return max((abs(weighed.get(key, 0.0) - without.get(key, 0.0)) for key in set(weighed) | set(without)), default=0.0)


def _binding_positions(rules: Rules, seed: int, deals: int, limit: int, wanted: dict[str, int], policy: str):
    """Positions (min_t 1, at most ``limit`` layouts) where a fact rules out a layout (or, kind
    ``passers``, weighs the layouts unequally), until ``wanted[kind]`` positions of each kind
    are found."""
    found = {kind: 0 for kind in wanted}
    for record, pos in _positions(rules, seed=seed, deals=deals, min_t=1, policy=policy):
        unknown, _, caps, pile_seat, _, _ = _piles_of(rules, record, pos)
        size = math.prod(math.comb(int(unknown).bit_count(), c) for c, o in zip(caps[:-1], pile_seat) if o >= 0)
        if size > limit:
            continue
        layouts = _exact(rules, record, pos)
        kinds = set().union(*(b for _, _, b, _ in layouts))
        fitting = [(w, hands, every) for w, hands, b, every in layouts if not b]
        if fitting and _largest_change(fitting) >= PASSERS_EFFECT:
            kinds.add("passers")  # the passers' declared jacks weigh the layouts unequally, and it shows
        kinds &= {k for k in wanted if found[k] < wanted[k]}
        if not kinds or all(b or not w for w, _, b, _ in layouts):
            continue
        for kind in kinds:
            found[kind] += 1
        yield record, pos, layouts, kinds
        if all(found[k] >= wanted[k] for k in wanted):
            return


def _kernel_draws(rules: Rules, record, pos, draws: int, key: int = 11):
    """``draws`` worlds drawn as pimc draws them at this card: the other hands by seat, and
    whether each fit (the fallback after MAX_DRAWS refusals keeps an unfit world)."""
    r = rules_args(rules)
    n = rules.players
    search = K.new_scratch()
    m, n_pairs, total, n_piles = K._play_count(search, r, n, pos.seat, record.dealer, record.trump_card, pos.cardsets,
                                                pos.st, pos.trick, pos.log, pos.t, pos.k)  # fmt: skip
    assert total > 0
    seed_stream(search.rng, K.DRAW_ROW, np.uint64(key), 99)
    scores = np.full(n, rules.start, np.int64)
    announce = np.ones(n, np.int8)
    out = []
    for _ in range(draws):
        fit = K._play_world(search, r, n, pos.seat, record.dealer, record.trump_card, pos.cardsets, pos.st, pos.trick,
                            pos.log, pos.t, pos.k, np.uint64(pos.played), m, n_pairs, total, n_piles, scores,
                            announce, np.int64(0), 0.1)  # fmt: skip (infer=none: uniform over the worlds that fit)
        hands = {o: int(search.b_cardsets[S.HAND, o]) for o in range(n)
                 if o != pos.seat and not record.passed[o]}  # fmt: skip
        out.append((bool(fit), hands))
    return out


FACT_RULES = {  # start 25: seats near zero (R8.2); final jacks: a declared pair is held (R5.5); a rams is rarer;
    # random players pass often: their declared jacks (R5.5), from a pile of their own (R4.1) or from the cards left
    "zero-and-jacks": (Rules(jacks_count="final", start=25), 5, 400, {"zero": 3, "jacks": 3}, "expert"),
    "rams": (Rules(jacks_count="final"), 5, 600, {"rams": 2}, "expert"),
    # (a 24-card deck leaves few cards for the passers' hands to be among: the jacks there weigh more)
    "passers": (Rules(jacks_count="final", deck="24", players=3), 7, 300, {"passers": 3}, "random"),
    "passers-no-pile": (Rules(jacks_count="final", deck="24", ace_forbids_pass=False), 7, 300, {"passers": 3},
                        "random"),
}
DRAWS = {"passers": 10_000, "passers-no-pile": 10_000}  # worlds per position (else 2,000): the effects are small


@pytest.mark.heavy  # a statistical check of the search's own kernel, _play_world (20 s of compile: make test-slow)
@pytest.mark.parametrize("name", list(FACT_RULES))
def test_draws_are_uniform_over_the_worlds_that_fit(name):
    rules, seed, deals, wanted, policy = FACT_RULES[name]
    draws = DRAWS.get(name, 2_000)
    seen = {kind: 0 for kind in wanted}
    for record, pos, layouts, kinds in _binding_positions(rules, seed, deals, 4_000, wanted, policy):
        exact = _card_chances([(w, hands) for w, hands, broken, _ in layouts if not broken])
        sample = _kernel_draws(rules, record, pos, draws)
        assert all(fit for fit, _ in sample), "a world that fits exists: one is always found"
        for _, hands in sample:
            assert not set().union(*(_broken(rules, record, pos, o, h) for o, h in hands.items()))
        for o in {o for o, _ in exact}:
            for c in C.cards_of(C.deck_mask(rules.deck_size)):
                p = exact.get((o, c), 0.0)
                f = sum(1 for _, hands in sample if hands[o] >> c & 1) / draws
                sd = math.sqrt(max(p * (1 - p), 1e-12) / draws)
                assert abs(f - p) <= 5 * sd + 1e-9, (name, pos.t, pos.k, o, C.format_cards(1 << c), f, p)
        for kind in kinds:
            seen[kind] += 1
    assert all(seen[k] >= wanted[k] for k in wanted), seen


REDRAW_RULES = {  # the default dealt-or-final jacks at start 25; final jacks; passers (random players pass often)
    "dealt-or-final": Rules(start=25),
    "final": Rules(jacks_count="final", start=25, players=5),
    "passers": Rules(deck="24", players=3),
}
REDRAW_POLICIES = {"passers": ["pimc:samples=4", "random", "pimc:samples=3,rollout=basic"]}
REDRAWN = {"dealt-or-final": ("zero", "jacks"), "final": ("zero", "jacks"), "passers": ("passers",)}


@pytest.mark.heavy  # the searching seat's kernels (make test-slow)
@pytest.mark.parametrize("name", list(REDRAW_RULES))
def test_both_engines_redraw_the_same_worlds(name, monkeypatch):
    """Deals with searching seats agree deal by deal while worlds are refused and drawn again
    (counted in the reference, by the fact broken: the redraws are exercised, not just allowed)."""
    from test_differential import assert_same_deals

    from rams_sim.reference import pimc as ref_pimc
    from rams_sim.reference.games import classic as ref_classic

    refused = {}
    original = ref_classic.world_fits

    def counting(table, sheet, state, seat, world):
        fits = original(table, sheet, state, seat, world)
        passers = [o for o in range(table.n) if o != seat and table.passed[o]]
        if passers:  # R5.5: the passers' declared jacks lower the chance to keep the world
            good, every = ref_pimc.passers_kind_ways([{SHOWN.get(sheet.declaration[o], 0)} for o in passers],
                                                     world.passers_among)  # fmt: skip
            if good < every:
                refused["passers"] = refused.get("passers", 0) + 1
        if not fits:
            for o, hand in world.hands.items():
                cards = list(hand) + ref_pimc.played_by(table, state, o)
                kind = "rams" if any(sum(C.suit_of(c) == s for c in cards) == C.HAND_SIZE for s in range(C.N_SUITS)) \
                    else "zero" if sheet.tricks[o] and sheet.scores[o] - sheet.jacks[o] - sheet.tricks[o] - world.aces[o] <= 0 \
                    else "jacks" if _jack_kind(cards) != SHOWN.get(sheet.declaration[o], 0) else None  # fmt: skip
                if kind:
                    refused[kind] = refused.get(kind, 0) + 1
        return fits

    monkeypatch.setattr(ref_classic, "world_fits", counting)
    rules = REDRAW_RULES[name]
    policies = ["pimc:samples=4", "expert", "pimc:samples=3,rollout=basic", "basic", "pimc:samples=3"][: rules.players]
    assert_same_deals(rules, REDRAW_POLICIES.get(name, policies), seed=31, deals=24, label=f"redraws {name}")
    assert all(refused.get(kind, 0) > 0 for kind in REDRAWN[name]), refused


def _cards(text: str) -> list[int]:
    return C.parse_cards(text) if text else []


PASSER_CASES = [  # the passers' declared jack kinds, the cards their hands are among -> the share that fits (R5.5)
    ([0], "J♠ J♣ 7♥ 8♥ 9♥ 10♥ 7♦ 8♦", Fraction(36, 56)),  # not both black jacks: 1 - C(6,3)/C(8,5)
    ([0], "J♠ J♣ 7♥ 8♥ 9♥", 0),  # a pile that is his hand, with a pair he did not declare
    ([1], "J♦ J♥ J♠ 7♣ 8♣ 9♣ 10♣ 7♠ 8♠ 9♠", Fraction(56, 252)),  # both red jacks (the J♠ beside them or not)
    ([0, 0], "J♠ J♣ J♦ J♥ 7♣ 8♣ 9♣ 10♣ 7♠ 8♠", Fraction(20, 63)),  # a black and a red each: 5/9 * 4/7
    ([2, 0], "J♠ J♣ J♦ J♥ 7♣ 8♣ 9♣ 10♣ 7♠ 8♠", Fraction(6, 252)),  # the first holds all four
    ([0, 1], "J♠ J♣ 7♥ 8♥ 9♥ 10♥ 7♦ 8♦ 9♦ 10♦", Fraction(56, 252)),  # the second both: the first neither
    ([0], "J♠ 7♥ 8♥ 9♥ 10♥ 7♦ 8♦", 1),  # one jack: no pair to hold
]
# modern, where four jacks win and passers declare nothing: no passer holds all four (kinds 0 and 1 allowed)
MODERN_PASSER_CASES = [  # (passers, the cards their hands are among, the first passer's known card -> share)
    (1, "J♠ J♣ J♦ J♥ 7♣ 8♣ 9♣ 10♣ 7♠ 8♠", "", Fraction(246, 252)),  # 1 - C(6,1)/C(10,5)
    (1, "J♠ J♣ J♦ J♥ 7♣", "", 0),
    (2, "J♠ J♣ J♦ J♥ 7♣ 8♣ 9♣ 10♣ 7♠ 8♠", "", Fraction(240, 252)),  # neither of the two: 2 * 6 of C(10,5) ways
    (1, "J♠ J♣ J♦ 7♥ 7♣", "", 1),  # three jacks: four cannot be held
    # the passing dealer holds his trump card J♠: not the other three among his four unseen cards
    (1, "J♣ J♦ J♥ 7♣ 8♣ 9♣ 10♣ 7♠", "J♠", Fraction(65, 70)),  # 1 - C(5,1)/C(8,4)
    (2, "J♣ J♦ J♥ 7♣ 8♣ 9♣ 10♣ 7♠ 8♠", "J♠", Fraction(120, 126)),  # 1 - C(6,1)/C(9,4): the other may hold three
]


@pytest.mark.parametrize("kinds, among, share", PASSER_CASES)
def test_passers_jacks_in_both_engines(kinds, among, share):
    """The share of the ways to deal the passers' hands that give each the jacks he declared,
    counted by hand: the kernels' count (each jack's place) and the reference's (hand by hand)."""
    declared = {0: int(Declaration.NONE), 1: int(Declaration.JACK_PAIR), 2: int(Declaration.FOUR_JACKS)}
    assert _passer_shares(len(kinds), [declared[k] for k in kinds], _cards(among), 0, [{k} for k in kinds]) == share


@pytest.mark.parametrize("passers, among, known, share", MODERN_PASSER_CASES)
def test_modern_passers_hold_no_four_jacks(passers, among, known, share):
    from rams_sim.kernels.knowledge import NO_FOUR

    none = [int(Declaration.NONE)] * passers
    assert _passer_shares(passers, none, _cards(among), NO_FOUR, [{0, 1}] * passers, _cards(known)) == share


def _passer_shares(passers: int, declarations: list[int], among: list[int], kinds: int, ref_kinds,
                   known=()) -> Fraction:  # fmt: skip
    """The share of both engines (asserted equal): seat 0 searches, seat 1 plays, the passers sit
    after them; the first passer holds the ``known`` card, if any."""
    from rams_sim.kernels.knowledge import passers_jack_ways

    st = S.make_state()[3]
    for i, code in enumerate(declarations):
        st[S.PASSED, 2 + i] = 1
        st[S.DECL, 2 + i] = code
    holder, held = (2, known[0]) if known else (-1, 0)
    good, every = passers_jack_ways(passers + 2, 0, st, np.uint64(C.mask_of(among)), kinds, holder, held)
    ref_good, ref_every = passers_kind_ways(ref_kinds, among, [list(known)] + [[]] * (passers - 1))
    assert Fraction(int(good), int(every)) == Fraction(ref_good, ref_every)
    return Fraction(ref_good, ref_every)


DEALT_CASES = [  # hand at the first lead, discards, give-up card, trump card taken -> ways to draw by dealt jack kind
    ("J♠ J♣ 7♥ 8♥ 9♥", "", None, None, {1: 1}),  # nothing drawn: the hand was dealt
    ("J♠ J♣ J♦ J♥ 9♥", "", None, None, {2: 1}),
    ("J♠ 7♥ 8♥ 9♥ 10♥", "J♣", None, None, {0: 1, 1: 4}),  # J♠ drawn, or kept beside the J♣ laid aside
    ("J♠ J♣ J♦ J♥ 9♥", "7♠ 7♣", None, None, {0: 4, 1: 6}),  # 9♥ and a jack; two jacks of a colour; a cross
    ("J♠ J♣ J♦ 8♥ 9♥", "7♠ 7♣", None, None, {0: 7, 1: 3}),
    ("J♠ J♣ 8♦ 8♥ 9♥", "7♠ 7♣ 7♦", None, None, {0: 9, 1: 1}),  # only the three others leave the pair
    ("J♠ J♣ 8♦ 8♥ 9♥", "7♠ 7♣ 7♦ 7♥", None, None, {0: 5}),  # four of five drawn: a jack among them
    ("J♠ J♣ 7♥ 8♥ 9♥", "", "J♦", "J♣", {0: 1}),  # R4.3: J♣ is the trump card he took, J♦ given up
    ("J♠ J♣ 7♥ 8♥ 9♥", "7♠", "J♦", "J♣", {0: 5}),
    ("J♠ 7♦ 7♥ 8♥ 9♥", "J♣", "10♠", "7♦", {0: 1, 1: 4}),
]


@pytest.mark.parametrize("hand, discards, give_up, took, ways", DEALT_CASES)
def test_dealt_jack_kinds_in_both_engines(hand, discards, give_up, took, ways):
    """In how many ways of drawing his cards (R4.4, R4.3) the dealt hand had each jack kind (R5.5),
    counted by hand, in the kernels and in the reference."""
    from rams_sim.kernels.knowledge import dealt_jack_counts
    from rams_sim.reference.pimc import dealt_kind_ways

    h, d = _cards(hand), _cards(discards)
    g = C.parse_cards(give_up)[0] if give_up else C.NO_CARD
    t = C.parse_cards(took)[0] if took else None
    expected = {kind: ways.get(kind, 0) for kind in range(3)}
    assert dealt_kind_ways(h, d, g, t) == expected
    counts = dealt_jack_counts(np.uint64(C.mask_of(h)), np.uint64(C.mask_of(d)),
                               np.uint64(1 << g if give_up else 0), np.uint64(1 << t if took else 0))  # fmt: skip
    assert dict(enumerate(counts)) == expected
    assert sum(counts) == math.comb(len(h), len(d))


@pytest.mark.heavy  # a searching zone seat's kernels (make test-slow)
def test_zone_worlds_hold_no_rams(monkeypatch):
    """zone (R9): a rams ends the deal before the play (R5.2-R5.4), so a searching seat's world
    never gives the other hand, with the cards he has played, five of a suit; both engines draw
    such a world again alike, deal by deal (the redraws counted in the reference)."""
    from test_differential import assert_same_deals

    from rams_sim.reference.games import zone_search

    refused = []
    original = zone_search.rams_suit

    def counting(cards):
        suit = original(cards)
        refused.append(suit >= 0)
        return suit

    monkeypatch.setattr(zone_search, "rams_suit", counting)
    assert_same_deals(Rules.named("zone"), ["pimc:samples=4", "pimc:samples=4"], seed=8, deals=300, label="zone rams")
    assert sum(refused) > 0, len(refused)


@pytest.mark.heavy
def test_modern_worlds_fit_the_declared_jacks(monkeypatch):
    """R9 modern: a world is kept only where each other player who plays declared the jacks he
    holds (a pair, or none; four jacks would have won) and no passer holds all four. Deals with
    searching seats agree deal by deal while worlds are refused and drawn again (counted in the
    reference): among them deals whose dealer took the widow, whose trump card may then lie
    among his laid-aside cards, where the piles place no declared jacks."""
    from test_differential import assert_same_deals

    from rams_sim.reference.games import modern as ref_modern

    refused = []
    original = ref_modern.world_fits

    def counting(table, sheet, state, seat, world):
        fits = original(table, sheet, state, seat, world)
        if fits < 1:
            refused.append(table.dealer if len(table.discards[table.dealer]) else None)
        return fits

    monkeypatch.setattr(ref_modern, "world_fits", counting)
    rules = Rules.named("modern")
    policies = ["pimc:samples=4", "expert", "pimc:samples=3,rollout=basic", "basic"]
    assert_same_deals(rules, policies, seed=37, deals=24, label="modern redraws")
    assert refused, "no world was refused"
    # the dealer (seat 0) takes the widow, the others never do (as test_modern_pimc_where_the_dealer_took_the_widow)
    never, always = "modern_widow_threshold=0", "modern_widow_threshold=99"
    policies = [f"basic:{always}", "pimc:samples=4", f"expert:{never}", f"pimc:samples=3,{never}"]
    refused.clear()
    out = engine.simulate(rules, policies, seed=53, deals=400, dealer=0, log_plays=True)
    for i in range(400):
        slow = reference.play_deal(rules, policies, seed=53, deal=i, dealer=0)
        assert not slow.differences(engine.record_of(out, i)), f"modern redraws, the dealer's widow: deal {i}"
    assert any(d == 0 for d in refused), refused
