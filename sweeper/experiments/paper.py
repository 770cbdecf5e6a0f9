"""The paper's published numbers, and the published solver figures we compare with.

This module is the one place for every constant taken from the paper or from other
publications; the reproduction, the book's data and its chapters read them from here.
The numbers live as package data in ``sweeper/experiments/data/`` (installed with the
package), whose ``README.md`` gives the full citations and the meaning of each column:

* ``paper-results.csv`` -- every number of Lordeiro, Haddad and Cardoso, *Multi-Armed
  Bandits for Minesweeper* (:data:`CITATION`), one row each;
* ``published-solver.csv`` -- the win rates of Tu et al.'s PSEQ solver
  (:data:`SOLVER_CITATION`) under the two first-click rules, with the first-click tile
  of each figure;
* ``published-learned-agents.csv`` -- win rates other projects report for learned Minesweeper
  agents (:func:`published_learned_agents`);
* ``published-solver-figures.csv`` -- win rates other solvers (minesolve, JSMinesweeper) report on the
  expert board, with their rules and CPU per game where stated (:func:`published_solver_figures`);
* ``paper-code-games/`` -- games played by the paper's published code on fixed mine
  layouts (:data:`PAPER_CODE_CITATION`), game by game: what that program does, as
  measurements (:func:`paper_code_games`).
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib.resources import files

import numpy as np
import pandas as pd

CITATION = ("Igor Q. Lordeiro, Diego B. Haddad and Douglas O. Cardoso, \"Multi-Armed Bandits for Minesweeper: "
            "Profiting from Exploration-Exploitation Synergy\", CEFET-RJ (manuscript in IEEE journal format; "
            "its source names no venue or year)")
SOLVER_CITATION = ("Jinzheng Tu, Tianhong Li, Shiteng Chen, Chong Zu and Zhaoquan Gu, \"Exploring Efficient "
                   "Strategies for Minesweeper\", AAAI Workshops 2017; win rates from the README of "
                   "github.com/b1f6c1c4/MineSweeperProb (commit 048ee3e)")

PAPER_CODE_CITATION = ("the code published with the paper, github.com/CanisKalahari/BanditSweeper (commit 8f08db6, "
                       "MIT licence), run on fixed mine layouts; files in sweeper/experiments/data/paper-code-games")

#: The recorded games of the paper's published code: file name -> (our agent spec, board, NumPy seed of the
#: layouts). Every file is greedy (Q starts at -1) or UCB(0.1), with flags, symmetries and the code's opening.
PAPER_CODE_GAMES = {
    "greedy-8x8x10": ("greedy", "8x8x10", 12345), "ucb0.1-8x8x10": ("ucb:0.1", "8x8x10", 2),
    "greedy-8x8x15": ("greedy", "8x8x15", 3), "greedy-16x16x40": ("greedy", "16x16x40", 4),
    "greedy-4x4x3": ("greedy", "4x4x3", 23), "greedy-4x4x4": ("greedy", "4x4x4", 24),
    "greedy-4x4x5": ("greedy", "4x4x5", 25),
}
#: The files that play Table II's boards (the bandit column: greedy with symmetries, 4x4 with 3, 4, 5 mines).
TABLE2_PAPER_CODE = {"4x4x3": "greedy-4x4x3", "4x4x4": "greedy-4x4x4", "4x4x5": "greedy-4x4x5"}

#: Cells the paper prints in bold ("significantly best") in its transfer tables: (agent, trained on, tested on).
PAPER_BOLD = {("greedy", "8x8x10", "training"), ("greedy", "8x8x15", "8x8x10"), ("greedy", "8x8x13", "16x16x40"),
              ("greedy", "8x8x15", "16x16x40"), ("greedy", "8x8x15", "16x30x99"),
              ("ucb(c=0.1)", "8x8x10", "training"), ("ucb(c=0.1)", "8x8x15", "8x8x10"),
              ("ucb(c=0.1)", "8x8x15", "16x16x40"), ("ucb(c=0.1)", "8x8x15", "16x30x99")}

#: Our rows compared with a paper row of another name: the paper's SA-vs-MAB bandit numbers match our
#: bandit agent without symmetries (see the book's state-action chapter).
PAPER_ALIAS = {"mab-greedy+nosym": "mab-greedy"}

#: The solver's first-click rules in this package's opening names.
SOLVER_RULES = {"SFAR": "safe", "SNR": "zero"}


def _read(name: str) -> pd.DataFrame:
    text = files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return pd.read_csv(io.StringIO(text))


@lru_cache(maxsize=None)
def _paper() -> pd.DataFrame:
    return _read("paper-results.csv")


@lru_cache(maxsize=None)
def _solver() -> pd.DataFrame:
    d = _read("published-solver.csv")
    d["opening"] = d["rule"].map(SOLVER_RULES)
    cell = d["first_click"].str.strip("[]").str.split(",", expand=True).astype(int)
    d["first"] = list(zip(cell[0] - 1, cell[1] - 1))  # 0-based (row, column), as the engine takes it
    return d


def paper_results() -> pd.DataFrame:
    """Every number the paper reports, one row each (columns described in ``data/README.md``)."""
    return _paper().copy()


def paper_value(experiment: str, agent: str, train_setting: str, eval_setting: str = "training",
                metric: str = "win_rate") -> float:
    """One published number of the paper, e.g. ``paper_value("initial", "greedy", "8x8x10")``."""
    p = _paper()
    hit = p[(p["experiment"] == experiment) & (p["agent"] == agent) & (p["train_setting"] == train_setting)
            & (p["eval_setting"] == eval_setting) & (p["metric"] == metric)]
    if len(hit) != 1:
        raise ValueError(f"the paper has {len(hit)} rows for {experiment}/{agent}/{train_setting}/"
                         f"{eval_setting}/{metric}; expected exactly one")
    return float(hit["value"].iloc[0])


def headline() -> float:
    """The paper's headline number: greedy, 8x8x10, cumulative training win rate after 10^6 games."""
    return paper_value("initial", "greedy", "8x8x10")


def published_solver() -> pd.DataFrame:
    """Tu et al.'s published win rates: strategy, rule, board, first click (as published and 0-based), win rate."""
    return _solver().copy()


def published_solver_rate(board: str, opening: str, first=(0, 0), strategy: str = "PSEQ"):
    """The published win rate under exactly our conditions (board, opening, first-click tile), or None."""
    d = _solver()
    hit = d[(d["board"] == board) & (d["opening"] == opening) & (d["strategy"] == strategy)
            & d["first"].map(lambda f: f == tuple(first))]
    return float(hit["win_rate"].iloc[0]) if len(hit) else None


def paper_code_games(name: str) -> dict:
    """The games the paper's published code played on one file's layouts (see ``data/paper-code-games/README.md``):
    ``layouts`` (n, rows, cols) bool, and per game ``won`` (bool), ``plays`` (decisions, flags included) and
    ``actions`` (distinct actions recorded after the game). Plain arrays, read without pickle."""
    if name not in PAPER_CODE_GAMES:
        raise ValueError(f"unknown paper-code file {name!r}; known: {', '.join(PAPER_CODE_GAMES)}")
    path = files(__package__).joinpath("data", "paper-code-games", f"{name}.npz")
    with path.open("rb") as f, np.load(f, allow_pickle=False) as z:
        return {k: z[k].copy() for k in ("layouts", "won", "plays", "actions")}


def published_learned_agents() -> pd.DataFrame:
    """Learned Minesweeper agents of other projects and the win rates they report (``data/README.md``)."""
    return _read("published-learned-agents.csv")


def published_solver_figures() -> pd.DataFrame:
    """Other solvers' published expert win rates (minesolve by search depth, JSMinesweeper's classic and modern
    rules): solver, setting, method, board, the rule and our matching opening, games, win rate, CPU ms per game where
    stated, the benchmark suite the chapter sets it beside, and the source (``data/README.md``)."""
    d = _read("published-solver-figures.csv")
    d["opening"] = d["opening"].fillna("")
    d["games"] = d["games"].astype("Int64")
    return d
