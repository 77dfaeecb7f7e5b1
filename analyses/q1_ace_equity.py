"""Question 1: what each ace is worth to the player dealt it, as trump and off-trump.

Reads the classic deals at every table size (basic policy at every seat, the dealer
rotating). Each (deal, seat) row is put in a *hand class* by the aces of its **dealt**
hand (``hand_dealt``, before any exchange): no ace; exactly one ace, of a given suit,
which is or is not the trump suit; two or more aces. The *value* of an ace is the mean
gain of the hands dealt exactly that ace minus the mean gain of the ace-less hands of
the same table size (and position). A *remiz* is an active player's played deal with
no trick (R7.2): ``passed`` false, ``outcome`` PLAYED, ``tricks`` 0.

Rows of one deal are not independent (the seats share the deck and the tricks), so
every estimate pooled over seats carries a deal-clustered standard error: the
linearised ratio estimator, residuals summed per deal (:func:`analyses.clustered.class_table`). Within one
position each deal has one row, and the clustered error reduces to the ordinary one.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from rams_sim import cards as C
from rams_sim.hands import hand_features
from rams_sim.record import Outcome
from rams_sim.runs.summary import Z95, Estimate

from .clustered import class_diff, class_mean, class_table
from .common import (
    GAIN,
    GAIN_WORDS,
    REMIZ,
    Context,
    Page,
    across_players,
    chance_misses,
    clear,
    fmt,
    fmt_n,
    unpaired_difference,
)
from .data import SEARCH, TABLE_SIZES
from .exchange import POSITION_NUMBERING, position_words
from .q5_position import with_position

DATASETS = tuple(f"deals-{p}p" for p in TABLE_SIZES) + ("deals-4p-expert", f"deals-4p-{SEARCH}")  # + other players
HEADLINE_PLAYERS = 4  # the classic table (R9)
HEADLINE_SUIT = C.HEARTS  # the question asks for the ♥A
COLUMNS = ("deal", "seat", "dealer", "players", "trump", "hand_dealt", "aces", "passed", "tricks", "delta", "outcome")

# hand classes: `ace` = the suit of the one ace dealt, or one of these
NO_ACE = -1
TWO_OR_MORE = C.N_SUITS
# `kind` of a single ace: whether it is of the trump suit (0 for every other class)
ANY_KIND, OFF_TRUMP, AS_TRUMP = 0, 1, 2
KIND_WORDS = {ANY_KIND: "", OFF_TRUMP: "off-trump", AS_TRUMP: "as trump"}
BASELINE = {"ace": NO_ACE, "kind": ANY_KIND}
VALUES = ("gain", "remiz", "bonus", "rest")  # per row: points written off, remiz flag, ace points, gain − ace points


def ace_label(ace: int, kind: int = ANY_KIND) -> str:
    """The words for a hand class: ``♥A only``, ``♥A only, as trump``, ``no ace``, ``two or more aces``."""
    if ace == NO_ACE:
        return "no ace"
    if ace == TWO_OR_MORE:
        return "two or more aces"
    text = f"{C.SUIT_SYMBOLS[ace]}A only"
    return text + (f", {KIND_WORDS[kind]}" if kind != ANY_KIND else "")


# ---- rows ----------------------------------------------------------------------------
def classify(df: pl.DataFrame) -> pl.DataFrame:
    """Add the dealt-hand class: ``ace`` (int8: NO_ACE, the suit 0-3 of the only ace dealt,
    or TWO_OR_MORE) and ``kind`` (int8: AS_TRUMP / OFF_TRUMP for a single ace, else ANY_KIND).

    ``df`` needs ``hand_dealt`` (uint64 card mask) and ``trump`` (suit 0-3).
    """
    trump = df["trump"].to_numpy()
    feats = hand_features(df["hand_dealt"].to_numpy(), trump)
    n_aces, suits = feats["n_aces"], feats["aces"]
    ace = np.full(df.height, NO_ACE, np.int8)
    for suit in range(C.N_SUITS):
        ace[(n_aces == 1) & (suits == 1 << suit)] = suit
    ace[n_aces >= 2] = TWO_OR_MORE
    single = (ace >= 0) & (ace < TWO_OR_MORE)
    kind = np.where(single, np.where(ace == trump, AS_TRUMP, OFF_TRUMP), ANY_KIND).astype(np.int8)
    return df.with_columns(pl.Series("ace", ace), pl.Series("kind", kind))


def with_values(lf: pl.LazyFrame, ace_values: tuple[int, ...]) -> pl.LazyFrame:
    """Add the per-row values: ``gain`` (−delta), ``remiz`` (R7.2: an active player's played
    deal with no trick), ``bonus``, the part of the gain that is ace points, and ``rest`` =
    gain − bonus.

    ``bonus`` = ± the values (``ace_values``, ♠♣♦♥) of the aces held at the first lead
    (``aces``): + with a trick (R7.1), − with a remiz (R7.2), in played and lone deals
    (R4.5); 0 otherwise (a pass, and deals ended at the declarations, where a rams
    penalty also counts aces, R5.2, but is left in the rest). It is an accounting of
    the recorded delta, not a second scorer: gain − bonus is what tricks, the remiz's
    base 5, jacks and rams bring.
    """
    active = ~pl.col("passed")
    counted = active & pl.col("outcome").is_in([int(Outcome.PLAYED), int(Outcome.LONE)])
    remiz = REMIZ
    held = pl.sum_horizontal([(pl.col("aces").cast(pl.Int32) & (1 << s) > 0).cast(pl.Int32) * v
                              for s, v in enumerate(ace_values)])  # fmt: skip
    sign = pl.when(counted & (pl.col("tricks") > 0)).then(1).when(remiz).then(-1).otherwise(0)
    bonus = (sign * held).cast(pl.Float64)
    return lf.with_columns(GAIN.alias("gain"), remiz.cast(pl.Float64).alias("remiz"), bonus.alias("bonus"),
                           (GAIN - bonus).alias("rest"))  # fmt: skip


# ---- tables ---------------------------------------------------------------------------
def ace_tables(df: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """The three class tables of one table size's classified rows with values and position:
    ``split`` (by players; single aces as trump / off-trump; every value), ``pooled`` (by
    players; a single ace whatever the trump; gain and remiz) and ``position`` (by players and
    position, pooled; gain and remiz)."""
    pooled = df.with_columns(pl.lit(ANY_KIND, pl.Int8).alias("kind"))
    return {
        "split": class_table(df, ["players"], ["ace", "kind"], list(VALUES), BASELINE),
        "pooled": class_table(pooled, ["players"], ["ace", "kind"], ["gain", "remiz"], BASELINE),
        # one row per deal in a (players, position) cell: the rows are independent
        "position": class_table(pooled, ["players", "position"], ["ace", "kind"], ["gain", "remiz"], BASELINE,
                                cluster=None),  # fmt: skip
    }


def load(ctx: Context, name: str) -> pl.DataFrame:
    """Dataset ``name``'s rows with position, class and values (only the needed columns)."""
    lf = ctx.scan(name).select(COLUMNS)
    lf = with_values(with_position(lf), ctx.registry[name].rules.ace_values)
    df = lf.select("deal", "players", "position", "trump", "hand_dealt", *VALUES).collect()
    return classify(df).drop("hand_dealt", "trump")


# ---- page ----------------------------------------------------------------------------
def _cell(est: Estimate, digits: int = 2, percent: bool = False) -> str:
    return f"{fmt(est, digits, percent)}; n {fmt_n(est.n)}"


def _abs(est: Estimate) -> Estimate:
    """The same estimate with its sign dropped (for sentences that say "raises" or "lowers")."""
    if est.value >= 0:
        return est
    return Estimate(-est.value, -est.high, -est.low, est.n)


def _scaled(est: Estimate, k: float) -> Estimate:
    return Estimate(est.value * k, est.low * k, est.high * k, est.n)


def _find(table: pl.DataFrame, **where) -> dict:
    return table.filter(pl.all_horizontal([pl.col(k) == v for k, v in where.items()])).row(0, named=True)


def _wide(table: pl.DataFrame, classes: list[tuple[int, int]], show) -> pl.DataFrame:
    """Rows = hand classes, columns = table sizes; ``show(row) -> str``."""
    rows = []
    for ace, kind in classes:
        line = {"hand dealt": ace_label(ace, kind)}
        for p in TABLE_SIZES:
            line[f"{p} players"] = show(_find(table, players=p, ace=ace, kind=kind))
        rows.append(line)
    return pl.DataFrame(rows)


def _below_no_ace(split: pl.DataFrame) -> str:
    """Why a lone plain ace can be worth less than no ace: the table sizes where every plain ace's value
    is clearly below 0, with the remiz rates that explain it (R4.1 takes away the pass, R7.2 adds the ace
    to the remiz)."""
    sizes = [p for p in TABLE_SIZES if all(class_diff(_find(split, players=p, ace=s, kind=OFF_TRUMP), "gain").high < 0
                                          for s in range(C.N_SUITS))]  # fmt: skip
    if not sizes:
        return "A lone plain ace is worth more than no ace, or not clearly less, at every table size."
    p = sizes[-1]
    none = class_mean(_find(split, players=p, ace=NO_ACE, kind=ANY_KIND), "remiz", share=True)
    ace = class_mean(_find(split, players=p, ace=HEADLINE_SUIT, kind=OFF_TRUMP), "remiz", share=True)
    return (f"Why a lone plain ace is worth *less* than no ace at {', '.join(map(str, sizes))} players: the holder "
            "may not pass (R4.1), while an ace-less hand may throw in a weak hand, and a remiz writes on 5 *plus "
            "the ace's value* (R7.2). At "
            f"{p} players a hand with the {C.SUIT_SYMBOLS[HEADLINE_SUIT]}A alone, off-trump, ends in a remiz "
            f"{fmt(_scaled(ace, 100), 1)}% of the time, an ace-less hand {fmt(_scaled(none, 100), 1)}% (deal-clustered "
            "95% intervals; the remiz table below has every class).")


def lone_ace_value(ctx: Context, name: str, suit: int = HEADLINE_SUIT) -> Estimate:
    """The value of being dealt ``suit``'s ace alone over an ace-less hand in dataset ``name`` (4 players)."""
    pooled = ace_tables(load(ctx, name))["pooled"]
    return class_diff(_find(pooled, players=HEADLINE_PLAYERS, ace=suit, kind=ANY_KIND), "gain")


# colour-blind-safe (Okabe-Ito): the ace as trump / off-trump; the marker tells the players at the table
KIND_COLOURS = {AS_TRUMP: "#D55E00", OFF_TRUMP: "#0072B2"}
POLICY_MARKERS = {"basic": "o", "expert": "s", SEARCH: "^"}


def players_of(name: str) -> str:
    """The players at every seat of a deals dataset: ``deals-4p-expert`` -> expert, ``deals-5p`` -> basic."""
    tail = name.split("-")[2:]
    return tail[0] if tail else "basic"


def figure_series(split: pl.DataFrame) -> list[tuple[str, int, int, pl.DataFrame]]:
    """The figure's series, one per (players at the table, ace, kind), each with at most one point per table
    size: basic at every size, expert and pimc at 4 players only (labelled apart, never mixed in basic's)."""
    out = []
    for policy in POLICY_MARKERS:
        for ace in range(C.N_SUITS):
            for kind in (AS_TRUMP, OFF_TRUMP):
                g = split.filter((pl.col("policy") == policy) & (pl.col("ace") == ace) & (pl.col("kind") == kind))
                if g.height:
                    out.append((policy, ace, kind, g.sort("players")))
    return out


def figure(page: Page, out: Path, split: pl.DataFrame) -> None:
    """The value of each lone ace by table size, trump and off-trump; expert's and pimc's 4-player values beside."""
    fig, axes = plt.subplots(1, C.N_SUITS, figsize=(12.5, 4.2), sharey=True)
    shift_kind = {AS_TRUMP: -0.12, OFF_TRUMP: 0.12}
    shift_policy = {"basic": 0.0, "expert": 0.3, SEARCH: 0.5}
    for policy, ace, kind, g in figure_series(split):
        ax = axes[ace]
        x = g["players"].to_numpy() + shift_kind[kind] + shift_policy[policy]
        ax.errorbar(x, g["gain_diff"], yerr=Z95 * g["gain_dse"], marker=POLICY_MARKERS[policy], ls="none",
                    capsize=3, color=KIND_COLOURS[kind], mfc="white" if policy != "basic" else KIND_COLOURS[kind],
                    label=f"{KIND_WORDS[kind]}, {policy}" + (" (4 players)" if policy != "basic" else ""))  # fmt: skip
    for ace, ax in enumerate(axes):
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_title(f"{C.SUIT_SYMBOLS[ace]}A only", fontsize=11)
        ax.set_xlabel("players", fontsize=10)
        ax.set_xticks(list(TABLE_SIZES))
        ax.tick_params(labelsize=10)
    axes[0].set_ylabel("value over an ace-less hand (points per deal)", fontsize=10)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=10, frameon=False)
    fig.tight_layout(rect=(0, 0.16, 1, 1))
    page.figure(fig, out, "value-by-table", "Value of a single dealt ace over an ace-less hand, by table size, as "
                "trump and off-trump, `basic` at every seat (filled circles); at 4 players also `expert` (open "
                "squares) and `pimc` (open triangles) at every seat, drawn to the right of `basic`'s point; bars are "
                "95% deal-clustered intervals.")  # fmt: skip


def build(ctx: Context, out: Path) -> Page:
    page = Page("1-ace-equity", "1. The equity of an ace",
                "For each ace (♠A ♣A ♦A ♥A), as trump and off-trump: what does it change in its holder's score "
                "per deal and in the chance of a remiz, against holding no ace, by table size and by seat "
                "relative to the dealer? What is the ♥A worth in points per deal?")  # fmt: skip
    page.uses(*DATASETS)
    parts: dict[str, list[pl.DataFrame]] = {"split": [], "pooled": [], "position": []}
    for name in DATASETS:
        for key, table in ace_tables(load(ctx, name)).items():
            parts[key].append(table.with_columns(pl.lit(players_of(name)).alias("policy")))
    # the tables are basic's at every table size; expert's and pimc's 4-player rows only join the figure
    every_split = pl.concat(parts["split"])
    split, pooled, position = (pl.concat(parts[k]).filter(pl.col("policy") == "basic")
                               for k in ("split", "pooled", "position"))  # fmt: skip

    singles = [(s, ANY_KIND) for s in range(C.N_SUITS)]
    split_classes = [(s, k) for s in range(C.N_SUITS) for k in (AS_TRUMP, OFF_TRUMP)]
    head = _find(pooled, players=HEADLINE_PLAYERS, ace=HEADLINE_SUIT, kind=ANY_KIND)
    base = _find(pooled, players=HEADLINE_PLAYERS, ace=NO_ACE, kind=ANY_KIND)
    value = class_diff(head, "gain")
    rows_ace = [_find(split, players=HEADLINE_PLAYERS, ace=HEADLINE_SUIT, kind=k) for k in (AS_TRUMP, OFF_TRUMP)]
    trump, off = (class_diff(r, "gain") for r in rows_ace)
    # trump − off-trump: the baseline cancels, and no deal holds both classes (one such ace, one trump suit)
    gap = unpaired_difference(*(class_mean(r, "gain") for r in rows_ace))
    ace = f"{C.SUIT_SYMBOLS[HEADLINE_SUIT]}A"
    page.answer = (
        f"At the classic {HEADLINE_PLAYERS}-player table, being dealt the {ace} and no other ace is worth "
        f"{fmt(value)} points per deal over an ace-less hand (n = {fmt_n(head['n'])} hands with the {ace} alone "
        f"against {fmt_n(base['n'])} ace-less hands; deal-clustered 95% CI): {fmt(trump)} when "
        f"{C.SUIT_NAMES[HEADLINE_SUIT]} are trump "
        f"and {fmt(off)} when they are not."
    )
    if not clear(value):
        page.answer += f" The value of the {ace} is not statistically clear at this sample size."
    if not clear(gap):
        page.answer += " Whether it is worth more as trump is not statistically clear."
    kinds = {"basic": f"deals-{HEADLINE_PLAYERS}p", "expert": f"deals-{HEADLINE_PLAYERS}p-expert",
             SEARCH: f"deals-{HEADLINE_PLAYERS}p-{SEARCH}"}  # fmt: skip
    page.uses(*kinds.values())
    across = {"basic": value, **{k: lone_ace_value(ctx, name) for k, name in kinds.items() if k != "basic"}}

    values = {suit: class_diff(_find(pooled, players=HEADLINE_PLAYERS, ace=suit, kind=ANY_KIND), "gain")
              for suit in range(C.N_SUITS)}  # fmt: skip
    as_trump = {suit: class_diff(_find(split, players=HEADLINE_PLAYERS, ace=suit, kind=AS_TRUMP), "gain")
                for suit in range(C.N_SUITS)}  # fmt: skip
    plain = {suit: class_diff(_find(split, players=HEADLINE_PLAYERS, ace=suit, kind=OFF_TRUMP), "gain")
             for suit in range(C.N_SUITS)}  # fmt: skip
    remiz_points = class_diff(head, "remiz")  # the remiz section below shows it too
    page.takeaways = [
        f"A lone {ace} is worth {fmt(value, 1)} points a deal at {HEADLINE_PLAYERS} players: {fmt(trump, 1)} when "
        f"{C.SUIT_NAMES[HEADLINE_SUIT]} are trump, {fmt(off, 1)} when they are not.",
        "The four aces, each dealt alone, per deal: " + ", ".join(
            f"{C.SUIT_SYMBOLS[suit]}A {fmt(values[suit], 1)}" for suit in range(C.N_SUITS)) + " (their bonuses are "
        "♠5 ♣10 ♦15 ♥20, R7.1).",
        "As trump an ace is worth far more than as a plain ace: " + ", ".join(
            f"{C.SUIT_SYMBOLS[suit]}A {fmt(as_trump[suit], 1)} against {fmt(plain[suit], 1)}" for suit in
            range(C.N_SUITS)) + ".",
        f"Holding the {ace} alone {'raises' if remiz_points.value > 0 else 'lowers'} the chance of a remiz by "
        f"{fmt(_abs(_scaled(remiz_points, 100)), 1)} percentage points against an ace-less hand, which may still "
        "pass (R4.1); as trump, kept to the play, the ace always takes a trick (R6.4).",
    ]  # fmt: skip
    page.text(
        f"Units: {GAIN_WORDS}. Policies: `basic` at every seat, the dealer rotating. **Hand classes** go by the "
        "aces of the *dealt* hand (before the exchange): *no ace*; *♥A only* = dealt the ♥A and no other ace "
        "(likewise ♠A, ♣A, ♦A), split into *as trump* (the turned-up card is of the ace's suit) and *off-trump*; "
        "*two or more aces*. The **value** of an ace = mean gain of the hands dealt that ace alone − mean gain of "
        "the ace-less hands at the same table (and position). A **remiz** is a deal a player plays without "
        "passing and ends with no trick (R7.2: he writes on 5 plus his aces). **Positions** in the order of "
        "speaking: first hand (left of the dealer), second hand, … and the dealer, last; in the CSVs "
        f"{POSITION_NUMBERING}."
    )
    decks = {p: ctx.registry[f"deals-{p}p"].rules.deck_size for p in TABLE_SIZES}
    page.text("Decks (R2, `auto`): " + "; ".join(f"{', '.join(str(p) for p in TABLE_SIZES if decks[p] == d)} "
              f"players play {d} cards" for d in sorted(set(decks.values()))) + ". In a bigger deck an off-trump "
              "ace meets more trumps and more cards of its suit, so compare table sizes within one deck.")  # fmt: skip
    page.text(
        "What the value includes: the ace's own bonus (written off with a trick, R7.1, and written *on* with a "
        "remiz, R7.2), the tricks it wins, and the rest of the hand's fate: a player dealt an ace may not pass "
        "(R4.1), so an ace-less hand is compared while it may still pass. The comparison is between hands as "
        "dealt, so it is what holding the ace is worth to a basic player, not a controlled experiment on one card. "
        "Intervals: rows of different seats of one deal are dependent, so estimates pooled over seats use a "
        "deal-clustered standard error (residuals summed per deal; a difference uses the per-deal difference of "
        "the two classes' sums); remiz rates use a Wilson interval at the clustered effective sample size. Within "
        "one position each deal gives one row and the intervals are the ordinary ones."
    )

    page.heading("The value of each ace, by table size")
    table = _wide(split, [*split_classes, (TWO_OR_MORE, ANY_KIND)], lambda r: _cell(class_diff(r, "gain")))
    page.table(table, caption="Mean gain over an ace-less hand of the same table size, points per deal, with the "
               "95% interval and the number of hands of the class.")  # fmt: skip
    page.text(chance_misses(table.height * len(TABLE_SIZES)))
    page.text(_below_no_ace(split))
    pooled_table = _wide(pooled, singles, lambda r: _cell(class_diff(r, "gain")))
    page.table(pooled_table, caption="The same, a single ace whatever the trump suit.")
    page.text(chance_misses(pooled_table.height * len(TABLE_SIZES)))
    baseline = _wide(pooled, [(NO_ACE, ANY_KIND)], lambda r: _cell(class_mean(r, "gain")))
    page.table(baseline, caption="The reference: mean gain of an ace-less hand, points per deal (a hand of a class "
               "gains reference + value; its score changes by −(reference + value)).")  # fmt: skip

    page.heading("Remiz")
    remiz = _wide(split, [(NO_ACE, ANY_KIND), *split_classes, (TWO_OR_MORE, ANY_KIND)],
                  lambda r: _cell(class_mean(r, "remiz", share=True), 1, percent=True))  # fmt: skip
    page.table(remiz, caption="Share of deals that end in a remiz for the holder (all deals of the class, passes "
               "included), with the 95% interval and the number of hands.")  # fmt: skip
    points = _scaled(remiz_points, 100)
    change = "raises" if points.value > 0 else "lowers"
    page.text(f"At {HEADLINE_PLAYERS} players, being dealt the {ace} alone {change} the chance of a remiz by "
              f"{fmt(_abs(points), 1)} percentage points against an ace-less hand (deal-clustered 95% interval)"
              + ("" if clear(points) else "; the change is not statistically clear") + ". The trump ace wins "
              "whatever trick it is played to (R6.4) and every card held is played, so a trump ace kept to the "
              "play never ends in a remiz. " + chance_misses(remiz.height * len(TABLE_SIZES)))  # fmt: skip

    page.heading(f"Where the value comes from ({HEADLINE_PLAYERS} players)")
    rows = []
    for ace_code, kind in [*split_classes, (TWO_OR_MORE, ANY_KIND)]:
        r = _find(split, players=HEADLINE_PLAYERS, ace=ace_code, kind=kind)
        rows.append({"hand dealt": ace_label(ace_code, kind), "hands": r["n"], "value": fmt(class_diff(r, "gain")),
                     "of which ace points": fmt(class_diff(r, "bonus")), "the rest": fmt(class_diff(r, "rest"))})
    page.table(pl.DataFrame(rows), caption="*Ace points* = ± the values of the aces held at the first lead: + with "
               "a trick (R7.1), − with a remiz (R7.2), 0 after a pass or a deal ended at the declarations; each "
               "column is its mean minus that of the ace-less hands (95% intervals). *The rest* (tricks, the "
               "remiz's 5, jacks, rams) is the value less the ace points.")  # fmt: skip
    for kind in (AS_TRUMP, OFF_TRUMP):
        r = _find(split, players=HEADLINE_PLAYERS, ace=HEADLINE_SUIT, kind=kind)
        rest = class_diff(r, "rest")
        sign = "adds" if rest.value > 0 else "takes away"
        page.text(f"The {ace} {KIND_WORDS[kind]}: of its value {fmt(class_diff(r, 'gain'))}, its own points bring "
                  f"{fmt(class_diff(r, 'bonus'))}; the rest of the deal {sign} {fmt(_abs(rest))}"
                  + ("" if clear(rest) else " (not statistically clear)") + ".")  # fmt: skip

    page.heading("By position")
    pos_rows, numbers = [], []
    for p in TABLE_SIZES:
        for pos in range(p):
            cells = {"no ace: gain": class_mean(_find(position, players=p, position=pos, ace=NO_ACE), "gain")}
            for s in range(C.N_SUITS):
                cells[f"{C.SUIT_SYMBOLS[s]}A only: value"] = class_diff(_find(position, players=p, position=pos, ace=s),
                                                                       "gain")  # fmt: skip
            for a in (NO_ACE, HEADLINE_SUIT):
                r = _find(position, players=p, position=pos, ace=a)
                cells[f"{ace_label(a)}: remiz"] = class_mean(r, "remiz", share=True)
            numbers += [{"players": p, "position": pos, "measure": k, "estimate": e.value, "ci_low": e.low,
                         "ci_high": e.high, "n": e.n} for k, e in cells.items()]  # fmt: skip
            if p == HEADLINE_PLAYERS:  # the page shows the classic table; every table size is in the CSV
                pos_rows.append({"position": position_words(p)[pos],
                                 **{k: fmt(e, 1, percent=True) if k.endswith("remiz") else fmt(e)
                                                     for k, e in cells.items()}})  # fmt: skip
    link = page.data_file(pl.DataFrame(numbers), out, "by-position")
    page.table(pl.DataFrame(pos_rows), caption=f"Per position at {HEADLINE_PLAYERS} players: the "
               "mean gain of an ace-less hand, the value of each single ace (trump or not) over it, points per deal, "
               f"and the remiz rate of ace-less hands and of hands with the {ace} alone (95% intervals). Every table "
               f"size, with the sample sizes: {link}.")  # fmt: skip
    page.text(chance_misses(len(pos_rows) * (C.N_SUITS + 3)))

    figure(page, out, every_split)
    page.answer += " " + across_players(page, f"the value of the {ace} alone (points per deal)", across, kinds)
    return page
