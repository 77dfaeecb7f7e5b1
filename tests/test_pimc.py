"""Policy ``pimc`` (issue "Strong play"): legal, deterministic, and it searches only where it may.

Strength is measured with ``rams-sim compare`` (bench/, the issue's note), not asserted here.
"""

from __future__ import annotations

import numpy as np
import pytest

from rams_sim import engine, reference
from rams_sim.kernels.bits import ACE_CARDS as ACES
from rams_sim.policies import PolicySpec
from rams_sim.rules import PRESETS, Game, Rules

# a searching seat's kernels take minutes of CPU to compile cold (rams_sim/warm.py): the tests that play them are
# heavy (`make test-slow`)
heavy = pytest.mark.heavy
SEARCHED = [name for name, preset in PRESETS.items() if preset.game == Game.RAMS]
TABLE = ["pimc:samples=4", "expert", "basic", "expert"]


@heavy
@pytest.mark.parametrize("preset", SEARCHED)
def test_pimc_plays_every_classic_preset(preset):
    """Every deal completes with legal cards (the engine stops on an illegal one) and five tricks."""
    rules = Rules.named(preset)
    policies = (TABLE * 2)[: rules.players]
    out = engine.simulate(rules, policies, seed=2, deals=150, log_plays=True)
    played = out.outcome == 0
    assert played.any()
    assert (out.tricks[played].sum(axis=1) <= 5).all()


@heavy
def test_pimc_is_a_pure_function_of_seed_and_deal():
    rules = Rules()
    whole = engine.simulate(rules, TABLE, seed=9, deals=120)
    part = engine.simulate(rules, TABLE, seed=9, deals=60, first_deal=60)
    np.testing.assert_array_equal(whole.delta[60:], part.delta)
    np.testing.assert_array_equal(whole.sets[60:], part.sets)


@heavy
def test_pimc_searches_its_exchange_and_its_cards():
    """Against expert on the same deals, pimc passes, discards and plays otherwise somewhere."""
    rules = Rules()
    a = engine.simulate(rules, ["pimc:samples=8", "expert", "expert", "expert"], seed=4, deals=300, log_plays=True)
    b = engine.simulate(rules, ["expert"] * 4, seed=4, deals=300, log_plays=True)
    assert (a.passed[:, 0] != b.passed[:, 0]).any()
    assert (a.discards[:, 0] != b.discards[:, 0]).any()
    same_hands = (a.hand_final == b.hand_final).all(axis=1)
    assert (a.play_card[same_hands, :, 0] != b.play_card[same_hands, :, 0]).any()


@heavy
def test_pimc_decisions_are_open_to_it():
    """Every pimc decision is one the rules allow (the engine stops with a status otherwise):
    no pass with an ace (R4.1), a dealer's R4.3 card from his hand, across rule options."""
    for rules in (Rules(), Rules(dealer_takes_trump="must"), Rules(exchange_order="declare-then-buy", players=3),
                  Rules.named("negotiations"), Rules(players=6)):  # fmt: skip
        out = engine.simulate(rules, "pimc:samples=2", seed=5, deals=60)
        aces = np.array([[(int(h) & int(ACES)).bit_count() for h in row] for row in out.hand_dealt])
        assert not (out.passed & (aces > 0)).any()


@heavy
def test_duel_pimc_decides_by_search():
    """In duel the searching seat's widow choices, dave offers and answers and cards are its search's,
    not the rollout policy's: against expert at both seats on the same parties, it swaps or stands,
    offers and answers dave otherwise somewhere; every party it plays ends or stays unfinished
    with a status OK (docs/SEARCH.md "duel")."""
    for preset in ("duel", "duel-trump"):
        rules = Rules.named(preset)
        searched = engine.simulate(rules, ["pimc:samples=8", "expert"], seed=4, deals=300, log_plays=True)
        scripted = engine.simulate(rules, ["expert", "expert"], seed=4, deals=300, log_plays=True)
        assert (searched.status == 0).all()
        assert (searched.widow != scripted.widow).any(), preset
        assert (searched.dave[:, 0] != scripted.dave[:, 0]).any(), preset
        assert (searched.stake != scripted.stake).any(), preset  # its answers and offers move the stake
        parties = engine.simulate_parties(rules, ["pimc:samples=8", "expert"], seed=4, parties=100)
        assert (parties.status == 0).all() and (parties.winner >= 0).all()


@heavy
def test_zone_pimc_swaps_and_plays_by_search():
    """In zone the searching partner both swaps and stands, and its search changes its play
    from the rollout policy's own (the swap and the cards are searched, not delegated)."""
    rules = Rules.named("zone")
    searched = engine.simulate(rules, ["pimc:samples=8", "expert"], seed=4, deals=200, log_plays=True)
    scripted = engine.simulate(rules, ["expert", "expert"], seed=4, deals=200, log_plays=True)
    partner = (searched.dealer + 1) % 2
    took = searched.widow == partner  # the widow column names the seat that took it
    assert took.any() and (~took).any(), "the partner both swaps and stands"
    assert (searched.play_card != scripted.play_card).any(axis=(1, 2)).mean() > 0.2


def test_pimc_parameters_are_checked():
    assert PolicySpec.parse("pimc:samples=8,rollout=basic").params == {"samples": 8.0, "rollout": 1.0}
    assert str(PolicySpec.parse("pimc:rollout=basic")) == "pimc:rollout=basic"
    for bad in ("pimc:samples=0", "pimc:samples=2.5", "pimc:rollout=pimc", "pimc:rollout=nobody"):
        with pytest.raises(ValueError, match="pimc"):
            PolicySpec.parse(bad)
    for bad in ("-1", "2.5"):  # zone's prokat weight: a whole number of points, 0 or more
        with pytest.raises(ValueError, match="prokat_weight"):
            PolicySpec.parse(f"pimc:prokat_weight={bad}")


@heavy
def test_the_reference_plays_pimc():
    """The reference engine searches pimc's decisions and cards itself (rams_sim/reference/pimc.py)
    and plays the deals the kernels play (tests/test_differential.py compares some 1,600 more)."""
    rules = Rules()
    out = engine.simulate(rules, TABLE, seed=2, deals=20, log_plays=True)
    for i in range(20):
        slow = reference.play_deal(rules, TABLE, seed=2, deal=i)
        assert not slow.differences(engine.record_of(out, i)), f"deal {i}"


@heavy
def test_zone_prokat_weight_counts_the_prokat():
    """In zone the search counts a прокат (money, not in the delta) as ``prokat_weight`` points:
    with 0 it plays some cards otherwise than with the default 60, and it pays the прокат more
    often (docs/SEARCH.md "zone")."""
    rules = Rules.named("zone")
    weighted = engine.simulate(rules, ["pimc:samples=8", "expert"], seed=9, deals=300, log_plays=True)
    unweighted = engine.simulate(rules, ["pimc:samples=8,prokat_weight=0", "expert"], seed=9, deals=300,
                                 log_plays=True)  # fmt: skip
    assert (weighted.play_card != unweighted.play_card).any()
    paid = [sum(engine.record_of(out, i).prokat[0] for i in range(300)) for out in (weighted, unweighted)]
    assert paid[0] < paid[1], paid


@pytest.mark.parametrize("end_kind, remiz", [("NONE", True), ("DEAL_END", True), ("TRICK", False), ("DECLINED", False)])
def test_a_deal_cut_short_is_no_remiz_in_the_flags(end_kind, remiz):
    """advise's P(remiz) (pimc's FLAG_REMIZ): a seat that played and took no trick, unless the
    deal was cut short by the end of the party (R8.2a: no remiz; duel's declined dave)."""
    from rams_sim.kernels import state as S
    from rams_sim.kernels.pimc import FLAG_ENDS, FLAG_REMIZ, _flags
    from rams_sim.record import EndKind

    _, _, _, st, _, info, _ = S.make_state()
    st[S.ACTIVE, 1] = 1
    info[S.OUTCOME] = 0  # played
    info[S.END_KIND] = int(EndKind[end_kind])
    info[S.ENDS_PARTY] = 0 if end_kind != "NONE" else -1
    flags = _flags(st, info, 1)
    assert bool(flags & FLAG_REMIZ) == remiz and bool(flags & FLAG_ENDS) == (end_kind != "NONE")


@pytest.mark.parametrize("seed", range(6))
def test_racing_drops_the_options_clearly_worse_than_the_best(seed):
    """The reference's racing (docs/SEARCH.md "Racing") against the rule computed afresh: after n
    shared worlds, option i is dropped iff its mean difference to the best (least total, ties
    the first) exceeds z standard errors of that difference; dropped options get no values."""
    from rams_sim.policies import RACE_BATCH, RACE_MIN
    from rams_sim.reference.pimc import Race

    rng = np.random.default_rng(seed)
    k, z = 6, 2.0
    means = rng.normal(0, 1.5, k)
    race = Race(k, z)
    history = np.zeros((k, 0), np.int64)
    for n in range(1, 97):
        values = {i: round(rng.normal(means[i], 6)) for i in range(k) if race.alive[i]}
        column = np.array([values.get(i, 0) for i in range(k)], np.int64)[:, None]
        alive_before = list(race.alive)
        race.add(values, n)
        history = np.concatenate([history, column], axis=1)
        if n >= RACE_MIN and n % RACE_BATCH == 0:
            live = [i for i in range(k) if alive_before[i]]
            best = min(live, key=lambda i: (history[i].sum(), i))
            for i in live:
                diff = history[i] - history[best]
                dropped = i != best and diff.mean() > z * diff.std(ddof=1) / np.sqrt(n)
                assert race.alive[i] == (not dropped), (n, i)
        else:
            assert race.alive == alive_before
    assert race.alive[race.best()]


def test_racing_is_a_parameter():
    assert PolicySpec.parse("pimc:race=2,infer=policy,floor=0.2").params == {"race": 2.0, "infer": 1.0, "floor": 0.2}
    assert str(PolicySpec.parse("pimc:infer=policy")) == "pimc:infer=policy"
    assert str(PolicySpec.parse("pimc:infer=play")) == "pimc:infer=play"  # the worlds at a card weighed too
    for bad, word in (("pimc:race=-1", "race"), ("pimc:infer=maybe", "infer"), ("pimc:floor=0", "floor"),
                      ("pimc:floor=1.5", "floor")):  # fmt: skip
        with pytest.raises(ValueError, match=word):
            PolicySpec.parse(bad)
