"""The options a game does not read (rules.NO_EFFECT, rules.no_effect) change no row.

`rams-sim rules show` marks them and `rams-sim effect` refuses them, so the list must be
true: for every implemented preset and every option it lists, a variant with another
value is played paired with the preset on the same deals and parties (rams_sim.runs.effect),
by basic, expert and random players, and not one deal or party may differ in any output
(deltas, decisions, every card of the play log). A game that starts reading such an
option fails here. The converse (a read option) is shown by the games' worked examples.
"""

from __future__ import annotations

from enum import StrEnum

import pytest
from typer.testing import CliRunner

from rams_sim.cli.main import app
from rams_sim.kernels import effect as K
from rams_sim.rules import GAME_OPTIONS, PRESETS, Game, Rules, no_effect, own_options
from rams_sim.runs.effect import EffectError, check_variants, simulate_paired, simulate_paired_parties

IMPLEMENTED = [name for name, info in PRESETS.items() if info.implemented]
TABLES = ("basic", "expert", "random")
DEALS, PARTIES = 1500, 150


def other_value(rules: Rules, name: str):
    """A value of option ``name`` other than ``rules``' own that ``rules`` accepts."""
    value = getattr(rules, name)
    if isinstance(value, StrEnum):
        candidates = [m for m in type(value) if m != value]
    elif isinstance(value, bool):
        candidates = [not value]
    elif isinstance(value, tuple):
        candidates = [(1, 2, 3, 4) if value != (1, 2, 3, 4) else (0, 0, 0, 0)]
    else:
        candidates = [value + 3, max(value - 1, 1)]
    for candidate in candidates:
        try:
            return rules.replace(**{name: candidate})
        except ValueError:
            continue
    raise AssertionError(f"{rules.preset}: no other value of {name} is accepted")


def idle_cases():
    for preset in IMPLEMENTED:
        for name in no_effect(Rules.named(preset)):
            yield pytest.param(preset, name, id=f"{preset}-{name}")


@pytest.mark.parametrize(("preset", "name"), list(idle_cases()))
def test_an_option_of_no_effect_changes_no_deal_and_no_party(preset, name):
    rules = Rules.named(preset)
    variant = other_value(rules, name)
    for policy in TABLES:
        paired = simulate_paired(rules, [variant], policy, seed=3, deals=DEALS)
        assert paired.deals[0, K.G_DEALS] == DEALS and paired.deals[0, K.G_CHANGED] == 0, (policy, "deals")
        parties = simulate_paired_parties(rules, [variant], policy, seed=3, parties=PARTIES)
        assert parties.deals[0, K.G_CHANGED] == 0, (policy, "parties")


def test_each_game_reads_the_rest():
    """The lists name only options a game may set, and every game reads its own options."""
    for preset in IMPLEMENTED:
        rules = Rules.named(preset)
        idle = no_effect(rules)
        assert set(idle) <= set(own_options(rules.game)), preset
        assert {"players", "deck", "start", "max_deals"}.isdisjoint(idle), preset


@pytest.mark.parametrize(("preset", "name"), [("zone", "ruff"), ("modern", "suit_rams"), ("duel", "settle"),
                                              ("from-15", "four_jacks")])  # fmt: skip
def test_effect_refuses_an_option_of_no_effect(preset, name, tmp_path):
    rules = Rules.named(preset)
    with pytest.raises(EffectError, match=f"{name} has no effect"):
        check_variants(rules, [other_value(rules, name)])
    value = getattr(other_value(rules, name), name)
    text = value.value if isinstance(value, StrEnum) else str(value).lower()
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["effect", f"{name}={text}", "--rules", preset, "--deals", "100", "--out", str(out)])
    assert result.exit_code == 2 and f"{name} has no effect" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert not out.exists() and not list(tmp_path.iterdir())  # nothing written


def test_an_idle_option_made_active_by_the_variant_is_allowed():
    """from-15's four_jacks is idle while four jacks win the party; a variant that also turns
    four_jacks_win off makes it count, so the pair is a real question."""
    base = Rules.named("from-15")
    check_variants(base, [base.replace(four_jacks=20, four_jacks_win=False)])
    duel = Rules.named("duel")
    check_variants(duel, [duel.replace(suit_rams=7, duel_declaration_points=True)])


@pytest.mark.parametrize("preset", ["zone", "modern", "duel", "classic"])
def test_rules_show_marks_the_options_a_game_does_not_read(preset):
    out = CliRunner().invoke(app, ["rules", "show", preset]).output
    rules = Rules.named(preset)
    idle = no_effect(rules)
    listed, _, marked = out.partition("no effect")
    for name in own_options(rules.game):
        if name in idle:
            assert f"  {name} " not in listed and f"  {name} " in marked, name
        else:
            assert f"  {name} " in listed, name
    others = {n for g in Game if g != rules.game for n in GAME_OPTIONS[g]}
    assert not any(f" {n} " in out for n in others)
