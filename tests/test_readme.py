"""The README's code runs as written and prints what it says it prints."""

import re
from pathlib import Path

import pytest

from sweeper.experiments.paper import headline

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_its_two_examples():
    blocks = python_blocks()
    assert len(blocks) == 2
    assert "train(" in blocks[0] and "Rule(" in blocks[1]


@pytest.mark.slow
def test_the_package_example_gives_the_win_rate_it_states():
    block = python_blocks()[0]
    stated = re.search(r"run\.win_rate\s+# ([0-9.]+) \(paper: ([0-9.]+)\)", block)
    assert stated, "the README no longer states the headline run's win rate"
    scope: dict = {}
    exec(compile(block, str(README), "exec"), scope)  # noqa: S102 - the README's own example
    assert f"{scope['run'].win_rate:.4f}" == stated.group(1)
    assert scope["test"].win_rate < scope["run"].win_rate  # expert is far harder than beginner
    assert float(stated.group(2)) == headline()


def test_the_plug_in_example_runs():
    scope: dict = {}
    block = python_blocks()[1].replace("episodes=10_000", "episodes=300")
    assert "\ntrain(" in block
    exec(compile(block.replace("\ntrain(", "\nrun = train("), str(README), "exec"), scope)  # noqa: S102
    run = scope["run"]
    assert len(run.records) == 300 and run.agent.name.startswith("rule:softmax")
    assert run.agent.actions_recorded > 0


def test_the_readme_states_the_committed_bench():
    """The ratios the README quotes are those of the committed bench (results/bench.json)."""
    from sweeper.bench import read_bench
    rows = {r["workload"]: r for r in read_bench()["rows"]}
    loop = next(r for w, r in rows.items() if w.startswith("greedy as a plug-in rule, Python loop, compiled by Rule"))
    thompson = next(r for w, r in rows.items() if w.startswith("thompson train"))
    m = re.search(r"compiled by `Rule` at ([0-9.]+) of the built-in greedy, Thompson sampling at ([0-9.]+)",
                  README.read_text())
    assert m, "the README no longer quotes the bench"
    assert (m.group(1), m.group(2)) == (f"{loop['x_greedy']:.2f}", f"{thompson['x_greedy']:.2f}")


def test_the_readme_states_the_book_networks_budgets_and_their_bench_price():
    """The budgets of ``ext:neural_work`` and their price at the committed bench's unit costs, as the README quotes
    them, are those of the spec and of results/bench.json."""
    from sweeper.bench import work_cost
    from sweeper.experiments.neural_runs import WORK_LEVELS, work_total
    text = " ".join(README.read_text().split())
    budgets = " / ".join(f"{work_total(b):,}" for b in WORK_LEVELS)
    assert f"each on a budget of decisions: {budgets} per beginner / intermediate / expert network" in text
    minutes = " / ".join(f"{work_cost('neural', b, lv['decisions']) / 60:.1f}" for b, lv in WORK_LEVELS.items())
    phase = sum(work_cost("neural", b, d) for b, d, *_ in WORK_LEVELS["16x30x99"]["curriculum"][1:]) / 60
    from sweeper.experiments.neural_runs import WORK_WARM_START
    warm = work_cost("neural-warm-start", WORK_WARM_START[0], WORK_WARM_START[1]) / 60
    assert f"their own-level decisions take {minutes} CPU minutes, the expert networks' intermediate phase " \
           f"{phase:.1f} more and every network's warm start {warm:.1f} more" in text


# ------------------------------------------------- the README's numbers, read from the committed runs and the code --
# The README speaks of the committed paper-scale results (results/), whatever SWEEPER_SCALE the tests run at: every
# reader below is given scale "paper" explicitly, and a missing file fails with the command that makes it.

#: Small counts as the README writes them in words.
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def readme_text() -> str:
    """The README with every run of whitespace made one space (its table rows and paragraphs wrap freely)."""
    return " ".join(README.read_text().split())


def stated(pattern: str) -> re.Match:
    """The README's match of ``pattern``, or a failure naming what it no longer says."""
    m = re.search(pattern, readme_text())
    assert m, f"the README no longer says {pattern!r}"
    return m


def paper_metas(spec_id: str, seeds=(1,)) -> list[dict]:
    """The ``meta.json`` of every task of ``spec_id`` in the committed paper-scale store; fails naming the command
    that stores the missing ones."""
    from sweeper.experiments import specs
    from sweeper.experiments.reproduce import store_for
    store = store_for(scale="paper")
    tasks = {**specs.SPECS, **specs.EXTRA_SPECS}[spec_id].tasks("paper", seeds)
    missing = [t.id for t in tasks if store.status(t) != "ok"]
    seeds_arg = f" --seeds {','.join(map(str, seeds))}" if tuple(seeds) != (1,) else ""
    assert not missing, (f"{len(missing)} of the {len(tasks)} paper-scale runs of {spec_id} are not stored: "
                         f"`python -m sweeper reproduce {spec_id} --scale paper{seeds_arg}` makes them")
    return [store.meta(t) for t in tasks]


def test_the_readme_states_when_and_how_the_committed_bench_was_measured():
    """The bench's date, its repeats of the workloads and of the unit costs: those of results/bench.json."""
    from sweeper.viz.figures.speed import bench_record
    record = bench_record()
    assert stated(r"the fastest of up to (\d+) runs").group(1) == str(record["repeat"])
    fewest = min(u["repeats"] for u in record["unit_costs"])
    assert stated(r"each the fastest of at least (\d+) repeats").group(1) == str(fewest)
    assert stated(r"on the chapter's machine, ([0-9-]+): the student's").group(1) == record["date"][:10]


def test_the_readme_states_the_timed_reproduction():
    """The wall time of ``time-reproduction`` (both parts), its machine's cores, date and workers: those of the
    committed results/reproduction-timing.json."""
    from sweeper.viz.figures.speed import reproduction_timing
    record = reproduction_timing()
    seconds = sum(p["wall_seconds"] for p in record["parts"])
    hours, minutes = divmod(round(seconds / 60), 60)
    m = stated(r"`python -m sweeper time-reproduction --workers (\d+)` \|.*?the comparison table comes out the same "
               r"\((\d+) h (\d+) min on the (\d+)-core machine of the speed chapter, ([0-9-]+), measured")
    assert m.group(1) == str(record["workers"])
    assert (int(m.group(2)), int(m.group(3))) == (hours, minutes), f"the timing says {hours} h {minutes} min"
    assert (int(m.group(4)), m.group(5)) == (record["machine"]["cores"], record["date"][:10])


def test_the_readme_states_the_task_time_of_the_stored_regret_runs():
    """"the runs stored with it record 7.9 hours of task time": the seconds of ext:regret's committed runs."""
    hours = sum(m["seconds"] for m in paper_metas("ext:regret")) / 3600
    assert stated(r"the runs stored with it record ([0-9.]+) hours of task time").group(1) == f"{hours:.1f}"


def test_the_readme_counts_the_saved_agents_of_the_committed_runs():
    """The agent files (``agent.npz``: bandit agents and networks; ``policy.npz``: PPO policies) of the committed
    paper-scale runs."""
    from sweeper.experiments.reproduce import store_for
    root = store_for(scale="paper").root
    files = [f for name in ("agent.npz", "policy.npz") for f in root.glob(f"*/*/{name}")
             if (f.parent / "meta.json").exists()]
    assert files, f"no saved agent under {root}: `make reproduce` and `make deep` store them"
    assert stated(r"the (\d+) saved agents as `\.npz`").group(1) == str(len(files))


def test_the_readme_states_the_best_window_commands_defaults():
    """``best-window``'s sample (greedy's first games on each of so many seeds) and its most parts: the defaults of
    the command and of :func:`~sweeper.experiments.comparator.make_table`, and its limit."""
    import inspect
    from sweeper.cli import build_parser
    from sweeper.experiments.comparator import MAX_PARTS, make_table
    m = stated(r"greedy's first ([0-9,]+) training games on each of (\d+) seeds.*?at most (\d+) `--parts`")
    defaults = inspect.signature(make_table).parameters
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices["best-window"]
    cli = {a.dest: a.default for a in sub._actions}
    assert int(m.group(1).replace(",", "")) == defaults["games"].default == cli["games"]
    assert int(m.group(2)) == defaults["parts"].default == cli["parts"]
    assert int(m.group(3)) == MAX_PARTS


def makefile_recipe(target: str) -> list[str]:
    """The command lines of the Makefile's ``target``."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(target + ":"))
    recipe = []
    for line in lines[start + 1:]:
        if not line.startswith("\t"):
            return recipe
        recipe.append(line.strip())
    return recipe


def deep_seeds(spec_id: str) -> tuple:
    """The seeds ``make deep`` trains ``spec_id`` on (its ``--seeds``, else the command's default, seed 1)."""
    line = next(x for x in makefile_recipe("deep") if re.search(rf"reproduce .*{spec_id}( |$)", x))
    m = re.search(r"--seeds ([0-9,]+)", line)
    return tuple(int(s) for s in m.group(1).split(",")) if m else (1,)


def test_the_readme_counts_the_networks_that_make_deep_trains():
    """``ext:neural_work``'s networks and seeds, ``ext:neural``'s networks and CPU budget, the averaged expert
    networks: the committed runs of the seeds that ``make deep`` trains, and its workers."""
    workers = {int(w) for line in makefile_recipe("deep") for w in re.findall(r"--workers (\d+)", line)}
    m = stated(r"then, (\w+) at a time on (\d+) cores")
    assert len(workers) == 1 and (m.group(1), int(m.group(2))) == (NUMBER_WORDS[min(workers)], min(workers))
    seeds = deep_seeds("ext:neural_work")
    m = stated(r"`ext:neural_work` \((\w+) networks by one recipe, (\w+) seeds per level")
    assert m.groups() == (NUMBER_WORDS[len(paper_metas("ext:neural_work", seeds))], NUMBER_WORDS[len(seeds)])
    m = stated(r"\(`ext:neural`: (\w+) networks on budgets of (\d+) CPU minutes; `ext:neural_expert_averaged`: "
               r"(\w+) expert networks with averaged weights")
    metas = paper_metas("ext:neural", deep_seeds("ext:neural"))
    averaged = paper_metas("ext:neural_expert_averaged", deep_seeds("ext:neural_expert_averaged"))
    assert (m.group(1), m.group(3)) == (NUMBER_WORDS[len(metas)], NUMBER_WORDS[len(averaged)])
    assert stated(r"`_expert`: (\d+) CPU minutes per network").group(1) == m.group(2)
    budget = int(m.group(2)) * 60  # the runs stop a little before their budget (the last games are finished)
    spent = [meta["info"]["total_train_cpu_seconds"] for meta in metas]
    assert all(budget - 60 <= s <= budget for s in spent), f"training CPU seconds of ext:neural's runs: {spent}"


def test_the_readme_states_the_ablations_and_the_ppo_runs_of_make_deep():
    """The lever studies' networks, CPU budgets and seed, ``ext:deep_rl``'s seeds, the leaderboard's PPO policies,
    seeds and steps: the committed runs (and the seeds ``make deep`` trains)."""
    from sweeper.experiments.neural_runs import LEVER_STUDIES
    m = stated(r"`ext:neural_levers_expert`: (\w+) networks of (\d+) CPU minutes on intermediate boards and (\w+) of "
               r"(\d+) on expert boards, seed (\d+)\) and `ext:deep_rl` \((\w+) seeds\)")
    for spec_id, study, count, minutes in (("ext:neural_levers", "intermediate", m.group(1), m.group(2)),
                                           ("ext:neural_levers_expert", "expert", m.group(3), m.group(4))):
        metas = paper_metas(spec_id, deep_seeds(spec_id))
        assert count == NUMBER_WORDS[len(metas)]
        assert {meta["task"]["params"]["seed"] for meta in metas} == {int(m.group(5))}
        assert float(minutes) * 60 == LEVER_STUDIES[study][1]
    seeds = deep_seeds("ext:deep_rl")
    assert m.group(6) == NUMBER_WORDS[len(seeds)]
    assert {meta["task"]["params"]["seed"] for meta in paper_metas("ext:deep_rl", seeds)} == set(seeds)
    m = stated(r"trains the deep-RL chapter's (\w+) PPO policies again on (\w+) seeds for the leaderboard.*?"
               r"\(`ext:benchmark_ppo`: ([0-9,]+) and ([0-9,]+) environment steps per seed\)")
    params = [meta["task"]["params"] for meta in paper_metas("ext:benchmark_ppo")]
    steps = dict.fromkeys((p["agent"], p["train"]["steps"]) for p in params)
    seeds = {p["agent"]: set() for p in params}
    for p in params:
        seeds[p["agent"]].add(p["seed"])
    assert m.group(1) == NUMBER_WORDS[len(seeds)]
    assert {len(s) for s in seeds.values()} == {NUMBER_WORDS.index(m.group(2))}
    assert [m.group(3), m.group(4)] == [f"{s:,}" for _, s in steps]


def test_the_readme_states_the_benchmarks_boards_and_seeds():
    """The suites' boards per level and opening (their manifest), the fresh boards' count and seed and the learners'
    seeds (the committed runs of ``ext:benchmark_fresh`` and ``ext:benchmark``)."""
    from sweeper.experiments.suites import manifest
    games = {s["games"] for s in manifest()["suites"]}
    assert len(games) == 1
    assert stated(r"the same ([0-9,]+) per level and opening for every agent").group(1) == f"{min(games):,}"
    assert stated(r"fixed test suites of ([0-9,]+) boards per level and opening").group(1) == f"{min(games):,}"
    tests = [meta["task"]["params"]["test"] for meta in paper_metas("ext:benchmark_fresh")]
    m = stated(r"every entry again on ([0-9,]+) boards per level dealt at scoring time from seed (\d+)")
    assert {g for t in tests for g in t["games"]} == {int(m.group(1).replace(",", ""))}
    assert {t["fresh"] for t in tests} == {int(m.group(2))}
    learners: dict = {}
    for meta in paper_metas("ext:benchmark"):
        p = meta["task"]["params"]
        if p.get("train"):
            learners.setdefault(p["agent"], set()).add(p["seed"])
    m = stated(r"`ext:benchmark`: every agent without the extra on the benchmark's boards, (\w+) seeds of each learner")
    assert learners and {len(s) for s in learners.values()} == {NUMBER_WORDS.index(m.group(1))}


def test_the_readme_states_the_codes_limits():
    """The agent file's most actions, the search's endgame threshold, the view's cell codes, the seed bands' seeds,
    the test workers and the package's version: those of the code."""
    from sweeper import __version__
    from sweeper.agents.files import MAX_ACTIONS
    from sweeper.experiments.specs import BAND_SEEDS
    from sweeper.game.grid import COVERED
    from sweeper.running.search import LIMIT
    assert 2 ** int(stated(r"at most 2\^(\d+) actions").group(1)) == MAX_ACTIONS
    assert int(stated(r"once at most ([0-9,]+) layouts remain").group(1).replace(",", "")) == LIMIT
    m = stated(r"cell codes, (\d)-(\d) a revealed tile's count of neighbouring mines and (\d+) covered")
    assert (int(m.group(1)), int(m.group(2)), int(m.group(3))) == (0, 3 * 3 - 1, COVERED)
    assert stated(r"adds the seed bands \(`--seeds ([0-9,]+)`\)").group(1) == ",".join(map(str, BAND_SEEDS["paper"]))
    workers = re.search(r"TEST_WORKERS \?= (\d+)", (ROOT / "Makefile").read_text()).group(1)
    assert stated(r"on (\d+) processes \(TEST_WORKERS\)").group(1) == workers
    assert stated(r", version > ([0-9.]+), \d{4}\.").group(1) == __version__


def test_the_readme_states_the_exit_statuses(monkeypatch):
    """The exit status of an interrupted command, of a policy's error and of a verify that finds a run differing:
    those the command line returns."""
    from types import SimpleNamespace
    from sweeper import cli
    from sweeper.experiments import verify
    from sweeper.experiments.benchmark import BenchmarkError
    run = cli._run
    for error, pattern in ((KeyboardInterrupt, r"and exit status (\d+), and leaves no partial file"),
                           (BenchmarkError, r"naming the board and the decision \(exit status (\d+)\)")):
        def fail(args, error=error):
            raise error("stopped")
        monkeypatch.setattr(cli, "_run", fail)
        assert cli.main(["bench"]) == int(stated(pattern).group(1))
    monkeypatch.setattr(cli, "_run", run)
    monkeypatch.setattr(verify, "select", lambda *args, **kw: ["a run"])
    monkeypatch.setattr(verify, "verify", lambda *args, **kw: [SimpleNamespace(status="differs")])
    monkeypatch.setattr(verify, "summary", lambda verdicts: [])
    assert cli.main(["verify", "--all"]) == int(stated(r"cannot be read or whose task fails \(exit (\d+);").group(1))


def test_the_readme_names_the_chapters_it_numbers():
    """"chapter 13" is the page of your own bandit rule, "chapter 11" the one of the searching solver."""
    book = ROOT / "book"
    for pattern, needle in ((r"Your own bandit rule \(chapter (\d+),", "RuleAgent"),
                            (r"`ceiling\.py` \(chapter (\d+)'s searching solver", "ceiling")):
        number = stated(pattern).group(1)
        pages = sorted(book.glob(f"{number}_*.ipynb"))
        assert len(pages) == 1 and needle in pages[0].read_text(), f"chapter {number}: {pages}"
