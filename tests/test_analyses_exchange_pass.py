"""The exchange machinery (analyses/exchange.py) and questions 2 (the exchange) and 4 (pass or play) on small
hand-made tables."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from analyses import exchange as ex
from analyses import q2_exchange as q2
from analyses import q4_pass as q4
from rams_sim.cards import mask_of, parse_cards
from rams_sim.runs.summary import Estimate

HEARTS, SPADES = 3, 0
HAND = mask_of(parse_cards("A♥ K♥ J♠ J♣ 7♦"))  # ascending ids: J♠ 9, J♣ 22, 7♦ 31, K♥ 50, A♥ 51


def hands_frame(masks, trumps, dealer=(1,)) -> pl.DataFrame:
    """A deal_hands-like frame: deal 0.., seat 0, the given hands and trumps."""
    n = len(masks)
    return pl.DataFrame({"deal": np.arange(n, dtype=np.int64), "dealer": np.resize(np.array(dealer, np.int8), n),
                         "trump": np.array(trumps, np.int8), "hand_dealt": np.array(masks, np.uint64),
                         "is_dealer": np.resize(np.array(dealer, np.int8), n) == 0})  # fmt: skip


# ---- features and canonical actions -----------------------------------------------------
def test_features_of_a_written_hand():
    """A♥ K♥ J♠ J♣ 7♦: with ♥ trump two trumps topped by the ace, a black jack pair, three
    plain non-aces, none a king; with ♠ trump one trump (J), a plain ace and a plain king."""
    f = ex.with_features(hands_frame([HAND, HAND], [HEARTS, SPADES])).to_dicts()
    hearts, spades = f
    assert (hearts["aces"], hearts["trumps"], hearts["top"], hearts["jack_pair"]) == (1, 2, ex.TOP_HIGH, True)
    assert (hearts["longest"], hearts["kings"], hearts["n_plain"], hearts["n_low"]) == (2, 0, 3, 3)
    got = tuple(spades[k] for k in ("trumps", "top", "kings", "n_plain", "n_low"))
    assert got == (1, ex.TOP_MID, 1, 3, 2)


def test_canonical_options_follow_the_weakest_order():
    """With ♥ trump the weakest are 7♦, J♠, J♣, then K♥, A♥: option bits 2, 0, 1, 3, 4."""
    opts = ex.canonical_options(hands_frame([HAND], [HEARTS]))
    got = dict(zip(opts["action"], opts["option"]))
    assert got == {ex.PASS: -1, ex.STAND: 0, "x1": 4, "x2": 5, "x3": 7, "x4": 15, "x5": 31}


def branch_rows(options_deltas: dict[int, int], deal: int = 0) -> pl.DataFrame:
    """Branch rows of one deal of HAND (♥ trump, seat 0 not the dealer): option -> delta."""
    opts = list(options_deltas)
    return pl.DataFrame({"deal": [deal] * len(opts), "seat": [0] * len(opts), "dealer": [1] * len(opts),
                         "trump": [HEARTS] * len(opts), "hand_dealt": [HAND] * len(opts), "option": opts,
                         "delta": list(options_deltas.values()), "hand_final": [1000 + o for o in opts]},
                        schema_overrides={"seat": pl.Int8, "dealer": pl.Int8, "trump": pl.Int8, "hand_dealt": pl.UInt64,
                                          "option": pl.Int8, "delta": pl.Int16, "hand_final": pl.UInt64})  # fmt: skip


def test_canonical_gains_on_a_short_talon():
    """A talon of three cards: exchange 4 and 5 fall back to exchange 3; the rule actions
    pick the exchange of their card count; the pass has no row (an ace), so no gain."""
    branch = branch_rows({0: -1, 4: -2, 5: 3, 7: -6, 12: -30})  # 12: a non-canonical discard
    hands = ex.with_features(hands_frame([HAND], [HEARTS]))
    row = ex.canonical_gains(branch.lazy(), hands).row(0, named=True)
    assert row["g_pass"] is None and row["k_max"] == 3
    assert [row[f"g_x{k}"] for k in range(1, 6)] == [2.0, -3.0, 6.0, 6.0, 6.0]
    assert row["g_stand"] == 1.0 and row["h_x5"] == 1007
    assert row["g_low"] == row["g_x3"] and row["g_plain"] == row["g_x3"]  # three plain non-kings, non-aces


def test_canonical_gains_needs_a_stand_row():
    """A deal without its stand row is a data error."""
    branch = branch_rows({4: -2})
    hands = ex.with_features(hands_frame([HAND], [HEARTS]))
    with pytest.raises(ValueError, match="stand row"):
        ex.canonical_gains(branch.lazy(), hands)


# ---- basic's choice -------------------------------------------------------------------------
def run_row(deal, passed, hand_final, discarded, delta) -> dict:
    return {"deal": deal, "seat": 0, "passed": passed, "hand_final": hand_final, "discarded": discarded, "delta": delta}


def branch_for_basic() -> pl.DataFrame:
    """Deal 0: two options end in one hand (a dealer's swap), same delta; deal 1: a pass."""
    rows = [(0, 3, False, 77, 0b011, -4), (0, 5, False, 77, 0b101, -4), (0, 0, False, 60, 0, 2),
            (1, -1, True, 90, 0, 0), (1, 0, False, 90, 0, 5)]
    schema = {"deal": pl.Int64, "option": pl.Int8, "passed": pl.Boolean, "hand_final": pl.UInt64,
              "discards": pl.UInt64, "delta": pl.Int16}  # fmt: skip
    return pl.DataFrame(rows, schema=schema, orient="row")


def test_basic_choice_matches_deal_passed_and_final_hand():
    """Basic's row is found by (deal, passed, final hand, discard count); equal twins are fine."""
    other_seat = run_row(0, False, 1, 0, 9) | {"seat": 1}
    run = pl.DataFrame([run_row(0, False, 77, 2, -4), run_row(1, True, 90, 0, 0), other_seat])
    got = ex.basic_choice(branch_for_basic().lazy(), run.lazy(), pl.Series([0, 1])).to_dicts()
    got_rows = [(r["deal"], r["g_basic"], r["basic_passed"], r["basic_rows"]) for r in got]
    assert got_rows == [(0, 4.0, False, 2), (1, 0.0, True, 1)]
    assert got[0]["basic_option"] == 3


@pytest.mark.parametrize("run_rows", [
    [run_row(0, False, 77, 2, -5), run_row(1, True, 90, 0, 0)],  # the run's delta differs: other deals
    [run_row(0, False, 78, 2, -4), run_row(1, True, 90, 0, 0)],  # no branch row ends in that hand
])  # fmt: skip
def test_basic_choice_fails_loudly(run_rows):
    """A run that is not the same deals as the branch data raises."""
    with pytest.raises(ValueError, match="basic's choice"):
        ex.basic_choice(branch_for_basic().lazy(), pl.DataFrame(run_rows).lazy(), pl.Series([0, 1]))


class FakeContext:
    def __init__(self, runs):
        self.runs = runs

    def manifest(self, name):
        return {"run": self.runs[name]}


def test_same_deals_allows_only_the_named_rule():
    """Datasets differing in seed, or in a rule not allowed to differ, are not the same deals."""
    base = {"seed": 1, "policies": ["basic"], "rules": {"players": 4, "ace_forbids_pass": True}}
    amp = {**base, "rules": {"players": 4, "ace_forbids_pass": False}}
    ctx = FakeContext({"a": base, "b": amp, "c": {**base, "seed": 2}})
    ex.same_deals(ctx, "a", "b", ("ace_forbids_pass",))
    with pytest.raises(ValueError, match="ace_forbids_pass"):
        ex.same_deals(ctx, "a", "b")
    with pytest.raises(ValueError, match="seed"):
        ex.same_deals(ctx, "a", "c")


# ---- classes, selection and evaluation -----------------------------------------------------
def test_assign_classes_backs_off_sparse_cells():
    """Cells under the minimum join the coarser class of what is left; the coarsest keeps the rest."""
    df = pl.DataFrame({"deal": range(10), "a": [0] * 6 + [1] * 4, "b": [0, 0, 0, 0, 1, 2, 0, 0, 0, 1]})
    out = ex.assign_classes(df, (("a",), ("a", "b")), min_deals=3)
    assert out["deal"].to_list() == list(range(10))
    assert out["level"].to_list() == [1] * 4 + [0] * 2 + [1] * 3 + [0]
    assert out["b"].to_list() == [0] * 4 + [None] * 2 + [0] * 3 + [None]


def gains(**cols) -> pl.DataFrame:
    """A per-deal table with a class column ``c`` and g_<action> columns."""
    return pl.DataFrame({k if k in ("deal", "c") else f"g_{k}": v for k, v in cols.items()})


def test_best_actions_takes_the_highest_mean_first_on_ties_and_skips_unavailable():
    df = gains(c=[0, 0, 1, 1, 2, 2], stand=[1.0, 3.0, 0.0, 0.0, 0.0, 0.0], x1=[2.0, 2.0, -1.0, 0.0, 0.0, 0.0],
               **{"pass": [None, None, None, None, 1.0, -1.0]})  # fmt: skip
    got = dict(ex.best_actions(df, ["c"], ("pass", "stand", "x1")).iter_rows())
    assert got == {0: "stand", 1: "stand", 2: "pass"}  # 0: tie 2 = 2, stand first; 1: pass not open


DEALS = np.arange(24)
HELD = [int(d) for d in DEALS[ex.held_out_mask(DEALS)]]  # the held-out deals among 0..23
CHOSEN = [int(d) for d in DEALS[~ex.held_out_mask(DEALS)]]  # the selection half


def test_held_out_chooses_on_one_half_and_measures_on_the_other():
    """Selection deals favour exchange 1, held-out deals favour standing: the table still plays exchange 1."""
    n = 8
    df = pl.DataFrame({"deal": range(n), "c": [0] * n}).with_columns(
        *[pl.lit(0.0).alias(ex.gain_col(a)) for a in ex.ACTIONS],
        *[pl.lit(7, pl.UInt64).alias(ex.hand_col(a)) for a in ex.ACTIONS],
    ).with_columns(
        pl.when(pl.col("deal").is_in(CHOSEN)).then(5.0).otherwise(-1.0).alias("g_x1"),
        pl.lit(None, pl.Float64).alias("g_pass"),
    )  # fmt: skip
    held = q2.held_out(df, ["c"])
    assert held["deal"].to_list() == [d for d in HELD if d < n]
    assert set(held["best"]) == {"x1"} and held["g_best"].to_list() == [-1.0] * held.height
    assert "follows" not in held.columns  # no basic columns given


def test_half_splits_by_a_hash_of_the_deal_not_by_the_dealer():
    """The halves are disjoint and cover every deal; a deal's half is the low bit of splitmix64's mix of
    its number and a salt (rams_sim.kernels.rng.mix64); every dealer position (deal mod n) and so the
    dealer himself falls about half in each (a parity split put seat 0's deals as dealer in one half)."""
    from rams_sim.kernels.rng import mix64

    df = pl.DataFrame({"deal": DEALS})
    assert ex.half(df, select=True)["deal"].to_list() == CHOSEN
    assert ex.half(df, select=False)["deal"].to_list() == HELD
    assert sorted(CHOSEN + HELD) == DEALS.tolist() and 0 < len(HELD) < len(DEALS)
    assert HELD == [d for d in range(24) if int(mix64(np.uint64(d) ^ ex.SPLIT_SALT)) & 1]
    deals = np.arange(400_000)
    held = ex.held_out_mask(deals)
    for n in (2, 4, 7):
        for r in range(n):
            assert abs(held[deals % n == r].mean() - 0.5) < 0.01, (n, r)


def test_apply_table_adds_the_chosen_action_and_refuses_unknown_classes():
    """Each deal gets its class's action with that action's gain and final hand; a class the table lacks raises."""
    df = gains(deal=[0, 1, 2], c=[0, 1, 1], stand=[1.0, 2.0, 3.0], x1=[4.0, 5.0, 6.0]).with_columns(
        pl.lit(7, pl.UInt64).alias(ex.hand_col("stand")), pl.Series(ex.hand_col("x1"), [8, 9, 10], pl.UInt64))
    table = pl.DataFrame({"c": [0, 1], "pick": ["stand", "x1"]})
    out = ex.apply_table(df, table, ["c"], "pick", ("stand", "x1"))
    assert out["g_pick"].to_list() == [1.0, 5.0, 6.0] and out["h_pick"].to_list() == [7, 9, 10]
    with pytest.raises(ValueError, match="no action"):
        ex.apply_table(df, table.filter(pl.col("c") == 0), ["c"], "pick", ("stand", "x1"))


def test_long_values_stacks_named_values_and_drops_nulls():
    """One row per (deal, what) with the value; a null value gives no row."""
    df = gains(deal=[0, 1], c=[5, 5], stand=[1.0, None], x1=[3.0, 4.0])
    out = ex.long_values(df, ["deal"], {"a": pl.col("g_stand"), "b": pl.col("g_x1") - 1})
    assert out.rows() == [(0, "a", 1.0), (0, "b", 2.0), (1, "b", 3.0)]


def test_class_columns_and_cells_read_like_the_page():
    """Dimensions become page text under page headings (merged ones last); cells print as value [lo, hi]."""
    df = pl.DataFrame({ex.ACES: [None, 1, 0], "deals": [3, 2, 1]}, schema={ex.ACES: pl.Int8, "deals": pl.Int64})
    out = ex.class_columns(df, [ex.ACES])
    assert out.columns == ["aces", "deals"] and out["aces"].to_list() == ["0", "1", ex.OTHER]
    assert ex.cell_text({"mean": -1.5, "lo": -2.0, "hi": -1.0, "n": 9}) == "−1.50 [−2.00, −1.00]"
    assert ex.mark(Estimate(1.0, 0.5, 1.5, 9)) == "1.00 [0.50, 1.50] ✓"
    assert ex.mark(Estimate(1.0, -0.5, 2.5, 9)) == "1.00 [−0.50, 2.50]"
    assert ex.mark(Estimate(math.nan, math.nan, math.nan, 0)) == "–"
    assert ex.class_legend([ex.ACES]) == f"- *aces*: {ex.CLASS_WORDS[ex.ACES]}"


def test_dim_text_words():
    assert [ex.dim_text(ex.ACES, v) for v in (0, 1, 2)] == ["0", "1", "2+"]
    assert ex.dim_text(ex.TOP, ex.TOP_HIGH) == "A/K" and ex.dim_text(ex.LONGEST, 2) == "≤2"
    assert ex.dim_text(ex.TRUMPS, None) == ex.OTHER


# ---- question 4 ---------------------------------------------------------------------------
def pass_frame() -> pl.DataFrame:
    """Class 0: passing (0) beats every play (−2) on both halves; class 1: stand (+3) wins. Each class
    has two deals of each half (the held-out ones: the first two of each class, in deal order).
    Basic passes in class 1 only."""
    deal = [HELD[0], HELD[1], CHOSEN[0], CHOSEN[1], HELD[2], HELD[3], CHOSEN[2], CHOSEN[3]]
    c = [0, 0, 0, 0, 1, 1, 1, 1]
    df = pl.DataFrame({"deal": deal, "c": c}).with_columns(
        *[pl.lit(-2.0).alias(ex.gain_col(a)) for a in ex.PLAYS],
        *[pl.lit(7, pl.UInt64).alias(ex.hand_col(a)) for a in ex.ACTIONS],
    )
    return df.with_columns(
        pl.when(pl.col("c") == 1).then(3.0).otherwise(-2.0).alias("g_stand"),
        pl.lit(0.0).alias("g_pass"),
        (pl.col("c") == 1).alias("basic_passed"),
        pl.when(pl.col("c") == 1).then(0.0).otherwise(-4.0).alias("g_basic"),
    )


def test_pass_versus_play_decides_on_one_half_and_measures_on_the_other():
    odd = q4.pass_versus_play(pass_frame(), ["c"]).sort("deal")
    assert odd["deal"].to_list() == HELD[:4]
    assert odd["passes"].to_list() == [True, True, False, False]
    assert odd["pass_gain"].to_list() == [2.0, 2.0, 0.0, 0.0]  # pass − best play where the class passes
    # class 0: basic played (−4), class passes: +4; class 1: basic passed (0), class plays stand (+3): +3
    assert odd["decision_gain"].to_list() == [4.0, 4.0, 3.0, 3.0]


def test_cost_counts_unbound_deals_as_zero():
    """Per bound hand: the mean over bound odd deals; per deal: zeros for the others."""
    all_odd = pl.DataFrame({"deal": [1, 3, 5, 7]})
    bound = pl.DataFrame({"deal": [1, 3], "pass_gain": [2.0, 4.0]})
    per_hand, per_deal = q4.cost_over(all_odd, bound)
    assert (per_hand.value, per_hand.n, per_deal.value, per_deal.n) == (3.0, 2, 1.5, 4)


def test_verdict_needs_an_interval_clear_of_zero():
    assert [q4.verdict(*b) for b in ((0.1, 2.0), (-2.0, -0.1), (-1.0, 1.0))] == ["pass", "play", "unclear"]


def test_class_pass_table_uses_odd_deals_for_the_best_play_and_all_for_basic():
    """Class 0: pass − best play = 0 − (−2) = 2 on the odd deals; pass − basic = 4 on all four deals."""
    df = pass_frame()
    t = q4.class_pass_table(df, q4.pass_versus_play(df, ["c"]), ["c"], q4.VERSUS_A).sort("c").to_dicts()
    assert (t[0]["_mean_pass − best play"], t[0]["_n_pass − best play"]) == (2.0, 2)
    assert (t[0]["_mean_pass − basic"], t[0]["_n_pass − basic"], t[0]["deals"]) == (4.0, 4, 4)
    assert t[1]["_mean_pass − best play"] == -3.0 and t[1]["_mean_pass − basic"] == 0.0


def test_verdict_words_name_the_classes_where_passing_wins():
    t = pl.DataFrame({ex.TRUMPS: [0, 1, 2], "verdict": ["pass", "play", "unclear"]})
    assert q4.verdict_words(t, [ex.TRUMPS]) == (
        "passing clearly beats the best play (simultaneously over the classes) in 1 of 3 classes (trumps 0) and playing clearly beats passing in 1")


def test_a_rule_wins_a_tie_with_the_same_exchange_by_count():
    """Exchanging all plain cards but aces and exchanging 4 are the same cards for most hands:
    on equal means the table names the rule."""
    df = gains(c=[0, 0], stand=[0.0, 0.0], plain=[3.0, 1.0], x4=[3.0, 1.0])
    actions = ("stand", *[a for a in ex.EXCHANGES if a in ("plain", "x4")])
    assert ex.best_actions(df, ["c"], actions)["best"][0] == "plain"


def test_by_position_places_seat_0_by_the_dealer():
    """Seat 0 is the dealer when dealer == 0, first to speak (the dealer's left, R6.1) when dealer == 3;
    each position's row holds only its deals, and the last row all of them."""
    held = pl.DataFrame({ex.DEALER_SEAT: [0, 0, 3, 2, 1, 1], "g": [1.0, 3.0, 5.0, 7.0, 9.0, 11.0]})
    rows = ex.by_position(held, {"g": pl.col("g")})
    assert [r["position"] for r in rows] == ex.position_words() + ["every position"]
    assert [r["deals"] for r in rows] == [1, 1, 2, 2, 6]
    assert [r["g"].value for r in rows] == [5.0, 7.0, 10.0, 2.0, 6.0]
    table = ex.position_table(rows)
    assert table.columns == ["position", "deals", "g"] and table["deals"].to_list() == [1, 1, 2, 2, 6]


def test_verdicts_hold_together_over_the_classes():
    """Ten classes each clear of 0 at 95% on its own (1 [0.1, 1.9]) are "unclear" once the intervals
    must hold together (Bonferroni over the 11 classes with an interval: z 2.84); a class at 5 stays
    "pass", and a class without an interval has no verdict."""
    n = 12
    t = pl.DataFrame({"_mean_d": [1.0] * 10 + [5.0, -5.0], "_lo_d": [0.1] * 10 + [4.1, -5.9],
                      "_hi_d": [1.9] * 10 + [5.9, -4.1], "_n_d": [100] * 11 + [1]})  # fmt: skip
    t = t.with_columns(pl.when(pl.col("_n_d") > 1).then(pl.col("_lo_d")).otherwise(None).alias("_lo_d"))
    out = q4.with_verdicts(t, "d")["verdict"].to_list()
    assert out == ["unclear"] * 10 + ["pass", "no held-out data"]
    assert [q4.verdict(0.1, 1.9)] == ["pass"]  # the same class judged alone
    assert len(out) == n


def test_against_basic_says_whether_the_expert_gain_pays_and_is_clearly_smaller():
    est = ex.Estimate
    basic = est(1.56, 1.53, 1.60, 500)
    assert ex.against_basic(basic, est(0.28, 0.25, 0.30, 500)) == "it still pays, but clearly less than against `basic`."
    assert ex.against_basic(basic, est(0.10, -0.2, 0.4, 500)) == "not clearly more than nothing, but clearly less than " \
        "against `basic`."
    assert ex.against_basic(basic, est(1.50, 1.40, 1.60, 500)) == "it still pays."


def many_classes_frame() -> pl.DataFrame:
    """Ten classes of 400 deals; every play gains the same, ±1 alternating about a class mean, and
    passing gains 0. Class 0's pass − best play is 0.17 on average: clear of 0 at 95% alone
    (about 200 held-out deals, se ≈ 0.07), not once the ten intervals must hold together."""
    n = 400
    c = np.repeat(np.arange(10), n)
    deal = np.arange(c.size, dtype=np.int64)
    mean = np.where(c == 0, -0.17, np.where(c == 1, -3.0, 0.0))
    held = ex.held_out_mask(deal)
    rank = pl.DataFrame({"c": c, "h": held}).select(pl.int_range(pl.len()).over("c", "h"))["literal"].to_numpy()
    play = mean + np.where(rank % 2 == 0, 1.0, -1.0)  # ±1 alternating within each class and half
    df = pl.DataFrame({"deal": deal, "c": c}).with_columns(
        *[pl.Series(ex.gain_col(a), play) for a in ex.PLAYS],
        *[pl.lit(7, pl.UInt64).alias(ex.hand_col(a)) for a in ex.ACTIONS],
    )
    return df.with_columns(pl.lit(0.0).alias("g_pass"), pl.lit(False).alias("basic_passed"),
                           pl.Series("g_basic", play))  # fmt: skip


def test_figure_colours_come_from_the_tables_simultaneous_verdicts():
    """A class clear of 0 alone but not jointly is grey in the figure, as "unclear" in the table;
    the clear class is coloured as the table's "pass"."""
    df = many_classes_frame()
    held = q4.pass_versus_play(df, ["c"])
    table = q4.verdict_table(df, held, ["c"], q4.VERSUS_A).sort("c")
    fig_table = q4.figure_tables(df, held, ["c"])[0]
    row0 = fig_table.row(0, named=True)
    assert row0["_lo_d"] > 0 and row0["verdict"] == "unclear"  # clear alone, not jointly
    assert fig_table["verdict"].to_list() == table["verdict"].to_list()
    assert fig_table["verdict"][1] == "pass"
    assert q4.FIGURE_COLOURS["unclear"] != q4.FIGURE_COLOURS["pass"]


def test_figure_labels_are_compact_and_name_merged_classes():
    keys = [ex.ACES, ex.TRUMPS, ex.TOP, ex.KINGS, ex.JACK_PAIR, ex.DEALER]
    row = {ex.ACES: 1, ex.TRUMPS: 0, ex.TOP: ex.TOP_NONE, ex.KINGS: 1, ex.JACK_PAIR: False, ex.DEALER: None}
    assert q4.class_label(row, keys) == "1 ace, 0 trumps, kings 1+ (rest)"
    row.update({ex.TOP: ex.TOP_HIGH, ex.TRUMPS: 3, ex.JACK_PAIR: True, ex.DEALER: True})
    assert q4.class_label(row, keys) == "1 ace, 3+ trumps, top A/K, kings 1+, jack pair, dealer"


def test_zero_by_construction_is_stated_as_such():
    """The cost against the best play where no class passes is named zero by construction, never measured."""
    words = q4.zero_by_construction({ex.ACES: 1}, Estimate(-1.5, -2.0, -1.0, 100), [ex.ACES], 1000)
    assert "0 by construction, not a measurement" in words and "nothing we can measure" not in words
    assert q4.cost_cell(Estimate(0.0, 0.0, 0.0, 10), True) == "0 (by construction)"


def test_heatmap_text_contrasts_with_its_cell():
    """Numbers on the darkest cells of the heat map are white, on the light ones black."""
    import matplotlib.pyplot as plt

    cmap = plt.get_cmap(q2.HEAT_CMAP)
    assert q2.text_colour(cmap(0.0)) == "white" and q2.text_colour(cmap(1.0)) == "white"
    assert q2.text_colour(cmap(0.5)) == "black"
    assert q2.text_colour((0.4, 0.0, 0.1, 1.0)) == "white"  # the dark red that printed black numbers


def test_a_difference_zero_in_every_deal_reads_identical():
    """pass − basic where basic passes every hand of the class is 0 by construction: "0 (identical)", no ✓;
    a measured difference keeps its interval."""
    assert ex.est_text(Estimate(0.0, 0.0, 0.0, 500)) == ex.IDENTICAL == "0 (identical)"
    assert ex.mark(Estimate(0.0, 0.0, 0.0, 500)) == "0 (identical)"
    assert ex.est_text(Estimate(0.0, -0.1, 0.1, 500)) == "0.00 [−0.10, 0.10]"
    assert ex.est_text(Estimate(0.0, 0.0, 0.0, 0)) == "–"
