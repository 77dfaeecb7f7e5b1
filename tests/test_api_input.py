"""Bad input to the Python API: scores no party can hold before a deal are refused by both engines.

Counting down (rams, duel, zone), a player at 0 or below has already won the party
(R8.1, R8.2; zone's exact finish, R9), so a deal from there cannot happen. Counting up
(modern, R9), 0 is the start and a score at the target or above has already won.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from rams_sim import engine as fast
from rams_sim import reference
from rams_sim.cli.main import app
from rams_sim.rules import PRESETS, Rules

HANDS = {"hands_dealt": [[], [], [], []], "hands_final": [[], [], [], []], "active": [True] * 4}


def settle(engine, scores):
    """settle_deal of a classic deal with empty hands and no tricks (only the scores matter here)."""
    return engine.settle_deal(Rules.classic(), dealer=0, trump=0, scores=scores, **HANDS)


# preset -> (the accepted range as the error states it, scores that must be refused, scores that must play)
CASES = {
    # R8.1, R8.2: counting down, 0 or below has won; no upper bound (remiz and overshoot raise a score)
    "classic": ("at least 1", [0, -1, -100], [1, 100, 250]),
    "handbook": ("at least 1", [0, -5], [1, 100]),
    "encyclopedia": ("at least 1", [0, -5], [1, 100]),
    "from-15": ("at least 1", [0, -2], [1, 15, 40]),
    "negotiations": ("at least 1", [0, -5], [1, 100]),
    # R9 duel: R7/R8 unchanged, from 5
    "duel": ("at least 1", [0, -1], [1, 5, 12]),
    "duel-trump": ("at least 1", [0, -1], [1, 5, 12]),
    # R9 zone: exactly 0 wins, going past 0 writes the excess on, so no score is 0 or below
    "zone": ("at least 1", [0, -1], [1, 15, 33]),
    # R9 modern: counts up from 0 to 20; the рожки (from-zero, the default) can take a score below 0
    "modern": ("at most 19", [20, 21, 40], [0, -5, -30, 19]),
}


def test_every_preset_has_a_case():
    """The table above covers each of the nine presets of R9."""
    assert set(CASES) == set(PRESETS)


def _scores(rules: Rules, seat: int, value: int) -> list[int]:
    scores = [rules.start] * rules.players
    scores[seat] = value
    return scores


@pytest.mark.parametrize("preset", sorted(CASES))
def test_impossible_score_is_refused_naming_seat_score_and_range(engine, preset):
    """play_deal refuses a score no party can hold before a deal, naming the seat, the score and the accepted range."""
    rules = Rules.named(preset)
    accepted, refused, _ = CASES[preset]
    seat = rules.players - 1
    for value in refused:
        with pytest.raises(ValueError) as err:
            engine.play_deal(rules, "basic", seed=1, deal=0, scores=_scores(rules, seat, value))
        message = str(err.value)
        assert f"seat {seat} has score {value} before the deal" in message, message
        assert f"preset {preset} accepts scores {accepted}" in message, message
        assert "\n" not in message


@pytest.mark.parametrize("preset", sorted(CASES))
def test_possible_scores_play(engine, preset):
    """Scores at the ends of the accepted range are played (modern's 0 and negative scores included)."""
    rules = Rules.named(preset)
    for value in CASES[preset][2]:
        record = engine.play_deal(rules, "basic", seed=2, deal=1, scores=_scores(rules, 0, value))
        assert len(record.delta) == rules.players


def test_modern_from_five_has_no_score_below_zero(engine):
    """modern_horns=from-five writes the рожки off only from 5, so a score below 0 is refused; 0 plays."""
    rules = Rules.modern(modern_horns="from-five")
    with pytest.raises(ValueError, match="seat 1 has score -1 before the deal: under modern_horns=from-five .*"
                                         "accepts scores from 0 to 19"):  # fmt: skip
        engine.play_deal(rules, "basic", scores=[0, -1, 0, 0])
    engine.play_deal(rules, "basic", scores=[0, 0, 4, 19])


def test_modern_target_moves_the_bound(engine):
    """With modern_target=30 a score of 29 plays and 30 is refused."""
    rules = Rules.modern(modern_target=30)
    engine.play_deal(rules, "basic", scores=[29, 0, 0, 0])
    with pytest.raises(ValueError, match="seat 0 has score 30 .*30 \\(modern_target\\) or more has already won .*"
                                         "accepts scores at most 29"):  # fmt: skip
        engine.play_deal(rules, "basic", scores=[30, 0, 0, 0])


def test_settle_deal_refuses_a_score_at_zero_or_below(engine):
    """settle_deal (classic) refuses a score of 0 or below with the same message as play_deal."""
    for value in (0, -7):
        with pytest.raises(ValueError, match=f"seat 2 has score {value} before the deal: a player at 0 or below "
                                             "has already won the party"):  # fmt: skip
            settle(engine, [100, 100, value, 100])
    assert settle(engine, [100, 100, 1, 100]).delta == (5, 5, 5, 5)  # R7.2: no trick, no ace: remiz 5 each


@pytest.mark.parametrize(
    "scores, message",
    [
        ([100, 100, 2.5, 100], "seat 2's score must be a whole number; got 2.5"),
        ([100, "ten", 100, 100], "seat 1's score must be a whole number"),
        ([100, True, 100, 100], "seat 1's score must be a whole number"),
        ([100, 100, 100], "scores needs one value per seat (4); got 3"),
        (100, "scores needs one value per seat (4)"),
    ],
)
def test_malformed_scores_are_refused(engine, scores, message):
    """A score that is not a whole number, or the wrong number of scores, is a ValueError."""
    with pytest.raises(ValueError) as err:
        engine.play_deal(Rules.classic(), "basic", scores=scores)
    assert message in str(err.value)


def test_both_engines_give_the_same_message():
    """The fast engine and the reference refuse with word-for-word the same error."""
    cases = [(Rules.classic(), [100, 0, 100, 100]), (Rules.zone(), [15, 0]), (Rules.duel(), [-1, 5]),
             (Rules.modern(), [0, 0, 20, 0]), (Rules.modern(modern_horns="from-five"), [0, -3, 0, 0])]  # fmt: skip
    for rules, scores in cases:
        messages = []
        for engine in (fast, reference):
            with pytest.raises(ValueError) as err:
                engine.play_deal(rules, "basic", scores=scores)
            messages.append(str(err.value))
        assert messages[0] == messages[1]
    messages = []
    for engine in (fast, reference):
        with pytest.raises(ValueError) as err:
            settle(engine, [0, 100, 100, 100])
        messages.append(str(err.value))
    assert messages[0] == messages[1]


def test_score_range_by_game():
    """Rules.score_range: the scores a deal can start from, per game (R8.1-R8.2, R9)."""
    assert Rules.classic().score_range() == (1, None)
    assert Rules.from_15().score_range() == (1, None)
    assert Rules.duel().score_range() == (1, None)
    assert Rules.zone().score_range() == (1, None)
    assert Rules.modern().score_range() == (None, 19)
    assert Rules.modern(modern_horns="from-five").score_range() == (0, 19)


@pytest.mark.parametrize(
    "args, message",
    [
        (["party", "--start", "0"], "option start must be a positive integer; got 0"),
        (["party", "--rules", "zone", "--start", "0"], "option start must be a positive integer; got 0"),
        (["party", "--rules", "duel", "--start", "-1"], "option start must be a positive integer; got -1"),
        (["party", "--rules", "modern", "--start", "20"], "option start must be below modern_target (20); got 20"),
        (["run", "--rule", "start=0"], "option start must be a positive integer; got 0"),
    ],
)
def test_cli_start_score_errors_are_one_line_exit_2(tmp_path, args, message):
    """The CLI takes no per-seat scores; a start no party can have (--start, --rule start=) is one line, exit 2."""
    out = tmp_path / "out"
    result = CliRunner().invoke(app, args + ["--out", str(out)])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.output, result.output
    assert not out.exists()
