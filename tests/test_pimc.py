"""Policy ``pimc`` (issue "Strong play"): legal, deterministic, and it searches only where it may.

Strength is measured with ``rams-sim compare`` (bench/, the issue's note), not asserted here.
"""

from __future__ import annotations

import numpy as np
import pytest

from rams_sim import engine, reference
from rams_sim.policies import PolicySpec
from rams_sim.rules import PRESETS, Game, Rules

SEARCHED = [name for name, preset in PRESETS.items() if preset.game == Game.RAMS]
TABLE = ["pimc:samples=4", "expert", "basic", "expert"]


@pytest.mark.parametrize("preset", SEARCHED)
def test_pimc_plays_every_classic_preset(preset):
    """Every deal completes with legal cards (the engine stops on an illegal one) and five tricks."""
    rules = Rules.named(preset)
    policies = (TABLE * 2)[: rules.players]
    out = engine.simulate(rules, policies, seed=2, deals=150, log_plays=True)
    played = out.outcome == 0
    assert played.any()
    assert (out.tricks[played].sum(axis=1) <= 5).all()


def test_pimc_is_a_pure_function_of_seed_and_deal():
    rules = Rules()
    whole = engine.simulate(rules, TABLE, seed=9, deals=120)
    part = engine.simulate(rules, TABLE, seed=9, deals=60, first_deal=60)
    np.testing.assert_array_equal(whole.delta[60:], part.delta)
    np.testing.assert_array_equal(whole.sets[60:], part.sets)


def test_pimc_changes_only_the_searching_seats_cards():
    """Off the cards pimc decides as expert does; with one world per decision it still plays its own cards."""
    rules = Rules()
    a = engine.simulate(rules, ["pimc:samples=16", "expert", "expert", "expert"], seed=4, deals=300, log_plays=True)
    b = engine.simulate(rules, ["expert"] * 4, seed=4, deals=300, log_plays=True)
    np.testing.assert_array_equal(a.passed, b.passed)
    np.testing.assert_array_equal(a.discards, b.discards)
    assert (a.play_card != b.play_card).any()  # the search does choose other cards


def test_pimc_refuses_games_it_does_not_search():
    with pytest.raises(ValueError, match="pimc searches the play of classic Rams"):
        engine.simulate(Rules.named("zone"), "pimc", seed=0, deals=1)


def test_pimc_parameters_are_checked():
    assert PolicySpec.parse("pimc:samples=8,rollout=basic").params == {"samples": 8.0, "rollout": 1.0}
    assert str(PolicySpec.parse("pimc:rollout=basic")) == "pimc:rollout=basic"
    for bad in ("pimc:samples=0", "pimc:samples=2.5", "pimc:rollout=pimc", "pimc:rollout=nobody"):
        with pytest.raises(ValueError, match="pimc"):
            PolicySpec.parse(bad)


def test_the_reference_says_it_does_not_play_pimc_yet():
    with pytest.raises(NotImplementedError, match="pimc"):
        reference.play_deal(Rules(), "pimc", seed=0, deal=0)
