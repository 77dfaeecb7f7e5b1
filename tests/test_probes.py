"""The probes ``first_card`` and ``take_trump`` (rams_sim/policies.py "Probes"): what they force,
what they leave alone, and how they are refused. The two engines agreeing on them is in
tests/test_differential.py (``test_probes_agree``)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from rams_sim import cards as C
from rams_sim import engine
from rams_sim.cli.main import app
from rams_sim.policies import (
    FIRST_CARD,
    PARAMS_BY_KIND,
    PROBE_PARAMS,
    TAKE_TRUMP,
    PolicyKind,
    PolicySpec,
    default_params,
    pack_policies,
)
from rams_sim.rules import Rules

PROBED = ("random", "basic", "cautious", "greedy", "expert", "table")  # every kind but pimc
DEALS = 400


# ---- R6.2-R6.7a again, for trick 0 under classic's default options, written from RULES.md
def _legal_in_trick0(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """The legal cards (ascending ids) of ``hand`` for trick 0 with ``trick`` played before him:
    R6.5 (trump ace led), R6.6 (marriage K led), R6.2 (follow suit, else trump, else any; ruff=any-trump),
    R6.7 (ace_covers_face: the trump ace on a trump K, Q or J); no must_head."""
    ace, king, queen, jack = (C.card_id(trump, rank) for rank in (C.ACE, C.KING, C.QUEEN, C.JACK))
    if not trick:
        if ace in hand:
            return [ace]
        if king in hand and queen in hand:
            return [king]
        return sorted(hand)
    led = C.suit_of(trick[0])
    legal = [c for c in hand if C.suit_of(c) == led] or [c for c in hand if C.suit_of(c) == trump] or list(hand)
    if ace in legal and any(c in trick for c in (king, queen, jack)):
        legal = [ace]
    return sorted(legal)


def _first_cards(rec):
    """(seat, card, legal cards) of every card of trick 0, in play order, the legality computed from
    the seat's final hand and the cards before his."""
    trick0 = rec.plays[0]
    n = len(rec.passed)
    order = [(trick0.leader + j) % n for j in range(n) if not rec.passed[(trick0.leader + j) % n]]
    trump = C.suit_of(rec.trump_card)
    played = []
    for seat in order:
        card = trick0.cards[seat]
        yield seat, card, _legal_in_trick0(C.cards_of(rec.hand_final[seat]), played, trump)
        played.append(card)


def test_probe_slots_default_off():
    """Every kind's row holds both probes at -1 unless set; pimc's too (it refuses them)."""
    assert (default_params()[:, FIRST_CARD] == -1).all() and (default_params()[:, TAKE_TRUMP] == -1).all()
    assert max(map(len, PARAMS_BY_KIND.values())) <= FIRST_CARD < TAKE_TRUMP
    _, params, _ = pack_policies([PolicySpec.parse("table"), PolicySpec.parse("basic:first_card=3,take_trump=0")])
    assert params.shape[1] > TAKE_TRUMP and list(params[:, FIRST_CARD]) == [-1, 3] and list(params[:, TAKE_TRUMP]) == [-1, 0]
    assert "first_card" not in PolicySpec.parse("basic").to_dict()["params"]  # provenance unchanged by default
    assert PolicySpec.parse("basic:first_card=2").to_dict()["params"]["first_card"] == 2.0
    assert set(PROBE_PARAMS) == {"first_card", "take_trump"}


@pytest.mark.parametrize(
    "text, message",
    [
        ("basic:first_card=x", "first_card must be a number"),
        ("basic:first_card=1.5", "first_card must be -1"),
        ("basic:first_card=-2", "first_card must be -1"),
        ("expert:take_trump=2", "take_trump must be -1"),
        ("random:take_trump=0.5", "take_trump must be -1"),
        ("pimc:first_card=0", "policy pimc has no parameter 'first_card'"),
        ("pimc:take_trump=1", "policy pimc has no parameter 'take_trump'"),
    ],
)
def test_bad_probes_are_refused(text, message):
    """A probe pimc cannot honour, or a value outside its range, is a one-line ValueError at parse time."""
    with pytest.raises(ValueError, match=message) as err:
        PolicySpec.parse(text)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("j", [0, 1, 2, 3, 4, 9])
@pytest.mark.parametrize("kind", PROBED)
def test_first_card_is_the_jth_legal_card(kind, j):
    """With first_card=j at every seat, every card of trick 0 is the j-th legal card in ascending
    id order (the highest with j or fewer), legality computed here from the final hands."""
    rules = Rules.classic(players=4)
    out = engine.simulate(rules, f"{kind}:first_card={j}", seed=11, deals=DEALS, log_plays=True)
    checked = 0
    for i in range(DEALS):
        rec = engine.record_of(out, i)
        if not rec.plays:
            continue
        for seat, card, legal in _first_cards(rec):
            assert card == legal[min(j, len(legal) - 1)], f"{kind} j={j} deal {i} seat {seat}: {card} of {legal}"
            checked += 1
    assert checked > DEALS  # most deals are played


@pytest.mark.parametrize("kind", ("basic", "cautious", "greedy", "expert", "table"))
def test_first_card_changes_only_the_first_card(kind):
    """A probed seat whose policy would have played the forced card anyway plays the same deal:
    the paired deals (same seed and index) are identical wherever his first card is the same."""
    rules = Rules.classic(players=3)
    plain = engine.simulate(rules, kind, seed=12, deals=DEALS, log_plays=True)
    same = 0
    for j in range(3):
        probed = engine.simulate(rules, [f"{kind}:first_card={j}", kind, kind], seed=12, deals=DEALS, log_plays=True)
        for i in range(DEALS):
            a, b = engine.record_of(plain, i), engine.record_of(probed, i)
            if a.plays and b.plays and a.plays[0].cards[0] == b.plays[0].cards[0]:
                assert a == b, f"{kind} first_card={j} deal {i}"
                same += 1
            elif not a.plays:
                assert a == b  # nobody played: nothing to force
    assert same > 0


@pytest.mark.parametrize("kind", PROBED)
@pytest.mark.parametrize("take", [0, 1])
def test_take_trump_decides_where_the_dealer_may(kind, take):
    """take_trump=1/0: a playing dealer takes/declines the trump card in every deal where R4.3
    (dealer_takes_trump=may) lets him choose; a passing dealer never takes it; where his own policy
    made the same choice, the paired deal is identical (the card he gives up stays his policy's)."""
    rules = Rules.classic(players=4)
    probed = engine.simulate(rules, f"{kind}:take_trump={take}", seed=13, deals=DEALS, log_plays=True)
    plain = engine.simulate(rules, kind, seed=13, deals=DEALS, log_plays=True)
    played = same = 0
    for i in range(DEALS):
        rec, base = engine.record_of(probed, i), engine.record_of(plain, i)
        d = rec.dealer
        if rec.passed[d]:
            assert not rec.took_trump[d] and rec.trump_discard[d] == C.NO_CARD
            continue
        played += 1
        assert rec.took_trump[d] == bool(take), f"{kind} take_trump={take} deal {i}"
        assert not any(rec.took_trump[s] for s in range(4) if s != d)
        if kind != "random" and not base.passed[d] and base.took_trump[d] == bool(take):
            assert rec == base, f"{kind} take_trump={take} deal {i}"
            same += 1
    assert played > 0 and (same > 0 or kind == "random")


@pytest.mark.parametrize("take", [0, 1])
def test_take_trump_changes_nothing_where_the_dealer_must_take(take):
    """dealer_takes_trump=must (and a turned-up ace that binds him): the probe changes no deal."""
    for rules in (Rules.classic(dealer_takes_trump="must"), Rules.classic(turned_ace_binds_dealer=True)):
        probed = engine.simulate(rules, f"basic:take_trump={take}", seed=14, deals=DEALS, log_plays=True)
        plain = engine.simulate(rules, "basic", seed=14, deals=DEALS, log_plays=True)
        for i in range(DEALS):
            rec, base = engine.record_of(probed, i), engine.record_of(plain, i)
            forced = rules.dealer_takes_trump.value == "must" or C.rank_of(rec.trump_card) == C.ACE
            if forced:
                assert rec == base, f"{rules.dealer_takes_trump} deal {i}"


@pytest.mark.parametrize("preset", ["duel", "zone", "modern"])
def test_take_trump_changes_nothing_outside_r4_3(preset):
    """Games where the dealer has no R4.3 choice (duel's compulsory trump card, zone, modern): same deals."""
    rules = Rules.named(preset)
    n = rules.players
    plain = engine.simulate(rules, ["basic"] * n, seed=15, deals=200, log_plays=True)
    for take in (0, 1):
        probed = engine.simulate(rules, [f"basic:take_trump={take}"] * n, seed=15, deals=200, log_plays=True)
        for i in range(200):
            assert engine.record_of(probed, i) == engine.record_of(plain, i), f"{preset} take_trump={take} deal {i}"


@pytest.mark.parametrize(
    "policy, message",
    [
        ("0=basic:first_card=x", "first_card must be a number"),
        ("0=basic:take_trump=2", "take_trump must be -1"),
        ("1=expert:first_card=-3", "first_card must be -1"),
        ("0=pimc:first_card=0", "policy pimc has no parameter 'first_card'"),
    ],
)
def test_cli_bad_probe_is_one_line_exit_2(tmp_path, policy, message):
    """``rams-sim run --policy`` with a bad probe: one line, exit code 2, nothing written."""
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", "--deals", "100", "--policy", policy, "--out", str(out)])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and message in lines[0], result.output
    assert "Traceback" not in result.output and not out.exists()


def test_cli_runs_a_probe(tmp_path):
    """``--policy 0=basic:first_card=9`` (above any count of legal cards: the highest) runs, and
    the help lists the probes."""
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", "--deals", "200", "--policy", "0=basic:first_card=9,take_trump=1",
                                      "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert out.exists()
    help_text = " ".join(CliRunner().invoke(app, ["run", "--help"]).output.split())
    assert "first_card" in help_text and "take_trump" in help_text


def test_probed_vector_has_the_kind_parameters_untouched():
    """Setting a probe moves no other parameter of the row."""
    for kind in PROBED:
        plain = PolicySpec.parse(kind).vector()
        probed = PolicySpec.parse(f"{kind}:first_card=2,take_trump=0").vector()
        keep = np.ones(plain.shape, bool)
        keep[[FIRST_CARD, TAKE_TRUMP]] = False
        assert (plain[keep] == probed[keep]).all() and PolicyKind[kind.upper()] != PolicyKind.PIMC
