"""R7 and R8.2-R8.3: the tricks credited, the remiz, the deltas of one deal, who ends the party.

:class:`Scoresheet` holds one deal's score: the declarations of R5 step 4 write on it
(:mod:`.declare`), then every trick is credited (:meth:`Scoresheet.credit`, or
:func:`credit_lone` for R4.5's lone player), then :meth:`Scoresheet.finish` fixes the deltas.
"""

from __future__ import annotations

from .. import cards as C
from ..record import DealOutcome, Declaration, EndKind, Outcome
from .args import RuleBook
from .bits import RANK, SUIT, seat_order


def ace_total(book: RuleBook, hand) -> int:
    """A: the sum of the values of the aces in ``hand`` (R7, R1)."""
    return sum(book.ace_values[SUIT[c]] for c in hand if RANK[c] == C.ACE)


class Sheet:
    """What every game's score sheet shares: its seat order (``order``), who plays
    (``active``) and the optional event list (``events``) a narration reads."""

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


class Scoresheet(Sheet):
    """Declarations, tricks credited and the deltas of one deal (R5 step 4, R7, R8.2-R8.3).

    Use: :func:`rams_sim.reference.declare.declare` (True when tricks follow), then
    :meth:`credit` once per trick won (True when an announcement stops the deal), then
    :meth:`finish`; :meth:`result` is the sheet as a :class:`DealOutcome`.
    """

    def __init__(self, book: RuleBook, dealer, trump, hands_dealt, hands_final, active, scores, announce, events=None):
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
        self.aces = [ace_total(book, h) for h in self.hands_final]
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
        self.events = events

    def end_party(self, seat: int, kind: EndKind) -> None:
        """Seat ``seat`` wins the party in this deal (R8.2)."""
        self.ends_party = seat
        self.end_kind = int(kind)
        self.note("party_ends", seat=seat, kind=kind.name)

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


def credit_lone(sheet) -> None:
    """R4.5 takes-all: the lone player is credited five tricks, one at a time, until one
    ends the party (any game's sheet: its own :meth:`credit` decides)."""
    seat = sheet.lone_seat()
    for _ in range(C.N_TRICKS):
        if sheet.credit(seat):
            break
