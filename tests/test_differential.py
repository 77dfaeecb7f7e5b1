"""The fast engine and the reference engine agree deal by deal on random decks.

Every field of every deal is compared: cards dealt, passes, the announcements (R4.0a),
exchanges, the dealer's trump card, final hands, jacks, declarations, every card played
with leader and winner, tricks, deltas, overshoots, the outcome and who ended the party. A failure
names the preset, seed and deal index, so the deal can be replayed alone in
``rams_sim.reference``.
"""

from __future__ import annotations

import pytest

from rams_sim import engine, reference
from rams_sim.policies import PolicyKind, PolicySpec
from rams_sim.rules import Rules

PRESETS = ("classic", "handbook", "encyclopedia", "from-15", "negotiations", "modern")
PLAYERS = (2, 3, 4, 5, 6, 7)
TABLE_SIZES = {"modern": (4,)}  # presets played at one table size only (docs/VARIANTS.md)
PARTY_OPTIONS = {"modern": {"modern_target": 10}}  # shorter parties; the others start at 30
DEALS = 2000  # per preset, table size and policy (issue 2)
POLICIES = tuple(kind.name.lower() for kind in PolicyKind if kind != PolicyKind.PIMC)  # pimc: tests/test_pimc.py


def assert_same_deals(rules: Rules, policies, seed: int, deals: int, label: str) -> None:
    """Play ``deals`` deals of ``seed`` in both engines and compare every record."""
    out = engine.simulate(rules, policies, seed=seed, deals=deals, log_plays=True)
    for i in range(deals):
        fast = engine.record_of(out, i)
        slow = reference.play_deal(rules, policies, seed=seed, deal=i)
        diff = slow.differences(fast)
        assert not diff, f"{label}: seed {seed} deal {i} differs (reference != engine):\n  " + "\n  ".join(diff)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(
    "preset, players", [(preset, players) for preset in PRESETS for players in TABLE_SIZES.get(preset, PLAYERS)]
)
def test_presets_agree(preset, players, policy):
    """Both engines play 2,000 random decks of every preset, table size and policy identically."""
    rules = Rules.named(preset, players=players)
    seed = 1000 + 10 * players + PRESETS.index(preset)
    assert_same_deals(rules, policy, seed, DEALS, f"{preset}/{players}p/{policy}")


OPTION_GRID = [
    {"ruff": "overtrump", "must_head": True},
    {"ace_covers_face": False, "must_head": True},
    {"dealer_takes_trump": "must", "turned_ace_binds_dealer": True},
    {"ace_forbids_pass": False, "exchange_order": "declare-then-buy"},
    {"lone_player": "void-deal", "jacks_count": "final"},
    {"exchange_order": "declare-then-buy", "jacks_count": "dealt", "rams_penalizes_passers": True},
    {"start": 6, "truncated_deal": "score-so-far"},  # parties end often: R8.2 paths
    {"start": 4, "deck": "24", "players": 3},
    {"start": 9, "deck": "36", "players": 6, "ruff": "overtrump"},
    {"start": 12, "deck": "52", "players": 2, "lone_player": "void-deal"},
    {"four_jacks_win": True, "jacks_count": "final", "start": 8},  # four aces and four jacks both win
    {"four_aces_win": False, "four_jacks_win": True, "ace_values": (0, 0, 0, 0), "lone_player": "void-deal"},
    {"intent_round": True},  # R4.0a after the one-turn round
    {"intent_round": True, "exchange_order": "declare-then-buy", "start": 8, "players": 6},
]


@pytest.mark.parametrize("options", OPTION_GRID, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_options_agree(options):
    """Both engines agree under every option of R2-R8, on mixed tables."""
    rules = Rules.classic(**options)
    mixed = [("basic:pass_threshold=3", *POLICIES)[s % (len(POLICIES) + 1)] for s in range(rules.players)]
    assert_same_deals(rules, mixed, seed=77, deals=600, label=f"options {options}")


MODERN_GRID = [
    {"modern_horns": "from-five", "start": 3, "lone_player": "void-deal"},
    {"start": 12, "modern_no_pass": 10, "modern_target": 14},  # nobody may pass; the target is 2 tricks away
    {"start": 15, "truncated_deal": "score-so-far", "jacks_count": "dealt", "four_jacks_win": False},
    {"start": 6, "modern_horns": "from-five", "jacks_count": "dealt-or-final", "ruff": "overtrump", "must_head": True},
]


@pytest.mark.parametrize("options", MODERN_GRID, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_modern_options_agree(options):
    """R9 modern (docs/VARIANTS.md): both engines agree under its options, on a mixed table."""
    rules = Rules.named("modern", **options)
    mixed = ["basic:modern_widow_threshold=2", "random", "expert", "greedy:pass_threshold=3"]
    assert_same_deals(rules, mixed, seed=88, deals=1500, label=f"modern {options}")


@pytest.mark.parametrize("players", (3, 5))
def test_announcement_readers_agree(players):
    """R4.0a: experts that read the announcements, with other weights and switched off, at one
    table with every announcer, in both engines."""
    specs = ["expert", "random", "expert:intent_weight=2,void_weight=0.5", "basic:intent_threshold=2",
             "expert:read_intents=0"][:players]  # fmt: skip
    assert_same_deals(Rules.named("negotiations", players=players), specs, seed=41, deals=1500,
                      label=f"readers {players}p")  # fmt: skip


DUEL_PRESETS = ("duel", "duel-trump")  # R9 duel: two players only (docs/VARIANTS.md)
DUEL_OPTIONS = ({}, {"dave": False}, {"dave_lead_only": True, "dave_max": 4},
                {"jacks_count": "final", "truncated_deal": "score-so-far", "ruff": "overtrump"})  # fmt: skip


@pytest.mark.parametrize("options", DUEL_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "preset")
@pytest.mark.parametrize("preset", DUEL_PRESETS)
def test_duel_presets_agree(preset, options):
    """duel, duel-trump: every pairing of policies, deal by deal and party by party, in both engines."""
    rules = Rules.named(preset, **options)
    for a in POLICIES:
        for b in POLICIES:
            label = f"{preset}/{options}/{a},{b}"
            assert_same_deals(rules, [a, b], seed=900 + POLICIES.index(a), deals=120, label=label)
            out = engine.simulate_parties(rules, [a, b], seed=4, parties=8)
            for p in range(8):
                slow = reference.play_party(rules, [a, b], seed=4, party=p)
                assert not slow.differences(engine.party_record_of(out, p)), f"{label}: party {p}"


@pytest.mark.parametrize("players", (4, 6))
def test_mixed_tables_agree(players):
    """Every policy at one table, with non-default parameters, in both engines."""
    specs = ["expert:void_weight=0.6,keep_kings=1", "greedy:rams_length=4", "cautious:void_weight=0", "random",
             "basic", "expert"][:players]  # fmt: skip
    assert_same_deals(Rules.classic(players=players), specs, seed=31, deals=1500, label=f"mixed {players}p")


def test_overshoot_agrees():
    """Players who never announce overshoot identically in both engines (R8.3)."""
    rules = Rules.classic(start=3, players=3)
    silent = [PolicySpec.parse("basic:announce=false"), PolicySpec.parse("random:announce=false"), "basic"]
    assert_same_deals(rules, silent, seed=5, deals=1500, label="overshoot")


@pytest.mark.parametrize("preset", PRESETS)
def test_parties_agree(preset):
    """Whole parties (R8) agree: deals played, final scores, winner, end, settlement."""
    rules = Rules.named(preset, **PARTY_OPTIONS.get(preset, {"start": 30}))
    out = engine.simulate_parties(rules, ["basic", "random", "basic", "random"], seed=3, parties=60)
    for p in range(60):
        fast = engine.party_record_of(out, p)
        slow = reference.play_party(rules, ["basic", "random", "basic", "random"], seed=3, party=p)
        assert not slow.differences(fast), f"{preset}: seed 3 party {p}: {slow.differences(fast)}"


# ---- R9 games with their own kernels: a fixed table each (docs/VARIANTS.md)
ZONE_OPTIONS = [
    {},
    {"zone_jacks": "one-trick"},
    {"zone_jacks_both": "both", "zone_overshoot": "restart"},
    {"zone_lead": "partner", "start": 4},  # near the target: the exact finish and the overshoot
    {"start": 3, "deck": "32", "zone_prokat": 0},
]


@pytest.mark.parametrize("policy", POLICIES + ("mixed",))
@pytest.mark.parametrize("options", ZONE_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "zone")
def test_zone_agrees(options, policy):
    """R9 zone: both engines play random decks identically, every policy and zone option."""
    rules = Rules.named("zone", **options)
    policies = ["random", "expert:zone_swap_threshold=3,zone_ace_weight=0.5"] if policy == "mixed" else policy
    assert_same_deals(rules, policies, seed=61, deals=600, label=f"zone {options}/{policy}")


@pytest.mark.parametrize("options", ZONE_OPTIONS[:4], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "zone")
def test_zone_parties_agree(options):
    """R9 zone: whole parties agree (the loser deals next, the exact finish, прокат settlement)."""
    rules = Rules.named("zone", **options)
    out = engine.simulate_parties(rules, ["basic", "random"], seed=3, parties=60)
    for p in range(60):
        fast = engine.party_record_of(out, p)
        slow = reference.play_party(rules, ["basic", "random"], seed=3, party=p)
        assert not slow.differences(fast), f"zone {options}: seed 3 party {p}: {slow.differences(fast)}"
