"""Information hygiene (issue 4): changing cards a player cannot see never changes his decisions.

Three checks, for every policy and in both engines:

* the first seat to exchange (R4) sees only his five cards and the trump card, so
  reshuffling every other card leaves his pass and his discards unchanged;
* with the announcements of R4.0a (preset negotiations), a seat's announcement comes from
  his own hand: reshuffling every card he cannot see leaves the first seat's unchanged;
* a passer's hand is never shown: swapping one of his cards (not an ace, not a jack, so
  he still may pass and declares the same jacks, R4.1, R5.5) with a card left in the
  talon changes nothing for anybody else, provided he still passes (in classic, and in
  negotiations, where the others' announcements must not change either).

For ``pimc`` (docs/SEARCH.md), whose decisions come from worlds dealt around what its seat
knows, the first three checks hold for its searched pass, discards and announcement (a
planted leak in the worlds before the play is caught by the first), and a fourth: two deck
orders that differ only in cards a seat cannot see, where everything it can see up to one
of its cards is the same (its own cards, who passed, how many cards each exchanged, the
trump card taken, announcements, declarations, every card played), give the same card
there, in both engines; a planted leak (worlds pinned to the others' real hands) is caught
by the same check.

Two kernel helpers are checked to read only what the seat may know: its threats, and
whether a seat still to play announced "on trumps" (what the expert reads, R4.0a).
"""

from __future__ import annotations

import numpy as np
import pytest

from rams_sim import cards as C
from rams_sim import engine, reference
from rams_sim.kernels.games.duel import TRUMP_AT
from rams_sim.kernels.rng import deal_key, deck_order
from rams_sim.policies import PolicyKind
from rams_sim.record import Intent
from rams_sim.rules import Rules

PIMC = "pimc:samples=2"  # a few worlds per decision (its pass and discards too are searched)
POLICIES = tuple(kind.name.lower() for kind in PolicyKind if kind != PolicyKind.PIMC) + (PIMC,)
# pimc passes only where its rollouts say so: beside it, seats that pass often show passers' cards sooner
PASSER_TABLES = {PIMC: [PIMC, "basic:pass_threshold=4", PIMC, "cautious:pass_threshold=4"]}
ANNOUNCE_TABLES = {PIMC: [PIMC] + ["expert:pass_threshold=-1"] * 3}  # seat 0 first; the others never pass
ENGINES = {"engine": engine, "reference": reference}
# a searching seat's kernels take minutes of CPU to compile cold (rams_sim/warm.py): the engine's checks of
# pimc carry the heavy marker (`make test-slow`), the reference's run by default
ENGINES_HEAVY = [pytest.param("engine", marks=pytest.mark.heavy), "reference"]
POLICY_ENGINE = [pytest.param(policy, which, marks=[pytest.mark.heavy] if policy == PIMC and which == "engine" else [],
                              id=f"{policy}-{which}") for policy in POLICIES for which in ENGINES]  # fmt: skip
FIELDS = ("passed", "intent", "discards", "drawn", "took_trump", "trump_discard", "hand_final", "declaration", "tricks",
          "delta")  # fmt: skip


def _plain_card(card: int) -> bool:
    return C.rank_of(card) not in (C.ACE, C.JACK)


def _reshuffle_unseen(order: list[int], players: int, rng: np.random.Generator, turned: int | None = None) -> list[int]:
    """``order`` with every card but the first seat's hand (d[0..4], R3) and the trump card
    (d[5n], or position ``turned``: modern's is the dealer's last card) permuted at random:
    what the first seat to act cannot see."""
    turned = C.HAND_SIZE * players if turned is None else turned
    others = [i for i in range(C.HAND_SIZE, len(order)) if i != turned]
    shuffled = list(order)
    for i, j in zip(others, rng.permutation(others)):
        shuffled[i] = order[j]
    return shuffled


def _first_exchanges_changed(play, policy, deals: int = 60, first_only: bool = False) -> list[int]:
    """The deals whose first seat passed or exchanged otherwise once every card he cannot see was
    reshuffled (``first_only``: stop at the first such deal)."""
    rules = Rules.classic()
    n, rng = rules.players, np.random.default_rng(7)
    deck = C.deck_cards(rules.deck_size)
    changed = []
    for deal in range(deals):
        key = deal_key(3, deal)
        order = deck_order(key, deck).tolist()
        first = (deal % n + 1) % n  # R3: the first seat after the dealer gets d[0..4]
        shuffled = _reshuffle_unseen(order, n, rng)
        a = play(rules, policy, deal=deal, key=key, order=order)
        b = play(rules, policy, deal=deal, key=key, order=shuffled)
        assert a.hand_dealt[first] == b.hand_dealt[first]
        if (a.passed[first], a.discards[first]) != (b.passed[first], b.discards[first]):
            changed.append(deal)
            if first_only:
                break
    return changed


@pytest.mark.parametrize(("policy", "which"), POLICY_ENGINE)
def test_first_exchange_ignores_unseen_cards(policy, which):
    """Reshuffle all cards but the first seat's hand and the trump card: his exchange is the same
    (pimc's is searched: its worlds are drawn around his cards only)."""
    deals = 60 if which == "engine" else 15 if policy == PIMC else 30  # the reference searches slowly
    changed = _first_exchanges_changed(ENGINES[which].play_deal, policy, deals=deals)
    assert not changed, f"deals {changed}"


def _peeking(honest):
    """A planted leak: ``honest``'s knowledge (a reference search's reading of what a seat knows,
    the table its first argument) with every other seat's pile narrowed to his real hand."""

    def leaky(table, *args):
        knowledge = honest(table, *args)
        for pile in knowledge.piles:
            if pile.seat >= 0:
                pile.allowed &= C.mask_of(table.hand[pile.seat])  # peeks
        return knowledge

    return leaky


def test_a_planted_exchange_leak_is_caught(monkeypatch):
    """The check above catches a reference search whose worlds before the play peek at the others' real hands."""
    from rams_sim.reference import pimc

    monkeypatch.setattr(pimc, "what_seat_knows_before_play", _peeking(pimc.what_seat_knows_before_play))
    # the uniform worlds' piles (infer=none); the inferred worlds' own leak check: tests/test_inference.py
    assert _first_exchanges_changed(reference.play_deal, PIMC + ",infer=none", first_only=True), "the leak was never visible"


def _modern_turns_changed(play, deals: int = 40, first_only: bool = False,
                          order_name: str = "one-turn") -> tuple[int, list[int]]:  # fmt: skip
    """Modern: the deals whose first seat (a ``pimc`` seat, the dealer's left) took another turn
    once every card he cannot see was reshuffled: all but his hand d[0..4] and the trump card,
    the dealer's last card d[19] (docs/VARIANTS.md "modern"). Under ``declare-then-buy`` his
    play or pass only (the widow's offer follows the others' words, which the reshuffle may
    change). Deals redealt in either version are skipped (another dealing). Returns (deals
    compared, deals changed)."""
    rules = Rules.named("modern", exchange_order=order_name)
    n, rng = rules.players, np.random.default_rng(11)
    deck = C.deck_cards(rules.deck_size)
    policies = ["pimc:samples=3", "pimc:samples=2,rollout=random", "basic", "expert"]
    compared, changed = 0, []
    for deal in range(deals):
        key = deal_key(4, deal)
        order = deck_order(key, deck).tolist()
        first = (deal % n + 1) % n
        shuffled = _reshuffle_unseen(order, n, rng, turned=C.HAND_SIZE * n - 1)
        seats = {first: policies[0]}
        table = [seats.get(s, policies[(s - first) % n]) for s in range(n)]
        a = play(rules, table, deal=deal, key=key, order=order)
        b = play(rules, table, deal=deal, key=key, order=shuffled)
        if a.redeals or b.redeals:
            continue
        compared += 1
        assert a.hand_dealt[first] == b.hand_dealt[first]
        turn = (a.passed[first], a.widow == first, a.discards[first])
        other = (b.passed[first], b.widow == first, b.discards[first])
        if order_name == "declare-then-buy":
            turn, other = turn[:1], other[:1]
        if turn != other:
            changed.append(deal)
            if first_only:
                break
    return compared, changed


def _modern_redeals_changed(play, deals: int = 12) -> tuple[int, list[int]]:
    """Modern: deck orders giving the first seat (a ``pimc`` seat, the dealer's left) five of one
    suit; reshuffle every card he cannot see (all but d[0..4] and the trump card d[19]). Where no
    other seat holds five of a suit in either order, whether a redeal followed is his answer
    alone, and must be the same. Returns (orders compared, orders changed)."""
    rules = Rules.named("modern")
    n, rng = rules.players, np.random.default_rng(13)
    deck = C.deck_cards(rules.deck_size)
    policies = ["basic", "pimc:samples=3", "expert", "basic"]  # dealer 0: seat 1 answers first
    compared, changed = 0, []
    for deal in range(deals):
        suit = int(rng.integers(0, 4))
        five = [int(c) for c in rng.choice([c for c in deck if C.suit_of(c) == suit], 5, replace=False)]
        order = five + [int(c) for c in rng.permutation([c for c in deck if c not in five])]
        shuffled = _reshuffle_unseen(order, n, rng, turned=C.HAND_SIZE * n - 1)
        others = [o[C.HAND_SIZE * k: C.HAND_SIZE * (k + 1)] for o in (order, shuffled) for k in range(1, n)]
        if any(len({C.suit_of(c) for c in hand}) == 1 for hand in others):
            continue
        key = deal_key(5, deal)
        a = play(rules, policies, deal=deal, key=key, order=order, dealer=0)
        b = play(rules, policies, deal=deal, key=key, order=shuffled, dealer=0)
        compared += 1
        if (a.redeals > 0) != (b.redeals > 0):
            changed.append(deal)
    return compared, changed


@pytest.mark.parametrize("which", ENGINES_HEAVY)
def test_a_modern_redeal_ignores_unseen_cards(which):
    """R9 modern: a searching seat's answer to the redeal question depends only on what it sees."""
    compared, changed = _modern_redeals_changed(ENGINES[which].play_deal)
    assert not changed, f"deals {changed}"
    assert compared >= 8


@pytest.mark.parametrize("order_name", ["one-turn", "declare-then-buy"])
@pytest.mark.parametrize("which", ENGINES_HEAVY)
def test_a_modern_turn_ignores_unseen_cards(which, order_name):
    """R9 modern: reshuffle every card the first seat cannot see: his searched turn (pass, play,
    or take the widow keeping a card; declare-then-buy: his play or pass) is the same."""
    compared, changed = _modern_turns_changed(ENGINES[which].play_deal, order_name=order_name)
    assert not changed, f"deals {changed}"
    assert compared >= 30


def test_a_planted_modern_turn_leak_is_caught(monkeypatch):
    """The check above catches a reference turn search whose worlds peek at the others' real hands."""
    from rams_sim.reference.games import modern_search

    monkeypatch.setattr(modern_search, "what_seat_knows", _peeking(modern_search.what_seat_knows))
    _, changed = _modern_turns_changed(reference.play_deal, first_only=True)
    assert changed, "the leak was never visible"


@pytest.mark.parametrize(("policy", "which"), POLICY_ENGINE)
def test_an_announcement_ignores_unseen_cards(policy, which):
    """R4.0a: reshuffle all cards but the first seat's hand and the trump card: his pass and announcement are the same.

    He announces once everybody has said play or pass, which he hears: pimc's search reads it, so
    its table is pimc first and players who never pass (only unseen cards change, not what he hears)."""
    play = ENGINES[which].play_deal
    rules = Rules.named("negotiations")
    n, rng = rules.players, np.random.default_rng(8)
    deck = C.deck_cards(rules.deck_size)
    policies = ANNOUNCE_TABLES.get(policy, policy)
    announced = 0
    for deal in range(60):
        key = deal_key(4, deal)
        order = deck_order(key, deck).tolist()
        dealer = n - 1 if policy in ANNOUNCE_TABLES else deal % n
        first = (dealer + 1) % n
        shuffled = _reshuffle_unseen(order, n, rng)
        a = play(rules, policies, deal=deal, dealer=dealer, key=key, order=order)
        b = play(rules, policies, deal=deal, dealer=dealer, key=key, order=shuffled)
        assert a.hand_dealt[first] == b.hand_dealt[first]
        assert (a.passed[first], a.intent[first]) == (b.passed[first], b.intent[first]), f"deal {deal}"
        announced += a.intent[first] != Intent.NONE
    assert announced >= 20, f"the first seat announced in only {announced} deals"


@pytest.mark.parametrize("preset", ["classic", "negotiations"])
@pytest.mark.parametrize(("policy", "which"), POLICY_ENGINE)
def test_a_passers_hidden_cards_change_nothing_for_others(policy, which, preset):
    """Swap a passer's card with an undrawn talon card: every other seat decides, announces and scores the same."""
    play = ENGINES[which].play_deal
    rules = Rules.named(preset)
    policies = PASSER_TABLES.get(policy, policy)
    enough = 25 if policy in PASSER_TABLES else 60  # pimc: every seat's decisions are searched
    n = rules.players
    deck = C.deck_cards(rules.deck_size)
    tested = searched = 0
    for deal in range(3000):
        key = deal_key(5, deal)
        order = deck_order(key, deck).tolist()
        a = play(rules, policies, deal=deal, key=key, order=order)
        drawn = sum(len(C.cards_of(m)) for m in a.drawn)
        talon_left = order[C.HAND_SIZE * n + 1 + drawn :]
        passers = [s for s in range(n) if a.passed[s]]
        if not passers or not talon_left or sum(not p for p in a.passed) < 2:
            continue
        seat = passers[0]
        mine = [c for c in C.cards_of(a.hand_dealt[seat]) if _plain_card(c)]
        spare = [c for c in talon_left if _plain_card(c)]
        if not mine or not spare:
            continue
        x = max(mine, key=C.rank_of)  # his best card goes to the talon, the talon's worst comes to him
        y = min(spare, key=C.rank_of)
        swapped = [y if c == x else x if c == y else c for c in order]
        b = play(rules, policies, deal=deal, key=key, order=swapped)
        if not b.passed[seat]:
            continue  # his own decision may change: he sees his cards
        for name in FIELDS:
            before, after = getattr(a, name), getattr(b, name)
            assert [before[s] for s in range(n) if s != seat] == [after[s] for s in range(n) if s != seat], (
                f"{policy}/{which}: deal {deal}: {name} of another seat changed when seat {seat}'s hidden card moved"
            )
        assert a.plays == b.plays and a.outcome == b.outcome
        tested += 1
        searched += policy in PASSER_TABLES and any(not a.passed[s] for s in (0, 2))  # a pimc seat played on
        if tested == enough:
            break
    assert tested >= 20, f"only {tested} deals with a passer to test"
    assert policy not in PASSER_TABLES or searched >= 10, f"a pimc seat played on after a pass in only {searched}"


def test_threats_read_only_what_the_seat_may_know():
    """The kernels' threats of a seat ignore every other seat's cards and flags (but the
    dealer's public flags: R4.3's, modern's own trump card), and follow his own cards exactly."""
    from rams_sim.kernels.policy import threats_of
    from rams_sim.kernels.state import HAND, OWN_TRUMP, TOOK_TRUMP, TRUMP_DISCARD, make_state

    rng = np.random.default_rng(11)
    deck = np.uint64(C.deck_mask(32))
    cards = C.deck_cards(32)
    for trial in range(300):
        _, _, cardsets, st, _, _, _ = make_state()
        cardsets[:] = rng.integers(0, 2**63, cardsets.shape, dtype=np.uint64) & deck
        st[TRUMP_DISCARD, :] = rng.choice(cards, st.shape[1])
        st[TOOK_TRUMP, :] = rng.integers(0, 2, st.shape[1])
        st[OWN_TRUMP, :] = rng.integers(0, 2, st.shape[1])
        seat, dealer = trial % 4, (trial // 4) % 4
        trump_card, played = int(rng.choice(cards)), np.uint64(int(rng.integers(0, 2**63))) & deck
        before = int(threats_of(seat, dealer, deck, trump_card, played, cardsets, st))
        took, own = st[TOOK_TRUMP, dealer], st[OWN_TRUMP, dealer]
        others = [s for s in range(cardsets.shape[1]) if s != seat]
        cardsets[:, others] = rng.integers(0, 2**63, (cardsets.shape[0], len(others)), dtype=np.uint64)
        st[:, others] = rng.integers(-1, 30, (st.shape[0], len(others)))
        st[TOOK_TRUMP, dealer], st[OWN_TRUMP, dealer] = took, own  # public (R4.3; modern's dealt trump card)
        assert int(threats_of(seat, dealer, deck, trump_card, played, cardsets, st)) == before, f"trial {trial}"
        if before:
            card = C.cards_of(before)[0]
            cardsets[HAND, seat] |= np.uint64(1 << card)  # his own hand does count
            assert int(threats_of(seat, dealer, deck, trump_card, played, cardsets, st)) == before & ~(1 << card)


def test_trumps_behind_reads_only_the_announcements():
    """R4.0a: whether a seat still to play announced "on trumps" depends only on the public
    ACTIVE and INTENT rows (who plays, who said what), never on anybody's cards or other state."""
    from rams_sim.kernels.play import trumps_behind
    from rams_sim.kernels.state import ACTIVE, INTENT, make_state

    rng = np.random.default_rng(12)
    found = [0, 0]
    for trial in range(400):
        _, _, cardsets, st, _, _, _ = make_state()
        n = int(rng.integers(2, C.MAX_SEATS + 1))
        st[:, :] = rng.integers(-1, 30, st.shape)
        st[ACTIVE, :] = rng.integers(0, 2, st.shape[1])
        st[ACTIVE, 0] = 1
        st[INTENT, :] = np.where(st[ACTIVE] == 1, rng.integers(0, 2, st.shape[1]), int(Intent.NONE))
        seat = int(rng.choice(np.flatnonzero(st[ACTIVE, :n])))
        n_active = int(st[ACTIVE, :n].sum())
        remaining = int(rng.integers(0, n_active))
        behind, other = [], seat  # the active seats after him, clockwise (R6.2)
        while len(behind) < remaining:
            other = (other + 1) % n
            if st[ACTIVE, other]:
                behind.append(other)
        expected = any(st[INTENT, s] == Intent.ON_TRUMPS for s in behind)
        assert bool(trumps_behind(st, seat, n, remaining)) == expected, f"trial {trial}"
        found[expected] += 1
        public = st[[ACTIVE, INTENT], :].copy()
        cardsets[:] = rng.integers(0, 2**63, cardsets.shape, dtype=np.uint64)
        st[:, :] = rng.integers(-1, 30, st.shape)
        st[[ACTIVE, INTENT], :] = public
        assert bool(trumps_behind(st, seat, n, remaining)) == expected, f"trial {trial}: hidden state changed it"
    assert min(found) >= 50, found


# ---- pimc's searched cards (docs/SEARCH.md) ----------------------------------------------------
SEARCH_TABLE = ["pimc:samples=2", "pimc:samples=2,rollout=random", "pimc:samples=3,rollout=basic", "pimc:samples=2",
                "pimc:samples=2,rollout=cautious"]  # fmt: skip
SEARCH_RULES = {"classic": Rules.classic(),
                "overtrump-must-head": Rules.classic(players=5, ruff="overtrump", must_head=True),
                "zone": Rules.named("zone"), "modern": Rules.named("modern"), "duel": Rules.named("duel"),
                "duel-trump": Rules.named("duel-trump")}  # fmt: skip


def _turned(rules: Rules) -> int:
    """The trump card's position in the deck order (docs/VARIANTS.md): after the hands (R3), after
    zone's widow, or the dealer's last card in modern."""
    n = rules.players
    return {"zone": C.HAND_SIZE * n + 5, "modern": C.HAND_SIZE * n - 1}.get(rules.game.value, C.HAND_SIZE * n)


def _play_order(record, leader: int) -> list[int]:
    n = len(record.passed)
    return [s % n for s in range(leader, leader + n) if not record.passed[s % n]]


def _cards_seen(record, t: int, k: int) -> tuple:
    """Every card played before card ``k`` of trick ``t``: the finished tricks, then (seat, card) of this one."""
    now = record.plays[t]
    before = tuple((o, now.cards[o]) for o in _play_order(record, now.leader)[:k])
    return tuple(record.plays[:t]), now.leader, before


def _what_seat_sees(record, seat: int, t: int, k: int) -> tuple:
    """What ``seat`` knows before card ``k`` of trick ``t``: its own cards and the public facts."""
    own = (record.hand_dealt[seat], record.discards[seat], record.drawn[seat], record.trump_discard[seat],
           record.hand_final[seat])  # fmt: skip
    exchanged = tuple(len(C.cards_of(m)) for m in record.discards)
    public = (record.trump_card, record.passed, exchanged, record.took_trump, record.intent, record.declaration,
              record.jacks, record.widow, record.dave, record.stake)  # fmt: skip (duel: the widow's taker, dave)
    return own, public, _cards_seen(record, t, k)


def _hidden_hands(record, seat: int, t: int, k: int) -> tuple:
    """The other active seats' hands before card ``k`` of trick ``t`` (what ``seat`` cannot see)."""
    played = [c for trick in record.plays[:t] for c in trick.cards if c >= 0]
    played += [c for _, c in _cards_seen(record, t, k)[2]]
    return tuple(C.mask_of(set(C.cards_of(record.hand_final[o])) - set(played)) for o in range(len(record.passed))
                 if o != seat and not record.passed[o])  # fmt: skip


def _searched_cards_changed(play, rules: Rules, deals: int, swaps: int = 4,
                            first_only: bool = False) -> tuple[int, list[str]]:  # fmt: skip
    """Replay deals with two cards of one suit swapped in the deck order (never the trump card): at
    every card whose seat sees the same things in both deals, its card must be the same.
    Returns (cards checked while another seat's hidden hand differed, the differences found);
    ``first_only``: return at the first difference."""
    n = rules.players
    deck = C.deck_cards(rules.deck_size)
    rng = np.random.default_rng(21)
    policies = SEARCH_TABLE[:n]
    checked, found = 0, []
    for deal in range(deals):
        key = deal_key(6, deal)
        order = deck_order(key, deck).tolist()
        a = play(rules, policies, deal=deal, key=key, order=order)
        turned = _turned(rules)
        positions = [i for i in range(len(order)) if i != turned]  # the trump card is seen by all
        for _ in range(swaps):
            i = int(rng.choice(positions))
            same_suit = [j for j in positions if j != i and C.suit_of(order[j]) == C.suit_of(order[i])]
            j = int(rng.choice(same_suit))
            swapped = list(order)
            swapped[i], swapped[j] = order[j], order[i]
            b = play(rules, policies, deal=deal, key=key, order=swapped)
            for t in range(min(len(a.plays), len(b.plays))):
                seats = _play_order(a, a.plays[t].leader)
                for k, seat in enumerate(seats):
                    if _what_seat_sees(a, seat, t, k) != _what_seat_sees(b, seat, t, k):
                        continue
                    if a.plays[t].cards[seat] != b.plays[t].cards[seat]:
                        found.append(f"deal {deal}, cards {order[i]} and {order[j]} swapped: seat {seat}'s card "
                                     f"{k + 1} of trick {t + 1} changed")  # fmt: skip
                        if first_only:
                            return checked, found
                    checked += _hidden_hands(a, seat, t, k) != _hidden_hands(b, seat, t, k)
    return checked, found


# the reference's search runs by default, the kernels' under the heavy marker
SEARCH_CASES = [pytest.param(which, name, id=f"{which}-{name}", marks=[pytest.mark.heavy] if which == "engine" else [])
                for name in SEARCH_RULES for which in ENGINES]  # fmt: skip


@pytest.mark.parametrize(("which", "rules_name"), SEARCH_CASES)
def test_searched_cards_ignore_unseen_cards(which, rules_name):
    """pimc: changing cards a seat cannot see, where all it sees up to a card is the same, never changes that card."""
    deals = 25 if which == "engine" else 4  # the reference searches slowly
    least = 4 * deals
    if rules_name.startswith("duel"):  # a duel deal often ends at its first cards (a declined dave)
        deals, least = 3 * deals, deals
    # two hands of 36 cards (zone), two of 32 (duel): most swaps move only unseen stock cards
    swaps = 12 if rules_name in ("zone", "duel", "duel-trump") else 4
    checked, found = _searched_cards_changed(ENGINES[which].play_deal, SEARCH_RULES[rules_name], deals=deals,
                                             swaps=swaps)  # fmt: skip
    assert not found, "\n".join(found[:5])
    assert checked >= least, f"only {checked} cards checked with another seat's hidden hand changed"


def test_a_planted_search_leak_is_caught(monkeypatch):
    """The check above catches a reference search whose worlds peek at the other seats' real hands."""
    from rams_sim.reference import pimc

    monkeypatch.setattr(pimc, "what_seat_knows", _peeking(pimc.what_seat_knows))
    _, found = _searched_cards_changed(reference.play_deal, SEARCH_RULES["classic"], deals=25, first_only=True)
    assert found, "the leak was never visible"


def test_a_planted_zone_search_leak_is_caught(monkeypatch):
    """The same check catches a zone search whose worlds peek at the other hand."""
    from rams_sim.reference.games import zone_search

    monkeypatch.setattr(zone_search, "what_seat_knows", _peeking(zone_search.what_seat_knows))
    _, found = _searched_cards_changed(reference.play_deal, SEARCH_RULES["zone"], deals=25, swaps=12, first_only=True)
    assert found, "the leak was never visible"


def _duel_widows_changed(play, rules: Rules, deals: int = 60, first_only: bool = False) -> tuple[int, list[int]]:
    """R9 duel: the deals whose first hand (a ``pimc`` seat) swapped or stood otherwise once every card he
    cannot see (all but his hand and the turned card) was reshuffled. Returns (swaps seen, the deals)."""
    n, rng = 2, np.random.default_rng(17)
    deck = C.deck_cards(rules.deck_size)
    changed, swaps = [], 0
    for deal in range(deals):
        key = deal_key(12, deal)
        order = deck_order(key, deck).tolist()
        first = (deal % n + 1) % n  # the dealer's opponent gets d[0..4]
        a = play(rules, ["pimc:samples=2"] * n, deal=deal, key=key, order=order)
        b = play(rules, ["pimc:samples=2"] * n, deal=deal, key=key, order=_reshuffle_unseen(order, n, rng, TRUMP_AT))
        assert a.hand_dealt[first] == b.hand_dealt[first]
        swaps += a.widow == first
        if (a.widow == first) != (b.widow == first):
            changed.append(deal)
            if first_only:
                break
    return swaps, changed


@pytest.mark.parametrize("preset", ["duel", "duel-trump"])
@pytest.mark.parametrize("which", ENGINES_HEAVY)
def test_a_duel_widow_ignores_unseen_cards(which, preset):
    """R9 duel: the first hand's searched widow choice reads his hand and the turned card only."""
    swaps, changed = _duel_widows_changed(ENGINES[which].play_deal, Rules.named(preset))
    assert not changed, f"deals {changed}"
    assert 5 <= swaps <= 55, f"the first hand swapped in {swaps} of 60 deals: the check would be idle"


def test_a_planted_duel_widow_leak_is_caught(monkeypatch):
    """The check above catches a reference widow search whose worlds peek at the dealer's real hand."""
    from rams_sim.reference.games import duel_search

    monkeypatch.setattr(duel_search, "widow_knowledge", _peeking(duel_search.widow_knowledge))
    _, changed = _duel_widows_changed(reference.play_deal, Rules.named("duel"), first_only=True)
    assert changed, "the leak was never visible"

