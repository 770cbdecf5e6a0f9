"""Benchmarks: games per second of the standard workloads (one core), as ratios measured side by side.

``python -m sweeper bench`` (or ``make bench``) prints one row per workload (:func:`run_benchmarks`: each row's
games/s, its speed over the built-in greedy agent's and over the slow pure-Python reference's, measured in the
same command). Some rows explain a cost rather than time a workload: what Thompson sampling's time goes to
(:func:`thompson_draws`), the cost of the exact probabilities that the audit and the regret runs compute at every
decision and the regret runs of ``ext:regret`` themselves (:func:`_regret_rows`), and, with the optional extra
``deep`` installed, the neural bandit's training and test games (:func:`neural_rows`).

Then the *unit costs per learner* (:func:`unit_cost_section`): for every learner of the leaderboard, the CPU per
training and per test decision, the fastest of :data:`UNIT_REPEATS` repeats or more with their spread, measured
pinned to one CPU while the other processes' load is watched (``busy`` above :data:`BUSY_LOAD` of a core);
:func:`unit_costs` reads them back as a table, :func:`work_cost` turns counted decisions into CPU seconds.

``python -m sweeper bench --save results/bench.json`` keeps the rows and the unit costs, with the date, the
machine and the code's provenance, as plain JSON (:func:`save_bench`; a record with busy rows only with
``--allow-busy``, marked); the speed chapter of the book reads that file.
"""

from __future__ import annotations

import importlib.util
import math
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from numba import njit

from .agents.kinds import make_agent
from .machine import LoadWatch, alone_on_one_cpu, other_load_now
from .rng import STREAM_BENCH, beta, make_state
from .running.training import evaluate, train

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "slow_reference.py"
#: The format of a saved bench file (2: with the unit costs per learner; a file of format 1, without them, is still
#: read).
FORMAT = 2
#: Runs of each workload of up to 10^5 games (the fastest counts), unless told otherwise.
REPEAT = 3
#: A workload repeats while its runs have used less than this many seconds (and fewer than ``repeat`` runs).
REPEAT_BUDGET = 30.0


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


@njit(cache=True)
def _draw_all(state, a, b, rounds):
    """Draw Beta(a[i], b[i]) for every i, ``rounds`` times over (the sum keeps the draws from being skipped)."""
    total = 0.0
    for _ in range(rounds):
        for i in range(a.shape[0]):
            total += beta(state, a[i], b[i])
    return total


def thompson_draws(agent, board="8x8x10", games: int = 40, seed: int = 11, playing: int = 20_000) -> dict:
    """What Thompson sampling's time goes to, measured on one trained ``agent`` (a :class:`~sweeper.agents.kinds.
    Thompson`): ``games`` games of a copy of it stepped through with :class:`~sweeper.running.episode.Episode`
    give its draws, one from the posterior (:func:`~sweeper.agents.kernels.thompson_posterior`) of each distinct
    action among a decision's candidates, as the kernel draws them; :func:`sweeper.rng.beta` is timed on exactly
    those (a, b), over and over for at least half a second (the fastest of three such timings). Another copy
    trains on ``playing`` more games, timed, for its whole time per decision. (Both on the trained agent: a
    young agent draws more often in closed form, where a or b is 1, and its draws are cheaper.)"""
    from .agents.kernels import thompson_posterior
    from .running.episode import Episode
    pairs, decisions = [], 0
    for g in range(games):
        ep = Episode(agent, board, seed=seed + g)
        while not ep.done:
            c = ep.step().candidates.drop_duplicates("key")
            pairs += [thompson_posterior(float(q), float(n), agent.a0, agent.b0) for q, n in zip(c["q"], c["n"])]
            decisions += 1
    a, b = (np.array(v, dtype=np.float64) for v in zip(*pairs))
    state = make_state(seed, STREAM_BENCH)
    _draw_all(state, a[:10], b[:10], 1)  # compile
    rounds, seconds = 1, 0.0
    while seconds < 0.5:
        rounds *= 2
        t0 = time.perf_counter()
        _draw_all(state, a, b, rounds)
        seconds = time.perf_counter() - t0
    for _ in range(2):  # the fastest of three, as for the workloads
        t0 = time.perf_counter()
        _draw_all(state, a, b, rounds)
        seconds = min(seconds, time.perf_counter() - t0)
    cheap = float(np.mean((a == 1.0) | (b == 1.0)))
    more = train(agent.copy(), board, playing, seed=seed, progress=False)
    per_decision = more.seconds / int(more.records["decisions"].sum()) * 1e6
    ns = seconds / (rounds * len(a)) * 1e9
    drawing = len(a) / decisions * ns / 1000
    return {"decisions": decisions, "draws_per_decision": round(len(a) / decisions, 1), "ns_per_draw": round(ns, 1),
            "closed_form_share": round(cheap, 3), "us_per_decision_drawing": round(drawing, 3),
            "games_timed": playing, "us_per_decision_trained": round(per_decision, 3),
            "share_of_time": round(drawing / per_decision, 3)}


class _Table:
    """The bench's rows as they are measured: each one printed as it finishes (``out``), with its speed relative to
    the first greedy row and to the slow pure-Python reference."""

    def __init__(self, out, repeat: int, reference: float | None):
        self.out, self.repeat, self.rows = out, repeat, []
        self.base = {"reference": reference}
        out(f"{'workload':<72} {'games':>9} {'seconds':>8} {'games/s':>10} {'x greedy':>9} {'x reference':>12}")

    def emit(self, name, games, seconds, **extra):
        """A timed row: ``games`` in ``seconds``, and any ``extra`` fields."""
        speed = games / seconds
        self.base.setdefault("greedy", speed)
        ref = self.base["reference"]
        row = {"workload": name, "games": games, "seconds": round(seconds, 3), "games_per_second": round(speed, 1),
               "x_greedy": float(f"{speed / self.base['greedy']:.3g}"),
               "x_reference": None if ref is None else float(f"{speed / ref:.4g}"), **extra}
        self.rows.append(row)
        more = "  ".join(f"{k}={v}" for k, v in extra.items())
        xr = "-" if ref is None else f"{speed / ref:,.1f}"
        self.out(f"{name:<72} {games:>9,} {seconds:>8.2f} {speed:>10,.0f} {speed / self.base['greedy']:>9.3g} "
                 f"{xr:>12}  {more}")

    def explain(self, name, **fields):
        """A row that explains a cost instead of timing a workload: no games/s, no ratios."""
        self.rows.append({"workload": name, **fields})
        self.out(f"{name:<72} {'':>9} {'':>8} {'':>10} {'':>9} {'':>12}  "
                 + "  ".join(f"{k}={v}" for k, v in fields.items()))

    def run(self, name, agent, games, board="8x8x10", **kw):
        """Train ``agent`` (a spec, or an agent object copied afresh for every run) on the same games up to
        ``repeat`` times; the fastest run counts."""
        runs = []
        while len(runs) < self.repeat and sum(r.seconds for r in runs) < REPEAT_BUDGET:
            fresh = agent if isinstance(agent, str) else agent.copy()
            runs.append(train(fresh, board, games, seed=7, progress=False, **kw))
        r = min(runs, key=lambda x: x.seconds)
        decisions = int(r.records["decisions"].sum())
        self.emit(name, games, r.seconds, win_rate=round(r.win_rate, 4), runs=len(runs),
                  us_per_decision=round(r.seconds / decisions * 1e6, 3))
        return r


def run_benchmarks(quick: bool = False, out=print, repeat: int | None = None) -> list[dict]:
    """Run the workloads, print a table as they finish, return the rows (each workload of up to 10^5 games the
    fastest of up to ``repeat`` runs: :data:`REPEAT` by default, 1 with ``quick``).

    Each workload runs once after a small warm-up run, so compile time (numba's cache makes it short after the
    first use) is not counted. Beside its games/s each row gives two ratios measured in the same command: ``x
    greedy``, its speed over the built-in greedy agent's (the first row), and ``x reference``, its speed over the
    slow, readable pure-Python agent of ``tests/slow_reference.py`` playing greedy on the same kind of boards (only
    where that file is present: a clone of the repository, not an installed wheel). Timings vary by some percent
    from run to run, so each workload of up to 10^5 games runs up to ``repeat`` times (fewer once it has used
    30 s) and its fastest run counts (as :mod:`timeit` does); the row says how many runs it took. The longer
    workloads run once."""
    repeat = (1 if quick else REPEAT) if repeat is None else repeat
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a whole number >= 1, got {repeat!r}")
    n5 = 10_000 if quick else 100_000
    n_ref = 60 if quick else 500
    train("greedy", "8x8x10", 200, seed=0, progress=False)  # warm-up / compile
    out("measuring the slow reference (tests/slow_reference.py) ...")
    table = _Table(out, repeat, _reference_speed(n_ref))
    _bandit_rows(table, quick, n5, n_ref)
    _rule_rows(table, n5)
    table.run(f"state-action train 4x4x4 ({n5:,} games)", "sa", n5, board="4x4x4")
    agent = _long_greedy_rows(table, quick)
    _regret_rows(table, agent, quick)
    neural_rows(quick, table.emit, table.explain)
    return table.rows


def _bandit_rows(table: _Table, quick: bool, n5: int, n_ref: int) -> None:
    """The built-in bandit agents' training speed on beginner, and what Thompson sampling's time goes to."""
    table.run(f"greedy train 8x8x10 ({n5:,} games)", "greedy", n5)
    if table.base["reference"] is not None:
        table.emit(f"slow reference greedy, pure Python ({n_ref:,} games)", n_ref, n_ref / table.base["reference"])
    table.run(f"ucb(0.1) train 8x8x10 ({n5:,} games)", "ucb:0.1", n5)
    th = table.run(f"thompson train 8x8x10 ({n5:,} games)", "thompson", n5)
    # what Thompson's time goes to: its Beta draws, timed alone on the draws of a sample of its decisions
    sample = 10 if quick else 40
    d = thompson_draws(th.agent, games=sample, playing=n5 // 5)
    table.explain(f"thompson's Beta draws alone, trained agent ({d.pop('decisions'):,} decisions of {sample} games)",
                  **d)


def _rule_rows(table: _Table, n5: int) -> None:
    """Plug-in rules (:mod:`sweeper.agents.custom`): greedy re-stated, on the same games as the built-in greedy; a
    plain Python loop is compiled by Rule itself (numba can), ``compile=False`` keeps it in Python."""
    from .agents import rule_library as lib
    from .agents.custom import Rule
    from .agents.kinds import RuleAgent
    loop = Rule(greedy_loop, name="greedy_loop")
    loop_py = Rule(greedy_loop, name="greedy_loop", compile=False)
    numpy_py = lib.greedy_rule(compiled=False)
    for rule in (lib.greedy_rule(compiled=True), numpy_py, loop, loop_py):
        train(RuleAgent(rule), "8x8x10", 200, seed=0, progress=False)  # compile
    table.run(f"greedy as a plug-in rule, njit ({n5:,} games)", RuleAgent(lib.greedy_rule(compiled=True)), n5)
    table.run(f"greedy as a plug-in rule, Python loop, compiled by Rule ({n5:,} games)", RuleAgent(loop), n5)
    n_py = n5 // 10
    for games in (n_py, n5):
        table.run(f"greedy as a plug-in rule, NumPy, in Python ({games:,} games)", RuleAgent(numpy_py), games)
    table.run(f"greedy as a plug-in rule, Python loop, compile=False ({n_py:,} games)", RuleAgent(loop_py), n_py)


def _long_greedy_rows(table: _Table, quick: bool):
    """Greedy trained end to end on 10^6 beginner games, then tested on expert frozen and learning; returns it."""
    n6 = 20_000 if quick else 1_000_000
    n_exp = 1_000 if quick else 10_000
    agent = make_agent("greedy")
    r = train(agent, "8x8x10", n6, seed=7, progress=False)
    t = agent.table
    table.emit(f"greedy train 8x8x10 ({n6:,} games, end to end)", n6, r.seconds, win_rate=round(r.win_rate, 4),
               actions_recorded=t.actions_recorded, keys_in_table=int(t.meta[0]), table_bytes=t.nbytes())
    for freeze, how in ((True, "frozen"), (False, "learning")):
        t0 = time.perf_counter()
        r = evaluate(agent, "16x30x99", n_exp, seed=1, freeze=freeze, progress=False)
        table.emit(f"expert 16x30x99 eval, {how} ({n_exp:,} games)", n_exp, time.perf_counter() - t0,
                   win_rate=round(r.win_rate, 4))
    return agent


def _regret_rows(table: _Table, agent, quick: bool) -> None:
    """The exact probabilities of every decision (the audit, the regret runs) on the trained ``agent``; then the
    regret runs of ``ext:regret``: greedy's training games scored and split against the best window agent (the
    package's table), beside the same games scored unsplit and trained without a probe."""
    from .running.belief import Recorder
    from .running.regret import regret
    from .running.training import KernelCalls, play
    n_exp = 1_000 if quick else 10_000
    for board, games in (("8x8x10", n_exp), ("16x16x40", n_exp // 4), ("16x30x99", n_exp // 4)):
        play(agent.copy(), board, 5, seed=0, learn=False, progress=False,
             calls=KernelCalls(recorder=Recorder(rows=False)))
        plain = play(agent.copy(), board, games, seed=1, learn=False, progress=False)
        probed = play(agent.copy(), board, games, seed=1, learn=False, progress=False,
                      calls=KernelCalls(recorder=Recorder(rows=False)))
        decisions = int(plain.records["decisions"].sum())
        cost = (probed.seconds - plain.seconds) / max(decisions, 1) * 1e6
        table.emit(f"regret probe {board}, frozen ({games:,} games)", games, probed.seconds,
                   us_per_decision=round(cost, 2), decisions_per_game=round(decisions / games, 1),
                   plain_games_per_second=round(games / plain.seconds, 1))
    for board, games in (("8x8x10", n_exp), ("16x16x40", n_exp // 4)):
        regret("greedy", board, 5, seed=0)  # warm-up
        plain = train("greedy", board, games, seed=1, progress=False)
        unsplit = regret("greedy", board, games, seed=1, window=None).run
        split = regret("greedy", board, games, seed=1).run
        table.emit(f"regret run {board}, greedy training split against the best window agent ({games:,} games)",
                   games, split.seconds, x_unsplit=round(split.seconds / unsplit.seconds, 2),
                   x_plain=round(split.seconds / plain.seconds, 1),
                   unsplit_games_per_second=round(games / unsplit.seconds, 1),
                   plain_games_per_second=round(games / plain.seconds, 1),
                   decisions_per_game=round(int(plain.records["decisions"].sum()) / games, 1))


#: The neural bandit's rows (:func:`neural_rows`): games of training and of test games per level, (quick, full).
NEURAL_GAMES = {"8x8x10": ((1_000, 400), (5_000, 4_000)), "16x16x40": ((60, 60), (400, 400)),
                "16x30x99": ((20, 20), (150, 150))}
#: The learnings the neural bandit's training rows time (:class:`~sweeper.running.neural_play.NeuralLearning`): the
#: defaults (the first networks' and the warm start's), 128 views per 256 decisions and 128 per 512.
NEURAL_LEARNING = {"default learning": {}, "minibatch 128, replay 0.5": {"minibatch": 128, "replay": 0.5},
                   "minibatch 128, replay 0.25": {"minibatch": 128, "replay": 0.25, "lr": 2e-3}}


def neural_rows(quick: bool, emit, explain) -> None:
    """The neural bandit (:mod:`sweeper.running.neural_play`, the optional extra ``deep``): on each of beginner,
    intermediate and expert, its training (each learning of :data:`NEURAL_LEARNING`: the defaults of
    :func:`~sweeper.running.neural_play.train_neural` and a faster one) and its frozen batched test games
    (:func:`~sweeper.running.neural_play.evaluate_neural`), in games and decisions per CPU second (one thread).
    The network trained on beginner with the defaults (the first row) plays the harder levels' rows and the test
    rows (an untrained one loses at once, so its games would be unrepresentatively short). Without the extra, one
    row says it was skipped."""
    from .agents.neural import NeuralAgent, require_torch
    try:
        require_torch()
    except ValueError as exc:
        explain("neural bandit: skipped", reason=str(exc))
        return
    from .running.neural_play import NeuralLearning, evaluate_neural, train_neural
    which = 0 if quick else 1
    fresh = NeuralAgent(seed=7)
    train_neural(fresh.copy(), "8x8x10", 20, seed=7, learning=NeuralLearning(warmup=50))  # warm-up / compile
    size = f"{fresh.channels} ch, {fresh.layers} layers"
    trained = None  # the network of the first row (beginner, the defaults)
    for board, games in NEURAL_GAMES.items():
        n = games[which][0]
        start = fresh if board == "8x8x10" else trained
        for how, learning in NEURAL_LEARNING.items():
            r = train_neural(start.copy(), board, n, seed=7, learning=NeuralLearning(**learning))
            trained = r.agent if trained is None else trained
            emit(f"neural bandit ({size}) train {board}, {how} ({n:,} games, CPU s)", n, r.cpu_seconds,
                 win_rate=round(r.win_rate, 4), decisions_per_second=round(r.decisions / r.cpu_seconds, 1),
                 updates_per_second=round(r.updates / r.cpu_seconds, 2), decisions_per_game=round(r.decisions / n, 1))
    for board, games in NEURAL_GAMES.items():
        n = games[which][1]
        t = evaluate_neural(trained, board, n, seed=1)
        emit(f"neural bandit {board} test games, frozen, batched ({n:,} games, CPU s)", n, t.cpu_seconds,
             win_rate=round(t.win_rate, 4), decisions_per_second=round(t.decisions / t.cpu_seconds, 1),
             decisions_per_game=round(t.decisions / n, 1))


# --------------------------------------------------------------- unit costs --

#: Other processes' CPU while a unit cost is measured, in cores (their CPU seconds per second of wall time, summed
#: over every CPU of the machine): above it, the row is marked ``busy``.
BUSY_LOAD = 0.10
#: Repeats of every unit cost (at least): the fastest counts, and the spread (min, median, max) is kept.
UNIT_REPEATS = 3
#: The unit costs' workloads, full and quick, in games (per level where three): see :func:`_table_units`,
#: :func:`_solver_units`, :func:`_ppo_units` (``ppo_steps``: environment steps; quick: rollouts of 64, a smoke
#: test) and :func:`_neural_units`. ``test``: the leaderboard's test boards of each level, as many.
UNIT_WORK = {
    "full": {"table_warm": 20_000, "table_train": 20_000, "test": (10_000, 2_000, 2_000), "solver_env": (500, 100, 100),
             "ppo_steps": 2_048, "ppo_test": 1_000, "neural_warm": 2_000, "neural_train": (1_500, 256, 256),
             "neural_test": (2_000, 400, 300), "neural_symmetric": (600, 150, 150)},
    "quick": {"table_warm": 1_000, "table_train": 1_000, "test": (200, 40, 20), "solver_env": (20, 5, 3),
              "ppo_steps": 64, "ppo_test": 20, "neural_warm": 64, "neural_train": (64, 8, 4),
              "neural_test": (64, 8, 4), "neural_symmetric": (16, 4, 2)}}
#: The fields of a unit-cost row (:func:`unit_cost_section`), in order.
UNIT_FIELDS = ("learner", "level", "board", "what", "path", "games", "decisions", "cpu_seconds", "us_per_decision",
               "us_min", "us_median", "us_max", "repeats", "gradient_steps_per_decision", "env_steps", "win_rate",
               "busy", "other_load")


def _g(x, digits: int = 4):
    return None if x is None else float(f"{x:.{digits}g}")


def measure(work, repeats: int = UNIT_REPEATS) -> dict:
    """Run ``work()`` ``repeats`` times, each in a :class:`~sweeper.machine.LoadWatch`; ``work`` returns a dict
    of ``decisions`` (> 0), optionally ``cpu_seconds`` (the work's own CPU as its code measures it; else the whole
    call's process CPU counts) and any other fields. Returns the fastest repeat's fields (the least CPU per
    decision) with ``cpu_seconds``, ``us_per_decision`` (µs), the spread ``us_min``, ``us_median``, ``us_max``,
    ``repeats``, ``other_load`` (the other processes' CPU over the repeats' wall time, in cores; None without
    ``/proc/stat``) and ``busy`` (``other_load`` above :data:`BUSY_LOAD`; None if unknown)."""
    from .checks import whole
    runs = []
    for _ in range(whole(repeats, "repeats", 1)):
        with LoadWatch() as w:
            got = dict(work())
        cpu = float(got.pop("cpu_seconds", None) or w.cpu)  # the work's own, else the whole call's
        if not isinstance(got.get("decisions"), (int, np.integer)) or got["decisions"] <= 0:
            raise ValueError(f"a measured workload must make decisions, got decisions={got.get('decisions')!r}")
        runs.append((cpu / got["decisions"] * 1e6, cpu, got, w))
    us = sorted(r[0] for r in runs)
    best = min(runs, key=lambda r: r[0])
    others = [r[3].other for r in runs]
    load = None if None in others else sum(others) / max(sum(r[3].wall for r in runs), 1e-9)
    return {**best[2], "cpu_seconds": round(best[1], 4), "us_per_decision": _g(us[0]), "us_min": _g(us[0]),
            "us_median": _g(float(np.median(us))), "us_max": _g(us[-1]), "repeats": len(runs),
            "busy": None if load is None else bool(load > BUSY_LOAD), "other_load": _g(load, 3)}


def unit_learners(quick: bool = False) -> list[str]:
    """The leaderboard's learners, as it names them: the agents of ``ext:benchmark`` (at quick scale with
    ``quick``) and ``ext:benchmark_ppo``; ``neural-warm-start`` (every network's warm start, training only),
    ``neural`` (``ext:benchmark_neural``), ``neural-symmetric`` (its networks playing symmetric, test only) and
    ``neural-averaged`` (``ext:neural_expert_averaged``, expert, training only)."""
    from .experiments.leaderboard import benchmark_ppo_tasks, benchmark_tasks
    from .experiments.specs import SCALES
    sc = SCALES["quick" if quick else "paper"]
    names = [t.params["agent"] for t in benchmark_tasks(sc, ()) + benchmark_ppo_tasks(sc)]
    return list(dict.fromkeys(names)) + ["neural-warm-start", "neural", "neural-symmetric", "neural-averaged"]


class _Units:
    """The unit-cost rows as they are measured, each printed as it finishes (``out``)."""

    def __init__(self, out, repeats: int, work: dict):
        self.out, self.repeats, self.work, self.rows, self.suites = out, repeats, work, [], {}
        out(f"{'learner':<24} {'level':<12} {'what':<5} {'path':<30} {'decisions':>10} {'CPU s':>8} "
            f"{'µs/decision':>11}  {'min / median / max µs':<24} {'grad/dec':>8}  busy")

    def run(self, learner: str, level: str, what: str, path: str, work) -> dict:
        """Measure ``work`` (:func:`measure`) and keep its row."""
        from .game.engine import Setting
        row = {"learner": learner, "level": level, "board": str(Setting.parse(level)), "what": what, "path": path,
               **measure(work, self.repeats)}
        row = {k: _g(row.get(k)) if k in ("gradient_steps_per_decision", "win_rate") else row.get(k)
               for k in UNIT_FIELDS}
        self.rows.append(row)
        spread = f"{row['us_min']:,.4g} / {row['us_median']:,.4g} / {row['us_max']:,.4g}"
        grad = "" if row["gradient_steps_per_decision"] is None else f"{row['gradient_steps_per_decision']:.3g}"
        busy = {None: "unknown", False: "no"}.get(row["busy"], f"BUSY (others used {row['other_load']:.2f} cores)")
        self.out(f"{learner:<24} {level:<12} {what:<5} {path:<30} {row['decisions']:>10,} {row['cpu_seconds']:>8.3f} "
                 f"{row['us_per_decision']:>11,.4g}  {spread:<24} {grad:>8}  {busy}")
        return row

    def skip(self, learners: list[str], reason: str) -> None:
        self.rows.append({"learner": ", ".join(learners), "what": "skipped", "reason": reason})
        self.out(f"{', '.join(learners)}: skipped ({reason})")

    def test(self, learner: str, player, level: str, games: int, path: str) -> dict:
        """The leaderboard's test games of ``player`` on the first ``games`` boards of ``level``'s suite
        (:func:`~sweeper.experiments.benchmark.score`, no regret): its CPU per click, as the leaderboard counts it."""
        from .experiments.benchmark import load_suite, score
        self.suites[level] = self.suites.get(level) or load_suite(level)

        def work():
            s = score(player, level, "reference", games, 0, suite=self.suites[level]).summary()
            return {"games": games, "decisions": s["decisions"], "cpu_seconds": s["test_cpu_seconds"],
                    "win_rate": s["win_rate"]}
        return self.run(learner, level, "test", path, work)


def _table_units(units: _Units, learners: list[str]) -> None:
    """The table agents, trained ``table_warm`` beginner games (so that they are not new), then timed on
    ``table_train`` more by :func:`~sweeper.running.training.train` (a decision: a click of a training game), and
    the best window agents; each tested by frozen evaluation (``evaluate(..., freeze=True)``) on every level."""
    from .experiments.benchmark import LEVELS
    from .experiments.leaderboard import best_window_agent
    w = units.work
    for spec in learners:
        if spec.startswith("best-window:"):
            agent = best_window_agent(spec.split(":", 1)[1])
        else:
            agent = make_agent(spec)
            train(agent, "8x8x10", w["table_warm"], seed=7, progress=False)  # briefly trained (and compiled)

            def work(agent=agent):
                fresh, cpu0 = agent.copy(), time.process_time()
                r = train(fresh, "8x8x10", w["table_train"], seed=8, progress=False)
                return {"games": w["table_train"], "decisions": int(r.records["decisions"].sum()),
                        "cpu_seconds": time.process_time() - cpu0, "win_rate": r.win_rate}
            units.run(spec, "beginner", "train", "train", work)
        for level, games in zip(LEVELS, w["test"]):
            units.test(spec, agent, level, games, "evaluate(freeze=True)")


def _solver_units(units: _Units) -> None:
    """The untrained players' kernels (``play_solver``, ``play_search``, ``play_random``), and the solver as a policy
    of the Gymnasium environment (``solver-env``: ``solver_policy``, refereed as the benchmark plays policies)."""
    from .experiments.benchmark import LEVELS
    from .game.engine import Setting
    from .running.policies import solver_policy
    for name, path in (("solver", "play_solver (kernel)"), ("search", "play_search (kernel)"),
                       ("random", "play_random (kernel)")):
        for level, games in zip(LEVELS, units.work["test"]):
            units.test(name, name, level, games, path)
    for level, games in zip(LEVELS, units.work["solver_env"]):
        units.test("solver-env", solver_policy(Setting.parse(level).mines), level, games, "Gymnasium env")


def _neural_train(units: _Units, learner: str, warm, board: str, games: int, learning: dict):
    """Copies of the network ``warm`` trained ``games`` games of ``board`` with ``learning`` (fields of
    :class:`~sweeper.running.neural_play.NeuralLearning`); returns the last one's network. Its path names the
    learning: ``128/256``, a step on 128 views per 256 decisions; ``+sym``, the symmetries; ``+avg``, averaging."""
    from .experiments.benchmark import level_of
    from .running.neural_play import NeuralLearning, train_neural
    how, kept = NeuralLearning(**learning), {}

    def work():
        r = kept["run"] = train_neural(warm.copy(), board, games, seed=8, learning=how)
        return {"games": r.games, "decisions": r.decisions, "cpu_seconds": r.cpu_seconds, "win_rate": r.win_rate,
                "gradient_steps_per_decision": r.updates / max(r.decisions, 1)}
    path = f"train_neural {how.minibatch}/{how.minibatch / how.replay:g}" + " +sym" * how.symmetries + \
        " +avg" * (how.average > 0)
    units.run(learner, level_of(board), "train", path, work)
    return kept["run"].agent


def _neural_units(units: _Units) -> None:
    """The neural bandit as the book's networks learn (:data:`~sweeper.experiments.neural_runs.WORK_LEVELS`: the
    warm start's learning, then :data:`~sweeper.experiments.neural_runs.NEURAL_LEARNING` with the symmetries): a
    network warmed up for ``neural_warm`` beginner games with the warm start's learning (an untrained one loses at
    once: its games would be unrepresentatively short), then per level trained with the level's learning and tested
    as the leaderboard tests a network (batched), as trained and playing symmetric; and the expert networks' weight
    averaging (training only). The warm-up is a row too (``neural-warm-start``): every network begins so."""
    from .agents.neural import NeuralAgent
    from .experiments.benchmark import level_of
    from .experiments.neural_runs import (AVERAGED_LEVELS, NEURAL_LEARNING, WORK_LEARNING, WORK_LEVELS,
                                          WORK_WARM_START)
    from .running.neural_play import NeuralLearning, train_neural
    w = units.work
    warm = _neural_train(units, "neural-warm-start", NeuralAgent(seed=7), WORK_WARM_START[0], w["neural_warm"],
                         {**WORK_LEARNING, **WORK_WARM_START[2]})
    games = dict(zip(WORK_LEVELS, w["neural_train"]))
    for board, tests, symmetric in zip(WORK_LEVELS, w["neural_test"], w["neural_symmetric"]):
        net = _neural_train(units, "neural", warm, board, games[board], {**NEURAL_LEARNING, **WORK_LEARNING})
        units.test("neural", net, level_of(board), tests, "evaluate_neural")
        net = net.copy()
        net.symmetric = True
        units.test("neural-symmetric", net, level_of(board), symmetric, "evaluate_neural, symmetric")
    for board, recipe in AVERAGED_LEVELS.items():
        _neural_train(units, "neural-averaged", warm, board, games[board], {**NEURAL_LEARNING, **recipe["learning"]})


def _ppo_units(units: _Units, learners: list[str], quick: bool) -> None:
    """MaskablePPO as the leaderboard trains it (:func:`~sweeper.experiments.deep_rl.train_ppo`: a decision is an
    environment step; each rollout of 1,024 is followed by its epochs of gradient steps), tested through the
    environment as the leaderboard scores a policy. Quick: rollouts of 64 steps."""
    from .experiments.deep_rl import PPOPolicy, make_model, train_ppo
    steps = units.work["ppo_steps"]
    for learner in learners:
        policy, kept = learner.split(":", 1)[1], {}
        make_model("8x8x10", 1, n_steps=64, batch_size=64, policy=policy).learn(total_timesteps=64)  # warm-up

        def work(policy=policy):
            if quick:
                model, cpu0 = make_model(n_steps=steps, batch_size=steps, policy=policy), time.process_time()  # 8x8x10
                model.learn(total_timesteps=steps)
                cpu, games = time.process_time() - cpu0, None
                kept["player"] = PPOPolicy(model, {"board": "8x8x10", "policy": policy, "seed": 1})
            else:
                kept["player"], facts = train_ppo("8x8x10", steps, 1, policy=policy)
                cpu, games = facts["train_cpu_seconds"], facts["games"]
            m, done = kept["player"].model, int(kept["player"].model.num_timesteps)
            grads = m.n_epochs * math.ceil(m.n_steps / m.batch_size) * (done // m.n_steps)
            return {"games": games, "decisions": done, "env_steps": done, "cpu_seconds": cpu,
                    "gradient_steps_per_decision": grads / done}
        units.run(learner, "beginner", "train", "train_ppo (MaskablePPO)", work)
        units.test(learner, kept["player"], "beginner", units.work["ppo_test"], "Gymnasium env, predict")


def _deep_units(units: _Units, ppo: list[str], quick: bool) -> None:
    """The neural bandit's rows and PPO's, each only with the optional extra ``deep`` (else one row: skipped)."""
    from .agents.neural import require_torch
    from .experiments.deep_rl import require
    for learners, need, measure_them in ((["neural-warm-start", "neural", "neural-symmetric", "neural-averaged"],
                                          require_torch,
                                          lambda: _neural_units(units)),
                                         (ppo, require, lambda: _ppo_units(units, ppo, quick))):
        try:
            need()
        except ValueError as exc:
            units.skip(learners, str(exc))
            continue
        measure_them()


def unit_cost_section(quick: bool = False, out=print, repeats: int | None = None) -> dict:
    """The unit costs per learner (see the module docstring): for every learner of :func:`unit_learners`, its CPU per
    training decision (where it trains) and per test decision on each level it is scored on, by this process
    pinned to one CPU (:func:`~sweeper.machine.alone_on_one_cpu`), each row the fastest of ``repeats`` (at least
    :data:`UNIT_REPEATS`) with their spread and the other processes' load (:func:`measure`), printed as it ends.
    ``quick``: the leaderboard's quick learners on tiny workloads (:data:`UNIT_WORK`). Returns ``rows`` (fields
    :data:`UNIT_FIELDS`; ``what: skipped`` with a ``reason`` where the extra ``deep`` is missing), ``setup`` (the
    pinning, repeats, threshold, torch's threads), ``busy``, ``busy_rows``, ``other_load`` (the whole section's)."""
    from .checks import whole
    repeats = UNIT_REPEATS if repeats is None else max(whole(repeats, "repeats", 1), UNIT_REPEATS)
    learners, now = unit_learners(quick), other_load_now(0.5)
    out(f"unit costs per learner: process CPU per decision, the fastest of {repeats} repeats (min / median / max), "
        f"pinned to one CPU; a row is busy when other processes used more than {BUSY_LOAD:g} of a core meanwhile")
    if now is not None and now > BUSY_LOAD:
        out(f"note: other processes are using {now:.2f} cores now: rows measured while they run are marked busy")
    with alone_on_one_cpu() as pin, LoadWatch() as watch:
        units = _Units(out, repeats, UNIT_WORK["quick" if quick else "full"])
        _solver_units(units)
        _table_units(units, [x for x in learners if x not in ("solver", "search", "random")
                             and not x.startswith(("ppo:", "neural"))])
        _deep_units(units, [x for x in learners if x.startswith("ppo:")], quick)
    torch, busy = sys.modules.get("torch"), [r for r in units.rows if r.get("busy")]
    setup = {**pin, "repeats": repeats, "busy_load": BUSY_LOAD, "mode": "quick" if quick else "full",
             "torch_threads": torch.get_num_threads() if torch is not None else None, "wall_seconds": round(watch.wall),
             "clock": "process CPU of the work alone (time.process_time, every thread)"}
    return {"rows": units.rows, "setup": setup, "busy": bool(busy), "busy_rows": len(busy),
            "other_load": _g(watch.other_load, 3)}


def unit_costs(record=None):
    """The unit costs of a saved bench (a record of :func:`read_bench`, a path, or None: ``results/bench.json``) as a
    ``pandas.DataFrame`` of :data:`UNIT_FIELDS`, a row per learner, level and what (``train``, ``test``);
    ``attrs["busy"]``: measured on a busy machine; ``attrs["skipped"]``: learners skipped, and why. A cost is
    decisions times ``us_per_decision`` (:func:`work_cost`). A record without them (format 1): ``ValueError``."""
    import pandas as pd
    if record is None or isinstance(record, (str, Path)):
        record = read_bench(record)
    if not isinstance(record, dict):
        raise ValueError(f"record must be a bench record (of read_bench), a path or None, got {type(record).__name__}")
    rows = [r for r in record.get("unit_costs") or [] if r.get("what") in ("train", "test")]
    if not rows:
        raise ValueError(f"the bench of {record.get('date', 'an unknown date')} has no unit costs (format "
                         f"{record.get('format')}): `python -m sweeper bench --save results/bench.json` measures them")
    frame = pd.DataFrame([{k: r.get(k) for k in UNIT_FIELDS} for r in rows], columns=list(UNIT_FIELDS))
    frame.attrs["busy"] = bool(record.get("busy"))
    frame.attrs["skipped"] = [{"learners": r["learner"], "reason": r.get("reason")}
                              for r in record.get("unit_costs") or [] if r.get("what") == "skipped"]
    return frame


def bench_learner(spec: str) -> str:
    """The bench's name of a leaderboard entry's ``spec``: a stored network (``neural:KIND/ID``) is ``neural``."""
    return next((p for p in ("neural-symmetric", "neural") if spec.startswith(p + ":")), spec)


def work_cost(learner: str, level: str, decisions, what: str = "train", record=None) -> float:
    """The CPU seconds ``decisions`` training (``what="train"``) or test (``"test"``) decisions of ``learner`` cost on
    ``level`` (a level's name or its board, e.g. ``"16x30x99"``) by the unit costs of a saved bench (``record``, as
    for :func:`unit_costs`): ``decisions`` times ``us_per_decision``. ``learner`` is named as on the leaderboard
    (``"greedy"``, ``"best-window:8x8x10"``, ``"ppo:tiles"``, ``"solver"``, ``"neural"``, a stored network
    ``"neural:neural_bandit/ID"``...). A learner, level or what not measured: a ``ValueError`` saying what was."""
    from .experiments.benchmark import level_of
    if what not in ("train", "test"):
        raise ValueError(f"what must be 'train' or 'test', got {what!r}")
    if isinstance(decisions, (bool, np.bool_)) or not isinstance(decisions, (int, float, np.integer, np.floating)) \
            or not math.isfinite(decisions) or decisions < 0:
        raise ValueError(f"decisions must be a non-negative number, got {decisions!r}")
    if not isinstance(level, str) or not isinstance(learner, str) or not learner:
        raise ValueError(f"learner and level must be names (e.g. 'greedy', 'beginner'), got {learner!r}, {level!r}")
    level, name, frame = level_of(level), bench_learner(learner), unit_costs(record)
    known = list(dict.fromkeys(frame["learner"]))
    if name not in known:
        skipped = [s for s in frame.attrs["skipped"] if name in s["learners"].split(", ")]
        raise ValueError(f"the bench skipped {name}: {skipped[0]['reason']}" if skipped else
                         f"unknown learner {learner!r}: the bench measured {', '.join(known)}")
    mine = frame[frame["learner"] == name]
    hit = mine[(mine["level"] == level) & (mine["what"] == what)]
    if hit.empty:
        have = ", ".join(f"{w} on {lv}" for w, lv in zip(mine["what"], mine["level"]))
        raise ValueError(f"the bench has no {what} cost of {name} on {level}: it measured {have}")
    return float(decisions) * float(hit["us_per_decision"].iloc[0]) / 1e6


def default_path() -> Path:
    """Where the book reads the saved bench: ``results/bench.json`` in the repository."""
    from .experiments.reproduce import default_results
    return default_results("paper") / "bench.json"


def check_bench_path(path) -> Path:
    """Refuse, before any work, a bench file that could not be written."""
    from .checks import output_file
    return output_file(path, f"--save {path}")


class BusyBench(ValueError):
    """A bench measured while other processes used the machine, refused by :func:`save_bench`."""


def save_bench(rows: list[dict], path, repeat: int, units: dict | None = None, *, allow_busy: bool = False) -> dict:
    """Write the rows of a full :func:`run_benchmarks` and the unit costs of :func:`unit_cost_section` (``units``;
    None: none) with the date, the machine and the code's provenance as plain JSON (atomically); return the record.
    It says whether the machine was busy (``busy``: some unit-cost row was); a busy one is refused with
    :class:`BusyBench` (written to the temporary directory instead) unless ``allow_busy``, then written marked."""
    from .checks import boolean
    from .experiments.measurements import machine, write_record, write_record_or_rescue
    from .experiments.runner import provenance
    path, allow_busy, units = check_bench_path(path), boolean(allow_busy, "allow_busy"), units or {}
    record = {"format": FORMAT, "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
              "machine": machine(), "provenance": provenance(), "repeat": repeat,
              "repeat_budget_seconds": REPEAT_BUDGET, "rows": rows, "unit_costs": units.get("rows", []),
              "unit_setup": units.get("setup"), "busy": bool(units.get("busy")),
              "busy_rows": int(units.get("busy_rows", 0)), "other_load": units.get("other_load")}
    if record["busy"] and not allow_busy:
        import tempfile
        kept = Path(tempfile.gettempdir()) / f"sweeper-bench-busy-{os.getpid()}.json"
        try:  # what was measured is never lost
            write_record(kept, record)
        except OSError:
            kept = None
        measured = [r for r in record["unit_costs"] if "busy" in r]
        worst = max((r["other_load"] or 0.0) for r in measured if r["busy"])
        raise BusyBench(f"the machine was busy: in {record['busy_rows']} of {len(measured)} unit-cost rows other "
                        f"processes used more than {BUSY_LOAD:g} of a core (up to {worst:.2f}); not written to "
                        f"{path}{f' (the record is in {kept})' if kept else ''}: rerun on a quiet machine, or give "
                        f"--allow-busy to write it marked busy")
    write_record_or_rescue(path, record, "bench")
    return record


def read_bench(path=None) -> dict:
    """A bench file written by :func:`save_bench` (checked: format and fields); one of format 1 (no unit costs) too."""
    from .experiments.measurements import read_record
    path = default_path() if path is None else Path(path)
    rerun = "`python -m sweeper bench --save results/bench.json` writes it"
    fields = {"format", "date", "machine", "provenance", "repeat", "rows"}
    try:
        record = read_record(path, FORMAT, fields | {"unit_costs", "unit_setup", "busy"}, "a bench file", rerun)
    except ValueError as exc:
        try:  # the first format: the workloads' rows only
            record = read_record(path, 1, fields, "a bench file", rerun)
        except ValueError:
            raise exc from None
    rows, units = record["rows"], record.get("unit_costs", [])
    if not (isinstance(rows, list) and all(isinstance(r, dict) and "workload" in r for r in rows) and isinstance(
            units, list) and all(isinstance(r, dict) and {"learner", "what"} <= set(r) for r in units)):
        raise ValueError(f"{path} is not a bench file of format {record['format']}: {rerun}")
    return record
