"""What a deal and a party produce, in the same form from both engines.

The differential tests compare :class:`DealRecord` and :class:`PartyRecord` from
:mod:`rams_sim.engine` (the kernels) and :mod:`rams_sim.reference` field by field.
The integer codes below are the ones the kernels write and the Parquet data stores.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import IntEnum


class Declaration(IntEnum):
    """Per seat: what the seat declared at step 4 of R5, and how it counted."""

    NONE = 0
    JACK_PAIR = 1  # R5.5: a same-colour pair (or three jacks), written off
    FOUR_JACKS = 2  # R5.5: all four jacks, written off (with four_jacks_win: the party won)
    SUIT_RAMS = 3  # R5.2: the highest rams, of a plain suit
    TRUMP_RAMS = 4  # R5.3: the highest rams, of trumps
    FOUR_ACES = 5  # R5.1: wins the party
    RAMS_OUTRANKED = 6  # R5.4: held a lower rams, paid the penalty
    JACKS_VOID = 7  # R5.6: held jacks that a rams made void


class Outcome(IntEnum):
    """Per deal: how the deal went."""

    PLAYED = 0  # two or more played tricks (possibly cut short by R8.2)
    LONE = 1  # R4.5 takes-all: one player took the tricks without play
    NOBODY = 2  # R4.5: everybody passed
    RAMS = 3  # R5.2-R5.4: a rams ended the deal before play
    FOUR_ACES = 4  # R5.1
    JACKS_END = 5  # R5.7: the party ended at the jack declaration
    VOID = 6  # R4.5 void-deal: one player played, the deal scored only jacks
    FOUR_JACKS = 7  # four_jacks_win (R9 from-15): four jacks ended the party before play


class Intent(IntEnum):
    """Per seat: what the seat announced in the R4.0a round ([004] "Рамс с переговорами")."""

    NONE = -1  # no announcement: a passer, or no R4.0a round (option intent_round off)
    ON_TRUMPS = 0  # "на козырях": he means to take his tricks with his trumps
    ON_SUITS = 1  # "на мастях": he means to take them with a strong plain suit


class EndKind(IntEnum):
    """Why the party ended in this deal (NONE: it goes on)."""

    NONE = 0
    FOUR_ACES = 1  # R5.1
    RAMS = 2  # R5.2-R5.3: the holder reached zero
    JACKS = 3  # R5.7
    TRICK = 4  # R8.2: reached zero at a trick and announced
    DEAL_END = 5  # R8.3: a player who does not announce is at zero after the deal
    UNFINISHED = 6  # R8.2c: a party stopped after max_deals (party records only)
    FOUR_JACKS = 7  # four_jacks_win (R9 from-15)
    DECLINED = 8  # R9 duel: a player declined the dave (doubling) and lost the party at the stake before it
    TARGET = 9  # R9 modern, zone: a player reached the game's target score (modern's 20, zone's exact 15)


@dataclass(frozen=True)
class Trick:
    """One trick: who led, the card each seat played (-1 for none), who won."""

    leader: int
    cards: tuple[int, ...]  # by seat
    winner: int


@dataclass(frozen=True)
class DealRecord:
    """Everything one deal did, per seat (tuples indexed by seat) and per deal.

    Card sets are python-int bit masks (bit = card id, see :mod:`rams_sim.cards`).
    """

    dealer: int
    trump_card: int
    hand_dealt: tuple[int, ...]
    passed: tuple[bool, ...]
    discards: tuple[int, ...]  # R4: the exchange's discards (mask)
    drawn: tuple[int, ...]  # R4: the cards drawn for them (mask)
    took_trump: tuple[bool, ...]  # R4.3
    trump_discard: tuple[int, ...]  # R4.3: card given up for the trump card, -1 if none
    hand_final: tuple[int, ...]  # after step 3 of R5 (dealt hand for passers)
    jacks: tuple[int, ...]  # R5.5: jack points written off (0 when void)
    declaration: tuple[int, ...]  # Declaration codes
    tricks: tuple[int, ...]
    delta: tuple[int, ...]  # R7.5: score change, negative = written off
    overshoot: tuple[bool, ...]  # R8.3: the seat overshot and restarts from the start score
    outcome: int  # Outcome code
    ends_party: int  # seat that won the party in this deal, or -1
    end_kind: int  # EndKind code
    plays: tuple[Trick, ...]  # the tricks actually played (empty without play)
    intent: tuple[int, ...] = ()  # R4.0a: Intent code by seat (both engines fill it; empty only in hand-made records)
    # R9 games (docs/VARIANTS.md); classic deals have -1, 1, 0 and zeros
    widow: int = -1  # the seat that took the widow, -1 none (duel, modern, zone)
    stake: int = 1  # the party's stake multiplier after the deal (duel's dave; 1 without)
    redeals: int = 0  # redeals demanded before the deal was played (modern)
    fine: tuple[int, ...] = ()  # points written on by seat for a broken duty (zone), included in delta
    dave: tuple[int, ...] = ()  # doublings offered by seat in the deal (duel)
    prokat: tuple[bool, ...] = ()  # the seat pays the прокат (zone)

    def differences(self, other: DealRecord) -> list[str]:
        """Names and values of the fields where ``other`` differs."""
        out = []
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if a != b:
                out.append(f"{f.name}: {a!r} != {b!r}")
        return out


@dataclass(frozen=True)
class DealOutcome:
    """The result of R5 step 4 to R8.3 for given hands and trick winners."""

    jacks: tuple[int, ...]
    declaration: tuple[int, ...]
    tricks: tuple[int, ...]
    delta: tuple[int, ...]
    overshoot: tuple[bool, ...]
    outcome: int
    ends_party: int
    end_kind: int


@dataclass(frozen=True)
class PartyRecord:
    """One party (R8): deals played, final scores, winner and settlement by seat."""

    deals: int
    scores: tuple[int, ...]  # final score by seat
    winner: int  # seat, or -1 when unfinished
    end_kind: int  # EndKind code (UNFINISHED when no one won)
    settlement: tuple[float, ...]  # R8.4: money won (+) or paid (-) by seat
    resets: tuple[int, ...]  # R8.3: overshoots by seat
    stake: int = 1  # the stake the party was settled at (duel's dave; 1 without)

    def differences(self, other: PartyRecord) -> list[str]:
        """Names and values of the fields where ``other`` differs."""
        return [
            f"{f.name}: {getattr(self, f.name)!r} != {getattr(other, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        ]
