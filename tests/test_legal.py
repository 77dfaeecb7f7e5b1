"""R6.2-R6.7a: which cards may be played, and who wins a trick (R6.4).

A table of cases, one or more per sentence of the rule, each run through
``engine.legal_cards(rules, hand, trump, trick, q_duty)`` (ENGINE.md section 9), and a
property test that compares both engines with a direct transcription of the R6.7a
procedure written here.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from rams_sim.cards import ACE, JACK, KING, QUEEN, card_id, deck_cards, parse_cards, rank_of, suit_of
from rams_sim.kernels.policy import _least_kept, _ranks_at_least, keep_value
from rams_sim.kernels.trick import beats, trick_winner, winning_cards, winning_over
from rams_sim.policies import B_KEEP_KINGS
from rams_sim.rules import Ruff, Rules

SUIT = {"♠": 0, "♣": 1, "♦": 2, "♥": 3}

# option sets
CL = {}  # classic: any-trump, no must_head, ace_covers_face
OT = {"ruff": "overtrump"}
MH = {"must_head": True}
NOAC = {"ace_covers_face": False}
OT_NOAC = {"ruff": "overtrump", "ace_covers_face": False}
OT_MH = {"ruff": "overtrump", "must_head": True}

# (id, options, trump, hand, trick so far (led card first), q_duty, expected legal set)
CASES = [
    # --- R6.2 follow suit ---------------------------------------------------------------
    ("R6.2 follow suit, low or high", CL, "♠", "7♣ K♣ 8♦ 9♠ 10♥", "Q♣", False, "7♣ K♣"),
    ("R6.2 follow suit rather than trump", CL, "♠", "7♣ A♠ K♠", "A♣", False, "7♣"),
    ("R6.2 follow suit, one card", CL, "♥", "9♦ Q♥ K♥ 7♠", "10♦ J♦", False, "9♦"),
    ("R6.2 trumps led: follow with trumps", CL, "♠", "7♠ Q♠ 8♦", "10♠", False, "7♠ Q♠"),
    ("R6.2 trumps led, no trump: anything", CL, "♠", "8♦ 10♥ 7♣", "10♠", False, "8♦ 10♥ 7♣"),
    ("R6.2 void: must trump", CL, "♠", "8♦ 9♠ K♠ 10♥", "Q♣", False, "9♠ K♠"),
    ("R6.2 void: must trump even a trick already ruffed higher", CL, "♦", "7♦ 9♥ 10♠", "8♣ A♦", False, "7♦"),
    ("R6.2 void, no trump: anything", CL, "♠", "8♦ 10♥ 7♦", "Q♣", False, "8♦ 10♥ 7♦"),
    ("R6.2 void, no trump, trick ruffed: anything", CL, "♥", "8♦ 10♠", "Q♣ 7♥", False, "8♦ 10♠"),
    # --- R6.3 ruff option -----------------------------------------------------------------
    ("R6.3 any-trump: a low trump satisfies", CL, "♠", "8♠ K♠ 8♦", "Q♣ 10♠", False, "8♠ K♠"),
    ("R6.3 overtrump: must beat the best trump", OT, "♠", "8♠ K♠ 8♦", "Q♣ 10♠", False, "K♠"),
    ("R6.3 overtrump: best of two trumps in the trick", OT, "♠", "10♠ Q♠ 7♦", "Q♣ 9♠ J♠", False, "Q♠"),
    ("R6.3 overtrump: cannot beat -> any trump", OT, "♠", "8♠ 9♠ 8♦", "Q♣ K♠", False, "8♠ 9♠"),
    ("R6.3 overtrump: no trump in trick yet -> any trump", OT, "♠", "7♠ K♠ 9♦", "Q♣ 8♦", False, "7♠ K♠"),
    ("R6.3 overtrump: not when trumps led", OT, "♠", "7♠ K♠ 8♦", "10♠ Q♠", False, "7♠ K♠"),
    ("R6.3 overtrump: following suit is unaffected", OT, "♠", "7♣ A♣ K♠", "Q♣ 10♠", False, "7♣ A♣"),
    ("R6.3 overtrump: trump ♥", OT, "♥", "8♥ Q♥ A♣", "K♦ 10♥", False, "Q♥"),
    # --- R6.3a must_head ------------------------------------------------------------------
    ("R6.3a head a plain trick", MH, "♠", "7♣ Q♣ K♣", "10♣", False, "Q♣ K♣"),
    ("R6.3a head over the best card, not the led card", MH, "♠", "7♣ Q♣ A♣", "10♣ K♣", False, "A♣"),
    ("R6.3a cannot head -> any card of the suit", MH, "♠", "7♣ Q♣", "K♣", False, "7♣ Q♣"),
    ("R6.3a trumped trick: following cannot win -> any of the suit", MH, "♠", "7♣ Q♣ 9♠", "10♣ 8♠", False, "7♣ Q♣"),
    ("R6.3a void, trick trumped: the trumps that win", MH, "♠", "7♠ 9♠ K♦", "10♣ 8♠", False, "9♠"),
    ("R6.3a void, trick not trumped: every trump wins", MH, "♠", "7♠ 9♠ K♦", "10♣", False, "7♠ 9♠"),
    ("R6.3a void, no trump: nothing wins -> anything", MH, "♠", "8♦ 10♥", "10♣", False, "8♦ 10♥"),
    ("R6.3a trumps led: head with a higher trump", MH, "♠", "7♠ Q♠ K♠ 8♦", "10♠", False, "Q♠ K♠"),
    ("R6.3a + overtrump: the same winners", OT_MH, "♠", "7♠ 9♠ K♠", "10♣ 8♠", False, "9♠ K♠"),
    # --- R6.4 is in TRICKS below; R6.5 trump ace lead --------------------------------------
    ("R6.5 lead the trump ace", CL, "♠", "A♠ 7♣ 8♦", "", False, "A♠"),
    ("R6.5 trump ace, trump ♦", CL, "♦", "7♣ A♦ K♠ A♠", "", False, "A♦"),
    ("R6.5 a plain ace carries no duty", CL, "♠", "A♦ 7♣ 8♥", "", False, "A♦ 7♣ 8♥"),
    ("R6.5 no duty: any card on lead", CL, "♥", "7♣ K♠ Q♦ 9♥", "", False, "7♣ K♠ Q♦ 9♥"),
    ("R6.5 the duty is on lead only: follow suit", CL, "♠", "A♠ 7♣", "10♣", False, "7♣"),
    # --- R6.6 marriage --------------------------------------------------------------------
    ("R6.6 lead the marriage K", CL, "♠", "K♠ Q♠ 7♣ 8♦", "", False, "K♠"),
    ("R6.6 marriage K, trump ♣", CL, "♣", "Q♣ 7♠ K♣ 8♦", "", False, "K♣"),
    ("R6.6 K without Q: no duty", CL, "♠", "K♠ 7♣ 8♦", "", False, "K♠ 7♣ 8♦"),
    ("R6.6 Q without K: no duty", CL, "♠", "Q♠ 7♣ 8♦", "", False, "Q♠ 7♣ 8♦"),
    ("R6.6 plain-suit marriage: no duty", CL, "♠", "K♥ Q♥ 7♣", "", False, "K♥ Q♥ 7♣"),
    ("R6.6 the K won: lead the Q", CL, "♠", "Q♠ 7♣ 8♦", "", True, "Q♠"),
    ("R6.6 Q duty, trump ♥", CL, "♥", "Q♥ 10♥ 7♣", "", True, "Q♥"),
    ("R6.6 no Q duty (the K lost, or won by following)", CL, "♠", "Q♠ 7♣ 8♦", "", False, "Q♠ 7♣ 8♦"),
    ("R6.6 Q duty is a lead duty: following ignores it", CL, "♠", "Q♠ 7♣", "10♣", True, "7♣"),
    ("R6.6 marriage on a follow: either may trump", CL, "♠", "K♠ Q♠ 8♦", "10♣", False, "K♠ Q♠"),
    # --- R6.7a precedence on lead -----------------------------------------------------------
    ("R6.7a trump A before the marriage K", CL, "♠", "A♠ K♠ Q♠ 7♣", "", False, "A♠"),
    ("R6.7a trump A before the Q duty", CL, "♠", "A♠ Q♠ 7♣", "", True, "A♠"),
    # --- R6.7 the trump ace covers a trump face ---------------------------------------------
    ("R6.7 trump K led: the ace covers", CL, "♠", "A♠ 7♠ 8♦", "K♠", False, "A♠"),
    ("R6.7 trump Q led: the ace covers", CL, "♥", "7♥ A♥ 8♦", "Q♥", False, "A♥"),
    ("R6.7 trump J ruffed in: the ace covers", CL, "♠", "A♠ 7♠ 9♦", "Q♣ J♠", False, "A♠"),
    ("R6.7 trump K played second to a trump lead", CL, "♠", "8♠ A♠", "7♠ K♠", False, "A♠"),
    ("R6.7 no trump face in the trick: free", CL, "♠", "A♠ 7♠", "10♠", False, "7♠ A♠"),
    ("R6.7 a plain K is no trump face", CL, "♠", "A♠ 7♠ 9♦", "K♣", False, "7♠ A♠"),
    ("R6.7 never overrides following a plain suit", CL, "♠", "7♣ A♠", "Q♣ J♠", False, "7♣"),
    ("R6.7 never overrides following: trump K ruffed in on ♥", CL, "♦", "A♦ 8♥", "9♥ K♦", False, "8♥"),
    ("R6.7 ace_covers_face=false: trump Q led", NOAC, "♠", "A♠ 7♠", "Q♠", False, "7♠ A♠"),
    ("R6.7 ace_covers_face=false: trump J ruffed in", NOAC, "♠", "A♠ 7♠", "Q♣ J♠", False, "7♠ A♠"),
    # --- R6.7a combinations ---------------------------------------------------------------
    ("R6.7a overtrump then ace cover", OT, "♠", "7♠ Q♠ A♠", "Q♣ J♠", False, "A♠"),
    ("R6.7a overtrump, only the ace beats", OT, "♠", "10♠ A♠ 8♦", "Q♣ J♠", False, "A♠"),
    ("R6.7a overtrump, no face: both beat", OT, "♠", "10♠ A♠", "Q♣ 9♠", False, "10♠ A♠"),
    ("R6.7a overtrump without ace cover", OT_NOAC, "♠", "7♠ Q♠ A♠", "Q♣ J♠", False, "Q♠ A♠"),
    ("R6.7a ace cover then must_head", {"must_head": True}, "♠", "A♠ 7♠", "K♠", False, "A♠"),
    ("R6.7a ruffed by the trump K, ace covers", OT_MH, "♦", "A♦ 7♦ 10♠", "9♣ K♦", False, "A♦"),
]


def _cards(text):
    return parse_cards(text) if text else []


@pytest.mark.parametrize(
    "options, trump, hand, trick, q_duty, expected",
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_legal_cards_table(engine, options, trump, hand, trick, q_duty, expected):
    """R6.2-R6.7a: each row is one sentence of the rule (see the row id)."""
    rules = Rules.classic(**options)
    got = engine.legal_cards(rules, _cards(hand), SUIT[trump], _cards(trick), q_duty)
    assert [int(c) for c in got] == sorted(_cards(expected))


def test_legal_cards_ignore_hand_order(engine):
    """ENGINE.md 9: the legal cards come back in ascending id order, whatever the hand's order."""
    rules = Rules.classic()
    hand = parse_cards("K♣ 7♣ A♣ 9♣")
    got = engine.legal_cards(rules, hand, SUIT["♠"], parse_cards("8♣"))
    assert [int(c) for c in got] == sorted(hand)


# (id, trump, trick, index of the winning card)
TRICKS = [
    ("R6.4 no trump: highest of the suit led", "♠", "10♣ K♣ 7♣ Q♣", 1),
    ("R6.4 off-suit discards never win", "♠", "7♦ A♥ A♣ K♥", 0),
    ("R6.4 the led card can win", "♥", "A♣ K♣ 10♦", 0),
    ("R6.4 one trump wins", "♠", "A♣ 7♠ K♣", 1),
    ("R6.4 highest trump wins", "♠", "A♣ 7♠ K♣ 9♠", 3),
    ("R6.4 trumps led", "♠", "10♠ A♣ J♠", 2),
    ("R6.4 trump ♥, two players", "♥", "Q♥ K♥", 1),
    ("R6.4 10 beats 9, J beats 10", "♦", "9♣ 10♣ J♣ 8♣", 2),
    ("R6.4 52 cards: 10 over 2, a trump 3 over both", "♠", "2♣ 10♣ 3♠", 2),
    ("R6.4 seven players", "♦", "2♥ 5♥ A♠ 3♥ 7♦ 4♥ 6♦", 4),
]


@pytest.mark.parametrize("trump, trick, winner", [t[1:] for t in TRICKS], ids=[t[0] for t in TRICKS])
def test_trick_winner_table(engine, trump, trick, winner):
    """R6.4: the highest trump, else the highest card of the suit led."""
    assert int(engine.trick_winner(SUIT[trump], parse_cards(trick))) == winner


# ------------------------------------------------------------------ property tests
def oracle_winner(trump, trick):
    """R6.4 written out: index of the winning card."""
    trumps = [i for i, c in enumerate(trick) if suit_of(c) == trump]
    pool = trumps or [i for i, c in enumerate(trick) if suit_of(c) == suit_of(trick[0])]
    return max(pool, key=lambda i: rank_of(trick[i]))


def oracle_legal(rules, hand, trump, trick, q_duty):
    """R6.7a written out step by step."""
    hand = sorted(hand)
    t_ace, t_king, t_queen, t_jack = (card_id(trump, r) for r in (ACE, KING, QUEEN, JACK))
    if not trick:
        if t_ace in hand:
            return [t_ace]  # R6.5
        if t_king in hand and t_queen in hand:
            return [t_king]  # R6.6
        if q_duty and t_queen in hand:
            return [t_queen]  # R6.6
        return hand
    led = suit_of(trick[0])
    legal = [c for c in hand if suit_of(c) == led]  # R6.2
    if not legal:
        legal = [c for c in hand if suit_of(c) == trump]  # R6.2
        in_trick = [rank_of(c) for c in trick if suit_of(c) == trump]
        if legal and rules.ruff == Ruff.OVERTRUMP and in_trick:  # R6.3
            beat = [c for c in legal if rank_of(c) > max(in_trick)]
            legal = beat or legal
        legal = legal or hand
    if rules.ace_covers_face and t_ace in legal and {t_king, t_queen, t_jack} & set(trick):  # R6.7
        legal = [t_ace]
    if rules.must_head:  # R6.3a
        winners = [c for c in legal if oracle_winner(trump, list(trick) + [c]) == len(trick)]
        legal = winners or legal
    return legal


@st.composite
def situations(draw):
    deck_size = draw(st.sampled_from([32, 52]))
    deck = [int(c) for c in deck_cards(deck_size)]
    cards = draw(st.permutations(deck))
    n_hand = draw(st.integers(1, 5))
    n_trick = draw(st.integers(0, 6))
    hand, trick = cards[:n_hand], cards[n_hand: n_hand + n_trick]
    trump = draw(st.integers(0, 3))
    # the Q duty arises only after leading the K of a marriage (and the A would come first)
    reachable_q = card_id(trump, QUEEN) in hand and card_id(trump, KING) not in hand and card_id(trump, ACE) not in hand
    q_duty = draw(st.booleans()) if reachable_q and not trick else False
    rules = Rules.classic(
        ruff=draw(st.sampled_from(list(Ruff))),
        must_head=draw(st.booleans()),
        ace_covers_face=draw(st.booleans()),
    )
    return rules, hand, trump, trick, q_duty


@given(situations())
def test_legal_cards_match_r6_7a(engine, situation):
    """R6.7a: on random hands and tricks, the legal set is the rule's step-by-step result."""
    rules, hand, trump, trick, q_duty = situation
    got = [int(c) for c in engine.legal_cards(rules, hand, trump, trick, q_duty)]
    assert got == oracle_legal(rules, hand, trump, trick, q_duty)
    assert got and set(got) <= set(hand)


@st.composite
def trump_heavy(draw):
    """Hands and tricks drawn from the trump suit and one plain suit, so duties fire often."""
    trump = draw(st.integers(0, 3))
    plain = draw(st.sampled_from([s for s in range(4) if s != trump]))
    pool = [card_id(s, r) for s in (trump, plain) for r in range(5, 13)]  # 7..A
    cards = draw(st.permutations(pool))
    n_hand = draw(st.integers(1, 5))
    n_trick = draw(st.integers(0, 3))
    hand, trick = cards[:n_hand], cards[n_hand: n_hand + n_trick]
    reachable_q = card_id(trump, QUEEN) in hand and card_id(trump, KING) not in hand and card_id(trump, ACE) not in hand
    q_duty = draw(st.booleans()) if reachable_q and not trick else False
    rules = Rules.classic(
        ruff=draw(st.sampled_from(list(Ruff))),
        must_head=draw(st.booleans()),
        ace_covers_face=draw(st.booleans()),
    )
    return rules, hand, trump, trick, q_duty


@given(trump_heavy())
def test_legal_cards_match_r6_7a_trump_heavy(engine, situation):
    """R6.5-R6.7a: the same check where trump aces, marriages and faces are common."""
    rules, hand, trump, trick, q_duty = situation
    got = [int(c) for c in engine.legal_cards(rules, hand, trump, trick, q_duty)]
    assert got == oracle_legal(rules, hand, trump, trick, q_duty)


@given(st.integers(0, 3), st.permutations([int(c) for c in deck_cards(52)]), st.integers(2, 7))
def test_trick_winner_matches_r6_4(engine, trump, cards, n):
    """R6.4 on random tricks of 2-7 cards."""
    trick = cards[:n]
    assert int(engine.trick_winner(trump, trick)) == oracle_winner(trump, trick)


@njit(cache=False)
def _kept_winner(cards, trump, hand):
    """The play loop's winner kept card by card (kernels/play.py), and the cards of ``hand`` beating it."""
    best = 0
    for k in range(cards.shape[0]):
        best = k if k == 0 or beats(cards[k], cards[best], trump) else best
    return best, winning_over(hand, cards[best], trump)


@given(st.lists(st.sampled_from(deck_cards(52)), min_size=1, max_size=6, unique=True), st.integers(0, 3),
       st.sets(st.sampled_from(deck_cards(52)), max_size=8))  # fmt: skip
def test_the_play_loop_keeps_the_winner_as_the_cards_fall(trick, trump, hand):
    """R6.4: the winner the play loop keeps card by card is trick_winner's, and the cards that beat
    it (what the policies read) are winning_cards' of the whole trick."""
    cards = np.array(trick, np.int8)
    mask = np.uint64(sum(1 << c for c in hand))
    best, win = _kept_winner(cards, trump, mask)
    assert best == trick_winner(cards, len(trick), trump)
    assert win == winning_cards(mask, cards, len(trick), trump)


_ranks_at_least_jit = njit(cache=False)(lambda t: _ranks_at_least(t))


@pytest.mark.parametrize("threshold", [-3.0, -0.5, 0.0, 0.25, 1.0, 5.5, 9.0, 11.999, 12.0, 12.5, 13.0, 99.0])
def test_basic_keeps_the_trumps_of_a_rank_at_least_its_parameter(threshold):
    """policies.py basic: ``keep_trump_rank`` keeps the trumps of rank >= the parameter (a float): the
    kernels' mask of those ranks is the rank-by-rank definition."""
    assert int(_ranks_at_least_jit(threshold)) == sum(1 << r for r in range(13) if r >= threshold)


@njit(cache=False)
def _least_kept_card_by_card(mask, hand, trump, params, seat):
    """The least keep value of ``mask``'s cards, card by card in id order (ties: lower id)."""
    best, best_value = -1, 0.0
    for card in range(64):
        if mask >> np.uint64(card) & np.uint64(1):
            value = keep_value(card, hand, trump, params, seat)
            if best < 0 or value < best_value:
                best, best_value = card, value
    return best


# a pool of cards from every keep class: both jack pairs, kings, aces, a queen and a low card
_KEEP_POOL = np.array([card_id(0, JACK), card_id(1, JACK), card_id(2, JACK), card_id(3, JACK), card_id(0, KING),
                       card_id(3, KING), card_id(1, ACE), card_id(2, ACE), card_id(2, QUEEN), card_id(3, 0)], np.int64)  # fmt: skip


@njit(cache=False)
def _least_kept_mismatches(pool, params):
    """Hands ``hand`` and subsets ``mask`` over ``pool`` (every pair), every trump: the count whose
    mask pick differs from the card-by-card pick."""
    bad = 0
    n = pool.shape[0]
    for h in range(1 << n):
        hand = np.uint64(0)
        for j in range(n):
            if h >> j & 1:
                hand |= np.uint64(1) << np.uint64(pool[j])
        m = h
        while True:  # every subset of h, h itself down to the empty set
            mask = np.uint64(0)
            for j in range(n):
                if m >> j & 1:
                    mask |= np.uint64(1) << np.uint64(pool[j])
            for trump in range(4):
                if _least_kept(mask, hand, trump, params, 0) != _least_kept_card_by_card(mask, hand, trump, params, 0):
                    bad += 1
            if m == 0:
                break
            m = (m - 1) & h
    return bad


@pytest.mark.parametrize("keep_kings", [False, True])
def test_the_least_kept_card_is_the_least_keep_value(keep_kings):
    """basic's card to give up (R4.3, R4.4's short talon): the kernels pick it by masks of
    keep_value's classes; for every hand over a pool of every class and every part of it,
    every trump, it is the card of least keep value, ties to the lower id."""
    params = np.zeros((1, B_KEEP_KINGS + 1))
    params[0, B_KEEP_KINGS] = float(keep_kings)
    assert _least_kept_mismatches(_KEEP_POOL, params) == 0
