"""What the run commands share (``run``, ``party``, ``branch``, ``effect``): per-seat policies from
``--policy``, the common options, a :class:`~rams_sim.runs.runner.RunSpec` from them, the kernels'
threads, the default output folder, and executing a spec with a progress bar and a short summary
(user mistakes and Ctrl-C end in one line)."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Annotated

import typer

from ..policies import PARAMS_BY_KIND, PolicyKind, PolicySpec, seat_policies
from ..rules import Rules
from ..version import __version__
from .common import fail, parse_count


def build_policies(specs: list[str], players: int) -> list[PolicySpec]:
    """Per-seat policies from ``--policy NAME`` (every seat) and ``--policy SEAT=NAME``."""
    seats = [PolicySpec.parse("basic")] * players
    try:
        for text in specs or []:
            head, sep, rest = text.partition("=")
            if sep and head.strip().isdigit():
                seat = int(head)
                if not 0 <= seat < players:
                    fail(f"--policy seat {seat} is not a seat of a {players}-player table (0..{players - 1})")
                seats[seat] = PolicySpec.parse(rest)
            else:
                seats = [PolicySpec.parse(text)] * players
        return seat_policies(seats, players)
    except ValueError as err:
        fail(str(err))


def policy_help() -> str:
    names = ", ".join(k.name.lower() for k in PolicyKind)
    params = "; ".join(f"{k.name.lower()}: {', '.join(PARAMS_BY_KIND[k]) or 'none'}"
                       + (" and file=PATH, a strategy table CSV (default: the shipped one)" if k == PolicyKind.TABLE else "")
                       for k in PolicyKind)  # fmt: skip
    return (
        f"Policy of every seat (NAME) or of one seat (SEAT=NAME), repeatable; default basic everywhere. NAME is one of "
        f"{names}, optionally with parameters NAME:KEY=VALUE,... e.g. basic:pass_threshold=1.5,announce=false. "
        f"Parameters ({params}; every policy: announce=true|false; every policy but pimc, the probes: first_card=J "
        f"(the first card is the J-th legal card, 0-based; -1 off) and take_trump=-1|0|1 (R4.3 where the dealer may "
        f"choose: -1 his policy, 1 take, 0 decline)) are described in rams_sim/policies.py."
    )


PolicyOpt = Annotated[list[str] | None, typer.Option("--policy", help=policy_help())]


SeedOpt = Annotated[int, typer.Option("--seed", help="Seed (0..2**64-1): deal d's randomness is a function of (seed, d).")]
ThreadsOpt = Annotated[
    int | None, typer.Option("--threads", help="Threads for the kernels (default: all cores); the data do not depend on it.")
]
OutOpt = Annotated[
    str | None,
    typer.Option("--out", help="Output folder of the Parquet dataset (default: data/runs/<kind>-<rules>-<n>p-s<seed>-<time>)."),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace an existing output folder (once the new run is complete).")]
ResumeOpt = Annotated[
    bool, typer.Option("--resume", help="Finish an interrupted run into the same --out: only the missing chunks are computed.")
]
ChunkOpt = Annotated[
    str | None,
    typer.Option("--chunk", help="Deals (or parties) per part file; memory use grows with it, the data do not change."),
]


def describe_policies(policies) -> str:
    """``basic on every seat`` or ``seat 0 random, seat 1 basic, …``."""
    texts = [str(p) for p in policies]
    if len(set(texts)) == 1:
        return f"{texts[0]} on every seat"
    return ", ".join(f"seat {i} {t}" for i, t in enumerate(texts))


DealerOpt = Annotated[
    int | None, typer.Option("--dealer", help="Fix the dealer's seat (default: rotates, deal d dealt by seat d % players).")
]


def check_seat(value: int | None, rules: Rules, flag: str) -> None:
    """A one-line error unless ``value`` is None or a seat of the table."""
    if value is not None and not 0 <= value < rules.players:
        fail(f"{flag} must be a seat 0..{rules.players - 1}; got {value}")


def build_spec(kind: str, rules: Rules, seats, seed: int, count: int, chunk: str | None, **options):
    """The :class:`rams_sim.runs.runner.RunSpec` of a command, or a one-line error."""
    from ..runs import runner

    chunk_size = parse_count(chunk, "--chunk") if chunk else 0
    try:
        return runner.RunSpec(kind, rules, tuple(seats), seed, count, chunk_size, **options)
    except runner.RunError as err:
        fail(str(err))


def set_threads(threads: int | None) -> None:
    """Use ``threads`` kernel threads, or a one-line error."""
    if threads is None:
        return
    import numba

    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        fail(f"--threads must be 1..{numba.config.NUMBA_NUM_THREADS}; got {threads}")
    numba.set_num_threads(threads)


def check_seed(seed: int) -> None:
    """A one-line error unless 0 <= seed < 2**64."""
    if not 0 <= seed < 2**64:
        fail(f"--seed must be a whole number from 0 to 2**64 - 1; got {seed}")


def default_out(kind: str, rules: Rules, seed: int) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path("data") / "runs" / f"{kind}-{rules.preset}-{rules.players}p-s{seed}-{stamp}"


def execute(spec, out: str | None, force: bool, resume: bool, threads: int | None, what: str, client=None,
            stop=None):  # fmt: skip
    """Run a spec with a progress bar; user mistakes and Ctrl-C end in one line."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from ..runs import runner
    from ..warm import gc_paused

    set_threads(threads)
    target = Path(out) if out else default_out(spec.kind, spec.rules, spec.seed)
    typer.echo(f"rams-sim {__version__}: {spec.kind} run of {spec.count:,} {what}, {spec.rules.preset}, {spec.rules.players} players, "
               f"{spec.rules.deck_size} cards, {describe_policies(spec.policies)}, seed {spec.seed}")  # fmt: skip
    try:
        runner.check_target(spec, target, force, resume)
    except runner.RunError as err:
        fail(str(err))
    cold = not runner.kernels_cached(spec.kind, spec.rules)
    if cold:
        typer.echo("compiling the kernels (first run after install; cached for later runs)…")
    with gc_paused() if cold else contextlib.nullcontext():
        runner.run_chunk(spec, runner.ChunkTask(0, 0, 1))  # compile or load the kernels before the clock starts
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=False) as bar:
        job = bar.add_task(what, total=spec.count)
        try:
            result = runner.execute(spec, target, force=force, resume=resume, client=client, stop=stop,
                                    progress=lambda done, total: bar.update(job, completed=done))  # fmt: skip
        except runner.RunError as err:
            bar.stop()
            fail(str(err))
        except KeyboardInterrupt:
            bar.stop()
            typer.echo(f"interrupted: the finished chunks are kept in {runner.partial_path(target)}; "
                       f"run the same command with --out {target} --resume to finish", err=True)  # fmt: skip
            raise typer.Exit(130)
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
    if result.already_complete:
        typer.echo(f"{target} is already complete; nothing to do")
    else:
        rate = result.units_run / result.seconds if result.seconds > 0 else float("nan")
        resumed = f" ({result.resumed_chunks} chunks were already done)" if result.resumed_chunks else ""
        typer.echo(f"{result.units_run:,} {what} in {result.seconds:.2f} s ({rate:,.0f} {what}/s){resumed}")
    size = sum(f.stat().st_size for f in result.files)
    typer.echo(f"data: {target}/ ({len(result.files)} part files, {result.manifest['rows']:,} rows, {size / 1e6:,.1f} MB)")
    return result
