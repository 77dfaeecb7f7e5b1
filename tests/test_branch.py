"""`rams-sim branch`: every exchange option of one seat, replayed on the same deals (issue 4)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from rams_sim import cards as C
from rams_sim import engine
from rams_sim.cli.main import app
from rams_sim.policies import PolicySpec
from rams_sim.rules import Rules
from rams_sim.runs.dataset import BRANCH_COLUMNS, schema
from rams_sim.runs.runner import BRANCHES, RunSpec, execute, read_manifest
from rams_sim.runs.summary import scan

cli = CliRunner()


def _option_of(dealt: int, passed: bool, discards: int) -> int:
    """The option code of a decision: -1 pass, else the discard mask over the dealt cards."""
    if passed:
        return -1
    cards = C.cards_of(dealt)
    return sum(1 << j for j, c in enumerate(cards) if discards >> c & 1)


@pytest.mark.parametrize(
    "policy, players, seat, preset",
    [("basic", 4, 1, "classic"), ("expert", 3, 0, "classic"), ("cautious", 5, 4, "classic"), ("greedy", 4, 2, "handbook"),
     ("basic", 4, 0, "encyclopedia"), ("cautious", 4, 3, "from-15")],
)  # fmt: skip
def test_the_policys_own_option_replays_the_run(policy, players, seat, preset):
    """The branch row of the option the seat's policy chose equals the run's row (stand included)."""
    rules = Rules.named(preset, players=players)
    deals = 1_500
    run = engine.simulate(rules, policy, seed=4, deals=deals)
    branches = engine.simulate_branches(rules, policy, seat=seat, seed=4, deals=deals)
    by_key = {(int(d), int(o)): i for i, (d, o) in enumerate(zip(branches.deal, branches.option))}
    stands = 0
    for d in range(deals):
        if run.took_trump[d, seat]:
            continue  # the dealer's trump-card swap is not an exchange option; compare the rest only
        option = _option_of(int(run.hand_dealt[d, seat]), bool(run.passed[d, seat]), int(run.discards[d, seat]))
        i = by_key[(d, option)]
        stands += option == 0
        assert branches.delta[i] == run.delta[d, seat] and branches.tricks[i] == run.tricks[d, seat], f"deal {d}"
        assert branches.hand_final[i] == run.hand_final[d, seat] and branches.drawn[i] == run.drawn[d, seat]
        assert branches.declaration[i] == run.declaration[d, seat] and branches.outcome[i] == run.outcome[d]
    assert stands > 0


def test_only_the_options_the_rules_open():
    """A pass only without an ace (R4.1); discards no more than the talon (R4.4); stand always."""
    rules = Rules.classic(players=6, deck="32")  # 32 cards, 6 players: a talon of one card at the first turn
    assert rules.deck_size - C.HAND_SIZE * 6 - 1 == 1
    b = engine.simulate_branches(rules, "basic", seat=2, seed=8, deals=800)
    frame = pl.DataFrame({"deal": b.deal, "option": b.option, "dealt": b.hand_dealt, "discards": b.discards})
    assert (frame.group_by("deal").agg((pl.col("option") == 0).sum())["option"] == 1).all()
    for row in frame.filter(pl.col("option") == -1).iter_rows(named=True):
        assert not any(C.rank_of(c) == C.ACE for c in C.cards_of(row["dealt"]))
    with_ace = [d for d, dealt in zip(b.deal, b.hand_dealt) if any(C.rank_of(c) == C.ACE for c in C.cards_of(int(dealt)))]
    assert with_ace and not frame.filter(pl.col("deal").is_in(with_ace) & (pl.col("option") == -1)).height
    assert (b.discards[b.option > 0] != 0).all() and (np.bitwise_count(b.discards) <= 1).all()
    for o, disc, dealt in zip(b.option, b.discards, b.hand_dealt):
        if o > 0:
            assert C.cards_of(int(disc)) == [c for j, c in enumerate(C.cards_of(int(dealt))) if o >> j & 1]
    full = engine.simulate_branches(Rules.classic(), "basic", seat=1, seed=8, deals=200)
    counts = np.bincount(full.deal.astype(np.int64))
    first = counts[0::4]  # dealer 0: seat 1 exchanges first, from a talon of 11, so every discard set is open
    assert first.min() >= 32 and first.max() <= 33 and counts.min() >= 1 and counts.max() <= 33


def test_branch_runs_are_chunk_invariant_and_documented(tmp_path):
    """Same rows in any chunking and after resume; the columns are BRANCH_COLUMNS; rows counted."""
    spec = lambda chunk: RunSpec(BRANCHES, Rules.classic(), (PolicySpec.parse("basic"),) * 4, 2, 600, chunk, seat=3)
    execute(spec(600), tmp_path / "a")
    execute(spec(250), tmp_path / "b")
    a = scan(tmp_path / "a").collect().sort(["deal", "option"])
    b = scan(tmp_path / "b").collect().sort(["deal", "option"])
    assert a.equals(b) and a.schema == pl.Schema(schema(BRANCH_COLUMNS))
    assert read_manifest(tmp_path / "b")["rows"] == a.height and (a["seat"] == 3).all()


def test_cli_branch(tmp_path):
    """`rams-sim branch --seat K` writes the data and says how many options a deal had."""
    out = tmp_path / "br"
    result = cli.invoke(app, ["branch", "--seat", "2", "--deals", "300", "--out", str(out), "--policy", "expert"])
    assert result.exit_code == 0, result.output
    assert "options per deal" in result.output and read_manifest(out)["run"]["seat"] == 2
    bad = cli.invoke(app, ["branch", "--seat", "4", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "--seat" in bad.output and not (tmp_path / "x").exists()


def test_cli_branch_in_duel_says_who_won_the_party(tmp_path):
    """duel: a party is settled by its stake, so ``branch`` reports each widow option's party: the
    seat's share of deals that won it, and the settlement in stakes, read from the data's ends_party
    and stake."""
    out = tmp_path / "duel"
    result = cli.invoke(app, ["branch", "--rules", "duel", "--seat", "1", "--dealer", "0", "--deals", "400", "--out",
                              str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = scan(out).collect()
    assert set(data["ends_party"].unique()) <= {-1, 0, 1} and (data["stake"] >= 1).all()
    for option, name in ((0, "stand"), (31, "swap")):
        rows = data.filter(pl.col("option") == option)
        won = (rows["ends_party"] == 1).mean()
        line = next(x for x in result.output.splitlines() if x.strip().startswith(name))
        assert f"n = {rows.height:,}" in line and f"won {won:7.2%}" in line, (line, won)
