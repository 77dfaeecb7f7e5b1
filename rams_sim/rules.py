"""The rule configuration: one immutable :class:`Rules` holding every option of R2–R8.

Every option that RULES.md names is a field here, with the default of the rule book
and a one-line meaning (:data:`OPTION_HELP`) citing its section. Presets are the
named rule systems of R9; those not implemented yet refuse with
:class:`PresetNotImplemented` instead of falling back to something else.

What differs by game of R9 (its own options, the options it never reads, its validation,
how it counts) is its entry in :mod:`rams_sim.games`, which this module reads; :class:`Game`
lives there and is re-exported here.

The kernels never see this class: :func:`rams_sim.kernels.args.rules_args` packs it,
field by field, into a namedtuple of integers and small arrays. This module imports
nothing of the kernels.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import numbers
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from . import cards as C
from .games import GAMES, Game


class Deck(StrEnum):
    """R2: the deck, by table size or explicit."""

    AUTO = "auto"  # [000]: 32 cards for 2-4 players, 52 for 5-7
    AUTO_004 = "auto-004"  # [004]: 32 cards for 2-3 players, 52 for 4-7
    D24 = "24"
    D32 = "32"
    D36 = "36"
    D52 = "52"


class ExchangeOrder(StrEnum):
    """R4.0: one turn per player, or a play/pass round before the buying round."""

    ONE_TURN = "one-turn"
    DECLARE_THEN_BUY = "declare-then-buy"


class DealerTakesTrump(StrEnum):
    """R4.3: the dealer may, or must, take the turned-up trump card."""

    MAY = "may"
    MUST = "must"


class LonePlayer(StrEnum):
    """R4.5: what happens when one player, or none, plays."""

    TAKES_ALL = "takes-all"
    VOID_DEAL = "void-deal"


class JacksCount(StrEnum):
    """R5.5: which hand a jack pair is counted from."""

    DEALT_OR_FINAL = "dealt-or-final"
    DEALT = "dealt"
    FINAL = "final"


class Ruff(StrEnum):
    """R6.3: whether any trump satisfies the duty to trump, or it must overtrump."""

    ANY_TRUMP = "any-trump"
    OVERTRUMP = "overtrump"


class TruncatedDeal(StrEnum):
    """R8.2a: how a deal cut short by the end of the party is scored."""

    FREEZE = "freeze"
    SCORE_SO_FAR = "score-so-far"


class Settle(StrEnum):
    """R8.4: how the party is settled."""

    REMAINING = "remaining"
    STAKE = "stake"


class ZoneLead(StrEnum):
    """R9 zone: who leads first (docs/VARIANTS.md "zone: the first lead")."""

    DUTY = "duty"  # the holder of a lead duty opens with it, else the dealer's partner
    PARTNER = "partner"  # the dealer's partner always leads, any card


class ZoneJacks(StrEnum):
    """R9 zone: where two jacks of one colour count ("Если во взятке 2 Валета одного цвета")."""

    WON_CARDS = "won-cards"  # a same-colour pair among the cards a player won
    ONE_TRICK = "one-trick"  # a trick holding both jacks of one colour


class ZoneJacksBoth(StrEnum):
    """R9 zone: both players collected a pair."""

    TRUMP_JACK = "trump-jack"  # only the winner of the trump jack writes off
    BOTH = "both"  # "по договоренности": both write off


class ZoneOvershoot(StrEnum):
    """R9 zone: writing off past 0 ("списывает более 15 очков, например, 17")."""

    PENALTY = "penalty"  # the total T written off is written on instead: score + T
    RESTART = "restart"  # the write-off stands and T is written on: back to the start


class ZoneFinish(StrEnum):
    """R9 zone: when the exact finish at 0 is judged (docs/VARIANTS.md "zone: counting")."""

    DEAL = "deal"  # at the end of the deal: all five tricks are played, then the count
    TRICK = "trick"  # R8.2's reading: a player who reaches exactly 0 at a trick wins there


class DuelJacksBoth(StrEnum):
    """R9 duel: both players hold a jack pair (one red, one black) at the declarations."""

    FIRST_HAND = "first-hand"  # the dealer's opponent's pair wins, the other is void (R5 step 4c)
    TRUMP_JACK = "trump-jack"  # the pair holding the trump jack wins, the other is void


class ModernHorns(StrEnum):
    """R9 modern: "Списывать очки начинают или с нуля или с пяти набранных очков" (docs/VARIANTS.md)."""

    FROM_ZERO = "from-zero"  # the рожки are always written off; a score may go below zero
    FROM_FIVE = "from-five"  # only from a score of 5 (remiz) up; a score never goes below zero


class ModernSettle(StrEnum):
    """R9 modern: the settlement "за недобранные взятки" or "за банк" (docs/VARIANTS.md)."""

    MISSING = "missing"  # each loser pays the winner (target - his score) stakes
    POT = "pot"  # each loser pays one stake into the pot the winner takes


def enum_code(member: StrEnum) -> int:
    """Return the kernel code of an option value: its position in its enum."""
    return list(type(member)).index(member)


STANDARD_ACE_VALUES = (5, 10, 15, 20)  # R1, R7: ♠A 5, ♣A 10, ♦A 15, ♥A 20
# R1: card points for ranking two rams of one suit (R5.4): A 11, K 5, Q 4, J 2, else pips
CARD_POINTS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 4, 5, 11)


class PresetNotImplemented(ValueError):
    """Raised when a preset of R9 is asked for that is not implemented yet."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of classic Rams (R2–R8), validated on construction.

    Examples
    --------
    >>> Rules().deck_size
    32
    >>> Rules(players=5).deck_size
    52
    >>> Rules.named("handbook").ruff
    <Ruff.OVERTRUMP: 'overtrump'>
    """

    preset: str = "classic"  # R9: the rule system these options start from
    players: int = 4  # R2: 2-7 players
    deck: Deck = Deck.AUTO  # R2: "auto" = [000]'s 32 for <=4 players, 52 above
    exchange_order: ExchangeOrder = ExchangeOrder.ONE_TURN  # R4.0
    intent_round: bool = False  # R4.0a: [004] "Рамс с переговорами": "on trumps" / "on suits" after play/pass
    ace_forbids_pass: bool = True  # R4.1: an ace in the dealt hand forbids a pass (false: analysis variant)
    turned_ace_binds_dealer: bool = False  # R4.1: a turned-up ace forbids the dealer to pass
    dealer_takes_trump: DealerTakesTrump = DealerTakesTrump.MAY  # R4.3: "имеет право"
    lone_player: LonePlayer = LonePlayer.TAKES_ALL  # R4.5
    four_aces_win: bool = True  # R5.1: four aces win the party (false: R9 from-15, they count for nothing)
    rams_penalizes_passers: bool = False  # R5.2: [003] only players who play pay a rams
    jacks_count: JacksCount = JacksCount.DEALT_OR_FINAL  # R5.5
    four_jacks_win: bool = False  # R9 from-15: "Четыре валета – партия", senior to every rams
    ruff: Ruff = Ruff.ANY_TRUMP  # R6.3: [004] any trump satisfies "must trump"
    must_head: bool = False  # R6.3a: Loo's duty to beat the trick
    ace_covers_face: bool = True  # R6.7: [003] the trump ace falls on a trump K, Q or J
    truncated_deal: TruncatedDeal = TruncatedDeal.FREEZE  # R8.2a
    start: int = 100  # R8.1: every score starts here
    settle: Settle = Settle.REMAINING  # R8.4
    max_deals: int = 1000  # R8.2c: a party stops unfinished after this many deals
    ace_values: tuple[int, int, int, int] = STANDARD_ACE_VALUES  # R1/R7, by suit ♠♣♦♥
    remiz: int = 5  # R7.2: written on for taking no trick
    suit_rams: int = 5  # R5.2
    trump_rams: int = 10  # R5.3
    jack_pair: int = 5  # R5.5
    four_jacks: int = 10  # R5.5
    # ---- zone (R9, docs/VARIANTS.md "zone") ----
    zone_lead: ZoneLead = ZoneLead.DUTY  # the first lead: by the lead duties, or always the dealer's partner
    zone_jacks: ZoneJacks = ZoneJacks.WON_CARDS  # a jack pair among a player's won cards, or in one trick
    zone_jacks_both: ZoneJacksBoth = ZoneJacksBoth.TRUMP_JACK  # both collected a pair: the trump jack's, or both
    zone_overshoot: ZoneOvershoot = ZoneOvershoot.PENALTY  # past 0: the total written on, or back to the start
    zone_prokat: int = 1  # the прокат a trickless player pays the other, in party stakes
    zone_finish: ZoneFinish = ZoneFinish.DEAL  # the exact finish judged at the end of the deal, or at the trick
    # ---- duel (R9, docs/VARIANTS.md) ----
    duel_trump_card: bool = False  # [000] Variant 3: "должен снести одну и взять вскрытый козырь"
    dave: bool = False  # [000] Variant 2: "Играют с правилом даве или без него" (on in the duel presets)
    dave_max: int = 64  # our cap on the doubled stake
    dave_lead_only: bool = False  # "на своём ходу" read as "on his lead" (default: any turn to play a card)
    duel_declaration_points: bool = False  # a winning declaration also writes its R5 points (default: every delta 0)
    duel_jacks_both: DuelJacksBoth = DuelJacksBoth.FIRST_HAND  # two jack pairs: the first hand's wins, or the trump jack's
    duel_four_jacks_senior: bool = True  # four jacks outrank a rams (false: a rams outranks four jacks)
    # ---- modern (R9, docs/VARIANTS.md) ----
    modern_target: int = 20  # [004] "пока кто-нибудь из игроков не наберет 20 очков"
    modern_no_pass: int = 17  # [004] "казна": from this score a player may not pass
    modern_horns: ModernHorns = ModernHorns.FROM_ZERO  # [004] the рожки: from zero, or from five
    modern_settle: ModernSettle = ModernSettle.MISSING  # [004] missing points or the pot

    def __post_init__(self) -> None:
        # accept plain strings for the enum options, as the CLI and JSON give them
        for f in dataclasses.fields(self):
            enum_type = _ENUM_FIELDS.get(f.name)
            value = getattr(self, f.name)
            if enum_type is not None and not isinstance(value, enum_type):
                try:
                    object.__setattr__(self, f.name, enum_type(str(value)))
                except ValueError:
                    allowed = ", ".join(m.value for m in enum_type)
                    raise ValueError(f"option {f.name} must be one of {allowed}; got {value!r}") from None
        object.__setattr__(self, "ace_values", tuple(int(v) for v in self.ace_values))
        self._validate()

    def _validate(self) -> None:
        if self.preset not in PRESETS:
            raise ValueError(f"unknown preset {self.preset!r}; known presets: {', '.join(PRESETS)}")
        if not PRESETS[self.preset].implemented:
            done = ", ".join(n for n, p in PRESETS.items() if p.implemented)
            raise PresetNotImplemented(f"preset {self.preset!r} is not implemented yet; implemented presets: {done}")
        self._validate_game_options()
        check = GAMES[self.game].check
        if check is not None:
            check(self)
        if not isinstance(self.players, int) or not C.MIN_SEATS <= self.players <= C.MAX_SEATS:
            raise ValueError(f"players must be an integer from {C.MIN_SEATS} to {C.MAX_SEATS} (R2); got {self.players!r}")
        needed = C.HAND_SIZE * self.players + 1  # R2: five cards each and the trump card
        if needed > self.deck_size:
            raise ValueError(
                f"{self.players} players need at least {needed} cards (five each and the trump card), "
                f"but the deck has {self.deck_size} (R2); choose a larger deck"
            )
        for name in ("start", "max_deals"):
            value = getattr(self, name)
            low = 0 if name == "start" and GAMES[self.game].counts_up else 1  # modern counts up from 0
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                kind = "non-negative" if low == 0 else "positive"
                raise ValueError(f"option {name} must be a {kind} integer; got {value!r}")
        if self.start > 30000:
            raise ValueError(f"option start must be at most 30000 so scores fit 16 bits; got {self.start}")
        if len(self.ace_values) != C.N_SUITS or min(self.ace_values) < 0:
            raise ValueError(f"ace_values needs four non-negative values (♠♣♦♥); got {self.ace_values!r}")
        for name in ("remiz", "suit_rams", "trump_rams", "jack_pair", "four_jacks"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"option {name} must be a non-negative integer; got {value!r}")

    def _validate_game_options(self) -> None:
        """An option that belongs to another game (GAME_OPTIONS) must keep its default."""
        for game, names in GAME_OPTIONS.items():
            if game == self.game:
                continue
            for name in names:
                if getattr(self, name) != _DEFAULTS[name]:
                    presets = ", ".join(n for n, p in PRESETS.items() if p.game == game)
                    raise ValueError(f"option {name} applies only to the {game.value} game (presets {presets}); "
                                     f"preset {self.preset} plays {self.game.value}")  # fmt: skip

    @property
    def game(self) -> Game:
        """The deal structure of the preset (R9): which kernel plays it."""
        return PRESETS[self.preset].game

    @property
    def deck_size(self) -> int:
        """The number of cards in play (R2), resolving ``auto`` by table size."""
        if self.deck == Deck.AUTO:
            return 32 if self.players <= 4 else 52
        if self.deck == Deck.AUTO_004:
            return 32 if self.players <= 3 else 52
        return int(self.deck.value)

    def score_range(self) -> tuple[int | None, int | None]:
        """The scores a player can hold before a deal, ``(lowest, highest)``, ``None`` for no bound.

        * rams, duel: counting down, a player at 0 or below has won the party (R8.1, R8.2),
          so at least 1; no upper bound (a remiz or an overshoot, R7.2, R8.3, raises a score);
        * zone: counting down to exactly 0, which wins; a score never goes below 0 (going
          past 0 writes the excess on, docs/VARIANTS.md "zone"), so at least 1;
        * modern: counting up, a player at ``modern_target`` or more has won, so at most
          ``modern_target - 1``; below 0 only with ``modern_horns=from-zero`` (from-five
          writes the рожки off only from 5, so a score never goes below 0).
        """
        return GAMES[self.game].score_range(self)

    def check_scores(self, scores) -> list[int]:
        """Validate the seats' scores before a deal (the ``scores`` of ``play_deal``/``settle_deal``).

        Returns them as a list of ints; raises ``ValueError`` naming the seat, its score and
        the accepted range for a score no party can reach before a deal (:meth:`score_range`),
        for a score that is not a whole number, or for the wrong number of scores.
        """
        try:
            values = list(scores)
        except TypeError:
            raise ValueError(f"scores needs one value per seat ({self.players}); got {scores!r}") from None
        if len(values) != self.players:
            raise ValueError(f"scores needs one value per seat ({self.players}); got {len(values)}: {values!r}")
        low, high = self.score_range()
        if low is not None and high is not None:
            accepted = f"from {low} to {high}"
        else:
            accepted = f"at least {low}" if low is not None else f"at most {high}"
        out = []
        for seat, value in enumerate(values):
            whole = isinstance(value, numbers.Integral)
            whole = whole or (isinstance(value, numbers.Real) and float(value).is_integer())
            if isinstance(value, bool) or not whole:
                raise ValueError(f"seat {seat}'s score must be a whole number; got {value!r}")
            value = int(value)
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(f"seat {seat} has score {value} before the deal: {self._impossible(value)}; "
                                 f"preset {self.preset} accepts scores {accepted}")  # fmt: skip
            out.append(value)
        return out

    def _impossible(self, score: int) -> str:
        """Why ``score``, outside :meth:`score_range`, cannot stand before a deal."""
        return GAMES[self.game].impossible(self, score)

    # ---- presets ------------------------------------------------------------
    @classmethod
    def named(cls, name: str, **overrides: Any) -> Rules:
        """Return the named rule set of R9, with ``overrides`` applied.

        Raises :class:`PresetNotImplemented` (from validation) for a preset that is
        listed but not built yet, and ``ValueError`` for an unknown name.
        """
        info = PRESETS.get(name)
        if info is None:
            raise ValueError(f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}")
        return cls(preset=name, **{**info.options, **overrides})

    @classmethod
    def classic(cls, **overrides: Any) -> Rules:
        """R9 ``classic``: every default of R2–R8."""
        return cls.named("classic", **overrides)

    @classmethod
    def handbook(cls, **overrides: Any) -> Rules:
        """R9 ``handbook``: the 19th-century handbook text [003]."""
        return cls.named("handbook", **overrides)

    @classmethod
    def encyclopedia(cls, **overrides: Any) -> Rules:
        """R9 ``encyclopedia``: the encyclopedia entry [000]."""
        return cls.named("encyclopedia", **overrides)

    @classmethod
    def from_15(cls, **overrides: Any) -> Rules:
        """R9 ``from-15``: [000] Variant 1 (docs/VARIANTS.md)."""
        return cls.named("from-15", **overrides)

    @classmethod
    def zone(cls, **overrides: Any) -> Rules:
        """R9 ``zone``: [004] "Рамс на зоне" (docs/VARIANTS.md)."""
        return cls.named("zone", **overrides)

    @classmethod
    def duel(cls, **overrides: Any) -> Rules:
        """R9 ``duel``: [000] Variant 2 (docs/VARIANTS.md)."""
        return cls.named("duel", **overrides)

    @classmethod
    def duel_trump(cls, **overrides: Any) -> Rules:
        """R9 ``duel-trump``: [000] Variant 3, the dealer must take the trump card (docs/VARIANTS.md)."""
        return cls.named("duel-trump", **overrides)

    @classmethod
    def negotiations(cls, **overrides: Any) -> Rules:
        """R9 ``negotiations``: [004] "Рамс с переговорами" (declare-then-buy and the R4.0a round)."""
        return cls.named("negotiations", **overrides)

    @classmethod
    def modern(cls, **overrides: Any) -> Rules:
        """R9 ``modern``: [004] "Рамс современный" (docs/VARIANTS.md)."""
        return cls.named("modern", **overrides)

    def replace(self, **changes: Any) -> Rules:
        """Return a copy with ``changes`` applied and validated."""
        return dataclasses.replace(self, **changes)

    def with_overrides(self, pairs: list[str] | tuple[str, ...]) -> Rules:
        """Apply ``KEY=VALUE`` strings (the CLI's ``--rule``), validating keys and values."""
        changes: dict[str, Any] = {}
        for pair in pairs:
            key, sep, text = pair.partition("=")
            key = key.strip().replace("-", "_")
            if not sep:
                raise ValueError(f"--rule expects KEY=VALUE; got {pair!r}; valid keys: {', '.join(option_names())}")
            if key not in option_names():
                raise ValueError(f"unknown rule option {key!r}; valid keys: {', '.join(option_names())}")
            changes[key] = parse_option(key, text.strip())
        return self.replace(**changes)

    # ---- serialisation -------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON-ready values (enums as their text)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, StrEnum) else (list(value) if isinstance(value, tuple) else value)
        out["deck_size"] = self.deck_size
        return out

    def digest(self) -> str:
        """A short hash of the full rule set, for provenance."""
        text = json.dumps(self.to_dict(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Rules)}

_ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "deck": Deck,
    "exchange_order": ExchangeOrder,
    "dealer_takes_trump": DealerTakesTrump,
    "lone_player": LonePlayer,
    "jacks_count": JacksCount,
    "ruff": Ruff,
    "truncated_deal": TruncatedDeal,
    "settle": Settle,
    "zone_lead": ZoneLead,
    "zone_jacks": ZoneJacks,
    "zone_jacks_both": ZoneJacksBoth,
    "zone_overshoot": ZoneOvershoot,
    "zone_finish": ZoneFinish,
    "duel_jacks_both": DuelJacksBoth,
    "modern_horns": ModernHorns,
    "modern_settle": ModernSettle,
}

OPTION_HELP: dict[str, str] = {
    "players": "R2: number of players at the table, 2-7",
    "deck": "R2: auto ([000]: 32 cards for 2-4 players, 52 for 5-7), auto-004 (32 for 2-3, 52 for 4-7), or 24/32/36/52",
    "exchange_order": "R4.0: one-turn (stand, exchange or pass in one turn) or declare-then-buy (play/pass round, then buying)",
    "intent_round": "R4.0a: once all have said play or pass, each player who plays announces 'on trumps' or 'on suits' ([004])",
    "ace_forbids_pass": "R4.1: an ace in the dealt hand forbids a pass (all sources); false is a what-if variant for measuring the rule",
    "turned_ace_binds_dealer": "R4.1: a turned-up ace forbids the dealer to pass and makes him take it",
    "dealer_takes_trump": "R4.3: the playing dealer may (his policy decides) or must discard one card and take the trump card",
    "lone_player": "R4.5: takes-all (a lone player takes all five tricks) or void-deal (the deal scores only jacks)",
    "four_aces_win": "R5.1: four aces win the party at the declaration; false: they count for nothing and the deal plays on (from-15)",
    "rams_penalizes_passers": "R5.2: passers also pay a rams penalty ([000]); false follows [003]",
    "jacks_count": "R5.5: jack pair counted from the dealt-or-final hand (the larger), the dealt hand, or the final hand",
    "four_jacks_win": "R9 from-15: four jacks (counted as jacks_count says, passers' too) win the party, senior to every rams",
    "ruff": "R6.3: any-trump (any trump satisfies the duty to trump) or overtrump (must beat the best trump if able)",
    "must_head": "R6.3a: a follower must play a card that wins the trick when he has one",
    "ace_covers_face": "R6.7: the trump ace must be played on a trick holding the trump K, Q or J",
    "truncated_deal": "R8.2a: when play ends the party, freeze (others score only jacks) or score-so-far",
    "start": "R8.1: the score every player starts the party from",
    "settle": "R8.4: remaining (each loser pays his remaining score) or stake (the highest score pays one stake)",
    "max_deals": "R8.2c: a party not ended after this many deals stops unfinished",
    "ace_values": "R1/R7: values of the aces ♠,♣,♦,♥ (comma-separated)",
    "remiz": "R7.2: points written on for taking no trick",
    "suit_rams": "R5.2: points of a rams of a plain suit",
    "trump_rams": "R5.3: points of a trump rams",
    "jack_pair": "R5.5: points written off for a same-colour jack pair",
    "four_jacks": "R5.5: points written off for all four jacks (unused while four_jacks_win holds)",
    "zone_lead": "R9 zone: duty (the holder of a lead duty opens with it, else the dealer's partner) or partner (always him)",
    "zone_jacks": "R9 zone: won-cards (a same-colour jack pair among a player's won cards) or one-trick (in one trick)",
    "zone_jacks_both": "R9 zone: both players collected a pair: trump-jack (only the trump jack's winner writes off) or both",
    "zone_overshoot": "R9 zone: writing off past 0: penalty (the total written off is written on) or restart (back to start)",
    "zone_prokat": "R9 zone: the прокат a player with no trick pays the other, in party stakes",
    "zone_finish": "R9 zone: when the exact finish at 0 is judged: deal (after all five tricks) or trick (R8.2: he stops and wins there)",
    "duel_trump_card": "R9 duel: the dealer must give up one of the five cards he keeps for the trump card (duel-trump)",
    "dave": "R9 duel: a player may double the party's stake (dave) before he plays a card; declined, he wins",
    "dave_max": "R9 duel: no dave may raise the stake above this (1-64)",
    "dave_lead_only": "R9 duel: dave only on one's lead ('на своём ходу' read narrowly); default any turn to play a card",
    "duel_declaration_points": "R9 duel: a declaration that wins the party also writes its R5 points in the deal (false: every delta 0)",
    "duel_jacks_both": "R9 duel: both hold a jack pair: first-hand (the dealer's opponent's wins) or trump-jack (the trump jack's pair wins)",
    "duel_four_jacks_senior": "R9 duel: four jacks outrank a rams when both are declared (false: the rams wins)",
    # ---- modern (R9, docs/VARIANTS.md) ----
    "modern_target": "R9 modern: the score (counting up) whose first reacher wins the party",
    "modern_no_pass": "R9 modern: 'казна', from this score a player may not pass",
    "modern_horns": "R9 modern: the рожки (remiz lost with no trick): from-zero (always) or from-five (only from a score of remiz up)",
    "modern_settle": "R9 modern: missing (each loser pays target - his score) or pot (each loser pays one stake to the winner)",
}


def option_names() -> list[str]:
    """The option keys ``--rule KEY=VALUE`` accepts."""
    return list(OPTION_HELP)


def parse_option(key: str, text: str) -> Any:
    """Turn the text of one option into its value, with a message naming valid values."""
    enum_type = _ENUM_FIELDS.get(key)
    if enum_type is not None:
        try:
            return enum_type(text)
        except ValueError:
            allowed = ", ".join(m.value for m in enum_type)
            raise ValueError(f"rule option {key} must be one of {allowed}; got {text!r}") from None
    default = getattr(Rules(), key)
    if isinstance(default, bool):
        lowered = text.lower()
        if lowered in ("true", "1", "yes", "on"):
            return True
        if lowered in ("false", "0", "no", "off"):
            return False
        raise ValueError(f"rule option {key} must be true or false; got {text!r}")
    if isinstance(default, tuple):
        try:
            return tuple(int(v) for v in text.split(","))
        except ValueError:
            raise ValueError(f"rule option {key} must be integers separated by commas; got {text!r}") from None
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise ValueError(f"rule option {key} must be an integer; got {text!r}") from None


@dataclass(frozen=True, slots=True)
class PresetInfo:
    """One named rule set of R9."""

    source: str
    summary: str
    implemented: bool
    options: dict[str, Any] = field(default_factory=dict)
    game: Game = Game.RAMS  # the deal structure (kernel) the preset plays


PRESETS: dict[str, PresetInfo] = {
    "classic": PresetInfo("[000][003][004]", "every default of R2-R8", True),
    "handbook": PresetInfo(
        "[003]",
        "declare-then-buy, deck auto-004, stake settlement, overtrump, jacks counted as dealt",
        True,
        {
            "exchange_order": ExchangeOrder.DECLARE_THEN_BUY,
            "deck": Deck.AUTO_004,
            "settle": Settle.STAKE,
            "rams_penalizes_passers": False,
            "ruff": Ruff.OVERTRUMP,
            "jacks_count": JacksCount.DEALT,
        },
    ),
    "encyclopedia": PresetInfo(
        "[000]",
        "passers pay a rams, remaining-score settlement, no ace-covers-face duty",
        True,
        {"rams_penalizes_passers": True, "settle": Settle.REMAINING, "ace_covers_face": False},
    ),
    "from-15": PresetInfo(
        "[000] variant 1",
        "start at 15, aces worthless, four jacks win the party, four aces count for nothing",
        True,
        {"start": 15, "ace_values": (0, 0, 0, 0), "four_aces_win": False, "four_jacks_win": True},
    ),
    "duel": PresetInfo(
        "[000] variant 2",
        "two players from 5, a five-card widow, any declaration wins the party, dave, settled per party",
        True,
        {"players": 2, "start": 5, "four_aces_win": False, "four_jacks_win": True, "dave": True},
        game=Game.DUEL,
    ),
    "duel-trump": PresetInfo(
        "[000] variant 3",
        "duel where the dealer must give up a card for the trump card",
        True,
        {"players": 2, "start": 5, "four_aces_win": False, "four_jacks_win": True, "dave": True, "duel_trump_card": True},
        game=Game.DUEL,
    ),
    "negotiations": PresetInfo(
        "[004]",
        "declare-then-buy, then each player who plays announces 'on trumps' or 'on suits' before the buying",
        True,
        {"exchange_order": ExchangeOrder.DECLARE_THEN_BUY, "intent_round": True},
    ),
    "modern": PresetInfo(
        "[004]",
        "4 players, 24 cards, a widow offered round, counting up to 20, рожки, four jacks win",
        True,
        {"deck": Deck.D24, "start": 0, "ace_values": (0, 0, 0, 0), "ace_forbids_pass": False,
         "four_aces_win": False, "four_jacks_win": True, "jacks_count": JacksCount.FINAL},
        game=Game.MODERN,
    ),
    "zone": PresetInfo(
        "[004]",
        "two players, 36 cards, a widow swap, no duty to follow, exact finish at 15, the прокат",
        True,
        {"players": 2, "deck": Deck.D36, "start": 15, "ace_values": (0, 0, 0, 0), "four_aces_win": False,
         "settle": Settle.STAKE},
        game=Game.ZONE,
    ),
}

# The options that belong to one game only; under another game they must keep their default
# (each game's entry in rams_sim.games, GameInfo.options).
GAME_OPTIONS: dict[Game, tuple[str, ...]] = {game: info.options for game, info in GAMES.items()}

# The options of R2-R8 that a game's deal never reads (docs/VARIANTS.md, each game's section), with the
# reason: changing one changes no row of its data (GameInfo.no_effect). `rams-sim rules show` marks them,
# `rams-sim effect` refuses them, tests/test_no_effect.py plays each paired and finds no deal changed.
NO_EFFECT: dict[Game, dict[str, str]] = {game: dict(info.no_effect) for game, info in GAMES.items()}


def no_effect(rules: Rules) -> dict[str, str]:
    """The options that change nothing under ``rules``, each with its reason in a few words.

    * the classic options its game never reads (:data:`NO_EFFECT`);
    * the points of a declaration that wins the party at once: duel's ``suit_rams``,
      ``trump_rams``, ``jack_pair`` and ``four_jacks`` while ``duel_declaration_points`` is
      false, and ``four_jacks`` wherever ``four_jacks_win`` holds (R5.5, R9 from-15).
    The options of another game (:data:`GAME_OPTIONS`) are not listed: they are refused.
    """
    info = GAMES[rules.game]
    out = dict(info.no_effect)
    out.update(info.idle_when(rules, out))
    return out


def own_options(game: Game) -> list[str]:
    """Every option a game may set: the general ones and its own, not another game's (:data:`GAME_OPTIONS`)."""
    others = {name for g, names in GAME_OPTIONS.items() if g != game for name in names}
    return [name for name in OPTION_HELP if name not in others]
