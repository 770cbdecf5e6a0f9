"""Hand-made stored runs of the benchmark (task kind ``benchmark``) for the figure tests: no training, no suite."""

import numpy as np
import pandas as pd

from sweeper.experiments.runner import Output, Task


#: The counted work of a made run's training, by kind (a PPO policy's decisions are its ``steps``).
WORK = {"table": {"train_decisions": 23_500, "checkpoint_train_decisions": [2_000, 23_500]},
        "neural bandit": {"train_decisions": 1_432_679, "train_updates": 15_022}, "PPO": {"steps": 160_768}}
#: A made table agent's checkpoints: games trained and boards won of the first 50 beginner boards.
CHECKPOINTS = ((100, 20), (1000, 35))


def bench_output(agent, seed, kind, wins_by_level, boards=(100, 20, 20), train_board="", cpu=58.0, work=None,
                 source=""):
    """One stored benchmark run: ``wins_by_level`` maps a level to the boards won (the first ones of the suite);
    a trained run records its counted work (``work``, default :data:`WORK` of its kind) and a table agent its
    :data:`CHECKPOINTS`."""
    scores, games = [], []
    for level, n in zip(("beginner", "intermediate", "expert"), boards):
        w = wins_by_level.get(level, 0)
        won = np.r_[np.ones(w, int), np.zeros(n - w, int)]
        scores.append({"level": level, "wins": w, "games": n, "win_rate": w / n, "safe_revealed": 0.9,
                       "decisions": 10 * n, "regret_games": min(n, 20), "regret_decisions": 10 * min(n, 20),
                       "regret_per_decision": 0.001})
        games.append(pd.DataFrame({"level": level, "board": np.arange(n), "won": won, "revealed": 0.9, "clicks": 10}))
    info = {"agent": agent, "kind": kind, "machine": {"cpu": "a CPU"},
            "test_cpu_seconds": {"beginner": 0.01, "intermediate": 0.01, "expert": 0.01},
            "checkpoint_train_cpu_seconds": []}
    checkpoints = pd.DataFrame(columns=["games_trained", "level", "games", "wins", "win_rate"])
    if train_board:
        info.update(board=train_board, games=1000, train_cpu_seconds=cpu, **(WORK[kind] if work is None else work))
        if source:
            info["source"] = source
    if kind == "table":
        checkpoints = pd.DataFrame([{"games_trained": g, "level": "beginner", "games": 50, "wins": w + seed,
                                     "win_rate": (w + seed) / 50} for g, w in CHECKPOINTS])
        info["checkpoint_train_cpu_seconds"] = [0.5, 5.0]
    out = Output(tables={"scores": pd.DataFrame(scores), "games": pd.concat(games, ignore_index=True),
                         "checkpoints": checkpoints}, info=info)
    return Task.make("benchmark", agent=agent, seed=seed), out


def made_bench(networks=True, ppo=False):
    """The frames of ``benchmark_runs``: the solver, random clicks, the greedy table (seeds 1-3: 0.73, 0.74, 0.75 of
    100 beginner boards), the UCB table (0.60, 0.62, 0.61) and, with ``networks``, six networks; with ``ppo``, the two
    PPO policies on beginner only (per tile 0.50, 0.55, 0.60; CNN 0.10, 0.12, 0.14)."""
    from sweeper.viz.figures import benchmark as bf
    outs = [bench_output("solver", 0, "solver", {"beginner": 88, "intermediate": 17, "expert": 9}),
            bench_output("random", 0, "random", {})]
    outs += [bench_output("greedy", s, "table", {"beginner": 72 + s, "intermediate": 8}, train_board="8x8x10")
             for s in (1, 2, 3)]
    outs += [bench_output("ucb:0.1", s, "table", {"beginner": w, "intermediate": 5}, train_board="8x8x10")
             for s, w in ((1, 60), (2, 62), (3, 61))]
    if networks:
        # beginner-trained networks: 14, 15, 16 of 20 intermediate boards; intermediate-trained: 10, 14, 12 of them
        outs += [bench_output(f"neural:neural_bandit/b{s}", s, "neural bandit", {"beginner": 85 + s,
                               "intermediate": 13 + s}, train_board="8x8x10", cpu=1600.0,
                              source=f"neural_bandit/b{s}") for s in (1, 2, 3)]
        outs += [bench_output(f"neural:neural_bandit/i{s}", s, "neural bandit", {"beginner": 80,
                               "intermediate": w}, train_board="16x16x40", cpu=1600.0)
                 for s, w in ((1, 10), (2, 14), (3, 12))]
    if ppo:
        outs += [bench_output(f"ppo:{p}", s, "PPO", {"beginner": w}, boards=(100,), train_board="8x8x10",
                              cpu=cpu, work={"steps": steps})
                 for p, cpu, steps, ws in (("tiles", 1500.0, 160_768, (50, 55, 60)),
                                           ("cnn", 360.0, 60_416, (10, 12, 14)))
                 for s, w in zip((1, 2, 3), ws)]
    return bf.benchmark_runs(outs)
