"""Estimates with intervals: what every page's numbers are made of.

Pure statistics on polars frames and numpy arrays: nothing here imports the runner, the
engine or numba (tests/test_layout.py checks it). :func:`mean_by` / :func:`prop_by` give
one row per group with its sample size and 95% interval (normal for means, Wilson for
proportions); the other functions give one :class:`rams_sim.runs.summary.Estimate` of
independent units. Rows that share a deal (seat-deals) need :mod:`analyses.clustered`.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from rams_sim.runs.summary import Z95, Estimate, wilson, wilson_bounds


def mean_by(lf: pl.LazyFrame | pl.DataFrame, by: list[str], value: pl.Expr, z: float = Z95) -> pl.DataFrame:
    """One row per group of ``by`` (sorted): ``n``, ``mean``, ``se`` and the interval ``lo``, ``hi``
    (normal approximation, ``mean ± z·se``; z = 1.96 gives 95%)."""
    v = value.cast(pl.Float64)
    out = (
        lf.lazy().group_by(by).agg(pl.len().alias("n"), v.mean().alias("mean"), v.std().alias("sd"))
        .sort(by).collect()
    )  # fmt: skip
    se = (pl.col("sd") / pl.col("n").cast(pl.Float64).sqrt()).fill_null(float("nan"))
    return out.with_columns(se.alias("se")).with_columns(
        (pl.col("mean") - z * pl.col("se")).alias("lo"), (pl.col("mean") + z * pl.col("se")).alias("hi")
    ).drop("sd")


def prop_by(lf: pl.LazyFrame | pl.DataFrame, by: list[str], flag: pl.Expr, z: float = Z95) -> pl.DataFrame:
    """One row per group of ``by`` (sorted): ``n``, successes ``k``, proportion ``p`` and its
    Wilson interval ``lo``, ``hi``."""
    agg = [pl.len().alias("n"), flag.cast(pl.Int64).sum().alias("k")]
    out = (lf.lazy().group_by(by).agg(agg) if by else lf.lazy().select(agg)).collect()
    if by:
        out = out.sort(by)
    low, high = wilson_bounds(out["k"].to_numpy(), out["n"].to_numpy(), z)
    return out.with_columns((pl.col("k") / pl.col("n")).alias("p"), pl.Series("lo", low), pl.Series("hi", high))


def mean_estimate(values: np.ndarray | pl.Series) -> Estimate:
    """Mean of a sample of independent units with its 95% normal interval (a paired difference
    is a sample of differences); nulls of a polars Series are dropped."""
    if isinstance(values, pl.Series):
        values = values.drop_nulls().to_numpy()
    x = np.asarray(values, np.float64)
    n = x.size
    mean = float(x.mean()) if n else math.nan
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return Estimate(mean, mean - half, mean + half, n)


def share(flags: pl.Series) -> Estimate:
    """The proportion of true flags (independent units) with its 95% Wilson interval (nulls dropped)."""
    x = flags.drop_nulls()
    return wilson(int(x.sum()), x.len())


def normal(value: float, se: float | None, n: int, z: float = Z95) -> Estimate:
    """An estimate with the normal interval ``value ± z·se`` (se None: no interval)."""
    se = float("nan") if se is None else se
    return Estimate(float(value), value - z * se, value + z * se, int(n))


def paired_difference(before: pl.DataFrame, after: pl.DataFrame, key: str, column: str) -> Estimate:
    """Mean over the units present in both tables (joined on ``key``, nulls dropped) of
    ``after − before`` in ``column``, normal 95% interval: for two datasets of the same units
    (the same seed, so the same deals or parties)."""
    j = before.select(key, column).join(after.select(key, column), on=key, suffix="_v").drop_nulls()
    return mean_estimate((j[f"{column}_v"] - j[column]).to_numpy())


def unpaired_difference(a: Estimate, b: Estimate) -> Estimate:
    """``a − b`` of two independent estimates with normal intervals: the half-widths add in
    quadrature (n = the smaller n). For units that do not pair, e.g. two decks' deals."""
    half = math.hypot(a.half_width, b.half_width)
    value = a.value - b.value
    return Estimate(value, value - half, value + half, min(a.n, b.n))


def widen(est: Estimate, z: float) -> Estimate:
    """``est`` (a normal 95% interval) with its half-width rescaled from Z95 to ``z``."""
    half = est.half_width * z / Z95
    return Estimate(est.value, est.value - half, est.value + half, est.n)


def magnitude(est: Estimate) -> Estimate:
    """|value| with the interval mirrored where the value is negative (for "moves it most")."""
    if est.value >= 0:
        return est
    return Estimate(-est.value, -est.high, -est.low, est.n)


def leader(estimates: dict[str, Estimate], lowest: bool = False, level: float = 0.95) -> tuple[str, list[str]]:
    """A "most" claim tested: the key of the largest estimate (the smallest with ``lowest``) and
    the keys it is *not* clearly ahead of. Each of the k − 1 differences leader − other gets a
    normal interval (the half-widths added in quadrature, as for independent estimates: wider
    than needed where two estimates share their deals and so correlate positively), and the
    intervals are simultaneous at ``level`` (:func:`simultaneous_z` over k − 1). An estimate
    without an interval is never cleared."""
    sign = -1.0 if lowest else 1.0
    top = max(estimates, key=lambda k: sign * estimates[k].value)
    z = simultaneous_z(len(estimates) - 1, level)
    behind = []
    for key, est in estimates.items():
        if key == top:
            continue
        diff = unpaired_difference(estimates[top], est) if not lowest else unpaired_difference(est, estimates[top])
        low = diff.value - diff.half_width * z / Z95
        if not low > 0:  # nan (no interval) stays not cleared
            behind.append(key)
    return top, behind


def quantile_estimate(values: np.ndarray, q: float, z: float = Z95) -> Estimate:
    """The ``q`` quantile of a sample of independent units with its distribution-free
    order-statistic interval: the order statistics of ranks ``(n+1)q ∓ z·√(nq(1−q))``
    (1-based, rounded outwards; the binomial count below the quantile, normal approximation)."""
    x = np.sort(np.asarray(values, np.float64))
    n = x.size
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    centre, half = (n + 1) * q, z * math.sqrt(n * q * (1 - q))
    lo = min(n, max(1, math.floor(centre - half)))
    hi = min(n, max(1, math.ceil(centre + half)))
    return Estimate(float(np.quantile(x, q, method="inverted_cdf")), float(x[lo - 1]), float(x[hi - 1]), n)


def one_against_others(value: pl.Expr, one: pl.Expr) -> pl.Expr:
    """Aggregation over a group of rows (a deal, a party): ``value`` of the row where ``one``
    holds minus the mean ``value`` of the group's other rows, e.g. the dealer's gain minus the
    mean gain of the other players of the deal (a paired difference within the group)."""
    mine = value.filter(one).sum()
    return mine - (value.sum() - mine) / (pl.len() - 1)


def row_estimate(row: dict) -> Estimate:
    """The :class:`Estimate` of one row of :func:`mean_by` or :func:`prop_by`."""
    value = row["mean"] if "mean" in row else row["p"]
    return Estimate(float(value), float(row["lo"]), float(row["hi"]), int(row["n"]))


def simultaneous_z(cells: int, level: float = 0.95) -> float:
    """Normal quantile for ``cells`` Bonferroni-simultaneous two-sided intervals at ``level``."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - (1 - level) / (2 * max(1, cells)))


def chance_misses(cells: int, level: float = 0.95) -> str:
    """The sentence a many-cell table needs: how many intervals miss by chance alone."""
    expected = cells * (1 - level)
    return (f"This table holds {cells} intervals at {level:.0%}: even if every model were right, about "
            f"{expected:.1f} of them would miss the truth by chance alone.")  # fmt: skip


def clear(est: Estimate, versus: float = 0.0) -> bool:
    """Whether the interval excludes ``versus`` (the answer is statistically clear)."""
    return not (est.low <= versus <= est.high)


def simultaneous(estimates: dict, level: float = 0.95) -> dict:
    """Each normal 95% interval of ``estimates`` widened so that all of them hold together at
    ``level`` (Bonferroni over their number, :func:`simultaneous_z`): the intervals a page
    judges when its verdict covers many rows (e.g. one row per table size). Keys are kept."""
    z = simultaneous_z(len(estimates), level)
    return {key: widen(est, z) for key, est in estimates.items()}


def estimate_columns(est: Estimate, prefix: str = "") -> dict:
    """The numeric CSV columns of one estimate: ``<prefix>estimate``, ``ci_low``, ``ci_high``, ``n``
    (a prefix names the measure where a row holds several)."""
    return {f"{prefix}estimate": est.value, f"{prefix}ci_low": est.low, f"{prefix}ci_high": est.high,
            f"{prefix}n": est.n}  # fmt: skip


def simultaneous_share(est: Estimate, cells: int, level: float = 0.95) -> Estimate:
    """A share's Wilson interval recomputed at the z that holds over ``cells`` intervals together
    (successes recovered as ``round(value·n)``)."""
    n = int(est.n)
    k = round(est.value * n)
    low, high = wilson_bounds(np.array([k]), np.array([n]), simultaneous_z(cells, level))
    return Estimate(est.value, float(low[0]), float(high[0]), n)


def identical(est: Estimate) -> bool:
    """Whether a paired difference is exactly 0 in every unit (its interval the single point 0):
    the two arms played out the same, a zero by construction and not a measurement."""
    return est.value == 0 and est.low == 0 and est.high == 0


def paired_row(row: dict, sign: int = 1, n: str = "deals") -> Estimate:
    """One row of :func:`rams_sim.runs.effect.estimates` (``rams-sim effect``) as an Estimate of ``sign`` × its
    paired difference; its n is the row's column ``n``: ``deals`` (the deals or parties, the units of the
    clustered interval) or ``n`` (the rows); no interval (nan) where the run had fewer than two units."""
    if row["ci_low"] is None:
        return Estimate(sign * row["diff"], math.nan, math.nan, int(row[n]))
    low, high = sorted((sign * row["ci_low"], sign * row["ci_high"]))
    return Estimate(sign * row["diff"], low, high, int(row[n]))

