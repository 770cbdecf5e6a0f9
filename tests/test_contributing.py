"""CONTRIBUTING.md's recipes, followed as written (temporary registrations, nothing left behind)."""

import ast
import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sweeper
from sweeper import Game, RuleAgent, make_agent, train
from sweeper.agents import rule_library
from sweeper.cli import build_parser
from sweeper.running.env import MinesweeperEnv
from sweeper.experiments import specs as ex
from sweeper.game import engine
from sweeper.game.grid import COVERED

from made_rule import optimistic_rule

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "CONTRIBUTING.md"


def test_the_guide_shows_this_factory_shape():
    """The recipe's code block has the parameters first and ``compiled`` last, and names the checking helpers."""
    text = GUIDE.read_text()
    block = re.search(r"```python\n[ ]*(def NAME_rule\(.*?)```", text, re.S)
    assert block, "the bandit-rule recipe's code block is missing"
    head = block.group(1).splitlines()[0].strip()
    assert re.fullmatch(r"def NAME_rule\(c: float = 1\.0, compiled: bool = True\) -> Rule:", head)
    assert "_positive" in block.group(1) and "`_not_negative`" in text


def test_a_rule_added_as_the_guide_says_plays_from_its_spec_and_refuses_a_bad_parameter(monkeypatch):
    monkeypatch.setitem(rule_library.RULES, "optimistic", optimistic_rule)
    agent = make_agent("rule:optimistic:0.3")
    assert agent.rule.name == "optimistic" and agent.rule.params == {"c": 0.3}
    run = train(agent, "8x8x10", 50, seed=1, progress=False)
    assert len(run.records) == 50
    # compiled and plain forms play the same games
    plain = train(RuleAgent(optimistic_rule(0.3, compiled=False)), "8x8x10", 50, seed=1, progress=False)
    assert plain.records.equals(run.records)
    with pytest.raises(ValueError, match="rule optimistic: c must be a number > 0"):
        make_agent("rule:optimistic:-1")


def wide_opening():
    """The opening recipe's example row, exactly as the guide writes it."""
    text = GUIDE.read_text()
    row = re.search(r'`(Opening\("wide", 2, "[^"]*"\))`', text)
    assert row, "the opening recipe's example row is missing"
    return eval(row.group(1), {"Opening": engine.Opening})  # the guide's own line


def with_wide(monkeypatch):
    """The table with the guide's row: added for the test only, unless a contributor has added it already."""
    row = wide_opening()
    known = {o.name: o for o in engine.OPENING_TABLE}
    if row.name in known:
        assert known[row.name].guard == row.guard, f"the table's {row.name!r} is not the guide's row"
    else:
        monkeypatch.setattr(engine, "OPENING_TABLE", engine.OPENING_TABLE + (row,))


def test_an_opening_added_as_the_guide_says_is_dealt_checked_and_offered(monkeypatch, capsys):
    with_wide(monkeypatch)
    # the dealer keeps the 5x5 square around the first click free of mines, on many seeds
    for seed in range(40):
        g = Game("9x9x40", seed=seed, opening="wide", first=(4, 4))
        assert not g.mines[2:7, 2:7].any() and g.status != "lost"
        corner = Game("9x9x40", seed=seed, opening="wide")
        assert not corner.mines[:3, :3].any()
    # a layout that breaks the promise is refused; one that keeps it plays
    bad = np.zeros((9, 9), bool)
    bad.flat[:9] = True
    bad[6, 6] = True  # two tiles from (4, 4): inside the square
    bad.flat[8] = False
    with pytest.raises(ValueError, match="wide opening needs no mine within 2 tiles of"):
        Game("9x9x9", mines=bad, opening="wide", first=(4, 4))
    good = bad.copy()
    good[6, 6], good[8, 8] = False, True
    assert Game("9x9x9", mines=good, opening="wide", first=(4, 4)).status == "ongoing"
    # bad input: too many mines for the guarded square, a first click off the board
    with pytest.raises(ValueError, match="cannot fit 60 mines"):
        Game("9x9x60", seed=0, opening="wide", first=(4, 4))
    with pytest.raises(ValueError, match="off the"):
        Game("9x9x10", seed=0, opening="wide", first=(9, 0))
    # the command line and the env offer it, and the messages that list the openings name it
    assert "wide: the first click" in " ".join(_train_help().split())
    assert '``"wide"``' in engine.openings_text() and "``wide``" in engine.openings_text(first_only=True)
    with pytest.raises(ValueError, match="first is for the safe, zero and wide openings"):
        Game("9x9x10", seed=0, opening="reference", first=(4, 4))
    from sweeper.cli import _parse_first
    with pytest.raises(ValueError, match="--first is for the safe, zero and wide openings"):
        _parse_first("1,1", "reference")
    env = MinesweeperEnv("9x9x10", opening="wide", first=(4, 4))
    obs, info = env.reset(seed=3)
    assert (obs[2:7, 2:7] != COVERED).all()


def _strings(path: Path):
    """(line, text) of every string of a module: docstrings, messages, help texts (an f-string's literal parts)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


def _by_hand(text: str, pages: bool = False) -> list[str]:
    """What in ``text`` counts the openings, or (not in ``pages``) lists two or more of them by hand: as literal
    text (````safe````, ````"safe"````, ```safe```) within one paragraph, or as words ("safe and zero openings")."""
    names = "|".join(re.escape(o.name) for o in engine.OPENING_TABLE)
    counted = re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:openings|suites)\b", re.I)
    literal = rf'`{{1,2}}"?({names})"?`{{1,2}}'
    listed = re.compile(literal + r"(?:(?!\n[ \t]*\n)[\s\S]){0,200}?" + literal)
    worded = re.compile(rf"\b(?:{names}),? (?:(?:{names}),? )*(?:and|or) (?:{names}) openings\b")
    hits = [m.group(0) for m in counted.finditer(text)]
    if not pages:
        hits += [m.group(0) for m in listed.finditer(text) if m.group(1) != m.group(2)]
        hits += [m.group(0) for m in worded.finditer(text)]
    return hits


def test_no_docstring_or_message_lists_the_openings_by_hand():
    """Docstrings and messages that name the openings say ``{openings}`` or ``{first_openings}`` (filled from the
    table by ``engine.with_openings``) or read an experiment's list, so a new row reaches every one of them; no
    docstring, message, page, chapter or the README counts them (nor the suites they make). The engine's module docstring, the rules of each row (the opening
    recipe's step 1), and the two pages the recipe's step 3 names, list them by hand: each names every row."""
    found = []
    for path in sorted((REPO / "sweeper").rglob("*.py")):
        skip = ast.get_docstring(ast.parse(path.read_text()), clean=False) if path.name == "engine.py" else None
        found += [f"{path.relative_to(REPO)}:{line}: {hit!r}" for line, text in _strings(path) if text != skip
                  for hit in _by_hand(text)]
    pages = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "book").glob("*.md")),
             *sorted((REPO / "sweeper").rglob("*.md"))]
    for path in pages:
        found += [f"{path.relative_to(REPO)}: {hit!r}" for hit in _by_hand(path.read_text(), pages=True)]
    for path in sorted((REPO / "book").glob("*.ipynb")):  # the chapters' prose: their markdown cells
        cells = json.loads(path.read_text())["cells"]
        found += [f"{path.relative_to(REPO)}: {hit!r}" for c in cells if c["cell_type"] == "markdown"
                  for hit in _by_hand("".join(c["source"]), pages=True)]
    assert not found, "\n".join(found)
    assert engine.openings_text() in sweeper.play.__doc__
    assert engine.openings_text() in MinesweeperEnv.__doc__
    for o in engine.OPENING_TABLE:
        assert f"``{o.name}``" in engine.__doc__, o.name
        assert f"`{o.name}`" in (REPO / "book" / "reference_rules.md").read_text(), o.name
        assert f"**{o.name}**" in (REPO / "book" / "glossary.md").read_text(), o.name


def test_train_help_lists_every_registered_rule(monkeypatch):
    monkeypatch.setitem(rule_library.RULES, "optimistic", lambda c=0.3, compiled=True: None)
    text = re.sub(r"-\s+", "-", " ".join(_train_help().split()))  # argparse may wrap a line after a hyphen
    for name in rule_library.RULES:
        assert f"rule:{name}[:PARAMS]" in text, name


def _train_help():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sub.choices["train"].format_help()


def test_experiments_name_their_openings_so_a_new_one_joins_none(monkeypatch):
    before = [t.id for t in ex.all_tasks(scale="quick")]
    with_wide(monkeypatch)
    assert [t.id for t in ex.all_tasks(scale="quick")] == before


def test_a_chapter_reads_its_own_experiment_without_the_rest_of_the_reproduction(monkeypatch, tmp_path):
    """The chapter recipe, steps 1 and 2: a spec with its own task kind, run at quick scale alone into an empty
    results folder, is read by a figure function through ensure_spec; a missing run names its command."""
    from sweeper.experiments import runner
    from sweeper.experiments.reproduce import reproduce
    from sweeper.viz.figures import results

    def guide_demo(board: str, seed: int, games: int) -> runner.Output:
        run = train("greedy", board, games, seed=seed, progress=False)
        return runner.Output(tables={"wins": pd.DataFrame({"won": run.records["won"].astype(int)})})

    monkeypatch.setitem(runner.TASKS, "guide_demo", guide_demo)
    spec = ex.Spec("ext:guide_demo", "A chapter of the guide", "greedy's wins on beginner",
                   lambda sc, seeds: [runner.Task.make("guide_demo", board="8x8x10", seed=s, games=30)
                                      for s in seeds])
    monkeypatch.setitem(ex.EXTRA_SPECS, "ext:guide_demo", spec)
    monkeypatch.setenv(results.SCALE_ENV, "quick")
    monkeypatch.setattr(results, "results_dir", lambda: tmp_path)

    def wins() -> int:  # the figure function of step 2
        store, tasks = results.ensure_spec("ext:guide_demo")
        return int(sum(store.load(t).tables["wins"]["won"].sum() for t in tasks))

    with pytest.raises(ValueError, match="runs of ext:guide_demo are missing: run `python -m sweeper reproduce "
                                         "ext:guide_demo --scale quick"):
        wins()
    counts = reproduce(["ext:guide_demo"], scale="quick", results=tmp_path, progress=False, log=lambda *a: None)
    assert counts["summary"] is None and counts["missing"] > 0  # the rest of the reproduction is not there
    assert 0 <= wins() <= 30
    with pytest.raises(ValueError, match="no quick-scale results"):
        results.comparison()  # only the summary tables need the whole reproduction


def test_the_rule_recipe_reruns_every_seed_its_chapter_reads():
    """Step 5 of the rule recipe: the command computes the seeds chapter "Write your own bandit" reads (the seed
    band), not seed 1."""
    command = re.search(r"`python -m sweeper reproduce ext:own_rule --seeds ([\d,]+)( --workers \d+)?`",
                        GUIDE.read_text())
    assert command, "the rule recipe's reproduce command is missing"
    assert "ext:own_rule" in ex.BAND_SPECS
    assert tuple(int(s) for s in command.group(1).split(",")) == ex.BAND_SEEDS["paper"]


def _added(spec: str, change, scale: str = "paper", seeds=(1,)) -> tuple[int, int, int]:
    """What ``change()`` (which patches the code) does to the runs of ``spec``: runs added, runs no longer asked for,
    and the games of the added runs (:func:`~sweeper.experiments.reproduce.task_games`)."""
    from sweeper.experiments.reproduce import task_games
    before = {t.id for t in ex.all_tasks([spec], scale, seeds)}
    change()
    after = {t.id: t for t in ex.all_tasks([spec], scale, seeds)}
    new = [t for i, t in after.items() if i not in before]
    return len(new), len(before - set(after)), sum(task_games(t) for t in new)


def test_the_rule_recipe_gives_the_work_of_its_paper_scale_runs(monkeypatch):
    """Step 5's numbers are those of the specs: a rule added to ``OWN_RULE_AGENTS`` or ``REGRET_AGENTS``."""
    guide = " ".join(GUIDE.read_text().split())
    monkeypatch.setitem(rule_library.RULES, "optimistic", optimistic_rule)
    add = lambda name: monkeypatch.setattr(ex, name, (*getattr(ex, name), "rule:optimistic:0.3"))  # noqa: E731
    runs, gone, games = _added("ext:own_rule", lambda: add("OWN_RULE_AGENTS"), seeds=ex.BAND_SEEDS["paper"])
    assert gone == 0 and (runs, games) == (len(ex.BAND_SEEDS["paper"]), runs * ex.SCALES["paper"].train)
    assert f"adds {runs} runs of {ex.SCALES['paper'].train:,} training games on beginner, {games:,} games" in guide
    runs, gone, games = _added("ext:regret", lambda: add("REGRET_AGENTS"))
    assert gone == 0 and f"adds {runs} runs to `ext:regret` (`python -m sweeper reproduce ext:regret`), " \
                         f"{games:,} games" in guide
    assert "`python -m sweeper benchmark NAME.npz --level beginner`" in guide


def test_the_opening_recipe_says_which_runs_a_row_adds_and_which_it_leaves_behind(monkeypatch):
    """Step 4's numbers are those of the specs: the row (the benchmark's suites read the table when the package is
    imported, so the test adds it to their list too), then the opening added to ``PSEQ_OPENINGS`` and ``OPENINGS``."""
    from sweeper.experiments import suites
    guide = " ".join(GUIDE.read_text().split())
    name = wide_opening().name

    def row():
        with_wide(monkeypatch)
        monkeypatch.setattr(suites, "OPENINGS", (*suites.OPENINGS, name))

    runs, gone, games = _added("ext:benchmark_search", row)
    assert gone == 0 and f"adds {runs} runs to `ext:benchmark_search`" in guide and f"suites, {games:,} games" in guide
    runs, gone, games = _added("ext:pseq", lambda: monkeypatch.setattr(ex, "PSEQ_OPENINGS", (*ex.PSEQ_OPENINGS, name)))
    assert gone == 0 and f"adds {runs} runs of `ext:pseq` ({games:,} games)" in guide
    players = [t for t in ex.all_tasks(["ext:how_good"]) if t.kind == "player"]
    runs, gone, games = _added("ext:how_good", lambda: monkeypatch.setattr(ex, "OPENINGS", (*ex.OPENINGS, name)))
    new_players = len(players) // (len(ex.OPENINGS) - 1)
    assert gone == len(ex.HOW_GOOD_BANDITS) and runs == new_players + gone
    player_games = new_players * ex.SCALES["paper"].test
    assert (f"{runs} runs go missing: {new_players} new ones (random clicks and the solver on each level under the "
            f"new opening, {player_games:,} games) and the {gone} trained bandits' runs") in guide
    assert f"({games - player_games:,} games): {games:,} games in all. The {gone} old bandit runs" in guide


def test_the_chapter_recipe_numbers_a_new_chapter_as_the_book_does():
    """Chapters of the numbered parts of ``_toc.yml`` are numbered on across parts (jupyter-book's
    ``use_multitoc_numbering``, on unless ``_config.yml`` turns it off)."""
    import yaml
    toc = yaml.safe_load((REPO / "_toc.yml").read_text())
    assert "use_multitoc_numbering" not in (REPO / "_config.yml").read_text()
    numbered = [c["file"] for part in toc["parts"] if part.get("numbered") for c in part["chapters"]]
    last = numbered[-1].split("/")[-1]
    guide = " ".join(GUIDE.read_text().split())
    assert (f"so `{last}` is chapter {len(numbered)} and a `{int(last[:2]) + 1}_*.ipynb` listed after it is "
            f"chapter {len(numbered) + 1}") in guide


def test_the_last_step_names_the_tests_and_the_commands_it_relies_on():
    guide = GUIDE.read_text()
    section = guide[guide.index("## The last step: paper-scale runs"):]
    verify_tests = (REPO / "tests" / "test_verify.py").read_text()
    for name in re.findall(r"`(test_\w+)`", section):
        assert f"def {name}(" in verify_tests, name
    order = ["Commit the code", "reproduce --list", "reproduce ID", "verify --record", "Commit the results"]
    assert [section.index(step) for step in order] == sorted(section.index(step) for step in order)
    assert "--record" in _help("verify") and "--list" in _help("reproduce")
    assert guide.count("(#the-last-step-paper-scale-runs)") == 3  # every recipe ends there


def _help(command: str) -> str:
    parser = build_parser()
    return next(a for a in parser._actions if a.dest == "command").choices[command].format_help()


def test_the_tests_refuse_a_sweeper_from_another_checkout(monkeypatch, tmp_path):
    """The root conftest.py: a ``sweeper`` imported from elsewhere (another checkout's editable install) stops
    pytest with a message naming both places; the notebooks' kernels get this checkout on their path."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("root_conftest", REPO / "conftest.py")
    root = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(root)
    monkeypatch.setenv("PYTHONPATH", "")
    root.pytest_configure(None)
    assert os.environ["PYTHONPATH"].split(os.pathsep)[0] == str(REPO)
    monkeypatch.setattr(sweeper, "__file__", str(tmp_path / "other" / "sweeper" / "__init__.py"))
    with pytest.raises(pytest.UsageError, match=r"Python imports .*other.*make venv"):
        root.pytest_configure(None)


def test_chapter_13_lists_and_counts_the_rules_of_its_experiment(monkeypatch):
    """The rule recipe's chapter names its rules from the experiment's list: a rule added there is listed, with the
    rule its docstring states, and counted."""
    from sweeper.viz.figures import beyond
    count = len(ex.OWN_RULE_AGENTS)
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    text = beyond.own_rules_text()
    assert f"trains {words[count]} rules" in text
    assert all(f"(`{spec}`)" in text for spec in ex.OWN_RULE_AGENTS)
    monkeypatch.setattr(ex, "OWN_RULE_AGENTS", (*ex.OWN_RULE_AGENTS, "rule:safest"))
    text = beyond.own_rules_text()
    assert f"trains {words[count + 1]} rules" in text and "* **safest** (`rule:safest`): " in text
    nb = (REPO / "book" / "13_own_bandit.ipynb").read_text()
    assert "figures.own_rules_text()" in nb and "three textbook rules" not in nb
