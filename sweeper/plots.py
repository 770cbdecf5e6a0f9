"""Altair charts of the paper's figures, one function per figure (LaTeX label in the name).

Each takes the tidy table of the matching :mod:`sweeper.figures` function and
returns a chart; nothing here computes results or displays anything.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

AGENT_ORDER = ["greedy", "egreedy:0.01", "egreedy:0.05", "egreedy:0.1", "ucb:0.01", "ucb:0.1", "ucb:0.5", "ucb:1"]
WIDTH, HEIGHT = 440, 280


def _episodes_axis():
    return alt.X("episode:Q", title="training episodes", axis=alt.Axis(format="~s"))


def fig_exp_1(df: pd.DataFrame) -> alt.Chart:
    """Cumulative training win rate of every agent (paper fig:exp_1)."""
    sel = alt.selection_point(fields=["agent"], bind="legend")
    return alt.Chart(df, title="fig:exp_1 - training win rate, 8x8x10").mark_line().encode(
        _episodes_axis(),
        alt.Y("cum_win_rate:Q", title="cumulative win rate", scale=alt.Scale(domain=[0, 1])),
        alt.Color("agent:N", sort=AGENT_ORDER, title="agent", legend=alt.Legend(orient="bottom", columns=4)),
        opacity=alt.condition(sel, alt.value(1), alt.value(0.15)),
        tooltip=["agent", "episode", alt.Tooltip("cum_win_rate:Q", format=".4f"),
                 alt.Tooltip("block_win_rate:Q", format=".4f", title="win rate in block")],
    ).add_params(sel).properties(width=WIDTH, height=HEIGHT)


def fig_exp_2(df: pd.DataFrame) -> alt.Chart:
    """Actions recorded and perfect actions over episodes (paper fig:exp_2)."""
    return alt.Chart(df, title="fig:exp_2 - actions recorded, greedy vs UCB(0.1)").mark_line().encode(
        _episodes_axis(),
        alt.Y("count:Q", title="actions", axis=alt.Axis(format="~s")),
        alt.Color("agent:N", legend=alt.Legend(orient="bottom")),
        alt.StrokeDash("actions:N", title="actions", legend=alt.Legend(orient="bottom")),
        tooltip=["agent", "actions", "episode", alt.Tooltip("count:Q", format=",")],
    ).properties(width=WIDTH, height=HEIGHT)


def fig_exp_5(df: pd.DataFrame) -> alt.Chart:
    """ECDF of the learned action values, one panel per agent (paper fig:exp_5)."""
    return alt.Chart(df).mark_line(interpolate="step-after").encode(
        alt.X("q:Q", title="Q(a)", scale=alt.Scale(domain=[-1, 1])),
        alt.Y("ecdf:Q", title="fraction of recorded actions"),
        tooltip=[alt.Tooltip("q:Q", format=".3f"), alt.Tooltip("ecdf:Q", format=".3f")],
    ).properties(width=WIDTH, height=150).facet(row=alt.Row("agent:N", title=None)).properties(
        title="fig:exp_5 - ECDF of Q, greedy (top) and UCB(0.1)")


def fig_exp_4(df: pd.DataFrame) -> alt.Chart:
    """Training curves of the ablations, one panel per agent (paper fig:exp_4)."""
    return alt.Chart(df).mark_line().encode(
        _episodes_axis(),
        alt.Y("cum_win_rate:Q", title="cumulative win rate", scale=alt.Scale(domain=[0, 1])),
        alt.Color("variant:N", sort=["flags + symmetries", "no symmetries", "no flags", "neither"],
                  legend=alt.Legend(orient="bottom", columns=2)),
        tooltip=["agent", "variant", "episode", alt.Tooltip("cum_win_rate:Q", format=".4f")],
    ).properties(width=200, height=200).facet(column=alt.Column("agent:N", title=None)).properties(
        title="fig:exp_4 - without flags, without symmetries, without both")


def _heatmap(df, x, y, x_title, y_title, title, x_sort=None) -> alt.LayerChart:
    base = alt.Chart(df).encode(
        alt.X(f"{x}:O", title=x_title, sort=x_sort),
        alt.Y(f"{y}:O", title=y_title, sort="descending"),
    )
    tiles = base.mark_rect().encode(
        alt.Color("win_rate:Q", title="win rate", scale=alt.Scale(domain=[0, 1], scheme="viridis")),
        tooltip=["train_setting", alt.Tooltip("win_rate:Q", format=".4f"),
                 alt.Tooltip("ci_low:Q", format=".4f", title="95% CI low"),
                 alt.Tooltip("ci_high:Q", format=".4f", title="95% CI high"), "games"])
    text = base.mark_text(fontSize=10).encode(
        alt.Text("win_rate:Q", format=".2f"),
        color=alt.condition(alt.datum.win_rate > 0.55, alt.value("black"), alt.value("white")))
    return (tiles + text).properties(width=380, height=300, title=title)


def fig_exp_6(df: pd.DataFrame) -> alt.LayerChart:
    """Win rate per board height x width at density 0.15625 (paper fig:exp_6)."""
    return _heatmap(df, "cols", "rows", "width (columns)", "height (rows)",
                    "fig:exp_6 - greedy training win rate, mines = round(0.15625 w h)")


def fig_exp_7(df: pd.DataFrame) -> alt.LayerChart:
    """Win rate per board height x mine density at width 10 (paper fig:exp_7)."""
    return _heatmap(df, "target_density", "rows", "mine density", "height (rows)",
                    "fig:exp_7 - greedy training win rate, width 10")
