"""The chapter "From a table to a network", its training regret: every decision the beginner networks made while
they learned, scored against the exact probabilities, beside the paper's greedy table's from the regret chapter.

The networks (``ext:neural_regret``) are the book's beginner networks trained again to their first checkpoint (the
same seeds, recipe and decisions: the same networks) and their exploring twins; the table is the greedy agent of
``ext:regret`` on the same board, its seeds 1 to 5. Each run's cumulative regret is read at common numbers of
decisions (linearly between its stored block ends), so that the seeds of a learner can be averaged and the learners
set side by side on one axis of counted work.

Nothing here computes a result: the functions read the stored runs, or take the frames a test makes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments import specs as ex
from ...experiments.neural_runs import EXPLORE_BOARD, EXPLORE_EPSILON
from ...running.regret import cumulative
from .results import paper_spec

#: The spec of the networks' training regret, and its seeds (those of the book's networks).
SPEC, SEEDS = "ext:neural_regret", (1, 2, 3)
#: The three learners, in the order of the page: the label of each.
LEARNERS = {"network": "network, greedy", "exploring": f"network, exploring (ε = {EXPLORE_EPSILON:g})",
            "table": "greedy table (the paper's agent)"}


def network_runs() -> pd.DataFrame:
    """The networks' stored training regret (paper scale, :data:`SEEDS`): one row per block of training games, with
    ``learner`` (``"network"`` or ``"exploring"``), ``seed``, ``decisions`` and ``regret`` so far; or one clear error
    naming the command that makes the runs."""
    st, tasks = paper_spec(SPEC, SEEDS, needs="`make deep` installs the optional extra 'deep', then ")
    frames = []
    for t in tasks:
        r = st.load(t).tables["regret"]
        learner = "exploring" if t.params.get("epsilon", 0.0) > 0 else "network"
        frames.append(pd.DataFrame({"learner": learner, "seed": t.params["seed"], "games": r["games"],
                                    "decisions": r["decisions_so_far"], "regret": r["cumulative_regret"]}))
    return pd.concat(frames, ignore_index=True)


def table_runs() -> pd.DataFrame:
    """The greedy table's stored regret on the networks' board (paper scale, every seed of ``ext:regret``), in the
    frame of :func:`network_runs` (``learner`` ``"table"``)."""
    st, tasks = paper_spec("ext:regret", ex.REGRET_SEEDS["paper"])
    frames = []
    for t in tasks:
        p = t.params
        if p["agent"] != "greedy" or p["board"] != EXPLORE_BOARD:
            continue
        c = cumulative(st.load(t).tables["blocks"])
        frames.append(pd.DataFrame({"learner": "table", "seed": p["seed"], "games": c["games"],
                                    "decisions": c["decisions"], "regret": c["regret"]}))
    return pd.concat(frames, ignore_index=True)


def _at(run: pd.DataFrame, points: np.ndarray) -> np.ndarray:
    """One run's cumulative regret at ``points`` decisions, linearly between its block ends (and from 0 at 0)."""
    x = np.concatenate([[0.0], run["decisions"].to_numpy(float)])
    y = np.concatenate([[0.0], run["regret"].to_numpy(float)])
    return np.interp(points, x, y)


def horizon(runs: pd.DataFrame) -> int:
    """The decisions every run reached: the common end of the comparison."""
    return int(runs.groupby(["learner", "seed"])["decisions"].max().min())


def curves(runs: pd.DataFrame, points: int = 40) -> pd.DataFrame:
    """Per learner, at about ``points`` log-spaced numbers of decisions from the latest first block end to the
    :func:`horizon`: the cumulative regret's mean, lowest and highest over the seeds (``mean``, ``low``, ``high``),
    and the regret per decision between that point and the previous one, mean over the seeds (``rate``;
    NaN at the first point), with the number of ``seeds`` and the learner's ``label``."""
    start = runs.groupby(["learner", "seed"])["decisions"].min().max()
    grid = np.unique(np.geomspace(start, horizon(runs), points).round())
    out = []
    for learner in LEARNERS:
        mine = runs[runs["learner"] == learner]
        if mine.empty:
            continue
        at = np.array([_at(g, grid) for _, g in mine.groupby("seed")])
        rate = np.diff(at, axis=1) / np.diff(grid)
        out.append(pd.DataFrame({"learner": learner, "label": LEARNERS[learner], "decisions": grid,
                                 "mean": at.mean(axis=0), "low": at.min(axis=0), "high": at.max(axis=0),
                                 "rate": np.concatenate([[np.nan], rate.mean(axis=0)]), "seeds": len(at)}))
    return pd.concat(out, ignore_index=True)


def regret_values(runs: pd.DataFrame) -> dict:
    """The numbers the page's paragraph pastes, per learner ``k`` of :data:`LEARNERS`: the cumulative regret at the
    :func:`horizon` (``k``: the mean over the seeds, ``k_low`` and ``k_high`` the extreme seeds), the regret per
    decision over its first and its last tenth (``k_early``, ``k_late``: means over the seeds, ``k_late_low`` and
    ``k_late_high`` the extreme seeds), and ``k_seeds``; with ``horizon`` and ``epsilon``."""
    h = horizon(runs)
    tenth = np.array([0.0, h / 10, h * 9 / 10, h])
    values = {"horizon": h, "epsilon": EXPLORE_EPSILON}
    for learner in LEARNERS:
        mine = runs[runs["learner"] == learner]
        at = np.array([_at(g, tenth) for _, g in mine.groupby("seed")])
        end, early, late = at[:, 3], at[:, 1] / (h / 10), (at[:, 3] - at[:, 2]) / (h / 10)
        values.update({learner: float(end.mean()), f"{learner}_low": float(end.min()),
                       f"{learner}_high": float(end.max()), f"{learner}_early": float(early.mean()),
                       f"{learner}_late": float(late.mean()), f"{learner}_late_low": float(late.min()),
                       f"{learner}_late_high": float(late.max()), f"{learner}_seeds": len(at)})
    return values


def regret_table(runs: pd.DataFrame) -> pd.DataFrame:
    """:func:`regret_values` for the page: one row per learner, its seeds, its cumulative regret at the horizon
    (mean and the seeds' range) and its regret per decision over the first and the last tenth."""
    v = regret_values(runs)
    rows = []
    for k, label in LEARNERS.items():
        rows.append({"learner": label, "seeds": v[f"{k}_seeds"],
                     f"regret after {v['horizon']:,} decisions": f"{v[k]:,.0f} ({v[f'{k}_low']:,.0f} to "
                                                                 f"{v[f'{k}_high']:,.0f})",
                     "per decision, first tenth": f"{v[f'{k}_early']:.4f}",
                     "per decision, last tenth": f"{v[f'{k}_late']:.4f} ({v[f'{k}_late_low']:.4f} to "
                                                 f"{v[f'{k}_late_high']:.4f})"})
    return pd.DataFrame(rows).set_index("learner")


__all__ = ["SPEC", "SEEDS", "LEARNERS", "network_runs", "table_runs", "horizon", "curves", "regret_values",
           "regret_table"]
