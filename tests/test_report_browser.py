"""The committed report site in a real browser (issues 14 and 37): headless Chromium reads every HTML page.

At a common laptop window (1280 x 900) each page (the guide reports/index.html, one page per question,
the glossary) loads with its figures (files under reports/figures/), nothing is wider than the page (no
table or figure forces a horizontal scroll), the browser logs no error, every link (the navigation bar,
the glossary's anchors, a table's CSV, a figure) resolves, and with every ``<details>`` closed a question
page shows its answer, rules of thumb, first figure and key table within four screens (CLARIFICATIONS.md,
"Reports a player can use").

The browser is Debian's ``chromium`` with ``chromium-driver`` (``.ci/run`` installs them
where it can; there is no headless browser on PyPI that brings its own binary) driven by
selenium from PyPI. Without them the test is skipped, and says why.
"""

from __future__ import annotations

import os
import re
import shutil
import urllib.parse
from pathlib import Path

import pytest

# the committed site; RAMS_REPORTS_DIR points the tests at another build (e.g. make_reports --out elsewhere)
REPORTS = Path(os.environ.get("RAMS_REPORTS_DIR") or Path(__file__).resolve().parents[1] / "reports")
WIDTH, HEIGHT = 1280, 900
SCREENS = 4  # a question page's essentials lie within this many window heights
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
LOAD_SECONDS = 60  # the longest wait for a page to load
QUESTION_PAGES = sorted((p.stem for p in REPORTS.glob("[0-9]*-*.md")), key=lambda s: int(s.split("-")[0]))
PAGES = ["index", *QUESTION_PAGES, "glossary"]

MEASURE = """
const top = e => e ? Math.round(e.getBoundingClientRect().top + window.scrollY) : null;
const bottom = e => e ? Math.round(e.getBoundingClientRect().bottom + window.scrollY) : null;
const right = document.body.getBoundingClientRect().right;
return {
  images: Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, i.naturalWidth]),
  wide: Array.from(document.querySelectorAll('table, img, figure, pre, nav')).map(e =>
        [e.tagName, Math.round(e.getBoundingClientRect().right - right)]).filter(x => x[1] > 0),
  scroll: [document.documentElement.scrollWidth, window.innerWidth],
  links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
  nav: Array.from(document.querySelectorAll('nav.site a')).map(a => a.getAttribute('href')),
  ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id),
  open: Array.from(document.querySelectorAll('details')).filter(d => d.open).length,
  h1: document.querySelector('h1') ? document.querySelector('h1').textContent : null,
  text: document.body.innerText,
  bottoms: {answer: bottom(document.querySelector('.answer')),
            takeaways: bottom(document.querySelector('.takeaways')),
            figure: bottom(document.querySelector('#first-figure')),
            key: bottom(document.querySelector('#key-table'))},
  firsts: Array.from(document.querySelectorAll('.first li')).map(li => li.textContent),
  ragged: Array.from(document.querySelectorAll('table')).flatMap(t => {
      const head = t.querySelector('tr');
      const width = head ? head.cells.length : 0;
      return Array.from(t.rows).filter(r => r.cells.length !== width).map(r => r.textContent.slice(0, 60));
  }),
};"""


@pytest.fixture(scope="module")
def site():
    """Every page of the site loaded in Chromium at 1280 x 900, measured: page name -> facts and its log."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (make test installs it)")
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.wait import WebDriverWait

    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("no chromium/chromedriver on this machine (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={WIDTH},{HEIGHT}"):  # fmt: skip
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    measured = {}
    try:
        for name in PAGES:
            page = REPORTS / f"{name}.html"
            assert page.exists(), f"reports/{name}.html is missing"
            driver.get(page.as_uri())
            tags = page.read_text(encoding="utf-8").count("<img ")
            WebDriverWait(driver, LOAD_SECONDS).until(lambda d, tags=tags: d.execute_script(
                "return document.readyState === 'complete' && document.images.length >= arguments[0]"
                " && Array.from(document.images).every(i => i.complete)", tags),
                message=f"reports/{name}.html did not load with its {tags} images in {LOAD_SECONDS} s")  # fmt: skip
            facts = driver.execute_script(MEASURE)
            driver.execute_script("document.querySelectorAll('details').forEach(x => x.open = true)")
            opened = driver.execute_script(MEASURE)
            facts["wide_open"], facts["scroll_open"] = opened["wide"], opened["scroll"]
            facts["log"] = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
            measured[name] = facts
    finally:
        driver.quit()
    return measured


@pytest.mark.parametrize("name", PAGES)
def test_every_page_loads_its_figures_and_logs_no_error(site, name):
    facts = site[name]
    assert [src for src, done, width in facts["images"] if not (done and width > 0)] == []
    assert all(src.startswith("figures/") for src, _, _ in facts["images"])  # files beside the page, not embedded
    assert facts["log"] == []


def test_every_question_page_shows_a_figure():
    pages_with_figures = {p.name.split("-")[0] for p in (REPORTS / "figures").glob("*.png")}
    assert pages_with_figures and pages_with_figures <= {p.split("-")[0] for p in QUESTION_PAGES}


@pytest.mark.parametrize("name", PAGES)
def test_nothing_is_wider_than_the_page(site, name):
    facts = site[name]
    assert facts["wide"] == [], f"wider than the page at {WIDTH}px (element, px too wide): {facts['wide']}"
    scroll, inner = facts["scroll"]
    assert scroll <= inner
    assert facts["wide_open"] == [], f"with the details open: {facts['wide_open']}"  # the folded tables too
    assert facts["scroll_open"][0] <= facts["scroll_open"][1]


@pytest.mark.parametrize("name", PAGES)
def test_every_page_links_the_guide_each_question_and_the_glossary(site, name):
    assert site[name]["nav"] == ["index.html", *(f"{p}.html" for p in QUESTION_PAGES), "glossary.html"]


@pytest.mark.parametrize("name", PAGES)
def test_links_resolve(site, name):
    """Every link to a file beside the page exists, and every link into a page names an anchor it has."""
    missing = []
    for href in site[name]["links"]:
        url = urllib.parse.urlparse(href)
        if url.scheme != "file":
            continue
        path = Path(urllib.parse.unquote(url.path))
        if not path.exists() or (url.fragment and path.suffix == ".html"
                                 and url.fragment not in site.get(path.stem, {}).get("ids", [])):
            missing.append(href)
    assert missing == []


@pytest.mark.parametrize("name", PAGES)
def test_every_table_row_has_as_many_cells_as_its_header(site, name):
    assert site[name]["ragged"] == []


@pytest.mark.parametrize("name", QUESTION_PAGES)
def test_the_markdown_tables_have_no_unescaped_bar_in_a_cell(name):
    """A `|` inside a cell splits it in two: every line of a Markdown table has as many bars as its header."""
    blocks = (REPORTS / f"{name}.md").read_text(encoding="utf-8").split("\n\n")
    for block in blocks:
        lines = block.strip().splitlines()
        if len(lines) >= 2 and lines[0].startswith("|") and lines[1].startswith("|---"):
            bars = [len(re.findall(r"(?<!\\)\|", line)) for line in lines]
            assert len(set(bars)) == 1, f"{name}: {lines[0][:60]}"


def test_the_tables_link_their_csv_files(site):
    csvs = [h for name in QUESTION_PAGES for h in site[name]["links"] if h.endswith(".csv")]
    assert csvs, "the split tables link their CSV files"


@pytest.mark.parametrize("name", QUESTION_PAGES)
def test_a_question_page_shows_its_essentials_within_four_screens(site, name):
    """With every <details> closed: the answer, the rules of thumb, the first figure and the key table end
    within four window heights; the page still has its title and provenance."""
    facts = site[name]
    assert facts["open"] == 0
    assert facts["h1"] and "Answer." in facts["text"] and "Provenance" in facts["text"]
    bottoms = facts["bottoms"]
    assert bottoms["answer"] and bottoms["takeaways"] and bottoms["key"], bottoms
    if any(p.name.startswith(name) for p in (REPORTS / "figures").glob("*.png")):
        assert bottoms["figure"], "the page's first figure is shown at the top"
    late = {k: v for k, v in bottoms.items() if v is not None and v > SCREENS * HEIGHT}
    assert late == {}, f"ends below {SCREENS} screens of {HEIGHT}px: {late}"


def test_the_guide_answers_the_first_questions(site):
    """The landing page answers the first questions a player asks, each with a number and its page."""
    firsts = site["index"]["firsts"]
    for question in ("ace worth", "dealer with no ace and no trump", "rams", "overtrump", "wins parties"):
        item = next((f for f in firsts if question in f), None)
        assert item is not None, question
        assert any(c.isdigit() for c in item.split("?", 1)[1]) and "page " in item, item  # a number, and its page
    text = site["index"]["text"]
    assert all(f"{p}.html" in " ".join(site["index"]["links"]) for p in QUESTION_PAGES)
    assert "Glossary" in text


def test_the_glossary_defines_the_jargon(site):
    from analyses.glossary import TERMS

    assert {t.anchor for t in TERMS} <= set(site["glossary"]["ids"])
