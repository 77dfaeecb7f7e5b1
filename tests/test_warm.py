"""What ``python -m rams_sim.warm`` compiles (rams_sim/warm.py): `make setup` a classic deals
run's kernels, `make test` every game's drivers and no searching seat's (those are the
heavy tests'), `make test-slow` everything."""

from __future__ import annotations

from rams_sim.rules import Game
from rams_sim.warm import HEAVY, SEARCH, SEARCH_TASKS, _cost, plan

ALL_GAMES = list(Game)  # every game of R9: a new one is planned like the others


def test_a_run_compiles_a_deals_run_of_classic_only():
    assert plan("run", [Game.RAMS], jobs=2) == [(Game.RAMS, "run")]


def test_make_test_compiles_every_games_drivers_and_classics_search_only():
    """`make test` warms classic's search for the validation suite's small run (issue 45), no other game's."""
    tasks = plan("test", ALL_GAMES, jobs=2)
    assert {t for t, _ in tasks} == set(ALL_GAMES) | {SEARCH}
    assert sorted(part for t, part in tasks if t == Game.RAMS) == ["deals", "parties"]  # two processes
    assert all(part == "all" for t, part in tasks if t != Game.RAMS)
    assert SEARCH not in HEAVY and set(HEAVY) == set(SEARCH_TASKS) - {SEARCH}


def test_everything_includes_each_search_and_one_process_takes_whole_games():
    tasks = plan("all", ALL_GAMES, jobs=2)
    assert {t for t, _ in tasks} == set(ALL_GAMES) | set(SEARCH_TASKS)
    assert all(part == "all" for _, part in plan("all", ALL_GAMES, jobs=1))  # nothing to split for one process


def test_chosen_games_get_no_search_and_the_longest_task_starts_first():
    assert plan("test", [Game.ZONE], jobs=2, searches=False) == [(Game.ZONE, "all")]
    tasks = plan("all", ALL_GAMES, jobs=2)
    costs = [_cost(*t) for t in tasks]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
