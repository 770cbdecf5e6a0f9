"""CONTRIBUTING.md's recipes, followed as written (temporary registrations, nothing left behind); each recipe (a rule,
an opening, a chapter) to its paper-scale end in a scratch clone of the repository, at a reduced budget."""

import ast
import inspect
import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
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

import made_chapter
import made_opening
import made_rule
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
    """The opening recipe's example row (tests/made_opening.py), exactly as the guide writes it."""
    assert f"`{made_opening.ROW}`" in GUIDE.read_text(), "the opening recipe's example row is not made_opening's"
    return made_opening.row(engine.Opening)


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
    text (````safe````, ````"safe"````, ```safe```) within one paragraph, or as words ("safe and zero openings");
    in ``pages``, a page's markdown, a sentence, list or table that names three or more of them (:func:`_named`)."""
    names = "|".join(re.escape(o.name) for o in engine.OPENING_TABLE)
    counted = re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:openings|suites)\b", re.I)
    literal = rf'`{{1,2}}"?({names})"?`{{1,2}}'
    listed = re.compile(literal + r"(?:(?!\n[ \t]*\n)[\s\S]){0,200}?" + literal)
    worded = re.compile(rf"\b(?:{names}),? (?:(?:{names}),? )*(?:and|or) (?:{names}) openings\b")
    hits = [m.group(0) for m in counted.finditer(text)]
    if not pages:
        hits += [m.group(0) for m in listed.finditer(text) if m.group(1) != m.group(2)]
        hits += [m.group(0) for m in worded.finditer(text)]
    return hits + (_named(text) if pages else [])


def _named(text: str) -> list[str]:
    """The sentences, and the lists and tables whole, of a page's markdown (its code blocks left out) that name
    three openings of the table or more (every one, in a table of fewer) by hand: each name as literal or emphasised
    text (```safe```, ``**safe**``) or as words ("the safe opening", "the safe and zero openings")."""
    alt = "|".join(re.escape(o.name) for o in engine.OPENING_TABLE)
    name = re.compile(rf'(?:`{{1,2}}"?|\*{{1,2}})({alt})(?:"?`{{1,2}}|\*{{1,2}})|\b({alt})\b(?=(?:,? (?:(?:{alt}),? )*'
                      rf'(?:and|or) (?:{alt}))? openings?\b)')
    text = re.sub(r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$", "", text, flags=re.S | re.M)
    hits = []
    for block in re.split(r"\n[ \t]*\n", text):
        whole = re.search(r"^[ \t]*(?:[*+|-]|\d+\.)[ \t]", block, re.M)  # a list or a table: one unit
        for unit in [block] if whole else re.split(r"(?<=[.!?])[\"')*]*\s+", block):
            if len({m.group(1) or m.group(2) for m in name.finditer(unit)}) >= min(3, len(engine.OPENING_TABLE)):
                hits.append(" ".join(unit.split()))
    return hits


def test_no_docstring_or_message_lists_the_openings_by_hand():
    """Docstrings and messages that name the openings say ``{openings}`` or ``{first_openings}`` (filled from the
    table by ``engine.with_openings``) or read an experiment's list, so a new row reaches every one of them; no
    docstring, message, page, chapter or the README counts them (nor the suites they make). The engine's module
    docstring, the rules of each row (the opening recipe's step 1), and the two pages the recipe's step 3 names, list
    them by hand: each names every row; no other page lists them in a sentence, a list or a table (:func:`_named`; a
    page shows the table, or says "every opening")."""
    found = []
    for path in sorted((REPO / "sweeper").rglob("*.py")):
        skip = ast.get_docstring(ast.parse(path.read_text()), clean=False) if path.name == "engine.py" else None
        found += [f"{path.relative_to(REPO)}:{line}: {hit!r}" for line, text in _strings(path) if text != skip
                  for hit in _by_hand(text)]
    pages = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "book").glob("*.md")),
             *sorted((REPO / "sweeper").rglob("*.md"))]
    listing = {REPO / "book" / "reference_rules.md", REPO / "book" / "glossary.md"}  # step 3's, checked below
    for path in pages:
        found += [f"{path.relative_to(REPO)}: {hit!r}" for hit in _by_hand(path.read_text(), pages=True)
                  if path not in listing or hit not in _named(path.read_text())]
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


# ---------------------------------------------- each recipe followed to its paper-scale end, in a scratch clone --

#: The reduced budget of the paper-scale end: the package's quick scale (2*10^4 training games a run, not 10^6), one
#: seed and one worker (one core). At quick scale the runs go to the git-ignored ``.cache/quick-results`` by default,
#: so ``--results results`` keeps them where the guide's last step commits them (as ``results/runs/quick/KIND/ID``).
REDUCED = {"--seeds": "1", "--workers": "1"}
QUICK = ["--scale", "quick", "--results", "results"]


def _section(title: str, flat: bool = True) -> str:
    """The guide's section ``## title``; ``flat``: its whitespace made single spaces (a command may wrap)."""
    text = GUIDE.read_text()
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    section = text[start:end if end > 0 else None]
    return " ".join(section.split()) if flat else section


def _command(section: str, pattern: str, **put: str) -> list[str]:
    """The command of ``section`` that ``pattern`` matches whole between backticks, as arguments, with the guide's
    placeholders (``ID``, ``S``, ``KIND/ID``) filled from ``put`` (a value with spaces: several arguments); options of
    :data:`REDUCED` take its values."""
    found = re.search(rf"`({pattern})`", section)
    assert found, f"the guide no longer writes a command {pattern!r}"
    key = lambda a: a.replace("/", "_")  # noqa: E731
    argv = [v for a in shlex.split(found.group(1)) if a != "..."
            for v in (put[key(a)].split() if key(a) in put else [a])]
    return [REDUCED[argv[i - 1]] if i and argv[i - 1] in REDUCED else a for i, a in enumerate(argv)]


def _in(clone: Path, argv: list[str], **env: str) -> str:
    """Run ``argv`` in the clone with its own package (and ``env`` added to the environment): ``python`` (or the
    guide's ``.venv/bin/python``) is this interpreter, ``git`` commits as a scratch author. Returns what it printed;
    fails the test, with its output, if it fails."""
    if argv[0] in ("python", ".venv/bin/python"):
        argv = [sys.executable, *argv[1:]]
    elif argv[0] == "git":
        argv = ["git", "-c", "user.name=Guide Reader", "-c", "user.email=reader@example.org", "-c",
                "commit.gpgsign=false", *argv[1:]]
    out = subprocess.run(argv, cwd=clone, capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, PYTHONPATH=str(clone), **env))
    assert out.returncode == 0, f"{shlex.join(argv)}:\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}"
    return out.stdout


def _clone(tmp_path: Path) -> Path:
    """A scratch clone of this repository (its committed code and runs; the clone's kernels compile afresh)."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True, capture_output=True, timeout=300)
    return clone


def _listed(out: str, spec: str) -> tuple[int, int]:
    """(tasks, stored) of ``spec`` in what ``reproduce --list`` printed."""
    row = re.search(rf"^{re.escape(spec)}\s+(\d+) tasks?,\s+(\d+) done", out, re.M)
    assert row, out
    return int(row.group(1)), int(row.group(2))


def _orphans(out: str) -> list[str]:
    """The runs (``KIND/ID``) that ``reproduce --list`` printed as asked for by no experiment."""
    return re.findall(r"^  (\w+/[0-9a-f]+)  ", out, re.M)


def _accepted_by_test_verify(clone: Path, store, monkeypatch) -> None:
    """The checks of tests/test_verify.py that refuse runs of uncommitted code, run on the clone's ``store``."""
    import test_verify
    from sweeper.experiments import provenance as prov
    monkeypatch.setattr(prov, "REPO", clone)
    assert prov.history_problem() is None
    monkeypatch.setattr(test_verify, "store_for", lambda results=None, scale="paper": store)
    test_verify.test_committed_paper_runs_say_which_committed_code_made_or_reproduced_them()
    test_verify.test_stored_paper_runs_name_commits_of_the_history_with_their_fingerprints()


def _stored(store) -> dict:
    """The ``meta.json`` of every run of ``store``, by ``KIND/ID``."""
    import test_verify
    return {run: json.loads((store.root / run / "meta.json").read_text())
            for run in test_verify.select(store, every=True)}


def _commit_results(clone: Path, last: str, runs, removed=()) -> None:
    """Step 5 of the last step: the new runs added and the runs asked for by no experiment removed, each by its path
    (the guide's commands; the runs kept at quick scale are in ``results/runs/quick/``), committed."""
    add = _command(last, r"git add results/runs/paper/KIND/ID \.\.\.")
    _in(clone, add[:2] + [add[2].replace("/paper/", "/quick/").replace("KIND/ID", run) for run in runs])
    for run in removed:  # runs of the committed store, where --list named them
        _in(clone, [a.replace("KIND/ID", run) for a in _command(last, r"git rm -r -q results/runs/paper/KIND/ID")])
    _in(clone, ["git", "commit", "-q", "-m", "The guide's runs"])
    assert _in(clone, _command(last, "git status --short results")) == ""


def _add_the_guide_s_rule(clone: Path) -> None:
    """Steps 1, 2 and 4 of the rule recipe, in the clone's file that step 1 names: the guide's rule
    (tests/made_rule.py) beside the others and in the module docstring's list, compiled with the guide's line, its
    factory the guide's code block (``NAME`` filled in), registered in ``RULES`` and shown by the book
    (``BOOK_RULES``)."""
    recipe = _section("Add a bandit rule")
    where = re.search(r"1\. Write the function in `([\w/]+\.py)`", recipe)
    compile_line = re.search(r"`(NAME_nb = njit\(cache=True\)\(NAME\))`", recipe)
    factory = re.search(r"```python\n(.*?)```", _section("Add a bandit rule", flat=False), re.S)
    assert where and compile_line and factory, "the rule recipe no longer names its file, compile line or factory"
    name = made_rule.optimistic.__name__
    library = clone / where.group(1)
    text = library.read_text()
    text = text.replace('\n"""\n', f'\n``{name}``\n    {made_rule.optimistic.__doc__.splitlines()[0]}\n"""\n', 1)
    compiled = list(re.finditer(r"^\w+_nb = njit\(cache=True\)\(\w+\)\n", text, re.M))
    assert compiled, f"{where.group(1)} compiles no rule as the guide says"
    first, last = compiled[0].start(), compiled[-1].end()
    text = (text[:first] + inspect.getsource(made_rule.optimistic) + "\n\n" + text[first:last]
            + compile_line.group(1).replace("NAME", name) + "\n" + text[last:])
    registry = re.search(r"^(#:[^\n]*\n)*RULES = \{", text, re.M)
    text = (text[:registry.start()] + textwrap.dedent(factory.group(1)).replace("NAME", name).strip() + "\n\n\n"
            + text[registry.start():])
    for table, entry in (("RULES", f"{name}_rule"), ("BOOK_RULES", '"optimism"')):
        text, n = re.subn(rf"^({table} = \{{[^}}]*)\}}", rf'\1, "{name}": {entry}}}', text, count=1, flags=re.M)
        assert n == 1, f"{where.group(1)} has no {table} to register the rule in"
    library.write_text(text)


@pytest.mark.slow  # an end-to-end run of about a minute, as tests/test_standalone.py's scratch copy
def test_the_rule_recipe_followed_to_its_paper_scale_end_in_a_scratch_clone(tmp_path, monkeypatch):
    """Issue 64: the rule recipe, as the guide writes it, in a clone of this repository with its own package: the
    guide's rule added where step 1 says, then the last step in its order, with the guide's commands (read from the
    guide) at a reduced budget (:data:`REDUCED`, :data:`QUICK`: the quick-scale runs of ``ext:own_rule``, one seed;
    their kernels compile afresh in the clone, most of the test's minute). It ends where the guide promises:
    ``reproduce --list`` counts every run stored, each names the commit of the code, and the checks of
    tests/test_verify.py that refuse runs of uncommitted code accept them. The recipe's other paper-scale runs
    (``ext:benchmark``, ``ext:regret``) would take this test past its budget: they are not run."""
    from sweeper.experiments.reproduce import store_for
    clone = _clone(tmp_path)
    last = _section("The last step: paper-scale runs")
    listing = _command(last, r"python -m sweeper reproduce --list ID --seeds S", ID="ext:own_rule", S="1") + QUICK
    tasks, _ = _listed(_in(clone, listing), "ext:own_rule")
    _add_the_guide_s_rule(clone)
    # 1. commit the code
    _in(clone, ["git", "add", "sweeper"])
    _in(clone, ["git", "commit", "-q", "-m", "The guide's rule"])
    code = _in(clone, ["git", "rev-parse", "HEAD"]).strip()
    assert _in(clone, _command(last, "git status --short sweeper")) == ""
    # 2. see the work: one more run than before, none stored
    out = _in(clone, listing)
    assert _listed(out, "ext:own_rule") == (tasks + 1, 0) and f"to run: {tasks + 1} tasks" in out
    # 3. run: the recipe's command (step 5), reduced
    recipe = _section("Add a bandit rule")
    _in(clone, _command(recipe, r"python -m sweeper reproduce ext:own_rule --seeds [\d,]+ --workers \d+") + QUICK
        + ["--no-progress"])
    store = store_for(clone / "results", "quick")
    runs = _stored(store)
    assert len(runs) == tasks + 1
    new = [run for run, meta in runs.items() if meta["task"]["params"].get("agent") == "rule:optimistic:1"]
    assert len(new) == 1
    # 4. no run was made from uncommitted code: `verify --record` recomputes the rule's run identical, records nothing
    assert not [run for run, meta in runs.items() if meta["provenance"]["sweeper_modified"]]
    out = _in(clone, _command(last, r"python -m sweeper verify --record KIND/ID \.\.\.", KIND_ID=new[0]) + QUICK)
    assert f"{new[0]}: identical" in out
    assert "verified" not in json.loads((store.root / new[0] / "meta.json").read_text())
    # 5. commit the results with their exact paths (the guide's, at this scale)
    _commit_results(clone, last, runs)
    # the end the guide promises: every run stored, none that no experiment asks for, each made by the code's commit
    out = _in(clone, listing)
    assert _listed(out, "ext:own_rule") == (tasks + 1, tasks + 1) and "to run:" not in out
    assert re.search(r"^stored runs in .* that no spec asks for \(seeds [\d,; ]+\): none$", out, re.M), out
    assert {meta["provenance"]["commit"] for meta in runs.values()} == {code}
    _accepted_by_test_verify(clone, store, monkeypatch)


def _add_the_guide_s_opening(clone: Path) -> tuple[str, str]:
    """Step 1 of the opening recipe, and the list of step 4 that measures it, in the clone's files the guide names:
    the row (tests/made_opening.py) at the end of ``OPENING_TABLE``, its line in the engine's module docstring, and
    its name added to ``OPENINGS`` of the specs. Returns the two files, as the guide names them."""
    recipe = _section("Add an opening")
    table = re.search(r"1\. `([\w/]+\.py)`: add the row at the end of `OPENING_TABLE`", recipe)
    lists = re.search(r"\(`OPENINGS` and `PSEQ_OPENINGS` in `([\w/]+\.py)`\)", recipe)
    assert table and lists, "the opening recipe no longer names the files of the table and of the lists"
    engine_py, specs_py = clone / table.group(1), clone / lists.group(1)
    text, n = re.subn(r"^(OPENING_TABLE = \(\n.*?\n)\)\n", rf"\1    {made_opening.ROW},\n)\n",
                      engine_py.read_text(), count=1, flags=re.S | re.M)
    assert n == 1, f"{table.group(1)} has no OPENING_TABLE to add the row to"
    text, n = re.subn(r"^(``zero``\n(?:    .*\n)+)", lambda m: m.group(1) + made_opening.DOC, text, count=1, flags=re.M)
    assert n == 1, f"{table.group(1)}'s module docstring has no ``zero`` entry"
    engine_py.write_text(text)
    text, n = re.subn(r'^(OPENINGS = \([^)]*)\)', rf'\1, "{made_opening.NAME}")', specs_py.read_text(),
                      count=1, flags=re.M)
    assert n == 1, f"{lists.group(1)} has no OPENINGS"
    specs_py.write_text(text)
    return table.group(1), lists.group(1)


def _number(recipe: str, pattern: str) -> int:
    """The number that ``pattern``'s group says in the guide's ``recipe``."""
    found = re.search(pattern, recipe)
    assert found, f"the guide no longer says {pattern!r}"
    return int(found.group(1))


@pytest.mark.slow  # an end-to-end run of about 90 seconds (two thirds of it the quick runs), as the rule's above
def test_the_opening_recipe_followed_to_its_paper_scale_end_in_a_scratch_clone(tmp_path, monkeypatch):
    """Issue 64: the opening recipe, as the guide writes it, in a clone of this repository with its own package: the
    guide's row (tests/made_opening.py) where step 1 says, measured by ``OPENINGS`` as step 4 says, the suites
    written with the guide's command, then the last step in its order with the guide's commands. ``reproduce
    --list`` at paper scale (on the clone's committed runs; it plays nothing) names the runs step 4 predicts: the
    missing runs of ``ext:how_good`` and ``ext:benchmark_search`` and the old bandit runs asked for by no experiment,
    which the guide's ``git rm -r`` removes. The reruns are at a reduced budget (:data:`REDUCED`, :data:`QUICK`:
    the quick-scale runs of both experiments, kept in the clone's ``results/runs/quick``, not the paper-scale ones
    nor ``make quick-results``, minutes each). It ends where the guide promises: the new suites pass the package's
    own check (``load_suite``) and the old ones are byte for byte the same, ``reproduce --list`` counts every run
    stored and no new one asked for by no experiment, and tests/test_verify.py's checks accept the runs."""
    from sweeper.experiments.reproduce import store_for
    clone = _clone(tmp_path)
    last, recipe = _section("The last step: paper-scale runs"), _section("Add an opening")
    ids = "ext:how_good ext:benchmark_search"
    listing = _command(last, r"python -m sweeper reproduce --list ID --seeds S", ID=ids, S="1")
    before = _in(clone, listing)
    (how_good, _), (search, _) = _listed(before, "ext:how_good"), _listed(before, "ext:benchmark_search")
    engine_py, specs_py = _add_the_guide_s_opening(clone)
    _in(clone, _command(recipe, r'\.venv/bin/python -c "from sweeper\.experiments\.suites import write_suites; '
                                r'write_suites\(\)"'))
    suites = re.search(r"and commit `([\w/]+/)`", recipe)
    assert suites, "the opening recipe no longer names the suites' folder"
    suites = suites.group(1)
    written = _in(clone, ["git", "status", "--short", "--untracked-files=all", suites]).splitlines()
    assert sorted(written) == sorted([f" M {suites}manifest.json"] + [
        f"?? {suites}{level}-{made_opening.NAME}.npz" for level in ex.LEVEL.values()]), "the old suites must not change"
    # 1. commit the code (the row, its docstring line, the list and the suites)
    _in(clone, ["git", "add", engine_py, specs_py, suites])
    _in(clone, ["git", "commit", "-q", "-m", "The guide's opening"])
    assert _in(clone, _command(last, "git status --short sweeper")) == ""
    # 2. see the work: the runs step 4 says go missing, and the old bandit runs that no experiment asks for
    out = _in(clone, listing)
    missing = _number(recipe, r"(\d+) runs go missing")
    added = _number(recipe, r"adds (\d+) runs to `ext:benchmark_search`")
    gone = len(ex.HOW_GOOD_BANDITS)  # the trained bandits' runs, whose task ids name the openings
    assert _listed(out, "ext:how_good") == (how_good + missing - gone, how_good - gone)
    assert _listed(out, "ext:benchmark_search") == (search + added, search)
    left = sorted(set(_orphans(out)) - set(_orphans(before)))
    assert len(left) == _number(recipe, r"The (\d+) old bandit runs stay in `results/`") == gone
    assert all(run.startswith("bandit/") for run in left) and "git rm -r results/runs/paper/KIND/ID" in out
    # 3. run: the recipe's command, reduced
    _in(clone, _command(recipe, r"python -m sweeper reproduce ext:how_good ext:benchmark_search --workers \d+")
        + QUICK + ["--no-progress"])
    store = store_for(clone / "results", "quick")
    runs = _stored(store)
    assert len(runs) == how_good + missing - gone + search + added
    # 4. no run was made from uncommitted code: nothing for `verify --record` to vouch for
    assert not [run for run, meta in runs.items() if meta["provenance"]["sweeper_modified"]]
    # 5. commit the results: the new runs added, the old bandit runs that --list named removed
    _commit_results(clone, last, runs, removed=left)
    # the end the guide promises
    out = _in(clone, listing + QUICK)
    assert _listed(out, "ext:how_good") == (how_good + missing - gone,) * 2
    assert _listed(out, "ext:benchmark_search") == (search + added,) * 2
    assert "to run:" not in out and not _orphans(out)
    assert sorted(_orphans(_in(clone, listing))) == sorted(_orphans(before))
    _in(clone, ["python", "-c", "from sweeper.experiments.suites import LEVELS, OPENINGS, load_suite; "
                                "[load_suite(lv, op) for lv in LEVELS for op in OPENINGS]; "
                                f"assert {made_opening.NAME!r} in OPENINGS"])
    doc = ast.parse((clone / engine_py).read_text()).body[0]  # step 1's room: at most 30 lines (tests/test_layers.py)
    assert f"``{made_opening.NAME}``" in doc.value.value and doc.end_lineno - doc.lineno + 1 <= 30
    _accepted_by_test_verify(clone, store, monkeypatch)


def _add_the_guide_s_chapter(clone: Path) -> tuple[str, int]:
    """Steps 1 to 3 of the chapter recipe, in the clone's files the guide names (tests/made_chapter.py): the task
    kind in a module of its own with its builder, the spec in ``EXTRA_SPECS`` and ``BOOK_EXTRAS``, the figure module
    imported by ``figures/__init__.py``, the notebook listed in ``_toc.yml`` after the last numbered chapter and in
    the introduction's chapter map. Returns the page (``book/NAME.ipynb``) and the chapter number the guide gives."""
    recipe = _section("Add a chapter with a figure")
    kind = re.search(r"`(sweeper/experiments/)NAME\.py`", recipe)
    specs = re.search(r"a `Spec` in `([\w/]+\.py)`", recipe)
    figures = re.search(r"a module of `(sweeper/viz/figures/)`", recipe)
    numbers = re.search(r"so `(\w+)` is chapter (\d+) and a `(\d+)_\*\.ipynb` listed after it is chapter (\d+)", recipe)
    assert kind and specs and figures and numbers, "the chapter recipe no longer names its files or its numbering"
    name = made_chapter.NAME
    (clone / kind.group(1) / f"{name}.py").write_text(made_chapter.KIND)
    text = (clone / specs.group(1)).read_text() + made_chapter.SPEC
    text, n = re.subn(r"^(BOOK_EXTRAS = \([^)]*)\)", rf'\1, "{made_chapter.ID}")', text, count=1, flags=re.M)
    assert n == 1, f"{specs.group(1)} has no BOOK_EXTRAS"
    (clone / specs.group(1)).write_text(text)
    (clone / figures.group(1) / f"{name}.py").write_text(made_chapter.FIGURES)
    init = clone / figures.group(1) / "__init__.py"
    init.write_text(init.read_text() + f"from . import {name}  # noqa: F401,E402  (the guide's chapter)\n")
    page = f"book/{numbers.group(3)}_{name}"
    (clone / f"{page}.ipynb").write_text(made_chapter.notebook())
    toc = clone / "_toc.yml"
    text, n = re.subn(rf"^(\s+- file: book/{numbers.group(1)}\n)", rf"\1      - file: {page}\n", toc.read_text(),
                      count=1, flags=re.M)
    assert n == 1, f"_toc.yml does not list book/{numbers.group(1)}"
    toc.write_text(text)
    intro = clone / "book" / "01_introduction.md"
    text, n = re.subn(rf"^(\| [^\n]*\{{doc\}}`{numbers.group(1)}` [^\n]*\n)",
                      rf"\1| beyond: the guide's chapter | {{doc}}`{page[5:]}` | `{made_chapter.ID}` | — |\n",
                      intro.read_text(), count=1, flags=re.M)
    assert n == 1, f"the chapter map does not list {numbers.group(1)}"
    intro.write_text(text)
    return f"{page}.ipynb", int(numbers.group(4))


@pytest.mark.slow  # an end-to-end run of about 20 seconds, as the rule recipe's above
def test_the_chapter_recipe_followed_to_its_paper_scale_end_in_a_scratch_clone(tmp_path, monkeypatch):
    """Issue 64: the chapter recipe, as the guide writes it, in a clone of this repository with its own package: a
    made minimal chapter (tests/made_chapter.py: a task kind, its spec, a figure module, a page) where steps 1 to 3
    say; its spec run at quick scale with the guide's command of step 2, and the page checked as step 4 and the
    guide's opening say (nbval, on those quick results); then the last step in its order with the guide's commands at
    a reduced budget (:data:`REDUCED`, :data:`QUICK`). It ends where the guide promises: the page is the chapter
    ``_toc.yml`` numbers as the guide says, ``reproduce --list`` counts every run of the spec stored and committed,
    and tests/test_verify.py's checks accept them."""
    import yaml
    from sweeper.experiments.reproduce import store_for
    clone = _clone(tmp_path)
    last, recipe = _section("The last step: paper-scale runs"), _section("Add a chapter with a figure")
    page, number = _add_the_guide_s_chapter(clone)
    toc = yaml.safe_load((clone / "_toc.yml").read_text())
    numbered = [c["file"] for part in toc["parts"] if part.get("numbered") for c in part["chapters"]]
    assert numbered.index(page.removesuffix(".ipynb")) + 1 == number
    # the quick-scale results the page reads (step 2's command), then the page checked on them as the guide says
    _in(clone, _command(recipe, r"python -m sweeper reproduce ID --scale quick --results \.cache/quick-results",
                        ID=made_chapter.ID) + ["--no-progress"])
    check = re.search(r"\n(SWEEPER_SCALE=quick \.venv/bin/python -m pytest .*book/NAME\.ipynb)\n", GUIDE.read_text())
    assert check, "the guide no longer says how one notebook is checked"
    variable, *argv = [a.replace("book/NAME.ipynb", page) for a in shlex.split(check.group(1))]
    cells = sum(kind == "code" for kind, _ in made_chapter.CELLS)
    assert f"{cells} passed" in _in(clone, argv, **dict([variable.split("=")]))
    # the last step: 1. commit the code and the page
    _in(clone, ["git", "add", "sweeper", "book", "_toc.yml"])
    _in(clone, ["git", "commit", "-q", "-m", "The guide's chapter"])
    assert _in(clone, _command(last, "git status --short sweeper")) == ""
    # 2. see the work
    listing = _command(last, r"python -m sweeper reproduce --list ID --seeds S", ID=made_chapter.ID, S="1") + QUICK
    assert _listed(_in(clone, listing), made_chapter.ID) == (1, 0)
    # 3. run, reduced
    _in(clone, _command(last, r"python -m sweeper reproduce ID --seeds S --workers \d+", ID=made_chapter.ID, S="1")
        + QUICK + ["--no-progress"])
    store = store_for(clone / "results", "quick")
    runs = _stored(store)
    assert [meta["task"]["kind"] for meta in runs.values()] == [made_chapter.NAME]
    # 4. nothing made from uncommitted code; 5. commit the results
    assert not [run for run, meta in runs.items() if meta["provenance"]["sweeper_modified"]]
    _commit_results(clone, last, runs)
    out = _in(clone, listing)
    assert _listed(out, made_chapter.ID) == (1, 1) and "to run:" not in out and not _orphans(out)
    _accepted_by_test_verify(clone, store, monkeypatch)
