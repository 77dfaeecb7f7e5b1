"""The ``rams-sim`` command line: options -> Rules/PolicySpec -> engine -> summary.

No game logic lives here. User mistakes end in a one-line error and exit code 2.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Annotated, Optional

import numpy as np
import typer

from . import __version__
from .policies import PolicySpec, seat_policies
from .record import Declaration
from .rules import OPTION_HELP, PRESETS, Rules

app = typer.Typer(
    help="Monte-Carlo strategy analysis for the Russian card game Rams (Рамс).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(help="List the rule presets and show their options.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


def fail(message: str) -> None:
    """Print a one-line error and exit with code 2 (a user mistake, not a crash)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def parse_count(text: str, what: str) -> int:
    """Parse a positive count given as 1e7, 10000000 or 10_000_000."""
    cleaned = text.replace("_", "").strip()
    try:
        value = float(cleaned) if any(c in cleaned for c in ".eE") else int(cleaned)
    except ValueError:
        fail(f"{what} must be a positive whole number such as 1e6, 1000000 or 1_000_000; got {text!r}")
    if not math.isfinite(value) or value != int(value) or value <= 0:
        fail(f"{what} must be a positive whole number; got {text!r}")
    return int(value)


def build_rules(preset: str, players: int, overrides: list[str]) -> Rules:
    """The rule set a command asked for, or a one-line error."""
    try:
        return Rules.named(preset, players=players).with_overrides(overrides or [])
    except (ValueError, TypeError) as err:  # PresetNotImplemented is a ValueError
        fail(str(err))


def build_policies(specs: list[str], players: int) -> list[PolicySpec]:
    """Per-seat policies from ``--policy NAME`` (every seat) and ``--policy SEAT=NAME``."""
    seats = [PolicySpec.parse("basic")] * players
    try:
        for text in specs or []:
            head, sep, rest = text.partition("=")
            if sep and head.strip().isdigit():
                seat = int(head)
                if not 0 <= seat < players:
                    fail(f"--policy seat {seat} is not a seat of a {players}-player table (0..{players - 1})")
                seats[seat] = PolicySpec.parse(rest)
            else:
                seats = [PolicySpec.parse(text)] * players
        return seat_policies(seats, players)
    except ValueError as err:
        fail(str(err))


PresetOpt = Annotated[str, typer.Option("--rules", help="Rule preset: classic, handbook or encyclopedia (see `rams-sim rules list`).")]
PlayersOpt = Annotated[int, typer.Option("--players", "-n", help="Players at the table, 2-7 (R2).")]
RuleOpt = Annotated[
    Optional[list[str]],
    typer.Option("--rule", help="Override one option of the preset, KEY=VALUE (repeatable), e.g. ruff=overtrump."),
]
PolicyOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--policy",
        help="Policy of every seat (NAME) or of one seat (SEAT=NAME); NAME is random or basic, with optional "
        "parameters NAME:KEY=VALUE,... e.g. basic:pass_threshold=1.5,announce=false. Repeatable.",
    ),
]


@app.command()
def simulate(
    deals: Annotated[str, typer.Option("--deals", help="Number of deals: 1e6, 1000000 or 1_000_000.")] = "100_000",
    preset: PresetOpt = "classic",
    players: PlayersOpt = 4,
    rule: RuleOpt = None,
    policy: PolicyOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed: deal d's randomness is a function of (seed, d).")] = 0,
    threads: Annotated[Optional[int], typer.Option("--threads", help="Threads for the kernels (default: all cores).")] = None,
) -> None:
    """Simulate single deals with the fast engine and print a short summary (no file is written)."""
    from . import engine

    n_deals = parse_count(deals, "--deals")
    if not 0 <= seed < 2**64:
        fail(f"--seed must be a whole number from 0 to 2**64 - 1; got {seed}")
    rules = build_rules(preset, players, rule)
    seats = build_policies(policy, rules.players)
    if threads is not None:
        import numba

        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            fail(f"--threads must be 1..{numba.config.NUMBA_NUM_THREADS}; got {threads}")
        numba.set_num_threads(threads)
    typer.echo(f"rams-sim {__version__}: {n_deals:,} deals, {rules.preset}, {rules.players} players, "
               f"{rules.deck_size} cards, policies {', '.join(map(str, seats))}, seed {seed}")  # fmt: skip
    typer.echo("compiling the kernels on first use (cached afterwards)…")
    engine.simulate(rules, seats, seed=seed, deals=min(n_deals, 1000))
    start = time.perf_counter()
    out = engine.simulate(rules, seats, seed=seed, deals=n_deals)
    elapsed = time.perf_counter() - start
    typer.echo(f"played {n_deals:,} deals in {elapsed:.2f} s ({n_deals / elapsed:,.0f} deals/s)")
    typer.echo("mean score delta per deal by seat (negative = written off), 95% CI:")
    delta = out.delta.astype(np.float64)
    for seat in range(rules.players):
        mean = delta[:, seat].mean()
        half = 1.96 * delta[:, seat].std(ddof=1) / np.sqrt(n_deals) if n_deals > 1 else float("nan")
        written_on = np.mean(delta[:, seat] > 0)
        typer.echo(f"  seat {seat}: {mean:+.3f} ± {half:.3f}   written on (remiz or a rams) in {written_on:.2%} of deals")
    decl = out.declaration
    typer.echo("declarations per deal (share of deals where any seat declared it):")
    for code in (Declaration.JACK_PAIR, Declaration.FOUR_JACKS, Declaration.SUIT_RAMS, Declaration.TRUMP_RAMS, Declaration.FOUR_ACES):
        share = np.mean((decl == code).any(axis=1))
        typer.echo(f"  {code.name.lower().replace('_', ' '):<12} {share:.4%}")


@rules_app.command("list")
def rules_list() -> None:
    """List every preset of R9 with its status and source."""
    for name, info in PRESETS.items():
        status = "implemented" if info.implemented else "not yet"
        typer.echo(f"{name:<13} {status:<12} {info.source:<17} {info.summary}")


@rules_app.command("show")
def rules_show(name: Annotated[str, typer.Argument(help="Preset name, e.g. classic.")] = "classic") -> None:
    """Show every option of a preset with its value and meaning."""
    if name not in PRESETS:
        fail(f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}")
    info = PRESETS[name]
    if not info.implemented:
        fail(f"preset {name!r} is not implemented yet ({info.source}: {info.summary})")
    rules = Rules.named(name)
    values = rules.to_dict()
    typer.echo(f"{name} ({info.source}): {info.summary}")
    for key, meaning in OPTION_HELP.items():
        value = values[key]
        text = ",".join(map(str, value)) if isinstance(value, list) else str(value).lower() if isinstance(value, bool) else str(value)
        typer.echo(f"  {key:<24} {text:<16} {meaning}")


def main() -> None:
    """Entry point for ``python -m rams_sim``."""
    app(prog_name="rams-sim")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
