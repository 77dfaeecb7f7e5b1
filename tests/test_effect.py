"""Paired rule comparisons (issue "Rule questions answered paired", rams_sim.runs.effect).

* An override equal to the default changes no deal: every paired difference is exactly 0 and
  "0 deals changed".
* The paired sums equal, exactly, those taken over two raw runs of the same seed (the
  baseline's and the variant's rows, deal by deal), and the interval is the deal-clustered
  one computed here by hand.
* Chunks and blocks change nothing (integers merge exactly); a paired run resumes.
* Parties pair party by party: length, the first dealer's win, his settlement.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from rams_sim import engine
from rams_sim.kernels import effect as K
from rams_sim.record import Outcome
from rams_sim.rules import Rules
from rams_sim.runs.effect import (
    EffectError,
    check_keys,
    check_variants,
    estimates,
    from_table,
    merge,
    simulate_paired,
    simulate_paired_parties,
    to_table,
)
from rams_sim.runs.runner import DEALS, PAIRED_FILE, PARTIES, RunError, RunSpec, execute, read_manifest
from rams_sim.runs.summary import Z95

BASE = Rules.classic()
NO_41 = BASE.replace(ace_forbids_pass=False)  # R4.1 off: a seat dealt an ace may pass


def test_a_variant_that_changes_no_deal_gives_exactly_zero():
    """R6.7 with overtrump and must_head never forbid the card `basic` chooses (analyses/q7_options.py:
    by construction), so among basic players these variants change no deal: "0 deals changed" and
    every paired difference and interval exactly 0, beside a variant that changes deals. A variant
    equal to the baseline is refused outright (an override to the default value)."""
    same = BASE.replace(ace_forbids_pass=True)  # an override to the default value: the API plays it
    paired = simulate_paired(BASE, [same], "expert", ("position",), seed=2, deals=2000)
    assert paired.deals[0, K.G_CHANGED] == 0 and (paired.acc[0, :, K.E_MEASURES:].reshape(-1, K.N_MEASURES,
                                                  K.E_PER_MEASURE)[:, :, K.E_C_SQ] == 0).all()  # fmt: skip
    assert (estimates(paired, ("position",), 4, ["same"])["diff"] == 0).all()
    with pytest.raises(EffectError, match="equals the baseline"):  # the command line and runs refuse it
        check_variants(BASE, [same])
    quiet = [BASE.replace(ruff="overtrump"), BASE.replace(must_head=True)]
    paired = simulate_paired(BASE, [NO_41, *quiet], "basic", ("seat",), seed=1, deals=3000)
    assert paired.deals[0, K.G_CHANGED] > 0 and (paired.deals[1:, K.G_CHANGED] == 0).all()
    table = estimates(paired, ("seat",), 4, ["no-41", "overtrump", "must-head"])
    zero = table.filter(pl.col("variant") != "no-41")
    assert (zero["diff"] == 0).all() and (zero["ci_low"] == 0).all() and (zero["ci_high"] == 0).all()
    assert table.filter(pl.col("variant") == "no-41")["diff"].abs().max() > 0


def test_paired_sums_equal_those_of_two_raw_runs():
    deals = 4000
    paired = simulate_paired(BASE, [NO_41], "basic", ("position",), seed=7, deals=deals)
    a = engine.simulate(BASE, "basic", seed=7, deals=deals, log_plays=True)
    b = engine.simulate(NO_41, "basic", seed=7, deals=deals, log_plays=True)
    n = BASE.players
    position = (np.arange(n)[None, :] - a.dealer[:, None].astype(int) - 1) % n
    table = estimates(paired, ("position",), n, ["no-41"])
    played_a, played_b = a.outcome == int(Outcome.PLAYED), b.outcome == int(Outcome.PLAYED)
    values = {
        "delta": (a.delta.astype(np.int64), b.delta.astype(np.int64)),
        "remiz": ((played_a[:, None] & (a.tricks == 0) & (a.passed == 0)).astype(np.int64),
                  (played_b[:, None] & (b.tricks == 0) & (b.passed == 0)).astype(np.int64)),
        "before_play": (np.repeat(~played_a[:, None], n, 1).astype(np.int64),
                        np.repeat(~played_b[:, None], n, 1).astype(np.int64)),
        "pass": (a.passed.astype(np.int64), b.passed.astype(np.int64)),
    }  # fmt: skip
    for measure, (x, y) in values.items():
        for q in range(n):
            rows = position == q
            d = (y - x)[rows]
            got = table.filter((pl.col("position") == q) & (pl.col("measure") == measure)).row(0, named=True)
            assert got["n"] == deals and got["baseline"] == x[rows].mean() and got["value"] == y[rows].mean()
            assert got["diff"] == pytest.approx(d.mean(), abs=1e-12)
            half = Z95 * d.std(ddof=1) / math.sqrt(deals)  # one row a deal in a cell: the usual interval
            assert got["ci_high"] - got["diff"] == pytest.approx(half, rel=1e-9)
    changed = (a.delta != b.delta).any(axis=1) | (a.passed != b.passed).any(axis=1) | (a.log != b.log).any(axis=(1, 2))
    assert paired.deals[0, K.G_CHANGED] >= changed.sum() > 0


def test_the_whole_table_clusters_by_deal():
    """No keys: a deal's four rows share one cell; the interval is the ratio estimator's over deals."""
    deals = 3000
    paired = simulate_paired(BASE, [NO_41], "basic", (), seed=8, deals=deals)
    a = engine.simulate(BASE, "basic", seed=8, deals=deals)
    b = engine.simulate(NO_41, "basic", seed=8, deals=deals)
    c = (b.delta.astype(np.int64) - a.delta.astype(np.int64)).sum(axis=1)  # per deal
    m = BASE.players
    r = c.sum() / (m * deals)
    se = math.sqrt(deals / (deals - 1) * ((c - r * m) ** 2).sum()) / (m * deals)
    got = estimates(paired, (), m, ["no-41"]).filter(pl.col("measure") == "delta").row(0, named=True)
    assert got["diff"] == pytest.approx(r) and got["ci_high"] - r == pytest.approx(Z95 * se)


def test_chunks_change_nothing():
    whole = simulate_paired(BASE, [NO_41], "basic", ("seat", "trump"), seed=9, deals=3000)
    parts = [simulate_paired(BASE, [NO_41], "basic", ("seat", "trump"), seed=9, deals=k, first_deal=lo)
             for lo, k in ((0, 1000), (1000, 1500), (2500, 500))]  # fmt: skip
    table = merge(pl.concat([to_table(p, ("seat", "trump"), 4) for p in parts]).lazy(), ("seat", "trump"))
    again = from_table(table, ("seat", "trump"), 4, 1)
    assert (again.acc == whole.acc).all() and (again.deals == whole.deals).all()


def test_outcome_keys_cannot_pair():
    with pytest.raises(EffectError, match="tricks"):
        check_keys(("seat", "tricks"))


def test_parties_pair_party_by_party():
    parties = 500
    paired = simulate_paired_parties(BASE, [NO_41], "basic", seed=4, parties=parties)
    a = engine.simulate_parties(BASE, "basic", seed=4, parties=parties)
    b = engine.simulate_parties(NO_41, "basic", seed=4, parties=parties)
    table = estimates(paired, (), 4, ["no-41"], parties=True)
    length = table.filter(pl.col("measure") == "length").row(0, named=True)
    assert length["baseline"] == a.deals.mean() and length["value"] == b.deals.mean()
    wins = table.filter(pl.col("measure") == "first_dealer_wins").row(0, named=True)
    assert wins["diff"] == pytest.approx((b.winner == 0).mean() - (a.winner == 0).mean())
    money = table.filter(pl.col("measure") == "settlement").row(0, named=True)
    assert money["diff"] == pytest.approx((b.settlement[:, 0] - a.settlement[:, 0]).mean())


def test_a_paired_run_is_chunked_resumed_and_merged(tmp_path):
    spec = RunSpec(DEALS, BASE, ("basic",) * 4, 11, 3000, chunk_size=1000, variants=(NO_41,), by=("seat",))
    calls = []

    def stop_at_second(task):
        calls.append(task.index)
        if task.index == 1 and len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(spec, tmp_path / "e", executor_hook=stop_at_second)
    result = execute(spec, tmp_path / "e", resume=True)
    assert result.resumed_chunks == 1
    table = pl.read_parquet(tmp_path / "e" / PAIRED_FILE)
    got = from_table(table, ("seat",), 4, 1)
    want = simulate_paired(BASE, [NO_41], "basic", ("seat",), seed=11, deals=3000)
    assert (got.acc == want.acc).all() and (got.deals == want.deals).all()
    assert read_manifest(tmp_path / "e")["run"]["variants"][0]["ace_forbids_pass"] is False


def test_paired_runs_refuse_what_cannot_pair():
    for kwargs, word in (({"variants": (BASE,)}, "equals"), ({"variants": (NO_41,), "by": ("tricks",)}, "tricks"),
                         ({"variants": (BASE.replace(players=5),)}, "table size")):  # fmt: skip
        with pytest.raises(RunError, match=word):
            RunSpec(DEALS, BASE, ("basic",) * 4, 1, 100, **kwargs)
    with pytest.raises(RunError, match="--by"):
        RunSpec(PARTIES, BASE, ("basic",) * 4, 1, 100, variants=(NO_41,), by=("seat",))


# ---- the command ---------------------------------------------------------------------------------
def _cli(args: list[str]):
    from typer.testing import CliRunner

    from rams_sim.cli.main import app

    return CliRunner().invoke(app, ["effect", *args])


@pytest.mark.parametrize("args, words", [
    (["ace_forbids_pass=true"], "equals the baseline"),  # an override to the default value
    (["nonsense=1"], "unknown rule option"),
    (["ruff=sideways"], "must be one of"),
    (["zone_lead=partner"], "applies only to the zone game"),
    (["ace_forbids_pass=false", "--parties", "10"], "not both"),
    (["ace_forbids_pass=false", "--by", "tricks"], "cannot pair"),
    (["ace_forbids_pass"], "KEY=VALUE"),
    (["ace_forbids_pass=false", "--players", "4,x"], "--players"),
    (["ace_forbids_pass=false", "--deals", "-5"], "--deals"),
])  # fmt: skip
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, words):
    out = tmp_path / "e"
    result = _cli([*args, "--deals", "100", "--out", str(out)] if "--deals" not in args else [*args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert words in result.output and result.output.strip().count("\n") == 0 and "Traceback" not in result.output
    assert not out.exists() and not (tmp_path / "e.partial").exists()


def test_the_command_prints_the_paired_json(tmp_path):
    import json

    result = _cli(["ace_forbids_pass=false", "--deals", "5000", "--by", "position", "--seed", "3",
                   "--out", str(tmp_path / "e"), "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["deals"] == 5000 and 0 < report["deals_changed"] <= 5000
    rows = {(r["measure"], tuple(r["by"].items())): r for r in report["rows"]}
    whole = rows[("delta", ())]
    dealer = rows[("delta", (("position", 3),))]
    paired = simulate_paired(BASE, [NO_41], "basic", ("position",), seed=3, deals=5000)
    want = estimates(paired, ("position",), 4, ["ace_forbids_pass=false"])
    assert dealer["diff"] == want.filter((pl.col("position") == 3) & (pl.col("measure") == "delta"))["diff"][0]
    assert whole["n"] == 4 * 5000 and whole["ci_low"] < whole["diff"] < whole["ci_high"]
    assert {"variant", "measure", "by", "baseline", "value", "diff", "ci_low", "ci_high", "n"} <= set(whole)


@pytest.mark.slow
def test_a_cluster_computes_the_same_paired_sums(tmp_path):
    """A paired run's chunks on a dask LocalCluster of two worker processes: the local run's sums."""
    distributed = pytest.importorskip("distributed")
    spec = RunSpec(DEALS, BASE, ("basic",) * 4, 13, 4000, chunk_size=1000, variants=(NO_41,), by=("position",))
    with (distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c,
          distributed.Client(c.scheduler_address) as client):
        execute(spec, tmp_path / "c", client=client)
    execute(spec, tmp_path / "l")
    assert pl.read_parquet(tmp_path / "c" / PAIRED_FILE).equals(pl.read_parquet(tmp_path / "l" / PAIRED_FILE))


def test_the_report_page_states_question_answer_table_figure_provenance(tmp_path):
    page = tmp_path / "r" / "r41.md"
    result = _cli(["ace_forbids_pass=false", "--deals", "4000", "--seed", "5", "--by", "position",
                   "--out", str(tmp_path / "e"), "--report", str(page)])  # fmt: skip
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    for words in ("**The question.**", "**The answer.**", "| variant | measure |", "![the paired differences](r41.png)",
                  "**Provenance.**", "seed 5", "4,000 deals"):
        assert words in text, words
    paired = simulate_paired(BASE, [NO_41], "basic", (), seed=5, deals=4000)
    row = estimates(paired, (), 4, ["x"]).filter(pl.col("measure") == "delta").row(0, named=True)
    assert f"{row['diff']:+.4f}".replace("-", "−") in text  # the answer's number is the run's
    assert (tmp_path / "r" / "r41.png").stat().st_size > 5_000
    bad = _cli(["ace_forbids_pass=false", "--deals", "100", "--out", str(tmp_path / "f"), "--report", "page.html"])
    assert bad.exit_code == 2 and "--report" in bad.output and not (tmp_path / "f").exists()


def test_target_se_stops_once_the_difference_is_measured(tmp_path):
    import json

    result = _cli(["ace_forbids_pass=false", "--deals", "2e6", "--target-se", "0.05", "--seed", "4",
                   "--out", str(tmp_path / "e"), "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    deals = report["deals"]
    assert deals < 2_000_000 and deals % 100_000 == 0
    delta = next(r for r in report["rows"] if r["measure"] == "delta" and not r["by"])
    assert (delta["ci_high"] - delta["ci_low"]) / (2 * Z95) <= 0.05
    want = estimates(simulate_paired(BASE, [NO_41], "basic", (), seed=4, deals=deals), (), 4, ["x"])
    assert delta["diff"] == want.filter(pl.col("measure") == "delta")["diff"][0]
    if deals > 100_000:  # one chunk fewer would not have done
        fewer = estimates(simulate_paired(BASE, [NO_41], "basic", (), seed=4, deals=deals - 100_000), (), 4, ["x"])
        row = fewer.filter(pl.col("measure") == "delta").row(0, named=True)
        assert (row["ci_high"] - row["ci_low"]) / (2 * Z95) > 0.05


def test_a_list_value_in_a_change_keeps_its_commas():
    """`effect ace_values=5,10,15,20,start=9`: a piece without ``=`` continues the value before it;
    a change that starts without a KEY= is still one line's error."""
    import typer

    from rams_sim.cli.effect import _variant

    assert _variant("ace_values=5,10,15,20,start=9", "x") == ["ace_values=5,10,15,20", "start=9"]
    assert _variant("zone_finish=trick", "x") == ["zone_finish=trick"]
    with pytest.raises(typer.Exit):
        _variant("5,start=9", "x")
