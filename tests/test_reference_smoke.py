"""Quick sanity checks of the reference engine (rams_sim.reference).

Cards are conserved, played-out deals have five tricks, a seed replays exactly, and a
few deals and R10 vectors are checked by hand.
"""

from __future__ import annotations

import pytest

from rams_sim import cards as C
from rams_sim import reference as R
from rams_sim.kernels.rng import party_deal_key
from rams_sim.policies import PolicySpec
from rams_sim.record import Declaration, EndKind, Outcome
from rams_sim.rules import Rules


def P(text):
    """Card ids of a text such as "A♠ K♥"."""
    return C.parse_cards(text)


def two_player_order(seat1, seat0, trump_card, talon_front=""):
    """A 32-card deck order for 2 players, dealer 0: seat 1 is dealt first (R3)."""
    front = P(seat1) + P(seat0) + P(trump_card) + P(talon_front)
    rest = [c for c in C.deck_cards(32).tolist() if c not in front]
    return front + rest


# ---- cards conserved, five tricks, determinism ------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 7])
@pytest.mark.parametrize("policy", ["basic", "random"])
def test_cards_conserved_and_tricks(players, policy):
    rules = Rules(players=players)
    for deal in range(150):
        rec = R.play_deal(rules, policy, seed=11, deal=deal)
        n = players
        dealt = [C.cards_of(m) for m in rec.hand_dealt]
        assert all(len(h) == 5 for h in dealt)
        all_dealt = [c for hand in dealt for c in hand]
        assert len(set(all_dealt)) == 5 * n and rec.trump_card not in all_dealt
        drawn_all = [c for m in rec.drawn for c in C.cards_of(m)]
        assert len(set(drawn_all)) == len(drawn_all)
        assert not set(drawn_all) & (set(all_dealt) | {rec.trump_card})
        for s in range(n):
            final = rec.hand_dealt[s] & ~rec.discards[s] | rec.drawn[s]
            assert rec.discards[s] & rec.hand_dealt[s] == rec.discards[s]
            assert int(rec.discards[s]).bit_count() == int(rec.drawn[s]).bit_count()
            if rec.took_trump[s]:
                assert s == rec.dealer
                final = final & ~(1 << rec.trump_discard[s]) | (1 << rec.trump_card)
            else:
                assert rec.trump_discard[s] == -1
            if rec.passed[s]:
                assert rec.discards[s] == 0 and not rec.took_trump[s]
                assert rec.hand_final[s] == rec.hand_dealt[s] and rec.tricks[s] == 0
            assert rec.hand_final[s] == final and int(final).bit_count() == 5
        # every card played came from the player's final hand, once
        played = [0] * n
        for trick in rec.plays:
            for s, card in enumerate(trick.cards):
                if card >= 0:
                    assert rec.hand_final[s] >> card & 1 and not played[s] >> card & 1
                    played[s] |= 1 << card
            assert trick.cards[trick.winner] >= 0 and trick.cards[trick.leader] >= 0
        if rec.outcome in (Outcome.PLAYED, Outcome.LONE) and rec.end_kind != EndKind.TRICK:
            assert sum(rec.tricks) == 5
        if rec.outcome == Outcome.PLAYED:
            assert len(rec.plays) == sum(rec.tricks)
            assert [t.winner for t in rec.plays].count(0) == rec.tricks[0]
        else:
            assert rec.plays == ()


def test_determinism_and_party_replay():
    rules = Rules(players=4)
    a = [R.play_deal(rules, "random", seed=5, deal=d) for d in range(50)]
    b = [R.play_deal(rules, "random", seed=5, deal=d) for d in range(50)]
    assert a == b
    assert a != [R.play_deal(rules, "random", seed=6, deal=d) for d in range(50)]
    # a party is its deals, replayed one by one (R7.5: score after = before + delta)
    for party in range(5):
        rec = R.play_party(rules, "basic", seed=3, party=party)
        scores, resets = [rules.start] * 4, [0] * 4
        for d in range(rec.deals):
            deal = R.play_deal(rules, "basic", key=party_deal_key(3, party, d), dealer=d % 4, scores=scores)
            scores = [s + x for s, x in zip(scores, deal.delta)]
            resets = [r + o for r, o in zip(resets, deal.overshoot)]
        assert tuple(scores) == rec.scores and tuple(resets) == rec.resets
        assert deal.ends_party == rec.winner and deal.end_kind == rec.end_kind
        assert abs(sum(rec.settlement)) < 1e-9
        assert rec.settlement[rec.winner] == sum(max(s, 0) for i, s in enumerate(scores) if i != rec.winner)


def test_parties_without_announcing_terminate():
    rules = Rules(players=3, start=15)
    for party in range(10):
        rec = R.play_party(rules, PolicySpec.parse("random:announce=false"), seed=1, party=party)
        assert rec.winner >= 0 and rec.end_kind != EndKind.TRICK
    stake = R.play_party(Rules(players=3, settle="stake"), "basic", seed=1)
    assert max(stake.settlement) == 1.0 and abs(sum(stake.settlement)) < 1e-9


# ---- hand-checked deals ---------------------------------------------------------------
def test_played_deal_by_hand():
    # trump ♦. Seat 1 stands (A♠, kings, trumps all kept); the dealer stands, then
    # takes Q♦ (keep value 60 > K♣'s 30) and gives up K♣ (R4.3).
    order = two_player_order("A♠ K♠ K♥ 7♦ 8♦", "A♦ K♣ A♥ 9♦ 10♦", "Q♦")
    rec = R.play_deal(Rules(players=2), "basic", dealer=0, order=order)
    assert rec.passed == (False, False) and rec.discards == (0, 0)
    assert rec.took_trump == (True, False) and rec.trump_discard == (C.parse("K♣"), -1)
    # A♠ led, ruffed 9♦; A♦ (R6.5); A♥; 10♦; Q♦: the dealer takes all five
    assert [t.cards[1] for t in rec.plays] == P("A♠ 7♦ K♥ 8♦ K♠")
    assert [t.cards[0] for t in rec.plays] == P("9♦ A♦ A♥ 10♦ Q♦")
    assert rec.tricks == (5, 0)
    assert rec.delta == (-(5 + 15 + 20), 5 + 5)  # R7.1; R7.2 remiz with ♠A
    assert rec.outcome == Outcome.PLAYED and rec.ends_party == -1


def test_trump_rams_by_drawing():
    # trump ♠ (9♠ turned). Seat 1 holds A♠ K♠ Q♠ J♠ and draws 10♠ for the odd 7♥:
    # trump rams with the trump ace, -(10 + 5); the dealer pays 10 + A♦ + A♥ (R5.3).
    order = two_player_order("A♠ K♠ Q♠ J♠ 7♥", "A♥ A♦ K♣ K♦ 8♣", "9♠", "10♠ 7♣")
    rec = R.play_deal(Rules(players=2), "basic", dealer=0, order=order)
    assert rec.drawn[1] == C.mask_of(P("10♠"))
    assert rec.declaration == (Declaration.NONE, Declaration.TRUMP_RAMS)
    assert rec.delta == (10 + 35, -15)
    assert rec.outcome == Outcome.RAMS and rec.plays == () and rec.tricks == (0, 0)


def test_marriage_lead_by_hand():
    # trump ♥ (J♥ turned). Seat 1 stands on K♥ Q♥ A♠ A♣ K♦ and must lead K♥ (R6.6),
    # then Q♥ after the K won; the dealer keeps A♦ 7♥, draws 7♠ 7♣ 8♣ and takes J♥
    # for 7♠ (lowest keep value, lower id first).
    order = two_player_order("K♥ Q♥ A♠ A♣ K♦", "7♥ 8♠ 9♠ A♦ 10♣", "J♥", "7♠ 7♣ 8♣")
    rec = R.play_deal(Rules(players=2), "basic", dealer=0, order=order)
    assert rec.discards == (C.mask_of(P("8♠ 9♠ 10♣")), 0) and rec.trump_discard[0] == C.parse("7♠")
    assert [t.cards[1] for t in rec.plays] == P("K♥ Q♥ A♠ A♣ K♦")
    assert [t.cards[0] for t in rec.plays] == P("7♥ J♥ 7♣ 8♣ A♦")
    assert rec.tricks == (1, 4) and rec.delta == (-(1 + 15), -(4 + 5 + 10))


def test_unfinished_party():
    rec = R.play_party(Rules(players=4, max_deals=1), "basic", seed=0)
    assert rec.deals == 1 and rec.winner == -1 and rec.end_kind == EndKind.UNFINISHED
    assert rec.settlement == (0.0, 0.0, 0.0, 0.0)


def test_four_aces_end_the_party():
    order = two_player_order("A♠ A♣ A♦ A♥ 7♠", "J♠ J♣ 8♦ 9♦ 10♦", "K♥")
    rec = R.play_deal(Rules(players=2), "basic", dealer=0, order=order)
    assert rec.ends_party == 1 and rec.end_kind == EndKind.FOUR_ACES and rec.outcome == Outcome.FOUR_ACES
    assert rec.delta == (0, 0) and rec.jacks == (0, 0)
    assert rec.declaration[1] == Declaration.FOUR_ACES


def test_short_talon_policy_error(monkeypatch):
    monkeypatch.setattr(R.BasicPolicy, "wants_pass", lambda self, hand, trump, position, players: False)
    monkeypatch.setattr(R.BasicPolicy, "choose_discard", lambda self, hand, trump, d, t, position, players: list(hand))
    with pytest.raises(ValueError, match="R4.4"):
        R.play_deal(Rules(players=4), "basic", seed=0)


# ---- R6: legality and the trick -----------------------------------------------------
def test_legal_cards_r6_7a():
    r = Rules()
    sp = C.SPADES  # trump ♠ below
    assert R.legal_cards(r, P("A♠ 7♥ 8♥"), sp, []) == P("A♠")  # R6.5
    assert R.legal_cards(r, P("K♠ Q♠ 8♥"), sp, []) == P("K♠")  # R6.6
    assert R.legal_cards(r, P("Q♠ 8♥"), sp, [], q_duty=True) == P("Q♠")  # R6.6
    assert R.legal_cards(r, P("Q♠ 8♥"), sp, []) == P("Q♠ 8♥")
    assert R.legal_cards(r, P("7♥ 8♥ 9♠ A♦"), sp, P("K♥")) == P("7♥ 8♥")  # follow suit
    assert R.legal_cards(r, P("9♠ 10♠ A♦"), sp, P("K♥ J♠")) == P("9♠ 10♠")  # must trump
    assert R.legal_cards(Rules(ruff="overtrump"), P("9♠ Q♠ A♦"), sp, P("K♥ J♠")) == P("Q♠")
    assert R.legal_cards(Rules(ruff="overtrump"), P("8♠ 9♠ A♦"), sp, P("K♥ J♠")) == P("8♠ 9♠")
    assert R.legal_cards(r, P("A♦ 7♣"), sp, P("K♥")) == P("7♣ A♦")  # anything
    assert R.legal_cards(r, P("A♠ 8♠ 7♥"), sp, P("9♥ Q♠")) == P("7♥")  # R6.7 never overrides R6.2
    assert R.legal_cards(r, P("A♠ 8♠ 7♦"), sp, P("9♥ Q♠")) == P("A♠")  # R6.7
    assert R.legal_cards(r, P("A♠ 8♠"), sp, P("J♠")) == P("A♠")  # R6.7, trumps led
    assert R.legal_cards(Rules(ace_covers_face=False), P("A♠ 8♠"), sp, P("J♠")) == P("8♠ A♠")
    assert R.legal_cards(Rules(must_head=True), P("7♥ 10♥ K♥"), sp, P("9♥")) == P("10♥ K♥")
    assert R.legal_cards(Rules(must_head=True), P("7♥ 10♥"), sp, P("9♥ 7♠")) == P("7♥ 10♥")


def test_trick_winner():
    assert R.trick_winner(C.SPADES, P("9♥ K♥ 7♠ A♥")) == 2
    assert R.trick_winner(C.SPADES, P("9♥ K♥ A♦")) == 1
    assert R.trick_winner(C.HEARTS, P("9♠ 7♥ 8♥")) == 2


# ---- R10 vectors through settle_deal --------------------------------------------------
def settle(mine, other, winners, trump=C.CLUBS, scores=None, announce=None, rules=None):
    """Two players, dealer 1, both active; seat 0 holds ``mine``."""
    return R.settle_deal(
        rules or Rules(players=2),
        dealer=1,
        trump=trump,
        hands_dealt=[P(mine), P(other)],
        hands_final=[P(mine), P(other)],
        active=[True, True],
        scores=scores,
        trick_winners=winners,
        announce=announce,
    )


@pytest.mark.parametrize(
    "mine, tricks, delta",
    [
        ("A♦ 7♥ 8♥ 9♠ 10♠", 1, -16),  # R10.1
        ("A♠ A♦ A♥ 7♥ 8♠", 2, -42),  # R10.2
        ("A♠ A♦ A♥ 7♥ 8♠", 0, 45),  # R10.3
        ("A♣ A♦ A♥ 7♥ 8♠", 0, 50),  # R10.3
        ("A♠ A♦ A♥ 7♥ 8♠", 1, -41),  # R10.4
        ("J♦ J♥ 7♥ 8♠ 9♠", 0, 0),  # R10.5
        ("J♠ J♣ J♦ J♥ 8♠", 0, -5),  # R10.5
        ("J♠ J♣ J♦ J♥ A♠", 2, -17),  # R10.13: -10 - t - A
    ],
)
def test_r10_vectors(mine, tricks, delta):
    other = "7♣ 8♣ 9♣ 10♣ 7♦" if "J" in mine else "J♠ Q♣ K♣ 9♦ 10♦"
    out = settle(mine, other, [0] * tricks + [1] * (5 - tricks))
    assert out.delta[0] == delta


def test_r10_finishing_and_overshoot():
    # R10.8: score 3 holding ♠A takes one trick -> wins (1 + 5 >= 3)
    out = settle("A♠ 7♥ 8♥ 9♦ 10♦", "K♥ Q♥ J♦ Q♦ K♦", [1, 0, 1, 1, 1], scores=[3, 100])
    assert out.ends_party == 0 and out.end_kind == EndKind.TRICK and out.tricks == (1, 1)
    assert out.delta == (-6, 0)  # R8.2a freeze
    # R10.12: score 1 without announcing takes 2 tricks -> back to 100
    out = settle("A♠ 7♥ 8♥ 9♦ 10♦", "K♥ Q♥ J♦ Q♦ K♦", [0, 0, 1, 1, 1], scores=[1, 100], announce=[False, True])
    assert out.overshoot == (True, False) and out.delta[0] == 99 and out.ends_party == -1
    # score 3 holding ♠A, one trick without announcing: at zero at the end of the deal
    out = settle("A♠ 7♥ 8♥ 9♦ 10♦", "K♥ Q♥ J♦ Q♦ K♦", [0, 1, 1, 1, 1], scores=[3, 100], announce=[False, True])
    assert out.ends_party == 0 and out.end_kind == EndKind.DEAL_END and out.delta[0] == -6


def test_r10_rams_and_jacks():
    # R10.10: trump ♦; ♥ rams without the ace beats ♠ rams with ♠A
    out = R.settle_deal(
        Rules(players=3),
        dealer=2,
        trump=C.DIAMONDS,
        hands_dealt=[P("7♥ 8♥ 9♥ 10♥ K♥"), P("A♠ 7♠ 8♠ 9♠ 10♠"), P("A♦ 7♣ 8♣ 9♣ 10♣")],
        hands_final=[P("7♥ 8♥ 9♥ 10♥ K♥"), P("A♠ 7♠ 8♠ 9♠ 10♠"), P("A♦ 7♣ 8♣ 9♣ 10♣")],
        active=[True, True, True],
    )
    assert out.delta == (-5, 10, 20) and out.outcome == Outcome.RAMS
    assert out.declaration == (Declaration.SUIT_RAMS, Declaration.RAMS_OUTRANKED, Declaration.NONE)
    # two players at score 5 with jack pairs: the one nearer the dealer's left wins (R5 4c)
    out = settle("J♠ J♣ 7♥ 8♥ 9♦", "J♦ J♥ 7♠ 8♠ 9♣", [], scores=[5, 5])
    assert out.ends_party == 0 and out.end_kind == EndKind.JACKS and out.delta == (-5, -5)
    # R4.5: a lone player at score 3 holding ♠A wins at his first credited trick
    out = R.settle_deal(
        Rules(players=2),
        dealer=1,
        trump=C.CLUBS,
        hands_dealt=[P("A♠ 7♥ 8♥ 9♦ 10♦"), P("K♥ Q♥ J♦ Q♦ K♦")],
        hands_final=[P("A♠ 7♥ 8♥ 9♦ 10♦"), P("K♥ Q♥ J♦ Q♦ K♦")],
        active=[True, False],
        scores=[3, 100],
    )
    assert out.tricks == (1, 0) and out.ends_party == 0 and out.outcome == Outcome.LONE
