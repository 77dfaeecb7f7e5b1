"""``rams-sim sweep``: the command (:mod:`rams_sim.cli.main` registers it on its app); the work is :mod:`rams_sim.runs.sweep`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from .common import fail

GRID_HELP = ("The grid (TOML): a count of deals or parties per cell, a seed, the aggregation keys, and in its grid "
             "table lists of presets, table sizes and policies, in grid.rules of rule options; every combination is a cell. "
             "Examples: examples/*.toml; the format: rams_sim/runs/sweep.py.")  # fmt: skip


def sweep(
    grid: Annotated[str, typer.Argument(help=GRID_HELP)],
    out: Annotated[str, typer.Option("--out", help="The sweep's folder: grid.json, parts/ (one file per task), then cells.parquet and summary.parquet.")],
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Run the tasks on a dask.distributed cluster, e.g. tcp://HOST:8786 (README: `dask scheduler`, `dask worker`); default: local processes.")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Local processes (default: one per core); not with --scheduler.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing sweep folder.")] = False,
    resume: Annotated[bool, typer.Option("--resume", help="Finish an interrupted sweep into the same --out: only the missing tasks run.")] = False,
) -> None:
    """Run a grid of rule variants, table sizes and policies: every cell on the same seed, in chunk tasks
    on local processes or a dask cluster, into one Parquet dataset keyed by cell, with a summary per cell."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from ..runs.sweep import GridError, load_grid
    from ..runs.sweep import sweep as run_sweep

    if workers is not None and (workers < 1 or scheduler):
        fail("--workers must be 1 or more, and only for local processes (not with --scheduler)")
    try:
        g = load_grid(grid)
    except GridError as err:
        fail(str(err))
    tasks = len(g.tasks())
    where = scheduler or f"{workers or 'one per core'} local processes"
    unit = "deals" if g.kind == "deals" else "parties"
    typer.echo(f"sweep {g.name or Path(grid).stem}: {len(g.cells)} cells x {g.count:,} {unit}, {tasks} tasks, "
               f"seed {g.seed}, on {where}")  # fmt: skip
    start = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, transient=False) as bar:
            job = bar.add_task("tasks", total=tasks)
            summary = run_sweep(g, out, scheduler=scheduler, force=force, resume=resume, workers=workers,
                                progress=lambda done, total: bar.update(job, completed=done))  # fmt: skip
    except GridError as err:
        fail(str(err))
    except KeyboardInterrupt:
        fail(f"interrupted; the finished tasks are kept: repeat with --out {out} --resume to finish")
    typer.echo(f"{len(g.cells)} cells in {time.perf_counter() - start:.1f} s; {out}/cells.parquet, {out}/summary.parquet")
    if g.kind == "deals":
        key = g.keys[0]
        typer.echo(f"mean score delta per row by {key} (negative = written off), 95% CI:")
        paired = "delta_diff" in summary.columns
        if paired:
            typer.echo("  diff: the paired difference from the grid's baseline on the same deals, 95% CI (none: the "
                       "cell is the baseline, or differs from it in more than rule options)")  # fmt: skip
        for row in summary.head(40).iter_rows(named=True):
            diff = ""
            if paired and row["delta_diff"] is not None:
                ci = "" if row["delta_diff_lo"] is None else f" [{row['delta_diff_lo']:+.3f}, {row['delta_diff_hi']:+.3f}]"
                diff = f"  diff {row['delta_diff']:+.3f}{ci}"
            typer.echo(f"  cell {row['cell']} {key} {row[key]}: {row['delta_mean']:+.3f} [{row['delta_lo']:+.3f}, "
                       f"{row['delta_hi']:+.3f}]{diff}  n = {row['n']:,}  ({row['label']})")  # fmt: skip
    else:
        typer.echo("party length (deals), 95% CI, and share of parties won, by seat:")
        for row in summary.head(40).iter_rows(named=True):
            typer.echo(f"  cell {row['cell']} seat {row['seat']}: won {100 * row['won_share']:.1f}%  length "
                       f"{row['length_mean']:.2f} [{row['length_lo']:.2f}, {row['length_hi']:.2f}]  ({row['label']})")  # fmt: skip
    if summary.height > 40:
        typer.echo(f"  … {summary.height - 40} more rows in summary.parquet")
