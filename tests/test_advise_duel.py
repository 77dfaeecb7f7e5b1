"""``rams-sim advise`` in R9 ``duel`` and ``duel-trump`` (docs/VARIANTS.md "duel and duel-trump").

* A card, a dave offer and a dave answer: what advise lays out from a player's description
  (his hand, the widow's turns, his old hand if he swapped, the card he gave up for the
  trump card, the tricks, the stake and the cube) is what the engine's ``pimc`` policy sees
  in the same position of a recorded deal: the same layouts, worlds and rollouts, world by
  world (:func:`rams_sim.kernels.pimc.evaluate_cards`,
  :func:`rams_sim.kernels.games.duel_search.evaluate_dave` on both states).
* The widow: advise's worlds agree with ``branch`` data for the same hand (the deal's
  settlement, both seats on basic).
* Input: each mistake is one line and exit code 2.

The searches need pimc's duel kernels: those tests carry the ``heavy`` marker.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from test_advise import _played_text, assert_one_line_error

from rams_sim import advise, engine
from rams_sim import cards as C
from rams_sim.advice.duel import duel_position
from rams_sim.advice.notation import AdviceError
from rams_sim.advice.position import state_at
from rams_sim.kernels import state as S
from rams_sim.kernels.args import rules_args
from rams_sim.kernels.games.duel import SWAP_OPTION, may_offer
from rams_sim.kernels.games.duel_search import evaluate_dave, evaluate_widow
from rams_sim.kernels.pimc import BLOCK, FLAG_ENDS, FLAG_WINS, evaluate_cards
from rams_sim.policies import as_spec
from rams_sim.rules import Rules

DUEL, DUEL_TRUMP = Rules.named("duel"), Rules.named("duel-trump")
SCORES = [5, 5]


def _players(name: str = "expert"):
    spec = as_spec(name)
    return (np.full(2, int(spec.kind), np.int8), np.stack([spec.vector()] * 2),
            np.full(2, int(spec.announce), np.int8))  # fmt: skip


def _described(rules, record, seat: int, t: int, k: int) -> dict:
    """What ``seat`` was told at card ``k`` of trick ``t`` of ``record``, as advise takes it."""
    first = 1 - record.dealer
    turns = {first: "swap" if record.widow == first else "stand"}
    if record.widow != first:
        turns[record.dealer] = "swap" if record.widow == record.dealer else "stand"
    text = _played_text(record, t, k)
    played = [] if text == "-" else [C.parse_cards(x) for x in text.split("/")]
    seen = {c for trick in played for c in trick}
    discarded = C.cards_of(record.discards[seat]) if record.widow == seat else []
    if rules.duel_trump_card and seat == record.dealer:
        discarded.append(int(record.trump_discard[seat]))  # the card given up for the trump card, last
    hand = [c for c in C.cards_of(record.hand_final[seat]) if c not in seen]
    return {"hand": hand, "turns": turns, "played": played, "discarded": discarded}


def _position(rules, record, seat, t, k, dave=None):
    told = _described(rules, record, seat, t, k)
    return duel_position(rules, seat, record.dealer, told["hand"], record.trump_card, SCORES, told["turns"],
                         told["played"], told["discarded"], 1, None, dave)  # fmt: skip


KINDS = {
    "duel, nobody swapped, the seat leads": (DUEL, lambda r, p: r.widow == -1 and p.k == 0),
    "duel, the seat swapped, follows": (DUEL, lambda r, p: r.widow == p.seat and p.k == 1),
    "duel, the other swapped, the seat leads": (DUEL, lambda r, p: r.widow == 1 - p.seat and p.k == 0),
    "duel, a later trick": (DUEL, lambda r, p: p.t >= 1),
    "duel-trump, the seat deals": (DUEL_TRUMP, lambda r, p: p.seat == r.dealer),
    "duel-trump, the other deals and swapped": (DUEL_TRUMP, lambda r, p: p.seat != r.dealer and r.widow == r.dealer),
}
DEALS = 1000


@functools.cache
def _recorded(rules):
    return engine.simulate(rules, "expert", seed=21, deals=DEALS, log_plays=True)


@functools.cache
def _card_positions():
    """Per kind, one card decision of a recorded deal (expert at both seats) with two legal cards
    or more, where the stake is 1 and the cube centred (the party's first deal: before the first
    card, or in a deal where nobody offered dave)."""
    chosen = {}
    for name, (rules, shows) in KINDS.items():
        out = _recorded(rules)
        for i in range(DEALS):
            record = engine.record_of(out, i)
            if name in chosen or not record.plays:
                continue
            for t in range(len(record.plays)):
                for k in range(2):
                    if sum(record.dave) and (t, k) != (0, 0):
                        continue
                    pos = state_at(rules, record, t, k)
                    mine = _position(rules, record, pos.seat, t, k, dave="pass")
                    if name not in chosen and len(mine.options) >= 2 and shows(record, pos):
                        chosen[name] = (rules, record, pos)
    return [chosen[name] for name in KINDS if name in chosen]


def test_the_card_positions_cover_every_kind():
    assert len(_card_positions()) == len(KINDS)


def _card_worlds(rules, arrays, scalars, seat, dealer, legal, key):
    kinds, params, announce = _players()
    cardsets, st, trick, log, info = arrays
    t, k, leader, played, q_duty = scalars
    deltas = np.zeros((len(legal), BLOCK), np.int64)
    flags = np.zeros_like(deltas)
    count = evaluate_cards(rules_args(rules), kinds, params, announce, np.uint64(key), cardsets, st, trick, log, info,
                           dealer, info[S.TRUMP_CARD], np.asarray(SCORES, np.int64), t, k, leader, seat,
                           np.uint64(C.mask_of(legal)), np.uint64(played), q_duty, 0, 0.1, 0, deltas, flags, 0,
                           1)  # fmt: skip (infer=none: the game weighs no history)
    return count, deltas, flags


def _dave_worlds(rules, arrays, scalars, offerer, decider, dealer, key):
    kinds, params, announce = _players()
    cardsets, st, trick, log, info = arrays
    t, k, leader, played, q_duty = scalars
    deltas = np.zeros((2, BLOCK), np.int64)
    flags = np.zeros_like(deltas)
    count = evaluate_dave(rules_args(rules), kinds, params, announce, np.uint64(key), cardsets, st, trick, log, info,
                          np.asarray(SCORES, np.int64), t, k, leader, q_duty, offerer, info[S.TRUMP_CARD], dealer,
                          np.uint64(played), decider, 0, deltas, flags, 0, 1)  # fmt: skip
    return count, deltas, flags


def _arrays(x):
    return (x.cardsets, x.st, x.trick, x.log, x.info)


@pytest.mark.heavy
@pytest.mark.parametrize("case", range(len(KINDS)))
def test_a_card_is_searched_on_what_the_pimc_policy_sees(case):
    rules, record, pos = _card_positions()[case]
    mine = _position(rules, record, pos.seat, pos.t, pos.k, dave="pass")
    a, x = mine.arrays, mine.scalars
    assert mine.stage == "play" and (x["t"], x["k"], x["leader"], x["played"]) == (pos.t, pos.k, pos.leader, pos.played)
    legal = [int(c) for c in mine.options]
    ours = _card_worlds(rules, (a["cardsets"], a["st"], a["trick"], a["log"], a["info"]),
                        (x["t"], x["k"], x["leader"], x["played"], x["q_duty"]), pos.seat, record.dealer, legal, 3 + case)
    engines = _card_worlds(rules, _arrays(pos), (pos.t, pos.k, pos.leader, pos.played, pos.q_duty), pos.seat,
                           record.dealer, legal, 3 + case)  # fmt: skip
    assert ours[0] == engines[0] > 0
    assert np.array_equal(ours[1], engines[1]) and np.array_equal(ours[2], engines[2])


@pytest.mark.heavy
@pytest.mark.parametrize("case", range(len(KINDS)))
def test_a_dave_offer_and_its_answer_are_searched_on_what_the_policy_sees(case):
    """The offer of the seat to play, and the other's answer to it, at the same point of the play."""
    rules, record, pos = _card_positions()[case]
    if not may_offer(rules_args(rules), pos.info, pos.seat, pos.k == 0):
        pytest.skip("no dave open here")
    offer = _position(rules, record, pos.seat, pos.t, pos.k)
    answer = _position(rules, record, 1 - pos.seat, pos.t, pos.k, dave="offered")
    assert (offer.stage, answer.stage) == ("dave", "answer")
    assert offer.scalars["offerer"] == answer.scalars["offerer"] == pos.seat
    for told, decider in ((offer, pos.seat), (answer, 1 - pos.seat)):
        a, x = told.arrays, told.scalars
        scalars = (x["t"], x["k"], x["leader"], x["played"], x["q_duty"])
        ours = _dave_worlds(rules, (a["cardsets"], a["st"], a["trick"], a["log"], a["info"]), scalars, pos.seat,
                            decider, record.dealer, 11 + case)  # fmt: skip
        engines = _dave_worlds(rules, _arrays(pos), (pos.t, pos.k, pos.leader, pos.played, pos.q_duty), pos.seat,
                               decider, record.dealer, 11 + case)  # fmt: skip
        assert ours[0] == engines[0] > 0
        assert np.array_equal(ours[1], engines[1]) and np.array_equal(ours[2], engines[2])


@pytest.mark.heavy
def test_the_widow_agrees_with_branch_data_for_the_hand():
    """The first hand (seat 1, dealer 0) holds the hand under the turned card; ``branch`` replays
    3,000 deck orders that deal that, stand and swap forced in turn, both seats on basic. The
    deal's settlement in stakes (+stake won where the deal ended the party, -stake lost, 0
    where it goes on) agrees with advise's worlds of the widow."""
    hand, turned = C.parse_cards("K♥ 10♠ 7♣ Q♦ 8♠"), C.parse("9♥")
    rest = [c for c in C.cards_of(C.deck_mask(32)) if c not in hand and c != turned]
    rng = np.random.default_rng(4)
    orders = []
    for _ in range(3000):
        others = rng.permutation(rest).tolist()
        orders.append(hand + others[:10] + [turned] + others[10:])  # the first hand, the dealer, the widow, the turned card
    out = engine.simulate_branches(DUEL, "basic", seat=1, deals=len(orders), dealer=0, orders=orders)
    branch = {0: [], SWAP_OPTION: []}
    for option, ends, stake in zip(out.option.tolist(), out.ends_party.tolist(), out.stake.tolist()):
        branch[option].append(0 if ends < 0 else stake if ends == 1 else -stake)
    pos = duel_position(DUEL, 1, 0, hand, turned, SCORES, {}, None, [], 1, None, None)
    assert pos.stage == "widow"
    kinds, params, announce = _players("basic")
    a, x = pos.arrays, pos.scalars
    deltas = np.zeros((2, 8 * BLOCK), np.int64)
    flags = np.zeros_like(deltas)
    count = evaluate_widow(rules_args(DUEL), kinds, params, announce, np.uint64(9), a["order"], a["cardsets"], a["st"],
                           a["trick"], a["info"], a["log"], a["scores"], 0, x["step"], 1, 0, deltas, flags, 0, 8)  # fmt: skip
    assert count > 0
    ours = np.where(flags & FLAG_ENDS, -deltas, 0)  # the deal's settlement: the worth where the deal ended the party
    assert ((ours > 0) == ((flags & FLAG_WINS) != 0)).all()
    for row, option in enumerate((0, SWAP_OPTION)):
        theirs = np.array(branch[option], float)
        se = math.hypot(ours[row].std(ddof=1) / math.sqrt(ours.shape[1]), theirs.std(ddof=1) / math.sqrt(len(theirs)))
        assert abs(ours[row].mean() - theirs.mean()) <= 4 * se, (option, ours[row].mean(), theirs.mean(), se)


@pytest.mark.heavy
def test_the_advice_is_the_party_in_stakes():
    """advise ranks the widow by the party's settlement (+ won): its mean, P(win party) and JSON unit."""
    result = advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=1, dealer=0, rules=DUEL, max_worlds=1024)
    assert result.stage == "widow" and result.unit == "stake" and result.counts_up
    assert sorted(result.table["option"]) == ["stand", "swap"]
    for row in result.table.iter_rows(named=True):
        assert 0.0 <= row["p_win"] <= 1.0 and row["p_ends_party"] is not None
    means = result.table["mean"].to_list()
    assert means == sorted(means, reverse=True)
    js = result.to_json()
    assert js["unit"] == "stake" and {"p_win", "p_ends_party"} <= set(js["options"][0])


@pytest.mark.parametrize("args, message", [
    (["--seat", "0"], "decides the widow first"),
    (["--turns", "1=swap,0=swap"], "has no widow turn"),
    (["--turns", "0=stand"], "decides the widow before the dealer"),
    (["--trump-card", "A♥"], "out of play"),
    (["--played", "-"], "give the widow's turns"),
    (["--turns", "1=stand,0=stand"], "nothing to decide before the play"),
    (["--turns", "1=swap", "--played", "-"], "his old hand"),
    (["--stake", "3"], "doubled by each accepted dave"),
    (["--stake", "2"], "--cube"),
    (["--cube", "2", "--stake", "2"], "0 or 1"),
    (["--dave", "pass"], "--dave is for the play"),
    (["--dave", "maybe", "--played", "-"], "--dave takes"),
    (["--turns", "1=stand,0=stand", "--played", "7♦", "--dave", "pass", "--hand", "K♠ 7♠ 9♦ 10♣ Q♣"], "seat 0's turn"),
    (["--turns", "1=stand,0=stand", "--played", "-", "--dave", "offered"], "own turn; the other offers"),
    (["--turns", "1=stand,0=stand", "--played", "8♥ 7♥"], "out of play"),
    (["--jacks", "0=pair"], "any declaration wins the party"),
    (["--turns", "1=stand,0=stand", "--played", "7♦", "--dave", "offered", "--stake", "2", "--cube", "1",
      "--hand", "K♠ 7♠ 10♣ Q♣"], "may not offer dave now"),
    (["--rules", "duel", "--rule", "dave=false", "--stake", "2", "--cube", "0"], "plays without dave"),
])  # fmt: skip
def test_mistakes_end_in_one_line_and_exit_2(args, message):
    """(The dealer is seat 0, the first hand seat 1, the turned card 8♥.)"""
    base = {"--trump-card": "8♥", "--rules": "duel", "--seat": "1", "--dealer": "0", "--deals": "256",
            "--hand": "A♥ K♠ 7♠ 9♦ 10♣"}  # fmt: skip
    assert_one_line_error(base, args, message)


def test_duel_trump_takes_the_card_given_up_last():
    """duel-trump: the dealer at the play names the card he gave up for the trump card; the
    trump card is in his hand (or played by him), and a missing card is one line."""
    base = dict(seat=0, dealer=0, rules=DUEL_TRUMP, turns="1=stand,0=stand", played="7♦", max_worlds=256, dave="pass")
    with pytest.raises(AdviceError, match="the card he gave up for the trump card"):
        advise("A♥ K♠ 7♠ 9♦ 8♥", "8♥", **base)
    with pytest.raises(AdviceError, match="took the turned card"):
        advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", discarded="Q♣", **base)
    pos = duel_position(DUEL_TRUMP, 0, 0, C.parse_cards("A♥ K♠ 7♠ 9♦ 8♥"), C.parse("8♥"), SCORES,
                        {1: "stand", 0: "stand"}, [[C.parse("7♦")]], [C.parse("10♣")], 1, None, "pass")  # fmt: skip
    st = pos.arrays["st"]
    assert (st[S.TOOK_TRUMP, 0], st[S.TRUMP_DISCARD, 0]) == (1, C.parse("10♣"))


def test_a_history_that_breaks_r6_is_refused():
    """Seat 0 showed no spade (and no trump) in trick 1, then followed spades in trick 2."""
    with pytest.raises(AdviceError, match="cannot hold 10♠"):
        advise("K♣ Q♣ 10♦", "8♥", seat=1, dealer=0, rules=DUEL, turns="1=stand,0=stand", played="7♠ 9♦ / 9♠ 10♠ / J♦",
               dave="pass", max_worlds=256)  # fmt: skip


@pytest.mark.heavy
def test_a_history_that_keeps_r6_is_searched():
    """The same start with seat 0 answering trick 2's spade with a diamond again is answered: a card to play."""
    result = advise("K♣ Q♣ 10♦", "8♥", seat=1, dealer=0, rules=DUEL, turns="1=stand,0=stand", played="7♠ 9♦ / 9♠ 7♦",
                    dave="pass", max_worlds=256)  # fmt: skip
    assert result.stage == "play" and len(result.table) == 3


@pytest.mark.heavy
@pytest.mark.parametrize("swapped", [False, True])
def test_the_dealers_worlds_for_the_trump_card_leave_out_what_he_saw(swapped):
    """duel-trump's card: the other hand is five of the cards the dealer has not seen -- not his
    hand, not the turned card, not his old hand if he took the widow: C(26, 5) or C(21, 5) layouts."""
    turns = "1=stand,0=swap" if swapped else "1=swap"
    result = advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=0, dealer=0, rules=DUEL_TRUMP, turns=turns, max_worlds=256,
                    discarded="Q♣ J♣ 9♣ 8♣ 7♣" if swapped else None)  # fmt: skip
    assert result.stage == "trump" and len(result.table) == 5
    assert result.layouts == math.comb(21 if swapped else 26, 5)


@pytest.mark.heavy
def test_a_dave_before_the_last_card_is_answered_with_an_empty_hand():
    """Seat 1 led his last card, 10♦; seat 0 offers dave before answering it: seat 1, holding no
    card, is advised to accept or decline (his hand is the empty text)."""
    result = advise("", "8♥", seat=1, dealer=0, rules=DUEL, turns="1=stand,0=stand", dave="offered",
                    played="7♠ 9♦ / 9♠ 7♦ / K♣ 8♣ / Q♣ 9♣ / 10♦", max_worlds=1024)  # fmt: skip
    assert result.stage == "answer" and sorted(result.table["option"]) == ["accept", "decline"]
    decline = result.table.filter(result.table["option"] == "decline").row(0, named=True)
    assert decline["mean"] == -1.0 and decline["p_win"] == 0.0  # declined: the party is lost at the stake
