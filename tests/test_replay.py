"""The words of ``rams-sim replay``: one deal told as the bulk run recorded it."""

from __future__ import annotations

import re

import numpy as np
import pytest

from rams_sim import cards as C
from rams_sim import engine
from rams_sim.policies import PolicySpec
from rams_sim.record import DealRecord, Declaration, EndKind, Outcome, Trick
from rams_sim.replay import hand_text, narrate, replay_lines, trick_order
from rams_sim.rules import Rules

DELTA_RE = re.compile(r"^\s+seat (\d+)(?: \(dealer\))?: delta ([+-]?\d+)")
TRICK_RE = re.compile(r"^\s+trick (\d+): seat (\d+) leads; (.*); seat (\d+) wins$")
HAND_RE = re.compile(r"^\s+seat (\d+)(?: \(dealer\))?: (.*)$")
PLAY_RE = re.compile(r"seat (\d+) ([^,\s]+)")

# (preset, players, policies, seed): every table size, the three complete presets
CASES = [
    ("classic", 2, "random", 1),
    ("classic", 3, "basic", 2),
    ("classic", 4, "basic", 7),
    ("classic", 5, ["basic", "random"] * 2 + ["basic"], 4),
    ("classic", 6, "random", 5),
    ("classic", 7, "basic", 6),
    ("handbook", 4, "random", 8),
    ("handbook", 3, "basic", 9),
    ("encyclopedia", 5, "random", 10),
    ("encyclopedia", 4, "basic", 11),
    ("from-15", 4, "expert", 12),
]
N_DEALS = 30


def section(lines: list[str], heading: str) -> list[str]:
    """The indented lines under the first line starting with ``heading``."""
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    out = []
    for line in lines[start + 1 :]:
        if not line.startswith(" "):
            break
        out.append(line)
    return out


def printed_deltas(lines: list[str]) -> dict[int, int]:
    """Seat -> delta, as the score section prints them."""
    found = [DELTA_RE.match(line) for line in section(lines, "Score deltas")]
    return {int(m.group(1)): int(m.group(2)) for m in found if m}


def printed_tricks(lines: list[str]) -> list[tuple[int, list[tuple[int, int]], int]]:
    """(leader, [(seat, card) in play order], winner) of every printed trick."""
    tricks = []
    for line in lines:
        m = TRICK_RE.match(line)
        if m:
            plays = [(int(s), C.parse(card)) for s, card in PLAY_RE.findall(m.group(3))]
            tricks.append((int(m.group(2)), plays, int(m.group(4))))
    return tricks


def printed_hands(lines: list[str], heading: str) -> dict[int, list[int]]:
    """Seat -> card ids of a hands section."""
    return {int(m.group(1)): C.parse_cards(m.group(2)) for m in map(HAND_RE.match, section(lines, heading)) if m}


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-{c[1]}p-seed{c[3]}")
def case(request):
    """A rule set, its policies, a seed, the bulk run of N_DEALS deals and each deal's narration."""
    preset, players, policies, seed = request.param
    rules = Rules.named(preset, players=players)
    out = engine.simulate(rules, policies, seed=seed, deals=N_DEALS, log_plays=True)
    narrations = [replay_lines(rules, policies, seed=seed, deal=i) for i in range(N_DEALS)]
    return rules, policies, seed, out, narrations


def test_deltas_match_the_bulk_run(case):
    """Every seat's printed delta is the bulk run's ``out.delta[i]`` for that deal."""
    _, _, seed, out, narrations = case
    for i, lines in enumerate(narrations):
        expected = {seat: int(v) for seat, v in enumerate(out.delta[i])}
        assert printed_deltas(lines) == expected, f"seed {seed} deal {i}"


def test_tricks_match_the_bulk_run(case):
    """The printed tricks are the bulk run's: leader, cards by seat, winner, and as many as were played."""
    _, _, seed, out, narrations = case
    for i, lines in enumerate(narrations):
        record = engine.record_of(out, i)
        tricks = printed_tricks(lines)
        assert len(tricks) == len(record.plays) == int((out.play_leader[i] >= 0).sum()), f"seed {seed} deal {i}"
        for (leader, plays, winner), trick in zip(tricks, record.plays):
            assert (leader, winner) == (trick.leader, trick.winner), f"seed {seed} deal {i}"
            assert plays[0][0] == leader
            assert dict(plays) == {s: c for s, c in enumerate(trick.cards) if c != C.NO_CARD}


def test_dealt_hands_show_every_dealt_card(case):
    """Each seat's dealt hand appears in the dealt-hands section, card for card."""
    rules, _, seed, out, narrations = case
    for i, lines in enumerate(narrations):
        hands = printed_hands(lines, "Dealt hands")
        assert sorted(hands) == list(range(rules.players))
        for seat, cards in hands.items():
            assert sorted(cards) == C.cards_of(int(out.hand_dealt[i, seat])), f"seed {seed} deal {i} seat {seat}"
        assert f"Trump card: {C.format_card(int(out.trump_card[i]))};" in "\n".join(lines)


def test_header_names_the_run(case):
    """The header gives the preset, table size, deck size, seed, deal, dealer and each seat's policy."""
    rules, policies, seed, out, narrations = case
    specs = [PolicySpec.parse(p) for p in ([policies] * rules.players if isinstance(policies, str) else policies)]
    for i, lines in enumerate(narrations[:3]):
        head = lines[0]
        assert head.startswith(f"Deal {i} of seed {seed}: rules {rules.preset}, {rules.players} players, ")
        assert f"{rules.deck_size}-card deck, dealer seat {int(out.dealer[i])};" in head
        assert head.endswith(", ".join(f"seat {s} {spec}" for s, spec in enumerate(specs)))


def _first(out, outcomes) -> int:
    hits = np.flatnonzero(np.isin(out.outcome, [int(o) for o in outcomes]))
    assert hits.size, f"no deal with outcome {outcomes} in the scan"
    return int(hits[0])


@pytest.mark.parametrize("outcome", [Outcome.RAMS, Outcome.FOUR_ACES])
def test_a_deal_ended_by_a_declaration_says_so(outcome):
    """A rams or four aces: the narration names the declaration, says the deal ended before play, prints no trick."""
    rules = Rules.classic(players=4)
    out = engine.simulate(rules, "basic", seed=7, deals=1000)
    i = _first(out, [outcome])
    lines = replay_lines(rules, "basic", seed=7, deal=i)
    text = "\n".join(lines)
    assert "before play" in text
    assert printed_tricks(lines) == [] and "Tricks (" not in text
    shown = (Declaration.SUIT_RAMS, Declaration.TRUMP_RAMS, Declaration.FOUR_ACES)
    holders = [seat for seat, code in enumerate(out.declaration[i]) if code in shown]
    assert len(holders) == 1
    assert any(re.match(rf"\s+seat {holders[0]}\b.*: (the highest rams|four aces)", line) for line in lines)
    if outcome == Outcome.FOUR_ACES:
        assert lines[-1].startswith(f"Seat {holders[0]} wins the party by showing four aces")


def test_a_played_out_deal_prints_five_tricks():
    """A deal played to the end prints its five tricks, and the tricks taken per active seat."""
    rules = Rules.classic(players=4)
    out = engine.simulate(rules, "basic", seed=7, deals=200, log_plays=True)
    i = next(i for i in range(len(out)) if out.outcome[i] == Outcome.PLAYED and out.ends_party[i] < 0)
    lines = replay_lines(rules, "basic", seed=7, deal=i)
    assert len(printed_tricks(lines)) == C.N_TRICKS
    assert f"Tricks ({C.N_TRICKS} played, R6):" in lines
    taken = next(line for line in lines if line.startswith("Tricks taken:"))
    for seat in range(rules.players):
        if not out.passed[i, seat]:
            assert f"seat {seat}: {int(out.tricks[i, seat])}" in taken


def test_fixed_dealer_matches_the_bulk_run():
    """With a fixed dealer the narration is of the bulk run's deal with that dealer."""
    rules = Rules.encyclopedia(players=3)
    out = engine.simulate(rules, "random", seed=13, deals=10, dealer=2)
    for i in range(10):
        lines = replay_lines(rules, "random", seed=13, deal=i, dealer=2)
        assert "dealer seat 2;" in lines[0]
        assert printed_deltas(lines) == {s: int(v) for s, v in enumerate(out.delta[i])}


def test_bad_dealer_or_deal_is_refused():
    """A dealer outside the table, or a negative deal index, is a ValueError naming it."""
    with pytest.raises(ValueError, match="dealer"):
        replay_lines(Rules.classic(), "basic", seed=1, deal=0, dealer=4)
    with pytest.raises(ValueError, match="deal"):
        replay_lines(Rules.classic(), "basic", seed=1, deal=-1)


def test_trick_order_starts_at_the_leader_and_skips_passers():
    """The play log's cards by seat come out clockwise from the leader, passers left out."""
    cards = (C.parse("7h"), C.NO_CARD, C.parse("Ah"), C.parse("9h"))
    assert trick_order(Trick(leader=2, cards=cards, winner=2)) == [(2, cards[2]), (3, cards[3]), (0, cards[0])]


def test_hand_text_groups_by_suit_high_to_low():
    """A hand reads by suit ♥ ♦ ♣ ♠, each from high to low."""
    assert hand_text(C.mask_of(C.parse_cards("9s 7d Ah 10c Kh"))) == "A♥ K♥ 7♦ 10♣ 9♠"


def test_narrate_tells_a_written_record():
    """``narrate`` formats any record: a lone dealer who took the trump card, cut short at zero."""
    n, dealer = 3, 0
    hand = C.mask_of(C.parse_cards("Ah Ad Ac Kc 9s"))
    record = DealRecord(
        dealer=dealer, trump_card=C.parse("Qc"),
        hand_dealt=(hand, C.mask_of(C.parse_cards("7h 8h 9h 7d 8d")), C.mask_of(C.parse_cards("7s 8s 9c Jd Jh"))),
        passed=(False, True, True), discards=(0, 0, 0), drawn=(0, 0, 0),
        took_trump=(True, False, False), trump_discard=(C.parse("9s"), -1, -1),
        hand_final=(C.mask_of(C.parse_cards("Ah Ad Ac Kc Qc")), 0, 0),
        jacks=(0, 0, 5), declaration=(0, 0, int(Declaration.JACK_PAIR)), tricks=(1, 0, 0),
        delta=(-46, 0, -5), overshoot=(False, False, False), outcome=int(Outcome.LONE),
        ends_party=0, end_kind=int(EndKind.TRICK), plays=(),
    )  # fmt: skip
    lines = narrate(Rules.classic(players=n, start=40), [PolicySpec()] * n, record, seed=5, deal=3)
    text = "\n".join(lines)
    assert "seat 0 (dealer): stands on his cards" in text
    assert "The dealer gives up 9♠ and takes the trump card Q♣ (R4.3)." in text
    assert "seat 2: a jack pair, writes off 5 (R5.5)" in text
    assert "only seat 0 (dealer) plays" in text and "Tricks taken: seat 0 (dealer): 1." not in text
    assert "Tricks taken: seat 0: 1." in text
    assert printed_deltas(lines) == {0: -46, 1: 0, 2: -5}
    assert lines[-1].startswith("Seat 0 wins the party by reaching zero at a trick")
