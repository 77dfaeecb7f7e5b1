"""The Parquet data of a run: columns, codes, and the tables built from kernel output.

``rams-sim run`` writes one row per (deal, seat), ``rams-sim party`` one row per
(party, seat). The column lists below are the single source of the schema: the table
builders, the tests and README.md's column reference all follow them.

Card masks are uint64 with bit ``suit * 13 + rank`` (rank 0 = deuce … 12 = ace; suits
0–3 = ♠♣♦♥), as in :mod:`rams_sim.cards`. Codes are those of :mod:`rams_sim.record` and
:class:`rams_sim.policies.PolicyKind`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from .. import cards as C
from ..engine import BranchOut, DealOut, PartyOut
from ..kernels.columns import chunk_sums, fill_deal_columns
from ..policies import PolicyKind
from ..record import Declaration, EndKind, Intent, Outcome

SCHEMA_VERSION = 3  # 2: the intent column (R4.0a); 3: the R9 games' columns (widow .. prokat, party stake)
NO_SEAT = -1  # ends_party / winner when nobody


def codes(enum) -> str:
    """The codes of an IntEnum as text: ``0 none, 1 jack pair, …`` (for the column meanings)."""
    return ", ".join(f"{m.value} {m.name.lower().replace('_', ' ')}" for m in enum)


@dataclass(frozen=True)
class Column:
    """One column of a table: its name, polars dtype and meaning."""

    name: str
    dtype: type[pl.DataType]
    meaning: str


# columns that mean the same in several tables
PLAYERS = Column("players", pl.Int8, "players at the table")
TRUMP = Column("trump", pl.Int8, "trump suit 0-3 = ♠♣♦♥")
DECLARATION = Column("declaration", pl.Int8, f"what the seat declared (R5): {codes(Declaration)}")
OUTCOME = Column("outcome", pl.Int8, f"how the deal went: {codes(Outcome)}")

DEAL_COLUMNS: tuple[Column, ...] = (
    Column("deal", pl.Int64, "deal index d; its randomness is keyed by (seed, d)"),
    Column("seat", pl.Int8, "seat 0..players-1; seat (dealer + 1) % players leads the exchange (R4)"),
    Column("dealer", pl.Int8, "the dealer's seat (rotates d % players unless --dealer fixes it)"),
    PLAYERS,
    Column("policy", pl.Int8, f"policy code of the seat: {codes(PolicyKind)} (parameters in the metadata)"),
    TRUMP,
    Column("trump_card", pl.Int8, "the turned-up card, id suit*13 + rank (R3)"),
    Column("hand_dealt", pl.UInt64, "card mask of the five cards dealt to the seat"),
    Column("hand_final", pl.UInt64, "card mask of the hand at the first lead (after R4.3); the dealt hand for a passer"),
    Column("passed", pl.Boolean, "the seat passed (R4.1)"),
    Column("discarded", pl.Int8, "cards discarded in the exchange (R4.4); the trump-card swap is not counted"),
    Column("took_trump", pl.Boolean, "the dealer took the trump card into his hand (R4.3; false in modern, where the trump card is his own)"),
    Column("aces", pl.Int8, "bit mask of the suits of the aces in hand_final (bit s = the ace of suit s)"),
    DECLARATION,
    Column("tricks", pl.Int8, "tricks taken (0-5)"),
    Column("delta", pl.Int16, "score change of the deal (R7): negative = written off, positive = written on (remiz, rams)"),
    OUTCOME,
    Column("ends_party", pl.Int8, "seat that reached zero and so ended the party in this deal (R8.2b), or -1"),
    Column("intent", pl.Int8, f"the seat's announcement (R4.0a, option intent_round; preset negotiations): {codes(Intent)}"),
    Column("widow", pl.Int8, "seat that took the widow (presets duel, duel-trump, modern, zone), or -1"),
    Column("stake", pl.Int8, "the party's stake multiplier after the deal (duel's dave, doubling); 1 without"),
    Column("redeals", pl.Int8, "redeals demanded before the deal was played (modern: a dealt five of a suit)"),
    Column("fine", pl.Int8, "points written on to the seat for a broken duty (zone's lead duty), included in delta"),
    Column("dave", pl.Int8, "doublings (dave) the seat offered in the deal (duel)"),
    Column("prokat", pl.Boolean, "the seat pays the прокат, a fixed payment for taking no trick (zone)"),
)

# with --log-plays: the cards of the tricks, per seat
PLAY_COLUMNS: tuple[Column, ...] = tuple(
    Column(f"card{t + 1}", pl.Int8, f"card the seat played to trick {t + 1}, or -1") for t in range(C.N_TRICKS)
) + (
    Column("led", pl.Int8, "bit mask of the tricks the seat led (bit t = trick t + 1)"),
    Column("won", pl.Int8, "bit mask of the tricks the seat won (bit t = trick t + 1)"),
)

BRANCH_COLUMNS: tuple[Column, ...] = (
    Column("deal", pl.Int64, "deal index d, keyed by (seed, d) as in run"),
    Column("seat", pl.Int8, "the seat whose options are branched (--seat)"),
    Column("dealer", pl.Int8, "the dealer's seat"),
    PLAYERS,
    Column("policy", pl.Int8, f"the seat's policy code: {codes(PolicyKind)} (it plays the cards)"),
    TRUMP,
    Column("trump_card", pl.Int8, "the turned-up card"),
    Column("hand_dealt", pl.UInt64, "card mask of the seat's five dealt cards"),
    Column("option", pl.Int8, "the option replayed: of the exchange -1 pass, 0 stand, 1-31 a discard mask over the dealt "
           "cards in ascending id order (bit j = the j-th lowest card id); of --decision trump -1 declined, else the card "
           "given up; of card:T the card played; of redeal, offer:T, answer:T 0 or 1 (keep/redeal, no offer/offer, "
           "decline/accept); the run's provenance names the decision"),  # fmt: skip
    Column("passed", pl.Boolean, "the option is a pass"),
    Column("discards", pl.UInt64, "card mask of the cards discarded (R4.4)"),
    Column("drawn", pl.UInt64, "card mask of the cards drawn from the talon"),
    Column("took_trump", pl.Boolean, "the seat, as dealer, took the trump card (R4.3: his policy decides, unless --decision trump)"),
    Column("hand_final", pl.UInt64, "card mask of the hand at the first lead (the dealt hand after a pass)"),
    DECLARATION,
    Column("tricks", pl.Int8, "tricks the seat took"),
    Column("delta", pl.Int16, "the seat's score change of the deal (R7): negative = written off"),
    OUTCOME,
    Column("ends_party", pl.Int8, "the seat whose party the deal ended (R5.7, R8.2, R8.3; duel: any declaration, a "
           "declined dave, a trick to zero), or -1; a single deal from the start score"),  # fmt: skip
    Column("stake", pl.Int16, "the party's stake after the deal (duel's dave doubles it); 1 without"),
)

PARTY_COLUMNS: tuple[Column, ...] = (
    Column("party", pl.Int64, "party index p; deal d of it is keyed by (seed, p, d)"),
    Column("seat", pl.Int8, "seat 0..players-1; seat 0 deals first"),
    PLAYERS,
    Column("policy", pl.Int8, f"policy code of the seat: {codes(PolicyKind)}"),
    Column("deals", pl.Int32, "deals played in the party"),
    Column("score", pl.Int32, "the seat's final score (R8: counts down from start; 0 or below wins)"),
    Column("winner", pl.Int8, "the party's winner (the same in every row of the party), or -1 if unfinished"),
    Column("won", pl.Boolean, "this seat won the party"),
    Column("end_kind", pl.Int8, f"how the party ended: {codes(EndKind)}"),
    Column("settlement", pl.Float64, "the seat's settlement (R8.4, option settle): positive = received"),
    Column("resets", pl.Int16, "times the seat overshot zero and was reset (R8.3)"),
    Column("stake", pl.Int16, "the stake the party was settled at (duel's dave, doubling); 1 without"),
)


def readme_table(columns: tuple[Column, ...]) -> str:
    """The Markdown table README.md shows for a column list (a test keeps the two equal)."""
    rows = [f"| `{c.name}` | {str(c.dtype()).lower()} | {c.meaning} |" for c in columns]
    return "\n".join(["| column | type | meaning |", "|---|---|---|", *rows])


def schema(columns: tuple[Column, ...]) -> dict[str, type[pl.DataType]]:
    """The polars schema (name -> dtype) of a column list."""
    return {c.name: c.dtype for c in columns}


def deal_columns(log_plays: bool) -> tuple[Column, ...]:
    """The columns of a deal table, with or without the play log."""
    return DEAL_COLUMNS + (PLAY_COLUMNS if log_plays else ())


_NUMPY = {pl.Int64: np.int64, pl.Int32: np.int32, pl.Int16: np.int16, pl.Int8: np.int8, pl.UInt64: np.uint64,
          pl.Boolean: np.bool_, pl.Float64: np.float64}  # fmt: skip


def deal_table(out: DealOut, first_deal: int, policy_codes: np.ndarray) -> pl.DataFrame:
    """One row per (deal, seat) of ``out``, deals ``first_deal ..`` (DEAL_COLUMNS order).

    ``policy_codes``: int8[players], each seat's :class:`PolicyKind`. The columns are
    filled by :func:`rams_sim.kernels.columns.fill_deal_columns`; PLAY_COLUMNS are added when
    ``out`` holds a play log.
    """
    n, p = out.delta.shape
    data = {c.name: np.empty(n * p, _NUMPY[c.dtype]) for c in DEAL_COLUMNS}
    fill_deal_columns(first_deal, out.sets, out.seat, out.delta, out.deal, np.asarray(policy_codes, np.int8), *data.values())
    if out.play_card.shape[0] == n and n > 0:
        seats = np.arange(p, dtype=np.int8)
        for t in range(C.N_TRICKS):  # a trick not played (leader -1) has no cards
            played = out.play_leader[:, t, None] >= 0
            data[f"card{t + 1}"] = np.where(played, out.play_card[:, t, :], C.NO_CARD).astype(np.int8).reshape(-1)
        bits = (1 << np.arange(C.N_TRICKS)).astype(np.int8)  # int8[5]
        led = (out.play_leader[:, :, None] == seats) * bits[None, :, None]  # (n, 5, p)
        winner = np.where(out.play_leader >= 0, out.play_winner, C.NO_SEAT)  # unplayed tricks have no winner
        won = (winner[:, :, None] == seats) * bits[None, :, None]
        data["led"] = led.sum(axis=1, dtype=np.int8).reshape(-1)
        data["won"] = won.sum(axis=1, dtype=np.int8).reshape(-1)
    columns = deal_columns("card1" in data)
    return pl.DataFrame({c.name: data[c.name] for c in columns}, schema=schema(columns))


def deal_chunk_sums(table: pl.DataFrame) -> dict:
    """The exact sums a deals table adds to its run's summary (:mod:`rams_sim.runs.summary`):
    ``n``, ``delta_sum`` and ``delta_sq_sum`` by seat (lists, seat order, the seats present)
    and the count of every declaration code present."""
    n_seats, n_codes = C.MAX_SEATS, max(Declaration) + 1
    seat, delta, declaration = (table[c].to_numpy() for c in ("seat", "delta", "declaration"))
    count, total, squares, codes = chunk_sums(seat, delta, declaration, n_seats, n_codes)
    seats = [s for s in range(n_seats) if count[s]]
    return {
        "seats": seats, "n": [int(count[s]) for s in seats], "delta_sum": [int(total[s]) for s in seats],
        "delta_sq_sum": [int(squares[s]) for s in seats],
        "declarations": {str(c): int(codes[c]) for c in range(n_codes) if codes[c]},
    }  # fmt: skip


def party_table(out: PartyOut, first_party: int, policy_codes: np.ndarray) -> pl.DataFrame:
    """One row per (party, seat) of ``out``, parties ``first_party ..`` (PARTY_COLUMNS order)."""
    n, p = out.scores.shape
    seats = np.arange(p, dtype=np.int8)
    data = {
        "party": np.repeat(np.arange(first_party, first_party + n, dtype=np.int64), p),
        "seat": np.tile(seats, n),
        "players": np.full(n * p, p, np.int8),
        "policy": np.tile(np.asarray(policy_codes, np.int8), n),
        "deals": np.repeat(out.deals, p),
        "score": out.scores.reshape(-1),
        "winner": np.repeat(out.winner, p),
        "won": (out.winner[:, None] == seats[None, :]).reshape(-1),
        "end_kind": np.repeat(out.end_kind, p),
        "settlement": out.settlement.reshape(-1),
        "resets": out.resets.reshape(-1),
        "stake": np.repeat(out.stake, p),
    }
    return pl.DataFrame({c.name: data[c.name] for c in PARTY_COLUMNS}, schema=schema(PARTY_COLUMNS))


def branch_table(out: BranchOut, seat: int, players: int, policy_code: int) -> pl.DataFrame:
    """One row per (deal, option) of ``out`` (BRANCH_COLUMNS order)."""
    rows = len(out)
    data = {
        "deal": out.deal,
        "seat": np.full(rows, seat, np.int8),
        "dealer": out.dealer,
        "players": np.full(rows, players, np.int8),
        "policy": np.full(rows, policy_code, np.int8),
        "trump": (out.trump_card // C.RANKS_PER_SUIT).astype(np.int8),
        "trump_card": out.trump_card,
        "hand_dealt": out.hand_dealt,
        "option": out.option,
        "passed": out.passed,
        "discards": out.discards,
        "drawn": out.drawn,
        "took_trump": out.took_trump,
        "hand_final": out.hand_final,
        "declaration": out.declaration,
        "tricks": out.tricks,
        "delta": out.delta,
        "outcome": out.outcome,
        "ends_party": out.ends_party,
        "stake": out.stake,
    }
    return pl.DataFrame({c.name: data[c.name] for c in BRANCH_COLUMNS}, schema=schema(BRANCH_COLUMNS))
