"""What every analysis shares: the datasets it reads, estimates with intervals, and the page it writes.

* :class:`Data` names one simulation (a :class:`rams_sim.runs.runner.RunSpec` at full size);
  :class:`Context` makes sure it exists under the data folder (an existing run of the
  same provenance is reused, an interrupted one resumed) and scans it with polars.
* Estimates (in :mod:`analyses.stats`, re-exported here): :func:`mean_by` / :func:`prop_by` turn a lazy frame into one row per group with its
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
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from rams_sim._version import __version__
from rams_sim.policies import PolicyKind, PolicySpec
from rams_sim.record import Outcome
from rams_sim.rules import PRESETS, Rules
from rams_sim.runs.runner import RunError, RunSpec, execute, read_manifest
from rams_sim.runs.summary import Z95, Estimate, wilson, wilson_bounds  # noqa: F401  (re-exported for the pages)

from .stats import (  # noqa: F401  (re-exported: the pages import them from here)
    chance_misses,
    clear,
    leader,
    magnitude,
    mean_by,
    mean_estimate,
    normal,
    one_against_others,
    paired_difference,
    prop_by,
    quantile_estimate,
    row_estimate,
    share,
    simultaneous_z,
    unpaired_difference,
    widen,
)

SCALE_ENV = "RAMS_REPORT_SCALE"
MIN_COUNT = 2_000  # the smallest dataset a scaled-down (test) report builds
SEARCH_CHUNK = 2_000  # a searching table's chunk: an interrupted `make reports` keeps every finished one
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
    variants: tuple[Rules, ...] = ()  # paired (rams_sim.runs.effect): each unit also played under these rules
    by: tuple[str, ...] = ()  # paired deals: the cells (rams_sim.runs.effect.PAIRED_KEYS)
    log_plays: bool = False  # deals: add the cards of every trick (rams_sim.runs.dataset.PLAY_COLUMNS)

    def spec(self, scale: float = 1.0) -> RunSpec:
        """The run at ``scale`` times the full size (at least MIN_COUNT units)."""
        count = max(MIN_COUNT, round(self.count * scale))
        policies = tuple(PolicySpec.parse(p) for p in self.policies)
        if len(policies) == 1:  # one policy for every seat
            policies = policies * self.rules.players
        searching = any(p.kind == PolicyKind.PIMC for p in policies)  # minutes a chunk: resume keeps them
        return RunSpec(self.kind, self.rules, policies, self.seed, count, seat=self.seat, dealer=self.dealer,
                       chunk_size=SEARCH_CHUNK if searching else 0, variants=self.variants, by=self.by,
                       log_plays=self.log_plays)  # fmt: skip


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


ARCHIVE = Path(__file__).resolve().parent.parent / "archive"  # the committed datasets of searching players


def searching(data: Data) -> bool:
    """Whether a seat of dataset ``data`` searches (``pimc``): such datasets cost minutes a chunk, so the
    repository keeps them under :data:`ARCHIVE` (``make archive``) and ``make reports`` starts from them."""
    return any(PolicySpec.parse(p).kind == PolicyKind.PIMC for p in data.policies)


class Context:
    """Where the datasets live and how big they are; what the analyses read through. ``archive``: a folder
    of committed run folders (:data:`ARCHIVE`) that a missing dataset is copied from before it is checked
    (the copy is reused only if its provenance is the registry's, as any run under ``data_root`` is)."""

    def __init__(self, data_root: Path | str, registry: dict[str, Data], scale: float = 1.0,
                 archive: Path | None = ARCHIVE):
        self.root = Path(data_root)
        self.registry = registry
        self.scale = scale
        self.archive = archive

    def path(self, name: str) -> Path:
        """The run folder of dataset ``name``."""
        return self.root / name

    def ensure(self, name: str, progress=None) -> Path:
        """Make dataset ``name`` exist: reuse a complete run of the same provenance, finish an
        interrupted one, and replace one made with other settings."""
        spec = self.registry[name].spec(self.scale)
        out = self.path(name)
        archived = self.archive / name if self.archive is not None else None
        if archived is not None and (archived / "manifest.json").is_file() and not out.exists():
            shutil.copytree(archived, out)
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


# ---- formatting ----------------------------------------------------------------------
def num(x: float, digits: int = 2) -> str:
    """A number with a true minus sign, ``digits`` decimals."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    text = f"{x:,.{digits}f}"
    return text.replace("-", "−") if text.lstrip("-").strip("0.,") != "" else text.replace("-", "")


def fmt(est: Estimate, digits: int = 2, percent: bool = False) -> str:
    """``value [low, high]`` (percent: ×100 with a % sign)."""
    k = 100.0 if percent else 1.0
    unit = "%" if percent else ""
    return f"{num(est.value * k, digits)}{unit} [{num(est.low * k, digits)}, {num(est.high * k, digits)}]"


def across_players(page: Page, what: str, estimates: dict[str, Estimate], datasets: dict[str, str],
                   digits: int = 2, percent: bool = False, versus: float | None = 0.0, heading: bool = True) -> str:
    """A page's headline ``what`` measured under each kind of player (name -> Estimate, basic first), shown as
    a small table (with each dataset's name) under the heading "Does it hold for other players?"; returns the
    sentence for the answer. The answer *holds* when every interval excludes ``versus`` on the side of basic's
    estimate (``versus`` None: a level with no yes-or-no conclusion; the values are only reported)."""
    if heading:
        page.heading("Does it hold for other players?")
    page.table(pl.DataFrame({"players at every seat": [f"`{k}`" for k in estimates],
                             "dataset": [f"`{datasets[k]}`" for k in estimates],
                             "n": [e.n for e in estimates.values()],
                             what: [fmt(e, digits, percent) for e in estimates.values()]}),  # fmt: skip
               caption=f"The headline, {what}, with each kind of player at every seat (95% intervals)."
                       + (" `pimc` searches at its defaults (up to 128 sampled deals a decision, read with what the "
                          "others did before the play), on fewer deals." if "pimc" in estimates else ""))  # fmt: skip
    first = next(iter(estimates.values()))
    others = ", ".join(f"`{k}` {fmt(e, digits, percent)}" for k, e in list(estimates.items())[1:])
    if versus is None:
        return f"With other players at every seat: {others} (95% CIs)."
    above = first.value > versus
    words = {"holds": [], "reversed": [], "unclear": []}
    for k, e in list(estimates.items())[1:]:
        kind = "unclear" if not clear(e, versus) else "holds" if (e.value > versus) == above else "reversed"
        words[kind].append(f"`{k}` {fmt(e, digits, percent)}")
    mark = f"{100 * versus:g}%" if percent else f"{versus:g}"
    parts = []
    if words["holds"]:
        parts.append(f"it holds for {' and '.join(words['holds'])}")
    if words["reversed"]:
        parts.append(f"it is reversed for {' and '.join(words['reversed'])}")
    if words["unclear"]:
        parts.append(f"for {' and '.join(words['unclear'])} the interval holds {mark}, so it is not clear")
    if not clear(first, versus):
        parts.insert(0, f"even for `basic` the interval holds {mark}")
    text = "; ".join(parts)
    return f"With other players at every seat, {text} (95% CIs)."


MOST_TESTED = ("Each \"most\" above is tested against every rival: simultaneous 95% intervals of the "
               "differences (Bonferroni).")


def leader_words(behind: list[str], rivals: str = "one") -> str:
    """How a "most" claim tested by :func:`analyses.stats.leader` reads: ``behind`` holds the
    (already worded) rivals it is not clearly ahead of. A page using it ends its answer with
    :data:`MOST_TESTED`."""
    if not behind:
        return f"clear of every other {rivals}"
    return f"not clear of {', '.join(behind)}"


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


def _rounded(df: pl.DataFrame) -> pl.DataFrame:
    """Floats to CSV_DECIMALS: a parallel group-by sums in no fixed order, so the last digits of a mean or
    an interval vary from run to run; rounded, a data file is the same every time (as the pages are)."""
    return df.with_columns(pl.col(pl.Float64).round(CSV_DECIMALS))


CSV_DECIMALS = 6
# ---- pages ---------------------------------------------------------------------------
TAKEAWAYS = (3, 5)  # a page opens with this many plain rules of thumb (issue 14)

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
    takeaways: list[str] = field(default_factory=list)  # TAKEAWAYS plain rules of thumb, each with its numbers
    # named sentences the player's guide (reports/index.html) quotes, each from the page's own numbers
    facts: dict[str, str] = field(default_factory=dict)
    # what each block is, for the HTML page (analyses/site.py): text, heading, caption, table, part, figure
    kinds: list[str] = field(default_factory=list)
    key: int | None = None  # the block index of the key table (None: analyses.site picks one)
    folded: dict[int, bool] = field(default_factory=dict)  # a table's block index -> folded or not (else by length)

    def _add(self, kind: str, markdown: str) -> int:
        while len(self.kinds) < len(self.blocks):  # blocks appended by hand count as text
            self.kinds.append("text")
        self.blocks.append(markdown)
        self.kinds.append(kind)
        return len(self.blocks) - 1

    def text(self, markdown: str) -> None:
        """A paragraph (or any Markdown block)."""
        self._add("text", markdown.strip())

    def heading(self, title: str) -> None:
        """A section heading."""
        self._add("heading", f"## {title}")

    def table(self, df: pl.DataFrame, formats: dict[str, object] | None = None, caption: str = "",
              key: bool = False, fold: bool | None = None) -> None:
        """A table, with an optional caption paragraph above it. ``key``: the page's key table, shown near the
        top of its HTML page; ``fold``: fold it (True) or never (False) on the HTML page (default: fold a table
        longer than analyses.site.FOLD_ROWS rows)."""
        if caption:
            self._add("caption", caption.strip())
        index = self._add("table", md_table(df, formats))
        if key:
            self.key = index
        if fold is not None:
            self.folded[index] = fold

    def data_file(self, df: pl.DataFrame, out_dir: Path, stem: str) -> str:
        """Write ``df`` to ``tables/<slug>-<stem>.csv`` beside the page; return a Markdown link to it."""
        tables = Path(out_dir) / "tables"
        tables.mkdir(parents=True, exist_ok=True)
        path = tables / f"{self.slug}-{stem}.csv"
        _rounded(df).write_csv(path)
        return f"[tables/{path.name}](tables/{path.name})"

    def split_table(self, df: pl.DataFrame, keys: list[str], parts: list[list[str]], out_dir: Path, stem: str,
                    caption: str, data: pl.DataFrame | None = None, key: bool = False,
                    fold: bool | None = None) -> Path:
        """A table too wide for a page: written whole to ``tables/<slug>-<stem>.csv`` beside the
        page (``data`` if given, e.g. the numbers behind the text cells, else ``df``) and shown as
        one table per entry of ``parts`` (columns of ``df``), each led by the ``keys`` columns.
        Returns the CSV's path. ``key``: its first part is the page's key table; ``fold``: as for :meth:`table`,
        for every part."""
        tables = Path(out_dir) / "tables"
        tables.mkdir(parents=True, exist_ok=True)
        path = tables / f"{self.slug}-{stem}.csv"
        _rounded(df if data is None else data).write_csv(path)
        link = f"[tables/{path.name}](tables/{path.name})"
        self._add("caption", f"{caption.strip()} The whole table, one file for a spreadsheet or a program: {link}.")
        for i, cols in enumerate(parts, start=1):
            self._add("label", f"*Part {i} of {len(parts)}.*")
            index = self._add("part", md_table(df.select(*keys, *cols)))
            if key and i == 1:
                self.key = index
            if fold is not None:
                self.folded[index] = fold
        return path

    def figure(self, fig, out_dir: Path, stem: str, caption: str) -> None:
        """Save a matplotlib figure as ``figures/<slug>-<stem>.png`` and show it on the page."""
        import matplotlib.pyplot as plt

        figures = Path(out_dir) / "figures"
        figures.mkdir(parents=True, exist_ok=True)
        path = figures / f"{self.slug}-{stem}.png"
        fig.savefig(path, dpi=100, bbox_inches="tight", metadata={"Software": None})
        plt.close(fig)
        self.figures.append(path)
        self._add("figure", f"![{caption}](figures/{path.name})\n\n*{caption}*")

    def uses(self, *names: str) -> None:
        """Record the datasets the page reads (their provenance is printed at the end)."""
        for name in names:
            if name not in self.datasets:
                self.datasets.append(name)

    def check(self) -> None:
        """A page has an answer and TAKEAWAYS rules of thumb (ValueError otherwise)."""
        if not self.answer:
            raise ValueError(f"page {self.slug} has no answer")
        if not TAKEAWAYS[0] <= len(self.takeaways) <= TAKEAWAYS[1]:
            raise ValueError(f"page {self.slug} has {len(self.takeaways)} takeaways, not {TAKEAWAYS[0]}-{TAKEAWAYS[1]}")

    def render(self, ctx: Context) -> str:
        """The page as Markdown."""
        self.check()
        takeaways = "\n".join(f"- {t}" for t in self.takeaways)
        parts = [f"# {self.title}", f"**Question.** {self.question}", f"**Answer.** {self.answer}",
                 f"**What a player takes away** (95% intervals; the sample sizes are in the tables below):\n\n"
                 f"{takeaways}", *self.blocks]  # fmt: skip
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
        rules = rules_text(run["rules"])
        if run.get("variants"):  # a paired run (rams-sim effect): each variant's changes from the baseline
            changes = [", ".join(f"{k}={v}" for k, v in variant.items() if run["rules"].get(k) != v) or "(the same)"
                       for variant in run["variants"]]  # fmt: skip
            rules += "; paired with: " + "; ".join(changes)
        rows.append(
            f"| `{name}` | {run['kind']}{extra}{dealer} | {fmt_n(count)} | {run['seed']} | {rules} | "
            f"{policies_text(run['policies'])} | rams-sim {sw.get('version', '?')} ({commit}) |"
        )
    head = "| dataset | kind | size | seed | rules | policies | made by |\n|---|---|---|---|---|---|---|"
    archived = [name for name in names if ARCHIVE is not None and (ARCHIVE / name / "manifest.json").is_file()]
    kept = (f" The datasets with a searching seat ({', '.join(f'`{n}`' for n in archived)}) are committed under "
            "`archive/` (`make archive` makes them again)." if archived else "")
    note = (f"Data under `data/reports/` (not committed; `make reports` rebuilds it from these seeds).{kept} "
            f"Analysis by rams-sim {__version__}. Rule presets are those of RULES.md R9 "
            f"({', '.join(p for p, i in PRESETS.items() if i.implemented)}).")  # fmt: skip
    return head + "\n" + "\n".join(rows) + "\n\n" + note
