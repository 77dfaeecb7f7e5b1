"""Question 3: the odds of each declaration (R5), exactly and in simulation, and how often
a deal ends before play.

Three parts:

* **Dealt hands.** The exact probability of four aces, a rams (of trumps or of a plain
  suit), four jacks and a jack pair in a dealt hand (:func:`rams_sim.odds.dealt_odds`,
  by counting) beside its simulated frequency with a 95% interval, for every deck and
  table size the datasets hold. The frequency is over every (deal, seat) row; the hands
  of one deal are dealt from one deck (without replacement), so the intervals are
  deal-clustered (Wilson at the effective sample size, never above the number of hands).
* **After the exchange.** What the seats declared (``declaration``, R5) at the classic
  4-player table under each policy; the policies play the same deals (one seed), so
  their dealt hands are the same.
* **Deals without play.** Per deal (one row per deal): the share that ends at the
  declarations or because everybody passed (``outcome`` RAMS, FOUR_ACES, JACKS_END,
  NOBODY), and the share where one player takes the tricks without play (LONE, R4.5).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from rams_sim.hands import hand_features
from rams_sim.odds import DECLARATIONS, dealt_odds
from rams_sim.record import Declaration, Outcome
from rams_sim.runs.summary import Z95, wilson_bounds

from .clustered import clustered_means, clustered_wilson, design_effect, effective_wilson
from .common import Context, Page, across_players, chance_misses, fmt_n, row_estimate, simultaneous_z
from .data import PLAYER_KINDS, POLICIES, REGISTRY, SEARCH

HEADLINE = ("deals-4p", "rams")  # the classic table (R9) and the declaration the question names
JACK_PAIR_KIND, FOUR_JACKS_KIND = 1, 2  # hand_features' `jacks`: R5.5 jack_kind
ALL_ACES = 4  # four aces (R5.1): one of each suit
DECLARATION_WORDS = {
    "four_aces": "four aces",
    "rams": "a rams (any suit)",
    "trump_rams": "trump rams",
    "suit_rams": "plain-suit rams",
    "four_jacks": "four jacks",
    "jack_pair": "jack pair",
}
# R5 codes of what a seat declared -> the row of the after-exchange table, and the dealt odds it compares with
DECLARED = {
    "four aces": ((Declaration.FOUR_ACES,), "four_aces"),
    "a rams (counted or outranked)": ((Declaration.TRUMP_RAMS, Declaration.SUIT_RAMS, Declaration.RAMS_OUTRANKED),
                                      "rams"),  # fmt: skip
    "trump rams (counted)": ((Declaration.TRUMP_RAMS,), "trump_rams"),
    "plain-suit rams (counted)": ((Declaration.SUIT_RAMS,), None),
    "rams outranked (R5.4)": ((Declaration.RAMS_OUTRANKED,), None),
    "four jacks": ((Declaration.FOUR_JACKS,), "four_jacks"),
    "jack pair": ((Declaration.JACK_PAIR,), "jack_pair"),
    "jacks made void by a rams (R5.6)": ((Declaration.JACKS_VOID,), None),
}
# per deal: how it ended without play (R4.5, R5); VOID (void-deal option) is also a deal not played
NO_PLAY = (Outcome.RAMS, Outcome.FOUR_ACES, Outcome.JACKS_END, Outcome.NOBODY, Outcome.VOID)
ENDING_WORDS = {
    Outcome.RAMS: "rams",
    Outcome.FOUR_ACES: "four aces",
    Outcome.JACKS_END: "ended on jacks (R5.7)",
    Outcome.NOBODY: "everybody passed",
    Outcome.VOID: "void deal",
    Outcome.LONE: "one player, no play",
}


def deal_datasets(registry: dict = REGISTRY) -> list[tuple[str, int, int]]:
    """(name, players, deck) of every basic-policy deal dataset: ``deals-{p}p`` and ``deals-{p}p-deck{d}``."""
    out = []
    for name, data in registry.items():
        if re.fullmatch(r"deals-\dp(-deck\d+)?", name):
            out.append((name, data.rules.players, data.rules.deck_size))
    return sorted(out, key=lambda t: (t[2], t[1]))


POLICY_DATASETS = {policy: "deals-4p" if policy == "basic" else f"deals-4p-{policy}" for policy in (*POLICIES, SEARCH)}
DEALT = deal_datasets()
DATASETS = tuple(dict.fromkeys([name for name, _, _ in DEALT] + list(POLICY_DATASETS.values())))


# ---- dealt hands ---------------------------------------------------------------------
def dealt_flags(df: pl.DataFrame) -> pl.DataFrame:
    """Add one boolean column per declaration of :data:`rams_sim.odds.DECLARATIONS`: whether the
    dealt hand holds it, with odds.py's definitions (``hand_dealt`` uint64 mask, ``trump`` suit).

    four_aces: all four aces; rams: five cards of one suit, split into trump_rams (of the
    trump suit) and suit_rams; four_jacks; jack_pair: a same-colour pair (three jacks
    included) without all four (R5.5's jack kind 1).
    """
    trump = df["trump"].to_numpy()
    f = hand_features(df["hand_dealt"].to_numpy(), trump)
    rams = f["rams_suit"] >= 0
    flags = {
        "four_aces": f["n_aces"] == ALL_ACES,
        "rams": rams,
        "trump_rams": rams & (f["rams_suit"] == trump),
        "suit_rams": rams & (f["rams_suit"] != trump),
        "four_jacks": f["jacks"] == FOUR_JACKS_KIND,
        "jack_pair": f["jacks"] == JACK_PAIR_KIND,
    }
    assert set(flags) == set(DECLARATIONS)
    return df.with_columns([pl.Series(name, flags[name]) for name in DECLARATIONS])


def shares(df: pl.DataFrame, cells: list[str], flags: list[str], z: float = Z95) -> pl.DataFrame:
    """Per cell and flag, long form: ``flag``, ``n`` (rows), ``k`` (rows with the flag), ``p``,
    the deal-clustered Wilson interval ``lo``, ``hi`` at quantile ``z``, and ``deff`` (the
    design effect: clustered variance / binomial variance; below 1 when the rows of one
    deal are negatively dependent)."""
    wide = clustered_means(df.with_columns([pl.col(f).cast(pl.Float64) for f in flags]), cells, flags)
    rows = []
    for r in wide.iter_rows(named=True):
        for f in flags:
            p, se, n = r[f"{f}_mean"], r[f"{f}_se"], r["n"]
            est = clustered_wilson(p, se, n, z)
            deff = design_effect(p, se, n)
            rows.append({**{c: r[c] for c in cells}, "flag": f, "n": n, "k": round(p * n), "p": p,
                         "lo": est.low, "hi": est.high, "deff": deff})  # fmt: skip
    return pl.DataFrame(rows)


def with_exact(table: pl.DataFrame, z_all: float) -> pl.DataFrame:
    """Add ``exact`` (dealt_odds of the row's ``deck``, as float), ``inside`` (the 95% interval
    holds it) and ``inside_all`` (so does the interval at quantile ``z_all``, e.g. simultaneous)."""
    exact = {deck: dealt_odds(deck) for deck in table["deck"].unique().to_list()}
    values = [float(exact[d][f]) for d, f in zip(table["deck"], table["flag"])]
    low, high = effective_wilson(table["p"].to_numpy(), table["n"].to_numpy(), table["deff"].to_numpy(), z_all)
    return table.with_columns(pl.Series("exact", values, pl.Float64)).with_columns(
        ((pl.col("lo") <= pl.col("exact")) & (pl.col("exact") <= pl.col("hi"))).alias("inside"),
        ((pl.Series(low) <= pl.col("exact")) & (pl.col("exact") <= pl.Series(high))).alias("inside_all"))  # fmt: skip


def table_shares(ctx: Context) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """For every (deck, players) dataset, read once: the dealt-hand frequencies of DECLARATIONS
    and the shares of hands that declared each DECLARED row (long form, see :func:`shares`),
    and how the deals ended (:func:`endings`)."""
    dealt, declared, ends = [], [], []
    cells = ["deck", "players"]
    for name, players, deck in DEALT:
        df = ctx.scan(name).select("deal", "seat", "trump", "hand_dealt", "declaration", "outcome").collect()
        df = df.with_columns(pl.lit(deck, pl.Int16).alias("deck"), pl.lit(players, pl.Int8).alias("players"))
        dealt.append(shares(dealt_flags(df), cells, list(DECLARATIONS)).with_columns(pl.lit(name).alias("dataset")))
        declared.append(shares(declared_flags(df), cells, list(DECLARED)))
        ends.append(endings(df.filter(pl.col("seat") == 0), cells))
    return pl.concat(dealt), pl.concat(declared), pl.concat(ends)


def policy_shares(ctx: Context) -> tuple[pl.DataFrame, pl.DataFrame]:
    """For each policy's 4-player dataset, read once: the declared shares (long form, cell
    ``policy``) and how the deals ended."""
    declared, ends = [], []
    for policy, name in POLICY_DATASETS.items():
        df = ctx.scan(name).select("deal", "seat", "declaration", "outcome").collect()
        df = df.with_columns(pl.lit(policy).alias("policy"))
        declared.append(shares(declared_flags(df), ["policy"], list(DECLARED)))
        ends.append(endings(df.filter(pl.col("seat") == 0), ["policy"]))
    return pl.concat(declared), pl.concat(ends)


# ---- after the exchange, and deals without play ---------------------------------------
def declared_flags(df: pl.DataFrame) -> pl.DataFrame:
    """Add one boolean column per row of :data:`DECLARED`: the seat declared one of its codes."""
    return df.with_columns([pl.col("declaration").is_in([int(c) for c in codes]).alias(label)
                            for label, (codes, _) in DECLARED.items()])  # fmt: skip


def endings(df: pl.DataFrame, cells: list[str]) -> pl.DataFrame:
    """Per cell, one row per deal (``df``: one row per deal with ``outcome``): ``deals`` and, for
    "no play" (any of NO_PLAY), each NO_PLAY outcome and LONE, the share ``p_<name>`` with
    Wilson bounds ``lo_<name>``, ``hi_<name>`` and count ``k_<name>``."""
    flags = {"no play": pl.col("outcome").is_in([int(o) for o in NO_PLAY])}
    flags |= {ENDING_WORDS[o]: pl.col("outcome") == int(o) for o in (*NO_PLAY, Outcome.LONE)}
    counts = [f.sum().alias(f"k_{name}") for name, f in flags.items()]
    out = df.lazy().group_by(cells).agg(pl.len().alias("deals"), *counts).sort(cells).collect()
    n = out["deals"].to_numpy()
    for name in flags:
        k = out[f"k_{name}"].to_numpy()
        low, high = wilson_bounds(k, n)
        out = out.with_columns(pl.Series(f"p_{name}", k / n), pl.Series(f"lo_{name}", low),
                               pl.Series(f"hi_{name}", high))  # fmt: skip
    return out


# ---- formatting ----------------------------------------------------------------------
def _digits(p: float) -> int:
    """Decimals that show a percentage ``p`` (a share) to about three significant figures."""
    if not p or p <= 0 or math.isnan(p):
        return 2
    return max(1, 2 - math.floor(math.log10(p * 100)))


def pct(p: float, lo: float | None = None, hi: float | None = None, digits: int | None = None) -> str:
    """A share as a percentage, ``0.0139% [0.0110, 0.0172]`` (decimals by magnitude unless given)."""
    d = _digits(p if p > 0 or hi is None else hi) if digits is None else digits
    text = f"{p * 100:.{d}f}%"
    return text if lo is None else f"{text} [{lo * 100:.{d}f}, {hi * 100:.{d}f}]"


def at_least_by_chance(misses: int, cells: int, level: float = 0.95) -> float:
    """P(at least ``misses`` of ``cells`` independent intervals at ``level`` miss the truth): a binomial tail."""
    q = 1 - level
    return sum(math.comb(cells, k) * q**k * (1 - q) ** (cells - k) for k in range(misses, cells + 1))


def one_in(p: Fraction | float) -> str:
    """``1 in 7,192`` (rounded to a whole number of hands)."""
    return f"1 in {fmt_n(round(1 / float(p)))}" if p else "never"


def _why_more_after(declared: pl.DataFrame, deck: int) -> str:
    """Why far more hands declare than are dealt a declaration: the ratios for `basic`, and the rules that
    make them (the exchange, R4.4; the dealer's trump card, R4.3; basic's draw for a rams)."""
    odds = dealt_odds(deck)
    basic = {r["flag"]: r for r in declared.filter(pl.col("policy") == "basic").iter_rows(named=True)}
    pairs = [(DECLARATION_WORDS[f], basic[label], float(odds[f])) for f, label in
             (("trump_rams", "trump rams (counted)"), ("four_aces", "four aces"),
              ("rams", "a rams (counted or outranked)")) if label in basic and odds[f] > 0]  # fmt: skip
    ratios = "; ".join(f"{words}: {pct(r['p'], r['lo'], r['hi'])} declared against {pct(exact)} dealt, about "
                       f"{r['p'] / exact:.0f}×" for words, r, exact in pairs)  # fmt: skip
    return ("Why so many more hands declare than are dealt a declaration (`basic`): " + ratios + ". A declaration "
            "is made with the hand after the exchange, and the exchange is a second deal of up to five cards from the "
            "talon (R4.4); the dealer may also take the turned-up trump card (R4.3), so four trumps in his hand "
            "become a trump rams. `basic` keeps its aces and its higher trumps and, holding four cards of one suit, "
            "discards the odd card to draw for the fifth (its `rams_draw`, rams_sim/policies.py), so what it is dealt "
            "close to a declaration it often completes. The other policies keep and draw otherwise, so their rates "
            "differ.")


# ---- page ----------------------------------------------------------------------------
def lone_words(row: dict) -> str:
    """The definition sentence pages 3 and 7 share (issue 37): this page's "ends before play" leaves
    out a lone player's deal, page 7's counts it; ``row`` is a :func:`endings` row (``p_``/``lo_``/``hi_``)."""
    one = ENDING_WORDS[Outcome.LONE]
    both = row["p_no play"] + row[f"p_{one}"]
    return (f"Here a deal *ends before play* when nobody plays a card at all; the deals in which one player alone "
            f"plays and takes the five tricks without play (R4.5, "
            f"{pct(row[f'p_{one}'], row[f'lo_{one}'], row[f'hi_{one}'], 2)}) are not counted, while page 7 counts "
            f"them too ({100 * both:.2f}% of the same deals).")


def build(ctx: Context, out: Path) -> Page:
    page = Page("3-odds", "3. The odds of a rams",
                "How likely is each declaration (four aces, a rams of trumps or of a plain suit, four jacks, a jack "
                "pair) in a dealt hand, exactly and in simulation, for each deck and table size? How often is it "
                "declared after the exchange, under each policy, and how often does a deal end before "
                "play?")  # fmt: skip
    page.uses(*DATASETS)
    dealt, declared_by_table, by_table = table_shares(ctx)
    declared_by_policy, by_policy = policy_shares(ctx)
    cells = dealt.height
    dealt = with_exact(dealt, simultaneous_z(cells))
    misses, misses_all = int((~dealt["inside"]).sum()), int((~dealt["inside_all"]).sum())

    name, flag = HEADLINE
    head = dealt.filter((pl.col("dataset") == name) & (pl.col("flag") == flag)).row(0, named=True)
    exact_head = dealt_odds(head["deck"])[flag]
    basic = by_policy.filter(pl.col("policy") == "basic").row(0, named=True)
    agree = "lie" if misses == 0 else "miss" if misses > 1 else "misses"
    page.answer = (
        f"A hand dealt at the classic {head['players']}-player table ({head['deck']} cards) holds a rams with "
        f"probability {pct(float(exact_head))} ({one_in(exact_head)}) by exact count; the simulation gives "
        f"{pct(head['p'], head['lo'], head['hi'])} (n = {fmt_n(head['n'])} hands, 95% CI). Over all "
        f"{cells} deck, table and declaration cells, "
        + ("every exact value lies in its 95% interval" if misses == 0 else
           f"{misses} exact value{'s' if misses > 1 else ''} {agree} the 95% interval")
        + f" (chance alone gives about {cells * 0.05:.1f}) and "
        + ("none misses" if misses_all == 0 else f"{misses_all} miss{'es' if misses_all == 1 else ''}")
        + " its simultaneous interval; with the basic policy a classic deal ends before play in "
        f"{pct(basic['p_no play'], basic['lo_no play'], basic['hi_no play'], 1)} of deals "
        f"(n = {fmt_n(basic['deals'])}). " + lone_words(basic)
    )  # fmt: skip

    odds = dealt_odds(head["deck"])
    decks = sorted(dealt["deck"].unique().to_list())
    page.takeaways = [
        f"A rams comes about once in {fmt_n(round(1 / float(exact_head)))} dealt hands at the classic table "
        f"({head['deck']} cards; exact), a trump rams {one_in(odds['trump_rams'])}.",
        f"A jack pair is common: {pct(float(odds['jack_pair']))} of dealt hands ({one_in(odds['jack_pair'])}); "
        f"four aces {one_in(odds['four_aces'])} and four jacks {one_in(odds['four_jacks'])} (exact).",
        "The deck changes the odds: a rams is dealt " + ", ".join(
            f"{one_in(dealt_odds(d)['rams'])} with {d} cards" for d in decks) + " (exact).",
        f"With `basic` players {pct(basic['p_no play'], basic['lo_no play'], basic['hi_no play'], 1)} of classic "
        f"deals end before any card is played (n = {fmt_n(basic['deals'])} deals).",
    ]  # fmt: skip
    page.text(
        "Definitions (R5, and `rams_sim/odds.py`): **four aces** = all four aces; **rams** = five cards of one suit, "
        "a **trump rams** if the suit is that of the turned-up card, else a **plain-suit rams**; **four jacks**; a "
        "**jack pair** = both black or both red jacks (three jacks hold one), without all four. *Dealt* = the five "
        "cards a seat receives, before any exchange. The exact odds count every five-card hand and every turned "
        "card of the deck (so they do not depend on the table size); the simulated frequency counts every seat "
        "of every deal."
    )
    page.text(
        "Intervals: proportions with the 95% Wilson interval. The seats of one deal share a deck, so their hands "
        "are not independent; each interval is computed at the deal-clustered effective sample size (hands ÷ the "
        "design effect, and never more than the number of hands). The design effect (clustered variance ÷ the "
        f"variance of independent hands) ranges {dealt['deff'].drop_nans().min():.2f}–"
        f"{dealt['deff'].drop_nans().max():.2f} over the cells; below 1, the hands of one deal exclude each other "
        "(one deck), and treating them as independent is slightly conservative."
    )

    page.heading("Exact odds in a dealt hand")
    exact_rows = []
    for deck in sorted(dealt["deck"].unique().to_list()):
        odds = dealt_odds(deck)
        exact_rows.append({"deck": deck, **{DECLARATION_WORDS[f]: f"{pct(float(odds[f]))} ({one_in(odds[f])})"
                                           for f in DECLARATIONS}})  # fmt: skip
    page.table(pl.DataFrame(exact_rows), caption="Exact probability that a dealt hand holds each declaration "
               "(`rams_sim.odds.dealt_odds`).")  # fmt: skip

    page.heading("Simulated against exact")
    sim_rows = []
    for (deck, players), g in dealt.group_by(["deck", "players"], maintain_order=True):
        line = {"deck": deck, "players": players, "hands": fmt_n(g["n"][0])}
        for r in g.iter_rows(named=True):
            mark = "" if r["inside"] else " ✗"
            line[DECLARATION_WORDS[r["flag"]]] = pct(r["p"], r["lo"], r["hi"], _digits(r["exact"])) + mark
        sim_rows.append(line)
    page.table(pl.DataFrame(sim_rows), caption="Simulated frequency in dealt hands with its 95% interval; ✗ marks "
               "an interval that does not hold the exact value of the table above.")  # fmt: skip
    page.text(
        f"{misses} of the {cells} intervals miss the exact value. " + chance_misses(cells) + f" At least {misses} "
        f"would miss by chance alone with probability {at_least_by_chance(misses, cells):.2f} (a binomial tail that "
        "treats the cells as independent; they are not quite: a rams is a trump or a plain-suit rams, and one "
        "dataset's declarations are counted on the same hands). With Bonferroni-"
        f"simultaneous intervals over all {cells} cells (z = {simultaneous_z(cells):.2f}), "
        + ("none misses: simulation and counting agree." if misses_all == 0 else
           f"{misses_all} miss{'es' if misses_all == 1 else ''}: more than chance explains at this level.")  # fmt: skip
    )
    _figure(page, out, dealt)

    page.heading("After the exchange")
    page.text(
        "What the seats actually declared (the `declaration` column, R5), per hand (seat and deal): first at the "
        "classic 4-player table under each policy (each plays the same deals at every seat, so the dealt hands are "
        "the same), then with the basic policy for every deck and table size. "
        "A declaration is made with the hand after the exchange and the dealer's trump card (R4.3); jack pairs "
        "count if dealt or held (R5.5, `dealt-or-final`), passers included; a rams voids the deal's jack pairs "
        "(R5.6), and four aces end the deal before any rams is shown (R5.1). Intervals are deal-clustered Wilson."
    )
    declared = _declared_table(declared_by_policy, ctx.registry[POLICY_DATASETS["basic"]].rules.deck_size)
    page.table(declared, caption="Share of hands that declared each, with its 95% interval; the exact odds of the "
               "dealt hand beside it.")  # fmt: skip
    page.text(chance_misses((declared.width - 2) * declared.height))
    page.text(_why_more_after(declared_by_policy, ctx.registry[POLICY_DATASETS["basic"]].rules.deck_size))

    rows = []
    for (deck, players), g in declared_by_table.group_by(["deck", "players"], maintain_order=True):
        line = {"deck": deck, "players": players, "hands": fmt_n(g["n"][0])}
        line |= {r["flag"]: pct(r["p"], r["lo"], r["hi"]) for r in g.iter_rows(named=True)}
        rows.append(line)
    page.table(pl.DataFrame(rows), caption="The basic policy at every seat, by deck and table size: share of hands "
               "that declared each (95% deal-clustered intervals).")  # fmt: skip
    page.text(chance_misses(len(rows) * len(DECLARED)))

    page.heading("Deals that end before play")
    page.text(lone_words(basic))
    shown = [k for k in ("no play", *(ENDING_WORDS[o] for o in (*NO_PLAY, Outcome.LONE)))
             if int(by_table[f"k_{k}"].sum() + by_policy[f"k_{k}"].sum()) > 0 or k == "no play"]  # fmt: skip
    hidden = [k for k in (ENDING_WORDS[o] for o in NO_PLAY) if k not in shown]
    page.text(
        "Per deal (one row per deal, so the deals are independent; Wilson intervals): **no play** = the deal ended "
        "at the declarations (four aces, a rams, R5; or a party ended on jacks, R5.7) or everybody passed (R4.5). "
        "*One player, no play* = exactly one player played and took the five tricks without play (R4.5 "
        "`takes-all`); it is shown apart."
        + (f" No deal of these datasets ended by: {', '.join(hidden)}." if hidden else "")
    )
    page.table(_endings_rows(by_table, ["deck", "players"], shown),
               caption="Basic policy at every seat, by deck and table size (95% intervals).")  # fmt: skip
    page.table(_endings_rows(by_policy, ["policy"], shown),
               caption="The classic 4-player table (32 cards), each policy at every seat, the same deals (95% "
               "intervals).")  # fmt: skip
    kinds = {k: POLICY_DATASETS[k] for k in PLAYER_KINDS}
    ends = {k: row_estimate({"p": r["p_no play"], "lo": r["lo_no play"], "hi": r["hi_no play"], "n": r["deals"]})
            for k in kinds for r in [by_policy.filter(pl.col("policy") == k).row(0, named=True)]}  # fmt: skip
    page.answer += (" The odds of a dealt hand do not depend on the players; how often a deal ends before play "
                    "does. " + across_players(page, "deals that end before play", ends, kinds, 1, percent=True,
                                              versus=None))  # fmt: skip
    return page


def _declared_table(declared: pl.DataFrame, deck: int) -> pl.DataFrame:
    """Rows = DECLARED labels; columns: the exact dealt odds of ``deck`` and each policy's share
    (``declared``: :func:`policy_shares`' long table)."""
    odds = dealt_odds(deck)
    columns = {"declared": list(DECLARED), f"dealt, exact ({deck} cards)": [
        pct(float(odds[key])) if key else "–" for _, key in DECLARED.values()]}  # fmt: skip
    for policy in POLICY_DATASETS:
        freq = declared.filter(pl.col("policy") == policy)
        shown = {r["flag"]: pct(r["p"], r["lo"], r["hi"]) for r in freq.iter_rows(named=True)}
        columns[f"{policy} (n = {fmt_n(freq['n'][0])})"] = [shown[label] for label in DECLARED]
    return pl.DataFrame(columns)


def _endings_rows(table: pl.DataFrame, cells: list[str], shown: list[str]) -> pl.DataFrame:
    rows = []
    for r in table.iter_rows(named=True):
        line = {c: r[c] for c in cells} | {"deals": fmt_n(r["deals"])}
        for k in shown:
            line[k] = pct(r[f"p_{k}"], r[f"lo_{k}"], r[f"hi_{k}"])
        rows.append(line)
    return pl.DataFrame(rows)


def _figure(page: Page, out: Path, dealt: pl.DataFrame) -> None:
    """Simulated ÷ exact, with its interval, per declaration; a point per (deck, players)."""
    fig, axes = plt.subplots(2, 3, figsize=(12, 6.5), sharey=False)
    decks = sorted(dealt["deck"].unique().to_list())
    for ax, flag in zip(axes.flat, DECLARATIONS):
        g = dealt.filter(pl.col("flag") == flag).sort("deck", "players")
        x = np.array([decks.index(d) for d in g["deck"]]) + (g["players"].to_numpy() - 4.5) * 0.1
        ratio = g["p"] / g["exact"]
        err = np.vstack([(g["p"] - g["lo"]) / g["exact"], (g["hi"] - g["p"]) / g["exact"]])
        colours = np.where(g["inside"].to_numpy(), "#0072B2", "#D55E00")  # Okabe-Ito blue, vermillion
        for xi, yi, e0, e1, c in zip(x, ratio, err[0], err[1], colours):
            ax.errorbar(xi, yi, yerr=[[e0], [e1]], marker="o", ms=3, capsize=2, color=c, ls="none")
        ax.axhline(1, color="grey", lw=0.8)
        ax.set_xticks(range(len(decks)), [f"{d} cards" for d in decks])
        ax.set_title(DECLARATION_WORDS[flag])
    for ax in axes[:, 0]:
        ax.set_ylabel("simulated ÷ exact")
    page.figure(fig, out, "simulated-vs-exact", "Simulated frequency ÷ exact probability in dealt hands, each deck; "
                "the points of one deck are its table sizes (2 to 7 players, left to right), bars are 95% intervals "
                "(vermillion: the interval misses the exact value; colours safe for colour-blind readers). 1 = agreement.")  # fmt: skip
