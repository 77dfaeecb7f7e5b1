"""Question 2's last section: the ``table`` policy, the exchange-and-pass table as a player.

The table the package ships (``rams_sim/data/table.csv``, found by iterated best response,
:mod:`analyses.table_policy`) is shown with how it was found (``table-fit.json``: every
iteration's gain over the previous table with its interval) and measured as a player:
seat 0 plays ``table`` among three ``basic`` players and among three ``expert`` players, on
the same deals as seat 0 playing ``basic`` (``deals-4p``), ``expert`` (``deals-4p-expert``)
and ``pimc`` (``deals-4p-pimc0-expert``, among experts): paired per deal, seat 0 holding
every position as the dealer rotates.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from rams_sim import strategy_table as T
from rams_sim.runs.summary import Estimate

from .common import GAIN, Context, Page, clear, fmt, fmt_n
from .data import SEARCH, SEARCH_POLICY
from .exchange import (
    ACES,
    ACTIONS,
    BRANCH_EXPERT,
    DEALER_SEAT,
    JACK_PAIR,
    LONGEST,
    RUN_EXPERT,
    STAND,
    TOP,
    TRUMPS,
    by_position,
    cell_action,
    chosen,
    exchange_table,
    gain_col,
    mark,
    position_words,
    seat_position,
    with_shipped_table,
)
from .stats import mean_by, mean_estimate, simultaneous_z, widen

TABLE_BASIC, TABLE_EXPERT = "deals-4p-table0", "deals-4p-table0-expert"
BASIC_RUN, EXPERT_RUN, SEARCH_RUN = "deals-4p", "deals-4p-expert", f"deals-4p-{SEARCH}0-expert"
DATASETS = (TABLE_BASIC, TABLE_EXPERT, BASIC_RUN, EXPERT_RUN, SEARCH_RUN)
SHOWN_PLAYERS = 4
TOP_WORDS = {0: "no trump", 1: "top ≤10", 2: "top J/Q", 3: "top K/A"}
SHORT = {"pass": "pass", "stand": "stand", **{f"x{k}": f"{k} weakest" for k in range(1, 5)}, "x5": "all 5",
         "low": "below K", "plain": "plain"}  # the shown table's cells (legend in its caption)
SHORT_LEGEND = ("*plain*: exchange every plain card but aces; *below K*: every plain card below a king; *k weakest*: "
                "the k weakest cards; *all 5*: the whole hand, aces too")


def seat0(ctx: Context, name: str) -> pl.DataFrame:
    """Seat 0's gain per deal of dataset ``name``: ``deal``, DEALER_SEAT, ``g``."""
    return (ctx.scan(name).filter(pl.col("seat") == 0).select("deal", pl.col("dealer").alias(DEALER_SEAT),
                                                              GAIN.alias("g")).collect().sort("deal"))  # fmt: skip


def paired(ctx: Context, a: str, b: str) -> pl.DataFrame:
    """Seat 0's gain under ``a`` minus under ``b`` per deal both datasets hold: ``deal``, DEALER_SEAT, ``d``."""
    x, y = seat0(ctx, a), seat0(ctx, b)
    j = x.join(y.select("deal", pl.col("g").alias("g_b")), on="deal", how="inner")
    return j.select("deal", DEALER_SEAT, (pl.col("g") - pl.col("g_b")).alias("d"))


def fit_table(fit: dict) -> pl.DataFrame:
    """The iterations of every table size: players, iteration, others, deals, the new table's gain over
    standing pat and over the previous table (held-out, paired)."""
    rows = []
    for players, records in fit["sizes"].items():
        for r in records:
            prev = r.get("over_previous")
            rows.append({"players": int(players), "iteration": r["iteration"], "the others play": r["others"],
                         "held-out deals": r["over_stand"]["n"],
                         "new table − stand pat": _text(r["over_stand"]),
                         "new table − previous table": _text(prev) if prev else "—"})  # fmt: skip
    return pl.DataFrame(rows)


def _text(e: dict) -> str:

    return mark(Estimate(e["mean"], e["lo"], e["hi"], e["n"]))


def shown_table(players: int = SHOWN_PLAYERS) -> pl.DataFrame:
    """The shipped table at ``players`` for hands without a jack pair and a longest suit of two
    (the commonest shape), rows by aces and trumps, a column per position."""
    table = T.load()
    rows = []
    for aces in T.DIM_VALUES["aces"]:
        for trumps in T.DIM_VALUES["trumps"]:
            for top in T.DIM_VALUES["top"]:
                if (trumps == 0) != (top == 0):
                    continue
                cls = T.class_index(aces, trumps, top, 0, 2)
                row = {"aces": f"{aces}{'+' if aces == T.MAX_ACES else ''}",
                       "trumps": f"{trumps}{'+' if trumps == T.MAX_TRUMPS else ''}", "top trump": TOP_WORDS[top]}
                for p, words in enumerate(position_words(players)):
                    action, _ = table.action(players, p, cls)
                    row[words] = SHORT[action]
                rows.append(row)  # fmt: skip
    return pl.DataFrame(rows)


CELL_KEYS = ["players", "position", *T.DIMS]


def cell_numbers(df: pl.DataFrame, players: int = 4) -> pl.DataFrame:
    """Per cell of the shipped table met in ``df`` (branched deals with :func:`analyses.exchange.with_shipped_table`'s
    columns): ``estimate`` = the mean paired gain of the cell's choice over standing pat per deal, its
    normal 95% interval ``ci_low``, ``ci_high`` and ``n`` deals, keyed as the table's CSV."""
    keyed = df.with_columns(pl.lit(players).alias("players"),
                            pl.Series("position", seat_position(df[DEALER_SEAT], players)),
                            (pl.col("g_table") - pl.col(gain_col(STAND))).alias("_d"))  # fmt: skip
    m = mean_by(keyed, CELL_KEYS, pl.col("_d"))
    return m.select(*[pl.col(k).cast(pl.Int64) for k in CELL_KEYS], pl.col("mean").alias("estimate"),
                    pl.col("lo").alias("ci_low"), pl.col("hi").alias("ci_high"), pl.col("n").cast(pl.Int64))


def table_csv(shipped: pl.DataFrame, measured: pl.DataFrame) -> pl.DataFrame:
    """The shipped table's CSV with each cell's numbers (``measured``, :func:`cell_numbers`) beside it;
    cells without a measurement keep empty numbers."""
    keys = shipped.select(*[pl.col(k).cast(pl.Int64) for k in CELL_KEYS], *[c for c in shipped.columns
                                                                           if c not in CELL_KEYS])  # fmt: skip
    return keys.join(measured, on=CELL_KEYS, how="left").select(*shipped.columns, "estimate", "ci_low", "ci_high", "n")


def disagreements(held: pl.DataFrame, expert: pl.DataFrame, players: int = SHOWN_PLAYERS) -> pl.DataFrame:
    """The shown cells (no jack pair, no suit longer than two) where the class table chosen among `basic`
    players (``held``: its held-out deals, with ``best`` and :func:`~analyses.exchange.with_shipped_table`'s
    columns) and the shipped table choose differently for a position. Per such cell and position: both
    actions and the paired gain per deal of the class table's action over the shipped one, on ``held`` and on
    every deal of the same cell among `expert` players (``expert``: branched deals with the shipped table's
    columns; the shipped table was chosen on other deals). One row per such cell, position and kind of player:
    aces, trumps, top, position (0 = first hand), class, shipped, players, estimate, ci_low, ci_high, n (the
    row's 95% interval), sim_low, sim_high (simultaneous over every row)."""
    def cells(df: pl.DataFrame) -> pl.DataFrame:
        shown = df.filter(~pl.col(JACK_PAIR) & (pl.col(LONGEST) <= 2))
        return shown.with_columns(pl.Series("position", seat_position(shown[DEALER_SEAT], players)),
                                  cell_action(pl.col("table_passes"), pl.col("table_play")).alias("shipped"))

    keys = [ACES, TRUMPS, TOP, "position"]
    b, x = cells(held), cells(expert)
    mode = b.group_by(keys).agg(pl.col("best").mode().first().alias("class"), pl.col("shipped").mode().first())
    differ = mode.filter(pl.col("class") != pl.col("shipped"))
    rows = []
    for cell in differ.sort(keys).iter_rows(named=True):
        row = dict(cell)
        for side, df in (("basic", b), ("expert", x)):
            sel = df
            for k in keys:
                sel = sel.filter(pl.col(k) == cell[k])
            e = mean_estimate(pl.DataFrame({"a": sel.select(chosen(pl.lit(cell["class"]), ACTIONS))[:, 0],
                                             "b": sel.select(chosen(pl.lit(cell["shipped"]), ACTIONS))[:, 0]})
                               .select(pl.col("a") - pl.col("b"))[:, 0])  # fmt: skip
            rows.append({**row, "players": side, "estimate": e.value, "ci_low": e.low, "ci_high": e.high, "n": e.n})
    out = pl.DataFrame(rows)
    if out.height:  # the intervals every verdict on these rows is judged by: simultaneous over all of them
        z = simultaneous_z(out.height)
        sim = [widen(Estimate(r["estimate"], r["ci_low"], r["ci_high"], r["n"]), z) for r in out.iter_rows(named=True)]
        out = out.with_columns(pl.Series("sim_low", [e.low for e in sim]), pl.Series("sim_high", [e.high for e in sim]))
    return out


def disagreement_text(d: pl.DataFrame) -> tuple[pl.DataFrame, str]:
    """The disagreements (:func:`disagreements`' rows) as a shown table (words, simultaneous intervals, ✓ where
    clear) and the sentence that sums them up, judged by the same simultaneous intervals."""
    keys = [ACES, TRUMPS, TOP, "position", "class", "shipped"]
    shown = []
    count = {(side, way): 0 for side in ("basic", "expert") for way in ("class", "shipped", "close")}
    for (aces, trumps, top, position, cls, shipped), cell in d.group_by(keys, maintain_order=True):
        row = {"aces": f"{aces}{'+' if aces == T.MAX_ACES else ''}",
               "trumps": f"{trumps}{'+' if trumps == T.MAX_TRUMPS else ''}", "top trump": TOP_WORDS[top],
               "position": position_words(SHOWN_PLAYERS)[position],
               "class table (`basic` players)": SHORT[cls], "shipped table": SHORT[shipped]}  # fmt: skip
        for r in cell.iter_rows(named=True):
            e = Estimate(r["estimate"], r["sim_low"], r["sim_high"], r["n"])
            count[r["players"], ("class" if e.value > 0 else "shipped") if clear(e) else "close"] += 1
            row[f"class − shipped, `{r['players']}` players"] = mark(e)
        shown.append(row)
    n = len(shown)
    text = (f"The two tables disagree in {n} of the cells shown above (hand and position). The class table is the "
            "best exchange against `basic` players, who exchange and pass as `basic` does; the shipped table is a best "
            "response to players who themselves play the table, with `expert`'s cards, so where the others play "
            f"differently the best reply may differ. Judged together over the {d.height} intervals below (simultaneous): "
            + "; ".join(f"among `{side}` players the class table's choice is clearly better in {count[side, 'class']} "
                       f"of the {n}, the shipped table's in {count[side, 'shipped']}, and neither in "
                       f"{count[side, 'close']} (close calls, where either choice costs little)" for side in
                       ("basic", "expert")) + ".")  # fmt: skip
    return pl.DataFrame(shown), text


def section(ctx: Context, page: Page, out: Path, held: pl.DataFrame) -> None:
    """The page's section on the ``table`` policy; adds a takeaway and a sentence to the answer. ``held``: page
    2's held-out deals among `basic` players with the class table's choice ``best``."""
    page.uses(*DATASETS)
    fit = json.loads((T.SHIPPED.parent / "table-fit.json").read_text())
    page.heading("The table as a player: the `table` policy")
    page.text(
        "The policy `table` plays `expert` at every decision but two: whether to pass and what to exchange come "
        "from a strategy table by the dealt hand's class (aces, trumps, the top trump, a jack pair, the longest "
        "suit) and the seat's position, at every table size (`rams_sim/strategy_table.py`). The package ships "
        "the table, found by iterated best response (`make table`): seat 0's exchange is branched on "
        f"{fmt_n(fit['deals_per_iteration'])} deals while every seat plays the current policy (first `expert`, "
        "then the last table); each cell's best action is chosen on the selection half of the deals; the new "
        "table is measured against the current one on the held-out half; the iteration stops once that gain's "
        "interval holds 0, i.e. the table is a best response to itself as far as the data can tell. A rare "
        f"class takes the action of a coarser one with at least {fmt_n(fit['min_group'])} selection deals.")
    page.table(fit_table(fit), caption="Iterated best response, per table size: each new table's held-out gain "
               "per deal over standing pat and over the previous table (paired, 95% CI; ✓ = clear of 0). The last "
               "iteration of each size is the shipped table.")  # fmt: skip
    last = {p: r[-1] for p, r in fit["sizes"].items()}
    converged = [p for p, r in last.items() if "over_previous" in r and
                 r["over_previous"]["lo"] <= 0 <= r["over_previous"]["hi"]]  # fmt: skip
    page.text(f"Converged (the last gain's interval holds 0) at {len(converged)} of {len(last)} table sizes"
              + ("." if len(converged) == len(last) else
                 f"; not at {', '.join(p for p in last if p not in converged)} players within "
                 f"{fit['max_iterations']} iterations."))  # fmt: skip
    page.uses(BRANCH_EXPERT, RUN_EXPERT)
    measured_df = with_shipped_table(exchange_table(ctx, BRANCH_EXPERT, RUN_EXPERT))
    measured = cell_numbers(measured_df)
    link = page.data_file(table_csv(pl.read_csv(T.SHIPPED), measured), out, "table-policy")
    page.table(shown_table(), caption=f"The shipped table at {SHOWN_PLAYERS} players for hands with no jack pair "
               f"and no suit longer than two, by position ({SHORT_LEGEND}). Every class and table size: {link} (the "
               "columns `level` and `deals` say which class the cell's action was chosen on, 0 the finest, and "
               "on how many selection deals; at 4 players `estimate`, `ci_low`, `ci_high` and `n` measure the cell: "
               "the paired gain per deal of its choice over standing pat, with its 95% interval, on the "
               f"{fmt_n(measured['n'].sum())} branched deals of `{BRANCH_EXPERT}` (seat 0's every exchange option "
               "at a table of `expert` players), empty where no deal fell in the cell and at other table sizes, "
               "which have no branched data).")  # fmt: skip

    d = disagreements(with_shipped_table(held), measured_df)
    shown, summary = disagreement_text(d)
    link = page.data_file(d, out, "table-disagreements")
    page.text(summary)
    page.table(shown, key=False, caption="Where the class table above (chosen among `basic` players, for hands with no "
               "jack pair and no suit longer than two) and the shipped table choose differently: the paired gain per "
               "deal of the class table's action over the shipped one, on page 2's held-out deals among `basic` "
               "players and on every such deal among `expert` players (`" + BRANCH_EXPERT + "`); the intervals are "
               "simultaneous over every cell of both kinds of player (Bonferroni), ✓ = the interval excludes 0. "
               f"Numbers: {link} (`ci_low`, `ci_high`: each row's own 95% interval; `sim_low`, `sim_high`: the "
               "simultaneous one).")  # fmt: skip

    vs = {"basic": (paired(ctx, TABLE_BASIC, BASIC_RUN), "three `basic`", BASIC_RUN),
          "expert": (paired(ctx, TABLE_EXPERT, EXPERT_RUN), "three `expert`", EXPERT_RUN),
          SEARCH: (paired(ctx, TABLE_EXPERT, SEARCH_RUN), "three `expert`", SEARCH_RUN)}
    positions = {k: by_position(v[0], {"d": pl.col("d")}) for k, v in vs.items()}  # last two: the dealer, all
    ests = {k: rows[-1]["d"] for k, rows in positions.items()}
    rows = []
    for k, (_, others, name) in vs.items():
        rows.append({"seat 0 plays `table` instead of": f"`{SEARCH_POLICY}`" if k == SEARCH else f"`{k}`",
                     "the others": others, "paired with": f"`{name}`", "deals": ests[k].n,
                     "gain per deal": mark(ests[k]), "as dealer": mark(positions[k][-2]["d"])})  # fmt: skip
    page.table(pl.DataFrame(rows), caption="Seat 0's paired gain per deal from playing `table` instead of the named "
               "policy, the others unchanged, on the same deals (seat 0 holds every position as the dealer "
               "rotates); ✓ = the interval excludes 0. `pimc` at its defaults, on fewer deals.")  # fmt: skip
    words = {k: f"{'+' if e.value > 0 else ''}{fmt(e)}" for k, e in ests.items()}
    verdict = {k: ("better" if e.value > 0 else "worse") if clear(e) else "not clearly different" for k, e in ests.items()}
    page.text(
        f"Playing `table` in seat 0 gains {words['basic']} points a deal over `basic` among `basic` players "
        f"({verdict['basic']}), {words['expert']} over `expert` among `expert` players ({verdict['expert']}) and "
        f"{words[SEARCH]} over the search `{SEARCH_POLICY}` among `expert` players ({verdict[SEARCH]}). The table "
        "changes only the pass and the exchange: its cards are `expert`'s, so against `expert` the gain is the "
        "table's exchange alone.")  # fmt: skip
    page.answer += (f" As a player (`table`: this table's pass and exchange, `expert`'s cards) it gains "
                    f"{fmt(ests['basic'])} a deal over `basic`, {fmt(ests['expert'])} over `expert` and "
                    f"{fmt(ests[SEARCH])} over `pimc` (95% CIs, paired).")  # fmt: skip
    beside = {k: (f"beats `{k}` by {fmt(e)} a deal" if e.value > 0 else
                  f"loses {fmt(Estimate(-e.value, -e.high, -e.low, e.n))} a deal to `{k}`") if clear(e)
              else f"is not clearly different from `{k}` ({fmt(e)})" for k, e in ests.items()}
    dealer, est = positions[SEARCH][-2]["d"], ests[SEARCH]
    so = ("" if not clear(est) else f", so `{SEARCH_POLICY}`'s own pass, exchange and card play are worth more than "
          "these rules of thumb" if est.value < 0 else f", so these rules of thumb beat `{SEARCH_POLICY}`")
    page.facts["table_vs_search"] = (
        f"Against the search: a player who passes and exchanges by page 2's table (the `table` policy, `expert`'s "
        f"cards) instead of playing `{SEARCH_POLICY}` {beside[SEARCH]} "
        f"over every position (n = {fmt_n(est.n)} deals, paired 95% CI; his gain as dealer {fmt(dealer)}, n = "
        f"{fmt_n(dealer.n)}){so}.")  # fmt: skip
    as_dealer = (f"as dealer it loses {fmt(Estimate(-dealer.value, -dealer.high, -dealer.low, dealer.n))}"
                 if dealer.value < 0 else f"as dealer it gains {fmt(dealer)}")
    page.takeaways.append(f"Played as a policy (`table`: this table's pass and exchange, `expert`'s cards), the table "
                          f"{beside['expert']} and {beside[SEARCH]} ({as_dealer}, n = {fmt_n(dealer.n)}).")  # fmt: skip
