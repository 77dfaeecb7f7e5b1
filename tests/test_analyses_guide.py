"""The player's guide (reports/index.html, analyses/site.py): a section for each decision a player meets, each rule
of thumb a page's own fact (a sentence built from the page's Estimates), and what no page measures said plainly.

The synthetic tests check the guide's making; the last ones read the committed site (RAMS_REPORTS_DIR points them
at another build), where every interval a decision quotes must be printed on the page it links to.
"""

from __future__ import annotations

import html as H
import os
import re
from pathlib import Path

import polars as pl
import pytest

from analyses import exchange as ex
from analyses import q4_pass, site
from analyses.common import Page, fmt, fmt_n
from analyses.stats import widen
from rams_sim.runs.summary import Estimate

REPORTS = Path(os.environ.get("RAMS_REPORTS_DIR") or Path(__file__).resolve().parents[1] / "reports")
DECISION_WORDS = ("Pass or play", "What to exchange", "The dealer's trump card", "Leading", "Following",
                  "When the score is low")  # fmt: skip
INTERVAL = re.compile(r"[−-]?\d[\d,.]*%? \[[−-]?\d[\d,.]*%?, [−-]?\d[\d,.]*%?\]")


def test_the_guide_names_each_decision_a_player_meets():
    titles = [d.title for d in site.DECISIONS]
    assert len(titles) == len(DECISION_WORDS)
    assert all(t.startswith(w) for t, w in zip(titles, DECISION_WORDS))
    for d in site.DECISIONS:
        assert d.facts or d.missing.startswith("Not measured yet"), d.title  # measured, or said plainly it is not
        assert not INTERVAL.search(d.missing) and "n = " not in d.missing, d.title  # an unmeasured one: no number


def _pages():
    two = Page("2-exchange", "2. X", "Q?", answer="A.", takeaways=["a", "b", "c"])
    two.facts["exchange_rule"] = "Keep trumps and aces: 1.00 [0.50, 1.50] (n = 10)."
    four = Page("4-pass", "4. P", "Q?", answer="A.", takeaways=["a", "b", "c"])
    four.facts["pass_or_play"] = "Play without an ace: 2.00 [1.00, 3.00] (n = 20)."
    return [two, four]


def test_the_guide_quotes_each_decision_from_its_pages_facts_and_links_the_page():
    pages = _pages()
    body = site.index_body(pages, "Reading.", 1.0)
    section = body.split('<section class="decisions">', 1)[1].split("</section>", 1)[0]
    for d in site.DECISIONS:
        assert H.escape(d.title) in section
    for p in pages:
        for sentence in p.facts.values():
            item = f'{site.md_inline(sentence)} (<a href="{p.slug}.html">page {site.number(p)}</a>)'
            assert item in section
    said = {d.title: s for d, s in site.decisions(pages)}
    assert [s for _, s in said["Pass or play"]] == [pages[1].facts["pass_or_play"]]
    # a decision whose pages have no sentence says it is not measured, without numbers
    assert said["Leading"] == [] and section.count("Not measured yet") >= 4


def test_a_decision_with_no_page_built_says_so():
    body = site.index_body([], "Reading.", 1.0)
    assert body.count("Not measured yet") == len(site.DECISIONS)


def test_the_pass_facts_quote_the_pages_estimates():
    """q4_pass.guide_facts: the numbers are the Estimates' own, formatted as the page prints them, and the
    positions of a class are named in words."""
    best = "pass − best play"
    table = pl.DataFrame({ex.TRUMPS: [0, 0, 1], ex.DEALER: [False, True, True], "verdict": ["pass", "play", "play"],
                          f"_mean_{best}": [0.46, -7.1, -3.0], f"_lo_{best}": [0.26, -7.5, -3.5],
                          f"_hi_{best}": [0.66, -6.7, -2.5], f"_n_{best}": [50_317, 11_797, 9_000]})  # fmt: skip
    decision = Estimate(1.16, 1.13, 1.19, 243_464)
    dealer = Estimate(3.54, 3.47, 3.62, 60_595)
    positions = [{"position": w, "deals": 1, "class rule − basic's rule": decision} for w in ex.position_words()]
    positions[-1]["deals"], positions[-1]["class rule − basic's rule"] = 60_595, dealer
    positions.append({"position": "every position", "deals": 243_464, "class rule − basic's rule": decision})
    facts = q4_pass.guide_facts(table, [ex.TRUMPS, ex.DEALER], decision, positions)
    assert fmt(decision) in facts["pass_or_play"] and fmt_n(decision.n) in facts["pass_or_play"]
    assert fmt(dealer) in facts["pass_or_play"] and "as dealer" in facts["pass_or_play"]
    when = facts["pass_when"]
    assert fmt(Estimate(0.46, 0.26, 0.66, 50_317)) in when and "n = 50,317" in when
    assert "first hand, second hand or third hand" in when  # a class that is not the dealer's, in words
    assert "playing clearly beats passing in 2 of the dealer's 2 hand classes and passing in 0" in when
    none = q4_pass.guide_facts(table.with_columns(pl.lit("unclear").alias("verdict")), [ex.TRUMPS, ex.DEALER],
                               decision, positions)  # fmt: skip
    assert "In none of page 4's 3 classes" in none["pass_when"]


# ---- the committed site --------------------------------------------------------------------------------
def _decision_items() -> dict[str, list[str]]:
    """The committed guide's decisions: title -> the HTML of each item."""
    index = (REPORTS / "index.html").read_text(encoding="utf-8")
    section = index.split('<section class="decisions">', 1)[1].split("</section>", 1)[0]
    out = {}
    for block in section.split("<h3>")[1:]:
        title, rest = block.split("</h3>", 1)
        out[H.unescape(title)] = re.findall(r"(<li[^>]*>.*?)</li>", rest, flags=re.DOTALL)
    return out


def _text(fragment: str) -> str:
    return H.unescape(re.sub(r"<[^>]+>", "", fragment))


@pytest.mark.skipif(not (REPORTS / "index.html").exists(), reason="no site built")
def test_the_committed_guide_has_each_decision_and_its_pages_numbers():
    """Each decision is on the committed guide; a measured one quotes intervals with n and its positions, each
    printed on the page it links to (the page's own Estimate); an unmeasured one says so."""
    items = _decision_items()
    assert [next(t for t in items if t.startswith(w)) for w in DECISION_WORDS]
    measured = 0
    for title, lis in items.items():
        assert lis, title
        for li in lis:
            text = _text(li)
            if "Not measured yet" in text or 'class="unmeasured"' in li:  # what is not measured: no number
                assert not INTERVAL.search(text), title
                continue
            page = re.search(r'href="(\d+-[\w-]+)\.html"', li).group(1)
            numbers = INTERVAL.findall(text)
            assert numbers and "n = " in text, (title, text)
            assert re.search(r"dealer|first hand|every position|any position", text), (title, text)
            shown = _text((REPORTS / f"{page}.html").read_text(encoding="utf-8"))
            assert [x for x in numbers if x not in shown] == [], (title, page)
            measured += 1
    assert measured >= 5
    for w in ("Pass or play", "What to exchange"):
        assert any("Not measured yet" not in _text(li) for t, lis in items.items() if t.startswith(w) for li in lis)


def test_the_dealer_trump_card_fact_quotes_page_9s_simultaneous_interval():
    from analyses import q9_readings

    est = [Estimate(0.01, 0.0, 0.02, 1000), Estimate(-0.02, -0.03, -0.01, 1000), Estimate(-0.067, -0.071, -0.062, 1000),
           Estimate(0.03, 0.02, 0.04, 1000)]  # fmt: skip
    row = {"reading": "dealer-must-take", "kind": "basic", "players": 4, "changed": 0.007, "deals": 1000,
           **{f"pos{p}": e for p, e in enumerate(est)}}  # fmt: skip
    zs = {"basic": 3.0}
    said = q9_readings.dealer_trump_fact([row], zs)
    assert fmt(widen(est[2], 3.0), 3) in said and "the third hand" in said and "0.7%" in said
    assert "n = 1,000 deals" in said and "a rule, not a dealer's choice" in said
