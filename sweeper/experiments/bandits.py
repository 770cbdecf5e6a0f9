"""The bandit task: train one agent on one or more board settings with one seed, record its learning curve and
value table, and optionally test it on other boards (task kind ``bandit``, the runs of most of the paper's tables
and figures: :mod:`sweeper.experiments.specs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..agents.kinds import make_agent
from ..game.engine import Setting
from ..rng import held_out_seed
from ..running.training import evaluate, play, warm_up
from .runner import Output, Task, task_kind


def block_curve(records: pd.DataFrame, block: int) -> pd.DataFrame:
    """A run's learning curve: per block of ``block`` games its setting, wins, games, mean decisions and safe
    tiles revealed, the table's counts at its end, and the cumulative win rate up to it (``episode``: games so far)."""
    g = np.arange(len(records)) // block
    won = records["won"].to_numpy()
    grp = pd.DataFrame({"block": g, "won": won, "decisions": records["decisions"].to_numpy(),
                        "revealed": records["revealed"].to_numpy(),
                        "actions_recorded": records["actions_recorded"].to_numpy(),
                        "perfect_actions": records["perfect_actions"].to_numpy(),
                        "setting": records["setting"].astype(str).to_numpy()})
    c = grp.groupby("block").agg(setting=("setting", "last"), block_wins=("won", "sum"), block_games=("won", "size"),
                                 mean_decisions=("decisions", "mean"), mean_revealed=("revealed", "mean"),
                                 actions_recorded=("actions_recorded", "last"),
                                 perfect_actions=("perfect_actions", "last")).reset_index(drop=True)
    c.insert(0, "episode", np.cumsum(c["block_games"].to_numpy()))
    c["cum_wins"] = np.cumsum(c["block_wins"].to_numpy())
    c["cum_win_rate"] = c["cum_wins"] / c["episode"]
    c["block_win_rate"] = c["block_wins"] / c["block_games"]
    return c


def table_facts(agent) -> dict:
    """Counts and mean N of the recorded actions (the paper's tab:action_cnt)."""
    keys, q, n = agent.table.recorded()
    perfect = np.abs(q) == 1.0
    return {"actions_recorded": int(len(keys)), "perfect_actions": int(perfect.sum()),
            "mean_count_perfect": float(n[perfect].mean()) if perfect.any() else float("nan"),
            "mean_count_nonperfect": float(n[~perfect].mean()) if (~perfect).any() else float("nan"),
            "mean_count_all": float(n.mean()) if len(n) else float("nan"),
            "table_keys": int(agent.table.meta[0]), "table_bytes": agent.table.nbytes()}


@dataclass(frozen=True)
class BanditTask:
    """The parameters of a ``bandit`` task, as its runs store them (the defaults are those of a task that leaves
    one out): train ``agent`` (a spec of :func:`~sweeper.agents.kinds.make_agent`, with ``symmetric`` and
    ``flags``) on ``boards`` in order, ``episodes`` games each, from ``seed`` and with ``opening``, its learning
    curve per ``block`` games; then test it on each of ``tests`` for ``test_episodes`` games, frozen and still
    learning, each test starting from the trained agent on the boards of ``held_out_seed(seed, i)``; with
    ``test_openings``, frozen only, once per opening. ``save_agent`` keeps the trained agent's arrays."""

    agent: str
    boards: list
    episodes: int
    seed: int
    symmetric: bool = True
    flags: bool = True
    opening: str = "reference"
    block: int = 10_000
    tests: list = ()
    test_episodes: int = 0
    save_agent: bool = False
    test_openings: list = ()


def bandit_task(task: BanditTask) -> Output:
    """Run a ``bandit`` task (:class:`BanditTask`): table ``curve``, the learning curve; ``training``, the
    training games' outcomes (with tests, for the significance tests of the transfer tables); ``tests``, one row
    per test game; the value table's facts and the speed in ``info``. The training is timed after a warm-up game
    that compiles the kernels (``compile_seconds``)."""
    if task.block < 1:
        raise ValueError(f"block must be a positive number of games, got {task.block}")
    Evaluation(task.tests, task.test_episodes, task.test_openings)
    ag = make_agent(task.agent, symmetric=task.symmetric, flags=task.flags)
    warm = warm_up(ag, task.boards[0], opening=task.opening)  # the kernels compiled (or loaded) before the timing
    run = play(ag, task.boards, task.episodes, task.seed, learn=True, opening=task.opening, progress=False)
    out = Output()
    out.tables["curve"] = block_curve(run.records, task.block)
    if task.tests:
        out.tables["training"] = pd.DataFrame({"won": run.records["won"].to_numpy()})
    out.info.update(table_facts(ag), compile_seconds=warm)
    out.info.update(wins=run.wins, games=len(run.records), win_rate=run.win_rate, train_seconds=run.seconds,
                    games_per_second=len(run.records) / run.seconds if run.seconds else None)
    rows = [_test_games(ag, task, i, board, out.info) for i, board in enumerate(task.tests)]
    if rows:
        out.tables["tests"] = pd.concat([r for parts in rows for r in parts], ignore_index=True)
    if task.save_agent:
        out.arrays["agent"] = ag.file_arrays()
    return out


def _test_games(ag, task: BanditTask, i: int, board: str, info: dict) -> list:
    """The test games of a bandit task on its ``i``-th test board (one frame per mode or opening), their seconds
    into ``info``."""
    frames = []
    if task.test_openings:
        for test_opening in task.test_openings:
            t = evaluate(ag, board, task.test_episodes, held_out_seed(task.seed, i), freeze=True, opening=test_opening,
                         progress=False)
            frames.append(pd.DataFrame({"test": board, "mode": "frozen", "opening": test_opening,
                                        "won": t.records["won"].to_numpy()}))
            info[f"test_seconds_{board}_{test_opening}"] = t.seconds
        return frames
    for mode in ("learning", "frozen"):
        t = evaluate(ag.copy(), board, task.test_episodes, held_out_seed(task.seed, i), freeze=(mode == "frozen"),
                     opening=task.opening, progress=False)
        frames.append(pd.DataFrame({"test": board, "mode": mode, "won": t.records["won"].to_numpy()}))
        info[f"test_seconds_{board}_{mode}"] = t.seconds
    return frames


def bandit_games(p: dict) -> int:
    """A bandit task's games: its training, and its test games, frozen once per test opening, else frozen and still
    learning."""
    return p["episodes"] * len(p["boards"]) + p["test_episodes"] * len(p["tests"]) * (
        len(p.get("test_openings", ())) or 2)


task_kind("bandit", params=BanditTask, games=bandit_games,
          small=lambda: bandit("greedy", "4x4x3", 300, 1, block=100, tests=Evaluation(["4x4x3"], 20)))(bandit_task)


@dataclass(frozen=True)
class Evaluation:
    """The test games of a bandit task: ``episodes`` games on each of ``boards``, frozen and still learning, or
    with ``openings`` frozen only, once per opening. No boards and no games: no tests."""

    boards: tuple = ()
    episodes: int = 0
    openings: tuple = ()

    def __post_init__(self):
        if bool(self.boards) != (self.episodes > 0):
            raise ValueError("tests and test_episodes go together: test boards need test_episodes > 0, and "
                             "test_episodes need test boards")
        if self.openings and not self.boards:
            raise ValueError("test_openings apply to the test games: give tests (and test_episodes) too")


def bandit(agent, boards, episodes, seed, *, block, tests: Evaluation = Evaluation(), save_agent=False,
           symmetric=True, flags=True) -> Task:
    """The ``bandit`` task of ``agent`` (with ``symmetric`` and ``flags``) trained on ``boards`` for ``episodes``
    games each with ``seed``, its learning curve per ``block`` games, with the test games ``tests``."""
    boards = [boards] if isinstance(boards, str) else list(boards)
    tiles = sum(Setting.parse(b).tiles for b in boards) / len(boards)
    cost = (episodes * len(boards) * tiles / 64
            + sum(Setting.parse(b).tiles for b in tests.boards) * tests.episodes * 2 / 64)
    name = make_agent(agent, symmetric=symmetric, flags=flags).name
    label = f"{name} on {'+'.join(boards)} seed {seed}"
    extra = {"test_openings": list(tests.openings)} if tests.openings else {}
    if tests.openings:
        cost *= len(tests.openings) / 2
    return Task.make("bandit", agent=agent, boards=boards, episodes=episodes, seed=seed, symmetric=symmetric,
                     flags=flags, block=block, tests=list(tests.boards), test_episodes=tests.episodes,
                     save_agent=save_agent, label=label, cost=cost, **extra)
