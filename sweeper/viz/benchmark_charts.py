"""The leaderboard page's charts: the leaderboard of a level as a forest plot (:func:`forest_chart`) and what training
buys (:func:`cost_chart`). They draw the data of :mod:`sweeper.viz.figures.benchmark` and
:mod:`sweeper.viz.figures.benchmark_cost` and compute nothing but where their labels go. Every text is at least
:data:`FONT` px."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

#: One colour per family of learners (:data:`sweeper.viz.figures.benchmark.FAMILIES`), grey for the untrained.
COLOURS = {"table agent": "#1f77b4", "plug-in rule": "#d95f02", "neural bandit": "#1b8a3a", "PPO": "#7b4fb0",
           "untrained": "#555555"}
RULE_GREY = "#666666"
#: The chart's smallest font (px), its label height and the rough width of one character at that size; the titles'
#: font.
FONT, LINE, CHAR, TITLE = 11, 14, 6.3, 12
#: The cost chart's plot (px): with its axis and its column of labels it fits the book's text column (676 px).
WIDTH, HEIGHT = 400, 340
#: The forest plot: its plot's width, one row's height and the width of its column of numbers (px).
FOREST_WIDTH, ROW, NUMBERS = 330, 19, 150


def _column(want: list, height: float) -> list:
    """Centres (px from the top) for labels stacked in one column, in the order of ``want`` (their points'
    heights), each at least a line from the next, as near their points as that allows: overlapping neighbours
    merge into a block centred on their mean, kept inside ``[0, height]``."""
    order = sorted(range(len(want)), key=lambda i: (want[i], i))
    blocks = []  # [first centre, count, sum of wants]
    for i in order:
        blocks.append([want[i], 1, want[i]])
        while True:
            if len(blocks) > 1 and blocks[-2][0] + blocks[-2][1] * LINE > blocks[-1][0]:
                top, last = blocks[-2], blocks.pop()
                n, total = top[1] + last[1], top[2] + last[2]
                top[:] = [total / n - (n - 1) * LINE / 2, n, total]
            first, n, _ = blocks[-1]
            blocks[-1][0] = min(max(first, LINE / 2), height - LINE / 2 - (n - 1) * LINE)
            if len(blocks) < 2 or blocks[-2][0] + blocks[-2][1] * LINE <= blocks[-1][0]:
                break
    y = [0.0] * len(want)
    k = 0
    for first, n, _ in blocks:
        for j in range(n):
            y[order[k]] = first + j * LINE
            k += 1
    return y


def _free(box, taken) -> bool:
    x0, x1, y0, y1 = box
    return all(x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0 for a0, a1, b0, b1 in taken)


def _labels(ends: pd.DataFrame, rules: pd.DataFrame, points: pd.DataFrame, lo: float, hi: float) -> pd.DataFrame:
    """Where each label goes: the learners that reach the chart's right end and the rules in one column right of
    the plot, in the order of their points; the others beside their last point, at the first place near it (left,
    right, then a line further down or up at a time) that overlaps no label, rule, point or line. Columns: text,
    ``colour``, the label's x and y (data units) and ``align``, the point it names (``ax``, ``ay``) and where a
    leader line from that point ends (``x``, ``ey``)."""
    span = np.log10(hi) - np.log10(lo)
    px = lambda x: (np.log10(x) - np.log10(lo)) / span * WIDTH  # noqa: E731
    py = lambda y: (1 - y) * HEIGHT  # noqa: E731
    column, inside = [], []
    for r in ends.itertuples():
        row = {"text": r.label, "colour": COLOURS.get(r.family, RULE_GREY), "ax": r.train_decisions,
               "ay": r.win_rate}
        (column if px(r.train_decisions) > WIDTH - 40 else inside).append(row)
    for r in rules.itertuples():
        column.append({"text": f"{r.agent} ({r.win_rate:.3f})", "colour": RULE_GREY, "ax": hi, "ay": r.win_rate})
    for row, y in zip(column, _column([py(r["ay"]) for r in column], HEIGHT)):
        row.update(lx=WIDTH + 14, ly=y, align="left")
    taken = [(0, WIDTH, py(r.win_rate) - 2, py(r.win_rate) + 2) for r in rules.itertuples()]
    taken += [(px(x) - 5, px(x) + 5, py(y) - 5, py(y) + 5) for x, y in zip(points["train_decisions"],
                                                                           points["win_rate"])]
    for _, line in points.sort_values("train_decisions").groupby("label", sort=False):  # the lines, every 3 px
        xy = [(px(x), py(y)) for x, y in zip(line["train_decisions"], line["win_rate"])]
        for (x0, y0), (x1, y1) in zip(xy, xy[1:]):
            for t in np.linspace(0, 1, max(2, int(np.hypot(x1 - x0, y1 - y0) / 3))):
                x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
                taken.append((x - 1.5, x + 1.5, y - 1.5, y + 1.5))
    for row in sorted(inside, key=lambda r: -r["ay"]):
        x, y, w = px(row["ax"]), py(row["ay"]), CHAR * len(row["text"]) + 4
        for dy in (0, *(s * k * LINE for k in range(1, 12) for s in (1, -1))):
            sides = [("right", x - 8 - w, x - 8), ("left", x + 8, x + 8)]
            hit = next(((a, x0, lx) for a, x0, lx in sides if x0 >= 0 and x0 + w <= WIDTH
                        and 0 <= y + dy - LINE / 2 and y + dy + LINE / 2 <= HEIGHT
                        and _free((x0, x0 + w, y + dy - LINE / 2, y + dy + LINE / 2), taken)), None)
            if hit:
                align, x0, lx = hit
                taken.append((x0, x0 + w, y + dy - LINE / 2, y + dy + LINE / 2))
                row.update(lx=lx, ly=y + dy, align=align)
                break
        else:
            row.update(lx=x + 8, ly=y, align="left")
    out = pd.DataFrame(column + inside)
    out["x"] = 10 ** (np.log10(lo) + out["lx"] / WIDTH * span)
    out["y"] = 1 - out["ly"] / HEIGHT
    # a leader line ends at the label's near edge: its middle in the column, its top or bottom beside a point
    edge = np.where(out["lx"] > WIDTH, 0.0, np.sign(out["ay"] - out["y"]) * (LINE / 2 - 1) / HEIGHT)
    out["ey"] = out["y"] + edge
    return out


def _axis(title: str, **kw) -> alt.Axis:
    return alt.Axis(title=title, labelFontSize=FONT, titleFontSize=TITLE, **kw)


def cost_chart(points: pd.DataFrame, rules: pd.DataFrame, level: str = "beginner") -> alt.LayerChart:
    """Win rate on ``level``'s boards against the training's counted work (``points``:
    :func:`~sweeper.viz.figures.benchmark_cost.cost_points`; x: ``train_decisions``, log axis): one colour per family
    of learners, a line through the mean of each learner's seeds at each checkpoint; a learner named alone (its
    ``series`` is its label) drawn bold with its seeds as small points, the others of its family thin and named
    together (their ``series``), at the end of the lowest of them; ``rules`` (columns ``agent`` and ``win_rate``: the
    players without training) as dashed horizontal rules, named right of the plot. Every label is at least
    :data:`FONT` px and none overprints another; the names stand for a legend."""
    d = points[points["level"] == level]
    mean = d.groupby(["label", "family", "series", "step"], as_index=False, sort=False).agg(
        train_decisions=("train_decisions", "mean"), win_rate=("win_rate", "mean"), seeds=("seed", "nunique"))
    mean["alone"] = mean["series"] == mean["label"]
    last = mean.sort_values("train_decisions").groupby("label", sort=False).tail(1)
    ends = last.sort_values("win_rate", kind="stable").groupby("series", sort=False).head(1)  # a group: its lowest
    lo, hi = d["train_decisions"].min() / 5, d["train_decisions"].max() * 1.25  # room for labels on the left
    ticks = [m * 10 ** k for k in range(0, 13) for m in (1, 3) if lo <= m * 10 ** k <= hi]
    placed = _labels(ends.assign(label=ends["series"]), rules, mean, lo, hi)
    scale = alt.Scale(type="log", domain=[lo, hi], nice=False)
    x = alt.X("train_decisions:Q", scale=scale,
              axis=_axis("decisions of training so far (PPO: environment steps), log scale", format="~s",
                         values=ticks))
    y = alt.Y("win_rate:Q", scale=alt.Scale(domain=[0, 1]), axis=_axis(f"win rate on {level} boards"))
    shown = [f for f in COLOURS if f in set(d["family"])]  # the families drawn, in a fixed order and colour
    colour = alt.Color("family:N", legend=None, scale=alt.Scale(domain=shown, range=[COLOURS[f] for f in shown]))
    tips = ["label:N", "seed:N", alt.Tooltip("games_trained:Q", format=",", title="games trained"),
            alt.Tooltip("train_decisions:Q", format=",", title="decisions"), alt.Tooltip("win_rate:Q", format=".3f"),
            "shown:N"]
    alone = set(mean.loc[mean["alone"], "label"])
    seeds = alt.Chart(d[d["label"].isin(alone)]).mark_point(size=18, opacity=0.45, filled=True).encode(
        x=x, y=y, color=colour, tooltip=tips)
    width = alt.condition("datum.alone", alt.value(2.4), alt.value(1.1))
    lines = alt.Chart(mean).mark_line().encode(x=x, y=y, color=colour, detail="label:N", strokeWidth=width,
                                               opacity=alt.condition("datum.alone", alt.value(1), alt.value(0.6)))
    means = alt.Chart(mean).mark_point(filled=True, opacity=1).encode(
        x=x, y=y, color=colour, size=alt.condition("datum.alone", alt.value(45), alt.value(14)),
        tooltip=["label:N", alt.Tooltip("seeds:Q", title="seeds"),
                 alt.Tooltip("train_decisions:Q", format=",", title="decisions (mean)"),
                 alt.Tooltip("win_rate:Q", format=".3f", title="win rate (mean)")])
    ruled = alt.Chart(rules).mark_rule(color=RULE_GREY, strokeDash=[4, 3]).encode(
        y="win_rate:Q", tooltip=["agent:N", alt.Tooltip("win_rate:Q", format=".3f")])
    led = ((placed["y"] - placed["ay"]).abs() * HEIGHT > 4) | (placed["lx"] > WIDTH)
    lead = alt.Chart(placed[led]).mark_rule(color="#999999", strokeWidth=0.7).encode(
        x=alt.X("ax:Q", scale=scale), y=alt.Y("ay:Q"), x2="x:Q", y2="ey:Q")
    names = [alt.Chart(placed[placed["align"] == a]).mark_text(align=a, baseline="middle", fontSize=FONT,
                                                               dx=3 if a == "left" else -3).encode(
        x=alt.X("x:Q", scale=scale), y=alt.Y("y:Q"), text="text:N", color=alt.Color("colour:N", scale=None))
        for a in ("left", "right")
        if (placed["align"] == a).any()]
    return alt.layer(ruled, lead, lines, seeds, means, *names).properties(width=WIDTH, height=HEIGHT)


def forest_chart(data: dict, level: str, boards: int) -> alt.HConcatChart:
    """The leaderboard of ``level`` as a forest plot (``data``: :func:`~sweeper.viz.figures.benchmark.forest`): a row
    per entry, best mean first, named on the left; a learner's mean win rate over its seeds (a tick) with its
    t-interval (a pale bar) and each seed's rate (a dot), a player without training with the Wilson interval of its
    games, in grey; one colour per family of learners; beside the plot, each row's mean and interval as the table
    prints them. Every text is at least :data:`FONT` px."""
    rows, seeds = data["rows"], data["seeds"]
    order = list(rows["agent"])
    height = ROW * len(order)
    y = alt.Y("agent:N", sort=order, title=None,
              axis=alt.Axis(labelFontSize=TITLE, labelLimit=200, ticks=False, domain=False, labelPadding=6))
    x = alt.X("win_rate:Q", scale=alt.Scale(domain=[0, 1]),
              axis=_axis(f"win rate on the first {boards:,} {level} boards", format=".1f", tickCount=5))
    shown = [f for f in COLOURS if f in set(rows["family"])]
    colour = alt.Color("family:N", scale=alt.Scale(domain=shown, range=[COLOURS[f] for f in shown]),
                       legend=alt.Legend(orient="bottom", title=None, labelFontSize=FONT, symbolType="circle",
                                         symbolOpacity=1, columns=3, labelLimit=200))
    tips = ["agent:N", alt.Tooltip("text:N", title="win rate [95%]"), "interval:N", "seeds:Q"]
    bars = alt.Chart(rows).mark_bar(height=ROW - 7, opacity=0.35).encode(x="low:Q", x2="high:Q", y=y, color=colour,
                                                                          tooltip=tips)
    means = alt.Chart(rows).mark_tick(thickness=2.5, size=ROW - 3, opacity=1).encode(x=x, y=y, color=colour,
                                                                                     tooltip=tips)
    dots = alt.Chart(seeds).mark_circle(size=16, opacity=1, stroke="white", strokeWidth=0.8).encode(
        x=x, y=y, color=colour, tooltip=["agent:N", "seed:N", alt.Tooltip("win_rate:Q", format=".4f")])
    plot = alt.layer(bars, means, dots).properties(width=FOREST_WIDTH, height=height)
    numbers = alt.Chart(rows).mark_text(align="left", baseline="middle", fontSize=TITLE).encode(
        y=alt.Y("agent:N", sort=order, axis=None), text="text:N",
        x=alt.value(4)).properties(width=NUMBERS, height=height, title=alt.Title(
            "win rate [95%]", fontSize=TITLE, fontWeight="normal", anchor="start", orient="bottom", offset=26))
    return alt.hconcat(plot, numbers, spacing=4).configure_view(stroke=None)
