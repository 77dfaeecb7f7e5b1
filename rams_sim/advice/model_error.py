"""What advise's worlds get wrong, measured: the model-error term of its intervals (issue 45).

advise's sampling interval says how far its mean could move with other worlds drawn under the
*same* assumptions; the assumptions themselves (the others play the model, the worlds' inference,
the seat's later play as the rollout policy's) move it too. The validation suite
(:mod:`rams_sim.advice.check`) measures that second error against branch data: for each option,
the residual ``r = advise - truth`` beside the two sampling errors. Per game, decision (advise's
stage; a card of the first trick apart, :func:`stage_key`) and inference used, the table here holds the model error ``sigma``: the smallest value
with which ``|r| < 1.96 sqrt(se_advise^2 + se_truth^2 + sigma^2)`` for 95% of the calibration
options (:func:`fit`), separately for the means and for the paired differences from the best
(which share most of a position's error and need less).

advise then prints ``mean +- 1.96 sqrt(se^2 + sigma^2)`` (:func:`widen`) and says so in words
(:func:`describe`); a decision the suite has not measured keeps the sampling interval, and the
words say that too. The table ships as ``rams_sim/data/model_error.csv`` and is made again by
``make calibrate`` (``rams-sim check-advice --calibrate``); its positions are drawn with a seed of
their own, so that a check on another seed is a fair test of it.
"""

from __future__ import annotations

import csv
import functools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

Z95 = 1.959963984540054
SHIPPED = Path(__file__).resolve().parent.parent / "data" / "model_error.csv"
COVER = 0.95  # the share of calibration options each sigma makes covered
FIELDS = ("game", "stage", "infer", "measure", "sigma", "options", "positions", "seed")
MIN_OPTIONS = 20  # a decision is calibrated from this many options up


FIRST_TRICK = "play-1"  # the stage key of a card of the first trick whose worlds were drawn with their history
HISTORY_FIRST = "cards"  # the inference that draws them so (classic's family, docs/SEARCH.md)


def stage_key(stage: str, trick: int, infer: str) -> str:
    """The table's ``stage`` of a decision: advise's stage, but a card of the first trick (``trick``
    1, 1-based) with ``infer`` cards apart: its worlds are drawn with their history, the later
    tricks' from the layout (docs/SEARCH.md "At the first trick")."""
    return FIRST_TRICK if stage == "play" and trick == 1 and infer == HISTORY_FIRST else stage


@dataclass(frozen=True)
class ModelError:
    """The model error of one decision kind: ``mean`` and ``diff`` in points (or stakes), from
    ``positions`` positions of the suite (seed ``seed``)."""

    mean: float
    diff: float
    positions: int
    seed: int


def needed(residual: np.ndarray, sampling: np.ndarray) -> np.ndarray:
    """float[k]: for each option, the least sigma with which ``|residual| < 1.96 sqrt(sampling^2 +
    sigma^2)`` (0 where the sampling error covers it already)."""
    return np.sqrt(np.maximum(0.0, (residual / Z95) ** 2 - sampling**2))


def fit_sigma(residual: np.ndarray, sampling: np.ndarray, cover: float = COVER) -> float:
    """The least sigma covering ``cover`` of the options: that quantile of :func:`needed`."""
    need = needed(np.asarray(residual, float), np.asarray(sampling, float))
    return float(np.quantile(need, cover, method="higher")) if need.size else math.nan


def fit(options, seed: int) -> list[dict]:
    """The table's rows from a suite's options frame (:mod:`rams_sim.advice.check`: its ``game``,
    ``stage``, ``infer`` and the residuals with their sampling errors)."""
    import polars as pl

    rows = []
    counted = options.filter(pl.col("counted"))
    for (game, stage, infer), part in counted.group_by(["game", "stage", "infer"], maintain_order=True):
        diffs = part.filter(pl.col("counted_diff"))
        for measure, frame, r, s in (
            ("mean", part, part["advise_mean"] - part["truth_mean"], (part["advise_se"] ** 2 + part["truth_se"] ** 2).sqrt()),
            ("diff", diffs, diffs["advise_diff"] - diffs["truth_diff"],
             (diffs["advise_diff_se"] ** 2 + diffs["truth_diff_se"] ** 2).sqrt()),
        ):  # fmt: skip
            if frame.height < MIN_OPTIONS:
                continue
            rows.append({"game": game, "stage": stage, "infer": infer, "measure": measure,
                         "sigma": round(fit_sigma(r.to_numpy(), s.to_numpy()), 3), "options": frame.height,
                         "positions": frame["position"].n_unique(), "seed": seed})  # fmt: skip
    return rows


def write_table(path: Path, rows: list[dict]) -> None:
    """Write ``rows`` to the table at ``path``, keeping its rows of the decisions ``rows`` do not measure
    (a calibration of the cards alone leaves the exchange's in place)."""
    path = Path(path)
    keys = {(r["game"], r["stage"], r["infer"]) for r in rows}
    if path.exists():
        with path.open(encoding="utf-8") as f:
            kept = [r for r in csv.DictReader(f) if (r["game"], r["stage"], r["infer"]) not in keys]
        rows = kept + list(rows)
    _table.cache_clear()
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)


@functools.cache
def _table(path: str) -> dict[tuple[str, str, str], ModelError]:
    p = Path(path)
    if not p.exists():
        return {}
    found: dict[tuple[str, str, str], dict] = {}
    with p.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            entry = found.setdefault((row["game"], row["stage"], row["infer"]), {})
            entry[row["measure"]] = float(row["sigma"])
            entry["positions"] = max(entry.get("positions", 0), int(row["positions"]))
            entry["seed"] = int(row["seed"])
    return {key: ModelError(e["mean"], e.get("diff", e["mean"]), e["positions"], e["seed"])
            for key, e in found.items() if "mean" in e}  # fmt: skip


def lookup(game: str, stage: str, infer: str, path: Path | None = None) -> ModelError | None:
    """The measured model error of advise's ``stage`` in ``game`` with the inference ``infer`` it used,
    or None where the suite has not measured it."""
    return _table(str(path or SHIPPED)).get((game, stage, infer))


def widen(rows: list[dict], error: ModelError | None) -> None:
    """Add the model error to each row's intervals (in place): the mean's ``1.96 sqrt(se^2 + mean^2)``,
    the paired difference's ``1.96 sqrt(diff_se^2 + diff^2)`` (the best row's difference stays 0)."""
    if error is None:
        return
    for row in rows:
        half = Z95 * math.hypot(row["se"], error.mean)
        row["ci_low"], row["ci_high"] = row["mean"] - half, row["mean"] + half
        if row["diff_high"] > row["diff_low"] or row["diff"] != 0.0:
            d_half = Z95 * math.hypot(row["diff_se"], error.diff)
            row["diff_low"], row["diff_high"] = row["diff"] - d_half, row["diff"] + d_half


def describe(error: ModelError | None, unit: str = "points") -> str:
    """What advise's intervals include, in words (its output and JSON ``interval``)."""
    if error is None:
        return ("95% intervals: the sampling error of the worlds only; the model's own error is not measured "
                "for this decision (rams-sim check-advice), so the truth may lie outside them")  # fmt: skip
    return (f"95% intervals: the worlds' sampling error and the model's error at this decision ({error.mean:.2f} "
            f"{unit} for a mean, {error.diff:.2f} for a difference from the best, standard deviations measured by "
            f"rams-sim check-advice on {error.positions} positions against branch data)")  # fmt: skip
