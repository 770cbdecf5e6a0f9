"""Task kind ``regret``: a bandit agent's training games, every decision scored against the exact one-step oracle
and split against the best window agent (spec ``ext:regret`` of :mod:`sweeper.experiments.specs`)."""

from __future__ import annotations

from ..agents.kinds import make_agent
from ..game.engine import Setting
from ..rng import FROZEN_SEED
from .runner import Output, Task, task_kind


@task_kind("regret", games=lambda p: p["episodes"] + p.get("frozen", 0),
           small=lambda: regret_spec_task("greedy", "8x8x10", 200, 1, 100, frozen=20))
def regret_task(agent: str, board: str, episodes: int, seed: int, block: int, window: str | None = None,
                frozen: int = 0) -> Output:
    """Train ``agent`` on ``board`` (the games of :func:`~sweeper.experiments.bandits.bandit_task` with the same seed) and score every
    decision against the exact one-step oracle (:func:`sweeper.running.regret.regret`): per block of
    ``block`` games, the wins, decisions and regret, split against the best window agent whose table's checksum
    is ``window`` (the package's table for the board; None: the board has none, no split). With ``frozen``
    games, the trained agent then plays that many frozen games (seed ``seed + FROZEN_SEED``), scored the same
    way (table ``frozen``: their sums)."""
    from ..running.regret import regret
    table = _best_window(board, window)
    r = regret(make_agent(agent), board, episodes, seed, window=table if table is not None else None)
    out = Output(tables={"blocks": r.blocks(block)})
    out.info.update(wins=r.run.wins, games=len(r.games), win_rate=r.run.win_rate, seconds=r.run.seconds,
                    decisions=int(r.games["decisions"].sum()), regret=r.total, fallbacks=r.fallbacks,
                    games_per_second=len(r.games) / r.run.seconds if r.run.seconds else None)
    if table is not None:
        out.info.update(gap=float(r.games["gap"].sum()), learning=float(r.games["learning"].sum()))
    if frozen:
        f = regret(r.agent, board, frozen, seed + FROZEN_SEED, learn=False,
                   window=table if table is not None else None)
        out.tables["frozen"] = f.blocks(frozen)
    return out


def _best_window(board: str, checksum: str | None):
    """The package's best-window table of ``board``, checked against the checksum a task names."""
    from ..agents import best_window as bw
    path = bw.default_path(board)
    if checksum is None:
        if path.exists():
            raise ValueError(f"the package has a best-window table for {board}: the task must name its checksum")
        return None
    if not path.exists() or bw.BestWindow.checksum(path) != checksum:
        raise ValueError(f"the best-window table of {board} is not the one this task names ({checksum[:12]}...); "
                         f"rerun `python -m sweeper best-window --board {board}` or update the specs")
    return bw.BestWindow.load(path)


def window_checksum(board: str) -> str | None:
    """The checksum of the package's best-window table of ``board`` (None: the package has none)."""
    from ..agents import best_window as bw
    path = bw.default_path(board)
    return bw.BestWindow.checksum(path) if path.exists() else None


def regret_spec_task(agent, board, episodes, seed, block, frozen: int = 0) -> Task:
    s = Setting.parse(board)
    cost = (episodes + frozen) * s.tiles / 64 * (25 if s.tiles <= 64 else 50)
    return Task.make("regret", agent=agent, board=board, episodes=episodes, seed=seed, block=block,
                     window=window_checksum(board), frozen=frozen,
                     label=f"regret of {agent} on {board}, {episodes:,} games, seed {seed}"
                           + (f", then {frozen:,} frozen games" if frozen else ""), cost=cost)
