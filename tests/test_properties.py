"""Invariants of every deal, checked by hypothesis on random rules, tables and seeds.

Each property is checked on the fast engine's records; legality is judged by the
reference engine's own ``legal_cards``, so the check is independent of the kernels.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rams_sim import cards as C
from rams_sim import engine, reference
from rams_sim.kernels.rng import party_deal_key
from rams_sim.record import EndKind, Intent, Outcome
from rams_sim.rules import Rules

OPTION_VALUES = {
    "exchange_order": ["one-turn", "declare-then-buy"],
    "intent_round": [False, True],
    "ruff": ["any-trump", "overtrump"],
    "must_head": [False, True],
    "ace_covers_face": [True, False],
    "dealer_takes_trump": ["may", "must"],
    "ace_forbids_pass": [True, False],
    "turned_ace_binds_dealer": [False, True],
    "lone_player": ["takes-all", "void-deal"],
    "jacks_count": ["dealt-or-final", "dealt", "final"],
    "rams_penalizes_passers": [False, True],
    "truncated_deal": ["freeze", "score-so-far"],
    "four_aces_win": [True, False],
    "four_jacks_win": [False, True],
    "ace_values": [(5, 10, 15, 20), (0, 0, 0, 0)],
}
POLICIES = ["basic", "random", "cautious", "greedy", "expert", "basic:pass_threshold=3", "random:announce=false", "expert:announce=false"]


@st.composite
def tables(draw):
    """A random rule set, table size, start score and one policy per seat."""
    players = draw(st.integers(2, 7))
    options = {k: draw(st.sampled_from(v)) for k, v in OPTION_VALUES.items()}
    options["start"] = draw(st.sampled_from([3, 8, 20, 100]))
    decks = [d for d in (24, 32, 36, 52) if d >= C.HAND_SIZE * players + 1]
    options["deck"] = str(draw(st.sampled_from(decks)))
    rules = Rules.classic(players=players, **options)
    policies = [draw(st.sampled_from(POLICIES)) for _ in range(players)]
    return rules, policies


def _cards(mask: int) -> set[int]:
    return set(C.cards_of(mask))


@settings(max_examples=150, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), deal=st.integers(0, 10**6))
def test_every_card_in_one_place(table, seed, deal):
    """Every card of the deck is in exactly one place at every step of the deal (R3, R4, R6)."""
    rules, policies = table
    rec = engine.play_deal(rules, policies, seed=seed, deal=deal)
    deck = set(C.deck_cards(rules.deck_size).tolist())
    dealt = [_cards(m) for m in rec.hand_dealt]
    assert sum(len(h) for h in dealt) == C.HAND_SIZE * rules.players
    assert set().union(*dealt) <= deck and len(set().union(*dealt)) == C.HAND_SIZE * rules.players
    assert rec.trump_card in deck and all(rec.trump_card not in h for h in dealt)
    talon = deck - set().union(*dealt) - {rec.trump_card}
    drawn = [_cards(m) for m in rec.drawn]
    assert sum(len(d) for d in drawn) == len(set().union(*drawn)), "a talon card drawn twice"
    assert set().union(*drawn) <= talon
    for seat in range(rules.players):
        discards = _cards(rec.discards[seat])
        assert discards <= dealt[seat] and len(discards) == len(drawn[seat])
        hand = (dealt[seat] - discards) | drawn[seat]
        if rec.took_trump[seat]:
            assert seat == rec.dealer and rec.trump_discard[seat] in hand
            hand = (hand - {rec.trump_discard[seat]}) | {rec.trump_card}
        assert hand == _cards(rec.hand_final[seat]) and len(hand) == C.HAND_SIZE
        played = [t.cards[seat] for t in rec.plays if t.cards[seat] >= 0]
        assert len(played) == len(set(played)) and set(played) <= hand
    finals = [_cards(m) for m in rec.hand_final]
    assert sum(len(h) for h in finals) == len(set().union(*finals)), "a card in two final hands"


@settings(max_examples=150, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), deal=st.integers(0, 10**6))
def test_every_played_card_is_legal(table, seed, deal):
    """Every card played is legal under the active options (R6.2-R6.7a), judged by the reference."""
    rules, policies = table
    rec = engine.play_deal(rules, policies, seed=seed, deal=deal)
    hands = [set(C.cards_of(m)) for m in rec.hand_final]
    trump = C.suit_of(rec.trump_card)
    trump_king, trump_queen = C.card_id(trump, C.KING), C.card_id(trump, C.QUEEN)
    previous = None
    for t in rec.plays:
        order = [(t.leader + k) % rules.players for k in range(rules.players)]
        order = [s for s in order if t.cards[s] >= 0]
        trick: list[int] = []
        for k, seat in enumerate(order):
            q_duty = (
                k == 0 and previous is not None and previous.leader == seat and previous.winner == seat
                and previous.cards[seat] == trump_king and trump_queen in hands[seat]
            )  # fmt: skip
            legal = reference.legal_cards(rules, sorted(hands[seat]), trump, trick, q_duty)
            assert t.cards[seat] in legal, f"seat {seat} played {C.format_card(t.cards[seat])}, legal {legal}"
            hands[seat].discard(t.cards[seat])
            trick.append(t.cards[seat])
        assert order[reference.trick_winner(trump, trick)] == t.winner
        previous = t


@settings(max_examples=150, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), deal=st.integers(0, 10**6))
def test_tricks_sum_to_five(table, seed, deal):
    """Tricks of active players sum to five in a deal played out by two or more (CLARIFICATIONS)."""
    rules, policies = table
    rec = engine.play_deal(rules, policies, seed=seed, deal=deal)
    total = sum(rec.tricks)
    if rec.outcome == Outcome.PLAYED and rec.end_kind != EndKind.TRICK:
        assert total == C.N_TRICKS and len(rec.plays) == C.N_TRICKS
    elif rec.outcome in (Outcome.PLAYED, Outcome.LONE):
        assert 1 <= total <= C.N_TRICKS  # cut short at the trick that ended the party (R8.2)
    else:
        assert total == 0 and rec.plays == ()
    assert all(rec.tricks[s] == 0 for s in range(rules.players) if rec.passed[s])


@settings(max_examples=150, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), deal=st.integers(0, 10**6))
def test_score_arithmetic(table, seed, deal):
    """A played-out deal's deltas follow R7 from tricks, aces and jacks (R7.1-R7.4)."""
    rules, policies = table
    rec = engine.play_deal(rules, policies, seed=seed, deal=deal)
    if rec.outcome not in (Outcome.PLAYED, Outcome.LONE) or rec.end_kind == EndKind.TRICK:
        return
    for seat in range(rules.players):
        if rec.overshoot[seat]:
            assert rec.delta[seat] == 0  # start - score with everyone at the start
            continue
        aces = sum(rules.ace_values[C.suit_of(c)] for c in C.cards_of(rec.hand_final[seat]) if C.rank_of(c) == C.ACE)
        if rec.passed[seat]:
            expected = -rec.jacks[seat]
        elif rec.tricks[seat] >= 1:
            expected = -(rec.jacks[seat] + rec.tricks[seat] + aces)
        else:
            expected = -rec.jacks[seat] + rules.remiz + aces
        assert rec.delta[seat] == expected


@settings(max_examples=150, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), deal=st.integers(0, 10**6))
def test_only_players_who_play_announce(table, seed, deal):
    """R4.0a: with intent_round every seat that plays announces on trumps or on suits and a
    passer nothing; without it nobody announces."""
    rules, policies = table
    rec = engine.play_deal(rules, policies, seed=seed, deal=deal)
    assert len(rec.intent) == rules.players
    for seat in range(rules.players):
        if rules.intent_round and not rec.passed[seat]:
            assert rec.intent[seat] in (Intent.ON_TRUMPS, Intent.ON_SUITS)
        else:
            assert rec.intent[seat] == Intent.NONE


@settings(max_examples=40, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32), party=st.integers(0, 10**6))
def test_party_scores_add_up(table, seed, party):
    """Over a party, score after = score before + delta, deal by deal (R7.5, R8)."""
    rules, policies = table
    rules = rules.replace(max_deals=60)
    record = engine.play_party(rules, policies, seed=seed, party=party)
    scores = [rules.start] * rules.players
    dealer = 0
    for d in range(record.deals):
        rec = engine.play_deal(rules, policies, key=party_deal_key(seed, party, d), dealer=dealer, scores=scores)
        scores = [s + delta for s, delta in zip(scores, rec.delta)]
        if d < record.deals - 1:
            assert rec.ends_party == -1
        dealer = (dealer + 1) % rules.players
    assert tuple(scores) == record.scores
    if record.winner >= 0:
        assert rec.ends_party == record.winner
