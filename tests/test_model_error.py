"""advise's model-error term (issue 45, rams_sim/advice/model_error.py): fitted, looked up, added, said.

The fit is the least sigma that makes 95% of the calibration options covered, checked on typed
residuals; the shipped table has a row for each decision the suite measures and advise adds it to
its intervals (and says so) exactly there; a decision without a row keeps the sampling interval and
says that instead.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from rams_sim import advise
from rams_sim.advice import model_error as M


def test_the_fit_is_the_least_sigma_covering_95_percent():
    rng = np.random.default_rng(0)
    sampling = np.full(4000, 0.1)
    residual = rng.normal(0.0, math.hypot(0.1, 0.5), 4000) * 1.0  # a model error of 0.5 beside sampling 0.1
    sigma = M.fit_sigma(residual, sampling)
    covered = np.abs(residual) < M.Z95 * np.sqrt(sampling**2 + sigma**2)
    assert covered.mean() >= 0.95 and abs(sigma - 0.5) < 0.05
    assert M.fit_sigma(np.array([0.0, 0.05]), np.array([0.1, 0.1])) == 0.0  # covered by sampling alone
    need = M.needed(np.array([M.Z95]), np.array([0.0]))
    assert need[0] == pytest.approx(1.0)


def test_widen_adds_the_error_to_every_interval_but_the_best_rows_difference():
    rows = [{"mean": -2.0, "se": 0.1, "ci_low": -2.2, "ci_high": -1.8, "diff": 0.0, "diff_se": 0.0, "diff_low": 0.0,
             "diff_high": 0.0},
            {"mean": -1.0, "se": 0.1, "ci_low": -1.2, "ci_high": -0.8, "diff": 1.0, "diff_se": 0.05, "diff_low": 0.9,
             "diff_high": 1.1}]  # fmt: skip
    M.widen(rows, M.ModelError(mean=0.3, diff=0.2, positions=10, seed=1))
    half = M.Z95 * math.hypot(0.1, 0.3)
    assert rows[0]["ci_low"] == pytest.approx(-2.0 - half) and rows[0]["diff_low"] == rows[0]["diff_high"] == 0.0
    assert rows[1]["diff_high"] - rows[1]["diff"] == pytest.approx(M.Z95 * math.hypot(0.05, 0.2))
    assert "0.30 points for a mean" in M.describe(M.ModelError(0.3, 0.2, 10, 1))
    assert "sampling error of the worlds only" in M.describe(None)


def test_the_table_merges_by_decision(tmp_path):
    path = tmp_path / "me.csv"
    M.write_table(path, [{"game": "rams", "stage": "exchange", "infer": "policy", "measure": m, "sigma": s,
                          "options": 50, "positions": 9, "seed": 1} for m, s in (("mean", 0.2), ("diff", 0.1))])
    M.write_table(path, [{"game": "rams", "stage": "play", "infer": "none", "measure": "mean", "sigma": 3.0,
                          "options": 40, "positions": 8, "seed": 2}])
    assert M.lookup("rams", "exchange", "policy", path) == M.ModelError(0.2, 0.1, 9, 1)
    assert M.lookup("rams", "play", "none", path).mean == 3.0 and M.lookup("rams", "trump", "policy", path) is None


def test_the_shipped_table_is_what_advise_adds_and_says():
    """The exchange's measured error is in advise's interval and its words; the JSON carries it."""
    error = M.lookup("rams", "exchange", "policy")
    assert error is not None and error.positions >= 50 and 0 < error.diff <= error.mean
    a = advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=2, dealer=0, exchanged="1=2", target_se=0.3)
    assert a.model_error == error and f"{error.mean:.2f} points for a mean" in a.interval
    row = a.rows[0]
    assert row["ci_high"] - row["mean"] == pytest.approx(M.Z95 * math.hypot(row["se"], error.mean))
    data = a.to_json()
    assert data["model_error"]["mean"] == error.mean and data["interval"] == a.interval
    raw = advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=2, dealer=0, exchanged="1=2", target_se=0.3, with_model_error=False)
    assert raw.model_error is None and raw.rows[0]["ci_high"] - raw.rows[0]["mean"] == pytest.approx(M.Z95 * row["se"])
