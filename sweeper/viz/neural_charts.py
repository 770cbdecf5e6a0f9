"""The charts of the chapter "From a table to a network": they draw the data of :mod:`sweeper.viz.figures.neural`
and compute nothing."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from .board_charts import board_chart

#: How the three levels are named on the charts.
LEVEL_NAMES = {"8x8x10": "beginner (8x8x10)", "16x16x40": "intermediate (16x16x40)", "16x30x99": "expert (16x30x99)"}
#: The comparison players drawn as rules across the learning curves, and their dashes.
RULES = {"solver": ("exact solver", [1, 0]), "greedy": ("greedy table", [6, 3]), "target": ("target", [2, 2])}


#: The work a checkpoints chart can be drawn against: column of the checkpoints -> the axis's title.
WORK_AXES = {"decisions_all": "training decisions (curriculum included)",
             "games_all": "training games (curriculum included)",
             "updates_all": "gradient steps (curriculum included)"}


def checkpoints_chart(points: pd.DataFrame, players: pd.DataFrame, targets: dict, x: str = "decisions_all"
                      ) -> alt.HConcatChart:
    """Frozen test win rate against the work of training so far (``x``, one of :data:`WORK_AXES`: training
    decisions by default), one panel per level, one line per seed with its 95% Wilson interval as error bars; the
    exact solver, the paper's greedy table and the target of each level as horizontal rules (``players``:
    :func:`~sweeper.viz.figures.neural.comparison_players`)."""
    if x not in WORK_AXES:
        raise ValueError(f"x must be one of {', '.join(WORK_AXES)}, got {x!r}")
    title, d = WORK_AXES[x], points.assign(seed=points["seed"].astype(str))
    panels = []
    for board in [b for b in LEVEL_NAMES if b in set(d["board"])]:
        db = d[d["board"] == board]
        base = alt.Chart(db).encode(x=alt.X(f"{x}:Q", title=title.split(" (")[0], axis=alt.Axis(format="~s", tickCount=4)),
                                    color=alt.Color("seed:N", title="seed", legend=alt.Legend(orient="bottom")))
        line = base.mark_line(point=True).encode(
            y=alt.Y("win_rate:Q", title="test win rate (frozen)", scale=alt.Scale(domain=[0, 1])),
            tooltip=["seed:N", *(alt.Tooltip(f"{k}:Q", format=",", title=t.split(" (")[0])
                                 for k, t in WORK_AXES.items()), alt.Tooltip("win_rate:Q", format=".3f")])
        bars = base.mark_errorbar().encode(y=alt.Y("lo:Q", title="test win rate (frozen)"), y2="hi:Q")
        marks = [{"who": RULES[k][0], "value": float(v)} for k, v in
                 (("solver", _rate(players, "solver", board)), ("greedy", _rate(players, "greedy", board)),
                  ("target", targets.get(board, np.nan))) if not np.isnan(v)]
        rules = alt.Chart(pd.DataFrame(marks)).mark_rule(color="gray").encode(
            y="value:Q", strokeDash=alt.StrokeDash("who:N", title="beside them", legend=alt.Legend(orient="bottom"),
                                                   scale=alt.Scale(domain=[v[0] for v in RULES.values()],
                                                                   range=[v[1] for v in RULES.values()])),
            tooltip=["who:N", alt.Tooltip("value:Q", format=".3f")])
        panels.append(alt.layer(rules, bars, line).properties(width=140, height=200, title=LEVEL_NAMES[board]))
    return alt.hconcat(*panels)


def _rate(players: pd.DataFrame, who: str, board: str) -> float:
    r = players[(players["player"] == who) & (players["board"] == board)]
    return float(r["win_rate"].iloc[0]) if len(r) else np.nan


def calibration_chart(cal: pd.DataFrame) -> alt.HConcatChart:
    """The networks' mean predicted P(mine) against the mean exact P(mine) per bin, one panel per test level, one
    colour per training level, the point's area the bin's tiles; the diagonal is perfect calibration
    (``cal``: :func:`~sweeper.viz.figures.neural.calibration`)."""
    d = cal.assign(trained=cal["train"].map(lambda b: f"trained on {b}"))
    diagonal = pd.DataFrame({"exact": [0.0, 1.0], "net": [0.0, 1.0]})
    panels = []
    for board in [b for b in LEVEL_NAMES if b in set(d["test"])]:
        db = d[d["test"] == board]
        diag = alt.Chart(diagonal).mark_line(color="gray", strokeDash=[4, 3]).encode(x="exact:Q", y="net:Q")
        pts = alt.Chart(db).mark_line(point=True).encode(
            x=alt.X("exact:Q", title="exact P(mine)", scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("net:Q", title="network's P(mine)", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("trained:N", title="network", legend=alt.Legend(orient="bottom")),
            tooltip=["trained:N", "bin:N", alt.Tooltip("tiles:Q", format=","), alt.Tooltip("net:Q", format=".3f"),
                     alt.Tooltip("exact:Q", format=".3f")])
        panels.append(alt.layer(diag, pts).properties(width=150, height=150, title=f"tested on {board}"))
    return alt.hconcat(*panels)


def mistake_chart(row) -> alt.LayerChart:
    """One stored mistake on its board (a row of :func:`~sweeper.viz.figures.neural.worst_mistakes`): the view
    before the click, the game's mines drawn dark, the clicked tile outlined."""
    view = np.asarray(row["view"])
    r, c = divmod(int(row["tile"]), view.shape[1])
    title = (f"{LEVEL_NAMES[row['test']]}, decision {int(row['decision'])}: the network gave "
             f"{row['net']:.1%}, the exact P(mine) is {row['exact']:.0%}")
    return board_chart(view, mines=row["mines"], highlight=(r, c), title=title)


def signal_chart(sp: pd.DataFrame) -> alt.HConcatChart:
    """The same architecture under two learning signals (:func:`sweeper.viz.figures.deep.signal_points`): frozen test
    win rate (left, with its 95% Wilson interval) and share of safe tiles revealed per game (right) against the
    training decisions so far (PPO's environment steps; the network's, its warm start's included) on a log axis, one
    line per seed, coloured by learner."""
    d = sp.assign(seed=sp["seed"].astype(str))
    base = alt.Chart(d).encode(
        x=alt.X("decisions:Q", title="training decisions", scale=alt.Scale(type="log"), axis=alt.Axis(format="~s")),
        color=alt.Color("learner:N", title="learner", legend=alt.Legend(orient="bottom")), detail="seed:N",
        tooltip=["learner:N", "seed:N", alt.Tooltip("decisions:Q", format=","), alt.Tooltip("games:Q", format=","),
                 alt.Tooltip("win_rate:Q", format=".3f"), alt.Tooltip("revealed:Q", format=".1%")])
    wins = alt.layer(
        base.mark_errorbar().encode(y=alt.Y("lo:Q", title="test win rate (frozen)"), y2="hi:Q"),
        base.mark_line(point=True).encode(y=alt.Y("win_rate:Q", title="test win rate (frozen)",
                                                  scale=alt.Scale(domain=[0, 1])))
    ).properties(width=230, height=200, title="games won")
    tiles = base.mark_line(point=True).encode(
        y=alt.Y("revealed:Q", title="safe tiles revealed per game", scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%"))).properties(width=230, height=200, title="safe tiles revealed")
    return alt.hconcat(wins, tiles)


__all__ = ["LEVEL_NAMES", "WORK_AXES", "checkpoints_chart", "calibration_chart", "mistake_chart", "signal_chart"]


#: The colours of the learners of the training-regret chart (:data:`~sweeper.viz.figures.neural_regret.LEARNERS`).
REGRET_COLOURS = {"network": "#1f77b4", "exploring": "#ff7f0e", "table": "#2ca02c"}


def training_regret_chart(curves: pd.DataFrame) -> alt.HConcatChart:
    """The training regret against the decisions made (:func:`~sweeper.viz.figures.neural_regret.curves`): on the
    left the cumulative regret (log-log), each learner's mean over its seeds with the band of its lowest and highest
    seed; on the right the regret per decision between consecutive points (log decisions), the mean over the
    seeds."""
    labels = list(dict.fromkeys(curves["label"]))
    colours = [REGRET_COLOURS[k] for k in dict.fromkeys(curves["learner"])]
    colour = alt.Color("label:N", title="learner", scale=alt.Scale(domain=labels, range=colours),
                       legend=alt.Legend(orient="bottom", columns=1, symbolType="stroke", labelLimit=400,
                                         symbolOpacity=1, symbolStrokeWidth=3))
    lo, hi = float(curves["decisions"].min()), float(curves["decisions"].max())
    ticks = [v for v in (1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7) if lo <= v <= hi]
    x = alt.X("decisions:Q", title="training decisions", scale=alt.Scale(type="log", domain=[lo, hi], nice=False),
              axis=alt.Axis(format="~s", values=ticks))
    base = alt.Chart(curves).encode(x=x, color=colour)
    band = base.mark_area(opacity=0.25).encode(y=alt.Y("low:Q", title="cumulative regret", scale=alt.Scale(type="log")),
                                               y2="high:Q")
    line = base.mark_line().encode(y="mean:Q", tooltip=["label:N", alt.Tooltip("decisions:Q", format=","),
                                                          alt.Tooltip("mean:Q", format=",.0f"), "seeds:Q"])
    rate = base.transform_filter("isValid(datum.rate)").mark_line(point=True).encode(
        y=alt.Y("rate:Q", title="regret per decision"),
        tooltip=["label:N", alt.Tooltip("decisions:Q", format=","), alt.Tooltip("rate:Q", format=".4f")])
    return alt.hconcat(alt.layer(band, line).properties(width=230, height=240, title="cumulative"),
                       rate.properties(width=230, height=240, title="per decision, between points"))
