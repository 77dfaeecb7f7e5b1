"""The fast engine's Python layer: determinism, chunking, validation, and the CLI."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from typer.testing import CliRunner

from rams_sim import engine
from rams_sim.cli.main import app
from rams_sim.rules import PRESETS, Rules


def _arrays(out):
    return [a.copy() for a in out.arrays]


def test_results_do_not_depend_on_threads():
    """Deal d's randomness is a function of (seed, d): 1 and 2 threads give identical arrays."""
    rules = Rules.classic(players=5)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _arrays(engine.simulate(rules, ["random", "basic"] * 2 + ["random"], seed=11, deals=3000, log_plays=True))
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = _arrays(engine.simulate(rules, ["random", "basic"] * 2 + ["random"], seed=11, deals=3000, log_plays=True))
    finally:
        numba.set_num_threads(before)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)


def test_results_do_not_depend_on_chunking():
    """Deals played in two chunks equal the same deals played at once."""
    rules = Rules.handbook()
    whole = engine.simulate(rules, "random", seed=3, deals=1000)
    head = engine.simulate(rules, "random", seed=3, deals=389)
    tail = engine.simulate(rules, "random", seed=3, deals=611, first_deal=389)
    for a, b, c in zip(whole.arrays, head.arrays, tail.arrays):
        np.testing.assert_array_equal(a, np.concatenate([b, c]))


def test_one_deal_replays_alone():
    """A deal played alone equals the same deal inside a batch."""
    rules = Rules.classic()
    out = engine.simulate(rules, "random", seed=9, deals=50, log_plays=True)
    assert engine.play_deal(rules, "random", seed=9, deal=37) == engine.record_of(out, 37)


def test_seeds_differ():
    """Different seeds give different deck orders."""
    rules = Rules.classic()
    a = engine.simulate(rules, "basic", seed=1, deals=100).hand_dealt
    b = engine.simulate(rules, "basic", seed=2, deals=100).hand_dealt
    assert not np.array_equal(a, b)


def test_bad_inputs_raise():
    """The Python API rejects a wrong number of policies, a bad deck order and bad scores."""
    rules = Rules.classic()
    with pytest.raises(ValueError, match="3 policies given for 4 seats"):
        engine.simulate(rules, ["basic"] * 3, deals=1)
    with pytest.raises(ValueError, match="permutation"):
        engine.play_deal(rules, "basic", order=list(range(32)))
    with pytest.raises(ValueError, match="one value per seat"):
        engine.play_deal(rules, "basic", scores=[100, 100])


runner = CliRunner()


def test_cli_rules_list_shows_every_preset():
    """`rams-sim rules list` names every preset of R9 with its status."""
    result = runner.invoke(app, ["rules", "list"])
    assert result.exit_code == 0
    for name, info in PRESETS.items():
        line = next(line for line in result.output.splitlines() if line.startswith(name + " "))
        assert ("implemented" if info.implemented else "not yet") in line


def test_cli_rules_show_lists_every_option():
    """`rams-sim rules show classic` prints every option with its value."""
    result = runner.invoke(app, ["rules", "show", "classic"])
    assert result.exit_code == 0
    for key in ("deck", "exchange_order", "ruff", "must_head", "ace_covers_face", "settle", "jacks_count"):
        assert key in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--rules", "modern", "--players", "5"], "exactly 4 players"),
        (["rules", "show", "poker"], "unknown preset"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(args, message):
    """A user mistake gives a one-line error naming it and exit code 2, no traceback."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.output
