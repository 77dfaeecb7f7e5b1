"""What the ``rams-sim`` commands share: one-line errors, counts, the rules options (no app here).

:mod:`rams_sim.cli.main` defines the commands on its ``app``; :mod:`rams_sim.cli.advise` adds
``advise``. User mistakes end in a one-line error and exit code 2.
"""

from __future__ import annotations

import math
from typing import Annotated

import typer

from ..rules import PRESETS, Rules


def fail(message: str) -> None:
    """Print a one-line error and exit with code 2 (a user mistake, not a crash)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _parse_whole(text: str, what: str, minimum: int) -> int:
    cleaned = text.replace("_", "").strip()
    kind = "positive" if minimum > 0 else "non-negative"
    try:
        value = float(cleaned) if any(c in cleaned for c in ".eE") else int(cleaned)
    except ValueError:
        fail(f"{what} must be a {kind} whole number such as 1e6, 1000000 or 1_000_000; got {text!r}")
    if not math.isfinite(value) or value != int(value) or value < minimum:
        fail(f"{what} must be a {kind} whole number; got {text!r}")
    return int(value)


def parse_count(text: str, what: str) -> int:
    """Parse a positive count given as 1e7, 10000000 or 10_000_000."""
    return _parse_whole(text, what, 1)


def parse_index(text: str, what: str) -> int:
    """Parse a non-negative index (a deal or party number) given as 42, 1e6 or 1_000_000."""
    return _parse_whole(text, what, 0)


def build_rules(preset: str, players: int | None, overrides: list[str]) -> Rules:
    """The rule set a command asked for, or a one-line error; without ``--players`` the
    preset's own table size (4 unless the preset sets it, e.g. duel's 2)."""
    try:
        sized = {} if players is None else {"players": players}
        return Rules.named(preset, **sized).with_overrides(overrides or [])
    except (ValueError, TypeError) as err:  # PresetNotImplemented is a ValueError
        fail(str(err))


_IMPLEMENTED = ", ".join(name for name, info in PRESETS.items() if info.implemented)
PresetOpt = Annotated[str, typer.Option("--rules", help=f"Rule preset: {_IMPLEMENTED} (see `rams-sim rules list`).")]
PlayersOpt = Annotated[
    int | None, typer.Option("--players", "-n", help="Players at the table, 2-7 (R2); default: the preset's table, else 4.")
]
RuleOpt = Annotated[
    list[str] | None,
    typer.Option("--rule", help="Override one option of the preset, KEY=VALUE (repeatable), e.g. ruff=overtrump."),
]
