"""The neural contextual bandit as a stored experiment (needs the optional extra ``deep``: ``make deep``).

One task trains a :class:`~sweeper.agents.neural.NeuralAgent` on one board for a budget of games (deterministic:
the same seed gives the same network and games) or of CPU seconds (where it stops depends on the machine; the
task stores the games it played, which replay it exactly as a games budget), then stores:

``curve``
    the learning curve: per block of training games, the block's win rate, and the decisions, gradient steps
    and process CPU seconds so far (:func:`~sweeper.running.neural_play.learning_curve`);
``checkpoints``
    the network frozen at each of ``checkpoints`` (games of training, and the end of training), tested greedily
    on ``test_games`` games of its own board (seed ``held_out_seed(seed, 0)``: the same boards at every
    checkpoint), with the 95% Wilson interval, the games, decisions, gradient steps and CPU seconds of training
    so far: the win rate against games and against CPU time;
``tests``
    greedy test games of the trained network on each test board, unchanged (it is fully convolutional: a network
    trained on one board plays every other), ``test_games`` each on the boards of ``held_out_seed(seed, i)``
    (the bandit tasks' test seeds), with their 95% Wilson interval and speed, and the quality of its decisions
    on the first ``calibration_games`` of them against the exact probabilities
    (:func:`~sweeper.running.neural_play.decision_quality`: the share of decisions with a proven-safe tile on
    offer, the share of those where it clicked another tile, its regret per decision against the best click);
``calibration``
    the network's P(mine) against the exact probabilities, binned, on every covered tile of every decision of the
    first ``calibration_games`` test games of each test board;
``mistakes`` (table and arrays)
    on each test board, the ``mistakes`` decisions of those games where a tile was proven safe and the network
    clicked the tile most likely to be a mine (largest exact P(mine)): the game, decision, tile, the network's
    and the exact P(mine), and in the arrays the view before the click and the game's mines, to draw them;
``agent`` (arrays)
    the trained network's file arrays (:meth:`~sweeper.agents.neural.NeuralAgent.file_arrays`: plain float32
    arrays and JSON, never a pickle).
"""

from __future__ import annotations

import pandas as pd

from ..agents.neural import NeuralAgent, require_torch
from ..game.engine import Setting
from ..machine import machine
from ..rng import held_out_seed
from ..running.neural_play import (calibration, calibration_table, decision_quality, decisions, evaluate_neural,
                                   learning_curve, replay_views, train_neural)
from .runner import Output, task_kind
from .stats import wilson

#: The three levels a network is tested on.
LEVELS = ("8x8x10", "16x16x40", "16x30x99")


def neural_task(board: str, seed: int, games: int | None = None, cpu_seconds: float | None = None,
                channels: int = 32, layers: int = 5, epsilon: float = 0.0, minibatch: int = 16, replay: float = 1.0,
                lr: float = 1e-3, block: int = 1_000, checkpoints=(), tests=LEVELS, test_games: int = 1_000,
                calibration_games: int = 20, mistakes: int = 4, boards: str = "held-out", label: str | None = None,
                cost: float = 1.0, mines_left: bool = False, learning: dict | None = None,
                curriculum=(), _replay: dict | None = None) -> Output:
    """Train a neural bandit on ``board`` (seed ``seed``) for ``games`` games or ``cpu_seconds`` CPU seconds, then
    test it greedily on each of ``tests`` (see the module docstring). The defaults of ``minibatch``, ``replay`` and
    ``lr`` are the learning of the stored runs of ``ext:neural`` and ``ext:neural_field`` (one Adam step on 16 views
    per 16 decisions at 0.001), stated here so that those runs recompute identically whatever
    :func:`~sweeper.running.neural_play.train_neural`'s defaults become. ``boards``: where the checkpoints and the
    tests play, ``"held-out"`` (the seeds' own boards, as the module docstring says: the stored runs of
    ``ext:neural``) or ``"benchmark"`` (the first ``test_games`` boards of each level's suite of the benchmark,
    :func:`~sweeper.experiments.benchmark.load_suite`: the same boards for every seed, every checkpoint and every
    agent of the leaderboard). The run's ``info`` records the machine (:func:`~sweeper.machine.machine`).
    ``mines_left``: the network reads the mine counter (:class:`~sweeper.agents.neural.NeuralAgent`);
    ``learning``: the further options of :func:`~sweeper.running.neural_play.train_neural` (``symmetries``,
    ``interior_weight``); ``curriculum``: phases ``[board, budget]`` or ``[board, budget, learning]``, boards the
    network is trained on first, in order, for that budget each (games, or CPU seconds when the task has a CPU
    budget), with the run's learning or, for the keys of the phase's ``learning`` dict, its own (its
    CPU counts in the run's training CPU: ``info["total_train_cpu_seconds"]``, and each checkpoint's
    ``total_cpu_seconds``). A run on a CPU budget records the games of each phase and the decisions at each
    checkpoint, and :func:`replay_params` turns them into the deterministic budgets that recompute it
    (``python -m sweeper verify``); ``_replay`` is how it passes them."""
    if boards not in BOARDS:
        raise ValueError(f"boards must be one of {', '.join(BOARDS)}, got {boards!r}")
    torch = require_torch()
    extra = _learning(learning)
    phases = _curriculum(curriculum, games is None)
    agent = NeuralAgent(channels, layers, epsilon, seed, mines_left)
    learnt = dict(minibatch=minibatch, replay=replay, lr=lr, **extra)
    budget = {"games": games, "cpu_seconds": cpu_seconds, "snapshots": list(checkpoints)}
    if _replay is not None:  # the recorded games and checkpoints' decisions of a run on a CPU budget
        phases = [(b, None, g, how) for (b, _, _, how), g in zip(phases, _replay["phases"], strict=True)]
        budget = {"games": _replay["games"], "cpu_seconds": None, "snapshots": _replay["checkpoints"],
                  "snapshots_in": "decisions"}
    ran = [train_neural(agent, b, g, seed, cpu_seconds=cpu, **{**learnt, **how}) for b, cpu, g, how in phases]
    spent = sum(r.cpu_seconds for r in ran)
    run = train_neural(agent, board, seed=seed, **budget, **learnt)
    out = Output(tables={"curve": learning_curve(run.records, block)})
    out.info.update({f"train_{k}": v for k, v in run.summary().items() if k not in ("agent", "board", "learning")})
    out.info.update(agent=agent.name, parameters=agent.parameters, torch=torch.__version__, machine=machine(),
                    total_train_cpu_seconds=spent + run.cpu_seconds)
    if ran:
        out.info.update(curriculum_boards=[str(r.setting) for r in ran], curriculum_games=[r.games for r in ran],
                        curriculum_decisions=[r.decisions for r in ran], curriculum_updates=[r.updates for r in ran],
                        curriculum_cpu_seconds=[r.cpu_seconds for r in ran])
    points = [{k: v for k, v in snap.items() if k != "at"} for snap in run.snapshots]
    points.append({"games": run.games, "decisions": run.decisions, "updates": run.updates,
                   "cpu_seconds": run.cpu_seconds, "agent": agent})
    for p in points:  # the training CPU so far counts the curriculum's
        p["total_cpu_seconds"] = spent + p["cpu_seconds"]
    rows = []
    for point in points:
        t = evaluate_neural(point.pop("agent"), board, **_boards(board, test_games, seed, 0, boards))
        rows.append({**point, **_tested(t)})
    out.tables["checkpoints"] = pd.DataFrame(rows)
    last = t  # the trained network on its own board's checkpoint boards
    rows, cals, wrong, views = [], [], [], {}
    for i, test in enumerate(tests):
        same = Setting.parse(test) == Setting.parse(board) and (boards == "benchmark" or i == 0)
        t = last if same else evaluate_neural(agent, test, **_boards(test, test_games, seed, i, boards))
        row = {"board": str(t.setting), **_tested(t)}
        if calibration_games:
            n = min(calibration_games, test_games)
            cal = calibration(agent, test, **_boards(test, n, seed, i, boards))
            cals.append(calibration_table(cal).reset_index(names="bin").assign(board=str(t.setting)))
            dec = decisions(cal)
            row.update({"quality_games": n, **{f"quality_{k}": v for k, v in decision_quality(dec).items()}})
            worst = dec[dec["missed"]].sort_values(["exact", "game", "decision"], ascending=[False, True, True])
            worst = worst.head(mistakes)
            if len(worst):
                played = evaluate_neural(agent, test, **_boards(test, n, seed, i, boards), record=True)
                order = {int(g): j for j, g in enumerate(played.records["game"])}
                for k, w in enumerate(worst.itertuples()):
                    j = order[int(w.game)]
                    seen, _ = replay_views(t.setting, played.layouts[j], played.moves[j])
                    name = f"{t.setting}_{k}"
                    views[f"{name}_view"] = seen[int(w.decision)]
                    views[f"{name}_mines"] = played.layouts[j]
                    wrong.append({"board": str(t.setting), "name": name, "game": int(w.game),
                                  "decision": int(w.decision), "tile": int(w.tile), "net": float(w.net),
                                  "exact": float(w.exact), "covered": int(w.covered)})
        rows.append(row)
    out.tables["tests"] = pd.DataFrame(rows)
    if cals:
        out.tables["calibration"] = pd.concat(cals, ignore_index=True)
    out.tables["mistakes"] = pd.DataFrame(wrong, columns=["board", "name", "game", "decision", "tile", "net", "exact",
                                                          "covered"])
    if views:
        out.arrays["mistakes"] = views
    out.arrays["agent"] = agent.file_arrays()
    return out


#: The learning options a task passes to :func:`~sweeper.running.neural_play.train_neural` through ``learning``.
LEARNING = ("symmetries", "interior_weight")


def _learning(learning) -> dict:
    if learning is None:
        return {}
    if not isinstance(learning, dict) or set(learning) - set(LEARNING):
        raise ValueError(f"learning must be a dict of {', '.join(LEARNING)}, got {learning!r}")
    return dict(learning)


#: What a phase of a curriculum may learn otherwise than the run (its third element).
PHASE_LEARNING = ("minibatch", "replay", "lr") + LEARNING


def _curriculum(curriculum, cpu: bool) -> list:
    """``curriculum`` as a list of (board, CPU seconds, games, learning) (one budget ``None``), checked."""
    unit = "cpu_seconds" if cpu else "games"
    form = f"[board, {unit}] or [board, {unit}, {{learning}}]"
    if isinstance(curriculum, (str, bytes)) or not hasattr(curriculum, "__iter__"):
        raise ValueError(f"curriculum must be a list of phases {form}, got {curriculum!r}")
    phases = []
    for ph in curriculum:
        if isinstance(ph, (str, bytes)) or not hasattr(ph, "__len__") or len(ph) not in (2, 3):
            raise ValueError(f"each phase of the curriculum is {form}, got {ph!r}")
        b, n, how = (*ph, {}) if len(ph) == 2 else ph
        if isinstance(n, bool) or not isinstance(n, (int, float)) or not 0 < n <= 1e9 or (not cpu and n % 1):
            raise ValueError(f"a curriculum phase's {unit} must be a positive {'number' if cpu else 'whole number'}"
                             f", got {n!r}")
        if not isinstance(how, dict) or set(how) - set(PHASE_LEARNING):
            raise ValueError(f"a curriculum phase's learning is a dict of {', '.join(PHASE_LEARNING)}, got {how!r}")
        b = str(Setting.parse(b))
        phases.append((b, float(n), None, dict(how)) if cpu else (b, None, int(n), dict(how)))
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


#: Where a task's checkpoints and tests play (see :func:`neural_task`).
BOARDS = ("held-out", "benchmark")


def _boards(board, games: int, seed: int, i: int, boards: str) -> dict:
    """The keyword arguments of :func:`~sweeper.running.neural_play.evaluate_neural` (and of ``calibration``) for
    ``games`` test games on ``board``: the boards of ``held_out_seed(seed, i)``, or the first ``games`` of the
    benchmark's suite of that level (reference opening)."""
    if boards == "held-out":
        return {"games": games, "seed": held_out_seed(seed, i)}
    from .benchmark import level_of, load_suite
    suite = load_suite(level_of(board))
    if games > len(suite):
        raise ValueError(f"the benchmark's suites hold {len(suite):,} boards, not {games:,}")
    return {"games": None, "seed": 0, "layouts": suite.layouts[:games]}


def _tested(t) -> dict:
    """The row of one batch of greedy test games: games, wins, win rate, its 95% Wilson interval, the share of
    safe tiles revealed, decisions and the speed."""
    lo, hi = wilson(t.wins, t.games)
    s = t.summary()
    return {"test_games": t.games, "wins": t.wins, "win_rate": t.win_rate, "lo": lo, "hi": hi,
            "revealed": float(t.records["revealed"].mean()) if t.games else float("nan"),
            "test_decisions": t.decisions, "test_cpu_seconds": t.cpu_seconds,
            "games_per_cpu_second": s["games_per_cpu_second"], "decisions_per_cpu_second": s["decisions_per_cpu_second"]}


task_kind("neural_bandit", replay=replay_params)(neural_task)
