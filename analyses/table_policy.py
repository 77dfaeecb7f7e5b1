"""Find the ``table`` policy's strategy table by iterated best response (``make table``).

For each table size: branch seat 0's exchange (``rams-sim branch``: every option the
rules open to him replayed on the same deck order) while every seat plays the current
policy; read each deal's gain under every canonical action (:mod:`analyses.exchange`:
pass, stand, exchange the k weakest, the two plain-card rules); choose, on the selection
half of the deals, each cell's best action (a cell: the dealt hand's class at a position,
:mod:`rams_sim.strategy_table`); measure on the held-out half what the new table gains
over the current one, deal by deal. Iteration 1 answers ``expert`` players; iteration
k > 1 answers players of table k − 1. It stops when the gain's 95% interval contains 0
(the table is a best response to itself within what the data can tell) or after
:data:`MAX_ITERATIONS`, and writes the last table.

A cell whose class is rare backs off to a coarser class (:data:`LEVELS`, fine to coarse)
that holds at least :data:`MIN_GROUP` selection deals (at last, every hand of the data); the
pass is a candidate only where every deal of the group could pass (R4.1).

Writes ``rams_sim/data/table.csv`` (the shipped table, with each cell's ``level`` and the
selection ``deals`` behind it) and ``rams_sim/data/table-fit.json`` (every iteration's
seed, deals and gain with its interval), read by report page 2.

    python -m analyses.table_policy [--players 4] [--deals 1e6] [--out rams_sim/data]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from rams_sim import strategy_table as T
from rams_sim.policies import PolicySpec
from rams_sim.rules import Rules
from rams_sim.runs.runner import BRANCHES, RunSpec, execute
from rams_sim.runs.summary import Estimate

from . import exchange as ex
from .common import mean_estimate

TABLE_SIZES = tuple(range(2, 8))  # R2
DEALS = 1_000_000  # branched deals per iteration
MAX_ITERATIONS = 5
MIN_GROUP = 1_000  # selection deals a group needs for its own action
POSITION = "position"
# classes from fine to coarse: a cell takes the action of the finest level whose group is big enough
LEVELS = (
    (ex.ACES, ex.TRUMPS, ex.TOP, POSITION, ex.JACK_PAIR, ex.LONGEST),
    (ex.ACES, ex.TRUMPS, ex.TOP, POSITION, ex.JACK_PAIR),
    (ex.ACES, ex.TRUMPS, ex.TOP, POSITION),
    (ex.ACES, ex.TRUMPS, ex.TOP),
    (ex.ACES, POSITION),
    (ex.ACES,),
    ("every hand",),  # a constant key: the last resort of a class no deal of the data holds
)
# on a tie of means the earlier wins (exchange.ACTIONS' order: pass, stand, the rules, then x1..x5)
ACTIONS = ex.ACTIONS
PLAYS = ex.PLAYS
assert set(ACTIONS) == set(T.ACTIONS) and set(PLAYS) == set(T.PLAYS)
DIM_OF = {ex.ACES: "aces", ex.TRUMPS: "trumps", ex.TOP: "top", ex.JACK_PAIR: "jack_pair", ex.LONGEST: "longest"}


def seed_of(players: int, iteration: int) -> int:
    """Each iteration's fresh deals: a seed of its own."""
    return 5000 + 100 * players + iteration


def branch(rules: Rules, policy: PolicySpec, seed: int, deals: int, out: Path) -> pl.DataFrame:
    """Branch seat 0 with ``policy`` at every seat; the per-deal canonical gains with class
    dimensions and ``position`` (0 left of the dealer .. n − 1 the dealer)."""
    spec = RunSpec(BRANCHES, rules, (policy,) * rules.players, seed, deals, seat=ex.SEAT)
    execute(spec, out, force=True)
    data = pl.scan_parquet(out / "part-*.parquet")
    hands = ex.with_features(ex.deal_hands(data))
    df = ex.canonical_gains(data, hands)
    place = ex.seat_position(df[ex.DEALER_SEAT], rules.players)
    return df.with_columns(pl.Series(POSITION, place.astype(np.int8)),
                           pl.col(ex.JACK_PAIR).cast(pl.Int8))  # fmt: skip


def _group_best(df: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Per group of ``keys`` with MIN_GROUP deals: ``action`` (pass only where every deal could
    pass), ``play`` (the best action that plays) and ``deals``."""
    g = df.group_by(keys).agg(pl.len().alias("deals"), pl.col(ex.gain_col(ex.PASS)).null_count().alias("_no_pass"),
                              *[pl.col(ex.gain_col(a)).mean().alias(a) for a in ACTIONS])  # fmt: skip
    g = g.filter(pl.col("deals") >= MIN_GROUP)
    means = np.column_stack([g[a].fill_null(-np.inf).to_numpy() for a in ACTIONS])
    means[g["_no_pass"].to_numpy() > 0, 0] = -np.inf
    plays = means[:, 1:]
    return g.select(*keys, "deals").with_columns(
        pl.Series("action", [ACTIONS[i] for i in means.argmax(axis=1)], pl.Utf8),
        pl.Series("play", [PLAYS[i] for i in plays.argmax(axis=1)], pl.Utf8))  # fmt: skip


def best_response(df: pl.DataFrame, players: int) -> pl.DataFrame:
    """The table chosen on ``df`` (the selection half): one row per position and class with the
    :data:`rams_sim.strategy_table.COLUMNS`, ``level`` (0 finest) and ``deals``."""
    cells = pl.DataFrame(
        [dict(zip((POSITION, ex.ACES, ex.TRUMPS, ex.TOP, ex.JACK_PAIR, ex.LONGEST), (p, *c)))
         for p in range(players) for c in T.all_classes()],
        schema={k: pl.Int8 for k in (POSITION, ex.ACES, ex.TRUMPS, ex.TOP, ex.JACK_PAIR, ex.LONGEST)},
    )  # fmt: skip
    df = df.with_columns(*(pl.col(k).cast(pl.Int8) for k in (ex.ACES, ex.TRUMPS, ex.TOP, ex.LONGEST)),
                         pl.lit(0, pl.Int8).alias(LEVELS[-1][0]))  # fmt: skip
    cells = cells.with_columns(pl.lit(0, pl.Int8).alias(LEVELS[-1][0]))
    for level, keys in enumerate(LEVELS):
        best = _group_best(df, list(keys)).rename({"action": f"a{level}", "play": f"p{level}", "deals": f"n{level}"})
        cells = cells.join(best, on=list(keys), how="left")
    pick = lambda prefix: pl.coalesce([pl.col(f"{prefix}{i}") for i in range(len(LEVELS))])
    level = pl.coalesce([pl.when(pl.col(f"a{i}").is_not_null()).then(pl.lit(i)) for i in range(len(LEVELS))])
    chosen = cells.select(
        pl.lit(players).alias("players"), POSITION, *(pl.col(k).alias(v) for k, v in DIM_OF.items()),
        pick("a").alias("action"), pick("p").alias("play"), level.alias("level"), pick("n").alias("deals"))  # fmt: skip
    if chosen["action"].null_count():
        raise ValueError(f"{chosen['action'].null_count()} cells have no group of {MIN_GROUP} deals at any level")
    # a play cell plays its own action; a pass cell keeps its best play for when it may not pass
    return chosen.with_columns(pl.when(pl.col("action") != ex.PASS).then(pl.col("action")).otherwise(pl.col("play"))
                               .alias("play"))  # fmt: skip


def table_gain(df: pl.DataFrame, table: pl.DataFrame) -> pl.Series:
    """Per deal of ``df``, the gain of the action ``table`` gives seat 0's cell (its play where a pass is not open)."""
    keys = [POSITION, *DIM_OF]
    t = table.select(pl.col(POSITION), *(pl.col(v).alias(k) for k, v in DIM_OF.items()), "action", "play")
    return df.join(t, on=keys, how="left").select(ex.cell_gain(pl.col("action") == ex.PASS, pl.col("play"))).to_series()


def _est(e: Estimate) -> dict:
    return {"mean": e.value, "lo": e.low, "hi": e.high, "n": e.n}


def fit(players: int, deals: int, work: Path, log=print) -> tuple[pl.DataFrame, list[dict]]:
    """Iterated best response at ``players``; the final table and the iterations' records."""
    rules = Rules.classic(players=players)
    policy = PolicySpec.parse("expert")
    current = None
    records = []
    for it in range(1, MAX_ITERATIONS + 1):
        t0 = time.time()
        seed = seed_of(players, it)
        df = branch(rules, policy, seed, deals, work / f"branch-{players}p-{it}")
        table = best_response(ex.half(df, select=True), players)
        held = ex.half(df, select=False)
        new = table_gain(held, table)
        others = "expert" if current is None else f"the table of iteration {it - 1}"  # (no path of this machine)
        rec = {"iteration": it, "others": others, "seed": seed, "deals": df.height,
               "over_stand": _est(mean_estimate(new - held[ex.gain_col(ex.STAND)]))}  # fmt: skip
        if current is not None:
            rec["over_previous"] = _est(mean_estimate(new - table_gain(held, current)))
            rec["cells_changed"] = int((table["action"] != current["action"]).sum()
                                       + (table["play"] != current["play"]).sum())  # fmt: skip
        records.append(rec)
        log(f"{players}p iteration {it}: {json.dumps({k: v for k, v in rec.items() if k != 'others'})} "
            f"({time.time() - t0:.0f} s)")  # fmt: skip
        done = current is not None and rec["over_previous"]["lo"] <= 0 <= rec["over_previous"]["hi"]
        current = table
        if done:
            break
        path = work / f"table-{players}p-{it}.csv"
        T.write(current.to_dicts(), path, extra=("level", "deals"))
        T.load.cache_clear()
        policy = PolicySpec.parse(f"table:file={path}")
    return current, records


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="*", default=list(TABLE_SIZES))
    ap.add_argument("--deals", type=float, default=DEALS)
    ap.add_argument("--out", type=Path, default=T.SHIPPED.parent)
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="rams-table-"))
    tables, fits = [], {}
    try:
        for players in args.players:
            table, records = fit(players, int(args.deals), work)
            tables.extend(table.to_dicts())
            fits[str(players)] = records
    finally:
        shutil.rmtree(work, ignore_errors=True)
    args.out.mkdir(parents=True, exist_ok=True)
    T.write(tables, args.out / "table.csv", extra=("level", "deals"))
    meta = {"method": "iterated best response on rams-sim branch data (analyses/table_policy.py)",
            "deals_per_iteration": int(args.deals), "min_group": MIN_GROUP, "levels": [list(k) for k in LEVELS],
            "max_iterations": MAX_ITERATIONS, "sizes": fits}  # fmt: skip
    (args.out / "table-fit.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {args.out / 'table.csv'} ({len(tables)} cells) and table-fit.json")


if __name__ == "__main__":
    main()
