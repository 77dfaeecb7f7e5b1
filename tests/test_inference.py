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
from rams_sim.kernels.inference import (
    buy_chance,
    intent_chance,
    mismatch,
    model_discards,
    round_chance,
    take_chance,
    word_chance,
)
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


def _play_swapped(play, rules, policies, deal: int, key: int, order: list[int], own: set[int], rng):
    """Play ``deal`` again with two positions of its deck ``order`` swapped, drawn from ``rng``
    among those not in ``own``. Returns (the record, the two cards swapped)."""
    free = [p for p in range(len(order)) if p not in own]
    i, j = (int(x) for x in rng.choice(free, 2, replace=False))
    swapped = list(order)
    swapped[i], swapped[j] = order[j], order[i]
    return play(rules, policies, deal=deal, key=key, order=swapped), (order[i], order[j])


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
            b, (x, y) = _play_swapped(play, rules, policies, deal, key, order, own, rng)
            if _seen_before_exchange(a, seat, seats) != _seen_before_exchange(b, seat, seats):
                continue
            if (a.passed[seat], a.discards[seat]) != (b.passed[seat], b.discards[seat]):
                found.append(f"deal {deal}: seat {seat}'s exchange changed when cards {x} and {y} swapped")
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


# ---- at a card (infer=play) --------------------------------------------------------------------
def test_the_dealers_take_has_the_chance_of_the_policys_choice():
    """R4.3 under the model: expert takes a trump ace for his least-kept card (chance 1); keeping
    his hand is another action (of two); where he must take it, either chance is 1."""
    params, rng, tc = _params(PolicyKind.EXPERT), _rng(), C.parse("A♥")
    after = _mask("9♠ 8♠ 7♣ 8♦ 7♦")
    for rules, forced in [(Rules.classic(), False), (Rules.classic(dealer_takes_trump="must"), True)]:
        r = rules_args(rules)
        assert take_chance(r, EXPERT, params, 0, rng, after, tc, True, FLOOR) == 1.0
        assert take_chance(r, EXPERT, params, 0, rng, after, tc, False, FLOOR) == (
            1.0 if forced else pytest.approx(mismatch(FLOOR, 2)))
        assert take_chance(r, RANDOM, params, 0, rng, after, tc, False, FLOOR) == 1.0
    policy = policy_for(PolicySpec(PolicyKind.EXPERT), 0, 0)
    table = type("T", (), {"book": type("B", (), {"dealer_must_take": False, "turned_ace_binds_dealer": False})(),
                           "trump_card": C.parse("A♥")})()  # fmt: skip
    assert ref_inference.take_chance(table, policy, False, C.parse_cards("9♠ 8♠ 7♣ 8♦ 7♦"), False, FLOOR) == \
        pytest.approx(mismatch(FLOOR, 2))


PLAY_TABLES = {  # infer=play: the worlds at a card weighed by the history before the play too
    "classic": (Rules.classic(), ["pimc:samples=3,infer=play", "expert", "pimc:samples=2,rollout=basic,infer=play",
                                  "pimc:samples=2,infer=play,floor=0.5"]),
    "handbook": (Rules.named("handbook"), ["pimc:samples=2,infer=play"] * 4),
    "R4.0a, must": (Rules.classic(intent_round=True, dealer_takes_trump="must", players=5),
                    ["pimc:samples=2,infer=play", "random", "pimc:samples=2,infer=play,rollout=random", "basic",
                     "pimc:samples=3,infer=play"]),
    # infer=cards (issue 45): every card the others played weighed by the model too
    "classic, cards": (Rules.classic(), ["pimc:samples=3,infer=cards", "expert", "pimc:samples=2,infer=cards,floor=0.5",
                                         "pimc:samples=2,rollout=basic,infer=cards"]),
    "overtrump, R4.0a, cards": (Rules.classic(ruff="overtrump", must_head=True, intent_round=True, players=5),
                                ["pimc:samples=2,infer=cards"] * 3 + ["expert", "pimc:samples=2,infer=cards,rollout=random"]),
}  # fmt: skip


@pytest.mark.heavy
@pytest.mark.parametrize("name", PLAY_TABLES)
def test_both_engines_weigh_the_cards_worlds_alike(name):
    """pimc with infer=play: the same cards in both engines, deal by deal (the same worlds kept at
    every card); in classic, weighing the cards' worlds changes some cards against infer=policy."""
    rules, policies = PLAY_TABLES[name]
    deals = 10
    out = engine.simulate(rules, policies, seed=36, deals=deals, log_plays=True)
    for i in range(deals):
        slow = reference.play_deal(rules, policies, seed=36, deal=i)
        assert not slow.differences(engine.record_of(out, i)), f"{name}: deal {i}"
    if name in ("classic", "classic, cards"):
        before = [p.replace("infer=play", "infer=policy").replace("infer=cards", "infer=play") for p in policies]
        a = engine.simulate(rules, policies, seed=36, deals=100, log_plays=True)
        b = engine.simulate(rules, before, seed=36, deals=100, log_plays=True)
        assert any(engine.record_of(a, i).plays != engine.record_of(b, i).plays for i in range(100))


def _seen_before_card(record, seat: int, t: int) -> tuple:
    """What ``seat`` saw before its card in trick ``t``: its own cards, the trump card, everything
    public before the play (passes, counts, the dealer's take, announcements, declarations) and
    the cards played before his."""
    n = len(record.passed)
    public = (record.dealer, record.trump_card, record.passed, tuple(C.cards_of(d).__len__() for d in record.discards),
              record.took_trump, record.intent, record.declaration)  # fmt: skip
    own = (record.hand_dealt[seat], record.discards[seat], record.hand_final[seat])
    trick = record.plays[t]
    seats = [s % n for s in range(trick.leader, trick.leader + n) if trick.cards[s % n] >= 0]
    if seat not in seats:
        return own + public + (None,)  # he did not play this trick (he passed, or the deal stopped)
    before = tuple((s, trick.cards[s]) for s in seats[: seats.index(seat)])
    return own + public + (record.plays[:t], trick.leader, before)


def _cards_changed(play, policies, deals: int) -> tuple[int, list[str]]:
    """Swap two cards of the deck order that are not seat 0's dealt cards nor the trump card; at each
    of seat 0's cards where it saw the same as before, its card must be the same. Returns (cards
    checked where another seat's hand at the first lead differed, the differences)."""
    rules = Rules.classic()
    n = rules.players
    deck = C.deck_cards(rules.deck_size)
    rng = np.random.default_rng(36)
    checked, found = 0, []
    for deal in range(deals):
        key = deal_key(12, deal)
        order = deck_order(key, deck).tolist()
        dealer = deal % n
        seat0 = (0 - dealer - 1) % n  # seat 0 is the (seat0 + 1)-th to be dealt
        own = set(range(C.HAND_SIZE * seat0, C.HAND_SIZE * (seat0 + 1))) | {C.HAND_SIZE * n}
        a = play(rules, policies, deal=deal, key=key, order=order)
        for _ in range(3):
            b, (x, y) = _play_swapped(play, rules, policies, deal, key, order, own, rng)
            hidden = any(a.hand_final[s] != b.hand_final[s] for s in range(1, n))
            for t in range(min(len(a.plays), len(b.plays))):
                if a.plays[t].cards[0] < 0 or _seen_before_card(a, 0, t) != _seen_before_card(b, 0, t):
                    break
                if a.plays[t].cards[0] != b.plays[t].cards[0]:
                    found.append(f"deal {deal}: seat 0's card in trick {t + 1} changed when cards {x} and {y} swapped")
                checked += hidden
    return checked, found


CARD_HYGIENE_TABLE = ["pimc:samples=2,infer=play"] * 4


@pytest.mark.parametrize("infer", ["play", "cards"])
@pytest.mark.parametrize("which", HYGIENE)
def test_the_cards_weights_ignore_unseen_cards(which, infer):
    """infer=play and infer=cards: where seat 0 saw the same up to its card, unseen cards (the others'
    hands, their discards, the talon) change nothing, also when another seat held other cards."""
    play = {"engine": engine.play_deal, "reference": reference.play_deal}[which]
    deals = 40 if which == "engine" else 6
    table = [p.replace("infer=play", f"infer={infer}") for p in CARD_HYGIENE_TABLE]
    checked, found = _cards_changed(play, table, deals)
    assert not found, "\n".join(found[:5])
    assert checked >= deals // 2, f"only {checked} cards checked with another seat's hand changed"


def _card_weights(chance_of, hidden_seed: int, worlds: int = 40) -> list[float]:
    """The weights ``chance_of`` (play_chance's signature) gives ``worlds`` fixed worlds at a card of
    seat 0 (classic, 4 players, dealer 3, who took the trump card; seats 1 and 2 exchanged 2 and 1
    cards, seat 3 none), the real deal's hidden rows (the others' hands, the identity of their
    discards, the dealer's give-up card) drawn from ``hidden_seed``; the public rows fixed."""
    from rams_sim.kernels.state import (
        DEALT,
        DISCARDS,
        DRAWN,
        FINAL,
        HAND,
        N_CARDSETS,
        N_FIELDS,
        PASSED,
        TOOK_TRUMP,
        TRUMP_DISCARD,
    )

    rules = Rules.classic()
    r, n, seat, dealer = rules_args(rules), 4, 0, 3
    deck = C.deck_cards(rules.deck_size)
    trump_card = C.parse("10♥")
    mine = C.parse_cards("A♠ K♥ 9♣ 8♦ 7♦")
    rest = [c for c in deck if c != trump_card and c not in mine]
    counts = {1: 2, 2: 1, 3: 0}
    hidden = np.random.default_rng(hidden_seed)
    cardsets = np.zeros((N_CARDSETS, C.MAX_SEATS), np.uint64)
    st = np.zeros((N_FIELDS, C.MAX_SEATS), np.int64)
    st[TRUMP_DISCARD, :] = -1
    cardsets[HAND, seat] = cardsets[DEALT, seat] = cardsets[FINAL, seat] = np.uint64(C.mask_of(mine))
    deal = [int(c) for c in hidden.permutation(rest)]
    for o in (1, 2, 3):
        hand, deal = deal[:5], deal[5:]
        thrown, deal = deal[: counts[o]], deal[counts[o]:]
        for row in (HAND, DEALT, DRAWN, FINAL):
            cardsets[row, o] = np.uint64(C.mask_of(hand))
        cardsets[DISCARDS, o] = np.uint64(C.mask_of(thrown))
    st[TOOK_TRUMP, dealer] = 1
    st[TRUMP_DISCARD, dealer] = deal[0]
    st[PASSED, :] = 0
    kinds = np.full(n, EXPERT, np.int8)
    params = _params(PolicyKind.EXPERT)
    rng = np.zeros((C.MAX_SEATS + 2, 4), np.uint64)
    rng[0, 0] = np.uint64(12345)
    out = []
    fixed = np.random.default_rng(7)  # the worlds: the same in every call
    for _ in range(worlds):
        w_cardsets = np.zeros_like(cardsets)
        w_st = np.full_like(st, -1)
        cards = [int(c) for c in fixed.permutation(rest)]
        for o in (1, 2, 3):
            hand, cards = cards[:5], cards[5:]
            if o == dealer:
                hand = hand[:4] + [trump_card]
            w_cardsets[FINAL, o] = np.uint64(C.mask_of(hand))
        for o in (1, 2, 3):
            w_cardsets[DISCARDS, o], cards = np.uint64(C.mask_of(cards[: counts[o]])), cards[counts[o]:]
        w_st[TRUMP_DISCARD, dealer] = cards[0]
        out.append(chance_of(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, kinds, params, rng, 0,
                             FLOOR))  # fmt: skip
    return out


def _weights_read_hidden_rows(chance_of) -> bool:
    """Whether the weights change with the real deal's hidden rows (the public rows the same)."""
    first = _card_weights(chance_of, 0)
    return any(_card_weights(chance_of, h) != first for h in (1, 2, 3))


def test_the_cards_weights_read_only_public_rows():
    """infer=play's weights (kernels.inference.play_chance) read of the real deal only what the seat
    saw: the others' hands, which cards they threw and the dealer's give-up card change nothing.
    The weights are no constant (worlds differ), and a planted leak (a model reading a seat's real
    hand) is caught."""
    from rams_sim.kernels.inference import play_chance
    from rams_sim.kernels.state import FINAL

    weights = _card_weights(play_chance, 0)
    assert len(set(weights)) > 1 and min(weights) < 1.0
    assert not _weights_read_hidden_rows(play_chance)

    def leaky(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, *rest):
        near = (int(cardsets[FINAL, 1]) & int(w_cardsets[FINAL, 1])).bit_count() >= 2
        return play_chance(r, n, seat, dealer, trump_card, cardsets, st, w_cardsets, w_st, *rest) * (1.0 if near else 0.5)

    assert _weights_read_hidden_rows(leaky)
