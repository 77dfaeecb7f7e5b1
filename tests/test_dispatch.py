"""A run compiles only its own game (issue "One house"; kernels/dispatch.py).

The rules' kernel view is an instance of its game's class (kernels/args.py), and the
drivers reach the game's deal through overloads resolved by that class at compile time.
A zone run in a fresh process with an empty numba cache must therefore compile zone's
deal kernel and none of the other games'.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rams_sim.kernels.args import ARGS_TYPES, ClassicArgs, DuelArgs, ModernArgs, ZoneArgs, rules_args
from rams_sim.rules import PRESETS, Game, Rules

SNIPPET = """
import json
from rams_sim import engine
from rams_sim.kernels.games import classic, duel, modern, zone
from rams_sim.rules import Rules
engine.simulate(Rules.named("zone"), "basic", deals=10)
print(json.dumps({m.__name__.rsplit(".", 1)[1]: len(m.play_deal.signatures) for m in (classic, duel, modern, zone)}))
from rams_sim.runs.runner import kernels_cached
print(json.dumps([kernels_cached("deals", Rules.named("zone")), kernels_cached("deals", Rules())]))
"""


def test_each_game_has_its_own_argument_class():
    assert {g: ARGS_TYPES[g] for g in Game} == {
        Game.RAMS: ClassicArgs, Game.DUEL: DuelArgs, Game.MODERN: ModernArgs, Game.ZONE: ZoneArgs,
    }  # fmt: skip
    for name, info in PRESETS.items():
        assert type(rules_args(Rules.named(name))) is ARGS_TYPES[info.game], name


@pytest.mark.heavy  # a cold compile of zone in a fresh process, 15-25 s of one core (make test-slow)
def test_a_zone_run_compiles_no_other_game(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}  # empty: every kernel is compiled here
    out = subprocess.run([sys.executable, "-c", SNIPPET], env=env, capture_output=True, cwd=tmp_path,
                         text=True, check=True, timeout=600)  # fmt: skip
    lines = out.stdout.strip().splitlines()
    assert json.loads(lines[-2]) == {"classic": 0, "duel": 0, "modern": 0, "zone": 1}
    assert json.loads(lines[-1]) == [True, False]  # what `rams-sim run` reads before saying it compiles


@pytest.mark.parametrize("name", ["classic", "duel", "modern", "zone"])
def test_dispatch_also_runs_without_the_jit(name):
    """Under NUMBA_DISABLE_JIT the dispatch stubs pick the game by the argument class in Python."""
    from rams_sim.kernels import dispatch

    module = dispatch._game_module(type(rules_args(Rules.named(name))))
    assert module.__name__ == f"rams_sim.kernels.games.{name}"


def test_play_deals_rows_are_classic_own_loop_only_without_a_searching_seat():
    """dispatch.play_rows: classic's play_rows (the deal inlined in the loop) for a scripted table;
    a searching seat, and every other game, play their rows deal by deal (drivers.deal_by_deal)."""
    from rams_sim.kernels import dispatch, drivers
    from rams_sim.kernels.games import classic

    assert dispatch._rows(ClassicArgs, searching=False) is classic.play_rows
    assert dispatch._rows(ClassicArgs, searching=True) is drivers.deal_by_deal
    for args_type in (DuelArgs, ModernArgs, ZoneArgs):
        assert dispatch._rows(args_type, searching=False) is drivers.deal_by_deal
