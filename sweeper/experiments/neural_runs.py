"""The neural bandit's stored runs on the benchmark's yardstick: specs ``ext:neural_beginner``,
``ext:neural_intermediate``, ``ext:neural_expert`` (three seeds each, 30 CPU minutes of training per seed; the three
together are ``ext:neural``), ``ext:neural_levers`` and ``ext:neural_levers_expert`` (the ablations on
intermediate and on expert boards: one lever at a time, one seed, a fixed CPU budget).

Every run is a :func:`~sweeper.experiments.neural.neural_task` on a CPU budget whose checkpoints and tests play the
first 1,000 boards of each level's benchmark suite (``boards="benchmark"``: the same boards for every seed, every
lever and every agent of the leaderboard); its training CPU (process CPU, one thread), the curriculum's included, is
in its ``info`` beside the machine. A run on a CPU budget records the games it played, and ``verify`` replays them
(:func:`~sweeper.experiments.neural.replay_params`). At quick scale the same tasks run on small games budgets.
"""

from __future__ import annotations

from . import neural  # noqa: F401  (registers the task kind neural_bandit; imports no torch)
from .runner import Task

#: The learning of every run (:func:`~sweeper.running.neural_play.train_neural`) after its first phase: one Adam step
#: on 128 views per 256 decisions at a learning rate of 0.001 (the stored runs of ``ext:neural`` took one on 16 per
#: 16 throughout).
NEURAL_LEARNING = {"minibatch": 128, "replay": 0.5, "lr": 1e-3}
#: The first phase of every run: 150 CPU seconds on beginner boards with one step on 16 views per 16 decisions (early
#: learning is bound by the number of steps, and a beginner view costs a quarter of an intermediate one).
WARM_START = ["8x8x10", 150, {"minibatch": 16, "replay": 1.0}]
#: The three levels and how each level's networks learn: the phases they are trained on first (a curriculum:
#: ``[board, CPU seconds, learning]``), then their own board for the rest of the budget; ``learning``: options of
#: :func:`~sweeper.running.neural_play.train_neural` beyond :data:`NEURAL_LEARNING`, for every phase. The
#: intermediate and expert networks also learn from views turned by a random symmetry of their board
#: (``symmetries``), the ablation's strongest lever, found after the beginner runs were stored.
NEURAL_LEVELS = {"8x8x10": {"name": "beginner", "curriculum": [WARM_START]},
                 "16x16x40": {"name": "intermediate", "curriculum": [WARM_START], "learning": {"symmetries": True}},
                 "16x30x99": {"name": "expert", "curriculum": [WARM_START, ["16x16x40", 450]],
                              "learning": {"symmetries": True}}}
#: Training CPU per seed, curriculum included: the issue's 30 minutes, less one for the games in progress when the
#: budget runs out (they are finished) and for the checkpoints' copies.
NEURAL_BUDGET = 1_740.0
#: Where along its training each network is also frozen and tested: CPU seconds of training, curriculum included.
NEURAL_CHECKPOINTS = (300.0, 600.0, 1_200.0)
#: Test games per level (the first boards of its benchmark suite), and the games whose decisions are set against the
#: exact probabilities.
NEURAL_TEST = {"paper": 1_000, "quick": 40}
NEURAL_CALIBRATION = {"paper": 20, "quick": 3}
#: At quick scale (the tests): games budgets, deterministic; the curriculum's phases in games too.
QUICK_GAMES, QUICK_PHASE_GAMES = 120, 60


def _quick(curriculum, games: int) -> list:
    """A curriculum's phases on a games budget (quick scale)."""
    return [[ph[0], games, *ph[2:]] for ph in curriculum]


#: Weight averaging (:class:`~sweeper.running.neural_play.NeuralLearning`'s ``average``): the expert networks'
#: recipe with the weights they play averaged over about the last 100 Adam steps (``ext:neural_expert_averaged``).
AVERAGE = 0.99
AVERAGED_LEVELS = {"16x30x99": {**NEURAL_LEVELS["16x30x99"],
                                "learning": {**NEURAL_LEVELS["16x30x99"]["learning"], "average": AVERAGE}}}


def _path(level: dict, board: str) -> str:
    """The boards a level's networks are trained on, in order: ``8x8x10 then 16x16x40 ...``."""
    return " then ".join(dict.fromkeys([ph[0] for ph in level["curriculum"]] + [board]))


def level_task(sc, board: str, seed: int, levels: dict = NEURAL_LEVELS) -> Task:
    """The run of ``board``'s level with ``seed`` (see the module docstring), by the recipe of ``levels``."""
    level = levels[board]
    paper = sc.name == "paper"
    if paper:
        first = sum(ph[1] for ph in level["curriculum"])
        budget = {"cpu_seconds": NEURAL_BUDGET - first, "curriculum": level["curriculum"],
                  "checkpoints": [c - first for c in NEURAL_CHECKPOINTS if c > first]}
    else:
        budget = {"games": QUICK_GAMES, "curriculum": _quick(level["curriculum"], QUICK_PHASE_GAMES),
                  "checkpoints": [QUICK_GAMES // 2]}
    path = _path(level, board)
    if "learning" in level:  # passed only where set: the other levels' tasks (and their stored runs) keep their ids
        budget["learning"] = level["learning"]
    return Task.make("neural_bandit", board=board, seed=seed, **budget, **NEURAL_LEARNING, boards="benchmark",
                     test_games=NEURAL_TEST[sc.name], calibration_games=NEURAL_CALIBRATION[sc.name],
                     block=200 if paper else 20, cost=2e7 if paper else 1e4,
                     label=f"neural bandit (32 ch, 5 layers{', symmetries' if 'learning' in level else ''}"
                           f"{', weight average' if 'average' in level.get('learning', {}) else ''}) "
                           f"trained on {path}, "
                           f"{f'{NEURAL_BUDGET:,.0f} CPU s' if paper else f'{QUICK_GAMES} games'}, seed {seed}")


def level_tasks(sc, seeds) -> list[Task]:
    """The runs of every level, for each seed: ``ext:neural``."""
    return [level_task(sc, board, s) for board in NEURAL_LEVELS for s in seeds]


def averaged_tasks(sc, seeds) -> list[Task]:
    """The expert networks' runs with weight averaging (:data:`AVERAGED_LEVELS`), for each seed:
    ``ext:neural_expert_averaged``."""
    return [level_task(sc, board, s, AVERAGED_LEVELS) for board in AVERAGED_LEVELS for s in seeds]


def _level_spec(board: str) -> tuple:
    name = NEURAL_LEVELS[board]["name"]
    return (f"ext:neural_{name}", f"The neural bandit on {name} boards, 30 CPU minutes per seed",
            f"Three networks (seeds 1-3) that learn to play {board} for 30 CPU minutes each, curriculum included, "
            "frozen and tested on the first 1,000 boards of every level's benchmark suite, and their decisions set "
            "against the exact probabilities (needs `make deep`).",
            lambda sc, seeds: [level_task(sc, board, s) for s in seeds])


# -------------------------------------------------- the book's networks: counted work --
#: The book's networks (``ext:neural_work``): one recipe for the three levels, every budget counted work, so that
#: the same seed gives the same network on any machine and under any load. Every network starts with
#: :data:`WORK_WARM_START` (beginner boards, one step on 16 views per 16 decisions), then learns with
#: :data:`NEURAL_LEARNING` and from views turned by a random symmetry of the board; the expert networks pass through
#: intermediate boards first (the curriculum measured in ``ext:neural_levers_expert``). Weight averaging is not in
#: the recipe: on the expert networks it measured +0.004 [-0.020, +0.027] against the same trainings' own weights.
#: Priced at the committed bench's unit costs (``python -m sweeper bench`` of 2026-11-29, one process alone on its
#: core: 139.0 / 439.7 / 867.5 µs per training decision on beginner / intermediate / expert at 128 views per 256,
#: symmetries on; the warm start's 16 views per 16 decisions, 346.2 µs on beginner), the budgets are what about
#: 25 / 22 / 31 CPU minutes buy, warm start and intermediate phase included (the bench of 2026-11-28 priced them
#: about 10% lower). The beginner and intermediate budgets were set from rates measured on a busier machine before the
#: bench was controlled; the expert budget was raised from 1,100,000 to 1,700,000 own-level decisions, whose three
#: networks won 0.358 / 0.357 / 0.377 on the first 1,000 expert boards against 0.349 / 0.333 / 0.353 (the target: 0.35
#: pooled, no seed below 0.33).
WORK_WARM_START = ["8x8x10", 360_000, {"minibatch": 16, "replay": 1.0}]
WORK_LEVELS = {"8x8x10": {"name": "beginner", "curriculum": [WORK_WARM_START], "decisions": 10_000_000},
               "16x16x40": {"name": "intermediate", "curriculum": [WORK_WARM_START], "decisions": 2_700_000},
               "16x30x99": {"name": "expert", "curriculum": [WORK_WARM_START, ["16x16x40", 640_000]],
                            "decisions": 1_700_000}}
WORK_LEARNING = {"symmetries": True}
#: Where along its training each network is also frozen and tested: shares of its training decisions, curriculum
#: included (those that fall in the curriculum are not taken: a checkpoint is tested on the network's own board).
WORK_CHECKPOINTS = (0.25, 0.5, 0.75)
#: At quick scale (the tests): the same recipe on small budgets of decisions.
QUICK_WORK, QUICK_WORK_PHASE = 3_000, 1_500


def work_total(board: str) -> int:
    """The training decisions of a network of ``board``'s level by the book's recipe (:data:`WORK_LEVELS`), its
    curriculum included."""
    level = WORK_LEVELS[board]
    return level["decisions"] + sum(ph[1] for ph in level["curriculum"])


def work_task(sc, board: str, seed: int) -> Task:
    """The book's network of ``board``'s level with ``seed``, by the recipe of :data:`WORK_LEVELS`."""
    level = WORK_LEVELS[board]
    own = level["decisions"]
    paper = sc.name == "paper"
    if paper:
        first = sum(ph[1] for ph in level["curriculum"])
        total = work_total(board)
        budget = {"decisions": own, "curriculum": level["curriculum"],
                  "checkpoints": [round(f * total) - first for f in WORK_CHECKPOINTS if round(f * total) > first]}
    else:
        budget = {"decisions": QUICK_WORK, "checkpoints": [QUICK_WORK // 2],
                  "curriculum": [[ph[0], QUICK_WORK_PHASE, *ph[2:]] for ph in level["curriculum"]]}
    path = _path(level, board)
    work = f"{work_total(board):,} decisions" if paper else "quick"
    return Task.make("neural_bandit", board=board, seed=seed, **budget, learning=WORK_LEARNING, **NEURAL_LEARNING,
                     boards="benchmark", test_games=NEURAL_TEST[sc.name], calibration_games=NEURAL_CALIBRATION[sc.name],
                     block=200 if paper else 20, cost=(2e7 + 1e6 * list(WORK_LEVELS).index(board)) if paper else 1e4,
                     label=f"neural bandit (32 ch, 5 layers, symmetries) trained on {path}, {work}, seed {seed}")


def work_tasks(sc, seeds) -> list[Task]:
    """The book's networks of every level, for each seed: ``ext:neural_work``."""
    return [work_task(sc, board, s) for board in WORK_LEVELS for s in seeds]


#: The exploring learner (``ext:neural_explore``): the book's beginner recipe, exploring with probability
#: :data:`EXPLORE_EPSILON` (a uniformly random covered tile) while it learns, trained as long as the book's beginner
#: networks' first checkpoint (the same seeds, the same decisions), so that each seed's greedy network and its
#: exploring twin differ in exploration alone; both are tested greedy on the same boards.
EXPLORE_BOARD, EXPLORE_EPSILON = "8x8x10", 0.05


def explore_task(sc, seed: int) -> Task:
    """The exploring twin of the book's beginner network of ``seed`` at its first checkpoint."""
    base = work_task(sc, EXPLORE_BOARD, seed).params
    first = base["checkpoints"][0]
    total = first + sum(ph[1] for ph in base["curriculum"])
    work = f"{total:,} decisions" if sc.name == "paper" else "quick"
    params = {**base, "decisions": first, "checkpoints": [], "epsilon": EXPLORE_EPSILON,
              "label": f"neural bandit exploring (epsilon {EXPLORE_EPSILON}) trained on "
                       f"{_path(WORK_LEVELS[EXPLORE_BOARD], EXPLORE_BOARD)}, {work}, seed {seed}"}
    return Task.make("neural_bandit", **params)


#: The training regret (``ext:neural_regret``): the book's beginner network of each seed trained again to its first
#: checkpoint (the same seed and recipe: the same training up to that point, then the games in progress finished, as
#: any budget of decisions ends, where the checkpoint's copy was taken at once), greedy and exploring like its twin,
#: every training decision scored against the exact probabilities, summed per block of this many games.
REGRET_BLOCK = {"paper": 2_000, "quick": 20}


def regret_task(sc, seed: int, epsilon: float = 0.0) -> Task:
    """The book's beginner network of ``seed`` to its first checkpoint, learning greedy (``epsilon`` 0) or exploring,
    with its training regret; tested on beginner boards only."""
    base = explore_task(sc, seed).params
    work = f"{base['decisions'] + sum(ph[1] for ph in base['curriculum']):,} decisions" if sc.name == "paper" else "quick"
    how = f"exploring (epsilon {epsilon:g})" if epsilon else "greedy"
    return Task.make("neural_bandit", **{**base, "epsilon": epsilon, "tests": [EXPLORE_BOARD],
                                         "regret_block": REGRET_BLOCK[sc.name],
                                         "label": f"training regret of the neural bandit, {how}, trained on "
                                                  f"{_path(WORK_LEVELS[EXPLORE_BOARD], EXPLORE_BOARD)}, {work}, "
                                                  f"seed {seed}"})


def _work_spec(board: str) -> tuple:
    name = WORK_LEVELS[board]["name"]
    return (f"ext:neural_work_{name}", f"The book's neural bandit on {name} boards: {work_total(board):,} decisions",
            f"Three networks (seeds 1-3) by the book's recipe, trained for {work_total(board):,} decisions each "
            "(curriculum included), frozen and tested on the first 1,000 boards of every level's benchmark suite, "
            "and their decisions set against the exact probabilities (needs `make deep`).",
            lambda sc, seeds: [work_task(sc, board, s) for s in seeds])


# ------------------------------------------------------------------ the levers --
#: The ablation: on intermediate boards, the stored runs' learning (``defaults``: no curriculum, one step on 16
#: views per 16 decisions) with one lever changed at a time, and all the kept levers together; each name -> the
#: task's parameters beyond the defaults.
LEVERS = {
    "defaults": {},
    "mine counter": {"mines_left": True},
    "symmetries": {"learning": {"symmetries": True}},
    "curriculum": {"curriculum": [["8x8x10", 150]]},
    "48 channels, 7 layers": {"channels": 48, "layers": 7},
    "minibatch 128, replay 0.5": {"minibatch": 128, "replay": 0.5},
    "minibatch 128, replay 0.25": {"minibatch": 128, "replay": 0.25},
    "exploration 0.05": {"epsilon": 0.05},
    "interior weight 0.1": {"learning": {"interior_weight": 0.1}},
    "kept levers": {"curriculum": [WARM_START], **NEURAL_LEARNING},
}
#: The board and CPU budget (curriculum included) of every lever's run.
LEVER_BOARD, LEVER_BUDGET = "16x16x40", 600.0
#: The expert ablation: on expert boards, the expert networks' recipe (:data:`NEURAL_LEVELS`) in 15 CPU minutes
#: (150 s of beginner, 250 s of intermediate, then expert; symmetries; :data:`NEURAL_LEARNING`) with one lever
#: changed at a time; each name -> the task's parameters that differ from the recipe's.
EXPERT_RECIPE = {"curriculum": [WARM_START, ["16x16x40", 250]], "learning": {"symmetries": True}, **NEURAL_LEARNING}
EXPERT_LEVERS = {
    "expert recipe": {},
    "mine counter": {"mines_left": True},
    "replay 1": {"replay": 1.0},
    "learning rate 0.002": {"lr": 2e-3},
    "longer intermediate phase": {"curriculum": [WARM_START, ["16x16x40", 500]]},
}
EXPERT_LEVER_BOARD, EXPERT_LEVER_BUDGET = "16x30x99", 900.0
#: The two ablations: name -> (board, CPU budget, the parameters every lever starts from, the levers).
LEVER_STUDIES = {"intermediate": (LEVER_BOARD, LEVER_BUDGET, {}, LEVERS),
                 "expert": (EXPERT_LEVER_BOARD, EXPERT_LEVER_BUDGET, EXPERT_RECIPE, EXPERT_LEVERS)}


def lever_tasks(sc, seeds, study: str = "intermediate") -> list[Task]:
    """One run per lever of the ``study`` (:data:`LEVER_STUDIES`) and seed (the stored ablations: seed 1)."""
    board, budget, base, levers = LEVER_STUDIES[study]
    return [_lever_task(sc, name, {**base, **extra}, s, board, budget) for s in seeds for name, extra in levers.items()]


def _lever_task(sc, name: str, extra: dict, seed: int, board: str, cpu: float) -> Task:
    extra = dict(extra)
    curriculum = extra.pop("curriculum", [])
    paper = sc.name == "paper"
    if paper:
        first = sum(ph[1] for ph in curriculum)
        budget = {"cpu_seconds": cpu - first, "curriculum": curriculum}
    else:
        budget = {"games": QUICK_GAMES // 2, "curriculum": _quick(curriculum, QUICK_PHASE_GAMES // 2)}
    return Task.make("neural_bandit", board=board, seed=seed, **budget, **extra, boards="benchmark",
                     tests=[board], test_games=NEURAL_TEST[sc.name],
                     calibration_games=NEURAL_CALIBRATION[sc.name],
                     mistakes=0, block=100 if paper else 10, cost=(6e6 * cpu / LEVER_BUDGET) if paper else 5e3,
                     label=f"lever: {name} (neural bandit on {board}, "
                           f"{f'{cpu:,.0f} CPU s' if paper else 'quick'}, seed {seed})")


#: The specs of this module, ``(id, title, text, build)`` (:mod:`~sweeper.experiments.specs` makes them specs).
NEURAL_SPECS = [(
    "ext:neural", "From a table to a network: the neural contextual bandit on every level",
    "A fully convolutional network's P(mine | view), trained from the end-of-game labels on each level under the "
    "paper's opening for 30 CPU minutes per seed (curriculum included), tested greedy on the first 1,000 boards of "
    "every level's benchmark suite and set against the exact probabilities (needs `make deep`): "
    "ext:neural_beginner, ext:neural_intermediate and ext:neural_expert together.", level_tasks)]
NEURAL_SPECS += [_level_spec(b) for b in NEURAL_LEVELS] + [(
    "ext:neural_work", "The book's networks: the neural contextual bandit on every level, on a budget of decisions",
    "A fully convolutional network's P(mine | view), trained from the end-of-game labels by one recipe for the three "
    "levels (a warm start on beginner boards, the board's symmetries, intermediate boards before expert ones), each "
    "level's budget counted in decisions (the same seed gives the same network on any machine), tested greedy on "
    "the first 1,000 boards of every level's benchmark suite and set against the exact probabilities (needs "
    "`make deep`): ext:neural_work_beginner, ext:neural_work_intermediate and ext:neural_work_expert together.",
    work_tasks)] + [_work_spec(b) for b in WORK_LEVELS] + [(
    "ext:neural_explore", "Does exploring help the network learn? An exploring twin of each beginner network",
    f"Three beginner networks (seeds 1-3) by the book's recipe that explore while they learn (with probability "
    f"{EXPLORE_EPSILON} a uniformly random covered tile), trained for as many decisions as the book's beginner "
    "networks' first checkpoint, then tested greedy on the first 1,000 boards of every level's benchmark suite, "
    "beside that checkpoint of the same seed (needs `make deep`).",
    lambda sc, seeds: [explore_task(sc, s) for s in seeds]), (
    "ext:neural_regret", "The neural bandit's training regret, greedy and exploring",
    "The book's beginner networks (seeds 1-3) trained again to their first checkpoint, learning greedy and learning "
    f"with exploration (epsilon {EXPLORE_EPSILON}, as their twins of ext:neural_explore), every training decision "
    "scored against the exact probabilities: the cumulative regret against decisions, to set beside the tabular "
    "agents' of ext:regret (needs `make deep`).",
    lambda sc, seeds: [regret_task(sc, s, e) for e in (0.0, EXPLORE_EPSILON) for s in seeds]), (
    "ext:neural_levers", "What makes the neural bandit learn faster: one lever at a time",
    "The neural bandit on intermediate boards for 10 CPU minutes (seed 1), with the stored runs' learning and with "
    "one lever changed at a time (the mine counter as an input, the board's symmetries, a curriculum from beginner "
    "boards, a wider and deeper network, larger minibatches, exploration, a lighter loss on tiles far from the "
    "numbers), tested on the first 1,000 intermediate boards of the benchmark (needs `make deep`).", lever_tasks), (
    "ext:neural_levers_expert", "What makes the neural bandit learn faster on expert boards: one lever at a time",
    "The neural bandit on expert boards for 15 CPU minutes (seed 1), with the expert networks' recipe (beginner, "
    "then intermediate, then expert boards, with the symmetries) and with one lever changed at a time (the mine "
    "counter as an input, twice the gradient steps per decision, twice the learning rate, a longer intermediate "
    "phase), tested on the first 1,000 expert boards of the benchmark (needs `make deep`).",
    lambda sc, seeds: lever_tasks(sc, seeds, "expert")), (
    "ext:neural_expert_averaged", "The neural bandit on expert boards, with its weights averaged",
    "Three networks (seeds 1-3) trained exactly as those of ext:neural_expert (30 CPU minutes each, curriculum "
    "included, the same boards and games budget), except that the network they keep is the moving average of its "
    "weights over about the last 100 Adam steps of each phase; tested like them on the first 1,000 boards of every "
    "level's benchmark suite (needs `make deep`).", averaged_tasks)]
