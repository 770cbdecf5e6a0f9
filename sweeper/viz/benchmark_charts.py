"""The leaderboard page's chart: it draws the data of :mod:`sweeper.viz.figures.benchmark` and computes nothing."""

from __future__ import annotations

import altair as alt
import pandas as pd


def cost_chart(points: pd.DataFrame, rules: pd.DataFrame, level: str = "beginner") -> alt.LayerChart:
    """Win rate on ``level``'s boards against CPU seconds of training (log axis): one line per learner through the
    mean of its seeds at each checkpoint, its seeds as points; ``rules`` (columns ``agent`` and ``win_rate``: the
    players that are not trained) as horizontal rules."""
    d = points[points["level"] == level]
    mean = d.groupby(["label", "games_trained"], as_index=False).agg(train_cpu_seconds=("train_cpu_seconds", "mean"),
                                                                     win_rate=("win_rate", "mean"))
    x = alt.X("train_cpu_seconds:Q", title="CPU seconds of training (log scale)", scale=alt.Scale(type="log"))
    y = alt.Y("win_rate:Q", title=f"win rate on {level} boards", scale=alt.Scale(domain=[0, 1]))
    colour = alt.Color("label:N", title="learner", legend=alt.Legend(orient="bottom", columns=2))
    tips = ["label:N", "seed:N", alt.Tooltip("games_trained:Q", format=",", title="games trained"),
            alt.Tooltip("train_cpu_seconds:Q", format=".1f"), alt.Tooltip("win_rate:Q", format=".3f")]
    seeds = alt.Chart(d).mark_point(size=25, opacity=0.5).encode(x=x, y=y, color=colour, tooltip=tips)
    lines = alt.Chart(mean).mark_line().encode(x=x, y=y, color=colour)
    ruled = alt.Chart(rules).mark_rule(color="gray", strokeDash=[4, 3]).encode(
        y="win_rate:Q", tooltip=["agent:N", alt.Tooltip("win_rate:Q", format=".3f")])
    names = alt.Chart(rules).mark_text(align="left", dx=3, dy=-6, color="gray", fontSize=10).encode(
        y="win_rate:Q", x=alt.value(3), text="agent:N")
    return alt.layer(ruled, names, lines, seeds).properties(width=560, height=320)
