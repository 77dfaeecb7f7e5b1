"""The report machinery (analyses/common.py, make_reports.py), hand features, and question 5.

Analysis functions are checked on small synthetic data with known answers; the dataset
reuse is checked on a tiny real run.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analyses import common as A
from analyses import make_reports, q5_position
from analyses.common import Context, Data, Page
from analyses.exchange import position_words
from rams_sim.cards import mask_of, parse_cards
from rams_sim.hands import hand_features, weakest_discards
from rams_sim.record import Outcome
from rams_sim.rules import Rules
from rams_sim.runs.runner import DEALS
from rams_sim.runs.summary import wilson


def test_mean_by_gives_exact_means_and_normal_intervals():
    """Group means, sizes and ±1.96·sd/√n match a hand computation."""
    df = pl.DataFrame({"g": [1, 1, 1, 2, 2], "x": [1.0, 2.0, 3.0, 10.0, 14.0]})
    out = A.mean_by(df.lazy(), ["g"], pl.col("x"))
    assert out["g"].to_list() == [1, 2]
    assert out["n"].to_list() == [3, 2]
    assert out["mean"].to_list() == [2.0, 12.0]
    se1 = 1.0 / math.sqrt(3)  # sd of 1, 2, 3 is 1
    assert out["lo"][0] == pytest.approx(2 - 1.959963984540054 * se1)
    assert out["hi"][1] == pytest.approx(12 + 1.959963984540054 * math.sqrt(8) / math.sqrt(2))


def test_mean_interval_covers_a_known_mean_at_the_stated_rate():
    """Of 400 samples of 50 normals with mean 3, about 95% of the 95% intervals cover 3."""
    rng = np.random.default_rng(5)
    x = rng.normal(3.0, 2.0, size=(400, 50))
    df = pl.DataFrame({"g": np.repeat(np.arange(400), 50), "x": x.reshape(-1)})
    out = A.mean_by(df, ["g"], pl.col("x"))
    covered = ((out["lo"] <= 3.0) & (out["hi"] >= 3.0)).sum()
    assert 360 <= covered <= 395  # binomial(400, 0.95): mean 380, sd 4.4
    one = A.mean_estimate(x[0])  # the array form agrees with the grouped one
    assert (one.value, one.low, one.high, one.n) == pytest.approx((out["mean"][0], out["lo"][0], out["hi"][0], 50))


def test_prop_by_is_wilson():
    """prop_by's intervals equal the scalar Wilson interval of each group."""
    df = pl.DataFrame({"g": ["a"] * 10 + ["b"] * 4, "hit": [True] * 3 + [False] * 7 + [True] * 4})
    out = A.prop_by(df.lazy(), ["g"], pl.col("hit"))
    for row, (k, n) in zip(out.iter_rows(named=True), [(3, 10), (4, 4)]):
        w = wilson(k, n)
        assert (row["k"], row["n"]) == (k, n)
        assert row["p"] == pytest.approx(k / n)
        assert (row["lo"], row["hi"]) == pytest.approx((w.low, w.high))
    total = A.prop_by(df, [], pl.col("hit"))
    assert (total["k"][0], total["n"][0]) == (7, 14)


def test_estimate_covers_a_known_mean():
    """The paired-difference interval of a symmetric sample is centred on its mean with the normal half-width."""
    x = np.array([1.0, 3.0, 5.0, 7.0])
    est = A.mean_estimate(pl.Series([1.0, None, 3.0, 5.0, 7.0]))
    half = 1.959963984540054 * np.std(x, ddof=1) / 2
    assert est.n == 4 and est.value == 4.0 and math.isclose(est.high - est.value, half)


def test_share_is_a_wilson_proportion():
    """3 of 4 flags (a null dropped): 75% inside its Wilson interval, which stays within [0, 1]."""
    est = A.share(pl.Series([True, True, None, False, True]))
    assert (est.value, est.n) == (0.75, 4) and 0 < est.low < 0.75 < est.high < 1


def test_quantile_estimate_median_and_interval():
    """The median of 1..101 is 51 and its order-statistic interval holds it, symmetric in rank."""
    est = A.quantile_estimate(np.arange(1, 102), 0.5)
    assert est.value == 51 and est.n == 101
    assert est.low < 51 < est.high
    assert 51 - est.low == est.high - 51  # ranks centred on (n + 1)q
    assert A.quantile_estimate(np.full(50, 7.0), 0.9) == A.Estimate(7.0, 7.0, 7.0, 50)


def test_unpaired_difference_adds_in_quadrature():
    """Independent estimates: the difference's half-width is the root of the sum of squares."""
    d = A.unpaired_difference(A.Estimate(5.0, 2.0, 8.0, 10), A.Estimate(1.0, -3.0, 5.0, 20))
    assert d.value == 4.0 and d.half_width == pytest.approx(5.0) and d.n == 10


def test_normal_interval_from_a_standard_error():
    """value ± z·se; without a standard error the interval is unknown (nan)."""
    est = A.normal(2.0, 0.5, 30)
    assert (est.value, est.n) == (2.0, 30) and est.half_width == pytest.approx(1.959963984540054 * 0.5)
    assert A.normal(2.0, 0.5, 30, z=1.0).low == 1.5
    assert math.isnan(A.normal(2.0, None, 30).high)


def test_paired_difference_uses_units_present_in_both():
    """Units are matched on the key; a unit missing on one side or null in the column drops out."""
    before = pl.DataFrame({"deal": [0, 1, 2, 3], "x": [1.0, 2.0, 3.0, None]})
    after = pl.DataFrame({"deal": [3, 2, 0, 5], "x": [9.0, 7.0, 2.0, 1.0]})
    d = A.paired_difference(before, after, "deal", "x")
    assert (d.value, d.n) == (2.5, 2)  # deal 0: +1, deal 2: +4
    assert d == A.mean_estimate(np.array([1.0, 4.0]))


def test_one_against_others_and_remiz_per_group():
    """Per group, the marked row's value minus the mean of the others; a remiz is a played deal with no trick (R7.2)."""
    df = pl.DataFrame({"deal": [0, 0, 0, 1, 1], "seat": [0, 1, 2, 0, 1], "x": [6.0, 1.0, 3.0, 2.0, 5.0],
                       "passed": [False, True, False, False, False], "tricks": [0, 0, 2, 0, 0],
                       "outcome": [int(Outcome.PLAYED)] * 3 + [int(Outcome.RAMS)] * 2})  # fmt: skip
    out = df.group_by("deal").agg(A.one_against_others(pl.col("x"), pl.col("seat") == 0).alias("edge"),
                                  A.REMIZ.sum().alias("remiz")).sort("deal")  # fmt: skip
    assert out["edge"].to_list() == [6.0 - 2.0, 2.0 - 5.0]
    assert out["remiz"].to_list() == [1, 0]  # seat 1 passed; deal 1 ended before play


def test_simultaneous_z_and_chance_sentence():
    """Bonferroni quantiles grow with the number of cells; one cell is the plain 95% quantile."""
    assert A.simultaneous_z(1) == pytest.approx(1.959963984540054)
    assert A.simultaneous_z(20) == pytest.approx(3.0233, abs=1e-3)
    assert "2.0 of them" in A.chance_misses(40)


def test_formatting():
    """True minus signs, thousands separators, intervals, percentages, no '−0.00'."""
    est = A.Estimate(-1.234, -1.5, -0.9, 12345)
    assert A.fmt(est) == "−1.23 [−1.50, −0.90]"
    assert A.fmt(A.Estimate(0.1234, 0.1, 0.15, 10), 1, percent=True) == "12.3% [10.0, 15.0]"
    assert A.num(-0.0001) == "0.00"
    assert A.fmt_n(1234567) == "1,234,567"
    table = A.md_table(pl.DataFrame({"a": [1, -2000], "b": [0.5, None]}), {"b": 1})
    assert table.splitlines() == ["| a | b |", "|---|---|", "| 1 | 0.5 |", "| −2,000 | – |"]


def test_clear():
    """An answer is clear when its interval excludes the alternative."""
    assert A.clear(A.Estimate(1.0, 0.2, 1.8, 10))
    assert not A.clear(A.Estimate(1.0, -0.2, 1.8, 10))
    assert A.clear(A.Estimate(1.0, 0.2, 1.8, 10), versus=2.0)


@pytest.mark.parametrize(
    "hand, trump, expected",
    [
        ("A♥ K♥ J♠ J♣ 7♦", 3, dict(n_aces=1, aces=0b1000, trumps=2, top_trump=12, jacks=1, rams_suit=-1, longest=2, off_kings=0)),
        ("7♠ 8♠ 9♠ 10♠ K♠", 1, dict(n_aces=0, aces=0, trumps=0, top_trump=-1, jacks=0, rams_suit=0, longest=5, off_kings=1)),
        ("A♠ A♣ A♦ A♥ J♦", 2, dict(n_aces=4, aces=0b1111, trumps=2, top_trump=12, jacks=0, rams_suit=-1, longest=2, off_kings=0)),
        ("J♠ J♣ J♦ J♥ 9♦", 2, dict(n_aces=0, aces=0, trumps=2, top_trump=9, jacks=2, rams_suit=-1, longest=2, off_kings=0)),
        ("J♦ J♥ K♠ K♣ 8♥", 0, dict(n_aces=0, aces=0, trumps=1, top_trump=11, jacks=1, rams_suit=-1, longest=2, off_kings=1)),
    ],
)
def test_hand_features(hand, trump, expected):
    """Features of hands written out by hand."""
    f = hand_features(np.array([mask_of(parse_cards(hand))], np.uint64), np.array([trump], np.int8))
    assert {k: int(f[k][0]) for k in expected} == expected


def test_weakest_discards_order():
    """Plain non-aces go first by rank, then plain aces, then trumps; codes are bit masks over sorted ids."""
    hand = parse_cards("A♠ 7♣ 8♣ 9♦ 7♦")  # trump ♣: sorted ids A♠(12) 7♣(18) 8♣(19) 7♦(31) 9♦(33)
    codes = weakest_discards(np.array([mask_of(hand)], np.uint64), np.array([1], np.int8))[0]
    # 7♦ (bit 3), then 9♦ (bit 4), then the plain A♠ (bit 0), then trumps 7♣ (bit 1) and 8♣ (bit 2)
    assert codes.tolist() == [0, 0b01000, 0b11000, 0b11001, 0b11011, 0b11111]


def test_hand_features_rejects_mismatched_columns():
    with pytest.raises(ValueError, match="one length"):
        hand_features(np.zeros(3, np.uint64), np.zeros(2, np.int8))


def test_dataset_spec_scales_and_expands_one_policy():
    """A dataset's spec is scaled (never below MIN_COUNT) and one policy fills every seat."""
    d = Data("x", DEALS, Rules.classic(players=3), 1_000_000, 7)
    assert d.spec(0.01).count == 10_000
    assert d.spec(1e-9).count == A.MIN_COUNT
    assert [p.name for p in d.spec().policies] == ["basic"] * 3


def test_report_scale_from_environment(monkeypatch):
    monkeypatch.setenv(A.SCALE_ENV, "0.5")
    assert A.report_scale() == 0.5
    monkeypatch.setenv(A.SCALE_ENV, "lots")
    with pytest.raises(ValueError, match="must be a number"):
        A.report_scale()
    monkeypatch.setenv(A.SCALE_ENV, "0")
    with pytest.raises(ValueError, match=r"\(0, 10\]"):
        A.report_scale()


def test_context_reuses_a_run_of_the_same_provenance_and_replaces_another(tmp_path):
    """ensure() simulates once, reuses the same run, and replaces a run of other settings."""
    registry = {"tiny": Data("tiny", DEALS, Rules.classic(), 3_000, 11)}
    ctx = Context(tmp_path, registry, scale=1.0)
    folder = ctx.ensure("tiny")
    parts = sorted(folder.glob("part-*.parquet"))
    stamp = [p.stat().st_mtime_ns for p in parts]
    ctx.ensure("tiny")
    assert [p.stat().st_mtime_ns for p in parts] == stamp  # reused, not rewritten
    assert ctx.scan("tiny").select(pl.len()).collect().item() == 3_000 * 4
    ctx2 = Context(tmp_path, {"tiny": Data("tiny", DEALS, Rules.classic(), 3_000, 12)}, scale=1.0)
    ctx2.ensure("tiny")
    assert ctx2.manifest("tiny")["run"]["seed"] == 12


def _synthetic_deals(rows: list[tuple[int, int, int, int]], players: int) -> pl.LazyFrame:
    """(deal, seat, dealer, delta) rows as a deal table."""
    deal, seat, dealer, delta = zip(*rows)
    return pl.DataFrame({"deal": deal, "seat": seat, "dealer": dealer, "players": [players] * len(rows), "delta": delta},
                        schema={"deal": pl.Int64, "seat": pl.Int8, "dealer": pl.Int8, "players": pl.Int8,
                                "delta": pl.Int16}).lazy()  # fmt: skip


def test_position_gain_and_dealer_edge_on_known_deals():
    """Position = (seat − dealer − 1) mod players (0 = first hand .. players − 1 = the dealer, the one numbering);
    the dealer's edge is his gain minus the others' mean, per deal."""
    lf = _synthetic_deals([(0, 0, 0, -9), (0, 1, 0, 3), (0, 2, 0, 0),  # dealer seat 0 gains 9; others −3, 0
                           (1, 0, 1, -6), (1, 1, 1, -3), (1, 2, 1, 6)], players=3)  # dealer seat 1 gains 3  # fmt: skip
    gains = q5_position.position_gain(lf)
    by_pos = {r["position"]: r["mean"] for r in gains.iter_rows(named=True)}
    assert by_pos == {2: (9 + 3) / 2, 0: (-3 + -6) / 2, 1: (0 + 6) / 2}  # deal 1: seat 2 is first hand, seat 0 second
    edge = sorted(q5_position.dealer_edge(lf).to_list())
    assert edge == [pytest.approx(3 - (6 + -6) / 2), pytest.approx(9 - (-3 + 0) / 2)]
    # first hand (position 0) minus the dealer's right (position −2 = 1): deal 0: −3 − 0; deal 1: −6 − 6
    assert sorted(q5_position.position_gap(lf, 0, -2).to_list()) == [-12.0, -3.0]
    assert position_words(3) == ["first hand", "second hand", "dealer"]


def test_page_renders_answer_tables_and_provenance(tmp_path):
    """A page needs an answer; it renders tables, figures and one provenance row per dataset."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    registry = {"tiny": Data("tiny", DEALS, Rules.classic(ruff="overtrump"), 2_000, 3)}
    ctx = Context(tmp_path / "data", registry)
    ctx.ensure("tiny")
    page = Page("9-test", "9. A test", "Is this a test?")
    with pytest.raises(ValueError, match="no answer"):
        page.render(ctx)
    page.answer = "Yes: 1.00 [0.90, 1.10]."
    with pytest.raises(ValueError, match="takeaways"):
        page.render(ctx)
    page.takeaways = ["One.", "Two.", "Three 3.0 [2.9, 3.1]."]
    page.uses("tiny")
    page.table(pl.DataFrame({"x": [1]}))
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    page.figure(fig, tmp_path / "out", "line", "A line.")
    text = page.render(ctx)
    assert "**Answer.** Yes" in text and "| x |" in text and "figures/9-test-line.png" in text
    assert "**What a player takes away**" in text and "- One.\n- Two.\n- Three 3.0 [2.9, 3.1]." in text
    assert text.index("takes away") < text.index("| x |")  # it opens the page
    assert "| `tiny` | deals | 2,000 | 3 | classic, 4 players, ruff=overtrump | basic ×4 |" in text
    assert (tmp_path / "out" / "figures" / "9-test-line.png").exists()


def test_a_split_table_shows_its_parts_with_the_keys_and_writes_the_whole_to_csv(tmp_path):
    page = Page("9-test", "9. A test", "Is this a test?")
    df = pl.DataFrame({"k": ["a", "b"], "x": [1, 2], "y": [3, 4], "z": [5, 6]})
    path = page.split_table(df, ["k"], [["x"], ["y", "z"]], tmp_path, "wide", "Wide.")
    assert path == tmp_path / "tables" / "9-test-wide.csv"
    assert pl.read_csv(path).equals(df)
    text = "\n\n".join(page.blocks)
    assert "[tables/9-test-wide.csv](tables/9-test-wide.csv)" in text
    assert "| k | x |\n|---|---|\n| a | 1 |" in text and "| k | y | z |" in text
    assert "*Part 1 of 2.*" in text and "*Part 2 of 2.*" in text
    assert page.data_file(df, tmp_path, "raw") == "[tables/9-test-raw.csv](tables/9-test-raw.csv)"
    assert pl.read_csv(tmp_path / "tables" / "9-test-raw.csv").equals(df)
    numbers = pl.DataFrame({"k": ["a"], "mean": [1.5]})
    page.split_table(df, ["k"], [["x"]], tmp_path, "other", "Other.", data=numbers)
    assert pl.read_csv(tmp_path / "tables" / "9-test-other.csv").equals(numbers)


def _site_pages(tmp_path):
    """Two small pages as the site writer gets them: a long table, a short one, a figure, facts."""
    out = tmp_path
    (out / "figures").mkdir()
    (out / "figures" / "1-a-f.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    one = Page("1-a", "1. A", "Is `basic` held-out?", answer="A is 1.0 [0.5, 1.5]. It holds for `pimc`.",
               takeaways=["One 1.0 [0.5, 1.5] by a paired difference.", "Two.", "Three."])  # fmt: skip
    one.text("Units: the dealer gains; a remiz writes on.")
    one.table(pl.DataFrame({"row": list(range(20))}), caption="A long table.")
    one.table(pl.DataFrame({"x": [1, 2]}), caption="The short table.")
    one.heading("The figure")
    one.blocks.append("![A line.](figures/1-a-f.png)\n\n*A line.*")  # a figure block as Page.figure writes it
    one.kinds.append("figure")
    one.facts["ace_worth"] = "An ace is worth 1.0 [0.5, 1.5]."
    two = Page("2-b", "2. B", "Q?", answer="B.", takeaways=["The dealer gains 2.0 [1.0, 3.0].", "b", "c"])
    return out, [one, two]


def test_index_lists_every_page_with_its_answer(tmp_path):
    """index.md links every page with its answer, and says when the reports were made at a smaller scale."""
    out, pages = _site_pages(tmp_path)
    make_reports.write_index(pages, out, scale=1.0)
    index = (out / "index.md").read_text(encoding="utf-8")
    assert "[1. A](1-a.md)" in index and "A is 1.0 [0.5, 1.5]." in index and "scale" not in index
    make_reports.write_index(pages, out, scale=0.1)
    assert "scale 0.1" in (out / "index.md").read_text(encoding="utf-8")


def test_site_writes_a_page_per_question_a_glossary_and_a_guide(tmp_path, monkeypatch):
    """Each question page: the navigation bar, answer and rules of thumb, then the key table and the first figure
    (a file, not embedded), long tables and the provenance folded; the guide quotes the pages' own sentences."""
    from analyses import site

    out, pages = _site_pages(tmp_path)
    monkeypatch.setattr(site, "FIRST_QUESTIONS", (site.FirstQuestion("Worth?", (("1-a", "ace_worth", "nothing"),)),
                                                  site.FirstQuestion("Who?", (("2-b", "who", r"dealer gains"),))))
    written = site.write_site(pages, out, {"1-a": "| dataset |\n|---|\n| `x` |\n\nData note.", "2-b": "| d |\n|---|"},
                              make_reports.READING)  # fmt: skip
    assert sorted(p.name for p in written) == ["1-a.html", "2-b.html", "glossary.html", "index.html"]
    html = (out / "1-a.html").read_text(encoding="utf-8")
    for href in ("index.html", "1-a.html", "2-b.html", "glossary.html"):
        assert f'href="{href}"' in html
    assert 'src="figures/1-a-f.png"' in html and "data:image" not in html
    order = [html.index(s) for s in ("Answer.", "One 1.0", 'id="key-table"', 'id="first-figure"', "A long table.")]
    assert order == sorted(order)  # the key table (the first short one) and the figure come before the rest
    assert "<details><summary>Show the table (20 rows)</summary>" in html
    assert '<details class="provenance">' in html and "Data note." in html
    assert html.count('href="glossary.html#remiz"') == 1  # the first use only
    assert 'href="glossary.html#held-out"' not in html.split("<main>")[1].split("</h1>")[0]  # not in the title
    assert '<code><a class="term" href="glossary.html#basic"' in html
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "An ace is worth 1.0 [0.5, 1.5]." in index  # page 1's fact
    assert "<strong>Who?</strong> The <a" in index and "2.0 [1.0, 3.0]. (<a href=\"2-b.html\">page 2</a>)" in index  # page 2's rule of thumb
    assert 'href="1-a.html">page 1</a>' in index and "A is 1.0 [0.5, 1.5]." in index
    assert "The first questions a player asks" in index and 'href="glossary.html"' in index
    glossary = (out / "glossary.html").read_text(encoding="utf-8")
    assert all(f'id="{t.anchor}"' in glossary for t in site.TERMS)
    for page in pages:  # a build of one page (--only) links the pages already there
        (out / f"{page.slug}.md").write_text(f"# {page.title}\n", encoding="utf-8")
    assert site.nav_from_markdown(out) == [("1-a", "1. A"), ("2-b", "2. B")]
    site.write_pages(pages[1:], out, {"2-b": "| d |\n|---|"}, site.nav_from_markdown(out))
    assert 'href="1-a.html"' in (out / "2-b.html").read_text(encoding="utf-8")


def test_a_page_can_mark_its_key_table_and_what_folds(tmp_path):
    """Page.table(key=True) picks the key table; fold=False keeps a long table open, fold=True folds a short one."""
    from analyses import site

    page = Page("3-c", "3. C", "Q?", answer="C.", takeaways=["a", "b", "c"])
    page.table(pl.DataFrame({"x": [1]}), fold=True)
    page.table(pl.DataFrame({"y": list(range(30))}), key=True)
    page.table(pl.DataFrame({"z": list(range(30))}), fold=False)
    body = site.page_body(page, "| d |\n|---|")
    assert site.key_table(page, site.kinds_of(page)) == 1
    assert body.index('id="key-table"') < body.index("<details><summary>Show the table (1 rows)")
    assert "(30 rows)" not in body
    split = Page("4-d", "4. D", "Q?", answer="D.", takeaways=["a", "b", "c"])
    split.table(pl.DataFrame({"x": [1]}))
    split.split_table(pl.DataFrame({"k": ["a"] * 20, "y": [1] * 20, "z": [2] * 20}), ["k"], [["y"], ["z"]], tmp_path,
                      "wide", "Wide.", key=True)  # fmt: skip
    body = site.page_body(split, "| d |\n|---|")
    assert body.index("Wide.") < body.index("Part 1 of 2") < body.index('id="key-table"') < body.index("Part 2 of 2")
    assert "<details><summary>Part 2 of 2 (20 rows)</summary>" in body


def test_glossary_terms_are_defined_once_and_linked_on_first_use():
    """Every term has its own anchor and a definition; the jargon the pages use is there; a term is linked once,
    never inside a heading, and a code-only name only as a whole <code> element."""
    from analyses.glossary import TERMS
    from analyses.site import link_terms

    anchors = [t.anchor for t in TERMS]
    assert len(anchors) == len(set(anchors)) and all(t.definition for t in TERMS)
    names = {t.name for t in TERMS}
    for needed in ("95% interval", "paired difference", "seat-deal", "held-out / selection half", "deal-clustered",
                   "Bonferroni / simultaneous intervals", "Wilson interval", "remiz", "rams", "jack pair", "dave",
                   "прокат", "dealer", "first hand", "random", "basic", "cautious", "greedy", "expert", "table",
                   "pimc", "ruff", "must_head", "ace_covers_face", "exchange_order"):  # fmt: skip
        assert needed in names, needed
    assert all(t.section.startswith("R") for t in TERMS if t.group == "Rule options (code names)")
    body = link_terms("<h2>remiz</h2><p>a remiz, another remiz; the table and <code>table</code>; rams-sim</p>")
    assert body.count("glossary.html#remiz") == 1 and "<h2>remiz</h2>" in body
    assert 'the table and <code><a class="term" href="glossary.html#table"' in body
    assert "glossary.html#rams" not in body  # rams-sim is not a rams


def test_every_question_module_is_wired():
    """Each question declares datasets that exist in the registry and a build function."""
    from analyses.data import REGISTRY

    for name in make_reports.QUESTIONS:
        try:
            module = make_reports.load((name,))[0]
        except ModuleNotFoundError:
            pytest.fail(f"question module analyses/{name}.py is missing")
        assert callable(module.build)
        assert module.DATASETS and set(module.DATASETS) <= set(REGISTRY), name


def test_every_registered_dataset_is_made_for_a_page():
    """make reports simulates the datasets the question modules declare: a dataset in the registry that no
    module declares would never be made on a fresh machine (a page reading it would fail there)."""
    from analyses.data import REGISTRY

    declared = set().union(*(set(m.DATASETS) for m in make_reports.load(tuple(make_reports.QUESTIONS))))
    assert set(REGISTRY) <= declared, sorted(set(REGISTRY) - declared)


def test_only_names_questions_by_number():
    """--only picks question modules by number; anything else is a one-line error (exit 2)."""
    assert make_reports.chosen_questions("") == make_reports.QUESTIONS
    assert make_reports.chosen_questions("1, 5") == ("q1_ace_equity", "q5_position")
    assert make_reports.chosen_questions("10") == ("q10_play",)
    last = len(make_reports.QUESTIONS)
    for bad in (str(last + 1), "0", "x", "1,,2"):
        with pytest.raises(ValueError, match=f"question numbers 1-{last}"):
            make_reports.chosen_questions(bad)
    assert make_reports.main(["--only", str(last + 1)]) == 2


def test_leader_tests_a_most_claim_against_every_rival():
    """10 ± 1 leads 9.5 ± 1 by too little to be clear, and 5 ± 1 clearly; with ``lowest`` the least wins.
    The differences' intervals hold together (Bonferroni over the rivals), so a gap clear of 0 at 95% on
    its own (10 vs 8.5: 1.5 ± 1.41) is not clear once two rivals share the 95% (± 1.62)."""
    from analyses.stats import leader, magnitude, unpaired_difference

    Estimate = A.Estimate
    e = {"a": Estimate(10.0, 9.0, 11.0, 100), "b": Estimate(5.0, 4.0, 6.0, 100), "c": Estimate(9.5, 8.5, 10.5, 100)}
    assert leader(e) == ("a", ["c"])
    assert leader(e, lowest=True) == ("b", [])
    pair = {"a": e["a"], "d": Estimate(8.5, 7.5, 9.5, 100)}
    assert leader(pair) == ("a", [])  # one rival: the plain 95% interval of the difference
    assert A.clear(unpaired_difference(e["a"], pair["d"]))
    assert leader({**pair, "b": e["b"]}) == ("a", ["d"])  # two rivals: wider intervals
    assert leader({"a": e["a"], "x": Estimate(1.0, math.nan, math.nan, 1)}) == ("a", ["x"])  # no interval: not cleared
    assert magnitude(Estimate(-3.0, -4.0, -2.0, 9)) == Estimate(3.0, 2.0, 4.0, 9)
    assert magnitude(e["a"]) == e["a"]


def test_leader_words():
    assert A.leader_words([]) == "clear of every other one"
    assert A.leader_words([], "preset") == "clear of every other preset"
    assert A.leader_words(["`x`", "`y`"]) == "not clear of `x`, `y`"


def test_every_committed_page_opens_with_three_to_five_takeaways():
    """reports/ as committed: each question page opens (after its answer) with 3-5 rules of thumb."""
    import re

    pages = sorted((Path(__file__).resolve().parents[1] / "reports").glob("[0-9]*-*.md"))
    assert len(pages) == len(make_reports.QUESTIONS)
    for path in pages:
        blocks = path.read_text(encoding="utf-8").split("\n\n")
        assert blocks[3].startswith("**What a player takes away**"), path.name
        bullets = re.findall(r"^- ", blocks[4], flags=re.MULTILINE)
        assert 3 <= len(bullets) <= 5, path.name


def test_across_players_says_where_a_headline_holds():
    """Each other kind of player either confirms basic's side of ``versus``, reverses it, or is not clear."""
    page = Page("9-test", "9. A test", "Is this a test?")
    est = A.Estimate
    kinds = {"basic": "d-basic", "expert": "d-expert", "pimc": "d-pimc"}
    text = A.across_players(page, "edge", {"basic": est(6.0, 5.9, 6.1, 100), "expert": est(3.0, 2.9, 3.1, 90),
                                           "pimc": est(0.5, -0.1, 1.1, 10)}, kinds)  # fmt: skip
    assert text.startswith("With other players at every seat, it holds for `expert` 3.00 [2.90, 3.10]; for `pimc`")
    assert "the interval holds 0, so it is not clear" in text
    text = A.across_players(page, "share", {"basic": est(0.27, 0.26, 0.28, 100), "expert": est(0.2, 0.19, 0.21, 9),
                                            "pimc": est(0.3, 0.28, 0.32, 9)}, kinds, percent=True, versus=0.25)
    assert "it holds for `pimc`" in text and "it is reversed for `expert`" in text
    text = A.across_players(page, "length", {k: est(7.0, 6.9, 7.1, 5) for k in kinds}, kinds, versus=None)
    assert text == "With other players at every seat: `expert` 7.00 [6.90, 7.10], `pimc` 7.00 [6.90, 7.10] (95% CIs)."
    blocks = "\n\n".join(page.blocks)
    assert blocks.count("## Does it hold for other players?") == 3 and "| `pimc` | `d-pimc` | 10 |" in blocks


def test_a_searching_table_runs_in_small_chunks():
    """A dataset with a pimc seat is written SEARCH_CHUNK units a chunk, so an interrupted
    `make reports` keeps what it finished (chunking changes no row: randomness is keyed by deal)."""
    from analyses.common import SEARCH_CHUNK, Data
    from rams_sim.rules import Rules
    from rams_sim.runs.runner import DEALS, DEFAULT_CHUNK

    searching = Data("s", DEALS, Rules.classic(), 10_000, 1, ("pimc", "expert", "expert", "expert")).spec()
    plain = Data("p", DEALS, Rules.classic(), 10_000, 1, ("expert",)).spec()
    assert searching.chunk_size == SEARCH_CHUNK < searching.count
    assert plain.chunk_size == DEFAULT_CHUNK[DEALS]
