"""The deal-clustered estimates (analyses/clustered.py) on small hand-made tables with known answers."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from analyses import clustered as K
from analyses.common import mean_estimate
from rams_sim.runs.summary import Z95, wilson, wilson_bounds


# ---- class tables ------------------------------------------------------------------------
def _one_row_per_deal() -> pl.DataFrame:
    rng = np.random.default_rng(7)
    n = 400
    cls = np.repeat([0, 1], n // 2)
    y = rng.normal(0, 1, n) + np.where(cls == 1, 3.0, 0.0)
    return pl.DataFrame({"deal": np.arange(n), "cell": np.zeros(n, np.int8), "cls": cls.astype(np.int8), "y": y})


def test_class_table_with_one_row_per_deal_is_the_ordinary_two_sample_estimate():
    """When no deal holds two rows, the clustered errors equal s/√n and the difference's the two-sample error."""
    df = _one_row_per_deal()
    out = K.class_table(df, ["cell"], ["cls"], ["y"], {"cls": 0})
    base, other = (df.filter(pl.col("cls") == c)["y"].to_numpy() for c in (0, 1))
    row0, row1 = out.row(0, named=True), out.row(1, named=True)
    assert row1["n"] == other.size and row1["clusters"] == other.size
    assert row1["y_mean"] == pytest.approx(other.mean())
    assert row1["y_se"] == pytest.approx(other.std(ddof=1) / math.sqrt(other.size))
    assert row1["y_diff"] == pytest.approx(other.mean() - base.mean())
    two_sample = math.sqrt(base.var(ddof=1) / base.size + other.var(ddof=1) / other.size)
    assert row1["y_dse"] == pytest.approx(two_sample, rel=0.01)
    assert row0["y_diff"] == 0 and row0["y_dse"] is None
    indep = K.class_table(df, ["cell"], ["cls"], ["y"], {"cls": 0}, cluster=None)
    assert indep["y_se"].to_list() == pytest.approx(out["y_se"].to_list())
    assert indep["y_dse"][1] == pytest.approx(two_sample)


def test_class_table_clusters_rows_of_one_deal():
    """Two identical baseline rows per deal carry the information of one: the error is that of the deal means."""
    rng = np.random.default_rng(3)
    deals = 300
    y = rng.normal(0, 2, deals)
    df = pl.DataFrame({"deal": np.repeat(np.arange(deals), 2), "cell": np.zeros(2 * deals, np.int8),
                       "cls": np.zeros(2 * deals, np.int8), "y": np.repeat(y, 2)})  # fmt: skip
    row = K.class_table(df, ["cell"], ["cls"], ["y"], {"cls": 0}).row(0, named=True)
    assert row["n"] == 2 * deals and row["clusters"] == deals
    assert row["y_se"] == pytest.approx(y.std(ddof=1) / math.sqrt(deals))  # not y.std / sqrt(2 · deals)


def test_a_difference_within_each_deal_has_no_error():
    """A class that gains exactly c more than the baseline in every deal differs by c with a zero interval."""
    rng = np.random.default_rng(5)
    deals, c = 200, 4.0
    y0 = rng.normal(0, 3, deals)
    df = pl.DataFrame({"deal": np.repeat(np.arange(deals), 2), "cell": np.zeros(2 * deals, np.int8),
                       "cls": np.tile(np.array([0, 1], np.int8), deals),
                       "y": np.column_stack([y0, y0 + c]).ravel()})  # fmt: skip
    row = K.class_table(df, ["cell"], ["cls"], ["y"], {"cls": 0}).row(1, named=True)
    assert row["y_diff"] == pytest.approx(c)
    assert row["y_dse"] == pytest.approx(0.0, abs=1e-9)
    assert row["y_se"] > 0.1  # the class mean alone is uncertain


def test_class_table_cells_compare_only_within_the_cell():
    """Each cell's difference is taken from its own baseline (cells with different levels)."""
    df = pl.DataFrame({"deal": np.arange(8), "cell": [0, 0, 0, 0, 1, 1, 1, 1], "cls": [0, 0, 1, 1] * 2,
                       "y": [1.0, 3.0, 5.0, 7.0, 10.0, 12.0, 20.0, 22.0]})  # fmt: skip
    out = K.class_table(df, ["cell"], ["cls"], ["y"], {"cls": 0})
    assert out.filter(pl.col("cls") == 1)["y_diff"].to_list() == [4.0, 10.0]


def test_class_table_keys_two_class_columns_with_negative_codes():
    """Classes (ace, kind) with ace −1 come back as written, each with its own mean and its gap to the baseline."""
    df = pl.DataFrame({
        "deal": [0, 0, 1, 1, 2, 2, 3, 3],
        "players": pl.Series([4] * 8, dtype=pl.Int8),
        "ace": pl.Series([-1, 3, -1, 3, -1, 4, -1, 3], dtype=pl.Int8),
        "kind": pl.Series([0, 2, 0, 1, 0, 0, 0, 2], dtype=pl.Int8),
        "y": [1.0, 21.0, 3.0, 9.0, 2.0, 30.0, 2.0, 23.0],
    })  # fmt: skip
    out = K.class_table(df, ["players"], ["ace", "kind"], ["y"], {"ace": -1, "kind": 0})
    assert out.select("ace", "kind").rows() == [(-1, 0), (3, 1), (3, 2), (4, 0)]
    assert out["n"].to_list() == [4, 1, 2, 1]
    assert out["y_mean"].to_list() == pytest.approx([2.0, 9.0, 22.0, 30.0])
    assert out["y_diff"].to_list() == pytest.approx([0.0, 7.0, 20.0, 28.0])

def test_clustered_means_is_class_table_with_one_class():
    """Per cell, the clustered mean and error are those of class_table with every row in one class."""
    df = pl.DataFrame({"deal": [0, 0, 1, 1, 2, 2, 3], "cell": [0, 0, 0, 0, 1, 1, 1],
                       "y": [1.0, 3.0, 2.0, 2.0, 5.0, 7.0, 9.0]})  # fmt: skip
    out = K.clustered_means(df, ["cell"], ["y"])
    assert out.columns == ["cell", "n", "clusters", "y_mean", "y_se"]
    assert out["n"].to_list() == [4, 3] and out["clusters"].to_list() == [2, 2]
    assert out["y_mean"].to_list() == pytest.approx([2.0, 7.0])
    one = K.class_table(df.with_columns(pl.lit(0).alias("c")), ["cell"], ["c"], ["y"], {"c": 0})
    assert out["y_se"].to_list() == pytest.approx(one["y_se"].to_list())
    # cell 1: deal sums of residuals (5 − 7 + 7 − 7)/3 and (9 − 7)/3; two clusters: factor 2
    assert out["y_se"][1] == pytest.approx(math.sqrt(2 * ((-2 / 3) ** 2 + (2 / 3) ** 2)))


def test_class_mean_and_class_diff_read_a_row():
    """A row's mean has the normal interval of its error, a share the clustered Wilson one, a difference its own."""
    row = {"n": 400, "y_mean": 2.0, "y_se": 0.5, "y_diff": 1.0, "y_dse": 0.25, "f_mean": 0.1, "f_se": 0.015}
    mean = K.class_mean(row, "y")
    assert (mean.value, mean.n) == (2.0, 400) and mean.half_width == pytest.approx(Z95 * 0.5)
    diff = K.class_diff(row, "y")
    assert diff.value == 1.0 and diff.half_width == pytest.approx(Z95 * 0.25)
    assert K.class_mean(row, "f", share=True) == K.clustered_wilson(0.1, 0.015, 400)
    assert math.isnan(K.class_diff(row | {"y_dse": None}, "y").low)  # the baseline's own row has no difference


# ---- one group or a contrast over per-cluster sums ----------------------------------------
def test_cluster_contrast_one_row_per_cluster_is_the_plain_mean():
    """With one row per cluster, the clustered mean equals the ordinary mean and interval."""
    x = np.array([1.0, 4.0, 2.0, 8.0, 5.0])
    got = K.cluster_contrast(x, np.ones(5))
    want = mean_estimate(x)
    assert got.value == pytest.approx(want.value)
    assert got.low == pytest.approx(want.low) and got.high == pytest.approx(want.high)


def test_cluster_contrast_difference_of_ratio_means():
    """The contrast is Σsa/Σna − Σsb/Σnb; clusters with identical rows give a zero-width interval."""
    got = K.cluster_contrast([10, 0, 6], [2, 0, 2], [1, 2, 0], [1, 2, 0])
    assert got.value == pytest.approx(16 / 4 - 3 / 3)
    same = K.cluster_contrast([4, 8], [1, 2], [2, 2], [2, 2])  # a: 4 per row, b: 1 per row everywhere
    assert same.value == pytest.approx(3.0) and same.half_width == pytest.approx(0.0)


def test_cluster_contrast_widens_for_correlated_rows():
    """Rows equal within a cluster carry less information than independent rows: a wider interval."""
    rng = np.random.default_rng(1)
    per_cluster = rng.normal(size=200)
    clustered = K.cluster_contrast(4 * per_cluster, np.full(200, 4))
    independent = mean_estimate(np.repeat(per_cluster, 4))
    assert clustered.half_width > 1.5 * independent.half_width


def test_cluster_contrast_is_the_class_table_difference():
    """Summed per deal, two classes give class_table's difference and error (deals holding neither do not count)."""
    rng = np.random.default_rng(11)
    deals = 300
    df = pl.DataFrame({"deal": np.repeat(np.arange(deals), 3), "cell": np.zeros(3 * deals, np.int8),
                       "cls": rng.integers(0, 3, 3 * deals).astype(np.int8),
                       "y": rng.normal(0, 2, 3 * deals)})  # fmt: skip
    row = K.class_table(df, ["cell"], ["cls"], ["y"], {"cls": 0}).filter(pl.col("cls") == 1).row(0, named=True)
    sums = [pl.col("y").filter(pl.col("cls") == c).sum().alias(f"s{c}") for c in (0, 1)]
    counts = [(pl.col("cls") == c).sum().alias(f"n{c}") for c in (0, 1)]
    per_deal = df.group_by("deal").agg(*sums, *counts).sort("deal")
    got = K.cluster_contrast(per_deal["s1"], per_deal["n1"], per_deal["s0"], per_deal["n0"])
    assert got.value == pytest.approx(row["y_diff"])
    assert got.half_width == pytest.approx(Z95 * row["y_dse"])
    assert got.n == int((df["cls"] <= 1).sum())
    alone = K.cluster_contrast(per_deal["s1"], per_deal["n1"])
    assert alone.value == pytest.approx(row["y_mean"]) and alone.half_width == pytest.approx(Z95 * row["y_se"])


# ---- shares --------------------------------------------------------------------------------
def test_clustered_wilson_widens_by_the_design_effect_only():
    """At the binomial error the interval is Wilson's; at four times the variance it is Wilson's at n/4."""
    k, n = 40, 400
    p = k / n
    binomial = math.sqrt(p * (1 - p) / n)
    same = K.clustered_wilson(p, binomial, n)
    assert (same.low, same.high) == pytest.approx((wilson(k, n).low, wilson(k, n).high))
    wide = K.clustered_wilson(p, 2 * binomial, n)
    assert (wide.low, wide.high) == pytest.approx((wilson(k // 4, n // 4).low, wilson(k // 4, n // 4).high))
    narrow = K.clustered_wilson(p, binomial / 2, n)  # never narrower than independent hands
    assert (narrow.low, narrow.high) == pytest.approx((same.low, same.high))


def test_design_effect_is_one_at_the_binomial_error():
    """The design effect compares the clustered variance with the binomial one; it is undefined at 0 and 1."""
    p, n = 0.2, 100
    binomial = math.sqrt(p * (1 - p) / n)
    assert K.design_effect(p, binomial, n) == pytest.approx(1.0)
    assert K.design_effect(p, 3 * binomial, n) == pytest.approx(9.0)
    assert math.isnan(K.design_effect(0.0, 0.0, n)) and math.isnan(K.design_effect(p, None, n))


def test_effective_wilson_shrinks_n_by_the_design_effect_but_never_grows_it():
    """Design effect 4 gives Wilson's interval at n/4; below 1 or unknown (nan), the interval of n independent rows."""
    p, n = np.array([0.25, 0.25, 0.25]), np.array([400, 400, 400])
    low, high = K.effective_wilson(p, n, np.array([4.0, 0.5, np.nan]))
    quarter, full = wilson(25, 100), wilson_bounds(np.array([100.0]), np.array([400.0]))
    assert (low[0], high[0]) == pytest.approx((quarter.low, quarter.high))
    assert (low[1], high[1]) == pytest.approx((full[0][0], full[1][0]))
    assert (low[2], high[2]) == (low[1], high[1])
