"""Question 8 (the rule systems side by side) on synthetic data with known answers."""

from __future__ import annotations

import polars as pl
import pytest

from analyses import q8_variants as q8
from analyses.data import REGISTRY
from rams_sim.record import Outcome
from rams_sim.rules import PRESETS


def party_rows(winners: list[int], players: int = 2) -> pl.DataFrame:
    """One row per (party, seat) with the given winner of each party."""
    rows = [(p, s, s == w) for p, w in enumerate(winners) for s in range(players)]
    party, seat, won = zip(*rows)
    return pl.DataFrame({"party": party, "seat": seat, "won": won}, schema={"party": pl.Int64, "seat": pl.Int8,
                                                                         "won": pl.Boolean})  # fmt: skip


def test_skill_is_the_paired_difference_of_seat_0_wins():
    """Seat 0 wins parties 0 and 1 as expert, only party 1 as random: +1/4 per party over four parties."""
    as_random = party_rows([1, 0, 1, 1])
    as_expert = party_rows([0, 0, 1, 1])
    est = q8.skill(q8.seat_wins(as_random), q8.seat_wins(as_expert))
    assert est.n == 4 and est.value == pytest.approx(0.25)
    assert q8.seat_wins(as_expert)["won"].to_list() == [1.0, 1.0, 0.0, 0.0]
    same = q8.skill(q8.seat_wins(as_random), q8.seat_wins(as_random))
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0)


def test_declaration_ends_counts_every_declaration_outcome_once_per_deal():
    """Outcomes decided at a declaration count; played, lone, nobody and void deals do not."""
    outcomes = [Outcome.PLAYED, Outcome.RAMS, Outcome.FOUR_ACES, Outcome.JACKS_END, Outcome.LONE, Outcome.NOBODY,
                Outcome.VOID, Outcome.PLAYED]  # fmt: skip
    df = pl.DataFrame({"deal": [d for d in range(8) for _ in range(2)], "seat": [0, 1] * 8,
                       "outcome": [int(o) for o in outcomes for _ in range(2)]})  # fmt: skip
    est = q8.declaration_ends(df)
    assert (est.value, est.n) == (3 / 8, 8)


def test_points_formats_percentage_points_with_a_sign():
    """A difference of shares is printed in percentage points, signed."""
    from rams_sim.runs.summary import Estimate

    assert q8.points(Estimate(0.641, 0.622, 0.66, 10)) == "+64.1 [62.2, 66.0]"
    assert q8.points(Estimate(-0.05, -0.1, 0.0, 10)) == "−5.0 [−10.0, 0.0]"


def test_every_implemented_preset_has_its_datasets_and_no_other_does():
    """The page follows PRESETS: four datasets per implemented preset, none for the others."""
    for preset, info in PRESETS.items():
        names = [f"variant-{preset}-{k}" for k in q8.KINDS]
        assert all((n in REGISTRY) is info.implemented for n in names), preset
    expert0 = REGISTRY["variant-classic-expert0"]
    assert expert0.policies[0] == "expert" and set(expert0.policies[1:]) == {"random"}
    assert expert0.seed == REGISTRY["variant-classic-random"].seed


def variant_row(preset: str, skill_basic, dealer, fair: float = 0.5) -> dict:
    """A side-by-side row with just what the verdicts read (Estimates from tuples)."""
    from rams_sim.runs.summary import Estimate

    return {"preset": preset, "skill_basic": Estimate(*skill_basic), "skill": Estimate(*skill_basic),
            "dealer": dealer, "fair": fair}


def test_verdicts_over_the_systems_are_joint():
    """Nine systems: one whose expert is below basic at 95% alone (−0.02 [−0.039, −0.001]) and one whose first
    dealer is above the fair share alone (51% of 10,000) are not named once the nine intervals hold together;
    a clear case (−0.3, 60%) stays named."""
    from rams_sim.runs.summary import wilson

    rows = [variant_row(f"p{i}", (0.0, -0.01, 0.01, 1000), wilson(5000, 10_000)) for i in range(7)]
    rows.append(variant_row("alone", (-0.02, -0.039, -0.001, 1000), wilson(5100, 10_000)))
    rows.append(variant_row("clear", (-0.3, -0.32, -0.28, 1000), wilson(6000, 10_000)))
    assert wilson(5100, 10_000).low > 0.5  # clear alone
    above, below = q8.fair_share_verdicts(rows)
    assert above == ["clear"] and below == []
    takeaway = q8._takeaways([{**r, "length": r["skill"]} for r in rows])
    assert "in `clear` the `expert` policy plays worse" in takeaway[1] and "`alone`" not in takeaway[1]
    assert "in 1 of 9 systems (`clear`)" in takeaway[3]


def test_side_by_side_csv_is_numeric():
    """The CSV behind the side-by-side table holds numbers: per measure estimate, ci_low, ci_high, n."""
    from rams_sim.rules import Rules
    from rams_sim.runs.summary import Estimate

    est = Estimate(0.5, 0.4, 0.6, 100)
    row = {"preset": "classic", "rules": Rules.named("classic"), "parties": 100, "median": est, "fair": 0.25,
           "unfinished": 0, **{k: est for k in q8.SIDE_BY_SIDE}}  # fmt: skip
    df = q8.side_by_side_numbers([row])
    assert all(dtype.is_numeric() for name, dtype in df.schema.items() if name != "preset")
    assert {"skill_expert_minus_basic_estimate", "skill_expert_minus_basic_ci_low",
            "skill_expert_minus_basic_ci_high", "skill_expert_minus_basic_n"} <= set(df.columns)


def test_an_identical_skill_is_zero_by_construction():
    """A skill difference exactly 0 in every party reads "0 (identical)" and the takeaway calls it no finding."""
    from rams_sim.runs.summary import Estimate, wilson

    zero = Estimate(0.0, 0.0, 0.0, 100)
    assert q8.skill_cell(zero, zero) == "0 (identical)"
    assert q8.skill_cell(Estimate(0.01, -0.01, 0.03, 100), Estimate(0.01, -0.02, 0.04, 100)).endswith(" °")
    rows = [variant_row("a", (0.1, 0.09, 0.11, 100), wilson(50, 100)), variant_row("same", (0.0, 0.0, 0.0, 100),
                                                                                  wilson(50, 100))]  # fmt: skip
    takeaway = q8._takeaways([{**r, "length": r["skill"]} for r in rows])[1]
    assert "in `same` the two win exactly the same parties, a zero by construction" in takeaway
