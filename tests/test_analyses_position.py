"""Page 5's verdicts over the table sizes, and the joint intervals of analyses.stats."""

from __future__ import annotations

from analyses import q5_position as q5
from analyses.stats import estimate_columns, simultaneous, simultaneous_z
from rams_sim.runs.summary import Estimate


def test_simultaneous_widens_every_interval_by_the_bonferroni_z():
    """Five 95% intervals of half-width 1.96 widen to half-width z(5) ≈ 2.58, centres kept."""
    joint = simultaneous({p: Estimate(float(p), p - 1.96, p + 1.96, 10) for p in range(5)})
    assert set(joint) == set(range(5))
    for p, est in joint.items():
        assert est.value == p and abs(est.high - p - simultaneous_z(5)) < 1e-3 and est.n == 10


def test_first_hand_clear_alone_is_not_clear_jointly():
    """0.043 [0.009, 0.077] is clear at 95% alone; over five table sizes it holds 0 and the page says so."""
    alone = Estimate(0.043, 0.009, 0.077, 2_000_000)
    joint = simultaneous({p: alone for p in range(3, 8)})[4]
    assert joint.low < 0 < joint.high
    words = q5.gap_words(alone, joint, 5, Estimate(6.45, 6.42, 6.48, 2_000_000))
    assert "jointly over the 5 table sizes" in words and "not clear" in words and "First hand does" not in words
    clearly = q5.gap_words(Estimate(0.2, 0.17, 0.23, 9), simultaneous({p: Estimate(0.2, 0.17, 0.23, 9)
                                                                         for p in range(5)})[0], 5,
                           Estimate(6.45, 6.42, 6.48, 9))  # fmt: skip
    assert clearly.startswith("First hand does better (clear jointly")


def test_joint_table_judges_the_joint_interval():
    alone = {4: Estimate(0.043, 0.009, 0.077, 100)}
    t = q5.joint_table(alone, {4: Estimate(0.043, -0.002, 0.088, 100)}, "gap")
    assert t["clear?"].to_list() == ["no (joint interval holds 0)"]


def test_estimate_columns_are_numbers():
    cols = estimate_columns(Estimate(1.5, 1.0, 2.0, 7), "edge_")
    assert cols == {"edge_estimate": 1.5, "edge_ci_low": 1.0, "edge_ci_high": 2.0, "edge_n": 7}
