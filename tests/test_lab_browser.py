"""The live path in a real browser with no network: `make lab` serves the book, headless Chromium opens a
notebook of live widget cells in JupyterLab with every outside address unresolvable, runs it, and checks that
each chart draws (no "Error loading script"), that the stepper's buttons move it, that a filter change redraws
the pattern explorer, and that a long call's progress bar renders.

Skipped, with the reason, where Chromium or chromedriver is missing; a failure instead with
``SWEEPER_REQUIRE_BROWSER`` set (``.ci/run``). ``SWEEPER_SHOTS=DIR`` saves screenshots there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from test_browser import chromium
from test_lab import _call, _wait, make_lab

REPO = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)
FOLDER = REPO / "scratch" / "lab-browser-test"  # git-ignored, under the server's root, not hidden

CELLS = [
    # a reader's own notebook: no renderer set up before the widgets
    "from sweeper import train\n"
    "from sweeper.viz.widgets import GameStepper, PatternExplorer, train_with_progress\n"
    "agent = train('greedy', '8x8x10', 3000, seed=1, progress=False).agent",
    "stepper = GameStepper(agent, '8x8x10', seed=3)\nstepper",
    "explorer = PatternExplorer(agent, top=12)\nexplorer",
    "run = train_with_progress('greedy', '8x8x10', 300_000, seed=2)",
    "from sweeper.viz import offline\n"
    "offline.enable_offline()  # as every chapter does, before its first chart\n"
    "import altair as alt, pandas as pd\n"
    "alt.Chart(pd.DataFrame({'games': [1, 2, 3], 'wins': [0, 1, 3]})).mark_line().encode(x='games', y='wins')",
]


def _notebook(path: Path) -> None:
    cells = [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
              "source": src} for i, src in enumerate(CELLS)]
    path.write_text(json.dumps({"cells": cells, "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                                                            "display_name": "Python 3"}},
                                "nbformat": 4, "nbformat_minor": 5}))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if shutil.which("make") is None or not (VENV / "bin" / "jupyter").exists():
        pytest.skip("make or jupyter is missing")
    tmp = tmp_path_factory.mktemp("lab")
    FOLDER.mkdir(parents=True, exist_ok=True)
    _notebook(FOLDER / "live.ipynb")
    try:
        with chromium("live browser test", flags=("--window-size=1400,2400",)) as drv, \
                make_lab(tmp) as (proc, log, port, token):
            base, auth = f"http://127.0.0.1:{port}", f"token={token}"
            _wait("no answer from /api/status", lambda: _call(f"{base}/api/status?{auth}")[1], proc, log, 90)
            drv.set_page_load_timeout(90)
            yield drv, f"{base}/lab/tree/scratch/lab-browser-test/live.ipynb?{auth}"
    finally:
        shutil.rmtree(FOLDER, ignore_errors=True)


def _until(what, check, seconds=120.0, every=0.5):
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            last = check()
            if last:
                return last
        except Exception as exc:  # noqa: BLE001 - the page is still being built
            last = exc
        time.sleep(every)
    pytest.fail(f"{what} within {seconds:.0f} s (last: {last!r})")


def _shot(drv, name):
    where = os.environ.get("SWEEPER_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        drv.save_screenshot(str(Path(where) / f"{name}.png"))


def _cells(drv):
    return drv.find_elements("css selector", ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-CodeCell")


def _button(cell, text):
    for b in cell.find_elements("css selector", "button"):
        if b.text.strip() == text:
            return b
    raise AssertionError(f"no button {text!r} in the cell")


def _drawn(cell) -> bool:
    """An SVG, canvas or image with content in the cell's output."""
    return bool(cell.find_elements("css selector", ".jp-OutputArea svg, .jp-OutputArea canvas, "
                                                   ".jp-OutputArea img[src^='data:image/svg']"))


def test_live_widgets_and_charts_draw_offline_in_jupyterlab(lab):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    drv, url = lab
    drv.get(url)
    try:
        _until("the notebook to open", lambda: len(_cells(drv)) == len(CELLS))
    finally:
        _shot(drv, "lab-open")
    _until("the kernel to start", lambda: drv.find_elements(
        "css selector", ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator[data-status='idle']")
        or "Idle" in drv.find_element("css selector", "#jp-main-statusbar").text, seconds=120)
    cells = _cells(drv)
    try:
        for i in range(len(CELLS)):  # run each cell once the one before has finished, as a reader does
            prompt = lambda: _cells(drv)[i].find_element("css selector", ".jp-InputPrompt").text  # noqa: E731
            for _ in range(3):  # a Shift+Enter that reached no editor (focus still moving) leaves "[ ]": again
                cells[i].find_element("css selector", ".jp-InputArea-editor").click()
                ActionChains(drv).key_down(Keys.SHIFT).send_keys(Keys.ENTER).key_up(Keys.SHIFT).perform()
                queued = time.monotonic() + 15
                while time.monotonic() < queued and not re.search(r"\[(\*|\d+)\]", prompt()):
                    time.sleep(0.2)
                if re.search(r"\[(\*|\d+)\]", prompt()):
                    break
            if i == 3:  # the long call: its progress bar shows while it runs
                _until("the progress bar of a long call", lambda: _cells(drv)[3].find_elements(
                    "css selector", ".widget-hprogress .progress-bar, .widget-hprogress progress, .widget-hprogress"),
                    seconds=60, every=0.1)
                _shot(drv, "lab-progress")
            _until(f"cell {i + 1} to run", lambda: re.search(r"\[\d+\]", _cells(drv)[i].find_element(
                "css selector", ".jp-InputPrompt").text), seconds=180)
        cells = _cells(drv)
    finally:
        _shot(drv, "lab-ran")
        for entry in drv.get_log("browser"):
            if entry["level"] in ("SEVERE", "WARNING"):
                print("console:", entry["message"][:400])
    stepper, explorer, chart = cells[1], cells[2], cells[4]

    _until("the stepper's board to draw", lambda: _drawn(stepper))
    _until("the pattern atlas to draw", lambda: _drawn(explorer))
    _until("the chapter chart to draw", lambda: _drawn(chart), seconds=60)
    _shot(drv, "lab-widgets")
    page = drv.find_element("css selector", "body").text
    assert "Error loading script" not in page and "Traceback" not in page

    status = lambda: re.search(r"position (\d+)", stepper.text).group(1)  # noqa: E731
    assert status() == "0"
    _button(stepper, "step ▶").click()
    _until("step ▶ to move the stepper", lambda: status() == "1")
    _button(stepper, "step ▶").click()
    _until("step ▶ to move the stepper again", lambda: status() == "2")
    assert "oracle's best move" in stepper.text and "regret" in stepper.text
    _button(stepper, "◀ back").click()
    _until("◀ back to move the stepper back", lambda: status() == "1")
    assert _drawn(stepper)

    summary = lambda: re.search(r"([\d,]+) of ([\d,]+) recorded actions pass", explorer.text).group(1)  # noqa: E731
    before = _until("the explorer's count", summary)
    _button(explorer, "mine").click()
    _until("a filter change to redraw the explorer", lambda: summary() != before)
    assert _drawn(explorer)

    _shot(drv, "lab-after-clicks")
    assert "Error loading script" not in drv.find_element("css selector", "body").text
