"""Question 7: what the rule options change in the answers of questions 1–6.

Each variant is the classic four-player game with one option changed (analyses/data.py
``OPTIONS`` and ``DECK_CHOICES_4P``): ``ruff=overtrump`` (R6.3), ``must_head`` (R6.3a),
``ace_covers_face=false`` (R6.7), ``exchange_order=declare-then-buy`` (R4.0) and the
24-, 36- and 52-card decks instead of 32 (R2). The four rule options are simulated on the
same seed as the classic data, so deal d (and party p) starts from the same deck order:
each measure is a *paired* difference, variant minus classic, computed unit by unit (per
deal or per party) and averaged with a normal 95% interval. A different deck makes
different deals, so the deck choices are *unpaired*: the difference of two independent
means, its standard error the root of the sum of squares.

The measures (one number per deal, per seat-0 branched deal or per party; :data:`MEASURES`):

1. ♥A value: mean gain of seat-deals dealt the ♥A as their only ace minus that of
   seat-deals dealt no ace (a ratio of sums; deal-clustered standard error).
2. Exchange: seat 0's gain from exchanging his plain non-aces (every card neither a trump
   nor an ace) minus standing pat, hands with at least one such card (branch data).
3. Ends before play: share of deals in which no trick is played (a rams, four aces, a
   lone player or nobody playing); declared: share of deals with any declaration (R5).
4. Pass rate: share of seat-deals that pass; pass value: seat 0's gain from passing minus
   exchanging his plain non-aces, hands dealt no ace (branch data).
5. Dealer's edge: the dealer's gain minus the mean gain of the others of the same deal.
6. Party length (deals, from 100) and seat 0's share of party wins.
Also the mean gain per seat-deal, the remiz rate, and (paired only) the share of deals the
option changes at all.

The paired changes that ``rams-sim effect`` measures (gain, remiz, ends before play, pass
rate, deals changed, party length and seat 0's wins; and the play options under random and
searching players) come from its paired runs (rams_sim/runs/effect.py, datasets
``readings-classic-*`` and ``options-4p-*``: each deal played under classic and under every
option from the same key, the intervals deal-clustered). The contrasts it does not measure
(the ♥A value, the exchange and pass values of the branch data, declarations, the dealer's
edge) are paired deal by deal here, from the raw datasets of the same seed.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import polars as pl

from rams_sim.cards import HEARTS
from rams_sim.hands import hand_features
from rams_sim.record import Declaration, Outcome
from rams_sim.runs.effect import read_result
from rams_sim.runs.summary import Estimate, wilson

from . import exchange as ex
from .clustered import cluster_contrast
from .common import (
    GAIN_WORDS,
    MOST_TESTED,
    REMIZ,
    Context,
    Page,
    chance_misses,
    clear,
    fmt,
    fmt_n,
    leader,
    leader_words,
    magnitude,
    mean_estimate,
    one_against_others,
    paired_difference,
    unpaired_difference,
)
from .data import DECK_CHOICES_4P, OPTIONS, PLAY_OPTIONS, SEARCH
from .q5_position import with_position
from .readings import of_preset
from .stats import identical, paired_row

CLASSIC_DEALS, CLASSIC_BRANCH, CLASSIC_PARTY = "deals-4p", "branch-4p", "party-100-remaining"
HEART_ACE_ONLY = 1 << HEARTS  # the aces bit mask of a hand whose only ace is the ♥A
FIRST_DEALER = 0  # seat 0 deals the first deal of a party (R3)


@dataclass(frozen=True)
class Variant:
    """One rule variant: its label, its datasets (None where none exists) and whether it pairs with classic."""

    key: str
    label: str
    deals: str
    branch: str | None
    party: str
    paired: bool
    play_only: bool  # changes only the play (R6): everything before the first lead must equal classic


_LABELS = {"overtrump": "ruff = overtrump (R6.3)", "must-head": "must head the trick (R6.3a)",
           "no-ace-cover": "trump ace need not cover (R6.7 off)", "declare-then-buy": "declare, then buy (R4.0)",
           "deck24": "24-card deck", "deck36": "36-card deck", "deck52": "52-card deck"}  # fmt: skip
_PLAY_ONLY = ("overtrump", "must-head", "no-ace-cover")
# why an option cannot move `basic` players: a property of how basic is written (rams_sim/policies.py), not of the game
_SAME_WHY = {"overtrump": "basic plays the cheapest card that wins the trick whenever it has one, and when it "
                          "trumps, an overtrump is such a card, so the rule never forbids the card basic picks",
             "must-head": "basic plays a winning card whenever it has one, which is what the rule demands",
             "declare-then-buy": "basic decides its pass and its discards from its own hand alone, never from who "
                                 "else plays, so the order of declaring and buying cannot move them"}  # fmt: skip
VARIANTS = tuple(
    Variant(k, _LABELS[k], f"deals-4p-{k}", f"branch-4p-{k}", f"party-100-{k}", True, k in _PLAY_ONLY) for k in OPTIONS
) + tuple(Variant(k, _LABELS[k], f"deals-4p-{k}", None, f"party-100-{k}", False, False) for k in DECK_CHOICES_4P)

# the paired runs of `rams-sim effect` (rams_sim/runs/effect.py; analyses/data.py): classic and every option of
# question 9 on the same deals and parties (basic players); the play options at a table of random players, who
# break them whenever allowed, and of searching players, whom they may bind
PAIRED_DEALS, PAIRED_PARTIES = "readings-classic-deals-basic", "readings-classic-parties-basic"
RANDOM_PAIRED, SEARCH_PAIRED = "options-4p-random", f"options-4p-{SEARCH}"
DATASETS = (CLASSIC_DEALS, CLASSIC_BRANCH, CLASSIC_PARTY) + tuple(
    n for v in VARIANTS for n in (v.deals, v.branch, v.party) if n is not None
) + (PAIRED_DEALS, PAIRED_PARTIES, RANDOM_PAIRED, SEARCH_PAIRED)
# measures of a paired variant that `effect` gives: page measure -> (effect measure, sign; gain = −delta)
EFFECT_MEASURES = {"gain": ("delta", -1), "remiz": ("remiz", 1), "before_play": ("before_play", 1),
                   "pass": ("pass", 1)}  # fmt: skip
EFFECT_PARTY = {"length": "length", "seat0": "first_dealer_wins"}

# measure key -> (question, words on the page, unit); the order of the tables and figure
MEASURES = {
    "gain": ("–", "gain per seat-deal", "points"),
    "remiz": ("–", "remiz rate per seat-deal", "share"),
    "changed": ("–", "deals changed (any score, decision or card)", "share"),
    "heart_ace": ("1", "♥A value: ♥A-only minus ace-less dealt hands", "points"),
    "exchange": ("2", "exchanging the plain non-aces minus standing (seat 0)", "points"),
    "before_play": ("3", "deals ending before play", "share"),
    "declared": ("3", "deals with a declaration", "share"),
    "pass": ("4", "pass rate per seat-deal", "share"),
    "pass_value": ("4", "passing minus exchanging the plain non-aces (seat 0, no ace)", "points"),
    "dealer_edge": ("5", "dealer's edge (dealer − mean of others)", "points"),
    "length": ("6", "party length (deals, from 100)", "deals"),
    "seat0": ("6", "seat 0 (first dealer) wins the party", "share"),
}
# the least half-span of a panel of the figure, by unit (a share's in proportions: 0.01 = 1 percentage point)
MIN_SPAN = {"points": 0.5, "share": 0.01, "deals": 0.5}
DEAL_MEASURES = ("gain", "remiz", "before_play", "declared", "pass", "dealer_edge")
BEFORE_PLAY_COLUMNS = ("passed", "discarded", "took_trump", "hand_final", "declaration")  # fixed before the first lead


# ---- per-unit values -----------------------------------------------------------------
def deal_values(lf: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """One row per deal: ``deal`` and the per-deal value of each of DEAL_MEASURES (means over
    the deal's seats where the measure is per seat-deal), plus the ♥A sums ``ha_s``, ``ha_n``
    (gain and count of seats dealt the ♥A as only ace) and ``na_s``, ``na_n`` (dealt no ace)."""
    cols = ["deal", "seat", "dealer", "players", "trump", "hand_dealt", "passed", "declaration", "tricks", "delta",
            "outcome"]  # fmt: skip
    df = lf.lazy().select(cols).collect()
    aces = hand_features(df["hand_dealt"].to_numpy(), df["trump"].to_numpy())["aces"]
    df = with_position(df.lazy().with_columns(pl.Series("aces_dealt", aces))).collect()
    gain = pl.col("gain")
    heart, none = pl.col("aces_dealt") == HEART_ACE_ONLY, pl.col("aces_dealt") == 0
    return (
        df.lazy().group_by("deal").agg(
            gain.mean().alias("gain"),
            REMIZ.cast(pl.Float64).mean().alias("remiz"),
            (pl.col("outcome").first() != Outcome.PLAYED).cast(pl.Float64).alias("before_play"),
            (pl.col("declaration") != Declaration.NONE).any().cast(pl.Float64).alias("declared"),
            pl.col("passed").cast(pl.Float64).mean().alias("pass"),
            one_against_others(gain, pl.col("position") == pl.col("players") - 1).alias("dealer_edge"),
            gain.filter(heart).sum().alias("ha_s"), heart.sum().alias("ha_n"),
            gain.filter(none).sum().alias("na_s"), none.sum().alias("na_n"),
        ).sort("deal").collect()
    )  # fmt: skip


def row_pairs(classic: pl.LazyFrame | pl.DataFrame, variant: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Classic and variant seat-deals joined on (deal, seat): one row per deal with ``moved``
    (mean over seats of |gain change|) and ``same_before_play`` (every seat's BEFORE_PLAY_COLUMNS
    equal and the deal ends before play in both or in neither): the self-check's data."""
    cols = ["deal", "seat", "delta", "outcome", *BEFORE_PLAY_COLUMNS]
    joined = classic.lazy().select(cols).join(variant.lazy().select(cols), on=["deal", "seat"], suffix="_v")
    same = pl.all_horizontal([pl.col(c) == pl.col(f"{c}_v") for c in BEFORE_PLAY_COLUMNS]) & (
        (pl.col("outcome") == Outcome.PLAYED) == (pl.col("outcome_v") == Outcome.PLAYED))  # fmt: skip
    moved = (pl.col("delta").cast(pl.Float64) - pl.col("delta_v").cast(pl.Float64)).abs()
    per_deal = joined.group_by("deal").agg(moved.mean().alias("moved"), same.all().alias("same_before_play"))
    return per_deal.sort("deal").collect()


def branch_values(lf: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """One row per branched deal: ``deal``, ``exchange`` = gain(exchange the plain non-aces, the
    canonical action ``plain`` of :mod:`analyses.exchange`) − gain(stand), null when the hand has
    none; ``pass_value`` = gain(pass) − gain(exchange the plain non-aces), null when the hand
    holds an ace (R4.1). Both are null when the talon is too short to exchange every plain
    non-ace (R4.4)."""
    lf = lf.lazy()
    df = ex.canonical_gains(lf, ex.with_features(ex.deal_hands(lf)))
    gain = {a: pl.col(ex.gain_col(a)) for a in (ex.PASS, ex.STAND, ex.PLAIN)}
    served = pl.col("n_plain") <= pl.col("k_max")  # the talon serves every plain non-ace
    return df.select(
        "deal",
        pl.when(served & (pl.col("n_plain") > 0)).then(gain[ex.PLAIN] - gain[ex.STAND]).alias("exchange"),
        pl.when(served).then(gain[ex.PASS] - gain[ex.PLAIN]).alias("pass_value"),
    ).sort("deal")  # fmt: skip


def party_values(lf: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """One row per party: ``party``, ``length`` (deals played) and ``seat0`` (1.0 if seat 0 won, else 0.0)."""
    return (
        lf.lazy().filter(pl.col("seat") == FIRST_DEALER)
        .select("party", pl.col("deals").cast(pl.Float64).alias("length"),
                pl.col("won").cast(pl.Float64).alias("seat0"))
        .sort("party").collect()
    )  # fmt: skip


# ---- differences ---------------------------------------------------------------------
def heart_ace_level(d: pl.DataFrame) -> Estimate:
    """♥A value of a :func:`deal_values` table (deal-clustered)."""
    return cluster_contrast(d["ha_s"], d["ha_n"], d["na_s"], d["na_n"])


def heart_ace_paired(classic: pl.DataFrame, variant: pl.DataFrame) -> Estimate:
    """Change of the ♥A value on the same deals: the contrast of the per-deal differences of
    the group sums (the dealt hands, hence the groups, are the same in both)."""
    j = classic.join(variant, on="deal", suffix="_v")
    if not (j["ha_n"] == j["ha_n_v"]).all() or not (j["na_n"] == j["na_n_v"]).all():
        raise ValueError("paired deals must deal the same hands (the same seed and deck)")
    return cluster_contrast(j["ha_s_v"] - j["ha_s"], j["ha_n"], j["na_s_v"] - j["na_s"], j["na_n"])


def changes(classic: dict[str, pl.DataFrame], variant: dict[str, pl.DataFrame], paired: bool) -> dict[str, Estimate]:
    """Measure -> change (variant − classic) from the per-unit tables ``{"deals", "branch",
    "party", "rows"}`` of each (missing tables give no entry)."""
    out: dict[str, Estimate] = {}
    keys = {"deals": "deal", "branch": "deal", "party": "party"}
    columns = {"deals": DEAL_MEASURES, "branch": ("exchange", "pass_value"), "party": ("length", "seat0")}
    for table, cols in columns.items():
        if table not in variant or table not in classic:
            continue
        for c in cols:
            if paired:
                out[c] = paired_difference(classic[table], variant[table], keys[table], c)
            else:
                out[c] = unpaired_difference(mean_estimate(variant[table][c]), mean_estimate(classic[table][c]))
    if "deals" in variant:
        if paired:
            out["heart_ace"] = heart_ace_paired(classic["deals"], variant["deals"])
        else:
            out["heart_ace"] = unpaired_difference(heart_ace_level(variant["deals"]), heart_ace_level(classic["deals"]))
    return out


def classic_levels(classic: dict[str, pl.DataFrame]) -> dict[str, Estimate]:
    """Measure -> its value in the classic game."""
    out = {c: mean_estimate(classic["deals"][c]) for c in DEAL_MEASURES}
    out |= {c: mean_estimate(classic["branch"][c]) for c in ("exchange", "pass_value")}
    out |= {c: mean_estimate(classic["party"][c]) for c in ("length", "seat0")}
    out["heart_ace"] = heart_ace_level(classic["deals"])
    return out


def effect_changes(ctx: Context, deals: str, parties: str | None = None) -> dict[str, dict[str, Estimate]]:
    """Per option of the paired run ``deals`` (and ``parties``): the changes `rams-sim effect` measures,
    variant − classic on the same deals: EFFECT_MEASURES, ``changed`` (share of deals in which any
    score, decision or card differs, Wilson) and, from the parties, EFFECT_PARTY."""
    names = _variant_keys(deals)
    paired = read_result(ctx.path(deals), 4, names, ("position",))
    out: dict[str, dict[str, Estimate]] = {}
    for v, key in enumerate(names):
        mine = {r["measure"]: r for r in paired.rows.filter(pl.col("variant") == key).iter_rows(named=True)}
        out[key] = {m: paired_row(mine[e], sign) for m, (e, sign) in EFFECT_MEASURES.items()}
        changed = paired.changed[v]  # none: identical in every deal, an exact 0 (not a sampled share)
        out[key]["changed"] = wilson(changed, paired.units) if changed else Estimate(0.0, 0.0, 0.0, paired.units)
    if parties is not None:
        whole = read_result(ctx.path(parties), 4, names, parties=True)
        for key in names:
            mine = {r["measure"]: r for r in whole.rows.filter(pl.col("variant") == key).iter_rows(named=True)}
            out[key] |= {m: paired_row(mine[e]) for m, e in EFFECT_PARTY.items()}
    return out


def _variant_keys(name: str) -> list[str]:
    """The options of a paired run, in its order: question 9's reading keys, or the play options."""
    if name == PAIRED_DEALS or name == PAIRED_PARTIES:
        return [r.key for r in of_preset("classic")]
    return list(PLAY_OPTIONS)


# ---- the page ------------------------------------------------------------------------
def _cell(est: Estimate | None, unit: str) -> str:
    if est is None:
        return "–"
    if identical(est):
        return "0 (identical)"
    text = fmt(est, 2, percent=True) if unit == "share" else fmt(est, 2)
    return text if clear(est) else text + " °"


def _figure(results: dict[str, dict[str, Estimate]], out: Path, page: Page) -> None:
    names = [m for m in MEASURES if any(m in r for r in results.values())]
    cols = 3
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(12.5, 2.9 * rows), sharey=True)
    labels = [v.key for v in VARIANTS]
    for ax, m in zip(axes.flat, names):
        k = 100.0 if MEASURES[m][2] == "share" else 1.0
        for i, v in enumerate(VARIANTS):
            e = results[v.key].get(m)
            if e is None:
                continue
            if identical(e):  # zero by construction: drawn apart, never as a measured 0
                ax.plot([0.0], [i], marker="x", color="#999999", ms=6, ls="none")
                continue
            ax.errorbar([e.value * k], [i], xerr=[[(e.value - e.low) * k], [(e.high - e.value) * k]], fmt="o",
                        color="#0072B2" if v.paired else "#D55E00", capsize=3, ms=4)  # fmt: skip
        ax.axvline(0, color="grey", lw=0.8)
        lo, hi = ax.get_xlim()
        floor = MIN_SPAN[MEASURES[m][2]] * k  # a tiny effect stays tiny: the axis spans at least ±floor
        ax.set_xlim(min(lo, -floor), max(hi, floor))
        title = f"({MEASURES[m][0]}) {MEASURES[m][1]}" if MEASURES[m][0] != "–" else MEASURES[m][1]
        ax.set_title("\n".join(textwrap.wrap(title, 44)), fontsize=10)  # long titles wrap, never overlap
        ax.tick_params(labelsize=9)
        ax.set_xlabel("percentage points" if k == 100 else MEASURES[m][2], fontsize=9)
    for ax in axes.flat[len(names):]:
        ax.axis("off")
    axes.flat[0].set_yticks(range(len(labels)), labels)
    axes.flat[0].invert_yaxis()
    fig.tight_layout()
    page.figure(fig, out, "changes", "Change of each measure (variant − classic) with its 95% interval; blue: paired "
                "(same deals or parties), orange: unpaired (another deck); grey ×: identical to classic in every "
                "deal and party, a change of exactly 0 by construction, not a measurement. Each axis spans at least ±"
                f"{MIN_SPAN['points']:g} points, ±{100 * MIN_SPAN['share']:g} percentage points or "
                f"±{MIN_SPAN['deals']:g} deals, so an effect too small to matter at the table looks "
                "small.")  # fmt: skip


def _binding_rows(bind: dict[str, dict[str, Estimate]]) -> pl.DataFrame:
    """:func:`effect_changes`' results for each play option as a page table (one row per option)."""
    return pl.DataFrame([{"variant": f"`{k}`", "deals": fmt_n(b["changed"].n),
                          "deals changed": fmt(b["changed"], 2, percent=True),
                          "gain per seat-deal": _cell(b["gain"], "points"), "remiz rate": _cell(b["remiz"], "share"),
                          "pass rate": _cell(b["pass"], "share")} for k, b in bind.items()])  # fmt: skip


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _answer(results: dict[str, dict[str, Estimate]]) -> str:
    """The headline: the variant that moves the mean gain most, the largest rule option, and
    the variants that change nothing or nothing clear."""
    variant_of = {v.key: v for v in VARIANTS}
    same = [k for k, r in results.items() if all(identical(e) for e in r.values())]
    gains = {k: r["gain"] for k, r in results.items() if k not in same}

    def said(k: str) -> str:
        e, kind = gains[k], "paired" if variant_of[k].paired else "unpaired"
        return f"{fmt(e, 3)} points per seat-deal (n = {fmt_n(e.n)} deals, {kind} 95% CI)"

    text = ""
    if gains:
        # "most" tested against every other variant (analyses.stats.leader), on the size of the move; the
        # variants identical to classic are rivals too (a move of exactly 0)
        every = {k: magnitude(r["gain"]) for k, r in results.items()}
        top, behind = leader(every)
        text = (f"The {_LABELS[top]} changes the game most ({leader_words([_LABELS[k] for k in behind], 'variant')}):"
                f" the mean gain moves by {said(top)}")
        options = [k for k in gains if k in OPTIONS]
        top_option, option_behind = leader({k: e for k, e in every.items() if k in OPTIONS}) if options else (top, [])
        if top_option != top:
            text += "; " + option_most_words(top_option, option_behind, [k for k in OPTIONS if k in same],
                                             said(top_option))
        text += "."
    if same:
        listed = "; ".join(_LABELS[k] for k in same)
        text += (f" {listed[0].upper() + listed[1:]}: identical to classic in every deal and party with `basic` "
                 "players, by construction: the way `basic` is written never lets these rules forbid its choice, so "
                 "this says nothing about the game; players the rules bind feel them (below).")  # fmt: skip
    unclear = [_LABELS[k] for k, e in gains.items() if not clear(e)]
    if unclear:
        text += f" The change of the mean gain is not statistically clear for: {', '.join(unclear)}."
    return text.strip()


def option_most_words(top: str, behind: list[str], zero: list[str], said: str) -> str:
    """The rule option that moves the mean gain most, in words that claim no more than the test:
    rivals identical to classic (``zero``: exactly 0 by construction) are named as such, so a lead
    over them is no finding; only the rivals actually measured make "most" a result."""
    measured = [k for k in OPTIONS if k != top and k not in zero]
    if not measured:
        return (f"of the rule options on the 32-card deck only the {_LABELS[top]} moves it at all with `basic` "
                f"players, by {said}: the others are identical to classic by construction (a change of exactly 0, "
                "not a measurement), so being the largest is no finding")
    words = leader_words([_LABELS[k] for k in behind], "option")
    text = f"of the rule options on the 32-card deck, the {_LABELS[top]} moves it most ({words}), by {said}"
    if zero:
        text += (f" (of its rivals, {'; '.join(_LABELS[k] for k in zero)} are identical to classic by construction, "
                 "a change of exactly 0)")
    return text


def searched_caveat(results: dict[str, dict[str, Estimate]], searched: dict[str, dict]) -> str:
    """Where the option that moves `basic` players' mean gain most does not move `pimc` players'
    clearly, say so: the "most" holds for `basic` players only."""
    moved = {k: r["gain"] for k, r in results.items() if k in OPTIONS and not all(identical(e) for e in r.values())}
    if not moved:
        return ""
    top = max(moved, key=lambda k: abs(moved[k].value))
    if top not in searched or clear(searched[top]["gain"]):
        return ""
    return (f" So the lead of the option \"{_LABELS[top]}\" is a finding about `basic` players only: with `pimc` "
            f"players its change of the mean gain, {fmt(searched[top]['gain'], 3)}, is not clear.")


def _changes_table(page: Page, base: dict[str, Estimate], results: dict[str, dict[str, Estimate]]) -> None:
    rows = []
    for m, (q, words, unit) in MEASURES.items():
        if m not in base and not any(m in r for r in results.values()):
            continue
        row = {"Q": q, "measure": words, "classic": _cell(base[m], unit).rstrip(" °") if m in base else "–"}
        rows.append(row | {k: _cell(r.get(m), unit) for k, r in results.items()})
    variants = "; ".join(f"`{v.key}` = {v.label}" for v in VARIANTS)
    page.table(pl.DataFrame(rows),
               caption="Each cell: the change with its 95% interval (shares in percentage points); ° marks an "
                       "interval that holds 0 (no clear change); *identical*: every paired difference is exactly 0; "
                       "– where the measure does not apply (no branch data for other decks; deals changed needs the "
                       "same deals). The *classic* column is the level in the classic game. "
                       f"Variants: {variants}.")  # fmt: skip
    tested = sum(1 for r in results.values() for e in r.values() if not identical(e))
    page.text(chance_misses(tested) + " (Identical cells are not counted: they are exact.) Read a single ° or a "
              "single clear cell near its edge with that in mind.")  # fmt: skip


def _sample_sizes(results: dict[str, dict[str, Estimate]]) -> str:
    parts = []
    for k, r in results.items():
        text = f"{k}: {fmt_n(r['gain'].n)} deals, {fmt_n(r['length'].n)} parties"
        if "exchange" in r:
            text += f", {fmt_n(r['exchange'].n)} branched deals with an exchange"
        parts.append(text)
    return "Sample sizes (units behind each change): " + "; ".join(parts) + "."


def _self_check(checks: dict[str, tuple[int, int]]) -> str:
    play_only = {v.key for v in VARIANTS if v.play_only}
    lines = [f"`{k}`: {fmt_n(d)} of {fmt_n(n)} deals differ" for k, (n, d) in checks.items() if k in play_only]
    ok = all(d == 0 for k, (n, d) in checks.items() if k in play_only)
    text = ("ruff, must_head and ace_covers_face change only the play (R6), so the passes, the exchanges, the "
            "dealer's use of the trump card, the hands at the first lead and every declaration must be those of the "
            "classic game, deal by deal. " + "; ".join(lines) + ". ")  # fmt: skip
    text += ("As they must: their changes of the before-play measures (pass rate, declarations, deals ending before "
             "play) are exactly zero." if ok else
             "**These should all be zero: a bug in the engine or the data.**")  # fmt: skip
    for k, (n, d) in checks.items():
        if k not in play_only:
            text += (f" `{k}` may change the exchange (R4.0: a player knows who plays before he buys); "
                     f"{fmt_n(d)} of {fmt_n(n)} of its deals differ from classic before play.")  # fmt: skip
    return text


def build(ctx: Context, out: Path) -> Page:
    page = Page("7-options", "7. Rule options",
                "What do the rule options ruff, must_head, ace_covers_face, exchange_order and the choice of deck "
                "at four players change in the answers of questions 1–6?")  # fmt: skip
    page.uses(*DATASETS)
    classic = {"deals": deal_values(ctx.scan(CLASSIC_DEALS)), "branch": branch_values(ctx.scan(CLASSIC_BRANCH)),
               "party": party_values(ctx.scan(CLASSIC_PARTY))}  # fmt: skip
    results, checks = {}, {}
    paired = effect_changes(ctx, PAIRED_DEALS, PAIRED_PARTIES)
    for v in VARIANTS:
        tables = {"deals": deal_values(ctx.scan(v.deals)), "party": party_values(ctx.scan(v.party))}
        if v.branch is not None:
            tables["branch"] = branch_values(ctx.scan(v.branch))
        if v.paired:
            tables["rows"] = row_pairs(ctx.scan(CLASSIC_DEALS), ctx.scan(v.deals))
            checks[v.key] = (tables["rows"].height, int((~tables["rows"]["same_before_play"]).sum()))
        results[v.key] = changes(classic, tables, v.paired)
        if v.paired:  # what `rams-sim effect` measures comes from its paired runs
            results[v.key] |= paired[v.key]
    page.answer = _answer(results)

    page.text(
        f"Units: {GAIN_WORDS}. Policies: `basic` at every seat. Every variant is the classic four-player game with one "
        "option changed. The four rule options use the classic seeds, so deal *d* and party *p* start from the same "
        "deck order: each change is **paired**, the mean over deals (or parties) of the variant's value minus the "
        "classic value of the same deal, with a normal 95% interval (shares are paired too: each deal's 1/0 or "
        "per-seat share). A different deck makes different deals, so the deck changes are **unpaired**: the "
        "difference of two independent means."
    )
    page.text(
        "Measures: (1) *♥A value*: mean gain of seat-deals dealt the ♥A as their only ace minus that of seat-deals "
        "dealt no ace (the four seats of a deal are not independent: deal-clustered standard error). (2) seat 0's "
        "gain from exchanging his *plain non-aces* (every card neither a trump nor an ace) minus standing pat, over "
        "hands holding at least one and deals whose talon allows it (branch data: the same deal replayed with each "
        "exchange option of seat 0). (3) *ends before play*: no trick is played (a rams, four aces, a lone player "
        "taking all, or nobody playing); this counts the deals in which one player alone plays and takes the five "
        "tricks without play, which page 3's *ends before play* leaves out, so page 3's share of the same classic "
        "deals is lower by exactly those deals. *Declaration*: any seat declares a jack pair, a rams or four aces "
        "(R5). "
        "(4) *pass rate*: share of seat-deals passing; *passing minus exchanging*: seat 0 dealt no ace, branch data. "
        "(5) *dealer's edge*: the dealer's gain minus the mean gain of the others of the same deal. (6) parties from "
        "100: deals played, and whether seat 0 (who deals first) wins. *Remiz*: a player who played and took no "
        "trick (R7.2). *Deals changed*: the share of deals in which any seat's score, decision or card differs "
        "(paired variants only): how often an option matters at all, even where the mean does not move. The "
        "paired changes of gain, remiz, ends before play, pass rate, deals changed and the parties are "
        "`rams-sim effect`'s (the same deals played under both rules in one run; deal-clustered intervals)."
    )

    page.heading("Changes, variant − classic")
    _changes_table(page, classic_levels(classic), results)
    page.text(_sample_sizes(results))
    same = [k for k, r in results.items() if all(identical(e) for e in r.values())]
    if same:
        why = "; ".join(f"with `{k}` {_SAME_WHY[k]}" for k in same if k in _SAME_WHY)
        page.text(f"{', '.join(f'`{k}`' for k in same)}: every deal, branched deal and party came out exactly as in "
                  "the classic game (every paired difference is 0, so the interval is the single point 0). This "
                  f"follows from how the `basic` policy is written, not from the game ({why}): the data only "
                  "confirm that the engine applies these rules without side effects. Players who would choose "
                  "otherwise feel them: see the table of random players below.")  # fmt: skip
    _figure(results, out, page)

    page.heading("When the play options bind: a table of random players")
    bind = effect_changes(ctx, RANDOM_PAIRED)
    page.table(_binding_rows(bind), caption=(
        "The same options at a table where all four seats play `random` (every legal card equally likely, so a player "
        "breaks a rule of play whenever it allows him to), paired on the same deals against the classic rules at that "
        f"table (`rams-sim effect`, dataset `{RANDOM_PAIRED}`). *Deals changed*: deals in which any seat's score, decision "
        "or card differs (Wilson 95% interval); the other columns as above, variant − classic, ° = the interval "
        "holds 0."))  # fmt: skip
    page.text(chance_misses(4 * len(bind)))
    most, behind = leader({k: b["changed"] for k, b in bind.items()})
    page.answer += (f" At a table of random players, who break the rules of play whenever allowed, `{most}` changes "
                    f"the most deals ({leader_words([f'`{k}`' for k in behind], 'option')}): "
                    f"{fmt(bind[most]['changed'], 1, percent=True)} of them (n = {fmt_n(bind[most]['changed'].n)}). "
                    f"{MOST_TESTED}")

    page.heading("When the play options bind: a table of searching players")
    searched = effect_changes(ctx, SEARCH_PAIRED)
    page.table(_binding_rows(searched), caption=(
        "The same options at a table where all four seats play `pimc` (the search of docs/SEARCH.md at its "
        "defaults): a player who chooses each card by looking ahead, not by a fixed rule, so the rules of "
        f"play can forbid the card it wants. Paired on the same deals against the classic rules (`{SEARCH_PAIRED}`); "
        "columns as above."))  # fmt: skip
    page.text(chance_misses(4 * len(searched)))
    page.answer += (" With searching players at every seat (`pimc`, n = "
                    f"{fmt_n(next(iter(searched.values()))['changed'].n)} deals each) the rules of play change "
                    + ", ".join(f"{fmt(b['changed'], 1, percent=True)} of deals (`{k}`)" for k, b in searched.items())
                    + " and move the mean gain per seat-deal by "
                    + ", ".join(f"{fmt(b['gain'], 3)}" + ("" if clear(b["gain"]) else " (not clear)")
                                for b in searched.values()) + ".")  # fmt: skip
    page.answer += searched_caveat(results, searched)
    page.facts["overtrump"] = overtrump_fact(bind, searched)

    same = [k for k, r in results.items() if all(identical(e) for e in r.values())]
    moved = {k: r["gain"] for k, r in results.items() if k in OPTIONS and k not in same}
    page.takeaways = [
        "The deck changes the game far more than any rule option: the mean gain per seat-deal moves by "
        + ", ".join(f"{fmt(results[k]['gain'], 2)} with {DECK_CHOICES_4P[k]} cards" for k in DECK_CHOICES_4P)
        + " (against 32).",
        *([f"{_first_up('; '.join(_LABELS[k] for k in same))}: never change a `basic` player's "
           "result, because `basic` never makes the choices these rules forbid."] if same else []),
        "Against players who would break them, the rules of play bite: at a table of random players they change "
        + ", ".join(f"{fmt(b['changed'], 1, percent=True)} of deals (`{k}`)" for k, b in bind.items()) + ".",
        *(["The other options move the mean gain of `basic` players by little: "
           + ", ".join(f"{fmt(e, 3)} ({_LABELS[k]})" for k, e in moved.items()) + " points per seat-deal."]
          if moved else []),
    ]  # fmt: skip

    page.heading("Self-check: options of play leave the deal before play alone")
    page.text(_self_check(checks))
    return page


def overtrump_fact(bind: dict[str, dict], searched: dict[str, dict]) -> str:
    """The player's guide's sentence on whether overtrump (R6.3) matters: how many deals the duty changes and
    how far it moves the mean gain with searching players, and with random players who break it when allowed."""
    pimc, rand = searched["overtrump"], bind["overtrump"]
    rare = "hardly ever: " if pimc["changed"].high < 0.05 else ""  # fewer than 1 deal in 20, at the interval's top
    moved = fmt(pimc["gain"], 3) + " points a deal" + ("" if clear(pimc["gain"]) else " (not clear of 0)")
    return _first_up(f"{rare}with searching players (`pimc`) at every seat, the duty to overtrump (R6.3) changes "
                     f"{fmt(pimc['changed'], 1, percent=True)} of deals and moves a seat's mean gain by {moved}; "
                     f"even random players, who break it whenever they may, see "
                     f"{fmt(rand['changed'], 1, percent=True)} of deals change (95% CIs).")
