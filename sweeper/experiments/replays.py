"""Task kind ``paper_code``: the paper's published code's recorded games replayed through our agent of the same spec
(spec ``ext:paper_code`` of :mod:`sweeper.experiments.specs`; the games: :mod:`sweeper.experiments.paper`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..agents.kinds import make_agent
from ..game.engine import Setting
from ..running.training import play
from .bandits import block_curve
from .runner import Output, Task, task_kind


@task_kind("paper_code", games=lambda p: p["episodes"], small=lambda: paper_code("greedy-4x4x3", 300, 100))
def paper_code_task(file: str, episodes: int, block: int) -> Output:
    """The paper's published code on one file of recorded games (:func:`sweeper.experiments.paper.paper_code_games`),
    its first ``episodes`` games: table ``paper_code``, that program's learning curve per block of ``block`` games
    (cumulative wins, decisions, actions recorded), read from the file; table ``curve``, our agent of the same
    spec fed the same layouts in the same order (as :func:`~sweeper.experiments.bandits.bandit_task` records it); and in ``info`` whether the
    two played the same games (``identical_games``: games where win, decisions and actions recorded all agree;
    ``first_difference``: the first game where one does not, or None)."""
    from .paper import PAPER_CODE_GAMES, paper_code_games
    spec, board, _ = PAPER_CODE_GAMES[file]
    data = paper_code_games(file)
    if not 1 <= episodes <= len(data["won"]):
        raise ValueError(f"{file} has {len(data['won']):,} games; asked for {episodes:,}")
    theirs = {k: data[k][:episodes] for k in ("won", "plays", "actions")}
    run = play(make_agent(spec), board, episodes, layouts=list(data["layouts"][:episodes]), opening="reference",
               progress=False)
    rec = run.records
    same = ((rec["won"].to_numpy() == theirs["won"]) & (rec["decisions"].to_numpy() == theirs["plays"])
            & (rec["actions_recorded"].to_numpy() == theirs["actions"]))
    ends = np.minimum(np.arange(block, episodes + block, block), episodes)
    theirs_curve = pd.DataFrame({"episode": ends, "cum_wins": np.cumsum(theirs["won"])[ends - 1],
                                 "cum_decisions": np.cumsum(theirs["plays"])[ends - 1],
                                 "actions_recorded": theirs["actions"][ends - 1]})
    theirs_curve["cum_win_rate"] = theirs_curve["cum_wins"] / theirs_curve["episode"]
    out = Output(tables={"paper_code": theirs_curve, "curve": block_curve(rec, block)})
    out.info.update(board=board, agent=spec, games=episodes, wins=int(theirs["won"].sum()),
                    actions_recorded=int(theirs["actions"][-1]), decisions=int(theirs["plays"].sum()),
                    our_wins=run.wins, identical_games=int(same.sum()),
                    first_difference=None if same.all() else int(np.argmin(same)), seconds=run.seconds)
    return out


def paper_code(file: str, episodes: int, block: int) -> Task:
    from .paper import PAPER_CODE_GAMES
    spec, board, _ = PAPER_CODE_GAMES[file]
    return Task.make("paper_code", file=file, episodes=episodes, block=block,
                     label=f"the paper's code, {spec} on {board}: {episodes:,} recorded games replayed",
                     cost=episodes * Setting.parse(board).tiles / 64)


#: Games of the paper's published code per file, Table II's boards: the files hold 10^5 (the first of Table II's
#: training lengths); a scale replays its training length or all of them, whichever is fewer.
PAPER_CODE_EPISODES = 100_000


def paper_code_tasks(sc, seeds):
    """Table II's bandit column as the paper's published code plays it (the files' layouts fix the games:
    ``seeds`` do not apply)."""
    from .paper import TABLE2_PAPER_CODE
    return [paper_code(f, min(sc.train, PAPER_CODE_EPISODES), sc.block) for f in TABLE2_PAPER_CODE.values()]
