"""Rule sweeps (``rams-sim sweep GRID --out DIR``): a grid of presets, rule options, table sizes and
policies, every cell a list of chunk tasks, on local processes or a dask.distributed cluster.

A grid is a TOML file (examples under ``examples/``)::

    name = "overtrump by table size"
    deals = 200_000          # per cell; or parties = 10_000 for whole parties (R8)
    seed = 7                 # every cell plays the same deals (common random numbers)
    aggregate = ["seat"]     # deals: the keys of rams_sim.runs.aggregate (default ["seat"])
    chunk = 100_000          # deals (or parties) per task

    [grid]
    preset = ["classic", "handbook"]
    players = [3, 4, 5]                              # optional: the preset's table
    policy = ["basic", "expert", ["expert", "basic", "basic", "basic"]]  # every seat, or one per seat

    [grid.rules]             # rule options (rams-sim rules show classic), each a list of values
    ruff = ["any-trump", "overtrump"]

Cells are the product of every list, numbered in that order. A task is one chunk of one
cell: a pure function of (cell, chunk), so local and cluster runs write the same rows.
The output folder holds ``grid.json`` (the grid and its cells), ``parts/`` (one Parquet
file per finished task, written atomically: an interrupted sweep keeps them and
``--resume`` runs only the rest), and at the end ``cells.parquet`` (every cell's merged
counts and sums, keyed by ``cell``) and ``summary.parquet`` (per cell and value of the first
aggregation key: mean delta with its 95% interval and declaration rates; for parties, per seat:
party length and wins).

A grid may name a *baseline* (a cell, or the part of one it fixes)::

    baseline = { rules = { ace_forbids_pass = true } }   # also preset, players, policy

Each cell is then also compared with its baseline cell -- the cell of its own preset, table
size and policy (where the baseline names them they must agree) with the baseline's rule
options in place of its own -- on the same deals (or parties), as ``rams-sim effect`` does
(:mod:`rams_sim.runs.effect`): its paired run's chunks are tasks of their own, their sums go to
``paired.parquet``, and the summary adds ``delta_diff``, ``delta_diff_lo``, ``delta_diff_hi``
(by the first key where it is fixed before anyone chooses, else for the whole table; parties:
``length_diff*``) and ``changed_share``, the share of deals the change altered. A cell that is
its baseline, or differs from it in more than rule options, has none.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from ..policies import seat_policies
from ..rules import _ENUM_FIELDS, Rules, option_names
from .provenance import METADATA_KEY, code_identity, now_utc, same_code, software, to_json
from .read import merge_cells
from .runner import DEALS, PARTIES, ChunkTask, RunError, RunSpec, _write_atomic
from .summary import interval_from_sums

GRID_FILE, CELLS_FILE, SUMMARY_FILE, PARTS = "grid.json", "cells.parquet", "summary.parquet", "parts"
TOP_KEYS = {"name", "deals", "parties", "seed", "aggregate", "chunk", "grid", "baseline"}
BASELINE_KEYS = {"preset", "players", "policy", "rules"}
PAIRED_FILE = "paired.parquet"  # with a baseline: each cell's paired sums against it (rams_sim.runs.effect)
GRID_KEYS = {"preset", "players", "policy", "rules"}
DEFAULT_CHUNK = {DEALS: 100_000, PARTIES: 5_000}
MAX_CELLS = 10_000


class GridError(ValueError):
    """A grid that cannot be run (one line, naming the cell or key, for the CLI)."""


@dataclass(frozen=True)
class Cell:
    """One point of the grid: its number, what varies, and the run it stands for."""

    index: int
    preset: str
    players: int | None
    policy: tuple[str, ...]  # one text per seat, or one for every seat
    options: tuple[tuple[str, object], ...]
    spec: RunSpec
    paired: RunSpec | None = None  # with a baseline: the cell's rules as the variant of its baseline's, same deals

    def label(self) -> str:
        """The cell in words, e.g. ``classic, 4 players, basic, ruff=overtrump``."""
        opts = ", ".join(f"{k}={v}" for k, v in self.options)
        pol = self.policy[0] if len(self.policy) == 1 else "/".join(self.policy)
        return f"{self.preset}, {self.spec.rules.players} players, {pol}" + (f", {opts}" if opts else "")

    def row(self) -> dict:
        """The cell as a row of ``cells`` metadata (JSON-ready)."""
        return {"cell": self.index, "preset": self.preset, "players": self.spec.rules.players,
                "policy": list(self.policy), "options": dict(self.options), "label": self.label()}  # fmt: skip


@dataclass(frozen=True)
class Task:
    """Chunk ``chunk`` of cell ``cell``: units ``first .. first + count - 1``."""

    cell: int
    chunk: ChunkTask
    paired: bool = False  # the chunk of the cell's paired run against the baseline

    @property
    def key(self) -> str:
        """A name for the task, its part file and its cluster key."""
        return f"cell{self.cell:05d}-{'pair' if self.paired else 'part'}{self.chunk.index:06d}"


@dataclass(frozen=True)
class Grid:
    """A parsed, validated grid: the kind, size, seed and keys every cell shares, and the cells."""

    name: str
    kind: str
    count: int
    seed: int
    keys: tuple[str, ...]
    chunk: int
    cells: tuple[Cell, ...]
    baseline: dict | None = None  # the grid's baseline table, as given

    def identity(self) -> dict:
        """Everything that determines the sweep's data (what --resume checks)."""
        paired = {"paired": [c.paired.identity() if c.paired else None for c in self.cells]} if self.baseline else {}
        return {"name": self.name, "kind": self.kind, "count": self.count, "seed": self.seed, "keys": list(self.keys),
                "chunk": self.chunk, "cells": [c.spec.identity() for c in self.cells], **paired}  # fmt: skip

    def digest(self) -> str:
        return hashlib.sha256(to_json(self.identity()).encode()).hexdigest()[:12]

    def tasks(self) -> list[Task]:
        """Every task, cell by cell (a cell's paired run after its own)."""
        own = [Task(c.index, t) for c in self.cells for t in c.spec.tasks()]
        return own + [Task(c.index, t, True) for c in self.cells if c.paired for t in c.paired.tasks()]

    @property
    def paired_by(self) -> tuple[str, ...]:
        """With a baseline: the keys of the paired runs' cells (:func:`paired_by`)."""
        return paired_by(self.keys)

    def spec_of(self, task: Task) -> RunSpec:
        """The run a task is a chunk of."""
        cell = self.cells[task.cell]
        return cell.paired if task.paired else cell.spec


# ---- reading a grid ------------------------------------------------------------------
def _as_list(value, where: str) -> list:
    values = value if isinstance(value, list) else [value]
    if not values:
        raise GridError(f"grid: {where} is an empty list, so the grid has no cells")
    return values


def _typed_option(key: str, value) -> object:
    """A rule option's TOML value, checked against the option's type (rams-sim rules show)."""
    if key not in option_names():
        raise GridError(f"grid: unknown rule option {key!r}; valid: {', '.join(option_names())}")
    if key in _ENUM_FIELDS:
        allowed = [m.value for m in _ENUM_FIELDS[key]]
        if not isinstance(value, str) or value not in allowed:
            raise GridError(f"grid: rule option {key} takes one of {', '.join(allowed)}; got {value!r}")
        return value
    default = getattr(Rules(), key)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise GridError(f"grid: rule option {key} takes true or false; got {value!r}")
        return value
    if isinstance(default, tuple):
        if not (isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise GridError(f"grid: rule option {key} takes a list of whole numbers; got {value!r}")
        return tuple(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise GridError(f"grid: rule option {key} takes a whole number; got {value!r}")
    return value


def _count(table: dict, key: str) -> int:
    value = table[key]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise GridError(f"grid: {key} must be a positive whole number; got {value!r}")
    return value


def parse_grid(data: dict) -> Grid:
    """A :class:`Grid` from a grid's TOML table; raises GridError before any work, naming the cell."""
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise GridError(f"grid: unknown key {unknown[0]!r}; keys: {', '.join(sorted(TOP_KEYS))}")
    if ("deals" in data) == ("parties" in data):
        raise GridError("grid: give either deals = N (single deals) or parties = N (whole parties), not both or neither")
    kind = DEALS if "deals" in data else PARTIES
    count = _count(data, kind)
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise GridError(f"grid: seed must be a whole number from 0 to 2**64 - 1; got {seed!r}")
    chunk = _count(data, "chunk") if "chunk" in data else DEFAULT_CHUNK[kind]
    keys = tuple(_as_list(data.get("aggregate", ["seat"]), "aggregate")) if kind == DEALS else ()
    if kind == PARTIES and "aggregate" in data:
        raise GridError("grid: aggregate applies to deals; a parties grid is summarised per seat")
    grid = data.get("grid")
    if not isinstance(grid, dict):
        raise GridError("grid: a [grid] table is needed (preset, players, policy, [grid.rules])")
    unknown = sorted(set(grid) - GRID_KEYS)
    if unknown:
        raise GridError(f"grid: unknown key grid.{unknown[0]}; keys: {', '.join(sorted(GRID_KEYS))}")
    presets = _as_list(grid.get("preset", "classic"), "grid.preset")
    players = _as_list(grid.get("players", [None]), "grid.players")
    policies = [tuple(p) if isinstance(p, list) else (p,) for p in _as_list(grid.get("policy", "basic"), "grid.policy")]
    rules_table = grid.get("rules", {})
    if not isinstance(rules_table, dict):
        raise GridError("grid: grid.rules must be a table of option = [values]")
    options = {k: [_typed_option(k, v) for v in _as_list(vals, f"grid.rules.{k}")] for k, vals in rules_table.items()}
    combos = list(itertools.product(presets, players, policies, *options.values()))
    if len(combos) > MAX_CELLS:
        raise GridError(f"grid: {len(combos):,} cells (at most {MAX_CELLS:,}); split the grid")
    cells = []
    for i, (preset, n, policy, *values) in enumerate(combos):
        chosen = tuple(zip(options, values))
        where = f"cell {i} ({preset}, players {n or 'default'}, policy {'/'.join(map(str, policy))}" + \
                "".join(f", {k}={v}" for k, v in chosen) + ")"  # fmt: skip
        cells.append(_cell(i, preset, n, policy, chosen, kind, count, seed, chunk, keys, where))
    baseline = data.get("baseline")
    if baseline is not None:
        checked, by = _check_baseline(baseline), paired_by(keys)
        cells = [_paired_cell(c, checked, by) for c in cells]
        if not any(c.paired for c in cells):
            raise GridError("grid: no cell differs from the baseline in rule options alone, so none can be paired")
    return Grid(str(data.get("name", "")), kind, count, seed, keys, chunk, tuple(cells), baseline)


def _check_baseline(baseline) -> dict:
    if not isinstance(baseline, dict) or not baseline:
        raise GridError("grid: baseline is a table such as { players = 4, rules = { ace_forbids_pass = true } }")
    unknown = sorted(set(baseline) - BASELINE_KEYS)
    if unknown:
        raise GridError(f"grid: unknown key baseline.{unknown[0]}; keys: {', '.join(sorted(BASELINE_KEYS))}")
    rules = baseline.get("rules", {})
    if not isinstance(rules, dict):
        raise GridError("grid: baseline.rules must be a table of option = value")
    return {**baseline, "rules": {k: _typed_option(k, v) for k, v in rules.items()}}


def paired_by(keys: tuple[str, ...]) -> tuple[str, ...]:
    """The keys a sweep's paired runs break their cells down by: the grid's first aggregation key
    where it is fixed before anyone chooses (:data:`rams_sim.runs.effect.PAIRED_KEYS`), else none."""
    from .effect import PAIRED_KEYS

    return tuple(k for k in keys[:1] if k in PAIRED_KEYS)


def _paired_cell(cell: Cell, baseline: dict, by: tuple[str, ...]) -> Cell:
    """The cell with its paired run against the baseline: the baseline cell of the cell's own preset,
    table size and policy (where the baseline names them they must agree) and the cell's rule options
    with the baseline's in their place. A cell that differs from it in more than rule options, or not
    at all, has none."""
    policy = baseline.get("policy", list(cell.policy) if len(cell.policy) > 1 else cell.policy[0])
    policy = tuple(policy) if isinstance(policy, list) else (policy,)
    same = (baseline.get("preset", cell.preset) == cell.preset and policy == cell.policy
            and baseline.get("players", cell.spec.rules.players) == cell.spec.rules.players)  # fmt: skip
    if not same:
        return cell
    try:
        options = {**dict(cell.options), **baseline["rules"], "players": cell.spec.rules.players}
        rules = Rules.named(cell.preset, **options)
    except (ValueError, TypeError) as err:
        raise GridError(f"grid: the baseline of cell {cell.index} ({cell.label()}): {err}") from None
    if rules == cell.spec.rules:
        return cell  # the baseline itself
    spec = cell.spec
    try:
        paired = RunSpec(spec.kind, rules, spec.policies, spec.seed, spec.count, spec.chunk_size,
                         variants=(spec.rules,), by=by)  # fmt: skip
    except RunError as err:
        raise GridError(f"grid: cell {cell.index} ({cell.label()}) against the baseline: {err}") from None
    return Cell(cell.index, cell.preset, cell.players, cell.policy, cell.options, cell.spec, paired)


def _cell(i, preset, n, policy, chosen, kind, count, seed, chunk, keys, where) -> Cell:
    if n is not None and (not isinstance(n, int) or isinstance(n, bool)):
        raise GridError(f"grid: {where}: players must be a whole number; got {n!r}")
    if not all(isinstance(p, str) for p in policy):
        raise GridError(f"grid: {where}: a policy is a name such as \"basic\" or a list of names, one per seat")
    try:
        overrides = dict(chosen)
        if n is not None:
            overrides["players"] = n
        rules = Rules.named(str(preset), **overrides)
        seats = seat_policies(list(policy) if len(policy) > 1 else policy[0], rules.players)
        spec = RunSpec(kind, rules, tuple(seats), seed, count, chunk, aggregate=keys)
    except (ValueError, TypeError, RunError) as err:
        raise GridError(f"grid: {where}: {err}") from None
    return Cell(i, str(preset), n, tuple(policy), chosen, spec)


def load_grid(path: Path | str) -> Grid:
    """Read and validate a grid file; raises GridError (a missing or malformed file too)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise GridError(f"cannot read grid {path}: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise GridError(f"grid {path} is not valid TOML: {err}") from None
    return parse_grid(data)


# ---- one task ----------------------------------------------------------------------
def run_task(spec: RunSpec, task: ChunkTask) -> pl.DataFrame:
    """One chunk of one cell (on a local process or a cluster worker): the chunk's counts and sums."""
    from .runner import run_chunk

    table = run_chunk(spec, task)
    if spec.kind == DEALS or spec.paired:
        return table
    return party_sums(table)


def party_sums(parties: pl.DataFrame) -> pl.DataFrame:
    """Per seat, the exact sums of a chunk of parties: parties, wins, deals (sum, squares), settlement (sum, squares)."""
    deals, settle = pl.col("deals").cast(pl.Int64), pl.col("settlement")
    return parties.group_by("seat").agg(
        pl.len().cast(pl.Int64).alias("n"), pl.col("won").cast(pl.Int64).sum().alias("wins"),
        deals.sum().alias("deals_sum"), (deals * deals).sum().alias("deals_sq_sum"),
        settle.sum().alias("settlement_sum"), (settle * settle).sum().alias("settlement_sq_sum"),
    ).sort("seat")  # fmt: skip


# ---- the output folder ----------------------------------------------------------------------
def part_path(out: Path, task: Task) -> Path:
    return out / PARTS / f"{task.key}.parquet"


def prepare(grid: Grid, out: Path, force: bool, resume: bool) -> set[str]:
    """Check ``out`` and write grid.json; return the keys of the tasks already finished (resume)."""
    meta = out / GRID_FILE
    if out.exists() and not (meta.exists() or not any(out.iterdir())):
        raise GridError(f"{out} exists and is not a sweep folder; choose another --out")
    if meta.exists() and not force:
        if not resume:
            raise GridError(f"{out} already holds a sweep; pass --resume to finish it or --force to start over")
        old = json.loads(meta.read_text(encoding="utf-8"))
        if old.get("identity") != grid.identity():
            raise GridError(f"--resume: {out} holds a different sweep (grid {old.get('digest')}, this one "
                            f"{grid.digest()}); use the same grid, or --force to start over")  # fmt: skip
        done = set()
        for task in grid.tasks():
            path = part_path(out, task)
            if path.exists():
                done.add(task.key)
        for leftover in (out / PARTS).glob(".*.tmp"):
            leftover.unlink()
        return done
    if out.exists():
        shutil.rmtree(out)
    (out / PARTS).mkdir(parents=True)
    body = {"identity": grid.identity(), "digest": grid.digest(), "cells": [c.row() for c in grid.cells],
            "software": software(), "created": now_utc()}  # fmt: skip
    _write_atomic(meta, to_json(body))
    return set()


def write_part(out: Path, grid: Grid, task: Task, table: pl.DataFrame) -> None:
    """A finished task's table, with its cell, under a temporary name and then renamed."""
    path = part_path(out, task)
    if path.exists():  # a task the cluster ran twice (a worker died after finishing it): written once
        return
    tmp = path.with_name("." + path.name + ".tmp")
    meta = {"grid": grid.digest(), "task": task.key, "cell": task.cell, "first": task.chunk.first,
            "count": task.chunk.count}  # fmt: skip
    table.with_columns(pl.lit(task.cell, pl.Int32).alias("cell")).select("cell", *table.columns).write_parquet(
        tmp, metadata={METADATA_KEY: to_json(meta)})
    os.replace(tmp, path)


def finish(grid: Grid, out: Path) -> pl.DataFrame:
    """Merge the parts into cells.parquet and write summary.parquet; returns the summary."""
    parts = pl.scan_parquet(str(out / PARTS / "*-part*.parquet"))
    keys = ["cell", *(grid.keys if grid.kind == DEALS else ("seat",))]
    cells = merge_cells(parts, keys)
    n_tasks = len(grid.tasks())
    got = len(list((out / PARTS).glob("*.parquet")))
    if got != n_tasks:
        raise GridError(f"{out}: {got} of {n_tasks} task parts present; run again with --resume")
    summary = summarise(grid, cells)
    files = [(CELLS_FILE, cells)]
    if grid.baseline is not None:
        paired = _paired_sums(grid, out)
        summary = summary.join(_paired_columns(grid, paired), on=["cell", *grid.paired_by], how="left")
        files.append((PAIRED_FILE, paired))
    meta = {METADATA_KEY: to_json({"grid": grid.identity(), "software": software(), "finished": now_utc()})}
    for name, table in (*files, (SUMMARY_FILE, summary)):
        tmp = out / (name + ".tmp")
        table.write_parquet(tmp, metadata=meta)
        os.replace(tmp, out / name)
    return summary


def _paired_sums(grid: Grid, out: Path) -> pl.DataFrame:
    """Each paired cell's sums against the baseline, merged over its chunks (rams_sim.runs.effect.merge)."""
    from .effect import merge

    return merge(pl.scan_parquet(str(out / PARTS / "*-pair*.parquet")), grid.paired_by, outer=("cell",))


def _paired_columns(grid: Grid, paired: pl.DataFrame) -> pl.DataFrame:
    """Per paired cell (and value of the first key where the deals pair by it): the paired
    difference from the baseline on the same deals with its 95% interval, and the share of the
    deals (parties) the change altered; ``delta_diff*`` for deals, ``length_diff*`` for parties."""
    from .effect import estimates, from_table

    rows = []
    for cell in grid.cells:
        if not cell.paired:
            continue
        spec = cell.paired
        mine = paired.filter(pl.col("cell") == cell.index).drop("cell")
        parties = spec.kind == PARTIES
        sums = from_table(mine, spec.by, spec.rules.players, 1, parties)
        measure = "length" if parties else "delta"
        table = estimates(sums, spec.by, spec.rules.players, [cell.label()], parties)
        share = float(sums.deals[0, 1] / max(sums.deals[0, 0], 1))
        for row in table.filter(pl.col("measure") == measure).iter_rows(named=True):
            rows.append({"cell": cell.index, **{k: row[k] for k in spec.by}, f"{measure}_diff": row["diff"],
                         f"{measure}_diff_lo": row["ci_low"], f"{measure}_diff_hi": row["ci_high"],
                         "changed_share": share})  # fmt: skip
    return pl.DataFrame(rows).with_columns(pl.col("cell").cast(pl.Int32),
                                           *(pl.col(k).cast(pl.Int8) for k in grid.paired_by))  # fmt: skip


def summarise(grid: Grid, cells: pl.DataFrame) -> pl.DataFrame:
    """Per cell and value of the grid's first key (deals): n, mean delta with a 95% interval, remizes and
    declarations per 100 rows; per cell and seat (parties): parties, share won, mean settlement, party
    length with its interval."""
    labels = pl.DataFrame({"cell": [c.index for c in grid.cells], "label": [c.label() for c in grid.cells]},
                          schema={"cell": pl.Int32, "label": pl.Utf8})  # fmt: skip
    if grid.kind == DEALS:
        by = ["cell", grid.keys[0]]
        decl = [c for c in cells.columns if c.startswith("decl_") and c != "decl_none"]
        t = cells.group_by(by).agg(pl.col("n", "delta_sum", "delta_sq_sum", "remiz", *decl).sum())
        t = t.with_columns(*interval_from_sums("n", "delta_sum", "delta_sq_sum", "delta"),
                           (100 * pl.col("remiz") / pl.col("n")).alias("remiz_per_100"),
                           *[(100 * pl.col(c) / pl.col("n")).alias(c.replace("decl_", "") + "_per_100") for c in decl])  # fmt: skip
        t = t.select(*by, "n", "delta_mean", "delta_lo", "delta_hi", "remiz_per_100",
                     *[c.replace("decl_", "") + "_per_100" for c in decl])  # fmt: skip
    else:
        t = cells.with_columns(*interval_from_sums("n", "deals_sum", "deals_sq_sum", "length"),
                               (pl.col("wins") / pl.col("n")).alias("won_share"),
                               (pl.col("settlement_sum") / pl.col("n")).alias("settlement_mean"))  # fmt: skip
        t = t.select("cell", "seat", "n", "won_share", "settlement_mean", "length_mean", "length_lo", "length_hi")
    return labels.join(t, on="cell").sort(t.columns[:2])


# ---- executors ----------------------------------------------------------------------
Done = Callable[[Task, pl.DataFrame], None]


def _local_init() -> None:
    import numba

    numba.set_num_threads(1)  # one process per core, one kernel thread each


def run_local(grid: Grid, tasks: list[Task], done: Done, workers: int | None = None) -> None:
    """Run ``tasks`` on local processes (one per core), calling ``done`` as each finishes."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    workers = workers or os.cpu_count() or 1
    with ProcessPoolExecutor(max_workers=min(workers, max(len(tasks), 1)), mp_context=get_context("spawn"),
                             initializer=_local_init) as pool:  # fmt: skip
        futures = {pool.submit(run_task, grid.spec_of(t), t.chunk): t for t in tasks}
        try:
            for future in as_completed(futures):
                done(futures[future], future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def connect(scheduler: str):
    """A dask.distributed client of the scheduler at ``scheduler`` (``tcp://HOST:PORT``), or a GridError."""
    try:
        from distributed import Client
    except ImportError:
        raise GridError("--scheduler needs dask.distributed: in the checkout, make cluster-install "
                        "(pip install -e '.[cluster]')") from None  # fmt: skip
    try:
        return Client(scheduler, timeout="20s")
    except OSError as err:
        raise GridError(f"cannot reach the dask scheduler at {scheduler}: {err}") from None


def _describe(identity: dict) -> str:
    commit = identity.get("commit", "unknown")
    return f"rams-sim {identity.get('version', '?')} (commit {commit[:12] + commit[40:] if commit != 'unknown' else commit})"


WAIT_FOR_WORKERS = 60  # seconds a sweep waits for a first worker to check


def check_workers(client) -> None:
    """Refuse a cluster whose workers run other code than this client: each worker's
    :func:`~rams_sim.runs.provenance.code_identity` against the client's
    (:func:`~rams_sim.runs.provenance.same_code`), before any task is sent; a GridError names the
    differing workers and both versions, in one line. A worker that cannot import rams_sim differs too.
    With no worker yet it waits :data:`WAIT_FOR_WORKERS` seconds for one; workers that join after the
    check are not asked."""
    if not client.nthreads():
        try:
            client.wait_for_workers(1, timeout=WAIT_FOR_WORKERS)
        except TimeoutError:
            raise GridError(f"no dask worker joined the scheduler in {WAIT_FOR_WORKERS} s; start the workers "
                            "(README: Sweeps) and run again") from None  # fmt: skip
    mine = code_identity()
    theirs = client.run(code_identity, on_error="return")
    differing = []
    for address, identity in sorted(theirs.items()):
        if isinstance(identity, BaseException):
            differing.append(f"{address} cannot run rams_sim ({type(identity).__name__}: {identity})")
        elif not same_code(mine, identity):
            differing.append(f"{address} runs {_describe(identity)}")
    if differing:
        raise GridError(f"{len(differing)} of {len(theirs)} dask workers run other code than this client's "
                        f"{_describe(mine)}: {'; '.join(differing)}; install the client's commit on every worker "
                        "(make cluster-install) and restart them")  # fmt: skip


# numba threads per task on a dask worker. A worker runs as many tasks at once as it has threads (`dask worker
# --nthreads`) and cannot see the other worker processes of its machine, so one kernel thread per task thread
# is its share that never oversubscribes the cores: a machine lends its cores as one single-threaded worker
# process per core (README: Sweeps), as local sweeps run one single-threaded process per core (_local_init).
WORKER_NUMBA_THREADS = 1


def on_worker_threads(function, *args):
    """``function(*args)`` with numba on :data:`WORKER_NUMBA_THREADS` thread(s) in this thread, restored after
    (numba's count belongs to the calling thread, so the worker's other task threads keep theirs)."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(min(WORKER_NUMBA_THREADS, numba.config.NUMBA_NUM_THREADS))
    try:
        return function(*args)
    finally:
        numba.set_num_threads(before)


def run_task_on_worker(spec: RunSpec, task: ChunkTask) -> pl.DataFrame:
    """:func:`run_task` as a dask worker's task, on one numba thread (:func:`on_worker_threads`); the rows
    do not depend on it (every deal is keyed by seed and index)."""
    return on_worker_threads(run_task, spec, task)


def run_cluster(grid: Grid, tasks: list[Task], done: Done, client) -> None:
    """Run ``tasks`` on the dask.distributed cluster of ``client``, each on one numba thread
    (:func:`run_task_on_worker`); a task lost with a worker is run again by the scheduler, and each
    result is written once."""
    from distributed import as_completed

    with client:
        futures = [client.submit(run_task_on_worker, grid.spec_of(t), t.chunk,
                                 key=f"rams-sim-{grid.digest()}-{t.key}", pure=False, retries=2)
                   for t in tasks]  # fmt: skip
        by_key = {f.key: t for f, t in zip(futures, tasks)}
        try:
            for future in as_completed(futures):
                done(by_key[future.key], future.result())
        except BaseException:
            client.cancel(futures)
            raise


def sweep(grid: Grid, out: Path | str, *, scheduler: str | None = None, force: bool = False, resume: bool = False,
          progress: Callable[[int, int], None] | None = None, workers: int | None = None) -> pl.DataFrame:  # fmt: skip
    """Run every task of ``grid`` not yet in ``out`` and write the merged results; returns the summary."""
    out = Path(out)
    client = connect(scheduler) if scheduler else None  # before anything is written
    try:
        if client is not None:
            check_workers(client)  # the same code as this client's on every worker, or no task runs
        finished = prepare(grid, out, force, resume)
    except BaseException:
        if client is not None:
            client.close()
        raise
    tasks = [t for t in grid.tasks() if t.key not in finished]
    total, count = len(grid.tasks()), len(finished)
    if progress:
        progress(count, total)

    def done(task: Task, table: pl.DataFrame) -> None:
        nonlocal count
        write_part(out, grid, task, table)
        count += 1
        if progress:
            progress(count, total)

    if tasks:
        if client is not None:
            run_cluster(grid, tasks, done, client)
        else:
            run_local(grid, tasks, done, workers)
    elif client is not None:
        client.close()
    return finish(grid, out)


__all__ = ["Grid", "GridError", "check_workers", "load_grid", "parse_grid", "sweep"]
