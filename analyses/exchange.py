"""The exchange machinery questions 2 and 4 share: per-deal gains of canonical actions, hand
classes, and choosing on one half of the deals while measuring on the other.

Reads ``branch-4p``-like data: for each deal, seat 0's exchange replayed once per option
the rules open to him (pass without a dealt ace, R4.1; stand; every discard set the talon
allows, R4.4), everyone else on ``basic``, the same deck order; and ``deals-4p`` (the same
deals played by ``basic`` throughout) for ``basic``'s own choice.

* *Canonical actions.* A discard set is hand-specific, so the tables speak in actions that
  mean the same for every hand: pass, stand, "exchange the k weakest" (k = 1..5, weakest
  as :func:`rams_sim.hands.weakest_discards` orders them), and two rules that are such an
  exchange with a hand-specific k: "exchange every plain card below a king" and "exchange
  every plain card but aces" (as many as the talon serves when it is short).
  :func:`exchange_table` gives one row per deal with the gain (``g_<action>``) and final
  hand (``h_<action>``) of each, the class dimensions of the dealt hand and ``basic``'s
  own choice (``g_basic``, ``basic_passed``, ``basic_hand``, ``basic_option``).
* *Hand classes* (:func:`with_features`, :func:`assign_classes`): aces, trumps and the top
  trump, dealer, jack pair, longest suit, plain kings; sparse classes merged into coarser
  ones (shown as OTHER).
* *Choosing without flattering* (:func:`half`, :func:`best_actions`, :func:`apply_table`):
  a class's best action is chosen on the *selection* half of the deals and measured on the
  *held-out* half. The halves are split by a hash of the deal number, not by its parity:
  the dealer rotates with the deal number (R3, ``deal mod n``), so a parity split would put
  seat 0 in some positions only in one half (at 4 players he deals only in even deals).
* *Wording* of classes and cells for the pages (:func:`class_columns`, :func:`cell_text`, :func:`mark`).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from rams_sim import strategy_table as T
from rams_sim.cards import ACE, HAND_SIZE, JACK, KING
from rams_sim.hands import hand_features, weakest_discards
from rams_sim.kernels.codes import OPTION_PASS
from rams_sim.kernels.rng import MIX1, MIX2
from rams_sim.runs.summary import Estimate

from .common import Context, clear, fmt, mean_estimate, row_estimate, unpaired_difference
from .stats import identical

BRANCH = "branch-4p"
RUN = "deals-4p"
# the same with `expert` at every seat (seat 0 after his branched exchange too): does the page's answer hold?
BRANCH_EXPERT, RUN_EXPERT = "branch-4p-expert", "deals-4p-expert"
# ... and with the search at every seat, on fewer deals (its players' exchange measured against the shipped table)
BRANCH_SEARCH, RUN_SEARCH = "branch-4p-pimc", "deals-4p-pimc"
SEAT = 0  # the branched seat of every branch dataset
OPTION_STAND = 0  # the branch option code of standing pat (BRANCH_COLUMNS); a pass is OPTION_PASS

# ---- canonical actions -----------------------------------------------------------------
PASS, STAND = "pass", "stand"
WEAKEST = tuple(f"x{k}" for k in range(1, HAND_SIZE + 1))  # x<k>: exchange the k weakest
LOW, PLAIN = "low", "plain"  # exchange every plain card below a king / every plain card but an ace
EXCHANGES = (PLAIN, LOW, *WEAKEST)  # on a tie of means the earlier wins: the rules first
PLAYS = (STAND, *EXCHANGES)  # every canonical action that plays the deal
ACTIONS = (PASS, *PLAYS)
ACTION_WORDS = {PASS: "pass", STAND: "stand pat", **{f"x{k}": f"exchange {k}" for k in range(1, HAND_SIZE)},
                f"x{HAND_SIZE}": f"exchange all {HAND_SIZE} (aces too)",
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
DEALER_SEAT = "dealer_seat"  # the deal's dealer (the class dimension DEALER says whether it is seat 0)
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
MIN_CELL_DEALS = 2_000  # deals (both halves) a class needs for a row of its own
OTHER = "other"  # a merged dimension: every hand of the row's other features not in a finer row


def deal_hands(branch: pl.LazyFrame) -> pl.DataFrame:
    """One row per branched deal (sorted): ``deal``, DEALER_SEAT (the dealer), ``trump``, ``hand_dealt`` and
    ``is_dealer`` (seat 0 deals). Taken from the stand rows, which every deal has."""
    return (
        branch.filter(pl.col("option") == OPTION_STAND)
        .select("deal", pl.col("dealer").alias(DEALER_SEAT), "trump", "hand_dealt",
                (pl.col("dealer") == pl.col("seat")).alias("is_dealer"))
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
    served = [pl.when(pl.col(gain_col(a)).is_not_null()).then(k).otherwise(0) for k, a in enumerate(WEAKEST, start=1)]
    k_max = pl.max_horizontal(served).cast(pl.Int8).alias("k_max")
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


def exchange_table(ctx: Context, branch_name: str = BRANCH, run_name: str = RUN) -> pl.DataFrame:
    """Every branched deal of ``branch_name`` (default ``branch-4p``) with class dimensions, canonical
    gains and the run's own choice (``run_name``: the same deals with the same policies; its policy's
    choice lands in the ``*_basic`` columns, basic's by default)."""
    same_deals(ctx, branch_name, run_name)
    branch = ctx.scan(branch_name)
    hands = with_features(deal_hands(branch))
    df = canonical_gains(branch, hands)
    return df.join(basic_choice(branch, ctx.scan(run_name), df["deal"]), on="deal", how="left")


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


SPLIT_SALT = np.uint64(0x5345_4C45_4354_494F)  # "SELECTIO": the halves' own salt, apart from the deals' keys


def held_out_mask(deal: np.ndarray) -> np.ndarray:
    """Whether each deal number (int array) is in the held-out half: the low bit of splitmix64's
    mix (:func:`rams_sim.kernels.rng.mix64`, here on arrays) of the deal number and a salt. About
    half of the deals of every position and residue mod n, independently of the dealer."""
    z = deal.astype(np.uint64) ^ SPLIT_SALT
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    z ^= z >> np.uint64(31)
    return (z & np.uint64(1)) == np.uint64(1)


PLAYERS = 4  # the table of every branch dataset (analyses/data.py)


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
# The one numbering of positions in data and CSVs (README "Positions"): ``position`` = (seat − dealer − 1) mod
# players, 0 = first hand (the dealer's left, first to speak, R4, leads the first trick, R6.1) .. players − 1 = the
# dealer; rams_sim.runs.aggregate's and rams-sim effect's `position` key and the table policy's CSV count the same way.
POSITION_NUMBERING = ("position = (seat − dealer − 1) mod players: 0 = first hand (the dealer's left), "
                      "players − 1 = the dealer")  # fmt: skip


def position_words(players: int = PLAYERS) -> list[str]:
    """The positions in words, indexed by ``position`` (:data:`POSITION_NUMBERING`): first hand (the
    dealer's left, first to speak, R4), second hand, … and the dealer (last: he may take the turned-up
    card, R4.3)."""
    return [f"{ORDINALS[p]} hand" for p in range(players - 1)] + ["dealer"]


def seat_position(dealer: pl.Series, players: int = PLAYERS) -> np.ndarray:
    """int64 per deal: seat 0's position in the order of speaking, 0 the dealer's left .. ``players`` − 1
    the dealer (the ``table`` policy's positions), from each deal's ``dealer`` seat."""
    return (SEAT - dealer.to_numpy().astype(np.int64) - 1) % players


def by_position(held: pl.DataFrame, comparisons: dict[str, pl.Expr], players: int = PLAYERS) -> list[dict]:
    """Per position of seat 0 (:func:`position_words`, from the DEALER_SEAT column), then over all:
    a row ``{"position": words, "deals": n, name: Estimate, ...}`` with the mean of each of
    ``comparisons`` (name -> per-deal expression) on those deals."""
    place = seat_position(held[DEALER_SEAT], players)
    rows = []
    for p, words in [*enumerate(position_words(players)), (-1, "every position")]:
        sub = held if p < 0 else held.filter(pl.Series(place == p))
        ests = {name: mean_estimate(sub.select(expr).to_series()) for name, expr in comparisons.items()}
        rows.append({"position": words, "deals": sub.height, **ests})
    return rows


def position_table(rows: list[dict]) -> pl.DataFrame:
    """:func:`by_position`'s rows as a page table (estimates as text with ✓ where clear of 0)."""
    return pl.DataFrame({k: [r[k] if k in ("position", "deals") else mark(r[k]) for r in rows] for k in rows[0]})


def against_basic(basic: Estimate, expert: Estimate) -> str:
    """How a gain measured again with `expert` players compares (pages 2 and 4): whether it still pays
    (its interval clear of 0) and whether it is clearly smaller than the gain against `basic`
    (independent estimates: their difference's interval clear of 0)."""
    pays = "it still pays" if clear(expert) else "not clearly more than nothing"
    less = clear(unpaired_difference(basic, expert)) and expert.value < basic.value
    return pays + (", but clearly less than against `basic`." if less else ".")


def with_shipped_table(df: pl.DataFrame, players: int = PLAYERS) -> pl.DataFrame:
    """``df`` (with the class dimensions and DEALER_SEAT) plus the shipped ``table`` policy's cell for
    seat 0's dealt hand at his position (:mod:`rams_sim.strategy_table`): ``table_passes`` and
    ``table_play`` (an action of PLAYS), and ``g_table``, the gain of what that policy would do (its
    play where a pass is not open, R4.1)."""
    codes = T.load().codes[players]
    place = seat_position(df[DEALER_SEAT], players)
    cls = T.class_index(df[ACES].to_numpy().astype(np.int64), df[TRUMPS].to_numpy().astype(np.int64),
                        df[TOP].to_numpy().astype(np.int64), df[JACK_PAIR].to_numpy().astype(np.int64),
                        df[LONGEST].to_numpy().astype(np.int64))  # fmt: skip
    code = codes[place, cls].astype(np.int64)
    out = df.with_columns(pl.Series("table_passes", code >= T.PASS_FLAG),
                          pl.Series("table_play", np.array(T.PLAYS)[code % T.PASS_FLAG]))  # fmt: skip
    return out.with_columns(cell_gain(pl.col("table_passes"), pl.col("table_play")).alias("g_table"))


def cell_action(passes: pl.Expr, play: pl.Expr) -> pl.Expr:
    """Per deal, a strategy-table cell's choice: the pass where the cell ``passes`` and a pass was open
    (R4.1, ``g_pass`` not null), else its ``play`` (an action of PLAYS)."""
    return pl.when(passes & pl.col(gain_col(PASS)).is_not_null()).then(pl.lit(PASS)).otherwise(play)


def cell_gain(passes: pl.Expr, play: pl.Expr) -> pl.Expr:
    """Per deal, the gain of a strategy-table cell's choice (:func:`cell_action`)."""
    return chosen(cell_action(passes, play), ACTIONS)


def half(df: pl.DataFrame, select: bool) -> pl.DataFrame:
    """The selection half (``select``) or the held-out half of the deals of ``df`` (:func:`held_out_mask`)."""
    mask = held_out_mask(df["deal"].to_numpy())
    return df.filter(pl.Series(~mask if select else mask))


def best_actions(df: pl.DataFrame, keys: list[str], actions: tuple[str, ...], name: str = "best") -> pl.DataFrame:
    """Per class of ``keys``: the action of ``actions`` with the highest mean gain in ``df``
    (first in order on a tie; an action unavailable in a class, all-null, is never chosen).
    Columns: ``keys``, ``name``."""
    means = df.group_by(keys).agg(pl.col(gain_col(a)).mean().alias(a) for a in actions)
    filled = means.select(keys + [pl.col(a).fill_null(-np.inf).fill_nan(-np.inf) for a in actions])
    idx = pl.concat_list(list(actions)).list.arg_max()
    return filled.select(*keys, idx.replace_strict(list(range(len(actions))), list(actions)).alias(name))


def chosen(action: str | pl.Expr, actions: tuple[str, ...], prefix: str = "g_") -> pl.Expr:
    """Per deal, the column ``<prefix><action>`` of the action named in column ``action`` (or by an expression)."""
    named = pl.col(action) if isinstance(action, str) else action
    expr = pl.lit(None, dtype=pl.Float64 if prefix == "g_" else pl.UInt64)
    for a in actions:
        expr = pl.when(named == a).then(pl.col(f"{prefix}{a}")).otherwise(expr)
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


def long_values(df: pl.DataFrame, keys: list[str], values: dict[str, pl.Expr]) -> pl.DataFrame:
    """One row per (deal, what) with ``keys``, ``what`` and ``value``; null values dropped."""
    parts = [df.select(*keys, pl.lit(w).alias("what"), e.cast(pl.Float64).alias("value")) for w, e in values.items()]
    return pl.concat(parts).drop_nulls("value")


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
    return df.sort(dims, nulls_last=True, maintain_order=True).select(*text, *[c for c in df.columns if c not in dims])


IDENTICAL = "0 (identical)"  # a difference exactly 0 in every deal: zero by construction, not a measurement


def est_text(est: Estimate, digits: int = 2) -> str:
    """``value [lo, hi]``, a dash without data, or :data:`IDENTICAL` where every deal's difference is 0
    (the two choices compared are the same in every deal: a zero by construction)."""
    if est.n == 0:
        return "–"
    return IDENTICAL if identical(est) else fmt(est, digits)


def cell_text(row: dict, digits: int = 2) -> str:
    """A mean_by row as ``value [lo, hi]``."""
    return est_text(row_estimate(row), digits)


def class_legend(dims: list[str]) -> str:
    """The hand-class definitions of ``dims`` as a Markdown list."""
    return "\n".join(f"- *{DIM_HEADS[d]}*: {CLASS_WORDS[d]}" for d in dims)


def mark(est: Estimate) -> str:
    """``value [lo, hi]`` with a ✓ when the interval excludes 0."""
    return est_text(est) + (" ✓" if est.n and clear(est) else "")
