"""Inference (issue 35, docs/SEARCH.md "Inference"): worlds before the play drawn with a history.

* The model's chances, typed from the docstrings of kernels/inference.py and
  reference/inference.py for hands whose expert decision is written out here: the action
  the policy takes has chance 1, another ``(floor / n) / (1 - floor + floor / n)`` for ``n``
  open actions, a pass R4.1 forbids 0, and a random player gives every action the same chance.
* Both engines draw the same worlds and take the same decisions with ``infer=policy``, deal
  by deal (pimc at every seat, several rollouts and floors, one-turn and declare-then-buy,
  R4.0a, a short talon): heavy for the kernels' compile.
* Information hygiene: the weights read only what the seat saw. Two deck orders that differ
  in cards a seat cannot see, where what it saw up to its exchange is the same (its dealt
  hand, the trump card, every earlier seat's pass and count), give it the same pass and
  discards; a planted leak (the model reading the others' real dealt hands) is caught.
"""

from __future__ import annotations

import numpy as np
import pytest

from rams_sim import cards as C
from rams_sim import engine, reference
from rams_sim.kernels.args import rules_args
from rams_sim.kernels.inference import buy_chance, intent_chance, mismatch, model_discards, round_chance, word_chance
from rams_sim.kernels.rng import deal_key, deck_order
from rams_sim.policies import PolicyKind, PolicySpec
from rams_sim.reference import inference as ref_inference
from rams_sim.reference.policy import policy_for
from rams_sim.rules import Rules

EXPERT = int(PolicyKind.EXPERT)
RANDOM = int(PolicyKind.RANDOM)
FLOOR = 0.1


def _params(kind: PolicyKind, n: int = 4) -> np.ndarray:
    return np.stack([PolicySpec(kind).vector()] * n)


def _rng() -> np.ndarray:
    return np.zeros((C.MAX_SEATS + 2, 4), np.uint64)


def _mask(text: str) -> np.uint64:
    return np.uint64(C.mask_of(C.parse_cards(text)))


def test_the_floor_sets_the_chance_of_another_action():
    """(floor / n) / (1 - floor + floor / n): 1 at floor 1 (a random player), small near 0."""
    assert mismatch(1.0, 7) == pytest.approx(1.0)
    assert mismatch(0.1, 7) == pytest.approx((0.1 / 7) / (0.9 + 0.1 / 7))
    assert ref_inference.mismatch(0.1, 7) == mismatch(0.1, 7)
    assert 0 < mismatch(1e-6, 2) < 1e-6


# expert's exchange (policies.py): keep aces, trumps of rank >= keep_trump_rank, the jacks of a pair; discard the rest
CASES = [
    # hand, trump card, what expert does (None: pass; else how many it discards), whether R4.1 lets it pass
    ("A♥ K♥ Q♥ 9♠ 7♣", "8♥", 2, False),  # an ace: no pass (R4.1); 9♠ 7♣ go
    ("9♠ 8♠ 7♣ 8♦ 7♦", "10♥", None, True),  # no trump, no king, no pair: strength 0, below 0.5 -> pass
    ("J♠ J♣ 9♦ 8♦ 7♥", "10♥", 2, True),  # a black pair keeps him in; the pair and the trump 7♥ kept, 9♦ 8♦ go
]


@pytest.mark.parametrize("hand, trump, own, may", CASES)
def test_round_chances_are_those_of_the_policy_with_a_floor(hand, trump, own, may):
    """One turn (R4.0): pass or 0..5 cards with a full talon of 11; the policy's own action 1."""
    r = rules_args(Rules.classic())
    params, rng, h, tc = _params(PolicyKind.EXPERT), _rng(), _mask(hand), C.parse(trump)
    n_actions = 6 + (1 if may else 0)
    for passed, count in [(True, 0)] + [(False, k) for k in range(6)]:
        chance = round_chance(r, EXPERT, params, 1, rng, h, tc, 0, 0, 11, passed, count, FLOOR)
        if passed and not may:
            assert chance == 0.0  # a rule, not the model
        elif (own is None and passed) or (own is not None and not passed and count == own):
            assert chance == 1.0
        else:
            assert chance == pytest.approx(mismatch(FLOOR, n_actions))
        assert round_chance(r, RANDOM, params, 1, rng, h, tc, 0, 0, 11, passed, count, FLOOR) == (
            0.0 if passed and not may else 1.0)


def test_a_short_talon_narrows_the_actions():
    """R4.4: with two talon cards left, 0..2 cards (and a pass): four actions."""
    r = rules_args(Rules.classic())
    params, rng = _params(PolicyKind.EXPERT), _rng()
    h, tc = _mask("J♠ J♣ 9♦ 8♦ 7♥"), C.parse("10♥")
    assert round_chance(r, EXPERT, params, 1, rng, h, tc, 0, 0, 2, False, 2, FLOOR) == 1.0  # its two, 9♦ 8♦
    assert round_chance(r, EXPERT, params, 1, rng, h, tc, 0, 0, 2, False, 1, FLOOR) == pytest.approx(mismatch(FLOOR, 4))


def test_declare_then_buy_and_announcements():
    r = rules_args(Rules.named("negotiations"))
    params, rng, tc = _params(PolicyKind.EXPERT), _rng(), C.parse("10♥")
    weak = _mask("9♠ 8♠ 7♣ 8♦ 7♦")
    assert word_chance(r, EXPERT, params, 1, rng, weak, tc, 0, 0, True, FLOOR) == 1.0
    assert word_chance(r, EXPERT, params, 1, rng, weak, tc, 0, 0, False, FLOOR) == pytest.approx(mismatch(FLOOR, 2))
    ace = _mask("A♠ 8♠ 7♣ 8♦ 7♦")  # must play (R4.1): saying play is no evidence
    assert word_chance(r, EXPERT, params, 1, rng, ace, tc, 0, 0, False, FLOOR) == 1.0
    assert word_chance(r, EXPERT, params, 1, rng, ace, tc, 0, 0, True, FLOOR) == 0.0
    trumps = _mask("K♥ Q♥ J♥ 9♥ 7♣")  # expert says "on trumps" from its trump strength
    said = 0  # codes.INTENT_TRUMPS
    assert intent_chance(EXPERT, params, 1, rng, trumps, 3, said, FLOOR) == 1.0
    assert intent_chance(EXPERT, params, 1, rng, trumps, 3, 1 - said, FLOOR) == pytest.approx(mismatch(FLOOR, 2))
    h = _mask("A♥ K♥ Q♥ 9♠ 7♣")
    assert buy_chance(EXPERT, params, 1, rng, h, 3, 11, False, 0, 2, FLOOR) == 1.0
    assert buy_chance(EXPERT, params, 1, rng, h, 3, 11, False, 0, 0, FLOOR) == pytest.approx(mismatch(FLOOR, 6))


@pytest.mark.parametrize("k", range(6))
def test_the_model_discards_the_policys_cards_then_its_least_kept(k):
    """k cards: expert's own (9♠ 7♣) cut to its least-kept, or topped up with its least-kept
    (Q♥ then K♥: trumps by rank, the ace last); both engines alike."""
    hand = "A♥ K♥ Q♥ 9♠ 7♣"
    expected = {0: "", 1: "7♣", 2: "9♠ 7♣", 3: "Q♥ 9♠ 7♣", 4: "K♥ Q♥ 9♠ 7♣", 5: hand}[k]
    got = model_discards(EXPERT, _params(PolicyKind.EXPERT), 1, _rng(), 0, _mask(hand), 3, k, False, 0)
    assert C.cards_of(int(got)) == sorted(C.parse_cards(expected)) if expected else int(got) == 0
    policy = policy_for(PolicySpec(PolicyKind.EXPERT), 0, 1)
    assert ref_inference.model_discards(policy, False, C.parse_cards(hand), 3, k, False, 0, 4, None) == C.cards_of(int(got))


# ---- both engines ------------------------------------------------------------------------------
INFER_TABLES = {
    "classic": (Rules.classic(), ["pimc:samples=2,infer=policy", "pimc:samples=2,rollout=basic,infer=policy",
                                  "pimc:samples=3,rollout=random,infer=policy",
                                  "pimc:samples=2,rollout=cautious,infer=policy,floor=0.5"]),
    "handbook": (Rules.named("handbook"), ["pimc:samples=2,infer=policy", "expert",
                                           "pimc:samples=2,rollout=greedy,infer=policy",
                                           "pimc:samples=2,infer=policy,floor=0.02"]),
    "negotiations": (Rules.named("negotiations"), ["pimc:samples=2,infer=policy"] * 4),
    "short-talon": (Rules.classic(deck="24", start=12, players=3), ["pimc:samples=2,infer=policy"] * 3),
    "dealt-jacks, R4.0a": (Rules.classic(jacks_count="dealt", intent_round=True, players=5),
                           ["pimc:samples=2,infer=policy", "basic", "pimc:samples=2,infer=policy,rollout=basic",
                            "random", "pimc:samples=2,infer=policy"]),
    "must": (Rules.classic(dealer_takes_trump="must", turned_ace_binds_dealer=True), ["pimc:samples=2,infer=policy"] * 4),
}  # fmt: skip


@pytest.mark.heavy
@pytest.mark.parametrize("name", INFER_TABLES)
def test_both_engines_infer_alike(name):
    """pimc with infer=policy: the same decisions and cards in both engines, deal by deal; the
    inference changes some decisions against uniform worlds (it is not a no-op)."""
    rules, policies = INFER_TABLES[name]
    deals = 12
    out = engine.simulate(rules, policies, seed=35, deals=deals, log_plays=True)
    for i in range(deals):
        slow = reference.play_deal(rules, policies, seed=35, deal=i)
        assert not slow.differences(engine.record_of(out, i)), f"{name}: deal {i}"
    if name == "classic":
        uniform = engine.simulate(rules, [p.replace(",infer=policy", ",infer=none") for p in policies], seed=35, deals=200)
        inferred = engine.simulate(rules, policies, seed=35, deals=200)
        assert (uniform.discards != inferred.discards).any() or (uniform.passed != inferred.passed).any()


# ---- information hygiene -----------------------------------------------------------------------
def _seen_before_exchange(record, seat: int, order: list[int]) -> tuple:
    """What ``seat`` saw at its exchange turn (one turn): its dealt hand, the trump card, and each
    earlier seat's pass or count (R4.0)."""
    before = order[: order.index(seat)]
    return (record.hand_dealt[seat], record.trump_card,
            tuple((s, record.passed[s], len(C.cards_of(record.discards[s]))) for s in before))  # fmt: skip


def _later_exchanges_changed(play, policies, deals: int, first_only: bool = False) -> tuple[int, list[str]]:
    """Swap two cards of the deck order that the later seats' exchanges cannot depend on through
    their own hand (never a card of the asked seat's dealt hand, never the trump card); where the
    seat saw the same up to its turn, its pass and discards must be the same. Returns (decisions
    checked where an earlier seat's dealt hand differed, the differences)."""
    rules = Rules.classic()
    n = rules.players
    deck = C.deck_cards(rules.deck_size)
    rng = np.random.default_rng(35)
    checked, found = 0, []
    for deal in range(deals):
        key = deal_key(11, deal)
        order = deck_order(key, deck).tolist()
        dealer = deal % n
        seats = [(dealer + 1 + i) % n for i in range(n)]
        a = play(rules, policies, deal=deal, key=key, order=order)
        for i_seat in range(1, n):
            seat = seats[i_seat]
            own = set(range(C.HAND_SIZE * i_seat, C.HAND_SIZE * (i_seat + 1))) | {C.HAND_SIZE * n}
            free = [p for p in range(len(order)) if p not in own]
            i, j = (int(x) for x in rng.choice(free, 2, replace=False))
            swapped = list(order)
            swapped[i], swapped[j] = order[j], order[i]
            b = play(rules, policies, deal=deal, key=key, order=swapped)
            if _seen_before_exchange(a, seat, seats) != _seen_before_exchange(b, seat, seats):
                continue
            if (a.passed[seat], a.discards[seat]) != (b.passed[seat], b.discards[seat]):
                found.append(f"deal {deal}: seat {seat}'s exchange changed when cards {order[i]} and {order[j]} swapped")
                if first_only:
                    return checked, found
            checked += any(a.hand_dealt[s] != b.hand_dealt[s] for s in seats[:i_seat])
    return checked, found


HYGIENE_TABLE = ["pimc:samples=2,infer=policy"] * 4
HYGIENE = [pytest.param("engine", marks=pytest.mark.heavy), "reference"]


@pytest.mark.parametrize("which", HYGIENE)
def test_inferred_exchanges_ignore_unseen_cards(which):
    """Where a seat saw the same up to its exchange, unseen cards (others' hands, the talon) change
    nothing, also when an earlier seat who exchanged held other cards."""
    play = {"engine": engine.play_deal, "reference": reference.play_deal}[which]
    deals = 40 if which == "engine" else 6
    checked, found = _later_exchanges_changed(play, HYGIENE_TABLE, deals)
    assert not found, "\n".join(found[:5])
    assert checked >= deals // 2, f"only {checked} decisions checked with an earlier seat's hand changed"


def test_a_planted_inference_leak_is_caught(monkeypatch):
    """The check catches a reference inference whose model reads the others' real dealt hands."""
    honest = ref_inference.seat_chance

    def leaky(table, i, o, phase, step, hand, *args):  # worlds weighed towards the others' real hands
        return honest(table, i, o, phase, step, hand, *args) * (1.0 if set(hand) & set(table.hand_dealt[o]) else 0.2)

    monkeypatch.setattr(ref_inference, "seat_chance", leaky)
    _, found = _later_exchanges_changed(reference.play_deal, HYGIENE_TABLE, deals=12, first_only=True)
    assert found, "the leak was never visible"
