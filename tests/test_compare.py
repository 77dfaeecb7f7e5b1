"""`compare`: paired comparison of two policies on the same deals (CLARIFICATIONS, issue 4)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from rams_sim import engine
from rams_sim.cli.main import app
from rams_sim.compare import compare, paired_batch
from rams_sim.record import Outcome
from rams_sim.rules import Rules

cli = CliRunner()


@pytest.mark.parametrize("policy, players", [("basic", 4), ("random", 3), ("basic:pass_threshold=3", 5)])
def test_a_policy_against_itself_differs_by_exactly_zero_in_every_deal(policy, players):
    """The pairing is exact: same deck orders and coins, so A vs A is 0 deal by deal."""
    batch = paired_batch(Rules.classic(players=players), policy, policy, "random", seed=3, first=100, count=2_000)
    assert batch.diff.shape == (2_000,) and not batch.diff.any()
    assert np.array_equal(batch.delta_a, batch.delta_b) and batch.remiz_a == batch.remiz_b
    result = compare(Rules.classic(players=players), policy, policy, baseline="random", deals=1_500, batch=700)
    assert result.diff.low <= 0 <= result.diff.high and result.diff.value == 0


def test_paired_difference_is_focal_a_minus_focal_b_deal_by_deal():
    """Each paired sample is the mean over focal seats of delta(A) - delta(B), from the same deals."""
    rules, first, count = Rules.classic(), 50, 1_000
    batch = paired_batch(rules, "random", "basic", "basic", seed=9, first=first, count=count)
    expected = np.zeros(count)
    remiz = 0
    for focal in range(4):
        seats = ["basic"] * 4
        seats[focal] = "random"
        a = engine.simulate(rules, seats, seed=9, deals=count, first_deal=first)
        b = engine.simulate(rules, "basic", seed=9, deals=count, first_deal=first)
        expected += (a.delta[:, focal].astype(float) - b.delta[:, focal]) / 4
        remiz += int(((a.passed[:, focal] == 0) & (a.outcome == Outcome.PLAYED) & (a.tricks[:, focal] == 0)).sum())
    assert np.allclose(batch.diff, expected) and batch.remiz_a == remiz


def test_a_known_effect_is_found_and_clear():
    """basic beats random by a wide margin: the CI excludes 0 and the verdict says so."""
    result = compare(Rules.classic(), "basic", "random", deals=4_000, batch=1_000)
    assert result.diff.high < -3 and result.clear
    assert result.verdict().startswith("basic writes off") and "statistically clear" in result.verdict()
    assert result.remiz_a.high < result.remiz_b.low


def test_target_se_stops_early():
    """--target-se stops at the first batch whose standard error is small enough."""
    result = compare(Rules.classic(), "basic", "random", deals=1_000_000, batch=2_000, target_se=1.0)
    assert result.deals == 2_000
    result = compare(Rules.classic(), "basic", "random", deals=6_000, batch=2_000, target_se=1e-6)
    assert result.deals == 6_000


def test_cli_compare_prints_means_remiz_difference_and_verdict():
    """`rams-sim compare A B` reports both policies, the paired difference and a verdict line."""
    result = cli.invoke(app, ["compare", "basic", "random", "--deals", "3000", "--players", "3"])
    assert result.exit_code == 0, result.output
    assert "paired difference basic - random" in result.output and "remiz" in result.output
    assert "verdict: basic writes off" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["compare", "basic", "genius"], "unknown policy"),
        (["compare", "basic", "random", "--deals", "0"], "--deals"),
        (["compare", "basic", "random", "--target-se", "-1"], "--target-se"),
        (["compare", "basic", "random", "--baseline", "nobody"], "unknown policy"),
        (["compare", "basic", "random", "--rules", "modern", "--players", "5"], "exactly 4 players"),
    ],
)
def test_cli_compare_bad_input(args, message):
    """Mistakes are one line and exit code 2."""
    result = cli.invoke(app, args)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and message in lines[0], result.output
