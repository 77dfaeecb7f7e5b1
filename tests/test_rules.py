"""R2-R9: the Rules configuration, its defaults, presets, validation and kernel codes."""

from __future__ import annotations

import dataclasses
from enum import StrEnum

import numpy as np
import pytest

from rams_sim import cards as C
from rams_sim.kernels import args as K
from rams_sim.kernels import codes as KC
from rams_sim.kernels.args import rules_args
from rams_sim.rules import (
    CARD_POINTS,
    GAME_OPTIONS,
    PRESETS,
    DealerTakesTrump,
    Deck,
    ExchangeOrder,
    Game,
    JacksCount,
    LonePlayer,
    ModernHorns,
    ModernSettle,
    PresetNotImplemented,
    Ruff,
    Rules,
    Settle,
    TruncatedDeal,
    ZoneJacks,
    ZoneJacksBoth,
    ZoneLead,
    ZoneOvershoot,
    enum_code,
    option_names,
)

# Every option's default as RULES.md states it (section in the comment).
RULEBOOK_DEFAULTS = {
    "deck": Deck.AUTO,  # R2
    "exchange_order": ExchangeOrder.ONE_TURN,  # R4.0
    "intent_round": False,  # R4.0a
    "ace_forbids_pass": True,  # R4.1
    "turned_ace_binds_dealer": False,  # R4.1
    "dealer_takes_trump": DealerTakesTrump.MAY,  # R4.3
    "lone_player": LonePlayer.TAKES_ALL,  # R4.5
    "four_aces_win": True,  # R5.1
    "rams_penalizes_passers": False,  # R5.2
    "jacks_count": JacksCount.DEALT_OR_FINAL,  # R5.5
    "four_jacks_win": False,  # R5.5 (R9 from-15 sets it)
    "ruff": Ruff.ANY_TRUMP,  # R6.3
    "must_head": False,  # R6.3a
    "ace_covers_face": True,  # R6.7
    "truncated_deal": TruncatedDeal.FREEZE,  # R8.2a
    "start": 100,  # R8.1
    "settle": Settle.REMAINING,  # R8.4
    "max_deals": 1000,  # R8.2c
    "ace_values": (5, 10, 15, 20),  # R1, R7: ♠5 ♣10 ♦15 ♥20
    "remiz": 5,  # R7.2
    "suit_rams": 5,  # R5.2
    "trump_rams": 10,  # R5.3
    "jack_pair": 5,  # R5.5
    "four_jacks": 10,  # R5.5
}

# R9: what each complete preset changes from classic
PRESET_CHANGES = {
    "classic": {},
    "handbook": {
        "exchange_order": ExchangeOrder.DECLARE_THEN_BUY,
        "deck": Deck.AUTO_004,
        "settle": Settle.STAKE,
        "rams_penalizes_passers": False,
        "ruff": Ruff.OVERTRUMP,
        "jacks_count": JacksCount.DEALT,
    },
    "encyclopedia": {
        "rams_penalizes_passers": True,
        "settle": Settle.REMAINING,
        "ace_covers_face": False,
    },
    "from-15": {  # docs/VARIANTS.md
        "start": 15,
        "ace_values": (0, 0, 0, 0),
        "four_aces_win": False,
        "four_jacks_win": True,
    },
    "negotiations": {
        "exchange_order": ExchangeOrder.DECLARE_THEN_BUY,
        "intent_round": True,
    },
    "modern": {  # docs/VARIANTS.md
        "deck": Deck.D24,
        "start": 0,
        "ace_values": (0, 0, 0, 0),
        "ace_forbids_pass": False,
        "four_aces_win": False,
        "four_jacks_win": True,
        "jacks_count": JacksCount.FINAL,
    },
    # docs/VARIANTS.md; the zone options at their defaults; aces worth nothing, four aces nothing, one stake (R9 zone)
    "zone": {"players": 2, "deck": Deck.D36, "start": 15, "ace_values": (0, 0, 0, 0), "four_aces_win": False,
             "settle": Settle.STAKE},
    "duel": {"players": 2, "start": 5, "four_aces_win": False, "four_jacks_win": True, "dave": True},  # docs/VARIANTS.md
    "duel-trump": {"players": 2, "start": 5, "four_aces_win": False, "four_jacks_win": True, "dave": True,
                   "duel_trump_card": True},  # fmt: skip
}
UNIMPLEMENTED: list[str] = []


# --------------------------------------------------------------------- defaults
def test_defaults_match_rulebook():
    """R2-R8: every option's default is the rule book's."""
    rules = Rules()
    for name, value in RULEBOOK_DEFAULTS.items():
        assert getattr(rules, name) == value, name
    assert rules.preset == "classic"
    assert Rules.classic() == rules
    assert Rules.named("classic") == rules


def test_every_option_has_help_and_a_default():
    """Every option RULES.md names is a field of Rules with a help line citing its section."""
    fields = {f.name for f in dataclasses.fields(Rules)} - {"preset"}
    assert set(option_names()) == fields
    assert set(RULEBOOK_DEFAULTS) <= fields


@pytest.mark.parametrize(
    "players, auto, auto_004",
    [(2, 32, 32), (3, 32, 32), (4, 32, 52), (5, 52, 52), (6, 52, 52), (7, 52, 52)],
)
def test_deck_by_table_size(players, auto, auto_004):
    """R2: auto ([000]) = 32 for 2-4 players, 52 for 5-7; auto-004 = 32 for 2-3, 52 for 4-7."""
    assert Rules(players=players).deck_size == auto
    assert Rules(players=players, deck="auto-004").deck_size == auto_004


@pytest.mark.parametrize("deck", ["24", "32", "36", "52"])
def test_explicit_deck(deck):
    """R2: an explicit deck size is used as given."""
    assert Rules(players=2, deck=deck).deck_size == int(deck)


# ---------------------------------------------------------------------- presets
@pytest.mark.parametrize("name", list(PRESET_CHANGES))
def test_complete_presets(name):
    """R9: every complete preset differs from classic exactly as the table says."""
    rules = Rules.named(name)
    assert rules.preset == name
    expected = {**RULEBOOK_DEFAULTS, **PRESET_CHANGES[name]}
    for option, value in expected.items():
        assert getattr(rules, option) == value, option
    assert getattr(Rules, name.replace("-", "_"))() == rules  # Rules.handbook() etc.


def test_handbook_deck_for_four_players():
    """R9 handbook: deck auto-004, so 52 cards at four players and 32 at three."""
    assert Rules.handbook().deck_size == 52
    assert Rules.handbook(players=3).deck_size == 32


def test_preset_overrides():
    """R9: a preset takes overrides on top of its own options."""
    rules = Rules.classic(ruff="overtrump")
    assert rules.ruff == Ruff.OVERTRUMP and rules.preset == "classic"
    rules = Rules.encyclopedia(ace_covers_face=True, players=5)
    assert rules.ace_covers_face is True and rules.rams_penalizes_passers is True and rules.players == 5


def test_unimplemented_presets_refuse(monkeypatch):
    """R9: a preset not implemented yet says so when asked for, and does not fall back.

    Every preset of R9 is implemented now (UNIMPLEMENTED is empty), so a preset listed but
    not built is registered for the test: the refusal must keep working for the next one."""
    from rams_sim.rules import PresetInfo

    monkeypatch.setitem(PRESETS, "future", PresetInfo("[test]", "listed, not built", False, {"start": 7}))
    for name in [*UNIMPLEMENTED, "future"]:
        with pytest.raises(PresetNotImplemented, match=f"preset '{name}' is not implemented yet"):
            Rules.named(name)
        with pytest.raises(PresetNotImplemented):
            Rules(preset=name)


def test_preset_list_matches_r9():
    """R9 names nine presets; those of PRESET_CHANGES are complete."""
    assert set(PRESETS) == set(PRESET_CHANGES) | set(UNIMPLEMENTED)
    assert {n for n, p in PRESETS.items() if p.implemented} == set(PRESET_CHANGES)


def test_unimplemented_preset_not_built_directly():
    """R9: Rules(preset=...) must not silently build classic rules under an unimplemented preset's name."""
    for name in UNIMPLEMENTED:
        with pytest.raises(PresetNotImplemented, match="not implemented yet"):
            Rules(preset=name)


def test_unknown_preset():
    """R9: an unknown preset name is a ValueError, distinct from 'not implemented yet'."""
    with pytest.raises(ValueError, match="unknown preset") as info:
        Rules.named("poker")
    assert not isinstance(info.value, PresetNotImplemented)
    with pytest.raises(ValueError):
        Rules(preset="poker")


# ------------------------------------------------------------------- validation
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_players_2_to_7(players):
    """R2: 2-7 players."""
    assert Rules(players=players).players == players


@pytest.mark.parametrize("players", [0, 1, 8, -3, 4.0, "4"])
def test_players_out_of_range(players):
    """R2: anything but an integer from 2 to 7 players is refused."""
    with pytest.raises(ValueError):
        Rules(players=players)


@pytest.mark.parametrize(
    "players, deck, ok",
    [
        (7, "32", False),  # 5*7 + 1 = 36 > 32
        (7, "36", True),  # 36 <= 36
        (6, "32", True),  # 31 <= 32
        (5, "24", False),  # 26 > 24
        (4, "24", True),  # 21 <= 24
        (7, "auto", True),  # 52
        (7, "auto-004", True),
    ],
)
def test_deal_must_fit_the_deck(players, deck, ok):
    """R2: five cards each plus the trump card must fit the deck, else a configuration error."""
    if ok:
        Rules(players=players, deck=deck)
    else:
        with pytest.raises(ValueError, match="R2"):
            Rules(players=players, deck=deck)


@pytest.mark.parametrize("start, ok", [(1, True), (150, True), (200, True), (0, False), (-5, False), (True, False)])
def test_start_must_be_positive(start, ok):
    """R8.1: the starting score is any positive number."""
    if ok:
        assert Rules(start=start).start == start
    else:
        with pytest.raises(ValueError):
            Rules(start=start)


@pytest.mark.parametrize(
    "changes",
    [
        {"max_deals": 0},
        {"ace_values": (5, 10, 15)},
        {"ace_values": (5, 10, -1, 20)},
        {"remiz": -1},
        {"ruff": "overtrumps"},
        {"deck": "40"},
        {"settle": "pot"},
    ],
)
def test_invalid_options(changes):
    """R2-R8: malformed option values are refused on construction."""
    with pytest.raises(ValueError):
        Rules(**changes)


def test_enum_options_accept_text():
    """Enum options accept their text, as the CLI and JSON give them."""
    rules = Rules(ruff="overtrump", jacks_count="final", deck="52", truncated_deal="score-so-far")
    assert rules.ruff is Ruff.OVERTRUMP and rules.jacks_count is JacksCount.FINAL
    assert rules.deck is Deck.D52 and rules.truncated_deal is TruncatedDeal.SCORE_SO_FAR
    with pytest.raises(ValueError, match="any-trump, overtrump"):
        Rules(ruff="bogus")


def test_rules_are_immutable_and_replace_validates():
    """Rules is frozen; replace() builds a validated copy."""
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.start = 5
    assert rules.replace(start=150).start == 150
    with pytest.raises(ValueError):
        rules.replace(players=9)


# --------------------------------------------------------------- with_overrides
def test_with_overrides_parses_every_kind():
    """--rule KEY=VALUE parses enums, booleans, integers and the ace-value list."""
    rules = Rules().with_overrides(
        ["ruff=overtrump", "must-head=true", "start=150", "ace_values=1,2,3,4", "deck=52", "max_deals=1_000",
         "ace_covers_face=off", "lone_player = void-deal"]
    )
    assert rules.ruff is Ruff.OVERTRUMP
    assert rules.must_head is True
    assert rules.start == 150
    assert rules.ace_values == (1, 2, 3, 4)
    assert rules.deck_size == 52
    assert rules.max_deals == 1000
    assert rules.ace_covers_face is False
    assert rules.lone_player is LonePlayer.VOID_DEAL
    assert Rules().with_overrides([]) == Rules()


@pytest.mark.parametrize("pair", ["nonsense=1", "ruff", "preset=handbook"])
def test_with_overrides_unknown_key_lists_valid_keys(pair):
    """--rule with an unknown or missing key names the valid keys."""
    with pytest.raises(ValueError, match="valid keys") as info:
        Rules().with_overrides([pair])
    message = str(info.value)
    for key in ("ruff", "must_head", "jacks_count", "start"):
        assert key in message


@pytest.mark.parametrize(
    "pair, fragment",
    [
        ("ruff=bogus", "any-trump, overtrump"),
        ("must_head=maybe", "true or false"),
        ("start=abc", "integer"),
        ("ace_values=1,x,3,4", "integers"),
        ("start=0", "positive"),
    ],
)
def test_with_overrides_bad_values(pair, fragment):
    """--rule with a bad value names what the option accepts."""
    with pytest.raises(ValueError, match=fragment):
        Rules().with_overrides([pair])


def test_with_overrides_validates_the_result():
    """R2: players=7 with a 32-card deck is refused after the overrides are applied."""
    assert Rules().with_overrides(["players=7"]).deck_size == 52
    with pytest.raises(ValueError):
        Rules().with_overrides(["players=7", "deck=32"])


# ------------------------------------------------------------------ kernel codes
# (enum member, the kernels' constant, its code typed here: the value's position in its enum)
KERNEL_CONSTANTS = [
    (ExchangeOrder.DECLARE_THEN_BUY, KC.ORDER_DECLARE_THEN_BUY, 1),  # R4.0
    (DealerTakesTrump.MUST, KC.TAKE_MUST, 1),  # R4.3
    (LonePlayer.VOID_DEAL, KC.LONE_VOID_DEAL, 1),  # R4.5
    (JacksCount.DEALT, KC.JACKS_DEALT, 1),  # R5.5
    (JacksCount.FINAL, KC.JACKS_FINAL, 2),
    (Ruff.OVERTRUMP, KC.RUFF_OVERTRUMP, 1),  # R6.3
    (TruncatedDeal.SCORE_SO_FAR, KC.SCORE_SO_FAR, 1),  # R8.2a
    (Settle.STAKE, KC.SETTLE_STAKE, 1),  # R8.4
    (ZoneLead.DUTY, KC.ZONE_LEAD_DUTY, 0),  # R9 zone
    (ZoneJacks.ONE_TRICK, KC.ZONE_ONE_TRICK, 1),
    (ZoneJacksBoth.BOTH, KC.ZONE_JACKS_BOTH, 1),
    (ZoneOvershoot.RESTART, KC.ZONE_RESTART, 1),
    (ModernHorns.FROM_FIVE, KC.HORNS_FROM_FIVE, 1),  # R9 modern
    (ModernSettle.POT, KC.MODERN_POT, 1),
]


def test_every_preset_names_its_game():
    """R9: the presets that only change options play classic Rams; the others their own game."""
    games = {name: info.game for name, info in PRESETS.items()}
    assert games == {
        "classic": Game.RAMS, "handbook": Game.RAMS, "encyclopedia": Game.RAMS, "from-15": Game.RAMS,
        "negotiations": Game.RAMS, "duel": Game.DUEL, "duel-trump": Game.DUEL, "modern": Game.MODERN,
        "zone": Game.ZONE,
    }  # fmt: skip
    assert Rules().game == Game.RAMS and isinstance(rules_args(Rules()), K.ClassicArgs)
    assert set(GAME_OPTIONS) == set(Game)


@pytest.mark.parametrize("game, names", [(g, n) for g, n in GAME_OPTIONS.items() if n], ids=lambda v: str(v))
def test_another_games_option_is_refused(game, names):
    """An option of one game (GAME_OPTIONS) keeps its default under a preset of another game."""
    other = next(name for name, info in PRESETS.items() if info.implemented and info.game != game)
    for name in names:
        default = getattr(Rules.named(other), name)
        if isinstance(default, bool):
            changed = not default
        elif isinstance(default, StrEnum):
            changed = next(m for m in type(default) if m != default)
        else:
            changed = default + 1
        with pytest.raises(ValueError, match=f"option {name} applies only to the {game.value} game"):
            Rules.named(other, **{name: changed})


@pytest.mark.parametrize("member, constant, code", KERNEL_CONSTANTS, ids=[m.value for m, _, _ in KERNEL_CONSTANTS])
def test_enum_codes_match_kernel_constants(member, constant, code):
    """kernels/codes.py: each named constant is the position of its value in its enum."""
    assert enum_code(member) == constant == code


@pytest.mark.parametrize(
    "enum_type", [Deck, ExchangeOrder, DealerTakesTrump, LonePlayer, JacksCount, Ruff, TruncatedDeal, Settle]
)
def test_enum_code_is_position(enum_type):
    """enum_code is the position of a value in its enum, 0-based."""
    assert [enum_code(m) for m in enum_type] == list(range(len(enum_type)))


@pytest.mark.parametrize("preset", [name for name, info in PRESETS.items() if info.implemented])
def test_rules_args_packs_every_field(preset):
    """rules_args: every Rules field but the preset's name and the deck becomes a kernel field of
    the same name (bool and int as int64, an enum option as its code), in the game's class."""
    rules = Rules.named(preset)
    packed = rules_args(rules)
    assert type(packed) is K.ARGS_TYPES[rules.game]
    for f in dataclasses.fields(Rules):
        if f.name in ("preset", "deck"):
            continue
        value, kernel = getattr(rules, f.name), getattr(packed, f.name)
        if isinstance(value, StrEnum):
            assert int(kernel) == enum_code(value), f.name
        elif isinstance(value, tuple):
            assert list(kernel) == list(value), f.name
        else:
            assert int(kernel) == int(value), f.name


def test_rules_args_numbers_and_tables():
    """rules_args packs the numbers, ace values (R1/R7), card points (R1) and deck (R1)."""
    rules = Rules(players=5, ace_forbids_pass=False, turned_ace_binds_dealer=True, rams_penalizes_passers=True, must_head=True,
                  ace_covers_face=False, start=150, max_deals=77, ace_values=(1, 2, 3, 4), remiz=6,
                  suit_rams=7, trump_rams=8, jack_pair=9, four_jacks=11)
    k = rules_args(rules)
    assert isinstance(k, K.ClassicArgs)
    scalars = dict(players=5, deck_size=52, ace_forbids_pass=0, turned_ace_binds_dealer=1, rams_penalizes_passers=1, must_head=1,
                   ace_covers_face=0, start=150, max_deals=77, remiz=6, suit_rams=7, trump_rams=8,
                   jack_pair=9, four_jacks=11)
    for name, value in scalars.items():
        assert int(getattr(k, name)) == value, name
    assert list(k.ace_values) == [1, 2, 3, 4]
    assert list(k.card_points) == list(CARD_POINTS) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 4, 5, 11]  # R1
    assert np.array_equal(k.deck, C.deck_cards(52))


@pytest.mark.parametrize("option", ["four_aces_win", "four_jacks_win"])
@pytest.mark.parametrize("value", [False, True])
def test_rules_args_declaration_switches(option, value):
    """rules_args packs the R5.1 / from-15 declaration switches as 0/1."""
    assert int(getattr(rules_args(Rules(**{option: value})), option)) == int(value)


def test_serialisation():
    """to_dict gives JSON-ready option values; digest identifies a rule set."""
    rules = Rules.handbook()
    d = rules.to_dict()
    assert d["ruff"] == "overtrump" and d["deck_size"] == 52 and d["ace_values"] == [5, 10, 15, 20]
    assert rules.digest() == Rules.handbook().digest()
    assert rules.digest() != Rules.classic().digest()
