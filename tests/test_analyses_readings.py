"""Question 9 (where the sources are silent): the readings, their paired runs and the page's verdicts.

* Every reading is a real option change its preset's game reads (rams_sim.rules.no_effect),
  and its paired run holds exactly its preset's readings, in order.
* The verdicts: a reading that changes no deal is reported as 0 by construction; the ranked
  table's intervals are simultaneous over the whole table (wider than one at a time).
* End to end (heavy: it compiles the search for four games): the page builds from tiny
  paired runs made by the runner, and its numbers equal ``rams-sim effect``'s reader.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from analyses import q9_readings as q9
from analyses.data import REGISTRY
from analyses.readings import BASELINES, READINGS, of_preset
from rams_sim.rules import Rules, no_effect
from rams_sim.runs.summary import Estimate


def test_every_reading_changes_an_option_its_game_reads():
    keys = [r.key for r in READINGS]
    assert len(keys) == len(set(keys))
    for r in READINGS:
        base = Rules.named(r.preset)
        variant = base.replace(**r.options)
        assert variant != base, r.key
        for name in r.options:
            assert name not in no_effect(base) or name not in no_effect(variant), (r.key, name)


def test_each_preset_is_one_paired_run_of_its_readings():
    for preset in BASELINES:
        for unit in ("deals", "parties"):
            for kind in q9.KINDS:
                data = REGISTRY[f"readings-{preset}-{unit}-{kind}"]
                assert data.rules == Rules.named(preset)
                assert data.variants == tuple(Rules.named(preset).replace(**r.options) for r in of_preset(preset))
                assert data.by == (("position",) if unit == "deals" else ())
    seeds = {REGISTRY[f"readings-{p}-deals-{k}"].seed for p in BASELINES for k in q9.KINDS}
    assert len(seeds) == len(BASELINES)  # the kinds of player share their deals


def row(reading: str, kind: str, changed: float, positions: list[Estimate], parties_changed: float = 0.0,
        party: Estimate | None = None) -> dict:  # fmt: skip
    zero = Estimate(0.0, 0.0, 0.0, 100)
    out = {"reading": reading, "kind": kind, "preset": "classic", "players": len(positions), "deals": 1000,
           "changed": changed, "parties": 100, "parties_changed": parties_changed, "delta": positions[0]}
    out |= {f"pos{i}": e for i, e in enumerate(positions)}
    out |= {k: party or zero for k in q9.PARTY}
    return out


def test_a_reading_that_changes_no_deal_is_zero_by_construction():
    zero = Estimate(0.0, 0.0, 0.0, 4000)
    rows = [row("overtrump", k, 0.0, [zero] * 4) for k in q9.KINDS]
    rows += [row("must-head", k, 0.1, [Estimate(0.5, 0.4, 0.6, 4000)] * 4) for k in q9.KINDS]
    zs = {k: 2.0 for k in q9.KINDS}
    overtrump = next(r for r in READINGS if r.key == "overtrump")
    assert "changes no deal and no party" in q9.sentence(overtrump, rows, zs)
    table, z = q9.ranked(rows, "basic")
    assert table["reading"][0].startswith("he must beat it") and table["reading"][1].startswith("he must overtrump")
    assert table["largest effect on the mean score delta"][1] == "0 (no deal changes)"
    assert z == pytest.approx(q9.simultaneous_z(2 * (4 + len(q9.PARTY))))


def test_the_ranked_table_tests_its_intervals_together():
    """0.5 [0.02, 0.98] excludes 0 alone; widened over the table's 14 intervals it holds 0, so no ✓."""
    rows = [row("must-head", "basic", 0.1, [Estimate(0.5, 0.02, 0.98, 4000)] * 4),
            row("overtrump", "basic", 0.1, [Estimate(0.0, -0.1, 0.1, 4000)] * 4)]
    table, z = q9.ranked(rows, "basic")
    assert z > 1.96 and "✓" not in table["largest effect on the mean score delta"][0]
    clear = [row("must-head", "basic", 0.1, [Estimate(0.5, 0.4, 0.6, 4000)] * 4)]
    assert "✓" in q9.ranked(clear, "basic")[0]["largest effect on the mean score delta"][0]


def test_a_reading_that_acts_only_later_in_a_party_says_so():
    zero = Estimate(0.0, 0.0, 0.0, 4000)
    rows = [row("zone-overshoot", k, 0.0, [zero] * 2, 0.2, Estimate(-1.4, -2.0, -0.8, 500)) for k in q9.KINDS]
    reading = next(r for r in READINGS if r.key == "zone-overshoot")
    text = q9.sentence(reading, rows, {k: 2.0 for k in q9.KINDS})
    assert "changes no deal played from the starting scores" in text and "20.0% of basic's parties" in text


@pytest.mark.heavy
def test_the_page_builds_from_tiny_paired_runs(tmp_path):
    """Every dataset of the page, tiny, through the runner; the page's numbers are effect's reader's."""
    from analyses.common import Context
    from rams_sim.runs.effect import read_result

    registry = {}
    for name in q9.DATASETS:
        data = REGISTRY[name]
        small = (40 if "pimc" in name else 2000) if "deals" in name else (3 if "pimc" in name else 200)
        registry[name] = dataclasses.replace(data, count=small)
    ctx = Context(tmp_path / "data", registry, scale=1.0)
    from analyses import common

    before, common.MIN_COUNT = common.MIN_COUNT, 1
    try:
        for name in registry:
            ctx.ensure(name)
    finally:
        common.MIN_COUNT = before
    page = q9.build(ctx, tmp_path / "out")
    text = page.render(ctx)
    assert "## The ranked table" in text and text.count("\n- **") == len(READINGS)
    names = [r.key for r in of_preset("classic")]
    result = read_result(ctx.path("readings-classic-deals-basic"), 4, names, ("position",))
    rows = {r["reading"]: r for r in q9.measure(ctx) if r["kind"] == "basic"}
    assert rows["must-head"]["changed"] == result.changed[names.index("must-head")] / result.units
    assert Path(tmp_path / "out" / "tables" / "9-readings-effects.csv").exists()
