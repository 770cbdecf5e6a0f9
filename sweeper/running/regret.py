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

The regret is split in two against the *best window agent*
(:mod:`sweeper.agents.best_window`), the agent that knows every window key's true
value: the **representation gap** (the exact oracle's best move against the best
window agent's move on the same view: what no agent that reads the board through
windows can win back) and the **learning regret** (the best window agent's move
against the agent's: what the agent has still to learn). Both are scored by the
exact probabilities, and they add up to the regret decision by decision. The
package holds the tables of the book's boards (``window="default"``);
:func:`estimate_best_window` makes one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..agents import best_window as bw
from ..agents.kinds import Agent, make_agent
from ..agents.oracle import GAME_FLOAT_COLUMNS, GAME_INT_COLUMNS, WINDOW_ESTIMATE, WINDOW_SCORE
from ..agents.values import ValueTable
from ..checks import whole
from ..game.engine import Setting, with_openings
from ..game.probability import NODE_BUDGET
from .belief import Recorder
from .training import KernelCalls, Run, play

__all__ = ["RegretRun", "regret", "cumulative", "estimate_best_window", "DECOMPOSED"]

#: The per-game columns of the decomposition (NaN when a run had no best-window table).
DECOMPOSED = ("gap", "gap_sure", "gap_guess", "learning", "learning_sure", "learning_guess")


@dataclass
class RegretRun:
    """The outcome of :func:`regret`: the :class:`~sweeper.running.training.Run` and, per game, its
    decisions and their regret (``games``)."""

    run: Run
    games: pd.DataFrame
    fallbacks: int
    window: "bw.BestWindow | None" = None

    @property
    def agent(self) -> Agent:
        return self.run.agent

    @property
    def total(self) -> float:
        """The cumulative regret of all the games."""
        return float(self.games["regret"].sum())

    def per_decision(self, column: str = "regret") -> float:
        """The mean per decision of ``column`` (``regret``, ``gap`` or ``learning``)."""
        if column not in ("regret", "gap", "learning"):
            raise ValueError(f"column must be 'regret', 'gap' or 'learning', got {column!r}")
        return float(self.games[column].sum()) / max(int(self.games["decisions"].sum()), 1)

    def blocks(self, size: int = 1_000) -> pd.DataFrame:
        """Sums per block of ``size`` games (the last may be shorter): games, wins, decisions, sure
        decisions, flags and the regret (all, on sure decisions, on guesses, on flags), its two parts (``gap``,
        ``learning``, each also on sure decisions and on guesses), the decisions scored with a candidate unknown to
        the best-window table, each block labelled by the games played at its end (``games``), and the actions
        the agent has recorded at its end."""
        size = whole(size, "size", 1)
        g = self.games
        k = np.arange(len(g)) // size
        cols = ["won", "decisions", "sure_decisions", "flags", "regret", "regret_sure", "regret_guess",
                "regret_flags", *DECOMPOSED, "unknown_key_decisions"]
        out = g[cols].assign(won=g["won"].astype(np.int64)).groupby(k).sum()
        out.insert(0, "games", np.minimum((out.index.to_numpy() + 1) * size, len(g)))
        out["actions_recorded"] = self.run.records["actions_recorded"].groupby(k).last().to_numpy()
        return out.rename(columns={"won": "wins"}).reset_index(drop=True)


def _window(window, board: str):
    """The best-window table a regret run scores against: ``"default"`` (the package's table for the board, or
    None where it has none), None (no decomposition) or a :class:`~sweeper.agents.best_window.BestWindow` of
    that board."""
    if isinstance(window, str):
        if window != "default":
            raise ValueError(f"window must be 'default', None or a BestWindow, got {window!r}")
        return bw.default(board)
    if window is None:
        return None
    if not isinstance(window, bw.BestWindow):
        raise ValueError(f"window must be 'default', None or a BestWindow, got {type(window).__name__}")
    if window.board != board:
        raise ValueError(f"the best-window table is for {window.board}, the games are on {board}")
    return window


@with_openings
def regret(agent, board="8x8x10", episodes: int = 10_000, seed: int = 0, *, learn: bool = True,
           opening: str = "reference", first=None, budget: int = NODE_BUDGET, progress: bool = False,
           window="default") -> RegretRun:
    """Play ``episodes`` games of ``agent`` on ``board`` (training it, as :func:`sweeper.train` does with
    the same seed, unless ``learn=False``) and score every decision against the exact one-step oracle.

    Parameters
    ----------
    agent : Agent or str
        The agent, trained in place as by :func:`sweeper.train` (pass ``agent.copy()`` to keep it), or a
        spec such as ``"ucb:0.1"`` (see :func:`~sweeper.agents.kinds.make_agent`).
    board : str or Setting, default "8x8x10"
        One board setting: ``"8x8x10"`` (rows x cols x mines), a preset name or a
        :class:`~sweeper.game.engine.Setting`.
    episodes : int, default 10000
        Games, a non-negative integer.
    seed : int, default 0
        The seed, in ``[0, 2**64)``: the games (and the agent left) are those of :func:`sweeper.train`
        with this seed.
    learn : bool, default True
        False plays the games of ``evaluate(..., freeze=True)`` instead (the agent does not learn).
    opening : str, default "reference"
        The opening of the games: {openings}.
    first : tuple of int, optional
        Where the {first_openings} openings click first, ``(row, col)``.
    budget : int, default 1000000
        The exact oracle's budget per group of tiles, a positive integer, as for
        :func:`~sweeper.running.players.play_solver`; the groups abandoned are counted in ``fallbacks``.
    progress : bool, default False
        Show a progress bar.
    window : str, BestWindow or None, default "default"
        The best window agent the regret is split against (:mod:`sweeper.agents.best_window`):
        ``"default"``, the package's table for ``board`` (none for other boards: then the split is NaN); a
        :class:`~sweeper.agents.best_window.BestWindow` of ``board``; or None, no split.

    Returns
    -------
    RegretRun
        ``run``, the :class:`~sweeper.running.training.Run` of the games; ``games``, one row per game:
        ``won``, ``decisions``, ``sure_decisions``, ``flags``, the regret (``regret``, ``regret_sure``,
        ``regret_guess``, ``regret_flags``), the representation ``gap`` and the ``learning`` regret (each
        also ``_sure`` and ``_guess``; ``gap + learning == regret``) and ``unknown_key_decisions``;
        ``fallbacks``; ``window``, the table used (or None). ``total``, ``per_decision(column)`` and
        ``blocks(size)`` sum them.

    Raises
    ------
    ValueError
        If ``window`` is a string other than ``"default"``, neither None nor a ``BestWindow``, or a
        ``BestWindow`` of another board; or for any argument :func:`~sweeper.running.training.play`
        refuses (``agent``, ``board``, ``episodes``, ``seed``, ``learn``, ``progress``, ``opening``,
        ``first``), or a ``budget`` that is not a positive integer.
    RuleError
        If a plug-in rule fails (:class:`~sweeper.agents.custom.RuleError`).
    """
    agent = make_agent(agent) if not isinstance(agent, Agent) else agent
    board = str(Setting.parse(board)) if not isinstance(board, Setting) else str(board)
    table = _window(window, board)
    scored = None if table is None else (table.table(), table.symmetric)
    recorder = Recorder(rows=False, budget=budget, window=scored, mode=WINDOW_SCORE, bins=False)
    run = play(agent, board, episodes, seed, learn=learn, opening=opening, first=first, progress=progress,
               calls=KernelCalls(recorder=recorder))
    gi, gf = recorder.game_arrays(len(run.records))
    games = pd.DataFrame({c: gi[:, i] for i, c in enumerate(GAME_INT_COLUMNS)})
    for i, c in enumerate(GAME_FLOAT_COLUMNS):
        games[c] = gf[:, i]
    games["won"] = games["won"].astype(bool)
    games["regret"] = games["regret_sure"] + games["regret_guess"]
    if table is None:
        for c in DECOMPOSED:
            games[c] = np.nan
        games["unknown_key_decisions"] = 0
    else:
        games["gap"] = games["gap_sure"] + games["gap_guess"]
        games["learning_sure"] = games["regret_sure"] - games["gap_sure"]
        games["learning_guess"] = games["regret_guess"] - games["gap_guess"]
        games["learning"] = games["regret"] - games["gap"]
    games = games.drop(columns=["cause", "by_removal", "right"])
    return RegretRun(run, games, recorder.fallbacks, table)


def estimate_best_window(board="8x8x10", games: int = 1_000_000, seed: int = 0, *, agent="greedy",
                         opening: str = "reference", budget: int = NODE_BUDGET, progress: bool = False,
                         info: dict | None = None) -> "bw.BestWindow":
    """The best window agent's table of ``board``, estimated over the decisions of ``agent``'s ``games``
    training games with ``seed`` (its *play distribution*): for every key, the mean exact probability that its
    target hides a mine over every decision where it was on offer, with the number of those decisions.

    The games are those of ``sweeper.train(agent, board, games, seed)``: the probe adds every candidate's exact
    probability to its key and changes nothing. ``info`` is kept in the table's header beside the sample's
    facts (agent, games, seed, decisions, candidates scored, seconds)."""
    spec = agent if isinstance(agent, str) else None
    agent = make_agent(agent) if not isinstance(agent, Agent) else agent
    setting = Setting.parse(board)
    symmetric = bool(getattr(agent, "symmetric", True))
    recorder = Recorder(rows=False, budget=budget, window=(ValueTable(1 << 16), symmetric), mode=WINDOW_ESTIMATE,
                        bins=False)
    run = play(agent, setting, games, seed, learn=True, opening=opening, progress=progress,
               calls=KernelCalls(recorder=recorder))
    keys, sums, counts = recorder.window_sums()
    order = np.argsort(keys, kind="stable")
    keys, sums, counts = keys[order], sums[order], counts[order]
    gi, _ = recorder.game_arrays(len(run.records))
    facts = {"agent": spec or agent.name, "games": int(games), "seed": int(seed), "opening": opening,
             "decisions": int(gi[:, list(GAME_INT_COLUMNS).index("decisions")].sum()),
             "candidates": int(counts.sum()), "win_rate": run.win_rate, "seconds": run.seconds,
             "fallbacks": int(recorder.fallbacks)}
    facts.update(info or {})
    # the mean, clipped into [0, 1] against the last bit of rounding of a sum of probabilities
    return bw.BestWindow(str(setting), keys, np.clip(sums / counts, 0.0, 1.0), counts, symmetric, facts)


def cumulative(blocks: pd.DataFrame) -> pd.DataFrame:
    """Running totals of a :meth:`RegretRun.blocks` table (or one stored by the ``regret`` task): games,
    decisions and the regret columns summed from the first block, and the regret per decision so far."""
    cols = ["wins", "decisions", "sure_decisions", "flags", "regret", "regret_sure", "regret_guess", "regret_flags"]
    cols += [c for c in (*DECOMPOSED, "unknown_key_decisions") if c in blocks.columns]
    c = blocks[cols].cumsum(skipna=False)
    c.insert(0, "games", blocks["games"].to_numpy())
    c["actions_recorded"] = blocks["actions_recorded"].to_numpy()
    c["regret_per_decision"] = c["regret"] / c["decisions"].clip(lower=1)
    for part in ("gap", "learning"):
        if part in c.columns:
            c[f"{part}_per_decision"] = c[part] / c["decisions"].clip(lower=1)
    return c
