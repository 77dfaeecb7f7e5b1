"""Question 2: when discarding pays off — a strategy table for the exchange (R4).

Reads ``branch-4p``: for each deal, seat 0's exchange replayed once per option the rules
open to him (pass without a dealt ace, R4.1; stand; every discard set the talon allows,
R4.4), everyone else on ``basic``, the same deck order; and ``deals-4p`` (the same deals
played by ``basic`` throughout) for ``basic``'s own choice.

The page speaks in the *canonical actions* of :mod:`analyses.exchange` (pass, stand,
exchange the k weakest, and two rules: exchange every plain card below a king, or every
plain card but aces), groups deals into its *hand classes* (aces, trumps and the top
trump, dealer, jack pair, longest suit; sparse classes merged into coarser ones, the
levels of :data:`Q2_LEVELS`), picks each class's best action on the selection half of
the deals and measures it on the held-out half, against standing pat and against ``basic``.
:mod:`analyses.q4_pass` shares the same per-deal table and class machinery.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from rams_sim.runs.summary import Estimate

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
    share,
)
from .data import SEARCH
from .exchange import (
    ACES,
    ACTION_WORDS,
    ACTIONS,
    BRANCH,
    BRANCH_EXPERT,
    BRANCH_SEARCH,
    DEALER,
    DIM_HEADS,
    EXCHANGES,
    IDENTICAL,
    JACK_PAIR,
    LONGEST,
    MIN_CELL_DEALS,
    OTHER,
    PASS,
    PLAIN,
    RUN,
    RUN_EXPERT,
    RUN_SEARCH,
    STAND,
    TOP,
    TRUMPS,
    WEAKEST,
    against_basic,
    apply_table,
    assign_classes,
    best_actions,
    by_position,
    cell_text,
    class_columns,
    class_legend,
    dim_text,
    exchange_table,
    gain_col,
    half,
    hand_col,
    long_values,
    mark,
    position_table,
    with_shipped_table,
)
from .q2_table import DATASETS as TABLE_DATASETS
from .q2_table import section as table_section

DATASETS = (BRANCH, RUN, BRANCH_EXPERT, RUN_EXPERT, BRANCH_SEARCH, RUN_SEARCH, *TABLE_DATASETS)
# Classes of question 2, coarse to fine: a deal belongs to the finest level whose class
# holds at least MIN_CELL_DEALS of the deals not already in a finer class.
Q2_LEVELS = (
    (ACES,),
    (ACES, TRUMPS, TOP),
    (ACES, TRUMPS, TOP, DEALER),
    (ACES, TRUMPS, TOP, DEALER, JACK_PAIR),
    (ACES, TRUMPS, TOP, DEALER, JACK_PAIR, LONGEST),
)
HEAT_LIMIT = 15.0  # the figure's colour scale ends here (a few strong hands lose far more by a big exchange)


# ---- selection and evaluation ----------------------------------------------------------
def strategy(df: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The class table chosen on the selection half: ``keys``, ``best`` (any action) and
    ``best_x`` (the best exchange, of any number of cards)."""
    chosen = half(df, select=True)
    best_x = best_actions(chosen, keys, EXCHANGES, "best_x")
    return best_actions(chosen, keys, ACTIONS).join(best_x, on=keys, nulls_equal=True)


def held_out(df: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The held-out deals with the selection-chosen ``best`` and ``best_x`` of their class applied:
    adds ``g_best``, ``h_best``, ``g_best_x``, ``h_best_x`` and, given basic's choice,
    ``follows`` (basic ended with the same hand as the table: both passed, or both played
    the same final hand)."""
    table = strategy(df, keys)
    held = apply_table(half(df, select=False), table.select(*keys, "best"), keys, "best", ACTIONS)
    held = apply_table(held, table.select(*keys, "best_x"), keys, "best_x", EXCHANGES)
    if "basic_passed" not in held.columns:
        return held
    same = pl.when(pl.col("best") == PASS).then(pl.col("basic_passed")).otherwise(
        ~pl.col("basic_passed") & (pl.col("basic_hand") == pl.col("h_best")))  # fmt: skip
    return held.with_columns(same.alias("follows"))


def diff_values(minus: str) -> dict[str, pl.Expr]:
    """Paired per-deal differences of every canonical action minus action ``minus``."""
    return {a: pl.col(gain_col(a)) - pl.col(gain_col(minus)) for a in ACTIONS if a != minus}


def class_means(df: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Per class (all deals): n, mean gain of standing pat, and each other action's paired
    gain over standing pat (``what``: action; n, mean, lo, hi)."""
    values = {STAND: pl.col(gain_col(STAND)), **diff_values(STAND)}
    return mean_by(long_values(df, keys, values), keys + ["what"], pl.col("value"))


# ---- the page --------------------------------------------------------------------------
def per_class_held_out(held: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Per class on the held-out deals: ``held-out deals``, ``best``, ``best_x`` and the paired gains
    ``best − stand``, ``best − basic``, ``best exchange − stand`` as ``value [lo, hi]`` text."""
    values = {"best − stand": pl.col("g_best") - pl.col(gain_col(STAND)),
              "best − basic": pl.col("g_best") - pl.col("g_basic"),
              "best exchange − stand": pl.col("g_best_x") - pl.col(gain_col(STAND))}  # fmt: skip
    index = keys + ["best", "best_x"]
    m = mean_by(long_values(held, index, values), index + ["what"], pl.col("value"))
    m = m.with_columns(pl.struct("mean", "lo", "hi", "n").map_elements(cell_text, return_dtype=pl.Utf8).alias("text"))
    wide = m.pivot(on="what", index=index, values="text")
    n = m.filter(pl.col("what") == "best − stand").select(*keys, pl.col("n").alias("held-out deals"))
    return wide.join(n, on=keys, nulls_equal=True)


INTRO = (
    "Units: *gain* = points written off the score in the deal (−delta; the score counts down, so higher is better; a "
    "*remiz*, no trick taken, writes 5 plus the player's aces on, R7.2). Data: seat 0 of each deal of `{branch}` is "
    "replayed once for every exchange option the rules open to him, everybody else playing `basic` on the same deck "
    "order, so the options are compared deal by deal (paired). The dealer rotates; seat 0, when he deals, decides "
    "about the turned-up trump card as `basic` does (R4.3). *`basic`'s choice* is what `basic` itself did with "
    "seat 0's hand in the same deal (`{run}`)."
)
ACTIONS_TEXT = (
    "*Actions.* A discard is hand-specific, so the table uses actions that mean the same for every hand: **pass** "
    "(only without a dealt ace, R4.1); **stand pat**; **exchange k** (k = 1..5): discard the k weakest cards and "
    "draw as many, *weakest* first being plain (non-trump) cards other than aces, by rank, then plain aces, then "
    "trumps by rank; **exchange plain cards below K**: discard every plain card below a king (keep trumps, aces and "
    "kings: close to what `basic` does, which also keeps a jack pair); **exchange plain cards but aces**: keep only "
    "trumps and aces. When the talon is short (R4.4) an exchange takes as many of its cards as the talon serves, "
    "weakest first ({short} of {deals} deals had a talon short of five). Because aces and trumps come last in "
    "the weakest order, *exchange k* throws away a plain ace or a trump only when the hand has fewer than k weaker "
    "cards, and *exchange all 5* throws away the whole hand, aces included: where a class's best is that, its hands "
    "are worth less than a fresh five from the talon."
)
SELECTION_TEXT = (
    "*Choosing without flattering.* Each class's best action is chosen on one half of the deals (the *selection* "
    "half) and every gain of a chosen action is measured on the other half only (the *held-out* deals), so the "
    "table's value is not inflated by picking the luckiest option. The halves are split by a hash of the deal "
    "number, so seat 0 holds every position, the dealer's included, about equally often in both. Differences are "
    "per deal (the same deal under two actions), with normal 95% intervals."
)


def build(ctx: Context, out: Path) -> Page:
    page = Page("2-exchange", "2. When discarding pays off",
                "Which exchange should a player make with a given hand: pass, stand pat, or discard how many "
                "cards? What is each option worth by hand class, what does the best exchange gain over standing "
                "pat, and what is following such a table worth against the `basic` policy's own exchange?")  # fmt: skip
    page.uses(*DATASETS)
    base = exchange_table(ctx)
    df = assign_classes(base, Q2_LEVELS, MIN_CELL_DEALS)
    dims = list(Q2_LEVELS[-1])
    held = held_out(df, dims)
    vs_basic = mean_estimate(held["g_best"] - held["g_basic"])
    x_stand = mean_estimate(held["g_best_x"] - held[gain_col(STAND)])
    rule = mean_estimate(held[gain_col(PLAIN)] - held["g_basic"])
    same = held.select((pl.col("best") != PASS) & (pl.col(hand_col("best")) == pl.col(hand_col(PLAIN))))[:, 0]
    positions = by_position(held, {"best − basic": pl.col("g_best") - pl.col("g_basic"),
                                   "best exchange − stand": pl.col("g_best_x") - pl.col(gain_col(STAND))})  # fmt: skip
    dealer = positions[-2]
    page.answer = (
        f"Following the strategy table below instead of `basic`'s own exchange is worth {fmt(vs_basic)} points per "
        f"deal (n = {fmt_n(vs_basic.n)} held-out deals of every position, the dealer's a quarter of them; paired 95% "
        f"CI), and the table's best exchange beats standing pat by {fmt(x_stand)} points per deal. As dealer the "
        f"table is worth {fmt(dealer['best − basic'])} over `basic` (n = {fmt_n(dealer['deals'])}). In "
        f"{fmt(share(same), 1, percent=True)} of the deals the table "
        f"says what one simple rule says, *exchange every plain card but the aces*, which alone is worth {fmt(rule)} "
        "points per deal over `basic`."
    )
    if not clear(vs_basic):
        page.answer += " The gain over `basic` is not statistically clear at this sample size."
    first = positions[0]
    lone = lone_ace_exception(held)
    page.takeaways = [
        f"Keep trumps and aces, exchange the rest: that one rule gains {fmt(rule)} points a deal over `basic`'s "
        f"exchange; the full table below chooses just that in {fmt(share(same), 1, percent=True)} of deals and adds "
        f"little to it ({fmt(vs_basic)} over `basic`). {lone}",
        f"Exchange rather than stand pat: the best exchange of a class beats standing pat by {fmt(x_stand)} points "
        "a deal.",
        f"Choosing the exchange by class gains the dealer {fmt(dealer['best − basic'])} a deal over `basic`, and "
        f"first hand {fmt(first['best − basic'])} (the table below has every position).",
    ]  # fmt: skip
    page.facts["dealer_no_ace_no_trump"] = dealer_blank_fact(held, base)
    page.facts["exchange_rule"] = (
        f"Keep your trumps and aces and exchange every other card: in every position (first, second and third hand "
        f"and the dealer) at a table of `basic` players that one rule gains {fmt(rule)} points a deal over `basic`'s "
        f"exchange (n = "
        f"{fmt_n(rule.n)} held-out deals, paired 95% CI); page 2's table by hand class chooses just that in "
        f"{fmt(share(same), 1, percent=True)} of deals and gains {fmt(vs_basic)} in all. {lone}")  # fmt: skip
    page.facts["exchange_by_position"] = (
        "Choosing the exchange by hand class pays most as dealer: over `basic`'s exchange it gains the dealer "
        f"{fmt(dealer['best − basic'])} points a deal (n = {fmt_n(dealer['deals'])})"
        + "".join(f", {r['position']} {fmt(r['best − basic'])} (n = {fmt_n(r['deals'])})" for r in positions[:-2])
        + " (held-out deals, paired 95% CIs).")  # fmt: skip
    page.text(INTRO.format(branch=BRANCH, run=RUN))
    short = fmt_n(int((df["k_max"] < len(WEAKEST)).sum()))
    page.text(ACTIONS_TEXT.format(short=short, deals=fmt_n(df.height)))
    page.text("*Hand classes* (of the five dealt cards; the trump suit is that of the turned-up card):\n\n"
              + class_legend(dims) + "\n\n"
              f"A class needs {fmt_n(MIN_CELL_DEALS)} deals for a row of its own; rarer hands are merged into a "
              "coarser class by dropping, in turn, the longest suit, the jack pair, the dealer, then the trumps "
              f"(shown as *{OTHER}*: every hand of the row's other features that has no row of its own).")  # fmt: skip
    page.text(SELECTION_TEXT)

    page.heading("What the table is worth")
    rows = [("best action of the class − stand pat", mean_estimate(held["g_best"] - held[gain_col(STAND)])),
            ("best exchange of the class − stand pat", x_stand),
            ("best action of the class − `basic`'s choice", vs_basic),
            ("`basic`'s choice − stand pat", mean_estimate(held["g_basic"] - held[gain_col(STAND)])),
            ("exchange plain cards but aces, every hand − `basic`'s choice", rule)]  # fmt: skip
    page.table(pl.DataFrame({"comparison (held-out deals)": [r[0] for r in rows], "deals": [r[1].n for r in rows],
                             "gain per deal [95% CI]": [mark(r[1]) for r in rows]}),  # fmt: skip
               caption="Paired gains per deal on the held-out deals; ✓ = the interval excludes 0. The last "
                       "row applies one fixed rule to every hand, with no choice by class.")  # fmt: skip
    page.table(position_table(positions),
               caption="The same held-out gains by seat 0's position: first to speak is the dealer's left (R6.1); "
                       "the dealer speaks last and may take the turned-up trump card (R4.3). ✓ = the interval "
                       "excludes 0.")  # fmt: skip
    page.text(page.facts["dealer_no_ace_no_trump"])  # the guide's sentence, shown where its numbers are made
    follows = share(held["follows"])
    page.text(f"`basic` already ends with the table's hand in {fmt(follows, 1, percent=True)} of the held-out deals.")
    levels_table(page, base)

    page.heading("The strategy table")
    strategy_table(page, held, dims)
    page.heading("Every action, by class")
    actions_table(page, df, dims, out)
    figure(page, base, out)
    expert_table = assign_classes(exchange_table(ctx, BRANCH_EXPERT, RUN_EXPERT), Q2_LEVELS, MIN_CELL_DEALS)
    expert = held_out(expert_table, dims)
    search = with_shipped_table(exchange_table(ctx, BRANCH_SEARCH, RUN_SEARCH))
    own = {"basic": vs_basic, "expert": mean_estimate(expert["g_best"] - expert["g_basic"]),
           SEARCH: mean_estimate(search["g_table"] - search["g_basic"])}  # fmt: skip
    holds = across_players(page, "a class table's gain over the players' own exchange (points per deal)", own,
                           {"basic": BRANCH, "expert": BRANCH_EXPERT, SEARCH: BRANCH_SEARCH})  # fmt: skip
    page.answer += (f" Against the players' own exchange: {holds[0].lower()}{holds[1:]} For `expert` (a table chosen "
                    f"again on their deals) {against_basic(vs_basic, own['expert'])} For `pimc` the table is the "
                    "shipped one.")  # fmt: skip
    page.takeaways.append(f"Most of that is `basic`'s weakness: against `expert`'s own exchange a class table gains "
                          f"only {fmt(own['expert'])} points a deal.")
    page.text("With `expert` players the table is chosen again, on the selection half of their own branched deals, "
              "and measured against `expert`'s own exchange on the held-out half. With `pimc` players (its defaults: "
              f"up to 128 worlds a decision, reading the others' exchanges; {fmt_n(search.height)} deals, each replaying about 25 exchange options of a table of "
              "searching players) there are too few deals to choose a table on them: the row measures the table "
              "the package ships (the `table` policy's, below) against `pimc`'s own exchange, on every deal.")  # fmt: skip
    table_section(ctx, page, out, held.drop(dims).join(base.select("deal", *dims), on="deal"))  # unmerged classes
    return page


LONE_ACE = "x5"  # the exchange that throws a lone ace away with the rest (exchange the 5 weakest: the whole hand)


def lone_ace_exception(held: pl.DataFrame) -> str:
    """The first rule of thumb's exception, measured on the held-out deals: with exactly one ace and no trump,
    exchanging all five cards (the ace too) against keeping the ace and exchanging the other four
    (*plain cards but aces*), paired per deal, for the non-dealers together and for the dealer (who may take
    the turned-up trump card, R4.3). Returns the sentence, worded by the sign and clarity of each estimate."""
    lone = held.filter((pl.col("n_aces") == 1) & (pl.col(TRUMPS) == 0))
    diff = pl.col(gain_col(LONE_ACE)) - pl.col(gain_col(PLAIN))
    others = mean_estimate(lone.filter(~pl.col(DEALER)).select(diff)[:, 0])
    dealer = mean_estimate(lone.filter(pl.col(DEALER)).select(diff)[:, 0])

    def verdict(e: Estimate) -> str:
        return ("throwing the ace away is better" if e.value > 0 else "keeping the ace is better") if clear(e) \
            else "no clear difference"

    if clear(others) and others.value > 0:
        head = ("The exception: with one ace and no trump, as first, second or third hand, throw the ace away too "
                "and exchange all five cards; an ace that wins no trick is written on with the remiz (R7.2).")
    else:
        head = "With one ace and no trump, exchanging all five cards instead of keeping the ace:"
    return (f"{head} All five instead of keeping the ace: {fmt(others)} a deal as first, second or third hand "
            f"(n = {fmt_n(others.n)}; {verdict(others)}), {fmt(dealer)} as dealer (n = {fmt_n(dealer.n)}; "
            f"{verdict(dealer)}: he may take the trump card, R4.3); held-out deals, paired 95% CIs.")


def dealer_blank_fact(held: pl.DataFrame, base: pl.DataFrame) -> str:
    """The player's guide's sentence on the dealer dealt no ace and no trump (held-out deals, paired)."""
    trumps = base.select("deal", pl.col(TRUMPS).alias("trumps_dealt"))  # a merged class nulls its trumps
    d = held.join(trumps, on="deal").filter((pl.col("n_aces") == 0) & (pl.col("trumps_dealt") == 0)
                                            & pl.col("is_dealer"))  # fmt: skip
    gain = mean_estimate(d["g_best_x"] - d[gain_col(STAND)])
    passing = mean_estimate(d[gain_col(PASS)] - d["g_best_x"])
    usual = d["best_x"].value_counts(sort=True)["best_x"][0]
    every = ", which for such a hand means all five cards" if usual in (PLAIN, WEAKEST[-1]) else ""
    return (f"As dealer with no ace and no trump, exchange: the table's best exchange for such hands (most often "
            f"*{ACTION_WORDS[usual]}*{every}) gains {fmt(gain)} points a deal over standing pat; passing instead "
            f"of exchanging: {fmt(passing)} points a deal (n = {fmt_n(gain.n)} held-out deals, paired 95% CIs).")


def strategy_table(page: Page, held: pl.DataFrame, dims: list[str]) -> None:
    """Per class: the best action and best exchange chosen on the selection half, measured on the held-out half."""
    words = [pl.col("best").replace_strict(ACTION_WORDS).alias("best action"),
             pl.col("best_x").replace_strict(ACTION_WORDS).alias("best exchange")]  # fmt: skip
    table = class_columns(per_class_held_out(held, dims).with_columns(words), dims)
    cols = ["held-out deals", "best action", "best − stand", "best − basic", "best exchange", "best exchange − stand"]
    page.table(table.select(*[DIM_HEADS[d] for d in dims], *cols),
               caption="Per class: the best action (chosen on the selection half) and, on the held-out deals, its "
                       "paired gain "
                       "over standing pat and over `basic`'s choice; the best exchange and its gain over standing "
                       f"pat. *{IDENTICAL}*: the two choices are the same in every deal of the class (e.g. `basic` "
                       "passes every such hand), a zero by construction, not a measurement.")  # fmt: skip
    page.text(chance_misses(3 * table.height))


def actions_table(page: Page, df: pl.DataFrame, dims: list[str], out: Path) -> None:
    """Per class on all deals: the gain of standing pat and every other action's paired gain over it:
    on the page in two parts (stand, pass and the two rules; exchange 1-5), whole in a CSV with the
    numbers (mean, lo, hi, n per class and action)."""
    means = class_means(df, dims)
    text = pl.struct("mean", "lo", "hi", "n").map_elements(lambda r: cell_text(r, 1), return_dtype=pl.Utf8)
    means = means.with_columns(text.alias("t"))
    n = means.filter(pl.col("what") == STAND).select(*dims, pl.col("n").alias("deals"))
    wide = class_columns(means.pivot(on="what", index=dims, values="t").join(n, on=dims, nulls_equal=True), dims)
    heads = {STAND: "stand pat (gain)", **{a: f"{ACTION_WORDS[a]} − stand" for a in ACTIONS if a != STAND}}
    shown = [a for a in heads if a in wide.columns]
    keys = [DIM_HEADS[d] for d in dims]
    table = wide.select(*keys, "deals", *shown).rename({a: heads[a] for a in shown})
    first = [heads[a] for a in shown if a not in WEAKEST]
    order = {a: i for i, a in enumerate(heads)}  # the CSV's rows in the page's order: class, then action
    numbers = class_columns(means.sort(pl.col("what").replace_strict(order)).select(
        *dims, pl.col("what").replace_strict(heads).alias("action"), pl.col("mean").alias("estimate"),
        pl.col("lo").alias("ci_low"), pl.col("hi").alias("ci_high"), "n"), dims)  # fmt: skip
    page.split_table(table, keys, [["deals", *first], [heads[a] for a in shown if a in WEAKEST]], out, "actions",
                     caption="All deals: the mean gain of standing pat, and each other action's paired gain over "
                             "standing pat (a dash: the action is not open to the class).",
                     data=numbers)  # fmt: skip
    page.text(chance_misses(int(means.height)))


def levels_table(page: Page, df: pl.DataFrame) -> None:
    """The table's held-out value with coarser class definitions (``df``: before assign_classes)."""
    rows = []
    for level in range(len(Q2_LEVELS)):
        keys = list(Q2_LEVELS[level])
        coarse = assign_classes(df, Q2_LEVELS[: level + 1], MIN_CELL_DEALS)
        held = held_out(coarse, keys)
        rows.append({"classes by": ", ".join(DIM_HEADS[k] for k in keys),
                     "classes": coarse.select(keys).unique().height,
                     "best − basic": mark(mean_estimate(held["g_best"] - held["g_basic"])),
                     "best − stand": mark(mean_estimate(held["g_best"] - held[gain_col(STAND)]))})  # fmt: skip
    page.table(pl.DataFrame(rows), caption="The same held-out comparison with coarser hand classes (each adds one "
               "feature to the one above): what each feature of the hand adds to the table.")  # fmt: skip


def class_label(a: int, t: int, top: int) -> str:
    """``1 ace, 2 trumps (top Q/J)``: a class of the figure."""
    text = f"{dim_text(ACES, a)} ace{'' if a == 1 else 's'}, {dim_text(TRUMPS, t)} trump{'' if t == 1 else 's'}"
    return text + (f" (top {dim_text(TOP, top)})" if t else "")


HEAT_CMAP = "PuOr"  # ColorBrewer's diverging purple-orange: safe for the common colour blindnesses


def luminance(rgba) -> float:
    """Relative luminance (WCAG 2) of an RGB(A) colour with channels in [0, 1]."""
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3]]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def text_colour(rgba) -> str:
    """Black or white, whichever contrasts more with a cell of colour ``rgba`` (WCAG contrast ratios)."""
    lum = luminance(rgba)
    return "black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white"


def figure(page: Page, df: pl.DataFrame, out: Path) -> None:
    """Heat map: mean paired gain over standing pat of each action, by aces and trumps."""
    keys = [ACES, TRUMPS, TOP]
    m = mean_by(long_values(df, keys, diff_values(STAND)), keys + ["what"], pl.col("value"))
    classes = df.select(keys).unique().sort(keys)
    acts = [a for a in ACTIONS if a != STAND]
    grid = np.full((classes.height, len(acts)), np.nan)
    index = {row: i for i, row in enumerate(classes.iter_rows())}
    for r in m.iter_rows(named=True):
        grid[index[(r[ACES], r[TRUMPS], r[TOP])], acts.index(r["what"])] = r["mean"]
    fig, ax = plt.subplots(figsize=(9, 0.34 * classes.height + 2.0))
    lim = min(HEAT_LIMIT, np.nanmax(np.abs(grid)) or 1.0)
    cmap = plt.get_cmap(HEAT_CMAP)
    im = ax.imshow(grid, cmap=cmap, vmin=-lim, vmax=lim, aspect="auto")
    for i, j in zip(*np.nonzero(~np.isnan(grid))):
        ax.text(j, i, num(grid[i, j], 1), ha="center", va="center", fontsize=9,
                color=text_colour(cmap((np.clip(grid[i, j], -lim, lim) + lim) / (2 * lim))))  # fmt: skip
    ax.set_xticks(range(len(acts)), [ACTION_WORDS[a] for a in acts], rotation=30, ha="right", fontsize=9)
    ax.set_yticks(range(classes.height), [class_label(*row) for row in classes.iter_rows()], fontsize=9)
    fig.colorbar(im, ax=ax, label=f"gain over standing pat (points per deal; colours stop at ±{HEAT_LIMIT:g})")
    page.figure(fig, out, "actions", "Mean gain of each action over standing pat (paired, all deals), by aces and "
                "trumps dealt; purple = better than standing pat, orange = worse (a colour-blind-safe scale). "
                "Blank: not open (a pass with an ace).")  # fmt: skip
