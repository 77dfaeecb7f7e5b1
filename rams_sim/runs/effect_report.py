"""``rams-sim effect --report PATH.md``: a rule change's paired effect as a Markdown page.

The page: the question in words, a one-sentence answer with its numbers, a table (each measure:
the baseline, the variant, the paired difference with its 95% interval, n), a figure (the
paired differences of the score delta with their intervals, by variant, and by the ``--by``
key where given) saved beside it as PNG, and the provenance (version, commit, seed, deals,
rules, policies, run folders). ``make reports`` can include such a page as it is.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from .effect import MEASURE_WORDS, RATE_MEASURES
from .provenance import now_utc, software

WORDS = MEASURE_WORDS | {"delta": MEASURE_WORDS["delta"] + " (negative = written off)"}


def _num(x: float | None, rate: bool) -> str:
    if x is None:
        return "–"
    text = f"{x:.2%}" if rate else f"{x:+.4f}"
    return text.replace("-", "−")


def _ci(row: dict, rate: bool) -> str:
    if row["ci_low"] is None:
        return _num(row["diff"], rate)
    return f"{_num(row['diff'], rate)} [{_num(row['ci_low'], rate)}, {_num(row['ci_high'], rate)}]"


def _clear(row: dict) -> bool:
    return row["ci_low"] is not None and (row["ci_low"] > 0 or row["ci_high"] < 0)


def write_report(path: Path, tables: list[dict], seed: int) -> Path:
    """Write the page for the tables of ``rams-sim effect`` (:mod:`rams_sim.cli.effect`) to ``path``
    and its figure beside it; returns the figure's path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    first = tables[0]
    rules, names, unit = first["rules"], first["names"], "parties" if first["parties"] else "deals"
    main = "length" if first["parties"] else "delta"
    sizes = ", ".join(str(t["rules"].players) for t in tables)
    lines = [f"# {' / '.join(f'`{n}`' for n in names)} against {rules.preset}", ""]
    lines.append(f"**The question.** What changes, for players who play {first['players_text']}, when the rules of "
                 f"{rules.preset} at {sizes} players are changed to {' or '.join(f'`{n}`' for n in names)}? Each "
                 f"{unit[:-1] if unit == 'deals' else 'party'} is played under both rules from the same deck order "
                 "and the same coins, so the difference is paired deal by deal.")  # fmt: skip
    lines.append("")
    answers = []
    for t in tables:
        for name, changed in zip(t["names"], t["changed"]):
            row = t["rows"].filter((pl.col("variant") == name) & (pl.col("measure") == main)).row(0, named=True)
            verdict = "changes it clearly" if _clear(row) else "does not change it measurably"
            answers.append(f"at {t['rules'].players} players `{name}` {verdict}: {WORDS[main]} "
                           f"{_num(row['baseline'], False)} → {_num(row['value'], False)}, paired difference "
                           f"{_ci(row, False)} over {t['units']:,} {unit}, of which {changed / max(t['units'], 1):.1%} "
                           "changed at all")  # fmt: skip
    text = "; ".join(answers)
    lines.append("**The answer.** " + text[:1].upper() + text[1:] + ".")
    lines.append("")
    joint = len(names) > 1
    for t in tables:
        lines.append(f"## {t['rules'].players} players")
        lines.append("")
        lines.append("| variant | measure | baseline | variant's | paired difference (95% CI) | n |")
        lines.append("|---|---|---:|---:|---:|---:|")
        for row in t["rows"].iter_rows(named=True):
            if row["measure"].startswith("decl_") and row["baseline"] == 0 and row["value"] == 0:
                continue
            rate = row["measure"] in RATE_MEASURES or row["measure"].startswith("decl_")
            lines.append(f"| `{row['variant']}` | {WORDS.get(row['measure'], row['measure'])} | "
                         f"{_num(row['baseline'], rate)} | {_num(row['value'], rate)} | {_ci(row, rate)} | "
                         f"{row['n']:,} |")  # fmt: skip
        lines.append("")
    if joint:
        lines.append("With several variants, each row's interval is for that comparison alone; the command's "
                     "summary widens them to hold jointly where it names the largest effect (Bonferroni).")  # fmt: skip
        lines.append("")
    figure = path.with_suffix(".png")
    _figure(tables, main, figure)
    lines += [f"![the paired differences]({figure.name})", "",
              "**Provenance.** " + _provenance(tables, seed), ""]  # fmt: skip
    path.write_text("\n".join(lines), encoding="utf-8")
    return figure


def _provenance(tables: list[dict], seed: int) -> str:
    sw = software()
    runs = ", ".join(f"`{t['path'].name}`" for t in tables)
    return (f"rams-sim {sw['version']} (commit {sw['git_commit'] or 'unknown'}), seed {seed}, "
            f"{tables[0]['units']:,} {'parties' if tables[0]['parties'] else 'deals'} a table size; rules "
            f"{tables[0]['rules'].preset} (hash {tables[0]['rules'].digest()}); run folders {runs}; written "
            f"{now_utc()}.")  # fmt: skip


def _figure(tables: list[dict], measure: str, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels, diffs, lows, highs = [], [], [], []
    for t in tables:
        frame = t["by_rows"] if t["by_rows"] is not None else t["rows"]
        for row in frame.filter(pl.col("measure") == measure).iter_rows(named=True):
            cell = ", ".join(f"{k} {row[k]}" for k in t["by"]) if t["by_rows"] is not None else "all seats"
            size = f"{t['rules'].players}p, " if len(tables) > 1 else ""
            labels.append(f"{row['variant']}\n{size}{cell}")
            diffs.append(row["diff"])
            lows.append(row["diff"] - (row["ci_low"] if row["ci_low"] is not None else row["diff"]))
            highs.append((row["ci_high"] if row["ci_high"] is not None else row["diff"]) - row["diff"])
    height = max(2.5, 0.45 * len(labels) + 1.2)
    fig, ax = plt.subplots(figsize=(7.5, height), dpi=110)
    ys = list(range(len(labels)))[::-1]
    ax.errorbar(diffs, ys, xerr=[lows, highs], fmt="o", color="#0072B2", ecolor="#0072B2", capsize=3)
    ax.axvline(0, color="#555555", linewidth=0.8)
    ax.set_yticks(ys, labels, fontsize=10)
    ax.set_xlabel(f"paired difference, {WORDS[measure]} (95% CI)", fontsize=10)
    ax.tick_params(axis="x", labelsize=10)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
