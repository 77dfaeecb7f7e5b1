"""The table policy's analyses on hand-made tables: the best response of analyses/table_policy.py,
the shipped table's lookup (analyses/exchange.with_shipped_table) and page 4's decision gain."""

from __future__ import annotations

import numpy as np
import polars as pl

from analyses import exchange as ex
from analyses import q4_pass as q4
from analyses import table_policy as tp
from rams_sim import strategy_table as T

ACTIONS = ex.ACTIONS


def gains_frame(n: int, best: str, pass_open: bool, position: int = 0, aces: int = 0) -> pl.DataFrame:
    """``n`` deals of one class at ``position`` where ``best`` gains 1 and every other action 0
    (the pass null where it is not open)."""
    cols = {ex.gain_col(a): np.where(np.arange(n) >= 0, 1.0 if a == best else 0.0, 0.0) for a in ACTIONS}
    df = pl.DataFrame({"deal": np.arange(n, dtype=np.int64), tp.POSITION: np.full(n, position, np.int8),
                       ex.ACES: np.full(n, aces, np.int8), ex.TRUMPS: np.full(n, 1, np.int8),
                       ex.TOP: np.full(n, 2, np.int8), ex.JACK_PAIR: np.zeros(n, np.int8),
                       ex.LONGEST: np.full(n, 3, np.int8), **cols})  # fmt: skip
    if not pass_open:
        df = df.with_columns(pl.lit(None, pl.Float64).alias(ex.gain_col(ex.PASS)))
    return df


def test_best_response_takes_each_groups_best_and_backs_off():
    """A class with enough deals takes its own best (x2 at position 1); a class the data hardly holds
    takes its coarser group's (here, by aces); a pass is chosen only where every deal could pass, and a
    passing cell keeps its best play for when it may not."""
    many = gains_frame(tp.MIN_GROUP, "x2", True, position=1)
    passing = gains_frame(tp.MIN_GROUP, ex.PASS, True, position=2)
    passing = passing.with_columns(pl.col(ex.gain_col("x4")) + 0.5)  # its best play is x4
    table = tp.best_response(pl.concat([many, passing]), players=4)
    assert table.height == 4 * T.N_CLASSES
    cell = table.filter((pl.col("position") == 1) & (pl.col("aces") == 0) & (pl.col("trumps") == 1)
                        & (pl.col("top") == 2) & (pl.col("jack_pair") == 0) & (pl.col("longest") == 3))  # fmt: skip
    assert cell.select("action", "play", "level").row(0) == ("x2", "x2", 0)
    cell = table.filter((pl.col("position") == 2) & (pl.col("trumps") == 1) & (pl.col("top") == 2)
                        & (pl.col("aces") == 0) & (pl.col("jack_pair") == 0) & (pl.col("longest") == 3))  # fmt: skip
    assert cell.select("action", "play").row(0) == ("pass", "x4")
    # position 0 holds no deals: its cell of the same class backs off to the class without position, where
    # pass and x2 tie on means over all 2,000 deals (0.5 each): the earlier in ACTIONS (pass) wins
    level = {keys: i for i, keys in enumerate(tp.LEVELS)}
    same = (pl.col("aces") == 0) & (pl.col("trumps") == 1) & (pl.col("top") == 2)
    other = table.filter((pl.col("position") == 0) & same).select("action", "level").unique()
    assert other.rows() == [("pass", level[(ex.ACES, ex.TRUMPS, ex.TOP)])]
    # ... and another class without an ace to its position's group of no-ace hands (positions 1, 2), or with
    # no deal at the position, to the group of every no-ace hand
    other = table.filter((pl.col("aces") == 0) & ~same).group_by("position").agg(pl.col("level").unique())
    got = {r["position"]: r["level"] for r in other.to_dicts()}
    assert got == {0: [level[(ex.ACES,)]], 1: [level[(ex.ACES, tp.POSITION)]], 2: [level[(ex.ACES, tp.POSITION)]],
                   3: [level[(ex.ACES,)]]}  # fmt: skip
    # hands with aces, of which the data holds none, take the action of every hand of the data
    assert table.filter(pl.col("aces") == 2)["level"].unique().to_list() == [len(tp.LEVELS) - 1]


def test_the_pass_is_never_chosen_where_it_is_not_open():
    """Hands dealt an ace (no pass, R4.1): even with the pass column holding a stray value the group
    of deals that could not all pass never passes."""
    df = gains_frame(tp.MIN_GROUP, ex.PASS, True, aces=1)
    df = df.with_columns(pl.when(pl.col("deal") == 0).then(None).otherwise(pl.col(ex.gain_col(ex.PASS)))
                         .alias(ex.gain_col(ex.PASS)))  # fmt: skip
    table = tp.best_response(df, players=4)
    assert ex.PASS not in table.filter(pl.col("aces") == 1)["action"].to_list()


def test_table_gain_uses_the_play_where_a_pass_is_not_open():
    """table_gain: the pass's gain where the cell passes and a pass was open, else the cell's play."""
    table = tp.best_response(pl.concat([gains_frame(tp.MIN_GROUP, ex.PASS, True)]), players=4)
    df = gains_frame(3, "stand", True).with_columns(pl.Series(ex.gain_col(ex.PASS), [5.0, None, 7.0]))
    df = df.with_columns(pl.lit(2.0).alias(ex.gain_col(table["play"][0])))
    assert tp.table_gain(df, table).to_list() == [5.0, 2.0, 7.0]


def test_with_shipped_table_reads_the_packages_cells():
    """Seat 0's cell at his position: (0 − dealer − 1) mod 4; g_table is that cell's action's gain."""
    shipped = T.load()
    rows = []
    for dealer in range(4):
        row = {ex.DEALER_SEAT: dealer, ex.ACES: 0, ex.TRUMPS: 0, ex.TOP: 0, ex.JACK_PAIR: False, ex.LONGEST: 2}
        row.update({ex.gain_col(a): float(i) for i, a in enumerate(ACTIONS)})
        rows.append(row)
    out = ex.with_shipped_table(pl.DataFrame(rows))
    for dealer, got in enumerate(out.to_dicts()):
        position = (0 - dealer - 1) % 4
        action, play = shipped.action(4, position, T.class_index(0, 0, 0, 0, 2))
        assert (got["table_passes"], got["table_play"]) == (action == T.PASS, play)
        assert got["g_table"] == float(ACTIONS.index(action))


def test_table_decision_gain_keeps_the_players_exchange_where_both_play():
    """Both play: 0; they passed and the table plays: play − pass; they played and the table passes:
    pass − their gain; both pass: 0."""
    df = pl.DataFrame({"basic_passed": [False, True, False, True], "table_passes": [False, False, True, True],
                       "table_play": ["x2", "x2", "x2", "x2"], "g_basic": [1.0, -3.0, 4.0, -3.0],
                       **{ex.gain_col(a): [0.0] * 4 for a in ex.PLAYS if a != "x2"},
                       ex.gain_col("x2"): [9.0, 9.0, 9.0, 9.0], ex.gain_col(ex.PASS): [-3.0] * 4})  # fmt: skip
    assert q4.table_decision_gain(df).to_list() == [0.0, 12.0, -7.0, 0.0]


def test_the_analyses_classes_are_the_policys():
    """The class the analyses give a dealt hand (analyses/exchange.with_features, from the features
    kernel) is the one the `table` policy looks up (kernels/policy.hand_class), on 5,000 random hands
    of each deck: the table found on page 2's classes is the table the policy plays."""
    from rams_sim import cards as C
    from rams_sim.kernels.policy import hand_class

    rng = np.random.default_rng(12)
    for deck in (24, 32, 36, 52):
        cards = np.array(C.cards_of(C.deck_mask(deck)))
        hands = np.array([sum(1 << int(c) for c in rng.choice(cards, 5, replace=False)) for _ in range(5_000)], np.uint64)
        trump = rng.integers(0, C.N_SUITS, hands.size).astype(np.int8)
        f = ex.with_features(pl.DataFrame({"hand_dealt": hands, "trump": trump, "is_dealer": np.zeros(hands.size, bool)}))
        ours = T.class_index(*(f[c].to_numpy().astype(np.int64) for c in (ex.ACES, ex.TRUMPS, ex.TOP, ex.JACK_PAIR,
                                                                           ex.LONGEST)))  # fmt: skip
        theirs = np.array([hand_class(np.uint64(h), int(t)) for h, t in zip(hands, trump)])
        assert (ours == theirs).all(), deck


def test_table_csv_gives_each_measured_cell_its_numbers():
    """Two deals in one cell (gains over standing pat 1 and 3) give estimate 2, n 2 in that cell's CSV row;
    every other row keeps its action and empty numbers, and the numeric columns are numbers."""
    from analyses import q2_table

    rows = []
    for d, gain in enumerate((1.0, 3.0)):
        row = {"deal": d, ex.DEALER_SEAT: 3, ex.ACES: 0, ex.TRUMPS: 0, ex.TOP: 0, ex.JACK_PAIR: False, ex.LONGEST: 2}
        row.update({ex.gain_col(a): gain for a in ACTIONS})
        row[ex.gain_col("stand")] = 0.0
        rows.append(row)
    measured = q2_table.cell_numbers(ex.with_shipped_table(pl.DataFrame(rows)))
    assert measured.select("players", "position", "estimate", "n").to_dicts() == [
        {"players": 4, "position": 0, "estimate": 2.0, "n": 2}]  # dealer 3: seat 0 speaks first
    out = q2_table.table_csv(pl.read_csv(T.SHIPPED), measured)
    assert out.height == pl.read_csv(T.SHIPPED).height
    cell = out.filter((pl.col("players") == 4) & (pl.col("position") == 0) & (pl.col("aces") == 0)
                      & (pl.col("trumps") == 0) & (pl.col("top") == 0) & (pl.col("jack_pair") == 0)
                      & (pl.col("longest") == 2))  # fmt: skip
    assert cell["estimate"].to_list() == [2.0] and cell["n"].to_list() == [2]
    assert out["estimate"].null_count() == out.height - 1
    assert all(out.schema[c].is_numeric() for c in ("estimate", "ci_low", "ci_high", "n"))
