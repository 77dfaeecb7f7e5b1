"""The fast engine's Python API: validate, seed, allocate, call the kernels, read results.

Functions here mirror :mod:`rams_sim.reference` (docs/ENGINE.md §9) so tests run one
body against both engines; :func:`simulate` and :func:`simulate_parties` are the bulk
entry points the CLI and analyses use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import cards as C
from .games import GAMES
from .kernels import codes, drivers, output
from .kernels.args import rules_args
from .kernels.play import legal_mask
from .kernels.rng import deal_key
from .kernels.search import search_on
from .kernels.trick import trick_winner as _trick_winner
from .parallel import in_blocks
from .policies import PolicyKind, PolicySpec, check_table_game, pack_policies, seat_policies
from .record import DealOutcome, DealRecord, PartyRecord, Trick
from .rules import Rules

_STATUS_TEXT = {
    codes.ERR_DISCARD: "a policy discarded more cards than the talon holds, or cards it does not hold (R4.4)",
    codes.ERR_TRUMP_DISCARD: "a dealer gave up a card he does not hold for the trump card (R4.3)",
    codes.ERR_CARD: "a policy played an illegal card (R6.8)",
}


# the largest blocks of rows the kernel threads take (rams_sim.parallel): a few milliseconds each
DEALS_PER_BLOCK = 8192
PARTIES_PER_BLOCK = 256
NO_ORDER = np.empty(0, np.int8)  # play_deals: shuffle each deck from its key
NO_KEYS = np.empty(0, np.uint64)  # play_deals: key each deal by (seed, deal)


class PolicyError(RuntimeError):
    """A policy made a move the rules do not allow (never raised by the built-in policies)."""


def _policy_arrays(rules: Rules, policies) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    specs = seat_policies(policies, rules.players)
    check_table_game(rules, specs)
    return pack_policies(specs)


def _search(kinds: np.ndarray):
    """The drivers' ``search`` argument: a :data:`Search` when a seat plays pimc, else None
    (then nothing of the search is compiled)."""
    return search_on() if (kinds == int(PolicyKind.PIMC)).any() else None


@dataclass(frozen=True)
class DealOut:
    """The kernels' results for a batch of deals, with a named view for every column.

    Per-seat views (``delta``, ``tricks``, ``hand_dealt``, …) have shape
    ``(n_deals, n_seats)``; per-deal views (``dealer``, ``outcome``, …) ``(n_deals,)``.
    The play log ``play_card`` is ``(n_log, N_TRICKS, n_seats)`` with ``play_leader`` and
    ``play_winner`` ``(n_log, N_TRICKS)``; ``n_log`` is 0 unless the log was asked for.
    """

    sets: np.ndarray  # uint64[n_deals, len(OUT_SETS), n]
    seat: np.ndarray  # int8[n_deals, len(OUT_SEAT), n]
    delta: np.ndarray  # int16[n_deals, n]
    deal: np.ndarray  # int8[n_deals, len(OUT_DEAL)]
    log: np.ndarray  # int8[n_log, N_TRICKS, n + 2]

    @classmethod
    def empty(cls, n_deals: int, n_seats: int, log_plays: bool = False) -> DealOut:
        """Allocate outputs for ``n_deals`` deals of ``n_seats`` seats."""
        return cls(
            np.zeros((n_deals, len(output.OUT_SETS), n_seats), np.uint64),
            np.zeros((n_deals, len(output.OUT_SEAT), n_seats), np.int8),
            np.zeros((n_deals, n_seats), np.int16),
            np.zeros((n_deals, len(output.OUT_DEAL)), np.int8),
            np.zeros((n_deals if log_plays else 0, C.N_TRICKS, n_seats + 2), np.int8),
        )

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """The output arrays in the order the kernels take them."""
        return (self.sets, self.seat, self.delta, self.deal, self.log)

    def __getattr__(self, name: str) -> np.ndarray:
        if name in output.OUT_SETS:
            return self.sets[:, output.OUT_SETS.index(name), :]
        if name in output.OUT_SEAT:
            return self.seat[:, output.OUT_SEAT.index(name), :]
        if name in output.OUT_DEAL:
            return self.deal[:, output.OUT_DEAL.index(name)]
        n = self.delta.shape[1]
        if name == "play_card":
            return self.log[:, :, :n]
        if name == "play_leader":
            return self.log[:, :, n]
        if name == "play_winner":
            return self.log[:, :, n + 1]
        raise AttributeError(name)

    def __len__(self) -> int:
        return self.delta.shape[0]


def new_deal_out(n_deals: int, n_seats: int, log_plays: bool = False) -> DealOut:
    """Allocate a :class:`DealOut` for ``n_deals`` deals of ``n_seats`` seats."""
    return DealOut.empty(n_deals, n_seats, log_plays)


def _check_status(status: np.ndarray, first_deal: int, seed: int) -> None:
    bad = np.flatnonzero(status)
    if bad.size:
        i = int(bad[0])
        raise PolicyError(f"deal {first_deal + i} of seed {seed}: {_STATUS_TEXT.get(int(status[i]), 'error')}")


def simulate(
    rules: Rules,
    policies: PolicySpec | str | Sequence[PolicySpec | str] = "basic",
    *,
    seed: int = 0,
    deals: int = 1000,
    first_deal: int = 0,
    dealer: int | None = None,
    log_plays: bool = False,
    out: DealOut | None = None,
) -> DealOut:
    """Play deals ``first_deal .. first_deal + deals - 1`` with the kernels (R8.2b single deals).

    Parameters
    ----------
    rules : Rules
    policies : one policy for every seat, or one per seat (``PolicySpec`` or text).
    seed : int, the run's seed; deal ``d`` is keyed ``deal_key(seed, d)``.
    deals : int, how many deals.
    dealer : fixed dealer seat, or ``None`` to rotate (``d % players``).
    log_plays : also fill ``play_card``/``play_leader``/``play_winner``.
    out : outputs to fill instead of new ones (``new_deal_out(deals, players, log_plays)``
        shaped): every row is overwritten, so one allocation can serve many chunks.

    Returns
    -------
    DealOut with per-seat arrays of shape ``(deals, players)``.
    """
    if deals < 0:
        raise ValueError(f"deals must be non-negative; got {deals}")
    if dealer is not None and not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat 0..{rules.players - 1}; got {dealer}")
    kinds, params, announce = _policy_arrays(rules, policies)
    if out is None:
        out = new_deal_out(deals, rules.players, log_plays)
    elif out.delta.shape != (deals, rules.players) or out.log.shape[0] != (deals if log_plays else 0):
        raise ValueError(f"out holds {out.delta.shape[0]} deals of {out.delta.shape[1]} seats; {deals} of {rules.players} asked")
    scores = np.full(rules.players, rules.start, np.int64)
    fixed = -1 if dealer is None else dealer
    args = (rules_args(rules), kinds, params, announce, np.uint64(seed), first_deal, fixed, scores, NO_ORDER, NO_KEYS,
            *out.arrays, _search(kinds))  # fmt: skip
    in_blocks(lambda lo, hi: drivers.play_deals(*args, lo, hi), deals, DEALS_PER_BLOCK)
    _check_status(out.status, first_deal, seed)
    return out


def record_of(out: DealOut, i: int) -> DealRecord:
    """The :class:`DealRecord` of row ``i`` of a :class:`DealOut`."""
    n = out.hand_dealt.shape[1]

    def seats(column, kind=int):
        return tuple(kind(v) for v in column[i, :n])

    plays: tuple[Trick, ...] = ()
    if out.play_card.shape[0] > i:
        plays = tuple(
            Trick(int(out.play_leader[i, t]), seats(out.play_card[:, t]), int(out.play_winner[i, t]))
            for t in range(C.N_TRICKS)
            if out.play_leader[i, t] >= 0
        )
    return DealRecord(
        dealer=int(out.dealer[i]),
        trump_card=int(out.trump_card[i]),
        hand_dealt=seats(out.hand_dealt),
        passed=seats(out.passed, bool),
        discards=seats(out.discards),
        drawn=seats(out.drawn),
        took_trump=seats(out.took_trump, bool),
        trump_discard=seats(out.trump_discard),
        hand_final=seats(out.hand_final),
        jacks=seats(out.jacks),
        declaration=seats(out.declaration),
        tricks=seats(out.tricks),
        delta=seats(out.delta),
        overshoot=seats(out.overshoot, bool),
        outcome=int(out.outcome[i]),
        ends_party=int(out.ends_party[i]),
        end_kind=int(out.end_kind[i]),
        plays=plays,
        intent=seats(out.intent),
        widow=int(out.widow[i]),
        stake=int(out.stake[i]),
        redeals=int(out.redeals[i]),
        fine=seats(out.fine),
        dave=seats(out.dave),
        prokat=seats(out.prokat, bool),
    )


def _scores(rules: Rules, scores) -> np.ndarray:
    """The seats' scores before a deal; a score no party reaches before a deal is refused (Rules.check_scores)."""
    if scores is None:
        return np.full(rules.players, rules.start, np.int64)
    return np.array(rules.check_scores(scores), dtype=np.int64)


def _mask(hand) -> int:
    """A hand given as card ids or as a mask, as a mask."""
    return int(hand) if isinstance(hand, (int, np.integer)) else C.mask_of(hand)


def _order(rules: Rules, order) -> np.ndarray:
    if order is None:
        return NO_ORDER
    arr = np.asarray(order, dtype=np.int8)
    if sorted(arr.tolist()) != C.deck_cards(rules.deck_size).tolist():
        raise ValueError(f"order must be a permutation of the {rules.deck_size}-card deck")
    return arr


def play_deal(rules: Rules, policies="basic", *, seed=0, deal=0, dealer=None, scores=None, order=None, key=None) -> DealRecord:
    """Play one deal with the kernels and return its record, play log included (ENGINE.md §9)."""
    dealer = deal % rules.players if dealer is None else dealer
    key = deal_key(seed, deal) if key is None else key
    kinds, params, announce = _policy_arrays(rules, policies)
    out = new_deal_out(1, rules.players, log_plays=True)
    drivers.play_deals(
        rules_args(rules), kinds, params, announce, np.uint64(seed), deal, dealer, _scores(rules, scores),
        _order(rules, order), np.array([key], np.uint64), *out.arrays, _search(kinds), 0, 1,
    )  # fmt: skip (one row of the bulk driver: the same compiled code as a run)
    _check_status(out.status, deal, seed)
    return record_of(out, 0)


@dataclass(frozen=True)
class PartyOut:
    """The kernels' results for a batch of parties (R8); per-seat arrays are ``(n_parties, n_seats)``."""

    deals: np.ndarray  # int32[n_parties]: deals played
    scores: np.ndarray  # int32[n_parties, n]: final scores
    winner: np.ndarray  # int8[n_parties]: seat, or -1 when unfinished
    end_kind: np.ndarray  # int8[n_parties]: EndKind code
    settlement: np.ndarray  # float64[n_parties, n]: R8.4
    resets: np.ndarray  # int16[n_parties, n]: R8.3 overshoots
    stake: np.ndarray  # int16[n_parties]: the stake the party was settled at (dave; 1 without)
    status: np.ndarray  # int8[n_parties]

    @classmethod
    def empty(cls, n_parties: int, n_seats: int) -> PartyOut:
        """Allocate outputs for ``n_parties`` parties."""
        return cls(
            deals=np.zeros(n_parties, np.int32),
            scores=np.zeros((n_parties, n_seats), np.int32),
            winner=np.zeros(n_parties, np.int8),
            end_kind=np.zeros(n_parties, np.int8),
            settlement=np.zeros((n_parties, n_seats), np.float64),
            resets=np.zeros((n_parties, n_seats), np.int16),
            stake=np.zeros(n_parties, np.int16),
            status=np.zeros(n_parties, np.int8),
        )


def simulate_parties(rules: Rules, policies="basic", *, seed: int = 0, parties: int = 100, first_party: int = 0) -> PartyOut:
    """Play parties ``first_party .. first_party + parties - 1`` (R8) with the kernels."""
    if parties < 0:
        raise ValueError(f"parties must be non-negative; got {parties}")
    kinds, params, announce = _policy_arrays(rules, policies)
    out = PartyOut.empty(parties, rules.players)
    args = (
        rules_args(rules), kinds, params, announce, np.uint64(seed), first_party,
        out.deals, out.scores, out.winner, out.end_kind, out.settlement, out.resets, out.stake, out.status, _search(kinds),
    )  # fmt: skip
    in_blocks(lambda lo, hi: drivers.play_parties(*args, lo, hi), parties, PARTIES_PER_BLOCK)
    _check_status(out.status, first_party, seed)
    return out


def party_record_of(out: PartyOut, i: int) -> PartyRecord:
    """The :class:`PartyRecord` of row ``i`` of a :class:`PartyOut`."""
    return PartyRecord(
        deals=int(out.deals[i]),
        scores=tuple(int(v) for v in out.scores[i]),
        winner=int(out.winner[i]),
        end_kind=int(out.end_kind[i]),
        settlement=tuple(float(v) for v in out.settlement[i]),
        resets=tuple(int(v) for v in out.resets[i]),
        stake=int(out.stake[i]),
    )


def play_party(rules: Rules, policies="basic", *, seed=0, party=0) -> PartyRecord:
    """Play one party with the kernels and return its record."""
    return party_record_of(simulate_parties(rules, policies, seed=seed, parties=1, first_party=party), 0)


@dataclass(frozen=True)
class BranchOut:
    """Every option of one decision of one seat, deal by deal (``rams-sim branch``, :mod:`rams_sim.decisions`).

    One entry per (deal, option) the rules open to the seat at a decision he reached, deals
    ascending, options in the driver's order. ``option``: int8, the option as taken: for the
    exchange -1 pass, 0 stand, else a bit mask over his dealt cards in ascending id order (zone's
    swap, duel's widow: 0 or 31; modern's turn as :mod:`rams_sim.kernels.games.modern` numbers it);
    for ``trump`` -1 declined, else the card he gave up; for a card, the card; for ``redeal``,
    ``offer``, ``answer``: 0 or 1. Card sets are uint64 masks. ``decision``: the decision's name.
    """

    deal: np.ndarray  # int64
    option: np.ndarray  # int8
    hand_dealt: np.ndarray  # uint64
    discards: np.ndarray  # uint64
    drawn: np.ndarray  # uint64
    hand_final: np.ndarray  # uint64
    dealer: np.ndarray  # int8
    trump_card: np.ndarray  # int8
    passed: np.ndarray  # bool
    took_trump: np.ndarray  # bool
    declaration: np.ndarray  # int8
    tricks: np.ndarray  # int8
    outcome: np.ndarray  # int8
    delta: np.ndarray  # int16
    ends_party: np.ndarray  # int8: the seat whose party the deal ended (R5.7, R8.2, R8.3, duel), or -1
    stake: np.ndarray  # int16: the party's stake after the deal (duel's dave doubles it; 1 without)
    exchanged: np.ndarray  # int8[rows, players]: every seat's exchange as the table saw it (-1 passed, else the count)
    took_trump_seats: np.ndarray  # int8[rows, players]: who took the trump card (R4.3; public)
    intents: np.ndarray  # int8[rows, players]: every seat's R4.0a announcement (record.Intent codes)
    dave_offers: np.ndarray  # int8[rows, players]: the dave offers each seat made (duel)
    declarations: np.ndarray  # int8[rows, players]: every seat's declaration (record.Declaration codes, R5)
    widow: np.ndarray  # int8: the seat that took the widow, -1 none (duel, modern, zone)
    decision: str = "exchange"
    play_card: np.ndarray | None = None  # int8[rows, N_TRICKS, players] with log_plays: cards by seat, -1 none
    play_leader: np.ndarray | None = None  # int8[rows, N_TRICKS]: -1 for a trick not played
    play_winner: np.ndarray | None = None  # int8[rows, N_TRICKS]

    def __len__(self) -> int:
        return self.deal.shape[0]


def simulate_branches(
    rules: Rules, policies="basic", *, seat: int, seed: int = 0, deals: int = 1000, first_deal: int = 0,
    dealer: int | None = None, orders=None, decision="exchange", log_plays: bool = False,
) -> BranchOut:  # fmt: skip
    """Replay deals ``first_deal ..`` once per option of ``decision`` open to ``seat``, everyone else
    on his policy, on the same deck order and coins; ``seat`` plays every other decision with his
    own policy (:mod:`rams_sim.decisions`; a row forced to the option his policy takes equals the
    plain run's deal, tests/test_branch.py).

    ``decision``: a name (``exchange``, ``trump``, ``card:T``, ``redeal``, ``offer:T``,
    ``answer:T``) or a :class:`rams_sim.decisions.BranchDecision`; the default is the exchange (pass
    where R4.1 allows it, stand, every discard set the talon allows, R4.4; the game's first
    decision elsewhere). ``orders``: optional deck orders, one per deal (int[deals, deck_size],
    each a permutation of the deck), replayed instead of the deals' shuffles (coins still keyed
    by (seed, deal)). ``log_plays``: keep each row's play log (``play_card`` ...)."""
    from .decisions import BranchDecision, parse_decision

    if deals < 0:
        raise ValueError(f"deals must be non-negative; got {deals}")
    if not 0 <= seat < rules.players:
        raise ValueError(f"seat must be 0..{rules.players - 1}; got {seat}")
    if dealer is not None and not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat 0..{rules.players - 1}; got {dealer}")
    chosen = decision if isinstance(decision, BranchDecision) else parse_decision(str(decision), rules)
    kinds, params, announce = _policy_arrays(rules, policies)
    option_lo, per_deal = chosen.option_range()
    rows = deals * per_deal
    n = rules.players
    valid = np.zeros(rows, np.bool_)
    sets = np.zeros((rows, 4), np.uint64)
    small = np.zeros((rows, 10), np.int8)
    delta = np.zeros(rows, np.int16)
    public = np.zeros((rows, drivers.N_PUBLIC, n), np.int8)
    taken = np.zeros(rows, np.int8)
    logs = np.zeros((rows if log_plays else 0, C.N_TRICKS, C.MAX_SEATS + 2), np.int8)
    scores = np.full(n, rules.start, np.int64)
    fixed = -1 if dealer is None else dealer
    given = np.zeros((0, 0), np.int8)
    if orders is not None:
        given = np.stack([_order(rules, o) for o in orders]) if len(orders) else given
        if given.shape[0] != deals:
            raise ValueError(f"{given.shape[0]} deck orders given for {deals} deals")
    args = (
        rules_args(rules), kinds, params, announce, np.uint64(seed), first_deal, fixed, seat, chosen.number(seat),
        option_lo, per_deal, scores, valid, sets, small, delta, _search(kinds), given, public, taken, logs,
    )  # fmt: skip
    errors = sum(in_blocks(lambda lo, hi: drivers.play_branches(*args, lo, hi), deals, max(1, DEALS_PER_BLOCK // per_deal)))
    if errors:
        raise PolicyError(f"{errors} replays of seed {seed} from deal {first_deal} hit a policy error")
    keep = np.flatnonzero(valid)
    play = {}
    if log_plays:
        kept = logs[keep]
        played = kept[:, :, C.MAX_SEATS] >= 0  # a trick not played has no leader
        play = dict(play_card=np.where(played[:, :, None], kept[:, :, :n], C.NO_CARD).astype(np.int8),
                    play_leader=kept[:, :, C.MAX_SEATS], play_winner=np.where(played, kept[:, :, C.MAX_SEATS + 1], -1).astype(np.int8))  # fmt: skip
    return BranchOut(
        deal=(first_deal + keep // per_deal).astype(np.int64), option=taken[keep],
        hand_dealt=sets[keep, 0], discards=sets[keep, 1], drawn=sets[keep, 2], hand_final=sets[keep, 3],
        dealer=small[keep, 0], trump_card=small[keep, 1], passed=small[keep, 2] != 0, took_trump=small[keep, 3] != 0,
        declaration=small[keep, 4], tricks=small[keep, 5], outcome=small[keep, 6], delta=delta[keep],
        ends_party=small[keep, 7], stake=small[keep, 8].astype(np.int16),
        exchanged=public[keep, drivers.PUBLIC_EXCHANGED], took_trump_seats=public[keep, drivers.PUBLIC_TOOK_TRUMP],
        intents=public[keep, drivers.PUBLIC_INTENT], dave_offers=public[keep, drivers.PUBLIC_DAVE],
        declarations=public[keep, drivers.PUBLIC_DECL],
        widow=small[keep, 9], decision=chosen.name, **play,
    )  # fmt: skip


def _rams_game_only(rules: Rules, what: str, follows: bool) -> None:
    """R6.7a and R5-R8 are the rams game's: the other games of R9 have their own (docs/VARIANTS.md);
    ``follows``: whether ``rules.game`` keeps the rams game's rules ``what`` reads (its registry entry)."""
    if not follows:
        raise ValueError(f"{what} follows the rams game's rules; preset {rules.preset} plays {rules.game.value}")


def legal_cards(rules: Rules, hand, trump: int, trick, q_duty: bool = False) -> list[int]:
    """The legal cards (ascending ids) of ``hand`` for ``trick`` so far (R6.7a)."""
    _rams_game_only(rules, "legal_cards", GAMES[rules.game].duty_to_follow)  # R6 (zone has no duty to follow)
    trick_arr = np.full(C.MAX_SEATS, C.NO_CARD, np.int8)
    trick_arr[: len(trick)] = list(trick)
    mask = legal_mask(
        np.uint64(_mask(hand)), trick_arr, len(trick), trump, bool(q_duty),
        rules.ruff.value == "overtrump", bool(rules.must_head), bool(rules.ace_covers_face),
    )  # fmt: skip
    return C.cards_of(int(mask))


def trick_winner(trump: int, trick) -> int:
    """Index in ``trick`` (led card first) of the card that wins it (R6.4)."""
    return int(_trick_winner(np.asarray(trick, np.int8), len(trick), trump))


def settle_deal(
    rules: Rules, *, dealer, trump, hands_dealt, hands_final, active, scores=None, trick_winners=(), announce=None
) -> DealOutcome:
    """R5 step 4 to R8.3 for given hands and trick winners (ENGINE.md §9), with the kernels."""
    _rams_game_only(rules, "settle_deal", GAMES[rules.game].classic_scoring)
    n = rules.players
    out = new_deal_out(1, n, log_plays=True)
    announce_arr = np.ones(n, np.int8) if announce is None else np.asarray(announce, np.int8)
    drivers.settle_given(
        rules_args(rules), announce_arr, dealer, trump,
        np.array([_mask(h) for h in hands_dealt], np.uint64),
        np.array([_mask(h) for h in hands_final], np.uint64),
        np.asarray(active, np.int64), _scores(rules, scores), np.asarray(trick_winners, np.int64),
        *out.arrays,
    )  # fmt: skip
    rec = record_of(out, 0)
    return DealOutcome(rec.jacks, rec.declaration, rec.tricks, rec.delta, rec.overshoot, rec.outcome, rec.ends_party, rec.end_kind)
