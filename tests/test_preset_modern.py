"""R9 ``modern`` ([004] "Рамс современный"): worked examples in both engines, parties, branch, the CLI.

The choices are docs/VARIANTS.md's "modern". The worked examples give a deck order in
R3's layout: seats 1, 2, 3 and then the dealer 0 get five cards each (the dealer's last
card shows the trump suit), and the last four cards are the widow. Every score is 0
unless a test says otherwise. Each example runs in both engines (the ``engine`` fixture).
"""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from rams_sim import engine as fast
from rams_sim import reference
from rams_sim.cards import deck_cards, mask_of, parse_cards
from rams_sim.cli.main import app
from rams_sim.kernels.rng import deal_key, deck_order, party_deal_key
from rams_sim.record import Declaration as Dc
from rams_sim.record import EndKind, Outcome
from rams_sim.rules import Game, Rules

MODERN = Rules.named("modern")
N0, JP, FJ = Dc.NONE, Dc.JACK_PAIR, Dc.FOUR_JACKS
# basic that never passes and never takes the widow, so every seat plays on its dealt cards
PLAYS = "basic:modern_widow_threshold=0,pass_threshold=0"
# basic that passes as usual but never takes the widow
NO_WIDOW = "basic:modern_widow_threshold=0"

cli = CliRunner()


def deck(seat1: str, seat2: str, seat3: str, seat0: str, widow: str) -> list[int]:
    """A deck order: seats 1, 2, 3, 0 (the dealer; his last card is the trump card), then the widow."""
    order = [c for text in (seat1, seat2, seat3, seat0, widow) for c in parse_cards(text)]
    assert sorted(order) == [int(c) for c in deck_cards(24)], "not the 24-card deck"
    return order


def ints(seq) -> tuple[int, ...]:
    return tuple(int(x) for x in seq)


# Deal A: trump ♥ (the dealer's last card 9♥); seat 1 holds the five top trumps and takes
# every trick (R6.5, R6.6 duties); seat 2 holds the black jack pair; the widow is the ♦ court.
DEAL_A = deck("A♥ K♥ Q♥ J♥ 10♥", "9♠ 10♠ J♠ Q♠ J♣", "K♠ A♠ 10♣ 9♣ Q♣", "K♣ A♣ 9♦ 10♦ 9♥", "J♦ Q♦ K♦ A♦")
# Deal B: trump ♥; seat 1 holds A♥ K♥ Q♥ J♥ and J♦ (the red pair), seat 2 the ♦ ace.
DEAL_B = deck("A♥ K♥ Q♥ J♥ J♦", "A♦ 9♠ 10♠ J♠ 9♣", "Q♦ K♠ A♠ 10♣ Q♣", "K♣ A♣ 9♦ 10♦ 9♥", "10♥ J♣ Q♠ K♦")


# ------------------------------------------------------------------------ the rules
def test_preset_options():
    """The preset is the 24-card four-player game counting up from 0 (VARIANTS.md)."""
    assert MODERN.game == Game.MODERN and MODERN.players == 4 and MODERN.deck_size == 24 and MODERN.start == 0
    assert MODERN.modern_target == 20 and MODERN.modern_no_pass == 17
    assert MODERN.ace_values == (0, 0, 0, 0) and not MODERN.ace_forbids_pass and MODERN.four_jacks_win


@pytest.mark.parametrize(
    "change, message",
    [({"players": 5}, "exactly 4 players"), ({"deck": "32"}, "24-card deck"),
     ({"intent_round": True}, "no R4.0a round"), ({"modern_target": 0}, "modern_target"),
     ({"ace_forbids_pass": True}, "modern_no_pass")],
)  # fmt: skip
def test_modern_refuses_other_tables(change, message):
    with pytest.raises(ValueError, match=message) as err:
        Rules.named("modern", **change)
    assert "\n" not in str(err.value)


def test_modern_options_belong_to_modern():
    with pytest.raises(ValueError, match="modern"):
        Rules.classic(modern_settle="pot")


# ------------------------------------------------------------------ worked examples
def test_deal_trump_is_the_dealers_last_card(engine):
    """All 24 cards dealt: the trump card is the dealer's last card and stays in his hand; no widow
    taken. Nobody took a turned card (took_trump, R4.3: the dealer was dealt his)."""
    rec = engine.play_deal(MODERN, PLAYS, dealer=0, order=DEAL_A)
    assert int(rec.trump_card) == parse_cards("9♥")[0]
    assert tuple(bool(x) for x in rec.took_trump) == (False, False, False, False)
    assert int(rec.hand_final[0]) >> int(rec.trump_card) & 1
    assert int(rec.widow) == -1 and int(rec.redeals) == 0
    assert ints(rec.discards) == (0, 0, 0, 0) and ints(rec.drawn) == (0, 0, 0, 0)
    widow = mask_of(parse_cards("J♦ Q♦ K♦ A♦"))
    assert all(int(h) & widow == 0 for h in rec.hand_final)  # an untaken widow stays out of play


def test_tricks_count_up_and_horns(engine):
    """Seat 1 takes all five tricks (+5); the others take none: рожки -5 each, the jack pair too."""
    rec = engine.play_deal(MODERN, PLAYS, dealer=0, order=DEAL_A)
    assert ints(rec.tricks) == (0, 5, 0, 0) and ints(rec.delta) == (-5, 5, -5, -5)
    assert ints(rec.declaration) == (N0, N0, JP, N0) and ints(rec.jacks) == (0, 0, 0, 0)
    assert int(rec.outcome) == Outcome.PLAYED and int(rec.ends_party) == -1


def test_horns_from_five(engine):
    """modern_horns=from-five: a trickless player loses 5 only from a score of 5."""
    rules = MODERN.replace(modern_horns="from-five")
    rec = engine.play_deal(rules, PLAYS, dealer=0, order=DEAL_A, scores=[3, 0, 5, 4])
    assert ints(rec.delta) == (0, 5, -5, 0)


def test_jack_pair_adds_five_with_a_trick(engine):
    """Deal B: seat 1 shows J♦ J♥ and takes 4 tricks: 4 + 5; seat 2 takes the ♦ ace trick: 1."""
    rec = engine.play_deal(MODERN, PLAYS, dealer=0, order=DEAL_B)
    assert ints(rec.tricks) == (0, 4, 1, 0) and ints(rec.delta) == (-5, 9, 1, -5)
    assert ints(rec.jacks) == (0, 5, 0, 0) and ints(rec.declaration) == (N0, JP, N0, N0)


def test_reaching_twenty_ends_the_party_at_the_trick(engine):
    """Seat 1 at 17 reaches 20 at his third trick: the deal stops, the others score nothing (freeze)."""
    rec = engine.play_deal(MODERN, PLAYS, dealer=0, order=DEAL_A, scores=[10, 17, 12, 0])
    assert ints(rec.tricks) == (0, 3, 0, 0) and ints(rec.delta) == (0, 3, 0, 0) and len(rec.plays) == 3
    assert (int(rec.ends_party), int(rec.end_kind)) == (1, EndKind.TARGET)


def test_jack_bonus_counts_from_the_first_trick(engine):
    """Seat 1 at 14 with the red pair: his first trick makes 14 + 1 + 5 = 20 and wins."""
    rec = engine.play_deal(MODERN, PLAYS, dealer=0, order=DEAL_B, scores=[0, 14, 0, 0])
    assert ints(rec.tricks) == (0, 1, 0, 0) and ints(rec.delta) == (0, 6, 0, 0) and ints(rec.jacks) == (0, 5, 0, 0)
    assert (int(rec.ends_party), int(rec.end_kind)) == (1, EndKind.TARGET)


def test_no_pass_from_seventeen(engine):
    """Basic passes seats 3 and 0 (weak hands) at 0; at 17 seat 3 may not pass ("казна") and loses 5."""
    rec = engine.play_deal(MODERN, NO_WIDOW, dealer=0, order=DEAL_A)
    assert tuple(bool(p) for p in rec.passed) == (True, False, False, True)
    assert ints(rec.delta) == (0, 5, -5, 0)
    rec = engine.play_deal(MODERN, NO_WIDOW, dealer=0, order=DEAL_A, scores=[0, 0, 0, 17])
    assert tuple(bool(p) for p in rec.passed) == (True, False, False, False)
    assert ints(rec.delta) == (0, 5, -5, -5)


def test_lone_player_takes_all(engine):
    """Everyone else passes: the lone player is credited five tricks (R4.5 takes-all)."""
    rec = engine.play_deal(MODERN, ["basic:modern_widow_threshold=0,pass_threshold=99"] * 4, dealer=0, order=DEAL_A)
    # strength below 99 passes, but basic never passes with a jack pair: seat 2 plays alone (5 + 5)
    assert tuple(bool(p) for p in rec.passed) == (True, True, False, True)
    assert int(rec.outcome) == Outcome.LONE and ints(rec.tricks) == (0, 0, 5, 0) and ints(rec.delta) == (0, 0, 10, 0)


def test_widow_taken_blind_keeping_the_best_card(engine):
    """Seat 1 (no trump, no king) takes the widow: keeps 10♣, gives up four, draws the widow."""
    order = deck("9♣ 10♣ 9♦ 10♦ 9♥", "10♠ J♣ Q♣ K♣ A♣", "J♠ J♦ Q♦ K♦ A♦", "10♥ Q♥ K♥ A♥ 9♠", "A♠ K♠ Q♠ J♥")
    rec = engine.play_deal(MODERN, "basic", dealer=0, order=order)
    assert int(rec.widow) == 1
    assert int(rec.discards[1]) == mask_of(parse_cards("9♣ 9♦ 10♦ 9♥"))
    assert int(rec.drawn[1]) == mask_of(parse_cards("A♠ K♠ Q♠ J♥"))
    assert int(rec.hand_final[1]) == mask_of(parse_cards("10♣ A♠ K♠ Q♠ J♥"))
    assert int(rec.hand_dealt[1]) == mask_of(parse_cards("9♣ 10♣ 9♦ 10♦ 9♥"))
    assert tuple(bool(p) for p in rec.passed) == (True, False, True, False)


# Deal C: trump ♠ (the dealer's last card 9♠); seat 1 holds nothing (strength 0), seat 2 one low
# trump and a plain king (1.5), seat 3 J♠ (2.0, his jacks of two colours), the widow A♠ K♠ Q♠ J♥.
DEAL_C = deck("9♣ 10♣ 9♦ 10♦ 9♥", "10♠ J♣ Q♣ K♣ A♣", "J♠ J♦ Q♦ K♦ A♦", "10♥ Q♥ K♥ A♥ 9♠", "A♠ K♠ Q♠ J♥")


@pytest.mark.parametrize("order_name", ["one-turn", "declare-then-buy"])
def test_the_turn_order_decides_who_takes_the_widow(engine, order_name):
    """Deal C, seats 1-3 basic (pass below 2, take the widow below 3.5), the dealer always plays.
    one-turn (R4.0): seat 1 (0) takes the widow at his turn before he would pass, keeps 10♣ and
    takes four tricks with A♠ K♠ Q♠ J♥; seat 2 (1.5) passes; the dealer's A♥ takes the last
    trick and seat 3 takes none (рожки). declare-then-buy: in the round seats 1 and 2 pass, seat
    3 (2.0) and the dealer play; the widow is offered to seat 3 first: he takes it, keeps A♦,
    lays aside J♠ J♦ Q♦ K♦ and takes four tricks; the dealer's A♥ the last."""
    rules = MODERN.replace(exchange_order=order_name)
    rec = engine.play_deal(rules, [PLAYS, "basic", "basic", "basic"], dealer=0, order=DEAL_C)
    if order_name == "one-turn":
        taker, kept, laid_aside = 1, "10♣", "9♣ 9♦ 10♦ 9♥"
        assert tuple(bool(p) for p in rec.passed) == (False, False, True, False)
        assert ints(rec.tricks) == (1, 4, 0, 0) and ints(rec.delta) == (1, 4, 0, -5)
    else:
        taker, kept, laid_aside = 3, "A♦", "J♠ J♦ Q♦ K♦"
        assert tuple(bool(p) for p in rec.passed) == (False, True, True, False)
        assert ints(rec.tricks) == (1, 0, 0, 4) and ints(rec.delta) == (1, 0, 0, 4)
    assert int(rec.widow) == taker and int(rec.outcome) == Outcome.PLAYED
    assert int(rec.discards[taker]) == mask_of(parse_cards(laid_aside))
    assert int(rec.hand_final[taker]) == mask_of(parse_cards(f"{kept} A♠ K♠ Q♠ J♥"))
    assert ints(rec.declaration) == (N0, N0, N0, N0) and ints(rec.jacks) == (0, 0, 0, 0)


def test_declare_then_buy_offers_the_widow_to_players_only(engine):
    """Deal C, every seat basic: under declare-then-buy seats 1, 2 and the dealer pass in the
    round; the widow is offered to the one player, seat 3, who takes it and is credited five
    tricks alone (R4.5 takes-all). One-turn: seat 1 takes it (test_widow_taken_blind_keeping_the_best_card)."""
    rec = engine.play_deal(MODERN.replace(exchange_order="declare-then-buy"), "basic", dealer=0, order=DEAL_C)
    assert tuple(bool(p) for p in rec.passed) == (True, True, True, False) and int(rec.widow) == 3
    assert int(rec.outcome) == Outcome.LONE and ints(rec.tricks) == (0, 0, 0, 5) and ints(rec.delta) == (0, 0, 0, 5)


# Deal D: trump ♥; seat 1 holds the black jack pair J♠ J♣, the widow the four top trumps but the jack
DEAL_D = deck("J♠ J♣ 9♦ 10♦ 9♣", "J♦ Q♦ K♦ A♦ 10♣", "J♥ Q♣ K♣ A♣ 9♠", "10♠ Q♠ K♠ A♠ 9♥", "A♥ K♥ Q♥ 10♥")


@pytest.mark.parametrize("counted", ["final", "dealt", "dealt-or-final"])
def test_a_jack_pair_laid_aside_counts_as_jacks_count_says(engine, counted):
    """Deal D, key 28: seat 1 (random; the others play on their cards) takes the widow keeping J♠
    and lays J♣ aside with 9♦ 10♦ 9♣; he takes four tricks with A♥ K♥ Q♥ 10♥. jacks_count=final
    (the preset): his hand holds one black jack, no pair, no bonus: 4. dealt (and dealt-or-final):
    his dealt hand held the pair: he shows it and, with a trick, scores 4 + 5 = 9."""
    rules = MODERN.replace(jacks_count=counted)
    rec = engine.play_deal(rules, [PLAYS, "random", PLAYS, PLAYS], key=28, dealer=0, order=DEAL_D)
    assert int(rec.widow) == 1 and int(rec.hand_final[1]) == mask_of(parse_cards("J♠ A♥ K♥ Q♥ 10♥"))
    assert int(rec.discards[1]) == mask_of(parse_cards("J♣ 9♦ 10♦ 9♣"))
    assert ints(rec.tricks) == (1, 4, 0, 0)
    if counted == "final":
        assert ints(rec.delta) == (1, 4, -5, -5) and ints(rec.declaration) == (N0, N0, N0, N0)
        assert ints(rec.jacks) == (0, 0, 0, 0)
    else:
        assert ints(rec.delta) == (1, 9, -5, -5) and ints(rec.declaration) == (N0, JP, N0, N0)
        assert ints(rec.jacks) == (0, 5, 0, 0)


def test_four_jacks_from_the_widow_win(engine):
    """Seat 1 keeps J♥ and draws J♠ J♣ J♦: four jacks win the party before play, every delta 0."""
    order = deck("9♣ 10♣ 9♦ 10♦ J♥", "10♠ Q♠ K♠ A♠ Q♣", "K♣ A♣ Q♦ K♦ A♦", "Q♥ K♥ A♥ 10♥ 9♠", "J♠ J♣ J♦ 9♥")
    rec = engine.play_deal(MODERN, "basic", dealer=0, order=order)
    assert int(rec.widow) == 1 and int(rec.hand_final[1]) == mask_of(parse_cards("J♠ J♣ J♦ J♥ 9♥"))
    assert (int(rec.outcome), int(rec.ends_party), int(rec.end_kind)) == (Outcome.FOUR_JACKS, 1, EndKind.FOUR_JACKS)
    assert ints(rec.delta) == (0, 0, 0, 0) and ints(rec.declaration) == (N0, FJ, N0, N0) and len(rec.plays) == 0


def test_dealt_four_jacks_win(engine):
    order = deck("9♣ 10♣ 9♦ 10♦ A♥", "J♠ J♣ J♦ J♥ 9♠", "K♣ A♣ Q♦ K♦ A♦", "Q♥ K♥ 9♥ 10♥ 10♠", "Q♠ K♠ A♠ Q♣")
    rec = engine.play_deal(MODERN, PLAYS, dealer=0, order=order)
    assert (int(rec.ends_party), int(rec.end_kind)) == (2, EndKind.FOUR_JACKS) and ints(rec.delta) == (0, 0, 0, 0)


def test_redeal_on_a_plain_five(engine):
    """Seat 1 dealt five ♠ with ♥ trumps demands a redeal: the deal is shuffled again with deal_key(key, 1)."""
    order = deck("9♠ 10♠ J♠ Q♠ K♠", "A♠ A♦ 10♥ J♣ Q♣", "K♣ A♣ 9♣ 10♣ J♥", "Q♥ K♥ A♥ 9♦ 9♥", "10♦ J♦ Q♦ K♦")
    key = 12345
    rec = engine.play_deal(MODERN, PLAYS, dealer=0, order=order, key=key)
    assert int(rec.redeals) == 1
    again = [int(c) for c in deck_order(int(deal_key(np.uint64(key), 1)), deck_cards(24))]
    assert int(rec.hand_dealt[1]) == mask_of(again[0:5]) and int(rec.trump_card) == again[19]


def test_no_redeal_for_five_trumps(engine):
    """Deal A: seat 1's five are trumps: basic plays them; a five-suit is no rams in this game."""
    rec = engine.play_deal(MODERN, PLAYS, dealer=0, order=DEAL_A)
    assert int(rec.redeals) == 0 and int(rec.outcome) == Outcome.PLAYED and ints(rec.declaration)[1] == N0


# ------------------------------------------------------------------------- parties
@pytest.mark.parametrize("settle", ["missing", "pot"])
@pytest.mark.parametrize("policies", ["basic", ("basic", "random", "expert", "greedy")])
def test_a_party_counts_up_to_twenty_and_settles(engine, settle, policies):
    rules = MODERN.replace(modern_settle=settle)
    for party in range(3):
        record = engine.play_party(rules, policies, seed=20, party=party)
        assert record.winner >= 0
        scores, dealer = [0] * 4, 0
        for d in range(record.deals):
            key = int(party_deal_key(20, party, d))
            rec = engine.play_deal(rules, policies, key=key, dealer=dealer, scores=scores)
            scores = [s + x for s, x in zip(scores, rec.delta)]
            dealer = (dealer + 1) % 4
        assert tuple(scores) == tuple(record.scores) and rec.ends_party == record.winner
        if rec.end_kind == EndKind.TARGET:
            assert scores[record.winner] >= 20 and max(s for i, s in enumerate(scores) if i != record.winner) < 20
        if settle == "missing":
            pays = [0.0 if s == record.winner else -float(20 - scores[s]) for s in range(4)]
        else:
            pays = [0.0 if s == record.winner else -1.0 for s in range(4)]
        pays[record.winner] = -sum(pays)
        assert tuple(record.settlement) == tuple(pays)


def test_parties_agree():
    policies = ["basic", "random", "expert", "random"]
    out = fast.simulate_parties(MODERN, policies, seed=9, parties=80)
    for p in range(80):
        slow = reference.play_party(MODERN, policies, seed=9, party=p)
        assert not slow.differences(fast.party_record_of(out, p)), p


@pytest.mark.parametrize("policies", ["random", "basic", ("cautious", "greedy", "random", "expert")])
def test_redeals_agree(policies):
    """Deals with a redeal (a five-suit: about 1 in 400) are the same in both engines."""
    out = fast.simulate(MODERN, policies, seed=404, deals=20_000, log_plays=True)
    deals = np.flatnonzero(out.redeals > 0)
    assert len(deals) >= 5
    for i in deals[:40]:
        diff = reference.play_deal(MODERN, policies, seed=404, deal=int(i)).differences(fast.record_of(out, int(i)))
        assert not diff, f"deal {i}: {diff}"


# ----------------------------------------------------------------- basic beats random
def test_basic_beats_random_in_parties():
    out = fast.simulate_parties(MODERN, ["basic", "random", "random", "random"], seed=1, parties=2000)
    wins = np.mean(out.winner == 0)
    assert wins > 0.8, wins  # 91.5% in 10^5 parties (docs/VARIANTS.md)


# ------------------------------------------------------------------------ branch, CLI
@pytest.mark.parametrize("order_name, seat", [("one-turn", 1), ("declare-then-buy", 1), ("declare-then-buy", 3)])
def test_branch_options(order_name, seat):
    """`branch`: pass, stand and the 4-card takes are the options (declare-then-buy: a take plays in
    the round and takes the widow at the seat's offer, unavailable once a seat before him took it);
    the policy's own choice gives the run's row."""
    deals = 300
    rules = MODERN.replace(exchange_order=order_name)
    run = fast.simulate(rules, "basic", seed=4, deals=deals)
    br = fast.simulate_branches(rules, "basic", seat=seat, seed=4, deals=deals)
    opts = {int(o) for o in br.option}
    assert opts <= {-1, 0} | {m for m in range(32) if m.bit_count() == 4}
    assert any(int(o).bit_count() == 4 for o in opts if o > 0)
    matched = 0
    for i in range(deals):
        rows = np.flatnonzero(br.deal == i)
        hits = [r for r in rows if int(br.hand_final[r]) == int(run.hand_final[i, seat])
                and bool(br.passed[r]) == bool(run.passed[i, seat])
                and int(br.discards[r]) == int(run.discards[i, seat])]  # fmt: skip
        assert hits, i
        matched += any(int(br.delta[r]) == int(run.delta[i, seat]) for r in hits)
    assert matched == deals


@pytest.mark.parametrize(
    "args",
    [["run", "--rules", "modern", "--deals", "2000"], ["party", "--rules", "modern", "--parties", "20"]],
)
def test_cli_runs(tmp_path, args):
    result = cli.invoke(app, [*args, "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output


def test_branch_no_pass_from_seventeen():
    """At 17 ("казна") the pass is not among a seat's options."""
    br = fast.simulate_branches(MODERN.replace(start=17), "basic", seat=2, seed=5, deals=50)
    assert -1 not in {int(o) for o in br.option} and 0 in {int(o) for o in br.option}


def test_replay_tells_the_turns():
    """`replay` tells the trump card kept by the dealer, the redeals and the widow taken (keep, lay aside, draw)."""
    from rams_sim.replay import replay_lines

    out = fast.simulate(MODERN, "random", seed=0, deals=3000)
    i = int(np.flatnonzero((out.redeals > 0) & (out.widow >= 0))[0])
    text = "\n".join(replay_lines(MODERN, "random", seed=0, deal=i))
    seat = int(out.widow[i])
    assert "It is the dealer's last card and stays in his hand." in text
    assert f"Redeals: {int(out.redeals[i])}" in text
    assert f"seat {seat}" in text and "takes the widow: keeps" in text and "R4.3" not in text


def test_replay_tells_declare_then_buy():
    """`replay` under declare-then-buy: the play/pass round, then the widow offered to the players,
    the players before its taker declining it."""
    from rams_sim.replay import replay_lines

    rules = MODERN.replace(exchange_order="declare-then-buy")
    out = fast.simulate(rules, "basic", seed=0, deals=200)
    i = int(np.flatnonzero(out.widow >= 0)[0])
    text = "\n".join(replay_lines(rules, "basic", seed=0, deal=i))
    assert "Play or pass (R4.0, declare-then-buy):" in text and "The widow, offered in turn" in text
    assert f"seat {int(out.widow[i])}" in text and "takes the widow: keeps" in text and "R4.3" not in text


def test_rules_list_shows_modern_implemented():
    result = cli.invoke(app, ["rules", "show", "modern"])
    assert result.exit_code == 0 and "modern_target" in result.output, result.output


# ----------------------------------------------------------------------- properties
@pytest.mark.parametrize("policies", ["random", "basic", ("expert", "random", "greedy", "cautious")])
def test_every_card_in_one_place(policies):
    """On random decks: the 24 cards are dealt once; the widow is in the taker's hand or out of play,
    his four given up are out; tricks sum to 5 when played; the deltas follow the scoring."""
    out = fast.simulate(MODERN, policies, seed=24, deals=3000)
    deck = int(mask_of([int(c) for c in deck_cards(24)]))
    for i in range(len(out)):
        dealt = [int(m) for m in out.hand_dealt[i]]
        final = [int(m) for m in out.hand_final[i]]
        disc = [int(m) for m in out.discards[i]]
        drawn = [int(m) for m in out.drawn[i]]
        union = 0
        for m in dealt:
            assert union & m == 0
            union |= m
        assert int(union).bit_count() == 20 and union & ~deck == 0
        assert dealt[int(out.dealer[i])] >> int(out.trump_card[i]) & 1  # the dealer's own card
        taker = int(out.widow[i])
        seen = 0
        for s in range(4):
            for m in (final[s], disc[s]):
                assert seen & m == 0
                seen |= m
            if s == taker:
                assert int(disc[s]).bit_count() == 4 and int(drawn[s]).bit_count() == 4 and disc[s] | final[s] & ~drawn[s] == dealt[s]
            else:
                assert disc[s] == 0 and drawn[s] == 0 and final[s] == dealt[s]
        assert seen == (deck if taker >= 0 else union)
        tricks = [int(t) for t in out.tricks[i]]
        if out.outcome[i] == Outcome.PLAYED or out.outcome[i] == Outcome.LONE:
            assert sum(tricks) == 5
        for s in range(4):
            d, t, j = int(out.delta[i, s]), tricks[s], int(out.jacks[i, s])
            if out.passed[i, s] or out.outcome[i] in (Outcome.FOUR_JACKS, Outcome.NOBODY, Outcome.VOID):
                assert d == 0 and t == 0
            else:
                assert d == (t + j if t else -5) and j in ((0, 5) if t else (0,))
