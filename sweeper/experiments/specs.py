"""One spec per table and figure of the paper (Section V), and the experiments beyond it.

Most experiments are sets of independent *bandit tasks* (:mod:`sweeper.experiments.bandits`): train one agent on
one or more board settings with one seed, record its learning curve and value table, and optionally test it on other
boards (10^4 games each, both still learning -- what the paper's code does -- and frozen). Specs share tasks: the
greedy and UCB(0.1) runs on 8x8x10 serve ``fig:exp_1``, ``fig:exp_2``, ``fig:exp_5``, ``tab:action_cnt`` and the
first columns of both transfer tables. The other task kinds live in modules of their own, each with the builder of
its tasks (:func:`register_kinds` finds them): ``player`` (:mod:`~sweeper.experiments.players`), ``audit``,
``regret``, ``paper_code`` (``audits``, ``regret_runs``, ``replays``), ``benchmark`` (``leaderboard``, which also
builds the leaderboard's tasks), ``neural_bandit`` (``neural``; its specs: ``neural_runs``) and the deep-RL kinds
(``deep_rl``, with the tasks of ``ext:deep_rl``).

Scales (:mod:`~sweeper.experiments.scales`): ``paper`` (10^6 training games, 10^4 test games) and ``quick`` (2*10^4
and 10^3: a smoke run of every spec for the tests). Seeds: the paper reports one run per agent; ``seeds`` adds
independent repetitions.

``python -m sweeper reproduce [ID ...] [--scale paper|quick] [--workers N] [--dask ADDRESS]``
runs specs through :mod:`sweeper.experiments.runner`.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

import numpy as np

from ..agents.rule_library import BOOK_RULES, book_rules
from .audits import audit_spec_task, audit_task  # noqa: F401  (the specs' names since before)
from .bandits import BanditTask, Evaluation, bandit, bandit_task, block_curve  # noqa: F401  (the specs' task)
from .deep_rl import DEEP_RL_STEPS, DEEP_RL_TILES, deep_rl_tasks  # noqa: F401
from .leaderboard import (BENCHMARK_SEEDS, SEARCH_FRESH_GAMES, SEARCH_FRESH_SEEDS, benchmark_neural_tasks,
                          benchmark_ppo_tasks, benchmark_search_tasks, search_fresh_tasks,
                          benchmark_tasks, fresh_tasks)
from . import neural_runs
from .neural_runs import NEURAL_SPECS, averaged_tasks
from .players import player, player_task  # noqa: F401
from .regret_runs import regret_spec_task, regret_task, window_checksum  # noqa: F401
from .replays import PAPER_CODE_EPISODES, paper_code, paper_code_task, paper_code_tasks  # noqa: F401
from .runner import TASKS, Task
from .scales import LEVEL, SCALES, STANDARD_TESTS, Scale  # noqa: F401


#: Seeds of the seed bands: five independent runs at paper scale, two at quick scale (the tests).
BAND_SEEDS = {"paper": (1, 2, 3, 4, 5), "quick": (1, 2)}
#: The experiments shown as seed bands, and the experiments beyond the paper that the book shows.
BAND_SPECS = ("fig:exp_1", "fig:exp_2", "fig:exp_6", "fig:exp_7", "ext:thompson", "ext:own_rule")
BOOK_EXTRAS = ("ext:how_good", "ext:belief", "ext:readings", "ext:pseq", "ext:regret", "ext:paper_code",
               "ext:benchmark", "ext:benchmark_fresh", "ext:benchmark_search", "ext:benchmark_search_fresh")


# ------------------------------------------------------------------ the specs --

@dataclass(frozen=True)
class Spec:
    id: str
    title: str
    paper: str
    build: object  # (scale, seeds) -> list[Task]

    def tasks(self, scale="paper", seeds=(1,)) -> list[Task]:
        if isinstance(scale, str) and scale not in SCALES:
            raise ValueError(f"scale must be one of {sorted(SCALES)}, got {scale!r}")
        sc = SCALES[scale] if isinstance(scale, str) else scale
        return self.build(sc, check_seeds(seeds))


#: tab:SAvsMAB: the bandit agent with and without symmetries (the paper's numbers match the latter), SA
SA_VS_MAB_AGENTS = (("greedy", True), ("greedy", False), ("sa", False))
EXP1_AGENTS = ("greedy", "egreedy:0.01", "egreedy:0.05", "egreedy:0.1", "ucb:0.01", "ucb:0.1", "ucb:0.5", "ucb:1")
TRANSFER_TRAINING = {"greedy": (("8x8x10",), ("8x8x10", "8x8x11", "8x8x12", "8x8x13"), ("8x8x13",), ("8x8x15",),
                                ("8x8x17",)),
                     "ucb:0.1": (("8x8x10",), ("8x8x15",))}


def transfer_task(agent, boards, sc, seed):
    """Train (10^6 games in all; several settings share them equally) and test on the three levels."""
    per = sc.train // len(boards)
    return bandit(agent, boards, per, seed, block=sc.block, tests=Evaluation(STANDARD_TESTS, sc.test),
                  save_agent=(boards == ("8x8x10",)))


def base_task(agent, sc, seed):
    """The 8x8x10 run of an agent; greedy and UCB(0.1) double as transfer-table rows."""
    if agent in TRANSFER_TRAINING:
        return transfer_task(agent, ("8x8x10",), sc, seed)
    return bandit(agent, "8x8x10", sc.train, seed, block=sc.block)


def heat_mines(rows, cols, density):
    """Mines for a density, rounded as Python's round() does (ties to even: 4x4 gets 2, 8x10 gets 12)."""
    return max(1, round(density * rows * cols))


EXP6_SIZES = range(3, 11)
EXP7_HEIGHTS = range(3, 11)
EXP7_DENSITIES = (0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.20)


def exp6_boards():
    return [(h, w, f"{h}x{w}x{heat_mines(h, w, 0.15625)}") for h in EXP6_SIZES for w in EXP6_SIZES]


def exp7_boards():
    return [(h, d, f"{h}x10x{heat_mines(h, 10, d)}") for h in EXP7_HEIGHTS for d in EXP7_DENSITIES]


def _heat(boards):
    def build(sc, seeds):
        return [bandit("greedy", b, sc.heat_train, s, block=sc.heat_block) for *_, b in boards() for s in seeds]
    return build


SPECS = {s.id: s for s in [
    Spec("fig:exp_1", "Fig. 7: Training win rate of a variety of agents (8x8x10)",
         "Win rate evolution during training of greedy, e-greedy and UCB agents over 10^6 episodes.",
         lambda sc, seeds: [base_task(a, sc, s) for a in EXP1_AGENTS for s in seeds]),
    Spec("fig:exp_2", "Fig. 8: Actions recorded and perfect actions, greedy vs UCB(0.1)",
         "Actions learned over episodes; 'perfect' actions have Q = -1 or 1.",
         lambda sc, seeds: [base_task(a, sc, s) for a in ("greedy", "ucb:0.1") for s in seeds]),
    Spec("fig:exp_5", "Fig. 9: ECDF of learned action values, greedy and UCB(0.1)",
         "Empirical CDF of Q over the recorded actions of both agents after training.",
         lambda sc, seeds: [base_task(a, sc, s) for a in ("greedy", "ucb:0.1") for s in seeds]),
    Spec("tab:action_cnt", "Table I: Mean action counts of perfect, non-perfect and all actions",
         "Averages of N(a) over the recorded actions of the greedy and UCB(0.1) agents.",
         lambda sc, seeds: [base_task(a, sc, s) for a in ("greedy", "ucb:0.1") for s in seeds]),
    Spec("fig:exp_4", "Fig. 10: Ablations: no flags, no symmetries, both",
         "Greedy and UCB(0.1) trained without flags, without symmetries, or without both.",
         lambda sc, seeds: [base_task(a, sc, s) for a in ("greedy", "ucb:0.1") for s in seeds]
         + [bandit(a, "8x8x10", sc.train, s, block=sc.block, symmetric=sym, flags=fl)
            for a in ("greedy", "ucb:0.1") for sym, fl in ((True, False), (False, True), (False, False))
            for s in seeds]),
    Spec("fig:exp_6", "Fig. 11: Greedy win rate over board width x height (density 0.15625)",
         "Heatmap of training win rate, widths and heights 3..10, mines = round(0.15625 w h).",
         _heat(exp6_boards)),
    Spec("fig:exp_7", "Fig. 12: Greedy win rate over height x mine density (width 10)",
         "Heatmap of training win rate, heights 3..10, densities 0.14..0.20, width 10.",
         _heat(exp7_boards)),
    Spec("tab:SAvsMAB", "Table II: State-action vs bandit greedy agents on 4x4 boards",
         "Win rate and actions / state-action pairs recorded after 10^5 and 10^6 games, 4x4 with 3, 4, 5 mines.",
         lambda sc, seeds: [bandit(a, f"4x4x{k}", sc.train, s, block=sc.block, symmetric=sym)
                            for k in (3, 4, 5) for a, sym in SA_VS_MAB_AGENTS for s in seeds]),
    Spec("tab:exp_1", "Table III: Transfer learning, greedy agents",
         "Greedy agents trained on 8x8 boards with 10..17 mines, tested on beginner, intermediate and expert.",
         lambda sc, seeds: [transfer_task("greedy", b, sc, s) for b in TRANSFER_TRAINING["greedy"] for s in seeds]),
    Spec("tab:tl_ucb", "Table IV: Transfer learning, UCB(0.1) agents",
         "UCB(0.1) agents trained on 8x8x10 and 8x8x15, tested on the three levels.",
         lambda sc, seeds: [transfer_task("ucb:0.1", b, sc, s) for b in TRANSFER_TRAINING["ucb:0.1"]
                            for s in seeds]),
]}


#: The openings under which ext:how_good plays every level, named here (an opening added to the engine's
#: ``OPENING_TABLE`` joins no stored experiment until it is added to this list and its runs are made).
OPENINGS = ("reference", "safe", "zero")
HOW_GOOD_BANDITS = ("greedy", "egreedy:0.01", "ucb:0.1", "thompson")
THOMPSON_AGENTS = ("thompson", "thompson:0.1,1")
BELIEF_AGENTS = ("greedy", "ucb:0.1", "thompson")
#: The regret chapter's agents on beginner (the paper's, Thompson sampling and textbook rules as plug-ins),
#: the ones also run on intermediate, and the exploration parameters of its trade-off figure.
REGRET_AGENTS = ("greedy", "egreedy:0.01", "ucb:0.1", "thompson", "rule:ucb1:1", "rule:softmax:0.05",
                 "rule:decaying-eps:1000")
REGRET_INTERMEDIATE = ("greedy", "ucb:0.1", "thompson")
REGRET_UCB_C = (0.01, 0.03, 0.1, 0.3, 1.0)
REGRET_EPSILON = (0.001, 0.01, 0.03, 0.1, 0.3)
#: Seeds of the regret runs: seed 1 trains for the whole training length, the others (the bands) for a tenth.
REGRET_SEEDS = {"paper": (1, 2, 3, 4, 5), "quick": (1, 2)}


def regret_tasks(sc, seeds):
    """Seed 1 of each agent for the scale's training length, then the scale's test games frozen; seeds 2.. for a
    tenth of it (the bands); the trade-off agents for a tenth, on three seeds; intermediate for a tenth, on three
    seeds. One block is a thousandth of the training length."""
    seeds = REGRET_SEEDS[sc.name]
    long, short, block = sc.train, sc.train // 10, max(1, sc.train // 1000)
    agents = list(REGRET_AGENTS)
    trade = [f"ucb:{c:g}" for c in REGRET_UCB_C] + [f"egreedy:{e:g}" for e in REGRET_EPSILON]
    tasks = [regret_spec_task(a, "8x8x10", long, seeds[0], block, frozen=sc.test) for a in agents]
    tasks += [regret_spec_task(a, "8x8x10", short, s, block) for a in agents for s in seeds[1:]]
    tasks += [regret_spec_task(a, "8x8x10", short, s, block) for a in trade if a not in agents for s in seeds[:3]]
    tasks += [regret_spec_task(a, "16x16x40", short, s, block) for a in REGRET_INTERMEDIATE for s in seeds[:3]]
    return tasks


#: Plug-in rules beside the built-in agents, in the chapter "Write your own bandit": the rules the book trains, read
#: from the rule library (:data:`~sweeper.agents.rule_library.BOOK_RULES`; the leaderboard reads the same list).
OWN_RULE_AGENTS = book_rules()


#: Other readings of two agents the paper describes in one sentence each (book chapters 5 and 7). Its no-flags
#: agents "just avoided risky tiles instead of explicitly flagging them": fig:exp_4 reads that as flags kept as the
#: agent's private marks; here the agents never flag at all (plug-in rules that click whatever the agent would
#: click, and never place a flag). Its state-action agent's state: tab:SAvsMAB shows the flags in it; here they
#: are hidden from it.
NO_FLAG_READINGS = {"greedy": "rule:safest", "ucb:0.1": "rule:ucb-safest:0.1"}


def readings_tasks(sc, seeds):
    return ([bandit(a, "8x8x10", sc.train, s, block=sc.block) for a in NO_FLAG_READINGS.values() for s in seeds]
            + [bandit("sa", f"4x4x{k}", sc.train, s, block=sc.block, symmetric=False, flags=False)
               for k in (3, 4, 5) for s in seeds])


#: The published solver's settings we play (its first-click rules; the first click in the corner).
PSEQ_OPENINGS = ("safe", "zero")


def pseq_tasks(sc, seeds):
    """The solver with each guessing strategy, a tenth of a training run's games per setting."""
    return [player("solver", b, sc.train // 10, s, opening, guess) for guess in ("fewest", "pseq")
            for b in STANDARD_TESTS for opening in PSEQ_OPENINGS for s in seeds]


def how_good_tasks(sc, seeds):
    """Floor (random), bandits trained on 8x8x10 and frozen, ceiling (solver): each level of
    :data:`STANDARD_TESTS` under each opening of :data:`OPENINGS`."""
    tasks = [player(p, b, sc.test, s, opening) for p in ("random", "solver") for b in STANDARD_TESTS
             for opening in OPENINGS for s in seeds]
    tasks += [bandit(a, "8x8x10", sc.train, s, block=sc.block, tests=Evaluation(STANDARD_TESTS, sc.test, OPENINGS))
              for a in HOW_GOOD_BANDITS for s in seeds]
    return tasks


def _words(names) -> str:
    """Names as a sentence lists them: ``a``, ``a and b``, ``a, b and c``."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else list(names))


#: Experiments that go beyond the paper (not in ``all_tasks()`` unless asked for by id).
EXTRA_SPECS = {s.id: s for s in [
    Spec("ext:thompson", "Thompson sampling beside greedy and UCB(0.1)",
         "Thompson sampling with a uniform and an optimistic Beta prior, trained on 8x8x10 and tested on the "
         "three levels, beside the paper's greedy and UCB(0.1) runs.",
         lambda sc, seeds: [transfer_task(a, ("8x8x10",), sc, s) for a in ("greedy", "ucb:0.1") for s in seeds]
         + [bandit(a, "8x8x10", sc.train, s, block=sc.block, tests=Evaluation(STANDARD_TESTS, sc.test))
            for a in THOMPSON_AGENTS for s in seeds]),
    Spec("ext:own_rule", "Write your own bandit: textbook rules as plug-ins beside the paper's agents",
         f"The book's plug-in rules ({_words(list(BOOK_RULES.values()))}: BOOK_RULES of the rule library), trained "
         "on 8x8x10 like the built-in agents, beside the runs of greedy, UCB(0.1) and Thompson sampling of "
         "ext:thompson.",
         lambda sc, seeds: [transfer_task(a, ("8x8x10",), sc, s) for a in ("greedy", "ucb:0.1") for s in seeds]
         + [bandit("thompson", "8x8x10", sc.train, s, block=sc.block, tests=Evaluation(STANDARD_TESTS, sc.test))
            for s in seeds]
         + [bandit(a, "8x8x10", sc.train, s, block=sc.block) for a in OWN_RULE_AGENTS for s in seeds]),
    Spec("ext:belief", "What the agent believes versus the truth",
         "Agents trained on 8x8x10, frozen, audited against the exact probabilities on the three levels: "
         "calibration of (Q + 1) / 2 and the causes of lost games.",
         lambda sc, seeds: [audit_spec_task(a, sc, s) for a in BELIEF_AGENTS for s in seeds]),
    Spec("ext:regret", "Regret against the exact one-step oracle",
         "Bandit agents trained on 8x8x10 (and some on 16x16x40), every decision scored against the best move "
         "the exact probabilities allow and against the best window agent's move: cumulative regret over training "
         "split into the representation gap and the learning regret, the trained agents frozen, and the "
         "trade-off against UCB's c and epsilon.", regret_tasks),
    Spec("ext:readings", "Other readings of the no-flags agents and of the state-action agent",
         "Greedy and UCB(0.1) that never flag (they click whatever the paper's agent would click), trained on "
         "8x8x10; the state-action agent with its flags hidden from the state, on 4x4 boards with 3, 4 and 5 mines.",
         readings_tasks),
    Spec("ext:how_good", "How good can it get? Floor, bandits and ceiling under each opening",
         "Random clicks, frozen bandit agents trained on 8x8x10, and the exact-probability solver, on the three "
         f"levels under the {_words(OPENINGS)} openings.", how_good_tasks),
    Spec("ext:paper_code", "Table II's bandit column from the paper's published code",
         "The paper's published code, greedy with symmetries, on 100,000 recorded games each of 4x4 boards with "
         "3, 4 and 5 mines, replayed through our agent fed the same layouts.", paper_code_tasks),
    Spec("ext:deep_rl", "Deep RL on the same board: MaskablePPO with a CNN and with the neural bandit's network",
         "MaskablePPO (sb3-contrib) on 8x8x10 under the paper's opening, with a two-layer convolutional network and "
         "a dense layer (first kernel 3x3 or 5x5, 60,000 steps) and with the neural bandit's per-tile network "
         "(160,000 steps, frozen at checkpoints), tested frozen on beginner beside random valid clicks on the same "
         "boards (needs `make deep`).",
         deep_rl_tasks),
    Spec("ext:pseq", "The solver's guesses: lowest probability alone, or the published PSEQ rule",
         f"The exact-probability solver on the three levels under the {_words(PSEQ_OPENINGS)} openings (the published "
         "solver's first-click rules), guessing by lowest probability then fewest covered neighbours, or by "
         "PSEQ's four criteria.", pseq_tasks),
]}


def check_seeds(seeds) -> tuple:
    """Seeds of independent runs: one or more distinct whole numbers >= 0 (a repeated seed would repeat a run)."""
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise ValueError(f"seeds must be a list of whole numbers, got {seeds!r}")
    seeds = tuple(seeds)
    if not seeds:
        raise ValueError("seeds must name at least one seed")
    bad = [s for s in seeds if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0]
    if bad:
        raise ValueError(f"seeds must be whole numbers >= 0, got {bad}")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds repeat ({', '.join(map(str, seeds))}): a repeated seed repeats the same run")
    return seeds


def all_tasks(ids=None, scale="paper", seeds=(1,)) -> list[Task]:
    """The unique tasks of the given specs (all by default), in spec order."""
    check_seeds(seeds)
    ids = list(SPECS) if not ids else list(ids)
    known = {**SPECS, **EXTRA_SPECS}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ValueError(f"unknown experiment id(s) {unknown}; known: {list(known)}")
    return list(dict.fromkeys(t for i in ids for t in known[i].tasks(scale, seeds)))


def register_kinds() -> list[str]:
    """Register every task kind of the experiments and return their names, sorted: the kinds that the modules of
    :mod:`sweeper.experiments` register with :func:`~sweeper.experiments.runner.task_kind` (each module is
    imported; a new kind in a module of its own is found with no list to update). What recomputes a stored run from
    its ``meta.json`` alone (``python -m sweeper verify``) calls it; importing those modules imports no torch (only
    running a deep task does)."""
    package = __name__.rpartition(".")[0]
    for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
        importlib.import_module(f"{package}.{module.name}")
    return sorted(k for k, fn in TASKS.items() if getattr(fn, "fn", fn).__module__.startswith(package + "."))


# ------------------------------------------------------------ the benchmark --
# ext:benchmark and the specs that score on its boards: their task kind and builders live in
# sweeper/experiments/leaderboard.py


def _averaged():
    """The networks of ``ext:neural_expert_averaged`` (paper scale, the leaderboard's seeds)."""
    return averaged_tasks(SCALES["paper"], BENCHMARK_SEEDS["paper"])


def _benchmark_networks(networks: str, symmetric: bool = False):
    """The builder of the tasks that score the networks of ``networks`` (the name of a builder of
    :mod:`~sweeper.experiments.neural_runs`: ``level_tasks``, ``ext:neural``; ``work_tasks``, ``ext:neural_work``),
    at paper scale and on the leaderboard's seeds, on the benchmark's boards."""
    def build(sc, seeds):
        return benchmark_neural_tasks(sc, getattr(neural_runs, networks)(SCALES["paper"], BENCHMARK_SEEDS["paper"]),
                                      symmetric)
    return build


EXTRA_SPECS["ext:benchmark"] = Spec(
    "ext:benchmark", "The benchmark: every agent on the same boards",
    "The solver, random clicks, the best window agents and the table agents (three seeds each, trained on beginner "
    "boards) scored on the benchmark's fixed suites of the three levels, with checkpoints along training.",
    benchmark_tasks)
EXTRA_SPECS["ext:benchmark_neural"] = Spec(
    "ext:benchmark_neural", "The benchmark: the neural bandit's networks on the same boards",
    "The nine stored networks of ext:neural scored on the benchmark's fixed suites of the three levels (needs "
    "`make deep`).", _benchmark_networks("level_tasks"))
EXTRA_SPECS["ext:benchmark_neural_symmetric"] = Spec(
    "ext:benchmark_neural_symmetric", "The benchmark: the neural bandit's networks, playing symmetric",
    "The nine stored networks of ext:neural, each playing on the mean of its logits over the board's symmetries (8 "
    "forward passes per decision on a square board, 4 on an oblong one), scored on the benchmark's fixed suite of "
    "its own level (needs `make deep`).", _benchmark_networks("level_tasks", symmetric=True))
EXTRA_SPECS["ext:benchmark_neural_work"] = Spec(
    "ext:benchmark_neural_work", "The benchmark: the book's networks on the same boards",
    "The nine networks of ext:neural_work (the book's recipe, budgets of decisions) scored on the benchmark's fixed "
    "suites of the three levels (needs `make deep`).", _benchmark_networks("work_tasks"))
EXTRA_SPECS["ext:benchmark_neural_work_symmetric"] = Spec(
    "ext:benchmark_neural_work_symmetric", "The benchmark: the book's networks, playing symmetric",
    "The nine networks of ext:neural_work, each playing on the mean of its logits over the board's symmetries, "
    "scored on the benchmark's fixed suite of its own level (needs `make deep`).",
    _benchmark_networks("work_tasks", symmetric=True))
EXTRA_SPECS["ext:benchmark_neural_averaged"] = Spec(
    "ext:benchmark_neural_averaged", "The benchmark: the expert networks with averaged weights, playing symmetric",
    "The three networks of ext:neural_expert_averaged, each playing on the mean of its logits over the board's 4 "
    "symmetries, scored on the benchmark's expert suite, as ext:benchmark_neural_symmetric scores the other "
    "networks (needs `make deep`).",
    lambda sc, seeds: benchmark_neural_tasks(sc, _averaged(), symmetric=True))


def _fresh(deep: bool):
    """The builder of the leaderboard's runs again on fresh boards: every entry of ``ext:benchmark``; with ``deep``,
    at paper scale, the book's networks (as trained and symmetric) and the PPO policies (read from their runs)."""
    def build(sc, seeds):
        if not deep:
            return fresh_tasks(sc, benchmark_tasks(sc, seeds))
        if sc.name != "paper":
            return []
        return fresh_tasks(sc, _benchmark_networks("work_tasks")(sc, seeds)
                           + _benchmark_networks("work_tasks", True)(sc, seeds) + benchmark_ppo_tasks(sc))
    return build


EXTRA_SPECS["ext:benchmark_fresh"] = Spec(
    "ext:benchmark_fresh", "The benchmark on fresh boards: every entry of the leaderboard on boards no one has seen",
    "Every entry of ext:benchmark scored again on 1,000 boards per level dealt at scoring time from one seed that no "
    "public suite uses, each board's regret kept, so that a public score far above the fresh one shows.",
    _fresh(deep=False))
EXTRA_SPECS["ext:benchmark_fresh_deep"] = Spec(
    "ext:benchmark_fresh_deep", "The benchmark on fresh boards: the book's networks and the PPO policies",
    "The book's networks (as trained and playing symmetric) and the PPO policies of the leaderboard (read from their "
    "stored runs) on the fresh boards of ext:benchmark_fresh (needs `make deep`).", _fresh(deep=True))
EXTRA_SPECS["ext:benchmark_ppo"] = Spec(
    "ext:benchmark_ppo", "The benchmark: the deep-RL chapter's PPO policies on the same boards",
    "MaskablePPO with the per-tile policy and with the CNN policy, trained on beginner for the deep-RL chapter's "
    "budgets on three seeds, scored on the benchmark's beginner suite; each run keeps its policy as a plain-data "
    "file (needs `make deep`).", benchmark_ppo_tasks)
EXTRA_SPECS["ext:benchmark_search"] = Spec(
    "ext:benchmark_search", "The benchmark: the searching solver beside the one-step solver",
    "The searching solver (exact probabilities, guesses by a look-ahead over the numbers a click can reveal, an exact "
    "endgame search) and the one-step solver on every board of every suite (each level under each opening of the "
    "engine's table).",
    benchmark_search_tasks)
EXTRA_SPECS["ext:benchmark_search_fresh"] = Spec(
    "ext:benchmark_search_fresh",
    f"The two solvers on {len(SEARCH_FRESH_SEEDS) * SEARCH_FRESH_GAMES['paper']:,} fresh classic-expert boards",
    f"The searching solver and the one-step solver on {SEARCH_FRESH_GAMES['paper']:,} fresh expert boards of the safe "
    f"opening (a first click at (0,0) that is never a mine) for each of {len(SEARCH_FRESH_SEEDS)} seeds chosen after "
    "the searching solver's rules were fixed: the public suite's score set beside many boards no one has seen.",
    search_fresh_tasks)
EXTRA_SPECS.update({i: Spec(i, title, text, build) for i, title, text, build in NEURAL_SPECS})