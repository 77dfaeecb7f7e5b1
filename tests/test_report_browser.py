"""The committed HTML report in a real browser (issue 14): headless Chromium reads reports/index.html.

At a common laptop window (1280 x 900) every figure loads (embedded as data URIs), nothing
is wider than the page (no table or figure forces a horizontal scroll), the browser logs
no error, every page of the report has its section, answer and provenance, and every link
to a file beside the report (a table's CSV) resolves.

The browser is Debian's ``chromium`` with ``chromium-driver`` (``.ci/run`` installs them
where it can; there is no headless browser on PyPI that brings its own binary) driven by
selenium from PyPI. Without them the test is skipped, and says why.
"""

from __future__ import annotations

import shutil
import urllib.parse
from pathlib import Path

import pytest

REPORTS = Path(__file__).resolve().parents[1] / "reports"
WIDTH, HEIGHT = 1280, 900
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
LOAD_SECONDS = 60  # the longest wait for the report to load


@pytest.fixture(scope="module")
def browser():
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
    page = REPORTS / "index.html"
    driver.get(page.as_uri())
    # the page is 1.3 MB of embedded figures: on a busy machine the browser has been seen to answer
    # before it had parsed all of it (3 of 8 images), so wait for the whole document and its images
    tags = page.read_text(encoding="utf-8").count("<img ")
    WebDriverWait(driver, LOAD_SECONDS).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && document.images.length >= arguments[0]"
        " && Array.from(document.images).every(i => i.complete)", tags),
        message=f"reports/index.html did not load with its {tags} images in {LOAD_SECONDS} s")  # fmt: skip
    yield driver
    driver.quit()


def test_every_figure_loads(browser):
    images = browser.execute_script("return Array.from(document.images).map(i => [i.alt, i.complete, i.naturalWidth])")
    pages_with_figures = len({p.name.split("-")[0] for p in (REPORTS / "figures").glob("*.png")})
    assert len(images) >= pages_with_figures > 0
    assert [alt for alt, done, width in images if not (done and width > 0)] == []


def test_nothing_is_wider_than_the_page(browser):
    wide = browser.execute_script("""
        const right = document.body.getBoundingClientRect().right;
        return Array.from(document.querySelectorAll('table, img')).map(e => {
            const section = e.closest('section');
            return [section ? section.id : 'index', e.tagName, Math.round(e.getBoundingClientRect().right - right)];
        }).filter(x => x[2] > 0);""")  # fmt: skip
    assert wide == [], f"wider than the page at {WIDTH}px (section, element, px too wide): {wide}"
    scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner


def test_the_browser_logs_no_error(browser):
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []


def test_every_page_has_its_section_answer_and_provenance(browser):
    slugs = sorted(p.stem for p in REPORTS.glob("[0-9]-*.md"))
    sections = browser.execute_script("""
        return Array.from(document.querySelectorAll('section')).map(s => [s.id,
            s.querySelector('h1') !== null, s.textContent.includes('Answer.'), s.textContent.includes('Provenance')]);""")
    assert [s[0] for s in sections] == slugs
    assert all(h1 and answer and prov for _, h1, answer, prov in sections)
    toc = browser.execute_script("return Array.from(document.querySelectorAll('nav a')).map(a => a.hash.slice(1))")
    assert toc == slugs


def test_links_to_files_beside_the_report_resolve(browser):
    hrefs = browser.execute_script("return Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")
    files = [urllib.parse.urlparse(h) for h in hrefs if h.startswith("file:") and "#" not in h]
    missing = [u.path for u in files if not Path(urllib.parse.unquote(u.path)).exists()]
    assert missing == []
    csvs = [u.path for u in files if u.path.endswith(".csv")]
    assert csvs, "the split tables link their CSV files"
