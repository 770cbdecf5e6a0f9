"""The chapter "From a table to a network", its test of exploration: a network that explores while it learns,
set beside the greedy one it is the twin of.

The end-of-game label is full information (every covered tile of every view is labelled, whichever tile was
clicked), so exploring should buy no information; what it changes is which views the network learns from. The
exploring twins (``ext:neural_explore``) are the book's beginner networks' recipe, seeds and decisions up to their
first checkpoint, with one change: while learning they click a uniformly random covered tile with a small
probability. Each twin is set beside that checkpoint of the greedy network of its seed, both tested greedy on the
same first boards of the beginner suite, so a seed's difference is exploration's alone.

Nothing here computes a result: the functions read the stored runs, or take the frames a test makes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments.neural_runs import EXPLORE_BOARD, EXPLORE_EPSILON
from ...experiments.stats import mean_interval, wilson
from .results import curriculum_work, paper_spec

#: The spec of the exploring twins.
SPEC = "ext:neural_explore"
#: The seeds of the twins (those of the book's networks).
SEEDS = (1, 2, 3)
#: What the seeds' interval of (exploring - greedy) says, by its sign: above 0, below 0, or containing 0.
VERDICTS = {1: "raised the win rate", -1: "lowered the win rate",
            0: "made no difference that the three seeds can tell from none"}


def explore_outputs() -> list:
    """``(task, output)`` of the stored twins (paper scale, :data:`SEEDS`), or one clear error naming the command
    that trains them."""
    st, tasks = paper_spec(SPEC, SEEDS, needs="`make deep` installs the optional extra 'deep', then ")
    return [(t, st.load(t)) for t in tasks]


def twins(outputs: list, checkpoints: pd.DataFrame) -> pd.DataFrame:
    """One row per seed: the greedy network's first checkpoint (``checkpoints``: the frame ``checkpoints`` of
    :func:`~sweeper.viz.figures.neural.neural_runs`) and its exploring twin (``outputs``: :func:`explore_outputs`)
    on the beginner boards both were tested on: their training decisions and gradient steps (curriculum included),
    test games, wins and win rates, and the difference exploring - greedy."""
    rows = []
    for t, out in outputs:
        seed, i = t.params["seed"], out.info
        mine = checkpoints[(checkpoints["board"] == EXPLORE_BOARD) & (checkpoints["seed"] == seed)]
        if mine.empty:
            raise ValueError(f"the book's beginner network of seed {seed} has no checkpoint stored")
        first = mine.loc[mine["decisions"].idxmin()]
        test = out.tables["tests"].set_index("board").loc[EXPLORE_BOARD]
        if int(test["test_games"]) != int(first["test_games"]):
            raise ValueError(f"seed {seed}: the twin played {int(test['test_games']):,} boards and the checkpoint "
                             f"{int(first['test_games']):,}; they must play the same ones")
        before = curriculum_work(i)
        rows.append({"seed": seed, "games": int(test["test_games"]),
                     "greedy_decisions": int(first["decisions_all"]), "greedy_updates": int(first["updates_all"]),
                     "greedy_wins": int(first["wins"]), "greedy": float(first["win_rate"]),
                     "exploring_decisions": int(i["train_decisions"] + before["decisions"]),
                     "exploring_updates": int(i["train_updates"] + before["updates"]),
                     "exploring_wins": int(test["wins"]), "exploring": float(test["win_rate"])})
    out = pd.DataFrame(rows).sort_values("seed", ignore_index=True)
    return out.assign(difference=out["exploring"] - out["greedy"])


def explore_values(tw: pd.DataFrame) -> dict:
    """The numbers and the verdict the page's paragraph pastes: ``epsilon``, the mean training ``decisions`` and
    ``updates`` of the twins, each side's mean win rate (``greedy``, ``exploring``) and pooled Wilson interval
    (``*_lo``, ``*_hi``), the mean difference with its t-interval over the seeds (``difference``, ``lo``, ``hi``),
    the number of ``seeds`` and ``games`` per seed, and ``verdict`` (:data:`VERDICTS`)."""
    diff, lo, hi = mean_interval(tw["difference"].to_numpy(float))
    sign = 0 if np.isnan(lo) or lo <= 0 <= hi else (1 if lo > 0 else -1)
    games = int(tw["games"].sum())
    values = {"epsilon": EXPLORE_EPSILON, "decisions": float(tw["exploring_decisions"].mean()),
              "updates": float(tw["exploring_updates"].mean()), "seeds": len(tw), "games": int(tw["games"].iloc[0]),
              "difference": diff, "lo": lo, "hi": hi, "verdict": VERDICTS[sign]}
    for side in ("greedy", "exploring"):
        wins = int(tw[f"{side}_wins"].sum())
        values[side] = float(tw[side].mean())
        values[f"{side}_lo"], values[f"{side}_hi"] = wilson(wins, games)
    return values


def explore_table(tw: pd.DataFrame) -> pd.DataFrame:
    """:func:`twins` for the page: one row per seed, the counted work of both and their win rates."""
    return pd.DataFrame({
        "decisions (greedy / exploring)": [f"{g:,} / {e:,}" for g, e in zip(tw["greedy_decisions"],
                                                                           tw["exploring_decisions"])],
        "gradient steps (greedy / exploring)": [f"{g:,} / {e:,}" for g, e in zip(tw["greedy_updates"],
                                                                                 tw["exploring_updates"])],
        "greedy": tw["greedy"].map(lambda v: f"{v:.3f}").to_numpy(),
        "exploring": tw["exploring"].map(lambda v: f"{v:.3f}").to_numpy(),
        "exploring − greedy": tw["difference"].map(lambda v: f"{v:+.3f}").to_numpy()},
        index=pd.Index(tw["seed"], name="seed"))


__all__ = ["SPEC", "SEEDS", "VERDICTS", "explore_outputs", "twins", "explore_values", "explore_table"]
