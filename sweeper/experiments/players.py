"""Task kind ``player``: the exact-probability solver or random clicks on one board, no learning (specs
``ext:how_good`` and ``ext:pseq`` of :mod:`sweeper.experiments.specs`)."""

from __future__ import annotations

import pandas as pd

from ..game.engine import Setting
from .runner import Output, Task, task_kind


@task_kind("player", games=lambda p: p["episodes"], small=lambda: player("solver", "8x8x10", 20, 1, "reference"))
def player_task(player: str, board: str, episodes: int, seed: int, opening: str = "reference",
                guess: str = "fewest") -> Output:
    """``episodes`` games of the exact-probability ``solver`` (guessing by ``guess``) or the ``random`` player."""
    from ..running.players import play_random, play_solver
    kw = {"guess": guess} if player == "solver" else {}
    fn = {"solver": play_solver, "random": play_random}[player]
    fn("3x3x1", 1, **kw)  # compile outside the timing
    r = fn(board, episodes, seed=seed, opening=opening, **kw)
    out = Output(tables={"games": pd.DataFrame({"won": r["won"], "decisions": r["decisions"],
                                                "revealed": r["revealed"], "guesses": r["guesses"]})})
    out.info.update(wins=int(r["won"].sum()), games=episodes, win_rate=float(r["won"].mean()),
                    seconds=r["seconds"], games_per_second=episodes / r["seconds"] if r["seconds"] else None,
                    fallbacks=int(r["fallbacks"]))
    return out


def player(name, board, episodes, seed, opening, guess="fewest") -> Task:
    s = Setting.parse(board)
    cost = episodes * s.tiles / 64 * (3 if name == "solver" else 0.2) * (4 if guess == "pseq" else 1)
    extra = {"guess": guess} if guess != "fewest" else {}  # the default keeps the ids of earlier runs
    who = f"{name} (PSEQ)" if guess == "pseq" else name
    return Task.make("player", player=name, board=board, episodes=episodes, seed=seed, opening=opening,
                     label=f"{who} on {board} ({opening}) seed {seed}", cost=cost, **extra)
