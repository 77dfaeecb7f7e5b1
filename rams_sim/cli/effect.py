"""``rams-sim effect``: a rule change measured on the same deals (:mod:`rams_sim.runs.effect`)."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from statistics import NormalDist
from typing import Annotated

import typer

from .common import PresetOpt, build_rules, fail, parse_count


def _variant(text: str, where: str) -> list[str]:
    """The KEY=VALUE pairs of one change; a piece without ``=`` continues the value before it
    (a list option: ``ace_values=5,10,15,20``)."""
    pairs: list[str] = []
    for piece in (p.strip() for p in text.split(",") if p.strip()):
        if "=" in piece:
            pairs.append(piece)
        elif pairs:
            pairs[-1] += "," + piece
        else:
            fail(f"{where} expects KEY=VALUE[,KEY=VALUE...]; got {text!r}")
    if not pairs:
        fail(f"{where} expects KEY=VALUE[,KEY=VALUE...]; got {text!r}")
    return pairs


def _players(text: str | None) -> list[int | None]:
    if text is None:
        return [None]
    try:
        sizes = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        fail(f"--players expects table sizes such as 4 or 3,4,5; got {text!r}")
    if not sizes:
        fail(f"--players expects table sizes such as 4 or 3,4,5; got {text!r}")
    return sizes


def effect(
    change: Annotated[str, typer.Argument(metavar="KEY=VALUE[,KEY=VALUE...]",
                                          help="The rule change to measure against the preset (the baseline), e.g. ace_forbids_pass=false.")],  # fmt: skip
    variant: Annotated[list[str] | None, typer.Option("--variant", metavar="KEY=VALUE[,...]",
                                                         help="Another change, measured against the same baseline on the same deals (repeatable).")] = None,  # fmt: skip
    preset: PresetOpt = "classic",
    players: Annotated[str | None, typer.Option("--players", "-n", metavar="N[,N...]",
                                                   help="Table sizes, each its own paired run (default: the preset's).")] = None,  # fmt: skip
    policy: Annotated[list[str] | None, typer.Option("--policy", help="Policy for every seat, or seat=policy (repeatable); as `run`.")] = None,
    deals: Annotated[str | None, typer.Option("--deals", help="Deals to pair (default 1e6): 1e6, 1000000 or 1_000_000.")] = None,
    parties: Annotated[str | None, typer.Option("--parties", help="Pair whole parties instead of deals: their length, the first dealer's win, his settlement.")] = None,
    target_se: Annotated[float | None, typer.Option("--target-se", help="Stop once every variant's paired difference in the score delta (parties: the length) has a standard error of at most this (checked every 100,000 deals or 2,000 parties; --deals or --parties is then the most).")] = None,
    by: Annotated[str | None, typer.Option("--by", metavar="KEYS", help="Also break the effect down by these keys, each fixed before anyone chooses: seat, position (0 = the dealer's left), dealer, trump, dealt_aces.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed (0..2**64-1): deal d is keyed by (seed, d) in every arm.")] = 0,
    out: Annotated[str | None, typer.Option("--out", help="Run folder (default: data/runs/effect-...); a table size adds -<N>p.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing run folder.")] = False,
    resume: Annotated[bool, typer.Option("--resume", help="Finish an interrupted run of the same options.")] = False,
    threads: Annotated[int | None, typer.Option("--threads", help="Threads for the kernels (default: all cores); the data do not depend on it.")] = None,
    chunk: Annotated[str | None, typer.Option("--chunk", help="Deals (parties) a part file (default 10,000,000 deals; 20,000 parties).")] = None,
    report_path: Annotated[str | None, typer.Option("--report", metavar="PATH.md", help="Also write a Markdown page (the question, the answer with its numbers, a table, a figure beside it, provenance).")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", metavar="tcp://HOST:PORT", help="Compute the chunks on a dask.distributed cluster (README: `dask scheduler`, `dask worker`); the same results as locally.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (rows: variant, measure, by, baseline, value, diff, ci_low, ci_high, n).")] = False,
) -> None:
    """Measure a rule change on the same deals: each deal is played under the preset's rules
    and under every variant from the same deck order and the same coins (common random numbers).

    For each measure: the baseline's value, the variant's, their paired difference with its
    95% CI (deals are the unit: the seats of one deal are not independent) and n; and how many
    deals the change altered at all (any seat's delta, any decision or any card). Several
    variants are each compared with the baseline; where the summary names the largest
    effect, its intervals are simultaneous over the variants (Bonferroni).
    """
    from ..runs import runner
    from .spec import build_policies, build_spec, default_out, execute

    if deals is not None and parties is not None:
        fail("give --deals or --parties, not both")
    if target_se is not None and not (target_se > 0 and target_se < float("inf")):
        fail(f"--target-se must be a positive number; got {target_se}")
    if target_se is not None and scheduler:
        fail("--target-se runs locally: it looks at each chunk before the next (leave out --scheduler)")
    if target_se is not None and chunk is None:
        chunk = "2000" if parties is not None else "100000"
    if report_path is not None and not report_path.endswith(".md"):
        fail(f"--report takes a Markdown file name ending in .md; got {report_path!r}")
    kind = runner.PARTIES if parties is not None else runner.DEALS
    unit = "parties" if kind == runner.PARTIES else "deals"
    count = parse_count(parties if parties is not None else (deals or "1e6"), "--parties" if parties else "--deals")
    changes = [_variant(change, "KEY=VALUE")] + [_variant(v, "--variant") for v in variant or []]
    keys = tuple(k.strip() for k in by.split(",")) if by is not None else ()
    if not 0 <= seed < 2**64:
        fail(f"--seed must be a whole number from 0 to 2**64 - 1; got {seed}")
    report = {"kind": kind, "seed": seed, "tables": []}
    client = _connect(scheduler) if scheduler else None
    sizes = _players(players)
    for n in sizes:
        rules = build_rules(preset, n, [])
        variants = [build_rules(preset, n, pairs) for pairs in changes]
        names = [",".join(pairs) for pairs in changes]
        for name, v in zip(names, variants):
            if v == rules:
                fail(f"variant {name} equals the baseline ({preset}): nothing to compare")
        seats = build_policies(policy, rules.players)
        spec = build_spec(kind, rules, seats, seed, count, chunk, variants=tuple(variants), by=keys)
        target = Path(out) if out else default_out("effect", rules, seed)
        if out and len(sizes) > 1:
            target = target.with_name(f"{target.name}-{rules.players}p")
        # under --json the run's lines go to stderr: stdout holds the JSON alone
        with contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext():
            stop = _stopper(spec, target_se) if target_se is not None else None
            result = execute(spec, str(target), force, resume, threads, unit, client, stop)
            early = result.manifest.get("stopped_early")
            if early:
                typer.echo(f"--target-se {target_se} reached after {early['units']:,} of {count:,} {unit}",
                           err=as_json)  # fmt: skip
            elif target_se is not None:
                typer.echo(f"--target-se {target_se} not reached within {count:,}: the intervals are as wide as "
                           f"{count:,} allow", err=as_json)  # fmt: skip
        report["tables"].append(_results(result.path, spec, names))
    if report_path:
        from ..runs.effect_report import write_report

        figure = write_report(Path(report_path), report["tables"], seed)
        typer.echo(f"report: {report_path} (figure {figure})", err=as_json)
    if as_json:
        typer.echo(json.dumps(_as_json(report), indent=1))
        return
    for table in report["tables"]:
        _summary(table)


def _stopper(spec, target: float):
    """--target-se: whether the finished chunks already measure every variant's paired difference in
    the main measure (delta; parties: length) to a standard error of at most ``target``."""
    import polars as pl

    from ..runs import effect
    from ..runs.runner import PARTIES

    parties = spec.kind == PARTIES
    measure = "length" if parties else "delta"

    def stop(folder: Path, finished) -> bool:
        parts = pl.read_parquet([folder / t.name for t in finished])
        merged = effect.merge(parts.lazy(), spec.by)
        sums = effect.from_table(merged, spec.by, spec.rules.players, len(spec.variants), parties, whole=True)
        rows = effect.estimates(sums, (), spec.rules.players, [str(i) for i in range(len(spec.variants))], parties)
        mine = rows.filter(pl.col("measure") == measure)
        if mine["ci_low"].null_count():
            return False
        se = ((mine["ci_high"] - mine["ci_low"]) / (2 * effect.Z95)).max()
        return se <= target

    return stop


def _connect(scheduler: str):
    from ..runs.sweep import GridError, connect

    try:
        return connect(scheduler)
    except GridError as err:
        fail(str(err))


def _results(path: Path, spec, names: list[str]) -> dict:
    from ..runs import effect
    from ..runs.runner import PARTIES
    from .spec import describe_policies

    parties = spec.kind == PARTIES
    result = effect.read_result(path, spec.rules.players, names, spec.by, parties)
    return {"rules": spec.rules, "names": names, "units": result.units, "changed": result.changed,
            "rows": result.rows, "by_rows": result.by_rows, "by": spec.by, "path": path, "parties": parties,
            "players_text": describe_policies(spec.policies)}  # fmt: skip


def _simultaneous(rows, variants: int):
    """The rows' intervals widened to hold jointly over ``variants`` comparisons (Bonferroni)."""
    import polars as pl

    if variants < 2:
        return rows
    z = NormalDist().inv_cdf(1 - 0.05 / (2 * variants)) / NormalDist().inv_cdf(0.975)
    half = (pl.col("ci_high") - pl.col("diff")) * z
    return rows.with_columns((pl.col("diff") - half).alias("ci_low"), (pl.col("diff") + half).alias("ci_high"))


def _summary(t: dict) -> None:
    import polars as pl

    from ..runs.effect import MEASURE_WORDS, RATE_MEASURES

    rules, unit = t["rules"], "parties" if t["parties"] else "deals"
    typer.echo(f"\neffect against {rules.preset}, {rules.players} players, {t['players_text']}: the same "
               f"{t['units']:,} {unit} in every arm")  # fmt: skip
    rows = _simultaneous(t["rows"], len(t["names"]))
    joint = " (95% CIs simultaneous over the variants)" if len(t["names"]) > 1 else " (95% CI)"
    for name, changed in zip(t["names"], t["changed"]):
        typer.echo(f"  {name}: {changed:,} of {t['units']:,} {unit} changed ({changed / max(t['units'], 1):.2%})")
    typer.echo(f"  {'variant':<28} {'measure':<36} {'baseline':>10} {'variant':>10}   paired difference{joint}")
    shown = ("length", "first_dealer_wins", "settlement") if t["parties"] else ("delta", "remiz", "pass", "before_play", "tricks")
    for row in rows.filter(pl.col("measure").is_in(shown)).iter_rows(named=True):
        pct = row["measure"] in RATE_MEASURES
        f = (lambda x: f"{x:.2%}") if pct else (lambda x: f"{x:+.4f}")
        ci = "" if row["ci_low"] is None else f" [{f(row['ci_low'])}, {f(row['ci_high'])}]"
        typer.echo(f"  {row['variant']:<28} {MEASURE_WORDS.get(row['measure'], row['measure']):<36} "
                   f"{f(row['baseline']):>10} {f(row['value']):>10}   {f(row['diff'])}{ci}")  # fmt: skip
    delta = rows.filter(pl.col("measure") == shown[0])
    if len(t["names"]) > 1 and delta.height:
        big = delta.sort(pl.col("diff").abs(), descending=True).row(0, named=True)
        typer.echo(f"  largest effect on {MEASURE_WORDS[shown[0]]}: {big['variant']} ({big['diff']:+.4f})")
    if t["by_rows"] is not None:
        by = t["by_rows"].filter(pl.col("measure") == shown[0])
        typer.echo(f"  by {', '.join(t['by'])}: {MEASURE_WORDS[shown[0]]}, paired difference (95% CI)")
        for row in by.head(40).iter_rows(named=True):
            cell = ", ".join(f"{k} {row[k]}" for k in t["by"])
            ci = "" if row["ci_low"] is None else f" [{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]"
            typer.echo(f"    {row['variant']:<26} {cell:<24} {row['diff']:+.4f}{ci}  n = {row['n']:,}")
    typer.echo(f"  data: {t['path']}/")


def _as_json(report: dict) -> dict:
    rows = []
    several = len(report["tables"]) > 1
    for t in report["tables"]:
        tables = [(t["rows"], ())] + ([(t["by_rows"], t["by"])] if t["by_rows"] is not None else [])
        for frame, keys in tables:
            for row in frame.iter_rows(named=True):
                by = {k: row[k] for k in keys}
                if several:
                    by = {"players": t["rules"].players, **by}
                rows.append({"variant": row["variant"], "measure": row["measure"], "by": by,
                             "baseline": row["baseline"], "value": row["value"], "diff": row["diff"],
                             "ci_low": row["ci_low"], "ci_high": row["ci_high"], "n": row["n"]})  # fmt: skip
    first = report["tables"][0]
    unit = "parties" if first["parties"] else "deals"
    changed = first["changed"][0] if len(first["names"]) == 1 else dict(zip(first["names"], first["changed"]))
    return {unit: first["units"], f"{unit}_changed": changed, "seed": report["seed"], "rows": rows}
