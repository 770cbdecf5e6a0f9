"""Benchmarks: games per second of the standard workloads (one core).

``python -m sweeper bench`` (or ``make bench``) prints one row per workload.
Each workload runs once after a small warm-up run, so compile time (numba's
cache makes it short after the first use) is not counted.
"""

from __future__ import annotations

import time

from .agents.kinds import make_agent
from .running.training import evaluate, train


def _row(name, run_or_games, seconds=None, **extra):
    games = run_or_games if seconds is not None else len(run_or_games.records)
    seconds = seconds if seconds is not None else run_or_games.seconds
    return {"workload": name, "games": games, "seconds": round(seconds, 3),
            "games_per_second": round(games / seconds, 1), **extra}


def run_benchmarks(quick: bool = False, out=print) -> list[dict]:
    """Run the workloads, print a table as they finish, return the rows."""
    n5 = 10_000 if quick else 100_000
    n6 = 20_000 if quick else 1_000_000
    n_exp = 1_000 if quick else 10_000
    train("greedy", "8x8x10", 200, seed=0, progress=False)  # warm-up / compile
    rows = []

    def emit(row):
        rows.append(row)
        extra = "  ".join(f"{k}={v}" for k, v in row.items()
                          if k not in ("workload", "games", "seconds", "games_per_second"))
        out(f"{row['workload']:<50} {row['games']:>9,} games {row['seconds']:>8.2f} s "
            f"{row['games_per_second']:>10,.0f} games/s  {extra}")

    out(f"{'workload':<50} {'games':>15} {'time':>10} {'speed':>18}")
    r = train("greedy", "8x8x10", n5, seed=7, progress=False)
    emit(_row(f"greedy train 8x8x10 ({n5:,} games)", r, win_rate=round(r.win_rate, 4)))
    r = train("ucb:0.1", "8x8x10", n5, seed=7, progress=False)
    emit(_row(f"ucb(0.1) train 8x8x10 ({n5:,} games)", r, win_rate=round(r.win_rate, 4)))
    r = train("thompson", "8x8x10", n5, seed=7, progress=False)
    emit(_row(f"thompson train 8x8x10 ({n5:,} games)", r, win_rate=round(r.win_rate, 4)))
    # plug-in rules (sweeper.agents.custom): greedy re-stated, the same games as the built-in greedy above
    from .agents import rule_library as lib
    from .agents.kinds import RuleAgent
    train(RuleAgent(lib.greedy_rule(compiled=True)), "8x8x10", 200, seed=0, progress=False)  # compile
    train(RuleAgent(lib.greedy_rule(compiled=False)), "8x8x10", 200, seed=0, progress=False)
    r = train(RuleAgent(lib.greedy_rule(compiled=True)), "8x8x10", n5, seed=7, progress=False)
    emit(_row(f"greedy as a plug-in rule, njit ({n5:,} games)", r, win_rate=round(r.win_rate, 4)))
    n_py = n5 // 10
    r = train(RuleAgent(lib.greedy_rule(compiled=False)), "8x8x10", n_py, seed=7, progress=False)
    emit(_row(f"greedy as a plug-in rule, Python ({n_py:,} games)", r, win_rate=round(r.win_rate, 4)))
    r = train("sa", "4x4x4", n5, seed=7, progress=False)
    emit(_row(f"state-action train 4x4x4 ({n5:,} games)", r, win_rate=round(r.win_rate, 4)))
    agent = make_agent("greedy")
    r = train(agent, "8x8x10", n6, seed=7, progress=False)
    t = agent.table
    emit(_row(f"greedy train 8x8x10 ({n6:,} games, end to end)", r, win_rate=round(r.win_rate, 4),
              actions_recorded=t.actions_recorded, keys_in_table=int(t.meta[0]), table_bytes=t.nbytes()))
    t0 = time.perf_counter()
    r = evaluate(agent, "16x30x99", n_exp, seed=1, freeze=True, progress=False)
    emit(_row(f"expert 16x30x99 eval, frozen ({n_exp:,} games)", n_exp, time.perf_counter() - t0,
              win_rate=round(r.win_rate, 4)))
    t0 = time.perf_counter()
    r = evaluate(agent, "16x30x99", n_exp, seed=1, progress=False)
    emit(_row(f"expert 16x30x99 eval, learning ({n_exp:,} games)", n_exp, time.perf_counter() - t0,
              win_rate=round(r.win_rate, 4)))
    return rows
