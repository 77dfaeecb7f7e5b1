"""R9 ``duel`` and ``duel-trump`` ([000] Variants 2 and 3): worked examples in both engines, parties, the CLI.

docs/VARIANTS.md "duel and duel-trump" is the specification. The worked examples are
whole deals on explicit deck orders, dealer seat 0, so the first hand is seat 1. The
layout (VARIANTS.md "The deal", R3): seat 1 gets ``order[0..4]``, seat 0 ``order[5..9]``,
the widow is ``order[10..14]``, the trump card ``order[15]``. Each example runs in both
engines (the ``engine`` fixture of conftest.py).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from rams_sim import engine as fast
from rams_sim import reference
from rams_sim.cards import HAND_SIZE, JACK, cards_of, deck_cards, mask_of, parse_cards, rank_of, suit_of
from rams_sim.cli.main import app
from rams_sim.record import Declaration as Dc
from rams_sim.record import EndKind, Outcome
from rams_sim.rules import Game, Rules

N0 = Dc.NONE
DUEL = Rules.named("duel")
DUEL_TRUMP = Rules.named("duel-trump")
NO_DAVE = DUEL.replace(dave=False)

cli = CliRunner()


def order_of(seat1: str, seat0: str, trump_card: str, widow: str) -> list[int]:
    """A 32-card deck order (R3): seat 1's hand, the dealer's (seat 0), the widow, the trump card, the rest."""
    head = parse_cards(seat1) + parse_cards(seat0) + parse_cards(widow) + parse_cards(trump_card)
    assert len(head) == 16 and len(set(head)) == 16
    rest = [int(c) for c in deck_cards(32) if int(c) not in head]
    return [int(c) for c in head] + rest


def deal(engine, rules, order, policies="basic", scores=None):
    return engine.play_deal(rules, policies, dealer=0, order=order, scores=scores)


def _ints(seq):
    return tuple(int(x) for x in seq)


# basic's widow rule (policies.py): stand with a rams or a jack pair, else swap iff
# strength + 3 x aces < 5 (strength: per trump 1, +1 from the jack up; 0.5 per other king)
WEAK = "7♣ 8♣ 9♦ 10♦ 8♥"  # no ace, no king, no trump (trump ♠): value 0


# ------------------------------------------------------------------- the presets
def test_preset_options():
    """Both presets are the game duel: 2 players, from 5, four aces nothing, any declaration wins, dave on."""
    assert DUEL.game == Game.DUEL and DUEL_TRUMP.game == Game.DUEL
    changed = {k: v for k, v in DUEL.to_dict().items() if v != Rules.classic().to_dict()[k]}
    assert changed == {"preset": "duel", "players": 2, "start": 5, "four_aces_win": False, "four_jacks_win": True,
                       "dave": True}  # fmt: skip
    assert DUEL_TRUMP.duel_trump_card and not DUEL.duel_trump_card
    assert DUEL.ace_values == (5, 10, 15, 20) and DUEL.deck_size == 32


def test_duel_options_are_checked():
    with pytest.raises(ValueError, match="two players"):
        Rules.named("duel", players=3)
    with pytest.raises(ValueError, match="four_jacks_win"):
        Rules.named("duel", four_jacks_win=False)
    with pytest.raises(ValueError, match="applies only to the duel game"):
        Rules.classic(dave=True)


# --------------------------------------------------------------------- the widow
def test_weak_first_hand_takes_the_widow_and_leads(engine):
    """The first hand, weak, swaps his whole hand for the widow and leads the first trick."""
    order = order_of(WEAK, "K♣ Q♦ 9♥ 10♥ 7♠", "8♠", "A♥ K♠ Q♠ J♦ 9♣")
    rec = deal(engine, NO_DAVE, order)
    assert int(rec.widow) == 1
    assert rec.discards[1] == mask_of(parse_cards(WEAK)) and rec.drawn[1] == mask_of(parse_cards("A♥ K♠ Q♠ J♦ 9♣"))
    assert rec.hand_final[1] == rec.drawn[1] and rec.discards[0] == 0 and rec.drawn[0] == 0
    assert rec.passed == (False, False) and rec.took_trump == (False, False)
    assert rec.plays[0].leader == 1
    assert rec.plays[0].cards[1] == parse_cards("K♠")[0]  # R6.6 unchanged: the marriage K is led first


def test_dealer_takes_the_widow_the_first_hand_sold(engine):
    """The first hand stands ("продаю", two aces: value 6); the weak dealer takes the widow and leads."""
    order = order_of("A♣ A♦ 7♣ 8♦ 10♥", "9♣ 10♣ 7♦ 9♦ 8♥", "7♠", "K♠ Q♠ J♠ A♥ 9♥")
    rec = deal(engine, NO_DAVE, order)
    assert int(rec.widow) == 0 and rec.discards[1] == 0 and rec.drawn[0] == mask_of(parse_cards("K♠ Q♠ J♠ A♥ 9♥"))
    assert rec.plays[0].leader == 0


STAND_BOTH = order_of("A♣ A♦ 7♣ 8♦ 10♥", "A♥ K♠ 9♠ 7♥ 8♥", "10♠", "K♦ Q♠ J♠ A♠ 9♣")


def test_both_stand_the_first_hand_leads(engine):
    """Both stand ("продаю", "ходи"): the dealer's opponent leads; the trump card stays out of play."""
    rec = deal(engine, NO_DAVE, STAND_BOTH)
    assert int(rec.widow) == -1 and rec.discards == (0, 0) and rec.took_trump == (False, False)
    assert rec.plays[0].leader == 1
    assert parse_cards("10♠")[0] not in {c for t in rec.plays for c in t.cards}


def test_duel_trump_dealer_must_take_the_trump_card(engine):
    """duel-trump: the dealer gives up one of the five cards he keeps for the turned card, always."""
    rec = deal(engine, DUEL_TRUMP.replace(dave=False), STAND_BOTH)
    assert rec.took_trump == (True, False) and int(rec.widow) == -1
    assert rec.hand_final[0] & mask_of(parse_cards("10♠"))
    assert int(rec.trump_discard[0]) in parse_cards("A♥ K♠ 9♠ 7♥ 8♥")


def test_branch_options_of_the_widow():
    """branch: the first hand may stand (0) or swap (31); a pass and the other masks are not open."""
    out = fast.simulate_branches(DUEL, "basic", seat=1, seed=0, deals=40, dealer=0)
    assert len(out) == 80 and set(out.option.tolist()) == {0, 31}
    swapped = out.option == 31
    assert (out.discards[swapped] == out.hand_dealt[swapped]).all() and (out.discards[~swapped] == 0).all()
    # the dealer: swapping is open only where the first hand stood
    dealer = fast.simulate_branches(DUEL, "basic", seat=0, seed=0, deals=40, dealer=0)
    assert set(dealer.option.tolist()) <= {0, 31} and (dealer.option == 0).sum() == 40


# ---------------------------------------------------------------- declarations
def test_a_rams_from_the_widow_wins_the_party(engine):
    """The widow is five hearts: the weak first hand swaps, holds a rams and wins at once, every delta 0."""
    order = order_of(WEAK, "K♣ Q♦ 9♠ 10♠ 7♥", "7♠", "A♥ K♥ Q♥ J♥ 9♥")
    rec = deal(engine, DUEL, order)
    assert int(rec.widow) == 1
    assert (int(rec.outcome), int(rec.ends_party), int(rec.end_kind)) == (Outcome.RAMS, 1, EndKind.RAMS)
    assert _ints(rec.delta) == (0, 0) and len(rec.plays) == 0 and _ints(rec.dave) == (0, 0)
    assert _ints(rec.declaration) == (N0, Dc.SUIT_RAMS)


def test_jack_pairs_on_both_sides_the_first_hand_wins(engine):
    """Both hold a jack pair (black and red) and stand: the first hand wins; the dealer's is void."""
    order = order_of("J♠ J♣ 7♦ 8♦ 9♦", "J♦ J♥ 7♣ 8♣ 9♣", "7♠", "A♥ K♥ Q♥ 10♥ 9♥")
    rec = deal(engine, DUEL, order)
    assert (int(rec.outcome), int(rec.ends_party), int(rec.end_kind)) == (Outcome.JACKS_END, 1, EndKind.JACKS)
    assert _ints(rec.declaration) == (Dc.JACKS_VOID, Dc.JACK_PAIR) and _ints(rec.delta) == (0, 0)
    assert _ints(rec.jacks) == (0, 0) and int(rec.widow) == -1


def test_trump_rams_outranks_a_jack_pair(engine):
    """The dealer's trump rams beats the first hand's jack pair (seniority: rams > jack pair)."""
    order = order_of("J♠ J♣ 7♦ 8♦ 9♦", "A♥ K♥ Q♥ 10♥ 9♥", "7♥", "J♦ J♥ 7♣ 8♣ 9♣")
    rec = deal(engine, DUEL, order)
    assert (int(rec.outcome), int(rec.ends_party), int(rec.end_kind)) == (Outcome.RAMS, 0, EndKind.RAMS)
    assert _ints(rec.declaration) == (Dc.TRUMP_RAMS, Dc.JACKS_VOID) and _ints(rec.delta) == (0, 0)


# ------------------------------------- the options of a winning declaration (VARIANTS.md)
RAMS_FROM_WIDOW = order_of(WEAK, "A♣ Q♦ 9♠ 10♠ 7♥", "7♠", "A♥ K♥ Q♥ J♥ 9♥")
TRUMP_RAMS_AND_PAIR = order_of("J♠ J♣ 7♦ 8♦ 9♦", "A♥ K♥ Q♥ 10♥ 9♥", "7♥", "J♦ J♥ 7♣ 8♣ 9♣")
PAIRS_RED_TRUMP = order_of("J♠ J♣ 7♦ 8♦ 9♦", "J♦ J♥ 7♣ 8♣ 9♣", "7♥", "A♥ K♥ Q♥ 10♥ 9♥")
FOUR_JACKS_AND_RAMS = order_of("J♠ J♣ J♦ J♥ 7♦", "A♥ K♥ Q♥ 10♥ 9♥", "7♠", "A♦ K♦ Q♦ 10♦ 9♦")


def _declared(rec):
    return (_ints(rec.declaration), _ints(rec.delta), _ints(rec.jacks), int(rec.outcome), int(rec.ends_party),
            int(rec.end_kind), len(rec.plays))  # fmt: skip


def test_declaration_points_of_a_rams(engine):
    """duel_declaration_points: the first hand swaps into a ♥ rams with A♥ (trump ♠) and wins the party
    at once; with points he writes off 5 + 20 (R5.2) and the dealer, holding A♣, writes on 5 + 10."""
    off = deal(engine, NO_DAVE, RAMS_FROM_WIDOW)
    on = deal(engine, NO_DAVE.replace(duel_declaration_points=True), RAMS_FROM_WIDOW)
    assert int(off.widow) == int(on.widow) == 1
    assert _declared(off) == ((N0, Dc.SUIT_RAMS), (0, 0), (0, 0), Outcome.RAMS, 1, EndKind.RAMS, 0)
    assert _declared(on) == ((N0, Dc.SUIT_RAMS), (15, -25), (0, 0), Outcome.RAMS, 1, EndKind.RAMS, 0)


def test_declaration_points_of_a_trump_rams_over_a_void_pair(engine):
    """duel_declaration_points: the dealer's trump rams (♥, with A♥) beats the first hand's jack pair:
    10 + 20 off for him, 10 on for the first hand (R5.3), whose void pair writes nothing (R5.6)."""
    off = deal(engine, NO_DAVE, TRUMP_RAMS_AND_PAIR)
    on = deal(engine, NO_DAVE.replace(duel_declaration_points=True), TRUMP_RAMS_AND_PAIR)
    assert _declared(off) == ((Dc.TRUMP_RAMS, Dc.JACKS_VOID), (0, 0), (0, 0), Outcome.RAMS, 0, EndKind.RAMS, 0)
    assert _declared(on) == ((Dc.TRUMP_RAMS, Dc.JACKS_VOID), (-30, 10), (0, 0), Outcome.RAMS, 0, EndKind.RAMS, 0)


def test_two_jack_pairs_first_hand_or_trump_jack(engine):
    """Both stand on a jack pair, trump ♥: first-hand (the default) gives the party to seat 1's black
    pair; trump-jack to the dealer's red pair, which holds J♥; the other pair is void. With
    duel_declaration_points the winner writes off jack_pair (5, R5.5), the void pair nothing."""
    first = deal(engine, NO_DAVE, PAIRS_RED_TRUMP)
    trump_jack = NO_DAVE.replace(duel_jacks_both="trump-jack")
    by_trump = deal(engine, trump_jack, PAIRS_RED_TRUMP)
    points = deal(engine, trump_jack.replace(duel_declaration_points=True), PAIRS_RED_TRUMP)
    assert int(first.widow) == int(by_trump.widow) == -1
    assert _declared(first) == ((Dc.JACKS_VOID, Dc.JACK_PAIR), (0, 0), (0, 0), Outcome.JACKS_END, 1, EndKind.JACKS, 0)
    dealer_wins = ((Dc.JACK_PAIR, Dc.JACKS_VOID), Outcome.JACKS_END, 0, EndKind.JACKS, 0)
    assert _declared(by_trump) == (dealer_wins[0], (0, 0), (0, 0), *dealer_wins[1:])
    assert _declared(points) == (dealer_wins[0], (-5, 0), (5, 0), *dealer_wins[1:])


def test_four_jacks_against_a_rams(engine):
    """The first hand holds four jacks, the dealer a ♥ rams with A♥ (trump ♠); both stand.
    duel_four_jacks_senior (default): four jacks win, the rams is not shown; off: the rams wins and
    the four jacks are void (R5.6). With duel_declaration_points: four jacks write off four_jacks
    (10, R5.5); the rams 5 + 20 off, 5 on for the holder of the void jacks (R5.2)."""
    cases = {
        (True, False): ((N0, Dc.FOUR_JACKS), (0, 0), (0, 0), Outcome.FOUR_JACKS, 1, EndKind.FOUR_JACKS, 0),
        (True, True): ((N0, Dc.FOUR_JACKS), (0, -10), (0, 10), Outcome.FOUR_JACKS, 1, EndKind.FOUR_JACKS, 0),
        (False, False): ((Dc.SUIT_RAMS, Dc.JACKS_VOID), (0, 0), (0, 0), Outcome.RAMS, 0, EndKind.RAMS, 0),
        (False, True): ((Dc.SUIT_RAMS, Dc.JACKS_VOID), (-25, 5), (0, 0), Outcome.RAMS, 0, EndKind.RAMS, 0),
    }
    for (senior, points), expected in cases.items():
        rules = NO_DAVE.replace(duel_four_jacks_senior=senior, duel_declaration_points=points)
        rec = deal(engine, rules, FOUR_JACKS_AND_RAMS)
        assert int(rec.widow) == -1 and _declared(rec) == expected, (senior, points)


def _planted_orders(n: int, seed: int) -> list[list[int]]:
    """Deck orders full of declarations: each of four groups (the black jack pair, the red one, five
    cards of a suit, five of another; no jack in the suits') is planted, with chance 0.6, in the
    first hand, the dealer's or the widow where it fits; the rest is random (R3's layout)."""
    rng = np.random.default_rng(seed)
    deck = [int(c) for c in deck_cards(32)]
    jacks = [c for c in deck if rank_of(c) == JACK]
    pairs = [[c for c in jacks if suit_of(c) in colour] for colour in ((0, 1), (2, 3))]  # ♠♣ black, ♦♥ red
    orders = []
    for _ in range(n):
        suits = rng.choice(4, 2, replace=False)
        fives = [rng.choice([c for c in deck if suit_of(c) == x and c not in jacks], HAND_SIZE, replace=False)
                 for x in suits]  # fmt: skip
        slots = [[], [], []]  # the first hand, the dealer, the widow
        for g in rng.permutation(len(pairs + fives)):
            group = [int(c) for c in (pairs + fives)[g] if all(int(c) not in slot for slot in slots)]
            fits = [k for k in range(3) if len(slots[k]) + len(group) <= HAND_SIZE]
            if fits and rng.random() < 0.6:
                slots[int(rng.choice(fits))] += group
        free = [c for c in rng.permutation(deck).tolist() if all(c not in slot for slot in slots)]
        for slot in slots:
            while len(slot) < HAND_SIZE:
                slot.append(free.pop())
        orders.append(slots[0] + slots[1] + slots[2] + free)  # free[0]: the trump card, d[15]
    return orders


@pytest.mark.parametrize("preset", ["duel", "duel-trump"])
def test_declaration_options_agree(preset):
    """Both engines agree deal by deal on orders full of declarations, under every combination of
    duel_declaration_points, duel_jacks_both and duel_four_jacks_senior (and jacks_count)."""
    orders = _planted_orders(40, seed=11)
    shown = set()
    for points in (False, True):
        for both in ("first-hand", "trump-jack"):
            for senior in (True, False):
                for count in ("dealt-or-final", "final"):
                    rules = Rules.named(preset, duel_declaration_points=points, duel_jacks_both=both,
                                        duel_four_jacks_senior=senior, jacks_count=count)  # fmt: skip
                    for i, order in enumerate(orders):
                        policies = ("basic", "random") if i % 2 else ("random", "basic")
                        a = fast.play_deal(rules, list(policies), seed=7, deal=i, dealer=i % 2, order=order)
                        b = reference.play_deal(rules, list(policies), seed=7, deal=i, dealer=i % 2, order=order)
                        assert not b.differences(a), (points, both, senior, count, i, b.differences(a))
                        shown.add(int(a.end_kind))
    assert {EndKind.RAMS, EndKind.JACKS, EndKind.FOUR_JACKS} <= shown


def test_four_aces_count_for_nothing(engine):
    """Four aces ("не считаются") are no declaration. The dealer swaps and leads Q♠; the first hand
    must follow with A♠, wins, and his aces (50) and the trick take him past 0: he wins the party."""
    order = order_of("A♠ A♣ A♦ A♥ 7♦", "K♣ Q♦ 9♥ 10♥ 7♠", "8♠", "K♦ Q♠ J♠ 9♠ 9♣")
    rec = deal(engine, NO_DAVE, order)
    assert int(rec.outcome) == Outcome.PLAYED and int(rec.widow) == 0 and _ints(rec.declaration) == (N0, N0)
    assert len(rec.plays) == 1 and rec.plays[0].leader == 0 and rec.plays[0].winner == 1
    assert (int(rec.ends_party), int(rec.end_kind)) == (1, EndKind.TRICK)
    assert _ints(rec.tricks) == (0, 1) and _ints(rec.delta) == (0, -51)


ACE_AND_TRICK = order_of("A♣ K♠ 8♦ 9♦ 10♥", "K♦ 9♠ 7♥ 8♥ 9♥", "10♠", "K♣ Q♠ J♠ 7♦ Q♦")


def test_an_ace_and_one_trick_win_from_five(engine):
    """From 5, A♣ (10) and one trick reach 0 (R8.2). The first hand stands (K♠ trump 2 + ace 3), the
    dealer swaps and leads his highest trump Q♠; K♠ wins it and the first hand announces."""
    rec = deal(engine, NO_DAVE, ACE_AND_TRICK)
    assert int(rec.widow) == 0 and len(rec.plays) == 1 and rec.plays[0].winner == 1
    assert (int(rec.ends_party), int(rec.end_kind)) == (1, EndKind.TRICK)
    assert _ints(rec.tricks) == (0, 1) and _ints(rec.delta) == (0, -11)


# ------------------------------------------------------------------------ dave
def test_dave_offered_and_declined(engine):
    """The same deal with dave. The dealer (no ace: estimate 0.625) leads Q♠ without doubling; the
    first hand (A♣: needs one trick, estimate 0.9) doubles before he plays; the dealer, crediting him
    with an unseen ace (estimate 0.125 < 0.25), declines and loses the party at stake 1. The
    unfinished trick is not recorded; nobody has a trick, so every delta is 0 (R8.2a freeze)."""
    rec = deal(engine, DUEL, ACE_AND_TRICK)
    assert _ints(rec.dave) == (0, 1) and int(rec.stake) == 1
    assert (int(rec.ends_party), int(rec.end_kind), int(rec.outcome)) == (1, EndKind.DECLINED, Outcome.PLAYED)
    assert len(rec.plays) == 0 and _ints(rec.delta) == (0, 0) and _ints(rec.tricks) == (0, 0)


def test_dave_offered_and_accepted(engine):
    """Both hold an ace and stand. The first hand doubles at his lead; the dealer (A♦: needs one
    trick too, estimate 0.5) accepts: stake 2, his cube. He does not redouble (0.5), trumps the led
    A♣ with 8♠ and wins the party with A♦ at stake 2."""
    order = order_of("A♣ K♠ 8♦ 9♦ 10♥", "A♦ 9♠ 8♠ 8♥ 9♥", "10♠", "K♣ Q♠ J♠ 7♦ Q♦")
    rec = deal(engine, DUEL, order)
    assert int(rec.widow) == -1 and _ints(rec.dave) == (0, 1) and int(rec.stake) == 2
    assert len(rec.plays) == 1 and rec.plays[0].cards == (parse_cards("8♠")[0], parse_cards("A♣")[0])
    assert (int(rec.ends_party), int(rec.end_kind)) == (0, EndKind.TRICK) and _ints(rec.delta) == (-16, 0)


def test_dave_lead_only(engine):
    """With dave_lead_only the first hand may not double when following: the deal is played out as without dave."""
    rec = deal(engine, DUEL.replace(dave_lead_only=True), ACE_AND_TRICK)
    assert _ints(rec.dave) == (0, 0) and (int(rec.ends_party), int(rec.end_kind)) == (1, EndKind.TRICK)


# Both stand with an ace. The first hand (A♣ A♥: needs one trick, an aceless dealer five) doubles at
# his lead; the dealer (A♦ and K♠ Q♠ J♠ 9♠ of trump ♠: strength 7, estimate 0.75) accepts, owns the
# cube and redoubles before he follows; the first hand (estimate 0.4) accepts. The dealer trumps A♣
# with 9♠ and wins the party with A♦ (15 + 1 trick).
REDOUBLE = order_of("A♣ A♥ 8♦ 9♦ 10♥", "A♦ K♠ Q♠ J♠ 9♠", "10♠", "K♣ Q♦ 7♦ 7♣ 8♣")


def test_dave_max_refuses_a_dave_past_the_cap(engine):
    """dave_max: an offer that would raise the stake above it is not made (VARIANTS.md "Dave"). At
    64 or 4 the redouble takes the stake to 4; at 2 the dealer may not redouble (4 > 2): stake 2;
    at 1 nobody may offer: stake 1. The cards are the same each time."""
    expected = {64: ((1, 1), 4), 4: ((1, 1), 4), 2: ((0, 1), 2), 1: ((0, 0), 1)}
    for cap, (offers, stake) in expected.items():
        rec = deal(engine, DUEL.replace(dave_max=cap), REDOUBLE)
        assert int(rec.widow) == -1 and (_ints(rec.dave), int(rec.stake)) == (offers, stake), cap
        assert len(rec.plays) == 1 and rec.plays[0].cards == (parse_cards("9♠")[0], parse_cards("A♣")[0])
        assert (int(rec.ends_party), int(rec.end_kind)) == (0, EndKind.TRICK) and _ints(rec.delta) == (-16, 0)


def test_dave_cap():
    """dave_max=1: no doubling is possible."""
    out = fast.simulate(DUEL.replace(dave_max=1), ["random", "random"], seed=3, deals=500)
    assert int(out.dave.sum()) == 0 and set(out.stake.tolist()) == {1}


def test_random_dave_draws_agree():
    """random's coins for the widow and dave (policies.py) are the same in both engines on one table."""
    for d in range(40):
        a = fast.play_deal(DUEL, ["random", "basic"], seed=5, deal=d)
        b = reference.play_deal(DUEL, ["random", "basic"], seed=5, deal=d)
        assert not b.differences(a), d


# --------------------------------------------------------------------- parties
@pytest.mark.parametrize("preset", ["duel", "duel-trump"])
@pytest.mark.parametrize("policies", [("basic", "random"), ("random", "random"), ("expert", "cautious"), ("greedy", "basic")])
def test_parties_agree(preset, policies):
    """Whole parties (stake and cube carried over, alternate dealers) agree in both engines."""
    rules = Rules.named(preset)
    for p in range(30):
        a = fast.play_party(rules, list(policies), seed=3, party=p)
        b = reference.play_party(rules, list(policies), seed=3, party=p)
        assert not b.differences(a), (p, b.differences(a))
        assert a.winner >= 0 and a.settlement == (a.stake, -a.stake)[:: 1 if a.winner == 0 else -1]


def test_basic_beats_random():
    """basic wins most duel parties against random and wins stakes (seats alternate; the game is
    mostly the luck of the aces: about 59% of parties and +0.56 stake per party at 80,000)."""
    n = 4000
    a = fast.simulate_parties(DUEL, ["basic", "random"], seed=1, parties=n)
    b = fast.simulate_parties(DUEL, ["random", "basic"], seed=2, parties=n)
    wins = int((a.winner == 0).sum() + (b.winner == 1).sum())
    money = float(a.settlement[:, 0].sum() + b.settlement[:, 1].sum()) / (2 * n)
    assert wins / (2 * n) > 0.56 and money > 0.35


# ----------------------------------------------------------------------- the CLI
@pytest.mark.parametrize("preset", ["duel", "duel-trump"])
def test_cli_run_party_replay(tmp_path, preset):
    out = tmp_path / "deals"
    res = cli.invoke(app, ["run", "--rules", preset, "--deals", "2000", "--out", str(out)])
    assert res.exit_code == 0, res.output
    res = cli.invoke(app, ["party", "--rules", preset, "--parties", "300", "--out", str(tmp_path / "parties")])
    assert res.exit_code == 0, res.output
    res = cli.invoke(app, ["replay", "--rules", preset, "--deal", "3"])
    assert res.exit_code == 0, res.output
    assert re.search(r"widow|stand|swap", res.output, re.IGNORECASE)


# -------------------------------------------------------------------- properties
DUEL_POLICIES = ["basic", "random", "cautious", "greedy", "expert", "random:announce=false", "basic:announce=false"]


@settings(max_examples=120, deadline=None)
@given(
    preset=st.sampled_from(["duel", "duel-trump"]),
    pols=st.tuples(st.sampled_from(DUEL_POLICIES), st.sampled_from(DUEL_POLICIES)),
    scores=st.tuples(st.integers(1, 12), st.integers(1, 12)),
    stake_free=st.booleans(),
    seed=st.integers(0, 2**32),
    deal=st.integers(0, 10**6),
)
def test_duel_deal_invariants(preset, pols, scores, stake_free, seed, deal):
    """Every card in one place (hands, widow, trump card), legal plays (reference legality),
    five tricks when a deal is played out, no deltas at a declaration or a declined dave."""
    rules = Rules.named(preset, dave=not stake_free)
    rec = fast.play_deal(rules, list(pols), seed=seed, deal=deal, scores=list(scores))
    deck = set(deck_cards(32).tolist())
    dealt = [set(cards_of(m)) for m in rec.hand_dealt]
    assert not dealt[0] & dealt[1] and rec.trump_card not in dealt[0] | dealt[1]
    widow = set()
    for seat in (0, 1):
        if rec.widow == seat:
            widow = set(cards_of(rec.drawn[seat]))
            assert set(cards_of(rec.discards[seat])) == dealt[seat] and len(widow) == 5
        else:
            assert rec.discards[seat] == 0 and rec.drawn[seat] == 0
    assert not widow & (dealt[0] | dealt[1] | {rec.trump_card}) and widow <= deck
    hands = []
    for seat in (0, 1):
        hand = widow if rec.widow == seat else dealt[seat]
        if rec.took_trump[seat]:
            assert seat == rec.dealer and rules.duel_trump_card and rec.trump_discard[seat] in hand
            hand = (hand - {rec.trump_discard[seat]}) | {rec.trump_card}
        assert hand == set(cards_of(rec.hand_final[seat]))
        hands.append(set(hand))
    assert bool(rec.took_trump[rec.dealer]) == rules.duel_trump_card
    trump = rec.trump_card // 13
    q_duty = False
    for t in rec.plays:
        order = [t.leader, 1 - t.leader]
        trick = []
        for k, seat in enumerate(order):
            card = t.cards[seat]
            assert card in reference.legal_cards(rules, sorted(hands[seat]), trump, trick, q_duty and k == 0)
            hands[seat].discard(card)
            trick.append(card)
        q_duty = trick[0] == 13 * trump + 11 and 13 * trump + 10 in hands[t.leader] and t.winner == t.leader
    if int(rec.outcome) != Outcome.PLAYED or int(rec.end_kind) == EndKind.DECLINED:
        assert rec.delta == (0, 0) or int(rec.end_kind) == EndKind.DECLINED
    if int(rec.outcome) == Outcome.PLAYED and rec.ends_party < 0:
        assert sum(rec.tricks) == 5 and len(rec.plays) == 5
    if rec.plays:
        assert rec.plays[0].leader == (rec.widow if rec.widow >= 0 else 1 - rec.dealer)
    accepted = sum(rec.dave) - (1 if int(rec.end_kind) == EndKind.DECLINED else 0)
    assert rec.stake == 2**accepted <= rules.dave_max and (rules.dave or accepted == 0)
