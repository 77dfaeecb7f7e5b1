"""The validation suite of ``rams-sim advise``: advise's answers held against the truth (issue 45).

``rams-sim check-advice`` draws positions at random from simulated deals of the model players
(every seat ``expert``, a fixed seed; tables of several sizes), asks advise each one as a player
would (:mod:`.questions`: what the seat had been told), computes each option's truth from branch
data (:mod:`.truth`: the option forced, the rest of the deal played by the model, on decks
consistent with what the seat saw, kept where the others' history matches) and reports, by game
and decision kind:

* **coverage**: the share of options whose 95% interval covers the truth, for the option's mean
  and for its paired difference from advise's best. "Covers" (CLARIFICATIONS): ``|advise - truth|
  <= 1.96 sqrt(se_advise^2 + se_truth^2)``, so the truth's own sampling error counts (``<=``: an
  option the same as the best in every world, difference 0 and no spread in both, is covered); an
  option counts where the truth has at least ``min_kept`` deals;
* the **median half-width** of advise's intervals (an interval wide enough to cover anything
  would stop ranking: the width is printed beside the coverage);
* **best agreement**: the share of positions where advise's best option is not clearly worse than
  the truth's best (their paired difference in the truth within 1.96 standard errors);
* **points lost** by following the advice: the truth's mean of advise's best minus the truth's
  best, a deal, averaged over positions.

Shares carry Wilson intervals and means normal ones (95%). The positions are the decisions of
:data:`STAGES` that each table's deals have (:mod:`.questions`): classic's exchange (or
declare-then-buy's play-or-pass and purchase, and the R4.0a announcement), the dealer's trump card
and each card; zone's swap and each card; modern's cards. A card of the first trick is drawn most
often, because later ones keep few deals (:data:`PLAY_TRICKS`), and a card's truth comes from
:data:`CARD_DEALS` times the deck orders, since every card played before must fall again. Duel's
positions have no truth yet (:func:`rams_sim.advice.truth.not_answered`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .. import cards as C
from ..games import GAMES
from ..kernels import codes
from ..record import Intent
from ..rules import Rules
from ..runs.summary import Z95, wilson
from . import model_error
from .questions import asked, questions
from .truth import STAGES, Spot, not_answered, truth_of

PLAY_TRICKS = (0, 0, 0, 1)  # a card position's trick is drawn from these (0-based): the first three times in four
CARD_DEALS = 4  # a card's truth from this many times the deck orders: every earlier card of the trick must fall again
INTENT_CODES = {"on trumps": int(Intent.ON_TRUMPS), "on suits": int(Intent.ON_SUITS)}  # advise's words, R4.0a
MIN_KEPT = 200  # an option counts where its truth has this many deals (CLARIFICATIONS)
KIND_NAMES = {"exchange": "exchange", "round": "play or pass", "intent": "announcement", "buy": "purchase",
              "trump": "trump card", "swap": "swap", "play": "card"}  # fmt: skip
KIND_WORDS = {"card" if s == "play" else s: s for s in STAGES}  # --decisions' words: the stages (a card is "card")


@dataclass(frozen=True)
class CheckConfig:
    """What the suite checks: ``positions`` positions drawn with ``seed`` from deals of ``presets`` x
    ``players`` tables; each truth from ``deals`` deck orders; advise at its defaults unless told."""

    positions: int = 30
    seed: int = 0
    presets: tuple[str, ...] = ("classic",)
    players: tuple[int, ...] = (3, 4, 5)
    deals: int = 200_000
    min_kept: int = MIN_KEPT
    model: str = "expert"
    advise_options: dict = field(default_factory=dict)  # advise's keywords beyond the position (target_se, infer ...)
    stages: tuple[str, ...] = STAGES  # the decision kinds drawn, in turn (each table draws those its deals have)


@dataclass(frozen=True)
class Position:
    """One drawn position: its table, the recorded deal, the decision and advise's question."""

    index: int
    rules: Rules
    record: object
    spot: Spot
    question: dict


def played_at(preset: str, sizes) -> tuple[list[Rules], str]:
    """``preset``'s rules at each of ``sizes`` its game is played at (zone and duel at 2, modern at 4),
    and why the last size refused was refused ('' where none was)."""
    tables, why = [], ""
    for n in sizes:
        try:
            tables.append(Rules.named(preset, players=n))
        except ValueError as err:
            why = str(err)
    return tables, why


def _tables(config: CheckConfig) -> list[Rules]:
    """The presets at each of ``config.players`` their game is played at (:func:`played_at`);
    ValueError where a preset is played at none of them."""
    out = []
    for preset in config.presets:
        sizes, why = played_at(preset, config.players)
        if not sizes:
            raise ValueError(f"preset {preset} at {', '.join(map(str, config.players))} players: {why}")
        out.extend(sizes)
    return out


def _kinds(config: CheckConfig, rules: Rules, run) -> list[str]:
    """The decision kinds of ``config.stages`` that the table's recorded deals have, in that order."""
    from .. import engine

    found = {q["stage"] for d in range(min(len(run), 64)) for q in questions(rules, engine.record_of(run, d))}
    return [k for k in config.stages if k in found]


def draw_positions(config: CheckConfig) -> list[Position]:
    """``config.positions`` positions: position i is on table ``i % tables``, of the table's kind
    ``kinds[(i // tables) % len(kinds)]`` (:func:`_kinds`): that kind's decision of a random seat in
    the table's next deal of an ``expert`` run (seed ``config.seed``) that has one; a card's trick is
    drawn from :data:`PLAY_TRICKS`. Questions carry the scores the deals were played at (the rules'
    start; the truth's branches play from them too). The same config draws the same positions."""
    from .. import engine

    tables = _tables(config)
    rng = np.random.default_rng([config.seed, 45])
    runs = [engine.simulate(r, config.model, seed=config.seed, deals=8 * config.positions + 64, log_plays=True)
            for r in tables]  # fmt: skip
    kinds = [_kinds(config, r, run) for r, run in zip(tables, runs)]
    if not any(kinds):
        raise ValueError(f"no table of {', '.join(config.presets)} has a decision of the kinds asked "
                         f"({', '.join(config.stages)})")  # fmt: skip
    playing = [w for w, k in enumerate(kinds) if k]
    next_deal = [0] * len(tables)
    out: list[Position] = []
    while len(out) < config.positions:
        i = len(out)
        which = playing[i % len(playing)]
        rules, kind = tables[which], kinds[which][(i // len(playing)) % len(kinds[which])]
        t = PLAY_TRICKS[int(rng.integers(len(PLAY_TRICKS)))] if kind == "play" else 0
        for _ in range(len(runs[which])):
            record = engine.record_of(runs[which], next_deal[which] % len(runs[which]))
            next_deal[which] += 1
            asks = [q for q in questions(rules, record) if q["stage"] == kind and q.get("t", 0) == t]
            if asks:  # else the dealer passed, or the deal ended before that trick: the next deal
                q = asks[int(rng.integers(len(asks)))]
                if "scores" in q:
                    q = q | {"scores": [rules.start] * rules.players}
                out.append(Position(i, rules, record, Spot(q["seat"], kind, q.get("t", 0), q.get("k", 0)), q))
                break
        else:
            raise ValueError(f"no deal of {rules.preset} at {rules.players} players has a {kind} decision")
    return out


def branch_code(row: dict, hand: list[int], stage: str) -> int:
    """Advise's option (a row of its table) as the branch's code (:mod:`rams_sim.decisions`): the exchange's
    or purchase's -1 pass, 0 stand or discard mask over ``hand`` (the dealt cards, ascending); the
    first round's -1 pass or 0 play; R4.0a's 0 on trumps or 1 on suits; zone's 0 stand or the swap's
    mask of all five; the trump card's -1 (keep) or the card given up; a card's id."""
    if stage == "round":
        return codes.OPTION_PASS if row["option"] == "pass" else 0
    if stage == "intent":
        return INTENT_CODES[row["option"]]
    if stage == "swap":
        return (1 << C.HAND_SIZE) - 1 if row["option"] == "swap" else 0
    if stage in ("exchange", "buy"):
        if row["option"] == "pass":
            return -1
        thrown = C.parse_cards(row["cards"]) if row["option"] == "discard" else []
        return sum(1 << j for j, c in enumerate(sorted(hand)) if c in thrown)
    if stage == "trump":
        return C.parse(row["cards"]) if row["option"] == "take" else -1
    return C.parse(row["option"])


def _se(low, high) -> float:
    return (high - low) / (2 * Z95)


def check_position(pos: Position, config: CheckConfig) -> tuple[list[dict], dict]:
    """Advise's answer and the truth at ``pos``: one row per option advise ranks, and the position's row."""
    from .search import advise

    start = time.perf_counter()
    answer = advise(**asked(pos.question), seed=config.seed + pos.index, **config.advise_options)
    advise_s = time.perf_counter() - start
    deals = config.deals * (CARD_DEALS if pos.spot.stage == "play" else 1)
    truth = truth_of(pos.rules, pos.record, pos.spot, deals=deals, seed=config.seed + pos.index, model=config.model,
                     rollout=config.model)  # fmt: skip
    dealt = C.cards_of(pos.record.hand_dealt[pos.spot.seat])
    options = [branch_code(row, dealt, pos.spot.stage) for row in answer.rows]
    best_a = options[0]
    sign = -1.0 if GAMES[pos.rules.game].counts_up else 1.0  # the truth's best: the least delta, the most in modern
    enough = [c for c in options if truth.n(c) >= config.min_kept]
    best_t = min(enough, key=lambda c: sign * truth.mean(c)[0]) if enough else None
    n = pos.rules.players
    trick = pos.spot.t + 1 if pos.spot.stage == "play" else 0
    base = {"position": pos.index, "preset": pos.rules.preset, "game": pos.rules.game.value,
            "stage": model_error.stage_key(answer.stage, trick, answer.infer),
            "infer": answer.infer, "players": n, "seat": pos.spot.seat,
            "at_table": (pos.spot.seat - pos.record.dealer - 1) % n, "kind": KIND_NAMES[pos.spot.stage],
            "trick": trick, "card": pos.spot.k + 1 if pos.spot.stage == "play" else 0,
            "kept": truth.kept, "tried": truth.tried}  # fmt: skip
    rows = []
    for row, code in zip(answer.rows, options):
        t_mean, t_se, t_n = truth.mean(code)
        d_mean, d_se, d_n = truth.diff(code, best_a)
        a_se = _se(row["ci_low"], row["ci_high"])  # the printed interval's (sampling and model error)
        ad_se = _se(row["diff_low"], row["diff_high"])
        counted = t_n >= config.min_kept
        diff_counted = counted and code != best_a and d_n >= config.min_kept
        rows.append(base | {
            "option": row["option"] if row["option"] == row["cards"] else f"{row['option']} {row['cards']}".strip(),
            "advise_mean": row["mean"], "advise_low": row["ci_low"], "advise_high": row["ci_high"],
            "advise_diff": row["diff"], "diff_low": row["diff_low"], "diff_high": row["diff_high"],
            "worlds": row["worlds"], "advise_se": row["se"], "advise_diff_se": row["diff_se"], "truth_mean": t_mean, "truth_se": t_se, "truth_n": t_n, "truth_diff": d_mean,
            "truth_diff_se": d_se, "advise_best": code == best_a, "truth_best": code == best_t, "counted": counted,
            "covers_mean": counted and abs(row["mean"] - t_mean) <= Z95 * math.hypot(a_se, t_se),
            "counted_diff": diff_counted,
            "covers_diff": diff_counted and abs(row["diff"] - d_mean) <= Z95 * math.hypot(ad_se, d_se),
            # the sampling error alone (advise before its model-error term, issue 45)
            "covers_mean_sampling": counted and abs(row["mean"] - t_mean) <= Z95 * math.hypot(row["se"], t_se),
            "covers_diff_sampling": diff_counted and abs(row["diff"] - d_mean) <= Z95 * math.hypot(row["diff_se"], d_se),
        })  # fmt: skip
    lost = lost_se = math.nan
    agree = None
    if best_t is not None and truth.n(best_a) >= config.min_kept:
        lost, lost_se, _ = truth.diff(best_a, best_t)
        lost *= sign  # points lost in the game's direction: positive where advise's best is worse
        agree = bool(lost <= 0) if math.isnan(lost_se) else bool(lost <= Z95 * lost_se)
    summary = base | {"options": len(rows), "counted": sum(r["counted"] for r in rows), "advise_s": advise_s,
                      "lost": lost, "lost_se": lost_se, "agree": agree, "model": answer.model,
                      "model_error": answer.model_error is not None}  # fmt: skip
    return rows, summary


def run_check(config: CheckConfig, progress: Callable[[int, int], None] | None = None):
    """The suite: (options, positions, summary) as polars DataFrames (:func:`summarize`)."""
    import polars as pl

    rows, spots = [], []
    positions = draw_positions(config)
    for i, pos in enumerate(positions):
        r, s = check_position(pos, config)
        rows.extend(r)
        spots.append(s)
        if progress:
            progress(i + 1, len(positions))
    options = pl.DataFrame(rows)
    spots_frame = pl.DataFrame(spots)
    return options, spots_frame, summarize(options, spots_frame)


def _share_of(frame, column: str) -> tuple[float, float, float]:
    """(share, low, high) of the true rows of ``column`` in ``frame``: Wilson's 95% interval
    (:func:`rams_sim.runs.summary.wilson`); NaN where ``frame`` has no such column or no rows."""
    if column not in frame.columns or frame.height == 0:
        return math.nan, math.nan, math.nan
    est = wilson(int(frame[column].sum()), frame.height)
    return est.value, est.low, est.high


def _group_row(group: dict, opts, spots) -> dict:
    import polars as pl

    counted = opts.filter(pl.col("counted"))
    diffs = opts.filter(pl.col("counted_diff"))
    cov = _share_of(counted, "covers_mean")
    cov_d = _share_of(diffs, "covers_diff")
    raw = _share_of(counted, "covers_mean_sampling")
    raw_d = _share_of(diffs, "covers_diff_sampling")
    judged = spots.filter(pl.col("agree").is_not_null())
    agree = _share_of(judged, "agree")
    lost = judged["lost"].to_numpy()
    lost_mean = float(lost.mean()) if lost.size else math.nan
    lost_half = Z95 * float(lost.std(ddof=1)) / math.sqrt(lost.size) if lost.size > 1 else math.nan
    half = (counted["advise_high"] - counted["advise_low"]) / 2
    half_d = (diffs["diff_high"] - diffs["diff_low"]) / 2
    return group | {
        "positions": spots.height, "options": counted.height, "covered": cov[0], "covered_low": cov[1],
        "covered_high": cov[2], "half_width": float(half.median()) if half.len() else math.nan,
        "diffs": diffs.height, "diff_covered": cov_d[0], "diff_covered_low": cov_d[1], "diff_covered_high": cov_d[2],
        "diff_half_width": float(half_d.median()) if half_d.len() else math.nan, "judged": judged.height,
        "best_agrees": agree[0], "best_agrees_low": agree[1], "best_agrees_high": agree[2], "points_lost": lost_mean,
        "points_lost_low": lost_mean - lost_half, "points_lost_high": lost_mean + lost_half,
        "sampling_covered": raw[0], "sampling_diff_covered": raw_d[0],
    }  # fmt: skip


def summarize(options, spots):
    """Per game (preset) and decision kind, and over all: coverage of the means and of the paired
    differences (Wilson 95%), the median half-widths, best agreement, points lost (module docstring)."""
    import polars as pl

    out = []
    for (preset, kind), _ in spots.group_by(["preset", "kind"], maintain_order=True):
        sel = (pl.col("preset") == preset) & (pl.col("kind") == kind)
        out.append(_group_row({"preset": preset, "kind": kind}, options.filter(sel), spots.filter(sel)))
    out.append(_group_row({"preset": "all", "kind": "all"}, options, spots))
    return pl.DataFrame(out)


def check_tables(config: CheckConfig) -> None:
    """ValueError in one line where a table of ``config`` is one the truth does not answer yet, or the
    counts are not positive."""
    if config.positions < 1 or config.deals < 1 or config.min_kept < 2:
        raise ValueError("--positions and --deals must be positive, --min-kept at least 2")
    unknown = [s for s in config.stages if s not in STAGES] or ([] if config.stages else ["none"])
    if unknown:
        names = ", ".join(KIND_WORDS)
        raise ValueError(f"--decisions takes {names}; got {', '.join(unknown)}")
    for rules in (Rules.named(p) for p in config.presets):  # the preset's game first, then its sizes
        if (why := not_answered(rules)) is not None:
            raise ValueError(f"preset {rules.preset}: {why}")
    _tables(config)


def _share(row: dict, key: str) -> str:
    v, lo, hi = row[key], row[f"{key}_low"], row[f"{key}_high"]
    return "-" if math.isnan(v) else f"{v:.0%} [{max(lo, 0.0):.0%}, {min(hi, 1.0):.0%}]"


def _points(row: dict) -> str:
    v, lo, hi = row["points_lost"], row["points_lost_low"], row["points_lost_high"]
    if math.isnan(v):
        return "-"
    return f"{v:+.2f}" + ("" if math.isnan(lo) else f" [{lo:+.2f}, {hi:+.2f}]")


def summary_markdown(summary) -> list[str]:
    """The suite's table (docs/SEARCH.md's and the report page's): one line per game and kind."""
    head = ("| game | decision | positions | options | mean covered | half-width | diff. covered | half-width | "
            "best agrees | points lost a deal |")
    lines = [head, "|---|---|---|---|---|---|---|---|---|---|"]
    for row in summary.iter_rows(named=True):
        lines.append(f"| {row['preset']} | {row['kind']} | {row['positions']} | {row['options']} | "
                     f"{_share(row, 'covered')} | {row['half_width']:.2f} | {_share(row, 'diff_covered')} | "
                     f"{row['diff_half_width']:.2f} | {_share(row, 'best_agrees')} | {_points(row)} |")  # fmt: skip
    return lines


def write_report(folder, config: CheckConfig, options, spots, summary, seconds: float) -> None:
    """``folder``: options.csv (a row per option advise ranked: advise's mean and intervals, the truth's
    mean, standard error and deals, whether each interval covers), positions.csv (a row per position),
    summary.csv (:func:`summarize`) and report.md (the question, the answer, the table, the provenance)."""
    from pathlib import Path

    from ..version import __version__

    folder = Path(folder)
    options.write_csv(folder / "options.csv")
    spots.write_csv(folder / "positions.csv")
    summary.write_csv(folder / "summary.csv")
    overall = summary.row(summary.height - 1, named=True)
    intro = (
        f"{config.positions} positions drawn from `{config.model}` deals ({', '.join(config.presets)}; "
        f"{', '.join(map(str, config.players))} players; seed {config.seed}), each answered by `rams-sim advise` "
        f"({', '.join(f'{k}={v}' for k, v in config.advise_options.items()) or 'its defaults'}) and by branch data: "
        f"{config.deals:,} deck orders that give the seat what it saw, every option forced, the deals kept where "
        "the others' history matches (rams_sim/advice/truth.py). An option counts where its truth has at least "
        f"{config.min_kept} deals; \"covers\" means |advise - truth| < 1.96 sqrt(se_advise² + se_truth²)."
    )
    answer = (
        f"**Answer.** Advise's 95% interval covered the truth for {_share(overall, 'covered')} of "
        f"{overall['options']} options (median half-width {overall['half_width']:.2f} points), and its paired "
        f"difference from its best option for {_share(overall, 'diff_covered')} of {overall['diffs']}; its best "
        f"option was not clearly worse than the truth's best in {_share(overall, 'best_agrees')} of "
        f"{overall['judged']} positions, and following it cost {_points(overall)} points a deal (95% intervals)."
    )
    notes = (
        "Shares with Wilson 95% intervals; points lost: the truth's mean of advise's best minus the truth's best, "
        "a deal, averaged over the positions judged (both with enough deals), with a normal 95% interval."
    )
    provenance = (
        f"Provenance: rams-sim {__version__}, `rams-sim check-advice --positions {config.positions} --seed "
        f"{config.seed} --rules {','.join(config.presets)} --players {','.join(map(str, config.players))} --deals "
        f"{config.deals}`, {seconds:.0f} s. Tables: options.csv, positions.csv, summary.csv."
    )
    page = ["# Does advise's interval hold the truth?", "", intro, "", answer, "", *summary_markdown(summary), "",
            notes, "", provenance]  # fmt: skip
    (folder / "report.md").write_text("\n".join(page) + "\n", encoding="utf-8")
