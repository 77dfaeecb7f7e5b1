"""The ``rams-sim`` command line: options -> Rules/PolicySpec -> engine -> summary.

No game logic lives here. User mistakes end in a one-line error and exit code 2.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..games import GAMES
from ..policies import PolicySpec
from ..record import Declaration
from ..rules import OPTION_HELP, PRESETS, Rules, no_effect, own_options
from ..version import __version__
from . import advise as cli_advise
from . import check as cli_check
from . import effect as cli_effect
from . import sweep as cli_sweep
from .common import PlayersOpt, PresetOpt, RuleOpt, build_rules, fail, parse_count, parse_index
from .spec import (
    ChunkOpt,
    DealerOpt,
    ForceOpt,
    OutOpt,
    PolicyOpt,
    ResumeOpt,
    SeedOpt,
    ThreadsOpt,
    build_policies,
    build_spec,
    check_seat,
    check_seed,
    execute,
    set_threads,
)

app = typer.Typer(
    help="Monte-Carlo strategy analysis for the Russian card game Rams (Рамс).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
def _show_version(value: bool) -> None:
    """``--version``: the package version (from git: it changes with the code, issue 38) and exit."""
    if value:
        typer.echo(f"rams-sim {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool | None, typer.Option("--version", help="Print the version of rams-sim and exit.",
                                                    callback=_show_version, is_eager=True)] = None,
) -> None:
    """Monte-Carlo strategy analysis for the Russian card game Rams (Рамс)."""


rules_app = typer.Typer(help="List the rule presets and show their options.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


def _settle_name(rules: Rules) -> str:
    """The settlement in force: the game's settlement option (modern has its own, docs/VARIANTS.md)."""
    return getattr(rules, GAMES[rules.game].settle_option).value


def _delta_sense(rules: Rules) -> str:
    """Which way a score delta is good: modern counts up to 20 (R9), every other game down."""
    return "positive = points gained" if GAMES[rules.game].counts_up else "negative = written off"


def _format(est, percent: bool = False) -> str:
    if percent:
        return f"{est.value:7.2%} [{est.low:.2%}, {est.high:.2%}]"
    return f"{est.value:+8.3f} ± {est.half_width:.3f}"


@app.command()
def run(
    deals: Annotated[str, typer.Option("--deals", help="Number of deals: 1e7, 10000000 or 10_000_000.")] = "1e6",
    preset: PresetOpt = "classic",
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    policy: PolicyOpt = None,
    seed: SeedOpt = 0,
    dealer: DealerOpt = None,
    out: OutOpt = None,
    threads: ThreadsOpt = None,
    force: ForceOpt = False,
    resume: ResumeOpt = False,
    log_plays: Annotated[bool, typer.Option("--log-plays", help="Also record every card played (columns card1..card5, led, won); for small runs.")] = False,
    chunk: ChunkOpt = None,
    aggregate: Annotated[str | None, typer.Option("--aggregate", metavar="KEYS", help=AGGREGATE_HELP)] = None,
) -> None:
    """Simulate single deals with the fast engine into a Parquet dataset, one row per (deal, seat).

    The columns are listed in README.md; the rules, policies, seed and software versions
    are in every file's metadata and in manifest.json. With --aggregate the run keeps only
    counts and sums by the keys (aggregate.parquet in the run folder).
    """
    from ..runs import runner
    from ..runs.summary import deal_summary

    n_deals = parse_count(deals, "--deals")
    check_seed(seed)
    rules = build_rules(preset, players, rule)
    seats = build_policies(policy, rules.players)
    check_seat(dealer, rules, "--dealer")
    keys = tuple(aggregate.split(",")) if aggregate is not None else ()  # "" gives ("",): refused, not ignored
    spec = build_spec(runner.DEALS, rules, seats, seed, n_deals, chunk, dealer=dealer, log_plays=log_plays,
                      aggregate=keys)  # fmt: skip
    result = execute(spec, out, force, resume, threads, "deals")
    if spec.aggregate:
        _aggregate_summary(result.path, spec.aggregate, rules)
        return
    summary = deal_summary(result.path)
    typer.echo(f"mean score delta per deal by seat ({_delta_sense(rules)}), 95% CI, n = {summary.deals:,} deals:")
    for seat, est in summary.delta.items():
        typer.echo(f"  seat {seat}: {_format(est)}")
    typer.echo("declarations (per 100 deals; jack pairs may come several to a deal):")
    for code in (Declaration.JACK_PAIR, Declaration.FOUR_JACKS, Declaration.SUIT_RAMS, Declaration.TRUMP_RAMS, Declaration.FOUR_ACES):
        typer.echo(f"  {code.name.lower().replace('_', ' '):<12} {100 * summary.per_deal(code):8.4f}   ({summary.declarations.get(code, 0):,})")


AGGREGATE_HELP = (
    "Keep counts and sums by these comma-separated keys instead of one row per (deal, seat): n, delta_sum, "
    "delta_sq_sum, tricks_sum, tricks_sq_sum, remiz and each declaration's count, per combination of key values "
    "(aggregate.parquet; means and 95% CIs follow from them). Keys: seat, position (0 = the dealer's left .. "
    "players-1 = the dealer), dealer, trump, aces (suit mask of the aces in the final hand), n_aces, dealt_aces, "
    "trump_suit_held (trump cards in the final hand), passed, declaration, tricks, outcome. E.g. seat,aces."
)


def _aggregate_summary(path: Path, keys: tuple[str, ...], rules: Rules) -> None:
    """The end of an aggregated run: how many cells, and the mean delta by the first key."""
    from ..runs.aggregate import with_estimates
    from ..runs.read import merge_cells, read_run

    table = read_run(path)
    first = with_estimates(merge_cells(table.lazy(), keys[:1]))
    typer.echo(f"{table.height:,} combinations of {', '.join(keys)} in {path / 'aggregate.parquet'}")
    typer.echo(f"mean score delta per row by {keys[0]} ({_delta_sense(rules)}), 95% CI:")
    for row in first.head(12).iter_rows(named=True):
        typer.echo(f"  {keys[0]} {row[keys[0]]}: {row['delta_mean']:+.3f} [{row['delta_lo']:+.3f}, "
                   f"{row['delta_hi']:+.3f}], n = {row['n']:,}")  # fmt: skip
    if first.height > 12:
        typer.echo(f"  … {first.height - 12} more")


@app.command()
def party(
    parties: Annotated[str, typer.Option("--parties", help="Number of parties: 1e5, 100000 or 100_000.")] = "1e4",
    preset: PresetOpt = "classic",
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    policy: PolicyOpt = None,
    start: Annotated[int | None, typer.Option("--start", help="Starting score of every player, e.g. 100, 150 or 200 (R8.1; default: the preset's).")] = None,
    seed: SeedOpt = 0,
    out: OutOpt = None,
    threads: ThreadsOpt = None,
    force: ForceOpt = False,
    resume: ResumeOpt = False,
    chunk: ChunkOpt = None,
) -> None:
    """Play whole parties (R8) into a Parquet dataset, one row per (party, seat).

    Seat 0 deals first and the deal passes to the left (zone: the loser of a deal deals
    next). Each row holds the deals played, the final score, the winner, how the party
    ended, the stake (duel's dave) and the settlement (option settle, or the game's own).
    """
    from ..runs import runner
    from ..runs.summary import party_summary

    n_parties = parse_count(parties, "--parties")
    check_seed(seed)
    rules = build_rules(preset, players, (rule or []) + ([f"start={start}"] if start is not None else []))
    seats = build_policies(policy, rules.players)
    spec = build_spec(runner.PARTIES, rules, seats, seed, n_parties, chunk)
    result = execute(spec, out, force, resume, threads, "parties")
    summary = party_summary(result.path)
    typer.echo(f"deals per party (from {rules.start}): {summary.deals.value:.2f} ± {summary.deals.half_width:.2f}, "
               f"n = {summary.parties:,} parties")  # fmt: skip
    how = GAMES[rules.game].settlement_text or _settle_name(rules)
    typer.echo(f"by seat (seat 0 deals first), 95% CI: share of parties won; mean settlement ({how}):")
    for seat, won in summary.wins.items():
        typer.echo(f"  seat {seat}: won {_format(won, percent=True)}   settlement {_format(summary.settlement[seat])}")
    typer.echo("how the parties ended:")
    for kind, share in summary.ends.items():
        typer.echo(f"  {kind.name.lower().replace('_', ' '):<12} {_format(share, percent=True)}")


@app.command()
def branch(
    seat: Annotated[int, typer.Option("--seat", help="The seat whose options are replayed (0..players-1).")],
    deals: Annotated[str, typer.Option("--deals", help="Number of deals: 1e6, 1000000 or 1_000_000.")] = "1e5",
    decision: Annotated[str, typer.Option("--decision", help=(
        "The seat's decision whose every option is replayed: exchange (the default; zone's swap, modern's turn, "
        "duel's widow), trump (R4.3: decline, or the card given up; duel-trump's card), card:T (his card in "
        "trick T, 1..5), redeal (modern), offer:T / answer:T (duel's dave in trick T). The option column then "
        "holds -1 or the card given up, the card played, or 0/1."))] = "exchange",
    preset: PresetOpt = "classic",
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    policy: PolicyOpt = None,
    seed: SeedOpt = 0,
    dealer: DealerOpt = None,
    out: OutOpt = None,
    threads: ThreadsOpt = None,
    force: ForceOpt = False,
    resume: ResumeOpt = False,
    chunk: ChunkOpt = None,
) -> None:
    """Replay every deal once per option of one decision of one seat, into Parquet: one row per (deal, option).

    By default the decision is the exchange: pass (where R4.1 allows it), stand, and every
    non-empty discard set of his five cards that the talon allows (R4.4). --decision picks
    another: the dealer's trump card (R4.3), his card in a trick (every card R6 lets him
    play), modern's redeal, duel's dave. Everyone else follows his policy on the same deck
    order and coins, and the seat plays his other decisions with his own policy; a deal in
    which he never meets the decision has no rows. In duel the options
    are the widow's stand (0) and swap (31), and a row's ends_party and stake say who won
    the party in the deal and at what stake (a duel party is settled by its stake: the deal's
    points say nothing about who won it).
    """
    from ..runs import runner

    n_deals = parse_count(deals, "--deals")
    check_seed(seed)
    rules = build_rules(preset, players, rule)
    seats = build_policies(policy, rules.players)
    check_seat(seat, rules, "--seat")
    check_seat(dealer, rules, "--dealer")
    spec = build_spec(runner.BRANCHES, rules, seats, seed, n_deals, chunk, dealer=dealer, seat=seat, decision=decision)
    result = execute(spec, out, force, resume, threads, "deals")
    typer.echo(f"{result.manifest['rows'] / n_deals:.1f} options per deal on average"
               + ("" if spec.decision == "exchange" else f" at decision {spec.decision} (a deal that never met it: none)"))
    if spec.decision != "exchange":
        _decision_summary(result.path, rules, spec.decision)
    elif GAMES[rules.game].settled_by_stake:
        _duel_branch_summary(result.path, seat)


def _decision_summary(folder: Path, rules, name: str) -> None:
    """Per option of a ``branch --decision`` run: its rows and the seat's mean delta with its 95% CI
    (each option's own deals: a card open in some deals only is averaged over those)."""
    import polars as pl

    from ..decisions import option_label, parse_decision
    from ..runs.read import PART_GLOB
    from ..runs.summary import mean_ci

    decision = parse_decision(name, rules)
    data = pl.scan_parquet(Path(folder) / PART_GLOB).group_by("option").agg(
        pl.len().alias("n"), pl.col("delta").mean().alias("mean"), pl.col("delta").std().alias("std")).collect()
    typer.echo(f"the seat's delta per option of {name} (95% CI; each option over the deals it was open in):")
    for row in data.sort("option").iter_rows(named=True):
        typer.echo(f"  {option_label(decision, row['option']):<14} n = {row['n']:>9,}: "
                   f"{_format(mean_ci(row['mean'], row['std'], row['n']))}")  # fmt: skip


def _duel_branch_summary(folder: Path, seat: int) -> None:
    """Per widow option of a duel ``branch`` run: how often the deal won the seat the party, and
    its settlement in stakes (+stake won, -stake lost, 0 where the party goes on), with 95% CIs."""
    import numpy as np
    import polars as pl

    from ..runs.read import PART_GLOB
    from ..runs.summary import mean_ci, wilson

    data = pl.scan_parquet(Path(folder) / PART_GLOB).select("option", "ends_party", "stake").collect()
    typer.echo(f"seat {seat}'s party in the deal, per widow option (95% CI; settled by the stake, not the deal's points):")
    for option, name in ((0, "stand"), (31, "swap")):
        rows = data.filter(pl.col("option") == option)
        if rows.height == 0:
            continue
        ends, stake = rows["ends_party"].to_numpy(), rows["stake"].to_numpy()
        value = np.where(ends == seat, stake, np.where(ends >= 0, -stake, 0)).astype(float)
        won = wilson(int((ends == seat).sum()), rows.height)
        settled = mean_ci(float(value.mean()), float(value.std(ddof=1)) if rows.height > 1 else None, rows.height)
        typer.echo(f"  {name:<6} n = {rows.height:,}: won {_format(won, percent=True)}   settlement {_format(settled)}")


@app.command()
def replay(
    deal: Annotated[str, typer.Option("--deal", help="The deal's index in the run (0, 1, …).")] = "0",
    seed: SeedOpt = 0,
    preset: PresetOpt = "classic",
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    policy: PolicyOpt = None,
    dealer: Annotated[int | None, typer.Option("--dealer", help="The fixed dealer of the run, if it had one.")] = None,
) -> None:
    """Tell one deal of a run step by step: hands, trump, exchange, declarations, tricks, deltas.

    Give the options the run was made with; the story is the deal `run` recorded.
    """
    from ..replay import replay_lines

    index = parse_index(deal, "--deal")
    check_seed(seed)
    rules = build_rules(preset, players, rule)
    seats = build_policies(policy, rules.players)
    check_seat(dealer, rules, "--dealer")
    for line in replay_lines(rules, seats, seed=seed, deal=index, dealer=dealer):
        typer.echo(line)


@app.command()
def compare(
    a: Annotated[str, typer.Argument(help="Policy A, e.g. basic or basic:pass_threshold=1.5.")],
    b: Annotated[str, typer.Argument(help="Policy B.")],
    deals: Annotated[str, typer.Option("--deals", help="Deals to play (at most, with --target-se): 1e6, 1000000 or 1_000_000.")] = "1e5",
    preset: PresetOpt = "classic",
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    baseline: Annotated[str, typer.Option("--baseline", help="Policy of the seats that are not focal.")] = "basic",
    seed: SeedOpt = 0,
    target_se: Annotated[
        float | None, typer.Option("--target-se", help="Stop once the standard error of the paired difference is at most this.")
    ] = None,
    threads: ThreadsOpt = None,
) -> None:
    """Compare policies A and B on the same deals, each seat focal in turn (paired, common random numbers).

    For every deal each seat plays A once and B once while the others play the
    baseline; the paired sample is the mean over focal seats of delta(A) - delta(B).
    """
    from rich.progress import Progress

    from ..compare import compare as run_compare

    n_deals = parse_count(deals, "--deals")
    check_seed(seed)
    rules = build_rules(preset, players, rule)
    try:
        spec_a, spec_b, spec_base = (PolicySpec.parse(t) for t in (a, b, baseline))
    except ValueError as err:
        fail(str(err))
    if target_se is not None and not (math.isfinite(target_se) and target_se > 0):
        fail(f"--target-se must be a positive number; got {target_se}")
    set_threads(threads)
    typer.echo(f"compare {spec_a} vs {spec_b}: {rules.preset}, {rules.players} players, baseline {spec_base}, seed {seed}; "
               "each seat focal in turn on the same deck orders")  # fmt: skip
    with Progress(transient=True) as bar:
        job = bar.add_task("deals", total=n_deals)
        result = run_compare(rules, spec_a, spec_b, baseline=spec_base, seed=seed, deals=n_deals, target_se=target_se,
                             progress=lambda done, total: bar.update(job, completed=done))  # fmt: skip
    typer.echo(f"mean score delta of a focal seat per deal ({_delta_sense(rules)}), 95% CI, n = {result.deals:,} deals:")
    width = max(len(str(spec_a)), len(str(spec_b)))
    for spec, delta, remiz in ((spec_a, result.delta_a, result.remiz_a), (spec_b, result.delta_b, result.remiz_b)):
        typer.echo(f"  {spec!s:<{width}} {_format(delta)}   remiz {_format(remiz, percent=True)}")
    typer.echo(f"paired difference {spec_a} - {spec_b}: {_format(result.diff)} per deal (n = {result.deals:,})")
    typer.echo(f"verdict: {result.verdict()}")


@rules_app.command("list")
def rules_list() -> None:
    """List every preset of R9 with its status and source."""
    for name, info in PRESETS.items():
        status = "implemented" if info.implemented else "not yet"
        typer.echo(f"{name:<13} {status:<12} {info.source:<17} {info.summary}")


@rules_app.command("show")
def rules_show(name: Annotated[str, typer.Argument(help="Preset name, e.g. classic.")] = "classic") -> None:
    """Show every option of a preset with its value and meaning; the options its game does not read last."""
    if name not in PRESETS:
        fail(f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}")
    info = PRESETS[name]
    if not info.implemented:
        fail(f"preset {name!r} is not implemented yet ({info.source}: {info.summary})")
    rules = Rules.named(name)
    values = rules.to_dict()
    idle = no_effect(rules)

    def text(key: str) -> str:
        value = values[key]
        return ",".join(map(str, value)) if isinstance(value, list) else str(value).lower() if isinstance(value, bool) else str(value)

    typer.echo(f"{name} ({info.source}): {info.summary}")
    for key in own_options(rules.game):
        if key not in idle:
            typer.echo(f"  {key:<24} {text(key):<16} {OPTION_HELP[key]}")
    if idle:
        typer.echo(f"no effect in {name} (changing them changes no deal; `effect` refuses them):")
        for key in own_options(rules.game):
            if key in idle:
                typer.echo(f"  {key:<24} {text(key):<16} {idle[key]}")
    others = [g.value for g, game in GAMES.items() if g != rules.game and game.options]
    typer.echo(f"(the options of the {', '.join(others)} games are refused here)")


app.command("advise")(cli_advise.advise)
app.command("sweep")(cli_sweep.sweep)
app.command("effect")(cli_effect.effect)
app.command("check-advice")(cli_check.check_advice)

# click's own exception base (typer vendors click in newer versions, so it is found, not imported)
_CLICK_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def main() -> None:
    """Entry point of the ``rams-sim`` command and of ``python -m rams_sim``.

    click's own usage errors (a value of the wrong type, an unknown option) end like ours:
    one line and exit code 2, instead of a boxed panel.
    """
    try:
        code = app(prog_name="rams-sim", standalone_mode=False)
    except _CLICK_ERROR as err:
        if type(err).__name__ == "NoArgsIsHelpError":  # no arguments: the help, as before
            err.show()
        else:
            typer.echo(f"error: {err.format_message()}", err=True)
        sys.exit(err.exit_code)
    _leave(code if isinstance(code, int) else 0)


def _leave(code: int) -> None:
    """End the process with ``code`` once the output is flushed, without the interpreter's teardown.

    A command's files are complete and closed by now (every part and manifest is written under a
    temporary name, then renamed); what the teardown would still do is free the loaded kernels,
    the data frames' memory and the thread pools, which took 0.1-0.25 s after a run, a
    thirtieth of ``rams-sim run --deals 1e7``. The operating system frees all of it at once.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
