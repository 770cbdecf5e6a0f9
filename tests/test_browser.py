"""The built book in a real browser with no network: Debian's headless Chromium driven by Selenium
through Debian's chromedriver (nothing downloads a browser or a driver).

Every page of ``_build/html`` (``make test`` builds it first; another folder with
``SWEEPER_BOOK_HTML``) is opened from ``file://`` and from a local HTTP server on 127.0.0.1, with
name resolution and every proxy route closed. Each page must show no console error, request
nothing outside the book, draw every chart (an SVG or canvas with content) and hold no
ipywidgets output (the live widgets are for ``make lab``). The kernel-free step-through must answer
its slider and its game menu, and the kernel-free pattern explorer must select what
:func:`sweeper.viz.board_charts.pattern_table` selects. In a 1,280 px window no table of the leaderboard, the
regret, neural, ceiling and deep-RL chapters is wider than the text column, and no number, range or interval breaks across lines.

Skipped, with the reason, when Chromium or chromedriver is missing (``apt-get install chromium
chromium-driver``) or the book is not built; with ``SWEEPER_REQUIRE_BROWSER`` set (``.ci/run``)
that is a failure instead.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BOOK = Path(os.environ.get("SWEEPER_BOOK_HTML", REPO / "_build" / "html"))
CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions", "--window-size=1200,1600",
                # no network: every host name fails to resolve, every proxied route hits a closed port
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--proxy-server=127.0.0.1:9")
WAIT = 30.0  # seconds a page may take to draw its charts


def _executables():
    chrome = next((shutil.which(n) for n in (os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser")
                   if n and shutil.which(n)), None)
    driver = shutil.which("chromedriver") or next(
        (p for p in ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver") if Path(p).exists()), None)
    return chrome, driver


def _pages():
    if not (BOOK / "index.html").exists():
        return []
    return sorted(p.relative_to(BOOK).as_posix() for p in BOOK.rglob("*.html")
                  if not p.relative_to(BOOK).parts[0].startswith("_"))


def chromium(what: str, flags=(), logs=("browser",)):
    """Headless Chromium with no network (:data:`CHROME_FLAGS` plus ``flags``) in a fresh profile, as a context
    manager yielding the Selenium driver; skipped (or, with ``SWEEPER_REQUIRE_BROWSER``, failed) where Debian's
    chromium and chromium-driver are missing. ``what`` names the test in that message."""
    chrome, driver_path = _executables()
    if chrome is None or driver_path is None:
        why = (f"{what} skipped: Debian's chromium and chromium-driver are not installed "
               "(apt-get install chromium chromium-driver; .ci/run installs them)")
        if os.environ.get("SWEEPER_REQUIRE_BROWSER"):
            pytest.fail(why.replace("skipped", "required (SWEEPER_REQUIRE_BROWSER)"))
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    @contextlib.contextmanager
    def driver():
        profile = tempfile.mkdtemp(prefix="sweeper-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = chrome
        for flag in (*CHROME_FLAGS, *flags, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {k: "ALL" for k in logs})
        drv = webdriver.Chrome(service=Service(driver_path), options=options)
        try:
            yield drv
        finally:
            drv.quit()
            shutil.rmtree(profile, ignore_errors=True)
    return driver()


@pytest.fixture(scope="module")
def browser():
    with chromium("browser test", logs=("browser", "performance")) as drv:
        drv.set_page_load_timeout(60)
        drv.execute_cdp_cmd("Network.enable", {})
        yield drv


@pytest.fixture(scope="module")
def book():
    if not (BOOK / "index.html").exists():
        if os.environ.get("SWEEPER_REQUIRE_BROWSER"):
            pytest.fail(f"no built book in {BOOK}: run `make book` first")
        pytest.skip(f"browser test skipped: no built book in {BOOK} (run `make book`; `make test` builds it first)")
    return BOOK


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(book):
    """The built book served on 127.0.0.1 (a free port), stopped after the module."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(book)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


# -- what a page did --------------------------------------------------------------------------------

CHART_STATE = """
return Array.from(document.querySelectorAll('.sweeper-chart')).map(function (el) {
  var svg = el.querySelector('svg'), canvas = el.querySelector('canvas');
  var marks = svg ? svg.querySelectorAll('path, rect, text, line, circle').length : 0;
  var drawn = canvas ? canvas.width * canvas.height : 0;
  return {status: el.getAttribute('data-chart-status'), marks: marks, canvas: drawn};
});"""


def _drain(drv):
    """Forget earlier logs (each page is judged on its own)."""
    drv.get_log("browser")
    drv.get_log("performance")


def _requests(drv) -> list[str]:
    urls = []
    for entry in drv.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return urls


def _outside(urls, root: str) -> list[str]:
    """The URLs that leave the book (data:, blob: and about: stay in the page; chrome:// and
    chrome-untrusted:// are Chromium's own resources, never the network: newer Chromium builds load some
    for their own UI into the same log)."""
    inside = ("data:", "blob:", "about:", "chrome:", "chrome-untrusted:", root)
    return [u for u in urls if not u.startswith(inside)]


def _open(drv, url):
    """Load ``url`` and wait until no chart is still loading; returns the charts' state."""
    drv.get(url)
    deadline = time.time() + WAIT
    while True:
        charts = drv.execute_script(CHART_STATE)
        if all(c["status"] != "loading" for c in charts) or time.time() > deadline:
            time.sleep(0.3)  # let the last draw settle
            return drv.execute_script(CHART_STATE)
        time.sleep(0.2)


def _check_page(drv, root: str, page: str) -> dict:
    _drain(drv)
    charts = _open(drv, root + page)
    severe = [e["message"] for e in drv.get_log("browser") if e["level"] == "SEVERE"]
    outside = _outside(_requests(drv), root)
    widgets = drv.execute_script(
        "return document.querySelectorAll('script[type*=\"jupyter.widget\"], .jupyter-widgets').length")
    return {"page": page, "charts": charts, "severe": severe, "outside": outside, "widgets": widgets}


def _report(results, how):
    charts = sum(len(r["charts"]) for r in results)
    errors = sum(len(r["severe"]) for r in results)
    outside = sum(len(r["outside"]) for r in results)
    print(f"\nbrowser ({how}): {len(results)} pages opened, {charts} charts found, {errors} console errors, "
          f"{outside} outside requests")
    for r in results:
        assert not r["severe"], (r["page"], r["severe"][:3])
        assert not r["outside"], (r["page"], r["outside"][:5])
        assert r["widgets"] == 0, f"{r['page']}: ipywidgets output in the static page"
        for i, c in enumerate(r["charts"]):
            assert c["status"] == "ready", f"{r['page']}: chart {i} is {c['status']}"
            assert c["marks"] > 0 or c["canvas"] > 0, f"{r['page']}: chart {i} drew nothing"


def test_book_has_the_pages_of_the_toc(book):
    pages = _pages()
    assert "index.html" in pages
    for name in ("quickstart", "05_bandits_flags", "10_patterns"):
        assert f"book/{name}.html" in pages


def test_the_root_redirect_names_the_icon(book):
    """The root index.html only redirects to the first chapter; a browser that loads it before it follows the
    redirect asks for /favicon.ico unless the page names its icon (a 404 in the console, seen in CI)."""
    html = (book / "index.html").read_text(encoding="utf-8")
    icon = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert icon, html[:300]
    assert (book / icon.group(1)).is_file()
    target = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', html).group(1)
    assert (book / target).is_file()
    assert f'<a href="{target}">' in html


def test_no_page_shows_a_warning_or_a_traceback(book):
    """What a cell wrote to stderr (a library's warning) or an error would reach the reader as part of the page."""
    shown = {}
    for page in _pages():
        html = (book / page).read_text(encoding="utf-8")
        found = re.findall(r'class="[^"]*\boutput (stderr|traceback)\b', html)
        if found:
            shown[page] = sorted(set(found))
    assert not shown, shown


def test_every_page_offline_from_file(browser, book):
    root = book.resolve().as_uri() + "/"
    results = [_check_page(browser, root, page) for page in _pages()]
    _report(results, "file://")
    assert sum(len(r["charts"]) for r in results) > 0


def test_every_page_offline_from_a_local_server(browser, server):
    results = [_check_page(browser, server, page) for page in _pages()]
    _report(results, "http://127.0.0.1")


# -- the kernel-free step-through ----------------------------------------------------------------------

def _chart_with(drv, selector):
    """The chart element that holds a control matching ``selector``."""
    return drv.execute_script(
        "var c = document.querySelector(arguments[0]); return c && c.closest('.sweeper-chart');", selector)


def _texts(drv, chart) -> str:
    return drv.execute_script(
        "return Array.from(arguments[0].querySelectorAll('svg text')).map(t => t.textContent).join('\\n');", chart)


def _settle(drv, chart, before, timeout=10.0):
    """Wait until the chart's text differs from ``before``; returns the new text."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        now = _texts(drv, chart)
        if now != before:
            time.sleep(0.2)
            return _texts(drv, chart)
        time.sleep(0.1)
    return _texts(drv, chart)


def test_step_through_answers_its_slider_and_game_menu(browser, book):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    _open(browser, (book / "book" / "05_bandits_flags.html").resolve().as_uri())
    chart = _chart_with(browser, 'select[name="game"]')
    assert chart is not None, "no step-through (a chart with a game menu) on the page"
    slider = chart.find_element("css selector", 'input[type="range"][name="step"]')
    first = _texts(browser, chart)
    assert "Decision 1 of" in first and "candidates the agent compared" in first

    for _ in range(4):  # forward, as a reader presses the arrow key
        slider.send_keys(Keys.ARROW_RIGHT)
    fifth = _settle(browser, chart, first)
    assert "Decision 5 of" in fifth and fifth != first
    slider.send_keys(Keys.ARROW_LEFT)  # and back
    fourth = _settle(browser, chart, fifth)
    assert "Decision 4 of" in fourth

    menu = Select(chart.find_element("css selector", 'select[name="game"]'))
    labels = [o.text for o in menu.options]
    assert len(labels) >= 3
    assert any("won" in t for t in labels) and any("forced guess" in t for t in labels)
    assert any("clicked a known mine" in t or "missed a safe tile" in t for t in labels)
    assert any(t.startswith("greedy") for t in labels) and any(t.startswith("UCB(0.1)") for t in labels)
    assert any(t.startswith("Thompson") for t in labels)
    menu.select_by_index(1)
    other = _settle(browser, chart, fourth)
    assert labels[1] in other and labels[0] not in other
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def test_pattern_explorer_answers_its_filters(browser, book):
    from selenium.webdriver.support.ui import Select

    _open(browser, (book / "book" / "10_patterns.html").resolve().as_uri())
    chart = _chart_with(browser, 'select[name="cls"]')
    assert chart is not None, "no pattern explorer (a chart with a class menu) on the page"
    before = _texts(browser, chart)
    assert "recorded actions pass the filters" in before
    Select(chart.find_element("css selector", 'select[name="cls"]')).select_by_visible_text("edge")
    after = _settle(browser, chart, before)
    assert after != before
    Select(chart.find_element("css selector", 'select[name="min_n"]')).select_by_index(4)
    assert _settle(browser, chart, after) != after


# -- the explorers on a small agent: the page selects what pattern_table selects --------------------------

def _page(tmp_path, chart) -> str:
    from sweeper.viz import offline

    shutil.copytree(offline.BUNDLE_DIR, tmp_path / "_static" / "vega")
    page = tmp_path / "book" / "page.html"
    page.parent.mkdir(parents=True)
    page.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>"
                    + offline.chart_html(chart.to_dict()) + "</body></html>")
    return page.as_uri()


@pytest.fixture(scope="module")
def small_agent():
    from sweeper import make_agent, train

    agent = make_agent("greedy")
    train(agent, "8x8x10", 3000, seed=1, progress=False)
    return agent


def test_pattern_explorer_page_selects_what_pattern_table_selects(browser, tmp_path, small_agent):
    from sweeper.viz.board_charts import pattern_table
    from sweeper.viz.explorers import CERTAINTY_OPTIONS, pattern_explorer_chart

    url = _page(tmp_path, pattern_explorer_chart(small_agent, top=12))
    _open(browser, url)
    chart = _chart_with(browser, 'select[name="cls"]')
    view_set = ("var v = arguments[0].vegaEmbedResult.view; var s = arguments[1];"
                "Object.keys(s).forEach(function (k) { v.signal(k, s[k]); }); return v.runAsync().then(() => 1);")
    for cls, cert, min_n, order in (("all", 0, 1, "count"), ("edge", 1, 10, "count"), ("corner", 2, 1, "certainty"),
                                    ("all", 3, 100, "certainty")):
        browser.execute_script(view_set, chart, {"cls": cls, "cert": cert, "min_n": min_n, "order": order})
        time.sleep(0.3)
        kind, certainty = list(CERTAINTY_OPTIONS.values())[cert]
        want = pattern_table(small_agent, kind, 12, min_n, cls, certainty, order)
        shown = re.findall(r"Q=([+\-\u2212]\d\.\d\d)\s*N=([\d,]+)", _texts(browser, chart))
        expected = [(f"{q:+.2f}", f"{n:,}") for q, n in zip(want["q"], want["n"])]
        # the same windows (the drawing order of the marks is Vega's business; their places are ranked)
        assert sorted((q.replace("\u2212", "-"), n) for q, n in shown) == sorted(expected), (cls, cert, min_n, order)
        assert len(shown) == min(12, want.attrs["matches"])


def test_a_slider_ends_where_the_chosen_data_ends(browser, tmp_path, small_agent):
    """The step-through's slider runs to the chosen game's final board, not the longest game's
    (sweeper.viz.offline.slider_max), and moves back within a shorter game."""
    from sweeper.viz.explorers import game_stepper_chart, recorded_games

    games, missing = recorded_games({"greedy": small_agent}, seeds=range(300))
    ends = [len(g.episode.history) + 1 for g in games]
    longest = max(range(len(ends)), key=ends.__getitem__)
    shortest = min(range(len(ends)), key=ends.__getitem__)
    assert ends[longest] > ends[shortest]
    _open(browser, _page(tmp_path, game_stepper_chart(games, missing)))
    chart = _chart_with(browser, 'select[name="game"]')
    slider = chart.find_element("css selector", 'input[type="range"][name="step"]')
    assert int(slider.get_attribute("max")) == ends[0]
    view_set = ("var v = arguments[0].vegaEmbedResult.view; var s = arguments[1];"
                "Object.keys(s).forEach(function (k) { v.signal(k, s[k]); }); return v.runAsync().then(() => 1);")
    browser.execute_script(view_set, chart, {"game": longest, "step": ends[longest]})
    time.sleep(0.3)
    assert int(slider.get_attribute("max")) == ends[longest]
    browser.execute_script(view_set, chart, {"game": shortest})
    time.sleep(0.3)
    assert int(slider.get_attribute("max")) == ends[shortest]
    assert browser.execute_script("return arguments[0].vegaEmbedResult.view.signal('step')", chart) == ends[shortest]
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


# -- tables that fit the text column (issue 62) ---------------------------------------------------------------

#: The pages whose every table must fit the text column of a 1,280 px window, and that window.
FITTING_PAGES = ("book/05b_regret.html", "book/05c_neural.html", "book/11_how_good.html", "book/14_deep_rl.html",
                 "book/15_benchmark.html")
WINDOW = (1280, 1000)

TABLE_FIT = """
document.querySelectorAll('.toggle-hidden').forEach(function (e) { e.classList.remove('toggle-hidden'); });
document.querySelectorAll('details').forEach(function (d) { d.open = true; });
function breaks(cell) {  // [text before, text after] of every line break inside the cell
  var size = parseFloat(getComputedStyle(cell).fontSize);
  if (cell.getBoundingClientRect().height < 1.6 * size) return [];
  var walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), node, chars = [];
  while ((node = walk.nextNode())) {
    for (var i = 0; i < node.length; i++) {
      var r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
      var rects = r.getClientRects(), blank = /\\s/.test(node.data[i]);
      chars.push({ch: blank ? ' ' : node.data[i], top: blank || !rects.length ? null : rects[0].top});
    }
  }
  var out = [], last = null, text = chars.map(function (c) { return c.ch; }).join('');
  chars.forEach(function (c, k) {
    if (c.top === null) return;
    if (last !== null && c.top > last + size / 2) out.push([text.slice(0, k), text.slice(k)]);
    last = c.top;
  });
  return out;
}
return {inner: window.innerWidth, tables: Array.from(document.querySelectorAll('table')).map(function (t) {
  var box = t.closest('div.cell_output') || t.closest('article') || document.body;
  return {width: t.getBoundingClientRect().width, scroll: t.scrollWidth, room: box.clientWidth,
          head: Array.from(t.querySelectorAll('thead th')).map(function (h) { return h.textContent.trim(); })
                .filter(Boolean).slice(0, 3).join(' | '),
          breaks: Array.from(t.querySelectorAll('th, td')).map(breaks)
                  .reduce(function (a, b) { return a.concat(b); }, [])};
})};"""


def mid_number(before: str, after: str) -> bool:
    """Whether a line break between ``before`` and ``after`` splits a number, a range or an interval: a digit among
    the last two characters before it and among the first two after it, spaces aside ("0.867-" | "0.876)",
    "[0.850," | "0.894]", "1 / 2 /" | "3"; not "win rate" | "[95%]" nor "replay" | "0.5")."""
    left, right = before.replace(" ", "")[-2:], after.replace(" ", "")[:2]
    return any(c.isdigit() for c in left) and any(c.isdigit() for c in right)


def test_mid_number_tells_a_split_number_from_a_break_between_words():
    assert mid_number("0.871 (0.867-", "0.876)") and mid_number("[0.850, ", "0.894]") and mid_number("1 / 2 /", "3")
    assert not mid_number("win rate ", "[95%]") and not mid_number("minibatch 128, replay ", "0.5")
    assert not mid_number("10⁶ games, 24.5M ", "dec.")


def test_every_table_of_the_leaderboard_and_the_neural_chapter_fits_the_text_column(browser, book):
    """At a 1,280 px window (the jupyter-book theme's text column, a vertical scrollbar included), no table of the
    pages of :data:`FITTING_PAGES` is wider than the column it sits in, the solutions' tables opened, and no
    cell breaks a number, a range or an interval across lines (the book's CSS, book/_static/tables.css, keeps the
    numbers on one line and lets only words wrap). Prints every table's width against its room."""
    browser.set_window_size(*WINDOW)
    try:
        for page in FITTING_PAGES:
            _open(browser, (book / page).resolve().as_uri())
            found = browser.execute_script(TABLE_FIT)
            assert found["tables"], f"{page}: no table"
            print(f"\n{page} at {WINDOW[0]} px (inner width {found['inner']} px):")
            for i, t in enumerate(found["tables"]):
                print(f"  table {i}: {t['width']:.0f} px of {t['room']} px  ({t['head']})")
            wide = [(i, round(t["width"]), t["scroll"], t["room"], t["head"]) for i, t in enumerate(found["tables"])
                    if max(t["width"], t["scroll"]) > t["room"] + 1]
            split = [(i, b[-20:], a[:20]) for i, t in enumerate(found["tables"]) for b, a in t["breaks"]
                     if mid_number(b, a)]
            assert not wide and not split, (f"{page}: tables wider than the text column (index, width, scroll width, "
                                            f"room): {wide}; numbers broken across lines: {split[:5]}")
    finally:
        browser.set_window_size(1200, 1600)


# -- code and printed text that fit their boxes -----------------------------------------------------------------

CODE_FIT = """
document.querySelectorAll('.toggle-hidden').forEach(function (e) { e.classList.remove('toggle-hidden'); });
document.querySelectorAll('details').forEach(function (d) { d.open = true; });
return Array.from(document.querySelectorAll('article pre')).filter(function (p) {
  return p.scrollWidth > p.clientWidth + 1;
}).map(function (p) {
  var longest = p.innerText.split('\\n').reduce(function (a, b) { return b.length > a.length ? b : a; }, '');
  return {output: !!p.closest('.cell_output'), scroll: p.scrollWidth, room: p.clientWidth,
          line: longest.slice(0, 60)};
});"""


def test_no_code_or_printed_text_scrolls_sideways(browser, book):
    """At a 1,280 px window, every solution opened, no block of code and no printed output on any page is wider
    than its box: code lines are kept within the column (tests/test_code_column.py counts their characters; this
    measures them as drawn), and printed text wraps at spaces (book/_static/tables.css)."""
    browser.set_window_size(*WINDOW)
    try:
        wide = {}
        for page in _pages():
            _open(browser, (book / page).resolve().as_uri())
            found = browser.execute_script(CODE_FIT)
            if found:
                wide[page] = found
        assert not wide, f"code or printed text wider than its box (scroll width > room), by page: {wide}"
    finally:
        browser.set_window_size(1200, 1600)
