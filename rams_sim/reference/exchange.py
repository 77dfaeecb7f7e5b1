"""R4: passing (R4.1), the exchange (R4.0-R4.4), the R4.0a intent round, the dealer's trump card (R4.3).

Each step acts on a :class:`.deal.DealTable` after R3's deal (:func:`.deal.deal_cards`)
and asks the seats' policies; docs/ENGINE.md §3 gives the procedure. The decisions come
one at a time, as numbered *steps* (:func:`step_seat`), so that the searching policy
``pimc`` (:mod:`.pimc`) can ask for a seat's option through a ``search`` hook and play
the rest of a deal out from any step with an option of its own (:func:`exchange_from`).
"""

from __future__ import annotations

from .. import cards as C
from ..record import Intent
from .bits import RANK

# The decisions before the play, by phase (docs/ENGINE.md §8a): the play-or-pass round
# (with the exchange in one-turn order), the R4.0a announcements, the buying round
# (declare-then-buy), the dealer's trump card (R4.3). Step k < 3n is phase k // n, seat
# (dealer + 1 + k) mod n; step 3n is the dealer's trump card.
PHASE_ROUND, PHASE_INTENT, PHASE_BUY, PHASE_TRUMP = 0, 1, 2, 3
# Options a seat may be given instead of asking its policy:
PASS = -1  # the round: pass (R4 choice 3); 0 stands (or, declare-then-buy, says "play")
DECLINE = -1  # R4.3: the dealer keeps his hand; otherwise the option is the card he gives up
# a discard option is a mask over the seat's five cards in ascending id order: bit j discards the j-th


def may_pass(table, seat: int) -> bool:
    """R4.1: a seat may pass iff its dealt hand holds no ace (``ace_forbids_pass``, on by
    default); with ``turned_ace_binds_dealer`` a turned-up ace forbids the dealer to pass."""
    return may_pass_with(table.book, table.hand_dealt[seat], seat == table.dealer, table.trump_card)


def may_pass_with(book, dealt, is_dealer: bool, trump_card: int) -> bool:
    """R4.1 for a seat dealt ``dealt`` (:func:`may_pass`; inference asks it of imagined hands)."""
    if book.ace_forbids_pass and any(RANK[c] == C.ACE for c in dealt):
        return False
    if is_dealer and book.turned_ace_binds_dealer and RANK[trump_card] == C.ACE:
        return False
    return True


def must_take_trump(table) -> bool:
    """R4.3: the dealer must take the trump card (``dealer_takes_trump=must``, or R4.1's turned ace binding him)."""
    book = table.book
    return book.dealer_must_take or (book.turned_ace_binds_dealer and RANK[table.trump_card] == C.ACE)


def ask_pass(table, seat: int, option=None) -> None:
    """The seat says "pass" or "play" (R4 choice 3), where R4.1 allows a pass; ``option``
    (PASS, or 0 for "play") is said instead of asking his policy."""
    if option is None:
        passes = may_pass(table, seat) and table.policies[seat].wants_pass(
            list(table.hand[seat]), table.trump, table.seats.index(seat), len(table.seats))
    else:
        passes = option == PASS
        if passes and not may_pass(table, seat):
            raise ValueError(f"option error (R4.1): seat {seat} may not pass with an ace")
    if passes:
        table.passed[seat] = True
        table.note("pass", seat=seat)


def ask_exchange(table, seat: int, option=None) -> None:
    """The seat stands or exchanges k cards: discard them, then draw k (R4 choice 2);
    ``option`` (a mask over his cards, ascending; 0 stands) instead of asking his policy."""
    hand = table.hand[seat]
    talon_size = table.talon_size
    if option is None:
        chosen = table.policies[seat].choose_discard(list(hand), table.trump, seat == table.dealer, talon_size,
                                                     table.seats.index(seat), len(table.seats))  # fmt: skip
    else:
        chosen = [card for j, card in enumerate(hand) if option >> j & 1]
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


def ask_intent(table, seat: int, option=None) -> None:
    """R4.0a: a seat that plays says "on trumps" or "on suits" (``option``: an Intent code, instead of asking)."""
    if option is None:
        option = table.policies[seat].choose_intent(list(table.hand[seat]), table.trump)
    table.intent[seat] = Intent(option)
    table.note("intent", seat=seat, intent=int(table.intent[seat]))


def step_seat(table, step: int) -> tuple[int, int]:
    """(phase, seat) of exchange step ``step`` (0 <= step < 3n)."""
    phase, k = divmod(step, table.n)
    return phase, table.seats[k]


def exchange(table, search=None) -> None:
    """R4.0: one turn each (pass or exchange), or a play/pass round then a buying round.

    With ``intent_round`` (R4.0a) the announcements follow once everybody has said play
    or pass: before the buying round, or after the one-turn round. ``search``: as
    :func:`exchange_from`."""
    exchange_from(table, 0, None, search)


def exchange_from(table, step0: int, first_option=None, search=None) -> None:
    """R4.0-R4.4 and R4.0a from step ``step0`` on (0: all of it), one decision a step.

    Steps 0..n-1: each seat in turn from the dealer's left passes or plays, and in
    ``one-turn`` order exchanges at once (R4.0); steps n..2n-1, with ``intent_round``:
    each seat that plays announces (R4.0a); steps 2n..3n-1, in ``declare-then-buy``: each
    seat that plays exchanges. ``first_option`` (or None) is the option taken at step
    ``step0`` instead of asking (a search plays its options out from there); ``search``
    (or None): ``search(table, phase, step, seat)`` gives a searching seat's option, None
    for a seat that does not search (then its policy decides).
    """
    book = table.book
    for step in range(step0, 3 * table.n):
        phase, seat = step_seat(table, step)
        if phase == PHASE_INTENT and not book.intent_round:
            continue
        if phase == PHASE_BUY and not book.declare_then_buy:
            break
        if phase != PHASE_ROUND and table.passed[seat]:
            continue  # a passer neither announces nor buys
        option = first_option if step == step0 else None
        if option is None and search is not None:
            option = search(table, phase, step, seat)
        if phase == PHASE_ROUND:
            ask_pass(table, seat, option if option is None or option == PASS else 0)
            if not book.declare_then_buy and not table.passed[seat]:
                ask_exchange(table, seat, option)
        elif phase == PHASE_INTENT:
            ask_intent(table, seat, option)
        else:
            ask_exchange(table, seat, option)


def take_trump_card(table, discard: int) -> None:
    """R4.3: the dealer gives up ``discard`` and adds the trump card to his hand."""
    dealer = table.dealer
    table.took_trump[dealer] = True
    table.trump_discard[dealer] = discard
    table.hand[dealer] = sorted([c for c in table.hand[dealer] if c != discard] + [table.trump_card])
    table.note("take_trump", seat=dealer, discard=discard, trump_card=table.trump_card)


def dealer_trump(table, option=None, search=None) -> None:
    """R4.3: a playing dealer may (or must) discard one card and take the trump card.

    ``option`` (DECLINE or the card he gives up) is taken instead of asking him; ``search``
    (as :func:`exchange_from`, step 3n) gives a searching dealer's option. Then every
    seat's final hand is fixed: his hand now, a passer's dealt hand (ENGINE.md §3).
    """
    dealer = table.dealer
    if not table.passed[dealer]:  # if the dealer passes, nobody uses the trump card
        forced = must_take_trump(table)
        hand = table.hand[dealer]
        if option is None and search is not None:
            option = search(table, PHASE_TRUMP, 3 * table.n, dealer)
        if option is None:
            take, discard = table.policies[dealer].choose_trump_card(list(hand), table.trump_card, forced)
        else:
            take, discard = option != DECLINE, option
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
