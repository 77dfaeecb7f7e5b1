"""The ``table`` policy (rams_sim/strategy_table.py, rams_sim/policies.py): its classes and
actions typed from the docs, its table files, both engines deal by deal on random tables,
and clear errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_differential import assert_same_deals
from typer.testing import CliRunner

from rams_sim import cards as C
from rams_sim import engine, reference
from rams_sim import strategy_table as T
from rams_sim.cards import mask_of, parse_cards
from rams_sim.cli.main import app
from rams_sim.kernels.policy import hand_class, weakest
from rams_sim.policies import TABLE_BASE, PolicySpec, pack_policies
from rams_sim.rules import Rules


def random_table(path, seed: int, sizes=range(C.MIN_SEATS, C.MAX_SEATS + 1), pass_share: float = 0.3) -> str:
    """A table file with a random action in every cell (a pass in about ``pass_share`` of them)."""
    rng = np.random.default_rng(seed)
    rows = []
    for n in sizes:
        for p in range(n):
            for cls in T.all_classes():
                play = T.PLAYS[rng.integers(len(T.PLAYS))]
                action = T.PASS if rng.random() < pass_share else play
                rows.append(dict(zip(("players", "position", *T.DIMS), (n, p, *cls)), action=action, play=play))
    T.write(rows, path)
    return str(path)


def _mask(text: str) -> np.uint64:
    return np.uint64(mask_of(parse_cards(text)))


# ---- the classes and actions, typed from the strategy_table docstring ---------------------
# (hand, trump suit, its class as (aces, trumps, top, jack_pair, longest))
HANDS = [
    ("A♥ K♥ J♠ J♣ 7♦", C.HEARTS, (1, 2, 3, 1, 2)),  # two trumps, the king the highest; J♠ J♣ a black pair
    ("A♠ A♣ A♦ 9♥ 7♥", C.SPADES, (2, 1, 3, 0, 2)),  # three aces count as "2 or more"; A♠ is the top trump
    ("7♠ 8♠ 9♠ 10♠ Q♠", C.SPADES, (0, 3, 2, 0, 4)),  # five trumps count as 3+; the queen is top; a rams is 4+
    ("7♠ 8♠ 9♠ 10♠ Q♦", C.HEARTS, (0, 0, 0, 0, 4)),  # no trump; four of a suit
    ("10♦ 9♦ 8♣ 7♥ 7♠", C.DIAMONDS, (0, 2, 1, 0, 2)),  # the ten is "ten or lower"
    ("J♦ J♥ K♣ 8♣ 7♣", C.CLUBS, (0, 3, 3, 1, 3)),  # the red pair; K♣ top of three clubs
    ("J♦ 9♦ K♣ 8♠ 7♥", C.DIAMONDS, (0, 2, 2, 0, 2)),  # the jack is "jack or queen"
]


@pytest.mark.parametrize("text, trump, dims", HANDS)
def test_hand_class_of_both_engines(text, trump, dims, tmp_path):
    """The kernel's class index and the reference's cell are the documented class."""
    assert hand_class(_mask(text), trump) == T.class_index(*dims)
    table = random_table(tmp_path / "t.csv", 3, sizes=(4,))
    policy = reference.policy.policy_for(PolicySpec.parse(f"table:file={table}"), 0, 0)
    strategy = T.load(table)
    assert policy.cell(parse_cards(text), trump, 2, 4) == strategy.action(4, 2, T.class_index(*dims))


def test_class_index_enumerates_every_class_once():
    """N_CLASSES classes, index 0 .. N_CLASSES - 1 in all_classes' order."""
    idx = [T.class_index(*c) for c in T.all_classes()]
    assert idx == list(range(T.N_CLASSES)) and T.N_CLASSES == 288


# "Weakest first: plain (non-trump) cards other than aces by rank, then plain aces, then trumps by rank, ties by id"
WEAKEST = [
    ("A♥ K♥ J♠ J♣ 7♦", C.HEARTS, ["7♦", "J♠", "J♣", "K♥", "A♥"]),
    ("A♠ A♣ 9♥ 7♥ 2♦", C.HEARTS, ["2♦", "A♠", "A♣", "7♥", "9♥"]),
    ("K♠ K♦ 8♣ A♣ 10♣", C.CLUBS, ["K♠", "K♦", "8♣", "10♣", "A♣"]),
]


@pytest.mark.parametrize("text, trump, order", WEAKEST)
def test_weakest_order(text, trump, order):
    """The kernel's k weakest cards are the first k of the documented order."""
    hand = _mask(text)
    for k in range(C.HAND_SIZE + 1):
        assert weakest(hand, trump, k) == _mask(" ".join(order[:k])) if k else weakest(hand, trump, k) == 0


def test_table_discards_follow_the_actions(tmp_path):
    """One hand under every action, at the first position of 4 players, in both engines: the
    discards are the documented cards (low: plain below K; plain: plain but aces; x<k>: the k weakest)."""
    hand, trump = "A♥ K♠ J♠ 9♣ 7♦", C.HEARTS  # weakest: 7♦ 9♣ J♠ K♠ A♥; no trump but the ace
    expected = {"stand": "", "x1": "7♦", "x2": "7♦ 9♣", "x3": "7♦ 9♣ J♠", "x4": "7♦ 9♣ J♠ K♠",
                "x5": "7♦ 9♣ J♠ K♠ A♥", "low": "7♦ 9♣ J♠", "plain": "7♦ 9♣ J♠ K♠"}  # fmt: skip
    cls = T.class_index(1, 1, 3, 0, 2)
    for play, cards in expected.items():
        rows = [dict(zip(("players", "position", *T.DIMS), (4, p, *c)), action=play, play=play)
                for p in range(4) for c in T.all_classes()]  # fmt: skip
        path = tmp_path / f"{play}.csv"
        T.write(rows, path)
        spec = PolicySpec.parse(f"table:file={path}")
        policy = reference.policy.policy_for(spec, 0, 0)
        got = policy.choose_discard(parse_cards(hand), trump, False, 11, 0, 4)
        assert got == sorted(parse_cards(cards)) if cards else got == [], play
        assert T.load(str(path)).action(4, 0, cls) == (play, play)
        _, params, _ = pack_policies([spec] * 4)
        assert params[0, TABLE_BASE + cls] == T.PLAY_CODE[play]


def test_short_talon_takes_the_weakest(tmp_path):
    """R4.4: on a talon of two the table's x4 discards the two weakest."""
    rows = [dict(zip(("players", "position", *T.DIMS), (4, p, *c)), action="x4", play="x4")
            for p in range(4) for c in T.all_classes()]  # fmt: skip
    T.write(rows, tmp_path / "x4.csv")
    policy = reference.policy.policy_for(PolicySpec.parse(f"table:file={tmp_path / 'x4.csv'}"), 0, 0)
    assert policy.choose_discard(parse_cards("A♥ K♠ J♠ 9♣ 7♦"), C.HEARTS, False, 2, 1, 4) == sorted(parse_cards("7♦ 9♣"))


# ---- both engines, deal by deal -----------------------------------------------------------
@pytest.mark.parametrize("players", (2, 3, 4, 5, 7))
def test_engines_agree_on_random_tables(players, tmp_path):
    """Two different random tables and two other policies at one table: every deal the same in both engines."""
    a, b = random_table(tmp_path / "a.csv", players), random_table(tmp_path / "b.csv", 100 + players, pass_share=0.6)
    policies = [f"table:file={a}", f"table:file={b}", "expert", "basic", "table", "random", "table"][:players]
    assert_same_deals(Rules.classic(players=players), policies, seed=300 + players, deals=300, label=f"table {players}p")


OPTIONS = [{"exchange_order": "declare-then-buy"}, {"ace_forbids_pass": False},
           {"turned_ace_binds_dealer": True, "dealer_takes_trump": "must"}, {"intent_round": True}]  # fmt: skip


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o))
def test_engines_agree_under_options(options, tmp_path):
    """The table seats under the exchange options of R4 (declare-then-buy, R4.1 lifted, R4.3) and R4.0a."""
    a = random_table(tmp_path / "a.csv", 7, pass_share=0.5)
    policies = [f"table:file={a}", "table", f"table:file={a}", "expert"]
    assert_same_deals(Rules.classic(**options), policies, seed=17, deals=300, label=f"table {options}")


def test_the_table_decides_pass_and_exchange(tmp_path):
    """A table that passes in every cell: every seat R4.1 allows to pass passes (the engine's
    pass column equals "no ace dealt"); one that stands in every cell: nobody discards."""
    rows = [dict(zip(("players", "position", *T.DIMS), (4, p, *c)), action="pass", play="x2")
            for p in range(4) for c in T.all_classes()]  # fmt: skip
    T.write(rows, tmp_path / "pass.csv")
    out = engine.simulate(Rules.classic(), f"table:file={tmp_path / 'pass.csv'}", seed=5, deals=2000)
    no_ace = (out.hand_dealt & np.uint64(mask_of([s * 13 + C.ACE for s in range(4)]))) == 0
    assert (out.passed.astype(bool) == no_ace).all()
    played = ~out.passed.astype(bool)
    assert (np.vectorize(lambda m: int(m).bit_count())(out.discards[played]) == 2).mean() > 0.95  # x2 (short talons aside)
    for row in rows:
        row.update(action="stand", play="stand")
    T.write(rows, tmp_path / "stand.csv")
    out = engine.simulate(Rules.classic(), f"table:file={tmp_path / 'stand.csv'}", seed=5, deals=2000)
    assert not out.passed.any() and not out.discards.any()


# ---- files and errors -----------------------------------------------------------------------
def test_shipped_table_covers_every_table_size():
    """The package's table: every size of R2, and its fit record beside it."""
    table = T.load()
    assert table.sizes == tuple(range(C.MIN_SEATS, C.MAX_SEATS + 1))
    fit = json.loads((T.SHIPPED.parent / "table-fit.json").read_text())
    assert set(fit["sizes"]) == {str(n) for n in table.sizes}


def _bad(tmp_path, text: str) -> str:
    path = tmp_path / "bad.csv"
    path.write_text(text)
    T.load.cache_clear()
    return str(path)


HEADER = "players,position,aces,trumps,top,jack_pair,longest,action,play\n"


@pytest.mark.parametrize("text, message", [
    ("players,position,action\n4,0,pass\n", "lacks column"),
    (HEADER + "4,0,0,0,0,0,2,fold,stand\n", "action must be one of"),
    (HEADER + "4,4,0,0,0,0,2,pass,stand\n", "no position 4"),
    (HEADER + "4,0,0,0,5,0,2,pass,stand\n", "top must be one of"),
    (HEADER + "4,0,0,0,0,0,2,x1,x2\n", "must have it as its play"),
    (HEADER + "4,0,0,0,0,0,2,pass,stand\n", "lacks 1151 of the 1152 cells"),
    (HEADER + "4,0,0,0,0,0,2,pass,stand\n4,0,0,0,0,0,2,pass,stand\n", "a second row"),
    (HEADER, "has no rows"),
])  # fmt: skip
def test_bad_table_files_are_refused(tmp_path, text, message):
    with pytest.raises(ValueError, match=message):
        PolicySpec.parse(f"table:file={_bad(tmp_path, text)}")


def test_cli_errors_are_one_line(tmp_path):
    """A missing file, a table without this table size, a game without the classic exchange, and
    a file for another policy: one line, exit 2."""
    runner = CliRunner()
    small = random_table(tmp_path / "four.csv", 1, sizes=(4,))
    cases = [
        (["--policy", f"table:file={tmp_path / 'missing.csv'}"], "cannot read strategy table"),
        (["--policy", f"table:file={small}", "--players", "5"], "no rows for 5 players"),
        (["--policy", "table", "--rules", "zone"], "plays the zone game"),
        (["--policy", f"basic:file={small}"], "no parameter 'file'"),
    ]
    for args, message in cases:
        result = runner.invoke(app, ["run", "--deals", "100", "--out", str(tmp_path / "x.parquet"), *args])
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, result.output


def test_provenance_names_the_table(tmp_path):
    """A run's metadata records the table's file and its sha256."""
    spec = PolicySpec.parse("table").to_dict()
    assert spec["table"] == {"file": T.SHIPPED_NAME, "sha256": T.load().sha256}
    assert str(PolicySpec.parse(f"table:file={random_table(tmp_path / 'r.csv', 2)}")).startswith("table:file=")
