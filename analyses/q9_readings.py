"""Question 9: where the sources are silent, how much does the reading matter?

Every reading of analyses/readings.py (the R9 rows the sources leave silent, where the
project chose, and the R-options of classic Rams a player could read otherwise) is one
variant of its preset's paired run (``rams-sim effect``, rams_sim/runs/effect.py; datasets
``readings-<preset>-{deals,parties}-<kind>``): each deal and each party is played under the
preset and under the reading from the same key, so every difference is paired and its
interval deal-clustered (a deal's seats are one unit). Per reading and kind of player
(``basic``, ``expert``, the search ``pimc`` at a smaller n):

* the share of deals (and of parties) the reading changes at all: any seat's score, any
  decision, any card;
* the paired effect on the mean score delta at each position of the table, and the
  position where it is largest;
* the paired effect on a party's length (deals), on the first dealer's share of party
  wins, and on his settlement (stakes).

The ranked table tests its intervals together: Bonferroni over every interval of the
table (each reading's positions and its three party measures), so "clear" there means
clear jointly. A reading that changes no deal has every difference exactly 0 by
construction; the page says so instead of reporting a finding.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import polars as pl

from rams_sim.rules import Rules
from rams_sim.runs.effect import read_result
from rams_sim.runs.summary import Estimate

from .common import Context, Page, clear, fmt, fmt_n, magnitude, num
from .data import SEARCH
from .exchange import position_words
from .readings import BASELINES, READINGS, SILENT, Reading, of_preset
from .stats import identical, paired_row, simultaneous_z, widen

KINDS = ("basic", "expert", SEARCH)
DATASETS = tuple(f"readings-{p}-{unit}-{k}" for p in BASELINES for unit in ("deals", "parties") for k in KINDS)
PARTY = ("length", "first_dealer_wins", "settlement")
PARTY_WORDS = {"length": "party length (deals)", "first_dealer_wins": "first dealer's win share",
               "settlement": "first dealer's settlement (stakes)"}  # fmt: skip


def measure(ctx: Context) -> list[dict]:
    """One row per (reading, kind of player): ``changed`` and ``parties_changed`` (shares), per
    position ``pos<i>`` the paired delta difference (an Estimate), ``delta`` over every seat-deal,
    and each of PARTY: the numbers behind the page, 95% intervals one at a time."""
    rows = []
    for preset in BASELINES:
        readings = of_preset(preset)
        names = [r.key for r in readings]
        players = Rules.named(preset).players
        for kind in KINDS:
            deals = read_result(ctx.path(f"readings-{preset}-deals-{kind}"), players, names, ("position",))
            parties = read_result(ctx.path(f"readings-{preset}-parties-{kind}"), players, names, parties=True)
            for v, r in enumerate(readings):
                row = {"reading": r.key, "kind": kind, "preset": preset, "players": players, "deals": deals.units,
                       "changed": deals.changed[v] / deals.units, "parties": parties.units,
                       "parties_changed": parties.changed[v] / parties.units}  # fmt: skip
                mine = deals.by_rows.filter((pl.col("variant") == r.key) & (pl.col("measure") == "delta"))
                for cell in mine.iter_rows(named=True):
                    row[f"pos{cell['position']}"] = paired_row(cell, n="n")
                whole = deals.rows.filter((pl.col("variant") == r.key) & (pl.col("measure") == "delta")).row(0, named=True)
                row["delta"] = paired_row(whole, n="n")
                for cell in parties.rows.filter(pl.col("variant") == r.key).iter_rows(named=True):
                    row[cell["measure"]] = paired_row(cell, n="n")
                rows.append(row)
    return rows


def _largest(row: dict) -> tuple[int, Estimate]:
    """The position whose paired delta difference is largest in size."""
    positions = [(p, row[f"pos{p}"]) for p in range(row["players"]) if f"pos{p}" in row]
    return max(positions, key=lambda pe: abs(pe[1].value))


def _intervals(rows: list[dict]) -> int:
    """How many intervals a kind's ranked table holds (each reading: its positions and PARTY)."""
    return sum(r["players"] + len(PARTY) for r in rows)


def _words(key: str) -> str:
    """A reading named in words, with its game and its option text."""
    r = next(x for x in READINGS if x.key == key)
    return f"“{r.other}” ({r.preset}, `{r.text}`)"


def _share(x: float) -> str:
    """A share of deals or parties as a percentage, with a digit more below 0.1%."""
    return f"{x * 100:.1f}%" if x >= 0.001 else f"{x * 100:.3f}%"


def _pp(est: Estimate) -> str:
    """A share's difference in percentage points."""
    return f"{num(est.value * 100, 2)} pp [{num(est.low * 100, 2)}, {num(est.high * 100, 2)}]"


def _party_text(row: dict, key: str, z: float) -> str:
    est = widen(row[key], z)
    return _pp(est) if key == "first_dealer_wins" else fmt(est, 3)


def ranked(rows: list[dict], kind: str) -> tuple[pl.DataFrame, float]:
    """The ranked table of one kind of player: readings by the size of their largest position
    effect (ties: the share of deals changed), intervals simultaneous over the whole table."""
    mine = [r for r in rows if r["kind"] == kind]
    z = simultaneous_z(_intervals(mine))
    by_key = {r.key: r for r in READINGS}
    mine.sort(key=lambda r: (-abs(_largest(r)[1].value), -r["changed"]))
    out = []
    for r in mine:
        reading = by_key[r["reading"]]
        pos, est = _largest(r)
        joint = widen(est, z)
        zero = r["changed"] == 0
        out.append({
            "reading": f"{reading.other} ({reading.section}; `{reading.text}`)",
            "game": r["preset"],
            "deals changed": _share(r["changed"]),
            "largest effect on the mean score delta": "0 (no deal changes)" if zero else
            f"{position_words(r['players'])[pos]}: {fmt(joint, 3)}{' ✓' if clear(joint) else ''}",
            **{PARTY_WORDS[k]: ("0 (no party changes)" if r["parties_changed"] == 0 else
                                "0 (unchanged in every party)" if identical(r[k]) else
                                _party_text(r, k, z) + (" ✓" if clear(widen(r[k], z)) else ""))
               for k in PARTY},
            "n deals / parties": f"{fmt_n(r['deals'])} / {fmt_n(r['parties'])}",
        })  # fmt: skip
    return pl.DataFrame(out), z


def sentence(reading: Reading, rows: list[dict], zs: dict[str, float]) -> str:
    """One plain sentence (two at most) on how much ``reading`` matters, from the three kinds' rows."""
    by_kind = {r["kind"]: r for r in rows if r["reading"] == reading.key}
    basic = by_kind["basic"]
    head = f"**{reading.other[0].upper() + reading.other[1:]}** instead of {reading.today} ({reading.section}, " \
           f"{reading.preset})"
    if all(r["changed"] == 0 and r["parties_changed"] == 0 for r in by_kind.values()):
        return f"{head}: changes no deal and no party for any of the players, so it does not matter to them."
    if all(r["changed"] == 0 for r in by_kind.values()):
        if basic["parties_changed"] == 0:
            return f"{head}: changes no deal and no party among basic players."
        words = {"length": ("the length by", "deals"), "first_dealer_wins": ("the first dealer's win share by", ""),
                 "settlement": ("his settlement by", "stakes")}  # fmt: skip
        moved = [f"{words[k][0]} {_pp(est) if k == 'first_dealer_wins' else fmt(est, 3)} {words[k][1]}".rstrip()
                 for k in PARTY if not identical(est := widen(basic[k], zs["basic"]))]  # fmt: skip
        what = " and ".join(moved) if moved else "none of the party measures"
        return (f"{head}: changes no deal played from the starting scores (every deal of a deals run is the first "
                f"of a party), but {_share(basic['parties_changed'])} of basic's parties: it moves {what}.")
    parts = []
    for kind in KINDS:
        r = by_kind[kind]
        if r["changed"] == 0:
            parts.append(f"none of {kind}'s deals")
            continue
        pos, est = _largest(r)
        joint = widen(est, zs[kind])
        verdict = (f"moves the {position_words(r['players'])[pos]}'s mean by {fmt(joint, 3)} points a deal"
                   if clear(joint) else "moves no position's mean measurably")  # fmt: skip
        parts.append(f"{_share(r['changed'])} of {kind}'s deals and {verdict}")
    length = widen(basic["length"], zs["basic"])
    wins = widen(basic["first_dealer_wins"], zs["basic"])
    tail = []
    if clear(length):
        tail.append(f"parties {'lengthen' if length.value > 0 else 'shorten'} by {fmt(magnitude(length), 3)} deals")
    if clear(wins):
        tail.append(f"the first dealer's win share moves {_pp(wins)}")
    party = "; among basic players " + " and ".join(tail) if tail else "; party length and the first dealer's wins " \
        "do not move measurably among basic players"
    return f"{head}: changes " + "; ".join(parts) + party + "."


def dealer_trump_fact(rows: list[dict], zs: dict[str, float]) -> str:
    """The player's guide's nearest measure of the dealer's trump card (R4.3): the reading that he must take it,
    among `basic` players (the share of deals it changes, the largest position effect, simultaneous interval)."""
    r = next(x for x in rows if x["reading"] == "dealer-must-take" and x["kind"] == "basic")
    pos, est = _largest(r)
    joint = widen(est, zs["basic"])
    small = max(abs(joint.low), abs(joint.high)) < 0.1
    return (f"The nearest measure (page 9) is a rule, not a dealer's choice measured hand by hand: where the dealer "
            f"must take the turned-up trump card instead of choosing, `basic` players' deals change in "
            f"{_share(r['changed'])} of deals (n = {fmt_n(r['deals'])} deals, every position), and the most moved "
            f"position, the {position_words(r['players'])[pos]}, moves by {fmt(joint, 3)} points a deal (simultaneous "
            "95% interval)" + (", less than a tenth of a point." if small else "."))


def figure(rows: list[dict], zs: dict[str, float]):
    """Each reading's largest position effect under each kind of player, simultaneous intervals."""
    order = [r["reading"] for r in sorted((r for r in rows if r["kind"] == "basic"),
                                          key=lambda r: abs(_largest(r)[1].value))]  # fmt: skip
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(order) + 1.2))
    colours = {"basic": "#0072B2", "expert": "#E69F00", SEARCH: "#009E73"}  # Okabe-Ito: colour-blind safe
    for k, kind in enumerate(KINDS):
        for i, key in enumerate(order):
            r = next(x for x in rows if x["reading"] == key and x["kind"] == kind)
            _, est = _largest(r)
            joint = widen(est, zs[kind])
            y = i + (k - 1) * 0.22
            if not math.isnan(joint.low):
                ax.plot([joint.low, joint.high], [y, y], color=colours[kind], lw=1.5)
            ax.plot([joint.value], [y], "o", color=colours[kind], ms=4, label=kind if i == 0 else None)
    ax.axvline(0, color="#444444", lw=0.8)
    ax.set_yticks(range(len(order)), order, fontsize=10)
    ax.set_xlabel("largest paired effect on a position's mean score delta (points a deal)", fontsize=10)
    ax.legend(fontsize=10, loc="lower right")
    ax.tick_params(axis="x", labelsize=10)
    fig.tight_layout()
    return fig


def build(ctx: Context, out_dir: Path) -> Page:
    page = Page("9-readings", "9. Where the sources are silent: how much each reading matters",
                "Where a source says nothing (R9's rows for duel, modern and zone) the project chose a reading, "
                "and where a rule could be read two ways RULES.md made it an option. How much does each choice "
                "change the game: the deals, each position's score, the length of a party and who wins it?")
    page.uses(*DATASETS)
    rows = measure(ctx)
    zs = {kind: simultaneous_z(_intervals([r for r in rows if r["kind"] == kind])) for kind in KINDS}
    table, _ = ranked(rows, "basic")
    basic = [r for r in rows if r["kind"] == "basic"]
    top = max(basic, key=lambda r: abs(_largest(r)[1].value))
    idle = [r for r in READINGS if all(x["changed"] == 0 for x in rows if x["reading"] == r.key)]
    clear_n = sum(clear(widen(_largest(r)[1], zs["basic"])) for r in basic)
    top_reading = next(r for r in READINGS if r.key == top["reading"])
    pos, est = _largest(top)
    page.answer = (
        f"Of {len(READINGS)} readings, {clear_n} move some position's mean score measurably among `basic` players "
        f"(simultaneous 95% intervals). The largest is {top_reading.other} ({top_reading.section}, "
        f"{top_reading.preset}): the {position_words(top['players'])[pos]} "
        f"{fmt(widen(est, zs['basic']), 3)} points a deal, {_share(top['changed'])} of deals changed. "
        f"{len(idle)} change no deal played from the starting scores for any of the players "
        f"({', '.join(f'`{r.text}`' for r in idle) or 'none'}); the page says which of them change parties."
    )
    silent = [r for r in basic if next(x for x in READINGS if x.key == r["reading"]).kind == SILENT]
    most_changed = max(silent, key=lambda r: r["changed"])
    page.takeaways = [
        f"The reading that matters most is {top_reading.other} ({top_reading.section}): "
        f"{fmt(widen(est, zs['basic']), 3)} points a deal for the {position_words(top['players'])[pos]}.",
        f"Of the silent readings, {_words(most_changed['reading'])} changes the most deals: "
        f"{_share(most_changed['changed'])} of them among basic players.",
        f"{len(idle)} of {len(READINGS)} readings change no deal played from the starting scores for these "
        "players: there their differences are 0 by construction, not a measured zero (some act later in a party).",
    ]
    page.heading("The ranked table")
    page.text("Each reading against its preset on the same deals and parties (`rams-sim effect`), `basic` at every "
              "seat. *Deals changed*: any seat's score, decision or card differs. The effects are paired "
              "differences, reading minus preset; ✓ marks an interval that excludes 0. The intervals are "
              f"simultaneous over all {_intervals(basic)} of the table (Bonferroni), so a ✓ holds jointly.")  # fmt: skip
    link = page.data_file(_numbers(rows), out_dir, "effects")
    page.table(table, caption=f"Ranked by the size of the largest position effect. The numbers for every kind of "
                              f"player, one interval at a time, are in {link}.")  # fmt: skip
    page.figure(figure(rows, zs), out_dir, "effects",
                "The largest position effect of each reading, under basic, expert and searching players "
                "(simultaneous 95% intervals per kind of player).")
    page.heading("One sentence per reading")
    page.text("\n".join(f"- {sentence(r, rows, zs)}" for r in READINGS))
    for r in READINGS:  # the player's guide quotes the sentence on overtrump (reports/index.html)
        if r.key == "overtrump":
            page.facts["overtrump"] = sentence(r, rows, zs)
    page.facts["dealer_trump_card"] = dealer_trump_fact(rows, zs)
    for kind in KINDS[1:]:
        t, _ = ranked(rows, kind)
        page.heading(f"The same under `{kind}` players")
        n = next(r for r in rows if r["kind"] == kind)
        page.table(t, caption=f"`{kind}` at every seat{' (the search at a smaller n: ' + fmt_n(n['deals']) + ' deals)' if kind == SEARCH else ''}; "
                              "intervals simultaneous over the table.")  # fmt: skip
    return page


def _numbers(rows: list[dict]) -> pl.DataFrame:
    """Every estimate as numbers, one row per (reading, kind, measure): for the CSV beside the page."""
    out = []
    for r in rows:
        for key, est in r.items():
            if isinstance(est, Estimate):
                measure = f"delta_position_{key[3:]}" if key.startswith("pos") else key
                out.append({"reading": r["reading"], "game": r["preset"], "players": r["kind"], "measure": measure,
                            "estimate": est.value, "ci_low": est.low, "ci_high": est.high, "n": est.n,
                            "deals_changed": r["changed"], "parties_changed": r["parties_changed"]})  # fmt: skip
    return pl.DataFrame(out)
