"""Question 6: the party — how long it lasts, who wins it, and what the settlement is worth.

Reads whole parties (R8) played by the basic policy at every seat: the four-player
parties from a start of 100, 150 and 200 under both settlements (R8.4), and the
parties from 100 at every other table size. One row per (party, seat) (PARTY_COLUMNS of
rams_sim/runs/dataset.py); seat 0 deals the first deal and the deal passes to the left, so
seat 1 leads the first trick. Parties are independent of one another, so a per-party
value (its length, seat 0's win) is one independent observation.

* Length: deals played until someone reaches zero (R8.2): mean (normal interval) and
  the median and 90th percentile (order-statistic intervals).
* Winning by seat: the share of parties each seat wins (Wilson); the first dealer's edge
  is paired within the party: seat 0's win (1/0) minus the mean of the other seats'.
* Settlement (R8.4, positive = received): by *place*, 0 = the winner, 1 = the loser with
  the lowest remaining score … players − 1 = the highest; under ``remaining`` each loser
  pays the winner his remaining score, under ``stake`` the highest remaining score pays
  one stake (tied players share it).
* How the party ended (EndKind, rams_sim/record.py), with Wilson intervals.

The two settlements of one start share a seed; settlement does not change play, so
they are the same parties: :func:`same_parties` checks it row by row.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from rams_sim.record import EndKind
from rams_sim.runs.summary import Estimate, wilson_bounds

from .common import (
    Context,
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
    quantile_estimate,
    row_estimate,
)
from .data import SEARCH, SETTLES, STARTS, TABLE_SIZES

BASE_PLAYERS = 4  # the classic table the start and settlement comparisons use
BASE_START = 100  # R8.1 default
FIRST_DEALER = 0  # seat 0 deals the first deal of a party (R3)
QUANTILES = (0.5, 0.9)  # median and 90th percentile of the party length
SAME_PARTY_COLUMNS = ("deals", "score", "winner", "won", "end_kind", "resets")  # what settlement must not change


def party_name(start: int, settle: str) -> str:
    return f"party-{start}-{settle}"


def size_name(players: int) -> str:
    """The party-from-100 dataset of a table size (the 4-player one is the classic remaining one)."""
    return party_name(BASE_START, "remaining") if players == BASE_PLAYERS else f"party-{BASE_START}-{players}p"


DATASETS = tuple(party_name(s, t) for s in STARTS for t in SETTLES) + tuple(
    size_name(p) for p in TABLE_SIZES if p != BASE_PLAYERS
) + (f"party-{BASE_START}-expert", f"party-{BASE_START}-{SEARCH}")  # the same parties, other players


# ---- computations --------------------------------------------------------------------
def parties(lf: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """One row per party: ``party``, ``players``, ``deals``, ``winner`` (−1 unfinished), ``end_kind``."""
    cols = ["party", "players", "deals", "winner", "end_kind"]
    return lf.lazy().filter(pl.col("seat") == FIRST_DEALER).select(cols).sort("party").collect()


def same_parties(a: pl.LazyFrame | pl.DataFrame, b: pl.LazyFrame | pl.DataFrame) -> tuple[int, int]:
    """``(rows, differing)``: rows matched on (party, seat) and how many differ in any of
    SAME_PARTY_COLUMNS (a row present in only one table counts as differing)."""
    cols = ["party", "seat", *SAME_PARTY_COLUMNS]
    joined = a.lazy().select(cols).join(b.lazy().select(cols), on=["party", "seat"], how="full", suffix="_b")
    differs = pl.any_horizontal([pl.col(c).ne_missing(pl.col(f"{c}_b")) for c in SAME_PARTY_COLUMNS])
    out = joined.select(pl.len().alias("rows"), differs.sum().alias("differing")).collect()
    return int(out["rows"][0]), int(out["differing"][0])


def length_summary(p: pl.DataFrame) -> dict:
    """Party length of a :func:`parties` table: ``mean``, ``median``, ``q90`` (Estimates),
    ``n`` parties and ``unfinished`` (parties stopped at max_deals, counted at that length)."""
    deals = p["deals"].to_numpy()
    return {
        "n": p.height,
        "mean": mean_estimate(deals),
        "median": quantile_estimate(deals, QUANTILES[0]),
        "q90": quantile_estimate(deals, QUANTILES[1]),
        "unfinished": int((p["winner"] < 0).sum()),
    }


def wins_by_seat(lf: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Per seat: parties ``n``, wins ``k``, share ``p`` and its Wilson interval ``lo``, ``hi``;
    ``fair`` = the share of finished parties divided by the number of players."""
    lf = lf.lazy()
    finished = lf.filter(pl.col("seat") == FIRST_DEALER).select((pl.col("winner") >= 0).mean()).collect().item()
    counts = lf.group_by("seat").agg(pl.len().alias("n"), pl.col("won").cast(pl.Int64).sum().alias("k"),
                                     pl.col("players").first()).sort("seat").collect()  # fmt: skip
    low, high = wilson_bounds(counts["k"].to_numpy(), counts["n"].to_numpy())
    return counts.with_columns(
        (pl.col("k") / pl.col("n")).alias("p"), pl.Series("lo", low), pl.Series("hi", high),
        (finished / pl.col("players").cast(pl.Float64)).alias("fair"),
    ).drop("players")  # fmt: skip


def first_dealer_edge(lf: pl.LazyFrame | pl.DataFrame) -> pl.Series:
    """Per party: seat 0's win (1 or 0) minus the mean win of the other seats (float64)."""
    edge = one_against_others(pl.col("won").cast(pl.Float64), pl.col("seat") == FIRST_DEALER)
    return lf.lazy().group_by("party").agg(edge.alias("edge")).collect()["edge"]


def with_place(lf: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    """Finished parties only, with ``place``: 0 = the winner, then the losers by remaining
    score, lowest first (ties by seat)."""
    big = 1 << 40  # puts the winner before any score
    key = (pl.when(pl.col("won")).then(-big).otherwise(pl.col("score").cast(pl.Int64)) * 16 + pl.col("seat"))
    return lf.lazy().filter(pl.col("winner") >= 0).with_columns(
        (key.rank("ordinal").over("party") - 1).cast(pl.Int8).alias("place"))  # fmt: skip


def settlement_by_place(lf: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Mean settlement by ``place`` (see :func:`with_place`): n, mean, se, lo, hi."""
    return mean_by(with_place(lf), ["place"], pl.col("settlement"))


def end_kinds(p: pl.DataFrame) -> pl.DataFrame:
    """How the parties of a :func:`parties` table ended: ``end_kind`` code, ``how`` (name),
    ``k`` parties of ``n``, share ``p`` with its Wilson interval ``lo``, ``hi``."""
    counts = p.group_by("end_kind").agg(pl.len().alias("k")).sort("end_kind")
    n = p.height
    low, high = wilson_bounds(counts["k"].to_numpy(), np.full(counts.height, n))
    names = [END_WORDS.get(EndKind(int(c)), EndKind(int(c)).name.lower()) for c in counts["end_kind"]]
    return counts.with_columns(
        pl.Series("how", names), pl.lit(n).alias("n"), (pl.col("k") / n).alias("p"),
        pl.Series("lo", low), pl.Series("hi", high),
    )  # fmt: skip


END_WORDS = {
    EndKind.FOUR_ACES: "four aces declared (R5.1)",
    EndKind.RAMS: "a rams took its holder to zero (R5.2–R5.3)",
    EndKind.JACKS: "a jack pair took its holder to zero (R5.7)",
    EndKind.TRICK: "a trick took a player to zero (R8.2)",
    EndKind.DEAL_END: "at zero at the end of a deal (R8.3)",
    EndKind.UNFINISHED: "unfinished after max_deals (R8.2c)",
}


# ---- the page ------------------------------------------------------------------------
def _pct(est: Estimate) -> str:
    return fmt(est, 1, percent=True)


def _est_col(df: pl.DataFrame, digits: int = 2, percent: bool = False) -> pl.Series:
    return pl.Series([fmt(row_estimate(r), digits, percent) for r in df.iter_rows(named=True)], dtype=pl.Utf8)


def _length_row(label: dict, s: dict) -> dict:
    return {**label, "parties": s["n"], "mean deals [95% CI]": fmt(s["mean"]), "median [CI]": fmt(s["median"], 0),
            "90th percentile [CI]": fmt(s["q90"], 0), "unfinished": s["unfinished"]}  # fmt: skip


def _versus_fair(lo: float, hi: float, fair: float) -> str:
    return "above" if lo > fair else "below" if hi < fair else "no"


def _lengths(ctx: Context, page: Page, out: Path) -> dict:
    """The party-length table and histogram by start; returns the summary of the classic start."""
    rows, lengths = [], {}
    for start in STARTS:
        p = parties(ctx.scan(party_name(start, SETTLES[0])))
        lengths[start] = p["deals"].to_numpy()
        rows.append(_length_row({"start": start}, length_summary(p)))
    page.heading("How long a party lasts")
    page.table(pl.DataFrame(rows), caption=f"Deals played per {BASE_PLAYERS}-player party, by starting score.")
    unfinished = sum(r["unfinished"] for r in rows)
    page.text("No party reached the limit of deals (R8.2c)." if unfinished == 0 else
              f"{fmt_n(unfinished)} parties stopped unfinished at the deal limit (R8.2c); they count at that length "
              "and settle nothing.")  # fmt: skip
    fig, ax = plt.subplots(figsize=(7, 3.8))
    top = int(max(np.quantile(v, 0.999) for v in lengths.values())) + 1
    bins = np.arange(0.5, top + 1.5)
    for start, v in lengths.items():
        ax.hist(v, bins=bins, density=True, histtype="step", lw=1.6, label=f"start {start} (n = {fmt_n(v.size)})")
    ax.set_xlabel("deals in the party")
    ax.set_ylabel("share of parties")
    ax.legend(fontsize=8)
    page.figure(fig, out, "length", f"Distribution of party length, {BASE_PLAYERS} players, by starting score.")
    return length_summary(parties(ctx.scan(party_name(BASE_START, SETTLES[0]))))


def _seats(page: Page, wins: pl.DataFrame, edge: Estimate) -> None:
    page.heading("Who wins: the seats")
    verdicts = [_versus_fair(lo, hi, f) for lo, hi, f in wins.select("lo", "hi", "fair").iter_rows()]
    show = wins.with_columns(_est_col(wins, 1, True).alias("wins [95% CI]"), (pl.col("fair") * 100).alias("fair %"),
                             pl.Series("clear?", verdicts))  # fmt: skip
    page.table(show.select("seat", "n", "k", "wins [95% CI]", "fair %", "clear?"), {"fair %": 1},
               caption=f"Share of {BASE_PLAYERS}-player parties from {BASE_START} won by each seat; *fair* = finished "
                       "parties / players; *clear?* says whether the interval lies above or below it.")  # fmt: skip
    verdict = "clear" if clear(edge) else "not statistically clear (the interval holds 0)"
    page.text(
        f"Paired within each party, seat 0's win minus the mean win of the other seats is {_pct(edge)} "
        f"(n = {fmt_n(edge.n)} parties): the first dealer's edge is {verdict}. Seat 0 deals deals 1, "
        f"{BASE_PLAYERS + 1}, {2 * BASE_PLAYERS + 1}, …, so unless the party's length is a multiple of "
        f"{BASE_PLAYERS} he has dealt once more than the last seat; seat 1 leads the first trick. "
        + chance_misses(wins.height)
    )


def _sizes(ctx: Context, page: Page) -> None:
    rows = []
    for players in TABLE_SIZES:
        lf = ctx.scan(size_name(players))
        w = wins_by_seat(lf).filter(pl.col("seat") == FIRST_DEALER).row(0, named=True)
        e = mean_estimate(first_dealer_edge(lf).to_numpy())
        win = row_estimate(settlement_by_place(lf).filter(pl.col("place") == 0).row(0, named=True))
        rows.append(_length_row({"players": players}, length_summary(parties(lf))) | {
            "seat 0 wins [CI]": _pct(row_estimate(w)), "fair %": num(100 * w["fair"], 1),
            "seat 0 − others [CI]": _pct(e), "clear?": "yes" if clear(e) else "no",
            "winner collects [CI]": fmt(win, 1)})  # fmt: skip
    page.heading("Other table sizes")
    page.table(pl.DataFrame(rows).drop("unfinished"),
               caption=f"Parties from {BASE_START} at every table size (the deck follows R2: 32 cards up to 4 "
                       "players, 52 above); *seat 0 − others* is the paired first-dealer edge; the winner's "
                       "collection is under the `remaining` settlement.")  # fmt: skip
    page.text(chance_misses(len(rows)) + " (For the *clear?* column: the first-dealer edge at each size.)")


def _settlement(ctx: Context, page: Page, by_place: pl.DataFrame, checks: list[tuple[int, int, int]]) -> None:
    page.heading("Settlement")
    est = by_place.with_columns(_est_col(by_place, 2).alias("est"))
    table = est.pivot(on="place", index=["start", "settle"], values="est").sort("start", "settle")
    names = {c: ("winner" if c == "0" else f"loser {c}") for c in table.columns if c not in ("start", "settle")}
    page.table(table.rename(names),
               caption="Expected settlement by place (the winner, then the losers by remaining score, lowest "
                       f"first), finished parties only, with 95% intervals; n = {fmt_n(int(by_place['n'].min()))} "
                       "or more parties per cell. Under `remaining` each loser pays his remaining score (R8.4, "
                       "[000]); under `stake` the winner receives one stake and the loser with the highest remaining "
                       "score pays it (ties share).")  # fmt: skip
    rows = []
    for start in STARTS:
        for settle in SETTLES:
            t = mean_by(ctx.scan(party_name(start, settle)), ["seat"], pl.col("settlement"))
            cells = {f"seat {r['seat']}": fmt(row_estimate(r), 2) for r in t.iter_rows(named=True)}
            rows.append({"start": start, "settle": settle} | cells)
    page.table(pl.DataFrame(rows),
               caption="What each seat can expect from a party, win or lose (all parties, 95% intervals): the "
                       "money value of the seat, zero for every seat in a fair game.")  # fmt: skip
    page.text(chance_misses(sum(len(r) - 2 for r in rows)))
    same = all(d == 0 for _, _, d in checks)
    found = "; ".join(f"from {s}, the `remaining` and `stake` parties differ in {fmt_n(d)} of {fmt_n(r)} "
                      "(party, seat) rows" for s, r, d in checks)  # fmt: skip
    page.text(f"Check: {found} — settlement does not change play, as it must (same seed, same parties)." if same
              else f"**Check failed:** {found}; the two settlements should be the same parties.")  # fmt: skip


def _ends(ctx: Context, page: Page) -> None:
    page.heading("How parties end")
    tables = [end_kinds(parties(ctx.scan(party_name(start, SETTLES[0])))).with_columns(pl.lit(start).alias("start"))
              for start in STARTS]  # fmt: skip
    ends = pl.concat(tables)
    ends = ends.with_columns(_est_col(ends, 2, True).alias("share [95% CI]"))
    page.table(ends.select("start", "how", "k", "n", "share [95% CI]"),
               caption=f"The declaration or trick that ended the party (EndKind), per start, {BASE_PLAYERS} "
                       "players.")  # fmt: skip


def build(ctx: Context, out: Path) -> Page:
    page = Page("6-party", "6. The party",
                "How many deals does a party take from 100, 150 and 200; how likely is each seat to win it; and "
                "what does the winner collect and each loser pay under the two settlements?")  # fmt: skip
    page.uses(*DATASETS)
    base = ctx.scan(party_name(BASE_START, "remaining"))
    wins = wins_by_seat(base)
    seat0 = row_estimate(wins.filter(pl.col("seat") == FIRST_DEALER).row(0, named=True))
    edge = mean_estimate(first_dealer_edge(base).to_numpy())
    by_place, checks = [], []
    for start in STARTS:
        a, b = ctx.scan(party_name(start, SETTLES[0])), ctx.scan(party_name(start, SETTLES[1]))
        checks.append((start, *same_parties(a, b)))
        for settle, lf in zip(SETTLES, (a, b)):
            by_place.append(settlement_by_place(lf).with_columns(pl.lit(start).alias("start"),
                                                                 pl.lit(settle).alias("settle")))  # fmt: skip
    by_place = pl.concat(by_place)
    first = (pl.col("start") == BASE_START) & (pl.col("settle") == "remaining") & (pl.col("place") == 0)
    winner = row_estimate(by_place.filter(first).row(0, named=True))

    page.text(
        "Every seat plays the `basic` policy. A *party* runs deal after deal until a player's score, counting down "
        "from the start, reaches zero (R8.2); seat 0 deals the first deal and the deal passes to the left, so seat 1 "
        "leads the first trick. Parties are independent, so each party is one observation: means carry a normal 95% "
        "interval, shares a Wilson interval, and the median and 90th percentile an order-statistic interval "
        "(distribution-free). *Settlement* (R8.4) is what a seat receives (+) or pays (−) when the party ends."
    )
    length = _lengths(ctx, page, out)
    _seats(page, wins, edge)
    _sizes(ctx, page)
    _settlement(ctx, page, by_place, checks)
    _ends(ctx, page)

    page.answer = (
        f"A four-player party from {BASE_START} lasts {fmt(length['mean'])} deals on average (median "
        f"{num(length['median'].value, 0)}; n = {fmt_n(length['n'])} parties, 95% CI); seat 0, who deals first, "
        f"wins {_pct(seat0)} of them against a fair share of {num(100 * wins['fair'][0], 1)}%. Under the default "
        f"settlement (each loser pays his remaining score) the winner collects {fmt(winner, 1)} points."
    )
    if not clear(edge):
        page.answer += " Seat 0's edge over the other seats is not statistically clear at this sample size."
    by_start = {start: length_summary(parties(ctx.scan(party_name(start, SETTLES[0])))) for start in STARTS}
    page.takeaways = [
        f"A four-player party from {BASE_START} takes {fmt(length['mean'])} deals on average (median "
        f"{num(length['median'].value, 0)}).",
        "The start score sets the length: " + ", ".join(
            f"from {start} {fmt(summary['mean'])} deals" for start, summary in sorted(by_start.items())) + ".",
        f"Dealing first is {'a small edge' if clear(edge) else 'no clear edge'} over a whole party: seat 0 wins "
        f"{_pct(seat0)} of parties against a fair {num(100 * wins['fair'][0], 1)}%.",
        f"Under the default settlement each loser pays his remaining score, and the winner collects "
        f"{fmt(winner, 1)} points.",
    ]  # fmt: skip
    kinds = {"basic": party_name(BASE_START, "remaining"), "expert": f"party-{BASE_START}-expert",
             SEARCH: f"party-{BASE_START}-{SEARCH}"}  # fmt: skip
    page.uses(*kinds.values())
    lengths = {k: length["mean"] if k == "basic" else length_summary(parties(ctx.scan(name)))["mean"]
               for k, name in kinds.items()}  # fmt: skip
    firsts = {k: seat0 if k == "basic" else row_estimate(
        wins_by_seat(ctx.scan(name)).filter(pl.col("seat") == FIRST_DEALER).row(0, named=True))
        for k, name in kinds.items()}  # fmt: skip
    fair = float(wins["fair"][0])
    page.answer += " " + across_players(page, "seat 0's share of the parties won", firsts, kinds, 1, percent=True,
                                        versus=fair)  # fmt: skip
    length_text = across_players(page, "party length (deals)", lengths, kinds, versus=None, heading=False)
    page.answer += " For the party's length, " + length_text[0].lower() + length_text[1:]
    return page
