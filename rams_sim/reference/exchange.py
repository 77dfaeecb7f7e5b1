"""R4: passing (R4.1), the exchange (R4.0-R4.4), the R4.0a intent round, the dealer's trump card (R4.3).

Each step acts on a :class:`.deal.DealTable` after R3's deal (:func:`.deal.deal_cards`)
and asks the seats' policies; docs/ENGINE.md §3 gives the procedure.
"""

from __future__ import annotations

from .. import cards as C
from ..record import Intent
from .bits import RANK


def may_pass(table, seat: int) -> bool:
    """R4.1: a seat may pass iff its dealt hand holds no ace (``ace_forbids_pass``, on by
    default); with ``turned_ace_binds_dealer`` a turned-up ace forbids the dealer to pass."""
    book = table.book
    if book.ace_forbids_pass and any(RANK[c] == C.ACE for c in table.hand_dealt[seat]):
        return False
    if seat == table.dealer and book.turned_ace_binds_dealer and RANK[table.trump_card] == C.ACE:
        return False
    return True


def ask_pass(table, seat: int) -> None:
    """The seat says "pass" or "play" (R4 choice 3), where R4.1 allows a pass."""
    if may_pass(table, seat) and table.policies[seat].wants_pass(list(table.hand[seat]), table.trump):
        table.passed[seat] = True
        table.note("pass", seat=seat)


def ask_exchange(table, seat: int) -> None:
    """The seat stands or exchanges k cards: discard them, then draw k (R4 choice 2)."""
    hand = table.hand[seat]
    talon_size = table.talon_size
    chosen = table.policies[seat].choose_discard(list(hand), table.trump, seat == table.dealer, talon_size)
    discard = sorted(int(c) for c in chosen)
    if len(set(discard)) != len(discard) or any(c not in hand for c in discard):
        raise ValueError(f"policy error: seat {seat} discards cards it does not hold (R4)")
    if len(discard) > talon_size:
        raise ValueError(
            f"policy error (R4.4): seat {seat} discards {len(discard)} cards but the talon holds {talon_size}"
        )
    k = len(discard)
    drawn = table.talon[table.talon_next : table.talon_next + k]
    table.talon_next += k
    table.discards[seat] = discard
    table.drawn[seat] = sorted(drawn)
    table.hand[seat] = sorted([c for c in hand if c not in discard] + drawn)
    table.note("exchange" if k else "stand", seat=seat, discard=discard, drawn=sorted(drawn))


def intent_round(table) -> None:
    """R4.0a: each seat that plays, from the dealer's left, says "on trumps" or "on suits";
    a passer says nothing."""
    for seat in table.seats:
        if not table.passed[seat]:
            table.intent[seat] = Intent(table.policies[seat].choose_intent(list(table.hand[seat]), table.trump))
            table.note("intent", seat=seat, intent=int(table.intent[seat]))


def exchange(table) -> None:
    """R4.0: one turn each (pass or exchange), or a play/pass round then a buying round.

    With ``intent_round`` (R4.0a) the announcements follow once everybody has said play
    or pass: before the buying round, or after the one-turn round."""
    book = table.book
    if book.declare_then_buy:
        for seat in table.seats:
            ask_pass(table, seat)
        if book.intent_round:
            intent_round(table)
        for seat in table.seats:
            if not table.passed[seat]:
                ask_exchange(table, seat)
    else:
        for seat in table.seats:
            ask_pass(table, seat)  # the pass coin comes first (policies.py)
            if not table.passed[seat]:
                ask_exchange(table, seat)
        if book.intent_round:
            intent_round(table)


def take_trump_card(table, discard: int) -> None:
    """R4.3: the dealer gives up ``discard`` and adds the trump card to his hand."""
    dealer = table.dealer
    table.took_trump[dealer] = True
    table.trump_discard[dealer] = discard
    table.hand[dealer] = sorted([c for c in table.hand[dealer] if c != discard] + [table.trump_card])
    table.note("take_trump", seat=dealer, discard=discard, trump_card=table.trump_card)


def dealer_trump(table) -> None:
    """R4.3: a playing dealer may (or must) discard one card and take the trump card.

    Then every seat's final hand is fixed: his hand now, a passer's dealt hand (ENGINE.md §3).
    """
    dealer = table.dealer
    book = table.book
    if not table.passed[dealer]:  # if the dealer passes, nobody uses the trump card
        forced = book.dealer_must_take or (book.turned_ace_binds_dealer and RANK[table.trump_card] == C.ACE)
        hand = table.hand[dealer]
        take, discard = table.policies[dealer].choose_trump_card(list(hand), table.trump_card, forced)
        if forced and not take:
            raise ValueError(f"policy error (R4.3): the dealer (seat {dealer}) must take the trump card")
        if take:
            if discard not in hand:
                raise ValueError(f"policy error (R4.3): the dealer discards {discard}, which he does not hold")
            take_trump_card(table, discard)
        else:
            table.note("leave_trump", seat=dealer)
    for seat in range(table.n):
        table.hand_final[seat] = list(table.hand_dealt[seat] if table.passed[seat] else table.hand[seat])
