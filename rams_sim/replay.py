"""One deal told in words, as a player would tell it: the text of ``rams-sim replay``.

:func:`replay_lines` plays deal ``deal`` of seed ``seed`` with the fast engine
(:func:`rams_sim.engine.play_deal`, the same keying as a bulk run, so the words match
row ``deal`` of :func:`rams_sim.engine.simulate`), and :func:`narrate` turns any
:class:`~rams_sim.record.DealRecord` into lines of text.

Every fact printed is read from the record: who passed, the discards and draws, the
trump card taken, the declarations, the cards of each trick and its winner, the tricks
and the deltas. Nothing here decides legality, trick winners or scores (STYLE.md §9);
the only arithmetic is formatting (counting cards in a mask, putting a trick's cards
in play order from its leader).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import cards as C
from .engine import play_deal
from .policies import PolicySpec, seat_policies
from .record import DealRecord, Declaration, EndKind, Intent, Outcome, Trick
from .rules import ExchangeOrder, Game, Rules

__all__ = ["hand_text", "narrate", "replay_lines", "trick_order"]

INDENT = "  "

_OUTCOME_TEXT = {
    Outcome.PLAYED: "the cards are played (R6)",
    Outcome.LONE: "only {lone} plays: he takes the tricks without play (R4.5 takes-all)",
    Outcome.NOBODY: "everybody passed: no play, only jack pairs count (R4.5)",
    Outcome.RAMS: "a rams ends the deal before play (R5.2-R5.4)",
    Outcome.FOUR_ACES: "four aces end the deal before play (R5.1)",
    Outcome.JACKS_END: "the party ends at the jack declaration, before play (R5.7)",
    Outcome.VOID: "only {lone} plays: the deal is void and scores only jacks (R4.5 void-deal)",
    Outcome.FOUR_JACKS: "four jacks end the deal before play (four_jacks_win, R9 from-15)",
}

_END_TEXT = {
    EndKind.FOUR_ACES: "by showing four aces (R5.1)",
    EndKind.RAMS: "by a rams that takes him to zero (R5.2-R5.3)",
    EndKind.JACKS: "by declaring jacks that write his score down to zero (R5.7)",
    EndKind.TRICK: "by reaching zero at a trick and announcing it; the deal stops there (R8.2)",
    EndKind.DEAL_END: "by being at zero or below when the deal ends, without announcing (R8.3)",
    EndKind.UNFINISHED: "unfinished (R8.2c)",
    EndKind.FOUR_JACKS: "by showing four jacks (four_jacks_win, R9 from-15)",
    EndKind.TARGET: "by reaching the game's target (R9: modern's 20 at a trick, the deal stops there; zone's exact 15)",
    EndKind.DECLINED: "because his opponent declined his dave (doubling) and pays the stake before it (R9 duel)",
}


def _modern_turn_lines(rules: Rules, record: DealRecord, order: list[int]) -> list[str]:
    """R9 modern (docs/VARIANTS.md): the redeals and the turns: one each (pass, play, or take the
    widow), or, under declare-then-buy, play or pass, then the widow offered to the players."""
    dealer = record.dealer
    lines = []
    if record.redeals:
        lines.append(f"Redeals: {record.redeals} (a player dealt five of one suit demanded one; the hands above "
                     "are the last dealing).")  # fmt: skip

    def take_text(seat: int) -> str:
        kept = hand_text(record.hand_dealt[seat] & ~record.discards[seat])
        return (f"takes the widow: keeps {kept}, lays aside {hand_text(record.discards[seat])}, "
                f"draws {hand_text(record.drawn[seat])}")  # fmt: skip

    if rules.exchange_order == ExchangeOrder.DECLARE_THEN_BUY:
        lines.append("Play or pass (R4.0, declare-then-buy):")
        for seat in order:
            lines.append(f"{INDENT}{_seat_name(seat, dealer)}: {'passes' if record.passed[seat] else 'plays'}")
        lines.append("The widow, offered in turn to the players (taken blind, keeping one card):")
        for seat in order:
            if not record.passed[seat]:
                taker = seat == record.widow
                lines.append(f"{INDENT}{_seat_name(seat, dealer)}: {take_text(seat) if taker else 'declines'}")
                if taker:
                    break
    else:
        lines.append("Turns (one each: pass, play, or take the widow blind keeping one card):")
        for seat in order:
            text = "passes" if record.passed[seat] else take_text(seat) if seat == record.widow else "plays on his cards"
            lines.append(f"{INDENT}{_seat_name(seat, dealer)}: {text}")
    if record.widow < 0:
        lines.append("Nobody took the widow: it stays out of play.")
    return lines


def _seat_name(seat: int, dealer: int) -> str:
    """Return ``"seat 2"``, or ``"seat 2 (dealer)"`` for the dealer."""
    return f"seat {seat} (dealer)" if seat == dealer else f"seat {seat}"


def hand_text(mask: int) -> str:
    """Return the cards of a mask grouped by suit (♥ ♦ ♣ ♠) and high to low, e.g. ``"A♥ K♥ 10♣ 9♠"``.

    >>> hand_text(C.mask_of([C.parse("9s"), C.parse("Ah"), C.parse("10c"), C.parse("Kh")]))
    'A♥ K♥ 10♣ 9♠'
    """
    cards = C.cards_of(mask)
    return C.format_cards(sorted(cards, reverse=True)) if cards else "(none)"


def _seat_order(dealer: int, players: int) -> list[int]:
    """Return the seats in turn order, from the seat left of the dealer to the dealer (R3)."""
    return [(dealer + 1 + k) % players for k in range(players)]


def trick_order(trick: Trick) -> list[tuple[int, int]]:
    """Return ``(seat, card)`` of a trick in play order: the leader first, then clockwise.

    The play log keeps cards by seat (``NO_CARD`` for a passer); clockwise from the
    leader over the seats that played is the order the cards fell (R6.2).
    """
    n = len(trick.cards)
    seats = [(trick.leader + k) % n for k in range(n)]
    return [(seat, trick.cards[seat]) for seat in seats if trick.cards[seat] != C.NO_CARD]


def _delta_text(delta: int) -> str:
    if delta < 0:
        return f"delta {delta:+d} (written off {-delta})"
    if delta > 0:
        return f"delta {delta:+d} (written on {delta})"
    return "delta 0"


def _declaration_text(code: int, jacks: int, outcome: Outcome) -> str:
    decl = Declaration(code)
    if decl == Declaration.JACK_PAIR:
        return f"a jack pair, writes off {jacks} (R5.5)"
    if decl == Declaration.FOUR_JACKS and outcome == Outcome.FOUR_JACKS:
        return "four jacks: wins the party (four_jacks_win, R9 from-15)"
    if decl == Declaration.FOUR_JACKS:
        return f"four jacks, writes off {jacks} (R5.5)"
    if decl == Declaration.SUIT_RAMS:
        return "the highest rams, of a plain suit (R5.2)"
    if decl == Declaration.TRUMP_RAMS:
        return "the highest rams, of trumps (R5.3)"
    if decl == Declaration.FOUR_ACES:
        return "four aces: wins the party (R5.1)"
    if decl == Declaration.RAMS_OUTRANKED:
        return "a lower rams, outranked: pays the penalty (R5.4)"
    if decl == Declaration.JACKS_VOID:
        return "jacks, void because a rams was shown (R5.6)"
    return "nothing"


def _exchange_text(record: DealRecord, seat: int) -> str:
    discards, drawn = record.discards[seat], record.drawn[seat]
    if not discards:
        return "stands on his cards"
    n_cards = len(C.cards_of(discards))
    word = "card" if n_cards == 1 else "cards"
    return f"discards {n_cards} {word} ({hand_text(discards)}) and draws {hand_text(drawn)}"


_INTENT_TEXT = {
    Intent.ON_TRUMPS: 'says "on trumps" (на козырях)',
    Intent.ON_SUITS: 'says "on suits" (на мастях)',
}


def _intent_lines(rules: Rules, record: DealRecord, order: list[int]) -> list[str]:
    """R4.0a: the announcements of the players who play, from the dealer's left; none without the round."""
    if not rules.intent_round:
        return []
    lines = ['Announcements (R4.0a: where each player who plays means to take his tricks):']
    said = [seat for seat in order if record.intent and record.intent[seat] != Intent.NONE]
    lines += [f"{INDENT}{_seat_name(seat, record.dealer)}: {_INTENT_TEXT[Intent(record.intent[seat])]}" for seat in said]
    if not said:
        lines.append(f"{INDENT}(nobody plays: nothing is announced)")
    return lines


def _zone_swap_lines(record: DealRecord) -> list[str]:
    """R9 zone: the dealer's partner swaps his hand for the widow or stands (docs/VARIANTS.md)."""
    partner = (record.dealer + 1) % 2
    if record.widow == partner:
        text = (f"gives his five cards back to the stock ({hand_text(record.discards[partner])}) "
                f"and takes the widow {hand_text(record.drawn[partner])}")  # fmt: skip
    else:
        text = "stands on his cards; the widow stays aside, unseen"
    trump = C.format_card(record.trump_card)
    return [f"The swap (zone): seat {partner}, the dealer's partner, {text}.",
            f"The trump card {trump} stays on the table (zone: nobody takes it)."]  # fmt: skip
def _widow_lines(rules: Rules, record: DealRecord, order: list[int]) -> list[str]:
    """R9 duel (docs/VARIANTS.md): the widow offered to the first hand, then the dealer; the trump card."""
    dealer = record.dealer
    lines = ["The widow (R9 duel: five cards; the first hand, then the dealer, may swap his hand for it):"]
    for seat in order:
        name = _seat_name(seat, dealer)
        if record.widow == seat:
            lines.append(f"{INDENT}{name}: takes the widow {hand_text(record.drawn[seat])}, "
                         f"laying aside {hand_text(record.discards[seat])}")  # fmt: skip
            break
        lines.append(f"{INDENT}{name}: stands on his cards ({'«продаю»' if seat != dealer else '«ходи»'})")
    trump = C.format_card(record.trump_card)
    if record.took_trump[dealer]:
        given = C.format_card(record.trump_discard[dealer])
        lines.append(f"The dealer must give up {given} and take the trump card {trump} (duel-trump).")
    else:
        lines.append(f"Nobody uses the trump card {trump} (duel).")
    return lines


def _exchange_lines(rules: Rules, record: DealRecord, order: list[int]) -> list[str]:
    """R4.0: the turns of the exchange, in one round or a play/pass round then a buying round;
    R4.0a's announcements once everybody has said play or pass."""
    dealer = record.dealer
    if rules.game == Game.ZONE:
        return _zone_swap_lines(record)
    lines = []
    if rules.game == Game.DUEL:
        return _widow_lines(rules, record, order)
    if rules.exchange_order == ExchangeOrder.DECLARE_THEN_BUY:
        lines.append("Play or pass (R4.0, declare-then-buy):")
        for seat in order:
            lines.append(f"{INDENT}{_seat_name(seat, dealer)}: {'passes' if record.passed[seat] else 'plays'}")
        lines += _intent_lines(rules, record, order)
        lines.append("Exchange:")
        for seat in order:
            if not record.passed[seat]:
                lines.append(f"{INDENT}{_seat_name(seat, dealer)}: {_exchange_text(record, seat)}")
    else:
        lines.append("Exchange (R4, one turn each):")
        for seat in order:
            text = "passes" if record.passed[seat] else _exchange_text(record, seat)
            lines.append(f"{INDENT}{_seat_name(seat, dealer)}: {text}")
        lines += _intent_lines(rules, record, order)
    trump = C.format_card(record.trump_card)
    if record.passed[dealer]:
        lines.append(f"The dealer passed: nobody uses the trump card {trump} (R4.3).")
    elif record.took_trump[dealer]:
        given = C.format_card(record.trump_discard[dealer])
        lines.append(f"The dealer gives up {given} and takes the trump card {trump} (R4.3).")
    else:
        lines.append(f"The dealer leaves the trump card {trump} (R4.3).")
    return lines


def _trick_lines(record: DealRecord) -> list[str]:
    lines = []
    for number, trick in enumerate(record.plays, start=1):
        played = ", ".join(f"seat {seat} {C.format_card(card)}" for seat, card in trick_order(trick))
        lines.append(f"{INDENT}trick {number}: seat {trick.leader} leads; {played}; seat {trick.winner} wins")
    return lines


def narrate(rules: Rules, policies: Sequence[PolicySpec], record: DealRecord, *, seed: int, deal: int) -> list[str]:
    """Tell one deal in words, in play order.

    Parameters
    ----------
    rules : Rules, the rules the deal was played under.
    policies : the policy of each seat, by seat.
    record : DealRecord of the deal, play log included.
    seed, deal : int, the run's seed and the deal index (for the header only).

    Returns
    -------
    list[str]
        The lines, without newlines: a header; the dealt hands; the trump card; every
        seat's pass, stand or exchange (and, with option intent_round, every announcement of
        R4.0a) and the dealer's use of the trump card; the active
        players' hands at the first lead (after the exchange, when no card is played); the
        declarations; the outcome; each trick (leader, cards in
        play order with their seats, winner); tricks per seat; every seat's delta
        (``"seat 2: delta -16 (written off 16)"``); and who ended the party, if anyone.
    """
    n = rules.players
    dealer = record.dealer
    order = _seat_order(dealer, n)
    outcome = Outcome(record.outcome)
    active = [seat for seat in order if not record.passed[seat]]
    policy_text = ", ".join(f"seat {seat} {spec}" for seat, spec in enumerate(policies))
    header = (
        f"Deal {deal} of seed {seed}: rules {rules.preset}, {n} players, {rules.deck_size}-card deck, "
        f"dealer seat {dealer}; policies: {policy_text}"
    )
    lines = [header, "Dealt hands (R3):"]
    lines += [f"{INDENT}{_seat_name(seat, dealer)}: {hand_text(record.hand_dealt[seat])}" for seat in order]
    suit = C.suit_of(record.trump_card)
    modern = rules.game == Game.MODERN
    lines.append(
        f"Trump card: {C.format_card(record.trump_card)}; trumps are {C.SUIT_NAMES[suit]} ({C.SUIT_SYMBOLS[suit]})."
        + (" It is the dealer's last card and stays in his hand." if modern else "")
    )
    lines += _modern_turn_lines(rules, record, order) if modern else _exchange_lines(rules, record, order)

    lines.append("Hands at the first lead:" if outcome == Outcome.PLAYED else "Hands after the exchange:")
    lines += [f"{INDENT}{_seat_name(seat, dealer)}: {hand_text(record.hand_final[seat])}" for seat in active]
    if not active:
        lines.append(f"{INDENT}(nobody plays)")

    declared = [seat for seat in order if record.declaration[seat] != Declaration.NONE]
    lines.append("Declarations (R5):" if declared else "Declarations (R5): none")
    zone = rules.game == Game.ZONE
    if zone and outcome == Outcome.PLAYED and declared:
        lines[-1] = "Won jacks (zone, counted after the play):"
    for seat in declared:
        said = _declaration_text(record.declaration[seat], record.jacks[seat], outcome)
        if modern and record.declaration[seat] == Declaration.JACK_PAIR:
            said = f"shows a jack pair: adds {rules.jack_pair} if he takes a trick (scored: {record.jacks[seat]})"
        elif modern and record.declaration[seat] == Declaration.FOUR_JACKS:
            said = "four jacks: wins the party"
        if zone and record.declaration[seat] == Declaration.JACKS_VOID:
            said = "a won jack pair, void: the other won the trump jack's pair (zone_jacks_both)"
        elif zone and record.declaration[seat] in (Declaration.JACK_PAIR, Declaration.FOUR_JACKS):
            pairs = "both jack pairs" if record.declaration[seat] == Declaration.FOUR_JACKS else "a jack pair"
            said = f"won {pairs}, writes off {record.jacks[seat]} (zone_jacks)"
        lines.append(f"{INDENT}{_seat_name(seat, dealer)}: {said}")

    lone = _seat_name(active[0], dealer) if len(active) == 1 else ""
    lines.append("Outcome: " + _OUTCOME_TEXT[outcome].format(lone=lone) + ".")
    if outcome == Outcome.PLAYED:
        lines.append(f"Tricks ({len(record.plays)} played, R6):")
        lines += _trick_lines(record)
    if rules.game == Game.DUEL and rules.dave:
        offers = ", ".join(f"seat {seat}: {record.dave[seat]}" for seat in order)
        lines.append(f"Dave offers (doublings): {offers}; the party's stake after the deal: {record.stake}.")
    if outcome in (Outcome.PLAYED, Outcome.LONE):
        taken = ", ".join(f"seat {seat}: {record.tricks[seat]}" for seat in active)
        lines.append(f"Tricks taken: {taken}.")

    if modern:
        lines.append("Score deltas (counting up: positive = points gained, negative = the рожки):")
    else:
        lines.append("Score deltas (R7.5; negative = written off, positive = written on):")
    for seat in order:
        note = "; overshot, back to the start score (R8.3)" if record.overshoot[seat] else ""
        if zone and record.overshoot[seat]:
            note = "; wrote off past 15: the total is written on (zone_overshoot)"
        if zone and record.prokat and record.prokat[seat]:
            note += "; no trick: pays the прокат"
        delta = f"delta {record.delta[seat]:+d}" if modern else _delta_text(record.delta[seat])
        lines.append(f"{INDENT}{_seat_name(seat, dealer)}: {delta}{note}")
    if record.ends_party >= 0:
        how = _END_TEXT.get(EndKind(record.end_kind), "")
        lines.append(f"Seat {record.ends_party} wins the party {how}.")
    return lines


def replay_lines(rules: Rules, policies, *, seed: int, deal: int, dealer: int | None = None) -> list[str]:
    """Play deal ``deal`` of seed ``seed`` with the kernels and tell it in words.

    Parameters
    ----------
    rules : Rules
    policies : one policy (``PolicySpec`` or text) for every seat, or one per seat.
    seed, deal : int, the run's seed and the deal index, keyed as in a bulk run.
    dealer : fixed dealer seat, or ``None`` for the bulk run's rotation (``deal % players``).

    Returns
    -------
    list[str]
        The lines of :func:`narrate` for the deal's record; the deltas are those the bulk
        run ``simulate(rules, policies, seed=seed, dealer=dealer)`` records at row ``deal``.
    """
    if deal < 0:
        raise ValueError(f"deal must be a non-negative deal index; got {deal}")
    if dealer is not None and not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat 0..{rules.players - 1}; got {dealer}")
    specs = seat_policies(policies, rules.players)
    record = play_deal(rules, specs, seed=seed, deal=deal, dealer=dealer)
    return narrate(rules, specs, record, seed=seed, deal=deal)
