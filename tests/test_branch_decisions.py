"""`rams-sim branch --decision`: every option of any decision of a seat, forced on the same deals (issue 45).

The rule tested: a branch row forced to the option the seat's policy takes is the plain run's deal,
exactly (every seat's delta and tricks, the play log, what the table saw), because the force changes
nothing but that one choice (rams_sim/kernels/force.py). A force that moved a coin, a card or another
seat's choice fails it. The decisions: R4.3's trump card, R6's card in every trick, in every game;
modern's redeal and duel's dave (rams_sim/decisions.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from rams_sim import cards as C
from rams_sim import engine
from rams_sim.cli.main import app
from rams_sim.decisions import parse_decision
from rams_sim.record import EndKind
from rams_sim.rules import Rules
from rams_sim.runs.runner import read_manifest
from rams_sim.runs.summary import scan


def _same_deal(run, d, b, i, seat):
    """Branch row ``i`` and run deal ``d`` agree on the focal seat's outcome and the whole table's play."""
    n = run.delta.shape[1]
    assert b.delta[i] == run.delta[d, seat] and b.tricks[i] == run.tricks[d, seat], f"deal {d}"
    assert b.hand_final[i] == run.hand_final[d, seat] and b.outcome[i] == run.outcome[d], f"deal {d}"
    exchanged = np.where(run.passed[d], -1, np.bitwise_count(run.discards[d]).astype(np.int64))
    assert (b.exchanged[i] == exchanged).all(), f"deal {d}"
    assert (b.took_trump_seats[i] == run.took_trump[d]).all() and (b.intents[i] == run.intent[d]).all()
    cards = np.where(run.play_leader[d, :, None] >= 0, run.play_card[d, :, :n], C.NO_CARD)  # unplayed tricks: none
    assert (b.play_card[i] == cards).all(), f"deal {d}: the play differs"
    assert (b.play_winner[i] == np.where(run.play_leader[d] >= 0, run.play_winner[d], -1)).all()


def _rows(b):
    out: dict[int, dict[int, int]] = {}
    for i, (d, o) in enumerate(zip(b.deal, b.option)):
        out.setdefault(int(d), {})[int(o)] = i
    return out


CARD_TABLES = [
    ("classic", 4, "expert", 1), ("classic", 3, "basic", 0), ("handbook", 5, "expert", 4), ("encyclopedia", 4, "random", 2),
    ("zone", 2, "expert", 1), ("modern", 4, "expert", 2), ("duel", 2, "expert", 0), ("duel-trump", 2, "basic", 1),
]  # fmt: skip


@pytest.mark.parametrize("preset, players, policy, seat", CARD_TABLES)
def test_a_forced_card_is_the_policys_card(preset, players, policy, seat):
    """card:T for every trick: the row whose card is the one the seat played in the run is the run's
    deal; the rows are the cards he may play there (R6.7a), and a deal he plays no card of trick T in
    has none; some other card changes the deal."""
    rules = Rules.named(preset, players=players)
    deals = 300
    run = engine.simulate(rules, policy, seed=11, deals=deals, log_plays=True)
    changed = 0
    for t in range(C.N_TRICKS):
        b = engine.simulate_branches(rules, policy, seat=seat, seed=11, deals=deals, decision=f"card:{t + 1}",
                                     log_plays=True)  # fmt: skip
        rows = _rows(b)
        for d in range(deals):
            card = int(run.play_card[d, t, seat]) if run.play_leader[d, t] >= 0 else -1
            if card < 0:
                if run.end_kind[d] == EndKind.DECLINED:
                    continue  # duel: a declined dave ended the deal in this trick, which is then not logged
                assert d not in rows, f"deal {d}: trick {t + 1} was not played by the seat, yet has rows"
                continue
            options = rows[d]
            assert card in options, f"deal {d}: the policy's card {C.format_card(card)} is not among the rows"
            _same_deal(run, d, b, options[card], seat)
            hand = int(b.hand_final[options[card]])
            assert set(options) <= set(C.cards_of(hand)), f"deal {d}: a row plays a card the seat does not hold"
            changed += any(b.delta[i] != b.delta[options[card]] for i in options.values())
        logged = b.play_leader[:, t] >= 0  # (a trick cut short by a declined dave is not logged)
        assert (b.play_card[logged, t, seat] == b.option[logged]).all() and logged.mean() > 0.5  # the row's card is played
    assert changed > 0  # a force that changed nothing would pass the rest


@pytest.mark.parametrize("preset, players, policy", [("classic", 4, "expert"), ("classic", 3, "random"),
                                                     ("negotiations", 4, "basic"), ("duel-trump", 2, "expert")])
def test_a_forced_trump_card_is_the_dealers_choice(preset, players, policy):
    """trump (R4.3): decline (-1) or give up each card of his hand; the row of the dealer's own choice
    is the run's deal; a dealer who passed has no rows; where he must take the card (duel-trump, a
    turned ace that binds him, dealer_takes_trump=must) there is no decline row."""
    rules = Rules.named(preset, players=players)
    deals, dealer = 400, players - 1
    run = engine.simulate(rules, policy, seed=5, deals=deals, dealer=dealer, log_plays=True)
    b = engine.simulate_branches(rules, policy, seat=dealer, seed=5, deals=deals, dealer=dealer, decision="trump",
                                 log_plays=True)  # fmt: skip
    rows = _rows(b)
    declined = gave = 0
    for d in range(deals):
        if run.passed[d, dealer]:
            assert d not in rows
            continue
        choice = int(run.trump_discard[d, dealer]) if run.took_trump[d, dealer] else -1
        options = rows[d]
        _same_deal(run, d, b, options[choice], dealer)
        declined += choice == -1
        gave += choice >= 0
        for o, i in options.items():
            assert b.took_trump[i] == (o >= 0)
        must = rules.game.value == "duel" or rules.dealer_takes_trump.value == "must"
        assert (-1 in options) != must or C.rank_of(int(run.trump_card[d])) == C.ACE
        assert len([o for o in options if o >= 0]) == C.HAND_SIZE  # every card of his hand may be given up
    assert gave > 0 and (declined > 0 or rules.game.value == "duel")


def test_forced_redeal_and_dave_rows_hold_the_run():
    """modern's redeal and duel's dave offer and answer: two rows each where the seat meets the
    decision, one of them the run's deal, and the two differ somewhere."""
    for preset, kind, seat, deals in (("modern", "redeal", 1, 3000), ("duel", "offer:1", 0, 600),
                                      ("duel", "answer:1", 1, 600), ("duel", "offer:3", 1, 600)):  # fmt: skip
        rules = Rules.named(preset)
        run = engine.simulate(rules, "expert", seed=3, deals=deals, log_plays=True)
        b = engine.simulate_branches(rules, "expert", seat=seat, seed=3, deals=deals, decision=kind, log_plays=True)
        rows = _rows(b)
        assert rows, f"{preset} {kind}: no deal met the decision"
        differ = 0
        for d, options in rows.items():
            assert set(options) <= {0, 1}
            cards = np.where(run.play_leader[d, :, None] >= 0, run.play_card[d], C.NO_CARD)
            same = [i for i in options.values() if b.delta[i] == run.delta[d, seat]
                    and (b.play_card[i] == cards).all() and b.stake[i] == run.stake[d]]  # fmt: skip
            assert same, f"{preset} {kind}, deal {d}: no row is the run's deal"
            differ += len({(int(b.delta[i]), int(b.stake[i])) for i in options.values()}) > 1
        assert differ > 0, f"{preset} {kind}: forcing the other option never changed a deal"


def test_bad_decisions_are_refused_in_one_line():
    """A decision the game has not, a trick out of range, a name nobody knows."""
    cases = [("zone", "trump", "has no decision"), ("classic", "redeal", "has no decision"),
             ("classic", "card:6", "card:1 .. card:5"), ("classic", "card", "needs its trick"),
             ("duel", "trump", "duel_trump_card=false"), ("classic", "bid", "knows no decision"),
             ("classic", "widow", "first decision is 'exchange'"), ("classic", "trump:2", "takes no trick")]  # fmt: skip
    for preset, text, words in cases:
        with pytest.raises(ValueError, match=words) as err:
            parse_decision(text, Rules.named(preset))
        assert "\n" not in str(err.value)
    assert parse_decision("swap", Rules.named("zone")).name == "exchange"
    assert parse_decision("card:5", Rules.classic()).name == "card:5"


def test_cli_branch_decision(tmp_path):
    """`rams-sim branch --decision card:1` writes one row per open card and prints each card's mean;
    a decision the game has not is one line, exit 2, nothing written."""
    out = tmp_path / "cards"
    result = CliRunner().invoke(app, ["branch", "--seat", "1", "--deals", "400", "--decision", "card:1", "--policy",
                                      "expert", "--dealer", "0", "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = scan(out).collect()
    assert read_manifest(out)["run"]["decision"] == "card:1" and 300 < data["deal"].n_unique() <= 400  # not where he passed
    assert "per option of card:1" in result.output and C.format_card(int(data["option"][0])) in result.output
    for args, words in ((["--rules", "zone", "--decision", "trump"], "has no decision 'trump'"),
                        (["--decision", "card:0"], "card:1 .. card:5"), (["--decision", "dave"], "knows no decision")):
        bad = CliRunner().invoke(app, ["branch", "--seat", "1", "--deals", "10", "--out", str(tmp_path / "x"), *args])
        assert bad.exit_code == 2 and words in bad.output and len(bad.output.strip().splitlines()) == 1, bad.output
        assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("preset, policy", [("negotiations", "expert"), ("handbook", "random"), ("negotiations", "random")])
def test_declare_then_buy_and_the_announcement_are_forced_as_the_policy_would(preset, policy):
    """R4.0's declare-then-buy round (pass -1, play 0), its purchase (a discard mask over the hand) and
    R4.0a's announcement (0 on trumps, 1 on suits): the row of the seat's own choice is the run's deal;
    a passer has no purchase or announcement rows; a purchase above the talon is not open."""
    rules = Rules.named(preset)
    deals, seat = 300, 2
    run = engine.simulate(rules, policy, seed=9, deals=deals, log_plays=True)
    kinds = ["round", "buy"] + (["intent"] if rules.intent_round else [])
    for kind in kinds:
        b = engine.simulate_branches(rules, policy, seat=seat, seed=9, deals=deals, decision=kind, log_plays=True)
        rows = _rows(b)
        for d in range(deals):
            passed = bool(run.passed[d, seat])
            if kind == "round":
                choice = -1 if passed else 0
            elif passed:
                assert d not in rows, (kind, d)
                continue
            elif kind == "buy":
                dealt = C.cards_of(int(run.hand_dealt[d, seat]))
                choice = sum(1 << j for j, c in enumerate(dealt) if int(run.discards[d, seat]) >> c & 1)
            else:
                choice = int(run.intent[d, seat])
            _same_deal(run, d, b, rows[d][choice], seat)
        if kind == "buy":
            assert max(len(o) for o in rows.values()) == 32 and (np.bitwise_count(b.discards) <= 5).all()
    bad = "exchanges in one turn"
    with pytest.raises(ValueError, match=bad):
        parse_decision("round", Rules.classic())
    with pytest.raises(ValueError, match="intent_round=false"):
        parse_decision("intent", Rules.named("handbook"))
