"""The leaderboard's stored runs: every agent of the book scored on the benchmark's boards (task kind ``benchmark``;
the leaderboard's specs are :data:`LEADERBOARD_SPECS`), with its training's counted work.

A run trains its agent (a table agent, with copies kept at checkpoints), or reads it (a stored network, the best
window agent's table), or needs none (the solver, random clicks), then scores it with
:func:`sweeper.experiments.benchmark.score` on the first boards of each level's suite. The training's counted work
(games, decisions, gradient steps, environment steps) goes in the run's ``info``, with the process CPU times and the
machine as recorded (never in its tables, so that verification compares only what is deterministic).
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..agents.kinds import Agent, make_agent
from ..agents.rule_library import book_rules
from ..game.engine import Setting
from ..machine import machine
from ..running.training import KernelCalls, play
from .benchmark import LEVELS, calibration, level_of, score
from .runner import Output, Task, task_kind


#: The specs whose runs are the leaderboard's entries: every agent of the book (``ext:benchmark``), the book's networks
#: as trained and playing symmetric, and the PPO policies. Other ``benchmark`` runs (the ablations' networks, the
#: searching solver's suites, the entries again on fresh boards) are not entries.
LEADERBOARD_SPECS = ("ext:benchmark", "ext:benchmark_neural_work", "ext:benchmark_neural_work_symmetric",
                     "ext:benchmark_ppo")
#: Where the stored runs of the repository live (the neural bandit's networks are read from there).
REPOSITORY = Path(__file__).resolve().parents[2]
#: How a benchmark run names a stored network: ``neural:neural_bandit/ID`` plays it as it was trained,
#: ``neural-symmetric:neural_bandit/ID`` plays it on the mean of its logits over the board's symmetries
#: (:class:`~sweeper.agents.neural.NeuralAgent`'s ``symmetric``).
NEURAL_PREFIXES = ("neural:", "neural-symmetric:")
#: How a fresh-board run names a PPO policy stored by a run of ``ext:benchmark_ppo``: ``stored-ppo:benchmark/ID``
#: plays the ``policy.npz`` that run kept (checked against its checksum), with that run's training facts, instead
#: of training it again.
STORED_PPO = "stored-ppo:"


class _Snapshots:
    """A recorder of :func:`~sweeper.running.training.play` that keeps a copy of the agent, and the process CPU
    time of training so far, each time the games played reach one of ``at`` (``play`` is called with a chunk that
    divides every point, so the copies are taken exactly there)."""

    def __init__(self, agent, at, cpu0: float):
        self.agent, self.at, self.cpu0, self.done, self.taken, self.copying = agent, list(at), cpu0, 0, [], 0.0

    def begin_setting(self, *args):
        pass

    def call(self, count):
        self.done += count

    def adopt(self, probe):
        pass

    def collect(self):
        while self.at and self.done >= self.at[0]:
            t = time.process_time()
            self.taken.append((self.at.pop(0), t - self.cpu0 - self.copying, self.agent.copy()))
            self.copying += time.process_time() - t


def best_window_agent(board: str) -> Agent:
    """The best window agent of ``board`` as a player: the greedy agent's choice on the package's best-window table
    (every key's mean exact probability ``v``, as ``Q = 2 v - 1``: the most certain candidate, flagged when ``v``
    is above 1/2), frozen."""
    from ..agents.best_window import default
    from ..agents.values import ValueTable
    table = default(board)
    if table is None:
        raise ValueError(f"the package has no best-window table of {board}")
    agent = make_agent("greedy", symmetric=table.symmetric)
    agent.table = ValueTable.from_recorded(table.keys, 2.0 * table.value - 1.0, table.count, table.decisions)
    return agent


def _stored_file(run: str, name: str) -> tuple[Path, dict]:
    """The folder and ``meta.json`` of the stored paper-scale run ``run`` (``KIND/ID``), its file ``name`` checked
    against the checksum the run recorded."""
    folder = REPOSITORY / "results" / "runs" / "paper" / run
    if not (folder / "meta.json").is_file() or not (folder / name).is_file():
        raise ValueError(f"no stored run {run} with a file {name} (reproduce the spec that stores it first)")
    meta = json.loads((folder / "meta.json").read_text())
    if hashlib.sha256((folder / name).read_bytes()).hexdigest() != meta["files"].get(name):
        raise ValueError(f"the {name} of {run} does not match its stored checksum")
    return folder, meta


def _trained(agent_spec: str, seed: int, budget: dict) -> tuple:
    """The agent of a benchmark run, its training facts and its checkpoints (copies with their training CPU)."""
    if agent_spec in ("solver", "random", "search"):
        return agent_spec, {"kind": agent_spec}, []
    if agent_spec.startswith("best-window:"):
        board = agent_spec.split(":", 1)[1]
        return best_window_agent(board), {"kind": "best window", "board": board}, []
    if agent_spec.startswith(STORED_PPO):
        from .deep_rl import load_ppo
        run = agent_spec[len(STORED_PPO):]
        folder, meta = _stored_file(run, "policy.npz")
        info = meta["info"]
        facts = {"kind": "PPO", "board": info["board"], "source": run, "trained_as": info["agent"],
                 **{k: info[k] for k in ("steps", "games", "train_cpu_seconds") if k in info}}
        return load_ppo(folder / "policy.npz"), facts, []
    if agent_spec.startswith(NEURAL_PREFIXES):
        from ..agents.neural import load_neural
        prefix, run = agent_spec.split(":", 1)
        folder, meta = _stored_file(run, "agent.npz")
        info = meta["info"]  # a curriculum's games and CPU count in the training's
        facts = {"kind": "neural bandit", "board": meta["task"]["params"]["board"], "source": run,
                 "games": info["train_games"] + sum(info.get("curriculum_games", [])),
                 "train_cpu_seconds": info.get("total_train_cpu_seconds", info["train_cpu_seconds"])}
        facts.update(training_work(info))
        net = load_neural(folder / "agent.npz")
        if prefix == "neural-symmetric":  # the same network, playing on the mean over the board's symmetries
            net.symmetric = facts["symmetric"] = True
        return net, facts, []
    if agent_spec.startswith("ppo:"):
        from .deep_rl import train_ppo
        policy, facts = train_ppo(budget["board"], budget["steps"], seed, policy=agent_spec.split(":", 1)[1])
        return policy, {"kind": "PPO", "board": budget["board"], **facts}, []  # its decisions: ``steps``
    agent = make_agent(agent_spec)
    at = sorted(budget.get("checkpoints", ()))
    play(make_agent(agent_spec), budget["board"], 10, seed, progress=False)  # compiles outside the timing
    cpu0 = time.process_time()
    snaps = _Snapshots(agent, at, cpu0)
    run = play(agent, budget["board"], budget["games"], seed, learn=True, progress=False,
               calls=KernelCalls(budget.get("chunk"), snaps))
    cpu = time.process_time() - cpu0 - snaps.copying
    return agent, {"kind": "table", "board": budget["board"], "games": budget["games"], "train_cpu_seconds": cpu,
                   **table_work(run, at)}, snaps.taken


def table_work(run, at) -> dict:
    """A table agent's counted work in training (``run``, a :class:`~sweeper.running.training.Run`): its decisions
    (clicks after the opening), in all and at each checkpoint ``at`` (games played), as the benchmark's runs record
    it (``train_decisions``, ``checkpoint_train_decisions``). A table agent makes no gradient step: its update is
    one table entry per decision."""
    done = np.cumsum(run.records["decisions"].to_numpy(np.int64))
    return {"train_decisions": int(done[-1]) if len(done) else 0,
            "checkpoint_train_decisions": [int(done[g - 1]) if g else 0 for g in at]}


def training_work(info: dict) -> dict:
    """A stored network's counted work in training, from its run's ``info`` (the curriculum's included): its
    decisions and gradient steps (``train_decisions``, ``train_updates``)."""
    return {"train_decisions": int(info["train_decisions"]) + sum(int(d) for d in info.get("curriculum_decisions", [])),
            "train_updates": int(info["train_updates"]) + sum(int(u) for u in info.get("curriculum_updates", []))}


def _small_benchmark() -> Task:
    """A small benchmark run: greedy trained 200 games with two checkpoints, scored on beginner and expert."""
    return Task.make("benchmark", agent="greedy", seed=1, train={"board": "8x8x10", "games": 200, "chunk": 100,
                                                                 "checkpoints": [100, 200]},
                     test={"levels": ["beginner", "expert"], "games": [20, 3], "regret_games": [3, 1],
                           "opening": "reference", "checkpoint_games": 10})


def benchmark_games(p: dict) -> int | None:
    """A benchmark run's games: its training, its boards and regret boards, and its checkpoints' boards; None for a
    PPO policy's (environment steps)."""
    test, train = p["test"], p.get("train") or {}
    if "steps" in train:
        return None
    checks = 0 if test.get("fresh") is not None else len(train.get("checkpoints", ())) * test["checkpoint_games"]
    return train.get("games", 0) + sum(test["games"]) + sum(test["regret_games"]) + checks


@task_kind("benchmark", small=_small_benchmark, games=benchmark_games)
def benchmark_task(agent: str, seed: int, test: dict, train: dict | None = None):
    """One stored benchmark run (task kind ``benchmark``): ``agent`` (``"solver"``, ``"random"``, ``"search"`` (the
    searching solver, :mod:`sweeper.running.search`), an agent spec of
    :func:`~sweeper.agents.kinds.make_agent` trained on ``train["board"]`` for ``train["games"]`` games with
    ``seed``, ``"best-window:BOARD"``, or a stored network, ``"neural:neural_bandit/ID"`` or, playing symmetric,
    ``"neural-symmetric:neural_bandit/ID"``, or a PPO policy a run stored, ``"stored-ppo:benchmark/ID"``) scored
    on the first
    ``test["games"][i]`` boards of the suite of each of ``test["levels"]`` (opening ``test["opening"]``), regret on
    the first ``test["regret_games"][i]``; a table agent also at its training ``train["checkpoints"]``, on the first
    ``test["checkpoint_games"]`` boards of its training level. With ``test["fresh"]`` (a seed), the boards are dealt
    from that seed at scoring time instead (:func:`~sweeper.experiments.suites.fresh_suite`), each board's regret
    is kept in ``games`` and no checkpoint is scored. Tables: ``scores`` (one row per level), ``games``
    (one row per board: won, revealed, clicks), ``checkpoints``; CPU times and the calibration go in ``info``
    (names with ``second``), never in the tables, beside the ``machine`` they were measured on
    (:func:`sweeper.machine.machine`); verification compares neither."""
    player, facts, snaps = _trained(agent, seed, train or {})
    kept = facts.pop("arrays", None)  # a PPO policy's file: stored with the run, to be scored again by anyone
    rows, games, cpu = [], [], {}
    fresh = test.get("fresh")
    for level, n, k in zip(test["levels"], test["games"], test["regret_games"]):
        s = score(player, level, test["opening"], n, k, fresh=fresh)
        summ = s.summary()
        cpu[level] = summ.pop("test_cpu_seconds")
        for key in ("machine", "oracle", "cpu_us_per_decision"):
            summ.pop(key)
        rows.append({"level": level, **summ, "agent": agent, **({} if fresh is None else {"fresh_seed": fresh})})
        if fresh is None:
            g = s.games.assign(level=level, board=np.arange(len(s.games)))
            games.append(g[["level", "board", "won", "revealed", "clicks"]])
        else:  # a fresh run keeps each board's regret too (the leaderboard's interval is over these boards)
            games.append(s.boards().assign(level=level)[["level", "board", "won", "revealed", "clicks",
                                                         "regret_decisions", "regret"]])
    named = {str(Setting.parse(lv)): lv for lv in LEVELS}
    checks = []
    for at, _, snap in (snaps if fresh is None else ()):  # a fresh run's checkpoints: those of its public run
        s = score(snap, named[facts["board"]], test["opening"], test["checkpoint_games"], 0)
        checks.append({"games_trained": at, "level": named[facts["board"]], "games": len(s.games),
                       "wins": s.wins, "win_rate": s.win_rate})
    info = {"agent": agent, "seed": seed, **{k: v for k, v in facts.items()},
            "test_cpu_seconds": cpu, "checkpoint_train_cpu_seconds": [c for _, c, _ in snaps],
            "calibration_games_per_cpu_second": calibration()["games_per_cpu_second"],
            "calibration_workload": "greedy, 20,000 beginner training games, seed 0", "machine": machine()}
    out = Output(tables={"scores": pd.DataFrame(rows), "games": pd.concat(games, ignore_index=True),
                         "checkpoints": pd.DataFrame(checks, columns=["games_trained", "level", "games", "wins",
                                                                      "win_rate"])}, info=info)
    if kept is not None:
        out.arrays["policy"] = kept
    return out


# ------------------------------------------------------------------ the specs --

#: Boards of each level's suite every agent of the leaderboard is scored on (the first ones of the suite, the same
#: for every agent), boards of them its regret is scored on, and boards of its training level at each checkpoint.
BENCHMARK_TEST = {"paper": {"games": (10_000, 2_000, 2_000), "regret_games": (200, 100, 50), "checkpoint_games": 1_000},
                  "quick": {"games": (200, 40, 20), "regret_games": (20, 5, 3), "checkpoint_games": 50}}
#: The table agents of the leaderboard (the paper's, Thompson sampling, and the plug-in rules the book trains,
#: :func:`~sweeper.agents.rule_library.book_rules`, read from the rule library), each trained on beginner boards for
#: the scale's training length, on the scale's seeds; checkpoints as fractions.
BENCHMARK_TABLES = {"paper": ("greedy", "egreedy:0.01", "ucb:0.1", "thompson", *book_rules()),
                    "quick": ("greedy", "thompson")}
BENCHMARK_SEEDS = {"paper": (1, 2, 3), "quick": (1, 2)}
BENCHMARK_CHECKPOINTS = (1 / 100, 3 / 100, 1 / 10, 3 / 10, 1)


def _bench_test(sc) -> dict:
    t = BENCHMARK_TEST[sc.name]
    return {"levels": list(LEVELS), "games": list(t["games"]), "regret_games": list(t["regret_games"]),
            "opening": "reference", "checkpoint_games": t["checkpoint_games"]}


def benchmark_tasks(sc, seeds):
    """Every agent of the book without the extra on the benchmark's boards: the one-step solver, random clicks and
    the searching solver (no training, one run each), the best window agents of beginner (and, at paper scale, intermediate), and the table
    agents of :data:`BENCHMARK_TABLES` on :data:`BENCHMARK_SEEDS` (``seeds`` is not used: the leaderboard fixes
    its own)."""
    test = _bench_test(sc)
    tasks = [Task.make("benchmark", agent=a, seed=0, test=test, label=f"benchmark: {a}", cost=5e5)
             for a in ("solver", "random", "search")]
    boards = ("8x8x10", "16x16x40") if sc.name == "paper" else ("8x8x10",)
    tasks += [Task.make("benchmark", agent=f"best-window:{b}", seed=0, test=test, label=f"benchmark: best window {b}",
                        cost=1e5) for b in boards]
    chunk = sc.train // 100
    budget = {"board": "8x8x10", "games": sc.train, "chunk": chunk,
              "checkpoints": [round(sc.train * f) for f in BENCHMARK_CHECKPOINTS]}
    tasks += [Task.make("benchmark", agent=a, seed=s, test=test, train=budget,
                        label=f"benchmark: {a} trained on 8x8x10 for {sc.train:,} games, seed {s}",
                        cost=1e6 * (5 if a.startswith("thompson") else 1))
              for a in BENCHMARK_TABLES[sc.name] for s in BENCHMARK_SEEDS[sc.name]]
    return tasks


#: The deep-RL chapter's two MaskablePPO policies (:mod:`sweeper.experiments.deep_rl`) as the leaderboard trains
#: them: the chapter's budgets in environment steps (paper scale), on beginner boards, scored there only (their
#: networks are sized for one board). At quick scale, a few steps, for the tests.
BENCHMARK_PPO = {"paper": {"tiles": 160_000, "cnn": 60_000}, "quick": {"tiles": 512, "cnn": 512}}


def benchmark_ppo_tasks(sc, seeds=None):
    """The per-tile and the CNN PPO policies, trained on beginner for the deep-RL chapter's budgets on
    :data:`BENCHMARK_SEEDS`, scored on the beginner suite (needs the extra ``deep``; each run keeps its policy file,
    ``policy.npz``)."""
    t = _bench_test(sc)
    test = {**t, "levels": [LEVELS[0]], "games": t["games"][:1], "regret_games": t["regret_games"][:1]}
    return [Task.make("benchmark", agent=f"ppo:{policy}", seed=s, test=test,
                      train={"board": "8x8x10", "steps": steps},
                      label=f"benchmark: MaskablePPO ({policy}) trained on 8x8x10 for {steps:,} steps, seed {s}",
                      cost=steps * (120.0 if policy == "tiles" else 20.0))
            for policy, steps in BENCHMARK_PPO[sc.name].items() for s in BENCHMARK_SEEDS[sc.name]]


def benchmark_neural_tasks(sc, networks, symmetric: bool = False):
    """The stored networks of ``networks`` (the tasks of ``ext:neural`` at paper scale, read from their stored runs) on
    the benchmark's boards (needs the extra); none at another scale (the networks are stored at paper scale only).
    With ``symmetric``, each plays on the mean of its logits over the board's symmetries, on its own level's suite
    only (4 to 8 times the forward passes of a decision)."""
    if sc.name != "paper":
        return []
    test = _bench_test(sc)
    if not symmetric:
        return [Task.make("benchmark", agent=f"neural:neural_bandit/{t.id}", seed=t.params["seed"], test=test,
                          label=f"benchmark: neural bandit trained on {t.params['board']}, seed {t.params['seed']}",
                          cost=3e6)
                for t in networks]
    tasks = []
    for t in networks:
        i = LEVELS.index(level_of(t.params["board"]))
        own = {**test, "levels": [LEVELS[i]], "games": test["games"][i:i + 1],
               "regret_games": test["regret_games"][i:i + 1]}
        tasks.append(Task.make("benchmark", agent=f"neural-symmetric:neural_bandit/{t.id}", seed=t.params["seed"],
                               test=own, cost=3e6 * (i + 1),
                               label=f"benchmark: neural bandit trained on {t.params['board']}, symmetric play, "
                                     f"seed {t.params['seed']}"))
    return tasks


# ------------------------------------------------------------ fresh boards --

#: The leaderboard's fresh boards: one seed, fixed here and named on the page, that no public suite uses; every entry
#: plays the first :data:`FRESH_GAMES` boards of each of its levels dealt from it at scoring time, so no policy can
#: have seen them (the public suites ship with the package).
FRESH_SEED = 2026
FRESH_GAMES = {"paper": 1_000, "quick": 20}


def fresh_tasks(sc, tasks) -> list[Task]:
    """Each leaderboard run of ``tasks`` again on fresh boards (``ext:benchmark_fresh``): the same agent, seed and
    training (a table agent is trained again, the same games; a network is read from its stored run; a PPO policy
    from the ``policy.npz`` its benchmark run kept), scored on :data:`FRESH_GAMES` boards of each of its levels
    dealt from :data:`FRESH_SEED`, regret on as many of them as its public run."""
    out = []
    for t in tasks:
        p = t.params
        games = [min(FRESH_GAMES[sc.name], g) for g in p["test"]["games"]]
        test = {**p["test"], "games": games, "fresh": FRESH_SEED,
                "regret_games": [min(k, g) for k, g in zip(p["test"]["regret_games"], games)]}
        agent, train = p["agent"], p.get("train")
        if agent.startswith("ppo:"):
            agent, train = f"{STORED_PPO}benchmark/{t.id}", None
        extra = {} if train is None else {"train": train}
        out.append(Task.make("benchmark", agent=agent, seed=p["seed"], test=test, **extra,
                             label=f"{p['label']}; fresh boards of seed {FRESH_SEED}",
                             cost=p.get("cost", 1.0) / 5))
    return out



#: The searching solver's runs (``ext:benchmark_search``): boards of each level's suite, and regret boards, per scale.
SEARCH_TEST = {"paper": {"games": (10_000, 10_000, 10_000), "regret_games": (200, 100, 50)},
               "quick": {"games": (40, 20, 10), "regret_games": (5, 3, 2)}}


def benchmark_search_tasks(sc, seeds=None):
    """The one-step solver and the searching solver on every suite (each level under each opening of
    :data:`~sweeper.experiments.suites.OPENINGS`, the engine's table), all of each suite's boards at paper scale, so
    that the two are compared on the same boards under every opening (one run per agent and opening; ``seeds`` is not
    used: neither draws at random)."""
    from .suites import OPENINGS
    t = SEARCH_TEST[sc.name]
    return [Task.make("benchmark", agent=a, seed=0,
                      test={"levels": list(LEVELS), "games": list(t["games"]), "regret_games": list(t["regret_games"]),
                            "opening": o, "checkpoint_games": 0},
                      label=f"benchmark: {a} on the three levels, {o} opening", cost=(5e6 if a == "search" else 5e5))
            for a in ("search", "solver") for o in OPENINGS]


#: The two solvers on fresh classic-expert boards (``ext:benchmark_search_fresh``): :data:`SEARCH_FRESH_SEEDS`, seeds
#: chosen after the searching solver's rules were fixed and never used to choose them (those tried rules on seeds 9002,
#: 9005 and 9041 to 9052), :data:`SEARCH_FRESH_GAMES` expert boards of the safe opening each, so that the public
#: suite's score can be set beside many boards no one has seen.
SEARCH_FRESH_SEEDS = tuple(range(9101, 9113))
SEARCH_FRESH_GAMES = {"paper": 5_000, "quick": 10}


def search_fresh_tasks(sc, seeds=None):
    """The searching and the one-step solver on :data:`SEARCH_FRESH_GAMES` fresh ``expert-safe`` boards of each seed of
    :data:`SEARCH_FRESH_SEEDS`, the same boards for both (``seeds`` is not used: neither draws at random)."""
    games = SEARCH_FRESH_GAMES[sc.name]
    return [Task.make("benchmark", agent=a, seed=0,
                      test={"levels": ["expert"], "games": [games], "regret_games": [0], "opening": "safe",
                            "checkpoint_games": 0, "fresh": f},
                      label=f"benchmark: {a} on {games:,} fresh expert boards of seed {f}, safe opening",
                      cost=(games * 12e3 if a == "search" else games * 3e3))
            for a in ("search", "solver") for f in SEARCH_FRESH_SEEDS]
