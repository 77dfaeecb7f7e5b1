"""R9 ``zone`` ([004] "Рамс на зоне"): worked examples in both engines, the count, parties, the CLI.

Every example is a whole deal from a given deck order (docs/VARIANTS.md "zone: the
deal": the partner, seat 1, gets d[0..4]; the dealer, seat 0, d[5..9]; the widow
d[10..14]; the turned card d[15]; the rest stays in the stock) played by the stated
policies, so it pins the rule named in its docstring and basic's zone play (policies.py
"zone"). ``STAND`` is basic that never swaps; ``SWAP`` basic that always swaps (but
with a rams). Each example runs in both engines (the ``engine`` fixture).
"""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from rams_sim import engine as fast
from rams_sim import reference
from rams_sim.cards import deck_cards, format_card, parse_cards
from rams_sim.cli.main import app
from rams_sim.kernels.args import rules_args
from rams_sim.kernels.games import zone as zone_kernel
from rams_sim.record import Declaration as Dc
from rams_sim.record import EndKind, Outcome
from rams_sim.reference.args import rule_book
from rams_sim.reference.games import zone as zone_ref
from rams_sim.rules import Rules

ZONE = Rules.named("zone")
STAND = "basic:zone_swap_threshold=0"
SWAP = "basic:zone_swap_threshold=100"
N0 = Dc.NONE

cli = CliRunner()


def order_of(partner: str, dealer: str, widow: str, turned: str, rules: Rules = ZONE) -> list[int]:
    """A deck order dealing these cards (VARIANTS "zone: the deal"); the stock follows in id order."""
    head = parse_cards(partner) + parse_cards(dealer) + parse_cards(widow) + parse_cards(turned)
    assert len(head) == 16 and len(set(head)) == 16
    rest = [int(c) for c in deck_cards(rules.deck_size) if int(c) not in head]
    return head + rest


def play(engine, partner, dealer, widow, turned, *, scores=(15, 15), policies=(STAND, STAND), rules=ZONE):
    """One deal, dealer seat 0, policies given as (dealer's, partner's)."""
    order = order_of(partner, dealer, widow, turned, rules)
    return engine.play_deal(rules, list(policies), dealer=0, scores=list(scores), order=order)


def cards_led(rec) -> list[str]:
    return [format_card(t.cards[t.leader]) for t in rec.plays]


# ---------------------------------------------------------------- the preset itself
def test_preset_options():
    """R9 zone: two players, 36 cards, start 15; the zone options at their defaults."""
    rules = Rules.named("zone")
    assert (rules.players, rules.deck_size, rules.start) == (2, 36, 15)
    assert (rules.zone_lead, rules.zone_jacks, rules.zone_jacks_both, rules.zone_overshoot, rules.zone_prokat) == (
        "duty", "won-cards", "trump-jack", "penalty", 1)  # fmt: skip
    # the readings the preset states as options (docs/VARIANTS.md "zone")
    assert (rules.ace_values, rules.four_aces_win, rules.zone_finish, rules.settle) == ((0, 0, 0, 0), False, "deal",
                                                                                        "stake")  # fmt: skip


@pytest.mark.parametrize("change", [{"players": 3}, {"players": 4}])
def test_zone_is_for_two(change):
    """Zone is a game for two: any other table is a one-line error."""
    with pytest.raises(ValueError) as err:
        Rules.named("zone", **change)
    assert "\n" not in str(err.value) and "2" in str(err.value)


def test_zone_options_refused_elsewhere():
    """A zone option set in another game is refused (one line)."""
    with pytest.raises(ValueError) as err:
        Rules.classic(zone_jacks="one-trick")
    assert "\n" not in str(err.value)


# ------------------------------------------------------------------------ the count
@pytest.mark.parametrize(
    "score, off, on, restart, after, over",
    [
        (3, 3, 0, False, 0, False),  # exactly 15 written off: the party is won
        (15, 5, 0, False, 10, False),
        (3, 5, 0, False, 20, True),  # the seed's example: 12 + 5 = 17 written off -> 17 written on
        (1, 2, 0, False, 17, True),  # T = 15 - 1 + 2 = 16 written on
        (3, 5, 0, True, 15, True),  # restart: the 17 written on undoes the 17 written off
        (20, 4, 0, False, 16, False),
        (7, 0, 5, False, 12, False),  # remiz: written on, never an overshoot
    ],
)
def test_the_count(score, off, on, restart, after, over):
    """VARIANTS "zone: counting": both engines' arithmetic of the exact finish and the overshoot."""
    rules = ZONE.replace(zone_overshoot="restart" if restart else "penalty")
    assert zone_ref.new_score(rules, score, off, on) == (after, over)
    assert tuple(int(x) for x in zone_kernel.new_score(15, int(restart), score, off, on)) == (after, int(over))


# ------------------------------------------------------------------- worked deals
def test_exact_finish_wins(engine):
    """Trump ♠. The dealer at 3 leads his trump ace (duty), takes exactly 3 tricks, then ducks: he
    stands at 0 and wins (TARGET); the partner takes the last 2 (−2)."""
    rec = play(engine, "A♥ K♥ 8♣ 9♣ 10♣", "A♠ K♠ Q♠ 6♥ 7♥", "6♦ 7♦ 8♦ 9♦ 10♦", "6♠", scores=(3, 15))
    assert cards_led(rec) == ["A♠", "K♠", "Q♠", "6♥", "A♥"]
    assert rec.plays[0].leader == 0  # the duty holder leads, though the partner leads otherwise
    assert rec.tricks == (3, 2) and rec.delta == (-3, -2) and rec.overshoot == (False, False)
    assert (rec.outcome, rec.ends_party, rec.end_kind) == (Outcome.PLAYED, 0, EndKind.TARGET)


def test_going_past_writes_the_total_on(engine):
    """Trump ♠. The dealer at 3 holds only winners: five tricks write off 5, a total of 17, so 17
    are written on (20); the partner takes none: +5 and the прокат. The loser (+17) deals next."""
    rec = play(engine, "6♣ 7♣ 8♣ 6♦ 7♦", "A♠ K♠ Q♠ J♠ A♥", "8♦ 9♦ 10♦ J♦ Q♦", "6♠", scores=(3, 15))
    assert rec.tricks == (5, 0) and rec.delta == (17, 5) and rec.overshoot == (True, False)
    assert rec.prokat == (0, 1) and rec.ends_party == -1
    assert cards_led(rec)[:3] == ["A♠", "K♠", "Q♠"] and cards_led(rec)[3] == "A♥"  # he ducks, but cannot lose


def test_turned_ace_puts_the_duty_on_the_king(engine):
    """The trump ace is the turned card: the holder of the trump K leads it, dealer or not."""
    rec = play(engine, "6♣ 7♣ 8♣ 6♦ 7♦", "K♠ 6♥ 7♥ 8♥ 9♥", "8♦ 9♦ 10♦ J♦ Q♦", "A♠")
    assert rec.plays[0].leader == 0 and cards_led(rec)[0] == "K♠"


def test_partner_leads_without_a_duty(engine):
    """No duty: the dealer's partner leads any card."""
    rec = play(engine, "6♣ 7♣ 8♣ 6♦ 7♦", "K♠ 6♥ 7♥ 8♥ 9♥", "8♦ 9♦ 10♦ J♦ Q♦", "10♠")
    assert rec.plays[0].leader == 1


def test_marriage_duty(engine):
    """The holder of trump K and Q leads one of them (basic, wanting tricks, leads the K)."""
    rec = play(engine, "K♠ Q♠ 8♣ 6♦ 7♦", "6♣ 6♥ 7♥ 8♥ 9♥", "8♦ 9♦ 10♦ J♦ Q♦", "10♠")
    assert rec.plays[0].leader == 1 and cards_led(rec)[0] == "K♠"


def test_partner_lead_option_drops_the_duties(engine):
    """``zone_lead=partner``: the partner leads though the dealer holds the trump ace."""
    rules = ZONE.replace(zone_lead="partner")
    rec = play(engine, "6♣ 7♣ 8♣ 6♦ 7♦", "A♠ K♠ Q♠ J♠ A♥", "8♦ 9♦ 10♦ J♦ Q♦", "6♠", rules=rules)
    assert rec.plays[0].leader == 1


@pytest.mark.parametrize("mode, jacks, delta", [("won-cards", 5, -10), ("one-trick", 0, -5)])
def test_won_jacks(engine, mode, jacks, delta):
    """Trump ♥. The partner wins J♠ and J♣ in two tricks: a pair among his won cards writes off 5
    (won-cards); no trick held both, so one-trick counts nothing."""
    rules = ZONE.replace(zone_jacks=mode)
    rec = play(engine, "A♥ K♥ Q♥ 10♥ 6♦", "J♠ J♣ Q♣ K♣ A♣", "8♦ 9♦ 10♦ J♦ Q♦", "6♥", rules=rules)
    assert rec.tricks == (0, 5) and rec.jacks == (0, jacks) and rec.delta == (5, delta)
    assert rec.declaration == (N0, Dc.JACK_PAIR if jacks else N0) and rec.prokat == (1, 0)


def test_rams_ends_the_deal(engine):
    """A rams (five clubs, trump ♠) writes off 5, the other writes on 5; no play."""
    rec = play(engine, "6♣ 7♣ 8♣ 9♣ 10♣", "A♠ K♠ 6♥ 7♥ 8♥", "8♦ 9♦ 10♦ J♦ Q♦", "6♠")
    assert rec.delta == (5, -5) and rec.plays == () and rec.outcome == Outcome.RAMS
    assert rec.declaration == (N0, Dc.SUIT_RAMS)


def test_trump_rams_from_the_widow(engine):
    """The partner swaps for a widow of five trumps: a trump rams writes off 10, the other writes on 10;
    at 10 the holder stands at exactly 0 and wins (RAMS)."""
    rec = play(engine, "6♣ 7♣ 8♣ 6♦ 7♦", "A♥ K♥ 6♥ 7♥ 9♦", "A♠ K♠ Q♠ J♠ 10♠", "6♠", scores=(15, 10),
               policies=(STAND, SWAP))  # fmt: skip
    assert rec.widow == 1 and rec.hand_final[1] == sum(1 << c for c in parse_cards("A♠ K♠ Q♠ J♠ 10♠"))
    assert rec.delta == (10, -10) and rec.declaration == (N0, Dc.TRUMP_RAMS)
    assert (rec.outcome, rec.ends_party, rec.end_kind) == (Outcome.RAMS, 1, EndKind.RAMS)


def test_swap_record(engine):
    """A swap gives back the dealt hand (discards) and draws the widow; standing leaves both empty."""
    args = ("6♣ 7♣ 8♣ 6♦ 7♦", "A♥ K♥ 6♥ 7♥ 9♠", "A♣ K♣ Q♦ J♠ 10♠", "6♠")
    swapped = play(engine, *args, policies=(STAND, SWAP))
    assert swapped.discards[1] == sum(1 << c for c in parse_cards(args[0]))
    assert swapped.drawn[1] == swapped.hand_final[1] == sum(1 << c for c in parse_cards(args[2]))
    stood = play(engine, *args)
    assert stood.widow == -1 and stood.discards == (0, 0) and stood.drawn == (0, 0)


# ------------------------------------------------ the readings as options (issue 36)
EXACT = ("A♥ K♥ 8♣ 9♣ 10♣", "A♠ K♠ Q♠ 6♥ 7♥", "6♦ 7♦ 8♦ 9♦ 10♦", "6♠")  # trump ♠; the dealer holds ♠A, the partner ♥A
ACES = (5, 10, 15, 20)  # ♠ ♣ ♦ ♥


@pytest.mark.parametrize("values, delta, over, ends", [
    ((0, 0, 0, 0), (-3, -2), (False, False), -1),  # the preset: aces worth nothing, at 8 he wants all he can take
    (ACES, (-8, 22), (False, True), 0),  # A = 5: three tricks + 5 = 8, exactly 0; the partner: 2 + 20 past 15
])  # fmt: skip
def test_ace_values(engine, values, delta, over, ends):
    """``ace_values`` (R7): A, the aces of the hand at the first lead, joins the write-off of a
    player with a trick and counts in the exact finish. The dealer at 8 holds ♠A (5): basic
    takes three tricks and ducks (3 + 5 = 8: he stands at 0 and wins, TARGET); the partner at
    15 takes two with ♥A (20): w = 22 goes past 0, T = 15 − 15 + 22 is written on (+22)."""
    rec = play(engine, *EXACT, scores=(8, 15), rules=ZONE.replace(ace_values=values))
    assert rec.tricks == (3, 2) and rec.delta == delta and rec.overshoot == over
    assert rec.ends_party == ends and rec.end_kind == (EndKind.TARGET if ends >= 0 else EndKind.NONE)


@pytest.mark.parametrize("values, delta, over", [((0, 0, 0, 0), (5, -5), False), (ACES, (20, 35), True)])
def test_ace_values_remiz(engine, values, delta, over):
    """``ace_values``, no trick (R7.2): the remiz plus A is written on. Trump ♥; the partner holds
    four trumps and ♣A and takes every trick: the dealer, holding ♦A (15), writes on 5 + 15.
    The partner at 15 writes off 5 + ♥A (20) + ♣A (10) = 35: past 0, T = 35 is written on."""
    rules = ZONE.replace(ace_values=values)
    rec = play(engine, "A♥ K♥ Q♥ J♥ A♣", "A♦ 6♣ 7♣ 8♣ 9♠", "7♦ 8♦ 9♦ 10♦ J♦", "6♥", rules=rules)
    assert rec.tricks == (0, 5) and rec.prokat == (1, 0) and rec.delta == delta and rec.overshoot == (False, over)


@pytest.mark.parametrize("values, delta", [((0, 0, 0, 0), (5, -5)), (ACES, (25, -5))])
def test_ace_values_in_the_rams(engine, values, delta):
    """``ace_values`` in a rams (R5.2): the holder writes off 5 plus the aces among his five, the
    other writes on 5 plus every ace he holds. Five clubs without the ace against ♥A (20)."""
    rules = ZONE.replace(ace_values=values)
    rec = play(engine, "6♣ 7♣ 8♣ 9♣ 10♣", "A♥ K♠ 6♥ 7♥ 8♥", "8♦ 9♦ 10♦ J♦ Q♦", "6♠", rules=rules)
    assert rec.outcome == Outcome.RAMS and rec.declaration == (N0, Dc.SUIT_RAMS) and rec.delta == delta


FOUR = ("A♠ A♣ A♦ A♥ 6♥", "6♣ 7♣ 8♣ 9♣ 10♣", "6♦ 7♦ 8♦ 9♦ 10♦", "6♠")  # four aces against a rams of clubs


def test_four_aces_win(engine):
    """``four_aces_win`` (R5.1, checked before the rams, R5 step 4a): the partner's four aces win
    the party at the declaration, every delta 0, though the dealer holds a rams of clubs
    (four aces are senior to any rams, R5.4; the rams is not declared). Off (the preset): four
    aces declare nothing and the rams counts: the dealer writes off 5, the partner writes on 5."""
    off = play(engine, *FOUR)
    assert (off.outcome, off.declaration, off.delta, off.ends_party) == (Outcome.RAMS, (Dc.SUIT_RAMS, N0), (-5, 5), -1)
    on = play(engine, *FOUR, rules=ZONE.replace(four_aces_win=True))
    assert (on.outcome, on.declaration, on.delta, on.plays) == (Outcome.FOUR_ACES, (N0, Dc.FOUR_ACES), (0, 0), ())
    assert (on.ends_party, on.end_kind) == (1, EndKind.FOUR_ACES)


def test_four_aces_from_the_widow(engine):
    """Four aces count in the hand at the first lead: taken from the widow by the swap, they win
    (``four_aces_win``); the preset plays the deal out."""
    args = ("6♣ 7♣ 8♣ 6♦ 7♦", "K♠ 6♥ 7♥ 8♥ 9♥", "A♠ A♣ A♦ A♥ 8♦", "10♠")
    off = play(engine, *args, policies=(STAND, SWAP))
    assert off.widow == 1 and off.outcome == Outcome.PLAYED and sum(off.tricks) == 5
    on = play(engine, *args, policies=(STAND, SWAP), rules=ZONE.replace(four_aces_win=True))
    assert on.widow == 1 and (on.outcome, on.delta, on.ends_party, on.end_kind) == (
        Outcome.FOUR_ACES, (0, 0), 1, EndKind.FOUR_ACES)  # fmt: skip


@pytest.mark.parametrize("finish, values, tricks, delta", [
    ("deal", (0, 0, 0, 0), (3, 2), (-3, -2)),  # the preset: all five tricks, the count after them
    ("trick", (0, 0, 0, 0), (3, 0), (-3, 0)),  # R8.2: 0 at trick 3, the deal stops; the partner records nothing
])  # fmt: skip
def test_zone_finish(engine, finish, values, tricks, delta):
    """``zone_finish``: the dealer at 3 leads ♠A ♠K ♠Q and stands at exactly 0 after trick 3. At
    ``deal`` he ducks the last two to the partner (−2); at ``trick`` the deal stops there
    (TARGET) and, by R8.2a's freeze, the partner, without a trick, writes no remiz and pays no
    прокат."""
    rec = play(engine, *EXACT, scores=(3, 15), rules=ZONE.replace(zone_finish=finish, ace_values=values))
    assert rec.tricks == tricks and rec.delta == delta and rec.prokat == (0, 0) and len(rec.plays) == sum(tricks)
    assert cards_led(rec)[:3] == ["A♠", "K♠", "Q♠"]
    assert (rec.outcome, rec.ends_party, rec.end_kind) == (Outcome.PLAYED, 0, EndKind.TARGET)


def test_zone_finish_counts_the_aces_from_the_first_trick(engine):
    """``zone_finish=trick`` with ``ace_values``: the running write-off is tricks + jacks + A from
    the first trick on. The dealer at 8 with ♠A (5) is at 3 + 5 = 8 after trick 3: he wins
    there (−8); the partner, whose ♥A would take him past 0 at the end of the deal, records
    nothing."""
    rules = ZONE.replace(zone_finish="trick", ace_values=ACES)
    rec = play(engine, *EXACT, scores=(8, 15), rules=rules)
    assert rec.tricks == (3, 0) and rec.delta == (-8, 0) and rec.overshoot == (False, False)
    assert (rec.ends_party, rec.end_kind) == (0, EndKind.TARGET)


@pytest.mark.parametrize("finish", ["deal", "trick"])
def test_zone_finish_past_zero_waits_for_the_deal(engine, finish):
    """Passing 0 is judged at the end of the deal under either ``zone_finish``: the running
    write-off only grows, and no trick leaves it at exactly 0. The dealer at 3 holds ♠A (5) and
    ♥A (20) and only winners: his first trick takes him to 1 + 25, past 0; all five are played,
    w = 5 + 25 = 30 and T = 15 − 3 + 30 = 42 is written on; the partner writes on the remiz."""
    rules = ZONE.replace(zone_finish=finish, ace_values=ACES)
    rec = play(engine, "6♣ 7♣ 8♣ 6♦ 7♦", "A♠ K♠ Q♠ J♠ A♥", "8♦ 9♦ 10♦ J♦ Q♦", "6♠", scores=(3, 15), rules=rules)
    assert rec.tricks == (5, 0) and rec.delta == (42, 5) and rec.overshoot == (True, False) and rec.prokat == (0, 1)
    assert rec.ends_party == -1


@pytest.mark.parametrize("settle, money", [("stake", (2.0, -2.0)), ("remaining", (13.0, -13.0))])
def test_settle(settle, money):
    """``settle`` (R8.4) in both engines: seat 0 wins, seat 1 stands at 12; seat 0 paid one прокат,
    seat 1 two (one stake each moves to the other). ``stake`` (the preset): one stake, 1 + 1;
    ``remaining``: the loser's remaining score, 12 + 1."""
    rules = ZONE.replace(settle=settle)
    assert zone_ref.settlement(rule_book(rules), [0, 12], 0, 1, [1, 2]) == money
    out = np.zeros((1, 2))
    zone_kernel.settle_party(rules_args(rules), 0, np.array([0, 12]), 1, np.array([1, 2]), out, 0)
    assert tuple(out[0]) == money


def test_settle_remaining_in_parties():
    """``settle=remaining`` plays the same parties as ``stake`` and moves the loser's remaining
    score instead of one stake: the winner's money differs by (loser's score − 1)."""
    stake = fast.simulate_parties(ZONE, ["basic", "random"], seed=2, parties=200)
    remaining = fast.simulate_parties(ZONE.replace(settle="remaining"), ["basic", "random"], seed=2, parties=200)
    won = 0
    for p in range(200):
        a, b = fast.party_record_of(stake, p), fast.party_record_of(remaining, p)
        assert (a.winner, a.scores, a.deals) == (b.winner, b.scores, b.deals)
        if a.winner < 0:
            assert a.settlement == b.settlement
            continue
        won += 1
        loser = 1 - a.winner
        assert b.settlement[a.winner] - a.settlement[a.winner] == a.scores[loser] - 1
        assert abs(sum(b.settlement)) < 1e-9
    assert won > 150


# ----------------------------------------------------------------------- parties
def test_parties_agree_and_settle():
    """Whole zone parties agree in both engines; the settlement is one stake plus the прокаты."""
    rules = ZONE
    out = fast.simulate_parties(rules, ["basic", "random"], seed=9, parties=40)
    for p in range(40):
        got = fast.party_record_of(out, p)
        want = reference.play_party(rules, ["basic", "random"], seed=9, party=p)
        assert not want.differences(got), f"party {p}: {want.differences(got)}"
        if got.winner >= 0:
            assert got.scores[got.winner] == 0
        assert abs(sum(got.settlement)) < 1e-9


# ------------------------------------------------------------------- properties
@pytest.mark.parametrize("policy", ["basic", "random"])
def test_properties_on_random_decks(policy):
    """Every card in one place, five tricks of two cards from the players' own hands, the duty
    respected at the first lead, and the count's identity (a winner stands at exactly 0)."""
    rules = ZONE
    out = fast.simulate(rules, policy, seed=17, deals=3000, log_plays=True)
    for i in range(3000):
        rec = fast.record_of(out, i)
        partner = 1 - rec.dealer
        widow = rec.drawn[partner] if rec.widow == partner else None
        final = rec.hand_final
        assert final[0] & final[1] == 0 and not (final[0] | final[1]) >> rec.trump_card & 1
        assert rec.hand_final[rec.dealer] == rec.hand_dealt[rec.dealer]
        if widow is not None:
            assert rec.discards[partner] == rec.hand_dealt[partner] and widow & rec.hand_dealt[partner] == 0
        assert rec.fine == (0, 0) and rec.overshoot == (False, False)  # from 15 no deal goes past 0
        if rec.outcome == Outcome.RAMS:
            assert rec.plays == () and sum(rec.delta) == 0 and min(rec.delta) in (-5, -10)
            continue
        for s in (0, 1):  # the count: tricks and won jacks written off, or the remiz and the прокат
            want = 5 if rec.tricks[s] == 0 else -(rec.tricks[s] + rec.jacks[s])
            assert rec.delta[s] == want and rec.prokat[s] == (rec.tricks[s] == 0)
        assert sum(rec.tricks) == 5 and len(rec.plays) == 5
        played = [0, 0]
        for t in rec.plays:
            for s in (0, 1):
                assert t.cards[s] >= 0 and final[s] >> t.cards[s] & 1
                played[s] |= 1 << t.cards[s]
        assert tuple(played) == tuple(final)
        leader, duty = zone_ref.first_lead(rules, [[c for c in range(64) if final[s] >> c & 1] for s in (0, 1)],
                                           rec.trump_card, partner)  # fmt: skip
        assert rec.plays[0].leader == leader and (duty is None or rec.plays[0].cards[leader] in duty)
        if rec.ends_party >= 0:
            assert rules.start + rec.delta[rec.ends_party] == 0


def test_branch_replays_the_run():
    """`branch`: the partner's option (0 stand, 31 swap) his policy chose gives the run's row back;
    the dealer has only option 0."""
    deals, seat = 400, 1
    run = fast.simulate(ZONE, "basic", seed=4, deals=deals)
    branches = fast.simulate_branches(ZONE, "basic", seat=seat, seed=4, deals=deals)
    rows = {(int(d), int(o)): k for k, (d, o) in enumerate(zip(branches.deal, branches.option))}
    for d in range(deals):
        options = sorted(o for (dd, o) in rows if dd == d)
        if int(run.dealer[d]) == seat:
            assert options == [0]
        else:
            assert options == [0, 31]
        option = 31 if int(run.widow[d]) == seat else 0
        k = rows[(d, option)]
        assert branches.delta[k] == run.delta[d, seat] and branches.outcome[k] == run.outcome[d], f"deal {d}"


def test_basic_beats_random():
    """Basic wins most parties against random, from either seat."""
    out = fast.simulate_parties(ZONE, ["basic", "random"], seed=1, parties=2000)
    assert (out.winner == 0).mean() > 0.6


# --------------------------------------------------------------------------- CLI
def _ok(args):
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_commands_run_zone(tmp_path):
    """`run`, `party`, `replay`, `compare` and `branch` accept --rules zone (two players by default)."""
    text = _ok(["run", "--rules", "zone", "--deals", "3000", "--out", str(tmp_path / "run")])
    assert "zone, 2 players, 36 cards" in text
    text = _ok(["party", "--rules", "zone", "--parties", "400", "--policy", "1=random", "--out", str(tmp_path / "party")])
    assert "deals per party (from 15)" in text and "target" in text
    text = _ok(["replay", "--rules", "zone", "--deal", "3"])
    assert "The swap (zone): seat 0, the dealer's partner" in text and "trick 5:" in text
    text = _ok(["compare", "basic", "random", "--rules", "zone", "--deals", "2000"])
    assert "zone" in text and "verdict" in text
    _ok(["branch", "--rules", "zone", "--seat", "1", "--deals", "200", "--out", str(tmp_path / "branch")])
    res = cli.invoke(app, ["run", "--rules", "zone", "--players", "3", "--deals", "10", "--out", str(tmp_path / "x")])
    assert res.exit_code != 0 and "zone is a game for 2 players" in res.output


def test_rams_only_helpers_refuse_zone(engine):
    """settle_deal and legal_cards follow the rams game's R5-R8: under zone they refuse in one line."""
    with pytest.raises(ValueError, match="plays zone"):
        engine.legal_cards(ZONE, parse_cards("A♠ 7♥"), 0, [])
    with pytest.raises(ValueError, match="plays zone"):
        engine.settle_deal(ZONE, dealer=0, trump=0, hands_dealt=[[], []], hands_final=[[], []], active=[1, 1])
