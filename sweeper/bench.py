"""Benchmarks: games per second of the standard workloads (one core), as ratios measured side by side.

``python -m sweeper bench`` (or ``make bench``) prints one row per workload (:func:`run_benchmarks`: each row's
games/s, its speed over the built-in greedy agent's and over the slow pure-Python reference's, measured in the
same command). Some rows explain a cost rather than time a workload: what Thompson sampling's time goes to
(:func:`thompson_draws`), the cost of the exact probabilities that the audit and the regret runs compute at every
decision and the regret runs of ``ext:regret`` themselves (:func:`_regret_rows`), and, with the optional extra
``deep`` installed, the neural bandit's training and test games (:func:`neural_rows`).

``python -m sweeper bench --save results/bench.json`` keeps the rows, with the
date, the machine and the code's provenance, as plain JSON
(:func:`save_bench`); the speed chapter of the book reads that file.
"""

from __future__ import annotations

import importlib.util
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from numba import njit

from .agents.kinds import make_agent
from .rng import STREAM_BENCH, beta, make_state
from .running.training import evaluate, train

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "slow_reference.py"
#: The format of a saved bench file.
FORMAT = 1
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
#: The learnings the neural bandit's training rows time (the fields of
#: :class:`~sweeper.running.neural_play.NeuralLearning` they change): its defaults (the learning of the first
#: networks, and of the warm start of the stored runs), the learning of the stored runs of ``ext:neural`` after
#: their warm start (one step on 128 views per 256 decisions:
#: :data:`sweeper.experiments.neural_runs.NEURAL_LEARNING`), and one step on 128 views per 512 decisions
#: (``ext:neural_levers`` compares what the first two learn in equal CPU time).
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


def default_path() -> Path:
    """Where the book reads the saved bench: ``results/bench.json`` in the repository."""
    from .experiments.reproduce import default_results
    return default_results("paper") / "bench.json"


def check_bench_path(path) -> Path:
    """Refuse, before any work, a bench file that could not be written."""
    from .checks import output_file
    return output_file(path, f"--save {path}")


def save_bench(rows: list[dict], path, repeat: int) -> dict:
    """Write the rows of a full :func:`run_benchmarks` with the date, the machine and the code's provenance
    as plain JSON (atomically); return the record."""
    from .experiments.measurements import machine, write_record_or_rescue
    from .experiments.runner import provenance
    path = check_bench_path(path)
    record = {"format": FORMAT, "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
              "machine": machine(), "provenance": provenance(), "repeat": repeat,
              "repeat_budget_seconds": REPEAT_BUDGET, "rows": rows}
    write_record_or_rescue(path, record, "bench")
    return record


def read_bench(path=None) -> dict:
    """A bench file written by :func:`save_bench` (checked: format and fields)."""
    from .experiments.measurements import read_record
    path = default_path() if path is None else Path(path)
    rerun = "`python -m sweeper bench --save results/bench.json` writes it"
    record = read_record(path, FORMAT, {"format", "date", "machine", "provenance", "repeat", "rows"},
                         "a bench file", rerun)
    if not isinstance(record["rows"], list) or not all(isinstance(r, dict) and "workload" in r for r in record["rows"]):
        raise ValueError(f"{path} is not a bench file of format {FORMAT}: {rerun}")
    return record
