"""Compile the kernels ahead of use, so the first real command does not wait for numba.

Numba compiles a kernel on its first call and keeps it in its on-disk cache
(:mod:`rams_sim.kernels`); this module makes those first calls on tiny inputs, through
the same entry points the commands use, so the compiled code matches exactly what a
later run loads. A game's kernels are compiled only for that game (R9,
:mod:`rams_sim.kernels.dispatch`), so the games can be warmed in parallel processes.

    python -m rams_sim.warm --only run        # what `rams-sim run` needs (classic deals)
    python -m rams_sim.warm --only run --games zone   # the same for another game
    python -m rams_sim.warm --only test --jobs 2   # every game and driver, and classic's searching seat
    python -m rams_sim.warm --jobs 2          # all that, and pimc's in every game of R9

``make setup`` runs the first at install time, ``make test`` the third, ``make test-all``
and ``make test-slow`` the last: a searching seat's kernels are 60-120 CPU-s of a cold
compile in each game (classic's 118 s on 3 December, beside its drivers' 66 s), so the tests
that need them carry the ``heavy`` marker.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import multiprocessing
import sys
import time
from collections.abc import Iterator

from .games import GAMES, Game
from .rules import Rules

# one preset per game (its registry entry's warm_preset): the presets of a game share its compiled kernels
GAME_PRESETS = {game: info.warm_preset for game, info in GAMES.items()}
WHAT = ("run", "test", "all")
SEARCH, SEARCH_ZONE, SEARCH_MODERN, SEARCH_DUEL = "pimc", "pimc-zone", "pimc-modern", "pimc-duel"  # tasks (COST)


@contextlib.contextmanager
def gc_paused(collect: bool = True) -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a compile.

    numba's compiler makes millions of short-lived objects; the collector's passes over them
    are about a fifth of a cold compile (measured: zone's kernels 20 -> 16 s, a searching zone
    table's 52 -> 41 s). The garbage is collected once at the end (``collect``; 1-1.5 s after a
    game's kernels), or left to a process that is about to end; a compile's peak memory grows
    (about 2 GiB for the largest).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
        if collect:
            gc.collect()


def warm_game(game: Game, part: str = "all") -> tuple[str, float]:
    """Compile ``game``'s kernels; return (the task's name, seconds).

    ``part``: ``run`` the kernels of a deals run only; ``deals`` those and a deals run's play
    log and aggregates (the same deal loop); ``parties`` the single deal that parties, branches
    and the API call, with their drivers; ``all`` both. Classic's halves share little compile
    (26-32 s and 26-31 s on 3 December), so they are warmed in two processes; the other games'
    halves share more (duel's 20 s each, 22-37 s together), so theirs are not.
    """
    from . import engine
    from .runs.dataset import deal_chunk_sums
    from .runs.runner import BRANCHES, DEALS, PARTIES, ChunkTask, RunSpec, run_chunk

    start = time.perf_counter()
    rules = Rules.named(GAME_PRESETS[game])
    policies = ("basic",) * rules.players
    if part in ("run", "deals", "all"):
        deal_chunk_sums(run_chunk(RunSpec(DEALS, rules, policies, 0, 1), ChunkTask(0, 0, 1)))
    if part in ("deals", "all"):
        run_chunk(RunSpec(DEALS, rules, policies, 0, 1, log_plays=True), ChunkTask(0, 0, 1))
        run_chunk(RunSpec(DEALS, rules, policies, 0, 1, aggregate=("seat",)), ChunkTask(0, 0, 1))  # run --aggregate, sweep
    if part in ("parties", "all"):
        run_chunk(RunSpec(PARTIES, rules, policies, 0, 1), ChunkTask(0, 0, 1))
        run_chunk(RunSpec(BRANCHES, rules, policies, 0, 1, seat=0), ChunkTask(0, 0, 1))
        engine.play_deal(rules, "basic")
        if GAMES[game].classic_scoring:  # the API's classic-only entry points
            engine.settle_deal(rules, dealer=0, trump=0, hands_dealt=[0] * 4, hands_final=[0] * 4, active=[True] * 4)
            engine.legal_cards(rules, [0, 1], 0, [2])
            engine.trick_winner(0, [0, 1])
    return task_name(game, part), time.perf_counter() - start


def warm_game_search(game: Game) -> tuple[str, float]:
    """Compile the drivers of a table of ``game`` with a searching seat (policy pimc) beside ``basic`` players
    for deals, single deals and parties (from the entry's ``warm_start``: they end soon), and ``rams-sim
    advise``'s evaluations of the positions its advice module lists (``WARM_QUESTIONS``: a decision before the
    play, a card ...); return (the entry's ``search_task``, seconds)."""
    from . import engine
    from .advice.position import advice_module
    from .advice.search import advise

    info = GAMES[game]
    start = time.perf_counter()
    rules = Rules.named(info.warm_preset)
    policies = ["pimc:samples=1", *["basic"] * (rules.players - 1)]
    engine.simulate(rules, policies, seed=0, deals=1)
    engine.play_deal(rules, policies)
    engine.simulate_parties(Rules.named(info.warm_preset, start=info.warm_start), policies, seed=0, parties=1)
    for question in advice_module(rules).WARM_QUESTIONS:
        advise(**question, max_worlds=1)
    return info.search_task, time.perf_counter() - start


# a searching seat's kernels, by task name (each game's entry's search_task)
SEARCH_TASKS = {info.search_task: functools.partial(warm_game_search, game) for game, info in GAMES.items()}
# what only the tests marked ``heavy`` use (pyproject.toml): left out of ``--only test``; classic's search is in
# it, for the validation suite's small run in the default tests (tests/test_check_advice.py, issue 45: 60 s of compile)
HEAVY = tuple(name for name in SEARCH_TASKS if name != SEARCH)
# seconds each task took on 2 cores, compiling into an empty cache: the longest start first (modern's and zone's
# search with advise's evaluations scaled from a cold compile beside the old zone task; duel's advise adds 31 s to
# its 223 s, measured alone, 2 December 2026); only the order matters. Classic's two halves on the same scale: on
# 3 December a fresh clone's make test took 26-32 s and 25-31 s for them, 30-38 s for duel, 20-24 s for modern
COST = {SEARCH_DUEL: 91, SEARCH: 60, SEARCH_MODERN: 56, "rams-deals": 16, "rams-parties": 15, SEARCH_ZONE: 31,
        "duel": 17, "modern": 11, "zone": 7}  # by task_name
# classic's drivers, the largest of a game's, in two processes (warm_game's ``part``; the entries' warm_parts)
SPLIT = {game: info.warm_parts for game, info in GAMES.items() if info.warm_parts}


def task_name(task: Game | str, part: str) -> str:
    """The name a task reports and COST knows it by: a search's, a game's (``rams``), or a game's
    part of warm_game (``rams-deals``)."""
    if not isinstance(task, Game):
        return task
    return task.value if part in ("run", "all") else f"{task.value}-{part}"


def _cost(task: Game | str, part: str) -> float:
    """COST's guess for a task (0 where nothing is known: a deals run's kernels, alone anyway)."""
    return COST.get(task_name(task, part), 0)


def plan(only: str, games: list[Game], jobs: int, searches: bool = True) -> list[tuple[Game | str, str]]:
    """The tasks ``main`` runs, (a game or a search's name, warm_game's ``part``), longest first.

    ``only`` as ``--only``: ``run`` a deals run's kernels of each game; ``test`` and ``all``
    every driver of each game (split by :data:`SPLIT` over several ``jobs``) and, with
    ``searches``, the searches (``test`` without the :data:`HEAVY` ones)."""
    what = "run" if only == "run" else "all"
    tasks = [(g, part) for g in games for part in (SPLIT.get(g, (what,)) if what == "all" and jobs > 1 else (what,))]
    if what == "all" and searches:
        tasks += [(name, "all") for name in SEARCH_TASKS if only == "all" or name not in HEAVY]
    return sorted(tasks, key=lambda task: -_cost(*task))


def _warm(args: tuple[Game | str, str], collect: bool = True) -> tuple[str, float]:
    with gc_paused(collect):
        if args[0] in SEARCH_TASKS:
            return SEARCH_TASKS[args[0]]()
        return warm_game(*args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rams_sim.warm", description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=WHAT, default="all", help="run: the kernels of a deals run only; "
                        "test: all but a searching seat's (what `make test` uses)")  # fmt: skip
    parser.add_argument("--jobs", type=int, default=1, help="games compiled in parallel processes")
    parser.add_argument("--games", default="", help="comma-separated games of R9 (rams, duel, modern, zone); "
                        "default: rams with --only run, else all")  # fmt: skip
    args = parser.parse_args(argv)
    if args.games:
        try:
            games = [Game(g.strip()) for g in args.games.split(",")]
        except ValueError:
            parser.error(f"--games takes {', '.join(g.value for g in Game)}; got {args.games}")
    else:
        games = [Rules().game] if args.only == "run" else list(GAME_PRESETS)  # run: classic's (the default rules)
    start = time.perf_counter()
    tasks = plan(args.only, games, args.jobs, searches=not args.games)
    if args.jobs > 1 and len(tasks) > 1:
        # a fresh process for each task: its garbage goes with it, uncollected
        with multiprocessing.get_context("spawn").Pool(min(args.jobs, len(tasks)), maxtasksperchild=1) as pool:
            results = list(pool.imap_unordered(functools.partial(_warm, collect=False), tasks))
    else:
        results = [_warm(t) for t in tasks]
    for game, seconds in sorted(results):
        print(f"  {game:<12} kernels ready in {seconds:5.1f} s")
    print(f"numba kernels ready ({args.only}) in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
