"""Aggregated runs (``rams-sim run --aggregate KEYS``): counts and sums by keys instead of rows.

A raw run writes about 53 bytes a (deal, seat) row; most questions need only counts and
means by a few keys. An aggregated run plays the same deals (same seed, same randomness)
and keeps, per combination of key values, the integer sufficient statistics of its rows:

``n`` (rows), ``delta_sum``, ``delta_sq_sum``, ``tricks_sum``, ``tricks_sq_sum``,
``remiz`` (rows of a played deal without a trick, R7.2) and ``decl_<name>`` (rows with that
declaration, R5: one column per :class:`rams_sim.record.Declaration`).

They are integers, so chunks merge exactly in any order: an aggregated run equals, exactly,
the same sums taken over the raw rows of the same run (tests/test_aggregate.py). Means,
variances and 95% intervals follow from them (:func:`with_estimates`).

Keys (:data:`KEYS`; each is also, or is computed from, a column of a raw run):

==================== ============================================================
``seat``             seat 0 .. players-1
``position``         0 = the dealer's left (first to speak, R4) .. players-1 = the dealer
``dealer``           the dealer's seat
``trump``            the trump suit 0-3 = ♠♣♦♥
``aces``             bit mask of the suits of the aces in the final hand (the raw ``aces``)
``n_aces``           aces in the final hand, 0-4
``dealt_aces``       aces in the dealt hand, 0-4
``trump_suit_held``  cards of the trump suit in the final hand, 0-5
``passed``           1 if the seat passed (R4.1)
``declaration``      the seat's declaration code (R5; the raw ``declaration``)
``tricks``           tricks taken, 0-5
``outcome``          how the deal went (the raw ``outcome``)
==================== ============================================================
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
import polars as pl

from .. import cards as C
from .. import engine
from ..kernels import aggregate as K
from ..record import Declaration, Outcome
from .summary import interval_from_sums

KEYS: dict[str, tuple[int, int | None]] = {  # name -> (kernel code, number of values; None: the table size)
    "seat": (K.K_SEAT, None),
    "position": (K.K_POSITION, None),
    "dealer": (K.K_DEALER, None),
    "trump": (K.K_TRUMP, C.N_SUITS),
    "aces": (K.K_ACES, 1 << C.N_SUITS),
    "n_aces": (K.K_N_ACES, C.N_SUITS + 1),
    "dealt_aces": (K.K_DEALT_ACES, C.N_SUITS + 1),
    "trump_suit_held": (K.K_TRUMP_SUIT_HELD, C.HAND_SIZE + 1),
    "passed": (K.K_PASSED, 2),
    "declaration": (K.K_DECLARATION, max(Declaration) + 1),
    "tricks": (K.K_TRICKS, C.N_TRICKS + 1),
    "outcome": (K.K_OUTCOME, max(Outcome) + 1),
}
assert len(KEYS) == K.N_KEYS
DECL_COLUMNS = tuple(f"decl_{d.name.lower()}" for d in Declaration)
STATS = ("n", "delta_sum", "delta_sq_sum", "tricks_sum", "tricks_sq_sum", "remiz", *DECL_COLUMNS)
assert STATS.index("remiz") == K.A_REMIZ and STATS.index(DECL_COLUMNS[0]) == K.A_DECL
MAX_CELLS = 1 << 22  # key combinations of one run (4,194,304: 0.4 GB of accumulators at most)
BLOCK_DEALS = 131_072  # deals simulated at a time within a chunk (the outputs are reused: memory stays flat)
PARALLEL_CELLS = 1 << 17  # up to this many cells each kernel thread adds into an accumulator of its own


class KeysError(ValueError):
    """Aggregation keys that cannot be used (one line, for the CLI)."""


def parse_keys(text: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """``"seat,aces"`` (or a sequence of names) -> ``("seat", "aces")``; raises KeysError."""
    names = [k.strip() for k in (text.split(",") if isinstance(text, str) else text)]
    names = [k for k in names if k]
    if not names:
        raise KeysError(f"--aggregate needs at least one key; keys: {', '.join(KEYS)}")
    unknown = [k for k in names if k not in KEYS]
    if unknown:
        raise KeysError(f"unknown aggregation key {unknown[0]!r}; keys: {', '.join(KEYS)}")
    twice = sorted({k for k in names if names.count(k) > 1})
    if twice:
        raise KeysError(f"aggregation key {twice[0]!r} given twice")
    return tuple(names)


def radices(keys: tuple[str, ...], players: int) -> np.ndarray:
    """int64[k]: the number of values of each key at a table of ``players``."""
    return np.array([KEYS[k][1] or players for k in keys], np.int64)


def cells(keys: tuple[str, ...], players: int) -> int:
    """Key combinations (accumulator rows); raises KeysError above MAX_CELLS."""
    total = math.prod(int(r) for r in radices(keys, players))
    if total > MAX_CELLS:
        raise KeysError(f"the keys {', '.join(keys)} make {total:,} combinations (at most {MAX_CELLS:,}); "
                        "choose fewer or coarser keys (n_aces rather than aces)")  # fmt: skip
    return total


def accumulator(keys: tuple[str, ...], players: int) -> np.ndarray:
    """A zeroed accumulator: int64[cells, len(STATS)]."""
    return np.zeros((cells(keys, players), len(STATS)), np.int64)


def add_block(out: engine.DealOut, keys: tuple[str, ...], accs: list[np.ndarray]) -> None:
    """Add a block of simulated deals to the accumulators ``accs``, one part of the block each, on as many
    threads (the kernel :func:`rams_sim.kernels.aggregate.accumulate` releases the GIL)."""
    codes = np.array([KEYS[k][0] for k in keys], np.int64)
    radix = radices(keys, out.delta.shape[1])
    n = len(out)
    bounds = [(j * n // len(accs), (j + 1) * n // len(accs)) for j in range(len(accs))]

    def add(j: int) -> None:
        K.accumulate(out.sets, out.seat, out.delta, out.deal, codes, radix, accs[j], *bounds[j])

    if len(accs) == 1:
        add(0)
    else:
        list(thread_pool(len(accs)).map(add, range(len(accs))))


_POOLS: dict[int, ThreadPoolExecutor] = {}


def thread_pool(threads: int) -> ThreadPoolExecutor:
    """A pool of ``threads`` threads kept for the process: blocks added on the kernel threads
    (here and :mod:`rams_sim.runs.effect`)."""
    if threads not in _POOLS:
        _POOLS[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="rams-sim-aggregate")
    return _POOLS[threads]


def simulate_aggregate(rules, policies, keys: tuple[str, ...], *, seed: int = 0, deals: int = 1000,
                       first_deal: int = 0, dealer: int | None = None) -> np.ndarray:  # fmt: skip
    """Play deals ``first_deal ..`` as :func:`rams_sim.engine.simulate` would and return their
    accumulator (int64[cells, len(STATS)]), block by block with one reused set of outputs; a block
    is added on the kernel threads, each into its own accumulator (up to PARALLEL_CELLS cells),
    summed at the end: integers, so the result does not depend on the threads."""
    threads = numba.get_num_threads() if cells(keys, rules.players) <= PARALLEL_CELLS else 1
    accs = [accumulator(keys, rules.players) for _ in range(threads)]
    size = min(BLOCK_DEALS, max(deals, 1))
    out = engine.new_deal_out(size, rules.players)
    for lo in range(0, deals, size):
        count = min(size, deals - lo)
        if count != size:
            out = engine.new_deal_out(count, rules.players)
        engine.simulate(rules, policies, seed=seed, deals=count, first_deal=first_deal + lo, dealer=dealer, out=out)
        add_block(out, keys, accs)
    return np.sum(accs, axis=0) if threads > 1 else accs[0]


def key_values(rows: np.ndarray, keys: tuple[str, ...], players: int) -> dict[str, np.ndarray]:
    """Each key's values (int8, in ``keys`` order) of the cells ``rows`` (int64: mixed-radix cell
    numbers, the first key most significant, :func:`radices`)."""
    values = {}
    rest = np.asarray(rows, np.int64).copy()
    for name, radix in reversed(list(zip(keys, radices(keys, players)))):
        values[name] = (rest % radix).astype(np.int8)
        rest //= radix
    return {k: values[k] for k in keys}


def to_table(acc: np.ndarray, keys: tuple[str, ...], players: int) -> pl.DataFrame:
    """The accumulator's non-empty cells as a table: the key columns (Int8), then :data:`STATS` (Int64)."""
    rows = np.flatnonzero(acc[:, 0])
    data = key_values(rows, keys, players) | {s: acc[rows, j] for j, s in enumerate(STATS)}
    return pl.DataFrame(data, schema={**{k: pl.Int8 for k in keys}, **{s: pl.Int64 for s in STATS}})


def from_rows(rows: pl.DataFrame | pl.LazyFrame, keys: tuple[str, ...]) -> pl.DataFrame:
    """The same statistics taken over the raw rows of a run (``rams_sim.read_run``): the check of
    an aggregated run, and a way to aggregate an existing raw run."""
    lazy = rows.lazy()
    derived = {
        "position": ((pl.col("seat") - pl.col("dealer") - 1 + pl.col("players")) % pl.col("players")),
        "n_aces": pl.col("aces").cast(pl.UInt8).bitwise_count_ones(),
        "dealt_aces": _count(pl.col("hand_dealt"), _aces_mask()),
        "trump_suit_held": _trump_count(),
        "passed": pl.col("passed").cast(pl.Int8),
    }
    lazy = lazy.with_columns(*(expr.cast(pl.Int8).alias(k) for k, expr in derived.items() if k in keys))
    remiz = (~pl.col("passed").cast(pl.Boolean) & (pl.col("outcome") == int(Outcome.PLAYED)) & (pl.col("tricks") == 0))
    delta, tricks = pl.col("delta").cast(pl.Int64), pl.col("tricks").cast(pl.Int64)
    stats = [pl.len().cast(pl.Int64).alias("n"), delta.sum().alias("delta_sum"), (delta * delta).sum().alias("delta_sq_sum"),
             tricks.sum().alias("tricks_sum"), (tricks * tricks).sum().alias("tricks_sq_sum"),
             remiz.cast(pl.Int64).sum().alias("remiz"),
             *[(pl.col("declaration") == int(d)).cast(pl.Int64).sum().alias(c) for d, c in zip(Declaration, DECL_COLUMNS)]]  # fmt: skip
    return lazy.group_by([pl.col(k).cast(pl.Int8) for k in keys]).agg(stats).sort(list(keys)).collect()


def _aces_mask() -> int:
    return sum(1 << (s * C.RANKS_PER_SUIT + C.ACE) for s in range(C.N_SUITS))


def _count(mask: pl.Expr, bits: int) -> pl.Expr:
    return (mask & pl.lit(bits, pl.UInt64)).bitwise_count_ones()


def _trump_count() -> pl.Expr:
    expr = pl.lit(0, pl.UInt32)
    for s in range(C.N_SUITS):
        expr = pl.when(pl.col("trump") == s).then(_count(pl.col("hand_final"), int(C.SUIT_MASKS[s]))).otherwise(expr)
    return expr


def with_estimates(table: pl.DataFrame) -> pl.DataFrame:
    """``table`` plus ``delta_mean``, ``delta_lo``, ``delta_hi`` (a normal 95% interval of the mean
    delta per row: the rows are seats of independent deals within a cell), ``tricks_mean`` and
    ``remiz_rate``. A cell of one row has no interval (null)."""
    n = pl.col("n").cast(pl.Float64)
    return table.with_columns(*interval_from_sums("n", "delta_sum", "delta_sq_sum", "delta"),
                              (pl.col("tricks_sum") / n).alias("tricks_mean"), (pl.col("remiz") / n).alias("remiz_rate"))  # fmt: skip
