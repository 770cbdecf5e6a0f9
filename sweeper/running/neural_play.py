"""Playing and training the neural bandit (:mod:`sweeper.agents.neural`): many games at once, on the engine.

:func:`train_neural` trains a network online (how: :class:`NeuralLearning`), :func:`evaluate_neural` plays its
greedy test games (they change nothing), :func:`calibration` and :func:`decisions` measure its P(mine) and its
clicks against the exact probabilities. Both players are one loop, the batched player (:class:`_Batch`):
``batch`` games in progress at once, each on its own row of stacked engine arrays, dealt and clicked by the
engine's kernels (nothing here deals, opens or reveals by itself); at each step the network reads the views of
every game in progress in one forward pass and each game clicks its covered tile of lowest predicted P(mine).
Boards are dealt from one stream in the order games start, so game ``i`` of a run with seed ``s`` is the
``i``-th board of ``s``'s board stream: the very boards of ``play_solver(board, games, seed=s)`` and
``play_random`` (so the solver's and the network's games pair up). What a run returns: :class:`NeuralRun`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numba import njit

from ..agents.neural import NeuralAgent, as_neural, lowest, require_torch
from ..agents.oracle import EPS
from ..checks import boolean, whole
from ..game.engine import ONGOING, REV, ST, WON, Board, Game, Setting, check_layout, click, new_board, new_game
from ..game.grid import COVERED, turned
from ..game.probability import mine_probabilities
from ..rng import below, check_seed, make_state, neural_generator, STREAM_AGENT, STREAM_BOARDS, uniform

#: Games in progress at once by default: while learning, and in test games (test games are the same whatever the
#: batch: :data:`~sweeper.agents.neural.PLAY_ROWS`).
TRAIN_BATCH = 64
TEST_BATCH = 256


# ------------------------------------------------------------ the kernels --

def stacked_boards(setting: Setting, opening: str, count: int) -> Board:
    """``count`` games' engine arrays in one :class:`~sweeper.game.engine.Board` bundle: the setting's arrays
    shared, every per-cell array and the counters with one row per game (opening validated by ``new_board``)."""
    one = new_board(setting, opening)
    shared = one[:4]
    return Board(*shared, *(np.tile(a, (count, 1)) for a in one[4:]))


@njit(cache=True)
def _row(bb, g):
    """The :class:`Board` of game row ``g`` of a stacked bundle (views of its rows, no copy)."""
    return Board(bb.geo, bb.tiles, bb.off8, bb.off9, bb.mine[g], bb.cnt[g], bb.shown[g], bb.flg[g], bb.dirty[g],
                 bb.dlist[g], bb.stack[g], bb.pool[g], bb.gs[g])


@njit(cache=True)
def _deal(bb, g, rng, layout):
    """Deal row ``g`` the next board of ``rng`` (or ``layout``) with the engine's ``new_game``; returns its status."""
    b = _row(bb, g)
    new_game(b, rng, layout)
    return b.gs[ST]


@njit(cache=True)
def _click_each(bb, slots, picks):
    """Click padded tile ``picks[i]`` on row ``slots[i]`` with the engine's ``click``, for every ``i``."""
    for i in range(slots.shape[0]):
        b = _row(bb, slots[i])
        click(b, picks[i])


@njit(cache=True)
def _explore(views, picks, epsilon, rng):
    """With probability ``epsilon`` (one ``uniform`` draw per view, in order) replace view ``i``'s pick by a
    uniformly random covered tile (``below``); ``views`` flat ``(n, tiles)``, ``picks`` flat indices."""
    for i in range(views.shape[0]):
        if uniform(rng) < epsilon:
            covered = 0
            for j in range(views.shape[1]):
                covered += views[i, j] == COVERED
            k = below(rng, covered)
            for j in range(views.shape[1]):
                if views[i, j] == COVERED:
                    if k == 0:
                        picks[i] = j
                        break
                    k -= 1


# --------------------------------------------------------------- the run --

@dataclass
class NeuralRun:
    """What :func:`train_neural` or :func:`evaluate_neural` played: the agent, one row per game, and the totals.

    ``records`` has one row per game in the order the games ended: ``game`` (its board's index in the seed's
    board stream), ``won``, ``decisions`` (clicks after the opening), ``revealed`` (share of safe tiles revealed),
    ``updates`` (gradient steps so far) and ``cpu_seconds`` (the process CPU time since the call began);
    :func:`learning_curve` sums them per block of games. ``layouts`` and ``moves`` (with ``record=True``): each
    game's mine layout and its clicks (flat indices ``r * cols + c``), in the order of ``records``.
    ``snapshots`` (training with ``snapshots=``): one dict per point of the budget asked for, with a copy of the
    agent then (``agent``) and the ``games``, ``decisions``, ``updates`` and ``cpu_seconds`` so far. ``online``
    (training with weight averaging, :class:`NeuralLearning`'s ``average``): a copy of the network with its own
    last weights, those the averaged ones replaced in ``agent`` at the end."""

    agent: NeuralAgent
    setting: Setting
    seed: int
    opening: str
    learn: bool
    records: pd.DataFrame
    cpu_seconds: float
    wall_seconds: float
    updates: int
    layouts: list | None = None
    moves: list | None = None
    snapshots: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    online: NeuralAgent | None = None

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> int:
        return int(self.records["won"].sum())

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")

    @property
    def decisions(self) -> int:
        return int(self.records["decisions"].sum())

    def summary(self) -> dict:
        """Games, wins, win rate, decisions, gradient steps, and the speeds per CPU second."""
        cpu = max(self.cpu_seconds, 1e-9)
        return {"agent": self.agent.name, "board": str(self.setting), "opening": self.opening, "seed": self.seed,
                "learning": self.learn, "games": self.games, "wins": self.wins, "win_rate": self.win_rate,
                "decisions": self.decisions, "updates": self.updates, "cpu_seconds": self.cpu_seconds,
                "wall_seconds": self.wall_seconds, "games_per_cpu_second": self.games / cpu,
                "decisions_per_cpu_second": self.decisions / cpu, **self.extra}


def learning_curve(records: pd.DataFrame, block: int) -> pd.DataFrame:
    """Per block of ``block`` games (in the order they ended; the last may be shorter): ``games`` so far,
    ``block_games``, ``block_wins``, ``block_win_rate``, ``decisions`` and ``updates`` so far, ``cpu_seconds`` at
    the block's end."""
    block = whole(block, "block", 1)
    n = len(records)
    ends = np.minimum(np.arange(block, n + block, block), n) if n else np.zeros(0, np.int64)
    starts = np.concatenate([[0], ends[:-1]]).astype(np.int64)
    won = records["won"].to_numpy()
    wins = np.array([won[a:b].sum() for a, b in zip(starts, ends)], dtype=np.int64)
    dec = np.cumsum(records["decisions"].to_numpy())
    return pd.DataFrame({"games": ends, "block_games": ends - starts, "block_wins": wins,
                         "block_win_rate": wins / np.maximum(ends - starts, 1),
                         "decisions": dec[ends - 1] if n else [], "updates": records["updates"].to_numpy()[ends - 1]
                         if n else [], "cpu_seconds": records["cpu_seconds"].to_numpy()[ends - 1] if n else []})


class _Replay:
    """The last ``capacity`` labelled decisions: views and mine layouts (1 a mine, 0 not), a ring."""

    def __init__(self, capacity, rows, cols):
        self.views = np.zeros((capacity, rows, cols), np.int8)
        self.mines = np.zeros((capacity, rows, cols), np.uint8)
        self.size = self.head = 0

    def add(self, views, mines):
        """A game's views, in order, each labelled by the game's ``mines`` (the oldest overwritten when full)."""
        cap = self.views.shape[0]
        views = views[-cap:]
        at = (self.head + np.arange(len(views))) % cap
        self.views[at] = views
        self.mines[at] = mines
        self.head = (self.head + len(views)) % cap
        self.size = min(self.size + len(views), cap)


def _number(value, name, lo, hi, lo_open=False):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or not (lo < value if lo_open else lo <= value) or value > hi:
        raise ValueError(f"{name} must be a number in {'(' if lo_open else '['}{lo}, {hi}], got {value!r}")
    return float(value)


@dataclass(frozen=True)
class NeuralLearning:
    """How :func:`train_neural` learns: every decision's view is kept until its game ends; the game's mine layout
    then labels it (the delayed label the paper's agent learns from: the whole layout, so every covered tile of
    the view is labelled), and the labelled views enter a replay buffer (the last ``capacity`` decisions). Once
    the buffer holds ``warmup`` decisions, the network takes one Adam step (learning rate ``lr``) on a minibatch
    of ``minibatch`` views drawn uniformly from the buffer each time ``minibatch / replay`` new decisions have been
    made (so ``replay`` is the views trained on per decision played): binary cross-entropy of the logits against
    the mines, on the covered tiles of each view. While learning, the agent's ``epsilon`` explores (a uniformly
    random covered tile, drawn on the seed's agent stream).

    The defaults, 16 views per 16 decisions at 0.001, are the first stored networks' learning; the runs of
    ``ext:neural_beginner``, ``ext:neural_intermediate`` and ``ext:neural_expert`` start with them for 150 CPU
    seconds on beginner, then take 128 views per 256 decisions (``ext:neural_levers`` measures both).

    Attributes
    ----------
    batch : int
        Games in progress at once (64): the order in which the games' views reach the buffer, so another batch
        trains another network.
    minibatch : int
        Views per Adam step (16).
    replay : float
        Views trained on per decision played, in (0, 10^4] (1).
    lr : float
        Adam's learning rate, in (0, 1] (0.001).
    capacity : int
        Decisions the replay buffer keeps (10^5).
    warmup : int
        Decisions in the buffer before the first step (1,000; at most ``capacity`` are waited for).
    symmetries : bool
        Turn each view of a minibatch (and its mines) by one of the board's symmetries drawn for it (the 8 of a
        square board: rotations and reflections; the 4 flips of others), so the network sees every orientation of
        a pattern (off by default).
    interior_weight : float
        The loss's weight, in [0, 1], of covered tiles with no revealed neighbour, whose label says little but
        the mine density, against the frontier's (1: every covered tile alike).
    average : float
        Weight averaging, in [0, 1): after each Adam step the averaged weights become ``average`` times themselves
        plus ``1 - average`` times the network's new weights (an exponential moving average that starts from the
        weights the run began with); the training games are played by the network's own weights, and when the
        run ends (and at each snapshot) the agent's network holds the averaged ones. 0 (the default): no
        averaging, the last weights. With 0.99 the average spans about the last 100 steps.

    Raises
    ------
    ValueError
        For a number out of its range, or ``symmetries`` not a bool.
    """

    batch: int = TRAIN_BATCH
    minibatch: int = 16
    replay: float = 1.0
    lr: float = 1e-3
    capacity: int = 100_000
    warmup: int = 1_000
    symmetries: bool = False
    interior_weight: float = 1.0
    average: float = 0.0

    def __post_init__(self):
        checked = {"batch": whole(self.batch, "batch", 1), "minibatch": whole(self.minibatch, "minibatch", 1),
                   "replay": _number(self.replay, "replay", 0.0, 1e4, True),
                   "lr": _number(self.lr, "lr", 0.0, 1.0, True), "capacity": whole(self.capacity, "capacity", 1),
                   "warmup": whole(self.warmup, "warmup", 1), "symmetries": boolean(self.symmetries, "symmetries"),
                   "interior_weight": _number(self.interior_weight, "interior_weight", 0.0, 1.0),
                   "average": _number(self.average, "average", 0.0, 1.0)}
        if checked["average"] == 1.0:
            raise ValueError("average must be a number in [0, 1) (1 would keep the first weights), got 1.0")
        for name, value in checked.items():
            object.__setattr__(self, name, value)


class _Learner:
    """The learning of the batched player (:class:`NeuralLearning`): the views of each game in progress kept until
    it ends, then labelled by its mines into the replay buffer; Adam steps on minibatches drawn from the buffer."""

    def __init__(self, agent, setting, rows, gen, learning: NeuralLearning):
        self.torch = require_torch()
        R, C = setting.rows, setting.cols
        self.agent, self.gen = agent, gen
        self.symmetries = (8 if R == C else 4) if learning.symmetries else 1
        self.mines = agent.counter(setting.mines)
        self.interior_weight = learning.interior_weight
        self.pend = np.zeros((rows, R * C + 1, R, C), np.int8)
        self.buf = _Replay(learning.capacity, R, C)
        self.opt = self.torch.optim.Adam(agent.net.parameters(), lr=learning.lr)
        self.minibatch, self.replay = learning.minibatch, learning.replay
        self.warmup = min(learning.warmup, learning.capacity)
        self.credit = 0.0
        self.updates = 0
        self.average = learning.average
        self.averaged = [p.detach().clone() for p in agent.net.parameters()] if self.average else None

    def averaged_into(self, agent):
        """``agent`` (the learning agent or a copy of it) with the averaged weights, when averaging; else as it is."""
        if self.averaged is not None:
            with self.torch.no_grad():
                for q, p in zip(self.averaged, agent.net.parameters(), strict=True):
                    p.copy_(q)
        return agent

    def keep(self, act, ndec, views):
        """The views of the games on rows ``act``, decision ``ndec[act]`` of each."""
        self.pend[act, ndec[act]] = views

    def label(self, g, n, mines):
        """The game on row ``g`` ended after ``n`` decisions with these ``mines``: into the buffer."""
        if n:
            self.buf.add(self.pend[g, :n], mines)

    def learn(self, played):
        """The Adam steps that ``played`` more decisions make due (none until the buffer holds ``warmup``)."""
        if self.buf.size < self.warmup:
            return
        self.credit += self.replay * played
        while self.credit >= self.minibatch:
            self.credit -= self.minibatch
            self.step()

    def step(self):
        """One Adam step on ``minibatch`` views drawn uniformly from the buffer (each turned by a symmetry of the
        board drawn for it, with ``symmetries``): BCE on their covered tiles (those with no revealed neighbour
        weighted ``interior_weight``)."""
        torch, buf = self.torch, self.buf
        idx = self.gen.integers(0, buf.size, self.minibatch)
        v, m = buf.views[idx], buf.mines[idx]
        if self.symmetries > 1:
            turns = self.gen.integers(0, self.symmetries, self.minibatch)
            v = np.stack([turned(a, k) for a, k in zip(v, turns)])
            m = np.stack([turned(a, k) for a, k in zip(m, turns)])
        covered = torch.from_numpy(v == COVERED)
        logits = self.agent.logits(v, pad=False, mines=self.mines, symmetric=False)[covered]
        mines = torch.from_numpy(m).float()[covered]
        if self.interior_weight == 1.0:
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, mines)
        else:
            shown = (~covered).float()[:, None]
            frontier = torch.nn.functional.max_pool2d(shown, 3, 1, 1)[:, 0][covered] > 0
            w = torch.where(frontier, 1.0, self.interior_weight)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, mines, weight=w,
                                                                        reduction="sum") / w.sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        if self.averaged is not None:
            with torch.no_grad():
                for q, p in zip(self.averaged, self.agent.net.parameters()):
                    q.mul_(self.average).add_(p.detach(), alpha=1.0 - self.average)
        self.updates += 1


@dataclass(frozen=True)
class _Budget:
    """When the batched player deals no more games, and when it keeps a copy of the agent: after ``games`` games,
    or once ``decisions`` decisions have been made (counted work either way: the games in progress are finished,
    and where a run stops never depends on the machine); ``snapshots``, increasing points in ``snapshots_in``:
    ``"budget"`` (the budget's unit: games, or decisions) or ``"decisions"``."""

    games: int | None
    decisions: int | None = None
    snapshots: tuple = ()
    snapshots_in: str = "budget"


class _Batch:
    """The batched player, the one loop of training and test games (see the module docstring): ``batch`` games in
    progress at once, each on its own row of a stacked :class:`~sweeper.game.engine.Board`, dealt by the engine's
    ``new_game`` kernel and clicked by its ``click`` kernel (:func:`_deal`, :func:`_click_each`, which only call
    them on one row). A finished game's row is dealt the next board at once. It learns with ``learning`` (a
    :class:`NeuralLearning`); without, it plays greedy test games."""

    def __init__(self, agent, setting, seed, budget, *, opening, batch, record, learning, layouts):
        self.cpu0, self.wall0 = time.process_time(), time.perf_counter()
        self.agent, self.setting, self.seed, self.budget, self.opening = agent, setting, seed, budget, opening
        self.record, self.layouts = record, layouts
        games = budget.games
        self.limit = games if games is not None else math.inf
        rows = max(int(min(batch, games)) if games is not None else batch, 1)
        self.bb = stacked_boards(setting, opening, rows)
        self.shown = self.bb.shown.reshape(rows, setting.rows + 2, setting.cols + 2)
        self.rng_b, self.rng_a = make_state(seed, STREAM_BOARDS), make_state(seed, STREAM_AGENT)
        gen = neural_generator(seed)
        gen.integers(2 ** 63)  # the draw that seeds a fresh agent's weights (NeuralAgent); the minibatches come after
        self.empty = np.zeros(0, np.uint8)
        self.slot_game, self.ndec = np.full(rows, -1, np.int64), np.zeros(rows, np.int64)
        self.learner = _Learner(agent, setting, rows, gen, learning) if learning is not None else None
        self.moves = [[] for _ in range(rows)] if record else None
        self.rec = []
        self.out_layouts, self.out_moves = ([], []) if record else (None, None)
        self.started, self.decisions = 0, 0
        self.due, self.taken = list(budget.snapshots), []

    @property
    def updates(self) -> int:
        return self.learner.updates if self.learner is not None else 0

    def finish(self, g):
        """Record the game that ended on row ``g`` (and label its views, when learning)."""
        bb, s = self.bb, self.setting
        won = bool(bb.gs[g, ST] == WON)
        mines = bb.mine[g].reshape(s.rows + 2, s.cols + 2)[1:-1, 1:-1]
        self.rec.append((self.slot_game[g], won, int(self.ndec[g]), int(bb.gs[g, REV]) / (s.tiles - s.mines),
                         self.updates, time.process_time() - self.cpu0))
        if self.learner is not None:
            self.learner.label(g, self.ndec[g], mines)
        if self.record:
            self.out_layouts.append(mines.astype(bool))
            self.out_moves.append(np.array(self.moves[g], np.int64))

    def deal(self, g):
        """Deal row ``g`` its next game (finishing at once those the opening ends); -1 when no more are due."""
        most = self.budget.decisions
        while self.started < self.limit and (most is None or self.decisions < most):
            self.slot_game[g], self.ndec[g] = self.started, 0
            self.started += 1
            if self.record:
                self.moves[g] = []
            layout = self.empty if self.layouts is None else self.layouts[self.started - 1]
            if _deal(self.bb, g, self.rng_b, layout) == ONGOING:
                return
            self.finish(g)
        self.slot_game[g] = -1

    def step(self, torch) -> bool:
        """One click of every game in progress (False: none is left)."""
        act = np.flatnonzero(self.slot_game >= 0)
        if act.size == 0:
            return False
        agent, learner, bb = self.agent, self.learner, self.bb
        views = self.shown[act, 1:-1, 1:-1]
        with torch.inference_mode():
            # while learning, one forward pass per view (a symmetric agent's mean is for its frozen play)
            logits = agent.logits(views, mines=agent.counter(self.setting.mines),
                                  symmetric=False if learner is not None else None)
            picks = lowest(logits, views)
        if learner is not None:
            if agent.epsilon > 0:
                _explore(views.reshape(act.size, self.setting.tiles), picks, agent.epsilon, self.rng_a)
            learner.keep(act, self.ndec, views)
        if self.record:
            for i, g in enumerate(act):
                self.moves[g].append(int(picks[i]))
        self.ndec[act] += 1
        self.decisions += act.size
        _click_each(bb, act, bb.tiles[picks])
        for g in act[bb.gs[act, ST] != ONGOING]:
            self.finish(g)
            self.deal(g)
        self.snapshot()
        if learner is not None:
            learner.learn(act.size)
        return True

    def snapshot(self):
        """Keep a copy of the agent at each point of the budget reached since the last step."""
        b = self.budget
        while self.due and (len(self.rec) if b.snapshots_in == "budget" and b.games is not None
                            else self.decisions) >= self.due[0]:
            self.taken.append({"at": self.due.pop(0), "games": len(self.rec), "decisions": self.decisions,
                               "updates": self.updates, "cpu_seconds": time.process_time() - self.cpu0,
                               "agent": self._kept()})

    def _kept(self):
        """A copy of the agent as a snapshot keeps it (with the averaged weights, when the learning averages)."""
        copy = self.agent.copy()
        return self.learner.averaged_into(copy) if self.learner is not None else copy

    def run(self, torch) -> NeuralRun:
        """Play every game of the budget: the :class:`NeuralRun`, its totals added to a learning agent's."""
        for g in range(self.slot_game.shape[0]):
            self.deal(g)
        learn = self.learner is not None
        agent = self.agent
        agent.net.train(learn)
        while self.step(torch):
            pass
        agent.net.train(False)
        records = pd.DataFrame(self.rec, columns=["game", "won", "decisions", "revealed", "updates", "cpu_seconds"])
        if learn:
            agent.games += len(records)
            agent.decisions += self.decisions
            agent.updates += self.updates
            if str(self.setting) not in agent.boards:
                agent.boards.append(str(self.setting))
        online = None
        if learn and self.learner.averaged is not None:  # the own last weights, with the same totals
            online = agent.copy()
            self.learner.averaged_into(agent)
        return NeuralRun(agent, self.setting, self.seed, self.opening, learn, records, time.process_time() - self.cpu0,
                         time.perf_counter() - self.wall0, self.updates, self.out_layouts, self.out_moves, self.taken,
                         online=online)


def _play(agent: NeuralAgent, setting: Setting, seed: int, budget: _Budget, *, opening: str, batch: int,
          record: bool, learning: NeuralLearning | None = None, layouts=None) -> NeuralRun:
    """Training games (with ``learning``) or greedy test games, by the batched player (:class:`_Batch`)."""
    torch = require_torch()
    return _Batch(agent, setting, seed, budget, opening=opening, batch=batch, record=record, learning=learning,
                  layouts=layouts).run(torch)


def train_neural(agent=None, board="8x8x10", games: int | None = None, seed: int = 0, *,
                 decisions: int | None = None, opening: str = "reference", learning: NeuralLearning | None = None,
                 record: bool = False, snapshots=(), snapshots_in: str = "budget") -> NeuralRun:
    """Train a neural bandit online on ``board``, many games at once (see the module docstring).

    Parameters
    ----------
    agent : NeuralAgent or None
        The network, trained in place; ``None``: a new ``NeuralAgent(seed=seed)``.
    board : str or Setting
        The board, e.g. ``"8x8x10"`` or ``"expert"``.
    games, decisions : int
        The budget, exactly one of them, counted work: games, or decisions (new games are dealt until the run has
        made that many decisions, clicks after the opening; the games in progress are finished, so a run makes a
        few more). Either way the same seed gives the same network and games, bit for bit, on one thread, on any
        machine and under any load; the gradient steps follow from the decisions and the ``learning``.
    seed : int
        The run's seed: its boards, minibatches and exploration.
    opening : str
        The opening rule (``"reference"``, the paper's, by default).
    learning : NeuralLearning, optional
        How it learns: the games in progress at once, the replay buffer, the minibatches and Adam's steps, the
        options; None: ``NeuralLearning()``, the defaults.
    record : bool
        Keep each game's mine layout and clicks (``run.layouts``, ``run.moves``).
    snapshots : list of float
        Increasing points of the budget (games, or decisions; decisions with ``snapshots_in="decisions"`` whatever
        the budget) at which a copy of the agent is kept, with the games, decisions, gradient steps and CPU seconds
        then (``run.snapshots``), taken once a step of the batched player has reached the point.
    snapshots_in : {"budget", "decisions"}
        The unit of ``snapshots``.

    Returns
    -------
    NeuralRun
        One record per game in the order the games ended, the trained agent and the run's totals.

    Raises
    ------
    ValueError
        For a budget that is not exactly one of ``games`` and ``decisions``, an unknown board or opening, an
        agent that is not a ``NeuralAgent``, a ``learning`` that is not a ``NeuralLearning``, a number out of its
        range, or snapshots that do not increase.
    """
    if agent is None:
        agent = NeuralAgent(seed=check_seed(seed))
    agent = as_neural(agent)
    if (games is None) == (decisions is None):
        raise ValueError("give exactly one budget, in counted work: games or decisions")
    if games is not None:
        games = whole(games, "games", 0)
    else:
        decisions = whole(decisions, "decisions", 1)
    setting = Setting.parse(board)
    learning = NeuralLearning() if learning is None else learning
    if not isinstance(learning, NeuralLearning):
        raise ValueError(f"learning must be a NeuralLearning (or None for its defaults), got {learning!r}")
    if isinstance(snapshots, (str, bytes)) or not hasattr(snapshots, "__iter__"):
        raise ValueError(f"snapshots must be a list of points of the budget, got {snapshots!r}")
    snapshots = [_number(v, "a snapshot", 0.0, 1e12, lo_open=True) for v in snapshots]
    if snapshots != sorted(set(snapshots)):
        raise ValueError(f"snapshots must increase, got {snapshots}")
    if snapshots_in not in ("budget", "decisions"):
        raise ValueError(f"snapshots_in must be 'budget' or 'decisions', got {snapshots_in!r}")
    return _play(agent, setting, check_seed(seed), _Budget(games, decisions, tuple(snapshots), snapshots_in),
                 opening=opening, batch=learning.batch, record=boolean(record, "record"), learning=learning)


def evaluate_neural(agent, board="8x8x10", games: int | None = 1_000, seed: int = 0, *, opening: str = "reference",
                    batch: int = TEST_BATCH, record: bool = False, layouts=None) -> NeuralRun:
    """Test games: the network plays greedily and learns nothing (the agent is unchanged).

    Parameters
    ----------
    agent : NeuralAgent
        The network.
    board : str or Setting
        The board.
    games : int or None
        Games to play: the boards of ``play_solver(board, games, seed=seed)`` (so the solver's games pair up);
        with ``layouts``, None or their number.
    seed : int
        The boards' seed.
    opening : str
        The opening rule (``"reference"``).
    batch : int
        Games in progress at once (256; the games and clicks are the same for any batch).
    record : bool
        Keep each game's mine layout and clicks (``run.layouts``, ``run.moves``).
    layouts : sequence of 2-D boolean arrays, optional
        The mine layouts to play, one game each, in order (they must agree with the opening).

    Returns
    -------
    NeuralRun
        One record per game, with the totals and the CPU time.

    Raises
    ------
    ValueError
        For an agent that is not a ``NeuralAgent``, an unknown board or opening, a layout that does not fit the
        board or the opening, or ``games`` that disagrees with the number of layouts.
    """
    agent = as_neural(agent)
    setting = Setting.parse(board)
    lay = None
    if layouts is not None:
        if games is not None and whole(games, "games", 0) != len(layouts):
            raise ValueError(f"games ({games:,}) must be the number of layouts given ({len(layouts):,}), or None")
        games = len(layouts)
        lay = [check_layout(m, setting, opening, None) for m in layouts]
    return _play(agent, setting, check_seed(seed), _Budget(whole(games, "games", 0)), opening=opening,
                 batch=whole(batch, "batch", 1), record=boolean(record, "record"), layouts=lay)


# ------------------------------------------------------------ calibration --

def replay_views(setting: Setting, layout, moves, opening: str = "reference") -> tuple[list, str]:
    """Replay one game through the engine's :class:`~sweeper.game.engine.Game` (``mines=layout``): the view
    before each click, and the final status."""
    g = Game(setting, mines=layout, opening=opening)
    views = []
    for m in moves:
        if g.status != "ongoing":
            raise ValueError("the moves go on after the game ended")
        views.append(g.view)
        g.click(*divmod(int(m), setting.cols))
    return views, g.status


def calibration(agent, board="8x8x10", games: int | None = 100, seed: int = 0, *, opening: str = "reference",
                layouts=None) -> pd.DataFrame:
    """The network's P(mine) against the exact probabilities (:func:`~sweeper.game.probability.mine_probabilities`)
    on every covered tile of every decision of ``games`` greedy test games (the boards of
    ``evaluate_neural(agent, board, games, seed, layouts=layouts)``, replayed through the engine): one row per
    covered tile with ``game``, ``decision``, ``tile`` (flat index), ``net``, ``exact``, ``chosen`` (the tile
    clicked) and ``mine``."""
    agent = as_neural(agent)
    setting = Setting.parse(board)
    run = evaluate_neural(agent, setting, games, seed, opening=opening, record=True, layouts=layouts)
    parts = []
    for i, (layout, moves) in enumerate(zip(run.layouts, run.moves)):
        views, _ = replay_views(setting, layout, moves, opening)
        if not views:
            continue
        net = agent.probabilities(np.stack(views), mines=agent.counter(setting.mines))
        for d, (v, p) in enumerate(zip(views, net)):
            cov = np.flatnonzero(v.ravel() == COVERED)
            exact = mine_probabilities(v, setting.mines).ravel()
            parts.append(pd.DataFrame({"game": int(run.records["game"].iloc[i]), "decision": d, "tile": cov,
                                       "net": p.ravel()[cov], "exact": exact[cov], "chosen": cov == moves[d],
                                       "mine": layout.ravel()[cov]}))
    cols = ["game", "decision", "tile", "net", "exact", "chosen", "mine"]
    return pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)


def calibration_table(cal: pd.DataFrame, bins: int = 10) -> pd.DataFrame:
    """:func:`calibration`'s rows binned by the network's P(mine) (``bins`` equal bins of [0, 1]): per bin the
    tiles, the mean prediction, the mean exact probability and the share that were mines."""
    bins = whole(bins, "bins", 1)
    b = np.minimum((cal["net"].to_numpy() * bins).astype(np.int64), bins - 1)
    g = cal.assign(bin=b).groupby("bin")
    out = g.agg(tiles=("net", "size"), net=("net", "mean"), exact=("exact", "mean"), mines=("mine", "mean"))
    out.index = [f"{k / bins:.2f}-{(k + 1) / bins:.2f}" for k in out.index]
    return out


def decisions(cal: pd.DataFrame) -> pd.DataFrame:
    """:func:`calibration`'s rows summed per decision: ``game``, ``decision``, ``covered`` (tiles on offer),
    ``tile`` (the one clicked), ``net`` and ``exact`` (its predicted and exact P(mine)), ``best`` (the lowest exact
    P(mine) on offer: the exact oracle's click), ``sure`` (a tile proven safe was on offer: ``best`` is 0),
    ``regret`` (``exact - best``: how much likelier the click was to hit a mine than the oracle's) and ``missed``
    (a proven-safe tile was on offer and the click was not proven safe). The network only clicks, so the oracle
    here is the best click."""
    cols = ["game", "decision", "covered", "tile", "net", "exact", "best", "sure", "regret", "missed"]
    if cal.empty:
        return pd.DataFrame(columns=cols)
    g = cal.groupby(["game", "decision"], sort=True)
    out = g.agg(covered=("tile", "size"), best=("exact", "min"))
    chosen = cal[cal["chosen"]].set_index(["game", "decision"])[["tile", "net", "exact"]]
    out = out.join(chosen, how="left").reset_index()
    out["sure"] = out["best"] <= EPS
    out["regret"] = out["exact"] - out["best"]
    out["missed"] = out["sure"] & (out["exact"] > EPS)
    return out[cols]


def decision_quality(dec: pd.DataFrame) -> dict:
    """Rates over :func:`decisions`' rows: ``decisions``, ``sure_share`` (decisions with a proven-safe tile on
    offer), ``missed_per_sure`` (of those, the share where another tile was clicked), ``regret_per_decision``
    (mean of ``regret``) and ``regret_per_guess`` (its mean where nothing was proven safe)."""
    n = len(dec)
    sure = dec["sure"].to_numpy(bool) if n else np.zeros(0, bool)
    nan = float("nan")
    return {"decisions": n, "sure_share": float(sure.mean()) if n else nan,
            "missed_per_sure": float(dec["missed"].to_numpy(bool)[sure].mean()) if sure.any() else nan,
            "regret_per_decision": float(dec["regret"].mean()) if n else nan,
            "regret_per_guess": float(dec["regret"].to_numpy()[~sure].mean()) if (~sure).any() else nan}


__all__ = ["NeuralRun", "NeuralLearning", "train_neural", "evaluate_neural", "learning_curve", "calibration",
           "calibration_table", "replay_views", "stacked_boards", "decisions", "decision_quality"]
