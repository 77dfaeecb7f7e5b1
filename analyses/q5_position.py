"""Question 5: the advantage or handicap of each seat relative to the dealer, and of dealing.

Reads the classic deals at every table size (basic policy at every seat, the dealer
rotating). A seat's *position* is its place in the order of speaking (analyses/exchange.py
POSITION_NUMBERING, the one numbering of data and CSVs): 0 = first hand (left of the dealer;
exchanges first, leads the first trick), … players − 1 = the dealer (who may take the
turned-up trump card, R4.3); the page names them in words. Per position: the mean gain per deal. The
dealer's edge is paired within each deal: the dealer's gain minus the mean gain of the
other players of the same deal.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import polars as pl

from .common import (
    GAIN,
    GAIN_WORDS,
    Context,
    Estimate,
    Page,
    across_players,
    chance_misses,
    clear,
    fmt,
    fmt_n,
    mean_by,
    mean_estimate,
    num,
    one_against_others,
    prop_by,
    row_estimate,
)
from .data import SEARCH, TABLE_SIZES
from .exchange import POSITION_NUMBERING, position_words
from .stats import simultaneous

FIRST_HAND = 0  # POSITION_NUMBERING: the dealer's left
DATASETS = tuple(f"deals-{p}p" for p in TABLE_SIZES) + ("deals-4p-expert", f"deals-4p-{SEARCH}")  # + other players


def with_position(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Add ``position`` (POSITION_NUMBERING: 0 = first hand .. players − 1 = the dealer) and ``gain``."""
    pos = ((pl.col("seat").cast(pl.Int16) - pl.col("dealer").cast(pl.Int16) - 1) % pl.col("players").cast(pl.Int16))
    return lf.with_columns(pos.cast(pl.Int8).alias("position"), GAIN.alias("gain"))


def position_gain(lf: pl.LazyFrame) -> pl.DataFrame:
    """Mean gain per deal by (players, position): n, mean, se, lo, hi."""
    return mean_by(with_position(lf), ["players", "position"], pl.col("gain"))


def dealer_edge(lf: pl.LazyFrame) -> pl.Series:
    """Per deal: the dealer's gain minus the mean gain of the other players (float64, one value per deal)."""
    edge = one_against_others(pl.col("gain"), pl.col("position") == pl.col("players") - 1)
    return with_position(lf).group_by("deal").agg(edge.alias("edge")).collect()["edge"]


def position_gap(lf: pl.LazyFrame, a: int, b: int) -> pl.Series:
    """Per deal: the gain of position ``a`` minus that of position ``b`` (positions taken mod players)."""
    pos = with_position(lf).with_columns(pl.col("position").cast(pl.Int16))
    players = pl.col("players").cast(pl.Int16)
    diff = (
        pos.group_by("deal")
        .agg(pl.col("gain").filter(pl.col("position") == pl.lit(a) % players).sum().alias("a"),
             pl.col("gain").filter(pl.col("position") == pl.lit(b) % players).sum().alias("b"))  # fmt: skip
        .collect()
    )
    return diff["a"] - diff["b"]


def dealer_takes_trump(lf: pl.LazyFrame) -> pl.DataFrame:
    """Share of deals, by table size, in which the dealer played and took the trump card (R4.3), Wilson CI."""
    dealer_rows = lf.filter(pl.col("seat") == pl.col("dealer"))
    return prop_by(dealer_rows, ["players"], pl.col("took_trump"))


def gap_words(alone: Estimate, joint: Estimate, sizes: int, edge: Estimate) -> str:
    """The verdict on first hand against the dealer's right at one table size, judged on the
    interval simultaneous over the ``sizes`` table sizes the page tests (``joint``)."""
    if not clear(joint):
        return (f"Judged jointly over the {sizes} table sizes the page tests, that interval widens to "
                f"[{num(joint.low, 3)}, {num(joint.high, 3)}], which holds 0: it is not clear which of the two does "
                "better" + (" (alone it would look clear)." if clear(alone) else "."))
    words = f"First hand does {'better' if joint.value > 0 else 'worse'} (clear jointly over the {sizes} table sizes)"
    return words + (", but by little beside the dealer's edge." if abs(joint.value) < abs(edge.value) / 5 else ".")


def joint_table(alone: dict, joint: dict, what: str) -> pl.DataFrame:
    """Per table size: deals, the 95% interval, the joint interval and whether the joint one is clear."""
    return pl.DataFrame([{"players": p, "deals": e.n, what: fmt(e, 3), "joint interval": fmt(joint[p], 3),
                          "clear?": "yes" if clear(joint[p]) else "no (joint interval holds 0)"}
                         for p, e in alone.items()])  # fmt: skip


def build(ctx: Context, out: Path) -> Page:
    page = Page("5-position", "5. Position at the table",
                "What is each seat's advantage or handicap relative to the dealer, and what is dealing worth "
                "(the dealer alone may take the turned-up trump card)?")  # fmt: skip
    page.uses(*DATASETS)
    tables, edges, gaps, takes = [], {}, {}, []
    for p in TABLE_SIZES:
        lf = ctx.scan(f"deals-{p}p").select("deal", "seat", "dealer", "players", "delta", "took_trump")
        tables.append(position_gain(lf))
        edges[p] = mean_estimate(dealer_edge(lf).to_numpy())
        gaps[p] = mean_estimate(position_gap(lf, FIRST_HAND, -2).to_numpy())  # first hand − the dealer's right
        takes.append(dealer_takes_trump(lf))
    gains = pl.concat(tables)

    e4 = edges[4]
    first4 = row_estimate(gains.filter((pl.col("players") == 4) & (pl.col("position") == FIRST_HAND)).row(0, named=True))
    dealer4 = row_estimate(gains.filter((pl.col("players") == 4) & (pl.col("position") == 3)).row(0, named=True))
    verdict = "an advantage" if e4.value > 0 else "a handicap"
    gaps = {p: e for p, e in gaps.items() if p > 2}  # at two players first hand is the dealer's right
    edges_joint, gaps_joint = simultaneous(edges), simultaneous(gaps)
    page.answer = (
        f"At the classic four-player table, dealing is {verdict}. Per deal, the dealer gains {fmt(dealer4)} points "
        f"and first hand, who exchanges first, {fmt(first4)} (mean gains). As differences within the same deals "
        f"(paired 95% CIs, n = {fmt_n(e4.n)} deals): the dealer gains {fmt(e4)} more than the average other player, "
        f"and first hand {fmt(gaps[4])} more than the seat on the dealer's right. "
        + gap_words(gaps[4], gaps_joint[4], len(gaps), e4)
    )
    if not clear(edges_joint[4]):
        page.answer += (" The dealer's edge is not statistically clear at this sample size (jointly over the "
                        f"{len(edges)} table sizes).")
    take4 = row_estimate(pl.concat(takes).filter(pl.col("players") == 4).row(0, named=True))
    page.takeaways = [
        f"Dealing is worth {fmt(e4)} points a deal at 4 players over the average other seat with `basic` players "
        "(the dealer exchanges last, and he may take the turned-up trump card, R4.3); with stronger players less "
        "(see \"Does it hold for other players?\").",
        f"The dealer takes the turned-up trump card in {fmt(take4, 1, percent=True)} of deals at 4 players "
        "(`basic`).",
        "The dealer's edge by table size: " + ", ".join(f"{fmt(e)} at {p} players" for p, e in edges.items())
        + ".",
        f"Among the others, order matters little at 4 players: first hand gains {fmt(gaps[4])} a deal more than "
        "the seat on the dealer's right" + ("." if clear(gaps_joint[4]) else
                                            ", a difference not clear once the table sizes are judged together."),
    ]  # fmt: skip
    page.text(f"Units: {GAIN_WORDS}. Policies: `basic` at every seat. Positions in the order of speaking: *first "
              "hand* (left of the dealer, who exchanges first and leads the first trick), *second hand*, … and the "
              f"*dealer*, who speaks last. In the CSVs: {POSITION_NUMBERING}.")  # fmt: skip

    page.heading("The dealer's edge, by table size")
    page.table(joint_table(edges, edges_joint, "dealer − mean of others"),
               caption="Per deal, the dealer's gain minus the mean gain of the other players (a paired difference "
               "within the deal), with its 95% interval, and the interval widened to hold jointly over the "
               f"{len(edges)} table sizes (Bonferroni); *clear?* judges the joint interval.")  # fmt: skip

    page.heading("First hand against the dealer's right")
    page.table(joint_table(gaps, gaps_joint, "first hand − dealer's right"),
               caption="First hand exchanges first, from a full talon, and leads the first trick; the seat on the "
               "dealer's right exchanges last before the dealer. Per deal, the difference of their gains (paired), "
               f"with its 95% interval, and the interval widened to hold jointly over the {len(gaps)} table sizes "
               "(Bonferroni); *clear?* judges the joint interval. (At two players these are the same "
               "seat.)")  # fmt: skip

    page.heading("How often the dealer takes the trump card")
    t = pl.concat(takes)
    page.table(t.select("players", "n", pl.struct("p", "lo", "hi", "n").map_elements(
        lambda r: fmt(row_estimate(r), 1, percent=True), return_dtype=pl.Utf8).alias("share of deals [95% CI]")),
        caption="Deals in which the dealer played and took the turned-up trump card into his hand (R4.3; `basic` "
        "takes it when the trump card is worth more to it than its least valuable card, never out of a plain-suit rams).")  # fmt: skip

    page.heading("Gain by position")
    show = gains.with_columns(
        pl.struct("mean", "lo", "hi", "n").map_elements(lambda r: fmt(row_estimate(r), 3), return_dtype=pl.Utf8)
        .alias("gain per deal [95% CI]"))  # fmt: skip
    show = show.with_columns(pl.struct("players", "position").map_elements(
        lambda r: position_words(r["players"])[r["position"]], return_dtype=pl.Utf8).alias("position"))
    page.table(show.select("players", "position", "n", "gain per deal [95% CI]"))
    page.text(chance_misses(gains.height))

    fig, ax = plt.subplots(figsize=(7, 4))
    for p in TABLE_SIZES:
        g = gains.filter(pl.col("players") == p)
        ax.errorbar(g["position"] + 1, g["mean"], yerr=1.96 * g["se"], marker="o", capsize=3, label=f"{p} players")
        ax.plot([p], g.filter(pl.col("position") == p - 1)["mean"], "kD", ms=6)  # the dealer, last to speak
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("place in the order of speaking (1 = first hand, the dealer's left; ◆ = the dealer, last)",
                  fontsize=10)
    ax.set_ylabel("gain per deal (points written off)")
    ax.legend(fontsize=8, ncol=2)
    page.figure(fig, out, "by-position", "Mean gain per deal by position, each table size; bars are 95% intervals.")
    kinds = {"basic": "deals-4p", "expert": "deals-4p-expert", SEARCH: f"deals-4p-{SEARCH}"}
    page.uses(*kinds.values())
    across = {k: edges[4] if k == "basic" else mean_estimate(dealer_edge(
        ctx.scan(name).select("deal", "seat", "dealer", "players", "delta")).to_numpy()) for k, name in kinds.items()}
    page.answer += " " + across_players(page, "the dealer's edge (points per deal, paired)", across, kinds)
    said = [f"{fmt(e)} with `{k}`" for k, e in across.items()]  # the player's guide's sentence (reports/index.html)
    page.facts["dealer_edge"] = (f"Dealing is worth points at 4 players, over the average other seat: {said[0]} "
                                 f"players at every seat, {', '.join(said[1:])} (a deal; paired 95% CIs).")
    return page
