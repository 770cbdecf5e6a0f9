"""The README's code runs as written and prints what it says it prints."""

import re
from pathlib import Path

import pytest

from sweeper.experiments.paper import headline

README = Path(__file__).resolve().parent.parent / "README.md"


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
    assert f"their own-level decisions take {minutes} CPU minutes, the expert networks' intermediate phase " \
           f"{phase:.1f} more" in text
