"""Question 8: the rule systems of the sources side by side (issue 6).

For every implemented preset of R9 (analyses/data.py builds its datasets from the preset
list, so a preset joins the page when it is implemented), at the preset's own table size
and deck:

* party length in deals (``basic`` at every seat), mean and median;
* how often the first dealer (seat 0) and first hand (seat 1) win the party, against the
  fair share;
* how much skill matters: seat 0's party wins with ``expert`` among ``random`` players
  minus its wins as a ``random`` player among the same, on the same seeds (paired per party);
* how often a deal ends at a declaration (four aces, a rams, jacks ending the party, or a
  preset's own winning declarations) instead of being played;
* how the parties end (EndKind shares) and the games' own features: how often the widow is
  taken (duel, modern, zone), the stake a party is settled at (duel's dave), redeals
  (modern) and the прокат (zone).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import polars as pl

from rams_sim.record import EndKind, Outcome
from rams_sim.rules import PRESETS, Rules
from rams_sim.runs.effect import read_result
from rams_sim.runs.summary import Estimate

from .common import (
    MOST_TESTED,
    Context,
    Page,
    chance_misses,
    clear,
    fmt,
    fmt_n,
    leader,
    leader_words,
    mean_estimate,
    paired_difference,
    row_estimate,
    share,
)
from .data import PRESET_BASES
from .q6_party import length_summary, parties, wins_by_seat
from .stats import (
    estimate_columns,
    identical,
    paired_row,
    simultaneous,
    simultaneous_share,
    simultaneous_z,
    widen,
)

IMPLEMENTED = tuple(p for p, info in PRESETS.items() if info.implemented)
KINDS = ("deals", "parties", "random", "expert0")
DATASETS = tuple(f"variant-{p}-{k}" for p in IMPLEMENTED for k in (*KINDS, "parties-expert", "expert0-basic")) + tuple(
    f"variant-{p}-paired-{unit}" for p in PRESET_BASES for unit in ("deals", "parties"))
# outcomes in which the deal is played out or nobody/one player plays: every other outcome
# ends the deal at a declaration (R5), whatever codes a preset adds
NOT_DECLARATION = (Outcome.PLAYED, Outcome.LONE, Outcome.NOBODY, Outcome.VOID)
FIRST_DEALER, FIRST_HAND = 0, 1


def declaration_ends(lf: pl.LazyFrame | pl.DataFrame) -> Estimate:
    """Share of deals (one row per deal: seat 0's) that end at a declaration, Wilson 95%."""
    outcome = lf.lazy().filter(pl.col("seat") == 0).select("outcome").collect()["outcome"]
    return share(~outcome.is_in([int(o) for o in NOT_DECLARATION]))


def seat_wins(lf: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """One row per party: ``party`` and ``won`` (1.0 if seat 0 won the party, else 0.0)."""
    return (
        lf.lazy().filter(pl.col("seat") == FIRST_DEALER)
        .select("party", pl.col("won").cast(pl.Float64)).sort("party").collect()
    )  # fmt: skip


def skill(random_wins: pl.DataFrame, expert_wins: pl.DataFrame) -> Estimate:
    """Seat 0's party wins as ``expert`` minus as ``random`` (the others random), paired by
    party: both tables are :func:`seat_wins` of the same seeds."""
    return paired_difference(random_wins, expert_wins, "party", "won")


def end_shares(lf: pl.LazyFrame | pl.DataFrame) -> dict[EndKind, Estimate]:
    """Share of parties (one row per party: seat 0's) ending in each way, Wilson 95%."""
    kinds = lf.lazy().filter(pl.col("seat") == 0).select("end_kind").collect()["end_kind"]
    return {kind: share(kinds == int(kind)) for kind in EndKind if kind != EndKind.NONE}


def game_features(deals: pl.LazyFrame | pl.DataFrame, party_lf: pl.LazyFrame | pl.DataFrame) -> dict[str, Estimate]:
    """The R9 games' own figures: per deal, the widow taken, a redeal demanded, a прокат paid;
    per party, the stake it was settled at (mean, normal 95%)."""
    per_deal = (
        deals.lazy().group_by("deal")
        .agg(pl.col("widow").first() >= 0, pl.col("redeals").first() > 0, pl.col("prokat").any())
        .collect()
    )  # fmt: skip
    stake = party_lf.lazy().filter(pl.col("seat") == 0).select("stake").collect()["stake"]
    return {
        "widow": share(per_deal["widow"]), "redeal": share(per_deal["redeals"]), "prokat": share(per_deal["prokat"]),
        "stake": mean_estimate(stake.cast(pl.Float64)),
    }  # fmt: skip


def preset_row(ctx: Context, preset: str) -> dict:
    """Every measure of one preset: Estimates and the facts of its table (each dataset read once)."""
    rules = Rules.named(preset)
    name = f"variant-{preset}"
    lf = ctx.scan(f"{name}-parties")
    lengths = length_summary(parties(lf))
    wins = {r["seat"]: r for r in wins_by_seat(lf).iter_rows(named=True)}
    as_random, as_expert = seat_wins(ctx.scan(f"{name}-random")), seat_wins(ctx.scan(f"{name}-expert0"))
    return {
        "preset": preset, "rules": rules, "parties": lengths["n"],
        "length": lengths["mean"], "median": lengths["median"], "unfinished": lengths["unfinished"],
        "fair": wins[FIRST_DEALER]["fair"],
        "dealer": row_estimate(wins[FIRST_DEALER]), "first_hand": row_estimate(wins[FIRST_HAND]),
        "skill": skill(as_random, as_expert),
        # the same among basic players: seat 0 expert vs basic on the same seeds (the parties of variant-*-parties)
        "skill_basic": skill(seat_wins(lf), seat_wins(ctx.scan(f"{name}-expert0-basic"))),
        "as_random": share(as_random["won"] > 0), "as_expert": share(as_expert["won"] > 0),
        "declared": declaration_ends(ctx.scan(f"{name}-deals")),
        "ends": end_shares(lf),
        **game_features(ctx.scan(f"{name}-deals"), lf),
    }  # fmt: skip


def points(est: Estimate) -> str:
    """A difference of two shares in percentage points: ``+64.1 [62.2, 66.0]``."""
    text = fmt(Estimate(100 * est.value, 100 * est.low, 100 * est.high, est.n), 1)
    return ("+" + text) if est.value > 0 else text


def joint(rows: list[dict], key: str) -> dict[str, Estimate]:
    """Per preset, the interval of ``rows[key]`` widened to hold jointly over every system of the
    page (Bonferroni over the presets): a verdict naming systems ("worse in …", "6 of 9") judges these."""
    return simultaneous({r["preset"]: r[key] for r in rows})


def fair_share_verdicts(rows: list[dict]) -> tuple[list[str], list[str]]:
    """The presets whose first dealer wins clearly more, and clearly less, than the fair share, each
    Wilson interval simultaneous over the presets."""
    wide = {r["preset"]: simultaneous_share(r["dealer"], len(rows)) for r in rows}
    fair = {r["preset"]: r["fair"] for r in rows}
    return ([p for p, e in wide.items() if e.low > fair[p]], [p for p, e in wide.items() if e.high < fair[p]])


def _answer(rows: list[dict], extra: str = "") -> str:
    """The headline; each "most" is tested against every other preset (:func:`analyses.stats.leader`)."""
    by = {r["preset"]: r for r in rows}
    skilled, skill_behind = leader({k: r["skill"] for k, r in by.items()})
    longest, long_behind = leader({k: r["length"] for k, r in by.items()})
    shortest, short_behind = leader({k: r["length"] for k, r in by.items()}, lowest=True)

    def named(keys: list[str]) -> list[str]:
        return [f"`{k}`" for k in keys]

    text = (f"Skill matters most in `{skilled}` ({leader_words(named(skill_behind), 'preset')}): an expert among "
            f"random players wins the party {points(by[skilled]['skill'])} percentage points more often than a random "
            f"player in his seat (n = {fmt_n(by[skilled]['skill'].n)} paired parties). Parties are longest in "
            f"`{longest}` ({fmt(by[longest]['length'], 2)} deals, {leader_words(named(long_behind), 'preset')}) and "
            f"shortest in `{shortest}` ({fmt(by[shortest]['length'], 2)}, {leader_words(named(short_behind), 'preset')}"
            f"). {extra + ' ' if extra else ''}{MOST_TESTED}")
    skill_joint = joint(rows, "skill")
    unclear = [p for p, e in skill_joint.items() if not clear(e)]
    if unclear:
        text += (f" Skill's effect is not statistically clear (jointly over the {len(rows)} systems) in: "
                 f"{', '.join(unclear)}.")
    return text


def _expert_lengths(rows: list[dict], expert: dict[str, Estimate]) -> str:
    """Does the order of party lengths hold with `expert` players at every seat? (the same parties' seeds)"""
    longest, long_behind = leader(expert)
    shortest, short_behind = leader(expert, lowest=True)
    basic_long = max(rows, key=lambda r: r["length"].value)["preset"]
    basic_short = min(rows, key=lambda r: r["length"].value)["preset"]
    same = "the same" if (longest, shortest) == (basic_long, basic_short) else "not the same"
    return (f"With `expert` players at every seat ({fmt_n(next(iter(expert.values())).n)} parties a preset) the "
            f"longest parties are in `{longest}` ({fmt(expert[longest], 2)} deals, "
            f"{leader_words([f'`{k}`' for k in long_behind], 'preset')}) and the shortest in `{shortest}` "
            f"({fmt(expert[shortest], 2)}, {leader_words([f'`{k}`' for k in short_behind], 'preset')}): {same} "
            "ends of the scale as with `basic`.")


def paired_presets(ctx: Context) -> list[dict]:
    """Each preset of PRESET_BASES against the preset whose game it varies, through `rams-sim effect`
    (rams_sim/runs/effect.py): the same keys (deck orders and coins) under both, `basic` players. Per preset:
    ``changed`` (share of deals altered), the paired change of the mean score delta, of the party's
    length and of the first dealer's win share (Estimates, 95% one at a time)."""
    out = []
    for preset, base in PRESET_BASES.items():
        players = Rules.named(base).players
        deals = read_result(ctx.path(f"variant-{preset}-paired-deals"), players, [preset])
        whole = read_result(ctx.path(f"variant-{preset}-paired-parties"), players, [preset], parties=True)
        est = {r["measure"]: paired_row(r)
               for frame in (deals.rows, whole.rows) for r in frame.iter_rows(named=True)}  # fmt: skip
        out.append({"preset": preset, "base": base, "changed": deals.changed[0] / deals.units, "deals": deals.units,
                    "parties": whole.units, "delta": est["delta"], "length": est["length"],
                    "first_dealer_wins": est["first_dealer_wins"]})  # fmt: skip
    return out


def skill_cell(est: Estimate, joint: Estimate) -> str:
    """A skill cell: percentage points with ° where the joint interval holds 0, or "0 (identical)"."""
    if identical(est):
        return "0 (identical)"
    return points(est) + ("" if clear(joint) else " °")


def fair_mark(preset: str, above: list[str], below: list[str]) -> str:
    """▲ / ▼ where the first dealer wins clearly more / less than the fair share (jointly over the systems)."""
    return " ▲" if preset in above else " ▼" if preset in below else ""


SIDE_BY_SIDE = {"length": "party_length", "dealer": "first_dealer_wins", "first_hand": "first_hand_wins",
                "as_random": "seat0_wins_as_random", "as_expert": "seat0_wins_as_expert",
                "skill": "skill_expert_minus_random", "skill_basic": "skill_expert_minus_basic",
                "declared": "deals_ending_at_declaration"}  # fmt: skip


def side_by_side_numbers(rows: list[dict]) -> pl.DataFrame:
    """The side-by-side table as numbers for the CSV: the table's facts, then per measure its
    ``estimate``, ``ci_low``, ``ci_high`` and ``n`` (shares and differences of shares as
    fractions, 95% one at a time), the fair share and the median length."""
    return pl.DataFrame([{
        "preset": r["preset"], "players": r["rules"].players, "deck": r["rules"].deck_size, "start": r["rules"].start,
        "parties": r["parties"], "median_length": r["median"].value, "fair_share": r["fair"],
        "unfinished_parties": r["unfinished"],
        **{k: v for key, name in SIDE_BY_SIDE.items() for k, v in estimate_columns(r[key], f"{name}_").items()},
    } for r in rows])  # fmt: skip


def _paired_table(rows: list[dict]) -> tuple[pl.DataFrame, int]:
    """The paired presets as a page table, intervals simultaneous over the table (Bonferroni)."""
    cells = 3 * len(rows)
    z = simultaneous_z(cells)

    def cell(est: Estimate, text) -> str:
        if identical(est):
            return "0 (identical)"
        wide = widen(est, z)
        return text(wide) + (" ✓" if clear(wide) else "")

    table = pl.DataFrame([{
        "preset": f"`{r['preset']}`", "against": f"`{r['base']}`", "deals changed": f"{100 * r['changed']:.1f}%",
        "score delta a seat-deal": cell(r["delta"], lambda e: fmt(e, 3)),
        "party length, deals": cell(r["length"], lambda e: fmt(e, 2)),
        "first dealer wins, points": cell(r["first_dealer_wins"], points),
        "n deals / parties": f"{fmt_n(r['deals'])} / {fmt_n(r['parties'])}",
    } for r in rows])  # fmt: skip
    return table, cells


def _takeaways(rows: list[dict]) -> list[str]:
    """Plain rules of thumb from the side-by-side rows (each figure with its 95% interval)."""
    by_skill = sorted(rows, key=lambda r: r["skill"].value)
    by_length = sorted(rows, key=lambda r: r["length"].value)
    by_basic = sorted(rows, key=lambda r: r["skill_basic"].value)
    basic_joint = joint(rows, "skill_basic")
    worse = ", ".join(f"`{p}`" for p, e in basic_joint.items() if e.high < 0)  # clearly below 0, jointly
    above, below = fair_share_verdicts(rows)
    same = ", ".join(f"`{r['preset']}`" for r in rows if identical(r["skill_basic"]))
    return [
        f"Skill pays {'in every system' if all(e.low > 0 for e in joint(rows, 'skill').values()) else 'unevenly'}"
        " (jointly over the systems), by very "
        "different amounts: an expert among random players wins "
        f"{points(by_skill[-1]['skill'])} percentage points more parties than a random player in "
        f"`{by_skill[-1]['preset']}`, {points(by_skill[0]['skill'])} in `{by_skill[0]['preset']}`.",
        f"Among ordinary (`basic`) players an expert at seat 0 wins from {points(by_basic[-1]['skill_basic'])} "
        f"percentage points more parties than a `basic` player in his seat (`{by_basic[-1]['preset']}`) to "
        f"{points(by_basic[0]['skill_basic'])} (`{by_basic[0]['preset']}`)"
        + (f": in {worse} the `expert` policy plays worse than `basic` (clear jointly over the {len(rows)} systems)"
           if worse else f"; in no system does `expert` play clearly worse than `basic` (jointly over the {len(rows)} "
           "systems)")
        + (f"; in {same} the two win exactly the same parties, a zero by construction (the two policies play "
           "alike there), not a finding." if same else "."),
        f"A party lasts from {fmt(by_length[0]['length'], 2)} deals (`{by_length[0]['preset']}`) to "
        f"{fmt(by_length[-1]['length'], 2)} (`{by_length[-1]['preset']}`), with `basic` players.",
        f"Dealing first wins clearly more than a fair share of parties (jointly over the systems) in {len(above)} of "
        f"{len(rows)} systems"
        + (f" ({', '.join(f'`{p}`' for p in above)})" if above else "")
        + f" and less in {len(below)}" + (f" ({', '.join(f'`{p}`' for p in below)})" if below else "") + ".",
    ]


def build(ctx: Context, out: Path) -> Page:
    page = Page("8-variants", "8. The rule systems side by side",
                "How do the rule systems of the sources compare: how long is a party, how often do the first dealer "
                "and first hand win it, how much does skill matter, and how often does a deal end in a declaration?")  # fmt: skip
    page.uses(*DATASETS)
    rows = [preset_row(ctx, p) for p in IMPLEMENTED]
    expert = {p: length_summary(parties(ctx.scan(f"variant-{p}-parties-expert")))["mean"] for p in IMPLEMENTED}
    page.answer = _answer(rows, _expert_lengths(rows, expert))
    page.takeaways = _takeaways(rows)
    missing = [p for p, info in PRESETS.items() if not info.implemented]
    page.text(
        "Each preset is played at its own table size, deck and start score (RULES.md R9; `rams-sim rules show NAME`). "
        "*Party length*: deals until the party is won (a score at zero, R8.2; `modern`: a score of 20; `zone`: "
        "exactly zero; `duel`: also a declaration or a declined dave), `basic` at every seat. *First dealer* is "
        "seat 0, who deals the first deal; *first hand* is seat 1, on his left; the fair share is the share of finished "
        "parties divided by the number of players. *Skill*: seat 0 plays `expert` among `random` players, and again "
        "`random` among the same players on the same seeds; the difference of his party wins, paired by party. "
        "*Skill among basic players*: the same with `basic` players around him, against `basic` in his seat. "
        "*Ends at a declaration*: the deal is decided before the first lead by four aces, a rams or jacks (R5) or a "
        "preset's own winning declaration, `basic` players."
        + (f" Not implemented yet, so not on this page: {', '.join(f'`{m}`' for m in missing)}." if missing else "")
    )
    skill_joint, basic_joint = joint(rows, "skill"), joint(rows, "skill_basic")
    above, below = fair_share_verdicts(rows)
    table = [{
        "preset": f"`{r['preset']}`", "players": r["rules"].players, "deck": r["rules"].deck_size,
        "start": r["rules"].start, "parties": fmt_n(r["parties"]),
        "party length, deals": fmt(r["length"], 2), "median": f"{r['median'].value:g}",
        "first dealer wins": fmt(r["dealer"], 1, percent=True) + fair_mark(r["preset"], above, below),
        "first hand wins": fmt(r["first_hand"], 1, percent=True),
        "fair share": f"{100 * r['fair']:.1f}%",
        "seat 0 wins as random": fmt(r["as_random"], 1, percent=True),
        "as expert": fmt(r["as_expert"], 1, percent=True),
        "skill: expert − random, points": skill_cell(r["skill"], skill_joint[r["preset"]]),
        "skill among basic players, points": skill_cell(r["skill_basic"], basic_joint[r["preset"]]),
        "deals ending at a declaration": fmt(r["declared"], 2, percent=True),
    } for r in rows]  # fmt: skip
    page.heading("Side by side")
    wide = pl.DataFrame(table)
    first = ["players", "deck", "start", "parties", "party length, deals", "median", "first dealer wins",
             "first hand wins", "fair share"]  # fmt: skip
    page.split_table(wide, ["preset"], [first, [c for c in wide.columns if c not in ("preset", *first)]], out,
                     "side-by-side", caption="95% intervals in brackets (normal for means and paired differences, "
                     "Wilson for shares). The marks judge intervals widened to hold jointly over the "
                     f"{len(rows)} systems (Bonferroni): ° marks a skill difference whose joint interval holds 0; "
                     "▲ / ▼ a first dealer who wins clearly more / less than the fair share.",
                     data=side_by_side_numbers(rows))  # fmt: skip
    page.text(chance_misses(6 * len(rows)) + " Unfinished parties (stopped at `max_deals`): "
              + ", ".join(f"`{r['preset']}` {r['unfinished']}" for r in rows) + ".")  # fmt: skip
    page.text("Skill sample sizes: " + ", ".join(f"`{r['preset']}` {fmt_n(r['skill'].n)} parties" for r in rows)
              + "; deals: " + ", ".join(f"`{r['preset']}` {fmt_n(r['declared'].n)}" for r in rows) + ".")

    page.heading("How the parties end, and the games' own features")
    kinds = [k for k in EndKind if k != EndKind.NONE and any(r["ends"][k].value > 0 for r in rows)]
    page.table(pl.DataFrame([{
        "preset": f"`{r['preset']}`",
        **{k.name.lower().replace("_", " "): fmt(r["ends"][k], 1, percent=True) for k in kinds},
    } for r in rows]), caption="Share of `basic` parties by how they ended (EndKind, RULES.md R5-R8 and R9); "
               "95% Wilson intervals; n = the parties above.")  # fmt: skip
    page.table(pl.DataFrame([{
        "preset": f"`{r['preset']}`",
        "widow taken, % of deals": fmt(r["widow"], 1, percent=True),
        "party stake (dave), mean": fmt(r["stake"], 3),
        "redeal demanded, % of deals": fmt(r["redeal"], 2, percent=True),
        "прокат paid, % of deals": fmt(r["prokat"], 1, percent=True),
    } for r in rows]), caption="`basic` players; per deal from the preset's deal data, the stake per party. The widow "
               "exists in `duel`, `duel-trump`, `modern` and `zone`, the dave in the duel presets, the redeal in "
               "`modern`, the прокат in `zone`; elsewhere these are 0 (or 1 for the stake) by construction.")  # fmt: skip

    page.heading("Each system against the one it varies, on the same deals")
    paired = paired_presets(ctx)
    table, cells = _paired_table(paired)
    page.table(table, caption=(
        "`rams-sim effect`: every deal and party played under the named preset and under the one whose game it "
        "varies, from the same keys (the same deck orders and coins where the decks agree; `handbook` deals four "
        "players 52 cards where classic deals 32, so there the pairing shares the keys, not the cards). Paired "
        "differences, preset − the one it varies, `basic` players; deal-clustered intervals simultaneous over the "
        f"table's {cells} (Bonferroni); ✓ excludes 0; *identical*: the same score in every deal and party, an "
        "exact 0. A deal counts as changed when any recorded output differs: `negotiations` writes each player's "
        "announcement (R4.0a) in every deal, but `basic` players never read one, so no score moves."))  # fmt: skip

    # horizontal bars: the preset names read level, one per row, never overlapping
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.45 * len(rows) + 1.2), sharey=True)
    names = [r["preset"] for r in rows]
    for ax, key, label, scale in ((axes[0], "length", "party length (deals)", 1.0),
                                  (axes[1], "skill", "expert − random: party wins (percentage points)", 100.0)):  # fmt: skip
        est = [r[key] for r in rows]
        ax.barh(names, [e.value * scale for e in est], xerr=[e.half_width * scale for e in est], capsize=3,
                color="#4c72b0")  # fmt: skip
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
    axes[0].invert_yaxis()
    fig.tight_layout()
    page.figure(fig, out, "side-by-side", "Party length and the value of skill by rule system; error bars are 95% "
                "intervals.")  # fmt: skip
    return page
