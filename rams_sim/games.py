"""The games of R9, one entry each: everything the package asks about a game, in one place.

A game of R9 is a deal structure: classic Rams (``rams``, R3-R8, with the presets that only
change its options), ``duel``, ``modern`` and ``zone`` (docs/VARIANTS.md). Each is four
things: its kernel module (``rams_sim/kernels/games/``), its reference module
(``rams_sim/reference/games/``), its advice module (``rams_sim/advice/``) and its entry
here, a :class:`GameInfo` in :data:`GAMES`. The rest of the package asks the entry
(``GAMES[rules.game].counts_up``, ``.duty_to_follow`` ...) instead of naming a game, so a new
game is its three modules and one entry (tests/test_games_registry.py counts the files
that still name one).

This module imports nothing of the package: :mod:`rams_sim.rules` imports it (the
:class:`Game` enum lives here and ``rules`` re-exports it), and the kernels, the
reference and the advice read it. The entries' rule hooks (:attr:`GameInfo.check`,
:attr:`GameInfo.score_range` ...) take a :class:`rams_sim.rules.Rules` and read its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any


class Game(StrEnum):
    """R9: the deal structure a preset plays. Each has its own module of kernels (kernels/games/)."""

    RAMS = "rams"  # R3-R8: classic Rams and the presets that only change its options
    DUEL = "duel"  # [000] variants 2 and 3: two players, a widow, any declaration wins, dave
    MODERN = "modern"  # [004] "Рамс современный": 24 cards, a widow offered round, counting up to 20
    ZONE = "zone"  # [004] "Рамс на зоне": two players, 36 cards, exact finish at 15


# ---- the rule hooks of the entries (each takes a Rules) ------------------------------------------
def _validate_zone(rules: Any) -> None:
    """R9 zone: a game for two (docs/VARIANTS.md "zone")."""
    if rules.players != 2:
        raise ValueError(f"zone is a game for 2 players; got players={rules.players!r}")
    if not isinstance(rules.zone_prokat, int) or isinstance(rules.zone_prokat, bool) or rules.zone_prokat < 0:
        raise ValueError(f"option zone_prokat must be a non-negative integer; got {rules.zone_prokat!r}")


def _validate_duel(rules: Any) -> None:
    """R9 duel: two players; every declaration wins (four_jacks_win on); no R4.0a round."""
    if rules.players != 2:
        raise ValueError(f"preset {rules.preset} is played by two players (R9); got players={rules.players!r}")
    if not rules.four_jacks_win:
        raise ValueError(f"preset {rules.preset}: any declaration wins the party, so four_jacks_win cannot be false")
    if rules.intent_round:
        raise ValueError(f"preset {rules.preset} has no R4.0a round (nobody passes); intent_round must be false")
    if not isinstance(rules.dave_max, int) or isinstance(rules.dave_max, bool) or not 1 <= rules.dave_max <= 64:
        raise ValueError(f"option dave_max must be an integer from 1 to 64 (the deal table stores the stake "
                         f"in 8 bits); got {rules.dave_max!r}")  # fmt: skip


MODERN_DECK = 24  # [004]: modern plays the 24-card deck
MODERN_PLAYERS = 4  # [004]: modern is for exactly 4 players


def _validate_modern(rules: Any) -> None:
    """R9 modern (docs/VARIANTS.md): four players, the 24-card deck, either order of R4.0's turns
    but no R4.0a round, counting up."""
    if rules.players != MODERN_PLAYERS:
        raise ValueError(f"preset {rules.preset} is for exactly 4 players ([004]); got players={rules.players}")
    if rules.deck_size != MODERN_DECK:
        raise ValueError(f"preset {rules.preset} plays the 24-card deck ([004]); got deck={rules.deck.value}")
    if rules.intent_round:
        raise ValueError(f"preset {rules.preset} has no R4.0a round (docs/VARIANTS.md: the turns are pass, play or "
                         "take the widow, in either exchange_order): intent_round must be false")  # fmt: skip
    if rules.ace_forbids_pass:
        raise ValueError(f"preset {rules.preset} replaces R4.1's no pass with an ace by modern_no_pass (R9): "
                         "ace_forbids_pass must be false")  # fmt: skip
    for name in ("modern_target", "modern_no_pass"):
        value = getattr(rules, name)
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100:
            raise ValueError(f"option {name} must be an integer from 1 to 100; got {value!r}")
    if not isinstance(rules.start, int) or rules.start >= rules.modern_target:
        raise ValueError(f"option start must be below modern_target ({rules.modern_target}); got {rules.start!r}")


def _counting_down(rules: Any) -> tuple[int | None, int | None]:
    """R8.1, R8.2: a player at 0 or below has won the party, so at least 1; no upper bound (a
    remiz or an overshoot, R7.2, R8.3, raises a score). Zone too: a score never goes below 0,
    and exactly 0 wins (docs/VARIANTS.md "zone")."""
    return 1, None


def _modern_range(rules: Any) -> tuple[int | None, int | None]:
    """R9 modern: counting up, a player at ``modern_target`` or more has won, so at most
    ``modern_target - 1``; below 0 only with ``modern_horns=from-zero`` (from-five writes the
    рожки off only from 5, so a score never goes below 0)."""
    return (0 if rules.modern_horns == "from-five" else None), rules.modern_target - 1


def _impossible_down(rules: Any, score: int) -> str:
    """R8.1, R8.2: why a score below 1 cannot stand before a deal."""
    return "a player at 0 or below has already won the party, so no deal is played from that score (R8.1, R8.2)"


def _impossible_zone(rules: Any, score: int) -> str:
    """R9 zone: exactly 0 wins, and no score goes below 0."""
    return "a player at exactly 0 has won the party, and no score goes below 0 (R9 zone)"


def _impossible_modern(rules: Any, score: int) -> str:
    """R9 modern: the target reached has won; below 0 only with the рожки written off from zero."""
    if score >= rules.modern_target:
        target = rules.modern_target
        return f"a player at {target} (modern_target) or more has already won the party (R9 modern counts up)"
    return ("under modern_horns=from-five the рожки are written off only from 5, so no score goes "
            "below 0 (R9 modern)")  # fmt: skip


_DECLARATION_POINTS = ("suit_rams", "trump_rams", "jack_pair", "four_jacks")  # R5's points of a declaration


def _four_jacks_idle(rules: Any, idle: Mapping[str, str]) -> dict[str, str]:
    """R5.5, R9 from-15: four jacks that win the party write no points."""
    if rules.four_jacks_win and "four_jacks" not in idle:
        return {"four_jacks": "four jacks win the party (four_jacks_win=true)"}
    return {}


def _duel_points_idle(rules: Any, idle: Mapping[str, str]) -> dict[str, str]:
    """R9 duel: a declaration wins the party and writes its R5 points only with duel_declaration_points."""
    if rules.duel_declaration_points:
        return {}
    return {name: "a declaration wins the party and writes nothing (duel_declaration_points=false)"
            for name in _DECLARATION_POINTS}  # fmt: skip


def _idle(reason: str, *names: str) -> dict[str, str]:
    return {name: reason for name in names}


_WIDOW = "a widow replaces R4's exchange and passing"
# the advise command's words for the decisions only one game has (the CLI keeps classic's)
_DUEL_STAGES = {"widow": "stand or swap your hand for the widow (duel)", "dave": "offer dave or not (duel)",
                "answer": "accept or decline the dave offered (duel)",
                "trump": "the card you give up for the trump card (duel-trump)"}  # fmt: skip
_MODERN_STAGES = {"redeal": "keep or demand a redeal (modern)", "turn": "your turn: pass, play or take the widow (modern)",
                  "take": "the widow offered to you: take it or decline (modern, declare-then-buy)",
                  "round": "play or pass (R4.0 declare-then-buy; no pass from modern_no_pass)"}  # fmt: skip
_ZONE_STAGES = {"swap": "stand or swap your hand for the widow (zone)"}


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game of R9: its options, how it counts, its modules and what its positions allow."""

    game: Game
    # ---- its options (rules.py) ----
    options: tuple[str, ...] = ()
    """R9: the options that belong to this game only; under another game they keep their default."""
    no_effect: Mapping[str, str] = field(default_factory=dict)
    """R2-R8's options this game's deal never reads, each with its reason (docs/VARIANTS.md, each
    game's section): `rams-sim rules show` marks them, `rams-sim effect` refuses them."""
    idle_when: Callable[[Any, Mapping[str, str]], dict[str, str]] = _four_jacks_idle
    """R5, R9: the options idle only under some of the game's settings (``(rules, no_effect)``
    -> more ``{option: reason}``): the points of a declaration that wins the party."""
    check: Callable[[Any], None] | None = None
    """R9: the game's own validation of a Rules (players, deck, its options), raising ValueError."""
    # ---- how it counts (R8, R9) ----
    counts_up: bool = False
    """R9 modern: scores count up from 0 to a target, the higher delta the better; the others
    count down to 0 (R8.1), the lower delta the better."""
    score_range: Callable[[Any], tuple[int | None, int | None]] = _counting_down
    """R8.1, R8.2, R9: the scores a player can hold before a deal, ``(lowest, highest)``, None unbounded."""
    impossible: Callable[[Any, int], str] = _impossible_down
    """R8.1, R8.2, R9: why a score outside :attr:`score_range` cannot stand before a deal, in words."""
    settled_by_stake: bool = False
    """R9 duel: the party is settled by its stake (dave doubles it), so an option is worth the
    party's settlement in stakes, not the deal's points."""
    settle_option: str = "settle"
    """R8.4 or the game's own: the option whose value names the party's settlement."""
    settlement_text: str = ""
    """R8.4, R9: the settlement in words where no option names it (zone's прокаты, duel's stake)."""
    # ---- what its deals have (R4-R6) ----
    r4_exchange: bool = False
    """R4: passing, the exchange from the talon, the dealer's R4.3 take and the R4.0a round; the
    strategy table's cells and advise's inference model are made of them. Without: the game's
    own turns (advise's ``--turns``)."""
    no_jack_declaration: str = ""
    """R5.5: why the game has no jack declaration before the play ('' where it has one); advise
    then takes no ``--jacks`` and no ``--redeals``."""
    dave: bool = False
    """R9 duel: a player may double the party's stake (advise's ``--stake``, ``--cube``, ``--dave``)."""
    duty_to_follow: bool = True
    """R6: a follower must follow suit, trump or head (zone: any card answers)."""
    classic_scoring: bool = False
    """R5-R8 as classic Rams scores them (``settle_deal`` scores given hands and tricks)."""
    branch_decisions: tuple[str, ...] = ("exchange", "round", "buy", "intent", "trump", "card")
    """The kinds of decision ``rams-sim branch --decision`` forces in the game (:mod:`rams_sim.decisions`),
    its first decision first under the game's own name: R4's exchange (declare-then-buy's round and
    purchase, R4.0a's announcement where the rules have them), R4.3's trump card, R6's cards."""
    # ---- its modules (dotted names) ----
    kernel: str = ""
    """R9: the kernel module of the game's deal (``rams_sim.kernels.games.<name>``)."""
    kernel_search: str = ""
    """The kernels of a searching seat's decisions in the game (docs/SEARCH.md; classic's is
    :mod:`rams_sim.kernels.pimc`, whose card search duel and modern share)."""
    reference: str = ""
    """R9: the reference module of the game's deal (``rams_sim.reference.games.<name>``)."""
    reference_search: str = ""
    """The reference's search of the game (policy ``pimc``; classic's is :mod:`rams_sim.reference.pimc`)."""
    advice: str = ""
    """``rams-sim advise`` in the game: its positions (``position_builder``) and its kernels
    (``evaluation``), :mod:`rams_sim.advice.search` for classic."""
    args_class: str = ""
    """The name of the game's class of kernel arguments (:mod:`rams_sim.kernels.args`): numba
    compiles a driver per class, so each game's kernels compile apart."""
    # ---- text ----
    advise_stages: Mapping[str, str] = field(default_factory=dict)
    """``rams-sim advise``: the decisions of this game in words, beside classic's (CLI)."""
    p_column: str = "no trick"
    """``rams-sim advise``: the header of the chance column (R7.2's remiz, modern's рожки and
    zone's прокат: no trick; duel: the party won)."""
    # ---- warm.py ----
    warm_preset: str = ""
    """R9: the preset whose kernels ``python -m rams_sim.warm`` compiles for the game (its presets share them)."""
    warm_parts: tuple[str, ...] = ()
    """warm.py: the parts of the game's drivers compiled in processes of their own (classic's two halves)."""
    search_task: str = ""
    """warm.py: the task compiling a searching seat's kernels in the game (docs/SEARCH.md) and advise's
    evaluations (its advice module's ``WARM_QUESTIONS``)."""
    warm_start: int = 0
    """R8.1: the start of the parties warm.py's searching table plays (a start that ends them soon)."""


def _frozen(mapping: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(mapping))


GAMES: Mapping[Game, GameInfo] = MappingProxyType({
    Game.RAMS: GameInfo(
        Game.RAMS, r4_exchange=True, classic_scoring=True,
        kernel="rams_sim.kernels.games.classic", kernel_search="rams_sim.kernels.pimc",
        reference="rams_sim.reference.games.classic", reference_search="rams_sim.reference.pimc",
        advice="rams_sim.advice.search", args_class="ClassicArgs", p_column="P(remiz)",
        warm_preset="classic", search_task="pimc", warm_start=6, warm_parts=("deals", "parties"),
    ),
    Game.DUEL: GameInfo(
        Game.DUEL,
        options=("duel_trump_card", "dave", "dave_max", "dave_lead_only", "duel_declaration_points", "duel_jacks_both",
                 "duel_four_jacks_senior"),
        no_effect=_frozen({
            **_idle(_WIDOW + " (nobody passes)", "exchange_order", "ace_forbids_pass", "turned_ace_binds_dealer",
                    "lone_player", "rams_penalizes_passers"),
            "dealer_takes_trump": "the dealer's trump card is duel_trump_card",
            "settle": "a duel party is settled by its stake",
        }),  # intent_round is refused in duel
        idle_when=_duel_points_idle, check=_validate_duel, settled_by_stake=True,
        settlement_text="the stake, per party",
        no_jack_declaration="any declaration wins the party before the play", dave=True,
        kernel="rams_sim.kernels.games.duel", kernel_search="rams_sim.kernels.games.duel_search",
        reference="rams_sim.reference.games.duel", reference_search="rams_sim.reference.games.duel_search",
        branch_decisions=("widow", "trump", "card", "offer", "answer"),
        advice="rams_sim.advice.duel", args_class="DuelArgs", advise_stages=_frozen(_DUEL_STAGES),
        p_column="win party", warm_preset="duel", search_task="pimc-duel", warm_start=5,
    ),
    Game.MODERN: GameInfo(
        Game.MODERN,
        options=("modern_target", "modern_no_pass", "modern_horns", "modern_settle"),
        no_effect=_frozen({
            **_idle("no card is turned up (the dealer's own last card shows trump)", "turned_ace_binds_dealer",
                    "dealer_takes_trump"),
            **_idle("aces have no role in modern", "ace_values", "four_aces_win"),
            **_idle("four jacks are modern's only rams", "rams_penalizes_passers", "suit_rams", "trump_rams",
                    "four_jacks"),
            "settle": "modern settles by modern_settle",
        }),
        check=_validate_modern, counts_up=True, score_range=_modern_range, impossible=_impossible_modern,
        settle_option="modern_settle",
        kernel="rams_sim.kernels.games.modern", kernel_search="rams_sim.kernels.games.modern_search",
        reference="rams_sim.reference.games.modern", reference_search="rams_sim.reference.games.modern_search",
        branch_decisions=("turn", "redeal", "card"),
        advice="rams_sim.advice.modern", args_class="ModernArgs", advise_stages=_frozen(_MODERN_STAGES),
        warm_preset="modern", search_task="pimc-modern", warm_start=15,
    ),
    Game.ZONE: GameInfo(
        Game.ZONE,
        options=("zone_lead", "zone_jacks", "zone_jacks_both", "zone_overshoot", "zone_prokat", "zone_finish"),
        no_effect=_frozen({
            **_idle("the partner's swap replaces R4's exchange and passing", "exchange_order", "intent_round",
                    "ace_forbids_pass", "turned_ace_binds_dealer", "dealer_takes_trump", "lone_player",
                    "rams_penalizes_passers"),
            **_idle("zone counts the jacks a player wins (zone_jacks)", "jacks_count", "four_jacks_win", "four_jacks"),
            **_idle("zone has no duty to follow (any card answers)", "ruff", "must_head", "ace_covers_face"),
            "truncated_deal": "a zone deal is played out (zone_finish=trick freezes the other player)",
        }),
        check=_validate_zone, impossible=_impossible_zone,
        settlement_text="one stake and the прокаты, zone",
        no_jack_declaration="its jacks count in the tricks won", duty_to_follow=False,
        kernel="rams_sim.kernels.games.zone", kernel_search="rams_sim.kernels.games.zone_search",
        reference="rams_sim.reference.games.zone", reference_search="rams_sim.reference.games.zone_search",
        branch_decisions=("swap", "card"),
        advice="rams_sim.advice.zone", args_class="ZoneArgs", advise_stages=_frozen(_ZONE_STAGES),
        warm_preset="zone", search_task="pimc-zone", warm_start=3,
    ),
})  # fmt: skip
"""Every game of R9, in :class:`Game`'s order."""


def game_info(game: Game | str) -> GameInfo:
    """The entry of ``game`` (a :class:`Game` or its value)."""
    return GAMES[Game(game)]
