"""The neural contextual bandit as a stored experiment (needs the optional extra ``deep``: ``make deep``).

One task trains a :class:`~sweeper.agents.neural.NeuralAgent` on one board for a budget of games (deterministic:
the same seed gives the same network and games) or of CPU seconds (where it stops depends on the machine; the
task stores the games it played, which replay it exactly as a games budget), then stores:

``curve``
    the learning curve: per block of training games, the block's win rate, and the decisions, gradient steps
    and process CPU seconds so far (:func:`~sweeper.running.neural_play.learning_curve`);
``tests``
    greedy test games of the trained network on each test board, unchanged (it is fully convolutional: a network
    trained on one board plays every other), ``test_games`` each on the boards of seed ``seed * 1000 + 1 + i``
    (the bandit tasks' test seeds), with their 95% Wilson interval and speed;
``calibration``
    the network's P(mine) against the exact probabilities, binned, on every covered tile of every decision of the
    first ``calibration_games`` test games of each test board;
``agent`` (arrays)
    the trained network's file arrays (:meth:`~sweeper.agents.neural.NeuralAgent.file_arrays`: plain float32
    arrays and JSON, never a pickle).
"""

from __future__ import annotations

import pandas as pd

from ..agents.neural import NeuralAgent, require_torch
from ..rng import held_out_seed
from ..running.neural_play import calibration, calibration_table, evaluate_neural, learning_curve, train_neural
from .runner import Output, task_kind
from .stats import wilson

#: The three levels a network is tested on.
LEVELS = ("8x8x10", "16x16x40", "16x30x99")


@task_kind("neural_bandit")
def neural_task(board: str, seed: int, games: int | None = None, cpu_seconds: float | None = None,
                channels: int = 32, layers: int = 5, epsilon: float = 0.0, minibatch: int = 16, replay: float = 1.0,
                lr: float = 1e-3, block: int = 1_000, tests=LEVELS, test_games: int = 1_000,
                calibration_games: int = 20, label: str | None = None, cost: float = 1.0) -> Output:
    """Train a neural bandit on ``board`` (seed ``seed``) for ``games`` games or ``cpu_seconds`` CPU seconds, then
    test it greedily on each of ``tests`` (see the module docstring)."""
    torch = require_torch()
    agent = NeuralAgent(channels, layers, epsilon, seed)
    run = train_neural(agent, board, games, seed, cpu_seconds=cpu_seconds, minibatch=minibatch, replay=replay, lr=lr)
    out = Output(tables={"curve": learning_curve(run.records, block)})
    out.info.update({f"train_{k}": v for k, v in run.summary().items() if k not in ("agent", "board", "learning")})
    out.info.update(agent=agent.name, parameters=agent.parameters, torch=torch.__version__)
    rows, cals = [], []
    for i, test in enumerate(tests):
        t = evaluate_neural(agent, test, test_games, held_out_seed(seed, i))
        lo, hi = wilson(t.wins, t.games)
        s = t.summary()
        rows.append({"board": str(t.setting), "games": t.games, "wins": t.wins, "win_rate": t.win_rate, "lo": lo,
                     "hi": hi, "revealed": float(t.records["revealed"].mean()) if t.games else float("nan"),
                     "decisions": t.decisions, "cpu_seconds": t.cpu_seconds,
                     "games_per_cpu_second": s["games_per_cpu_second"],
                     "decisions_per_cpu_second": s["decisions_per_cpu_second"]})
        if calibration_games:
            cal = calibration(agent, test, min(calibration_games, test_games), held_out_seed(seed, i))
            cals.append(calibration_table(cal).reset_index(names="bin").assign(board=str(t.setting)))
    out.tables["tests"] = pd.DataFrame(rows)
    if cals:
        out.tables["calibration"] = pd.concat(cals, ignore_index=True)
    out.arrays["agent"] = agent.file_arrays()
    return out
