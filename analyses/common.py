"""What every analysis shares: the datasets it reads, estimates with intervals, and the page it writes.

* :class:`Data` names one simulation (a :class:`rams_sim.runner.RunSpec` at full size);
  :class:`Context` makes sure it exists under the data folder (an existing run of the
  same provenance is reused, an interrupted one resumed) and scans it with polars.
* :func:`mean_by` / :func:`prop_by` turn a lazy frame into one row per group with its
  sample size and 95% interval (normal for means, Wilson for proportions, as
  CLARIFICATIONS.md asks); :func:`mean_estimate`, :func:`share`, :func:`quantile_estimate`,
  :func:`paired_difference` and :func:`unpaired_difference` give one :class:`Estimate` of
  independent units; :func:`fmt` prints an estimate as ``−14.21 [−14.35, −14.07]``.
  Rows that share a deal (seat-deals) need the clustered estimates of
  :mod:`analyses.clustered` instead.
* Expressions several pages share: :data:`GAIN`, :data:`REMIZ` (R7.2) and
  :func:`one_against_others` (e.g. the dealer's gain minus the mean of the other players).
* :class:`Page` collects a question's answer, tables and figures and renders Markdown
  with the provenance of every dataset it used.

Signs: the data's ``delta`` is the change of the score, which counts *down* (R7.5:
negative = written off = good). The pages report **gain = −delta**, points written off
per deal, so that higher is better; every page says so.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from rams_sim import __version__
from rams_sim.policies import PolicySpec
from rams_sim.record import Outcome
from rams_sim.rules import PRESETS, Rules
from rams_sim.runner import RunError, RunSpec, execute, read_manifest
from rams_sim.summary import Z95, Estimate, wilson, wilson_bounds

SCALE_ENV = "RAMS_REPORT_SCALE"
MIN_COUNT = 2_000  # the smallest dataset a scaled-down (test) report builds
GAIN = -pl.col("delta").cast(pl.Float64)  # points written off per deal: higher is better
GAIN_WORDS = "gain = points written off the score per deal (−delta; higher is better)"
# R7.2: a remiz is an active player's played deal with no trick (a pass or a deal ended before play is none)
REMIZ = ~pl.col("passed") & (pl.col("outcome") == int(Outcome.PLAYED)) & (pl.col("tricks") == 0)


# ---- datasets ------------------------------------------------------------------------
@dataclass(frozen=True)
class Data:
    """One simulation a report reads: ``count`` deals, parties or branched deals at full size."""

    name: str
    kind: str  # runner.DEALS, PARTIES or BRANCHES
    rules: Rules
    count: int
    seed: int
    policies: tuple[str, ...] = ("basic",)
    seat: int | None = None  # branches: the seat whose options are replayed
    dealer: int | None = None  # None: the dealer rotates d % players

    def spec(self, scale: float = 1.0) -> RunSpec:
        """The run at ``scale`` times the full size (at least MIN_COUNT units)."""
        count = max(MIN_COUNT, int(round(self.count * scale)))
        policies = tuple(PolicySpec.parse(p) for p in self.policies)
        if len(policies) == 1:  # one policy for every seat
            policies = policies * self.rules.players
        return RunSpec(self.kind, self.rules, policies, self.seed, count, seat=self.seat, dealer=self.dealer)


def report_scale() -> float:
    """The size factor of every dataset: ``RAMS_REPORT_SCALE`` (default 1; tests use less)."""
    text = os.environ.get(SCALE_ENV, "1")
    try:
        scale = float(text)
    except ValueError:
        raise ValueError(f"{SCALE_ENV} must be a number; got {text!r}") from None
    if not 0 < scale <= 10:
        raise ValueError(f"{SCALE_ENV} must be in (0, 10]; got {scale}")
    return scale


class Context:
    """Where the datasets live and how big they are; what the analyses read through."""

    def __init__(self, data_root: Path | str, registry: dict[str, Data], scale: float = 1.0):
        self.root = Path(data_root)
        self.registry = registry
        self.scale = scale

    def path(self, name: str) -> Path:
        """The run folder of dataset ``name``."""
        return self.root / name

    def ensure(self, name: str, progress=None) -> Path:
        """Make dataset ``name`` exist: reuse a complete run of the same provenance, finish an
        interrupted one, and replace one made with other settings."""
        spec = self.registry[name].spec(self.scale)
        out = self.path(name)
        try:
            execute(spec, out, resume=True, progress=progress)
        except RunError:  # a run of other settings (an older registry or scale): replace it
            execute(spec, out, force=True, progress=progress)
        return out

    def scan(self, name: str) -> pl.LazyFrame:
        """Lazy frame over every part of dataset ``name`` (which must exist)."""
        return pl.scan_parquet(self.path(name) / "part-*.parquet")

    def manifest(self, name: str) -> dict:
        """The manifest.json of dataset ``name``."""
        return read_manifest(self.path(name))


# ---- estimates -----------------------------------------------------------------------
def mean_by(lf: pl.LazyFrame | pl.DataFrame, by: list[str], value: pl.Expr, z: float = Z95) -> pl.DataFrame:
    """One row per group of ``by`` (sorted): ``n``, ``mean``, ``se`` and the interval ``lo``, ``hi``
    (normal approximation, ``mean ± z·se``; z = 1.96 gives 95%)."""
    v = value.cast(pl.Float64)
    out = (
        lf.lazy().group_by(by).agg(pl.len().alias("n"), v.mean().alias("mean"), v.std().alias("sd"))
        .sort(by).collect()
    )  # fmt: skip
    se = (pl.col("sd") / pl.col("n").cast(pl.Float64).sqrt()).fill_null(float("nan"))
    return out.with_columns(se.alias("se")).with_columns(
        (pl.col("mean") - z * pl.col("se")).alias("lo"), (pl.col("mean") + z * pl.col("se")).alias("hi")
    ).drop("sd")


def prop_by(lf: pl.LazyFrame | pl.DataFrame, by: list[str], flag: pl.Expr, z: float = Z95) -> pl.DataFrame:
    """One row per group of ``by`` (sorted): ``n``, successes ``k``, proportion ``p`` and its
    Wilson interval ``lo``, ``hi``."""
    agg = [pl.len().alias("n"), flag.cast(pl.Int64).sum().alias("k")]
    out = (lf.lazy().group_by(by).agg(agg) if by else lf.lazy().select(agg)).collect()
    if by:
        out = out.sort(by)
    low, high = wilson_bounds(out["k"].to_numpy(), out["n"].to_numpy(), z)
    return out.with_columns((pl.col("k") / pl.col("n")).alias("p"), pl.Series("lo", low), pl.Series("hi", high))


def mean_estimate(values: np.ndarray | pl.Series) -> Estimate:
    """Mean of a sample of independent units with its 95% normal interval (a paired difference
    is a sample of differences); nulls of a polars Series are dropped."""
    if isinstance(values, pl.Series):
        values = values.drop_nulls().to_numpy()
    x = np.asarray(values, np.float64)
    n = x.size
    mean = float(x.mean()) if n else math.nan
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return Estimate(mean, mean - half, mean + half, n)


def share(flags: pl.Series) -> Estimate:
    """The proportion of true flags (independent units) with its 95% Wilson interval (nulls dropped)."""
    x = flags.drop_nulls()
    return wilson(int(x.sum()), x.len())


def normal(value: float, se: float | None, n: int, z: float = Z95) -> Estimate:
    """An estimate with the normal interval ``value ± z·se`` (se None: no interval)."""
    se = float("nan") if se is None else se
    return Estimate(float(value), value - z * se, value + z * se, int(n))


def paired_difference(before: pl.DataFrame, after: pl.DataFrame, key: str, column: str) -> Estimate:
    """Mean over the units present in both tables (joined on ``key``, nulls dropped) of
    ``after − before`` in ``column``, normal 95% interval: for two datasets of the same units
    (the same seed, so the same deals or parties)."""
    j = before.select(key, column).join(after.select(key, column), on=key, suffix="_v").drop_nulls()
    return mean_estimate((j[f"{column}_v"] - j[column]).to_numpy())


def unpaired_difference(a: Estimate, b: Estimate) -> Estimate:
    """``a − b`` of two independent estimates with normal intervals: the half-widths add in
    quadrature (n = the smaller n). For units that do not pair, e.g. two decks' deals."""
    half = math.hypot(a.half_width, b.half_width)
    value = a.value - b.value
    return Estimate(value, value - half, value + half, min(a.n, b.n))


def quantile_estimate(values: np.ndarray, q: float, z: float = Z95) -> Estimate:
    """The ``q`` quantile of a sample of independent units with its distribution-free
    order-statistic interval: the order statistics of ranks ``(n+1)q ∓ z·√(nq(1−q))``
    (1-based, rounded outwards; the binomial count below the quantile, normal approximation)."""
    x = np.sort(np.asarray(values, np.float64))
    n = x.size
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    centre, half = (n + 1) * q, z * math.sqrt(n * q * (1 - q))
    lo = min(n, max(1, math.floor(centre - half)))
    hi = min(n, max(1, math.ceil(centre + half)))
    return Estimate(float(np.quantile(x, q, method="inverted_cdf")), float(x[lo - 1]), float(x[hi - 1]), n)


def one_against_others(value: pl.Expr, one: pl.Expr) -> pl.Expr:
    """Aggregation over a group of rows (a deal, a party): ``value`` of the row where ``one``
    holds minus the mean ``value`` of the group's other rows, e.g. the dealer's gain minus the
    mean gain of the other players of the deal (a paired difference within the group)."""
    mine = value.filter(one).sum()
    return mine - (value.sum() - mine) / (pl.len() - 1)


def row_estimate(row: dict) -> Estimate:
    """The :class:`Estimate` of one row of :func:`mean_by` or :func:`prop_by`."""
    value = row["mean"] if "mean" in row else row["p"]
    return Estimate(float(value), float(row["lo"]), float(row["hi"]), int(row["n"]))


def simultaneous_z(cells: int, level: float = 0.95) -> float:
    """Normal quantile for ``cells`` Bonferroni-simultaneous two-sided intervals at ``level``."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - (1 - level) / (2 * max(1, cells)))


def chance_misses(cells: int, level: float = 0.95) -> str:
    """The sentence a many-cell table needs: how many intervals miss by chance alone."""
    expected = cells * (1 - level)
    return (f"This table holds {cells} intervals at {level:.0%}: even if every model were right, about "
            f"{expected:.1f} of them would miss the truth by chance alone.")  # fmt: skip


def clear(est: Estimate, versus: float = 0.0) -> bool:
    """Whether the interval excludes ``versus`` (the answer is statistically clear)."""
    return not (est.low <= versus <= est.high)


# ---- formatting ----------------------------------------------------------------------
def num(x: float, digits: int = 2) -> str:
    """A number with a true minus sign, ``digits`` decimals."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    text = f"{x:,.{digits}f}"
    return text.replace("-", "−") if not text.lstrip("-").strip("0.,") == "" else text.replace("-", "")


def fmt(est: Estimate, digits: int = 2, percent: bool = False) -> str:
    """``value [low, high]`` (percent: ×100 with a % sign)."""
    k = 100.0 if percent else 1.0
    unit = "%" if percent else ""
    return f"{num(est.value * k, digits)}{unit} [{num(est.low * k, digits)}, {num(est.high * k, digits)}]"


def fmt_n(n: int) -> str:
    """A whole number with thousands separators (and a true minus sign)."""
    return f"{int(n):,}".replace("-", "−")


def md_table(df: pl.DataFrame, formats: dict[str, object] | None = None) -> str:
    """A Markdown table of ``df``; ``formats`` maps a column to a format function or a
    number of decimals (default: integers with separators, floats with 3 decimals)."""
    formats = formats or {}

    def cell(name: str, value) -> str:
        f = formats.get(name)
        if callable(f):
            return f(value)
        if value is None:
            return "–"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int):
            return fmt_n(value)
        if isinstance(value, float):
            return num(value, f if isinstance(f, int) else 3)
        return str(value)

    head = "| " + " | ".join(df.columns) + " |"
    rule = "|" + "|".join("---" for _ in df.columns) + "|"
    body = ["| " + " | ".join(cell(c, v) for c, v in zip(df.columns, row)) + " |" for row in df.iter_rows()]
    return "\n".join([head, rule, *body])


# ---- pages ---------------------------------------------------------------------------
@dataclass
class Page:
    """One report page: a question, its answer, tables, figures and the provenance of its data."""

    slug: str  # file name without .md, e.g. "1-ace-equity"
    title: str
    question: str
    answer: str = ""  # one or two plain sentences with the headline number and its CI
    blocks: list[str] = field(default_factory=list)
    datasets: list[str] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)

    def text(self, markdown: str) -> None:
        """A paragraph (or any Markdown block)."""
        self.blocks.append(markdown.strip())

    def heading(self, title: str) -> None:
        """A section heading."""
        self.blocks.append(f"## {title}")

    def table(self, df: pl.DataFrame, formats: dict[str, object] | None = None, caption: str = "") -> None:
        """A table, with an optional caption paragraph above it."""
        if caption:
            self.blocks.append(caption.strip())
        self.blocks.append(md_table(df, formats))

    def figure(self, fig, out_dir: Path, stem: str, caption: str) -> None:
        """Save a matplotlib figure as ``figures/<slug>-<stem>.png`` and show it on the page."""
        import matplotlib.pyplot as plt

        figures = Path(out_dir) / "figures"
        figures.mkdir(parents=True, exist_ok=True)
        path = figures / f"{self.slug}-{stem}.png"
        fig.savefig(path, dpi=100, bbox_inches="tight", metadata={"Software": None})
        plt.close(fig)
        self.figures.append(path)
        self.blocks.append(f"![{caption}](figures/{path.name})\n\n*{caption}*")

    def uses(self, *names: str) -> None:
        """Record the datasets the page reads (their provenance is printed at the end)."""
        for name in names:
            if name not in self.datasets:
                self.datasets.append(name)

    def render(self, ctx: Context) -> str:
        """The page as Markdown."""
        if not self.answer:
            raise ValueError(f"page {self.slug} has no answer")
        parts = [f"# {self.title}", f"**Question.** {self.question}", f"**Answer.** {self.answer}", *self.blocks]
        parts += ["## Provenance", provenance_table(ctx, self.datasets)]
        return "\n\n".join(parts) + "\n"


def rules_text(rules: dict) -> str:
    """A rule set as its preset plus the options that differ from the preset's defaults."""
    base = Rules.named(rules["preset"], players=rules["players"]).to_dict()
    changed = [f"{k}={v}" for k, v in rules.items() if k not in ("preset", "players") and base.get(k) != v]
    return f"{rules['preset']}, {rules['players']} players" + (", " + ", ".join(changed) if changed else "")


def policies_text(policies: list[dict]) -> str:
    """Seat policies (manifest form) as ``basic ×4`` or ``expert, basic ×3``: name and the
    parameters that differ from the policy's defaults."""
    names = []
    for p in policies:
        default = PolicySpec.parse(p["policy"]).to_dict()["params"]
        changed = [f"{k}={v:g}" for k, v in p["params"].items() if default.get(k) != v]
        if not p.get("announce", True):
            changed.append("announce=false")
        names.append(p["policy"] + (":" + ",".join(changed) if changed else ""))
    if len(set(names)) == 1:
        return f"{names[0]} ×{len(names)}"
    return ", ".join(names)


def provenance_table(ctx: Context, names: list[str]) -> str:
    """The provenance of each dataset a page used: what was simulated, with which software."""
    rows = []
    for name in names:
        m = ctx.manifest(name)
        run, sw = m["run"], m["software"]
        count = run.get("deals", run.get("parties"))
        extra = f", seat {run['seat']}" if run.get("seat") is not None else ""
        dealer = "" if run["dealer"] == "rotating" else f", dealer fixed at seat {run['dealer']}"
        commit = str(sw.get("git_commit") or "?")
        commit = commit[:10] + ("-dirty" if commit.endswith("-dirty") else "")
        rows.append(
            f"| `{name}` | {run['kind']}{extra}{dealer} | {fmt_n(count)} | {run['seed']} | {rules_text(run['rules'])} | "
            f"{policies_text(run['policies'])} | rams-sim {sw.get('version', '?')} ({commit}) |"
        )
    head = "| dataset | kind | size | seed | rules | policies | made by |\n|---|---|---|---|---|---|---|"
    note = (f"Data under `data/reports/` (not committed; `make reports` rebuilds it from these seeds). "
            f"Analysis by rams-sim {__version__}. Rule presets are those of RULES.md R9 "
            f"({', '.join(p for p, i in PRESETS.items() if i.implemented)}).")  # fmt: skip
    return head + "\n" + "\n".join(rows) + "\n\n" + note
