"""One deal at the table (R3-R8), step by step."""

from __future__ import annotations

from .. import cards as C
from ..record import DealRecord, Intent, Trick
from .declare import declare
from .play import legal_for, trick_winner
from .policy import POLICY_CLASSES, PlayView
from .score import Scoresheet, credit_lone
from .tables import RANK, SUIT, TRUMP_HONOURS, RuleBook, mask_of, seat_order


class DealTable:
    """One deal being played: the cards, every seat's choices and the scoresheet."""

    def __init__(self, book: RuleBook, specs, key: int, dealer: int, scores, order, events=None):
        n = book.players
        self.book = book
        self.n = n
        self.key = key
        self.dealer = dealer
        self.scores = list(scores)
        self.deck_order = list(order)
        self.seats = seat_order(dealer, n)
        self.specs = specs
        self.policies = [POLICY_CLASSES[spec.kind](spec, key, seat) for seat, spec in enumerate(specs)]
        self.events = events
        self.hand_dealt = [[] for _ in range(n)]
        self.hand = [[] for _ in range(n)]  # current hand, sorted ids
        self.passed = [False] * n
        self.discards = [[] for _ in range(n)]
        self.drawn = [[] for _ in range(n)]
        self.took_trump = [False] * n
        self.trump_discard = [C.NO_CARD] * n
        self.intent = [Intent.NONE] * n  # R4.0a: the announcements, public
        self.hand_final = [[] for _ in range(n)]
        self.trump_card = C.NO_CARD
        self.trump = -1
        self.talon = []
        self.talon_next = 0  # index of the next talon card to draw
        self.plays = []
        self.sheet = None

    def note(self, step: str, **details) -> None:
        """Record one step for a later narration, when an event list is attached."""
        if self.events is not None:
            self.events.append((step, details))

    # ---- step 1: R3 ------------------------------------------------------------------
    def deal_cards(self) -> None:
        """R3: seat (dealer+1+i) mod n gets d[5i..5i+4]; d[5n] is the trump card; the
        rest is the talon, drawn in index order."""
        d = self.deck_order
        for i, seat in enumerate(self.seats):
            self.hand_dealt[seat] = sorted(d[C.HAND_SIZE * i : C.HAND_SIZE * (i + 1)])
            self.hand[seat] = list(self.hand_dealt[seat])
        self.trump_card = d[C.HAND_SIZE * self.n]
        self.trump = SUIT[self.trump_card]
        self.talon = d[C.HAND_SIZE * self.n + 1 :]
        self.talon_next = 0
        self.note("deal", dealer=self.dealer, hands=[list(h) for h in self.hand_dealt], trump_card=self.trump_card)

    @property
    def talon_size(self) -> int:
        """Cards left in the talon (the trump card is not part of it, R4.4)."""
        return len(self.talon) - self.talon_next

    # ---- step 2: R4 ------------------------------------------------------------------
    def may_pass(self, seat: int) -> bool:
        """R4.1: a seat may pass iff its dealt hand holds no ace (``ace_forbids_pass``, on by
        default); with ``turned_ace_binds_dealer`` a turned-up ace forbids the dealer to pass."""
        if self.book.ace_forbids_pass and any(RANK[c] == C.ACE for c in self.hand_dealt[seat]):
            return False
        if seat == self.dealer and self.book.turned_ace_binds_dealer and RANK[self.trump_card] == C.ACE:
            return False
        return True

    def ask_pass(self, seat: int) -> None:
        """The seat says "pass" or "play" (R4 choice 3), where R4.1 allows a pass."""
        if self.may_pass(seat) and self.policies[seat].wants_pass(list(self.hand[seat]), self.trump):
            self.passed[seat] = True
            self.note("pass", seat=seat)

    def ask_exchange(self, seat: int) -> None:
        """The seat stands or exchanges k cards: discard them, then draw k (R4 choice 2)."""
        hand = self.hand[seat]
        talon_size = self.talon_size
        chosen = self.policies[seat].choose_discard(list(hand), self.trump, seat == self.dealer, talon_size)
        discard = sorted(int(c) for c in chosen)
        if len(set(discard)) != len(discard) or any(c not in hand for c in discard):
            raise ValueError(f"policy error: seat {seat} discards cards it does not hold (R4)")
        if len(discard) > talon_size:
            raise ValueError(
                f"policy error (R4.4): seat {seat} discards {len(discard)} cards but the talon holds {talon_size}"
            )
        k = len(discard)
        drawn = self.talon[self.talon_next : self.talon_next + k]
        self.talon_next += k
        self.discards[seat] = discard
        self.drawn[seat] = sorted(drawn)
        self.hand[seat] = sorted([c for c in hand if c not in discard] + drawn)
        self.note("exchange" if k else "stand", seat=seat, discard=discard, drawn=sorted(drawn))

    def ask_intents(self) -> None:
        """R4.0a: each seat that plays, from the dealer's left, says "on trumps" or "on suits";
        a passer says nothing."""
        for seat in self.seats:
            if not self.passed[seat]:
                self.intent[seat] = Intent(self.policies[seat].choose_intent(list(self.hand[seat]), self.trump))
                self.note("intent", seat=seat, intent=int(self.intent[seat]))

    def exchange(self) -> None:
        """R4.0: one turn each (pass or exchange), or a play/pass round then a buying round.

        With ``intent_round`` (R4.0a) the announcements follow once everybody has said play
        or pass: before the buying round, or after the one-turn round."""
        if self.book.declare_then_buy:
            for seat in self.seats:
                self.ask_pass(seat)
            if self.book.intent_round:
                self.ask_intents()
            for seat in self.seats:
                if not self.passed[seat]:
                    self.ask_exchange(seat)
        else:
            for seat in self.seats:
                self.ask_pass(seat)  # the pass coin comes first (policies.py)
                if not self.passed[seat]:
                    self.ask_exchange(seat)
            if self.book.intent_round:
                self.ask_intents()

    # ---- step 3: R4.3 ----------------------------------------------------------------
    def dealer_trump(self) -> None:
        """R4.3: a playing dealer may (or must) discard one card and take the trump card."""
        dealer = self.dealer
        if not self.passed[dealer]:  # if the dealer passes, nobody uses the trump card
            forced = self.book.dealer_must_take or (
                self.book.turned_ace_binds_dealer and RANK[self.trump_card] == C.ACE
            )
            hand = self.hand[dealer]
            take, discard = self.policies[dealer].choose_trump_card(list(hand), self.trump_card, forced)
            if forced and not take:
                raise ValueError(f"policy error (R4.3): the dealer (seat {dealer}) must take the trump card")
            if take:
                if discard not in hand:
                    raise ValueError(f"policy error (R4.3): the dealer discards {discard}, which he does not hold")
                self.took_trump[dealer] = True
                self.trump_discard[dealer] = discard
                self.hand[dealer] = sorted([c for c in hand if c != discard] + [self.trump_card])
                self.note("take_trump", seat=dealer, discard=discard, trump_card=self.trump_card)
            else:
                self.note("leave_trump", seat=dealer)
        for seat in range(self.n):
            # hand_final: after this step; a passer's is his dealt hand (ENGINE.md §3)
            self.hand_final[seat] = list(self.hand_dealt[seat] if self.passed[seat] else self.hand[seat])

    # ---- step 5: R6 / R4.5 -----------------------------------------------------------
    def lone_tricks(self) -> None:
        """R4.5 takes-all: the lone player is credited five tricks, one at a time."""
        credit_lone(self.sheet)

    def play(self) -> None:
        """R6: five tricks among the active seats, stopping when an announcement ends the party."""
        active = [not p for p in self.passed]
        leader = next(s for s in self.seats if active[s])  # R6.1: the first active seat leads
        q_duty = False  # R6.6: the duty to lead the trump Q after the led K won
        _, trump_king, trump_queen, _ = TRUMP_HONOURS[self.trump]
        for _ in range(C.N_TRICKS):
            players = [leader] + [(leader + j) % self.n for j in range(1, self.n) if active[(leader + j) % self.n]]
            trick = []
            by_seat = [C.NO_CARD] * self.n
            for k, seat in enumerate(players):
                card = self.ask_card(seat, trick, q_duty and seat == leader, players[k + 1 :])
                trick.append(card)
                by_seat[seat] = card
            winner = players[trick_winner(self.trump, trick)]
            self.plays.append(Trick(leader=leader, cards=tuple(by_seat), winner=winner))
            self.note("trick", leader=leader, cards=list(trick), winner=winner)
            # R6.6: he led the marriage K, still holds the Q, and the K won
            q_duty = trick[0] == trump_king and trump_queen in self.hand[leader] and winner == leader
            if self.sheet.credit(winner):
                break
            leader = winner  # R6.1: the winner of the last trick leads

    def threats(self, seat: int, trick) -> set[int]:
        """Cards that may be in an opponent's hand, as ``seat`` can tell (policies.py).

        Every card of the deck except: his hand, the cards played (finished tricks and
        this trick), his own discards (and the card he gave up for the trump card), and
        the turned-up trump card unless another seat, the dealer, took it (R4.3).
        """
        seen = set(self.hand[seat]) | set(trick) | set(self.discards[seat])
        seen |= {c for t in self.plays for c in t.cards if c != C.NO_CARD}
        if self.trump_discard[seat] != C.NO_CARD:
            seen.add(self.trump_discard[seat])
        if not (self.took_trump[self.dealer] and seat != self.dealer):
            seen.add(self.trump_card)
        return set(self.book.deck) - seen

    def intents_behind(self, behind) -> tuple[int, ...]:
        """The R4.0a announcements of the seats ``behind`` (those still to play to this
        trick), in play order: public knowledge, said aloud at the table."""
        return tuple(int(self.intent[s]) for s in behind)

    def ask_card(self, seat: int, trick, q_duty: bool, behind) -> int:
        """The seat plays one legal card (R6.7a); an illegal one is rejected (R6.8).

        ``behind``: the active seats still to play to this trick after him, in order.
        """
        hand = self.hand[seat]
        legal = legal_for(self.book, hand, self.trump, trick, q_duty)
        view = PlayView(self.threats(seat, trick), len(behind), self.intents_behind(behind))
        card = self.policies[seat].choose_card(list(hand), self.trump, list(trick), legal, self.sheet.tricks[seat], view)
        if card not in legal:
            raise ValueError(f"policy error (R6.8): seat {seat} plays {C.format_card(card)}, not a legal card")
        hand.remove(card)
        return card

    # ---- the whole deal ----------------------------------------------------------------
    def run(self) -> DealRecord:
        """Play the deal through every step and return its record."""
        self.deal_cards()
        self.exchange()
        self.dealer_trump()
        self.sheet = Scoresheet(
            self.book,
            self.dealer,
            self.trump,
            self.hand_dealt,
            self.hand_final,
            [not p for p in self.passed],
            self.scores,
            [spec.announce for spec in self.specs],
            self.events,
        )
        if declare(self.sheet):
            if self.sheet.n_active == 1:
                self.lone_tricks()
            else:
                self.play()
        self.sheet.finish()
        return self.record()

    def record(self) -> DealRecord:
        """The deal as a :class:`DealRecord`."""
        sheet = self.sheet
        n = self.book.players
        return DealRecord(
            dealer=self.dealer,
            trump_card=self.trump_card,
            hand_dealt=tuple(mask_of(h) for h in self.hand_dealt),
            passed=tuple(self.passed),
            discards=tuple(mask_of(h) for h in self.discards),
            drawn=tuple(mask_of(h) for h in self.drawn),
            took_trump=tuple(self.took_trump),
            trump_discard=tuple(self.trump_discard),
            hand_final=tuple(mask_of(h) for h in self.hand_final),
            jacks=tuple(sheet.jacks),
            declaration=tuple(sheet.declaration),
            tricks=tuple(sheet.tricks),
            delta=tuple(sheet.delta),
            overshoot=tuple(sheet.overshoot),
            outcome=sheet.outcome,
            ends_party=sheet.ends_party,
            end_kind=sheet.end_kind,
            plays=tuple(self.plays),
            intent=tuple(int(i) for i in self.intent),
            # classic Rams has no widow, dave, redeal, fine or прокат (R9 games only)
            widow=-1,
            stake=1,
            redeals=0,
            fine=(0,) * n,
            dave=(0,) * n,
            prokat=(False,) * n,
        )
