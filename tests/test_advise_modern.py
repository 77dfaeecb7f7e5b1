"""``rams-sim advise`` in R9 ``modern`` (docs/VARIANTS.md "modern"): the redeal, the turn, each card.

* A card: what advise lays out from a player's description (his hand, the turns, the
  tricks, the jack pairs shown, his laid-aside cards) is what the engine's ``pimc`` policy
  sees in the same position of a recorded deal: the same worlds drawn and the same rollouts,
  world by world (:func:`rams_sim.kernels.pimc.evaluate_cards` on both states).
* The turn: advise's means for a hand agree with ``branch`` data of the same hand (every
  option forced in turn on deck orders that deal it).
* Input: each mistake of a modern description is one line and exit code 2.

The searches need pimc's modern kernels (about a minute of cold compile): those tests
carry the ``heavy`` marker (``make test-slow``, which CI runs too).
"""

from __future__ import annotations

import functools
import json
import math

import numpy as np
import pytest
from test_advise import _played_text, assert_one_line_error
from typer.testing import CliRunner

from rams_sim import advise, engine
from rams_sim import cards as C
from rams_sim.advice.modern import modern_position
from rams_sim.advice.notation import AdviceError
from rams_sim.advice.position import state_at
from rams_sim.cli.main import app
from rams_sim.kernels import state as S
from rams_sim.kernels.args import rules_args
from rams_sim.kernels.pimc import BLOCK, evaluate_cards
from rams_sim.kernels.state import HAND
from rams_sim.policies import as_spec
from rams_sim.record import Declaration
from rams_sim.rules import Rules

MODERN = Rules.named("modern")
SCORES = [16, 16, 16, 16]  # below modern_no_pass (every seat may have passed), near the target (a jack bonus tells)


def _turns(record) -> dict[int, str]:
    return {s: "pass" if record.passed[s] else "take" if record.widow == s else "play" for s in range(4)}


def _described(record, pos) -> dict:
    """What the seat to play at ``pos`` of ``record`` was told, as advise takes it."""
    seat = pos.seat
    jacks = {s: "pair" for s in range(4)
             if s != seat and not record.passed[s] and record.declaration[s] == Declaration.JACK_PAIR}  # fmt: skip
    return {"hand": C.cards_of(int(pos.cardsets[HAND, seat])), "turns": _turns(record),
            "played": _played_text(record, pos.t, pos.k), "jacks": jacks,
            "discarded": C.cards_of(record.discards[seat]) if record.widow == seat else []}  # fmt: skip


def _worlds(rules, arrays, scalars, seat, dealer, trump_card, legal, key):
    """One block of worlds of a card decision: (layouts, deltas, flags)."""
    spec = as_spec("expert")
    kinds = np.full(rules.players, int(spec.kind), np.int8)
    params = np.stack([spec.vector()] * rules.players)
    announce = np.ones(rules.players, np.int8)
    deltas = np.zeros((len(legal), BLOCK), np.int64)
    flags = np.zeros_like(deltas)
    cardsets, st, trick, log, info = arrays
    t, k, leader, played, q_duty = scalars
    count = evaluate_cards(rules_args(rules), kinds, params, announce, np.uint64(key), cardsets, st, trick, log, info,
                           dealer, trump_card, np.asarray(SCORES, np.int64), t, k, leader, seat,
                           np.uint64(C.mask_of(legal)), np.uint64(played), q_duty, 0, 0.1, 0, deltas, flags, 0,
                           1)  # fmt: skip (infer=none: the game weighs no history)
    return count, deltas, flags


KINDS = {  # what each chosen position shows (test_the_card_positions_cover_what_modern_hides)
    "another seat took the widow": lambda r, p: r.widow not in (-1, p.seat, r.dealer),
    "the seat took the widow": lambda r, p: r.widow == p.seat != r.dealer,
    "the dealer took it, his trump card unseen": lambda r, p: r.widow == r.dealer != p.seat and not p.played >> r.trump_card & 1,
    "the seat is the dealer and took it": lambda r, p: r.widow == r.dealer == p.seat,
    "nobody took it": lambda r, p: r.widow == -1,
    "a seat passed": lambda r, p: any(r.passed),
    "another seat showed a jack pair": lambda r, p: any(Declaration(r.declaration[s]) == Declaration.JACK_PAIR
                                                        for s in range(4) if s != p.seat),
    "the seat holds a jack pair": lambda r, p: Declaration(r.declaration[p.seat]) == Declaration.JACK_PAIR,
}  # fmt: skip


@functools.cache
def _card_positions():
    """One card decision of a recorded deal (expert everywhere) per kind of KINDS, with two legal cards or more."""
    out = engine.simulate(MODERN, "expert", seed=31, deals=600, log_plays=True)
    chosen: dict[str, tuple] = {}
    for i in range(600):
        record = engine.record_of(out, i)
        n_active = sum(not p for p in record.passed)
        for t in range(min(len(record.plays), 4)):
            for k in range(n_active if n_active >= 2 else 0):
                pos = state_at(MODERN, record, t, k)
                hand = C.cards_of(int(pos.cardsets[HAND, pos.seat]))
                before = [int(pos.trick[0, j]) for j in range(pos.k)]
                legal = engine.legal_cards(MODERN, hand, C.suit_of(record.trump_card), before, pos.q_duty)
                for name, shows in KINDS.items():
                    if name not in chosen and len(legal) >= 2 and shows(record, pos):
                        chosen[name] = (record, pos, legal)
        if len(chosen) == len(KINDS):
            break
    return [chosen[name] for name in KINDS if name in chosen]


@pytest.mark.heavy
@pytest.mark.parametrize("case", range(len(KINDS)))
def test_a_card_is_searched_on_what_the_pimc_policy_sees(case):
    """Positions of recorded deals (widow takers, the dealer's trump card maybe laid aside,
    passers, jack pairs shown): the same layouts counted, the same worlds drawn and the same
    rollouts as from the engine's own state, world by world."""
    record, pos, legal = _card_positions()[case]
    told = _described(record, pos)
    mine = modern_position(MODERN, pos.seat, record.dealer, told["hand"], record.trump_card, SCORES, told["turns"],
                           [] if told["played"] == "-" else [C.parse_cards(x) for x in told["played"].split("/")],
                           told["discarded"], told["jacks"])  # fmt: skip
    assert [int(c) for c in mine.options] == legal
    a, x = mine.arrays, mine.scalars
    ours = _worlds(MODERN, (a["cardsets"], a["st"], a["trick"], a["log"], a["info"]),
                   (x["t"], x["k"], x["leader"], x["played"], x["q_duty"]), pos.seat, record.dealer, record.trump_card,
                   legal, 77 + case)  # fmt: skip
    engines = _worlds(MODERN, (pos.cardsets, pos.st, pos.trick, pos.log, pos.info),
                      (pos.t, pos.k, pos.leader, pos.played, pos.q_duty), pos.seat, record.dealer, record.trump_card,
                      legal, 77 + case)  # fmt: skip
    assert ours[0] == engines[0] > 0
    assert np.array_equal(ours[1], engines[1]) and np.array_equal(ours[2], engines[2])


def test_the_card_positions_cover_what_modern_hides():
    """The recorded deals hold a position of every kind of KINDS (so the cases above test them all)."""
    assert len(_card_positions()) == len(KINDS)


@pytest.mark.heavy
def test_the_turn_agrees_with_branch_data_for_the_hand():
    """Seat 1 (first to turn, dealer 0) holds the hand; the dealer's last card is the trump
    card. ``branch`` replays 3,000 deck orders that deal that, every turn option forced in turn,
    everyone on basic; advise's mean for each option (others and rollout basic) agrees within
    4 standard errors of the difference."""
    hand, trump_card = C.parse_cards("K♥ 10♠ 9♣ Q♦ A♠"), C.parse("9♥")
    rest = [c for c in C.cards_of(C.deck_mask(24)) if c not in hand and c != trump_card]
    rng = np.random.default_rng(8)
    orders = []
    for _ in range(3000):
        others = rng.permutation(rest).tolist()
        orders.append(hand + others[:14] + [trump_card] + others[14:])  # the dealer's last card is order[19]
    out = engine.simulate_branches(MODERN, "basic", seat=1, deals=len(orders), dealer=0, orders=orders)
    by_option: dict[int, list[int]] = {}
    for option, delta in zip(out.option.tolist(), out.delta.tolist()):
        by_option.setdefault(option, []).append(delta)
    result = advise(hand, trump_card, seat=1, dealer=0, rules=MODERN, others="basic", rollout="basic", turns="-",
                    target_se=0.05)  # fmt: skip
    assert result.stage == "turn" and result.counts_up and len(result.table) == 7  # pass, play, five takes
    cards = sorted(hand)
    for row in result.table.iter_rows(named=True):
        if row["option"] == "pass":
            code = -1
        elif row["option"] == "play":
            code = 0
        else:
            code = sum(1 << j for j, c in enumerate(cards) if c != C.parse(row["cards"]))
        branch = np.array(by_option[code], float)
        se = math.hypot((row["ci_high"] - row["ci_low"]) / (2 * 1.96), branch.std(ddof=1) / math.sqrt(len(branch)))
        assert abs(row["mean"] - branch.mean()) <= 4 * se, (row["option"], row["cards"], row["mean"], branch.mean(), se)
    assert result.table["mean"][0] == result.table["mean"].max()  # counting up: the most first
    assert (result.table["diff"] <= 0).all()


@pytest.mark.heavy
def test_the_redeal_question_and_the_json():
    """A dealt five of one suit with no turns given: keep or redeal, paired on the same worlds."""
    res = CliRunner().invoke(app, ["advise", "A♠ K♠ 9♠ 10♠ Q♠", "--trump-card", "9♥", "--rules", "modern", "--seat",
                                   "2", "--dealer", "0", "--deals", "512", "--json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["stage"] == "redeal" and data["counts_up"] and data["worlds"] == 512
    assert sorted(o["option"] for o in data["options"]) == ["keep", "redeal"]
    turn = advise("A♠ K♠ 9♠ 10♠ Q♠", "9♥", seat=2, dealer=0, rules=MODERN, turns="1=play", max_worlds=256)
    assert turn.stage == "turn"  # the same hand at its turn, once it was kept


@pytest.mark.heavy
def test_a_seat_at_the_no_pass_score_is_not_offered_a_pass():
    result = advise("K♥ 10♠ 9♣ Q♦ A♠", "9♥", seat=2, dealer=0, rules=MODERN, turns="1=take", scores="3,5,17,9",
                    max_worlds=256)  # fmt: skip
    assert sorted(result.table["option"]) == ["play"]  # the widow is gone, and from 17 no pass
    assert result.table["p_ends_party"][0] is not None


@pytest.mark.parametrize("args, message", [
    (["--seat", "3", "--turns", "1=take,2=take"], "both took the widow"),
    (["--turns", "1=play,2=take"], "own turn"),
    (["--turns", "1=pass", "--scores", "0,17,0,0"], "may not pass"),
    (["--seat", "3", "--turns", "1=play"], "before seat 3"),
    (["--turns", "1=play,3=pass"], "after seat 2"),
    (["--trump-card", "K♥", "--turns", "1=play"], "not in your hand"),
    (["--seat", "0", "--turns", "1=play,2=play,3=play"], "own last card"),
    (["--turns", "1=play", "--discarded", "9♦"], "--discarded"),
    (["--exchanged", "1=2"], "--turns"),
    (["--seat", "1", "--turns", "1=play,2=play,3=play,0=play", "--played", "-", "--jacks", "2=four"], "four jacks"),
    (["--turns", "1=play,2=take,3=play,0=play", "--played", "-"], "laid aside"),
    (["--turns", "1=play,2=play,3=play,0=play", "--played", "-"], "seat 1's turn"),
    (["--turns", "1=plays"], "--turns takes"),
])  # fmt: skip
def test_mistakes_end_in_one_line_and_exit_2(args, message):
    base = {"--trump-card": "9♥", "--rules": "modern", "--seat": "2", "--dealer": "0", "--deals": "256",
            "--hand": "K♥ 10♠ 9♣ Q♦ A♠"}  # fmt: skip
    assert_one_line_error(base, args, message)


DECLARE_THEN_BUY = Rules.named("modern", exchange_order="declare-then-buy")


def test_declare_then_buy_asks_play_or_pass_then_the_widow():
    """exchange_order=declare-then-buy (R4.0): without his own word the seat is asked play or pass
    (the seats before him given; from modern_no_pass, play only); with SEAT=play and every seat's
    word, the widow offered to him: decline or one of the five takes, at step n + his place."""
    hand, trump_card = C.parse_cards("K♥ 10♠ 9♣ Q♦ A♠"), C.parse("9♥")
    pos = modern_position(DECLARE_THEN_BUY, 2, 0, hand, trump_card, [0] * 4, {1: "pass"}, None, [], {})
    assert pos.stage == "round" and pos.scalars["k_turn"] == 1
    assert [int(o) for o in pos.options] == [-1, 0] and [label for label, _ in pos.labels] == ["pass", "play"]
    pos = modern_position(DECLARE_THEN_BUY, 2, 0, hand, trump_card, [0, 0, 17, 0], {1: "pass"}, None, [], {})
    assert [label for label, _ in pos.labels] == ["play"]
    said = {1: "play", 2: "play", 3: "pass", 0: "play"}
    pos = modern_position(DECLARE_THEN_BUY, 2, 0, hand, trump_card, [0] * 4, said, None, [], {})
    assert pos.stage == "take" and pos.scalars["k_turn"] == 4 + 1 and int(pos.arrays["info"][S.WIDOW]) == -1
    assert [int(o) for o in pos.options] == [0, 15, 23, 27, 29, 30]  # decline, then the masks ascending
    assert [label for label, _ in pos.labels] == ["decline"] + ["take, keep"] * 5
    assert [cards for _, cards in pos.labels[1:]] == [[c] for c in sorted(hand)[::-1]]
    one_turn = modern_position(MODERN, 2, 0, hand, trump_card, [0] * 4, {1: "pass"}, None, [], {})
    assert one_turn.stage == "turn" and len(one_turn.options) == 7  # pass, play, five takes


@pytest.mark.parametrize("args, message", [
    (["--turns", "1=take"], "everybody has said play or pass"),
    (["--turns", "1=play,2=play"], "add 3=play,0=play"),
    (["--turns", "1=play,2=play,3=take,0=play"], "3=take"),
])  # fmt: skip
def test_declare_then_buy_mistakes_end_in_one_line(args, message):
    base = {"--trump-card": "9♥", "--rules": "modern", "--rule": "exchange_order=declare-then-buy", "--seat": "2",
            "--dealer": "0", "--deals": "256", "--hand": "K♥ 10♠ 9♣ Q♦ A♠"}  # fmt: skip
    assert_one_line_error(base, args, message)


@pytest.mark.heavy
def test_declare_then_buy_decisions_are_searched():
    """advise ranks declare-then-buy's two decisions on the same worlds: pass or play, then the widow's offer."""
    rnd = advise("K♥ 10♠ 9♣ Q♦ A♠", "9♥", seat=1, dealer=0, rules=DECLARE_THEN_BUY, turns="-", max_worlds=256)
    assert rnd.stage == "round" and sorted(rnd.table["option"]) == ["pass", "play"]
    assert rnd.table.filter(rnd.table["option"] == "pass")["mean"][0] == 0  # a passer scores nothing
    take = advise("K♥ 10♠ 9♣ Q♦ A♠", "9♥", seat=1, dealer=0, rules=DECLARE_THEN_BUY, turns="1=play,2=pass,3=play,0=play",
                  max_worlds=256)  # fmt: skip
    assert take.stage == "take" and take.counts_up and len(take.table) == 6
    assert take.table["option"].to_list().count("decline") == 1  # and the five takes


def test_the_redeal_right_lapses_after_ten():
    with pytest.raises(AdviceError, match="lapses"):
        advise("A♠ K♠ 9♠ 10♠ Q♠", "9♥", seat=2, dealer=0, rules=MODERN, redeals=10)


def test_turns_are_refused_where_the_game_exchanges():
    with pytest.raises(AdviceError, match="--turns"):
        advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=2, dealer=0, turns="1=play")


@pytest.mark.heavy
def test_real_histories_are_accepted_and_a_broken_one_refused():
    """advise itself (its check of the others' cards, R6, with the dealer's trump card maybe laid
    aside) on the positions above past the first trick: every real history is accepted, with the
    legal cards as options; a card of the others moved to where it broke R6 is refused."""
    later = [(r, p, legal) for r, p, legal in _card_positions() if p.t >= 1]
    assert later
    for record, pos, legal in later:
        told = _described(record, pos)
        result = advise(told["hand"], record.trump_card, seat=pos.seat, dealer=record.dealer, rules=MODERN,
                        scores=SCORES, turns=told["turns"], played=told["played"], discarded=told["discarded"],
                        jacks=told["jacks"], max_worlds=256)  # fmt: skip
        assert sorted(C.parse(c) for c in result.table["option"]) == legal
    with pytest.raises(AdviceError, match="seat 1 cannot hold J♠ in trick 2"):  # no ♠ in trick 1, then one
        advise("K♥ 10♥ J♣", "9♥", seat=0, dealer=3, rules=MODERN, turns="0=play,1=play,2=pass,3=pass",
               played="A♠ 10♦ / K♠ J♠", max_worlds=256)  # fmt: skip
