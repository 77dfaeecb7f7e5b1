"""``rams-sim advise`` (issue "Strong play"): exact on small endings, careful with input.

* Two-player endings of real deals (two tricks left): with ``random`` playing the rest,
  each option's exact expected delta is an average over every consistent hand of the
  opponent (enumerated, the history replayed with the engine's legality) and over the
  uniform choices of the rollouts, scored by the engine's R7 code; advise's estimates lie
  within their confidence intervals of it and rank the options the same way when they
  differ clearly.
* Input: cards as players write them; each mistake is one line and exit code 2.
"""

from __future__ import annotations

import itertools
import json
import math

import pytest
from test_worlds import _history_legal  # the same replay of R6 the sampler is checked with
from typer.testing import CliRunner

from rams_sim import advise, engine
from rams_sim import cards as C
from rams_sim.advice.notation import AdviceError
from rams_sim.advice.position import state_at
from rams_sim.cli.main import app
from rams_sim.record import Declaration
from rams_sim.rules import Rules

# advise's evaluations are the search's kernels, minutes of CPU to compile cold (rams_sim/warm.py): the tests that
# run them are heavy (`make test-slow`); the refusals of bad input run by default
heavy = pytest.mark.heavy
RULES = Rules(players=2)
RULES4 = Rules()
BLACK = C.mask_of(C.card_id(s, C.JACK) for s in (0, 1))
RED = C.mask_of(C.card_id(s, C.JACK) for s in (2, 3))


def _declared(record, seat: int) -> dict:
    """The jack declaration of ``seat`` as advise takes it (R5.5)."""
    kind = {Declaration.JACK_PAIR: "pair", Declaration.FOUR_JACKS: "four"}.get(Declaration(record.declaration[seat]))
    return {seat: kind} if kind else {}


def _played_text(record, t: int, k: int) -> str:
    n = len(record.passed)
    parts = []
    for tt in range(t + 1):
        tr = record.plays[tt]
        seats = [s % n for s in range(tr.leader, tr.leader + n) if not record.passed[s % n]]
        if tt == t:
            seats = seats[:k]
        if seats:
            parts.append(" ".join(C.format_card(tr.cards[s]) for s in seats))
    return " / ".join(parts) if parts else "-"


def _exact(rules: Rules, record, pos, seat: int) -> dict[int, tuple[float, float]]:
    """Each legal card's exact (mean delta, P(remiz)) with random play after it, over the
    opponent's consistent hands."""
    opp = 1 - seat
    trump = C.suit_of(record.trump_card)
    hand = C.cards_of(int(pos.cardsets[0, seat]))
    own_discards = record.discards[seat] | (1 << record.trump_discard[seat] if record.trump_discard[seat] >= 0 else 0)
    seen = C.mask_of(hand) | own_discards | pos.played | 1 << record.trump_card
    unknown = C.deck_mask(rules.deck_size) & ~seen
    pinned = []
    if record.took_trump[opp] and not pos.played >> record.trump_card & 1:
        pinned = [record.trump_card]
    opp_played = [record.plays[tt].cards[opp] for tt in range(pos.t)]
    in_trick = [int(pos.trick[0, j]) for j in range(pos.k)]
    if pos.k and int(pos.trick[1, 0]) == opp:
        opp_played.append(in_trick[0])
    size = C.N_TRICKS - pos.t - (1 if pos.k and int(pos.trick[1, 0]) == opp else 0) - len(pinned)
    layouts = []
    for combo in itertools.combinations(C.cards_of(unknown), size):
        h = C.mask_of(combo) | C.mask_of(pinned)
        final = h | C.mask_of(opp_played)
        undeclared_pair = not _declared(record, opp) and any(final & pair == pair for pair in (BLACK, RED))  # R5.5
        if _history_legal(rules, record, pos, opp, h) and not undeclared_pair:
            layouts.append(h)
    winners0 = [record.plays[tt].winner for tt in range(pos.t)]
    final_seat = C.mask_of(hand) | C.mask_of(record.plays[tt].cards[seat] for tt in range(pos.t))
    if pos.k and int(pos.trick[1, 0]) == seat:
        final_seat |= 1 << in_trick[0]

    def score(h_opp_final, winners):
        finals = [0, 0]
        finals[seat], finals[opp] = final_seat, h_opp_final
        out = engine.settle_deal(rules, dealer=record.dealer, trump=trump, hands_dealt=[C.cards_of(f) for f in finals],
                                 hands_final=[C.cards_of(f) for f in finals], active=[True, True],
                                 trick_winners=winners)  # fmt: skip
        return out.delta[seat], out.tricks[seat] == 0

    def play(hands, trick, leader, t, winners, opp_final):
        if t == C.N_TRICKS:
            return [(1.0, *score(opp_final, winners))]
        to_play = leader if not trick else 1 - leader
        legal = engine.legal_cards(rules, C.cards_of(hands[to_play]), trump, trick)
        results = []
        for c in legal:
            hands2 = list(hands)
            hands2[to_play] &= ~(1 << c)
            trick2 = trick + [c]
            if len(trick2) == 2:
                w = leader if engine.trick_winner(trump, trick2) == 0 else 1 - leader
                sub = play(hands2, [], w, t + 1, winners + [w], opp_final)
            else:
                sub = play(hands2, trick2, leader, t, winners, opp_final)
            results += [(p / len(legal), d, r) for p, d, r in sub]
        return results

    exact = {}
    legal = engine.legal_cards(rules, hand, trump, in_trick, pos.q_duty)
    for c in legal:
        mean = remiz = 0.0
        for h in layouts:
            opp_final = h | C.mask_of(opp_played)
            hands = [0, 0]
            hands[seat], hands[opp] = C.mask_of(hand) & ~(1 << c), h
            trick = in_trick + [c]
            leader = pos.leader
            if len(trick) == 2:
                w = leader if engine.trick_winner(trump, trick) == 0 else 1 - leader
                outcomes = play(hands, [], w, pos.t + 1, winners0 + [w], opp_final)
            else:
                outcomes = play(hands, trick, leader, pos.t, winners0, opp_final)
            mean += sum(p * d for p, d, _ in outcomes) / len(layouts)
            remiz += sum(p * r for p, _, r in outcomes) / len(layouts)
        exact[c] = (mean, remiz)
    return exact


def _endings(count: int):
    out = engine.simulate(RULES, "expert", seed=21, deals=400, log_plays=True)
    found = 0
    for i in range(400):
        record = engine.record_of(out, i)
        if len(record.plays) < 4 or any(record.passed):
            continue
        for k in (0, 1):
            pos = state_at(RULES, record, 3, k)
            seat = pos.seat
            opp = 1 - seat
            opp_cards = [record.plays[tt].cards[opp] for tt in range(3)]
            no_declaration = len({C.suit_of(c) for c in opp_cards}) >= 2 and sum(C.rank_of(c) != C.ACE for c in opp_cards) >= 2
            if no_declaration and len(engine.legal_cards(RULES, C.cards_of(int(pos.cardsets[0, seat])), C.suit_of(record.trump_card),
                                                         [int(pos.trick[0, j]) for j in range(pos.k)], pos.q_duty)) == 2:  # fmt: skip
                yield record, pos
                found += 1
                if found == count:
                    return


@heavy
@pytest.mark.parametrize("case", range(3))
def test_two_player_endings_match_the_exact_answer(case):
    record, pos = list(_endings(3))[case]
    seat = pos.seat
    exact = _exact(RULES, record, pos, seat)
    own_discards = C.cards_of(record.discards[seat]) + ([record.trump_discard[seat]] if record.trump_discard[seat] >= 0 else [])
    exchanged = ",".join(f"{s}={int(record.discards[s]).bit_count()}" for s in range(2))
    result = advise(C.cards_of(int(pos.cardsets[0, seat])), record.trump_card, seat=seat, dealer=record.dealer,
                    rules=RULES, others="random", rollout="random", exchanged=exchanged, discarded=own_discards,
                    played=_played_text(record, pos.t, pos.k), took_trump=bool(record.took_trump[record.dealer]),
                    jacks=_declared(record, 1 - seat),
                    target_se=0.02, max_worlds=60_000)  # fmt: skip
    assert result.stage == "play"
    table = {row["cards"]: row for row in result.table.iter_rows(named=True)}
    assert len(table) == len(exact) == 2
    for card, (mean, remiz) in exact.items():
        row = table[C.format_card(card)]
        se = (row["ci_high"] - row["ci_low"]) / (2 * 1.96)
        assert abs(row["mean"] - mean) <= 4 * se + 1e-9, (C.format_card(card), row["mean"], mean, se)
        assert abs(row["p_remiz"] - remiz) <= 4 * math.sqrt(max(remiz * (1 - remiz), 1e-4) / row["worlds"]) + 1e-9
    best_exact = min(exact, key=lambda c: exact[c][0])
    first, second = list(exact)[:2]
    gap = abs(exact[first][0] - exact[second][0])
    if gap > 0.3:  # a clear difference: the same option comes first
        assert result.table["cards"][0] == C.format_card(best_exact)


# ---- input -----------------------------------------------------------------------------------
RUNNER = CliRunner()
BASE = ["advise", "A♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--exchanged", "1=2"]


def _run(args):
    return RUNNER.invoke(app, args)


def assert_one_line_error(base: dict, args: list[str], message: str) -> None:
    """``rams-sim advise`` with the options ``base`` (``--hand``: the hand argument) overridden by
    ``args`` ends in one line naming ``message``, and exit code 2."""
    merged = {**base, **dict(zip(args[::2], args[1::2]))}
    hand = merged.pop("--hand")
    res = _run(["advise", hand] + [x for kv in merged.items() for x in kv])
    assert res.exit_code == 2, res.output
    assert message in res.output and len(res.output.strip().splitlines()) == 1, res.output


@heavy
def test_the_command_ranks_every_exchange_option_and_prints_json():
    result = _run([*BASE, "--json", "--target-se", "0.5"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    options = data["options"]
    words = [o["option"] for o in options]
    assert words.count("stand") == 1 and words.count("discard") == 31 and "pass" not in words  # an ace: no pass (R4.1)
    means = [o["mean"] for o in options]
    assert means == sorted(means)
    assert all(o["ci_low"] <= o["mean"] <= o["ci_high"] and o["worlds"] == data["worlds"] for o in options)


@heavy
def test_ascii_cards_give_the_same_answer():
    a = advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=2, dealer=0, exchanged="1=2", target_se=0.5)
    b = advise("Ah Ks 7s 9d Tc", "8h", seat=2, dealer=0, exchanged="1=2", target_se=0.5)
    assert a.table.equals(b.table)


@pytest.mark.parametrize(
    "args, message",
    [
        (["advise", "A♥ K♠ 7♠ 9♦ A♥", "--trump-card", "8♥", "--seat", "1", "--dealer", "0"], "given twice"),
        (["advise", "A♥ K♠ 7♠ 9♦ 2♣", "--trump-card", "8♥", "--seat", "1", "--dealer", "0"], "not in the 32-card deck"),
        (["advise", "A♥ K♠ 7♠ 9♦ 8♥", "--trump-card", "8♥", "--seat", "1", "--dealer", "0"], "turned up on the table"),
        (["advise", "A♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "4", "--dealer", "0"], "must be a seat"),
        (["advise", "A♥ K♠ 7♠ 9♦", "--trump-card", "8♥", "--seat", "1", "--dealer", "0"], "five cards"),
        (["advise", "A♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "2", "--dealer", "0"], "decide before seat 2"),
        (["advise", "A♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--exchanged", "1=play"],
         "exchanges in one turn"),  # 'play' belongs to declare-then-buy rounds
        (["advise", "A♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--rules", "handbook",
          "--exchanged", "1=2"], "nobody buys before"),  # R4.0: the round comes first
        (["advise", "K♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--rules", "handbook",
          "--exchanged", "1=play,2=play,3=play,0=pass"], "seat 1 buys before seat 2"),
        (["advise", "K♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--rules",
          "negotiations", "--exchanged", "1=play,2=play,3=play,0=pass"], "announce before seat 2 (R4.0a)"),
        (["advise", "K♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "1", "--dealer", "0", "--rules",
          "negotiations", "--exchanged", "1=play,2=play,3=play,0=pass", "--intents", "1=trumps"],
         "every seat that plays announced"),  # the purchase comes after every announcement
        (["advise", "K♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--rules",
          "negotiations", "--exchanged", "1=play,2=play,3=play,0=pass", "--intents", "1=trumps,0=suits"],
         "passed and announces nothing"),
        (["advise", "K♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--exchanged",
          "1=2,2=0,3=pass,0=1", "--intents", "1=trumps", "--played", "-"], "no R4.0a announcements"),
        (["advise", "A♥ K♠ 7♠ 9♦ Zz", "--trump-card", "8♥", "--seat", "1", "--dealer", "0"], "is not a card"),
        ([*BASE, "--target-se", "0"], "target-se"),
        (["advise", "K♥ Q♥ 9♦ 10♣", "--trump-card", "8♥", "--seat", "1", "--dealer", "0", "--exchanged",
          "1=0,2=0,3=0,0=0", "--played", "7♠"], "could not play"),  # with the marriage he leads the K (R6.6)
        (["advise", "A♥ K♠ 7♠ 9♦", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--exchanged",
          "1=0,2=0,3=0,0=0", "--played", "9♣ 10♦"], "could not play"),  # void in clubs, he must trump (R6.2)
        (["advise", "A♥ K♠ 7♠ 9♦", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--exchanged",
          "1=0,2=0,3=0,0=0", "--played", "9♣ 9♣"], "twice"),
        (["advise", "A♥ K♠ 7♠ 9♦ 10♣", "--trump-card", "8♥", "--seat", "2", "--dealer", "0", "--scores", "1,2,3"],
         "--scores takes 4"),
    ],
)
def test_mistakes_end_in_one_line_and_exit_2(args, message):
    result = _run(args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.output


def test_an_impossible_history_for_the_others_is_refused():
    """Seat 1 showed a void in clubs, then plays a club: no layout agrees (R6.2)."""
    with pytest.raises(AdviceError, match="seat 2 cannot hold K♣ in trick 2"):
        advise("A♥ K♠ 7♠ 9♦", "8♥", seat=3, dealer=0, exchanged="1=0,2=0,3=0,0=0",
               played="9♣ 7♦ 8♣ 10♣ / J♣ Q♣ K♣", target_se=1)  # fmt: skip


@heavy
def test_the_python_api_returns_a_polars_frame():
    """``rams_sim.advise(...)``, as the package exports it (README "The Python API")."""
    import polars as pl

    import rams_sim
    import rams_sim.advice.search  # the module's name differs from the function's: importing it hides nothing

    assert "advise" in rams_sim.__all__ and "AdviceError" in rams_sim.__all__
    result = rams_sim.advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=2, dealer=0, exchanged="1=2", target_se=0.5)
    assert isinstance(result.table, pl.DataFrame)
    assert result.table.columns == ["option", "cards", "mean", "ci_low", "ci_high", "diff", "diff_low", "diff_high",
                                    "p_remiz", "p_ends_party", "p_win", "worlds", "se", "diff_se"]  # fmt: skip
    assert result.table["diff"][0] == 0.0 and (result.table["diff"] >= 0).all()


# ---- advise agrees with the branch data of the same hand ------------------------------------
def _assert_agrees_with_branch_data(rules: Rules, players: str, hand: list[int], trump_card: int, seed: int,
                                    exchanged=None):  # fmt: skip
    """Seat 1 (first to decide, dealer 0) holds ``hand`` under ``trump_card``: the branch tool
    replays 4,000 deck orders that agree with that (the rest shuffled), every exchange option
    forced in turn, every seat on ``players``. advise's means for the same hand (others and
    rollout ``players``) are draws from the same distribution: every option agrees within 4
    standard errors of the difference. Returns the advice."""
    import numpy as np

    rest = [c for c in C.cards_of(C.deck_mask(rules.deck_size)) if c not in hand and c != trump_card]
    rng = np.random.default_rng(seed)
    orders = []
    for _ in range(4000):
        others = rng.permutation(rest).tolist()
        order = hand + others[: 5 * (rules.players - 1)] + [trump_card] + others[5 * (rules.players - 1):]
        orders.append(order)  # seat 1 (dealer 0's left) is dealt order[0:5]; the trump card is order[5n] (R3)
    out = engine.simulate_branches(rules, players, seat=1, deals=len(orders), dealer=0, orders=orders)
    by_option: dict[int, list[int]] = {}
    for option, delta in zip(out.option.tolist(), out.delta.tolist()):
        by_option.setdefault(option, []).append(delta)
    result = advise(hand, trump_card, seat=1, dealer=0, rules=rules, others=players, rollout=players,
                    exchanged=exchanged, target_se=0.1)  # fmt: skip
    cards = sorted(hand)
    for row in result.table.iter_rows(named=True):
        assert row["option"] in ("stand", "discard"), row["option"]
        thrown = C.parse_cards(row["cards"]) if row["option"] == "discard" else []
        code = sum(1 << j for j, c in enumerate(cards) if c in thrown)
        branch = np.array(by_option[code], float)
        se = math.hypot((row["ci_high"] - row["ci_low"]) / (2 * 1.96), branch.std(ddof=1) / math.sqrt(len(branch)))
        assert abs(row["mean"] - branch.mean()) <= 4 * se, (row["option"], row["cards"], row["mean"], branch.mean(), se)
    return result


@heavy
def test_advise_agrees_with_branch_data_for_the_hand():
    """Classic, everyone on basic: the exchange turn's 32 options (the hand holds an ace: no pass, R4.1)."""
    _assert_agrees_with_branch_data(RULES4, "basic", C.parse_cards("A♣ K♦ 9♦ 8♠ 7♥"), C.parse("10♥"), seed=3)


HANDBOOK = Rules.named("handbook")  # declare-then-buy: play or pass round the table, then the purchases (R4.0)


@heavy
def test_declare_then_buy_offers_play_or_pass_then_the_purchase():
    """handbook: the first round offers pass (no ace, R4.1) and play; once every seat said its
    word, the purchase offers standing and every discard set (a 32-card deck: the talon holds 11)."""
    hand = C.parse_cards("K♦ 9♦ 8♠ 7♥ 7♣")
    round_ = advise(hand, C.parse("10♥"), seat=2, dealer=0, rules=HANDBOOK, exchanged="1=pass", max_worlds=512)
    assert round_.stage == "round" and sorted(round_.table["option"]) == ["pass", "play"]
    with_ace = advise(C.parse_cards("A♦ 9♦ 8♠ 7♥ 7♣"), C.parse("10♥"), seat=2, dealer=0, rules=HANDBOOK,
                      exchanged="1=pass", max_worlds=512)  # fmt: skip
    assert list(with_ace.table["option"]) == ["play"]  # R4.1: an ace plays
    buy = advise(hand, C.parse("10♥"), seat=2, dealer=0, rules=HANDBOOK, exchanged="1=3,2=play,3=pass,0=play",
                 max_worlds=512)  # fmt: skip
    assert buy.stage == "buy" and len(buy.table) == 32
    assert set(buy.table["option"]) == {"stand", "discard"}


@heavy
def test_a_purchase_agrees_with_branch_data_for_the_hand():
    """handbook, every seat playing (basic that never passes, so the round tells nothing about
    the hands): advise's purchase stage (everyone said play, nobody bought yet) agrees with
    the branch data of the forced purchases."""
    result = _assert_agrees_with_branch_data(HANDBOOK, "basic:pass_threshold=-1", C.parse_cards("A♣ K♦ 9♦ 8♠ 7♥"),
                                             C.parse("10♥"), seed=5, exchanged="1=play,2=play,3=play,0=play")  # fmt: skip
    assert result.stage == "buy" and len(result.table) == 32


@heavy
def test_the_announcements_are_advised_and_read():
    """R4.0a (negotiations: declare-then-buy with announcements): once the round is over a
    playing seat announces ("on trumps" or "on suits"), after those before him; the purchase
    then needs every announcement. One-turn rules with the round: after the exchange, his
    discards known."""
    hand = C.parse_cards("K♦ 9♦ 8♠ 7♥ 7♣")
    rules = Rules.named("negotiations")
    said = advise(hand, C.parse("10♥"), seat=2, dealer=0, rules=rules, exchanged="1=play,2=play,3=pass,0=play",
                  intents="1=suits", max_worlds=512)  # fmt: skip
    assert said.stage == "intent" and sorted(said.table["option"]) == ["on suits", "on trumps"]
    buy = advise(hand, C.parse("10♥"), seat=2, dealer=0, rules=rules, exchanged="1=3,2=play,3=pass,0=play",
                 intents="1=suits,2=trumps,0=suits", max_worlds=512)  # fmt: skip
    assert buy.stage == "buy" and len(buy.table) == 32
    one_turn = Rules.classic(intent_round=True)
    after = advise(C.parse_cards("K♦ 9♦ 8♠ A♥ 7♣"), C.parse("10♥"), seat=1, dealer=0, rules=one_turn,
                   exchanged="1=1,2=0,3=pass,0=2", discarded="7♥", max_worlds=512)  # fmt: skip
    assert after.stage == "intent" and len(after.table) == 2
    with pytest.raises(AdviceError, match="--discarded"):
        advise(C.parse_cards("K♦ 9♦ 8♠ A♥ 7♣"), C.parse("10♥"), seat=1, dealer=0, rules=one_turn,
               exchanged="1=1,2=0,3=pass,0=2", max_worlds=512)  # fmt: skip


@heavy
def test_racing_keeps_the_survivors_values_and_drops_only_clearly_worse_options():
    """Racing (docs/SEARCH.md "Racing") changes no world: the options played in every world have
    exactly the values they have without racing on the same worlds (same seed, that many
    worlds), every dropped option's paired difference to the best is above 0, the best option
    is the same, and the search stops once one option is left."""
    hand, trump, position = "K♠ Q♣ 9♣ 8♦ 7♦", "10♥", dict(seat=0, dealer=0, exchanged="1=3,2=3,3=3", seed=5)
    raced = advise(hand, trump, race=3.0, max_worlds=8192, target_se=1e-6, **position)
    full = advise(hand, trump, race=0.0, max_worlds=raced.worlds, target_se=1e-6, **position)
    assert all(row["worlds"] == raced.worlds for row in full.rows)
    by_option = {(row["option"], row["cards"]): row for row in full.rows}
    dropped = [row for row in raced.rows if row["worlds"] < raced.worlds]
    assert dropped and all(row["diff_low"] > 0 for row in dropped), dropped
    kept = [row for row in raced.rows if row["worlds"] == raced.worlds]
    for row in kept:
        assert row["mean"] == by_option[(row["option"], row["cards"])]["mean"]
    assert (raced.rows[0]["option"], raced.rows[0]["cards"]) == (full.rows[0]["option"], full.rows[0]["cards"])
    assert raced.worlds < 8192 and raced.rows[0]["option"] == "pass"  # pass (0 for sure) outlasted every discard


@pytest.mark.slow
@pytest.mark.parametrize("which", [0, 1])
def test_inferred_advice_agrees_with_branch_data_after_exchanges(which):
    """Issue 35's two kinds of position (analyses/advise_check.py: the dealer after three exchanges
    of three; a lone plain ace after 1=2), against branch data of 100,000 deck orders that fix
    the hand and the trump card, kept where the earlier seats exchanged as given: advise with
    inference picks the data's best option and misses the data's means by little; uniform
    worlds miss them by far more."""
    from analyses.advise_check import POSITIONS, check

    result = check(POSITIONS[which], deals=100_000, seed=350 + which, target_se=0.2)
    assert result["policy best"] == result["data best"], result
    assert result["policy mean abs gap"] < 0.6, result
    assert result["none mean abs gap"] > result["policy mean abs gap"] + 1.0, result


@heavy
def test_seeds_whose_keys_straddle_two_to_the_63_in_one_process():
    """Seed 5's key is below 2**63, seed 0's above: as a Python int the first compiled an int64
    signature that the second could not be converted to ("int too big to convert"); advise
    passes the key as a uint64."""
    for seed in (5, 0):
        assert advise("A♥ K♠ 7♠ 9♦ 10♣", "8♥", seat=2, dealer=0, exchanged="1=2", seed=seed, max_worlds=256).worlds == 256
