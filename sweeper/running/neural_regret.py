"""The neural bandit's training regret: every decision it made while it learned, scored by the exact probabilities.

Bandit theory measures a learner by its regret summed over its decisions (:mod:`sweeper.running.regret` does it for
the tabular agents). The neural bandit only clicks, so its best move on offer is the covered tile least likely to be
a mine, and a decision's regret is how much likelier its click was to hit a mine than that tile:
``p[click] - min(p)``, with ``p`` the exact probabilities of :func:`~sweeper.game.probability.mine_probabilities`.
A decision is *sure* when a tile proven safe was on offer (``min(p)`` = 0 within
:data:`~sweeper.agents.oracle.EPS`).

:func:`training_regret` scores the games of a run of :func:`~sweeper.running.neural_play.train_neural` made with
``record=True``: it replays each recorded game through the engine's :class:`~sweeper.game.engine.Game` and scores
each view the network saw before it clicked. The training itself is untouched (recording changes nothing in it:
the same seed trains the same network), so the regret is that of the network one trains.
The tabular agents' regret (:mod:`sweeper.running.regret`) is scored against the best move among *their* candidate
moves, clicks or flags; the two are the same quantity for a player that only clicks.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..agents.oracle import EPS, click_regret
from ..checks import whole
from ..game.probability import NODE_BUDGET, mine_probabilities
from .neural_play import NeuralRun, replay_views

__all__ = ["training_regret", "regret_blocks", "GAME_COLUMNS"]

#: The columns of :func:`training_regret`'s rows, one per game.
GAME_COLUMNS = ("game", "won", "decisions", "sure_decisions", "missed", "regret", "regret_sure", "regret_guess")


def _scored(setting, layout, moves, opening: str, budget: int) -> tuple:
    """One recorded game: (decisions, sure decisions, sure decisions where the click was not proven safe, regret on
    sure decisions, regret on guesses), and whether the replay won."""
    views, status = replay_views(setting, layout, moves, opening)
    sure = missed = 0
    on_sure = on_guess = 0.0
    for view, move in zip(views, moves):
        loss, known = click_regret(mine_probabilities(view, setting.mines, budget=budget), move)
        if known:
            sure += 1
            missed += loss > EPS
            on_sure += loss
        else:
            on_guess += loss
    return (len(views), sure, missed, on_sure, on_guess), status == "won"


def training_regret(run: NeuralRun, *, budget: int = NODE_BUDGET) -> pd.DataFrame:
    """The regret of every decision of a recorded run, summed per game.

    Parameters
    ----------
    run : NeuralRun
        A run of :func:`~sweeper.running.neural_play.train_neural` (or of ``evaluate_neural``) made with
        ``record=True``.
    budget : int, default 1000000
        The exact probabilities' budget per group of tiles (:func:`~sweeper.game.probability.mine_probabilities`).

    Returns
    -------
    pandas.DataFrame
        One row per game, in the order the games ended (the run's ``records``): ``game`` (its board's index in the
        seed's stream), ``won``, ``decisions``, ``sure_decisions``, ``missed`` (sure decisions whose click was not
        proven safe), ``regret`` = ``regret_sure`` + ``regret_guess`` (summed over the game's decisions).

    Raises
    ------
    ValueError
        For a run that is not a ``NeuralRun`` recorded with ``record=True``, or a replay that does not end as the
        run says its game ended.
    """
    if not isinstance(run, NeuralRun):
        raise ValueError(f"run must be a NeuralRun, got {type(run).__name__}")
    if run.layouts is None or run.moves is None:
        raise ValueError("the run kept no games: train it with record=True to score its decisions")
    budget = whole(budget, "budget", 1)
    rows = []
    for (game, won), layout, moves in zip(run.records[["game", "won"]].itertuples(index=False), run.layouts,
                                          run.moves):
        counts, replay_won = _scored(run.setting, layout, moves, run.opening, budget)
        if replay_won != bool(won):
            raise ValueError(f"game {game} replays to another ending than the run recorded")
        n, sure, missed, on_sure, on_guess = counts
        rows.append((int(game), bool(won), n, sure, missed, on_sure + on_guess, on_sure, on_guess))
    return pd.DataFrame(rows, columns=list(GAME_COLUMNS))


def regret_blocks(games: pd.DataFrame, size: int) -> pd.DataFrame:
    """:func:`training_regret`'s rows summed per block of ``size`` games (the last may be shorter), each block
    labelled by the games and the decisions played at its end (``games``, ``decisions_so_far``) and by its
    cumulative regret (``cumulative_regret``)."""
    size = whole(size, "size", 1)
    k = np.arange(len(games)) // size
    cols = ["won", "decisions", "sure_decisions", "missed", "regret", "regret_sure", "regret_guess"]
    out = games[cols].assign(won=games["won"].astype(np.int64)).groupby(k).sum()
    out.insert(0, "games", np.minimum((out.index.to_numpy() + 1) * size, len(games)))
    out = out.rename(columns={"won": "wins"}).reset_index(drop=True)
    out["decisions_so_far"] = out["decisions"].cumsum()
    out["cumulative_regret"] = out["regret"].cumsum()
    return out
