"""Question 4: pass or play — what passing is worth by hand strength, and what R4.1 costs.

Reads ``branch-4p`` (seat 0's every exchange option, the others on ``basic``) with
``deals-4p`` (``basic``'s own choice in the same deals), and ``branch-4p-ace-may-pass``:
the same deals under the rule option ``ace_forbids_pass=False``, where a seat dealt an
ace may pass too (R4.1 lifted; ``basic``'s pass rule then applies to every seat).

*Hands without an ace* (``branch-4p``): per strength class, the paired gain of passing
over ``basic``'s choice, and over the best canonical way of playing the hand (chosen on
the selection half of the deals, measured on the held-out half; the canonical actions,
hand classes and the split of :mod:`analyses.exchange`, shared with question 2). *The price of
R4.1* (``branch-4p-ace-may-pass``): for hands dealt an ace, per class, the same
comparisons; the rule's cost is what passing would gain such a player in the classes
where passing beats playing (chosen on one half, measured on the other), per bound hand and
per deal. The value of the pass option to a hand without an ace is measured the same
way, so the two numbers compare.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from rams_sim.runs.summary import Estimate

from . import exchange as ex
from .common import (
    Z95,
    Context,
    Page,
    across_players,
    chance_misses,
    clear,
    fmt,
    fmt_n,
    mean_by,
    mean_estimate,
    prop_by,
    row_estimate,
    share,
    simultaneous_z,
)
from .data import SEARCH

ACE_MAY_PASS = "branch-4p-ace-may-pass"
DATASETS = (ex.BRANCH, ex.RUN, ACE_MAY_PASS, ex.BRANCH_EXPERT, ex.RUN_EXPERT, ex.BRANCH_SEARCH, ex.RUN_SEARCH)
ALLOWED_DIFFERENCE = ("ace_forbids_pass",)  # the one rule ACE_MAY_PASS changes

# Strength classes, coarse to fine (back-off as in exchange.assign_classes).
NO_ACE_LEVELS = (
    (ex.TRUMPS, ex.TOP),
    (ex.TRUMPS, ex.TOP, ex.KINGS),
    (ex.TRUMPS, ex.TOP, ex.KINGS, ex.JACK_PAIR),
    (ex.TRUMPS, ex.TOP, ex.KINGS, ex.JACK_PAIR, ex.DEALER),
)
ACE_LEVELS = ((ex.ACES,), *((ex.ACES, *level) for level in NO_ACE_LEVELS))
BEST_PLAY = "best_play"  # the best canonical play, chosen on the selection half, of a class
BASIC_PLAY = "basic_play"  # the exchange basic makes with the hand (ace hands)
VERSUS_A = {"pass − basic": "basic", "pass − best play": BEST_PLAY}  # column -> the gain passing is compared with
VERSUS_B = {"pass − basic's play": BASIC_PLAY, "pass − best play": BEST_PLAY}


def pass_versus_play(df: pl.DataFrame, keys: list[str], reference: str = BEST_PLAY) -> pl.DataFrame:
    """The held-out deals of ``df`` (hands that may pass) with ``g_best_play`` (the best canonical
    play of the class, chosen on the selection half), and the class's pass decision against
    ``reference`` (``best_play`` or a per-deal gain column such as ``basic_play``):
    ``passes`` = passing had the higher mean gain than ``reference`` on the selection half;
    ``pass_gain`` = g_pass − g_<reference> where the class passes, else 0. Given basic's
    choice (``basic_passed``, ``g_basic``), also ``decision_gain``: what deciding pass or play
    by the class instead of by basic's rule gains, keeping basic's exchange when both play
    (basic passed, class plays: best play − pass; basic played, class passes: pass − basic)."""
    chosen = ex.half(df, select=True)
    table = ex.best_actions(chosen, keys, ex.PLAYS, BEST_PLAY)
    ref_chosen = ex.apply_table(chosen, table, keys, BEST_PLAY, ex.PLAYS)
    decide = (
        ref_chosen.group_by(keys)
        .agg((pl.col(ex.gain_col(ex.PASS)).mean() > pl.col(ex.gain_col(reference)).mean()).alias("passes"))
    )  # fmt: skip
    held = ex.apply_table(ex.half(df, select=False), table, keys, BEST_PLAY, ex.PLAYS)
    held = held.join(decide, on=keys, how="left", nulls_equal=True).with_columns(pl.col("passes").fill_null(False))
    g = {a: pl.col(ex.gain_col(a)) for a in (ex.PASS, reference, BEST_PLAY, "basic")}
    gain = pl.when(pl.col("passes")).then(g[ex.PASS] - g[reference]).otherwise(0.0)
    held = held.with_columns(gain.alias("pass_gain"))
    if "basic_passed" not in held.columns or "g_basic" not in held.columns:
        return held
    decision = (
        pl.when(pl.col("basic_passed") & ~pl.col("passes")).then(g[BEST_PLAY] - g[ex.PASS])
        .when(~pl.col("basic_passed") & pl.col("passes")).then(g[ex.PASS] - g["basic"])
        .otherwise(0.0)
    )  # fmt: skip
    return held.with_columns(decision.alias("decision_gain"))


def table_decision_gain(df: pl.DataFrame) -> pl.Series:
    """Per deal of ``df`` (hands that may pass, with :func:`analyses.exchange.with_shipped_table`'s
    columns and the players' own choice): what deciding pass or play by the shipped table instead of
    by the players' own rule gains, keeping their exchange where both play (they passed, the table
    plays: the table's play − pass; they played, the table passes: pass − their play)."""
    g_play = ex.chosen("table_play", ex.PLAYS)
    gain = (
        pl.when(pl.col("basic_passed") & ~pl.col("table_passes")).then(g_play - pl.col(ex.gain_col(ex.PASS)))
        .when(~pl.col("basic_passed") & pl.col("table_passes")).then(pl.col(ex.gain_col(ex.PASS)) - pl.col("g_basic"))
        .otherwise(0.0)
    )  # fmt: skip
    return df.select(gain).to_series()


def class_pass_table(df: pl.DataFrame, held: pl.DataFrame, keys: list[str], versus: dict[str, str]) -> pl.DataFrame:
    """Per class: ``deals`` (all), and for each (label -> gain column) of ``versus`` the paired
    gain of passing over it as ``[lo, hi]`` text (``best_play`` on the held-out deals, any other
    column on all deals), plus ``_mean_<label>`` / ``_lo_`` / ``_hi_`` for the figure."""
    parts = []
    for label, col in versus.items():
        src = held if col == BEST_PLAY else df
        values = {label: pl.col(ex.gain_col(ex.PASS)) - pl.col(ex.gain_col(col))}
        parts.append(mean_by(ex.long_values(src, keys, values), keys + ["what"], pl.col("value")))
    m = pl.concat(parts)
    m = m.with_columns(pl.struct("mean", "lo", "hi", "n").map_elements(ex.cell_text, return_dtype=pl.Utf8).alias("t"))
    wide = m.pivot(on="what", index=keys, values="t")
    for stat in ("mean", "lo", "hi", "n"):
        wide = wide.join(m.pivot(on="what", index=keys, values=stat).rename({k: f"_{stat}_{k}" for k in versus}),
                         on=keys, nulls_equal=True)  # fmt: skip
    n = df.group_by(keys).len("deals")
    return wide.join(n, on=keys, nulls_equal=True)


def verdict(lo: float, hi: float) -> str:
    """Pass, play, or unclear from the interval of (pass − play); a class without held-out deals has none."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return "no held-out data"
    if lo > 0:
        return "pass"
    if hi < 0:
        return "play"
    return "unclear"


# ---- the price of R4.1 -----------------------------------------------------------------
def ace_table(ctx: Context, basic_option: pl.DataFrame) -> pl.DataFrame:
    """Every deal of ``branch-4p-ace-may-pass`` with class dimensions and canonical gains, plus
    ``g_basic_play``: the gain of the exchange ``basic`` makes with the hand in the same deal
    of ``branch-4p`` (``basic_option``: deal, basic_option, hand_dealt), replayed here.

    Raises ValueError if a deal's dealt hand differs from branch-4p's (not the same deals)
    or basic's exchange is not open here: the talon can only be longer (more players pass,
    fewer draw), so that would be a data error. ``basic`` chooses with the talon of
    branch-4p; in the rare deal it trimmed its discards to a short talon, the talon here
    may have served more.
    """
    ex.same_deals(ctx, ex.BRANCH, ACE_MAY_PASS, ALLOWED_DIFFERENCE)
    branch = ctx.scan(ACE_MAY_PASS)
    df = ex.canonical_gains(branch, ex.with_features(ex.deal_hands(branch)))
    df = df.join(basic_option.rename({"hand_dealt": "_dealt"}), on="deal", how="left")
    bad = df.filter(pl.col("_dealt").is_null() | (pl.col("_dealt") != pl.col("hand_dealt"))).height
    if bad:
        raise ValueError(f"{bad} deals of {ACE_MAY_PASS} are not dealt as in {ex.BRANCH}: not the same deals")
    rows = (
        branch.select("deal", pl.col("option").alias("basic_option"),
                      (-pl.col("delta").cast(pl.Float64)).alias(ex.gain_col(BASIC_PLAY)))
        .join(df.select("deal", "basic_option").lazy(), on=["deal", "basic_option"], how="inner").collect()
    )  # fmt: skip
    df = df.join(rows, on=["deal", "basic_option"], how="left").drop("_dealt")
    missing = df.filter(~pl.col("basic_passed") & pl.col(ex.gain_col(BASIC_PLAY)).is_null()).height
    if missing:
        raise ValueError(f"{missing} deals of {ACE_MAY_PASS} do not offer the exchange basic made in {ex.BRANCH}")
    return df



def zero_by_construction(top_class: dict, top_est: Estimate, keys: list[str], n: int) -> str:
    """The sentence for a cost against the best play that is zero by construction: no class of
    ace hands passes on the selection half, so every held-out hand counts 0 (not a measurement)."""
    return (f"Against the best play the cost is 0 by construction, not a measurement: on the selection half passing "
            f"beat the best play in no class of hands dealt an ace, so every one of the {fmt_n(n)} held-out hands "
            f"counts 0; in the class most in favour of passing ({class_words(top_class, keys)}) passing gains "
            f"{fmt(top_est)} points per hand over the best play on the held-out deals.")

# ---- the page --------------------------------------------------------------------------
def most_for_passing(df: pl.DataFrame, held: pl.DataFrame, keys: list[str]) -> tuple[dict, Estimate]:
    """The class most in favour of passing: (its dimension values, the Estimate of pass − best
    play on the held-out deals). The class is the one with the highest mean pass − best play on
    the selection half (the best play chosen there too), so its held-out figure is not flattered
    by the choice."""
    chosen = ex.half(df, select=True)
    table = ex.best_actions(chosen, keys, ex.PLAYS, BEST_PLAY)
    ref = ex.apply_table(chosen, table, keys, BEST_PLAY, ex.PLAYS)
    means = ref.group_by(keys).agg((pl.col(ex.gain_col(ex.PASS)) - pl.col(ex.gain_col(BEST_PLAY))).mean().alias("d"))
    top = means.drop_nulls("d").sort(["d", *keys], descending=[True] + [False] * len(keys), nulls_last=True)
    pick = {k: top[k][0] for k in keys}
    t = class_pass_table(df, held, keys, {"d": BEST_PLAY})
    for k, v in pick.items():
        t = t.filter(pl.col(k).is_null() if v is None else pl.col(k) == v)
    row = t.row(0, named=True)
    return pick, row_estimate({s: row[f"_{s}_d"] for s in ("mean", "lo", "hi", "n")})


def class_words(row: dict, keys: list[str]) -> str:
    """A class in words for the answer, merged dimensions left out."""
    shown = {k: v for k, v in row.items() if v is not None and not (k == ex.TOP and v == ex.TOP_NONE)}
    text = ", ".join(f"{ex.DIM_HEADS[k]} {ex.dim_text(k, v)}" for k, v in shown.items())
    return text + (", the hands without a finer row" if None in row.values() else "")


def build(ctx: Context, out: Path) -> Page:
    page = Page("4-pass", "4. Pass or play",
                "When is passing (throwing the hand in, R4) better than playing it, by hand strength? And what does "
                "the rule that a player dealt an ace may not pass (R4.1) cost the players it binds?")  # fmt: skip
    page.uses(*DATASETS)
    full = ex.exchange_table(ctx)
    no_ace = ex.assign_classes(full.filter(pl.col("n_aces") == 0), NO_ACE_LEVELS, ex.MIN_CELL_DEALS)
    keys_a = list(NO_ACE_LEVELS[-1])
    held_a = pass_versus_play(no_ace, keys_a)
    option_a, option_a_deal = cost_over(ex.half(full, select=False), held_a)
    decision = mean_estimate(held_a["decision_gain"])
    table_a = verdict_table(no_ace, held_a, keys_a, VERSUS_A)
    positions_a = ex.by_position(held_a, {"class rule − basic's rule": pl.col("decision_gain"),
                                          "pass − best play where the class passes": pl.col("pass_gain")})  # fmt: skip
    dealer_a = positions_a[-2]["class rule − basic's rule"]

    amp = ace_table(ctx, full.select("deal", "hand_dealt", "basic_option", "basic_passed"))
    aces = ex.assign_classes(amp.filter(pl.col("n_aces") > 0), ACE_LEVELS, ex.MIN_CELL_DEALS)
    keys_b = list(ACE_LEVELS[-1])
    held_b = pass_versus_play(aces, keys_b)
    held_b_basic = pass_versus_play(aces, keys_b, BASIC_PLAY)
    amp_held = ex.half(amp, select=False)
    per_hand, per_deal = cost_over(amp_held, held_b)
    per_hand_basic, per_deal_basic = cost_over(amp_held, held_b_basic)
    top_class, top_est = most_for_passing(aces, held_b, keys_b)

    if held_b["passes"].any():
        price = (f"At a table of `basic` players, R4.1 costs a player dealt an ace {fmt(per_hand)} points per bound "
                 f"hand ({fmt(per_deal)} per deal; "
                 f"n = {fmt_n(per_hand.n)} held-out hands dealt an ace): what passing would gain him in the hand "
                 "classes where passing beats his best way of playing.")  # fmt: skip
        if not clear(per_hand):
            price += " This price is not statistically clear at this sample size."
    else:
        price = (f"At a table of `basic` players, R4.1 costs a player dealt an ace {fmt(per_hand_basic)} points per "
                 f"bound hand ({fmt(per_deal_basic)} per deal; n = {fmt_n(per_hand_basic.n)} held-out hands dealt an "
                 "ace) if he otherwise makes `basic`'s play: what passing would gain him in the classes where passing "
                 "beats that play. " + zero_by_construction(top_class, top_est, keys_b, per_hand.n))
        if not clear(per_hand_basic):
            price += " The price against `basic`'s play is not statistically clear at this sample size."
    page.answer = (
        f"{price} Without an ace, {verdict_words(table_a, keys_a)}; deciding pass or play by hand class instead of "
        f"by `basic`'s rule gains {fmt(decision)} points per hand (n = {fmt_n(decision.n)} held-out hands without an "
        f"ace in every position, paired 95% CI); as dealer {fmt(dealer_a)} (n = {fmt_n(positions_a[-2]['deals'])})."
    )
    if not clear(decision):
        page.answer += " That gain is not statistically clear at this sample size."
    wins = table_a.filter(pl.col("verdict") == "pass")
    plays = table_a.filter(pl.col("verdict") == "play").height
    basic_rate = prop_by(no_ace, [], pl.col("basic_passed")).row(0, named=True)
    page.takeaways = [
        f"Without an ace, play far more often than `basic` does: `basic` passes "
        f"{fmt(row_estimate(basic_rate), 1, percent=True)} of "
        f"those hands, but playing clearly beats passing in {plays} of {table_a.height} hand classes and passing "
        f"in {wins.height}.",
        f"Deciding pass or play by hand class gains {fmt(decision)} points per hand without an ace over `basic`'s "
        f"rule, and {fmt(dealer_a)} as dealer.",
        f"The right to pass is worth little to a player who plays well: {fmt(option_a)} points per hand without an "
        "ace.",
        "With an ace you may not pass (R4.1), and at a table of `basic` players that costs "
        + (f"{fmt(per_hand_basic)} points per bound hand to a player making `basic`'s play, and nothing to one "
           "making the best play (zero by construction: passing beat the best play in no class of ace hands)."
           if not held_b["passes"].any() else f"{fmt(per_hand)} points per bound hand."),
    ]  # fmt: skip
    page.facts.update(guide_facts(table_a, keys_a, decision, positions_a))

    page.text(
        "Units: *gain* = points written off the score in the deal (−delta; the score counts down, so higher is "
        "better). A *passer* takes no part in the deal: he neither gains nor loses, except that a dealt jack pair "
        "is still written off (R4.2); a player who plays and takes no trick suffers a *remiz* (5 points plus his "
        "aces written on, R7.2). Data: seat 0 of each deal is replayed once for every exchange option open to him, "
        "the others playing `basic` on the same deck order, so pass and play are compared deal by deal (paired). "
        "*Playing* a hand means standing pat or one of the canonical exchanges of question 2 (exchange the k "
        "weakest, exchange plain cards below a king, exchange plain cards but aces); the *best play* of a class is "
        "the one with the highest mean gain on one half of the deals (the *selection* half), and whether the class "
        "passes (passing beat the best play there) is decided on the same half; both are measured on the other "
        "half only (the *held-out* deals), so they are not flattered by the choice. The halves are split by a hash "
        "of the deal number, so seat 0 holds every position, the dealer's included, about equally often in both."
    )
    page.text("*Strength classes* (of the five dealt cards):\n\n" + ex.class_legend([ex.ACES, *keys_a]) + "\n\n"
              f"A class needs {fmt_n(ex.MIN_CELL_DEALS)} deals for a row of its own; rarer hands are merged by "
              f"dropping, in turn, the dealer, the jack pair, the plain kings (*{ex.OTHER}*: every hand of the row's "
              "other features that has no row of its own).")  # fmt: skip

    page.heading("Without an ace: where passing beats playing")
    pass_table(page, table_a, keys_a, VERSUS_A)
    pass_rate = share(held_a["passes"])
    page.text(
        f"`basic` passes {fmt(row_estimate(basic_rate), 1, percent=True)} of the hands without an ace "
        f"(n = {fmt_n(basic_rate['n'])}: it passes when its strength count, trumps and plain kings, is low and it "
        f"holds no jack pair). The classes where passing beat the best play on the selection half hold "
        f"{fmt(pass_rate, 1, percent=True)} of the held-out hands without an ace. On the held-out deals:\n\n"
        f"- deciding pass or play by class instead of by `basic`'s rule (keeping `basic`'s exchange when both play) "
        f"gains {ex.mark(decision)} points per hand without an ace;\n"
        f"- the option to pass is worth {ex.mark(option_a)} points per hand without an ace to a player who otherwise "
        f"makes the best play ({ex.mark(option_a_deal)} per deal of all hands)."
    )

    page.table(ex.position_table(positions_a),
               caption="Hands without an ace on the held-out deals, by seat 0's position: first to speak is the "
                       "dealer's left (R6.1); the dealer speaks last and may take the turned-up trump card (R4.3). "
                       f"✓ = the interval excludes 0; *{ex.IDENTICAL}*: the two are the same in every deal (e.g. "
                       "where no class of the position passes), a zero by construction.")  # fmt: skip

    page.heading("The price of R4.1: hands dealt an ace")
    page.text(f"Dataset `{ACE_MAY_PASS}` deals the same cards with R4.1 lifted (`ace_forbids_pass=False`). Note that "
              "there every other player dealt an ace may pass too (`basic`'s pass rule now applies to him), so the "
              "table seat 0 faces is slightly different from the real game's. *Basic's play* is the exchange `basic` "
              f"makes with the hand in the real game (`{ex.BRANCH}`), replayed in the same deal.")  # fmt: skip
    pass_table(page, verdict_table(aces, held_b, keys_b, VERSUS_B), keys_b, VERSUS_B)
    rows = [("the best play", per_hand, per_deal), ("basic's play", per_hand_basic, per_deal_basic)]
    page.table(pl.DataFrame({"if he otherwise makes": [r[0] for r in rows],
                             "held-out ace hands": [r[1].n for r in rows],
                             "cost per bound hand [95% CI]": [cost_cell(r[1], i == 0 and not held_b["passes"].any())
                                                              for i, r in enumerate(rows)],
                             "held-out deals": [r[2].n for r in rows],
                             "cost per deal [95% CI]": [cost_cell(r[2], i == 0 and not held_b["passes"].any())
                                                        for i, r in enumerate(rows)]}),  # fmt: skip
               caption="The cost of R4.1: on the held-out deals, the gain of passing over playing for hands dealt an "
                       "ace in the classes where passing beat playing on the selection half (0 elsewhere), per hand "
                       "dealt an ace and per deal of all hands. ✓ = the interval excludes 0. Where passing beat "
                       "playing in no class, the cost is exactly 0 and so is its interval.")  # fmt: skip
    full_e = ex.exchange_table(ctx, ex.BRANCH_EXPERT, ex.RUN_EXPERT)
    no_ace_e = ex.assign_classes(full_e.filter(pl.col("n_aces") == 0), NO_ACE_LEVELS, ex.MIN_CELL_DEALS)
    search = ex.with_shipped_table(ex.exchange_table(ctx, ex.BRANCH_SEARCH, ex.RUN_SEARCH)).filter(
        pl.col("n_aces") == 0)
    own = {"basic": decision, "expert": mean_estimate(pass_versus_play(no_ace_e, keys_a)["decision_gain"]),
           SEARCH: mean_estimate(table_decision_gain(search))}  # fmt: skip
    holds = across_players(page, "deciding pass or play by class instead of by the players' own rule (points per "
                           "hand without an ace)", own,
                           {"basic": ex.BRANCH, "expert": ex.BRANCH_EXPERT, SEARCH: ex.BRANCH_SEARCH})  # fmt: skip
    page.answer += (f" Against the players' own pass rule: {holds[0].lower()}{holds[1:]} For `expert` (classes "
                    f"decided again on their deals) {ex.against_basic(decision, own['expert'])} For `pimc` the "
                    "classes are the shipped `table` policy's.")  # fmt: skip
    page.takeaways.insert(2, f"Most of that is `basic`'s weakness: against `expert`'s own pass rule, deciding by "
                             f"class gains only {fmt(own['expert'])} points per hand without an ace.")
    page.text("With `expert` players the classes' pass-or-play decisions are made again on the selection half of "
              "their own branched deals and measured against `expert`'s own pass rule on the held-out half. With "
              f"`pimc` players ({fmt_n(search.height)} hands without an ace, in deals that replay about 25 exchange "
              "options of a table of searching players) there are too few deals to decide classes on them: the row "
              "measures the pass-or-play cells of the table the package ships (the `table` policy's, page 2) against "
              "`pimc`'s own decision, keeping `pimc`'s exchange where both play.")  # fmt: skip
    figure(page, out, no_ace, held_a, keys_a, aces, held_b, keys_b)
    return page


def class_positions(row: dict) -> str:
    """The positions a class of the pass table covers, in words (its ``dealer`` dimension)."""
    dealer = row.get(ex.DEALER)
    if dealer is None:
        return "any position"
    return "the dealer" if dealer else f"{', '.join(ex.position_words()[:-2])} or {ex.position_words()[-2]}"


def guide_facts(table: pl.DataFrame, keys: list[str], decision: Estimate, positions: list[dict]) -> dict[str, str]:
    """The player's guide's sentences on pass or play (hands without an ace, held-out deals): ``pass_or_play``
    (deciding by class over `basic`'s rule, every position and as dealer) and ``pass_when`` (the classes where
    passing clearly beats the best play, simultaneously over the table, and what the dealer's classes say)."""
    dealer = positions[-2]
    rule = dealer["class rule − basic's rule"]
    facts = {"pass_or_play": (
        "Without an ace, play more hands than `basic` does and pass only the weakest: at a table of `basic` players, "
        f"deciding pass or play by hand class gains {fmt(decision)} points per hand over `basic`'s rule (n = "
        f"{fmt_n(decision.n)} held-out hands without an ace, every position), and {fmt(rule)} as dealer (n = "
        f"{fmt_n(dealer['deals'])}). With an ace you may not pass (R4.1).")}  # fmt: skip
    best = "pass − best play"
    said = []
    for row in table.filter(pl.col("verdict") == "pass").sort(keys, nulls_last=True).iter_rows(named=True):
        est = row_estimate({s: row[f"_{s}_{best}"] for s in ("mean", "lo", "hi", "n")})
        said.append(f"with {class_words({k: row[k] for k in keys}, keys)} ({class_positions(row)}), passing beats "
                    f"the best play by {fmt(est)} points per hand (n = {fmt_n(est.n)} held-out hands)")  # fmt: skip
    at_dealer = table.filter(pl.col(ex.DEALER) == True)  # a polars column, not a Python bool
    plays = at_dealer.filter(pl.col("verdict") == "play").height
    passes = at_dealer.filter(pl.col("verdict") == "pass").height
    dealer_words = (f"As dealer without an ace, playing clearly beats passing in {plays} of the dealer's "
                    f"{at_dealer.height} hand classes and passing in {passes}.")
    where = (f"Pass without an ace only where page 4 finds passing clearly better at a table of `basic` players "
             f"(simultaneously over its {table.height} classes): " + "; ".join(said) + ". ")
    nowhere = (f"In none of page 4's {table.height} classes of hands without an ace does passing clearly beat the "
               "best play. ")
    facts["pass_when"] = (where if said else nowhere) + dealer_words
    return facts


def cost_cell(est: Estimate, by_construction: bool) -> str:
    """A cost cell: the estimate with its mark, or "0 (by construction)" where no class passes."""
    return "0 (by construction)" if by_construction else ex.mark(est)


def cost_over(all_held: pl.DataFrame, held: pl.DataFrame) -> tuple:
    """(per bound hand, per deal) held-out cost: ``held`` holds the bound hands' ``pass_gain``;
    ``all_held`` every held-out deal (the unbound ones count 0)."""
    per_hand = mean_estimate(held["pass_gain"])
    per_deal = all_held.select("deal").join(held.select("deal", "pass_gain"), on="deal", how="left")["pass_gain"]
    return per_hand, mean_estimate(per_deal.fill_null(0.0))


def verdict_table(df: pl.DataFrame, held: pl.DataFrame, keys: list[str], versus: dict[str, str]) -> pl.DataFrame:
    """:func:`class_pass_table` plus ``basic passes`` (share of the class basic passes, Wilson
    text; when basic ever passes) and ``verdict`` (from pass − best play)."""
    t = class_pass_table(df, held, keys, versus)
    if "basic_passed" in df.columns and df["basic_passed"].any():
        rate = prop_by(df, keys, pl.col("basic_passed"))
        rate = rate.with_columns(pl.struct("p", "lo", "hi", "n").map_elements(
            lambda r: fmt(row_estimate(r), 0, percent=True), return_dtype=pl.Utf8).alias("basic passes"))  # fmt: skip
        t = t.join(rate.select(*keys, "basic passes"), on=keys, nulls_equal=True)
    best = next(k for k, v in versus.items() if v == BEST_PLAY)
    return with_verdicts(t, best)


def with_verdicts(t: pl.DataFrame, best: str) -> pl.DataFrame:
    """``t`` plus ``verdict`` per class from pass − best play (``_mean_/_lo_/_hi_/_n_<best>``, 95%
    normal intervals), judged on intervals widened to hold together over every class with
    held-out data (Bonferroni, :func:`analyses.stats.simultaneous_z`): a table of many classes
    says "pass" or "play" only where that holds for all its verdicts at once (``_sim_lo``/``_sim_hi``)."""
    z = simultaneous_z(int(t[f"_n_{best}"].fill_null(0).gt(1).sum()))
    half = (pl.col(f"_hi_{best}") - pl.col(f"_lo_{best}")) / 2 * (z / Z95)
    t = t.with_columns((pl.col(f"_mean_{best}") - half).alias("_sim_lo"),
                       (pl.col(f"_mean_{best}") + half).alias("_sim_hi"))  # fmt: skip
    return t.with_columns(pl.struct("_sim_lo", "_sim_hi").map_elements(
        lambda r: verdict(r["_sim_lo"], r["_sim_hi"]), return_dtype=pl.Utf8).alias("verdict"))  # fmt: skip


def verdict_words(t: pl.DataFrame, keys: list[str]) -> str:
    """``passing clearly beats the best play in 2 of 19 classes (…), playing in 14``."""
    wins = t.filter(pl.col("verdict") == "pass").sort(keys, nulls_last=True)
    where = "; ".join(class_words({k: r[k] for k in keys}, keys) for r in wins.iter_rows(named=True))
    plays = t.filter(pl.col("verdict") == "play").height
    text = (f"passing clearly beats the best play (simultaneously over the classes) in {wins.height} of {t.height} "
            "classes")
    return text + (f" ({where})" if where else "") + f" and playing clearly beats passing in {plays}"


def pass_table(page: Page, t: pl.DataFrame, keys: list[str], versus: dict[str, str]) -> None:
    """Show a :func:`verdict_table`: per class, deals, basic's pass rate, pass − each reference, verdict."""
    shown = ex.class_columns(t, keys)
    cols = [ex.DIM_HEADS[k] for k in keys] + ["deals"] + (["basic passes"] if "basic passes" in t.columns else [])
    page.table(shown.select(*cols, *versus, "verdict"),
               caption="Per class: the paired gain of passing over playing (the best play on the held-out deals "
                       "only; `basic`'s choice on all deals; 95% intervals each) and the verdict: pass or play where "
                       "the interval of pass − best play excludes 0 *simultaneously* over every class of the table "
                       f"(Bonferroni, z = {simultaneous_z(int((t['verdict'] != 'no held-out data').sum())):.2f}), "
                       "otherwise unclear; so all the verdicts hold together at 95%. "
                       f"*{ex.IDENTICAL}*: passing and `basic`'s choice are the same in every deal of the class "
                       "(`basic` passes every such hand), a zero by construction.")  # fmt: skip
    page.text(chance_misses(len(versus) * t.height))


FIGURE_COLOURS = {"pass": "#0072B2", "play": "#D55E00", "unclear": "#999999", "no held-out data": "#999999"}
LABEL_PT = 9  # tick labels: 9 pt at the pages' 100 dpi is 12.5 px (issue 37: at least 10 px)


def figure_tables(*panels) -> list[pl.DataFrame]:
    """Per panel (df, held, keys): the class table of pass − best play with the page's verdicts,
    judged simultaneously over the panel's classes as in :func:`with_verdicts` (the same test
    as the page's table, so a colour and a verdict never disagree)."""
    groups = [panels[i:i + 3] for i in range(0, len(panels), 3)]
    return [with_verdicts(class_pass_table(df, held, keys, {"d": BEST_PLAY}), "d").sort(keys, nulls_last=True)
            for df, held, keys in groups]


def figure(page: Page, out: Path, *panels) -> None:
    """Pass − best play (held-out deals) per class: hands without an ace, and with one (R4.1 lifted),
    side by side; colours from the simultaneous verdicts of the page's tables."""
    groups = [panels[i:i + 3] for i in range(0, len(panels), 3)]
    titles = ["no ace dealt (real rules)", "an ace dealt (R4.1 lifted)"]
    tables = figure_tables(*panels)
    rows = max(t.height for t in tables)
    fig, axes = plt.subplots(1, len(tables), figsize=(12.5, 1.3 + 0.19 * rows), squeeze=False)
    for ax, t, (_, _, keys), title in zip(axes[0], tables, groups, titles):
        labels = [class_label(r, keys) for r in t.select(keys).iter_rows(named=True)]
        y = np.arange(t.height)
        colors = [FIGURE_COLOURS[v] for v in t["verdict"]]
        ax.hlines(y, t["_sim_lo"].to_numpy(), t["_sim_hi"].to_numpy(), colors=colors)
        ax.scatter(t["_mean_d"].to_numpy(), y, c=colors, s=14, zorder=3)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_yticks(y, labels, fontsize=LABEL_PT)
        ax.tick_params(axis="x", labelsize=LABEL_PT)
        ax.set_ylim(rows - 0.5, -0.5)
        ax.set_title(title, fontsize=11)
        ax.set_xlabel("pass − best play (points per deal)", fontsize=10)
    fig.tight_layout()
    page.figure(fig, out, "pass-vs-play", "Gain of passing over the best play, per class, on the held-out deals "
                "(bars: intervals simultaneous over the classes of a panel, the test of the tables above); blue: "
                "passing is better, orange: playing is better, grey: unclear. A jack pair and the dealer are "
                "named only where the class holds them; \"(rest)\": the hands of the class that have no finer "
                "row.")  # fmt: skip


def class_label(row: dict, keys: list[str]) -> str:
    """A compact label of a class for the figure: its unmerged dimensions (a jack pair and the
    dealer named only when held, no top trump left out), "(rest)" if any is merged."""
    words = []
    for k in keys:
        v = row[k]
        if v is None:
            continue
        text = ex.dim_text(k, v)
        if k == ex.ACES:
            words.append(f"{text} ace" + ("" if text == "1" else "s"))
        elif k == ex.TRUMPS:
            words.append(f"{text} trump" + ("" if text == "1" else "s"))
        elif k == ex.TOP and v != ex.TOP_NONE:
            words.append(f"top {text}")
        elif k == ex.KINGS:
            words.append(f"kings {text}")
        elif k in (ex.JACK_PAIR, ex.DEALER) and v:
            words.append(ex.DIM_HEADS[k])
    return ", ".join(words) + (" (rest)" if any(row[k] is None for k in keys) else "")
