"""What the agent believes versus the truth (beyond the paper).

A bandit agent's value ``Q`` of an action is the mean of its rewards, +1 when
the target was a mine and -1 when it was safe, so ``(Q + 1) / 2`` is the agent's
estimate that the target hides a mine: its *belief*. :func:`audit` plays games
with the agent's own kernels (:mod:`sweeper.agents.kernels`) and, before every decision,
asks the solver (:func:`sweeper.game.probability.mine_probabilities`'s kernel) for the
*exact* probability of every covered tile, given what the board shows. It
records, per decision, the belief behind the chosen action and the exact
probability of its target, and sorts every lost game by its cause:

``forced guess``
    the tile that blew up had a probability strictly between 0 and 1 and no
    tile the agent could click was known to be safe: any player would have had
    to guess here (a lucky guess would have gone on);
``missed a safe tile``
    the same kind of guess, but some tile the agent could click had probability
    0: the solver would not have guessed;
``clicked a known mine``
    the tile that blew up had probability 1: the view proves it is a mine.

"Tiles the agent could click" are its covered, unflagged tiles; the solver
reads flags as covered tiles, so a wrong flag neither helps nor hides anything.
A loss may come from a forced flag removal (the removed flag's tile is
clicked): ``by_removal`` marks it, and that tile's probability is used.
Probabilities within :data:`EPS` of 0 or 1 count as known.

The audit plays frozen agents by default (``learn=False``): what is measured
is the agent as trained.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..agents import oracle
from ..agents.kinds import Agent, make_agent
from ..agents.oracle import (CAUSES, D_CLICKED, D_EXPLODED, D_FLAG, D_GAME, D_N, D_NUM, D_REMOVED, D_SAFE_KNOWN,
                             D_SIZE, D_TILE, EPS, F_BEST, F_CLICKED_EXACT, F_EXACT, F_LOWEST, F_Q, F_SIZE,
                             GAME_FLOAT_COLUMNS, GAME_INT_COLUMNS, N_BINS, belief_bin, new_probe)
from ..game.engine import Setting, with_openings
from ..game.grid import tile_of
from ..game.probability import NODE_BUDGET, check_budget
from .training import KernelCalls, check_episodes, play

__all__ = ["Audit", "audit", "find_episode", "Recorder", "bin_label", "belief_bin", "CAUSES", "EPS", "N_BINS"]


class Recorder:
    """What :func:`~sweeper.running.training.play` hands the one game loop to measure every decision
    against the exact probabilities (:mod:`sweeper.agents.oracle`): a probe per kernel call, the rows and
    per-game sums gathered here. ``rows``: also keep one row per decision (the audit; costs memory). ``bins``: gather
    the calibration tables (``cbins``; the regret runs, which do not read them, save their time)."""

    def __init__(self, rows: bool = True, budget: int = NODE_BUDGET, window=None, mode: int = oracle.WINDOW_NONE,
                 bins: bool = True):
        self.rows = bool(rows)
        self.budget = check_budget(budget)
        # the best-window table: a ValueTable scored against or estimated (oracle.WINDOW_SCORE / WINDOW_ESTIMATE),
        # with its keys' symmetry: (table, symmetric)
        self.window, self.mode = window, mode
        self.parts_i, self.parts_f, self.games, self.gsums = [], [], [], []
        self.probe = None
        self.cbins = np.zeros((N_BINS if bins else 0, 5))
        self.fallbacks = 0  # solver groups over the budget, over the run
        self._fallbacks_before = 0

    def begin_setting(self, board, setting, episodes: int) -> None:
        """A new board setting of the run, ``episodes`` games."""
        self._fallbacks_before = self.fallbacks
        if self.probe is not None and self.mode == oracle.WINDOW_ESTIMATE:
            raise ValueError("a best-window table is estimated on one board setting")
        table, sym = self.window if self.window is not None else (None, True)
        self.probe = new_probe(board, episodes, 0, self.budget, table, self.mode, sym)._replace(cbins=self.cbins)
        self.games.append(self.probe.games)
        self.gsums.append(self.probe.gsum)
        self.tiles = setting.tiles

    def call(self, count: int):
        """The probe of the next kernel call, for ``count`` games."""
        rows = count * 2 * self.tiles + 1 if self.rows else 0
        self.probe.state[oracle.R_ROWS] = 0
        self.probe = self.probe._replace(di=np.zeros((rows, D_SIZE), np.int64), df=np.zeros((rows, F_SIZE)))
        return self.probe

    def adopt(self, probe) -> None:
        """Take back the probe a kernel call returned (a new bundle when its best-window table grew)."""
        self.probe = probe

    def window_sums(self):
        """Estimating: the best-window table's keys with their summed exact probabilities and counts."""
        p = self.probe
        oracle.flush(p)
        used = p.wkeys != oracle.EMPTY_KEY
        return p.wkeys[used], p.wq[used], p.wn[used]

    def collect(self) -> None:
        """Keep what the last call recorded."""
        rows = int(self.probe.state[oracle.R_ROWS])
        self.parts_i.append(self.probe.di[:rows])
        self.parts_f.append(self.probe.df[:rows])
        self.fallbacks = self._fallbacks_before + int(self.probe.state[oracle.R_FALLBACKS])

    def decision_arrays(self):
        di = np.concatenate(self.parts_i) if self.parts_i else np.zeros((0, D_SIZE), np.int64)
        dfl = np.concatenate(self.parts_f) if self.parts_f else np.zeros((0, F_SIZE))
        return di, dfl

    def game_arrays(self, upto: int):
        """The per-game integer and float columns of the first ``upto`` games of the run."""
        gi = np.concatenate(self.games)[:upto] if self.games else np.zeros((0, len(GAME_INT_COLUMNS)), np.int64)
        gf = np.concatenate(self.gsums)[:upto] if self.gsums else np.zeros((0, len(GAME_FLOAT_COLUMNS)))
        return gi, gf


class Audit:
    """The result of :func:`audit`: per-decision rows, per-game causes, calibration tables."""

    def __init__(self, agent_name, setting, opening, seed, decisions, games, candidate_bins, fallbacks, seconds):
        self.agent_name, self.setting, self.opening, self.seed = agent_name, setting, opening, seed
        self.decisions = decisions
        self.games = games
        self.candidate_bins = candidate_bins
        self.fallbacks = fallbacks
        self.seconds = seconds

    @property
    def win_rate(self) -> float:
        return float(self.games["won"].mean())

    def losses(self) -> pd.DataFrame:
        """Lost games by cause: count and share of the losses and of all games."""
        lost = self.games[~self.games["won"]]
        out = (lost["cause"].value_counts().reindex(list(CAUSES[1:]), fill_value=0).rename("games").to_frame())
        out["share_of_losses"] = out["games"] / max(len(lost), 1)
        out["share_of_games"] = out["games"] / len(self.games)
        out["by_flag_removal"] = lost.groupby("cause", observed=False)["by_removal"].sum().reindex(
            out.index, fill_value=0).astype(int)
        out.index.name = "cause"
        return out.reset_index()

    def calibration(self, which: str = "chosen") -> pd.DataFrame:
        """Belief (Q + 1) / 2 against the exact probability of the target, by belief bin.

        ``which="chosen"``: the action each decision took; ``"all"``: every
        candidate the agent weighed (seen actions only, N > 0)."""
        if which == "chosen":
            d = self.decisions[self.decisions["n"] > 0]
            b = d["q"].map(_bin_of)
            g = d.assign(bin=b).groupby("bin")
            t = pd.DataFrame({"count": g.size(), "belief": g["belief"].mean(), "exact": g["exact"].mean(),
                              "known_safe": g["exact"].apply(lambda x: int((x <= EPS).sum())),
                              "known_mine": g["exact"].apply(lambda x: int((x >= 1 - EPS).sum()))})
        elif which == "all":
            c = self.candidate_bins
            c = c[c["count"] > 0]
            t = pd.DataFrame({"count": c["count"].astype(np.int64), "belief": c["belief_sum"] / c["count"],
                              "exact": c["exact_sum"] / c["count"], "known_safe": c["known_safe"].astype(np.int64),
                              "known_mine": c["known_mine"].astype(np.int64)}, index=c.index)
        else:
            raise ValueError(f"which must be 'chosen' or 'all', got {which!r}")
        t.index.name = "bin"
        t = t.reset_index()
        t["bin_label"] = t["bin"].map(bin_label)
        return t


def _bin_of(qv: float) -> int:
    return int(belief_bin(float(qv)))


def bin_label(b: int) -> str:
    if b == 0:
        return "Q = -1"
    if b == N_BINS - 1:
        return "Q = 1"
    lo = (b - 1) / 20
    return f"{lo:.2f}-{lo + 0.05:.2f}"


@with_openings
def audit(agent, board="8x8x10", episodes: int = 1_000, seed: int = 0, *, opening: str = "reference", first=None,
          learn: bool = False, budget: int = NODE_BUDGET, chunk: int | None = None, progress: bool = False) -> Audit:
    """Play ``episodes`` games of ``agent`` on ``board`` and audit every decision against the exact
    probabilities.

    The games are those of :func:`sweeper.evaluate` with the same seed: with
    ``learn=False`` (default) those of ``evaluate(agent, board, episodes, seed, freeze=True)``, with
    ``learn=True`` those of ``train(agent.copy(), board, episodes, seed)`` (the same loop plays them,
    :func:`sweeper.agents.loop.play_games`, with a probe that only watches). ``agent`` itself never
    changes. Every agent kind is audited, a plug-in rule included; the state-action agent's decisions and
    games are recorded, but it has no window values for the candidates' calibration table.

    Parameters
    ----------
    agent : Agent or str
        The agent (a copy plays) or a spec such as ``"greedy"`` (see :func:`~sweeper.agents.kinds.make_agent`).
    board : str or Setting, default "8x8x10"
        One board setting: ``"8x8x10"`` (rows x cols x mines), a preset name or a
        :class:`~sweeper.game.engine.Setting`.
    episodes : int, default 1000
        The number of games to audit (a non-negative integer).
    seed : int, default 0
        The seed, in ``[0, 2**64)``: the games are those of :func:`sweeper.evaluate` with this seed.
    opening : str, default "reference"
        The opening: {openings}.
    first : tuple of int, optional
        ``(row, col)`` of the first click for the {first_openings} openings.
    learn : bool, default False
        False audits the agent as trained (frozen); True lets the copy learn, as in training.
    budget : int, default 1000000
        The exact solver's budget per group of tiles, a positive integer (see
        :func:`~sweeper.running.players.play_solver`); the groups abandoned are counted in ``fallbacks``.
    chunk : int, optional
        Games per kernel call (see :func:`~sweeper.running.training.play`; the result does not depend on it).
    progress : bool, default False
        Show a progress bar.

    Returns
    -------
    Audit
        ``decisions``: one row per decision (``game``, ``decision``, the target ``row`` and ``col``,
        ``action``, ``q``, ``n``, ``belief`` = (Q + 1) / 2, the target's ``exact`` probability, the
        ``lowest`` probability on offer, ``safe_known``, the tile clicked (``clicked_row``, ``clicked_col``,
        ``clicked_exact``), ``exploded``, ``flag_removed``, ``best`` and ``regret``); ``games``: one row per
        game (``game``, ``won``, ``cause`` of a loss, ``by_removal``, ``decisions``); ``candidate_bins``,
        ``fallbacks``, ``seconds`` and ``win_rate``; ``losses()`` and ``calibration(which)`` tabulate them.

    Raises
    ------
    ValueError
        If ``agent`` is not an agent or a valid spec; the board setting does not parse or cannot hold its
        mines; ``episodes`` is not a non-negative integer; ``seed`` is not an integer in ``[0, 2**64)``;
        ``budget`` is not a positive integer; ``opening`` or ``first`` is invalid; ``learn`` or
        ``progress`` is not a bool; ``chunk`` is not None or an integer >= 1; or the state-action agent is
        given a board of more than 16 tiles.
    RuleError
        If a plug-in rule fails (:class:`~sweeper.agents.custom.RuleError`).
    """
    if not isinstance(agent, Agent):
        agent = make_agent(agent)
    setting = Setting.parse(board)
    episodes = check_episodes(episodes)
    recorder = Recorder(rows=True, budget=budget)
    run = play(agent.copy(), setting, episodes, seed, learn=learn, opening=opening, first=first, progress=progress,
               calls=KernelCalls(chunk, recorder))
    decisions, gframe, cb = _audit_frames(recorder, setting, episodes)
    return Audit(agent.name, str(setting), opening, run.seed, decisions, gframe, cb, recorder.fallbacks, run.seconds)


def _audit_frames(recorder: "Recorder", setting: Setting, episodes: int):
    """The audit's three frames from a recorder that watched ``episodes`` games of ``setting``: every decision,
    every game with the cause of its loss, and the calibration bins."""
    di, dfl = recorder.decision_arrays()
    gi, _ = recorder.game_arrays(episodes)
    r, c = tile_of(di[:, D_TILE], setting.cols)
    cr, cc = tile_of(di[:, D_CLICKED], setting.cols)
    clicked = di[:, D_CLICKED] >= 0
    flag = di[:, D_FLAG] != 0
    exact = dfl[:, F_EXACT]
    decisions = pd.DataFrame({
        "game": di[:, D_GAME], "decision": di[:, D_NUM], "row": r, "col": c,
        "action": np.where(flag, "flag", "click"),
        "q": dfl[:, F_Q], "n": di[:, D_N], "belief": (dfl[:, F_Q] + 1) / 2, "exact": exact,
        "lowest": dfl[:, F_LOWEST], "safe_known": di[:, D_SAFE_KNOWN].astype(bool),
        "clicked_row": np.where(clicked, cr, -1), "clicked_col": np.where(clicked, cc, -1),
        "clicked_exact": dfl[:, F_CLICKED_EXACT], "exploded": di[:, D_EXPLODED].astype(bool),
        "flag_removed": di[:, D_REMOVED] >= 0,
        "best": dfl[:, F_BEST],
        "regret": np.maximum(dfl[:, F_BEST] - np.where(flag, exact, 1.0 - exact), 0.0),
    })
    gframe = pd.DataFrame({"game": np.arange(episodes), "won": gi[:, 0].astype(bool),
                           "cause": pd.Categorical.from_codes(gi[:, 1], categories=list(CAUSES)),
                           "by_removal": gi[:, 2].astype(bool), "decisions": gi[:, 3]})
    cb = pd.DataFrame(recorder.cbins, columns=["count", "belief_sum", "exact_sum", "known_safe", "known_mine"])
    cb.index.name = "bin"
    return decisions, gframe, cb


def find_episode(agent, cause: str, board="8x8x10", seeds=range(500), *, learn: bool = False):
    """The first seed's game whose outcome has the given cause (e.g. ``"missed a safe tile"``), as
    an :class:`~sweeper.running.episode.Episode` played with exact probabilities (frozen by default).

    Each seed's cause comes from :func:`audit` of its one game, which is the game the episode
    then replays (same kernels, same seed)."""
    from .episode import Episode
    if cause not in CAUSES:
        raise ValueError(f"cause must be one of {CAUSES}, got {cause!r}")
    for s in seeds:
        if str(audit(agent, board, 1, seed=s, learn=learn).games["cause"].iloc[0]) == cause:
            return Episode(agent, board, seed=s, learn=learn, exact=True).play()
    raise ValueError(f"no game with cause {cause!r} among the seeds given")
