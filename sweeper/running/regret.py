"""Regret: the agent's decisions against the exact one-step oracle, over its training (beyond the paper).

Bandit theory measures a learner by its *regret*: what it lost, summed over its
decisions, against a player who always makes the best move on offer. In
Minesweeper the best move can be computed exactly at every decision
(:mod:`sweeper.agents.oracle`): with ``p`` the exact probability that a tile is a
mine, a click is right with probability ``1 - p``, a flag with probability ``p``,
and the best move on offer is right with probability ``max(p, 1 - p)`` over the
agent's candidate tiles. A decision's regret is that best minus the probability
that the agent's move was right.

:func:`regret` plays an agent's games with :func:`sweeper.running.training.play`,
the loop that trains it, with a probe that scores each decision and changes
nothing: with the same seed its games, and the agent it leaves, are exactly
those of :func:`sweeper.train` (``learn=True``, the default) or of
``evaluate(..., freeze=True)`` (``learn=False``). A decision is counted as *sure*
when a move certain to be right was on offer (some candidate tile had ``p`` = 0 or 1
within :data:`~sweeper.agents.oracle.EPS`), otherwise every move was a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..agents.kinds import Agent, make_agent
from ..agents.oracle import GAME_FLOAT_COLUMNS, GAME_INT_COLUMNS
from ..checks import whole
from ..game.probability import NODE_BUDGET
from .belief import Recorder
from .training import Run, play

__all__ = ["RegretRun", "regret", "cumulative"]


@dataclass
class RegretRun:
    """The outcome of :func:`regret`: the :class:`~sweeper.running.training.Run` and, per game, its
    decisions and their regret (``games``)."""

    run: Run
    games: pd.DataFrame
    fallbacks: int

    @property
    def agent(self) -> Agent:
        return self.run.agent

    @property
    def total(self) -> float:
        """The cumulative regret of all the games."""
        return float(self.games["regret"].sum())

    def per_decision(self) -> float:
        """The mean regret per decision."""
        return self.total / max(int(self.games["decisions"].sum()), 1)

    def blocks(self, size: int = 1_000) -> pd.DataFrame:
        """Sums per block of ``size`` games (the last may be shorter): games, wins, decisions, sure
        decisions, flags and the regret (all, on sure decisions, on guesses, on flags), each block labelled
        by the games played at its end (``games``), and the actions the agent has recorded at its end."""
        size = whole(size, "size", 1)
        g = self.games
        k = np.arange(len(g)) // size
        cols = ["won", "decisions", "sure_decisions", "flags", "regret", "regret_sure", "regret_guess",
                "regret_flags"]
        out = g[cols].assign(won=g["won"].astype(np.int64)).groupby(k).sum()
        out.insert(0, "games", np.minimum((out.index.to_numpy() + 1) * size, len(g)))
        out["actions_recorded"] = self.run.records["actions_recorded"].groupby(k).last().to_numpy()
        return out.rename(columns={"won": "wins"}).reset_index(drop=True)


def regret(agent, board="8x8x10", episodes: int = 10_000, seed: int = 0, *, learn: bool = True,
           opening: str = "reference", first=None, budget: int = NODE_BUDGET, progress: bool = False) -> RegretRun:
    """Play ``episodes`` games of ``agent`` on ``board`` (training it, as :func:`sweeper.train` does with
    the same seed, unless ``learn=False``) and score every decision against the exact one-step oracle.
    ``agent`` is trained in place, as by :func:`sweeper.train` (pass ``agent.copy()`` to keep it)."""
    agent = make_agent(agent) if not isinstance(agent, Agent) else agent
    recorder = Recorder(rows=False, budget=budget)
    run = play(agent, board, episodes, seed, learn=learn, opening=opening, first=first, progress=progress,
               recorder=recorder)
    gi, gf = recorder.game_arrays(len(run.records))
    games = pd.DataFrame({c: gi[:, i] for i, c in enumerate(GAME_INT_COLUMNS)})
    for i, c in enumerate(GAME_FLOAT_COLUMNS):
        games[c] = gf[:, i]
    games["won"] = games["won"].astype(bool)
    games["regret"] = games["regret_sure"] + games["regret_guess"]
    games = games.drop(columns=["cause", "by_removal"])
    return RegretRun(run, games, recorder.fallbacks)


def cumulative(blocks: pd.DataFrame) -> pd.DataFrame:
    """Running totals of a :meth:`RegretRun.blocks` table (or one stored by the ``regret`` task): games,
    decisions and the regret columns summed from the first block, and the regret per decision so far."""
    c = blocks[["wins", "decisions", "sure_decisions", "flags", "regret", "regret_sure", "regret_guess",
                "regret_flags"]].cumsum()
    c.insert(0, "games", blocks["games"].to_numpy())
    c["actions_recorded"] = blocks["actions_recorded"].to_numpy()
    c["regret_per_decision"] = c["regret"] / c["decisions"].clip(lower=1)
    return c
