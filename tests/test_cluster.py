"""The cluster path (issue 38): a version from git that changes with the code, a sweep that refuses dask
workers running other code than the client's before any task runs, and cluster tasks on one numba thread.

The cluster tests start one dask.distributed LocalCluster of two single-threaded worker processes for the
module and make a worker look different by patching, on that worker alone, what rams_sim reports."""

from __future__ import annotations

import re
import subprocess
from importlib import metadata
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import rams_sim
from rams_sim.cli.main import app
from rams_sim.runs import provenance
from rams_sim.runs.sweep import CELLS_FILE, PARTS, GridError, parse_grid, sweep

ROOT = Path(__file__).resolve().parent.parent
IN_GIT = (ROOT / ".git").exists()
# setuptools-scm's versions: 0.1.devN+g<commit>[.dYYYYMMDD] in a checkout; 0.0 (the fallback) without git
SCM_VERSION = re.compile(r"^\d+(\.\d+)*(\.dev\d+)?(\+g[0-9a-f]{7,40}(\.d\d{8})?)?$")

GRID = {"name": "cluster", "deals": 1_200, "seed": 3, "aggregate": ["seat"], "chunk": 600,
        "grid": {"players": [4], "policy": ["basic"], "rules": {"must_head": [False, True]}}}  # fmt: skip


# ---- the version ---------------------------------------------------------------------------
def test_the_version_comes_from_setuptools_scm():
    """__version__ is the installed distribution's, in setuptools-scm's form, no longer the fixed 0.1.0."""
    assert rams_sim.__version__ == metadata.version("rams-sim")
    assert SCM_VERSION.match(rams_sim.__version__), rams_sim.__version__
    assert rams_sim.__version__ != "0.1.0"
    out = CliRunner().invoke(app, ["--version"])
    assert out.exit_code == 0 and out.output.strip() == f"rams-sim {rams_sim.__version__}"


@pytest.mark.skipif(not IN_GIT, reason="a source tree without git metadata")
def test_the_version_file_is_generated_and_the_commit_read_from_the_checkout():
    """rams_sim/_version.py is written at install time: ignored by git, tracked nowhere; the provenance's
    commit is the checkout's HEAD (with -dirty for local changes under rams_sim/)."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()

    assert git("ls-files", "rams_sim/_version.py") == ""
    assert git("check-ignore", "rams_sim/_version.py") == "rams_sim/_version.py"
    assert provenance.git_commit().removesuffix("-dirty") == git("rev-parse", "HEAD")
    assert provenance.code_identity() == {"version": rams_sim.__version__, "commit": provenance.git_commit()}


@pytest.mark.parametrize("mine, theirs, same", [
    # commits where known (an editable install's version is written at install time and may lag its checkout)
    (("0.1.dev4+gabc1234", "abc1234" + "0" * 33), ("0.1.dev9+g1111111", "abc1234" + "0" * 33), True),
    (("0.1.dev4+gabc1234", "abc1234" + "0" * 33), ("0.1.dev4+gabc1234", "fed4321" + "0" * 33), False),
    # a side outside git: the commit its version carries (short hash against the full one)
    (("0.1.dev4+gabc1234", "unknown"), ("0.1.dev5+g9999999", "abc1234" + "0" * 33), True),
    (("0.1.dev4+gabc1235", "unknown"), ("0.1.dev4+g9999999", "abc1234" + "0" * 33), False),
    # local changes on one side only
    (("0.1.dev4+gabc1234.d20261205", "unknown"), ("0.1.dev4+gabc1234", "unknown"), False),
    (("x", "abc1234" + "0" * 33 + "-dirty"), ("0.1.dev4+gabc1234.d20261205", "unknown"), True),
    # no commit on either side: the version text
    (("0.0", "unknown"), ("0.0", "unknown"), True),
    (("0.0", "unknown"), ("0.1.dev4+gabc1234", "unknown"), False),
])  # fmt: skip
def test_same_code_compares_commits_then_versions(mine, theirs, same):
    """Two processes run the same code when their commits agree (from the checkout, else from the version)."""
    a, b = ({"version": v, "commit": c} for v, c in (mine, theirs))
    assert provenance.same_code(a, b) is same and provenance.same_code(b, a) is same


# ---- a LocalCluster ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, \
            distributed.Client(c) as client:  # fmt: skip
        yield c, client


def _pretend(version: str | None, commit: str = "unknown", fail: bool = False):
    """A function for Client.run: this worker's rams_sim reports ``version`` and ``commit`` (None: its own
    again); ``fail``: it cannot report (as a worker without rams_sim)."""

    def patch():
        from rams_sim.runs import provenance as p

        if not hasattr(p, "_real"):
            p._real = (p.__version__, p.git_commit)
        if version is None:
            p.__version__, p.git_commit = p._real
        elif fail:
            def broken():
                raise ModuleNotFoundError("No module named 'rams_sim'")

            p.git_commit = broken
        else:
            p.__version__, p.git_commit = version, lambda: commit

    return patch


def test_a_worker_running_other_code_is_refused_before_any_task(cluster, tmp_path):
    """One worker reporting another version: the sweep stops before writing anything or sending a task,
    naming that worker and both versions in one line; the CLI prints it and exits 2. A worker that cannot
    report is named too. Restored, the same sweep runs."""
    local, client = cluster
    first, second = sorted(client.nthreads())
    try:
        client.run(_pretend("0.1.dev1+gdeadbee"), workers=[first])
        with pytest.raises(GridError) as err:
            sweep(parse_grid(GRID), tmp_path / "s", scheduler=local.scheduler_address)
        message = str(err.value)
        assert "\n" not in message and first in message and second not in message
        assert "1 of 2 dask workers" in message and "rams-sim 0.1.dev1+gdeadbee (commit unknown)" in message
        assert f"rams-sim {rams_sim.__version__}" in message
        assert not (tmp_path / "s").exists()
        assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0

        grid_file = tmp_path / "g.toml"
        grid_file.write_text('deals = 1200\nchunk = 600\n[grid]\nplayers = [4]\n')
        result = CliRunner().invoke(app, ["sweep", str(grid_file), "--out", str(tmp_path / "c"),
                                          "--scheduler", local.scheduler_address])  # fmt: skip
        assert result.exit_code == 2, result.output
        error = [line for line in result.output.splitlines() if line.startswith("error:")]
        assert len(error) == 1 and first in error[0] and "0.1.dev1+gdeadbee" in error[0], result.output
        assert "Traceback" not in result.output

        client.run(_pretend("x", fail=True), workers=[second])
        with pytest.raises(GridError, match=r"2 of 2 dask workers .*cannot run rams_sim \(ModuleNotFoundError"):
            sweep(parse_grid(GRID), tmp_path / "s", scheduler=local.scheduler_address)
    finally:
        client.run(_pretend(None))
    sweep(parse_grid(GRID), tmp_path / "s", scheduler=local.scheduler_address)
    assert len(list((tmp_path / "s" / PARTS).glob("*.parquet"))) == 4


def _record_threads():
    """A function for Client.run: this worker's sweep tasks record numba's thread count as they run."""
    from rams_sim.runs import sweep as s

    if not hasattr(s, "_real_run_task"):
        s._real_run_task = s.run_task
    s._threads_seen = []

    def recording(spec, task):
        import numba

        s._threads_seen.append(numba.get_num_threads())
        return s._real_run_task(spec, task)

    s.run_task = recording


def _seen_and_restore():
    from rams_sim.runs import sweep as s

    seen = s._threads_seen
    s.run_task = s._real_run_task
    return seen


def test_cluster_tasks_run_numba_on_one_thread_and_write_the_local_rows(cluster, tmp_path):
    """On workers of one thread each, every sweep task runs with numba's thread count 1 (the workers' own
    thread's count is numba's default, all cores, before and after); the cells equal a local sweep's."""
    import numba

    local, client = cluster

    def task_threads() -> set[int]:  # numba's count in each worker's task thread (one a worker)
        return {client.submit(numba.get_num_threads, workers=[w], pure=False).result() for w in client.nthreads()}

    assert task_threads() == {numba.config.NUMBA_NUM_THREADS}
    client.run(_record_threads)
    try:
        sweep(parse_grid(GRID), tmp_path / "c", scheduler=local.scheduler_address)
    finally:
        seen = client.run(_seen_and_restore)
    assert sorted(n for threads in seen.values() for n in threads) == [1, 1, 1, 1]
    assert task_threads() == {numba.config.NUMBA_NUM_THREADS}  # restored after each task
    sweep(parse_grid(GRID), tmp_path / "l", workers=2)
    assert pl.read_parquet(tmp_path / "c" / CELLS_FILE).equals(pl.read_parquet(tmp_path / "l" / CELLS_FILE))


def test_a_scheduler_without_workers_is_refused(tmp_path, monkeypatch):
    """No worker joins within the wait: one line, nothing written (no worker could be checked)."""
    distributed = pytest.importorskip("distributed")
    from rams_sim.runs import sweep as s

    monkeypatch.setattr(s, "WAIT_FOR_WORKERS", 0.5)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty, \
            pytest.raises(GridError, match="no dask worker joined the scheduler in 0.5 s"):  # fmt: skip
        sweep(parse_grid(GRID), tmp_path / "s", scheduler=empty.scheduler_address)
    assert not (tmp_path / "s").exists()
