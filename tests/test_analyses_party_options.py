"""Questions 6 (the party) and 7 (rule options): the computations on small hand-built tables."""

from __future__ import annotations

import math

import polars as pl
import pytest

from analyses import q6_party as q6
from analyses import q7_options as q7
from analyses.common import mean_estimate, paired_difference
from rams_sim.cards import mask_of, parse_cards
from rams_sim.record import Declaration, EndKind, Outcome
from rams_sim.runs.summary import Estimate


def mask(text: str) -> int:
    return int(mask_of(parse_cards(text)))


# ---- question 6 ----------------------------------------------------------------------
def party_frame(rows: list[tuple]) -> pl.DataFrame:
    """Rows (party, seat, deals, score, winner, end_kind, settlement) of 3-player parties."""
    names = ["party", "seat", "deals", "score", "winner", "end_kind", "settlement"]
    df = pl.DataFrame(rows, schema=names, orient="row")
    return df.with_columns(
        pl.col("seat").cast(pl.Int8), pl.lit(3, pl.Int8).alias("players"), pl.col("winner").cast(pl.Int8),
        (pl.col("winner") == pl.col("seat")).alias("won"), pl.col("end_kind").cast(pl.Int8),
        pl.col("settlement").cast(pl.Float64), pl.lit(0, pl.Int16).alias("resets"),
    )  # fmt: skip


PARTIES = party_frame([
    (0, 0, 10, 0, 0, EndKind.TRICK, 70.0), (0, 1, 10, 30, 0, EndKind.TRICK, -30.0),
    (0, 2, 10, 40, 0, EndKind.TRICK, -40.0),
    (1, 0, 6, 20, 2, EndKind.RAMS, -20.0), (1, 1, 6, 20, 2, EndKind.RAMS, -20.0), (1, 2, 6, -3, 2, EndKind.RAMS, 40.0),
    (2, 0, 1000, 5, -1, EndKind.UNFINISHED, 0.0), (2, 1, 1000, 9, -1, EndKind.UNFINISHED, 0.0),
    (2, 2, 1000, 7, -1, EndKind.UNFINISHED, 0.0),
])  # fmt: skip


def test_parties_is_one_row_per_party():
    """parties() keeps one row per party with its length, winner and end."""
    p = q6.parties(PARTIES.lazy())
    assert p["party"].to_list() == [0, 1, 2]
    assert p["deals"].to_list() == [10, 6, 1000]
    assert p["winner"].to_list() == [0, 2, -1]


def test_same_parties_counts_differing_rows():
    """Identical tables differ in no row; one changed score and one missing row make two."""
    assert q6.same_parties(PARTIES, PARTIES.lazy()) == (9, 0)
    changed = PARTIES.with_columns(pl.when((pl.col("party") == 1) & (pl.col("seat") == 0)).then(21)
                                   .otherwise(pl.col("score")).alias("score"))  # fmt: skip
    assert q6.same_parties(PARTIES, changed) == (9, 1)
    assert q6.same_parties(PARTIES, changed.filter(pl.col("party") != 2))[1] == 4  # 1 changed + 3 missing
    # settlement alone may differ: it is not part of the comparison
    assert q6.same_parties(PARTIES, PARTIES.with_columns(pl.col("settlement") * 0)) == (9, 0)


def test_length_summary_counts_unfinished():
    """The length summary counts the parties stopped at the deal limit and averages every party."""
    s = q6.length_summary(q6.parties(PARTIES))
    assert s["n"] == 3 and s["unfinished"] == 1
    assert s["mean"].value == pytest.approx((10 + 6 + 1000) / 3)


def test_wins_by_seat_fair_share_of_finished_parties():
    """Each seat's wins are counted per party; the fair share is finished parties / players."""
    w = q6.wins_by_seat(PARTIES)
    assert w["k"].to_list() == [1, 0, 1]
    assert w["n"].to_list() == [3, 3, 3]
    assert w["fair"][0] == pytest.approx((2 / 3) / 3)
    assert all(lo - 1e-12 <= p <= hi for p, lo, hi in w.select("p", "lo", "hi").iter_rows())


def test_first_dealer_edge_per_party():
    """Seat 0's win minus the others' mean win: 1 when he wins, −1/2 when another does, 0 unfinished."""
    edge = q6.first_dealer_edge(PARTIES)
    assert sorted(edge.to_list()) == [-0.5, 0.0, 1.0]


def test_places_and_settlement_by_place():
    """Place 0 is the winner, then losers by remaining score (ties by seat); unfinished parties drop out."""
    placed = q6.with_place(PARTIES).sort("party", "seat").collect()
    assert placed["place"].to_list() == [0, 1, 2, 1, 2, 0]
    s = q6.settlement_by_place(PARTIES)
    assert s["place"].to_list() == [0, 1, 2]
    assert s["mean"].to_list() == pytest.approx([55.0, -25.0, -30.0])
    assert s["n"].to_list() == [2, 2, 2]


def test_end_kinds_shares():
    """How parties ended: counts and shares over all parties, with names."""
    e = q6.end_kinds(q6.parties(PARTIES))
    assert e["end_kind"].to_list() == [EndKind.RAMS, EndKind.TRICK, EndKind.UNFINISHED]
    assert e["k"].to_list() == [1, 1, 1] and e["n"].to_list() == [3, 3, 3]
    assert e["p"].to_list() == pytest.approx([1 / 3] * 3)
    assert "rams" in e["how"][0]


# ---- question 7: estimates -------------------------------------------------------------
def test_identical_only_for_exact_zero():
    """Only a zero-width interval at 0 counts as identical."""
    assert q7.identical(Estimate(0.0, 0.0, 0.0, 5))
    assert not q7.identical(Estimate(0.0, -0.1, 0.1, 5))


# ---- question 7: per-unit values -------------------------------------------------------
HEART_ONLY = mask("A♥ 7♠ 8♠ 9♣ 10♦")  # the ♥A as only ace
NO_ACE = mask("K♥ 7♣ 8♣ 9♦ 10♠")
TWO_ACES = mask("A♥ A♠ 8♦ 9♦ 10♣")
OTHER = mask("A♣ J♣ Q♦ 7♥ 8♥")  # an ace, not the ♥A


def deal_frame(deltas: list[int], passed=(False,) * 4, tricks=(1, 1, 1, 0), outcome=Outcome.PLAYED,
               declaration=(0, 0, 0, 0), deal=0, dealer=0) -> pl.DataFrame:  # fmt: skip
    hands = [HEART_ONLY, NO_ACE, TWO_ACES, OTHER]
    return pl.DataFrame({
        "deal": [deal] * 4, "seat": list(range(4)), "dealer": [dealer] * 4, "players": [4] * 4, "trump": [0] * 4,
        "hand_dealt": hands, "hand_final": hands, "passed": list(passed), "discarded": [0] * 4,
        "took_trump": [False] * 4, "declaration": list(declaration), "tricks": list(tricks), "delta": deltas,
        "outcome": [int(outcome)] * 4,
    }, schema_overrides={"seat": pl.Int8, "dealer": pl.Int8, "players": pl.Int8, "trump": pl.Int8,
                         "hand_dealt": pl.UInt64, "hand_final": pl.UInt64, "declaration": pl.Int8, "tricks": pl.Int8,
                         "delta": pl.Int16, "outcome": pl.Int8, "discarded": pl.Int8})  # fmt: skip


DEALS = pl.concat([
    deal_frame([-21, -2, 10, 5], passed=(False, False, False, True), tricks=(1, 2, 0, 0), dealer=0),
    deal_frame([5, 0, 0, -7], tricks=(0, 0, 0, 0), outcome=Outcome.RAMS,
               declaration=(0, 0, 0, Declaration.SUIT_RAMS), deal=1, dealer=1),
])  # fmt: skip


def test_deal_values_by_hand():
    """Per deal: mean gain, remiz, before-play end, declaration, passes, the dealer's edge and ♥A sums."""
    d = q7.deal_values(DEALS.lazy())
    first, second = d.row(0, named=True), d.row(1, named=True)
    assert first["gain"] == pytest.approx((21 + 2 - 10 - 5) / 4)
    assert first["remiz"] == pytest.approx(1 / 4)  # seat 2 played and took nothing; seat 3 passed
    assert first["before_play"] == 0 and first["declared"] == 0 and first["pass"] == pytest.approx(1 / 4)
    assert first["dealer_edge"] == pytest.approx(21 - (2 - 10 - 5) / 3)
    assert (first["ha_s"], first["ha_n"], first["na_s"], first["na_n"]) == (21, 1, 2, 1)
    assert second["before_play"] == 1 and second["declared"] == 1 and second["remiz"] == 0
    assert second["dealer_edge"] == pytest.approx(0 - (-5 + 0 + 7) / 3)  # seat 1 deals
    assert q7.heart_ace_level(d).value == pytest.approx((21 - 5) / 2 - (2 + 0) / 2)


def test_row_pairs_moved_and_before_play_check():
    """Points moved is the mean |Δ| over seats; a changed pass breaks the before-play sameness."""
    variant = DEALS.with_columns(pl.when(pl.col("deal") == 0).then(pl.col("delta") + pl.Series([4, -4, 0, 0] * 2))
                                 .otherwise(pl.col("delta")).cast(pl.Int16).alias("delta"))  # fmt: skip
    r = q7.row_pairs(DEALS.lazy(), variant.lazy())
    assert r["moved"].to_list() == pytest.approx([2.0, 0.0])
    assert r["same_before_play"].to_list() == [True, True]
    flipped = DEALS.with_columns(pl.when((pl.col("deal") == 1) & (pl.col("seat") == 2)).then(True)
                                 .otherwise(pl.col("passed")).alias("passed"))  # fmt: skip
    assert q7.row_pairs(DEALS, flipped)["same_before_play"].to_list() == [True, False]


def branch_rows(deal: int, hand: int, trump: int, options: dict[int, int]) -> list[dict]:
    """Seat 0's branch rows of one deal (seat 1 deals): option -> delta."""
    return [{"deal": deal, "seat": 0, "dealer": 1, "trump": trump, "hand_dealt": hand, "option": o, "delta": d,
             "hand_final": 0} for o, d in options.items()]  # fmt: skip


def test_branch_values_exchange_and_pass():
    """Exchange = plain non-aces swapped minus stand; pass value = pass minus that exchange (ace-less hands)."""
    # deal 0, trump ♥: ids 5 (7♠), 12 (A♠), 19 (8♣), 50 (K♥), 51 (A♥); the plain non-aces are the
    # 1st and 3rd lowest ids: option mask 0b00101
    rows = branch_rows(0, mask("7♠ A♠ 8♣ K♥ A♥"), 3, {0: 3, 5: -10, 1: 0})
    # deal 1, trump ♠: ids 7 (9♠), 18 (7♣), 32 (8♦), 47 (10♥), 48 (J♥); all but 9♠ are plain: mask 0b11110
    rows += branch_rows(1, mask("9♠ 7♣ 8♦ 10♥ J♥"), 0, {-1: 0, 0: 5, 30: -4})
    # deal 2: no plain non-ace (trumps and an ace): no exchange value; no pass either (an ace)
    rows += branch_rows(2, mask("7♠ 8♠ 9♠ 10♠ A♦"), 0, {0: -6})
    # deal 3: the exchange is not open (talon too short): its row is missing
    rows += branch_rows(3, mask("9♠ 7♣ 8♦ 10♥ J♥"), 0, {-1: 0, 0: 2})
    lf = pl.DataFrame(rows, schema={"deal": pl.Int64, "seat": pl.Int8, "dealer": pl.Int8, "trump": pl.Int8,
                                    "hand_dealt": pl.UInt64, "option": pl.Int8, "delta": pl.Int16,
                                    "hand_final": pl.UInt64}).lazy()  # fmt: skip
    b = q7.branch_values(lf)
    assert b["deal"].to_list() == [0, 1, 2, 3]
    assert b["exchange"].to_list() == [13.0, 9.0, None, None]
    assert b["pass_value"].to_list() == [None, -4.0, None, None]


def test_party_values_and_paired_difference():
    """Party values are seat 0's length and win; paired differences use only the shared units."""
    p = q7.party_values(PARTIES)
    assert p["length"].to_list() == [10.0, 6.0, 1000.0] and p["seat0"].to_list() == [1.0, 0.0, 0.0]
    variant = p.with_columns(pl.col("length") + pl.Series([1.0, 3.0, 0.0])).filter(pl.col("party") != 2)
    d = paired_difference(p, variant, "party", "length")
    assert d.value == pytest.approx(2.0) and d.n == 2


def test_changes_paired_identical_and_unpaired():
    """A variant equal to classic gives identical (zero-width) changes; an unpaired one adds variances."""
    classic = {"deals": q7.deal_values(DEALS), "party": q7.party_values(PARTIES)}
    same = q7.changes(classic, dict(classic), paired=True)
    assert set(same) >= {"gain", "heart_ace", "length", "seat0", "dealer_edge"}
    assert all(q7.identical(e) for e in same.values())
    shifted = {"deals": classic["deals"].with_columns(pl.col("gain") + 1.0), "party": classic["party"]}
    unpaired = q7.changes(classic, shifted, paired=False)
    assert unpaired["gain"].value == pytest.approx(1.0)
    level = mean_estimate(classic["deals"]["gain"])
    assert unpaired["gain"].half_width == pytest.approx(math.sqrt(2) * level.half_width)


def test_heart_ace_paired_needs_the_same_hands():
    """Pairing deals whose ♥A groups differ is refused."""
    d = q7.deal_values(DEALS)
    with pytest.raises(ValueError):
        q7.heart_ace_paired(d, d.with_columns(pl.col("ha_n") + 1))
    assert q7.identical(q7.heart_ace_paired(d, d))


def test_effect_changes_reads_the_paired_run_with_the_sign_of_gain(tmp_path):
    """Page 7's paired changes are `rams-sim effect`'s: a tiny paired run of the three play options
    among basic players. Gain is −delta (the interval mirrored), an option that never binds basic is
    identical (an exact 0, "changed" too), and the share changed is the run's count."""
    from analyses.common import Context
    from rams_sim.rules import Rules
    from rams_sim.runs.effect import read_result
    from rams_sim.runs.runner import DEALS as KIND
    from rams_sim.runs.runner import RunSpec, execute

    ctx = Context(tmp_path, {})
    variants = tuple(Rules.classic(**q7.OPTIONS[k]) for k in q7.PLAY_OPTIONS)
    execute(RunSpec(KIND, Rules.classic(), ("basic",) * 4, 5, 3000, variants=variants, by=("position",)),
            ctx.path(q7.RANDOM_PAIRED))  # fmt: skip
    got = q7.effect_changes(ctx, q7.RANDOM_PAIRED)
    raw = read_result(ctx.path(q7.RANDOM_PAIRED), 4, list(q7.PLAY_OPTIONS), ("position",))
    delta = raw.rows.filter((pl.col("variant") == "no-ace-cover") & (pl.col("measure") == "delta")).row(0, named=True)
    cover = got["no-ace-cover"]
    assert cover["gain"].value == pytest.approx(-delta["diff"])
    assert (cover["gain"].low, cover["gain"].high) == pytest.approx((-delta["ci_high"], -delta["ci_low"]))
    assert cover["changed"].value == raw.changed[q7.PLAY_OPTIONS.index("no-ace-cover")] / 3000 > 0
    assert all(q7.identical(e) for e in got["overtrump"].values())


def test_a_most_against_rivals_zero_by_construction_says_so():
    """With every other option identical to classic, the top option is named the only one that moves the gain,
    its rivals zero by construction, and "clear of every other option" is not claimed."""
    others = [k for k in q7.OPTIONS if k != "no-ace-cover"]
    words = q7.option_most_words("no-ace-cover", [], others, "−0.013 [−0.014, −0.011]")
    assert "only the trump ace need not cover" in words and "by construction" in words
    assert "clear of every other option" not in words
    measured = q7.option_most_words("no-ace-cover", [], others[1:], "x")
    assert "moves it most (clear of every other option)" in measured and "identical to classic by construction" in measured


def test_a_most_not_clear_with_searching_players_is_limited_to_basic():
    """The option that moves basic players most, whose pimc change holds 0, is said to be a finding about basic only."""
    zero = Estimate(0.0, 0.0, 0.0, 10)
    results = {k: {"gain": zero} for k in q7.OPTIONS}
    results["no-ace-cover"] = {"gain": Estimate(-0.013, -0.014, -0.011, 10)}
    searched = {"no-ace-cover": {"gain": Estimate(-0.006, -0.019, 0.008, 10)}}
    assert "is not clear" in q7.searched_caveat(results, searched)
    searched["no-ace-cover"]["gain"] = Estimate(-0.02, -0.03, -0.01, 10)
    assert q7.searched_caveat(results, searched) == ""


def test_figure_draws_an_identical_variant_apart(tmp_path):
    """A change exactly 0 by construction is a grey × in the figure, a measured change a point with its bar."""
    from analyses.common import Page

    zero = Estimate(0.0, 0.0, 0.0, 10)
    results = {v.key: {"gain": zero if v.key == "overtrump" else Estimate(0.5, 0.4, 0.6, 10)} for v in q7.VARIANTS}
    captured = {}

    class Capture(Page):
        def figure(self, fig, out_dir, stem, caption):
            captured["fig"], captured["caption"] = fig, caption

    q7._figure(results, tmp_path, Capture("7-test", "t", "q"))
    ax = captured["fig"].axes[0]
    crosses = [line for line in ax.get_lines() if line.get_marker() == "x"]
    assert len(crosses) == 1 and list(crosses[0].get_ydata()) == [[v.key for v in q7.VARIANTS].index("overtrump")]
    assert "by construction" in captured["caption"]
