"""Browser test of the built book: every page of the table of contents, opened in headless
Chromium from a local server, loads (HTTP 200, a title), raises no JavaScript or console error,
shows no notebook error output, and each notebook chapter shows its figures (images that
actually decoded), its computed summary on its first screen (above the first section) and at
least three exercises, each with a solution that opens on a click and holds executed code; the
ledger page draws its table of claims from the build's data (filters, pages, permalinks), each
findings page has short entries with their details folded, and the status page one row per
chapter. A screenshot of the first screen of every page goes to ``build/screenshots/<page>.png``
(bounded to the viewport: a full-page screenshot of a long page timed out on a busy machine).

Timeouts are generous (:data:`TIMEOUT`): the test must pass on a loaded machine; a page that
does not load within them is a defect all the same.

Requests that leave localhost (the theme loads MathJax from a CDN) are answered with an empty
body, so that the test runs offline and the same everywhere; they are listed in the output.
"""

from __future__ import annotations

import re

import pytest
from _site import book_title, pages

PAGES = pages()
VIEWPORT = {"width": 1280, "height": 900}
#: milliseconds for a page to load, a script to run, a screenshot to be taken (a busy machine)
TIMEOUT = 120_000
#: the largest page of the ledger and the findings, in bytes (issue 33, item 8)
PAGE_BUDGET = 300_000
CONTENT_TYPES = {"script": "application/javascript", "stylesheet": "text/css",
                 "font": "font/woff2", "image": "image/png"}

# Console and JavaScript errors that every page of a Jupyter Book 1.x built with these pins shows,
# from the theme's own files, not from the book: each with its cause. Matched exactly, and printed.
KNOWN_THEME_ERRORS = {
    "Got invalid theme mode: . Resetting to auto.":
        "pydata-sphinx-theme.js: sphinx-book-theme renders `dataset.mode = ... || \"\"`",
    "Identifier 'THEBE_JS_URL' has already been declared":
        "sphinx-thebe 0.3.1's inline `const` config script is emitted twice by Sphinx 7.4",
}

# Every <img> of the page: (src, complete, naturalWidth, inside a notebook cell's output).
IMAGES_JS = """() => Array.from(document.images).map(img => [
    img.getAttribute('src'), img.complete, img.naturalWidth,
    img.closest('.cell_output') !== null])"""


# .math elements whose text still holds the TeX delimiters (MathJax did not typeset them).
RAW_MATH_JS = r"""() => [...document.querySelectorAll('.math')]
    .filter(el => !el.querySelector('mjx-container')
                  && (el.textContent.includes('\\(') || el.textContent.includes('\\[')))
    .length"""


# the summary box must come before the first section of the chapter (the reader's first screen)
SUMMARY_FIRST_JS = """() => {
    const box = document.querySelector('article .claims-summary');
    const h2 = document.querySelector('article section section h2');
    if (!box) return 'missing';
    if (h2 && (box.compareDocumentPosition(h2) & Node.DOCUMENT_POSITION_PRECEDING)) return 'late';
    return box.getBoundingClientRect().top + window.scrollY < 1400 ? 'ok' : 'low';
}"""


def _summary_and_exercises(page) -> list[str]:
    problems = []
    where = page.evaluate(SUMMARY_FIRST_JS)
    if where != "ok":
        problems.append(f"the chapter's computed summary is {where} (expected on its first screen)")
    else:
        text = page.locator("article .claims-summary").first.inner_text()
        if not re.search(r"\d+ of \d+ (claims|checks)", text):
            problems.append(f"the summary holds no computed totals: {text[:200]!r}")
    exercises = page.locator("article .exercise")
    solutions = page.locator("article .solution")
    if exercises.count() < 3:
        problems.append(f"{exercises.count()} exercises (at least three expected)")
    if solutions.count() < exercises.count():
        problems.append(f"{solutions.count()} solutions for {exercises.count()} exercises")
    if solutions.count():
        first = solutions.first
        toggle = first.locator(".admonition-title, summary, button").first
        toggle.click()
        page.wait_for_timeout(300)
        code = first.locator(".cell_input, .highlight")
        if code.count() == 0 or not code.first.is_visible():
            problems.append("the first solution shows no code after a click")
    return problems


def _name(entry: str) -> str:
    return entry.rsplit("/", 1)[-1]


def _findings_readable(page) -> list[str]:
    """Every errata entry of the findings page lies within the page's width, and its verdict
    is visible (issue 27: a table wider than the page cut the verdict column off)."""
    problems = []
    entries = page.locator("div.claims-finding")
    n = entries.count()
    text = page.locator("article").inner_text()
    if n == 0 and "reproduces as printed" not in text and "None in this build" not in text:
        problems.append("the findings page has neither an entry nor its empty-state sentence")
    if page.locator("div.claims-finding details[open]").count():
        problems.append("a finding's details are open: they are folded until the reader asks")
    words = page.evaluate("""() => [...document.querySelectorAll('div.claims-finding')].map(e => {
        const c = e.cloneNode(true); c.querySelectorAll('details').forEach(d => d.remove());
        return c.textContent.split(/\\s+/).filter(Boolean).length; })""")
    long = [(i + 1, w) for i, w in enumerate(words) if w > 170]
    if long:
        problems.append(f"findings entries over about 150 visible words (entry, words): {long[:5]}")
    width = page.evaluate("document.documentElement.clientWidth")
    if page.evaluate("document.documentElement.scrollWidth") > width + 1:
        problems.append("the findings page is wider than the window (horizontal scrolling)")
    for i in range(n):
        box = entries.nth(i).bounding_box()
        verdict = entries.nth(i).locator("[class*='claims-verdict-']").first
        vbox = verdict.bounding_box() if verdict.count() else None
        if box is None or box["x"] < 0 or box["x"] + box["width"] > width + 1:
            problems.append(f"findings entry {i + 1} is not within the page's width ({box})")
        if vbox is None or not verdict.is_visible() or vbox["x"] + vbox["width"] > width + 1:
            problems.append(f"the verdict of findings entry {i + 1} is not visible ({vbox})")
    return problems


def test_the_pages_under_test_are_the_book():
    entries = [e for e, _ in PAGES]
    assert entries[0] == "intro"
    assert "ledger" in entries and "references" in entries and "notation" in entries
    assert "findings" in entries
    assert "api/reference" in entries
    notebooks = [e for e, nb in PAGES if nb]
    assert len(notebooks) >= 5, notebooks
    assert all(e.startswith("chapters/") for e in notebooks)
    assert len({_name(e) for e in entries}) == len(entries), "screenshot names are unique"


def test_the_api_reference_has_every_public_name(book_url):
    """Every name of every ``__all__`` of bai has its anchor (``id="bai.module.name"``) on one of
    the built API pages (the ``book_url`` fixture: the same built book, or the same skip)."""
    import importlib
    import inspect
    import pkgutil

    import bai
    from _site import html_dir

    pages = sorted((html_dir() / "api").glob("*.html"))
    assert pages, "no API reference pages in the built book"
    ids = set()
    for page in pages:
        ids |= set(re.findall(r'id="(bai[\w.]*)"', page.read_text()))
    missing = []
    for info in pkgutil.walk_packages(bai.__path__, "bai."):
        if info.name == "bai.__main__":
            continue
        mod = importlib.import_module(info.name)
        missing += [f"{info.name}.{n}" for n in getattr(mod, "__all__", ())
                    if not inspect.ismodule(getattr(mod, n)) and f"{info.name}.{n}" not in ids]
    assert not missing, f"public names without an entry in the API reference: {missing}"


def test_index_redirects_to_the_intro(book_url, browser):
    page = browser.new_page()
    try:
        page.goto(f"{book_url}/index.html", wait_until="load")
        page.wait_for_url(re.compile(r".*/intro\.html$"), timeout=TIMEOUT)
    finally:
        page.close()


def _external(book_url: str, seen: list[str]):
    def handle(route):
        request = route.request
        seen.append(request.url)
        route.fulfill(status=200, body="",
                      content_type=CONTENT_TYPES.get(request.resource_type, "text/plain"))

    return (lambda url: not url.startswith(book_url)), handle


def _ledger_works(page, url: str) -> list[str]:
    """The ledger's table: drawn from the build's data, filtered, paged, and a permalink opens
    the page that holds its claim, unfolded and marked."""
    problems = []
    app = page.locator("#claims-ledger-app[data-ready='true']")
    try:
        app.wait_for(timeout=TIMEOUT)
    except Exception as err:  # playwright's TimeoutError
        if type(err).__name__ != "TimeoutError":
            raise
        return ["the ledger's table was not drawn (claims_ledger.js, claims_ledger_data.js)"]
    rows = page.locator("table.claims-ledger-claims tbody tr.claims-row")
    if rows.count() == 0:
        return ["the ledger's table of claims has no rows"]
    total = page.evaluate("() => new Set(window.BAI_LEDGER.rows.map("
                          "r => r.chapter + '/' + r.claim_id)).size")
    count = page.locator(".claims-app-count").first.inner_text()
    if not count.startswith(f"{total} of {total} claims"):
        problems.append(f"the count line {count!r} does not say {total} claims")
    # filter by a verdict: every row shown has it
    select = page.locator("select.claims-filter-verdict")
    verdict = select.locator("option").nth(1).get_attribute("value")
    select.select_option(verdict)
    shown = page.locator("table.claims-ledger-claims tbody tr.claims-row td:nth-child(5)")
    texts = {t.strip() for t in shown.all_inner_texts()}
    if texts != {verdict}:
        problems.append(f"filtered on {verdict!r}, the table shows {sorted(texts)[:4]}")
    select.select_option("")
    # a permalink to the last claim (on the last page): its row, marked, its rows unfolded
    from bai.publish import claim_anchor

    last = page.evaluate("() => window.BAI_LEDGER.rows[window.BAI_LEDGER.rows.length - 1]"
                         ".claim_id")
    anchor = claim_anchor(last)
    page.goto(f"{url}#{anchor}", wait_until="load", timeout=TIMEOUT)
    page.locator("#claims-ledger-app[data-ready='true']").wait_for(timeout=TIMEOUT)
    target = page.locator(f"[id='{anchor}']")
    if target.count() != 1 or "claims-target" not in (target.get_attribute("class") or ""):
        problems.append(f"the permalink #{anchor} does not open its claim's row")
    return problems


def test_the_ledger_and_findings_pages_are_small(book_url):
    """Each page of the ledger and of the findings stays under the budget, whatever the number
    of claims (the ledger's rows are in its script; each kind of finding has its page)."""
    from _site import html_dir

    root = html_dir()
    pages = [root / "ledger.html", *sorted(root.glob("findings*.html"))]
    assert len(pages) >= 3, pages
    sizes = {p.name: p.stat().st_size for p in pages}
    print(f"\npage sizes (bytes): {sizes}")
    assert all(n < PAGE_BUDGET for n in sizes.values()), sizes


def test_the_dataset_loads_and_counts_as_the_ledger(book_url):
    """data/claims.csv loads with pandas to the documented columns; its claims per verdict are
    the ledger's totals; every per-run table the manifest lists is there."""
    import json

    import pandas as pd
    from _site import html_dir

    from bai.publish import COLUMNS

    root = html_dir()
    claims = pd.read_csv(root / "data" / "claims.csv")
    assert list(claims.columns) == [c[0] for c in COLUMNS]
    head = claims[claims["deciding"] & (claims["claim_role"] == "reproduction")]
    assert not head.duplicated(["chapter", "claim_id"]).any()
    counts = head["claim_verdict"].value_counts().to_dict()
    page = (root / "ledger.html").read_text()
    table = re.search(r'<table class="[^"]*claims-ledger-totals[^"]*">(.*?)</table>', page, re.S)
    heads = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>",
                                                                     table.group(1), re.S)]
    last = re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)[-1]
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                     last, re.S)]
    from bai.claims import PAPER_VERDICTS

    short = {"as printed": PAPER_VERDICTS[0], "alternative reading only": PAPER_VERDICTS[1]}
    for h, c in zip(heads, cells):
        verdict = short.get(h, h)
        if verdict in PAPER_VERDICTS:
            assert counts.get(verdict, 0) == int(c.replace(",", "")), (verdict, counts, c)
    manifest = json.loads((root / "data" / "manifest.json").read_text())
    for f in manifest["files"]:
        assert (root / "data" / f["path"]).is_file(), f["path"]
    assert any(ch["runs"] for ch in manifest["chapters"]), "no per-run table in the dataset"


@pytest.mark.parametrize("entry,is_notebook", PAGES, ids=[_name(e) for e, _ in PAGES])
def test_page(entry, is_notebook, book_url, browser, shots):
    url = f"{book_url}/{entry}.html"
    page = browser.new_page(viewport=VIEWPORT)
    page.set_default_timeout(TIMEOUT)
    console, page_errors, bad_responses, external = [], [], [], []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page_errors.append(str(e)))
    page.on("response", lambda r: bad_responses.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    page.on("requestfailed", lambda r: bad_responses.append(f"failed {r.url}: {r.failure}"))
    page.route(*_external(book_url, external))
    problems = []
    try:
        response = page.goto(url, wait_until="load", timeout=TIMEOUT)
        status = response.status if response is not None else None
        assert status == 200, f"{url}: HTTP {status} (is {entry}.md in the built book?)"
        title = page.title()
        h1 = page.locator("article h1").first.inner_text().replace("#", "").strip()
        if not h1 or not title.startswith(h1) or not title.endswith(book_title()):
            problems.append(f"title {title!r} is not '<h1> — <book title>' (h1 {h1!r})")

        for selector, what in [(".output.traceback", "a traceback output"),
                               (".output.error", "an error output"),
                               (".admonition.error", "an 'Error' admonition"),
                               (".system-message", "a docutils system message")]:
            for text in page.locator(selector).all_inner_texts():
                problems.append(f"{what}: {text[:300]!r}")
        for text in page.locator(".cell_output").all_inner_texts():
            if "Traceback (most recent call last)" in text:
                problems.append(f"a Traceback in a cell output: {text[:300]!r}")
        for text in page.locator(".output.stderr").all_inner_texts():
            if re.search(r"\w*Error\b|Traceback", text):
                problems.append(f"an error on stderr: {text[:300]!r}")
        red = page.locator(".cell_output [class*='ansi-red']")
        if red.count():
            problems.append(f"red (ANSI error) output: {red.first.inner_text()[:300]!r}")

        images = page.evaluate(IMAGES_JS)
        for src, complete, width, _ in images:
            if not complete or width == 0:
                problems.append(f"image did not load: {src}")
        figures = [src for src, complete, width, in_output in images
                   if in_output and complete and width > 0]
        if is_notebook and not figures:
            problems.append("a notebook chapter with no figure (no loaded <img> in a cell output)")

        # math is typeset by the MathJax served with the book (no CDN): no raw TeX is left
        if page.locator(".math").count() and not page.locator(
                "script[src*='tex-mml-chtml']").count():
            problems.append("raw TeX: the page has math (e.g. in a title shown in the sidebar) "
                            "but Sphinx did not load MathJax on it")
        elif page.locator(".math").count():
            try:
                page.wait_for_function("() => window.MathJax && MathJax.startup && "
                                       "MathJax.startup.promise", timeout=TIMEOUT)
                page.evaluate("() => MathJax.startup.promise")
            except Exception as err:  # playwright's TimeoutError (imported lazily by conftest)
                if type(err).__name__ != "TimeoutError":
                    raise
                problems.append(f"MathJax did not load within {TIMEOUT // 1000} s (is mathjax/ "
                                f"in the HTML?)")
            else:
                raw = page.evaluate(RAW_MATH_JS)
                if raw or page.locator(".math mjx-container").count() == 0:
                    problems.append(f"math not typeset by MathJax ({raw} .math elements still "
                                    f"hold raw TeX)")

        if is_notebook:
            problems += _summary_and_exercises(page)
        if entry == "status":
            rows = page.locator("table.build-status tbody tr").count()
            chapters = len([e for e, nb in PAGES if nb])
            if rows < chapters + 1:   # one row per chapter and the total
                problems.append(f"the build-status table has {rows} rows for {chapters} chapters")
            if "with the library bai" not in page.locator("article").inner_text():
                problems.append("the status page does not name the library's version")

        if entry == "ledger":
            tables = page.locator("table.claims-ledger")
            if tables.count() == 0:
                problems.append("no <table class='claims-ledger'> on the ledger page")
            elif page.locator("table.claims-ledger tbody tr").count() == 0:
                problems.append("the claims-ledger table has no rows")
            problems += _ledger_works(page, url)
        if _name(entry).startswith("findings"):
            # the errata: one entry per finding (or the sentence saying there is none), each
            # readable at the page's width, its verdict visible in the screenshot
            problems += _findings_readable(page)

        shot = shots / f"{_name(entry)}.png"
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(shot), full_page=False, timeout=TIMEOUT,
                        clip={"x": 0, "y": 0, **VIEWPORT})
        assert shot.stat().st_size > 0
    finally:
        page.close()

    known = [t for t in console + page_errors if t in KNOWN_THEME_ERRORS]
    problems += [f"console error: {t}" for t in console if t not in KNOWN_THEME_ERRORS]
    problems += [f"JavaScript error: {t}" for t in page_errors if t not in KNOWN_THEME_ERRORS]
    if known:
        print(f"\n{entry}: known theme errors, ignored: {sorted(set(known))}")
    problems += [f"bad response: {t}" for t in bad_responses]
    if external:
        print(f"\n{entry}: answered empty (off-line): {sorted(set(external))}")
    print(f"\n{entry}: {len(figures)} figures, screenshot {shot}")
    assert not problems, f"{url}:\n  " + "\n  ".join(problems)
