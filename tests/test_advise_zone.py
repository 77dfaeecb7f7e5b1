"""``rams-sim advise`` in R9 ``zone`` (docs/VARIANTS.md "zone"): the partner's swap, each card.

* A card: what advise lays out from a player's description (his hand, the partner's swap,
  his old hand if he swapped, the tricks) is what the engine's ``pimc`` policy sees in the
  same position of a recorded deal: the same layouts, worlds and rollouts, world by world
  (:func:`rams_sim.kernels.games.zone_search.evaluate_card` on both states).
* The swap: advise's means agree with ``branch`` data of the same hand.
* Input: each mistake is one line and exit code 2; a first lead the duty forbids is one.

The searches need pimc's zone kernels: those tests carry the ``heavy`` marker.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from test_advise import _played_text, assert_one_line_error

from rams_sim import advise, engine
from rams_sim import cards as C
from rams_sim.advice.notation import AdviceError
from rams_sim.advice.position import state_at
from rams_sim.advice.zone import zone_position
from rams_sim.kernels import state as S
from rams_sim.kernels.args import rules_args
from rams_sim.kernels.games.zone import SWAP_OPTION, first_lead
from rams_sim.kernels.games.zone_search import evaluate_card
from rams_sim.kernels.pimc import BLOCK
from rams_sim.policies import as_spec
from rams_sim.rules import Rules

ZONE = Rules.named("zone")
SCORES = [9, 6]  # near the exact finish (an excess writes on): the tricks' worth differs by seat


def _described(record, pos) -> dict:
    partner = 1 - record.dealer
    swapped = record.widow == partner
    return {"hand": C.cards_of(int(pos.cardsets[S.HAND, pos.seat])),
            "turns": {partner: "swap" if swapped else "stand"},
            "played": [] if _played_text(record, pos.t, pos.k) == "-" else
            [C.parse_cards(x) for x in _played_text(record, pos.t, pos.k).split("/")],
            "discarded": C.cards_of(record.discards[pos.seat]) if swapped and pos.seat == partner else []}  # fmt: skip


def _engine_duty(record, pos) -> int:
    """The first lead's duty the engine held at ``pos`` (:func:`.zone.first_lead` on the real hands)."""
    if (pos.t, pos.k) != (0, 0):
        return 0
    hands = np.zeros_like(pos.cardsets)
    for s in range(2):
        hands[S.HAND, s] = np.uint64(record.hand_final[s])
    return int(first_lead(True, hands, record.trump_card, 1 - record.dealer)[1])


def _worlds(arrays, scalars, seat, dealer, legal, duty, key):
    spec = as_spec("expert")
    kinds = np.full(2, int(spec.kind), np.int8)
    params = np.stack([spec.vector()] * 2)
    deltas = np.zeros((len(legal), BLOCK), np.int64)
    flags = np.zeros_like(deltas)
    cardsets, st, trick, log, info = arrays
    t, k, leader = scalars
    count = evaluate_card(rules_args(ZONE), kinds, params, np.uint64(key), cardsets, st, trick, info, log,
                          np.asarray(SCORES, np.int64), dealer, t, k, leader, seat, np.uint64(duty),
                          np.asarray(legal, np.int64), 0, deltas, flags, 0, 1)  # fmt: skip
    return count, deltas, flags


KINDS = {
    "the seat leads the first trick, bound by a duty": lambda r, p, d: (p.t, p.k) == (0, 0) and d != 0,
    "the seat leads the first trick freely": lambda r, p, d: (p.t, p.k) == (0, 0) and d == 0,
    "the other led the first trick": lambda r, p, d: (p.t, p.k) == (0, 1),
    "the seat swapped": lambda r, p, d: r.widow == p.seat and p.t >= 1,
    "the other swapped": lambda r, p, d: r.widow == 1 - p.seat and p.t >= 1,
    "nobody swapped, late in the deal": lambda r, p, d: r.widow == -1 and p.t >= 3,
}


@functools.cache
def _card_positions():
    """One card decision of a recorded deal (expert at both seats) per kind, with two legal cards or more."""
    out = engine.simulate(ZONE, "expert", seed=12, deals=400, log_plays=True)
    chosen = {}
    for i in range(400):
        record = engine.record_of(out, i)
        for t in range(len(record.plays)):
            for k in range(2):
                pos = state_at(ZONE, record, t, k)
                duty = _engine_duty(record, pos)
                hand = C.cards_of(int(pos.cardsets[S.HAND, pos.seat]))
                legal = [c for c in hand if not duty or duty >> c & 1]
                for name, shows in KINDS.items():
                    if name not in chosen and len(legal) >= 2 and shows(record, pos, duty):
                        chosen[name] = (record, pos, legal, duty)
        if len(chosen) == len(KINDS):
            break
    return [chosen[name] for name in KINDS if name in chosen]


def test_the_card_positions_cover_every_kind():
    assert len(_card_positions()) == len(KINDS)


@pytest.mark.heavy
@pytest.mark.parametrize("case", range(len(KINDS)))
def test_a_card_is_searched_on_what_the_pimc_policy_sees(case):
    record, pos, legal, duty = _card_positions()[case]
    told = _described(record, pos)
    mine = zone_position(ZONE, pos.seat, record.dealer, told["hand"], record.trump_card, SCORES, told["turns"],
                         told["played"], told["discarded"])  # fmt: skip
    assert [int(c) for c in mine.options] == legal
    a, x = mine.arrays, mine.scalars
    assert int(x["duty"]) == duty and (x["t"], x["k"], x["leader"]) == (pos.t, pos.k, pos.leader)
    ours = _worlds((a["cardsets"], a["st"], a["trick"], a["log"], a["info"]), (x["t"], x["k"], x["leader"]), pos.seat,
                   record.dealer, legal, duty, 5 + case)  # fmt: skip
    engines = _worlds((pos.cardsets, pos.st, pos.trick, pos.log, pos.info), (pos.t, pos.k, pos.leader), pos.seat,
                      record.dealer, legal, duty, 5 + case)  # fmt: skip
    assert ours[0] == engines[0] > 0
    assert np.array_equal(ours[1], engines[1]) and np.array_equal(ours[2], engines[2])


@pytest.mark.heavy
def test_the_swap_agrees_with_branch_data_for_the_hand():
    """The partner (seat 1, dealer 0) holds the hand under the turned card; ``branch`` replays
    3,000 deck orders that deal that, stand and swap forced in turn, both seats on basic."""
    hand, turned = C.parse_cards("K♥ 10♠ 7♣ Q♦ 8♠"), C.parse("9♥")
    rest = [c for c in C.cards_of(C.deck_mask(36)) if c not in hand and c != turned]
    rng = np.random.default_rng(4)
    orders = []
    for _ in range(3000):
        others = rng.permutation(rest).tolist()
        orders.append(hand + others[:10] + [turned] + others[10:])  # the hands, the widow, then the turned card
    out = engine.simulate_branches(ZONE, "basic", seat=1, deals=len(orders), dealer=0, orders=orders)
    by_option: dict[int, list[int]] = {}
    for option, delta in zip(out.option.tolist(), out.delta.tolist()):
        by_option.setdefault(option, []).append(delta)
    result = advise(hand, turned, seat=1, dealer=0, rules=ZONE, others="basic", rollout="basic", target_se=0.05)
    assert result.stage == "swap" and sorted(result.table["option"]) == ["stand", "swap"]
    for row in result.table.iter_rows(named=True):
        branch = np.array(by_option[SWAP_OPTION if row["option"] == "swap" else 0], float)
        se = math.hypot((row["ci_high"] - row["ci_low"]) / (2 * 1.96), branch.std(ddof=1) / math.sqrt(len(branch)))
        assert abs(row["mean"] - branch.mean()) <= 4 * se, (row["option"], row["mean"], branch.mean(), se)


@pytest.mark.parametrize("args, message", [
    (["--seat", "0"], "decides nothing before the play"),
    (["--turns", "0=swap", "--played", "-"], "only the dealer's partner"),
    (["--trump-card", "A♥"], "nobody holds it"),
    (["--played", "-"], "give the partner's turn"),
    (["--turns", "1=swap", "--played", "-"], "old hand"),
    (["--turns", "1=stand", "--played", "Q♦ 7♦", "--seat", "0", "--hand", "K♥ 7♠ 9♦ 10♣"], "lead duty"),
    (["--turns", "1=stand", "--played", "-", "--seat", "0", "--hand", "K♠ 7♠ 9♦ 10♣ 8♣"], "does not lead the first"),
    (["--turns", "1=stand", "--played", "7♦ 8♦"], "holds 4 cards"),
    (["--turns", "1=swop"], "--turns takes"),
    (["--jacks", "0=pair"], "no jack declaration"),
])  # fmt: skip
def test_mistakes_end_in_one_line_and_exit_2(args, message):
    """(The dealer is seat 0, the partner seat 1, the turned card 9♥. In the sixth case the dealer
    led the first trick, Q♦, and won it; he had no lead duty, so the partner should have led.)"""
    base = {"--trump-card": "9♥", "--rules": "zone", "--seat": "1", "--dealer": "0", "--deals": "256",
            "--hand": "A♥ K♠ 7♠ 9♦ 10♣"}  # fmt: skip
    assert_one_line_error(base, args, message)


@pytest.mark.heavy
def test_the_sampler_itself_finds_no_world_for_a_broken_first_lead(monkeypatch):
    """The dealer led the first trick without a lead duty: advise refuses it before searching,
    and so does the sampler (``first_lead_facts`` keeps no holding: no layout) when that check
    is taken away."""
    import rams_sim.advice.zone as AZ

    args = dict(seat=0, dealer=0, rules=ZONE, turns="1=stand", played="Q♦ 7♦", max_worlds=256)
    with pytest.raises(AdviceError, match="lead duty"):
        advise("K♥ 7♠ 9♦ 10♣", "9♥", **args)
    monkeypatch.setattr(AZ, "_check_first_lead", lambda *a, **k: None)
    with pytest.raises(AdviceError, match="no layout of the unseen cards agrees"):
        advise("K♥ 7♠ 9♦ 10♣", "9♥", **args)


@pytest.mark.heavy
@pytest.mark.parametrize("mine, led, fits", [("K♥ 7♠ 9♦ 10♣ Q♦", "Q♦", False), ("K♥ Q♥ 9♦ 10♣ Q♦", "K♥", True)])
def test_both_engines_read_the_first_lead_alike(mine, led, fits):
    """The dealer (seat 0; the trump 9♥ turned) led the first trick and the partner answered 7♦.
    Holding the trump K without the Q, no holding of the partner's explains a dealer's lead
    (the reference's sampler, like the kernels', then finds no world); holding K and Q, his
    lead of the K was his duty, and the partner cannot hold the trump A (he would lead it)."""
    from types import SimpleNamespace

    from rams_sim.kernels.games.zone_search import first_lead_facts
    from rams_sim.reference.games import zone_search as reference

    mine = C.parse_cards(mine)
    turned, theirs = C.parse("9♥"), [C.parse("7♦")]
    unknown = C.deck_mask(36) & ~C.mask_of(mine + theirs + [turned])
    hands = np.zeros((S.N_CARDSETS, C.MAX_SEATS), np.uint64)
    forbid, pin, pair, kernel_fits = first_lead_facts(rules_args(ZONE), 0, 0, turned, np.uint64(C.mask_of(mine)),
                                                      np.uint64(C.mask_of(theirs)), np.uint64(unknown), 0,
                                                      C.parse(led), np.uint64(0), hands)  # fmt: skip
    table = SimpleNamespace(book=SimpleNamespace(rules=ZONE), trump=C.suit_of(turned), trump_card=turned, seats=[1, 0])
    cannot, must, ref_pair, ref_fits = reference.first_lead_facts(table, 0, mine, theirs, unknown, 0, C.parse(led), None)
    assert (bool(kernel_fits), ref_fits) == (fits, fits)
    assert (C.mask_of(cannot), C.mask_of(must), ref_pair) == (int(forbid), int(pin), bool(pair))
    if fits:
        assert C.mask_of(cannot) == 1 << C.parse("A♥")


# ---- the readings as options (docs/VARIANTS.md "zone"): the search scores with the engine's count
TRICK = ZONE.replace(zone_finish="trick")


def test_a_stop_at_zero_is_refused():
    """``zone_finish=trick``: the partner at 1 won the first trick, so he stood at exactly 0 and
    the deal stopped (R8.2): a later card is refused in one line. Under ``deal`` the position
    stands (he must now duck)."""
    hand = C.parse_cards("K♠ 7♣ 9♦ 10♣")
    args = (1, 0, hand, C.parse("9♥"), [9, 1], {1: "stand"}, [C.parse_cards("A♠ 7♠")], [])
    assert zone_position(ZONE, *args).stage == "play"
    with pytest.raises(AdviceError, match="exactly 0 after trick 1") as err:
        zone_position(TRICK, *args)
    assert "\n" not in str(err.value)


@pytest.mark.heavy
def test_the_search_follows_the_trick_finish():
    """The dealer at 1 answers the partner's 6♠ (trump 9♥): ♠A wins the trick and brings him to
    exactly 0. Under ``zone_finish=trick`` the deal stops there in every world (−1, the party
    won, no прокат); under ``deal`` he plays on and some worlds force another trick on him."""
    args = dict(seat=0, dealer=0, turns="1=stand", played="6♠", scores="1,15", max_worlds=256, target_se=0.01)
    rows = {r["option"]: r for r in advise("A♠ K♣ 7♦ 8♦ 10♦", "9♥", rules=TRICK, **args).table.iter_rows(named=True)}
    assert (rows["A♠"]["mean"], rows["A♠"]["p_win"], rows["A♠"]["p_remiz"]) == (-1.0, 1.0, 0.0)
    rows = {r["option"]: r for r in advise("A♠ K♣ 7♦ 8♦ 10♦", "9♥", rules=ZONE, **args).table.iter_rows(named=True)}
    assert rows["A♠"]["p_win"] < 1.0 and rows["A♠"]["mean"] > -1.0
