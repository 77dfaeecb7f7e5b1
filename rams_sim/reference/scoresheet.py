"""R5 step 4 to R8.3: the declarations, the tricks credited and the deltas of one deal."""

from __future__ import annotations

from .. import cards as C
from ..record import DealOutcome, Declaration, EndKind, Outcome
from ..rules import CARD_POINTS
from .tables import FOUR_JACKS_KIND, RANK, SUIT_SENIORITY, RuleBook, holds_four_aces, rams_suit, seat_order


class Scoresheet:
    """Declarations, tricks credited and the deltas of one deal (R5 step 4, R7, R8.2-R8.3).

    Use: :meth:`declare` (returns True when tricks follow), then :meth:`credit` once per
    trick won (returns True when an announcement stops the deal), then :meth:`finish`.
    """

    def __init__(self, book: RuleBook, dealer, trump, hands_dealt, hands_final, active, scores, announce):
        n = book.players
        self.book = book
        self.dealer = dealer
        self.trump = trump
        self.order = seat_order(dealer, n)
        self.active = list(active)
        self.scores = list(scores)
        self.announce = list(announce)
        self.hands_dealt = [list(h) for h in hands_dealt]
        # R5.5: a passer's final hand is his dealt hand
        self.hands_final = [list(hands_final[s]) if self.active[s] else list(hands_dealt[s]) for s in range(n)]
        # A (R7): the aces of the hand after step 3 of R5, the dealer's trump card included
        self.aces = [book.ace_total(h) for h in self.hands_final]
        self.jacks = [0] * n
        self.declaration = [int(Declaration.NONE)] * n
        self.tricks = [0] * n
        self.delta = [0] * n
        self.overshoot = [False] * n
        self.silent_zero = [False] * n  # R8.3: at zero without announcing
        self.outcome = int(Outcome.PLAYED)
        self.ends_party = C.NO_SEAT
        self.end_kind = int(EndKind.NONE)
        self.stopped = False  # R8.2: an announcement stopped the deal
        self.settled = False  # the deltas are fixed (no trick scoring follows)
        self.events = None

    def note(self, step: str, **details) -> None:
        """Record one step for a later narration, when an event list is attached."""
        if self.events is not None:
            self.events.append((step, details))

    @property
    def n_active(self) -> int:
        """The number of players who play (R0 "active")."""
        return sum(self.active)

    def lone_seat(self) -> int:
        """The one active seat (R4.5), or -1."""
        seats = [s for s in self.order if self.active[s]]
        return seats[0] if len(seats) == 1 else C.NO_SEAT

    def end_party(self, seat: int, kind: EndKind) -> None:
        """Seat ``seat`` wins the party in this deal (R8.2)."""
        self.ends_party = seat
        self.end_kind = int(kind)
        self.note("party_ends", seat=seat, kind=kind.name)

    # ---- R5 step 4 -----------------------------------------------------------------
    def declare(self) -> bool:
        """Run the declarations of R5 step 4; return True when tricks follow (R6 or R4.5)."""
        book = self.book
        n_active = self.n_active
        if n_active == 0 or (n_active == 1 and book.lone_void):
            # R4.5: nobody plays, or a lone player under void-deal: only jacks (step 4c)
            self.outcome = int(Outcome.NOBODY if n_active == 0 else Outcome.VOID)
            if not self.declare_four_jacks():  # four jacks are jacks: passers' count (R5.5)
                self.declare_jacks()
            self.settled = True
            return False
        if self.declare_four_aces() or self.declare_four_jacks() or self.declare_rams() or self.declare_jacks():
            self.settled = True
            return False
        self.outcome = int(Outcome.LONE if n_active == 1 else Outcome.PLAYED)
        return True

    def counted_jack_kinds(self) -> list[int]:
        """The jack kind of every seat under ``jacks_count`` (R5.5), passers included."""
        return [self.book.counted_jack_kind(self.hands_dealt[s], self.hands_final[s]) for s in range(len(self.active))]

    def void_jacks(self, kinds, holders) -> None:
        """R5.6: jacks do not count in a deal where a rams is shown; mark seats that had them.

        ``holders``: seats that hold a shown (or outranked) rams keep their rams code.
        """
        for s, kind in enumerate(kinds):
            if kind > 0 and s not in holders:
                self.declaration[s] = int(Declaration.JACKS_VOID)

    def declare_four_aces(self) -> bool:
        """R5.1 (step 4a): an active holder of four aces wins the party; every delta is 0.

        With ``four_aces_win`` off (R9 from-15, "Четыре туза не считаются") four aces are
        no declaration: the deal goes on to the rams, the jacks and play.
        """
        if not self.book.four_aces_win:
            return False
        for s in self.order:
            if self.active[s] and holds_four_aces(self.hands_final[s]):
                self.declaration[s] = int(Declaration.FOUR_ACES)
                # CHOICE: R5.6 names R5.1-R5.3 as the rams that void jack pairs, so a seat
                # with counted jacks is marked JACKS_VOID here too (jacks recorded 0).
                # Lower rams holders pay nothing here and keep Declaration.NONE.
                self.void_jacks(self.counted_jack_kinds(), {s})
                self.outcome = int(Outcome.FOUR_ACES)
                self.note("four_aces", seat=s)
                self.end_party(s, EndKind.FOUR_ACES)
                return True
        return False

    def declare_four_jacks(self) -> bool:
        """R9 from-15 (``four_jacks_win``): four jacks win the party, after four aces and
        before any rams ("Четыре валета – партия"); every delta is 0, as for four aces.

        Four jacks are a jack declaration, so they count as ``jacks_count`` says and a
        passer's count too (R5.5). All four jacks being his, no other seat holds a pair.
        """
        if not self.book.four_jacks_win:
            return False
        kinds = self.counted_jack_kinds()
        for s in self.order:
            if kinds[s] == FOUR_JACKS_KIND:
                self.declaration[s] = int(Declaration.FOUR_JACKS)
                self.outcome = int(Outcome.FOUR_JACKS)
                self.note("four_jacks", seat=s)
                self.end_party(s, EndKind.FOUR_JACKS)
                return True
        return False

    def declare_rams(self) -> bool:
        """R5.2-R5.4 (step 4b): the best rams scores, every other active player pays; no play."""
        book = self.book
        held = []  # (seniority key, seat, suit)
        for position, s in enumerate(self.order):
            suit = rams_suit(self.hands_final[s]) if self.active[s] else -1
            if suit < 0:
                continue
            is_trump = suit == self.trump
            points = sum(CARD_POINTS[RANK[c]] for c in self.hands_final[s])
            # R5.4: trump rams > ♥ > ♦ > ♣ > ♠; one suit: higher card points (R1);
            # full tie: the player nearer the dealer's left (earlier in seat order)
            key = (is_trump, SUIT_SENIORITY[suit], points, -position)
            held.append((key, s, suit))
        if not held:
            return False
        held.sort(reverse=True)
        _, best, suit = held[0]
        is_trump = suit == self.trump
        base = book.trump_rams if is_trump else book.suit_rams  # R5.3 / R5.2
        self.declaration[best] = int(Declaration.TRUMP_RAMS if is_trump else Declaration.SUIT_RAMS)
        for _, s, _ in held[1:]:
            self.declaration[s] = int(Declaration.RAMS_OUTRANKED)  # R5.4
        self.void_jacks(self.counted_jack_kinds(), {s for _, s, _ in held})  # R5.6
        for s in range(len(self.active)):
            if s == best:
                self.delta[s] = -(base + self.aces[s])  # writes off base + his aces
            elif self.active[s] or book.rams_penalizes_passers:
                # R5.2: every other active player (passers too with the option) writes on
                # base + the value of every ace he holds, the trump ace included
                self.delta[s] = base + self.aces[s]
        self.outcome = int(Outcome.RAMS)
        self.note("rams", seat=best, suit=suit, trump=is_trump, outranked=[s for _, s, _ in held[1:]])
        if self.scores[best] + self.delta[best] <= 0:  # R5.2-R5.3, R8.2: a rams wins at 0
            self.end_party(best, EndKind.RAMS)
        return True

    def declare_jacks(self) -> bool:
        """R5.5, R5.7 (step 4c): every jack write-off first, then the first seat at zero wins."""
        for s, kind in enumerate(self.counted_jack_kinds()):
            self.jacks[s] = self.book.jack_points(kind)
            self.delta[s] = -self.jacks[s]
            if kind:
                self.declaration[s] = int(Declaration.FOUR_JACKS if kind == 2 else Declaration.JACK_PAIR)
                self.note("jacks", seat=s, kind=kind, points=self.jacks[s])
        for s in self.order:
            # R5.7 / R5 step 4c: any player at 0 or below, the one nearest the dealer's left
            if self.scores[s] + self.delta[s] <= 0:
                self.outcome = int(Outcome.JACKS_END)
                self.end_party(s, EndKind.JACKS)
                return True
        return False

    # ---- R8.2-R8.3: crediting tricks -------------------------------------------------
    def running_score(self, seat: int) -> int:
        """R8.2: score before the deal - jacks - tricks so far - A (from the first trick)."""
        aces = self.aces[seat] if self.tricks[seat] >= 1 else 0
        return self.scores[seat] - self.jacks[seat] - self.tricks[seat] - aces

    def credit(self, seat: int) -> bool:
        """Credit one trick to ``seat``; return True when its announcement stops the deal."""
        self.tricks[seat] += 1
        if self.overshoot[seat]:
            return False
        if self.silent_zero[seat]:
            # R8.3: a trick after the one that took him to zero, unannounced: overshoot
            self.overshoot[seat] = True
            self.note("overshoot", seat=seat)
            return False
        if self.running_score(seat) <= 0:
            if self.announce[seat]:  # R8.2: announce at once; the deal stops here
                self.stopped = True
                self.end_party(seat, EndKind.TRICK)
                return True
            self.silent_zero[seat] = True  # R8.3: does not announce
        return False

    # ---- R7, R8.2a, R8.3: the deltas -------------------------------------------------
    def finish(self) -> None:
        """Fix every delta once the tricks are done (nothing to do after a declaration end)."""
        if self.settled:
            return
        book = self.book
        for s in range(len(self.active)):
            t = self.tricks[s]
            if self.overshoot[s]:
                # R8.3: starts again from the starting score, whatever else the deal brings
                self.delta[s] = book.start - self.scores[s]
            elif self.stopped:
                # R8.2a: a deal cut short by the end of the party
                if book.score_so_far:
                    self.delta[s] = -(self.jacks[s] + t + (self.aces[s] if t >= 1 else 0))
                elif s == self.ends_party:
                    self.delta[s] = -(self.jacks[s] + t + self.aces[s])
                else:  # freeze: only what the declarations fixed
                    self.delta[s] = -self.jacks[s]
            elif not self.active[s]:
                self.delta[s] = -self.jacks[s]  # R7.4: passers score only their jacks
            elif t >= 1:
                self.delta[s] = -(self.jacks[s] + t + self.aces[s])  # R7.1
            else:
                # R7.2 remiz: write on remiz + A; R7.3: a jack pair cancels the remiz
                self.delta[s] = -self.jacks[s] + book.remiz + self.aces[s]
        if not self.stopped:
            for s in self.order:
                # R8.3: a silent player who took no further trick is at zero and wins now
                if self.silent_zero[s] and not self.overshoot[s]:
                    self.end_party(s, EndKind.DEAL_END)
                    break
        self.settled = True

    def result(self) -> DealOutcome:
        """The scoresheet as a :class:`DealOutcome`."""
        return DealOutcome(
            jacks=tuple(self.jacks),
            declaration=tuple(self.declaration),
            tricks=tuple(self.tricks),
            delta=tuple(self.delta),
            overshoot=tuple(self.overshoot),
            outcome=self.outcome,
            ends_party=self.ends_party,
            end_kind=self.end_kind,
        )
