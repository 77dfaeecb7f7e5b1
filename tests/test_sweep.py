"""Rule sweeps (rams_sim/runs/sweep.py, ``rams-sim sweep``): bad grids refused before any work, the cells
equal the same runs made alone, an interrupted sweep resumes, and a dask.distributed LocalCluster of
two worker processes writes the same rows, also when a worker is killed mid-sweep (slow marker). The cluster's
checks (workers on other code refused, one numba thread a task) are tests/test_cluster.py's."""

from __future__ import annotations

import os
import signal

import polars as pl
import pytest
from typer.testing import CliRunner

from rams_sim import engine
from rams_sim.cli.main import app
from rams_sim.runs import aggregate as A
from rams_sim.runs.sweep import CELLS_FILE, PARTS, SUMMARY_FILE, GridError, load_grid, parse_grid, sweep

GRID = {
    "name": "test", "deals": 6_000, "seed": 5, "aggregate": ["seat", "n_aces"], "chunk": 2_500,
    "grid": {"preset": ["classic"], "players": [4, 5], "policy": ["basic", "expert"],
             "rules": {"must_head": [False, True]}},
}  # fmt: skip


def _grid(**changes) -> dict:
    data = {**GRID, "grid": {**GRID["grid"], "rules": dict(GRID["grid"]["rules"])}}
    for key, value in changes.items():
        if key.startswith("grid."):
            data["grid"][key[5:]] = value
        else:
            data[key] = value
    return data


@pytest.mark.parametrize("changes, message", [
    ({"grid.rules": {"bogus": [1]}}, "unknown rule option 'bogus'"),
    ({"grid.rules": {"must_head": ["yes"]}}, "must_head takes true or false; got 'yes'"),
    ({"grid.rules": {"ruff": [3]}}, "ruff takes one of"),
    ({"grid.players": []}, "grid.players is an empty list"),
    ({"grid.players": [7], "grid.rules": {"deck": ["32"]}}, ("cell 0 (classic, players 7, policy basic, deck=32): 7 players "
                                                             "need at least 36 cards")),
    ({"grid.preset": ["zone"], "grid.players": [2], "grid.policy": ["table"]}, "plays the zone game"),
    ({"grid.preset": ["nonesuch"]}, "unknown preset 'nonesuch'"),
    ({"parties": 10}, "either deals = N"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"aggregate": ["seat", "colour"]}, "unknown aggregation key 'colour'"),
    ({"deals": 0}, "deals must be a positive whole number"),
    ({"grid.policy": [["expert", "basic", "basic", "basic"]]}, ("cell 2 (classic, players 5, policy expert/basic/basic/basic, "
                                                               "must_head=False): 4 policies given for 5 seats")),
])  # fmt: skip
def test_bad_grids_are_refused_before_any_work(changes, message):
    with pytest.raises(GridError) as err:
        parse_grid(_grid(**changes))
    assert message in str(err.value)


def test_cells_are_the_product_in_order():
    """2 table sizes x 2 policies x 2 values = 8 cells, the last list varying fastest; 3 tasks a cell."""
    grid = parse_grid(GRID)
    assert len(grid.cells) == 8 and len(grid.tasks()) == 24
    assert [c.label() for c in grid.cells[:3]] == ["classic, 4 players, basic, must_head=False",
                                                   "classic, 4 players, basic, must_head=True",
                                                   "classic, 4 players, expert, must_head=False"]  # fmt: skip
    assert grid.cells[4].spec.rules.players == 5 and grid.cells[5].spec.rules.must_head


def _alone(cell) -> pl.DataFrame:
    """The cell's run made alone, in one piece: its aggregated table."""
    spec = cell.spec
    acc = A.simulate_aggregate(spec.rules, list(spec.policies), spec.aggregate, seed=spec.seed, deals=spec.count)
    return A.to_table(acc, spec.aggregate, spec.rules.players)


def _small() -> dict:
    return _grid(**{"grid.players": [4], "grid.policy": ["basic", ["expert", "basic", "random", "table"]]})


def test_a_local_sweep_equals_each_cell_run_alone(tmp_path):
    """Every cell of cells.parquet equals its own run (same seed, same deals), counts exact; a summary
    row per cell and seat with its interval."""
    grid = parse_grid(_small())
    summary = sweep(grid, tmp_path / "s", workers=2)
    cells = pl.read_parquet(tmp_path / "s" / CELLS_FILE)
    for cell in grid.cells:
        got = cells.filter(pl.col("cell") == cell.index).drop("cell")
        assert got.equals(_alone(cell)), cell.label()
    assert summary.height == len(grid.cells) * 4 and (summary["delta_lo"] < summary["delta_mean"]).all()
    assert pl.read_parquet(tmp_path / "s" / SUMMARY_FILE).equals(summary)


def test_an_interrupted_sweep_resumes(tmp_path):
    """Interrupted after three tasks, then --resume: the same cells as an uninterrupted sweep; the
    folder refuses a second sweep without --resume or --force, and a different grid with --resume."""
    grid = parse_grid(_small())
    seen = []

    def stop(done, total):
        seen.append(done)
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep(grid, tmp_path / "s", progress=stop, workers=1)
    assert len(list((tmp_path / "s" / PARTS).glob("*.parquet"))) == 3
    with pytest.raises(GridError, match="--resume"):
        sweep(grid, tmp_path / "s", workers=1)
    with pytest.raises(GridError, match="different sweep"):
        sweep(parse_grid(_grid(seed=6)), tmp_path / "s", resume=True, workers=1)
    sweep(grid, tmp_path / "s", resume=True, workers=2)
    sweep(grid, tmp_path / "whole", workers=2)
    assert pl.read_parquet(tmp_path / "s" / CELLS_FILE).equals(pl.read_parquet(tmp_path / "whole" / CELLS_FILE))


def test_a_parties_sweep_sums_the_parties(tmp_path):
    """parties = N: per cell and seat, parties, wins and the party length, equal to the parties run alone."""
    data = {"deals": None, "parties": 300, "seed": 2, "chunk": 120, "grid": {"policy": ["basic"], "rules": {"start": [30, 50]}}}
    data = {k: v for k, v in data.items() if v is not None}
    grid = parse_grid(data)
    summary = sweep(grid, tmp_path / "p", workers=2)
    for cell in grid.cells:
        out = engine.simulate_parties(cell.spec.rules, "basic", seed=2, parties=300)
        rows = summary.filter(pl.col("cell") == cell.index).sort("seat")
        assert rows["length_mean"][0] == pytest.approx(out.deals.mean())
        assert rows["n"].to_list() == [300] * 4


def test_cli_sweep_and_its_errors(tmp_path):
    """The example grid's form from the command line; a bad grid is one line, exit 2."""
    good = tmp_path / "g.toml"
    good.write_text('deals = 4000\nseed = 1\nchunk = 2000\n[grid]\nplayers = [3]\n[grid.rules]\nruff = ["any-trump", "overtrump"]\n')
    result = CliRunner().invoke(app, ["sweep", str(good), "--out", str(tmp_path / "out"), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "2 cells" in result.output and "cell 1 seat 2:" in result.output
    bad = tmp_path / "b.toml"
    bad.write_text('deals = 4000\n[grid]\n[grid.rules]\nmust_head = ["yes"]\n')
    for args in (["sweep", str(bad), "--out", str(tmp_path / "x")], ["sweep", str(tmp_path / "none.toml"), "--out", "y"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output


def test_the_example_grids_are_valid():
    """Every grid under examples/ parses (the one-minute example is run by test_examples_run, slow)."""
    from pathlib import Path

    examples = sorted((Path(__file__).parent.parent / "examples").glob("*.toml"))
    assert examples
    for path in examples:
        assert load_grid(path).cells


# ---- a dask.distributed cluster ------------------------------------------------------------
def test_a_scheduler_without_dask_distributed_says_how_to_install_it(tmp_path, monkeypatch):
    """--scheduler where dask.distributed is missing: one line naming the checkout's install, nothing written."""
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(GridError, match=r"make cluster-install \(pip install -e '\.\[cluster\]'\)"):
        sweep(parse_grid(_small()), tmp_path / "s", scheduler="tcp://127.0.0.1:1")
    assert not (tmp_path / "s").exists()


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c


@pytest.mark.slow
def test_a_cluster_sweep_writes_the_local_rows(cluster, tmp_path):
    """The same grid on a LocalCluster of two worker processes and on local processes: the same cells."""
    grid = parse_grid(_small())
    sweep(grid, tmp_path / "c", scheduler=cluster.scheduler_address)
    sweep(grid, tmp_path / "l", workers=2)
    assert pl.read_parquet(tmp_path / "c" / CELLS_FILE).equals(pl.read_parquet(tmp_path / "l" / CELLS_FILE))


@pytest.mark.slow
def test_a_worker_killed_mid_sweep_loses_and_doubles_nothing(cluster, tmp_path):
    """A worker process killed (SIGKILL) after the third task: the scheduler runs its tasks again on
    the other worker or the restarted one; every task is written once and the cells equal a local run."""
    from distributed import Client

    data = _grid(**{"grid.players": [4], "grid.policy": ["basic", "expert"], "deals": 40_000, "chunk": 4_000})
    grid = parse_grid(data)  # 4 cells x 10 tasks
    with Client(cluster.scheduler_address) as client:
        pids = client.run(os.getpid)
    killed = []

    def kill_one(done, total):
        if done == 3 and not killed:
            pid = next(iter(pids.values()))
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    sweep(grid, tmp_path / "c", scheduler=cluster.scheduler_address, progress=kill_one)
    assert killed
    with Client(cluster.scheduler_address) as client:
        client.wait_for_workers(2, timeout=60)
        assert killed[0] not in client.run(os.getpid).values()  # the nanny started a new process
    assert len(list((tmp_path / "c" / PARTS).glob("*.parquet"))) == len(grid.tasks())
    sweep(grid, tmp_path / "l", workers=2)
    assert pl.read_parquet(tmp_path / "c" / CELLS_FILE).equals(pl.read_parquet(tmp_path / "l" / CELLS_FILE))


@pytest.mark.slow
def test_the_one_minute_example_runs(tmp_path):
    """examples/no-pass-with-ace.toml, the README's example, end to end on local processes."""
    from pathlib import Path

    grid = load_grid(Path(__file__).parent.parent / "examples" / "no-pass-with-ace.toml")
    summary = sweep(grid, tmp_path / "e")
    assert summary["cell"].n_unique() == len(grid.cells) == 6


# ---- a baseline: the cells paired with it (issue "Rule questions answered paired") ------------------
def _paired_grid() -> dict:
    return {"name": "paired", "deals": 4_000, "seed": 9, "aggregate": ["position", "n_aces"], "chunk": 1_500,
            "baseline": {"rules": {"ace_forbids_pass": True}},
            "grid": {"preset": ["classic"], "players": [3, 4], "policy": ["basic"],
                     "rules": {"ace_forbids_pass": [True, False]}}}  # fmt: skip


def test_a_baseline_pairs_each_cell_on_the_same_deals(tmp_path):
    """Each cell without R4.1 is paired with the cell of its table size that has it: its diff equals,
    exactly, the difference of the two cells' means (the same deals), with an interval tighter than
    the one the two cells' own intervals give the difference; the baseline cells have none; the paired sums equal rams_sim.runs.effect's."""
    from rams_sim.runs.effect import estimates, simulate_paired
    from rams_sim.runs.sweep import PAIRED_FILE

    grid = parse_grid(_paired_grid())
    assert [c.paired is not None for c in grid.cells] == [False, True, False, True]
    summary = sweep(grid, tmp_path / "s", workers=2)
    assert (tmp_path / "s" / PAIRED_FILE).exists()
    for base, cell in ((0, 1), (2, 3)):
        a = summary.filter(pl.col("cell") == base).sort("position")
        b = summary.filter(pl.col("cell") == cell).sort("position")
        assert a["delta_diff"].is_null().all()
        assert b["delta_diff"].to_list() == pytest.approx((b["delta_mean"] - a["delta_mean"]).to_list(), abs=1e-9)
        unpaired = ((b["delta_hi"] - b["delta_lo"]) ** 2 + (a["delta_hi"] - a["delta_lo"]) ** 2).sqrt()
        assert ((b["delta_diff_hi"] - b["delta_diff_lo"]) < unpaired).all()  # the same deals: correlated arms
        spec = grid.cells[cell].paired
        want = estimates(simulate_paired(spec.rules, list(spec.variants), list(spec.policies), ("position",), seed=9,
                                         deals=4_000), ("position",), spec.rules.players, ["x"])  # fmt: skip
        assert b["delta_diff_lo"].to_list() == pytest.approx(
            want.filter(pl.col("measure") == "delta").sort("position")["ci_low"].to_list(), abs=1e-12)


@pytest.mark.parametrize("baseline, message", [
    ({"colour": 1}, "unknown key baseline.colour"),
    ({"rules": {"bogus": True}}, "unknown rule option 'bogus'"),
    ({"players": 6}, "no cell differs from the baseline"),
    ("R4.1", "baseline is a table"),
])  # fmt: skip
def test_bad_baselines_are_refused(baseline, message):
    with pytest.raises(GridError, match=message.replace("(", r"\(")):
        parse_grid({**_paired_grid(), "baseline": baseline})
