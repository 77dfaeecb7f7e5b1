"""Questions 1 and 3 (analyses/q1_ace_equity.py, analyses/q3_odds.py) on small hand-made tables with known answers."""

from __future__ import annotations

import math
from fractions import Fraction

import polars as pl
import pytest

from analyses import q1_ace_equity as Q1
from analyses import q3_odds as Q3
from analyses.clustered import clustered_wilson
from analyses.data import REGISTRY
from rams_sim import cards as C
from rams_sim.odds import DECLARATIONS, dealt_odds
from rams_sim.record import Declaration, Outcome
from rams_sim.runs.summary import wilson


def hands(*texts: str) -> pl.Series:
    """A uint64 column of card masks, one per text such as ``"A♥ K♥ 7♠ 8♠ 9♣"``."""
    return pl.Series("hand_dealt", [C.mask_of(C.parse_cards(t)) for t in texts], pl.UInt64)


# ---- question 1: hand classes and values ----------------------------------------------
def test_classify_puts_each_dealt_hand_in_its_ace_class():
    """No ace, one ace as trump or off-trump, and two aces get the classes the page defines."""
    df = pl.DataFrame({"trump": pl.Series([C.HEARTS, C.DIAMONDS, C.CLUBS, C.CLUBS], dtype=pl.Int8)}).with_columns(
        hands("A♥ K♥ 7♠ 8♠ 9♣", "A♠ K♥ 7♦ 8♠ 9♣", "K♠ Q♥ 7♦ 8♠ 9♣", "A♣ A♦ 7♦ 8♠ 9♣"))
    out = Q1.classify(df)
    assert out["ace"].to_list() == [C.HEARTS, C.SPADES, Q1.NO_ACE, Q1.TWO_OR_MORE]
    assert out["kind"].to_list() == [Q1.AS_TRUMP, Q1.OFF_TRUMP, Q1.ANY_KIND, Q1.ANY_KIND]
    assert Q1.ace_label(C.HEARTS, Q1.AS_TRUMP) == "♥A only, as trump"


def test_values_split_the_gain_into_ace_points_and_the_rest():
    """A trick writes the held aces off, a remiz writes them on, a pass or a rams counts none (R7.1, R7.2)."""
    aces = [1 << C.HEARTS, 1 << C.DIAMONDS, 0, 1 << C.SPADES, 1 << C.CLUBS]
    df = pl.DataFrame({
        "aces": pl.Series(aces, dtype=pl.Int8),
        "passed": [False, False, True, False, False],
        "tricks": pl.Series([1, 0, 0, 5, 0], dtype=pl.Int8),
        "delta": pl.Series([-21, 20, 0, -10, 15], dtype=pl.Int16),
        "outcome": pl.Series([Outcome.PLAYED, Outcome.PLAYED, Outcome.PLAYED, Outcome.LONE, Outcome.RAMS],
                             dtype=pl.Int8),
    })  # fmt: skip
    out = Q1.with_values(df.lazy(), (5, 10, 15, 20)).collect()
    assert out["gain"].to_list() == [21, -20, 0, 10, -15]
    assert out["remiz"].to_list() == [0, 1, 0, 0, 0]
    assert out["bonus"].to_list() == [20, -15, 0, 5, 0]
    assert out["rest"].to_list() == [1, -5, 0, 5, -15]


# ---- question 3: declarations ------------------------------------------------------------
def test_dealt_flags_follow_the_definitions_of_odds_py():
    """Four aces, trump and plain rams, four jacks, and a same-colour pair (three jacks included) are flagged."""
    texts = ["A♠ A♣ A♦ A♥ 7♠", "A♥ K♥ Q♥ J♥ 7♥", "A♠ K♠ Q♠ J♠ 7♠", "J♠ J♣ J♦ J♥ 7♠", "J♠ J♣ 8♦ 9♥ 7♠",
             "J♠ J♦ 8♦ 9♥ 7♠", "J♠ J♣ J♦ 9♥ 7♠"]  # fmt: skip
    trumps = [C.HEARTS, C.HEARTS, C.DIAMONDS, C.CLUBS, C.CLUBS, C.CLUBS, C.CLUBS]
    df = pl.DataFrame({"trump": pl.Series(trumps, dtype=pl.Int8)}).with_columns(hands(*texts))
    out = Q3.dealt_flags(df)
    expected = {
        "four_aces": [1, 0, 0, 0, 0, 0, 0],
        "rams": [0, 1, 1, 0, 0, 0, 0],
        "trump_rams": [0, 1, 0, 0, 0, 0, 0],
        "suit_rams": [0, 0, 1, 0, 0, 0, 0],
        "four_jacks": [0, 0, 0, 1, 0, 0, 0],
        "jack_pair": [0, 0, 0, 0, 1, 0, 1],
    }
    assert set(expected) == set(DECLARATIONS)
    for name, flags in expected.items():
        assert out[name].cast(pl.Int8).to_list() == flags, name


def test_shares_counts_hands_and_clusters_by_deal():
    """Three deals of two seats: the counts and share are exact and the interval holds the share."""
    df = pl.DataFrame({"deal": [0, 0, 1, 1, 2, 2], "cell": [1] * 6, "f": [True, False, False, False, True, True]})
    row = Q3.shares(df, ["cell"], ["f"]).row(0, named=True)
    assert (row["n"], row["k"]) == (6, 3)
    assert row["p"] == pytest.approx(0.5)
    assert row["lo"] < 0.5 < row["hi"]


def test_with_exact_marks_intervals_that_hold_the_exact_odds():
    """A frequency at the exact rams odds is inside its interval; one at twice the odds (tight interval) is not."""
    exact = float(dealt_odds(32)["rams"])
    n = 10_000_000
    table = pl.DataFrame({"deck": [32, 32], "flag": ["rams", "rams"], "n": [n, n], "p": [exact, 2 * exact],
                          "deff": [1.0, 1.0]})  # fmt: skip
    bounds = [clustered_wilson(p, math.sqrt(p * (1 - p) / n), n) for p in table["p"]]
    table = table.with_columns(pl.Series("lo", [b.low for b in bounds]), pl.Series("hi", [b.high for b in bounds]))
    out = Q3.with_exact(table, 3.5)
    assert out["exact"].to_list() == pytest.approx([exact, exact])
    assert out["inside"].to_list() == [True, False]
    assert out["inside_all"].to_list() == [True, False]


def test_declared_flags_map_each_code_to_its_row():
    """Each R5 code lands in the rows of DECLARED that name it, and only there."""
    codes = [Declaration.NONE, Declaration.TRUMP_RAMS, Declaration.RAMS_OUTRANKED, Declaration.JACK_PAIR]
    out = Q3.declared_flags(pl.DataFrame({"declaration": pl.Series([int(c) for c in codes], dtype=pl.Int8)}))
    assert out["a rams (counted or outranked)"].to_list() == [False, True, True, False]
    assert out["trump rams (counted)"].to_list() == [False, True, False, False]
    assert out["jack pair"].to_list() == [False, False, False, True]
    assert not out["four aces"].any()


def test_endings_count_deals_without_play_and_lone_players_apart():
    """Rams, four aces and everybody passing are no play; a lone player is counted on its own."""
    outcomes = [Outcome.PLAYED, Outcome.RAMS, Outcome.FOUR_ACES, Outcome.NOBODY, Outcome.LONE, Outcome.PLAYED,
                Outcome.PLAYED, Outcome.PLAYED]  # fmt: skip
    df = pl.DataFrame({"cell": [0] * 8, "outcome": pl.Series([int(o) for o in outcomes], dtype=pl.Int8)})
    row = Q3.endings(df, ["cell"]).row(0, named=True)
    assert row["deals"] == 8
    assert row["k_no play"] == 3 and row["k_rams"] == 1 and row["k_one player, no play"] == 1
    assert row["p_no play"] == pytest.approx(3 / 8)
    assert (row["lo_no play"], row["hi_no play"]) == pytest.approx((wilson(3, 8).low, wilson(3, 8).high))


def test_deal_datasets_name_every_deck_and_table_size_once():
    """Every basic deal dataset of the registry appears with its deck; the classic tables are among them."""
    found = Q3.deal_datasets(REGISTRY)
    assert ("deals-4p", 4, 32) in found and ("deals-5p", 5, 52) in found and ("deals-5p-deck32", 5, 32) in found
    assert len({(p, d) for _, p, d in found}) == len(found)
    assert all(REGISTRY[name].policies == ("basic",) for name, _, _ in found)
    assert all(5 * p + 1 <= d for _, p, d in found)  # R2: every table can be dealt


def test_percentages_and_one_in_read_like_the_page():
    """Shares print with significant digits; exact odds also as "1 in N"."""
    assert Q3.pct(0.000139) == "0.0139%"
    assert Q3.pct(0.04, 0.039, 0.041) == "4.00% [3.90, 4.10]"
    assert Q3.pct(0.0, 0.0, 0.000032) == "0.00000% [0.00000, 0.00320]"
    assert Q3.one_in(Fraction(28, 201376)) == "1 in 7,192"


def test_chance_of_misses_is_a_binomial_tail():
    """No misses are certain; all misses of two cells have probability 0.05²; the tail falls as misses grow."""
    assert Q3.at_least_by_chance(0, 120) == pytest.approx(1.0)
    assert Q3.at_least_by_chance(2, 2) == pytest.approx(0.05**2)
    assert Q3.at_least_by_chance(6, 120) > Q3.at_least_by_chance(12, 120)


def test_figure_series_keep_the_players_apart():
    """basic, expert and pimc rows at 4 players land in three labelled series, each with one point per table size."""
    rows = [{"policy": pol, "ace": 3, "kind": kind, "players": p, "gain_diff": 1.0, "gain_dse": 0.1}
            for pol, sizes in (("basic", (2, 3, 4)), ("expert", (4,)), ("pimc", (4,)))
            for p in sizes for kind in (Q1.AS_TRUMP, Q1.OFF_TRUMP)]  # fmt: skip
    series = Q1.figure_series(pl.DataFrame(rows))
    assert len(series) == 6
    for policy, _ace, _kind, g in series:
        assert g["players"].is_unique().all() and set(g["policy"]) == {policy}
    assert [s[0] for s in series] == ["basic", "basic", "expert", "expert", "pimc", "pimc"]
    assert Q1.players_of("deals-4p-expert") == "expert" and Q1.players_of("deals-5p") == "basic"


def test_lone_words_define_ends_before_play_against_page_7():
    """Page 3's share leaves out a lone player's deals; the sentence names them and page 7's sum (5.06 + 1.23)."""
    one = Q3.ENDING_WORDS[Q3.Outcome.LONE]
    row = {"p_no play": 0.0506, f"p_{one}": 0.0123, f"lo_{one}": 0.0122, f"hi_{one}": 0.0125}
    words = Q3.lone_words(row)
    assert "are not counted" in words and "page 7 counts them too (6.29%" in words
