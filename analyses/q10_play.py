"""Question 10: playing the cards: the first lead, the first follow, the dealer's trump card, the end of a party.

Each decision is replayed both ways on the same deals (common random numbers), everything else unchanged:

* *The first card* (R6): seat 0's first card of the deal is forced to each of his legal cards in turn (policy
  parameter ``first_card`` = 0..4, the j-th legal card in card-id order, :mod:`rams_sim.policies`), the other
  seats and his later cards playing as before, in ``play-4p-first<j>``; ``play-4p`` is the same deals unforced.
  Which cards were legal is read from the runs themselves (the distinct first cards the five runs played), so
  no rule of play is written again here. A deal gives one paired difference per comparison of two card classes
  (e.g. *a plain ace* against *the top trump*) when both are among the legal cards.
* *The dealer's trump card* (R4.3): seat 0 as the playing dealer takes the turned-up trump card
  (``take_trump=1``) or declines it (``take_trump=0``) on the same deals (``play-4p-take<v>``), against what
  his policy chooses (``play-4p``).
* *The end of a party* (R8.3): seat 0 never announces that a trick took him to zero
  (``party-100-noannounce0``) on the same parties as ``party-100-remaining``, where he announces at once.

Among `basic` players (1,000,000 deals) and `expert` players (500,000 deals): the searching player is not
replayed here (each of its deals costs milliseconds six times over).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import polars as pl

from rams_sim.cards import RANKS_PER_SUIT
from rams_sim.runs.summary import Estimate

from .common import GAIN, Context, Page, clear, fmt, fmt_n, mean_estimate
from .data import PLAY_DEALS, PLAY_PROBES
from .exchange import mark, seat_position
from .stats import estimate_columns, simultaneous_z, widen

KINDS = tuple(PLAY_DEALS)  # basic, expert
ACE, KING, JACK = RANKS_PER_SUIT - 1, RANKS_PER_SUIT - 2, RANKS_PER_SUIT - 4  # rank indices (2 = 0 .. A = 12)
PLAYERS = 4
PARTIES_BASE, PARTIES_QUIET = "party-100-remaining", "party-100-noannounce0"


def run_name(kind: str, what: str = "") -> str:
    """``play-4p`` (basic) or ``play-4p-expert``, with ``-first<j>`` / ``-take<v>`` appended."""
    return "play-4p" + ("" if kind == "basic" else f"-{kind}") + (f"-{what}" if what else "")


DATASETS = tuple(run_name(k, w) for k in KINDS for w in ("", *(f"first{j}" for j in range(PLAY_PROBES)),
                                                          "take0", "take1")) + (PARTIES_BASE, PARTIES_QUIET)


# ---- the first card ------------------------------------------------------------------------------------
def first_cards(ctx: Context, kind: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Seat 0's first card replayed: ``deals`` (one row per deal where seat 0 played a first card: deal,
    position, trump, card played unforced ``own``, its gain ``g_own``, ``leads`` whether he led trick 1,
    ``led`` the card led to it) and ``options`` (one row per deal and legal card: deal, card, gain). A card
    that two forced runs both played must give both the same gain (the runs are deterministic): checked."""
    base = ctx.scan(run_name(kind))
    seat0 = (base.filter((pl.col("seat") == 0) & (pl.col("card1") >= 0))
             .select("deal", "dealer", "trump", pl.col("card1").alias("own"), GAIN.alias("g_own"),
                     ((pl.col("led") & 1) != 0).alias("leads")))  # fmt: skip
    leader = base.filter((pl.col("led") & 1) != 0).select("deal", pl.col("card1").alias("led"))
    deals = seat0.join(leader, on="deal").collect().sort("deal")
    deals = deals.with_columns(pl.Series("position", seat_position(deals["dealer"], PLAYERS))).drop("dealer")
    parts = [ctx.scan(run_name(kind, f"first{j}")).filter((pl.col("seat") == 0) & (pl.col("card1") >= 0))
             .select("deal", pl.col("card1").alias("card"), GAIN.alias("gain")) for j in range(PLAY_PROBES)]
    forced = pl.concat(parts).collect()
    options = forced.group_by("deal", "card").agg(pl.col("gain").min().alias("gain"), pl.col("gain").max().alias("hi"))
    if (options["gain"] != options["hi"]).any():
        raise ValueError(f"{kind}: a card forced in two runs gave two results; the replays are not deterministic")
    own = deals.join(options, left_on=["deal", "own"], right_on=["deal", "card"], how="left")
    if own["gain"].null_count() or (own["gain"] != own["g_own"]).any():
        raise ValueError(f"{kind}: the unforced first card is not among the forced runs' or scores otherwise")
    return deals, options.drop("hi").sort("deal", "card")


def with_card_features(options: pl.DataFrame, deals: pl.DataFrame) -> pl.DataFrame:
    """``options`` plus ``rank`` (0 = 2 .. 12 = A), ``trump`` (the card is a trump), ``ace`` and ``plain`` (a
    plain card, not an ace), from the card ids and the deal's trump suit."""
    o = options.join(deals.select("deal", pl.col("trump").alias("t")), on="deal")
    return o.with_columns((pl.col("card") % RANKS_PER_SUIT).alias("rank"),
                          ((pl.col("card") // RANKS_PER_SUIT) == pl.col("t")).alias("trump")).with_columns(
        (pl.col("rank") == ACE).alias("ace")).with_columns((~pl.col("trump") & ~pl.col("ace")).alias("plain"))


def pick(o: pl.DataFrame, mask: pl.Expr, highest: bool, name: str, at_least: int = 1) -> pl.DataFrame:
    """Per deal, the gain of one card among the legal cards matching ``mask``: the highest or lowest rank
    (ties: the lower id), where at least ``at_least`` cards match. Columns: deal, ``name``."""
    m = o.filter(mask)
    counts = m.group_by("deal").len().filter(pl.col("len") >= at_least).select("deal")
    ordered = m.join(counts, on="deal").sort(["deal", "rank", "card"], descending=[False, highest, False])
    return ordered.group_by("deal", maintain_order=True).first().select("deal", pl.col("gain").alias(name))


@dataclass(frozen=True)
class Comparison:
    """Two card classes of one decision compared deal by deal: ``a`` − ``b`` (column names of the per-deal
    class gains), where ``when`` holds (an expression over the deal's columns), in words."""

    decision: str  # "lead" or "follow"
    a_words: str  # "a plain ace"
    b_words: str  # "the top trump"
    a: str
    b: str
    condition: str = ""  # "with no plain ace"
    when: pl.Expr | None = None

    @property
    def words(self) -> str:
        return f"{self.a_words} rather than {self.b_words}" + (f", {self.condition}" if self.condition else "")

    label: str = ""  # the figure's words (short)


CLASSES_LEAD = {  # per-deal card classes when seat 0 leads trick 1: (mask, highest, at least)
    "plain_ace": (pl.col("ace") & ~pl.col("trump"), False, 1),
    "top_trump": (pl.col("trump"), True, 1),
    "low_trump": (pl.col("trump"), False, 2),
    "low_plain": (pl.col("plain"), False, 1),
    "high_plain": (pl.col("plain"), True, 2),
}
CLASSES_FOLLOW = {
    "lowest": (pl.lit(True), False, 2),  # ordered by (trump, rank): the cheapest legal card (below)
    "highest": (pl.lit(True), True, 2),
}
LED_WORDS = {"trump": "a trump was led", "plain_ace": "a plain ace was led", "plain": "another plain card was led"}
NO_PLAIN_ACE = pl.col("plain_ace").is_null()
LED_SHORT = {"trump": "trump led", "plain_ace": "plain ace led", "plain": "other plain led"}
COMPARISONS = (
    Comparison("lead", "a plain ace", "the top trump", "plain_ace", "top_trump", label="plain ace − top trump"),
    Comparison("lead", "a plain ace", "the lowest plain card", "plain_ace", "low_plain",
               label="plain ace − lowest plain"),
    Comparison("lead", "the top trump", "the lowest plain card", "top_trump", "low_plain", "with no plain ace",
               NO_PLAIN_ACE, "top trump − lowest plain (no plain ace)"),
    Comparison("lead", "the top trump", "the lowest trump", "top_trump", "low_trump", "with two trumps or more",
               label="top trump − lowest trump (2+ trumps)"),
    Comparison("lead", "the highest plain card", "the lowest", "high_plain", "low_plain", "with no plain ace",
               NO_PLAIN_ACE, "highest plain − lowest plain (no plain ace)"),
    *(Comparison("follow", "the cheapest legal card", "the dearest", "lowest", "highest", f"when {w}",
                 pl.col("led_kind") == k, f"cheapest − dearest ({LED_SHORT[k]})") for k, w in LED_WORDS.items()),
    Comparison("follow", "the policy's own card (the cheapest that wins, else the cheapest)", "the cheapest",
               "g_own", "lowest", label="own card − cheapest"),
)  # fmt: skip


def class_gains(deals: pl.DataFrame, options: pl.DataFrame) -> pl.DataFrame:
    """Per deal (``deals``' rows): the gain of each card class of CLASSES_LEAD (deals he led) or
    CLASSES_FOLLOW (deals he followed), null where the class is not among his legal cards, and
    ``led_kind`` (trump, plain_ace, plain) of the card led to trick 1."""
    o = with_card_features(options, deals)
    lead_deals = deals.filter(pl.col("leads")).select("deal")
    follow_deals = deals.filter(~pl.col("leads")).select("deal")
    out = deals
    ol = o.join(lead_deals, on="deal")
    for name, (mask, highest, at_least) in CLASSES_LEAD.items():
        out = out.join(pick(ol, mask, highest, name, at_least), on="deal", how="left")
    of = o.join(follow_deals, on="deal").with_columns(  # "cheapest" orders by (trump, rank, id), as the policies do
        (pl.col("trump").cast(pl.Int32) * RANKS_PER_SUIT + pl.col("rank")).alias("rank"))
    for name, (mask, highest, at_least) in CLASSES_FOLLOW.items():
        out = out.join(pick(of, mask, highest, name, at_least), on="deal", how="left")
    led_rank, led_trump = pl.col("led") % RANKS_PER_SUIT, (pl.col("led") // RANKS_PER_SUIT) == pl.col("trump")
    kind = pl.when(led_trump).then(pl.lit("trump")).when(led_rank == ACE).then(pl.lit("plain_ace")).otherwise(
        pl.lit("plain"))
    return out.with_columns(kind.alias("led_kind"))


def compare(gains: pl.DataFrame, c: Comparison) -> tuple[Estimate, pl.DataFrame]:
    """The paired gain per deal of class ``c.a`` over ``c.b`` on the deals of ``c.decision`` where both are
    legal and are different cards (a deal where they are the same card is not a choice), and those deals."""
    rows = gains.filter(pl.col("leads") if c.decision == "lead" else ~pl.col("leads"))
    if c.when is not None:
        rows = rows.filter(c.when)
    rows = rows.filter(pl.col(c.a).is_not_null() & pl.col(c.b).is_not_null())
    if c.a == "g_own":  # the own card against a class: every deal where he had a choice
        rows = rows.filter(pl.col("highest").is_not_null())
    d = rows.select((pl.col(c.a) - pl.col(c.b)).alias("d"), "position")
    return mean_estimate(d["d"]), d


# ---- the dealer's trump card, the announcement ---------------------------------------------------------
def trump_card(ctx: Context, kind: str) -> dict[str, Estimate]:
    """Seat 0 as the playing dealer, paired per deal: take − decline (all; by the turned-up card's rank),
    the policy's own choice − take on the deals where his policy declines, and the share it declines."""
    def seat0(name: str, cols: tuple[str, ...] = ()) -> pl.LazyFrame:
        return ctx.scan(name).filter((pl.col("seat") == 0) & (pl.col("dealer") == 0)).select("deal", *cols,
                                                                                             GAIN.alias(name))

    take, decline, own = run_name(kind, "take1"), run_name(kind, "take0"), run_name(kind)
    j = (seat0(take, ("passed", "took_trump", "trump_card"))
         .join(seat0(decline, ("took_trump",)), on="deal", suffix="_0")
         .join(seat0(own, ("took_trump",)).rename({"took_trump": "own_took"}), on="deal").collect())  # fmt: skip
    j = j.filter(~pl.col("passed"))
    if not (j["took_trump"].all() and not j["took_trump_0"].any()):
        raise ValueError(f"{kind}: take_trump=1/0 did not make the playing dealer take/decline the trump card")
    d = j[take] - j[decline]
    rank = j["trump_card"] % RANKS_PER_SUIT
    out = {"every hand": mean_estimate(d)}
    for words, m in (("the turned-up card is an ace or king", rank >= KING),
                     ("the turned-up card is a queen or jack", (rank >= JACK) & (rank < KING)),
                     ("the turned-up card is a ten or lower", rank < JACK)):
        out[words] = mean_estimate(d.filter(m))
    declines = ~j["own_took"]
    out["policy declines: own choice − take"] = mean_estimate((j[own] - j[take]).filter(declines))
    out["share declined"] = Estimate(float(declines.mean()), float("nan"), float("nan"), j.height)
    return out


def announce(ctx: Context) -> tuple[Estimate, Estimate]:
    """Seat 0 announcing at once (``party-100-remaining``) against never (``party-100-noannounce0``), paired
    by party: the difference of his wins (a share) and his starting over (resets) per party when silent."""
    def seat0(name: str) -> pl.DataFrame:
        return ctx.scan(name).filter(pl.col("seat") == 0).select("party", pl.col("won").cast(pl.Float64),
                                                                 "resets").collect()

    a, q = seat0(PARTIES_BASE), seat0(PARTIES_QUIET)
    j = a.join(q, on="party", suffix="_q")
    return mean_estimate(j["won"] - j["won_q"]), mean_estimate(j["resets_q"].cast(pl.Float64))


# ---- the page ------------------------------------------------------------------------------------------
def figure(page: Page, out: Path, rows: list[dict], z: float) -> None:
    """Every comparison under both kinds of player, simultaneous intervals (Okabe-Ito colours)."""
    fig, ax = plt.subplots(figsize=(10, 0.42 * len(COMPARISONS) + 1.3))
    colours = {"basic": "#0072B2", "expert": "#E69F00"}
    for k, kind in enumerate(KINDS):
        for i, r in enumerate(rows):
            e = widen(r[kind], z)
            y = len(rows) - 1 - i + (0.15 if k == 0 else -0.15)
            ax.plot([e.low, e.high], [y, y], color=colours[kind], lw=1.8)
            ax.plot([e.value], [y], "o", color=colours[kind], ms=5, label=kind if i == 0 else None)
    ax.axvline(0, color="#444444", lw=0.8)
    ax.set_yticks(range(len(rows)), [f"{r['decision']}: {r['short']}" for r in reversed(rows)], fontsize=10)
    ax.set_xlabel("points a deal gained by the first class over the second (simultaneous 95% interval)", fontsize=10)
    ax.tick_params(axis="x", labelsize=10)
    ax.legend(fontsize=10, loc="lower right")
    fig.tight_layout()
    page.figure(fig, out, "first-card", "Seat 0's first card: each pair of card classes compared on the same deals, "
                "among `basic` and among `expert` players; intervals hold together over every row and kind of player.")
    plt.close(fig)


METHOD = (
    "Each decision is replayed both ways on the same deals (common random numbers), everything else unchanged. "
    "*The first card* (R6): seat 0's first card of the deal is forced to each of his legal cards in turn (policy "
    "parameter `first_card`), the others and his later cards playing as before; which cards were legal is read "
    "from the replays themselves. *The dealer's trump card* (R4.3): seat 0 as the playing dealer takes the "
    "turned-up trump card (`take_trump=1`) or declines it (`take_trump=0`). *The end of a party* (R8.3): seat 0 "
    "never announces that a trick took him to zero (`announce=false`), on the same parties as a seat 0 who "
    "announces at once. Among `basic` players (1,000,000 deals) and `expert` players (500,000 deals); the "
    "searching player `pimc` is not replayed here (each of its deals costs milliseconds, six times over)."
)


def build(ctx: Context, out: Path) -> Page:
    page = Page("10-play", "10. Playing the cards",
                "Which card should a player lead, and which should he follow with? Should the dealer take the "
                "turned-up trump card? Near the end of a party, what must a player not forget?")  # fmt: skip
    page.uses(*DATASETS)
    per_kind = {}
    for kind in KINDS:
        deals, options = first_cards(ctx, kind)
        per_kind[kind] = class_gains(deals, options)
    z = simultaneous_z(len(COMPARISONS) * len(KINDS))
    rows = []
    for c in COMPARISONS:
        row = {"decision": c.decision, "words": c.words, "short": c.label, "comparison": c}
        for kind in KINDS:
            row[kind], _ = compare(per_kind[kind], c)
        rows.append(row)
    lead_share = per_kind["basic"].filter(pl.col("leads"))
    first_hand = float((lead_share["position"] == 0).mean())
    page.text(METHOD)
    page.heading("The first card: lead and follow")
    table = pl.DataFrame([{"decision": r["decision"], "play": r["words"], "deals (`basic`)": r["basic"].n,
                           "gain, `basic` players": mark(widen(r["basic"], z)), "deals (`expert`)": r["expert"].n,
                           "gain, `expert` players": mark(widen(r["expert"], z))} for r in rows])  # fmt: skip
    csv = pl.DataFrame([{"decision": r["decision"], "play": r["words"], "players": kind,
                         **estimate_columns(widen(r[kind], z))} for r in rows for kind in KINDS])  # fmt: skip
    link = page.data_file(csv, out, "first-card")
    page.table(table, key=True, caption="Seat 0's first card of the deal, one class of card against another, paired "
               "on the deals where both were among his legal cards (points a deal; ✓ = the interval excludes 0; the "
               f"intervals are simultaneous over all {len(rows) * len(KINDS)} cells, Bonferroni). *Lead*: he led the "
               f"first trick ({first_hand:.0%} of those deals as first hand, the others when the players before him "
               "passed); *follow*: another seat led it. *Plain*: not a trump; *cheapest*: the lowest by (trump or "
               f"not, rank). Numbers: {link}.")  # fmt: skip
    figure(page, out, rows, z)
    said = {d: [r for r in rows if r["decision"] == d and clear(widen(r["basic"], z))
                and clear(widen(r["expert"], z)) and (r["basic"].value > 0) == (r["expert"].value > 0)]
            for d in ("lead", "follow")}  # fmt: skip

    def rule(r: dict) -> str:
        c = r["comparison"]
        better, worse = (c.a_words, c.b_words) if r["basic"].value > 0 else (c.b_words, c.a_words)
        e, x = (widen(r[k], z) for k in KINDS)
        e, x = (v if v.value > 0 else Estimate(-v.value, -v.high, -v.low, v.n) for v in (e, x))
        return (f"{better} rather than {worse}{', ' + c.condition if c.condition else ''}: {fmt(e)} points a deal "
                f"among `basic` players (n = {fmt_n(e.n)}), {fmt(x)} among `expert` players (n = {fmt_n(x.n)})")

    verbs = {"lead": "Leading the first trick (as first hand, or the first to play after passes)",
             "follow": "Following in the first trick (second hand, third hand or dealer)"}
    for d, verb in verbs.items():
        key = "leading" if d == "lead" else "following"
        if said[d]:
            page.facts[key] = (f"{verb}, play " + "; play ".join(rule(r) for r in said[d][:3])
                               + " (same deals both ways, simultaneous 95% intervals; the others' cards unchanged).")
        else:
            page.facts[key] = (f"{verb}: no pair of card classes compared on page 10 differs clearly for both "
                               "kinds of player.")
        page.text(page.facts[key])

    def both(r: dict) -> str:
        return f"{r['decision']}, {r['words']} (`basic` {fmt(widen(r['basic'], z))}, `expert` {fmt(widen(r['expert'], z))})"

    rest = [r for r in rows if r not in said["lead"] + said["follow"]]
    disagree = [r for r in rest if all(clear(widen(r[k], z)) for k in KINDS)]  # clear both ways, opposite signs
    unclear = [r for r in rest if r not in disagree]
    if disagree:
        page.text("No rule of thumb where the two kinds of player disagree, each clearly: " + "; ".join(map(both, disagree))
                  + ". The better card there depends on how the others play.")  # fmt: skip
    if unclear:
        page.text("No rule of thumb where a difference is not clear for both kinds of player: "
                  + "; ".join(map(both, unclear)) + ".")  # fmt: skip

    page.heading("The dealer's trump card (R4.3)")
    trump = {kind: trump_card(ctx, kind) for kind in KINDS}
    names = [k for k in trump["basic"] if k != "share declined"]
    zt = simultaneous_z(len(names) * len(KINDS))
    page.table(pl.DataFrame([{"seat 0 as the playing dealer": k, "deals (`basic`)": trump["basic"][k].n,
                              "`basic` players": mark(widen(trump["basic"][k], zt)),
                              "deals (`expert`)": trump["expert"][k].n,
                              "`expert` players": mark(widen(trump["expert"][k], zt))} for k in names]),
               caption="Taking the turned-up trump card (and giving up the card his policy gives for it) against "
               "declining it, paired per deal, points a deal; the last row: his policy's own choice against taking "
               "it, on the deals where the policy declines (`basic` declines "
               f"{trump['basic']['share declined'].value:.1%} of its playing deals as dealer, `expert` "
               f"{trump['expert']['share declined'].value:.1%}). ✓ = the simultaneous interval excludes 0.")  # fmt: skip
    tb, te = widen(trump["basic"]["every hand"], zt), widen(trump["expert"]["every hand"], zt)
    own = widen(trump["basic"]["policy declines: own choice − take"], zt)
    verdict = ("take it" if tb.value > 0 else "decline it") if clear(tb) else "it makes no clear difference"
    page.facts["dealer_trump_card"] = (
        f"As the playing dealer, {verdict}: taking the turned-up trump card instead of declining it gains "
        f"{fmt(tb)} points a deal among `basic` players (n = {fmt_n(tb.n)} deals as dealer) and {fmt(te)} among "
        f"`expert` players (n = {fmt_n(te.n)}; paired, simultaneous 95% intervals). Where `basic` declines it "
        f"({trump['basic']['share declined'].value:.1%} of its deals, e.g. with a rams), declining gains {fmt(own)} "
        f"over taking (n = {fmt_n(own.n)}).")  # fmt: skip
    page.text(page.facts["dealer_trump_card"])

    page.heading("Near the end of a party: announce (R8.3)")
    win, resets = announce(ctx)
    page.facts["low_score"] = (
        f"When a trick takes you to zero, announce at once (R8.3), in every position: a player who never announces "
        f"goes on taking tricks and overshoots, starting again from the starting score {fmt(resets)} times a party "
        f"on average, and wins "
        f"{fmt(Estimate(win.value * 100, win.low * 100, win.high * 100, win.n), 1)} fewer parties in 100 than the "
        f"same player announcing (n = {fmt_n(win.n)} parties of four `basic` players, paired by party).")  # fmt: skip
    page.text(page.facts["low_score"])
    page.text("Not measured here: a change of pass or exchange near the end of a party (every policy plays each deal "
              "the same way at every score), and the later tricks (only the first card is replayed).")

    best = [r for d in ("lead", "follow") for r in said[d][:1]]
    page.takeaways = [f"{verbs[r['decision']]}, play {rule(r)}." for r in best]
    page.takeaways.append(page.facts["dealer_trump_card"])
    page.takeaways.append(page.facts["low_score"])
    page.answer = " ".join(page.takeaways[:2]) + f" {page.takeaways[-2]}"
    return page
