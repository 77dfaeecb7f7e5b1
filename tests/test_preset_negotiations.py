"""The `negotiations` preset ([004] "Рамс с переговорами", R9): worked examples of R4.0a.

As `classic` with `exchange_order=declare-then-buy`; once every seat has said play or
pass, each seat that plays, from the dealer's left, announces "on trumps" (на козырях)
or "on suits" (на мастях), before the buying. The announcement changes no score; it is
recorded (DealRecord.intent, the Parquet column ``intent``) and a policy may read the
others' (expert does, ``read_intents``). docs/VARIANTS.md gives the choices.

Unless a test says otherwise: four players (32 cards, 7..A), seat 0 deals, so the seat
order (R3) is 1, 2, 3, 0; trumps are spades (the trump card 7♠); every seat plays
``basic``. A deal is built from an explicit deck order: seat 1 gets d[0..4], seat 2
d[5..9], seat 3 d[10..14], seat 0 d[15..19], d[20] is the trump card, the talon follows.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from rams_sim import cards as C
from rams_sim import engine as fast
from rams_sim import reference
from rams_sim.cli.main import app
from rams_sim.kernels.policy import EXPERT, choose_card
from rams_sim.kernels.rng import STATE_WORDS
from rams_sim.policies import X_READ_INTENTS, PolicySpec, pack_policies
from rams_sim.record import Intent
from rams_sim.reference.policy import BasicPolicy, ExpertPolicy, PlayView
from rams_sim.replay import replay_lines
from rams_sim.rules import ExchangeOrder, Rules
from rams_sim.runs.runner import DEALS, RunSpec, execute
from rams_sim.runs.summary import scan

T, S, NO = Intent.ON_TRUMPS, Intent.ON_SUITS, Intent.NONE
TRUMP_CARD = "7♠"
cli = CliRunner()


def deck(seat1: str, seat2: str, seat3: str, seat0: str, talon: str = "", trump_card: str = TRUMP_CARD) -> list[int]:
    """A 32-card deck order dealing these hands (R3, dealer 0), then the trump card, then
    ``talon`` first and every other card in ascending id order."""
    head = [C.parse_cards(h) for h in (seat1, seat2, seat3, seat0)]
    placed = [c for h in head for c in h] + [C.parse(trump_card)] + C.parse_cards(talon)
    assert all(len(h) == C.HAND_SIZE for h in head) and len(set(placed)) == len(placed)
    rest = [int(c) for c in C.deck_cards(32) if int(c) not in placed]
    return placed + rest


def play(engine, rules: Rules, order: list[int], policies="basic", events=None):
    """Deal 0 (dealer 0) of the given deck order."""
    if events is not None:
        return engine.play_deal(rules, policies, dealer=0, order=order, events=events)
    return engine.play_deal(rules, policies, dealer=0, order=order)


# ------------------------------------------------------------------- the round itself
# seat 1 plays (an ace) with Q♠ 8♠: 2 + 1 = 3 >= 3, "on trumps"; seat 2 holds no ace, no
# jack pair and strength 0 < 2, so basic passes and says nothing; seat 3 (an ace) has two
# low trumps, 2 < 3, "on suits"; seat 0 (aces) has the trump ace alone, 2 < 3, "on suits".
ROUND = deck("A♦ Q♠ 8♠ 7♣ 10♥", "8♣ 9♣ 10♦ 9♦ 8♥", "A♣ 9♠ 10♠ 7♦ 7♥", "A♥ A♠ K♣ Q♦ 9♥")


def test_passers_announce_nothing_the_others_in_seat_order(engine):
    """R4.0a: every seat that plays announces, a passer does not (seat 2 passes)."""
    rec = play(engine, Rules.negotiations(), ROUND)
    assert rec.passed == (False, False, True, False)
    assert rec.intent == (S, T, NO, S)  # by seat 0, 1, 2, 3


def test_the_round_goes_from_the_dealers_left_after_every_play_or_pass():
    """R4.0a: the announcements follow the whole play/pass round and precede the buying,
    in seat order from the dealer's left among those who play (the reference's steps)."""
    events: list = []
    play(reference, Rules.negotiations(), ROUND, events=events)
    steps = [(step, d.get("seat")) for step, d in events if step in ("pass", "intent", "exchange", "stand")]
    assert steps[0] == ("pass", 2)  # the only pass, said in the play/pass round
    assert [s for s in steps if s[0] == "intent"] == [("intent", 1), ("intent", 3), ("intent", 0)]
    assert [s[0] for s in steps[1:4]] == ["intent"] * 3  # all announced before anyone buys
    assert {s[0] for s in steps[4:]} <= {"exchange", "stand"} and len(steps) == 7


def test_the_first_announcer_is_the_first_player_who_plays():
    """R4.0a: with seat 1 passing, seat 2 announces first; the dealer (seat 0) last."""
    order = deck("8♣ 9♣ 10♦ 9♦ 8♥", "A♦ Q♠ 8♠ 7♣ 10♥", "A♣ 9♠ 10♠ 7♦ 7♥", "A♥ A♠ K♣ Q♦ 9♥")
    events: list = []
    rec = play(reference, Rules.negotiations(), order, events=events)
    assert [d["seat"] for step, d in events if step == "intent"] == [2, 3, 0]
    assert rec.intent == (S, NO, T, S)
    assert play(fast, Rules.negotiations(), order).intent == rec.intent


# --------------------------------------------------------------- what basic announces
# Seat 1's dealt hand with trumps ♠; basic: per trump 1, plus 1 if of rank J or higher;
# "on trumps" from 3 (intent_threshold). Seats 2 and 3 pass, seat 0 plays on suits.
FILL2, FILL3, FILL0 = "8♣ 9♣ 10♣ 7♦ 8♦", "J♣ Q♣ 9♦ 10♦ 7♥", "A♣ J♦ 8♥ 9♥ Q♥"


@pytest.mark.parametrize(
    "hand, strength, intent",
    [
        ("Q♠ 8♠ A♦ 7♣ 10♥", 3, T),  # a high trump and a low one
        ("9♠ 10♠ A♦ 7♣ 10♥", 2, S),  # two low trumps
        ("8♠ 9♠ 10♠ A♦ 7♣", 3, T),  # three low trumps
        ("A♠ A♦ K♦ K♣ K♥", 2, S),  # the trump ace alone, strong plain cards
        ("J♠ Q♠ K♠ A♠ 7♣", 8, T),  # four high trumps
        ("A♦ K♦ Q♦ J♥ 10♥", 0, S),  # no trump
    ],
)
def test_basic_announces_from_its_trump_strength(engine, hand, strength, intent):
    """policies.py basic: "on trumps" iff trumps (1 each, +1 from the jack up) reach 3."""
    assert BasicPolicy(PolicySpec.parse("basic"), 0, 1).trump_strength(C.parse_cards(hand), C.SPADES) == strength
    rec = play(engine, Rules.negotiations(), deck(hand, FILL2, FILL3, FILL0))
    assert rec.passed == (False, False, True, True)
    assert rec.intent == (S, intent, NO, NO)


# seat 1 holds no trump and keeps only A♦ (basic): he discards four cards and draws the
# first four of the talon, 8♠ 9♠ Q♠ K♠; seats 2 and 3 pass, seat 0 (A♣) plays.
BUYER = deck("A♦ 7♣ 8♣ 9♥ 10♥", "9♣ 10♣ 7♦ 8♦ 7♥", "J♣ Q♣ 9♦ 10♦ 8♥", "A♣ J♦ Q♦ K♦ Q♥", talon="8♠ 9♠ Q♠ K♠")


def test_basic_announces_from_the_dealt_hand_before_buying(engine):
    """R4.0a in declare-then-buy: the announcement precedes the exchange, so seat 1 announces
    from his dealt hand (no trump: on suits) though he then draws four trumps."""
    rec = play(engine, Rules.negotiations(), BUYER)
    assert rec.passed == (False, False, True, True)
    assert C.cards_of(rec.drawn[1]) == sorted(C.parse_cards("8♠ 9♠ Q♠ K♠"))
    assert rec.intent == (S, S, NO, NO)


def test_one_turn_announces_after_the_exchange(engine):
    """intent_round with one-turn (a what-if, not a preset): everybody has said play or pass
    only when the single round is over, so the same seat 1 announces from his bought hand:
    8♠ 9♠ Q♠ K♠ is 1 + 1 + 2 + 2 = 6, on trumps. The dealer too: he kept A♣ K♦ and drew the
    next talon cards 10♠ J♠ A♠ (1 + 2 + 2 = 5), before R4.3's trump card."""
    rec = play(engine, Rules.classic(intent_round=True), BUYER)
    assert C.cards_of(rec.drawn[1]) == sorted(C.parse_cards("8♠ 9♠ Q♠ K♠"))
    assert C.cards_of(rec.drawn[0]) == sorted(C.parse_cards("10♠ J♠ A♠"))
    assert rec.intent == (T, T, NO, NO)


def test_intent_threshold_is_a_parameter(engine):
    """basic:intent_threshold=2 says "on trumps" with two low trumps (2 >= 2)."""
    order = deck("9♠ 10♠ A♦ 7♣ 10♥", FILL2, FILL3, FILL0)
    assert play(engine, Rules.negotiations(), order).intent[1] == S
    assert play(engine, Rules.negotiations(), order, "basic:intent_threshold=2").intent[1] == T


def test_random_announces_by_a_coin_of_its_own_stream(engine):
    """policies.py random: each announcement is a coin of the seat's stream, so over many
    deals both answers come, and the two engines draw the same coins (differential tests)."""
    rules = Rules.negotiations()
    seen = {Intent(i) for d in range(40) for i in engine.play_deal(rules, "random", seed=3, deal=d).intent}
    assert seen == {T, S, NO}


# ----------------------------------------------------------- no effect on the scoring
@pytest.mark.parametrize("policy", ["basic", "cautious", "greedy", "expert:read_intents=0", "expert"])
def test_the_announcements_change_no_score(engine, policy):
    """R9 negotiations: no scoring effect. With policies that do not read the announcements,
    every deal is the declare-then-buy classic deal to the card and the point; only the
    record of the announcements differs. expert reads them in play only: everything up to
    the first lead is the same, and some deals are played differently."""
    plain = Rules.classic(exchange_order=ExchangeOrder.DECLARE_THEN_BUY)
    before_play = ("passed", "discards", "drawn", "took_trump", "trump_discard", "hand_final", "jacks")
    played_otherwise = 0
    for deal in range(150):
        a = engine.play_deal(plain, policy, seed=21, deal=deal)
        b = engine.play_deal(Rules.negotiations(), policy, seed=21, deal=deal)
        assert set(a.intent) == {NO} and len(b.intent) == 4
        if policy == "expert":
            assert [getattr(a, f) for f in before_play] == [getattr(b, f) for f in before_play], f"deal {deal}"
            played_otherwise += a.plays != b.plays
            continue
        assert dataclasses.replace(a, intent=()) == dataclasses.replace(b, intent=()), f"deal {deal}"
    assert played_otherwise > 0 or policy != "expert"


def test_scoring_of_a_played_deal_is_classic(engine):
    """The worked deal ROUND scores as R7 says, announcements or not: each delta is
    -(tricks + aces) for a seat with a trick, +5 + aces for one without, 0 for the passer."""
    rec = play(engine, Rules.negotiations(), ROUND)
    values = Rules().ace_values
    for seat in range(4):
        aces = sum(values[C.suit_of(c)] for c in C.cards_of(rec.hand_final[seat]) if C.rank_of(c) == C.ACE)
        if rec.passed[seat]:
            assert rec.delta[seat] == 0
        elif rec.tricks[seat]:
            assert rec.delta[seat] == -(rec.tricks[seat] + aces)
        else:
            assert rec.delta[seat] == 5 + aces
    plain = play(engine, Rules.classic(exchange_order="declare-then-buy"), ROUND)
    assert rec == dataclasses.replace(plain, intent=rec.intent)


# ------------------------------------------------------------- expert reads the others
HAND = C.parse_cards("K♠ Q♥ 7♦")  # trumps ♠; no lead duty (no trump ace, no marriage)


def _expert_lead(which: str, intents_behind: tuple[int, ...], spec: str = "expert") -> int:
    """The card expert leads (no trick yet) from HAND, every unseen card a threat, with two
    seats still to play who announced ``intents_behind``."""
    threats = [int(c) for c in C.deck_cards(32) if int(c) not in HAND]
    policy = PolicySpec.parse(spec)
    if which == "reference":
        view = PlayView(set(threats), len(intents_behind), tuple(int(i) for i in intents_behind))
        return ExpertPolicy(policy, 0, 0).choose_card(HAND, C.SPADES, [], HAND, 0, view)
    _, params, _ = pack_policies([policy])
    behind = bool(params[0, X_READ_INTENTS]) and T in intents_behind  # game.trumps_behind (test_information)
    rng = np.zeros((C.MAX_SEATS + 1, STATE_WORDS), np.uint64)
    return int(choose_card(EXPERT, params, 0, rng, np.uint64(C.mask_of(HAND)), C.NO_CARD, 0, C.SPADES, 0,
                           np.uint64(C.mask_of(threats)), len(intents_behind), behind))  # fmt: skip


@pytest.mark.parametrize("which", ["reference", "engine"])
def test_expert_leads_around_a_trump_announcer(which):
    """policies.py expert: trickless, no sure card, it leads its least risky card. Risks (void
    weight 0): K♠ 1 (the A♠ is out), Q♥ 2 (K♥ A♥), 7♦ 7. With a seat still to play who said
    "on trumps", K♠'s higher trump counts intent_weight = 8 times: Q♥ (2) is now the least risky."""
    k_spades, q_hearts = C.parse("K♠"), C.parse("Q♥")
    assert _expert_lead(which, (S, S)) == k_spades
    assert _expert_lead(which, (S, T)) == q_hearts
    assert _expert_lead(which, (T, S)) == q_hearts
    assert _expert_lead(which, (S, T), "expert:read_intents=0") == k_spades
    assert _expert_lead(which, (S, T), "expert:intent_weight=1.5") == k_spades  # 1.5 < 2


def test_expert_reading_is_inert_without_announcements(engine):
    """In every other preset nobody announces, so reading changes nothing (classic stays classic)."""
    for deal in range(150):
        a = engine.play_deal(Rules.classic(players=5), "expert", seed=8, deal=deal)
        b = engine.play_deal(Rules.classic(players=5), "expert:read_intents=0", seed=8, deal=deal)
        assert a == b


# ------------------------------------------------------------------- data and the CLI
def test_the_intent_column_holds_the_announcements(tmp_path):
    """The `intent` column of a run is the record's: -1 for a passer (and every seat in
    classic), 0 on trumps, 1 on suits for the seats that play."""
    rules = Rules.negotiations(players=5)
    specs = tuple(PolicySpec.parse(p) for p in ("basic", "random", "expert", "greedy", "cautious"))
    execute(RunSpec(DEALS, rules, specs, 6, 900, 400), tmp_path / "n")
    data = scan(tmp_path / "n").collect().sort(["deal", "seat"])
    out = fast.simulate(rules, list(specs), seed=6, deals=900)
    assert data["intent"].dtype == pl.Int8
    assert np.array_equal(data["intent"].to_numpy(), out.intent.reshape(-1))
    assert (data.filter(pl.col("passed"))["intent"] == NO).all()
    assert set(data.filter(~pl.col("passed"))["intent"].unique().to_list()) == {T, S}
    execute(RunSpec(DEALS, Rules.classic(), (PolicySpec.parse("basic"),) * 4, 6, 300, 300), tmp_path / "c")
    assert (scan(tmp_path / "c").collect()["intent"] == NO).all()


def _section(lines: list[str], heading: str) -> tuple[int, list[str]]:
    """The index of the first line starting with ``heading`` and the indented lines under it."""
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith(" "):
            break
        body.append(line)
    return start, body


def test_replay_tells_the_announcements():
    """`rams-sim replay` says each announcement, in seat order, between play/pass and the buying."""
    rules = Rules.negotiations()
    words = {T: 'says "on trumps" (на козырях)', S: 'says "on suits" (на мастях)'}
    for deal in range(8):
        lines = replay_lines(rules, "basic", seed=2, deal=deal)
        rec = fast.play_deal(rules, "basic", seed=2, deal=deal)
        start, said = _section(lines, "Announcements (R4.0a")
        assert _section(lines, "Play or pass")[0] < start < _section(lines, "Exchange:")[0]
        seats = [(rec.dealer + 1 + k) % 4 for k in range(4)]
        expected = [f"  seat {s}{' (dealer)' if s == rec.dealer else ''}: {words[rec.intent[s]]}" for s in seats
                    if not rec.passed[s]]  # fmt: skip
        assert said == (expected or ["  (nobody plays: nothing is announced)"])
    assert not any("Announcements" in line for line in replay_lines(Rules.classic(), "basic", seed=2, deal=0))


def _ok(args: list[str]) -> str:
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_commands_run_with_the_preset(tmp_path):
    """run, party, replay, compare, branch and rules show all work with --rules negotiations."""
    text = _ok(["run", "--rules", "negotiations", "--deals", "2000", "--out", str(tmp_path / "r"), "--policy", "expert"])
    assert "negotiations" in text and "2,000 deals in" in text
    assert scan(tmp_path / "r").collect()["intent"].is_in([-1, 0, 1]).all()
    text = _ok(["party", "--rules", "negotiations", "--parties", "200", "--start", "30", "--out", str(tmp_path / "p")])
    assert "how the parties ended" in text
    text = _ok(["replay", "--rules", "negotiations", "--deal", "5", "--seed", "3"])
    assert "rules negotiations" in text and "Announcements (R4.0a" in text
    text = _ok(["compare", "expert", "expert:read_intents=0", "--rules", "negotiations", "--deals", "3000"])
    assert "verdict:" in text and "negotiations" in text
    text = _ok(["branch", "--rules", "negotiations", "--seat", "1", "--deals", "300", "--out", str(tmp_path / "b")])
    assert "options per deal" in text
    text = _ok(["rules", "show", "negotiations"])
    assert "intent_round             true" in text and "declare-then-buy" in text


def test_branch_replays_the_policys_own_option():
    """`branch` under negotiations: the row of the option the seat's policy took is the run's row."""
    rules = Rules.negotiations(players=4)
    run = fast.simulate(rules, "expert", seed=4, deals=600)
    branches = fast.simulate_branches(rules, "expert", seat=2, seed=4, deals=600)
    rows = {(int(d), int(o)): i for i, (d, o) in enumerate(zip(branches.deal, branches.option))}
    compared = 0
    for d in range(600):
        if run.took_trump[d, 2]:
            continue
        if run.passed[d, 2]:
            option = -1
        else:
            cards = C.cards_of(int(run.hand_dealt[d, 2]))
            option = sum(1 << j for j, c in enumerate(cards) if int(run.discards[d, 2]) >> c & 1)
        i = rows[(d, option)]
        assert branches.delta[i] == run.delta[d, 2] and branches.tricks[i] == run.tricks[d, 2], f"deal {d}"
        compared += 1
    assert compared > 300
