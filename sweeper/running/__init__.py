"""Running games: training and test runs, one game step by step, the floor and ceiling players,
the belief audit, and a Gymnasium environment.

* :mod:`~sweeper.running.training` -- :func:`train`, :func:`evaluate`, per-game records;
* :mod:`~sweeper.running.episode` -- :class:`Episode`: one game, one decision at a time;
* :mod:`~sweeper.running.players` -- the solver (ceiling) and the random player (floor);
* :mod:`~sweeper.running.belief` -- an agent's beliefs and moves against the exact probabilities (the audit);
* :mod:`~sweeper.running.neural_play` -- the neural bandit's batched player, its online training and test games
  (imported on demand: it needs the optional extra ``deep``);
* :mod:`~sweeper.running.env` -- ``sweeper/Minesweeper-v0`` (imported on demand: it needs Gymnasium);
* :mod:`~sweeper.running.policies` -- players of that environment (solver, trained agent, random) and
  the episode loop.
"""

from .episode import Decision, Episode
from .players import play_random, play_solver
from .training import Run, evaluate, play, train

__all__ = ["train", "evaluate", "play", "Run", "Episode", "Decision", "play_solver", "play_random"]
