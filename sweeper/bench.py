"""Benchmarks: games per second of the standard workloads (one core), as ratios measured side by side.

``python -m sweeper bench`` (or ``make bench``) prints one row per workload.
Each workload runs once after a small warm-up run, so compile time (numba's
cache makes it short after the first use) is not counted. Beside its games/s
each row gives two ratios measured in the same command:

``x greedy``
    its speed over the built-in greedy agent's (the first row);
``x reference``
    its speed over the slow, readable pure-Python agent of ``tests/slow_reference.py``
    playing greedy on the same kind of boards (only where that file is present:
    a clone of the repository, not an installed wheel).

The last rows give the cost of the exact probabilities that the audit and the
regret runs compute at every decision (:mod:`sweeper.agents.oracle`), per
decision, from beginner to expert.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

from .agents.kinds import make_agent
from .running.training import evaluate, train

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "slow_reference.py"


def greedy_loop(q, n, t, params, rng):
    """Greedy as a student writes it first: a plain Python loop over the candidates (largest |Q|, then the
    larger N, then the first; flag when Q >= 0)."""
    best, best_n, pick = -1.0, -1, 0
    for i in range(len(q)):
        a = abs(q[i])
        if a > best or (a == best and n[i] > best_n):
            best, best_n, pick = a, n[i], i
    return pick, q[pick] >= 0


def _reference_speed(games: int) -> float | None:
    """Games/s of the slow reference's greedy agent on ``games`` beginner boards (None without the file)."""
    if not REFERENCE.exists():
        return None
    spec = importlib.util.spec_from_file_location("_slow_reference", REFERENCE)
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    from .game.engine import Game
    layouts = [Game("8x8x10", seed=s).mines for s in range(games)]
    t0 = time.perf_counter()
    ref.play_reference(layouts, policy="greedy")
    return games / (time.perf_counter() - t0)


def run_benchmarks(quick: bool = False, out=print) -> list[dict]:
    """Run the workloads, print a table as they finish, return the rows."""
    from .agents import rule_library as lib
    from .agents.custom import Rule
    from .agents.kinds import RuleAgent
    from .running.belief import Recorder
    from .running.training import play

    n5 = 10_000 if quick else 100_000
    n6 = 20_000 if quick else 1_000_000
    n_exp = 1_000 if quick else 10_000
    n_ref = 60 if quick else 500
    train("greedy", "8x8x10", 200, seed=0, progress=False)  # warm-up / compile
    rows = []
    base = {}

    out("measuring the slow reference (tests/slow_reference.py) ...")
    base["reference"] = _reference_speed(n_ref)
    out(f"{'workload':<72} {'games':>9} {'seconds':>8} {'games/s':>10} {'x greedy':>9} {'x reference':>12}")

    def emit(name, games, seconds, **extra):
        speed = games / seconds
        base.setdefault("greedy", speed)
        ref = base["reference"]
        row = {"workload": name, "games": games, "seconds": round(seconds, 3), "games_per_second": round(speed, 1),
               "x_greedy": float(f"{speed / base['greedy']:.3g}"),
               "x_reference": None if ref is None else float(f"{speed / ref:.4g}"), **extra}
        rows.append(row)
        more = "  ".join(f"{k}={v}" for k, v in extra.items())
        xr = "-" if ref is None else f"{speed / ref:,.1f}"
        out(f"{name:<72} {games:>9,} {seconds:>8.2f} {speed:>10,.0f} {speed / base['greedy']:>9.3g} {xr:>12}  {more}")

    def run(name, agent, games, board="8x8x10", **kw):
        r = train(agent, board, games, seed=7, progress=False, **kw)
        emit(name, games, r.seconds, win_rate=round(r.win_rate, 4))
        return r

    run(f"greedy train 8x8x10 ({n5:,} games)", "greedy", n5)
    if base["reference"] is not None:
        emit(f"slow reference greedy, pure Python ({n_ref:,} games)", n_ref, n_ref / base["reference"])
    run(f"ucb(0.1) train 8x8x10 ({n5:,} games)", "ucb:0.1", n5)
    run(f"thompson train 8x8x10 ({n5:,} games)", "thompson", n5)
    # plug-in rules (sweeper.agents.custom): greedy re-stated, the same games as the built-in greedy above
    # a plain Python loop is compiled by Rule itself (numba can); compile=False keeps it in Python
    loop = Rule(greedy_loop, name="greedy_loop")
    loop_py = Rule(greedy_loop, name="greedy_loop", compile=False)
    numpy_py = lib.greedy_rule(compiled=False)
    for rule in (lib.greedy_rule(compiled=True), numpy_py, loop, loop_py):
        train(RuleAgent(rule), "8x8x10", 200, seed=0, progress=False)  # compile
    run(f"greedy as a plug-in rule, njit ({n5:,} games)", RuleAgent(lib.greedy_rule(compiled=True)), n5)
    run(f"greedy as a plug-in rule, Python loop, compiled by Rule ({n5:,} games)", RuleAgent(loop), n5)
    n_py = n5 // 10
    for games in (n_py, n5):
        run(f"greedy as a plug-in rule, NumPy, in Python ({games:,} games)", RuleAgent(numpy_py), games)
    run(f"greedy as a plug-in rule, Python loop, compile=False ({n_py:,} games)", RuleAgent(loop_py), n_py)
    run(f"state-action train 4x4x4 ({n5:,} games)", "sa", n5, board="4x4x4")
    agent = make_agent("greedy")
    r = train(agent, "8x8x10", n6, seed=7, progress=False)
    t = agent.table
    emit(f"greedy train 8x8x10 ({n6:,} games, end to end)", n6, r.seconds, win_rate=round(r.win_rate, 4),
         actions_recorded=t.actions_recorded, keys_in_table=int(t.meta[0]), table_bytes=t.nbytes())
    t0 = time.perf_counter()
    r = evaluate(agent, "16x30x99", n_exp, seed=1, freeze=True, progress=False)
    emit(f"expert 16x30x99 eval, frozen ({n_exp:,} games)", n_exp, time.perf_counter() - t0,
         win_rate=round(r.win_rate, 4))
    t0 = time.perf_counter()
    r = evaluate(agent, "16x30x99", n_exp, seed=1, progress=False)
    emit(f"expert 16x30x99 eval, learning ({n_exp:,} games)", n_exp, time.perf_counter() - t0,
         win_rate=round(r.win_rate, 4))
    # the exact probabilities of every decision (the audit, the regret runs), on the trained agent
    for board, games in (("8x8x10", n_exp), ("16x16x40", n_exp // 4), ("16x30x99", n_exp // 4)):
        play(agent.copy(), board, 5, seed=0, learn=False, progress=False, recorder=Recorder(rows=False))
        plain = play(agent.copy(), board, games, seed=1, learn=False, progress=False)
        probed = play(agent.copy(), board, games, seed=1, learn=False, progress=False, recorder=Recorder(rows=False))
        decisions = int(plain.records["decisions"].sum())
        cost = (probed.seconds - plain.seconds) / max(decisions, 1) * 1e6
        emit(f"regret probe {board}, frozen ({games:,} games)", games, probed.seconds,
             us_per_decision=round(cost, 2), decisions_per_game=round(decisions / games, 1),
             plain_games_per_second=round(games / plain.seconds, 1))
    return rows

