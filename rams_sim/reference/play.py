"""R6: what may be played, and who wins the trick."""

from __future__ import annotations

from ..rules import Rules
from .tables import RANK, SUIT, TRUMP_HONOURS, RuleBook, rule_book


def trick_winner(trump: int, trick) -> int:
    """Return the index in ``trick`` (led card first) of the card that wins it (R6.4).

    The highest trump wins; with no trump in the trick, the highest card of the suit led.
    """
    led = SUIT[trick[0]]
    best = 0
    for i in range(1, len(trick)):
        card, top = trick[i], trick[best]
        if SUIT[card] == trump:
            if SUIT[top] != trump or RANK[card] > RANK[top]:
                best = i
        elif SUIT[card] == led and SUIT[top] != trump and RANK[card] > RANK[top]:
            best = i
    return best


def would_win(trump: int, trick, card: int) -> bool:
    """True when ``card`` played now to ``trick`` wins it as it stands (R6.4)."""
    return trick_winner(trump, list(trick) + [card]) == len(trick)


def legal_for(book: RuleBook, hand, trump: int, trick, q_duty: bool = False) -> list[int]:
    """The legal cards of ``hand`` (ascending ids), following R6.7a step by step."""
    trump_ace, trump_king, trump_queen, trump_jack = TRUMP_HONOURS[trump]
    if not trick:
        # On lead, the first duty that applies (R6.7a):
        if trump_ace in hand:  # R6.5: the trump ace is led as soon as its holder leads
            return [trump_ace]
        if trump_king in hand and trump_queen in hand:  # R6.6: the marriage K first
            return [trump_king]
        if q_duty and trump_queen in hand:  # R6.6: the Q after the led K won the trick
            return [trump_queen]
        return sorted(hand)
    led = SUIT[trick[0]]
    legal = [c for c in hand if SUIT[c] == led]  # R6.2: follow suit
    if not legal:
        trumps = [c for c in hand if SUIT[c] == trump]
        if trumps:  # R6.2: void in the suit led, one must trump
            legal = trumps
            trick_trumps = [RANK[c] for c in trick if SUIT[c] == trump]
            if book.overtrump and trick_trumps:  # R6.3 overtrump: beat the best trump if able
                over = [c for c in trumps if RANK[c] > max(trick_trumps)]
                if over:
                    legal = over
        else:  # R6.2: otherwise anything
            legal = list(hand)
    if book.ace_covers_face and trump_ace in legal:
        # R6.7: the trump ace falls on a trump K, Q or J (never overriding R6.2)
        if trump_king in trick or trump_queen in trick or trump_jack in trick:
            legal = [trump_ace]
    if book.must_head:  # R6.3a: keep the cards that would win the trick now, if any
        heading = [c for c in legal if would_win(trump, trick, c)]
        if heading:
            legal = heading
    return sorted(legal)


def legal_cards(rules: Rules, hand, trump: int, trick, q_duty: bool = False) -> list[int]:
    """Return the legal cards of ``hand`` in ascending id order (R6.2-R6.7a).

    ``hand``: card ids; ``trump``: suit 0-3; ``trick``: the card ids played so far, led
    card first (empty = on lead); ``q_duty``: on lead, the R6.6 duty to lead the trump
    Q is active.
    """
    if rules.game == "zone":  # zone has no duty to follow (docs/VARIANTS.md); duel and modern keep R6
        raise ValueError(f"legal_cards follows the rams game's rules (R6.7a); preset {rules.preset} plays {rules.game.value}")
    hand = [int(c) for c in hand]
    if not hand:
        raise ValueError("legal_cards needs a non-empty hand")
    return legal_for(rule_book(rules), hand, int(trump), [int(c) for c in trick], bool(q_duty))
