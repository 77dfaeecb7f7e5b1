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
    from rams_sim.summary import Estimate

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
