"""A run: a list of independent chunk tasks, executed into a resumable Parquet dataset.

A :class:`RunSpec` says what to simulate (deals or parties, rules, policies, seed,
count). It splits into :class:`ChunkTask` ranges; :func:`run_chunk` turns one task into a
table and depends on nothing but (spec, task), so any executor may run the tasks in any
order and the data are the same (deal ``d`` is keyed by (seed, d), party ``p`` by
(seed, p, d)). :func:`execute` is the local executor:

* the dataset is a folder of part files ``part-NNNNNN.parquet`` (one per chunk) and a
  ``manifest.json``; it is built in ``NAME.partial`` and renamed to ``NAME`` only when
  every part is written, so ``NAME`` is always complete;
* each part is written to a temporary name and renamed when complete;
* an interrupted run keeps its finished parts; ``resume=True`` checks that the request
  is the same run and computes only the missing parts;
* an existing ``NAME`` is replaced only with ``force=True``, and only once the new run
  is complete.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from .. import engine
from ..policies import PolicySpec, check_table_game, seat_policies
from ..rules import Rules
from .dataset import SCHEMA_VERSION, branch_table, deal_chunk_sums, deal_table, party_table
from .provenance import METADATA_KEY, now_utc, software, to_json
from .read import AGGREGATE_FILE, MANIFEST, PAIRED_FILE, PART_GLOB, PARTIAL_SUFFIX, merge_cells

DEALS, PARTIES, BRANCHES = "deals", "parties", "branches"
KINDS = (DEALS, PARTIES, BRANCHES)
AGGREGATED = "aggregated"  # the part kind of an aggregated deals run (_write_part)
DEFAULT_CHUNK = {DEALS: 500_000, PARTIES: 20_000, BRANCHES: 50_000}
AGGREGATE_CHUNK = 10_000_000  # deals per part of an aggregated run (each part a few kB: 100 parts for 1e9 deals)
TMP_SUFFIX = ".tmp"
MAX_SEED = 2**64 - 1
# zstd level 1: fast and compact; no column statistics: they cost ~20% of the write time, and each
# part already covers one contiguous range of deals (its metadata says which); row groups of 65,536
# rows: polars' dictionary pages stay small, which cuts the encoding time by a sixth and the size too
PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 1, "statistics": False, "row_group_size": 65_536}
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc mallopt parameters


class RunError(ValueError):
    """A run cannot start or resume as asked (a user mistake: exit code 2 in the CLI)."""


@dataclass(frozen=True)
class ChunkTask:
    """Units ``first .. first + count - 1`` of a run, written as part ``index``."""

    index: int
    first: int
    count: int

    @property
    def name(self) -> str:
        """The part file's name."""
        return f"part-{self.index:06d}.parquet"


@dataclass(frozen=True)
class RunSpec:
    """What a run simulates: ``count`` deals (kind ``deals``) or parties (``parties``)."""

    kind: str
    rules: Rules
    policies: tuple[PolicySpec, ...]
    seed: int
    count: int
    chunk_size: int = 0  # 0: DEFAULT_CHUNK[kind]
    dealer: int | None = None  # deals, branches: a fixed dealer seat, None rotates d % players
    log_plays: bool = False  # deals only: add the per-trick play columns
    seat: int | None = None  # branches only: the seat whose options are replayed
    decision: str = "exchange"  # branches only: the seat's decision whose options are replayed (rams_sim.decisions)
    aggregate: tuple[str, ...] = ()  # deals only: keep counts and sums by these keys, not rows (rams_sim.runs.aggregate)
    variants: tuple[Rules, ...] = ()  # paired (rams_sim.runs.effect): each deal or party also played under these rules
    by: tuple[str, ...] = ()  # paired deals: the keys of the cells (rams_sim.runs.effect.PAIRED_KEYS)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise RunError(f"unknown run kind {self.kind!r}; known: {', '.join(KINDS)}")
        object.__setattr__(self, "policies", tuple(seat_policies(list(self.policies), self.rules.players)))
        try:
            check_table_game(self.rules, self.policies)
        except ValueError as err:
            raise RunError(str(err)) from None
        if not 0 <= self.seed <= MAX_SEED:
            raise RunError(f"seed must be a whole number from 0 to 2**64 - 1; got {self.seed}")
        if self.count <= 0:
            raise RunError(f"the number of {self.kind} must be positive; got {self.count}")
        if self.aggregate:
            from .aggregate import KeysError, cells, parse_keys

            if self.kind != DEALS or self.log_plays:
                raise RunError("--aggregate applies to deals runs (rams-sim run) without --log-plays")
            try:
                object.__setattr__(self, "aggregate", parse_keys(self.aggregate))
                cells(self.aggregate, self.rules.players)
            except KeysError as err:
                raise RunError(str(err)) from None
        if self.variants or self.by:
            self._check_paired()
        if self.chunk_size == 0:
            paired_deals = self.variants and self.kind == DEALS
            object.__setattr__(self, "chunk_size",
                               AGGREGATE_CHUNK if self.aggregate or paired_deals else DEFAULT_CHUNK[self.kind])
        if self.chunk_size <= 0:
            raise RunError(f"chunk size must be positive; got {self.chunk_size}")
        if self.dealer is not None and (self.kind == PARTIES or not 0 <= self.dealer < self.rules.players):
            raise RunError(f"dealer must be a seat 0..{self.rules.players - 1} of a deals run; got {self.dealer}")
        if (self.kind == BRANCHES) != (self.seat is not None):
            raise RunError("a branches run needs a seat, and only a branches run takes one")
        if self.seat is not None and not 0 <= self.seat < self.rules.players:
            raise RunError(f"seat must be 0..{self.rules.players - 1}; got {self.seat}")
        if self.decision != "exchange":
            from ..decisions import parse_decision

            if self.kind != BRANCHES:
                raise RunError("a decision to branch on is for branches runs (rams-sim branch) only")
            try:
                object.__setattr__(self, "decision", parse_decision(self.decision, self.rules).name)
            except ValueError as err:
                raise RunError(str(err)) from None
        if self.log_plays and self.kind != DEALS:
            raise RunError("the play log is recorded for deals runs only")

    def _check_paired(self) -> None:
        from .effect import EffectError, check_keys, check_variants

        if self.kind == BRANCHES or self.aggregate or self.log_plays:
            raise RunError("a paired run (rams-sim effect) plays deals or parties, without --aggregate or --log-plays")
        if self.by and self.kind != DEALS:
            raise RunError("--by applies to paired deals; parties are paired whole")
        try:
            object.__setattr__(self, "variants", tuple(self.variants))
            check_variants(self.rules, list(self.variants))
            object.__setattr__(self, "by", check_keys(self.by))
        except EffectError as err:
            raise RunError(str(err)) from None

    @property
    def paired(self) -> bool:
        """Whether the run is paired (``variants``): its parts are sums (rams_sim.runs.effect), not rows."""
        return bool(self.variants)

    @property
    def part_kind(self) -> str:
        """What a part holds (:func:`_write_part`): AGGREGATED sums (an aggregated or paired run, no rows to
        sum again), else the run's kind."""
        return AGGREGATED if self.aggregate or self.paired else self.kind

    @property
    def merged(self) -> tuple[str, list[str]] | None:
        """The file an aggregated or paired run's parts are merged into, and the columns that key its
        cells (:func:`..read.merge_cells`); None for a run of rows."""
        if self.aggregate:
            return AGGREGATE_FILE, list(self.aggregate)
        if self.paired:
            from .effect import cell_columns

            return PAIRED_FILE, cell_columns(self.by)
        return None

    @property
    def unit(self) -> str:
        """``deal`` or ``party``."""
        return "party" if self.kind == PARTIES else "deal"

    def tasks(self) -> list[ChunkTask]:
        """The run's chunks, in order; together they cover units ``0 .. count - 1``."""
        starts = range(0, self.count, self.chunk_size)
        return [ChunkTask(i, s, min(self.chunk_size, self.count - s)) for i, s in enumerate(starts)]

    def policy_codes(self) -> np.ndarray:
        """int8[players]: each seat's policy code (the ``policy`` column)."""
        return np.array([int(p.kind) for p in self.policies], np.int8)

    def identity(self) -> dict:
        """Everything that determines the data (the check ``resume`` makes), JSON-ready."""
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": self.kind,
            "rules": self.rules.to_dict(),
            "rules_hash": self.rules.digest(),
            "policies": [p.to_dict() for p in self.policies],
            "seed": self.seed,
            ("parties" if self.kind == PARTIES else "deals"): self.count,
            "dealer": "rotating" if self.dealer is None else self.dealer,
            "log_plays": self.log_plays,
            "seat": self.seat,
            **({"decision": self.decision} if self.decision != "exchange" else {}),
            "chunk_size": self.chunk_size,
            **({"aggregate": list(self.aggregate)} if self.aggregate else {}),
            **({"variants": [v.to_dict() for v in self.variants], "by": list(self.by)} if self.variants else {}),
        }


_SCRATCH = threading.local()  # per thread: the kernels' outputs of the last deals chunk, reused


def _scratch(deals: int, players: int, log_plays: bool) -> engine.DealOut:
    """Kernel outputs for a deals chunk, reused from this thread's previous chunk of the same shape.

    The table a chunk returns is a copy (:func:`deal_table`), so the outputs can be
    overwritten by the next chunk; reusing them saves the operating system zeroing fresh
    memory pages for every chunk (a fifth of a chunk's time)."""
    key = (deals, players, log_plays)
    if getattr(_SCRATCH, "key", None) != key:
        _SCRATCH.key, _SCRATCH.out = key, engine.new_deal_out(deals, players, log_plays)
    return _SCRATCH.out


def run_chunk(spec: RunSpec, task: ChunkTask) -> pl.DataFrame:
    """Simulate one chunk with the fast engine and return its table (a pure function of its arguments)."""
    policies = list(spec.policies)
    if spec.paired:
        from . import effect

        if spec.kind == PARTIES:
            paired = effect.simulate_paired_parties(spec.rules, list(spec.variants), policies, seed=spec.seed,
                                                    parties=task.count, first_party=task.first)  # fmt: skip
        else:
            paired = effect.simulate_paired(spec.rules, list(spec.variants), policies, spec.by, seed=spec.seed,
                                            deals=task.count, first_deal=task.first, dealer=spec.dealer)  # fmt: skip
        return effect.to_table(paired, spec.by, spec.rules.players, spec.kind == PARTIES)
    if spec.aggregate:
        from .aggregate import simulate_aggregate, to_table

        acc = simulate_aggregate(spec.rules, policies, spec.aggregate, seed=spec.seed, deals=task.count,
                                 first_deal=task.first, dealer=spec.dealer)  # fmt: skip
        return to_table(acc, spec.aggregate, spec.rules.players)
    if spec.kind == DEALS:
        out = engine.simulate(
            spec.rules, policies, seed=spec.seed, deals=task.count, first_deal=task.first,
            dealer=spec.dealer, log_plays=spec.log_plays,
            out=_scratch(task.count, spec.rules.players, spec.log_plays),
        )  # fmt: skip
        return deal_table(out, task.first, spec.policy_codes())
    if spec.kind == BRANCHES:
        out = engine.simulate_branches(spec.rules, policies, seat=spec.seat, seed=spec.seed, deals=task.count,
                                       first_deal=task.first, dealer=spec.dealer, decision=spec.decision)  # fmt: skip
        return branch_table(out, spec.seat, spec.rules.players, int(spec.policy_codes()[spec.seat]))
    out = engine.simulate_parties(spec.rules, policies, seed=spec.seed, parties=task.count, first_party=task.first)
    return party_table(out, task.first, spec.policy_codes())


@dataclass
class RunResult:
    """What :func:`execute` did."""

    path: Path
    manifest: dict
    chunks_run: int = 0  # chunks computed in this session
    units_run: int = 0  # deals or parties computed in this session
    seconds: float = 0.0  # this session's wall time
    resumed_chunks: int = 0  # chunks found finished at the start
    already_complete: bool = False
    warnings: list[str] = field(default_factory=list)

    @property
    def files(self) -> list[Path]:
        """The part files, in order."""
        return [self.path / name for name in self.manifest["files"]]


def partial_path(out: Path) -> Path:
    """Where the run into ``out`` is built until it is complete."""
    return out.with_name(out.name + PARTIAL_SUFFIX)


def read_manifest(folder: Path) -> dict:
    """The manifest of a run folder."""
    return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + TMP_SUFFIX)
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _differences(old: dict, new: dict) -> list[str]:
    old = _with_later_options(old, new)
    keys = sorted(set(old) | set(new))
    out = []
    for k in keys:
        a, b = old.get(k), new.get(k)
        if a == b or (k == "rules_hash" and isinstance(a, str)):  # the rules themselves name what differs
            continue
        if isinstance(a, dict) and isinstance(b, dict):  # the rules: option by option
            out += [f"{k}.{o} {a.get(o)!r} -> {b.get(o)!r}" for o in sorted(set(a) | set(b)) if a.get(o) != b.get(o)]
        else:
            out.append(f"{k} {a!r} -> {b!r}")
    return out


def _with_later_options(old: dict, new: dict) -> dict:
    """A run's identity as recorded before some rule options existed, read with their defaults.

    Every option added to :class:`Rules` keeps the behaviour of the code before it as its
    default, so a run made before the option existed was played under that default. Its
    ``rules`` gain the missing options at their defaults, and its ``rules_hash`` (a digest of
    the older, shorter dict) is taken as the new one when the completed rules agree.
    """
    rules, latest = old.get("rules"), new.get("rules")
    if not isinstance(rules, dict) or not isinstance(latest, dict) or set(rules) >= set(latest):
        return old
    defaults = Rules().to_dict()
    filled = {**{k: defaults[k] for k in latest if k not in rules and k in defaults}, **rules}
    upgraded = {**old, "rules": filled}
    if filled == latest:
        upgraded["rules_hash"] = new.get("rules_hash")
    return upgraded


def _is_run_folder(path: Path) -> bool:
    return path.is_dir() and ((path / MANIFEST).exists() or not any(path.iterdir()))


def check_target(spec: RunSpec, out: Path, force: bool, resume: bool) -> str:
    """Decide what to do with ``out`` before anything is written: 'new', 'resume' or 'complete'."""
    partial = partial_path(out)
    if out.exists() and not _is_run_folder(out):
        raise RunError(f"{out} exists and is not a rams-sim run folder; choose another --out")
    if partial.exists() and not _is_run_folder(partial):
        raise RunError(f"{partial} exists and is not a rams-sim run folder; move it away first")
    if resume and not force:
        for folder, state in ((partial, "resume"), (out, "complete")):
            if folder.exists() and (folder / MANIFEST).exists():
                diff = _differences(read_manifest(folder)["run"], spec.identity())
                if diff:
                    raise RunError(f"--resume: {folder} holds a different run ({'; '.join(diff)[:300]}); "
                                   "use the same options, or --force to start over")  # fmt: skip
                return state
        return "new"
    if out.exists() and not force:
        raise RunError(f"{out} already exists; pass --force to replace it (or choose another --out)")
    if partial.exists() and not force:
        raise RunError(f"an unfinished run is at {partial}; pass --resume to finish it or --force to start over")
    return "new"


def kernels_cached(kind: str, rules: Rules) -> bool:
    """Whether numba's on-disk cache already holds the driver a run of ``kind`` calls, compiled
    for the rules' game (its index names the game's argument class, kernels/args.py)."""
    import numba

    from .. import kernels
    from ..kernels.args import ARGS_TYPES

    driver = {DEALS: "play_deals", PARTIES: "play_parties", BRANCHES: "play_branches"}[kind]
    game = ARGS_TYPES[rules.game].__name__.encode()
    # numba's cache: NUMBA_CACHE_DIR, else __pycache__ beside the kernels' source (never the working directory)
    where = Path(numba.config.CACHE_DIR) if numba.config.CACHE_DIR else Path(kernels.__file__).parent / "__pycache__"
    return any(game in index.read_bytes() for index in where.rglob(f"drivers.{driver}-*.nbi"))


def keep_freed_memory() -> None:
    """Let this process reuse the memory of a finished chunk instead of handing it back to the
    operating system, which must zero every fresh page it hands out again (a tenth of a run's
    time). glibc only (``mallopt``); elsewhere nothing changes. The peak memory is unchanged:
    each chunk needs the same buffers as the one before."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_MMAP_THRESHOLD, 1 << 30)  # large arrays from the heap, not fresh mappings
        libc.mallopt(M_TRIM_THRESHOLD, 1 << 31)  # and the heap not trimmed back after each chunk
    except (OSError, AttributeError):
        pass


def _write_part(folder: Path, task: ChunkTask, table: pl.DataFrame, meta: dict, kind: str = DEALS) -> None:
    """Write one part under a temporary name, then rename it: the final name is always complete.

    A deals part's metadata also carries the sums its run summary adds up (``deal_chunk_sums``)."""
    if kind == DEALS:
        meta = {**meta, "chunk": {**meta["chunk"], "sums": deal_chunk_sums(table)}}
    final = folder / task.name
    tmp = folder / ("." + task.name + TMP_SUFFIX)
    table.write_parquet(tmp, metadata={METADATA_KEY: to_json(meta)}, **PARQUET_OPTIONS)
    os.replace(tmp, final)


def _on_cluster(client, spec: RunSpec, tasks: list[ChunkTask], partial: Path, common: dict,
                landed: Callable[[ChunkTask], None]) -> None:  # fmt: skip
    """The chunks ``tasks`` of ``spec`` on the cluster of ``client``, each part written into
    ``partial`` as it arrives (in any order: a part is named by its chunk); ``landed(task)`` once
    its part is on disk."""
    from distributed import as_completed

    tag = hashlib.sha256(to_json(spec.identity()).encode()).hexdigest()[:12]
    futures = [client.submit(run_chunk, spec, t, key=f"rams-sim-run-{tag}-{t.index}", pure=False, retries=2)
               for t in tasks]  # fmt: skip
    by_key = {f.key: t for f, t in zip(futures, tasks)}
    try:
        for future in as_completed(futures):
            task = by_key[future.key]
            chunk = {"index": task.index, "first": task.first, "count": task.count, "seconds": None}
            _write_part(partial, task, future.result(), {**common, "chunk": chunk}, spec.part_kind)
            landed(task)
    except BaseException:
        client.cancel(futures)
        raise


def _finished(folder: Path, spec: RunSpec, tasks: list[ChunkTask]) -> set[int]:
    """Indices of the parts already written whole (row count checked); drop leftovers."""
    for leftover in folder.glob("." + PART_GLOB + TMP_SUFFIX):
        leftover.unlink()
    done = set()
    for task in tasks:
        path = folder / task.name
        if not path.exists():
            continue
        try:  # a part is whole if its metadata names this chunk (parts are renamed only when written)
            chunk = json.loads(pq.read_metadata(path).metadata[METADATA_KEY.encode()])["chunk"]
            whole = (chunk["index"], chunk["first"], chunk["count"]) == (task.index, task.first, task.count)
        except Exception:  # noqa: BLE001  (a damaged part is recomputed, whatever its reader raises)
            whole = False
        if whole:
            done.add(task.index)
        else:
            path.unlink()
    return done


Progress = Callable[[int, int], None]  # (units finished, units in all)


def _open(spec: RunSpec, partial: Path, tasks: list[ChunkTask], resume: bool) -> tuple[dict, set[int]]:
    """The run's manifest and its finished chunks: read back from ``partial`` to resume, else a
    fresh ``partial`` folder (a leftover one removed) with a new manifest."""
    if resume:
        return read_manifest(partial), _finished(partial, spec, tasks)
    if partial.exists():
        shutil.rmtree(partial)
    partial.mkdir(parents=True)
    manifest = {"run": spec.identity(), "software": software(), "created": now_utc(), "status": "running",
                "chunks": len(tasks), "sessions": []}  # fmt: skip
    return manifest, set()


def _run_local(spec: RunSpec, todo: list[ChunkTask], finished: list[ChunkTask], partial: Path, common: dict,
               landed: Callable[[ChunkTask], None], executor_hook, stop) -> bool:  # fmt: skip
    """Compute the chunks ``todo`` in order on this machine, each part written by a writer thread
    while the next chunk is computed (at most one part in flight: memory stays flat);
    ``landed(task)`` once its part is on disk. ``finished`` (the chunks done so far, in order)
    grows where ``stop`` is given; returns True when ``stop`` ended the run early."""
    stopped = stop is not None and bool(finished) and stop(partial, finished)
    pending: tuple[Future, ChunkTask] | None = None

    def finish_pending() -> None:
        nonlocal pending
        if pending is not None:
            future, task = pending
            pending = None
            future.result()
            landed(task)

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="rams-sim-writer") as writer:
        try:
            for task in todo:
                if stopped:
                    break
                if executor_hook:
                    executor_hook(task)
                t0 = time.perf_counter()
                table = run_chunk(spec, task)
                chunk = {"index": task.index, "first": task.first, "count": task.count,
                         "seconds": round(time.perf_counter() - t0, 3)}  # fmt: skip
                finish_pending()
                pending = (writer.submit(_write_part, partial, task, table, {**common, "chunk": chunk}, spec.part_kind),
                           task)  # fmt: skip
                if stop is not None:
                    finish_pending()
                    finished.append(task)
                    stopped = stop(partial, finished)
            finish_pending()
        finally:
            if pending is not None:  # interrupted: let the part in flight land, or discard it
                try:
                    finish_pending()
                except Exception:  # noqa: BLE001, S110  (the interruption propagates; a part that failed is discarded)
                    pass
    return stopped


def _close(spec: RunSpec, out: Path, partial: Path, manifest: dict, common: dict, tasks: list[ChunkTask],
           stopped: bool) -> None:  # fmt: skip
    """Complete the run: the manifest's totals and files, an aggregated or paired run's parts merged
    into one small table, and ``partial`` renamed to ``out`` (an old ``out`` replaced)."""
    manifest["status"] = "complete"
    manifest["finished"] = now_utc()
    manifest["wall_seconds"] = round(sum(s["seconds"] for s in manifest["sessions"]), 3)
    if stopped:
        manifest["stopped_early"] = {"chunks": len(tasks), "units": sum(t.count for t in tasks)}
    manifest["files"] = [t.name for t in tasks]
    manifest["rows"] = sum(pq.read_metadata(partial / t.name).num_rows for t in tasks)
    if spec.merged:  # the parts merged into one small table, with the run's provenance
        name, keys = spec.merged
        merged = merge_cells(pl.scan_parquet([partial / t.name for t in tasks]), keys)
        tmp = partial / (name + TMP_SUFFIX)
        merged.write_parquet(tmp, metadata={METADATA_KEY: to_json({**common, "cells": merged.height})})
        os.replace(tmp, partial / name)
        manifest["aggregate_file" if spec.aggregate else "paired_file"] = name
    _write_atomic(partial / MANIFEST, to_json(manifest))
    if out.exists():
        shutil.rmtree(out)
    os.replace(partial, out)


def execute(
    spec: RunSpec,
    out: Path | str,
    *,
    force: bool = False,
    resume: bool = False,
    progress: Progress | None = None,
    executor_hook: Callable[[ChunkTask], None] | None = None,
    client=None,
    stop: Callable[[Path, list[ChunkTask]], bool] | None = None,
) -> RunResult:
    """Run ``spec`` into the dataset folder ``out`` (see the module docstring): open the run
    (:func:`_open`), compute the missing chunks here (:func:`_run_local`) or on a cluster
    (:func:`_on_cluster`), close it (:func:`_close`).

    ``progress(done, total)`` is called as parts are finished; ``executor_hook(task)``
    is called before each chunk is computed (tests use it to simulate an interruption).
    ``client``: a dask.distributed client whose workers compute the chunks (:func:`run_chunk`,
    a pure function of (spec, task): the same parts as locally), each part written here as it
    arrives; a task lost with a worker is run again by the scheduler and written once.
    ``stop(folder, finished)`` (local runs): asked after each part lands with the run's folder so
    far and its finished chunks, in order; True completes the run with those chunks (the
    manifest's ``files``, ``stopped_early``; ``rams-sim effect --target-se``).
    Raises :class:`RunError` for a target that may not be written; lets
    ``KeyboardInterrupt`` through once every part in flight is safely written.
    """
    out = Path(out)
    state = check_target(spec, out, force, resume)
    keep_freed_memory()
    partial = partial_path(out)
    if state == "complete":
        return RunResult(out, read_manifest(out), already_complete=True)
    started = time.perf_counter()
    tasks = spec.tasks()
    manifest, done = _open(spec, partial, tasks, resume=state == "resume")
    result = RunResult(out, manifest, resumed_chunks=len(done))
    now = software()
    if manifest["software"] != now:
        result.warnings.append(f"resumed with different software: {'; '.join(_differences(manifest['software'], now))}")
    manifest["sessions"].append({"started": now_utc(), "software": now, "chunks": 0, "seconds": 0.0})
    _write_atomic(partial / MANIFEST, to_json(manifest))
    units_done = sum(t.count for t in tasks if t.index in done)
    if progress:
        progress(units_done, spec.count)
    common = {"run": spec.identity(), "software": now, "created": manifest["created"]}

    def landed(task: ChunkTask) -> None:
        nonlocal units_done
        units_done += task.count
        result.chunks_run += 1
        result.units_run += task.count
        if progress:
            progress(units_done, spec.count)

    todo = [t for t in tasks if t.index not in done]
    finished = [t for t in tasks if t.index in done]
    stopped = False
    try:
        if client is not None:
            _on_cluster(client, spec, todo, partial, common, landed)
        else:
            stopped = _run_local(spec, todo, finished, partial, common, landed, executor_hook, stop)
    finally:
        session = manifest["sessions"][-1]
        session["chunks"] = result.chunks_run
        session["seconds"] = round(time.perf_counter() - started, 3)
        _write_atomic(partial / MANIFEST, to_json(manifest))
    _close(spec, out, partial, manifest, common, sorted(finished, key=lambda t: t.index) if stopped else tasks, stopped)
    result.seconds = time.perf_counter() - started
    return result
