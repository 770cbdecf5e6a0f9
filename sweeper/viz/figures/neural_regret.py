"""The chapter "From a table to a network", its training regret: every decision the beginner networks made while
they learned, scored against the exact probabilities, beside the paper's greedy table's from the regret chapter.

The networks (``ext:neural_regret``) are the book's beginner networks trained again to their first checkpoint (the
same seeds and recipe: the same training up to there) and their exploring twins; the table is the greedy agent of
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
    frame of :func:`network_runs` (``learner`` ``"table"``), with its representation ``gap`` so far (the part of its
    regret that no table of windows can learn away: the regret chapter's split), and its ``flags`` and their regret
    (``regret_flags``) so far: its decisions count its flags, the networks' only clicks."""
    st, tasks = paper_spec("ext:regret", ex.REGRET_SEEDS["paper"])
    frames = []
    for t in tasks:
        p = t.params
        if p["agent"] != "greedy" or p["board"] != EXPLORE_BOARD:
            continue
        c = cumulative(st.load(t).tables["blocks"])
        frames.append(pd.DataFrame({"learner": "table", "seed": p["seed"], "games": c["games"],
                                    "decisions": c["decisions"], "regret": c["regret"], "gap": c["gap"],
                                    "flags": c["flags"], "regret_flags": c["regret_flags"]}))
    return pd.concat(frames, ignore_index=True)


def learners() -> pd.DataFrame:
    """The networks' runs (:func:`network_runs`) and the table's (:func:`table_runs`) in one frame."""
    return pd.concat([network_runs(), table_runs()], ignore_index=True)


def _at(run: pd.DataFrame, points: np.ndarray, column: str = "regret") -> np.ndarray:
    """One run's cumulative ``column`` at ``points`` decisions, linearly between its block ends (and from 0 at 0)."""
    x = np.concatenate([[0.0], run["decisions"].to_numpy(float)])
    y = np.concatenate([[0.0], run[column].to_numpy(float)])
    return np.interp(points, x, y)


def horizon(runs: pd.DataFrame) -> int:
    """The decisions every run reached: the common end of the comparison."""
    return int(runs.groupby(["learner", "seed"])["decisions"].max().min())


def _grid(runs: pd.DataFrame, points: int) -> np.ndarray:
    """About ``points`` log-spaced numbers of decisions from the latest first block end to the :func:`horizon`, never
    closer together than the widest block of any run (so that no two consecutive points fall in one block, where the
    regret per decision between them would only be read off a straight line)."""
    first = runs.groupby(["learner", "seed"])["decisions"].min().max()
    widest = runs.groupby(["learner", "seed"])["decisions"].diff().max()
    end = horizon(runs)
    ratio = (end / first) ** (1 / max(points - 1, 1))
    grid = [float(first)]
    while grid[-1] < end:
        grid.append(min(max(grid[-1] * ratio, grid[-1] + widest), end))
    return np.unique(np.round(grid))


def curves(runs: pd.DataFrame, points: int = 40) -> pd.DataFrame:
    """Per learner, at about ``points`` log-spaced numbers of decisions from the latest first block end to the
    :func:`horizon`, never closer than the widest block (:func:`_grid`): the cumulative regret's mean, lowest and highest over the seeds (``mean``, ``low``, ``high``),
    and the regret per decision between that point and the previous one, mean over the seeds (``rate``;
    NaN at the first point), with the number of ``seeds`` and the learner's ``label``."""
    grid = _grid(runs, points)
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


#: How one learner's cumulative regret at the horizon stands to another's, by their seeds' ranges.
AGAINST = {1: "more than the greedy table's (every seed above every seed of the table)",
           -1: "less than the greedy table's (every seed below every seed of the table)",
           0: "about as much as the greedy table's (their seeds' ranges overlap)"}


def _against(values: dict, a: str, b: str) -> str:
    """:data:`AGAINST`'s words for learner ``a`` against ``b`` (``b`` the table) from :func:`regret_values`."""
    side = 1 if values[f"{a}_low"] > values[f"{b}_high"] else -1 if values[f"{a}_high"] < values[f"{b}_low"] else 0
    return AGAINST[side]


def regret_values(runs: pd.DataFrame) -> dict:
    """The numbers the page's paragraph pastes, per learner ``k`` of :data:`LEARNERS`: the cumulative regret at the
    :func:`horizon` (``k``: the mean over the seeds, ``k_low`` and ``k_high`` the extreme seeds), the regret per
    decision over its first and its last tenth (``k_early``, ``k_late``: means over the seeds, ``k_late_low`` and
    ``k_late_high`` the extreme seeds), and ``k_seeds``; ``table_gap_late``, the part of the table's last tenth that is
    its representation gap (where ``runs`` has the column ``gap``), and ``gap_times`` that over the networks' last
    tenth; with ``horizon`` and ``epsilon``; and the ratios
    the prose states: ``table_times`` (the table's regret at the horizon over the networks'), ``table_late_times``
    (the same over the last tenth), ``network_fall`` and ``table_fall`` (each one's first tenth's rate over its last
    tenth's), ``exploring_times`` (the exploring networks' regret over the greedy ones'), ``exploring_late_extra``
    (their difference per decision over the last tenth) and ``per_random_click`` (that difference over ε: what each
    random click cost, were the exploring networks' other clicks as good as the greedy ones'), with
    ``exploring_vs_table`` (:data:`AGAINST`); where ``runs`` has the table's ``flags``: ``table_flag_share`` (the
    share of its decisions that were flags), ``table_per_click`` (its regret on clicks per click, flags left out)
    and ``network_per_decision`` (the networks' regret per decision), all at the horizon, and ``click_times`` (the
    first over the second)."""
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
    values.update(one_in=1 / EXPLORE_EPSILON, table_times=values["table"] / values["network"],
                  table_late_times=values["table_late"] / values["network_late"],
                  network_fall=values["network_early"] / values["network_late"],
                  table_fall=values["table_early"] / values["table_late"],
                  exploring_times=values["exploring"] / values["network"],
                  exploring_late_extra=values["exploring_late"] - values["network_late"],
                  per_random_click=(values["exploring_late"] - values["network_late"]) / EXPLORE_EPSILON)
    values["exploring_vs_table"] = _against(values, "exploring", "table")
    if "gap" in runs.columns:
        table = runs[runs["learner"] == "table"]
        gap = np.array([_at(g, tenth[2:], "gap") for _, g in table.groupby("seed")])
        values["table_gap_late"] = float(((gap[:, 1] - gap[:, 0]) / (h / 10)).mean())
        values["gap_times"] = values["table_gap_late"] / values["network_late"]
    if "flags" in runs.columns:  # the table's flags left out: its clicks and their regret, at the horizon
        table = runs[runs["learner"] == "table"]
        at = np.array([[_at(g, np.array([h]), c)[0] for c in ("flags", "regret", "regret_flags")]
                       for _, g in table.groupby("seed")])
        values["table_flag_share"] = float((at[:, 0] / h).mean())
        values["table_per_click"] = float(((at[:, 1] - at[:, 2]) / (h - at[:, 0])).mean())
        values["network_per_decision"] = values["network"] / h
        values["click_times"] = values["table_per_click"] / values["network_per_decision"]
    return values


def quarter_rates(runs: pd.DataFrame) -> pd.DataFrame:
    """Per learner and seed, the regret per decision over the third and the last quarter of the :func:`horizon`
    (``third``, ``last``) and their ratio ``last / third``: below 1 where the learner still improves at the end."""
    h = horizon(runs)
    q = np.array([h / 2, h * 3 / 4, h])
    rows = []
    for (learner, seed), g in runs.groupby(["learner", "seed"], sort=False):
        r = _at(g, q)
        third, last = (r[1] - r[0]) / (h / 4), (r[2] - r[1]) / (h / 4)
        rows.append({"learner": LEARNERS[learner], "seed": seed, "third": third, "last": last, "ratio": last / third})
    return pd.DataFrame(rows)


#: What the ratios of :func:`quarter_rates` say of a learner, by whether every seed's is below 1, none is, or some.
TRENDS = {"all": "still falling for every seed", "none": "no longer falling for any seed",
          "some": "falling for some seeds and not for others"}


def quarter_values(q: pd.DataFrame) -> dict:
    """:func:`quarter_rates` per learner ``k`` of :data:`LEARNERS` for the page: ``k_third``, ``k_last``, ``k_ratio``
    (means over the seeds), ``k_fall`` (1 - the mean ratio) and ``k_trend`` (:data:`TRENDS`)."""
    values = {}
    for k, label in LEARNERS.items():
        mine = q[q["learner"] == label]
        below = (mine["ratio"] < 1).to_numpy()
        trend = "all" if below.all() else "none" if not below.any() else "some"
        values.update({f"{k}_third": float(mine["third"].mean()), f"{k}_last": float(mine["last"].mean()),
                       f"{k}_ratio": float(mine["ratio"].mean()), f"{k}_fall": 1 - float(mine["ratio"].mean()),
                       f"{k}_trend": TRENDS[trend], f"{k}_seeds": len(mine)})
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


__all__ = ["SPEC", "SEEDS", "LEARNERS", "network_runs", "table_runs", "learners", "horizon", "curves", "regret_values",
           "regret_table", "quarter_rates", "TRENDS", "quarter_values",
           "AGAINST"]
