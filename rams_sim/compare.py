"""Paired comparison of two policies on the same deals (common random numbers).

For every deal ``d`` (keyed by (seed, d), so every pass sees the same deck order and
the same coin streams), each seat ``f`` in turn is *focal*: it plays policy A while the
other seats play the baseline, and again with B in its place. The paired sample of
deal ``d`` is the mean over focal seats of ``delta_A(f, d) − delta_B(f, d)``; the
report is the mean of those samples with a 95% normal interval. A policy compared with
itself gives exactly zero in every deal: the pairing is exact.

Remiz (R7.2) is counted for a focal seat that played a played-out deal and took no
trick.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .games import GAMES
from .policies import PolicySpec, as_spec
from .record import Outcome
from .rules import Rules
from .runs.summary import Z95, Estimate, mean_ci, wilson

DEFAULT_BATCH = 100_000


@dataclass(frozen=True)
class PairedBatch:
    """Per-deal results of one batch: ``diff`` float64[k], focal deltas int64[k] (summed over focal seats), remiz counts."""

    diff: np.ndarray  # mean over focal seats of delta_A - delta_B, per deal
    delta_a: np.ndarray  # per deal, summed over the focal seats
    delta_b: np.ndarray
    remiz_a: int  # focal seat-deals with a remiz
    remiz_b: int


def _focal_pass(rules: Rules, focal: PolicySpec, baseline: PolicySpec, seed: int, first: int, count: int):
    """(delta int64[count, n], remiz bool[count, n]) of each seat when it is the focal one."""
    from . import engine  # here, not at the top: `import rams_sim` stays free of numba (rams_sim/__init__.py)

    n = rules.players
    delta = np.empty((count, n), np.int64)
    remiz = np.empty((count, n), bool)
    for f in range(n):
        seats = [baseline] * n
        seats[f] = focal
        out = engine.simulate(rules, seats, seed=seed, deals=count, first_deal=first)
        delta[:, f] = out.delta[:, f]
        remiz[:, f] = (out.passed[:, f] == 0) & (out.outcome == Outcome.PLAYED) & (out.tricks[:, f] == 0)
    return delta, remiz


def paired_batch(rules: Rules, a, b, baseline, *, seed: int, first: int, count: int) -> PairedBatch:
    """Deals ``first .. first + count - 1`` played with A and with B at each focal seat."""
    a, b, baseline = as_spec(a), as_spec(b), as_spec(baseline)
    da, ra = _focal_pass(rules, a, baseline, seed, first, count)
    db, rb = _focal_pass(rules, b, baseline, seed, first, count)
    diff = (da - db).mean(axis=1)
    return PairedBatch(diff, da.sum(axis=1), db.sum(axis=1), int(ra.sum()), int(rb.sum()))


@dataclass(frozen=True)
class Comparison:
    """A paired comparison: A minus B per deal, each policy's mean focal delta, remiz rates."""

    a: PolicySpec
    b: PolicySpec
    baseline: PolicySpec
    rules: Rules
    seed: int
    deals: int
    diff: Estimate  # mean over deals of the paired difference A - B
    delta_a: Estimate  # mean focal delta per seat-deal with A
    delta_b: Estimate
    remiz_a: Estimate  # share of focal seat-deals with a remiz
    remiz_b: Estimate

    @property
    def clear(self) -> bool:
        """Whether the 95% interval of the difference excludes 0."""
        return self.diff.low > 0 or self.diff.high < 0

    def verdict(self) -> str:
        """One line in words: who writes off more, by how much, and whether it is clear."""
        a, b = str(self.a), str(self.b)
        d, half = self.diff.value, self.diff.half_width
        if d == 0 and half == 0:
            return f"{a} and {b} scored exactly the same in every deal"
        clarity = "statistically clear (the 95% CI excludes 0)" if self.clear else "not statistically clear (the 95% CI contains 0)"
        if GAMES[self.rules.game].counts_up:  # modern counts up (docs/VARIANTS.md): the higher delta is better
            better, worse = (a, b) if d > 0 else (b, a)
            return f"{better} gains {abs(d):.3f} ± {half:.3f} points per deal more than {worse}: {clarity}"
        better, worse = (a, b) if d < 0 else (b, a)
        return f"{better} writes off {abs(d):.3f} ± {half:.3f} points per deal more than {worse}: {clarity}"


class _Running:
    """Running sums of a per-deal sample: n, sum, sum of squares (exact for ints in float64 ranges)."""

    def __init__(self) -> None:
        self.n, self.total, self.squares = 0, 0.0, 0.0

    def add(self, values: np.ndarray) -> None:
        self.n += values.size
        self.total += float(values.sum())
        self.squares += float(np.square(values, dtype=np.float64).sum())

    def estimate(self, scale: float = 1.0) -> Estimate:
        """Mean with its 95% interval, of the sample divided by ``scale``."""
        mean = self.total / self.n
        var = max(self.squares - self.n * mean * mean, 0.0) / (self.n - 1) if self.n > 1 else None
        return mean_ci(mean / scale, math.sqrt(var) / scale if var is not None else None, self.n)


def compare(
    rules: Rules,
    a,
    b,
    *,
    baseline="basic",
    seed: int = 0,
    deals: int = 100_000,
    target_se: float | None = None,
    batch: int = DEFAULT_BATCH,
    progress: Callable[[int, int], None] | None = None,
) -> Comparison:
    """Compare policies A and B on deals ``0 .. deals - 1`` (fewer if ``target_se`` is reached).

    With ``target_se``, batches of ``batch`` deals are played until the standard error of
    the paired difference is at most ``target_se`` or ``deals`` are used up.
    """
    a, b, baseline = as_spec(a), as_spec(b), as_spec(baseline)
    if deals <= 0:
        raise ValueError(f"deals must be positive; got {deals}")
    if target_se is not None and not target_se > 0:
        raise ValueError(f"target_se must be positive; got {target_se}")
    diff, da, db = _Running(), _Running(), _Running()
    remiz_a = remiz_b = 0
    done = 0
    while done < deals:
        count = min(batch, deals - done)
        part = paired_batch(rules, a, b, baseline, seed=seed, first=done, count=count)
        diff.add(part.diff)
        da.add(part.delta_a)
        db.add(part.delta_b)
        remiz_a += part.remiz_a
        remiz_b += part.remiz_b
        done += count
        if progress:
            progress(done, deals)
        if target_se is not None and diff.n > 1 and diff.estimate().half_width / Z95 <= target_se:
            break
    n = rules.players
    return Comparison(
        a, b, baseline, rules, seed, done, diff.estimate(), da.estimate(n), db.estimate(n),
        wilson(remiz_a, done * n), wilson(remiz_b, done * n),
    )  # fmt: skip
