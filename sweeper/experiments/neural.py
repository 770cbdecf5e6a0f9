"""The neural contextual bandit as a stored experiment (needs the optional extra ``deep``: ``make deep``).

One task (:func:`neural_task`, its parameters :class:`NeuralTask`) trains a
:class:`~sweeper.agents.neural.NeuralAgent` on one board for a budget of counted work, games or decisions (the same
seed gives the same network and games on any machine, under any load), then stores its learning curve, its
checkpoints and its test games on every level, with the quality of its decisions against the exact probabilities
and the trained network. The first stored runs had budgets of CPU seconds; such a run is never trained again from
its seconds: it records the games it played, and ``verify`` replays exactly those (:func:`replay_params`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pandas as pd

from ..agents.neural import NeuralAgent, require_torch
from ..checks import whole
from ..game.engine import Setting
from ..machine import machine
from ..rng import held_out_seed
from ..running.neural_play import (NeuralLearning, calibration, calibration_table, decision_quality, decisions,
                                   evaluate_neural, learning_curve, replay_views, train_neural)
from ..running.neural_regret import regret_blocks, training_regret
from .runner import Output, Task, task_kind
from .stats import wilson

#: The three levels a network is tested on.
LEVELS = ("8x8x10", "16x16x40", "16x30x99")
#: The learning options a task passes to :func:`~sweeper.running.neural_play.train_neural` through ``learning``.
LEARNING = ("symmetries", "interior_weight", "average")
#: What a phase of a curriculum may learn otherwise than the run (its third element).
PHASE_LEARNING = ("minibatch", "replay", "lr") + LEARNING
#: Where a task's checkpoints and tests play (see :class:`NeuralTask`).
BOARDS = ("held-out", "benchmark")


@dataclass(frozen=True)
class NeuralTask:
    """The parameters of a ``neural_bandit`` task, as its runs store them (the defaults are those of a task that
    leaves one out): train a network of ``channels`` and ``layers`` (exploring with ``epsilon``; reading the mine
    counter with ``mines_left``: :class:`~sweeper.agents.neural.NeuralAgent`) on ``board`` with ``seed`` for
    ``games`` games or ``decisions`` decisions (counted work), its learning curve per ``block`` games, kept at each
    of ``checkpoints`` (in the budget's unit, of the run on ``board``); then test it greedily on each of ``tests``,
    ``test_games`` games each, with the quality of its decisions on the first ``calibration_games`` and its
    ``mistakes`` worst ones.

    The defaults of ``minibatch``, ``replay`` and ``lr`` are the learning of the stored runs of ``ext:neural`` and
    ``ext:neural_field`` (one Adam step on 16 views per 16 decisions at 0.001), stated here so that those runs
    recompute identically whatever :class:`~sweeper.running.neural_play.NeuralLearning`'s defaults become;
    ``learning``: its further options (``symmetries``, ``interior_weight``, ``average``). ``boards``: where the
    checkpoints and the tests play, ``"held-out"`` (the boards of ``held_out_seed(seed, i)`` for the ``i``-th test
    board, those of ``i = 0`` at every checkpoint: the stored runs of ``ext:neural``) or ``"benchmark"`` (the first ``test_games``
    boards of each level's suite of the benchmark, :func:`~sweeper.experiments.benchmark.load_suite`: the same
    boards for every seed, every checkpoint and every agent of the leaderboard). ``curriculum``: phases
    ``[board, budget]`` or ``[board, budget, learning]``, boards the network is trained on first, in order, for
    that budget each (in the run's unit: games, or decisions), with the run's learning or, for the keys of the
    phase's ``learning`` dict, its own.

    ``cpu_seconds``: the budget of the first stored runs (process CPU seconds, their curriculum's phases too). It
    is a record, not a budget that is trained again: such a task runs only with ``_replay``, the games of each
    phase and the decisions at each checkpoint that the stored run recorded (:func:`replay_params`, used by
    ``python -m sweeper verify``), and a new task with ``cpu_seconds`` is refused.

    ``regret_block``: every training decision (the curriculum's too) is also scored against the exact
    probabilities (:func:`~sweeper.running.neural_regret.training_regret`), summed per block of that many games
    (table ``regret``); None: not scored."""

    board: str
    seed: int
    games: int | None = None
    decisions: int | None = None
    cpu_seconds: float | None = None
    channels: int = 32
    layers: int = 5
    epsilon: float = 0.0
    minibatch: int = 16
    replay: float = 1.0
    lr: float = 1e-3
    block: int = 1_000
    checkpoints: list = ()
    tests: list = LEVELS
    test_games: int = 1_000
    calibration_games: int = 20
    mistakes: int = 4
    boards: str = "held-out"
    mines_left: bool = False
    learning: dict | None = None
    curriculum: list = ()
    regret_block: int | None = None
    _replay: dict | None = None

    def network(self) -> NeuralAgent:
        """The untrained network of the task."""
        return NeuralAgent(self.channels, self.layers, self.epsilon, self.seed, self.mines_left)

    def run_learning(self) -> NeuralLearning:
        """How the run learns (``minibatch``, ``replay``, ``lr`` and the options of ``learning``)."""
        return NeuralLearning(minibatch=self.minibatch, replay=self.replay, lr=self.lr, **_learning(self.learning))

    def where(self, board, games: int, i: int) -> dict:
        """The keyword arguments of :func:`~sweeper.running.neural_play.evaluate_neural` (and of ``calibration``)
        for ``games`` test games on ``board``, the ``i``-th test board: the boards of ``held_out_seed(seed, i)``,
        or the first ``games`` of the benchmark's suite of that level (reference opening)."""
        if self.boards == "held-out":
            return {"games": games, "seed": held_out_seed(self.seed, i)}
        from .benchmark import level_of, load_suite
        suite = load_suite(level_of(board))
        if games > len(suite):
            raise ValueError(f"the benchmark's suites hold {len(suite):,} boards, not {games:,}")
        return {"games": None, "seed": 0, "layouts": suite.layouts[:games]}


def neural_task(task: NeuralTask) -> Output:
    """Run a ``neural_bandit`` task (:class:`NeuralTask`). Its tables:

    ``curve``
        the learning curve: per block of training games, the block's win rate, and the decisions, gradient steps
        and process CPU seconds so far (:func:`~sweeper.running.neural_play.learning_curve`);
    ``checkpoints``
        the network frozen at each checkpoint and at the end of training, tested greedily on ``test_games`` games of
        its own board (the same boards at every checkpoint), with the 95% Wilson interval, the games, decisions,
        gradient steps and CPU seconds of training so far (``total_cpu_seconds`` with the curriculum's): the win
        rate against games and against CPU time;
    ``tests``
        greedy test games of the trained network on each test board, unchanged (it is fully convolutional: a
        network trained on one board plays every other), with their 95% Wilson interval and speed, and the quality
        of its decisions on the first ``calibration_games`` of them against the exact probabilities
        (:func:`~sweeper.running.neural_play.decision_quality`: the share of decisions with a proven-safe tile on
        offer, the share of those where it clicked another tile, its regret per decision against the best click);
    ``calibration``
        the network's P(mine) against the exact probabilities, binned, on every covered tile of every decision of
        the first ``calibration_games`` test games of each test board;
    ``mistakes`` (table and arrays)
        on each test board, the ``mistakes`` decisions of those games where a tile was proven safe and the network
        clicked the tile most likely to be a mine (largest exact P(mine)): the game, decision, tile, the network's
        and the exact P(mine), and in the arrays the view before the click and the game's mines, to draw them;
    ``online``
        with weight averaging (``learning={"average": ...}``): the network's own last weights (those the averaged
        ones replaced at the end of training) tested on the same boards as the last checkpoint, so the averaging is
        measured on one training's games;
    ``regret`` (with ``regret_block``)
        every training decision scored against the exact probabilities, per block of games of each phase: wins,
        decisions, sure decisions, the regret (on sure decisions, on guesses), and the games, decisions and regret
        so far (:func:`~sweeper.running.neural_regret.regret_blocks`);
    ``agent`` (arrays)
        the trained network's file arrays (:meth:`~sweeper.agents.neural.NeuralAgent.file_arrays`: plain float32
        arrays and JSON, never a pickle).

    Its ``info`` holds the training's totals (the curriculum's per phase) and the machine
    (:func:`~sweeper.machine.machine`)."""
    if task.boards not in BOARDS:
        raise ValueError(f"boards must be one of {', '.join(BOARDS)}, got {task.boards!r}")
    _unit(task)
    torch = require_torch()
    agent, run, ran = _trained(task)
    spent = sum(r.cpu_seconds for r in ran)
    out = Output(tables={"curve": learning_curve(run.records, task.block)})
    out.info.update({f"train_{k}": v for k, v in run.summary().items() if k not in ("agent", "board", "learning")})
    out.info.update(agent=agent.name, parameters=agent.parameters, torch=torch.__version__, machine=machine(),
                    total_train_cpu_seconds=spent + run.cpu_seconds)
    if ran:
        out.info.update(curriculum_boards=[str(r.setting) for r in ran], curriculum_games=[r.games for r in ran],
                        curriculum_decisions=[r.decisions for r in ran], curriculum_updates=[r.updates for r in ran],
                        curriculum_cpu_seconds=[r.cpu_seconds for r in ran])
    if task.regret_block is not None:
        regret = out.tables["regret"] = _training_regret(task, [*ran, run])
        out.info.update(training_regret=float(regret["regret"].sum()),
                        training_regret_decisions=int(regret["decisions"].sum()))
    out.tables["checkpoints"], last = _checkpoints(task, agent, run, spent)
    if run.online is not None:  # weight averaging: the network's own last weights, on the same boards
        t = evaluate_neural(run.online, task.board, **task.where(task.board, task.test_games, 0))
        out.tables["online"] = pd.DataFrame([{"board": str(t.setting), **_tested(t)}])
    rows, cals, wrong, views = [], [], [], {}
    for i, test in enumerate(task.tests):
        row, cal, worst = _tested_on(task, agent, i, test, views, last)
        rows.append(row)
        cals += cal
        wrong += worst
    out.tables["tests"] = pd.DataFrame(rows)
    if cals:
        out.tables["calibration"] = pd.concat(cals, ignore_index=True)
    out.tables["mistakes"] = pd.DataFrame(wrong, columns=["board", "name", "game", "decision", "tile", "net", "exact",
                                                          "covered"])
    if views:
        out.arrays["mistakes"] = views
    out.arrays["agent"] = agent.file_arrays()
    return out


def _unit(task: NeuralTask) -> str:
    """The unit of the task's budget, ``"games"`` or ``"decisions"`` (or ``"cpu_seconds"``, only replayed), checked:
    exactly one budget, and seconds only with the work a stored run recorded."""
    given = [u for u in ("games", "decisions", "cpu_seconds") if getattr(task, u) is not None]
    if len(given) != 1:
        raise ValueError(f"a neural_bandit task has exactly one budget, games or decisions, got {given or 'none'}")
    if given == ["cpu_seconds"] and task._replay is None:
        raise ValueError("a budget of CPU seconds is not trained (where it stops would depend on the machine's "
                         "load): give the budget in decisions (or games); a stored run on CPU seconds is "
                         "recomputed by `python -m sweeper verify` from the games it recorded")
    return given[0]


def _trained(task: NeuralTask) -> tuple:
    """(the trained network, the run on the task's board, the runs of the curriculum's phases)."""
    learning = task.run_learning()
    unit = _unit(task)
    phases = _curriculum(task.curriculum, unit)
    agent = task.network()
    budget = {unit: getattr(task, unit), "snapshots": list(task.checkpoints)}
    if task._replay is not None:  # the recorded games and checkpoints' decisions of a run on a CPU budget
        if unit != "cpu_seconds":
            raise ValueError("_replay replays a stored run on a CPU budget only")
        phases = [(b, g, how) for (b, _, how), g in zip(phases, task._replay["phases"], strict=True)]
        unit = "games"
        budget = {"games": task._replay["games"], "snapshots": task._replay["checkpoints"],
                  "snapshots_in": "decisions"}
    phased = [replace(learning, **how) for _, _, how in phases]
    record = task.regret_block is not None
    ran = [train_neural(agent, b, seed=task.seed, **{unit: n}, learning=how, record=record)
           for (b, n, _), how in zip(phases, phased)]
    run = train_neural(agent, task.board, seed=task.seed, **budget, learning=learning, record=record)
    return agent, run, ran


def _training_regret(task: NeuralTask, runs: list) -> pd.DataFrame:
    """The table ``regret``: the training decisions of ``runs`` (the curriculum's phases, then the run on the task's
    board) scored against the exact probabilities, per block of ``regret_block`` games of each phase, with the
    phase's board and the games, decisions and regret summed from the first phase on."""
    size = whole(task.regret_block, "regret_block", 1)
    parts = [regret_blocks(training_regret(r), size).assign(phase=i, board=str(r.setting)) for i, r in enumerate(runs)]
    out = pd.concat(parts, ignore_index=True)
    played = out.groupby("phase")["games"].max().cumsum().shift(fill_value=0)
    out["games"] += out["phase"].map(played)
    out["decisions_so_far"] = out["decisions"].cumsum()
    out["cumulative_regret"] = out["regret"].cumsum()
    return out


def _checkpoints(task: NeuralTask, agent, run, spent: float) -> tuple:
    """The table ``checkpoints``: each snapshot of ``run`` and its end, tested on the task's own board (``spent``:
    the curriculum's CPU seconds); and the test games of its end (the trained network on those boards)."""
    points = [{k: v for k, v in snap.items() if k != "at"} for snap in run.snapshots]
    points.append({"games": run.games, "decisions": run.decisions, "updates": run.updates,
                   "cpu_seconds": run.cpu_seconds, "agent": agent})
    for p in points:  # the training CPU so far counts the curriculum's
        p["total_cpu_seconds"] = spent + p["cpu_seconds"]
    rows = []
    for point in points:
        t = evaluate_neural(point.pop("agent"), task.board, **task.where(task.board, task.test_games, 0))
        rows.append({**point, **_tested(t)})
    return pd.DataFrame(rows), t


def _tested_on(task: NeuralTask, agent, i: int, test, views: dict, last) -> tuple:
    """The test games of the trained ``agent`` on the ``i``-th test board: (its row of ``tests``, its calibration
    frames, its rows of ``mistakes``), the mistakes' boards added to ``views``. ``last``: the trained network's test
    games at its last checkpoint, which are these when they are the same boards (the same games, played once)."""
    same = Setting.parse(test) == Setting.parse(task.board) and (task.boards == "benchmark" or i == 0)
    t = last if same else evaluate_neural(agent, test, **task.where(test, task.test_games, i))
    row = {"board": str(t.setting), **_tested(t)}
    if not task.calibration_games:
        return row, [], []
    n = min(task.calibration_games, task.test_games)
    cal = calibration(agent, test, **task.where(test, n, i))
    frame = calibration_table(cal).reset_index(names="bin").assign(board=str(t.setting))
    dec = decisions(cal)
    row.update({"quality_games": n, **{f"quality_{k}": v for k, v in decision_quality(dec).items()}})
    worst = dec[dec["missed"]].sort_values(["exact", "game", "decision"], ascending=[False, True, True])
    worst = worst.head(task.mistakes)
    wrong = []
    if len(worst):
        played = evaluate_neural(agent, test, **task.where(test, n, i), record=True)
        order = {int(g): j for j, g in enumerate(played.records["game"])}
        for k, w in enumerate(worst.itertuples()):
            j = order[int(w.game)]
            seen, _ = replay_views(t.setting, played.layouts[j], played.moves[j])
            name = f"{t.setting}_{k}"
            views[f"{name}_view"] = seen[int(w.decision)]
            views[f"{name}_mines"] = played.layouts[j]
            wrong.append({"board": str(t.setting), "name": name, "game": int(w.game), "decision": int(w.decision),
                          "tile": int(w.tile), "net": float(w.net), "exact": float(w.exact),
                          "covered": int(w.covered)})
    return row, [frame], wrong


def _learning(learning) -> dict:
    if learning is None:
        return {}
    if not isinstance(learning, dict) or set(learning) - set(LEARNING):
        raise ValueError(f"learning must be a dict of {', '.join(LEARNING)}, got {learning!r}")
    return dict(learning)


def _curriculum(curriculum, unit: str) -> list:
    """``curriculum`` as a list of (board, budget in ``unit``, learning), checked."""
    whole_number = unit != "cpu_seconds"
    form = f"[board, {unit}] or [board, {unit}, {{learning}}]"
    if isinstance(curriculum, (str, bytes)) or not hasattr(curriculum, "__iter__"):
        raise ValueError(f"curriculum must be a list of phases {form}, got {curriculum!r}")
    phases = []
    for ph in curriculum:
        if isinstance(ph, (str, bytes)) or not hasattr(ph, "__len__") or len(ph) not in (2, 3):
            raise ValueError(f"each phase of the curriculum is {form}, got {ph!r}")
        b, n, how = (*ph, {}) if len(ph) == 2 else ph
        if isinstance(n, bool) or not isinstance(n, (int, float)) or not 0 < n <= 1e9 or (whole_number and n % 1):
            raise ValueError(f"a curriculum phase's {unit} must be a positive "
                             f"{'whole number' if whole_number else 'number'}, got {n!r}")
        if not isinstance(how, dict) or set(how) - set(PHASE_LEARNING):
            raise ValueError(f"a curriculum phase's learning is a dict of {', '.join(PHASE_LEARNING)}, got {how!r}")
        b = str(Setting.parse(b))
        phases.append((b, int(n) if whole_number else float(n), dict(how)))
    return phases


def replay_params(params: dict, info: dict, tables: dict) -> dict:
    """For a stored run of :func:`neural_task` on a CPU budget (``params``, and its stored ``info`` and tables):
    the deterministic budgets that recompute it, ``{"_replay": ...}`` (the games of each phase of the curriculum and
    of the run, and the decisions at each checkpoint); ``{}`` for a run on a games budget."""
    if params.get("cpu_seconds") is None:
        return {}
    points = tables["checkpoints"]["decisions"].tolist()[:-1]  # the last row is the end of training
    return {"_replay": {"games": int(info["train_games"]), "phases": [int(g) for g in info.get("curriculum_games", [])],
                        "checkpoints": [int(d) for d in points]}}


def _tested(t) -> dict:
    """The row of one batch of greedy test games: games, wins, win rate, its 95% Wilson interval, the share of
    safe tiles revealed, decisions and the speed."""
    lo, hi = wilson(t.wins, t.games)
    s = t.summary()
    return {"test_games": t.games, "wins": t.wins, "win_rate": t.win_rate, "lo": lo, "hi": hi,
            "revealed": float(t.records["revealed"].mean()) if t.games else float("nan"),
            "test_decisions": t.decisions, "test_cpu_seconds": t.cpu_seconds,
            "games_per_cpu_second": s["games_per_cpu_second"], "decisions_per_cpu_second": s["decisions_per_cpu_second"]}


task_kind("neural_bandit", replay=replay_params, params=NeuralTask,
          small=lambda: Task.make("neural_bandit", board="6x6x5", seed=1, games=40, channels=8, layers=1, minibatch=8,
                                  block=10, checkpoints=[20], tests=["6x6x5"], test_games=10, calibration_games=2,
                                  mistakes=1))(neural_task)
