"""Question 2: when discarding pays off — a strategy table for the exchange (R4).

Reads ``branch-4p``: for each deal, seat 0's exchange replayed once per option the rules
open to him (pass without a dealt ace, R4.1; stand; every discard set the talon allows,
R4.4), everyone else on ``basic``, the same deck order; and ``deals-4p`` (the same deals
played by ``basic`` throughout) for ``basic``'s own choice.

A discard set is hand-specific, so the table speaks in *canonical actions* that mean the
same for every hand: pass, stand, "exchange the k weakest" (k = 1..5, weakest as
:func:`rams_sim.hands.weakest_discards` orders them), and two rules that are such an
exchange with a hand-specific k: "exchange every plain card below a king" and "exchange
every plain card but aces" (as many as the talon serves when it is short). Per deal
this module finds the gain of each canonical action, groups deals into *hand classes*
(aces, trumps and the top trump, dealer, jack pair, longest suit; sparse classes merged
into coarser ones), picks each class's best action on the even deals and measures it on
the odd deals, against standing pat and against ``basic``.

:mod:`analyses.q4_pass` reuses the per-deal table and the class machinery.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from rams_sim.cards import ACE, HAND_SIZE, JACK, KING  # noqa: E402
from rams_sim.hands import hand_features, weakest_discards  # noqa: E402
from rams_sim.summary import Estimate, wilson  # noqa: E402

from .common import (  # noqa: E402
    Context, Page, chance_misses, clear, fmt, fmt_n, mean_by, mean_estimate, num, row_estimate,
)  # fmt: skip

BRANCH = "branch-4p"
RUN = "deals-4p"
DATASETS = (BRANCH, RUN)
SEAT = 0  # the branched seat of every branch dataset

# ---- canonical actions -----------------------------------------------------------------
PASS, STAND = "pass", "stand"
WEAKEST = tuple(f"x{k}" for k in range(1, HAND_SIZE + 1))  # x<k>: exchange the k weakest
LOW, PLAIN = "low", "plain"  # exchange every plain card below a king / every plain card but an ace
EXCHANGES = (PLAIN, LOW, *WEAKEST)  # on a tie of means the earlier wins: the rules first
PLAYS = (STAND, *EXCHANGES)  # every canonical action that plays the deal
ACTIONS = (PASS, *PLAYS)
OPTION_PASS = -1  # the branch option code of a pass (BRANCH_COLUMNS)
ACTION_WORDS = {PASS: "pass", STAND: "stand pat", **{f"x{k}": f"exchange {k}" for k in range(1, HAND_SIZE + 1)},
                LOW: "exchange plain cards below K", PLAIN: "exchange plain cards but aces"}  # fmt: skip


def gain_col(action: str) -> str:
    """The per-deal column holding the gain of ``action``."""
    return f"g_{action}"


def hand_col(action: str) -> str:
    """The per-deal column holding seat 0's final hand (card mask) under ``action``."""
    return f"h_{action}"


# ---- hand classes ----------------------------------------------------------------------
# Class dimensions (small integer codes; see CLASS_WORDS for what they mean on the page).
ACES, TRUMPS, TOP, DEALER = "aces", "trumps", "top", "dealer"
JACK_PAIR, LONGEST, KINGS = "jack_pair", "longest", "kings"
MAX_ACES, MAX_TRUMPS, MIN_LONGEST, MAX_LONGEST, MAX_KINGS = 2, 3, 2, 4, 1  # the last code of each means "or more"
TOP_NONE, TOP_LOW, TOP_MID, TOP_HIGH = 0, 1, 2, 3  # no trump; 10 or lower; J or Q; K or A
CLASS_WORDS = {
    ACES: "aces dealt: 0, 1, 2+",
    TRUMPS: "trumps dealt: 0, 1, 2, 3+ (the turned-up card is not counted)",
    TOP: "the highest trump dealt: A/K, Q/J, or 10 and lower",
    DEALER: "whether the seat is the dealer (who may then take the turned-up trump card, R4.3)",
    JACK_PAIR: "a jack pair dealt (two jacks of one colour, R5.5)",
    LONGEST: "the longest suit dealt: 2, 3 or 4+ cards",
    KINGS: "plain (non-trump) kings dealt: 0 or 1+",
}
# Classes of question 2, coarse to fine: a deal belongs to the finest level whose class
# holds at least MIN_CELL_DEALS of the deals not already in a finer class.
Q2_LEVELS = (
    (ACES,),
    (ACES, TRUMPS, TOP),
    (ACES, TRUMPS, TOP, DEALER),
    (ACES, TRUMPS, TOP, DEALER, JACK_PAIR),
    (ACES, TRUMPS, TOP, DEALER, JACK_PAIR, LONGEST),
)
MIN_CELL_DEALS = 2_000  # deals (both halves) a class needs for a row of its own
HEAT_LIMIT = 15.0  # the figure's colour scale ends here (a few strong hands lose far more by a big exchange)
OTHER = "other"  # a merged dimension: every hand of the row's other features not in a finer row


def deal_hands(branch: pl.LazyFrame) -> pl.DataFrame:
    """One row per branched deal (sorted): ``deal``, ``dealer``, ``trump``, ``hand_dealt`` and
    ``is_dealer`` (seat 0 deals). Taken from the stand rows, which every deal has."""
    return (
        branch.filter(pl.col("option") == 0)
        .select("deal", "dealer", "trump", "hand_dealt", (pl.col("dealer") == pl.col("seat")).alias("is_dealer"))
        .collect().sort("deal")
    )  # fmt: skip


def with_features(hands: pl.DataFrame) -> pl.DataFrame:
    """``hands`` (with ``hand_dealt``, ``trump``, ``is_dealer``) plus the class dimensions of the
    dealt hand: ``aces`` 0-2 (2 = 2+), ``trumps`` 0-3 (3 = 3+), ``top`` (TOP_* codes),
    ``dealer``, ``jack_pair``, ``longest`` 2-4 (4 = 4+), ``kings`` 0-1 (1 = 1+); the raw
    ``n_aces``; and the cards the rule actions discard: ``n_plain`` (plain cards but aces)
    and ``n_low`` (plain cards below a king)."""
    f = hand_features(hands["hand_dealt"].to_numpy(), hands["trump"].to_numpy())
    top = f["top_trump"].astype(np.int16)
    top_code = np.select([top < 0, top >= KING, top >= JACK], [TOP_NONE, TOP_HIGH, TOP_MID], TOP_LOW).astype(np.int8)
    plain = HAND_SIZE - f["trumps"] - (f["n_aces"] - (top == ACE))  # plain cards that are not aces
    return hands.with_columns(
        pl.Series("n_aces", f["n_aces"]),
        pl.Series(ACES, np.minimum(f["n_aces"], MAX_ACES)),
        pl.Series(TRUMPS, np.minimum(f["trumps"], MAX_TRUMPS)),
        pl.Series(TOP, top_code),
        pl.col("is_dealer").alias(DEALER),
        pl.Series(JACK_PAIR, f["jacks"] > 0),
        pl.Series(LONGEST, np.clip(f["longest"], MIN_LONGEST, MAX_LONGEST)),
        pl.Series(KINGS, np.minimum(f["off_kings"], MAX_KINGS)),
        pl.Series("n_plain", plain.astype(np.int8)),
        pl.Series("n_low", (plain - f["off_kings"]).astype(np.int8)),
    )


def canonical_options(hands: pl.DataFrame) -> pl.DataFrame:
    """Long table ``deal``, ``action``, ``option``: the branch option code of pass (-1), stand
    (0) and each x<k> (the k weakest dealt cards) in each deal of ``hands``."""
    codes = weakest_discards(hands["hand_dealt"].to_numpy(), hands["trump"].to_numpy())
    deal = hands["deal"]
    parts = [pl.DataFrame({"deal": deal, "action": PASS, "option": np.full(len(deal), OPTION_PASS, np.int8)})]
    for k, action in enumerate((STAND, *WEAKEST)):
        parts.append(pl.DataFrame({"deal": deal, "action": action, "option": codes[:, k]}))
    return pl.concat(parts)


def _by_count(count: str, prefix: str) -> pl.Expr:
    """The column ``<prefix>stand`` / ``<prefix>x<k>`` picked by each deal's ``count`` k."""
    expr = pl.col(f"{prefix}{STAND}")
    for k, action in enumerate(WEAKEST, start=1):
        expr = pl.when(pl.col(count) == k).then(pl.col(f"{prefix}{action}")).otherwise(expr)
    return expr


def canonical_gains(branch: pl.LazyFrame, hands: pl.DataFrame) -> pl.DataFrame:
    """``hands`` (with_features) plus, per deal, the gain (−delta) and final hand of every
    canonical action, ``g_<action>`` and ``h_<action>``, and ``k_max`` (the most cards the
    talon let him exchange, R4.4).

    ``g_pass`` is null where a pass is not open (a dealt ace, R4.1). An exchange of more
    cards than the talon serves becomes the largest it serves (the k weakest "as far as the
    talon goes"; standing pat on an empty talon), so every play action has a gain in every
    deal. ``low`` and ``plain`` are the x<k> of k = ``n_low`` and ``n_plain``.
    """
    rows = (
        branch.select("deal", "option", "delta", "hand_final")
        .join(canonical_options(hands).lazy(), on=["deal", "option"], how="inner")
        .collect()
    )  # fmt: skip
    raw = (PASS, STAND, *WEAKEST)
    wide = rows.group_by("deal").agg(
        *[(-pl.col("delta").cast(pl.Float64)).filter(pl.col("action") == a).first().alias(gain_col(a)) for a in raw],
        *[pl.col("hand_final").filter(pl.col("action") == a).first().alias(hand_col(a)) for a in raw],
    )
    k_max = sum(pl.col(gain_col(a)).is_not_null().cast(pl.Int8) for a in WEAKEST).alias("k_max")
    wide = wide.with_columns(k_max)
    for k in range(1, len(WEAKEST) + 1):  # R4.4: as many as the talon serves
        lower = [STAND, *WEAKEST[:k]][::-1]
        wide = wide.with_columns(
            pl.coalesce([pl.col(gain_col(a)) for a in lower]).alias(gain_col(WEAKEST[k - 1])),
            pl.coalesce([pl.col(hand_col(a)) for a in lower]).alias(hand_col(WEAKEST[k - 1])),
        )
    out = hands.join(wide, on="deal", how="left")
    if out[gain_col(STAND)].null_count():
        raise ValueError(f"{out[gain_col(STAND)].null_count()} deals have no stand row in the branch data")
    return out.with_columns(*[_by_count(n, p).alias(f"{p}{a}") for a, n in ((LOW, "n_low"), (PLAIN, "n_plain"))
                              for p in ("g_", "h_")])  # fmt: skip


def basic_choice(branch: pl.LazyFrame, run: pl.LazyFrame, deals: pl.Series) -> pl.DataFrame:
    """``basic``'s own exchange in each branched deal: ``deal``, ``g_basic`` (−delta),
    ``basic_passed``, ``basic_hand`` (his final hand), ``basic_option`` (a branch option code).

    ``run`` holds the same deals played by ``basic`` at every seat; seat 0's row is matched
    to the branch row of the same (deal, passed, hand_final, number discarded). When seat 0
    deals, two options can end in the same hand (discard a, draw t, give b for the trump
    card; or discard b, draw t, give a): such rows are the same hands played the same way,
    and must carry the same delta. Raises ValueError if a deal finds no row, if its rows
    disagree, or if the matched delta is not the run's (the datasets are not the same deals).
    """
    seat0 = (
        run.filter((pl.col("seat") == SEAT) & pl.col("deal").is_in(deals.implode()))
        .select("deal", "passed", "hand_final", "discarded", pl.col("delta").alias("run_delta"))
    )  # fmt: skip
    matched = (
        branch.select("deal", "option", "passed", "hand_final", "delta",
                      pl.col("discards").bitwise_count_ones().cast(pl.Int8).alias("n_discards"))  # fmt: skip
        .join(seat0, on=["deal", "passed", "hand_final"], how="inner")
        .filter(pl.col("n_discards") == pl.col("discarded"))
        .group_by("deal")
        .agg(pl.len().alias("rows"), pl.col("delta").n_unique().alias("deltas"), pl.col("delta").first(),
             pl.col("run_delta").first(), pl.col("passed").first().alias("basic_passed"),
             pl.col("hand_final").first().alias("basic_hand"),
             pl.col("option").min().alias("basic_option"))  # fmt: skip
        .collect()
    )
    missing = len(deals) - matched.height
    split = matched.filter(pl.col("deltas") > 1).height
    off = matched.filter(pl.col("delta") != pl.col("run_delta")).height
    if missing or split or off:
        raise ValueError(f"basic's choice: {missing} deals without a matching branch row, {split} with matching rows "
                         f"of different deltas, {off} whose delta differs from the run's: are {BRANCH} and {RUN} "
                         "the same deals (seed, rules, policies)?")  # fmt: skip
    return matched.select("deal", (-pl.col("delta").cast(pl.Float64)).alias("g_basic"), "basic_passed", "basic_hand",
                          "basic_option", pl.col("rows").alias("basic_rows")).sort("deal")  # fmt: skip


def same_deals(ctx: Context, a: str, b: str, allowed: tuple[str, ...] = ()) -> None:
    """Raise ValueError unless datasets ``a`` and ``b`` share seed, policies and rules (but
    the rule options ``allowed`` to differ): only then are their deals the same deck orders."""
    ra, rb = ctx.manifest(a)["run"], ctx.manifest(b)["run"]
    diff = [k for k in ("seed", "policies") if ra[k] != rb[k]]
    diff += [f"rules.{k}" for k in ra["rules"] if k not in allowed and ra["rules"][k] != rb["rules"].get(k)]
    if diff:
        raise ValueError(f"{a} and {b} are not the same deals: they differ in {', '.join(diff)}")


def exchange_table(ctx: Context) -> pl.DataFrame:
    """Every branched deal of ``branch-4p`` with class dimensions, canonical gains and basic's choice."""
    same_deals(ctx, BRANCH, RUN)
    branch = ctx.scan(BRANCH)
    hands = with_features(deal_hands(branch))
    df = canonical_gains(branch, hands)
    return df.join(basic_choice(branch, ctx.scan(RUN), df["deal"]), on="deal", how="left")


# ---- classes with back-off -------------------------------------------------------------
def assign_classes(df: pl.DataFrame, levels: tuple[tuple[str, ...], ...], min_deals: int) -> pl.DataFrame:
    """``df`` plus ``level`` (index into ``levels``) and, for every dimension of the finest
    level, its value or null where the deal's class merges it (shown as OTHER).

    Fine to coarse: a deal joins the class of the finest level that holds at least
    ``min_deals`` of the deals not yet placed; what is left at the coarsest level stays
    there whatever its size. Class sizes use no outcome, so both halves may count them.
    """
    dims = list(levels[-1])
    left = df.with_row_index("_row")
    placed = []
    for level in range(len(levels) - 1, -1, -1):
        keys = list(levels[level])
        sizes = left.group_by(keys).len()
        big = sizes if level == 0 else sizes.filter(pl.col("len") >= min_deals)
        take = left.join(big.select(keys), on=keys, how="semi", nulls_equal=True)
        merged = [pl.lit(None, dtype=df.schema[d]).alias(d) for d in dims if d not in keys]
        placed.append(take.with_columns(*merged, pl.lit(level, pl.Int8).alias("level")))
        left = left.join(big.select(keys), on=keys, how="anti", nulls_equal=True)
    return pl.concat(placed).sort("_row").drop("_row")


def half(df: pl.DataFrame, even: bool) -> pl.DataFrame:
    """The even (selection) or odd (evaluation) deals."""
    return df.filter((pl.col("deal") % 2 == 0) == even)


def best_actions(df: pl.DataFrame, keys: list[str], actions: tuple[str, ...], name: str = "best") -> pl.DataFrame:
    """Per class of ``keys``: the action of ``actions`` with the highest mean gain in ``df``
    (first in order on a tie; an action unavailable in a class, all-null, is never chosen).
    Columns: ``keys``, ``name``."""
    means = df.group_by(keys).agg(pl.col(gain_col(a)).mean().alias(a) for a in actions)
    filled = means.select(keys + [pl.col(a).fill_null(-np.inf).fill_nan(-np.inf) for a in actions])
    idx = pl.concat_list(list(actions)).list.arg_max()
    return filled.select(*keys, idx.replace_strict(list(range(len(actions))), list(actions)).alias(name))


def chosen(action_col: str, actions: tuple[str, ...], prefix: str = "g_") -> pl.Expr:
    """Per deal, the column ``<prefix><action>`` of the action named in ``action_col``."""
    expr = pl.lit(None, dtype=pl.Float64 if prefix == "g_" else pl.UInt64)
    for a in actions:
        expr = pl.when(pl.col(action_col) == a).then(pl.col(f"{prefix}{a}")).otherwise(expr)
    return expr


def apply_table(
    df: pl.DataFrame, table: pl.DataFrame, keys: list[str], name: str, actions: tuple[str, ...]
) -> pl.DataFrame:
    """``df`` plus the action ``name`` of its class in ``table`` and its gain ``g_<name>``
    and final hand ``h_<name>``."""
    out = df.join(table, on=keys, how="left", nulls_equal=True)
    if out[name].null_count():
        raise ValueError(f"{out[name].null_count()} deals fall in a class the table has no action for")
    return out.with_columns(chosen(name, actions).alias(gain_col(name)),
                            chosen(name, actions, "h_").alias(hand_col(name)))  # fmt: skip


def strategy(df: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The class table chosen on the even deals: ``keys``, ``best`` (any action) and
    ``best_x`` (the best exchange, of any number of cards)."""
    even = half(df, even=True)
    best_x = best_actions(even, keys, EXCHANGES, "best_x")
    return best_actions(even, keys, ACTIONS).join(best_x, on=keys, nulls_equal=True)


def held_out(df: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The odd deals with the even-chosen ``best`` and ``best_x`` of their class applied:
    adds ``g_best``, ``h_best``, ``g_best_x``, ``h_best_x`` and, given basic's choice,
    ``follows`` (basic ended with the same hand as the table: both passed, or both played
    the same final hand)."""
    table = strategy(df, keys)
    odd = apply_table(half(df, even=False), table.select(*keys, "best"), keys, "best", ACTIONS)
    odd = apply_table(odd, table.select(*keys, "best_x"), keys, "best_x", EXCHANGES)
    if "basic_passed" not in odd.columns:
        return odd
    same = pl.when(pl.col("best") == PASS).then(pl.col("basic_passed")).otherwise(
        ~pl.col("basic_passed") & (pl.col("basic_hand") == pl.col("h_best")))  # fmt: skip
    return odd.with_columns(same.alias("follows"))


def long_values(df: pl.DataFrame, keys: list[str], values: dict[str, pl.Expr]) -> pl.DataFrame:
    """One row per (deal, what) with ``keys``, ``what`` and ``value``; null values dropped."""
    parts = [df.select(*keys, pl.lit(w).alias("what"), e.cast(pl.Float64).alias("value")) for w, e in values.items()]
    return pl.concat(parts).drop_nulls("value")


def diff_values(minus: str) -> dict[str, pl.Expr]:
    """Paired per-deal differences of every canonical action minus action ``minus``."""
    return {a: pl.col(gain_col(a)) - pl.col(gain_col(minus)) for a in ACTIONS if a != minus}


def class_means(df: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Per class (all deals): n, mean gain of standing pat, and each other action's paired
    gain over standing pat (``what``: action; n, mean, lo, hi)."""
    values = {STAND: pl.col(gain_col(STAND)), **diff_values(STAND)}
    return mean_by(long_values(df, keys, values), keys + ["what"], pl.col("value"))


def estimate(values: pl.Series | np.ndarray) -> Estimate:
    """Mean with its 95% interval of a sample (nulls dropped)."""
    x = values.drop_nulls().to_numpy() if isinstance(values, pl.Series) else np.asarray(values)
    return mean_estimate(x)


def share(flags: pl.Series) -> Estimate:
    """The proportion of true flags with its 95% Wilson interval (nulls dropped)."""
    x = flags.drop_nulls()
    return wilson(int(x.sum()), x.len())


# ---- wording ---------------------------------------------------------------------------
def dim_text(dim: str, value) -> str:
    """One class dimension's value as the page shows it."""
    if value is None:
        return OTHER
    if dim == ACES:
        return "2+" if value >= MAX_ACES else str(value)
    if dim == TRUMPS:
        return "3+" if value >= MAX_TRUMPS else str(value)
    if dim == TOP:
        return {TOP_NONE: "–", TOP_LOW: "10 or lower", TOP_MID: "Q/J", TOP_HIGH: "A/K"}[value]
    if dim == LONGEST:
        return f"{value}+" if value >= MAX_LONGEST else ("≤2" if value <= MIN_LONGEST else str(value))
    if dim == KINGS:
        return "1+" if value >= MAX_KINGS else str(value)
    return "yes" if value else "no"


DIM_HEADS = {ACES: "aces", TRUMPS: "trumps", TOP: "top trump", DEALER: "dealer", JACK_PAIR: "jack pair",
             LONGEST: "longest suit", KINGS: "plain kings"}  # fmt: skip


def class_columns(df: pl.DataFrame, dims: list[str]) -> pl.DataFrame:
    """``df`` sorted by the dimensions ``dims`` (merged ones last), each replaced by its page
    text under its page heading, first."""
    text = [pl.col(d).map_elements(lambda v, d=d: dim_text(d, v), return_dtype=pl.Utf8, skip_nulls=False)
            .alias(DIM_HEADS[d]) for d in dims]  # fmt: skip
    return df.sort(dims, nulls_last=True).select(*text, *[c for c in df.columns if c not in dims])


def est_text(est: Estimate, digits: int = 2) -> str:
    """``value [lo, hi]``, or a dash without data."""
    return "–" if est.n == 0 else fmt(est, digits)


def cell_text(row: dict, digits: int = 2) -> str:
    """A mean_by row as ``value [lo, hi]``."""
    return est_text(row_estimate(row), digits)


def class_legend(dims: list[str]) -> str:
    """The hand-class definitions of ``dims`` as a Markdown list."""
    return "\n".join(f"- *{DIM_HEADS[d]}*: {CLASS_WORDS[d]}" for d in dims)


def mark(est: Estimate) -> str:
    """``value [lo, hi]`` with a ✓ when the interval excludes 0."""
    return est_text(est) + (" ✓" if est.n and clear(est) else "")


# ---- the page --------------------------------------------------------------------------
def per_class_held_out(odd: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Per class on the odd deals: ``odd deals``, ``best``, ``best_x`` and the paired gains
    ``best − stand``, ``best − basic``, ``best exchange − stand`` as ``value [lo, hi]`` text."""
    values = {"best − stand": pl.col("g_best") - pl.col(gain_col(STAND)),
              "best − basic": pl.col("g_best") - pl.col("g_basic"),
              "best exchange − stand": pl.col("g_best_x") - pl.col(gain_col(STAND))}  # fmt: skip
    index = keys + ["best", "best_x"]
    m = mean_by(long_values(odd, index, values), index + ["what"], pl.col("value"))
    m = m.with_columns(pl.struct("mean", "lo", "hi", "n").map_elements(cell_text, return_dtype=pl.Utf8).alias("text"))
    wide = m.pivot(on="what", index=index, values="text")
    n = m.filter(pl.col("what") == "best − stand").select(*keys, pl.col("n").alias("odd deals"))
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
    "weakest first ({short} of {deals} deals had a talon short of five)."
)
SELECTION_TEXT = (
    "*Choosing without flattering.* Each class's best action is chosen on the even-numbered deals and every gain of "
    "a chosen action is measured on the odd-numbered deals only, so the table's value is not inflated by picking the "
    "luckiest option. Differences are per deal (the same deal under two actions), with normal 95% intervals."
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
    odd = held_out(df, dims)
    vs_basic = estimate(odd["g_best"] - odd["g_basic"])
    x_stand = estimate(odd["g_best_x"] - odd[gain_col(STAND)])
    rule = estimate(odd[gain_col(PLAIN)] - odd["g_basic"])
    same = odd.select((pl.col("best") != PASS) & (pl.col(hand_col("best")) == pl.col(hand_col(PLAIN))))[:, 0]
    page.answer = (
        f"Following the strategy table below instead of `basic`'s own exchange is worth {fmt(vs_basic)} points per "
        f"deal (n = {fmt_n(vs_basic.n)} held-out deals, paired 95% CI), and the table's best exchange beats standing "
        f"pat by {fmt(x_stand)} points per deal. In {fmt(share(same), 1, percent=True)} of the deals the table "
        f"says what one simple rule says, *exchange every plain card but the aces*, which alone is worth {fmt(rule)} "
        "points per deal over `basic`."
    )
    if not clear(vs_basic):
        page.answer += " The gain over `basic` is not statistically clear at this sample size."
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
    rows = [("best action of the class − stand pat", estimate(odd["g_best"] - odd[gain_col(STAND)])),
            ("best exchange of the class − stand pat", x_stand),
            ("best action of the class − `basic`'s choice", vs_basic),
            ("`basic`'s choice − stand pat", estimate(odd["g_basic"] - odd[gain_col(STAND)])),
            ("exchange plain cards but aces, every hand − `basic`'s choice", rule)]  # fmt: skip
    page.table(pl.DataFrame({"comparison (held-out deals)": [r[0] for r in rows], "deals": [r[1].n for r in rows],
                             "gain per deal [95% CI]": [mark(r[1]) for r in rows]}),  # fmt: skip
               caption="Paired gains per deal on the odd (held-out) deals; ✓ = the interval excludes 0. The last "
                       "row applies one fixed rule to every hand, with no choice by class.")  # fmt: skip
    follows = share(odd["follows"])
    page.text(f"`basic` already ends with the table's hand in {fmt(follows, 1, percent=True)} of the held-out deals.")
    levels_table(page, base)

    page.heading("The strategy table")
    strategy_table(page, odd, dims)
    page.heading("Every action, by class")
    actions_table(page, df, dims)
    figure(page, base, out)
    return page


def strategy_table(page: Page, odd: pl.DataFrame, dims: list[str]) -> None:
    """Per class: the even-chosen best action and best exchange, measured on the odd deals."""
    words = [pl.col("best").replace_strict(ACTION_WORDS).alias("best action"),
             pl.col("best_x").replace_strict(ACTION_WORDS).alias("best exchange")]  # fmt: skip
    table = class_columns(per_class_held_out(odd, dims).with_columns(words), dims)
    cols = ["odd deals", "best action", "best − stand", "best − basic", "best exchange", "best exchange − stand"]
    page.table(table.select(*[DIM_HEADS[d] for d in dims], *cols),
               caption="Per class: the best action (chosen on the even deals) and, on the odd deals, its paired gain "
                       "over standing pat and over `basic`'s choice; the best exchange and its gain over standing "
                       "pat.")  # fmt: skip
    page.text(chance_misses(3 * table.height))


def actions_table(page: Page, df: pl.DataFrame, dims: list[str]) -> None:
    """Per class on all deals: the gain of standing pat and every other action's paired gain over it."""
    means = class_means(df, dims)
    text = pl.struct("mean", "lo", "hi", "n").map_elements(lambda r: cell_text(r, 1), return_dtype=pl.Utf8)
    means = means.with_columns(text.alias("t"))
    n = means.filter(pl.col("what") == STAND).select(*dims, pl.col("n").alias("deals"))
    wide = class_columns(means.pivot(on="what", index=dims, values="t").join(n, on=dims, nulls_equal=True), dims)
    heads = {STAND: "stand pat (gain)", **{a: f"{ACTION_WORDS[a]} − stand" for a in ACTIONS if a != STAND}}
    shown = [a for a in heads if a in wide.columns]
    page.table(wide.select(*[DIM_HEADS[d] for d in dims], "deals", *shown).rename({a: heads[a] for a in shown}),
               caption="All deals: the mean gain of standing pat, and each other action's paired gain over standing "
                       "pat (a dash: the action is not open to the class).")  # fmt: skip
    page.text(chance_misses(int(means.height)))


def levels_table(page: Page, df: pl.DataFrame) -> None:
    """The table's held-out value with coarser class definitions (``df``: before assign_classes)."""
    rows = []
    for level in range(len(Q2_LEVELS)):
        keys = list(Q2_LEVELS[level])
        coarse = assign_classes(df, Q2_LEVELS[: level + 1], MIN_CELL_DEALS)
        odd = held_out(coarse, keys)
        rows.append({"classes by": ", ".join(DIM_HEADS[k] for k in keys),
                     "classes": coarse.select(keys).unique().height,
                     "best − basic": mark(estimate(odd["g_best"] - odd["g_basic"])),
                     "best − stand": mark(estimate(odd["g_best"] - odd[gain_col(STAND)]))})  # fmt: skip
    page.table(pl.DataFrame(rows), caption="The same held-out comparison with coarser hand classes (each adds one "
               "feature to the one above): what each feature of the hand adds to the table.")  # fmt: skip


def class_label(a: int, t: int, top: int) -> str:
    """``1 ace, 2 trumps (top Q/J)``: a class of the figure."""
    text = f"{dim_text(ACES, a)} ace{'' if a == 1 else 's'}, {dim_text(TRUMPS, t)} trump{'' if t == 1 else 's'}"
    return text + (f" (top {dim_text(TOP, top)})" if t else "")


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
    fig, ax = plt.subplots(figsize=(7, 0.32 * classes.height + 1.5))
    lim = min(HEAT_LIMIT, np.nanmax(np.abs(grid)) or 1.0)
    im = ax.imshow(grid, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
    for i, j in zip(*np.nonzero(~np.isnan(grid))):
        ax.text(j, i, num(grid[i, j], 1), ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(acts)), [ACTION_WORDS[a] for a in acts], rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(classes.height), [class_label(*row) for row in classes.iter_rows()], fontsize=7)
    fig.colorbar(im, ax=ax, label=f"gain over standing pat (points per deal; colours stop at ±{HEAT_LIMIT:g})")
    page.figure(fig, out, "actions", "Mean gain of each action over standing pat (paired, all deals), by aces and "
                "trumps dealt; blue = better than standing pat. Blank: not open (a pass with an ace).")  # fmt: skip
