"""RULES.md R10: every worked example, and the vectors for "our own readings".

Each test builds the hands itself and either calls ``settle_deal`` (R5 step 4 to R8.3
for given hands and trick winners, ENGINE.md section 9) or, where the exchange itself
is the point, ``play_deal`` with an explicit deck order and the ``basic`` policy.

Unless a test says otherwise: four players (so the 32-card deck, 7..A), seat 0 deals,
so seat order (R3) is 1, 2, 3, 0; every seat plays; every score is 100; no seat but
the focal one holds an ace, a jack pair or a rams. The "filler" hands below hold no
ace, no jack and no five cards of one suit, so they score only their tricks (R7).

Expected deltas are worked out by hand in the comments: "-(t + A)" for a player with
t >= 1 tricks (R7.1), "+(5 + A)" for a remiz (R7.2), "-jacks" first (R5.5).
"""

from __future__ import annotations

import pytest

from rams_sim.cards import deck_cards, mask_of, parse, parse_cards
from rams_sim.record import Declaration as Dc
from rams_sim.record import EndKind, Outcome
from rams_sim.rules import Rules

S, C, D, H = 0, 1, 2, 3  # trump suits (R1 order)
N0 = Dc.NONE

# the filler hands (4 players, 32 cards): no ace, no jack, no rams
FILL0 = "K♣ Q♣ 8♥ K♥ Q♥"  # seat 0, the dealer
FILL2 = "7♠ 8♠ 9♠ 10♦ 9♦"  # seat 2
FILL3 = "K♠ Q♠ 7♦ 8♦ 7♥"  # seat 3
# free for seat 1: the aces, the jacks, 10♠, 7♣ 8♣ 9♣ 10♣, J♦ Q♦ K♦, 9♥ 10♥
PLAIN1 = "7♣ 8♣ 9♣ 9♥ 10♥"  # a neutral hand for seat 1


# ---------------------------------------------------------------------------- helpers
def hands(*texts: str) -> list[list[int]]:
    """Hands by seat from their text."""
    return [parse_cards(t) for t in texts]


def table(seat1: str, seat2: str = FILL2, seat3: str = FILL3, seat0: str = FILL0) -> list[list[int]]:
    """Four hands by seat, written in seat order 1, 2, 3, 0 (dealer 0 acts last)."""
    return hands(seat0, seat1, seat2, seat3)


def _check_data(rules, dealt, final, active, winners):
    """Sanity of the test data itself: distinct cards from the deck, five per hand."""
    deck = {int(c) for c in deck_cards(rules.deck_size)}
    assert len(dealt) == len(final) == len(active) == rules.players
    owner: dict[int, int] = {}
    for seat, (d, f) in enumerate(zip(dealt, final)):
        assert len(d) == 5 and len(f) == 5 and len(set(d)) == 5 and len(set(f)) == 5, seat
        for card in set(d) | set(f):
            assert card in deck, (seat, card)
            assert owner.setdefault(card, seat) == seat, f"card {card} in seats {owner[card]} and {seat}"
        if not active[seat]:
            assert d == f, "a passer's final hand is his dealt hand"
    for w in winners:
        assert active[w], f"trick winner {w} passed"


def settle(engine, rules=None, *, trump, dealt, final=None, active=None, scores=None, winners=(), announce=None, dealer=0):
    """Call ``engine.settle_deal`` with the defaults of this module."""
    rules = Rules.classic() if rules is None else rules
    n = rules.players
    final = dealt if final is None else final
    active = [True] * n if active is None else list(active)
    scores = [rules.start] * n if scores is None else list(scores)
    _check_data(rules, dealt, final, active, winners)
    kwargs = dict(
        dealer=dealer,
        trump=trump,
        hands_dealt=dealt,
        hands_final=final,
        active=active,
        scores=scores,
        trick_winners=list(winners),
    )
    if announce is not None:
        kwargs["announce"] = list(announce)
    return engine.settle_deal(rules, **kwargs)


def _ints(seq):
    return tuple(int(x) for x in seq)


def expect(out, *, delta, tricks=None, jacks=None, declaration=None, overshoot=None,
           outcome=Outcome.PLAYED, ends_party=-1, end_kind=EndKind.NONE):
    """Compare every field of a DealOutcome at once (defaults: nothing declared)."""
    n = len(delta)
    got = {
        "delta": _ints(out.delta),
        "tricks": _ints(out.tricks),
        "jacks": _ints(out.jacks),
        "declaration": _ints(out.declaration),
        "overshoot": tuple(bool(x) for x in out.overshoot),
        "outcome": int(out.outcome),
        "ends_party": int(out.ends_party),
        "end_kind": int(out.end_kind),
    }
    want = {
        "delta": tuple(delta),
        "tricks": tuple(tricks) if tricks is not None else (0,) * n,
        "jacks": tuple(jacks) if jacks is not None else (0,) * n,
        "declaration": tuple(int(d) for d in declaration) if declaration is not None else (0,) * n,
        "overshoot": tuple(overshoot) if overshoot is not None else (False,) * n,
        "outcome": int(outcome),
        "ends_party": ends_party,
        "end_kind": int(end_kind),
    }
    assert got == want


# ----------------------------------------------------------------------------- R10.1
def test_r10_1_diamond_ace_one_trick(engine):
    """R10.1 / R7.1: a player holding ♦A who takes one trick writes off 1 + 15 = 16."""
    out = settle(engine, trump=S, dealt=table("A♦ 7♣ 8♣ 9♥ 10♥"), winners=[1, 2, 2, 3, 0])
    # tricks: s0 1, s1 1, s2 2, s3 1.  s1: -(1 + 15) = -16; others -(t + 0)
    expect(out, delta=(-1, -16, -2, -1), tricks=(1, 1, 2, 1))


# ----------------------------------------------------------------------------- R10.2
def test_r10_2_three_aces_two_tricks(engine):
    """R10.2 / R7.1: ♠A ♦A ♥A and two tricks write off 2 + 5 + 15 + 20 = 42."""
    out = settle(engine, trump=C, dealt=table("A♠ A♦ A♥ 7♣ 8♣"), winners=[1, 3, 1, 0, 3])
    # tricks: s0 1, s1 2, s2 0, s3 2.  s1: -(2 + 40) = -42; s2 remiz +5
    expect(out, delta=(-1, -42, 5, -2), tricks=(1, 2, 0, 2))


# ----------------------------------------------------------------------------- R10.3
@pytest.mark.parametrize(
    "aces, delta1",
    [
        ("A♠ A♦ A♥", 45),  # 5 + (5 + 15 + 20)
        ("A♣ A♦ A♥", 50),  # 5 + (10 + 15 + 20)
    ],
)
def test_r10_3_three_aces_remiz(engine, aces, delta1):
    """R10.3 / R7.2: three aces and no trick write on 5 plus the aces: +45 (♠♦♥), +50 (♣♦♥)."""
    out = settle(engine, trump=S, dealt=table(aces + " 9♥ 10♥"), winners=[2, 3, 0, 2, 3])
    # tricks: s0 1, s1 0, s2 2, s3 2
    expect(out, delta=(-1, delta1, -2, -2), tricks=(1, 0, 2, 2))


# ----------------------------------------------------------------------------- R10.4
@pytest.mark.parametrize(
    "winners, tricks, delta",
    [
        ([1, 2, 3, 0, 0], (2, 1, 1, 1), (-2, -41, -1, -1)),  # s1: -(1 + 40)
        ([1, 1, 3, 0, 0], (2, 2, 0, 1), (-2, -42, 5, -1)),  # s1: -(2 + 40); s2 remiz +5
    ],
    ids=["1 trick", "2 tricks"],
)
def test_r10_4_three_aces_one_or_two_tricks(engine, winners, tricks, delta):
    """R10.4 / R7.1: ♠A ♦A ♥A write off 40 for the aces plus 1 per trick: -41, -42."""
    out = settle(engine, trump=C, dealt=table("A♠ A♦ A♥ 7♣ 8♣"), winners=winners)
    expect(out, delta=delta, tricks=tricks)


# ----------------------------------------------------------------------------- R10.5
def test_r10_5_jack_pair_no_trick_is_zero(engine):
    """R10.5 / R7.3: an ace-less jack pair with no trick: -5 jacks + 5 remiz = 0."""
    out = settle(engine, trump=D, dealt=table("J♠ J♣ 7♣ 8♣ 9♥"), winners=[2, 3, 0, 2, 3])
    # s1: -5 (jacks) + 5 (remiz) + 0 (no ace) = 0
    expect(out, delta=(-1, 0, -2, -2), tricks=(1, 0, 2, 2), jacks=(0, 5, 0, 0),
           declaration=(N0, Dc.JACK_PAIR, N0, N0))


def test_r10_5_four_jacks_no_trick_writes_off_5(engine):
    """R10.5 / R7.3: four jacks and no trick: -10 jacks + 5 remiz = -5."""
    out = settle(engine, trump=D, dealt=table("J♠ J♣ J♦ J♥ 7♣"), winners=[2, 3, 0, 2, 3])
    expect(out, delta=(-1, -5, -2, -2), tricks=(1, 0, 2, 2), jacks=(0, 10, 0, 0),
           declaration=(N0, Dc.FOUR_JACKS, N0, N0))


def test_r7_3_jack_pair_no_trick_keeps_ace_part_of_remiz(engine):
    """R7.3: a jack pair cancels only the 5 of the remiz; the ace part stays (♣A: +10)."""
    out = settle(engine, trump=D, dealt=table("J♠ J♣ A♣ 8♣ 9♥"), winners=[2, 3, 0, 2, 3])
    # s1: -5 + (5 + 10) = +10
    expect(out, delta=(-1, 10, -2, -2), tricks=(1, 0, 2, 2), jacks=(0, 5, 0, 0),
           declaration=(N0, Dc.JACK_PAIR, N0, N0))


# ----------------------------------------------------------------------------- R10.6
def test_r10_6_suit_rams_with_ace_and_trump_ace_penalty(engine):
    """R10.6 / R5.2: ♥ rams with ♥A writes off 5+20; the holder of the trump ace ♠A writes on 5+5."""
    dealt = table("A♥ K♥ Q♥ 10♥ 9♥", "A♠ 7♣ 8♣ 9♦ 10♦", "7♠ 8♠ K♣ Q♣ 7♦", "9♠ 10♠ 8♦ Q♦ K♦")
    out = settle(engine, trump=S, dealt=dealt)
    # s1 -(5 + 20) = -25; s2 +(5 + 5) = +10 (trump ace included); s3, s0 +5; no play
    expect(out, delta=(5, -25, 10, 5), declaration=(N0, Dc.SUIT_RAMS, N0, N0), outcome=Outcome.RAMS)


@pytest.mark.parametrize(
    "rules, passer_delta",
    [
        (Rules.classic(), 0),  # [003]: only those who play pay
        (Rules.classic(rams_penalizes_passers=True), 5),  # [000]: 5 + A(=0)
        (Rules.encyclopedia(), 5),  # R9: encyclopedia sets rams_penalizes_passers
    ],
    ids=["classic", "option", "encyclopedia"],
)
def test_r5_2_rams_penalty_for_passers(engine, rules, passer_delta):
    """R5.2 / R7.4: a passer pays a rams penalty only with rams_penalizes_passers."""
    dealt = table("A♥ K♥ Q♥ 10♥ 9♥", "A♠ 7♣ 8♣ 9♦ 10♦", "7♠ 8♠ K♣ Q♣ 7♦", "9♠ 10♠ 8♦ Q♦ K♦")
    out = settle(engine, rules, trump=S, dealt=dealt, active=[False, True, True, True])
    expect(out, delta=(passer_delta, -25, 10, 5), declaration=(N0, Dc.SUIT_RAMS, N0, N0),
           outcome=Outcome.RAMS)


# ----------------------------------------------------------------------------- R10.7
def test_r10_7_trump_rams_with_trump_ace(engine):
    """R10.7 / R5.3: trump rams with ♣A (trump ♣) writes off 10+10; others write on 10 + their aces."""
    dealt = table("A♣ K♣ Q♣ 10♣ 9♣", "7♠ 8♠ 9♦ 10♦ 7♥", "9♠ 10♠ 8♦ Q♦ 8♥", "K♠ Q♠ K♦ A♥ 10♥")
    out = settle(engine, trump=C, dealt=dealt)
    # s1 -(10 + 10) = -20; s2, s3 +10 (no ace); s0 +(10 + 20) = +30 (R5.3: aces on both sides)
    expect(out, delta=(30, -20, 10, 10), declaration=(N0, Dc.TRUMP_RAMS, N0, N0), outcome=Outcome.RAMS)


# ----------------------------------------------------------------------------- R10.8
def test_r10_8_score_1_one_trick_wins(engine):
    """R10.8 / R8.2: at score 1 a player's first trick takes him to 0: he wins and the deal stops."""
    out = settle(engine, trump=S, dealt=table(PLAIN1), scores=[100, 1, 100, 100], winners=[2, 1, 3, 0, 0])
    # trick 1 -> s2; trick 2 -> s1: 1 - 1 = 0 -> announce, stop (tricks 3-5 never credited).
    # R8.2a freeze: winner -(0 + 1 + 0) = -1, the others -jacks = 0
    expect(out, delta=(0, -1, 0, 0), tricks=(0, 1, 1, 0), ends_party=1, end_kind=EndKind.TRICK)


def test_r10_8_score_3_spade_ace_one_trick_wins(engine):
    """R10.8 / R8.2: at score 3 holding ♠A, the first trick counts 1 + 5 >= 3: he wins."""
    out = settle(engine, trump=D, dealt=table("A♠ 7♣ 8♣ 9♥ 10♥"), scores=[100, 3, 100, 100],
                 winners=[1, 2, 2, 3, 0])
    # trick 1 -> s1: 3 - 1 - 5 = -3 <= 0 -> wins; delta -(1 + 5) = -6
    expect(out, delta=(0, -6, 0, 0), tricks=(0, 1, 0, 0), ends_party=1, end_kind=EndKind.TRICK)


def test_r8_2_ace_counts_but_zero_not_reached_until_second_trick(engine):
    """R8.2: the running score is score - jacks - tricks - A; at 7 with ♠A he reaches 0 at his 2nd trick."""
    out = settle(engine, trump=D, dealt=table("A♠ 7♣ 8♣ 9♥ 10♥"), scores=[100, 7, 100, 100],
                 winners=[1, 2, 1, 3, 0])
    # trick 1 -> s1: 7-1-5 = 1; trick 2 -> s2; trick 3 -> s1: 7-2-5 = 0 -> wins; delta -(2+5)
    expect(out, delta=(0, -7, 0, 0), tricks=(0, 2, 1, 0), ends_party=1, end_kind=EndKind.TRICK)


def test_r8_2_ace_not_counted_before_first_trick(engine):
    """R8.2: A enters the running score only from the first trick: at 5 with ♥A and no trick, no win (+25)."""
    out = settle(engine, trump=D, dealt=table("A♥ 7♣ 8♣ 9♣ 10♣"), scores=[100, 5, 100, 100],
                 winners=[2, 3, 0, 2, 3])
    # no trick: remiz 5 + 20 = +25, the party goes on
    expect(out, delta=(-1, 25, -2, -2), tricks=(1, 0, 2, 2))


def test_r8_2_ace_counts_from_first_trick(engine):
    """R8.2: at 5 with ♥A the first trick (trick 3 of the deal) gives 5 - 1 - 20 < 0: he wins there."""
    out = settle(engine, trump=D, dealt=table("A♥ 7♣ 8♣ 9♣ 10♣"), scores=[100, 5, 100, 100],
                 winners=[2, 3, 1, 0, 0])
    expect(out, delta=(0, -21, 0, 0), tricks=(0, 1, 1, 1), ends_party=1, end_kind=EndKind.TRICK)


def test_r8_2_jacks_count_in_running_score(engine):
    """R8.2: jacks come off first: at 7 with a pair (7 > 5, no R5.7 end) the 2nd trick reaches 0."""
    out = settle(engine, trump=D, dealt=table("J♠ J♣ 7♣ 8♣ 9♥"), scores=[100, 7, 100, 100],
                 winners=[1, 2, 1, 3, 0])
    # after declarations 7 - 5 = 2; trick 1 -> 1; trick 3 -> 0: wins, delta -(5 + 2)
    expect(out, delta=(0, -7, 0, 0), tricks=(0, 2, 1, 0), jacks=(0, 5, 0, 0),
           declaration=(N0, Dc.JACK_PAIR, N0, N0), ends_party=1, end_kind=EndKind.TRICK)


@pytest.mark.parametrize(
    "truncated, delta",
    [
        ("freeze", (0, -1, 0, 0)),  # only the winner records his tricks
        ("score-so-far", (0, -1, -16, -1)),  # s2 -(1 + 15); s0 no trick: no remiz, no A
    ],
)
def test_r8_2a_deal_cut_short(engine, truncated, delta):
    """R8.2a: when play ends the party, freeze scores only the winner; score-so-far scores tricks taken + A."""
    dealt = table(PLAIN1, "7♠ 8♠ 9♠ 10♦ A♦", seat0="K♣ Q♣ 8♥ K♥ A♠")
    out = settle(engine, Rules.classic(truncated_deal=truncated), trump=H, dealt=dealt,
                 scores=[100, 1, 100, 100], winners=[2, 3, 1, 0, 0])
    # trick 1 s2, trick 2 s3, trick 3 s1: 1 - 1 = 0 -> stop
    expect(out, delta=delta, tricks=(0, 1, 1, 1), ends_party=1, end_kind=EndKind.TRICK)


# ----------------------------------------------------------------------------- R10.9
def test_r10_9_score_75_remiz_20_gives_95(engine):
    """R10.9 / R7.2: at 75, a remiz of 20 (♦A, no trick: 5 + 15) takes the score to 95."""
    out = settle(engine, trump=S, dealt=table("A♦ 7♣ 8♣ 9♥ 10♥"), scores=[100, 75, 100, 100],
                 winners=[2, 3, 0, 2, 3])
    expect(out, delta=(-1, 20, -2, -2), tricks=(1, 0, 2, 2))
    assert 75 + int(out.delta[1]) == 95  # R7.5: score after = score before + delta


# ---------------------------------------------------------------------------- R10.10
def test_r10_10_two_rams_only_the_higher_counts(engine):
    """R10.10 / R5.4: trump ♦, ♥ rams (no ace) beats ♠ rams with ♠A: ♥ -5, ♠ holder +5+5."""
    dealt = table("A♠ K♠ Q♠ 10♠ 9♠", "K♥ Q♥ 10♥ 9♥ 8♥", "7♣ 8♣ 9♣ 7♦ 8♦", "K♣ Q♣ 10♦ 9♦ K♦")
    out = settle(engine, trump=D, dealt=dealt)
    # s2 (♥) -5; s1 (♠ rams, outranked) +(5 + 5) = +10; s3, s0 +5
    expect(out, delta=(5, 10, -5, 5), declaration=(N0, Dc.RAMS_OUTRANKED, Dc.SUIT_RAMS, N0),
           outcome=Outcome.RAMS)


def test_r5_4_trump_rams_beats_heart_rams(engine):
    """R5.4: trump rams outranks a ♥ rams; the ♥ holder pays 10 + his ♥A."""
    dealt = table("A♥ K♥ Q♥ 10♥ 9♥", "7♠ 8♠ 9♠ 10♠ Q♠", "7♣ 8♣ K♣ Q♣ 7♦", "9♣ 10♣ 8♦ Q♦ K♦")
    out = settle(engine, trump=S, dealt=dealt)
    # s2 trump rams, no ace: -10; s1 +(10 + 20) = +30; s3, s0 +10
    expect(out, delta=(10, 30, -10, 10), declaration=(N0, Dc.RAMS_OUTRANKED, Dc.TRUMP_RAMS, N0),
           outcome=Outcome.RAMS)


_SUIT_SYM = "♠♣♦♥"


@pytest.mark.parametrize("hi, lo", [(H, D), (D, C), (C, S)], ids=["♥>♦", "♦>♣", "♣>♠"])
def test_r5_4_plain_suit_seniority(engine, hi, lo):
    """R5.4: among plain-suit rams ♥ > ♦ > ♣ > ♠, whatever the aces in them."""
    x, y = [s for s in range(4) if s not in (hi, lo)]  # trump is x

    def cards(ranks, suit):
        return " ".join(r + _SUIT_SYM[suit] for r in ranks.split())

    dealt = table(
        cards("A K Q 10 9", lo),  # s1: the lower rams, with its ace
        cards("7 8 9 10 Q", hi),  # s2: the higher rams, no ace
        cards("7 8 9", x) + " " + cards("7 8", y),
        seat0=cards("10 Q", x) + " " + cards("9 10 Q", y),
    )
    ace = (5, 10, 15, 20)[lo]
    out = settle(engine, trump=x, dealt=dealt)
    # s2 -5; s1 +(5 + ace); s3, s0 +5
    expect(out, delta=(5, 5 + ace, -5, 5), declaration=(N0, Dc.RAMS_OUTRANKED, Dc.SUIT_RAMS, N0),
           outcome=Outcome.RAMS)


@pytest.mark.parametrize(
    "dealer, winner",
    [(0, 1), (1, 2)],  # dealer 0: order 1,2,3,4,0; dealer 1: order 2,3,4,0,1
)
def test_r5_4_same_suit_rams_full_tie_nearest_left(engine, dealer, winner):
    """R5.4: two ♥ rams of 24 card points each (52 cards): the one nearer the dealer's left wins."""
    rules = Rules.classic(players=5)
    assert rules.deck_size == 52
    dealt = hands(
        "2♠ 3♠ 4♣ 5♣ 9♦",  # s0
        "6♥ 7♥ J♥ Q♥ K♥",  # s1: 6 + 7 + 2 + 4 + 5 = 24
        "2♥ 3♥ 4♥ 5♥ 10♥",  # s2: 2 + 3 + 4 + 5 + 10 = 24
        "2♣ 3♣ 4♦ 5♦ 6♠",  # s3
        "7♣ 8♦ 9♠ 10♣ Q♦",  # s4
    )
    out = settle(engine, rules, trump=S, dealt=dealt, dealer=dealer)
    delta = [5] * 5
    delta[winner] = -5
    decl = [N0] * 5
    decl[1] = decl[2] = Dc.RAMS_OUTRANKED
    decl[winner] = Dc.SUIT_RAMS
    expect(out, delta=tuple(delta), declaration=decl, outcome=Outcome.RAMS)


def test_r5_4_same_suit_rams_higher_card_points(engine):
    """R5.4: two ♥ rams (52 cards): the higher card-point total wins, even from farther seat."""
    rules = Rules.classic(players=5)
    dealt = hands(
        "2♠ 3♠ 4♣ 5♣ 9♦",
        "2♥ 3♥ 4♥ 5♥ 6♥",  # s1: 20 points
        "7♥ 8♥ 9♥ 10♥ A♥",  # s2: 7 + 8 + 9 + 10 + 11 = 45
        "2♣ 3♣ 4♦ 5♦ 6♠",
        "7♣ 8♦ 9♠ 10♣ Q♦",
    )
    out = settle(engine, rules, trump=S, dealt=dealt)
    # s2 -(5 + 20) = -25; everyone else +5 (no aces)
    expect(out, delta=(5, 5, -25, 5, 5), declaration=(N0, Dc.RAMS_OUTRANKED, Dc.SUIT_RAMS, N0, N0),
           outcome=Outcome.RAMS)


def test_r5_rams_holder_at_zero_wins(engine):
    """R5 step 4b / R8.2: a rams that takes its holder to 0 wins the party at the declaration."""
    dealt = table("K♥ Q♥ 10♥ 9♥ 8♥", seat0="K♣ Q♣ 7♣ 8♣ K♦")
    out = settle(engine, trump=S, dealt=dealt, scores=[100, 5, 100, 100])
    # s1: 5 - 5 = 0 -> wins (RAMS); the deltas of the rams stand
    expect(out, delta=(5, -5, 5, 5), declaration=(N0, Dc.SUIT_RAMS, N0, N0), outcome=Outcome.RAMS,
           ends_party=1, end_kind=EndKind.RAMS)


def test_r5_6_rams_voids_jacks_passers_included(engine):
    """R5.6: a rams voids every jack pair, a passer's too (even one that would end the party)."""
    dealt = table("A♥ K♥ Q♥ 10♥ 9♥", "J♠ J♣ 7♣ 8♣ 9♦", "J♦ J♥ 7♦ 8♦ 10♦", "K♠ Q♠ K♣ Q♣ Q♦")
    out = settle(engine, trump=S, dealt=dealt, active=[True, True, True, False], scores=[100, 100, 100, 5])
    # s1 -25; s2 +5 (rams penalty, jacks void); s3 passer: 0 (jacks void, no penalty); s0 +5
    expect(out, delta=(5, -25, 5, 0), declaration=(N0, Dc.SUIT_RAMS, Dc.JACKS_VOID, Dc.JACKS_VOID),
           outcome=Outcome.RAMS)


def test_r5_passer_rams_does_not_count(engine):
    """R5 step 4: only active players show a rams; a passer's five hearts change nothing."""
    dealt = table("A♦ 7♣ 8♣ 9♦ 10♦", "7♠ 8♠ 9♠ Q♦ K♦", "K♥ Q♥ 10♥ 9♥ 8♥", "K♠ Q♠ K♣ Q♣ 7♦")
    out = settle(engine, trump=S, dealt=dealt, active=[True, True, True, False], winners=[1, 2, 0, 0, 1])
    # tricks s0 2, s1 2, s2 1: s1 -(2 + 15) = -17; passer s3 0
    expect(out, delta=(-2, -17, -1, 0), tricks=(2, 2, 1, 0))


# ---------------------------------------------------------------------------- R10.11
@pytest.mark.parametrize("ace, remiz", [("A♠", 10), ("A♣", 15), ("A♦", 20), ("A♥", 25)])
def test_r10_11_remiz_with_one_ace(engine, ace, remiz):
    """R10.11 / R7.2: remiz with one ace is 5 + its value: ♠ +10, ♣ +15, ♦ +20, ♥ +25."""
    out = settle(engine, trump=S, dealt=table(ace + " 7♣ 8♣ 9♥ 10♥"), winners=[2, 3, 0, 2, 3])
    expect(out, delta=(-1, remiz, -2, -2), tricks=(1, 0, 2, 2))


# ---------------------------------------------------------------------------- R10.12
def test_r10_12_overshoot_score_1_two_tricks(engine):
    """R10.12 / R8.3: at 1, not announcing, a 2nd trick overshoots: back to 100 (delta +99)."""
    out = settle(engine, trump=S, dealt=table(PLAIN1), scores=[100, 1, 100, 100],
                 winners=[1, 1, 2, 3, 0], announce=[True, False, True, True])
    # trick 1: 1 - 1 = 0 silently; trick 2: overshoot; delta = start - score = 99; play goes on
    expect(out, delta=(-1, 99, -1, -1), tricks=(1, 2, 1, 1), overshoot=(False, True, False, False))


def test_r10_12_overshoot_score_3_spade_ace_two_tricks(engine):
    """R10.12 / R8.3: at 3 with ♠A, not announcing, a 2nd trick overshoots: back to 100 (+97)."""
    out = settle(engine, trump=H, dealt=table("A♠ 7♣ 8♣ 9♣ 10♣"), scores=[100, 3, 100, 100],
                 winners=[1, 1, 2, 3, 0], announce=[True, False, True, True])
    # trick 1: 3 - 1 - 5 = -3 silently; trick 2 overshoots (the ace itself never does)
    expect(out, delta=(-1, 97, -1, -1), tricks=(1, 2, 1, 1), overshoot=(False, True, False, False))


def test_r8_3_silent_zero_wins_at_deal_end(engine):
    """R8.3: a non-announcing player at 0 who takes no further trick wins when the deal ends."""
    out = settle(engine, trump=S, dealt=table(PLAIN1), scores=[100, 1, 100, 100],
                 winners=[1, 2, 2, 3, 0], announce=[True, False, True, True])
    # the deal is played out and scored in full; s1: 1 - 1 = 0 at the end -> DEAL_END
    expect(out, delta=(-1, -1, -2, -1), tricks=(1, 1, 2, 1), ends_party=1, end_kind=EndKind.DEAL_END)


def test_r8_3_reset_stands_when_party_ends_later(engine):
    """R8.3: an overshoot reset stands even if another player ends the party later in the deal."""
    out = settle(engine, trump=S, dealt=table(PLAIN1), scores=[100, 1, 2, 100],
                 winners=[1, 1, 2, 2, 3], announce=[True, False, True, True])
    # t1 s1 silent 0; t2 s1 overshoots; t3 s2 2-1=1; t4 s2 0 -> announces, stop.
    # freeze: s2 -2, s1 start - score = +99, others 0
    expect(out, delta=(0, 99, -2, 0), tricks=(0, 2, 2, 0), overshoot=(False, True, False, False),
           ends_party=2, end_kind=EndKind.TRICK)


# ---------------------------------------------------------------------------- R10.13
@pytest.mark.parametrize(
    "winners, tricks, delta1",
    [
        ([1, 2, 2, 3, 0], (1, 1, 2, 1), -26),  # -10 - 1 - 15
        ([1, 1, 2, 3, 0], (1, 2, 1, 1), -27),  # -10 - 2 - 15
    ],
    ids=["t=1", "t=2"],
)
def test_r10_13_four_jacks_with_tricks(engine, winners, tricks, delta1):
    """R10.13 / R5.5: four jacks and t >= 1 tricks: -10 - t - A (here ♦A, A = 15)."""
    out = settle(engine, trump=S, dealt=table("J♠ J♣ J♦ J♥ A♦"), winners=winners)
    delta = tuple(delta1 if s == 1 else -tricks[s] for s in range(4))
    expect(out, delta=delta, tricks=tricks, jacks=(0, 10, 0, 0), declaration=(N0, Dc.FOUR_JACKS, N0, N0))


@pytest.mark.parametrize("score", [5, 3])
def test_r10_13_jack_pair_at_score_5_ends_party(engine, score):
    """R10.13 / R5.7: at a score of at most 5 a jack pair ends the party at the declaration."""
    out = settle(engine, trump=S, dealt=table("J♦ J♥ 7♣ 8♣ 9♥"), scores=[100, score, 100, 100],
                 winners=[1, 2, 3, 0, 0])
    # s1 -5; no play (trick winners ignored)
    expect(out, delta=(0, -5, 0, 0), jacks=(0, 5, 0, 0), declaration=(N0, Dc.JACK_PAIR, N0, N0),
           outcome=Outcome.JACKS_END, ends_party=1, end_kind=EndKind.JACKS)


def test_r5_7_four_jacks_at_score_10_ends_party(engine):
    """R5.7: at a score of at most 10, four jacks end the party at the declaration."""
    out = settle(engine, trump=S, dealt=table("J♠ J♣ J♦ J♥ 7♣"), scores=[100, 10, 100, 100],
                 winners=[1, 2, 3, 0, 0])
    expect(out, delta=(0, -10, 0, 0), jacks=(0, 10, 0, 0), declaration=(N0, Dc.FOUR_JACKS, N0, N0),
           outcome=Outcome.JACKS_END, ends_party=1, end_kind=EndKind.JACKS)


def test_r5_7_jack_pair_at_score_6_plays_on(engine):
    """R5.7: at 6 a jack pair does not end the party (6 - 5 = 1); with no trick he is back at 6."""
    out = settle(engine, trump=S, dealt=table("J♦ J♥ 7♣ 8♣ 9♥"), scores=[100, 6, 100, 100],
                 winners=[2, 3, 0, 2, 3])
    # s1: -5 + 5 (remiz) = 0
    expect(out, delta=(-1, 0, -2, -2), tricks=(1, 0, 2, 2), jacks=(0, 5, 0, 0),
           declaration=(N0, Dc.JACK_PAIR, N0, N0))


def test_r10_13_four_aces_end_party_every_delta_zero(engine):
    """R10.13 / R5.1: four aces win the party at once; every delta is 0, no jacks are recorded."""
    dealt = table("8♣ 9♣ 10♣ 9♥ 10♥", "A♠ A♣ A♦ A♥ 7♣", "J♦ J♥ 7♦ 8♦ 7♥")
    # s3 is at 5 with a red jack pair: four aces (step a) come before jacks (step c)
    out = settle(engine, trump=S, dealt=dealt, scores=[100, 100, 100, 5], winners=[1, 2, 3, 0, 0])
    assert _ints(out.delta) == (0, 0, 0, 0)
    assert _ints(out.tricks) == (0, 0, 0, 0)
    assert _ints(out.jacks) == (0, 0, 0, 0)  # ENGINE.md 4a: no jacks are recorded
    assert int(out.declaration[2]) == Dc.FOUR_ACES
    assert (int(out.outcome), int(out.ends_party), int(out.end_kind)) == (Outcome.FOUR_ACES, 2, EndKind.FOUR_ACES)


def test_r5_6_four_aces_void_jacks_declaration(engine):
    """R5.6: four aces are a rams (R0, R5.1), so a jack pair in that deal is void: declared JACKS_VOID."""
    # Reading: R5.6 names R5.1-R5.3; record.Declaration.JACKS_VOID = "held jacks that a rams
    # made void"; ENGINE.md 4a only says "no jacks are recorded" and is silent on the code.
    dealt = table("8♣ 9♣ 10♣ 9♥ 10♥", "A♠ A♣ A♦ A♥ 7♣", "J♦ J♥ 7♦ 8♦ 7♥")
    out = settle(engine, trump=S, dealt=dealt, active=[True, True, True, False])
    # the jack holder (seat 3) passes: passers' pairs are void too (R5.6)
    expect(out, delta=(0, 0, 0, 0), declaration=(N0, N0, Dc.FOUR_ACES, Dc.JACKS_VOID), outcome=Outcome.FOUR_ACES,
           ends_party=2, end_kind=EndKind.FOUR_ACES)


def test_r5_1_four_aces_completed_by_exchange(engine):
    """R5.1: four aces count "whether dealt or completed by the exchange"."""
    dealt = table("8♣ 9♣ 10♣ 9♥ 10♥", "A♠ A♣ A♦ 7♣ 10♠")
    final = table("8♣ 9♣ 10♣ 9♥ 10♥", "A♠ A♣ A♦ A♥ 7♣")  # s2 discarded 10♠, drew A♥
    out = settle(engine, trump=S, dealt=dealt, final=final, winners=[1, 2, 3, 0, 0])
    expect(out, delta=(0, 0, 0, 0), declaration=(N0, N0, Dc.FOUR_ACES, N0), outcome=Outcome.FOUR_ACES,
           ends_party=2, end_kind=EndKind.FOUR_ACES)


def test_r5_1_four_dealt_aces_one_discarded_is_nothing(engine):
    """R5.1: a player who discarded one of four dealt aces holds no four aces; play goes on."""
    dealt = table("9♣ 10♣ 9♥ 10♥ 10♠", "A♠ A♣ A♦ A♥ 7♣")
    final = table("9♣ 10♣ 9♥ 10♥ 10♠", "A♠ A♣ A♦ 7♣ 8♣")  # s2 discarded A♥, drew 8♣
    out = settle(engine, trump=S, dealt=dealt, final=final, winners=[2, 3, 1, 0, 0])
    # tricks s0 2, s1 1, s2 1, s3 1; s2: -(1 + 5 + 10 + 15) = -31 (the discarded ♥A has no value)
    expect(out, delta=(-2, -1, -31, -1), tricks=(2, 1, 1, 1))


def test_r5_four_aces_outrank_trump_rams(engine):
    """R5.4 / R5.1: four aces come before any rams: the party ends and nobody pays the rams."""
    dealt = table("K♠ Q♠ 10♠ 9♠ 8♠", "A♠ A♣ A♦ A♥ 7♣", "J♦ 7♦ 8♦ 7♥ 8♥", "K♣ Q♣ K♥ Q♥ 9♦")
    out = settle(engine, trump=S, dealt=dealt)
    assert _ints(out.delta) == (0, 0, 0, 0)
    assert int(out.declaration[2]) == Dc.FOUR_ACES
    assert (int(out.outcome), int(out.ends_party), int(out.end_kind)) == (Outcome.FOUR_ACES, 2, EndKind.FOUR_ACES)


# ----------------------------------------------------------------- R5.5 jacks_count
# seat 1 takes one trick (winners [1, 2, 3, 0, 0]: s0 2, s1 1, s2 1, s3 1): delta -(jacks + 1)
_JACK_CASES = [
    # id, dealt s1, final s1, {mode: jack points}
    ("pair kept: max, not sum", "J♠ J♣ 7♣ 8♣ 9♥", "J♠ J♣ 7♣ 8♣ 9♥",
     {"dealt-or-final": 5, "dealt": 5, "final": 5}),
    ("dealt pair, a jack discarded", "J♠ J♣ 7♣ 8♣ 9♥", "J♠ 7♣ 8♣ 9♥ 10♥",
     {"dealt-or-final": 5, "dealt": 5, "final": 0}),
    ("pair completed by the exchange", "J♠ 7♣ 8♣ 9♥ 10♥", "J♠ J♣ 7♣ 8♣ 9♥",
     {"dealt-or-final": 5, "dealt": 0, "final": 5}),
    ("three jacks dealt, four final", "J♠ J♣ J♦ 7♣ 8♣", "J♠ J♣ J♦ J♥ 7♣",
     {"dealt-or-final": 10, "dealt": 5, "final": 10}),
    ("cross jacks", "J♠ J♦ 7♣ 8♣ 9♥", "J♠ J♦ 7♣ 8♣ 9♥",
     {"dealt-or-final": 0, "dealt": 0, "final": 0}),
]


@pytest.mark.parametrize("mode", ["dealt-or-final", "dealt", "final"])
@pytest.mark.parametrize("dealt1, final1, points", [c[1:] for c in _JACK_CASES], ids=[c[0] for c in _JACK_CASES])
def test_r5_5_jacks_count(engine, mode, dealt1, final1, points):
    """R5.5 / R5.8: jacks_count picks the dealt hand, the final hand, or the larger (never the sum)."""
    jacks = points[mode]
    out = settle(engine, Rules.classic(jacks_count=mode), trump=D, dealt=table(dealt1), final=table(final1),
                 winners=[1, 2, 3, 0, 0])
    decl = {0: N0, 5: Dc.JACK_PAIR, 10: Dc.FOUR_JACKS}[jacks]
    expect(out, delta=(-2, -(jacks + 1), -1, -1), tricks=(2, 1, 1, 1), jacks=(0, jacks, 0, 0),
           declaration=(N0, decl, N0, N0))


@pytest.mark.parametrize("mode, jacks", [("final", 5), ("dealt", 0), ("dealt-or-final", 5)])
def test_r5_5_dealer_trump_card_counts_for_final_jacks(engine, mode, jacks):
    """R5.5 / R4.3: the final hand includes the dealer's trump card (J♣ taken to J♠ makes a pair)."""
    dealt = table(PLAIN1, seat0="J♠ K♣ Q♣ 8♥ Q♥")
    final = table(PLAIN1, seat0="J♠ J♣ K♣ Q♣ Q♥")  # trump card J♣ taken, 8♥ given up
    out = settle(engine, Rules.classic(jacks_count=mode), trump=C, dealt=dealt, final=final,
                 winners=[0, 1, 2, 3, 0])
    # s0 2 tricks: -(jacks + 2); others 1 trick each
    decl = N0 if jacks == 0 else Dc.JACK_PAIR
    expect(out, delta=(-(jacks + 2), -1, -1, -1), tricks=(2, 1, 1, 1), jacks=(jacks, 0, 0, 0),
           declaration=(decl, N0, N0, N0))


# -------------------------------------------------------------- our own readings (R4.5)
def test_r4_5_lone_player_at_3_with_spade_ace_wins_at_first_trick(engine):
    """R4.5 / R8.2: a lone player at 3 holding ♠A is credited trick 1 (3 - 1 - 5 < 0) and wins there."""
    out = settle(engine, trump=D, dealt=table("A♠ 7♣ 8♣ 9♥ 10♥"), active=[False, True, False, False],
                 scores=[100, 3, 100, 100])
    # freeze: s1 -(1 + 5) = -6, passers -jacks = 0; only one trick credited
    expect(out, delta=(0, -6, 0, 0), tricks=(0, 1, 0, 0), outcome=Outcome.LONE, ends_party=1,
           end_kind=EndKind.TRICK)


def test_r4_5_lone_player_takes_all_five(engine):
    """R4.5 / R4.2: a lone player takes all five tricks; a passer still writes off his jack pair."""
    dealt = table("A♠ 7♣ 8♣ 9♥ 10♥", seat3="J♦ J♥ 7♦ 8♦ 7♥")
    out = settle(engine, trump=D, dealt=dealt, active=[False, True, False, False])
    # s1 -(5 + 5) = -10; passer s3 -5 (R5.5 "even if he passes")
    expect(out, delta=(0, -10, 0, -5), tricks=(0, 5, 0, 0), jacks=(0, 0, 0, 5),
           declaration=(N0, N0, N0, Dc.JACK_PAIR), outcome=Outcome.LONE)


def test_r4_5_lone_player_void_deal(engine):
    """R4.5: with lone_player=void-deal a lone player scores nothing; only jacks count."""
    dealt = table("A♠ 7♣ 8♣ 9♥ 10♥", seat3="J♦ J♥ 7♦ 8♦ 7♥")
    out = settle(engine, Rules.classic(lone_player="void-deal"), trump=D, dealt=dealt,
                 active=[False, True, False, False])
    expect(out, delta=(0, 0, 0, -5), jacks=(0, 0, 0, 5), declaration=(N0, N0, N0, Dc.JACK_PAIR),
           outcome=Outcome.VOID)


def test_r4_5_lone_player_rams(engine):
    """R5.6 / R4.5: a rams ends the deal for a lone player too: he scores the rams only, no tricks."""
    dealt = table("A♥ K♥ Q♥ 10♥ 9♥", seat0="K♣ Q♣ 7♣ 8♣ K♦")
    out = settle(engine, trump=S, dealt=dealt, active=[False, True, False, False])
    # s1 -(5 + 20); passers pay nothing (rams_penalizes_passers=false)
    expect(out, delta=(0, -25, 0, 0), declaration=(N0, Dc.SUIT_RAMS, N0, N0), outcome=Outcome.RAMS)


def test_r4_5_nobody_plays(engine):
    """R4.5: if nobody plays the deal scores only the passers' jacks."""
    dealt = table(PLAIN1, seat3="J♦ J♥ 7♦ 8♦ 7♥")
    out = settle(engine, trump=D, dealt=dealt, active=[False] * 4)
    expect(out, delta=(0, 0, 0, -5), jacks=(0, 0, 0, 5), declaration=(N0, N0, N0, Dc.JACK_PAIR),
           outcome=Outcome.NOBODY)


def test_r4_5_nobody_plays_jacks_still_end_party(engine):
    """R4.5 / R5.7: with nobody playing step 4c still runs, so a passer at 5 with a pair wins."""
    dealt = table(PLAIN1, seat3="J♦ J♥ 7♦ 8♦ 7♥")
    out = settle(engine, trump=D, dealt=dealt, active=[False] * 4, scores=[100, 100, 100, 5])
    expect(out, delta=(0, 0, 0, -5), jacks=(0, 0, 0, 5), declaration=(N0, N0, N0, Dc.JACK_PAIR),
           outcome=Outcome.JACKS_END, ends_party=3, end_kind=EndKind.JACKS)


@pytest.mark.parametrize("dealer, winner", [(0, 3), (2, 3), (3, 0)])
def test_r5_7_two_jack_pairs_at_5_nearest_left_wins(engine, dealer, winner):
    """R5 step 4c / R8.2: two players at 5 with jack pairs: both write off 5, the one nearer the dealer's left wins."""
    # seats 0 and 3 hold pairs; seat order from dealer 0: 1,2,3,0; 2: 3,0,1,2; 3: 0,1,2,3
    dealt = table(PLAIN1, seat3="J♦ J♥ 7♦ 8♦ 7♥", seat0="J♠ J♣ K♣ Q♣ 8♥")
    out = settle(engine, trump=H, dealt=dealt, scores=[5, 100, 100, 5], dealer=dealer, winners=[1, 2, 3, 0, 0])
    expect(out, delta=(-5, 0, 0, -5), jacks=(5, 0, 0, 5), declaration=(Dc.JACK_PAIR, N0, N0, Dc.JACK_PAIR),
           outcome=Outcome.JACKS_END, ends_party=winner, end_kind=EndKind.JACKS)


# ------------------------------------------- play_deal: the dealer and the trump card (R4.3)
def _order(dealer, hands_by_seat, trump_card, talon):
    """Deck order for ENGINE.md 2: seat (dealer+1+i) mod n gets order[5i..5i+4], then trump card, talon."""
    n = len(hands_by_seat)
    order = []
    for i in range(n):
        order += parse_cards(hands_by_seat[(dealer + 1 + i) % n])
    order += [parse(trump_card)] + parse_cards(talon)
    return order


def _mask(text):
    return mask_of(parse_cards(text))


def test_r4_3_dealer_trump_rams_completed_by_trump_card(engine):
    """R4.3 / R5.3: the dealer with four trumps stands, gives up his odd card for the trump card, and shows trump rams."""
    # basic policy, trump ♥ (trump card 7♥):
    #  s1 holds ♠A (may not pass, R4.1); no four of a suit; keeps the ace, discards the
    #     other four and draws the first four talon cards 10♣ 9♦ J♠ K♣;
    #  s2 strength 0, s3 strength 1.0 (two kings x 0.5) < pass_threshold 2 -> pass;
    #  s0 (dealer) holds ♥A (may not pass) and four trumps: stands, takes the trump card,
    #     discards the odd card 8♣ -> A♥ K♥ Q♥ 10♥ 7♥, trump rams.
    hands_by_seat = ["A♥ K♥ Q♥ 10♥ 8♣", "A♠ 7♣ 9♣ 7♦ 8♦", "7♠ 8♠ 9♠ Q♦ Q♣", "10♠ Q♠ K♠ 10♦ K♦"]
    talon = "10♣ 9♦ J♠ K♣ J♣ A♣ J♦ A♦ 8♥ 9♥ J♥"
    order = _order(0, hands_by_seat, "7♥", talon)
    rules = Rules.classic()
    assert sorted(order) == [int(c) for c in deck_cards(32)]
    rec = engine.play_deal(rules, "basic", dealer=0, order=order)
    assert int(rec.dealer) == 0
    assert int(rec.trump_card) == parse("7♥")
    assert tuple(int(m) for m in rec.hand_dealt) == tuple(_mask(h) for h in hands_by_seat)
    assert tuple(bool(p) for p in rec.passed) == (False, False, True, True)
    assert tuple(int(m) for m in rec.discards) == (0, _mask("7♣ 9♣ 7♦ 8♦"), 0, 0)
    assert tuple(int(m) for m in rec.drawn) == (0, _mask("10♣ 9♦ J♠ K♣"), 0, 0)
    assert tuple(bool(t) for t in rec.took_trump) == (True, False, False, False)
    assert _ints(rec.trump_discard) == (parse("8♣"), -1, -1, -1)
    assert int(rec.hand_final[0]) == _mask("A♥ K♥ Q♥ 10♥ 7♥")
    assert int(rec.hand_final[1]) == _mask("A♠ 10♣ 9♦ J♠ K♣")
    # R5.3: s0 -(10 + 20) = -30; s1 active, holds ♠A: +(10 + 5) = +15; passers 0
    assert _ints(rec.delta) == (-30, 15, 0, 0)
    assert _ints(rec.declaration) == (Dc.TRUMP_RAMS, N0, N0, N0)
    assert _ints(rec.tricks) == (0, 0, 0, 0)
    assert _ints(rec.jacks) == (0, 0, 0, 0)
    assert (int(rec.outcome), int(rec.ends_party), int(rec.end_kind)) == (Outcome.RAMS, -1, EndKind.NONE)
    assert len(rec.plays) == 0


def test_r4_3_dealer_with_plain_rams_declines_trump_card(engine):
    """R4.3 / R5.2: a dealer holding five of a plain suit keeps them (basic declines the trump card): suit rams."""
    # trump ♥ (7♥); s0 dealt five clubs with ♣A: a rams stands, the trump card is declined.
    # s1 (♠A) keeps the ace, discards four, draws 8♥ 9♥ 10♥ Q♥; s2 (strength 0) and s3
    # (kings ♠ ♦: 1.0) pass.
    hands_by_seat = ["A♣ K♣ Q♣ 10♣ 9♣", "A♠ 7♠ 8♠ 7♦ 8♦", "9♠ 10♠ 9♦ 10♦ Q♦", "Q♠ K♠ K♦ 7♣ 8♣"]
    talon = "8♥ 9♥ 10♥ Q♥ J♠ J♣ J♦ A♦ J♥ K♥ A♥"
    order = _order(0, hands_by_seat, "7♥", talon)
    assert sorted(order) == [int(c) for c in deck_cards(32)]
    rec = engine.play_deal(Rules.classic(), "basic", dealer=0, order=order)
    assert tuple(bool(p) for p in rec.passed) == (False, False, True, True)
    assert tuple(bool(t) for t in rec.took_trump) == (False, False, False, False)
    assert _ints(rec.trump_discard) == (-1, -1, -1, -1)
    assert int(rec.hand_final[0]) == _mask(hands_by_seat[0])
    assert int(rec.hand_final[1]) == _mask("A♠ 8♥ 9♥ 10♥ Q♥")
    # s0 -(5 + 10) = -15; s1 +(5 + 5) = +10
    assert _ints(rec.delta) == (-15, 10, 0, 0)
    assert _ints(rec.declaration) == (Dc.SUIT_RAMS, N0, N0, N0)
    assert (int(rec.outcome), int(rec.ends_party), int(rec.end_kind)) == (Outcome.RAMS, -1, EndKind.NONE)


@pytest.mark.parametrize("players, dealer", [(4, 2), (5, 4), (3, 1)])
def test_r3_layout_of_explicit_order(engine, players, dealer):
    """R3 / ENGINE.md 2: seat (dealer+1+i) mod n gets order[5i..5i+4]; order[5n] is the trump card."""
    rules = Rules.classic(players=players)
    deck = [int(c) for c in deck_cards(rules.deck_size)]
    order = deck[::-1]  # any permutation will do
    rec = engine.play_deal(rules, "random", dealer=dealer, order=order, seed=7)
    assert int(rec.dealer) == dealer
    for i in range(players):
        seat = (dealer + 1 + i) % players
        assert int(rec.hand_dealt[seat]) == mask_of(order[5 * i: 5 * i + 5]), seat
    assert int(rec.trump_card) == order[5 * players]


def _order_around(dealer_hand, trump_card, players=4):
    """A 32-card order: the dealer (seat 0) gets ``dealer_hand``, the others the lowest free cards."""
    fixed = parse_cards(dealer_hand) + [parse(trump_card)]
    free = [int(c) for c in deck_cards(32) if int(c) not in fixed]
    others = free[: 5 * (players - 1)]
    return others + parse_cards(dealer_hand) + [parse(trump_card)] + free[5 * (players - 1):]


def test_r4_3_dealer_must_take_trump_card(engine):
    """R4.3: with dealer_takes_trump=must the playing dealer takes the trump card, even out of a plain rams."""
    # basic: a rams stands (k = 0); forced, he gives up his card of least keep value:
    # A♣ 100, K♣ 30 (another suit's king), Q♣ 10, 10♣ 8, 9♣ 7 -> 9♣; no rams is left.
    order = _order_around("A♣ K♣ Q♣ 10♣ 9♣", "7♥")
    rec = engine.play_deal(Rules.classic(dealer_takes_trump="must"), "basic", dealer=0, order=order)
    assert bool(rec.passed[0]) is False
    assert bool(rec.took_trump[0]) is True
    assert int(rec.trump_discard[0]) == parse("9♣")
    assert int(rec.hand_final[0]) == _mask("A♣ K♣ Q♣ 10♣ 7♥")
    assert int(rec.declaration[0]) not in (Dc.SUIT_RAMS, Dc.TRUMP_RAMS)


@pytest.mark.parametrize("binds", [False, True])
def test_r4_1_turned_ace_binds_dealer(engine, binds):
    """R4.1: a turned-up ace forbids the dealer to pass (and makes him take it) only with turned_ace_binds_dealer."""
    # the dealer's dealt hand has no ace and strength 0 (no trump ♥, no king): basic passes when allowed
    order = _order_around("7♠ 8♠ 9♦ 10♦ 7♣", "A♥")
    rec = engine.play_deal(Rules.classic(turned_ace_binds_dealer=binds), "basic", dealer=0, order=order)
    assert int(rec.trump_card) == parse("A♥")
    assert bool(rec.passed[0]) is (not binds)
    assert bool(rec.took_trump[0]) is binds
    assert bool(int(rec.hand_final[0]) >> parse("A♥") & 1) is binds


@pytest.mark.parametrize("forbids", [True, False])
def test_r4_1_ace_forbids_pass_option(engine, forbids):
    """R4.1: a dealt ace forbids a pass; the what-if option ace_forbids_pass=false lifts it (and only it)."""
    # the dealer (seat 0) passes whenever allowed (threshold above any strength) and is dealt the ♠A
    order = _order_around("A♠ 7♣ 8♣ 9♦ 7♦", "8♥")
    rules = Rules.classic(ace_forbids_pass=forbids)
    rec = engine.play_deal(rules, ["basic:pass_threshold=1000", "basic", "basic", "basic"], dealer=0, order=order)
    assert bool(rec.passed[0]) is (not forbids)
    if not forbids:
        assert bool(rec.took_trump[0]) is False  # a passing dealer does not use the trump card (R4.3)
        assert int(rec.delta[0]) == 0  # a passer scores only his jacks (R7.4): none here
