"""R8: one party loop for every game, and classic Rams' settlement (R8.4).

Every game's deal returns a :class:`DealResult`: its record and what the next deal of the
party needs from it; :func:`play_party` plays the deals of any game, which settles the
party itself (its ``settlement``; classic Rams' is :func:`settle`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import cards as C
from ..kernels.rng import party_deal_key
from ..record import DealRecord, EndKind, PartyRecord
from .args import RuleBook
from .deal import shuffle


@dataclass(frozen=True)
class DealResult:
    """One deal as the party reads it: the record (its deltas, overshoots, прокаты, the
    seat that ends the party, the stake after the deal), the next dealer the deal names
    (zone: the loser; -1: the next seat clockwise) and where duel's doubling cube lies
    (-1: in the middle)."""

    record: DealRecord
    next_dealer: int = C.NO_SEAT
    cube: int = C.NO_SEAT


def settle(book: RuleBook, scores, winner: int) -> tuple[float, ...]:
    """R8.4: money won (+) or paid (-) by seat; nothing for an unfinished party (R8.2c)."""
    n = len(scores)
    money = [0.0] * n
    if winner < 0:
        return tuple(money)
    losers = [s for s in range(n) if s != winner]
    if book.settle_stake:
        # stake: the losers with the highest remaining score share one stake
        top = max(scores[s] for s in losers)
        payers = [s for s in losers if scores[s] == top]
        for s in payers:
            money[s] = 0.0 - 1.0 / len(payers)
        money[winner] = 1.0
    else:
        # remaining: each loser pays max(score, 0) to the winner
        for s in losers:
            pay = float(max(scores[s], 0))
            money[s] = 0.0 - pay
            money[winner] += pay
    return tuple(money)


def play_party(game, book: RuleBook, specs, seed: int, party: int) -> PartyRecord:
    """Play party ``party`` of ``seed`` (R8) in ``game`` (a module of :mod:`.games`).

    Every seat starts at ``start`` (R8.1) and seat 0 deals first; deal ``d`` is keyed
    ``party_deal_key(seed, party, d)``. After each deal the scores move by its deltas (a
    modern delta counts up, the others down), overshoots and прокаты are counted, and the
    next dealer is the one the deal names (zone: the loser) or else the next seat
    clockwise (R3). The stake and duel's doubling cube start at 1 and in the middle and
    carry over from deal to deal. The party ends when a deal names its winner or after
    ``max_deals`` deals (R8.2c, UNFINISHED); the game settles it.
    """
    n = book.players
    scores = [book.start] * n  # R8.1
    resets = [0] * n
    prokats = [0] * n
    stake, cube = 1, C.NO_SEAT
    dealer = 0
    winner, end_kind, deals = C.NO_SEAT, int(EndKind.UNFINISHED), 0
    for d in range(book.max_deals):
        key = int(party_deal_key(seed, party, d))
        result = game.play_deal(book, specs, key, dealer, scores, shuffle(book, key), stake=stake, cube=cube)
        rec = result.record
        deals += 1
        for s in range(n):
            scores[s] += rec.delta[s]  # R7.5
            resets[s] += int(rec.overshoot[s])  # R8.3
            prokats[s] += int(rec.prokat[s])
        stake, cube = rec.stake, result.cube
        if rec.ends_party >= 0:
            winner, end_kind = rec.ends_party, rec.end_kind
            break
        dealer = result.next_dealer if result.next_dealer >= 0 else (dealer + 1) % n
    return PartyRecord(
        deals=deals,
        scores=tuple(scores),
        winner=winner,
        end_kind=end_kind,
        settlement=game.settlement(book, scores, winner, stake, prokats),
        resets=tuple(resets),
        stake=stake,
    )
