"""The chapter of CONTRIBUTING.md's recipe, made as the guide says, smallest: a task kind in a module of its own with
the builder of its tasks (:data:`KIND`), its spec (:data:`SPEC`), a figure module that reads the stored runs through
``ensure_spec`` (:data:`FIGURES`), and the page (:func:`notebook`). tests/test_contributing.py writes them into a
scratch clone of the repository and follows the recipe to its paper-scale end."""

import json

#: The spec's id, the task kind's name, and the one name of its modules (experiments, figures) and page.
ID, NAME = "ext:corner_mines", "corner_mines"

KIND = '''"""The guide's example chapter: how many mines the corner's 3x3 square of a fresh beginner board holds."""

import numpy as np
import pandas as pd

from .. import rng
from ..game import engine
from .runner import Output, Task, task_kind


def corner_mines_tasks(sc, seeds):
    """One run per seed: as many boards as the scale's test games."""
    return [Task.make("corner_mines", board="8x8x10", seed=s, games=sc.test) for s in seeds]


@task_kind("corner_mines", small=lambda: Task.make("corner_mines", board="8x8x10", seed=1, games=20),
           games=lambda p: p["games"])
def corner_mines(board: str, seed: int, games: int) -> Output:
    """Deal ``games`` boards of ``board`` (reference opening) from the run's board stream; the mines of each
    board's top-left 3x3 square."""
    b = engine.new_board(engine.Setting.parse(board), "reference")
    boards = rng.streams(seed).boards
    mines = []
    for _ in range(games):
        engine.new_game(b, boards, np.zeros(0, np.uint8))
        mines.append(int(engine.mines_of(b)[:3, :3].sum()))
    return Output(tables={"corner": pd.DataFrame({"mines": mines})})
'''

SPEC = f'''

from .corner_mines import corner_mines_tasks  # noqa: E402  (the guide's chapter)

EXTRA_SPECS["{ID}"] = Spec(
    "{ID}", "The guide's chapter: mines in the corner",
    "How many mines the top-left 3x3 square of a fresh beginner board holds (reference opening).",
    corner_mines_tasks)
'''

FIGURES = f'''"""The guide's example chapter: the corner's mines, read from the stored runs of {ID}."""

import pandas as pd

from .results import ensure_spec


def corner_mines() -> pd.DataFrame:
    """How many boards hold each number of mines in the corner's 3x3 square (a sum over the stored runs)."""
    store, tasks = ensure_spec("{ID}")
    counts = sum(store.load(t).tables["corner"]["mines"].value_counts() for t in tasks)
    return counts.sort_index().rename_axis("mines").reset_index(name="boards")


def corner_sentence() -> str:
    """The share of boards whose corner square holds no mine, as a sentence."""
    table = corner_mines()
    share = table.loc[table["mines"] == 0, "boards"].sum() / table["boards"].sum()
    return f"{{share:.0%}} of {{table['boards'].sum():,}} boards have no mine in the corner's 3x3 square."
'''

CELLS = [
    ("markdown", "# Mines in the corner\n\n```{admonition} In this chapter\n:class: tip\n**You will learn** how often "
                 "the corner of a fresh beginner board is empty. **Before this chapter:** {doc}`02_the_game`.\n```"),
    ("code", "from IPython.display import Markdown, display\n"
             "from sweeper.viz import figures\ndisplay(Markdown(figures.scale_note()))"),
    ("markdown", f"The experiment `{ID}` deals fresh boards and counts the mines of each one's top-left 3x3 square."),
    ("code", f"figures.{NAME}.corner_mines()"),
    ("markdown", "*The boards of every stored run, by the mines in their corner's 3x3 square.*"),
    ("code", f"display(Markdown(figures.{NAME}.corner_sentence()))"),
    ("markdown", "## Take-aways\n\n* A corner square is often, not always, free of mines.\n\n## Exercises\n\n"
                 "```{exercise}\n:label: corner-1\nWhich opening keeps the corner square free?\n```\n\n"
                 "```{solution} corner-1\n:class: dropdown\n`zero`, with its first click in the corner: by its rule, "
                 "not by a count of games.\n```"),
]


def notebook() -> str:
    """The page: a notebook of :data:`CELLS` (no outputs: they are made when it runs)."""
    def cell(kind, text):
        base = {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True)}
        return {**base, "execution_count": None, "outputs": []} if kind == "code" else base
    return json.dumps({"cells": [cell(*c) for c in CELLS], "nbformat": 4, "nbformat_minor": 4, "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}}, indent=1) + "\n"
