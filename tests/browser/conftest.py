"""Fixtures of the browser test: the built HTML book served on localhost, Debian's Chromium
driven headless through Playwright (no browser download: ``executable_path``).

Environment
-----------
``BAI_BOOK_HTML``
    The built HTML book (default ``book/_build/html``, what ``make book`` writes; ``make test``
    passes ``build/ci/book/_build/html``). Missing when set explicitly is a failure; missing at the
    default is a skip (the book was not built).
``BAI_CHROMIUM``
    The Chromium binary (default ``/usr/bin/chromium``, from Debian's ``chromium`` package, which
    ``scripts/install_chromium.sh`` installs). Missing is a skip, with the installer's reason when
    ``BROWSER_SKIP_FILE`` names the file it wrote.
``BAI_SCREENSHOTS``
    Where the full-page screenshots go (default ``build/screenshots``).
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path

import pytest
from _site import CHROMIUM_ARGS, html_dir, screenshot_dir


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass


@pytest.fixture(scope="module")
def book_url():
    """Serve :func:`html_dir` with ``http.server`` in a thread on a free localhost port."""
    root = html_dir()
    if not (root / "index.html").exists():
        if "BAI_BOOK_HTML" in os.environ:
            pytest.fail(f"BAI_BOOK_HTML={os.environ['BAI_BOOK_HTML']}: no built book there "
                        f"({root / 'index.html'} is missing)")
        pytest.skip(f"no built book at {root} (run `make book` first, or set BAI_BOOK_HTML)")
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium through Playwright, or a skip that says why there is none."""
    chromium = Path(os.environ.get("BAI_CHROMIUM", "/usr/bin/chromium"))
    if not chromium.exists():
        reason = f"{chromium} is not installed"
        skip_file = os.environ.get("BROWSER_SKIP_FILE")
        if skip_file and Path(skip_file).exists():
            reason += f" ({Path(skip_file).read_text().strip()})"
        pytest.skip(f"browser test skipped: {reason}; run scripts/install_chromium.sh "
                    "as root to install Debian's chromium and chromium-driver")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), headless=True,
                                     args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def shots() -> Path:
    out = screenshot_dir()
    out.mkdir(parents=True, exist_ok=True)
    print(f"\nbrowser test: screenshots in {out}")
    return out
