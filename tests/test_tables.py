"""The tables both engines read, checked against values typed from the rule book and the docs.

The differential test plays the fast engine against the reference engine, so it cannot
see a wrong value in what both of them read from shared code: the decks
(rams_sim/cards.py), the auto deck, card points and ace values, the presets
(rams_sim/rules.py) and the policies' parameter slots and defaults
(rams_sim/policies.py). Every expected value below is a literal typed from RULES.md
(cited by section) or, where RULES.md is silent, from the documentation that says it
(docs/RULES.md, docs/VARIANTS.md, README.md, and the policy descriptions README.md and
docs/ENGINE.md §8 point to: the docstring of rams_sim/policies.py). Nothing expected is
computed from the code under test.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rams_sim import cards as C
from rams_sim import policies as P
from rams_sim.policies import PolicyKind, PolicySpec, pack_policies
from rams_sim.rules import CARD_POINTS, PRESETS, STANDARD_ACE_VALUES, Rules

# R1: "Suits, in this order everywhere: ♠ spades (0), ♣ clubs (1), ♦ diamonds (2), ♥ hearts (3)."
SUITS = ("♠", "♣", "♦", "♥")
# R1: "Ranks low→high: 2 3 4 5 6 7 8 9 10 J Q K A."
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def card(rank: str, suit: str) -> int:
    """The id of a card: ``suit * 13 + rank`` with rank 0 = "2" … 12 = "A" (STYLE.md §2: "A♥" = 51)."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def test_card_id_layout():
    """STYLE.md §2's example ids: "A♥" is 51, "2♠" is 0; the module's parser agrees."""
    assert card("A", "♥") == 51 and card("2", "♠") == 0 and card("10", "♣") == 21
    assert C.parse("A♥") == 51 and C.parse("2♠") == 0 and C.parse("10♣") == 21
    assert (C.SPADES, C.CLUBS, C.DIAMONDS, C.HEARTS) == (0, 1, 2, 3)  # R1


# ---- decks (R1) ---------------------------------------------------------------------------

DECK_RANKS = {
    52: ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),  # R1: 52 (2–A)
    36: ("6", "7", "8", "9", "10", "J", "Q", "K", "A"),  # R1: 36 (6–A)
    32: ("7", "8", "9", "10", "J", "Q", "K", "A"),  # R1: 32 (7–A, "small deck")
    24: ("9", "10", "J", "Q", "K", "A"),  # R1: 24 (9–A)
}


def test_the_four_deck_sizes():
    """R1: the decks are 52, 36, 32 and 24 cards; no other size is accepted."""
    assert set(C.DECK_SIZES) == {24, 32, 36, 52}
    for size in (20, 28, 40, 48, 54):
        with pytest.raises(ValueError, match="unknown deck size"):
            C.deck_cards(size)


@pytest.mark.parametrize("size", [52, 36, 32, 24])
def test_deck_contents(size):
    """R1: each deck holds its ranks in every one of the four suits, ids ascending, as ids and as a mask."""
    expected = sorted(card(rank, suit) for suit in SUITS for rank in DECK_RANKS[size])
    ids = C.deck_cards(size)
    assert ids.dtype == np.int8 and len(ids) == size == len(expected)
    assert ids.tolist() == expected
    assert C.deck_mask(size) == sum(1 << c for c in expected)


def test_decks_are_nested():
    """R1: each smaller deck is the top of the larger one (24 ⊂ 32 ⊂ 36 ⊂ 52)."""
    assert C.deck_mask(24) & ~C.deck_mask(32) == 0
    assert C.deck_mask(32) & ~C.deck_mask(36) == 0
    assert C.deck_mask(36) & ~C.deck_mask(52) == 0


def test_table_constants():
    """R2: 2–7 players; R3: five cards each, so five tricks."""
    assert (C.MIN_SEATS, C.MAX_SEATS) == (2, 7)
    assert C.HAND_SIZE == 5 and C.N_TRICKS == 5


# ---- the deck a table gets (R2) -----------------------------------------------------------

# R2: `auto` (default, [000]: 32 for 2–4 players, 52 for 5–7); `auto-004` (32 for 2–3, 52 for 4–7)
AUTO_DECK = {2: 32, 3: 32, 4: 32, 5: 52, 6: 52, 7: 52}
AUTO_004_DECK = {2: 32, 3: 32, 4: 52, 5: 52, 6: 52, 7: 52}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_auto_deck_by_table_size(players):
    """R2: the deck a table of 2..7 gets by default (auto, [000]) and under auto-004 ([004])."""
    assert Rules(players=players).deck == "auto"  # R2: auto is the default
    assert Rules(players=players).deck_size == AUTO_DECK[players]
    assert Rules(players=players, deck="auto-004").deck_size == AUTO_004_DECK[players]


@pytest.mark.parametrize(
    "players, deck, fits",
    [
        # R2: a deal needs 5·n + 1 cards (five each and the turned card)
        (4, "24", True),  # 21 of 24
        (5, "24", False),  # 26 > 24
        (6, "32", True),  # 31 of 32
        (7, "32", False),  # 36 > 32
        (7, "36", True),  # 36 of 36
        (7, "52", True),
        (2, "24", True),
    ],
)
def test_explicit_deck_and_what_fits(players, deck, fits):
    """R2: an explicit deck is used as given; a table it cannot deal to is a configuration error."""
    if fits:
        assert Rules(players=players, deck=deck).deck_size == int(deck)
    else:
        with pytest.raises(ValueError, match="need at least"):
            Rules(players=players, deck=deck)


# ---- card points and ace values (R1, R7) ---------------------------------------------------

# R1: "Card points for breaking ties between rams of one suit (R5.4): A 11, K 5, Q 4, J 2,
# other cards their number"
POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 2, "Q": 4, "K": 5, "A": 11}


def test_card_points_by_rank():
    """R1: the card points of every rank (the table both engines rank two rams of one suit by)."""
    assert len(CARD_POINTS) == 13
    for rank, points in POINTS.items():
        assert CARD_POINTS[RANKS.index(rank)] == points, rank


def test_r5_4_full_tie_example():
    """R5.4: {2,3,4,5,10} against {6,7,J,Q,K} is a full tie, 24 points each."""
    assert sum(CARD_POINTS[RANKS.index(r)] for r in ("2", "3", "4", "5", "10")) == 24
    assert sum(CARD_POINTS[RANKS.index(r)] for r in ("6", "7", "J", "Q", "K")) == 24


# R1, R7: "♠A 5, ♣A 10, ♦A 15, ♥A 20"
ACE_VALUES = {"♠": 5, "♣": 10, "♦": 15, "♥": 20}


def test_ace_values_by_suit():
    """R1/R7: the ace values by suit, in the shared constant and in the default rules."""
    for suit, value in ACE_VALUES.items():
        assert STANDARD_ACE_VALUES[SUITS.index(suit)] == value, suit
        assert Rules().ace_values[SUITS.index(suit)] == value, suit


def test_r10_ace_examples():
    """R10.1, R10.2, R10.11: ♦A and one trick 16; ♠A ♦A ♥A and two tricks 42; remiz with one ace 10/15/20/25."""
    values = Rules().ace_values
    assert 1 + values[SUITS.index("♦")] == 16
    assert 2 + sum(values[SUITS.index(s)] for s in "♠♦♥") == 42
    assert [5 + values[SUITS.index(s)] for s in SUITS] == [10, 15, 20, 25]


# ---- presets (R9) ------------------------------------------------------------------------

# Every option of classic, i.e. every default (R9: "classic: everything above with its defaults").
CLASSIC = {
    "preset": "classic",
    "players": 4,  # README: `rams-sim run` plays "classic deals, 4 players" (R2 names no default table)
    "deck": "auto",  # R2
    "exchange_order": "one-turn",  # R4.0
    "intent_round": False,  # docs/RULES.md R4.0a "Option `intent_round` (default false)"
    "ace_forbids_pass": True,  # R4.1; docs/RULES.md R4.1 "Option `ace_forbids_pass` (default true)"
    "turned_ace_binds_dealer": False,  # R4.1 "(default false)"
    "dealer_takes_trump": "may",  # R4.3 "`may` (default ...)"
    "lone_player": "takes-all",  # R4.5 "`takes-all` (default)"
    "four_aces_win": True,  # R5.1 four aces win; docs/RULES.md R5.1 "Option `four_aces_win` (default true)"
    "rams_penalizes_passers": False,  # R5.2 "(default false ...)"
    "jacks_count": "dealt-or-final",  # R5.5 "`dealt-or-final` (default ...)"
    "four_jacks_win": False,  # docs/RULES.md R5.5 "Option `four_jacks_win` (default false; `from-15`)"
    "ruff": "any-trump",  # R6.3 "`any-trump` (default ...)"
    "must_head": False,  # R6.3a "(default false)"
    "ace_covers_face": True,  # R6.7 "(default true)"
    "truncated_deal": "freeze",  # R8.2a "`freeze` (default)"
    "start": 100,  # R8.1 "Everybody starts at 100"
    "settle": "remaining",  # R8.4 "`remaining` (default [000] ...)"
    "max_deals": 1000,  # R8.2c "(default 1000)"
    "ace_values": (5, 10, 15, 20),  # R1: ♠A 5, ♣A 10, ♦A 15, ♥A 20
    "remiz": 5,  # R7.2: "write on 5 + A"
    "suit_rams": 5,  # R5.2: "writes off 5"
    "trump_rams": 10,  # R5.3: "10 instead of 5"
    "jack_pair": 5,  # R5.5: "writes off 5"
    "four_jacks": 10,  # R5.5: "All four jacks: write off 10"
    # the other games' options keep their defaults outside their game (docs/VARIANTS.md)
    "zone_lead": "duty",  # R9 zone: the holder of a lead duty opens (option: the partner always leads)
    "zone_jacks": "won-cards",  # R9 zone: "`zone_jacks` = `won-cards` (default)"
    "zone_jacks_both": "trump-jack",  # R9 zone: "the holder of the trump jack writes off (option: both do)"
    "zone_overshoot": "penalty",  # R9 zone: "going past 15 writes the excess total on"; VARIANTS.md `penalty` (default)
    "zone_prokat": 1,  # VARIANTS.md zone: "option `zone_prokat` (default 1, in party stakes)"
    "zone_finish": "deal",  # VARIANTS.md zone: the exact finish judged at the end of the deal (option: at the trick, R8.2)
    "duel_trump_card": False,  # R9 duel: "No use of the trump card by the dealer" (true only in duel-trump)
    "dave": False,  # VARIANTS.md duel: "option `dave`, true in both presets": a duel option, off in other games
    "dave_max": 64,  # VARIANTS.md duel: "`dave_max` (default 64, at most 64)"
    "dave_lead_only": False,  # VARIANTS.md duel: `dave_lead_only=true` narrows it to one's lead (default any turn)
    "duel_declaration_points": False,  # VARIANTS.md duel: a winning declaration writes nothing (R9: settled per party)
    "duel_jacks_both": "first-hand",  # VARIANTS.md duel: two jack pairs, the first hand's wins (R5 step 4c)
    "duel_four_jacks_senior": True,  # VARIANTS.md duel: four jacks outrank a rams (from-15's seniority)
    "modern_target": 20,  # R9 modern: "first to 20 wins"
    "modern_no_pass": 17,  # R9 modern: "a player at 17+ may not pass"
    "modern_horns": "from-zero",  # R9 modern: "from a score of 0, going negative, or only once he has 5"
    "modern_settle": "missing",  # R9 modern: "settlement by missing points or a pot"; VARIANTS.md `missing` (default)
}

# What each preset changes (R9's table and the presets' text; docs/VARIANTS.md where R9 is an outline).
PRESET_CHANGES = {
    "classic": {},
    # R9 handbook: exchange_order=declare-then-buy, deck=auto-004, settle=stake,
    # rams_penalizes_passers=false, ruff=overtrump, jacks_count=dealt
    "handbook": {"exchange_order": "declare-then-buy", "deck": "auto-004", "settle": "stake",
                 "rams_penalizes_passers": False, "ruff": "overtrump", "jacks_count": "dealt"},  # fmt: skip
    # R9 encyclopedia: rams_penalizes_passers=true, settle=remaining, ace_covers_face=false
    "encyclopedia": {"rams_penalizes_passers": True, "settle": "remaining", "ace_covers_face": False},
    # R9 from-15: start at 15; aces have no value; four jacks win the party; four aces count for
    # nothing; trump rams ±10, suit rams ±5, jack pair −5 (classic's); R4.1 and R6.5–R6.7 stay
    "from-15": {"start": 15, "ace_values": (0, 0, 0, 0), "four_jacks_win": True, "four_aces_win": False,
                "trump_rams": 10, "suit_rams": 5, "jack_pair": 5,
                "ace_forbids_pass": True, "ace_covers_face": True},  # fmt: skip
    # R9 duel: 2 players, start at 5; no use of the trump card by the dealer; four aces count for
    # nothing; the winning declarations include four jacks; dave (VARIANTS.md: on in both presets)
    "duel": {"players": 2, "start": 5, "duel_trump_card": False, "four_aces_win": False, "four_jacks_win": True,
             "dave": True},  # fmt: skip
    # R9 duel-trump: as duel, but the dealer uses the trump card
    "duel-trump": {"players": 2, "start": 5, "duel_trump_card": True, "four_aces_win": False, "four_jacks_win": True,
                   "dave": True},  # fmt: skip
    # R9 negotiations: classic with exchange_order=declare-then-buy, plus the announcement round
    # (docs/RULES.md R4.0a: option intent_round)
    "negotiations": {"exchange_order": "declare-then-buy", "intent_round": True},
    # R9 modern: 4 players, 24 cards; counts up (VARIANTS.md: start=0) to 20; 17+ may not pass, which
    # replaces the no-pass-with-an-ace rule; aces have no value; loses 5 with no trick; a jack pair
    # adds 5; four jacks end the game, the holder winning; VARIANTS.md: four aces no declaration,
    # jacks_count=final
    "modern": {"players": 4, "deck": "24", "start": 0, "modern_target": 20, "modern_no_pass": 17,
               "ace_forbids_pass": False, "ace_values": (0, 0, 0, 0), "remiz": 5, "jack_pair": 5,
               "four_jacks_win": True, "four_aces_win": False, "jacks_count": "final"},  # fmt: skip
    # R9 zone: 2 players, 36 cards, write off exactly 15; rams ±5, trump rams ±10; no trick: +5;
    # the first lead by the lead duties; jacks among won cards; the trump jack's holder; excess written on;
    # VARIANTS.md zone (R9's row is silent): aces worth nothing, four aces no declaration, one stake a party
    "zone": {"players": 2, "deck": "36", "start": 15, "suit_rams": 5, "trump_rams": 10, "remiz": 5,
             "zone_lead": "duty", "zone_jacks": "won-cards", "zone_jacks_both": "trump-jack",
             "zone_overshoot": "penalty", "ace_values": (0, 0, 0, 0), "four_aces_win": False, "settle": "stake"},  # fmt: skip
}

# R2 and R9: the deck each preset deals at its own table
PRESET_DECK_SIZE = {"classic": 32, "handbook": 52, "encyclopedia": 32, "from-15": 32, "duel": 32,
                    "duel-trump": 32, "negotiations": 32, "modern": 24, "zone": 36}  # fmt: skip
# R9 and docs/VARIANTS.md: the deal structure each preset plays
PRESET_GAME = {"classic": "rams", "handbook": "rams", "encyclopedia": "rams", "from-15": "rams", "duel": "duel",
               "duel-trump": "duel", "negotiations": "rams", "modern": "modern", "zone": "zone"}  # fmt: skip


def test_the_nine_presets_of_r9():
    """R9 names nine presets, and README says every one is implemented."""
    assert set(PRESETS) == set(PRESET_CHANGES) == {"classic", "handbook", "encyclopedia", "from-15", "duel",
                                                    "duel-trump", "negotiations", "modern", "zone"}  # fmt: skip
    assert all(info.implemented for info in PRESETS.values())


def test_every_option_is_covered():
    """The classic table above names every option of Rules, so a new option cannot slip past this test."""
    assert {f.name for f in dataclasses.fields(Rules)} == set(CLASSIC)


@pytest.mark.parametrize("name", sorted(PRESET_CHANGES))
def test_preset_option_values(name):
    """R9: every option of each preset is classic's default unless R9 (or VARIANTS.md) changes it."""
    rules = Rules.named(name)
    expected = {**CLASSIC, **PRESET_CHANGES[name], "preset": name}
    wrong = {key: (getattr(rules, key), value) for key, value in expected.items() if getattr(rules, key) != value}
    assert wrong == {}, f"{name}: option: (code, rule book)"
    assert rules.deck_size == PRESET_DECK_SIZE[name]
    assert rules.game == PRESET_GAME[name]


@pytest.mark.parametrize("name", sorted(PRESET_CHANGES))
def test_presets_set_only_what_r9_changes(name):
    """A preset's own option list changes nothing R9 (or VARIANTS.md) does not name for it."""
    documented = set(PRESET_CHANGES[name])
    assert set(PRESETS[name].options) <= documented, set(PRESETS[name].options) - documented


def test_preset_constructors_name_their_preset():
    """Rules.<preset>() builds the preset of that name."""
    built = {"classic": Rules.classic(), "handbook": Rules.handbook(), "encyclopedia": Rules.encyclopedia(),
             "from-15": Rules.from_15(), "duel": Rules.duel(), "duel-trump": Rules.duel_trump(),
             "negotiations": Rules.negotiations(), "modern": Rules.modern(), "zone": Rules.zone()}  # fmt: skip
    for name, rules in built.items():
        assert rules == Rules.named(name), name


# ---- policies (the docstring of rams_sim/policies.py, docs/VARIANTS.md, README.md) -----------

# README.md "The data": policy codes "0 random, 1 basic, 2 cautious, 3 greedy, 4 expert"
POLICY_CODES = {"random": 0, "basic": 1, "cautious": 2, "greedy": 3, "expert": 4, "pimc": 5, "table": 6}

# Each kind's parameters: name -> (slot in the packed params array, default). The slots are not
# in the docs: they are typed here from the layout rams-sim ships (basic's parameters first,
# shared by every basic-like kind at the same slots, then each kind's own), so that a parameter
# moved or inserted without its index constant fails here. The defaults are the documented ones.
BASIC = {
    "pass_threshold": (0, 2.0),  # VARIANTS.md: "Basic's default 2"; "2 (basic's)"
    "trump_weight": (1, 1.0),  # VARIANTS.md: strength "per trump 1"
    "high_trump_bonus": (2, 1.0),  # VARIANTS.md: "plus 1 from the jack up"
    "high_trump_rank": (3, 9.0),  # VARIANTS.md: "from the jack up": the jack is rank 9 (STYLE.md §2)
    "king_weight": (4, 0.5),  # VARIANTS.md modern: "plus 0.5 per plain king"
    "keep_trump_rank": (5, 0.0),  # NOT DOCUMENTED: the shipped value, pinned (see below)
    "keep_kings": (6, 1.0),  # policies.py: greedy "keeps no kings" and expert "keep_kings 0" as their own defaults
    "rams_draw": (7, 1.0),  # VARIANTS.md from-15: "basic's rams draw" acts, so on (ENGINE.md §8: on when not 0)
    "intent_threshold": (8, 3.0),  # policies.py: "at least intent_threshold (3: ...)"; VARIANTS.md negotiations
    "zone_swap_threshold": (9, 2.0),  # policies.py zone: "zone_swap_threshold (2)"; VARIANTS.md zone
    "zone_ace_weight": (10, 1.0),  # policies.py zone: "zone_ace_weight (1)"
    "duel_widow_threshold": (11, 5.0),  # policies.py duel: "duel_widow_threshold (5)"
    "duel_ace_weight": (12, 3.0),  # policies.py duel: "duel_ace_weight (3)"
    "duel_dave_slope": (13, 0.1),  # policies.py duel: "duel_dave_slope (0.1)"
    "duel_dave_hand": (14, 0.05),  # policies.py duel: "duel_dave_hand (0.05)"
    "duel_dave_offer": (15, 0.7),  # policies.py duel: "duel_dave_offer (0.7)"
    "duel_dave_take": (16, 0.25),  # policies.py duel: "duel_dave_take (0.25)"
    "modern_widow_threshold": (17, 3.5),  # policies.py modern: "modern_widow_threshold (3.5 ...)"
}
# keep_trump_rank: the docs say basic keeps "the trumps of rank >= keep_trump_rank" but give no
# default (README, docs/ and the policies.py docstring are silent; greedy's "only trumps of queen
# or higher" implies basic keeps more). 0 (the deuce: every trump) is the shipped value, pinned
# here as the one default not typed from the docs.

POLICY_PARAMS = {
    "random": {},  # policies.py: random is uniform over the legal choices, no parameters
    "basic": BASIC,
    # policies.py cautious: "its own defaults (it passes more: pass_threshold 3)", "void_weight 1"
    "cautious": {**BASIC, "pass_threshold": (0, 3.0), "void_weight": (18, 1.0)},
    # policies.py greedy: "pass_threshold 1; keeps only trumps of queen or higher; keeps no kings",
    # "rams_length (3)"; the queen is rank 10 (STYLE.md §2)
    "greedy": {**BASIC, "pass_threshold": (0, 1.0), "keep_trump_rank": (5, 10.0), "keep_kings": (6, 0.0),
               "rams_length": (18, 3.0)},  # fmt: skip
    # policies.py expert: "pass_threshold 0.5", "keep_kings 0", "void_weight 0", "read_intents 1",
    # "intent_weight (8)"; VARIANTS.md negotiations: read_intents "default 1", intent_weight (8)
    "expert": {**BASIC, "pass_threshold": (0, 0.5), "keep_kings": (6, 0.0), "void_weight": (18, 0.0),
               "read_intents": (19, 1.0), "intent_weight": (20, 8.0)},  # fmt: skip
    # docs/SEARCH.md: pimc's "samples" (K worlds, default 128) and "rollout" (default expert, code 4), after
    # expert's parameters (its fallback where no world can be drawn)
    "pimc": {**BASIC, "pass_threshold": (0, 0.5), "keep_kings": (6, 0.0), "void_weight": (18, 0.0),
             "read_intents": (19, 1.0), "intent_weight": (20, 8.0), "samples": (21, 128.0), "rollout": (22, 4.0),
             "prokat_weight": (23, 60.0),
             # issue 35 (policies.py pimc): "infer ... policy", "floor (0.1)", race 2 (docs/SEARCH.md "Racing")
             "infer": (24, 1.0), "floor": (25, 0.1), "race": (26, 2.0)},  # fmt: skip
    # policies.py table: "Its other parameters are expert's" (its table cells follow from TABLE_BASE, 32)
    "table": {**BASIC, "pass_threshold": (0, 0.5), "keep_kings": (6, 0.0), "void_weight": (18, 0.0),
              "read_intents": (19, 1.0), "intent_weight": (20, 8.0)},  # fmt: skip
}

# the index constants the kernels and the reference engine read parameters by
INDEX_CONSTANTS = {
    "pass_threshold": "B_PASS_THRESHOLD", "trump_weight": "B_TRUMP_WEIGHT", "high_trump_bonus": "B_HIGH_TRUMP_BONUS",
    "high_trump_rank": "B_HIGH_TRUMP_RANK", "king_weight": "B_KING_WEIGHT", "keep_trump_rank": "B_KEEP_TRUMP_RANK",
    "keep_kings": "B_KEEP_KINGS", "rams_draw": "B_RAMS_DRAW", "intent_threshold": "B_INTENT_THRESHOLD",
    "zone_swap_threshold": "Z_SWAP_THRESHOLD", "zone_ace_weight": "Z_ACE_WEIGHT",
    "duel_widow_threshold": "DUEL_WIDOW_THRESHOLD", "duel_ace_weight": "DUEL_ACE_WEIGHT",
    "duel_dave_slope": "DUEL_DAVE_SLOPE", "duel_dave_hand": "DUEL_DAVE_HAND", "duel_dave_offer": "DUEL_DAVE_OFFER",
    "duel_dave_take": "DUEL_DAVE_TAKE", "modern_widow_threshold": "M_WIDOW_THRESHOLD",
    "void_weight": "X_VOID_WEIGHT", "rams_length": "G_RAMS_LENGTH", "read_intents": "X_READ_INTENTS",
    "intent_weight": "X_INTENT_WEIGHT", "samples": "P_SAMPLES", "rollout": "P_ROLLOUT",
    "prokat_weight": "P_PROKAT_WEIGHT", "infer": "P_INFER", "floor": "P_FLOOR", "race": "P_RACE",
}  # fmt: skip


def test_policy_codes():
    """README.md: the policy column's codes."""
    assert {kind.name.lower(): int(kind) for kind in PolicyKind} == POLICY_CODES


@pytest.mark.parametrize("name", sorted(POLICY_PARAMS))
def test_policy_parameter_names_and_defaults(name):
    """Each policy has exactly the documented parameters, with the documented defaults."""
    kind = PolicyKind[name.upper()]
    table = P.PARAMS_BY_KIND[kind]
    assert set(table) == set(POLICY_PARAMS[name])
    for param, (_, default) in POLICY_PARAMS[name].items():
        assert table[param] == default, (name, param)


@pytest.mark.parametrize("name", sorted(POLICY_PARAMS))
def test_policy_parameter_slots(name):
    """Each parameter sits at its slot of the packed array, with its default, and zeros after the last
    up to a branch's two slots (the forced decision and option, kernels/force.py) and the probes' two
    slots (policies.py "Probes"), all four -1 (off)."""
    kind = PolicyKind[name.upper()]
    params = POLICY_PARAMS[name]
    vector = PolicySpec(kind).vector()
    assert vector.shape == (P.MAX_POLICY_PARAMS,) and vector.dtype == np.float64
    for param, (slot, default) in params.items():
        assert vector[slot] == default, (name, param, slot)
        value = {"samples": 123.0, "rollout": 1.0, "prokat_weight": 123.0, "infer": 0.0,
                 "floor": 0.25}.get(param, 123.25)  # pimc's: whole numbers, a name's code, a share  # fmt: skip
        moved = PolicySpec(kind, {param: value}).vector()  # a distinctive value lands in its slot only
        assert moved[slot] == value and np.count_nonzero(moved != vector) == 1, (name, param)
    used = len(params)
    assert sorted(slot for slot, _ in params.values()) == list(range(used))
    assert not vector[used:P.FORCE_DECISION].any()
    assert P.FORCE_DECISION == P.MAX_POLICY_PARAMS - 4 and P.FORCE_OPTION == P.MAX_POLICY_PARAMS - 3
    assert vector[P.FORCE_DECISION] == -1 and vector[P.FORCE_OPTION] == -1
    assert vector[P.FIRST_CARD] == -1 and vector[P.TAKE_TRUMP] == -1 and P.TAKE_TRUMP == P.MAX_POLICY_PARAMS - 1


@pytest.mark.parametrize("param", sorted(INDEX_CONSTANTS))
def test_index_constants_match_the_slots(param):
    """The index constants both engines read a parameter by are the slots the parameter is packed in."""
    slots = {POLICY_PARAMS[name][param][0] for name in POLICY_PARAMS if param in POLICY_PARAMS[name]}
    assert len(slots) == 1, (param, slots)  # one slot for every kind that has it
    assert getattr(P, INDEX_CONSTANTS[param]) == slots.pop()


def test_pack_policies_rows_are_the_seats():
    """pack_policies gives one row per seat: the seat's kind code, parameter vector and announce flag."""
    specs = [PolicySpec.parse("random"), PolicySpec.parse("greedy"), PolicySpec.parse("expert:intent_weight=2"),
             PolicySpec.parse("basic:announce=false")]  # fmt: skip
    kinds, params, announce = pack_policies(specs)
    assert kinds.tolist() == [0, 3, 4, 1] and kinds.dtype == np.int8  # README codes
    assert params.shape == (4, P.MAX_POLICY_PARAMS) and params.dtype == np.float64
    assert not params[0, :P.FORCE_DECISION].any() and (params[:, P.FORCE_DECISION:] == -1).all()  # random: the probes off
    assert params[1, 18] == 3.0 and params[1, 5] == 10.0  # greedy: rams_length, keep_trump_rank (Q)
    assert params[2, 20] == 2.0 and params[2, 0] == 0.5  # expert: intent_weight given, pass_threshold default
    assert announce.tolist() == [1, 1, 1, 0] and announce.dtype == np.int8


def test_announce_defaults_to_always():
    """CLARIFICATIONS (issue 2): `announce` = `always` (default) | `never`; R8.2: a player announces at zero."""
    assert PolicySpec().announce is True
    assert PolicySpec.parse("basic").announce is True and PolicySpec.parse("expert:announce=never").announce is False

