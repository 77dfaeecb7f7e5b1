"""R5 step 4: the declarations of classic Rams, written on a :class:`.score.Scoresheet`.

In order (docs/ENGINE.md §4): a. four aces (R5.1), a′. four jacks (R9 ``four_jacks_win``),
b. the best rams (R5.2-R5.4, with R5.6 voiding the jacks), c. the jack pairs and the end
of the party at zero (R5.5, R5.7). The steps are functions, so the R9 games can reuse the
ones they keep (duel: four aces and the rams ranking).
"""

from __future__ import annotations

from .. import cards as C
from ..record import Declaration, EndKind, Outcome
from ..rules import CARD_POINTS, JacksCount
from .args import RuleBook
from .bits import FOUR_JACKS_KIND, RANK, jack_kind, rams_suit

# R5.4: rams seniority among plain suits is ♥ > ♦ > ♣ > ♠, i.e. the suit order of R1.
SUIT_SENIORITY = {C.SPADES: 0, C.CLUBS: 1, C.DIAMONDS: 2, C.HEARTS: 3}


def holds_four_aces(hand) -> bool:
    """R5.1: the hand holds the aces of all four suits."""
    return sum(1 for c in hand if RANK[c] == C.ACE) == 4


def jack_points(book: RuleBook, kind: int) -> int:
    """Points written off for a jack kind (R5.5): 0 none, 1 a pair, 2 four jacks."""
    return (0, book.jack_pair, book.four_jacks)[kind]


def counted_jack_kind(book: RuleBook, dealt, final) -> int:
    """The jack kind that counts under ``jacks_count`` (R5.5)."""
    if book.jacks_count == JacksCount.DEALT:
        return jack_kind(dealt)
    if book.jacks_count == JacksCount.FINAL:
        return jack_kind(final)
    # dealt-or-final: the larger of the two, never the sum (R5.5)
    return max(jack_kind(dealt), jack_kind(final))


def counted_jack_kinds(sheet) -> list[int]:
    """The jack kind of every seat under ``jacks_count`` (R5.5), passers included."""
    return [counted_jack_kind(sheet.book, sheet.hands_dealt[s], sheet.hands_final[s]) for s in range(len(sheet.active))]


def void_jacks(sheet, kinds, holders) -> None:
    """R5.6: jacks do not count in a deal where a rams is shown; mark seats that had them.

    ``holders``: seats that hold a shown (or outranked) rams keep their rams code.
    """
    for s, kind in enumerate(kinds):
        if kind > 0 and s not in holders:
            sheet.declaration[s] = int(Declaration.JACKS_VOID)


def declare(sheet) -> bool:
    """Run the declarations of R5 step 4; return True when tricks follow (R6 or R4.5)."""
    n_active = sheet.n_active
    if n_active == 0 or (n_active == 1 and sheet.book.lone_void):
        # R4.5: nobody plays, or a lone player under void-deal: only jacks (step 4c)
        sheet.outcome = int(Outcome.NOBODY if n_active == 0 else Outcome.VOID)
        if not declare_four_jacks(sheet):  # four jacks are jacks: passers' count (R5.5)
            declare_jacks(sheet)
        sheet.settled = True
        return False
    if declare_four_aces(sheet) or declare_four_jacks(sheet) or declare_rams(sheet) or declare_jacks(sheet):
        sheet.settled = True
        return False
    sheet.outcome = int(Outcome.LONE if n_active == 1 else Outcome.PLAYED)
    return True


def declare_four_aces(sheet) -> bool:
    """R5.1 (step 4a): an active holder of four aces wins the party; every delta is 0.

    With ``four_aces_win`` off (R9 from-15, "Четыре туза не считаются") four aces are
    no declaration: the deal goes on to the rams, the jacks and play.
    """
    if not sheet.book.four_aces_win:
        return False
    for s in sheet.order:
        if sheet.active[s] and holds_four_aces(sheet.hands_final[s]):
            sheet.declaration[s] = int(Declaration.FOUR_ACES)
            # CHOICE: R5.6 names R5.1-R5.3 as the rams that void jack pairs, so a seat
            # with counted jacks is marked JACKS_VOID here too (jacks recorded 0).
            # Lower rams holders pay nothing here and keep Declaration.NONE.
            void_jacks(sheet, counted_jack_kinds(sheet), {s})
            sheet.outcome = int(Outcome.FOUR_ACES)
            sheet.note("four_aces", seat=s)
            sheet.end_party(s, EndKind.FOUR_ACES)
            return True
    return False


def declare_four_jacks(sheet) -> bool:
    """R9 from-15 (``four_jacks_win``): four jacks win the party, after four aces and
    before any rams ("Четыре валета – партия"); every delta is 0, as for four aces.

    Four jacks are a jack declaration, so they count as ``jacks_count`` says and a
    passer's count too (R5.5). All four jacks being his, no other seat holds a pair.
    """
    if not sheet.book.four_jacks_win:
        return False
    kinds = counted_jack_kinds(sheet)
    for s in sheet.order:
        if kinds[s] == FOUR_JACKS_KIND:
            sheet.declaration[s] = int(Declaration.FOUR_JACKS)
            sheet.outcome = int(Outcome.FOUR_JACKS)
            sheet.note("four_jacks", seat=s)
            sheet.end_party(s, EndKind.FOUR_JACKS)
            return True
    return False


def declare_rams(sheet) -> bool:
    """R5.2-R5.4 (step 4b): the best rams scores, every other active player pays; no play."""
    book = sheet.book
    held = []  # (seniority key, seat, suit)
    for position, s in enumerate(sheet.order):
        suit = rams_suit(sheet.hands_final[s]) if sheet.active[s] else -1
        if suit < 0:
            continue
        is_trump = suit == sheet.trump
        points = sum(CARD_POINTS[RANK[c]] for c in sheet.hands_final[s])
        # R5.4: trump rams > ♥ > ♦ > ♣ > ♠; one suit: higher card points (R1);
        # full tie: the player nearer the dealer's left (earlier in seat order)
        key = (is_trump, SUIT_SENIORITY[suit], points, -position)
        held.append((key, s, suit))
    if not held:
        return False
    held.sort(reverse=True)
    _, best, suit = held[0]
    is_trump = suit == sheet.trump
    base = book.trump_rams if is_trump else book.suit_rams  # R5.3 / R5.2
    sheet.declaration[best] = int(Declaration.TRUMP_RAMS if is_trump else Declaration.SUIT_RAMS)
    for _, s, _ in held[1:]:
        sheet.declaration[s] = int(Declaration.RAMS_OUTRANKED)  # R5.4
    void_jacks(sheet, counted_jack_kinds(sheet), {s for _, s, _ in held})  # R5.6
    for s in range(len(sheet.active)):
        if s == best:
            sheet.delta[s] = -(base + sheet.aces[s])  # writes off base + his aces
        elif sheet.active[s] or book.rams_penalizes_passers:
            # R5.2: every other active player (passers too with the option) writes on
            # base + the value of every ace he holds, the trump ace included
            sheet.delta[s] = base + sheet.aces[s]
    sheet.outcome = int(Outcome.RAMS)
    sheet.note("rams", seat=best, suit=suit, trump=is_trump, outranked=[s for _, s, _ in held[1:]])
    if sheet.scores[best] + sheet.delta[best] <= 0:  # R5.2-R5.3, R8.2: a rams wins at 0
        sheet.end_party(best, EndKind.RAMS)
    return True


def declare_jacks(sheet) -> bool:
    """R5.5, R5.7 (step 4c): every jack write-off first, then the first seat at zero wins."""
    for s, kind in enumerate(counted_jack_kinds(sheet)):
        sheet.jacks[s] = jack_points(sheet.book, kind)
        sheet.delta[s] = -sheet.jacks[s]
        if kind:
            sheet.declaration[s] = int(Declaration.FOUR_JACKS if kind == FOUR_JACKS_KIND else Declaration.JACK_PAIR)
            sheet.note("jacks", seat=s, kind=kind, points=sheet.jacks[s])
    for s in sheet.order:
        # R5.7 / R5 step 4c: any player at 0 or below, the one nearest the dealer's left
        if sheet.scores[s] + sheet.delta[s] <= 0:
            sheet.outcome = int(Outcome.JACKS_END)
            sheet.end_party(s, EndKind.JACKS)
            return True
    return False
