"""The report site: ``reports/index.html`` (the player's guide), one HTML page per question, ``glossary.html``.

Each question page is made from its :class:`~analyses.common.Page` (the same blocks as its Markdown page):
a navigation bar, then the question, the answer and the rules of thumb; then, *at a glance*, the page's key
table and first figure (moved up from their places, where a line points to them); then the rest of the page,
every table longer than :data:`FOLD_ROWS` rows and the provenance folded in ``<details>`` (closed), so a
player sees the answer, the rules of thumb, a figure and the key table within four screens (1280 × 900).
Figures are files under ``figures/`` sized to the page (a click opens one at full size). The first use of
each glossary term on a page links to its definition (:mod:`analyses.glossary`).

The landing page quotes each page's own sentences (its :attr:`~analyses.common.Page.facts`, else a rule of
thumb of its own): no number on it is written by hand.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import markdown

from .common import Page
from .glossary import TERMS, Term, glossary_html

FOLD_ROWS = 12  # a table longer than this is folded (closed <details>) on its HTML page
TITLE = "rams-sim reports: Rams questions answered with data"
SHORT = {  # the navigation bar's words for each page (else the page's title without its number)
    "1-ace-equity": "An ace's worth",
    "2-exchange": "The exchange",
    "3-odds": "Odds of a rams",
    "4-pass": "Pass or play",
    "5-position": "Position",
    "6-party": "The party",
    "7-options": "Rule options",
    "8-variants": "Rule systems",
    "9-readings": "Silent readings",
    "10-play": "Playing the cards",
}


@dataclass(frozen=True)
class FirstQuestion:
    """A question a player asks first, answered on the landing page by one sentence from each page in
    ``sources``: (slug, fact name, a pattern that finds the rule of thumb to quote when the page has no
    such fact)."""

    question: str
    sources: tuple[tuple[str, str, str], ...]


FIRST_QUESTIONS = (
    FirstQuestion("What is an ace worth?", (("1-ace-equity", "ace_worth", r"♥A is worth"),)),
    FirstQuestion("As dealer with no ace and no trump, should I exchange?",
                  (("2-exchange", "dealer_no_ace_no_trump", r"as dealer with no ace and no trump"),
                   ("4-pass", "dealer_no_ace_no_trump", r"as dealer with no ace and no trump"))),  # fmt: skip
    FirstQuestion("How often is a rams dealt?", (("3-odds", "rams_odds", r"rams comes"),)),
    FirstQuestion("Does overtrump matter?", (("7-options", "overtrump", r"overtrump"),
                                             ("9-readings", "overtrump", r"overtrump"))),
    FirstQuestion("Who wins parties?", (("6-party", "who_wins", r"seat 0 wins"),
                                        ("5-position", "dealer_edge", r"Dealing is worth"))),
)

@dataclass(frozen=True)
class Decision:
    """A decision a player meets, with its rules of thumb on the landing page: the sentence ``name`` of each page
    in ``facts`` (slug, fact name), in order; ``missing`` says what they leave out (shown after them; when no
    page has a sentence, the guide says the decision is not measured yet)."""

    title: str
    facts: tuple[tuple[str, str], ...]
    missing: str = ""


NOT_MEASURED = "Not measured yet: no page of these reports compares the choices of this decision, so the guide "
DECISIONS = (
    Decision("Pass or play", (("4-pass", "pass_or_play"), ("4-pass", "pass_when"),
                              ("2-exchange", "dealer_no_ace_no_trump"))),
    Decision("What to exchange", (("2-exchange", "exchange_rule"), ("2-exchange", "exchange_by_position"),
                                  ("2-exchange", "table_vs_search"))),
    Decision("The dealer's trump card (R4.3: take it or not)", (("10-play", "dealer_trump_card"),
                                                                ("9-readings", "dealer_trump_card"))),
    Decision("Leading", (("10-play", "leading"),),
             "Measured on the first trick only: the later leads are played as each policy plays them."),
    Decision("Following", (("10-play", "following"),),
             "Measured on the first trick only. How much the duty to overtrump matters to the game is on "
             "[page 7](7-options.md) and [page 9](9-readings.md) (the first questions above)."),
    Decision("When the score is low (near the end of a party)", (("10-play", "low_score"),),
             "Not measured yet: a change of pass or exchange near the end of a party. Every policy plays a deal the "
             "same way at every score, so no page compares two ways of playing near the end but the announcement."),
)

STYLE = """
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;max-width:1100px;margin:0 auto;padding:0 1em 2em;line-height:1.45;color:#222}
nav.site{position:sticky;top:0;background:#fff;border-bottom:2px solid #ddd;padding:.4em 0;font-size:.92em;
 display:flex;flex-wrap:wrap;gap:.2em .9em;z-index:1}
nav.site a{text-decoration:none;color:#0b4f8a}nav.site a[aria-current]{font-weight:bold;color:#222}
h1{font-size:1.6em;margin:.6em 0 .3em}h2{font-size:1.25em;margin:1.4em 0 .4em}
table{border-collapse:collapse;margin:.6em 0;font-size:.85em;max-width:100%}
th,td{border:1px solid #ccc;padding:.2em .45em;text-align:right;vertical-align:top}
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}
figure{margin:1em 0}figure img{display:block;max-width:100%;max-height:85vh;width:auto;height:auto}
figcaption{font-size:.9em;color:#444}
code{background:#f3f3f3;padding:0 .2em;overflow-wrap:anywhere}
p,li,dd{overflow-wrap:anywhere}
details{margin:.6em 0;border:1px solid #ddd;border-radius:4px;padding:.2em .6em}
summary{cursor:pointer;color:#0b4f8a}
.answer{font-size:1.05em}.takeaways{background:#f5f8fb;border-left:4px solid #0b4f8a;padding:.3em 1em}
.glance{border-top:1px solid #ddd;margin-top:1em}.moved{font-size:.9em;font-style:italic}
a.term{color:inherit;text-decoration:underline dotted #0b4f8a}
dt{font-weight:bold;margin-top:.8em}dd{margin-left:1.2em}.rule{font-weight:normal;color:#555}
.first li{margin:.5em 0}
.decisions li{margin:.4em 0}.decisions h3{font-size:1.08em;margin:1em 0 .2em}.unmeasured{color:#555}
"""


# ---- small helpers -------------------------------------------------------------------------------------
def plain_title(page: Page) -> str:
    """The page's title without its number."""
    return re.sub(r"^\d+\.\s*", "", page.title)


def short_title(page: Page) -> str:
    """The page's words in the navigation bar."""
    return SHORT.get(page.slug) or plain_title(page)


def number(page: Page) -> str:
    """The page's number ("1" for "1-ace-equity")."""
    return page.slug.split("-", 1)[0]


def md(text: str) -> str:
    """Markdown (with tables) to HTML; links to a Markdown page point to its HTML page."""
    out = markdown.markdown(text, extensions=["tables"])
    return re.sub(r'href="(\d-[\w-]+)\.md(#[^"]*)?"', r'href="\1.html\2"', out)


def md_inline(text: str) -> str:
    """One line of Markdown as inline HTML (no enclosing paragraph)."""
    out = md(text)
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") else out


def table_rows(block: str) -> int:
    """The number of body rows of a Markdown table."""
    return max(0, len(block.strip().splitlines()) - 2)


def first_sentence(text: str) -> str:
    """The first sentence of a Markdown paragraph (a full stop before a capital or a code name ends it)."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z`*])", text.strip(), maxsplit=1)
    return parts[0]


def kinds_of(page: Page) -> list[str]:
    """What each block is: the page's record, else read from the Markdown."""
    kinds = list(page.kinds) + ["text"] * (len(page.blocks) - len(page.kinds))
    for i, block in enumerate(page.blocks):
        if kinds[i] == "text" and block.startswith("|") and "\n|---" in block:
            kinds[i] = "table"
    return kinds


def key_table(page: Page, kinds: list[str]) -> int | None:
    """The block index of the page's key table: the one it marks, else its first table of at most
    FOLD_ROWS rows, else its first table (a part of a split table only when marked)."""
    if page.key is not None:
        return page.key
    tables = [i for i, k in enumerate(kinds) if k == "table"]
    short = [i for i in tables if table_rows(page.blocks[i]) <= FOLD_ROWS]
    return (short or tables or [None])[0]


# ---- glossary links ------------------------------------------------------------------------------------
SKIP_TAGS = {"a", "h1", "h2", "h3", "h4", "summary", "nav", "title", "style", "script", "dt", "strong"}


def link_terms(body: str, terms: tuple[Term, ...] = TERMS, href: str = "glossary.html") -> str:
    """Link the first use of each term in ``body`` (HTML) to its glossary entry; headings, links and
    summaries are left alone, and a ``code_only`` term is linked only as a whole ``<code>`` element."""
    pieces = re.split(r"(<[^>]+>)", body)
    open_tags: list[str] = []
    done: set[str] = set()
    out = []
    for piece in pieces:
        if piece.startswith("<"):
            m = re.match(r"<(/?)([a-zA-Z0-9]+)", piece)
            if m and not piece.endswith("/>"):
                name = m.group(2).lower()
                if m.group(1):
                    if name in open_tags:
                        del open_tags[len(open_tags) - 1 - open_tags[::-1].index(name):]
                elif name not in ("img", "br", "hr", "meta", "link", "input"):
                    open_tags.append(name)
            out.append(piece)
            continue
        if not piece.strip() or SKIP_TAGS & set(open_tags):
            out.append(piece)
            continue
        in_code = bool(open_tags) and open_tags[-1] == "code"
        found = []
        for term in terms:
            if term.anchor in done or (term.code_only and not in_code):
                continue
            m = term.regex().search(piece)
            if m and (not term.code_only or m.group(0) == piece):
                found.append((m.start(), m.end(), term))
        found.sort(key=lambda f: (f[0], -f[1]))
        text, last = [], 0
        for start, end, term in found:
            if start < last or term.anchor in done:
                continue
            text += [piece[last:start], f'<a class="term" href="{href}#{term.anchor}" title="glossary: '
                     f'{html.escape(term.name)}">{piece[start:end]}</a>']  # fmt: skip
            last = end
            done.add(term.anchor)
        out.append("".join(text) + piece[last:])
    return "".join(out)


# ---- pages ---------------------------------------------------------------------------------------------
def nav_links(pages: list[Page]) -> list[tuple[str, str]]:
    """The navigation bar's (slug, words): each question page by its number and short title."""
    return [(p.slug, f"{number(p)}. {short_title(p)}") for p in pages]


def nav_from_markdown(out: Path) -> list[tuple[str, str]]:
    """The navigation bar's links from the Markdown pages already in ``out`` (a build of some pages only)."""
    links = []
    for path in sorted(Path(out).glob("[0-9]*-*.md"), key=lambda p: int(p.stem.split("-")[0])):
        first = path.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip()
        page = Page(path.stem, first, "")
        links.append((page.slug, f"{number(page)}. {short_title(page)}"))
    return links


def nav(links: list[tuple[str, str]], current: str) -> str:
    """The navigation bar: the guide, each question by its short title, the glossary."""
    links = [("index", "Player's guide"), *links, ("glossary", "Glossary")]
    items = [f'<a href="{slug}.html"{" aria-current=page" if slug == current else ""}>{html.escape(words)}</a>'
             for slug, words in links]  # fmt: skip
    return f'<nav class="site" aria-label="reports">{"".join(items)}</nav>'


def document(title: str, body: str, links: list[tuple[str, str]], current: str) -> str:
    """A whole HTML file: head, navigation bar (``links``: :func:`nav_links`) and ``body``."""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>\n<body>{nav(links, current)}\n"
            f"<main>\n{body}\n</main></body></html>\n")  # fmt: skip


def _figure(block: str, anchor: str = "") -> str:
    m = re.match(r"!\[(.*?)\]\((figures/[^)\s]+)\)", block, flags=re.DOTALL)
    if not m:
        return md(block)
    caption, src = m.group(1), m.group(2)
    ident = f' id="{anchor}"' if anchor else ""
    return (f'<figure{ident}><a href="{src}"><img src="{src}" alt="{html.escape(caption)}"></a>'
            f"<figcaption>{md_inline(caption)}</figcaption></figure>")  # fmt: skip


def _table(page: Page, i: int, label: str = "") -> str:
    rows = table_rows(page.blocks[i])
    body = md(page.blocks[i])
    fold = page.folded.get(i, rows > FOLD_ROWS)
    if not fold:
        return (f"<p><em>{html.escape(label)}</em></p>" if label else "") + body
    what = f"{label.rstrip('.')} ({rows} rows)" if label else f"Show the table ({rows} rows)"
    return f"<details><summary>{html.escape(what)}</summary>{body}</details>"


def page_body(page: Page, provenance: str) -> str:
    """A question page's HTML body (without the navigation bar)."""
    page.check()
    kinds = kinds_of(page)
    key = key_table(page, kinds)
    fig = next((i for i, k in enumerate(kinds) if k == "figure"), None)
    moved = set()
    glance = []
    if key is not None:
        lead = key  # its caption (and a split table's part label) move with it
        while lead > 0 and kinds[lead - 1] in ("caption", "label") and kinds[lead] != "caption":
            lead -= 1
        for i in range(lead, key):
            glance.append(md(page.blocks[i]))
            moved.add(i)
        glance.append(f'<div id="key-table">{md(page.blocks[key])}</div>')
        moved.add(key)
    if fig is not None:
        glance.append(_figure(page.blocks[fig], "first-figure"))
        moved.add(fig)
    takeaways = "".join(f"<li>{md_inline(t)}</li>" for t in page.takeaways)
    parts = [f"<h1>{html.escape(page.title)}</h1>",
             f'<p class="question"><strong>Question.</strong> {md_inline(page.question)}</p>',
             f'<p class="answer"><strong>Answer.</strong> {md_inline(page.answer)}</p>',
             f'<section class="takeaways"><h2>What a player takes away</h2><p>95% intervals; the sample sizes '
             f"are in the tables.</p><ul>{takeaways}</ul></section>",
             f'<section class="glance"><h2>At a glance</h2>{"".join(glance)}</section>' if glance else "",
             '<section class="detail">']  # fmt: skip
    label = ""
    for i, (kind, block) in enumerate(zip(kinds, page.blocks)):
        if i in moved:
            if i == key:
                parts.append('<p class="moved"><a href="#key-table">This table is shown at the top of the '
                             "page.</a></p>")  # fmt: skip
            elif i == fig:
                parts.append('<p class="moved"><a href="#first-figure">The figure is shown at the top of the '
                             "page.</a></p>")  # fmt: skip
            continue
        if kind == "label" and i + 1 < len(kinds) and kinds[i + 1] == "part":
            label = re.sub(r"[*_]", "", block).strip()
            continue
        if kind in ("table", "part"):
            parts.append(_table(page, i, label))
            label = ""
        elif kind == "figure":
            parts.append(_figure(block))
        else:
            parts.append(md(block))
    parts.append("</section>")
    n = len(page.datasets)
    table, _, note = provenance.partition("\n\n")
    parts.append(f"<h2>Provenance</h2><details class=\"provenance\"><summary>Where these numbers come from: {n} "
                 f"dataset{'s' if n != 1 else ''} (rules, players, seed, size, software)</summary>{md(table)}"
                 f"</details>{md(note)}")  # fmt: skip
    return link_terms("\n".join(p for p in parts if p))


# ---- the landing page ----------------------------------------------------------------------------------
def fact(page: Page, name: str, pattern: str) -> str | None:
    """The page's sentence ``name``: its fact, else its first rule of thumb matching ``pattern``."""
    if name in page.facts:
        return page.facts[name]
    return next((t for t in page.takeaways if re.search(pattern, t)), None)


def first_questions(pages: list[Page]) -> list[tuple[str, list[tuple[Page, str | None]]]]:
    """Each first question with the sentence of each page that answers it (None: the page has the detail but
    no sentence to quote); pages not built are left out, and so is a question no page answers."""
    by_slug = {p.slug: p for p in pages}
    answers = []
    for q in FIRST_QUESTIONS:
        found = []
        for slug, name, pattern in q.sources:
            page = by_slug.get(slug)
            if page is not None:
                found.append((page, fact(page, name, pattern)))
        if any(sentence for _, sentence in found):
            answers.append((q.question, found))
    return answers


def decisions(pages: list[Page]) -> list[tuple[Decision, list[tuple[Page, str]]]]:
    """Each decision with the sentences of the pages that measure it (pages not built left out)."""
    by_slug = {p.slug: p for p in pages}
    return [(d, [(by_slug[slug], by_slug[slug].facts[name]) for slug, name in d.facts
                 if slug in by_slug and name in by_slug[slug].facts]) for d in DECISIONS]  # fmt: skip


def decisions_html(pages: list[Page]) -> str:
    """The guide proper: for each decision its rules of thumb (each linking to its page), or what is not
    measured yet."""
    parts = ['<section class="decisions"><h2>Decisions, one by one</h2><p>Rules of thumb for each decision a '
             "player meets, each with the points a deal it gains (95% interval, n) and the positions it covers: "
             "<em>first hand</em> is the dealer's left and speaks first, then <em>second hand</em> and <em>third "
             "hand</em>; the <em>dealer</em> speaks last (4 players).</p>"]  # fmt: skip
    for d, said in decisions(pages):
        parts.append(f"<h3>{html.escape(d.title)}</h3><ul>")
        if not said:
            parts.append(f'<li class="unmeasured">{md_inline(NOT_MEASURED + "gives no rule of thumb.")}</li>')
        parts += [f'<li>{md_inline(s)} (<a href="{p.slug}.html">page {number(p)}</a>)</li>' for p, s in said]
        if d.missing and said:
            parts.append(f'<li class="unmeasured">{md_inline(d.missing)}</li>')
        parts.append("</ul>")
    parts.append("</section>")
    return "".join(parts)


def index_body(pages: list[Page], reading: str, scale: float) -> str:
    """The landing page: the first questions a player asks, the pages with their answers, the glossary."""
    parts = [f"<h1>{html.escape(TITLE)}</h1>",
             "<p>A player's guide to Rams drawn from millions of simulated deals. Every number below is computed "
             "by <code>make reports</code> and carries its 95% interval; each links to the page with the detail. "
             'Words in dotted underline are explained in the <a href="glossary.html">glossary</a>.</p>']  # fmt: skip
    if scale != 1:
        parts.append(f"<p><strong>These reports were made at scale {scale:g}: every dataset is smaller than the "
                     "committed reports' and the intervals wider.</strong></p>")  # fmt: skip
    parts.append('<h2>The first questions a player asks</h2><ul class="first">')
    for question, found in first_questions(pages):
        said = " ".join(f'{md_inline(s)} (<a href="{p.slug}.html">page {number(p)}</a>)' for p, s in found if s)
        more = [f'<a href="{p.slug}.html">page {number(p)}</a>' for p, s in found if not s]
        said += f" See also {' and '.join(more)}." if more else ""
        parts.append(f"<li><strong>{html.escape(question)}</strong> {said}</li>")
    parts.append("</ul>" + decisions_html(pages) + "<h2>The questions, page by page</h2><ol>")
    for p in pages:
        parts.append(f'<li value="{number(p)}"><a href="{p.slug}.html">{html.escape(plain_title(p))}</a>: '
                     f"{md_inline(first_sentence(p.answer))}</li>")  # fmt: skip
    parts.append("</ol><h2>How to read the numbers</h2>")
    parts.append(md(reading))
    parts.append('<p>Every term the pages use (95% interval, paired difference, held-out, the positions, the kinds '
                 'of player, the rule options) is defined in the <a href="glossary.html">glossary</a>. The Markdown '
                 'sources of the pages are beside them (<a href="index.md">index.md</a>).</p>')  # fmt: skip
    return link_terms("\n".join(parts))


def write_pages(pages: list[Page], out: Path, provenance: dict[str, str],
                links: list[tuple[str, str]] | None = None) -> list[Path]:
    """Write ``<slug>.html`` for each page; ``provenance`` maps a page's slug to its provenance table (Markdown,
    :func:`analyses.common.provenance_table`); ``links``: the navigation bar (default: these pages)."""
    links = nav_links(pages) if links is None else links
    written = []
    for page in pages:
        path = Path(out) / f"{page.slug}.html"
        path.write_text(document(f"{page.title} · rams-sim", page_body(page, provenance[page.slug]), links,
                                 page.slug), encoding="utf-8")  # fmt: skip
        written.append(path)
    return written


def write_site(pages: list[Page], out: Path, provenance: dict[str, str], reading: str, scale: float = 1.0) -> list[Path]:
    """Write ``<slug>.html`` for each page, ``glossary.html`` and ``index.html`` (:func:`write_pages`).
    Returns the files written."""
    out = Path(out)
    written = write_pages(pages, out, provenance)
    links = nav_links(pages)
    path = out / "glossary.html"
    path.write_text(document("Glossary · rams-sim", glossary_html(), links, "glossary"), encoding="utf-8")
    written.append(path)
    path = out / "index.html"
    path.write_text(document(TITLE, index_body(pages, reading, scale), links, "index"), encoding="utf-8")
    written.append(path)
    return written
