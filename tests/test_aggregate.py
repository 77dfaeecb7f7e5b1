"""Aggregated runs (``rams-sim run --aggregate``, rams_sim/runs/aggregate.py): the in-kernel sums equal,
exactly, the same sums over the raw rows of the same deals; chunks, threads and an interrupted
run's resumption change nothing; the provenance is kept; bad keys are one-line errors."""

from __future__ import annotations

import json

import numba
import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from rams_sim import engine, read_run
from rams_sim.cli.main import app
from rams_sim.policies import seat_policies
from rams_sim.rules import Rules
from rams_sim.runs import aggregate as A
from rams_sim.runs.dataset import deal_table
from rams_sim.runs.provenance import METADATA_KEY
from rams_sim.runs.runner import DEALS, ChunkTask, RunError, RunSpec, execute

KEY_SETS = [
    ("seat",),
    ("seat", "aces", "trump_suit_held", "declaration"),
    ("position", "dealer", "trump", "n_aces", "dealt_aces"),
    ("passed", "tricks", "outcome", "seat"),
]


def _raw(rules, policies, seed, deals, dealer=None) -> pl.DataFrame:
    out = engine.simulate(rules, policies, seed=seed, deals=deals, dealer=dealer)
    codes = np.array([int(p.kind) for p in seat_policies(policies, rules.players)], np.int8)
    return deal_table(out, 0, codes)


@pytest.mark.parametrize("keys", KEY_SETS, ids=",".join)
@pytest.mark.parametrize("rules, policies", [
    (Rules.classic(), "basic"),
    (Rules.classic(players=6), ["random", "expert", "basic", "greedy", "cautious", "table"]),
    (Rules.named("negotiations", players=3), ["expert", "random", "basic"]),
    (Rules.named("zone"), ["basic", "random"]),
], ids=["classic", "classic-6p-mixed", "negotiations-3p", "zone"])  # fmt: skip
def test_aggregate_equals_the_raw_rows(rules, policies, keys):
    """Every count and sum of every cell equals the raw rows' (exact integers), over blocks of deals."""
    deals = 3 * 4096 + 17
    got = A.to_table(A.simulate_aggregate(rules, policies, keys, seed=9, deals=deals), keys, rules.players)
    want = A.from_rows(_raw(rules, policies, 9, deals), keys)
    assert got.equals(want), (got, want)
    assert got["n"].sum() == deals * rules.players


def test_blocks_do_not_change_the_sums(monkeypatch):
    """Deals simulated in blocks of 1,000 or all at once give the same accumulator."""
    keys = ("seat", "aces")
    whole = A.simulate_aggregate(Rules.classic(), "expert", keys, seed=4, deals=5000)
    monkeypatch.setattr(A, "BLOCK_DEALS", 1000)
    assert (A.simulate_aggregate(Rules.classic(), "expert", keys, seed=4, deals=5000) == whole).all()


def _spec(deals=30_000, chunk=0, keys=("seat", "n_aces"), policies=("basic",) * 4) -> RunSpec:
    return RunSpec(DEALS, Rules.classic(), tuple(policies), 11, deals, chunk, aggregate=keys)


def test_an_aggregated_run_is_its_raw_run_summed(tmp_path):
    """The run folder's aggregate.parquet equals the raw run's rows summed (read_run), chunks merged
    exactly; the parts and the merged file carry the run's provenance with its keys."""
    spec = _spec(chunk=7_000)
    execute(spec, tmp_path / "agg")
    raw = RunSpec(DEALS, spec.rules, spec.policies, spec.seed, spec.count)
    execute(raw, tmp_path / "raw")
    got = read_run(tmp_path / "agg")
    assert got.equals(A.from_rows(read_run(tmp_path / "raw"), spec.aggregate))
    meta = json.loads(pq.read_metadata(tmp_path / "agg" / "aggregate.parquet").metadata[METADATA_KEY.encode()])
    assert meta["run"]["aggregate"] == ["seat", "n_aces"] and meta["run"]["seed"] == 11
    assert meta["run"]["deals"] == 30_000 and meta["software"]["version"]
    assert len(json.loads((tmp_path / "agg" / "manifest.json").read_text())["files"]) == 5


def test_threads_and_chunks_change_nothing(tmp_path):
    """One thread or two, one chunk or five: the same merged table."""
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        execute(_spec(chunk=6_000), tmp_path / "one")
    finally:
        numba.set_num_threads(before)
    execute(_spec(), tmp_path / "two")
    assert read_run(tmp_path / "one").equals(read_run(tmp_path / "two"))


def test_an_interrupted_aggregated_run_resumes(tmp_path):
    """Interrupted after two chunks, resumed: the same table as an uninterrupted run, no chunk
    counted twice; a resumption with other keys is refused."""
    spec = _spec(chunk=5_000)
    seen = []

    def stop(task: ChunkTask) -> None:
        seen.append(task.index)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(spec, tmp_path / "run", executor_hook=stop)
    with pytest.raises(RunError, match="aggregate"):
        execute(_spec(chunk=5_000, keys=("seat",)), tmp_path / "run", resume=True)
    result = execute(spec, tmp_path / "run", resume=True)
    assert result.resumed_chunks == 2 and result.chunks_run == 4
    execute(spec, tmp_path / "whole")
    assert read_run(tmp_path / "run").equals(read_run(tmp_path / "whole"))


def test_estimates_follow_from_the_sums():
    """with_estimates: the mean and its 95% interval are the raw rows' mean and normal interval."""
    keys = ("seat",)
    raw = _raw(Rules.classic(), "basic", 2, 20_000)
    table = A.with_estimates(A.to_table(A.simulate_aggregate(Rules.classic(), "basic", keys, seed=2, deals=20_000),
                                        keys, 4))  # fmt: skip
    for row in table.iter_rows(named=True):
        x = raw.filter(pl.col("seat") == row["seat"])["delta"].to_numpy().astype(float)
        half = 1.959963984540054 * x.std(ddof=1) / np.sqrt(x.size)
        assert row["delta_mean"] == pytest.approx(x.mean(), rel=1e-12)
        assert row["delta_hi"] - row["delta_mean"] == pytest.approx(half, rel=1e-9)


@pytest.mark.parametrize("args, message", [
    (["--aggregate", "seat,colour"], "unknown aggregation key 'colour'"),
    (["--aggregate", "seat,seat"], "given twice"),
    (["--aggregate", ""], "at least one key"),
    (["--aggregate", "seat", "--log-plays"], "without --log-plays"),
    (["--aggregate", "seat,position,dealer,aces,dealt_aces,trump_suit_held,declaration,tricks,outcome"], "combinations"),
])  # fmt: skip
def test_bad_keys_are_one_line_errors(tmp_path, args, message):
    result = CliRunner().invoke(app, ["run", "--deals", "1000", "--out", str(tmp_path / "x"), *args])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output, result.output


def test_cli_aggregated_run(tmp_path):
    """`rams-sim run --aggregate seat,aces` writes aggregate.parquet and prints the mean delta by seat."""
    result = CliRunner().invoke(app, ["run", "--deals", "20000", "--aggregate", "seat,aces", "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    assert "combinations of seat, aces" in result.output and "seat 3:" in result.output
    table = pl.read_parquet(tmp_path / "a" / "aggregate.parquet")
    assert table.columns[:2] == ["seat", "aces"] and table["n"].sum() == 80_000
