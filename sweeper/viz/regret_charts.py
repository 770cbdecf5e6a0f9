"""The regret chapter's charts: they draw the data of :mod:`sweeper.viz.figures.regret` and compute nothing."""

from __future__ import annotations

import altair as alt
import pandas as pd


def curves_chart(data: pd.DataFrame, x: str = "games", log: bool = True) -> alt.LayerChart:
    """Cumulative regret against ``x`` (``games`` or ``decisions``), one line and band per agent."""
    title = {"games": "games played", "decisions": "decisions made"}[x]
    scale = alt.Scale(type="log") if log else alt.Scale()
    legend = alt.Legend(orient="bottom", columns=3, symbolOpacity=1, symbolType="stroke")  # not the bands' tint
    base = alt.Chart(data).encode(x=alt.X(f"{x}:Q", title=title, scale=scale),
                                  color=alt.Color("label:N", title="agent", legend=legend))
    band = base.mark_area(opacity=0.2).encode(y=alt.Y("low:Q", title="cumulative regret", scale=scale), y2="high:Q")
    line = base.mark_line().encode(y="mean:Q", tooltip=["label:N", alt.Tooltip(f"{x}:Q", format=","),
                                                          alt.Tooltip("mean:Q", format=",.0f"), "seeds:Q"])
    return alt.layer(band, line).properties(width=560, height=300)


def parts_chart(gap: pd.DataFrame, learning: pd.DataFrame, x: str = "decisions") -> alt.HConcatChart:
    """The two parts of the cumulative regret against ``x`` (``decisions`` made or ``games`` played; log-log), one
    panel each, one line and band per agent (:func:`bands` with ``column="gap"`` and ``"learning"``). Points where
    a part is not positive (the learning regret of the first games can be) cannot sit on a log axis and are left
    out."""
    if x not in ("decisions", "games"):
        raise ValueError(f"x must be 'decisions' or 'games', got {x!r}")
    xtitle = {"games": "games played", "decisions": "decisions made"}[x]
    panels = []
    legend = alt.Legend(orient="bottom", columns=4, symbolOpacity=1, symbolType="stroke")
    for data in (gap, learning):
        d = data[(data["mean"] > 0) & (data["low"] > 0)]
        title = d["part"].iloc[0] if len(d) else ""
        base = alt.Chart(d).encode(x=alt.X(f"{x}:Q", title=xtitle, scale=alt.Scale(type="log")),
                                   color=alt.Color("label:N", title="agent", legend=legend))
        band = base.mark_area(opacity=0.2).encode(y=alt.Y("low:Q", title=f"cumulative {title}",
                                                          scale=alt.Scale(type="log")), y2="high:Q")
        line = base.mark_line().encode(y="mean:Q", tooltip=["label:N", alt.Tooltip(f"{x}:Q", format=",.0f"),
                                                              alt.Tooltip("mean:Q", format=",.0f"), "seeds:Q"])
        panels.append(alt.layer(band, line).properties(width=300, height=260, title=title))
    return alt.hconcat(*panels)


def tradeoff_chart(data: pd.DataFrame) -> alt.HConcatChart:
    """Regret after a fixed budget against c (UCB) and epsilon (epsilon-greedy), greedy as a rule across."""
    greedy = data[data["rule"] == "greedy"]
    panels = []
    for fam, name in (("UCB", "c"), ("ε-greedy", "ε")):
        d = data[data["rule"] == fam]
        base = alt.Chart(d).encode(x=alt.X("parameter:Q", scale=alt.Scale(type="log"), title=name))
        word = d["part"].iloc[0] if "part" in d.columns and len(d) else "regret"
        pts = base.mark_line(point=True).encode(y=alt.Y("regret:Q", title=f"cumulative {word}",
                                                        scale=alt.Scale(zero=False)),
                                                tooltip=["parameter:Q", alt.Tooltip("regret:Q", format=",.0f")])
        err = base.mark_errorbar().encode(y="low:Q", y2="high:Q")
        rule = alt.Chart(greedy).mark_rule(strokeDash=[4, 3], color="gray").encode(y="regret:Q")
        panels.append(alt.layer(err, pts, rule).properties(width=250, height=220, title=fam))
    return alt.hconcat(*panels)
