"""Compile the kernels ahead of use, so the first real command does not wait for numba.

Numba compiles a kernel on its first call and keeps it in its on-disk cache
(:mod:`rams_sim.kernels`); this module makes those first calls on tiny inputs, through
the same entry points the commands use, so the compiled code matches exactly what a
later run loads. A game's kernels are compiled only for that game (R9,
:mod:`rams_sim.kernels.dispatch`), so the games can be warmed in parallel processes.

    python -m rams_sim.warm --only run        # what `rams-sim run` needs (classic deals)
    python -m rams_sim.warm --only run --games zone   # the same for another game
    python -m rams_sim.warm --only test --jobs 2   # every game and driver, without a searching seat
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
SEARCH, SEARCH_ZONE, SEARCH_MODERN, SEARCH_DUEL = "pimc", "pimc-zone", "pimc-modern", "pimc-duel"  # pimc's kernels


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


def warm_search() -> tuple[str, float]:
    """Compile the drivers a searching seat (policy pimc, classic Rams) uses for deals, single deals and
    parties, and ``rams-sim advise``'s two evaluations (a decision before the play, a card)."""
    from . import engine
    from .advice.search import advise

    start = time.perf_counter()
    policies = ["pimc:samples=1", "basic", "basic", "basic"]
    engine.simulate(Rules(), policies, seed=0, deals=1)
    engine.play_deal(Rules(), policies)
    engine.simulate_parties(Rules(start=6), policies, seed=0, parties=1)
    advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=2, dealer=0, exchanged="1=2", max_worlds=1)
    advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=2, dealer=0, exchanged="1=0,2=0,3=0,0=0", played="7♥", max_worlds=1)
    return SEARCH, time.perf_counter() - start


def warm_game_search(name: str, rules: Rules, others: list[str], party_rules: Rules) -> tuple[str, float]:
    """Compile the drivers of a table of another game of R9 with a searching seat beside ``others``
    (deals, single deals, and parties under ``party_rules``: a start that ends them soon)."""
    from . import engine

    start = time.perf_counter()
    policies = ["pimc:samples=1", *others]
    engine.simulate(rules, policies, seed=0, deals=1)
    engine.play_deal(rules, policies)
    engine.simulate_parties(party_rules, policies, seed=0, parties=1)
    return name, time.perf_counter() - start


def warm_zone_search() -> tuple[str, float]:
    """zone's searching table, and ``rams-sim advise``'s zone evaluations (the swap, a card)."""
    from .advice.search import advise

    name, seconds = warm_game_search(SEARCH_ZONE, Rules.named("zone"), ["basic"], Rules.named("zone", start=3))
    start = time.perf_counter()
    advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=1, dealer=0, rules="zone", max_worlds=1)
    advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=1, dealer=0, rules="zone", turns="1=stand", played="-", max_worlds=1)
    return name, seconds + time.perf_counter() - start


def warm_modern_search() -> tuple[str, float]:
    """modern's searching table, and ``rams-sim advise``'s modern evaluations (a turn, a card)."""
    from .advice.search import advise

    name, seconds = warm_game_search(SEARCH_MODERN, Rules.named("modern"), ["basic"] * 3, Rules.named("modern", start=15))
    start = time.perf_counter()
    advise("A♥ K♠ 9♠ 10♦ Q♣", "9♥", seat=2, dealer=0, rules="modern", turns="1=pass", max_worlds=1)
    advise("A♥ K♠ 9♠ 10♦ Q♣", "9♥", seat=1, dealer=0, rules="modern", turns="1=play,2=play,3=play,0=play", played="-",
           max_worlds=1)  # fmt: skip
    return name, seconds + time.perf_counter() - start


def warm_duel_search() -> tuple[str, float]:
    """duel's searching table, and ``rams-sim advise``'s duel evaluations (the widow, duel-trump's
    card, dave, a card)."""
    from .advice.search import advise

    name, seconds = warm_game_search(SEARCH_DUEL, Rules.named("duel"), ["basic"], Rules.named("duel"))
    start = time.perf_counter()
    hand, turned, stood = "A♥ K♠ 7♠ 9♦ 10♣", "8♥", "1=stand,0=stand"
    advise(hand, turned, seat=1, dealer=0, rules="duel", max_worlds=1)
    advise(hand, turned, seat=0, dealer=0, rules="duel-trump", turns=stood, max_worlds=1)
    advise(hand, turned, seat=1, dealer=0, rules="duel", turns=stood, played="-", max_worlds=1)
    advise(hand, turned, seat=1, dealer=0, rules="duel", turns=stood, played="-", dave="pass", max_worlds=1)
    return name, seconds + time.perf_counter() - start


SEARCH_TASKS = {SEARCH: warm_search, SEARCH_ZONE: warm_zone_search, SEARCH_MODERN: warm_modern_search,
                SEARCH_DUEL: warm_duel_search}
# what only the tests marked ``heavy`` use (pyproject.toml): left out of ``--only test``
HEAVY = (SEARCH, SEARCH_DUEL, SEARCH_MODERN, SEARCH_ZONE)
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
