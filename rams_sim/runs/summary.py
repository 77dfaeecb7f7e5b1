"""Short summaries of a run folder, computed from the written Parquet data with polars.

Means carry a 95% normal-approximation interval (``mean ± 1.96 s/√n``); proportions a
95% Wilson interval. The CLI prints these after ``run`` and ``party``.

A deals run's part files carry, in their metadata, the sums of the table written into
them (:func:`rams_sim.runs.dataset.deal_chunk_sums`: per seat the count, the sum and the sum of squares of
``delta``, and each declaration's count), so its summary adds those up exactly instead of
reading 40 million rows again; a folder whose parts lack them is scanned.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import polars as pl

from ..record import Declaration, EndKind
from .provenance import METADATA_KEY
from .read import PART_GLOB

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True)
class Estimate:
    """A mean or proportion with its sample size and 95% interval ``[low, high]``."""

    value: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        """Half the interval's width (symmetric intervals: the ± figure)."""
        return (self.high - self.low) / 2


def mean_ci(mean: float, std: float | None, n: int) -> Estimate:
    """Mean with a 95% normal interval from a sample mean, standard deviation (ddof 1) and size."""
    half = Z95 * std / math.sqrt(n) if n > 1 and std is not None else math.nan
    return Estimate(mean, mean - half, mean + half, n)


def interval_from_sums(n: str, total: str, squares: str, name: str) -> list[pl.Expr]:
    """Polars expressions ``<name>_mean``, ``<name>_lo`` and ``<name>_hi``: the mean of independent values
    and its normal 95% interval, from the columns holding their count, sum and sum of squares (an
    aggregated run's or a sweep's exact sums). A count of one has no interval (null)."""
    import polars as pl

    count = pl.col(n).cast(pl.Float64)
    mean = pl.col(total) / count
    var = (pl.col(squares) - count * mean * mean) / (count - 1)
    half = pl.when(pl.col(n) > 1).then(Z95 * (var.clip(lower_bound=0) / count).sqrt()).otherwise(None)
    return [mean.alias(f"{name}_mean"), (mean - half).alias(f"{name}_lo"), (mean + half).alias(f"{name}_hi")]


def wilson(successes: int, n: int) -> Estimate:
    """Proportion ``successes / n`` with its 95% Wilson score interval."""
    if n == 0:
        return Estimate(math.nan, 0.0, 1.0, 0)
    low, high = wilson_bounds(np.array([successes]), np.array([n]))
    return Estimate(successes / n, float(low[0]), float(high[0]), n)


def wilson_bounds(successes: np.ndarray, n: np.ndarray, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval ``(low, high)`` of ``successes / n``, element-wise (float64 arrays).

    ``z`` is the normal quantile (1.96 for 95%; larger for simultaneous intervals).
    """
    k = np.asarray(successes, np.float64)
    m = np.asarray(n, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / m
        z2 = z * z
        centre = (p + z2 / (2 * m)) / (1 + z2 / m)
        half = z * np.sqrt(p * (1 - p) / m + z2 / (4 * m * m)) / (1 + z2 / m)
    low = np.where((m > 0) & (k > 0), np.maximum(0.0, centre - half), 0.0)  # exact ends: no rounding residue
    high = np.where((m > 0) & (k < m), np.minimum(1.0, centre + half), 1.0)
    return low, high


def scan(folder: Path | str) -> pl.LazyFrame:
    """Lazy scan of every part file of a run folder."""
    import polars as pl

    return pl.scan_parquet(Path(folder) / PART_GLOB)


def _seat_stats(lf: pl.LazyFrame, column: str) -> pl.LazyFrame:
    import polars as pl

    return lf.group_by("seat").agg(
        pl.col(column).cast(pl.Float64).mean().alias("mean"), pl.col(column).cast(pl.Float64).std().alias("std"),
        pl.len().alias("n"),
    ).sort("seat")  # fmt: skip


def _per_seat_means(stats: pl.DataFrame) -> dict[int, Estimate]:
    return {int(r["seat"]): mean_ci(r["mean"], r["std"], int(r["n"])) for r in stats.iter_rows(named=True)}


@dataclass(frozen=True)
class DealSummary:
    """Deals run: the mean delta of every seat, and declaration counts (rows with each code)."""

    deals: int
    delta: dict[int, Estimate]  # seat -> mean score delta per deal
    declarations: dict[Declaration, int]  # code -> number of seat-deals that declared it

    def per_deal(self, code: Declaration) -> float:
        """Declarations of ``code`` per deal (jack pairs may come several to a deal)."""
        return self.declarations.get(code, 0) / self.deals


def _part_sums(folder: Path) -> list[dict] | None:
    """Every part's ``deal_chunk_sums`` (:mod:`rams_sim.runs.dataset`) from its metadata, or None if a part has none."""
    import pyarrow.parquet as pq

    sums = []
    for path in sorted(folder.glob(PART_GLOB)):
        meta = pq.read_metadata(path).metadata or {}
        chunk = json.loads(meta.get(METADATA_KEY.encode(), b"{}")).get("chunk", {})
        if "sums" not in chunk:
            return None
        sums.append(chunk["sums"])
    return sums or None


def _from_sums(sums: list[dict]) -> DealSummary:
    n, s, q, declared = {}, {}, {}, {}
    for part in sums:
        for seat, k, a, b in zip(part["seats"], part["n"], part["delta_sum"], part["delta_sq_sum"]):
            n[seat], s[seat], q[seat] = n.get(seat, 0) + k, s.get(seat, 0) + a, q.get(seat, 0) + b
        for code, k in part["declarations"].items():
            declared[int(code)] = declared.get(int(code), 0) + k
    delta = {}
    for seat in sorted(n):
        mean = s[seat] / n[seat]
        std = math.sqrt(max(q[seat] - s[seat] * s[seat] / n[seat], 0) / (n[seat] - 1)) if n[seat] > 1 else None
        delta[seat] = mean_ci(mean, std, n[seat])
    declarations = {Declaration(c): k for c, k in declared.items() if c != Declaration.NONE and k}
    return DealSummary(n.get(0, 0), delta, declarations)


def deal_summary(folder: Path | str) -> DealSummary:
    """Summarise a ``run`` folder from its data: the sums its parts carry, or one scan."""
    import polars as pl

    sums = _part_sums(Path(folder))
    if sums is not None:
        return _from_sums(sums)
    # one streaming pass over the files: per seat the delta's moments and every declaration's count
    codes = [code for code in Declaration if code != Declaration.NONE]
    stats = (
        scan(folder).group_by("seat").agg(
            pl.col("delta").cast(pl.Float64).mean().alias("mean"), pl.col("delta").cast(pl.Float64).std().alias("std"),
            pl.len().alias("n"), *[(pl.col("declaration") == int(code)).sum().alias(f"d{int(code)}") for code in codes],
        ).sort("seat").collect(engine="streaming")
    )  # fmt: skip
    declarations = {code: int(stats[f"d{int(code)}"].sum()) for code in codes}
    declarations = {code: n for code, n in declarations.items() if n}
    deals = int(stats.filter(pl.col("seat") == 0)["n"].sum())
    return DealSummary(deals, _per_seat_means(stats), declarations)


@dataclass(frozen=True)
class PartySummary:
    """Parties run: length, winners, how they ended, settlement by seat."""

    parties: int
    deals: Estimate  # deals per party
    wins: dict[int, Estimate]  # seat -> share of parties won
    ends: dict[EndKind, Estimate]  # how the party ended -> share
    settlement: dict[int, Estimate]  # seat -> mean settlement


def party_summary(folder: Path | str) -> PartySummary:
    """Summarise a ``party`` folder from its data."""
    import polars as pl

    lf = scan(folder)
    parties = lf.filter(pl.col("seat") == 0).select("deals", "end_kind").collect()
    n = parties.height
    length = mean_ci(parties["deals"].cast(pl.Float64).mean(), parties["deals"].cast(pl.Float64).std(), n)
    won = lf.group_by("seat").agg(pl.col("won").sum().alias("k"), pl.len().alias("n")).sort("seat").collect()
    wins = {int(s): wilson(int(k), int(m)) for s, k, m in won.iter_rows()}
    end_counts = parties.group_by("end_kind").agg(pl.len().alias("k")).sort("end_kind")
    ends = {EndKind(int(e)): wilson(int(k), n) for e, k in end_counts.iter_rows()}
    return PartySummary(n, length, wins, ends, _per_seat_means(_seat_stats(lf, "settlement").collect()))
