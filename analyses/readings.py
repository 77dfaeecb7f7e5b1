"""The readings page 9 measures: where the sources are silent, and where a player could read a rule otherwise.

Each :class:`Reading` is one rule option changed from its default, against the preset whose
game reads it (docs/VARIANTS.md gives each default and its reason; RULES.md each R-option).
The readings of one preset are the variants of one paired run (``rams-sim effect``,
rams_sim/runs/effect.py): every deal and party is played under the preset and under each
reading from the same key, so each difference is paired and the baseline is played once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SILENT, OTHERWISE = "silent", "read otherwise"


@dataclass(frozen=True)
class Reading:
    """One reading: ``options`` changed from ``preset``'s defaults."""

    key: str  # a short slug, unique
    preset: str  # the baseline: the preset (and so the game) the reading belongs to
    options: dict[str, Any]
    section: str  # where the rule is: an R-section of RULES.md or an R9 row
    kind: str  # SILENT (an R9 row says nothing; the project chose) or OTHERWISE (an R-option)
    today: str  # the default, in words
    other: str  # the reading measured, in words

    @property
    def text(self) -> str:
        """The reading as ``KEY=VALUE[,…]``, as ``rams-sim effect`` takes it."""
        return ",".join(f"{k}={_value(v)}" for k, v in self.options.items())


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, tuple):
        return ",".join(map(str, v))
    return str(v)


def _r(key, preset, options, section, kind, today, other) -> Reading:
    return Reading(key, preset, options, section, kind, today, other)


READINGS: tuple[Reading, ...] = (
    # ---- the silent readings of R9's rows (issue 36) ----
    _r("duel-points", "duel", {"duel_declaration_points": True}, "R9 duel", SILENT,
       "a declaration that wins the party writes nothing", "it also writes its R5 points"),
    _r("duel-two-pairs", "duel", {"duel_jacks_both": "trump-jack"}, "R9 duel", SILENT,
       "two jack pairs: the first hand's wins", "the pair with the trump jack wins"),
    _r("duel-jacks-vs-rams", "duel", {"duel_four_jacks_senior": False}, "R9 duel", SILENT,
       "four jacks outrank a rams", "a rams outranks four jacks"),
    _r("duel-cap", "duel", {"dave_max": 4}, "R9 duel", SILENT,
       "dave may raise the stake to 64", "dave stops at a stake of 4"),
    _r("duel-dave-lead", "duel", {"dave_lead_only": True}, "R9 duel", SILENT,
       "dave on any turn to play a card", "dave only on one's lead"),
    _r("modern-turn", "modern", {"exchange_order": "declare-then-buy"}, "R9 modern", SILENT,
       "one turn each: play, pass or the widow", "everyone plays or passes, then the widow goes round"),
    _r("modern-jacks", "modern", {"jacks_count": "dealt-or-final"}, "R9 modern", SILENT,
       "the jack pair counts in the hand played", "a pair dealt and laid aside counts too"),
    _r("modern-horns", "modern", {"modern_horns": "from-five"}, "R9 modern", SILENT,
       "the рожки are lost from zero", "only from a score of five"),
    _r("modern-pot", "modern", {"modern_settle": "pot"}, "R9 modern", SILENT,
       "each loser pays his missing points", "each loser pays one stake into the pot"),
    _r("zone-aces", "zone", {"ace_values": (5, 10, 15, 20)}, "R9 zone", SILENT,
       "aces are worth nothing", "aces count as in classic (♠5 ♣10 ♦15 ♥20)"),
    _r("zone-four-aces", "zone", {"four_aces_win": True}, "R9 zone", SILENT,
       "four aces declare nothing", "four aces win the party (R5.1)"),
    _r("zone-finish", "zone", {"zone_finish": "trick"}, "R9 zone", SILENT,
       "the exact finish is judged after the deal", "at the trick that reaches 0 (R8.2)"),
    _r("zone-settle", "zone", {"settle": "remaining"}, "R9 zone", SILENT,
       "the winner gets one stake and the прокат", "the loser pays his remaining score (R8.4)"),
    _r("zone-lead", "zone", {"zone_lead": "partner"}, "R9 zone", SILENT,
       "a lead duty's holder opens", "the dealer's partner always leads"),
    _r("zone-one-trick", "zone", {"zone_jacks": "one-trick"}, "R9 zone", SILENT,
       "jack pairs among a player's won cards", "only two jacks in one trick"),
    _r("zone-both-pairs", "zone", {"zone_jacks_both": "both"}, "R9 zone", SILENT,
       "two pairs: the trump jack's holder writes off", "both write off"),
    _r("zone-overshoot", "zone", {"zone_overshoot": "restart"}, "R9 zone", SILENT,
       "going past 0 writes the total on", "back to the start (R8.3)"),
    # ---- the R-options of classic Rams that a player could read otherwise ----
    _r("declare-then-buy", "classic", {"exchange_order": "declare-then-buy"}, "R4.0", OTHERWISE,
       "one turn each", "everyone plays or passes, then buys"),
    _r("turned-ace", "classic", {"turned_ace_binds_dealer": True}, "R4.1", OTHERWISE,
       "a turned-up ace leaves the dealer free", "it binds him to play and take it"),
    _r("dealer-must-take", "classic", {"dealer_takes_trump": "must"}, "R4.3", OTHERWISE,
       "the dealer may take the trump card", "he must"),
    _r("lone-void", "classic", {"lone_player": "void-deal"}, "R4.5", OTHERWISE,
       "a lone player takes all five tricks", "the deal is void"),
    _r("passers-pay-rams", "classic", {"rams_penalizes_passers": True}, "R5.2", OTHERWISE,
       "only players pay a rams", "passers pay too ([000])"),
    _r("jacks-dealt", "classic", {"jacks_count": "dealt"}, "R5.5", OTHERWISE,
       "jacks count from the dealt or final hand", "from the dealt hand only"),
    _r("jacks-final", "classic", {"jacks_count": "final"}, "R5.5", OTHERWISE,
       "jacks count from the dealt or final hand", "from the final hand only"),
    _r("overtrump", "classic", {"ruff": "overtrump"}, "R6.3", OTHERWISE,
       "any trump satisfies the duty to trump", "he must overtrump"),
    _r("must-head", "classic", {"must_head": True}, "R6.3a", OTHERWISE,
       "no duty to head the trick", "he must beat it when he can (Loo)"),
    _r("no-ace-cover", "classic", {"ace_covers_face": False}, "R6.7", OTHERWISE,
       "the trump ace must fall on a trump face", "no such duty"),
    _r("score-so-far", "classic", {"truncated_deal": "score-so-far"}, "R8.2a", OTHERWISE,
       "a deal cut short freezes the others", "everyone scores his tricks so far"),
    _r("stake", "classic", {"settle": "stake"}, "R8.4", OTHERWISE,
       "each loser pays his remaining score", "the highest score pays one stake"),
)  # fmt: skip
BASELINES = tuple(dict.fromkeys(r.preset for r in READINGS))  # classic, duel, modern, zone: one paired run each


def of_preset(preset: str) -> tuple[Reading, ...]:
    """The readings measured against ``preset``, in the order of its paired run's variants."""
    return tuple(r for r in READINGS if r.preset == preset)
