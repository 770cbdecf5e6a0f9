"""Issue 64: one registry. A rule, an opening, a task kind and a chart are each added in one place, in a scratch copy
of the package, and every consumer sees them with no second edit: the runner's kinds and the small task that
``tests/test_verify.py`` verifies, the leaderboard's agents, chapter 13's rules, the regret chapter's labels, the
benchmark's suites and the command line's openings, and the charts ``tests/test_legibility.py`` must draw."""

import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import sweeper

import made_opening
import made_rule

PACKAGE = Path(sweeper.__file__).resolve().parent

#: The guide's rule (tests/made_rule.py), as the rule library's own code writes it: its helpers are the module's own.
RULE = "\n" + "\n\n\n".join(inspect.getsource(f) for f in (made_rule.optimistic, made_rule.optimistic_rule)).replace(
    "rule_library._positive", "_positive").replace(
    "\n\n\ndef optimistic_rule", "\n\noptimistic_nb = njit(cache=True)(optimistic)\n\n\ndef optimistic_rule") + "\n\n"

KIND = '''"""A task kind of the guide's example."""

from .runner import Output, Task, task_kind


@task_kind("guide_demo", small=lambda: Task.make("guide_demo", board="4x4x3", games=3), games=lambda p: p["games"])
def guide_demo(board: str, games: int) -> Output:
    return Output(info={"board": board, "games": games})
'''

CHART = '''"""A chart of the guide's example."""

from __future__ import annotations

import altair as alt
import pandas as pd


def demo_chart(df: pd.DataFrame) -> alt.Chart:
    return alt.Chart(df).mark_point()
'''

PROBE = '''
import json
from sweeper.experiments import leaderboard, runner, specs, suites
from sweeper.experiments.specs import EXTRA_SPECS, register_kinds
from sweeper.viz import chart_functions
from sweeper.viz.figures import regret
from sweeper.cli import build_parser
sub = next(a for a in build_parser()._actions if a.dest == "command")
train = next(a for a in sub.choices["train"]._actions if a.dest == "opening")
print(json.dumps({
    "kinds": register_kinds(), "small": runner.small_task("guide_demo").kind,
    "games": runner.task_games(runner.small_task("guide_demo")),
    "leaderboard": leaderboard.BENCHMARK_TABLES["paper"], "own_rule": specs.OWN_RULE_AGENTS,
    "labels": regret.LABELS, "suites": suites.OPENINGS, "cli": list(train.choices),
    "search": sorted({t.params["test"]["opening"] for t in EXTRA_SPECS["ext:benchmark_search"].tasks("quick")}),
    "charts": sorted(chart_functions())}))
'''


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new))


def test_a_rule_an_opening_a_kind_and_a_chart_each_added_in_one_place_reach_every_consumer(tmp_path):
    copy = tmp_path / "sweeper"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    for data in PACKAGE.rglob("data"):  # the package data, read only: linked, not copied
        if data.is_dir() and "__pycache__" not in data.parts:
            (copy / data.relative_to(PACKAGE)).symlink_to(data)
    library = copy / "agents" / "rule_library.py"
    # the rule: its function and factory, registered in RULES and shown by the book (BOOK_RULES)
    _edit(library, "#: Named rules for agent specs", RULE + "#: Named rules for agent specs")
    _edit(library, '"ucb-safest": ucb_safest_rule}', '"ucb-safest": ucb_safest_rule, "optimistic": optimistic_rule}')
    _edit(library, '"ucb1": "UCB1"}', '"ucb1": "UCB1", "optimistic": "optimism"}')
    # the opening: one row at the end of the engine's table (the guide's row, tests/made_opening.py)
    _edit(copy / "game" / "engine.py", "no mine in its 3x3 square\"),\n)\n",
          f"no mine in its 3x3 square\"),\n    {made_opening.ROW},\n)\n")
    # the kind: a module of its own; the chart: a function of a chart module
    (copy / "experiments" / "guide_demo.py").write_text(KIND)
    (copy / "viz" / "demo_charts.py").write_text(CHART)
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PYTHONPATH=str(tmp_path)), cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert "guide_demo" in seen["kinds"] and seen["small"] == "guide_demo"       # verify's kinds and small tasks
    assert seen["games"] == 3                                                     # reproduce --list counts its games
    assert seen["leaderboard"][-1] == "rule:optimistic:1" == seen["own_rule"][-1]
    assert seen["labels"]["rule:optimistic:1"] == "optimism (plug-in)"
    assert "wide" in seen["suites"] and "wide" in seen["cli"] and "wide" in seen["search"]
    assert "demo_charts.demo_chart" in seen["charts"]
    from test_legibility import drawn_charts   # the legibility test asks for the new chart
    assert "demo_charts.demo_chart" not in drawn_charts((Path(__file__).parent / "test_legibility.py").read_text())


def test_the_rule_recipe_gives_the_leaderboard_s_work_of_a_book_rule(monkeypatch):
    """A rule of ``BOOK_RULES`` joins the leaderboard: the guide's runs and games of ``ext:benchmark`` and
    ``ext:benchmark_fresh`` are those of the specs (the leaderboard's table agents, with one more rule)."""
    from sweeper.experiments import leaderboard, specs as ex
    from sweeper.experiments.reproduce import task_games
    guide = " ".join((Path(__file__).resolve().parents[1] / "CONTRIBUTING.md").read_text().split())
    before = {s: {t.id for t in ex.all_tasks([s])} for s in ("ext:benchmark", "ext:benchmark_fresh")}
    tables = leaderboard.BENCHMARK_TABLES
    monkeypatch.setattr(leaderboard, "BENCHMARK_TABLES", {**tables, "paper": (*tables["paper"], "rule:softmax:0.2")})
    for spec, old in before.items():
        new = [t for t in ex.all_tasks([spec]) if t.id not in old]
        assert f"{len(new)} runs to `{spec}` ({sum(task_games(t) for t in new):,} games" in guide or \
            f"{len(new)} to `{spec}` ({sum(task_games(t) for t in new):,} games" in guide, spec
    assert "`python -m sweeper reproduce ext:benchmark ext:benchmark_fresh --workers 2`" in guide


def test_an_opening_s_first_click_is_a_column_of_its_row(monkeypatch):
    """Issue 64, item 6: a first click in the centre is one row of the table (``first="centre"``): the game, a given
    layout's check, the suites and the help texts follow it; the rows that name none click the corner, (0, 0)."""
    from sweeper import Game
    from sweeper.cli import build_parser
    from sweeper.experiments import suites
    from sweeper.game import engine
    assert {o.first for o in engine.OPENING_TABLE} == {"corner"}
    row = engine.Opening("middle", 1, "the first click (--first, default the centre) is a 0", first="centre")
    monkeypatch.setattr(engine, "OPENING_TABLE", engine.OPENING_TABLE + (row,))
    monkeypatch.setattr(suites, "OPENING_TABLE", engine.OPENING_TABLE)  # read when the package is imported
    for seed in range(20):
        g = Game("9x9x40", seed=seed, opening="middle")
        assert not g.mines[3:6, 3:6].any() and g.status != "lost"
    assert engine.check_opening("middle", engine.Setting.parse("16x30x99"))[1] == (7, 14)
    assert engine.check_opening("zero", engine.Setting.parse("16x30x99"))[1] == (0, 0)
    assert suites.first_click("middle", engine.Setting.parse("8x8x10")) == (3, 3)
    assert engine.first_default_text() == "``(0, 0)``; the centre tile for ``middle``"
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert "the centre tile for middle" in " ".join(sub.choices["train"].format_help().split())
    import pytest
    with pytest.raises(ValueError, match="first is one of"):
        engine.Opening("odd", 1, "help", first="edge")
