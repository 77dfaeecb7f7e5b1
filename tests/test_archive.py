"""The committed datasets of searching players (``archive/``, :mod:`analyses.archive`) are what the current
engine makes: each manifest describes the registry's run, and the first units of every archived run of deals,
branches or parties come out row for row the same when replayed now (a run is a pure function of its spec and
the unit's index). Paired runs (``rams-sim effect``) store per-chunk sums, so only their manifests are checked.
"""

from __future__ import annotations

import json

import polars as pl
import pytest

from analyses.archive import archived_names
from analyses.common import ARCHIVE
from analyses.data import REGISTRY
from rams_sim.runs.runner import BRANCHES, DEALS, PARTIES, ChunkTask, check_target, run_chunk

UNITS = {DEALS: 12, BRANCHES: 2, PARTIES: 1}  # units replayed per archived run (a searching seat is slow)
UNIT_COLUMN = {DEALS: "deal", BRANCHES: "deal", PARTIES: "party"}


def test_every_searching_dataset_is_archived():
    assert archived_names(), "the registry has no dataset with a searching seat"
    for name in archived_names():
        assert (ARCHIVE / name / "manifest.json").is_file(), f"{name} is not under archive/ (make archive)"


@pytest.mark.parametrize("name", archived_names())
def test_archived_manifest_is_the_registry_run(name):
    spec = REGISTRY[name].spec(1.0)
    assert check_target(spec, ARCHIVE / name, force=False, resume=True) == "complete"
    manifest = json.loads((ARCHIVE / name / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert all((ARCHIVE / name / f).is_file() for f in manifest["files"])


@pytest.mark.heavy
@pytest.mark.parametrize("name", [n for n in archived_names() if not REGISTRY[n].spec(1.0).paired])
def test_archived_rows_replay(name):
    spec = REGISTRY[name].spec(1.0)
    units = UNITS[spec.kind]
    now = run_chunk(spec, ChunkTask(0, 0, units))
    column = UNIT_COLUMN[spec.kind]
    kept = pl.read_parquet(ARCHIVE / name / "part-000000.parquet").filter(pl.col(column) < units)
    assert now.height == kept.height > 0
    assert now.equals(kept.select(now.columns)), f"{name}: the engine no longer makes the archived rows"
