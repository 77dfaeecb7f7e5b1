"""``rams-sim check-advice``: advise's answers held against the truth on random positions (:mod:`rams_sim.advice.check`)."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer

from .common import fail, parse_count


def _list(text: str, what: str, cast):
    try:
        values = [cast(p.strip()) for p in text.split(",") if p.strip()]
    except ValueError:
        fail(f"{what} expects a comma-separated list; got {text!r}")
    if not values:
        fail(f"{what} expects a comma-separated list; got {text!r}")
    return tuple(values)


def _played_at(sizes: tuple[int, ...]) -> tuple[str, ...]:
    """The presets whose positions have a truth (:func:`rams_sim.advice.truth.not_answered`) and that are
    played at one of ``sizes`` at least (all with a truth where none is: the suite then says which size fails)."""
    from ..advice.check import played_at
    from ..advice.truth import not_answered
    from ..rules import PRESETS, Rules

    answered = tuple(p for p in PRESETS if not_answered(Rules.named(p)) is None)
    return tuple(p for p in answered if played_at(p, sizes)[0]) or answered


def check_advice(
    positions: Annotated[str, typer.Option("--positions", help="Positions to draw (each: one advise and one truth).")] = "60",
    seed: Annotated[int, typer.Option("--seed", help="Seed (0..2**64-1) of the deals the positions are drawn from, of advise's worlds and of the truth's decks.")] = 0,
    preset: Annotated[str | None, typer.Option("--rules", metavar="PRESET[,PRESET...]", help="Presets whose deals give the positions, each at the --players it is played at: the classic family (classic, encyclopedia, from-15, handbook, negotiations), zone and modern; duel has no truth yet. Default: all of these that are played at one of --players.")] = None,
    players: Annotated[str, typer.Option("--players", "-n", metavar="N[,N...]", help="Table sizes, each its share of the positions (2-7).")] = "2,3,4,5,6,7",
    decisions: Annotated[str, typer.Option("--decisions", metavar="KIND[,KIND...]", help="The decision kinds drawn, in turn, each table those its deals have: exchange (one turn), round and buy (declare-then-buy's play-or-pass and purchase), intent (R4.0a), trump (the dealer's R4.3 card), swap (zone), card.")] = "exchange,round,intent,buy,trump,swap,card",
    deals: Annotated[str, typer.Option("--deals", help="Deck orders each truth is computed from (the kept ones are fewer).")] = "2e5",
    min_kept: Annotated[int, typer.Option("--min-kept", help="An option counts where its truth has this many deals.")] = 200,
    infer: Annotated[str | None, typer.Option("--infer", help="advise's --infer (default: its own).")] = None,
    target_se: Annotated[float | None, typer.Option("--target-se", help="advise's --target-se (default: its own).")] = None,
    out: Annotated[str | None, typer.Option("--out", help="Folder for options.csv, positions.csv, summary.csv and report.md (default data/check-advice/s<SEED>).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing folder.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object (rows by game and decision kind, and 'all').")] = False,
    calibrate: Annotated[str | None, typer.Option("--calibrate", metavar="PATH.csv", help="Also fit advise's model-error table from these positions (rams_sim/advice/model_error.py) and write it to PATH.csv; `make calibrate` writes the package's own, rams_sim/data/model_error.csv.")] = None,
) -> None:
    """Hold advise's answers against the truth: positions drawn from simulated expert deals, each
    answered by advise and by branch data (every option forced on decks consistent with what the seat
    saw, the others' history matched); reports, by game and decision kind, how often advise's 95%
    intervals cover the truth (means and paired differences from its best), their median
    half-width, how often its best option is the truth's best, and the points a deal lost by
    following it, each with its 95% interval.
    """
    from ..advice.check import CheckConfig, check_tables, run_check, summary_markdown, write_report
    from ..advice.notation import AdviceError

    n_positions = parse_count(positions, "--positions")
    n_deals = parse_count(deals, "--deals")
    if not 0 <= seed < 2**64:
        fail(f"--seed must be a whole number from 0 to 2**64 - 1; got {seed}")
    options = {k: v for k, v in (("infer", infer), ("target_se", target_se)) if v is not None}
    from ..advice.check import KIND_WORDS

    stages = tuple(KIND_WORDS.get(k, k) for k in _list(decisions, "--decisions", str))
    sizes = _list(players, "--players", int)
    presets = _list(preset, "--rules", str) if preset is not None else _played_at(sizes)
    config = CheckConfig(n_positions, seed, presets, sizes, n_deals, min_kept, advise_options=options, stages=stages)
    try:
        check_tables(config)
    except ValueError as err:
        fail(str(err))
    if calibrate is not None and not calibrate.endswith(".csv"):
        fail(f"--calibrate takes a CSV file name ending in .csv; got {calibrate!r}")
    target = Path(out) if out else Path("data") / "check-advice" / f"s{seed}"
    if target.exists() and not force:
        fail(f"{target} exists; pass --force to replace it")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    except OSError as err:
        fail(f"cannot write {target}: {err.strerror or err}")
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    start = time.perf_counter()

    def lines(done: int, total: int) -> None:  # no terminal (a log, CI): a line every tenth of the positions
        if done == total or done % max(1, total // 10) == 0:
            typer.echo(f"{done}/{total} positions, {time.perf_counter() - start:.0f} s", err=True)

    try:
        if not sys.stderr.isatty():
            opts, spots, summary = run_check(config, progress=lines)
        else:
            with Progress(TextColumn("positions"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                          TimeRemainingColumn(), transient=True) as bar:  # fmt: skip
                job = bar.add_task("check", total=n_positions)
                opts, spots, summary = run_check(config, progress=lambda done, total: bar.update(job, completed=done))
        write_report(scratch, config, opts, spots, summary, time.perf_counter() - start)
        if target.exists():
            shutil.rmtree(target)
        scratch.rename(target)  # the folder appears whole, or not at all
    except (ValueError, AdviceError) as err:
        shutil.rmtree(scratch, ignore_errors=True)
        fail(str(err))
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    if calibrate:
        from ..advice import model_error

        table = model_error.fit(opts, seed)
        try:
            model_error.write_table(Path(calibrate), table)
        except OSError as err:
            fail(f"cannot write {calibrate}: {err.strerror or err}")
        typer.echo(f"model-error table of {len(table)} rows written to {calibrate}", err=as_json)
    if as_json:
        typer.echo(json.dumps({"positions": n_positions, "seed": seed, "rows": summary.to_dicts()}, indent=1))
        return
    typer.echo("\n".join(summary_markdown(summary)))
    typer.echo(f"{n_positions} positions in {time.perf_counter() - start:.0f} s; tables and report.md in {target}")
