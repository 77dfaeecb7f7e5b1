"""The ``table`` policy's strategy table: pass or play, and how many cards to exchange (R4),
by hand class and position, per table size.

A seat that plays ``table`` decides its pass (R4.1) and its exchange (R4.4) by looking up
its dealt hand's *class* at its *position* in a table; every other decision (the R4.0a
announcement, the dealer's trump card, R4.3, and every card) is ``expert``'s, with
``expert``'s parameters. The table shipped with the package (``rams_sim/data/table.csv``)
was found by iterated best response on ``rams-sim branch`` data (``make table``,
``analyses/table_policy.py``); ``table:file=PATH`` plays any other table of the same form.

*Class* of a five-card hand (the trump suit known, the turned-up card not counted):

* ``aces`` 0, 1, 2 (2 = two or more);
* ``trumps`` 0, 1, 2, 3 (3 = three or more);
* ``top``: the highest trump, 0 none, 1 ten or lower, 2 jack or queen, 3 king or ace;
* ``jack_pair``: 1 when the hand holds a jack pair or four jacks (R5.5), else 0;
* ``longest``: the longest suit, 2, 3, 4 (4 = four or five).

*Position*: 0 is the first seat to decide (left of the dealer), ``players - 1`` the dealer.

*Actions* (``action``; ``play`` is the action used when passing is chosen but not open,
and is never ``pass``): ``pass``; ``stand``; ``x1`` .. ``x5``: discard the k weakest
cards; ``low``: discard every plain card below a king; ``plain``: discard every plain card
but aces. *Weakest first*: plain (non-trump) cards other than aces by rank, then plain aces,
then trumps by rank, ties by card id. On a short talon (R4.4) the seat discards as many of
its chosen cards as the talon serves, weakest first.

The CSV has one row per ``players``, ``position`` and class (``N_CLASSES`` rows per
position, every class present, possible or not) with columns
``players, position, aces, trumps, top, jack_pair, longest, action, play``.

Kernel form (:func:`cells`): one float per (position, class), ``PLAY code + PASS_FLAG`` if
the cell passes, in the policy's parameter row from :data:`TABLE_BASE` on, at index
``TABLE_BASE + position * N_CLASSES + class_index``.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import cards as C

SHIPPED = Path(__file__).parent / "data" / "table.csv"
SHIPPED_NAME = "shipped"  # the spec's text for the package's own table

# ---- classes ---------------------------------------------------------------------------
DIMS = ("aces", "trumps", "top", "jack_pair", "longest")
DIM_VALUES = {"aces": (0, 1, 2), "trumps": (0, 1, 2, 3), "top": (0, 1, 2, 3), "jack_pair": (0, 1),
              "longest": (2, 3, 4)}  # fmt: skip
MAX_ACES, MAX_TRUMPS, MIN_LONGEST, MAX_LONGEST = 2, 3, 2, 4
TOP_NONE, TOP_LOW, TOP_MID, TOP_HIGH = 0, 1, 2, 3
N_CLASSES = 3 * 4 * 4 * 2 * 3  # the product of the dimensions' sizes: 288

# ---- actions ---------------------------------------------------------------------------
PASS, STAND, LOW, PLAIN = "pass", "stand", "low", "plain"
WEAKEST = tuple(f"x{k}" for k in range(1, C.HAND_SIZE + 1))
PLAYS = (STAND, *WEAKEST, LOW, PLAIN)  # code = index: stand 0, x<k> k, low 6, plain 7
PLAY_CODE = {a: i for i, a in enumerate(PLAYS)}
CODE_STAND, CODE_LOW, CODE_PLAIN = PLAY_CODE[STAND], PLAY_CODE[LOW], PLAY_CODE[PLAIN]
PASS_FLAG = 8  # added to a cell's play code when the cell passes
ACTIONS = (PASS, *PLAYS)
COLUMNS = ("players", "position", *DIMS, "action", "play")


def class_index(aces: int, trumps: int, top: int, jack_pair: int, longest: int) -> int:
    """The class's index 0 .. N_CLASSES - 1 from its dimension codes (see the module doc)."""
    return (((aces * 4 + trumps) * 4 + top) * 2 + jack_pair) * 3 + (longest - MIN_LONGEST)


def all_classes() -> list[tuple[int, int, int, int, int]]:
    """Every class as its dimension codes, in index order."""
    return [(a, t, p, j, g) for a in DIM_VALUES["aces"] for t in DIM_VALUES["trumps"] for p in DIM_VALUES["top"]
            for j in DIM_VALUES["jack_pair"] for g in DIM_VALUES["longest"]]  # fmt: skip


class TableError(ValueError):
    """A strategy table file that cannot be read or is incomplete (one line, for the CLI)."""


@dataclass(frozen=True)
class StrategyTable:
    """A loaded table: ``codes[players]`` int8[players, N_CLASSES] (play code + PASS_FLAG if it
    passes), ``name`` (``shipped`` or the file's path) and ``sha256`` of the file's bytes."""

    codes: dict
    name: str
    sha256: str

    @property
    def sizes(self) -> tuple[int, ...]:
        """The table sizes (players) the file covers."""
        return tuple(sorted(self.codes))

    def cells(self, players: int) -> np.ndarray:
        """float64[players * N_CLASSES]: the kernel form for a table of ``players``."""
        if players not in self.codes:
            have = ", ".join(map(str, self.sizes)) or "none"
            raise TableError(f"strategy table {self.name} has no rows for {players} players (it has: {have})")
        return self.codes[players].reshape(-1).astype(np.float64)

    def action(self, players: int, position: int, cls: int) -> tuple[str, str]:
        """(action, play) of one cell, as words."""
        code = int(self.codes[players][position, cls])
        play = PLAYS[code % PASS_FLAG]
        return (PASS if code >= PASS_FLAG else play), play


def _parse(text: str, name: str) -> dict:
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise TableError(f"strategy table {name} lacks column(s) {', '.join(missing)}; it needs {', '.join(COLUMNS)}")
    codes: dict[int, np.ndarray] = {}
    seen: dict[int, np.ndarray] = {}
    for line, row in enumerate(reader, start=2):
        try:
            players, position, *dims = (int(row[c]) for c in ("players", "position", *DIMS))
        except ValueError:
            raise TableError(f"strategy table {name}, line {line}: players, position and classes must be integers") from None
        if not C.MIN_SEATS <= players <= C.MAX_SEATS or not 0 <= position < players:
            raise TableError(f"strategy table {name}, line {line}: no position {position} at a table of {players}")
        for dim, value in zip(DIMS, dims):
            if value not in DIM_VALUES[dim]:
                raise TableError(f"strategy table {name}, line {line}: {dim} must be one of {DIM_VALUES[dim]}; got {value}")
        action, play = row["action"].strip(), row["play"].strip()
        if action not in ACTIONS or play not in PLAYS:
            raise TableError(f"strategy table {name}, line {line}: action must be one of {', '.join(ACTIONS)} and play "
                             f"one of {', '.join(PLAYS)}; got {action!r}, {play!r}")  # fmt: skip
        if action != PASS and action != play:
            raise TableError(f"strategy table {name}, line {line}: a cell that plays ({action}) must have it as its play")
        if players not in codes:
            codes[players] = np.zeros((players, N_CLASSES), np.int8)
            seen[players] = np.zeros((players, N_CLASSES), bool)
        cls = class_index(*dims)
        if seen[players][position, cls]:
            raise TableError(f"strategy table {name}, line {line}: a second row for the same players, position and class")
        seen[players][position, cls] = True
        codes[players][position, cls] = PLAY_CODE[play] + (PASS_FLAG if action == PASS else 0)
    if not codes:
        raise TableError(f"strategy table {name} has no rows")
    for players, got in seen.items():
        if not got.all():
            raise TableError(f"strategy table {name} lacks {int((~got).sum())} of the {got.size} cells for {players} "
                             f"players (every position and class needs a row)")  # fmt: skip
    return codes


@lru_cache(maxsize=16)
def load(path: str = SHIPPED_NAME) -> StrategyTable:
    """The table of file ``path`` (``shipped``: the package's own), validated; raises TableError."""
    file = SHIPPED if path == SHIPPED_NAME else Path(path)
    try:
        data = file.read_bytes()
    except OSError as err:
        raise TableError(f"cannot read strategy table {path}: {err.strerror or err}") from None
    return StrategyTable(_parse(data.decode("utf-8"), path), path, hashlib.sha256(data).hexdigest())


def write(rows: list[dict], path: Path, extra: tuple[str, ...] = ()) -> None:
    """Write table rows (dicts with :data:`COLUMNS`, sorted) as the CSV form :func:`load` reads,
    plus the informative columns ``extra`` (which :func:`load` ignores)."""
    rows = sorted(rows, key=lambda r: (r["players"], r["position"], class_index(*(r[d] for d in DIMS))))
    fields = (*COLUMNS, *extra)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        for row in rows:
            w.writerow({c: row[c] for c in fields})
