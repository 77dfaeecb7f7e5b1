"""Deal-clustered estimates: means, differences and shares when the rows of one deal are dependent.

The seats of one deal share the deck and the tricks, so rows of one deal (seat-deals) are
not independent observations. Every estimate here treats the *deal* (any integer cluster
column) as the unit of sampling: a mean of rows is a ratio estimator (sum of values ÷
number of rows), and its standard error linearises it: each cluster contributes its
summed residual ``(y − mean) / n``, the variance is the sum of their squares times the
small-sample factor D/(D − 1), D = the clusters that hold a row of the group (of either
group, for a difference). A difference of two groups uses the per-cluster difference of
their summed residuals, so two groups met in one deal are not treated as independent.

Which function when:

* :func:`class_table`: row-level data (one row per observation with a cluster id); means
  of several values per (cells, classes) and each class's difference from a baseline class.
  :func:`clustered_means` is the same with one class per cell.
* :func:`cluster_contrast`: the same estimator when the data are already summed per
  cluster (one row per deal holding each group's sum and row count), for one group or the
  difference of two.
* :func:`clustered_wilson`, :func:`design_effect`, :func:`effective_wilson`: a share's
  Wilson interval at the clustered effective sample size.

For independent rows (one per deal, or parties) use the plain estimates of
:mod:`analyses.common` (``mean_by``, ``prop_by``, ``mean_estimate``).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from rams_sim.runs.summary import Z95, Estimate, wilson_bounds

from .stats import normal

STATS = ("mean", "se", "diff", "dse")  # the statistics class_table gives per value


# ---- the ratio estimator over clusters -------------------------------------------------
def _correction(clusters: np.ndarray) -> np.ndarray:
    """The D/(D − 1) small-sample factor of a clustered variance (nan below two clusters)."""
    d = clusters.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d > 1, d / (d - 1), np.nan)


def _group_sizes(counts: np.ndarray, base: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of each group (``counts``: float64 (groups, clusters), rows per cluster): ``n`` rows,
    ``own`` clusters holding a row of it, ``joint`` clusters holding a row of it or of group ``base``."""
    here = counts > 0
    return counts.sum(axis=1), here.sum(axis=1), (here | here[base]).sum(axis=1)


def _ratio_stats(sums: np.ndarray, counts: np.ndarray, sizes: tuple, base: int) -> tuple[np.ndarray, ...]:
    """Per group: ``mean``, its clustered ``se``, ``diff`` = mean − group ``base``'s mean and its
    clustered ``dse`` (nan for the base itself).

    ``sums``, ``counts``: float64 (groups, clusters), each group's sum of values and number of
    rows in each cluster (``sums`` is overwritten by the summed residuals); ``sizes``: the
    :func:`_group_sizes` of ``counts``.
    """
    n, own, joint = sizes
    mean = sums.sum(axis=1) / n
    sums -= counts * mean[:, None]
    sums /= n[:, None]  # now the summed residual of each group in each cluster
    gap = ((sums - sums[base]) ** 2).sum(axis=1)
    gap[base] = np.nan
    return mean, np.sqrt((sums**2).sum(axis=1) * _correction(own)), mean - mean[base], np.sqrt(gap * _correction(joint))


def cluster_contrast(sa: np.ndarray, na: np.ndarray, sb: np.ndarray | None = None, nb: np.ndarray | None = None,
                     z: float = Z95) -> Estimate:  # fmt: skip
    """Difference of two ratio means ``Σsa/Σna − Σsb/Σnb`` over clusters, with the clustered
    interval (normal, ``± z·se``); without ``sb``/``nb`` the ratio mean ``Σsa/Σna`` alone.

    One entry per cluster, e.g. per deal: ``sa``/``sb`` the sum of the group's values in it,
    ``na``/``nb`` its number of rows (a paired change may pass per-cluster sums of
    differences). The estimator of :func:`class_table`, for data already summed per cluster.
    ``n`` of the result is the number of rows of group a (plus b).
    """
    groups = [(sa, na)] if sb is None else [(sa, na), (sb, nb)]
    sums = np.vstack([np.asarray(s, np.float64) for s, _ in groups])
    counts = np.vstack([np.asarray(c, np.float64) for _, c in groups])
    base = len(groups) - 1
    sizes = _group_sizes(counts, base)
    mean, se, diff, dse = _ratio_stats(sums, counts, sizes, base)
    value, error = (mean[0], se[0]) if sb is None else (diff[0], dse[0])
    return normal(value, error, int(sizes[0].sum()), z)


# ---- class tables ----------------------------------------------------------------------
def _stat_columns(values: list[str]) -> list[str]:
    return [f"{v}_{s}" for v in values for s in STATS]


def _independent_table(df: pl.DataFrame, cells: list[str], classes: list[str], values: list[str],
                       baseline: dict[str, int]) -> pl.DataFrame:  # fmt: skip
    """:func:`class_table` when every row is its own cluster (e.g. one row per deal in a cell)."""
    keys = [*cells, *classes]
    out = df.lazy().group_by(keys).agg(
        pl.len().alias("n"), *[pl.col(v).cast(pl.Float64).mean().alias(f"{v}_mean") for v in values],
        *[pl.col(v).cast(pl.Float64).var().alias(f"{v}_var") for v in values]).collect()  # fmt: skip
    out = out.with_columns(pl.col("n").alias("clusters"),
                           *[(pl.col(f"{v}_var") / pl.col("n")).sqrt().alias(f"{v}_se") for v in values])  # fmt: skip
    is_base = pl.all_horizontal([pl.col(c) == v for c, v in baseline.items()])
    base = out.filter(is_base).select(*cells, *[pl.col(f"{v}_{s}").alias(f"{v}_{s}0") for v in values
                                                for s in ("mean", "se")])  # fmt: skip
    out = out.join(base, on=cells, how="left").with_columns(
        *[(pl.col(f"{v}_mean") - pl.col(f"{v}_mean0")).alias(f"{v}_diff") for v in values],
        *[pl.when(is_base).then(None).otherwise((pl.col(f"{v}_se") ** 2 + pl.col(f"{v}_se0") ** 2).sqrt())
          .alias(f"{v}_dse") for v in values])  # fmt: skip
    return out.select(*keys, "n", "clusters", *_stat_columns(values)).sort(keys)


def _class_codes(part: pl.DataFrame, classes: list[str]) -> tuple[list[tuple], np.ndarray]:
    """The class combinations present (sorted) and each row's index into them (int64[n]).

    Class columns hold small integers: a mixed-radix key over their ranges numbers the
    combinations without sorting the rows.
    """
    key = np.zeros(part.height, np.int64)
    spans = []
    for c in classes:
        col = part[c].to_numpy().astype(np.int64)
        low, span = int(col.min()), int(col.max() - col.min()) + 1
        key = key * span + (col - low)
        spans.append((low, span))
    present = np.flatnonzero(np.bincount(key))
    lookup = np.full(int(key.max()) + 1, -1, np.int64)
    lookup[present] = np.arange(present.size)
    combos = []
    for value in present:
        combo = []
        for low, span in reversed(spans):
            combo.append(int(value % span) + low)
            value //= span
        combos.append(tuple(reversed(combo)))
    return combos, lookup[key]


def _clustered_cell(part: pl.DataFrame, classes: list[str], values: list[str], baseline: tuple,
                    cluster: str) -> list[dict]:  # fmt: skip
    """The rows of :func:`class_table` for one cell (``part`` = its rows).

    One pass of ``np.bincount`` per value over the index (class, cluster) gives every
    class's sum in every cluster: arrays of shape (classes, clusters).
    """
    ids = part[cluster].to_numpy()
    ids = (ids - ids.min()).astype(np.int64)
    size = int(ids.max()) + 1
    if size > 2 * ids.size:  # sparse cluster ids: number them densely first
        _, ids = np.unique(ids, return_inverse=True)
        size = int(ids.max()) + 1
    combos, code = _class_codes(part, classes)
    k = len(combos)
    flat = code * size + ids
    m = np.bincount(flat, minlength=k * size).reshape(k, size).astype(np.float64)
    base = combos.index(baseline)
    sizes = _group_sizes(m, base)
    stats = {}
    for v in values:
        y = np.bincount(flat, weights=part[v].cast(pl.Float64).to_numpy(), minlength=k * size).reshape(k, size)
        stats[v] = _ratio_stats(y, m, sizes, base)
    n, own, _ = sizes
    out = []
    for j, combo in enumerate(combos):
        row = {**dict(zip(classes, combo)), "n": int(n[j]), "clusters": int(own[j])}
        for v, (mean, se, diff, dse) in stats.items():
            row |= {f"{v}_mean": mean[j], f"{v}_se": se[j], f"{v}_diff": diff[j],
                    f"{v}_dse": None if j == base else dse[j]}  # fmt: skip
        out.append(row)
    return out


def class_table(df: pl.DataFrame, cells: list[str], classes: list[str], values: list[str],
                baseline: dict[str, int], cluster: str | None = "deal") -> pl.DataFrame:  # fmt: skip
    """Mean of each value per (cells, classes), and its difference from the baseline class
    of the same cell, with cluster-robust standard errors.

    ``df``: one row per observation (e.g. a seat-deal) with the ``cells``, ``classes``,
    ``values`` columns and the integer ``cluster`` column (e.g. ``deal``). Returns one row
    per (cells, classes), sorted: ``n`` (rows), ``clusters`` (clusters with a row of the
    class), and per value ``v``: ``{v}_mean``, ``{v}_se``, ``{v}_diff`` (mean − the
    baseline's mean in the cell) and ``{v}_dse`` (its standard error; null on the
    baseline's own row). The errors linearise the ratio estimator: a class mean's
    residuals ``(y − mean) / n`` are summed per cluster, and a difference uses the
    per-cluster difference of the two classes' sums, so two classes met in one deal are
    not treated as independent. ``cluster=None``: every row is independent.
    """
    if cluster is None:
        return _independent_table(df, cells, classes, values, baseline)
    base = tuple(baseline[c] for c in classes)
    if not cells:
        parts = {(): df}
    elif all(df[c].min() == df[c].max() for c in cells):  # one cell: no copy
        parts = {df.select(cells).row(0): df}
    else:
        parts = df.partition_by(cells, as_dict=True)
    rows = []
    for key, part in parts.items():
        rows += [{**dict(zip(cells, key)), **r} for r in _clustered_cell(part, classes, values, base, cluster)]
    schema = {c: df.schema[c] for c in [*cells, *classes]} | {"n": pl.Int64, "clusters": pl.Int64}
    schema |= {c: pl.Float64 for c in _stat_columns(values)}
    return pl.DataFrame(rows, schema=schema).sort([*cells, *classes])


def clustered_means(df: pl.DataFrame, cells: list[str], values: list[str], cluster: str = "deal") -> pl.DataFrame:
    """Per cell: ``n``, ``clusters``, ``{v}_mean`` and its cluster-robust ``{v}_se`` (as :func:`class_table`
    with one class)."""
    table = class_table(df.with_columns(pl.lit(0, pl.Int8).alias("_all")), cells, ["_all"], values, {"_all": 0},
                        cluster)  # fmt: skip
    return table.select(*cells, "n", "clusters", *[f"{v}_{s}" for v in values for s in ("mean", "se")])


def class_mean(row: dict, value: str, share: bool = False) -> Estimate:
    """The mean of ``value`` in a row of :func:`class_table` or :func:`clustered_means`: a
    normal interval, or for a share (a 0/1 value) the :func:`clustered_wilson` interval."""
    if share:
        return clustered_wilson(row[f"{value}_mean"], row[f"{value}_se"], row["n"])
    return normal(row[f"{value}_mean"], row[f"{value}_se"], row["n"])


def class_diff(row: dict, value: str) -> Estimate:
    """A :func:`class_table` row's difference from the baseline class, normal interval (n = the class's rows)."""
    return normal(row[f"{value}_diff"], row[f"{value}_dse"], row["n"])


# ---- shares ------------------------------------------------------------------------------
def design_effect(p: float, se: float | None, n: int) -> float:
    """A share's clustered variance ÷ the binomial variance of ``n`` independent rows,
    ``se²·n / (p(1 − p))`` (nan at p = 0 or 1, or without ``se``; below 1 when the rows of
    one cluster exclude each other)."""
    if se is None or not 0 < p < 1:
        return float("nan")
    return se * se * n / (p * (1 - p))


def effective_wilson(p: np.ndarray, n: np.ndarray, deff: np.ndarray, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson bounds ``(low, high)`` of shares ``p`` of ``n`` rows at the effective sample size
    ``n / max(1, deff)`` (element-wise; a nan design effect counts as 1): never narrower than
    the interval of independent rows."""
    deff = np.nan_to_num(np.asarray(deff, np.float64), nan=1.0).clip(1.0)
    n_eff = np.asarray(n) / deff
    return wilson_bounds(np.asarray(p) * n_eff, n_eff, z)


def clustered_wilson(p: float, se: float | None, n: int, z: float = Z95) -> Estimate:
    """A share's Wilson interval at its effective sample size: n divided by the design
    effect (clustered variance / binomial variance), never more than n."""
    low, high = effective_wilson(np.array([p]), np.array([n]), np.array([design_effect(p, se, n)]), z)
    return Estimate(float(p), float(low[0]), float(high[0]), int(n))
