"""Rule questions answered paired (``rams-sim effect``): a rule change measured on the same deals.

Each deal is played under the baseline rules and under every variant from the same key
(:func:`rams_sim.kernels.rng.deal_key` of the seed and the deal index: the same deck order
and the same coins), and the kernel :func:`rams_sim.kernels.effect.accumulate_paired` keeps,
per cell of the ``by`` keys (the baseline's values), the integer sums of the paired sample;
the deal is its unit (seats of one deal are not independent). Integers merge exactly, so
chunks, blocks and threads change nothing.

For each variant, cell and measure (:data:`MEASURES`): the baseline's mean per row, the
variant's, their difference with its deal-clustered 95% interval (:func:`estimates`), and
``n`` the rows; per variant the deals and the deals it altered (any seat's delta, any
decision or any card).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
import polars as pl

from .. import engine
from ..kernels import effect as K
from ..record import Declaration
from ..rules import OPTION_HELP, Rules, no_effect
from .aggregate import BLOCK_DEALS, KEYS, PARALLEL_CELLS, cells, key_values, parse_keys, radices, thread_pool
from .read import PAIRED_FILE, merge_cells
from .summary import Z95

MEASURES = ("delta", "tricks", "remiz", "before_play", "pass", *(f"decl_{d.name.lower()}" for d in Declaration))
assert len(MEASURES) == K.N_MEASURES and MEASURES.index("remiz") == K.M_REMIZ and MEASURES.index("pass") == K.M_PASS
# keys fixed before anyone chooses, so a rule change cannot move a row between cells
PAIRED_KEYS = ("seat", "position", "dealer", "trump", "dealt_aces")


class EffectError(ValueError):
    """A paired comparison that cannot be made (one line, for the CLI)."""


@dataclass(frozen=True)
class Paired:
    """The sums of a paired run: ``acc`` int64[variants, cells, N_COLUMNS] and ``deals``
    int64[variants, N_DEAL_STATS] (:mod:`rams_sim.kernels.effect`)."""

    acc: np.ndarray
    deals: np.ndarray
    whole: np.ndarray | None = None  # with keys: the same sums for the whole table, int64[variants, 1, N_COLUMNS]


def check_keys(keys) -> tuple[str, ...]:
    """The ``by`` keys, each one that a rule change cannot change for a row (PAIRED_KEYS)."""
    keys = parse_keys(keys) if keys else ()
    for k in keys:
        if k not in PAIRED_KEYS:
            raise EffectError(f"--by {k}: a rule change may change it for a seat, so it cannot pair the deals; "
                              f"use {', '.join(PAIRED_KEYS)}")  # fmt: skip
    return keys


def check_variants(baseline: Rules, variants: list[Rules]) -> None:
    """Every variant plays the baseline's game at its table size and differs from it."""
    if not variants:
        raise EffectError("name at least one variant (KEY=VALUE)")
    for v in variants:
        if v == baseline:
            raise EffectError("a variant equals the baseline: nothing to compare")
        if v.players != baseline.players or v.game != baseline.game:
            raise EffectError("a variant must keep the baseline's game and table size (compare those with sweep)")
        changed = [k for k in OPTION_HELP if getattr(v, k) != getattr(baseline, k)]
        idle_base, idle_variant = no_effect(baseline), no_effect(v)
        idle = [k for k in changed if k in idle_base and k in idle_variant]
        if idle:
            raise EffectError(f"{', '.join(idle)} has no effect in the {baseline.game.value} game "
                              f"({idle_base[idle[0]]}; see rams-sim rules show {baseline.preset})")  # fmt: skip


def simulate_paired(baseline: Rules, variants: list[Rules], policies, keys: tuple[str, ...] = (), *, seed: int = 0,
                    deals: int = 1000, first_deal: int = 0, dealer: int | None = None) -> Paired:  # fmt: skip
    """Play deals ``first_deal ..`` under ``baseline`` and each of ``variants`` (same keys) and
    return their paired sums, block by block (BLOCK_DEALS deals at a time; memory stays flat).
    A block's pairs are added on the kernel threads, each into accumulators of its own (up to
    PARALLEL_CELLS cells), summed at the end: integers, so the threads change nothing."""
    keys = check_keys(keys)
    n = baseline.players
    codes = np.array([KEYS[k][0] for k in keys], np.int64)
    radix = radices(keys, n)
    threads = numba.get_num_threads() if cells(keys, n) <= PARALLEL_CELLS else 1
    accs = [np.zeros((len(variants), cells(keys, n), K.N_COLUMNS), np.int64) for _ in range(threads)]
    wholes = [np.zeros((len(variants), 1 if keys else 0, K.N_COLUMNS), np.int64) for _ in range(threads)]
    totals = [np.zeros((len(variants), K.N_DEAL_STATS), np.int64) for _ in range(threads)]
    size = min(BLOCK_DEALS, max(deals, 1))
    a, b = engine.new_deal_out(size, n, True), engine.new_deal_out(size, n, True)
    for lo in range(0, deals, size):
        count = min(size, deals - lo)
        if count != size:
            a, b = engine.new_deal_out(count, n, True), engine.new_deal_out(count, n, True)
        engine.simulate(baseline, policies, seed=seed, deals=count, first_deal=first_deal + lo, dealer=dealer,
                        log_plays=True, out=a)  # fmt: skip
        bounds = [(j * count // threads, (j + 1) * count // threads) for j in range(threads)]
        for v, rules in enumerate(variants):
            engine.simulate(rules, policies, seed=seed, deals=count, first_deal=first_deal + lo, dealer=dealer,
                            log_plays=True, out=b)  # fmt: skip

            # with keys, the whole table's cell too (its own clustered sums); the loop's values bound as defaults
            def add(j: int, v: int = v, a=a, b=b, bounds=bounds) -> None:
                K.accumulate_paired(*a.arrays, *b.arrays, codes, radix, accs[j][v], wholes[j][v], totals[j][v],
                                    *bounds[j])  # fmt: skip

            list(thread_pool(threads).map(add, range(threads))) if threads > 1 else add(0)
    return Paired(np.sum(accs, axis=0), np.sum(totals, axis=0), np.sum(wholes, axis=0) if keys else None)


PARTY_MEASURES = ("length", "first_dealer_wins", "settlement")  # per party; the first dealer is seat 0 (R8)
SETTLE_SCALE = 60  # R8.4's settlements are whole multiples of 1/60 (a stake shared by up to six payers)
MEASURE_WORDS = {"delta": "score delta a seat-deal", "tricks": "tricks a seat-deal", "remiz": "remiz rate a seat-deal",
                 "before_play": "deals ending before play", "pass": "pass rate a seat-deal",
                 "length": "party length (deals)",
                 "first_dealer_wins": "the first dealer wins the party",
                 "settlement": "the first dealer's settlement (R8.4)"}  # fmt: skip (the command's and the page's words)
RATE_MEASURES = ("remiz", "before_play", "pass", "first_dealer_wins")  # shares: shown as percentages


def simulate_paired_parties(baseline: Rules, variants: list[Rules], policies, *, seed: int = 0, parties: int = 100,
                            first_party: int = 0) -> Paired:  # fmt: skip
    """Play parties ``first_party ..`` under ``baseline`` and each variant (same keys: party ``p``'s
    deal ``d`` is keyed by (seed, p, d)) and return their paired sums, one cell, a party a row:
    the deals it lasted, whether the first dealer (seat 0) won it, his settlement (R8.4) times
    SETTLE_SCALE; the count of parties the change altered (any output differs)."""
    a = engine.simulate_parties(baseline, policies, seed=seed, parties=parties, first_party=first_party)
    acc = np.zeros((len(variants), 1, K.E_MEASURES + len(PARTY_MEASURES) * K.E_PER_MEASURE), np.int64)
    totals = np.zeros((len(variants), K.N_DEAL_STATS), np.int64)
    for v, rules in enumerate(variants):
        b = engine.simulate_parties(rules, policies, seed=seed, parties=parties, first_party=first_party)
        acc[v, 0, K.E_N] = acc[v, 0, K.E_M_SQ] = acc[v, 0, K.E_DEALS] = parties
        for mm, (x, y) in enumerate(zip(_party_values(a), _party_values(b))):
            d = y - x
            acc[v, 0, K.column(mm, K.E_SUM_A)] = x.sum()
            acc[v, 0, K.column(mm, K.E_SUM_B)] = y.sum()
            acc[v, 0, K.column(mm, K.E_C_SQ)] = (d * d).sum()
            acc[v, 0, K.column(mm, K.E_C_M)] = d.sum()
        fields = ("deals", "scores", "winner", "end_kind", "settlement", "resets", "stake")
        changed = np.zeros(parties, bool)
        for f in fields:
            x, y = getattr(a, f), getattr(b, f)
            changed |= (x != y).reshape(parties, -1).any(axis=1)
        totals[v] = (parties, int(changed.sum()))
    return Paired(acc, totals)


def _party_values(out: engine.PartyOut) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    settled = out.settlement[:, 0] * SETTLE_SCALE
    whole = np.rint(settled).astype(np.int64)
    assert np.allclose(settled, whole, atol=1e-6), "a settlement that is no multiple of 1/60"
    return out.deals.astype(np.int64), (out.winner == 0).astype(np.int64), whole


def estimates(paired: Paired, keys: tuple[str, ...], players: int, names: list[str], parties: bool = False) -> pl.DataFrame:
    """One row per (variant, cell, measure): ``variant`` (its name in ``names``), the key columns,
    ``measure``, ``baseline`` and ``value`` (means per row), ``diff`` (value - baseline) and its
    95% interval ``ci_low``/``ci_high``, ``n`` (rows) and ``deals`` (deals with a row in the cell).

    The interval is the deal-clustered ratio estimator's: with deal i's paired sum ``C_i`` over
    its ``m_i`` rows in the cell, ``r = sum C / sum m`` and ``var(r) = k / (k - 1) * sum (C_i -
    r m_i)**2 / (sum m)**2`` over the cell's ``k`` deals (null below two deals)."""
    out = []
    for v, name in enumerate(names):
        acc = paired.acc[v]
        rows = np.flatnonzero(acc[:, K.E_N])
        cell_keys = key_values(rows, keys, players)
        for i, c in enumerate(rows):
            values = {key: int(cell_keys[key][i]) for key in keys}
            n, m_sq, k = (int(acc[c, j]) for j in (K.E_N, K.E_M_SQ, K.E_DEALS))
            for mm, measure in enumerate(PARTY_MEASURES if parties else MEASURES):
                sum_a, sum_b, c_sq, c_m = (int(acc[c, K.column(mm, j)]) for j in range(K.E_PER_MEASURE))
                scale = SETTLE_SCALE if measure == "settlement" else 1
                r = (sum_b - sum_a) / n
                low = high = None
                if k >= 2:
                    spread = max(c_sq - 2 * r * c_m + r * r * m_sq, 0.0)
                    se = math.sqrt(k / (k - 1) * spread) / n
                    low, high = (r - Z95 * se) / scale, (r + Z95 * se) / scale
                out.append({"variant": name, **{key: values[key] for key in keys}, "measure": measure,
                            "baseline": sum_a / n / scale, "value": sum_b / n / scale, "diff": r / scale,
                            "ci_low": low, "ci_high": high, "n": n, "deals": k})  # fmt: skip
    schema = {"variant": pl.String, **{key: pl.Int8 for key in keys}, "measure": pl.String, "baseline": pl.Float64,
              "value": pl.Float64, "diff": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64, "n": pl.Int64,
              "deals": pl.Int64}  # fmt: skip
    return pl.DataFrame(out, schema=schema)


# ---- as a table (a run's parts, rams_sim.runs.runner) -----------------------------------------------
TOTAL_CELL = -1  # the row of a variant that holds its deal (party) counts, not a cell
WHOLE_CELL = -2  # with keys: the row of a variant's whole-table sums
PER_MEASURE = ("sum_a", "sum_b", "c_sq", "c_m")
assert len(PER_MEASURE) == K.E_PER_MEASURE


def columns(parties: bool = False) -> tuple[str, ...]:
    """The sum columns of a paired table, in the accumulator's order."""
    measures = PARTY_MEASURES if parties else MEASURES
    return ("n", "m_sq", "cell_units", *(f"{m}__{p}" for m in measures for p in PER_MEASURE))


def to_table(paired: Paired, keys: tuple[str, ...], players: int, parties: bool = False) -> pl.DataFrame:
    """The non-empty cells of every variant as rows: ``variant`` (Int8, its index), ``key_cell`` (Int64,
    TOTAL_CELL for the variant's ``units`` and ``changed``), the key columns (Int8; -1 in the total
    row), the sums (:func:`columns`), ``units`` and ``changed``: integers, so parts merge by summing."""
    names = columns(parties)
    frames = []
    for v in range(paired.acc.shape[0]):
        acc = paired.acc[v]
        rows = np.flatnonzero(acc[:, K.E_N])
        data = {"variant": np.full(len(rows) + 1, v, np.int8), "key_cell": np.append(rows, TOTAL_CELL).astype(np.int64)}
        data |= {key: np.append(x, -1).astype(np.int8) for key, x in key_values(rows, keys, players).items()}
        for j, name in enumerate(names):
            data[name] = np.append(acc[rows, j], 0).astype(np.int64)
        data["units"] = np.append(np.zeros(len(rows), np.int64), paired.deals[v, K.G_DEALS])
        data["changed"] = np.append(np.zeros(len(rows), np.int64), paired.deals[v, K.G_CHANGED])
        if paired.whole is not None:
            data = {k: np.append(x, WHOLE_CELL if k == "key_cell" else (-1 if k in keys else 0)).astype(x.dtype)
                    for k, x in data.items()}  # fmt: skip
            for j, name in enumerate(names):
                data[name][-1] = paired.whole[v, 0, j]
            data["variant"][-1] = v
        frames.append(pl.DataFrame(data))
    schema = {"variant": pl.Int8, "key_cell": pl.Int64, **{k: pl.Int8 for k in keys}, **{c: pl.Int64 for c in names},
              "units": pl.Int64, "changed": pl.Int64}  # fmt: skip
    return pl.concat(frames).cast(schema) if frames else pl.DataFrame(schema=schema)


def cell_columns(keys: tuple[str, ...]) -> list[str]:
    """The columns that key a paired table's rows (:func:`to_table`)."""
    return ["variant", "key_cell", *keys]


def merge(parts: pl.LazyFrame, keys: tuple[str, ...], outer: tuple[str, ...] = ()) -> pl.DataFrame:
    """Sum the parts of a paired run cell by cell (exact integers, :func:`..read.merge_cells`), sorted;
    ``outer``: columns that group the parts first (a sweep's ``cell``)."""
    return merge_cells(parts, [*outer, *cell_columns(keys)])


def from_table(table: pl.DataFrame, keys: tuple[str, ...], players: int, variants: int,
               parties: bool = False, whole: bool = False) -> Paired:  # fmt: skip
    """The :class:`Paired` sums of a (merged) paired table: the inverse of :func:`to_table`.
    ``whole``: the whole table's sums as the one cell (its WHOLE_CELL rows, or the only cell
    of a run without keys)."""
    names = columns(parties)
    one = parties or whole or not keys
    acc = np.zeros((variants, 1 if one else cells(keys, players), len(names)), np.int64)
    totals = np.zeros((variants, K.N_DEAL_STATS), np.int64)
    has_whole = (table["key_cell"] == WHOLE_CELL).any()
    for row in table.iter_rows(named=True):
        v, c = row["variant"], row["key_cell"]
        totals[v, K.G_DEALS] += row["units"]
        totals[v, K.G_CHANGED] += row["changed"]
        if c == TOTAL_CELL or (c == WHOLE_CELL) != (whole and has_whole):
            continue
        acc[v, 0 if one else c] += np.array([row[name] for name in names], np.int64)
    return Paired(acc, totals)


@dataclass(frozen=True)
class Result:
    """A finished paired run read back (:func:`read_result`): ``rows`` the whole table's
    :func:`estimates` (one row per variant and measure), ``by_rows`` the same per cell of the
    ``by`` keys (None without keys), ``units`` the deals or parties of every arm and
    ``changed`` per variant the units it altered."""

    rows: pl.DataFrame
    by_rows: pl.DataFrame | None
    units: int
    changed: list[int]


def read_result(path, players: int, names: list[str], by: tuple[str, ...] = (), parties: bool = False) -> Result:
    """Read the merged ``paired.parquet`` of the paired run at ``path`` (``names``: one per variant,
    in the run's order) into its estimates: what ``rams-sim effect`` prints and the reports use."""
    table = pl.read_parquet(Path(path) / PAIRED_FILE)
    paired = from_table(table, by, players, len(names), parties)
    whole = from_table(table, (), players, len(names), parties, whole=True)
    rows = estimates(whole, (), players, names, parties)
    by_rows = estimates(paired, by, players, names, parties) if by else None
    return Result(rows, by_rows, int(paired.deals[0, K.G_DEALS]), [int(c) for c in paired.deals[:, K.G_CHANGED]])

