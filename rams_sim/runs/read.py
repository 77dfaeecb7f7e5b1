"""Reading a run folder back into a data frame: :func:`read_run`.

A run folder (``rams-sim run``, ``party`` or ``branch``) is a set of part files
``part-NNNNNN.parquet`` and a ``manifest.json`` that lists them in order
(:mod:`rams_sim.runs.runner`). This module reads it with polars and imports neither numba
nor the kernels, so reading data compiles nothing and starts in well under a second.
The folder layout names (:data:`MANIFEST`, :data:`PART_GLOB`, :data:`PARTIAL_SUFFIX`)
live here for that reason; the runner writes what this module reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Literal, overload

if TYPE_CHECKING:
    import polars as pl

MANIFEST = "manifest.json"
PART_GLOB = "part-*.parquet"
PARTIAL_SUFFIX = ".partial"
AGGREGATE_FILE = "aggregate.parquet"  # an aggregated run's parts, merged (rams_sim.runs.aggregate)
PAIRED_FILE = "paired.parquet"  # a paired run's merged sums (rams_sim.runs.effect)

# the command that wrote each kind of run (manifest "run" -> "kind")
_COMMAND = {"deals": "run", "parties": "party", "branches": "branch"}


def _unfinished(folder: Path) -> ValueError:
    """The error for an interrupted run in ``folder`` (a ``NAME.partial`` folder)."""
    folder = folder if folder.name else folder.resolve()  # "." has no name of its own
    name = folder.name.removesuffix(PARTIAL_SUFFIX)
    command = "run"
    try:
        kind = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["run"]["kind"]
        command = _COMMAND.get(kind, command)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return ValueError(
        f"{folder} is an unfinished run (interrupted before every part was written); finish it by "
        f"repeating the same `rams-sim {command}` command with --out {folder.with_name(name)} --resume, "
        "then read that folder"
    )


def run_files(path: Path | str) -> list[Path]:
    """The part files of the complete run folder ``path``, in part order (the manifest's list).

    Raises ``FileNotFoundError`` for a path that does not exist (naming an unfinished
    ``NAME.partial`` beside it if there is one), ``NotADirectoryError`` for a file, and
    ``ValueError`` for a folder that is not a run (no ``manifest.json``) or an unfinished
    run (a ``.partial`` folder, to be completed with ``--resume``).
    """
    folder = Path(path)
    if not folder.exists():
        partial = folder.with_name(folder.name + PARTIAL_SUFFIX)
        if partial.is_dir():
            raise _unfinished(partial)
        raise FileNotFoundError(f"no run folder at {folder}: the path does not exist")
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder} is a file; read_run takes a run folder (part-*.parquet and {MANIFEST})")
    manifest_path = folder / MANIFEST
    if folder.name.endswith(PARTIAL_SUFFIX) and manifest_path.exists():
        raise _unfinished(folder)
    if not manifest_path.exists():
        raise ValueError(f"{folder} is not a rams-sim run folder: it has no {MANIFEST}")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except ValueError as err:
        raise ValueError(f"{manifest_path} is not valid JSON ({err}); the run folder is damaged") from None
    if manifest.get("status") != "complete" or "files" not in manifest:
        raise _unfinished(folder)
    files = [folder / name for name in manifest["files"]]
    missing = [f.name for f in files if not f.is_file()]
    if missing:
        raise ValueError(f"{folder} is damaged: {len(missing)} part files of its manifest are missing "
                         f"({', '.join(missing[:3])}{', …' if len(missing) > 3 else ''})")  # fmt: skip
    return files


@overload
def read_run(path: Path | str, lazy: Literal[False] = False) -> pl.DataFrame: ...


@overload
def read_run(path: Path | str, lazy: Literal[True]) -> pl.LazyFrame: ...


@overload
def read_run(path: Path | str, lazy: bool) -> pl.DataFrame | pl.LazyFrame: ...


def read_run(path: Path | str, lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Read the rows of a run folder, in part order (deals or parties ascending, then seat).

    Parameters
    ----------
    path : the run folder written by ``rams-sim run``, ``party`` or ``branch``.
    lazy : return a polars ``LazyFrame`` (nothing read until ``.collect()``) instead of
        an eager ``DataFrame``.

    Returns
    -------
    polars.DataFrame (or LazyFrame) with the columns of README.md "The data"; for a run made
    with ``--aggregate``, its merged table: one row per combination of key values, with the
    counts and sums of :mod:`rams_sim.runs.aggregate`.
    ``.to_pandas()`` turns the DataFrame into a pandas one (pandas and pyarrow are dependencies).

    Raises
    ------
    FileNotFoundError, NotADirectoryError, ValueError: see :func:`run_files`.

    Examples
    --------
    >>> deals = read_run("data/runs/make-run")                      # doctest: +SKIP
    >>> deals.group_by("seat").agg(pl.col("delta").mean())         # doctest: +SKIP
    """
    import polars as pl

    files = run_files(path)
    aggregate = Path(path) / AGGREGATE_FILE
    frame = pl.scan_parquet(str(aggregate) if aggregate.is_file() else [str(f) for f in files])
    return frame if lazy else frame.collect()


def merge_cells(parts: pl.LazyFrame, keys: tuple[str, ...] | list[str]) -> pl.DataFrame:
    """Sum the parts of an aggregated run cell by cell (every column but the ``keys`` is a count
    or a sum: exact integers), sorted by the keys (:mod:`rams_sim.runs.aggregate`)."""
    import polars as pl

    keys = list(keys)
    stats = [c for c in parts.collect_schema().names() if c not in keys]
    return parts.group_by(keys).agg(pl.col(c).sum() for c in stats).sort(keys).collect()
