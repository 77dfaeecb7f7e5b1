"""`rams-sim run` and `rams-sim party`: the Parquet data, provenance, determinism, resume."""

from __future__ import annotations

import json
import re

import numba
import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from rams_sim import cards as C
from rams_sim import engine
from rams_sim.cli.main import app
from rams_sim.policies import PolicySpec
from rams_sim.record import Declaration, EndKind
from rams_sim.rules import Rules
from rams_sim.runs.dataset import DEAL_COLUMNS, PARTY_COLUMNS, PLAY_COLUMNS, SCHEMA_VERSION, schema
from rams_sim.runs.provenance import METADATA_KEY
from rams_sim.runs.runner import DEALS, MANIFEST, PARTIES, RunError, RunSpec, execute, partial_path, read_manifest
from rams_sim.runs.summary import Z95, scan

cli = CliRunner()
DEALS_N = 3_000


def deals_spec(chunk=700, **kw) -> RunSpec:
    rules = kw.pop("rules", Rules.classic())
    policies = kw.pop("policies", (PolicySpec.parse("basic"),) * rules.players)
    return RunSpec(DEALS, rules, policies, kw.pop("seed", 11), kw.pop("count", DEALS_N), chunk, **kw)


def read(folder) -> pl.DataFrame:
    return scan(folder).collect().sort(["deal" if "deal" in scan(folder).collect_schema() else "party", "seat"])


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    """One uninterrupted run (chunks of 700) that the other tests compare against."""
    out = tmp_path_factory.mktemp("runs") / "ref"
    execute(deals_spec(), out)
    return out


def test_schema_columns_and_dtypes(reference_run):
    """Every part has exactly the documented columns, in order, with their dtypes."""
    for part in sorted(reference_run.glob("part-*.parquet")):
        frame = pl.read_parquet(part)
        assert frame.schema == pl.Schema(schema(DEAL_COLUMNS))
    assert read(reference_run).height == DEALS_N * 4


def test_rows_are_the_engine_output(reference_run):
    """The rows are the kernels' results for deals 0..N-1, derived columns computed right."""
    data = read(reference_run)
    out = engine.simulate(Rules.classic(), "basic", seed=11, deals=DEALS_N)
    assert np.array_equal(data["delta"].to_numpy(), out.delta.reshape(-1))
    assert np.array_equal(data["hand_dealt"].to_numpy(), out.hand_dealt.reshape(-1))
    assert np.array_equal(data["hand_final"].to_numpy(), out.hand_final.reshape(-1))
    assert np.array_equal(data["tricks"].to_numpy(), out.tricks.reshape(-1))
    assert np.array_equal(data["declaration"].to_numpy(), out.declaration.reshape(-1))
    rows = data.filter(pl.col("deal") < 400).iter_rows(named=True)
    for row in rows:  # the derived columns, recomputed one by one from the card helpers
        i, seat = row["deal"], row["seat"]
        assert row["dealer"] == i % 4 and row["players"] == 4 and row["policy"] == 1
        assert row["trump_card"] == out.trump_card[i] and row["trump"] == C.suit_of(int(out.trump_card[i]))
        assert row["discarded"] == len(C.cards_of(int(out.discards[i, seat])))
        aces = sum(1 << C.suit_of(c) for c in C.cards_of(row["hand_final"]) if C.rank_of(c) == C.ACE)
        assert row["aces"] == aces
        assert row["passed"] == bool(out.passed[i, seat]) and row["took_trump"] == bool(out.took_trump[i, seat])
        assert row["outcome"] == out.outcome[i] and row["ends_party"] == out.ends_party[i]


def test_provenance_in_metadata_and_manifest(reference_run):
    """Each part's key-value metadata and manifest.json hold rules, policies, seed, deals, versions."""
    manifest = read_manifest(reference_run)
    assert manifest["status"] == "complete" and manifest["rows"] == DEALS_N * 4
    assert manifest["wall_seconds"] > 0 and manifest["created"] and manifest["finished"]
    assert manifest["files"] == [f"part-{i:06d}.parquet" for i in range(5)]
    for name in manifest["files"]:
        meta = json.loads(pq.read_metadata(reference_run / name).metadata[METADATA_KEY.encode()])
        run = meta["run"]
        assert run["schema_version"] == SCHEMA_VERSION and run["kind"] == DEALS
        assert run["seed"] == 11 and run["deals"] == DEALS_N and run["dealer"] == "rotating"
        assert run["rules"] == Rules.classic().to_dict() and run["rules_hash"] == Rules.classic().digest()
        assert run["policies"] == [PolicySpec.parse("basic").to_dict()] * 4
        assert set(meta["software"]["libraries"]) >= {"numba", "numpy", "polars", "python"}
        assert meta["software"]["version"] and meta["software"]["git_commit"]
        assert meta["created"] == manifest["created"] and meta["chunk"]["count"] in (700, 200)
        assert run == manifest["run"]


@pytest.mark.parametrize("chunk, threads", [(3_000, 1), (1_000, 2), (333, 2)])
def test_same_data_for_any_chunking_and_threads(tmp_path, reference_run, chunk, threads):
    """Chunk size and thread count change nothing in the rows."""
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        execute(deals_spec(chunk), tmp_path / "run")
    finally:
        numba.set_num_threads(before)
    assert read(tmp_path / "run").equals(read(reference_run))


class Interrupt(KeyboardInterrupt):
    pass


def test_interrupt_then_resume_equals_uninterrupted(tmp_path, reference_run):
    """Ctrl-C after two chunks keeps them; --resume computes the rest; the rows equal a whole run."""
    out = tmp_path / "run"
    seen = []

    def hook(task):
        seen.append(task.index)
        if task.index == 2:
            raise Interrupt

    with pytest.raises(KeyboardInterrupt):
        execute(deals_spec(), out, progress=None, executor_hook=hook)
    partial = partial_path(out)
    assert not out.exists() and sorted(p.name for p in partial.glob("part-*")) == ["part-000000.parquet", "part-000001.parquet"]
    assert read_manifest(partial)["status"] == "running"
    (partial / ".part-000002.parquet.tmp").write_bytes(b"half a file")  # a crash mid-write
    (partial / "part-000001.parquet").write_bytes(b"damaged")  # a damaged part is recomputed
    computed = []
    result = execute(deals_spec(), out, resume=True, executor_hook=lambda t: computed.append(t.index))
    assert computed == [1, 2, 3, 4] and result.resumed_chunks == 1
    assert not partial.exists() and read(out).equals(read(reference_run))
    assert len(read_manifest(out)["sessions"]) == 2


def test_resume_refuses_a_different_run(tmp_path):
    """--resume with other options names the difference instead of mixing data."""
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        execute(deals_spec(), out, executor_hook=lambda t: (_ for _ in ()).throw(Interrupt) if t.index == 1 else None)
    with pytest.raises(RunError, match="seed 11 -> 12"):
        execute(deals_spec(seed=12), out, resume=True)
    assert execute(deals_spec(), out, resume=True).chunks_run == 4
    assert execute(deals_spec(), out, resume=True).already_complete


def test_a_run_recorded_before_an_option_existed_resumes(tmp_path):
    """An option added later reads as its default in an older run (every option keeps the older
    code's behaviour as its default): the run is complete, not different. A non-default value is."""
    out = tmp_path / "run"
    execute(deals_spec(count=500, chunk=500), out)
    manifest = json.loads((out / MANIFEST).read_text())
    del manifest["run"]["rules"]["zone_finish"], manifest["run"]["rules"]["duel_jacks_both"]
    manifest["run"]["rules_hash"] = "recorded-before"
    (out / MANIFEST).write_text(json.dumps(manifest))
    assert execute(deals_spec(count=500, chunk=500), out, resume=True).already_complete
    manifest["run"]["rules"]["ruff"] = "overtrump"
    (out / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(RunError, match="ruff"):
        execute(deals_spec(count=500, chunk=500), out, resume=True)


def test_refuses_to_clobber_without_force(tmp_path, reference_run):
    """An existing run folder is replaced only with force, and a foreign folder never."""
    out = tmp_path / "run"
    execute(deals_spec(count=500, chunk=500), out)
    with pytest.raises(RunError, match="already exists"):
        execute(deals_spec(), out)
    assert read(out).height == 2_000
    execute(deals_spec(), out, force=True)
    assert read(out).equals(read(reference_run))
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "thesis.tex").write_text("precious")
    with pytest.raises(RunError, match="not a rams-sim run folder"):
        execute(deals_spec(), foreign, force=True)
    assert (foreign / "thesis.tex").read_text() == "precious"


def test_play_log_columns(tmp_path):
    """--log-plays adds card1..card5, led and won, consistent with the engine's record."""
    execute(deals_spec(count=300, chunk=300, log_plays=True), tmp_path / "run")
    data = read(tmp_path / "run")
    assert data.schema == pl.Schema(schema(DEAL_COLUMNS + PLAY_COLUMNS))
    out = engine.simulate(Rules.classic(), "basic", seed=11, deals=300, log_plays=True)
    for i in range(300):
        record = engine.record_of(out, i)
        rows = data.filter(pl.col("deal") == i).sort("seat")
        for t in range(C.N_TRICKS):
            played = record.plays[t].cards if t < len(record.plays) else (-1,) * 4
            assert rows[f"card{t + 1}"].to_list() == list(played)
        for seat in range(4):
            led = sum(1 << t for t, trick in enumerate(record.plays) if trick.leader == seat)
            won = sum(1 << t for t, trick in enumerate(record.plays) if trick.winner == seat)
            assert rows["led"][seat] == led and rows["won"][seat] == won
            assert int(won).bit_count() == record.tricks[seat]


def _cli_ok(args):
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_run_summary_equals_polars_on_the_data(tmp_path):
    """The printed means, intervals and declaration counts are what polars finds in the files."""
    out = tmp_path / "run"
    text = _cli_ok(["run", "--deals", "4_000", "--seed", "5", "--out", str(out), "--chunk", "1500",
                    "--policy", "basic", "--policy", "1=random"])  # fmt: skip
    data = read(out)
    assert data.height == 16_000 and "4,000 deals in" in text and str(out) in text
    assert data.filter(pl.col("seat") == 1)["policy"].unique().to_list() == [0]
    for seat in range(4):
        delta = data.filter(pl.col("seat") == seat)["delta"].cast(pl.Float64)
        mean, half = delta.mean(), Z95 * delta.std() / np.sqrt(delta.len())
        line = re.search(rf"seat {seat}:\s+([-+\d.]+) ± ([\d.]+)", text)
        assert float(line.group(1)) == pytest.approx(mean, abs=5e-4)
        assert float(line.group(2)) == pytest.approx(half, abs=5e-4)
    for code in (Declaration.JACK_PAIR, Declaration.TRUMP_RAMS, Declaration.FOUR_ACES):
        count = data.filter(pl.col("declaration") == code).height
        assert re.search(rf"{code.name.lower().replace('_', ' ')}\s+[\d.]+\s+\({count:,}\)", text)


def test_cli_run_with_no_options_works(tmp_path, monkeypatch):
    """`rams-sim run` alone makes a useful run (1e6 deals) under data/runs/."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("rams_sim.runs.runner.DEFAULT_CHUNK", {DEALS: 250_000, PARTIES: 20_000})
    text = _cli_ok(["run"])
    (folder,) = (tmp_path / "data" / "runs").iterdir()
    assert "1,000,000 deals in" in text and read_manifest(folder)["run"]["deals"] == 1_000_000


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--deals", "0"], "--deals"),
        (["run", "--deals", "-5"], "--deals"),
        (["run", "--deals", "lots"], "--deals"),
        (["run", "--deals", "1e400"], "--deals"),
        (["run", "--deals", "2.5"], "--deals"),
        (["run", "--rules", "poker"], "unknown preset"),
        (["run", "--rule", "ruf=overtrump"], "unknown rule option 'ruf'"),
        (["run", "--rule", "ruff=sometimes"], "ruff must be one of"),
        (["run", "--rule", "start=many"], "start"),
        (["run", "--players", "7", "--rule", "deck=32"], "7 players need at least 36 cards"),
        (["run", "--players", "9"], "players"),
        (["run", "--policy", "genius"], "unknown policy"),
        (["run", "--policy", "basic:pass_threshold=high"], "pass_threshold"),
        (["run", "--policy", "9=basic"], "not a seat"),
        (["run", "--seed", "-1"], "--seed"),
        (["run", "--dealer", "4"], "--dealer"),
        (["run", "--chunk", "0"], "--chunk"),
        (["party", "--parties", "0"], "--parties"),
        (["party", "--start", "-3"], "start"),
        (["replay", "--deal", "-1"], "--deal"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2_nothing_written(tmp_path, args, message):
    """A user mistake gives a one-line error naming it, exit code 2, no traceback, no files."""
    out = tmp_path / "out"
    extra = ["--out", str(out)] if args[0] in ("run", "party") else []
    result = cli.invoke(app, args + extra)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.output, result.output
    assert not out.exists() and not partial_path(out).exists()


def test_cli_existing_output_is_exit_2_and_untouched(tmp_path):
    """Running into an existing folder without --force is a one-line error; the data stay."""
    out = tmp_path / "run"
    _cli_ok(["run", "--deals", "500", "--out", str(out)])
    before = read(out)
    result = cli.invoke(app, ["run", "--deals", "800", "--out", str(out)])
    assert result.exit_code == 2 and "already exists" in result.output and "--force" in result.output
    assert read(out).equals(before)
    _cli_ok(["run", "--deals", "800", "--out", str(out), "--force"])
    assert read(out).height == 3_200


def party_spec(chunk=60, **kw) -> RunSpec:
    rules = kw.pop("rules", Rules.classic())
    return RunSpec(PARTIES, rules, (PolicySpec.parse("basic"),) * rules.players, kw.pop("seed", 3), 200, chunk)


def test_party_rows_schema_and_determinism(tmp_path):
    """Parties: documented columns, equal to the engine's records, same in any chunking, resumable."""
    execute(party_spec(), tmp_path / "a")
    data = read(tmp_path / "a")
    assert data.schema == pl.Schema(schema(PARTY_COLUMNS)) and data.height == 800
    out = engine.simulate_parties(Rules.classic(), "basic", seed=3, parties=200)
    assert np.array_equal(data["score"].to_numpy(), out.scores.reshape(-1))
    assert np.array_equal(data["deals"].to_numpy(), np.repeat(out.deals, 4))
    assert np.array_equal(data["settlement"].to_numpy(), out.settlement.reshape(-1))
    assert (data.group_by("party").agg(pl.col("won").sum())["won"] <= 1).all()
    won = data.filter(pl.col("won"))
    assert (won["winner"] == won["seat"]).all()
    assert (won.filter(pl.col("end_kind") != EndKind.FOUR_ACES)["score"] <= 0).all()  # R5.1 wins at any score
    with pytest.raises(KeyboardInterrupt):
        execute(party_spec(chunk=50), tmp_path / "b", executor_hook=lambda t: (_ for _ in ()).throw(Interrupt) if t.index == 2 else None)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        execute(party_spec(chunk=50), tmp_path / "b", resume=True)
    finally:
        numba.set_num_threads(before)
    assert read(tmp_path / "b").equals(data)
    meta = json.loads(pq.read_metadata(tmp_path / "b" / "part-000000.parquet").metadata[METADATA_KEY.encode()])
    assert meta["run"]["kind"] == PARTIES and meta["run"]["parties"] == 200


def test_cli_party_summary(tmp_path):
    """`rams-sim party` honours --start and prints length, wins and endings with intervals."""
    out = tmp_path / "p"
    text = _cli_ok(["party", "--parties", "300", "--start", "30", "--out", str(out), "--seed", "2"])
    meta = read_manifest(out)["run"]
    assert meta["rules"]["start"] == 30 and meta["parties"] == 300
    data = read(out)
    mean_deals = data.filter(pl.col("seat") == 0)["deals"].mean()
    assert re.search(rf"deals per party \(from 30\): {mean_deals:.2f} ±", text)
    wins = data.filter(pl.col("seat") == 2)["won"].mean()
    assert re.search(rf"seat 2: won\s+{100 * wins:.2f}%", text)


def test_readme_documents_every_column():
    """README.md shows each column table exactly as rams_sim.runs.dataset defines it."""
    from pathlib import Path

    from rams_sim.runs.dataset import readme_table

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    for columns in (DEAL_COLUMNS, PLAY_COLUMNS, PARTY_COLUMNS):
        assert readme_table(columns) in readme


def test_cli_ctrl_c_keeps_chunks_and_resume_finishes(tmp_path, monkeypatch, reference_run):
    """Ctrl-C in `rams-sim run` exits 130 naming --resume; the resumed run equals an uninterrupted one."""
    import rams_sim.runs.runner as runner_module

    real = runner_module.run_chunk
    calls = []

    def flaky(spec, task):
        calls.append(task.index)
        if task.index == 3 and task.count > 1:
            raise KeyboardInterrupt
        return real(spec, task)

    monkeypatch.setattr(runner_module, "run_chunk", flaky)
    out = tmp_path / "run"
    args = ["run", "--deals", str(DEALS_N), "--seed", "11", "--chunk", "700", "--out", str(out)]
    result = cli.invoke(app, args)
    assert result.exit_code == 130 and "--resume" in result.output and not out.exists()
    monkeypatch.setattr(runner_module, "run_chunk", real)
    _cli_ok(args + ["--resume"])
    assert read(out).equals(read(reference_run))


def test_cli_replay_tells_the_deal_run_recorded(tmp_path, reference_run):
    """`rams-sim replay --seed S --deal I` prints the deltas and tricks the run wrote for deal I."""
    data = read(reference_run)
    for deal in (0, 7, 2_999):
        text = _cli_ok(["replay", "--seed", "11", "--deal", str(deal)])
        rows = data.filter(pl.col("deal") == deal).sort("seat")
        for seat, delta, tricks in zip(rows["seat"], rows["delta"], rows["tricks"]):
            shown = re.escape(f"{delta:+d}" if delta else "0")
            assert re.search(rf"seat {seat}( \(dealer\))?: delta {shown}\b", text)
            if tricks:
                assert len(re.findall(rf"seat {seat} wins", text)) == tricks


def test_readme_documents_the_branch_columns():
    """README.md shows the branch table exactly as rams_sim.runs.dataset defines it."""
    from pathlib import Path

    from rams_sim.runs.dataset import BRANCH_COLUMNS, readme_table

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert readme_table(BRANCH_COLUMNS) in readme


@pytest.mark.parametrize(
    "args, message",
    [
        (["party", "--start", "x"], "--start"),
        (["run", "--seed", "abc"], "--seed"),
        (["run", "--bogus"], "--bogus"),
        (["compare", "expert"], "Missing argument"),
    ],
)
def test_the_command_reports_clicks_own_usage_errors_in_one_line(tmp_path, args, message):
    """Through the real entry point, a value of the wrong type or an unknown option is one line, exit 2."""
    import subprocess
    import sys

    out = tmp_path / "out"
    extra = ["--out", str(out)] if args[0] in ("run", "party") and "--bogus" not in args else []
    proc = subprocess.run([sys.executable, "-m", "rams_sim", *args, *extra], capture_output=True, text=True,
                          check=False)
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    assert proc.returncode == 2 and len(lines) == 1 and message in lines[0], proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()


def test_summary_from_part_sums_equals_a_scan_of_the_rows(tmp_path, monkeypatch):
    """A deals part carries its table's exact sums; the summary built from them equals the one
    a scan of the rows gives (and a part without them, as old runs have, falls back to the scan)."""
    from rams_sim.runs import summary

    spec = RunSpec(DEALS, Rules(), ("basic", "random", "basic", "expert"), 11, 3_000, chunk_size=1_000)
    folder = execute(spec, tmp_path / "run").path
    chunk = json.loads(pq.read_metadata(folder / "part-000001.parquet").metadata[METADATA_KEY.encode()])["chunk"]
    assert sum(chunk["sums"]["n"]) == 4_000 and chunk["sums"]["seats"] == [0, 1, 2, 3]
    from_sums = summary.deal_summary(folder)
    monkeypatch.setattr(summary, "_part_sums", lambda folder: None)
    scanned = summary.deal_summary(folder)
    assert from_sums.deals == scanned.deals == 3_000
    assert from_sums.declarations == scanned.declarations
    for seat in range(4):
        a, b = from_sums.delta[seat], scanned.delta[seat]
        assert a.n == b.n and a.value == pytest.approx(b.value, abs=1e-12)
        assert a.low == pytest.approx(b.low, abs=1e-9) and a.high == pytest.approx(b.high, abs=1e-9)
