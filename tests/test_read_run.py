"""`rams_sim.read_run`: a run folder read back with polars, pandas and DuckDB, and its errors."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import polars as pl
import pytest

import rams_sim
from rams_sim import read_run
from rams_sim.policies import PolicySpec
from rams_sim.rules import Rules
from rams_sim.runs.dataset import DEAL_COLUMNS, PARTY_COLUMNS, schema
from rams_sim.runs.runner import DEALS, PARTIES, RunSpec, execute, partial_path, read_manifest

DEALS_N, CHUNK = 1_000, 300  # four part files: 300 + 300 + 300 + 100 deals


def deals_spec(**kw) -> RunSpec:
    rules = Rules.classic()
    return RunSpec(DEALS, rules, (PolicySpec.parse("basic"),) * rules.players, 3, DEALS_N, CHUNK, **kw)


def parts(folder) -> pl.DataFrame:
    """The part files read one by one, concatenated in their name order."""
    return pl.concat([pl.read_parquet(f) for f in sorted(folder.glob("part-*.parquet"))])


@pytest.fixture(scope="module")
def deals_run(tmp_path_factory):
    """A small complete `run` folder of four part files."""
    out = tmp_path_factory.mktemp("runs") / "deals"
    execute(deals_spec(), out)
    return out


def test_read_run_is_exported():
    """read_run is part of the package's public API."""
    assert "read_run" in rams_sim.__all__ and rams_sim.read_run is read_run


def test_rows_are_the_part_files_in_order(deals_run):
    """The eager frame holds every row of every part, in part order, with the documented schema."""
    manifest = read_manifest(deals_run)
    assert len(manifest["files"]) == 4
    data = read_run(deals_run)
    assert isinstance(data, pl.DataFrame)
    assert data.schema == pl.Schema(schema(DEAL_COLUMNS))
    assert data.height == manifest["rows"] == DEALS_N * 4
    assert data.equals(parts(deals_run))
    first = pl.read_parquet(deals_run / manifest["files"][0])
    assert data.head(first.height).equals(first)
    # part order is deal order, seats ascending within a deal
    assert data["deal"].to_list() == [d for d in range(DEALS_N) for _ in range(4)]
    assert data["seat"].to_list() == [0, 1, 2, 3] * DEALS_N


def test_lazy_frame_collects_to_the_same_rows(deals_run):
    """lazy=True gives a LazyFrame that reads the same rows when collected."""
    lazy = read_run(deals_run, lazy=True)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(read_run(deals_run))
    means = lazy.group_by("seat").agg(pl.col("delta").mean()).sort("seat").collect()
    assert means["seat"].to_list() == [0, 1, 2, 3]


def test_to_pandas_keeps_rows_columns_and_dtypes(deals_run):
    """.to_pandas() has the same rows and columns, with matching numpy dtypes."""
    pd = pytest.importorskip("pandas")
    data = read_run(deals_run)
    frame = data.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == data.columns and len(frame) == data.height
    expected = {pl.Int64: "int64", pl.Int16: "int16", pl.Int8: "int8", pl.UInt64: "uint64", pl.Boolean: "bool"}
    for column in DEAL_COLUMNS:
        assert str(frame[column.name].dtype) == expected[column.dtype], column.name
        assert np.array_equal(frame[column.name].to_numpy(), data[column.name].to_numpy()), column.name
    # a card mask survives as an unsigned 64-bit value (the hearts ace is bit 51)
    assert int(frame["hand_final"].max()) == int(data["hand_final"].max())


def test_duckdb_sql_over_the_parts_agrees_with_polars(deals_run):
    """DuckDB's SQL over the part files gives polars' per-seat mean delta."""
    duckdb = pytest.importorskip("duckdb")
    rows = duckdb.sql(
        f"SELECT seat, avg(delta) AS mean, count(*) AS n FROM read_parquet('{deals_run.as_posix()}/*.parquet') "
        "GROUP BY seat ORDER BY seat"
    ).fetchall()
    means = read_run(deals_run).group_by("seat").agg(pl.col("delta").mean(), pl.len()).sort("seat")
    assert [r[0] for r in rows] == means["seat"].to_list()
    assert [r[2] for r in rows] == means["len"].to_list() == [DEALS_N] * 4
    assert np.allclose([r[1] for r in rows], means["delta"].to_numpy(), rtol=0, atol=1e-12)


def test_reads_a_party_run(tmp_path):
    """A `party` folder reads the same way: one row per (party, seat), in part order."""
    rules = Rules.classic()
    out = tmp_path / "parties"
    execute(RunSpec(PARTIES, rules, (PolicySpec.parse("basic"),) * 4, 5, 30, 12), out)
    data = read_run(out)
    assert data.schema == pl.Schema(schema(PARTY_COLUMNS))
    assert data.equals(parts(out)) and data["party"].to_list() == [p for p in range(30) for _ in range(4)]


def test_missing_path_is_named(tmp_path):
    """A path that does not exist is a FileNotFoundError naming it."""
    with pytest.raises(FileNotFoundError, match="no run folder at .*nowhere.*does not exist"):
        read_run(tmp_path / "nowhere")


def test_folder_without_manifest_is_not_a_run(tmp_path, deals_run):
    """A folder of Parquet files without manifest.json is refused as not a run."""
    folder = tmp_path / "loose"
    folder.mkdir()
    (folder / "part-000000.parquet").write_bytes((deals_run / "part-000000.parquet").read_bytes())
    with pytest.raises(ValueError, match="not a rams-sim run folder: it has no manifest.json"):
        read_run(folder)
    with pytest.raises(NotADirectoryError, match="is a file"):
        read_run(folder / "part-000000.parquet")


def test_missing_part_file_is_reported(tmp_path, deals_run):
    """A complete manifest whose part file is gone is a damaged folder, not a short read."""
    folder = tmp_path / "copy"
    folder.mkdir()
    for f in deals_run.iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    (folder / "part-000002.parquet").unlink()
    with pytest.raises(ValueError, match="damaged: 1 part files .* missing \\(part-000002.parquet\\)"):
        read_run(folder)


class Interrupt(KeyboardInterrupt):
    pass


def test_unfinished_run_names_resume(tmp_path):
    """An interrupted run (NAME.partial) is refused with the --resume command, by either name."""
    out = tmp_path / "cut"

    def hook(task):
        if task.index == 2:
            raise Interrupt

    with pytest.raises(KeyboardInterrupt):
        execute(deals_spec(), out, executor_hook=hook)
    partial = partial_path(out)
    assert partial.is_dir() and not out.exists()
    assert read_manifest(partial)["status"] == "running"
    for path in (out, partial):
        with pytest.raises(ValueError, match="unfinished run") as err:
            read_run(path)
        message = str(err.value)
        assert str(partial) in message and "--resume" in message and "`rams-sim run`" in message
        assert f"--out {out} " in message
    execute(deals_spec(), out, resume=True)
    assert read_run(out).height == DEALS_N * 4


def test_reading_imports_neither_numba_nor_the_kernels(deals_run):
    """Importing rams_sim and reading a run leaves numba and the kernels unimported."""
    path = str(deals_run)
    code = "\n".join([
        "import sys, json, rams_sim, rams_sim.runs.read",
        "from rams_sim import read_run, Rules, PolicySpec, compare",
        f"frame = read_run({path!r})",
        f"lazy = rams_sim.read_run({path!r}, lazy=True).collect()",
        "kernels = sorted(m for m in sys.modules if m.startswith('rams_sim.kernels') or m == 'rams_sim.engine')",
        "print(json.dumps([frame.height, lazy.height, 'numba' in sys.modules, kernels]))",
    ])  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    height, lazy_height, numba_loaded, kernels = json.loads(done.stdout.strip().splitlines()[-1])
    assert height == lazy_height == DEALS_N * 4
    assert not numba_loaded and kernels == []
    # the engine's functions stay reachable from the package, imported on first use
    assert callable(rams_sim.simulate) and rams_sim.play_deal.__module__ == "rams_sim.engine"
